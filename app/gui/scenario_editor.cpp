// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/scenario_editor.h"

#include "app/gui/program_editor.h"
#include "app/gui/save_file.h"
#include "app/gui/scenario_doc.h"
#include "engine/kernel_rules.h"
#include "scenarios/scenario.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QUndoCommand>
#include <QVBoxLayout>

#include <fstream>
#include <sstream>

using scen::JsonValue;
using namespace scenario_doc;

// One edit: the document before and after it.
class EditCommand : public QUndoCommand {
  public:
    EditCommand(ScenarioEditor* e, const QString& what, JsonValue before, JsonValue after)
        : QUndoCommand(what), editor_(e), before_(std::move(before)), after_(std::move(after)) {}
    void undo() override { editor_->setDoc(before_); }
    void redo() override { editor_->setDoc(after_); }

  private:
    ScenarioEditor* editor_;
    JsonValue before_, after_;
};

namespace {

constexpr const char* kNewScenario = R"({
  "name": "my-scenario",
  "description": "Two tasks on one CPU: a hog and a periodic waker.",
  "duration": "1s",
  "machine": { "cpus": 1, "hz": 250, "kernel": "6.18", "preempt": "full" },
  "tasks": [
    { "comm": "hog", "behavior": [ { "repeat": "forever", "body": [ { "run": "10ms" } ] } ] }
  ]
})";

} // namespace

ScenarioEditor::ScenarioEditor(QWidget* parent) : QWidget(parent, Qt::Window) {
    setWindowTitle(tr("Scenario editor"));
    build();
    newScenario();
    resize(980, 720);
}

void ScenarioEditor::newScenario() {
    loadText(kNewScenario, QString());
}

bool ScenarioEditor::loadText(const std::string& text, const QString& source) {
    JsonValue v;
    scen::JsonError e;
    if (!scen::parseJson(text, v, e) || !v.isObject()) return false;
    path_ = source;
    setNote(QString());
    hadComments_ = hasComments(text);
    pendingWhole_ = pendingProgram_ = false;
    undo_.clear();
    setDoc(v);
    setWindowModified(false);
    setWindowTitle(tr("Scenario editor - %1[*]")
                       .arg(source.isEmpty() ? tr("new scenario") : QFileInfo(source).fileName()));
    if (tasks_->rowCount() > 0) tasks_->selectRow(0);
    return true;
}

bool ScenarioEditor::openFile(const QString& path, QString* error) {
    std::string text;
    scen::ScenarioError err;
    if (!scen::readTextFile(QFile::encodeName(path).toStdString(), text, err)) {
        if (error) *error = QString::fromStdString(err.text());
        return false;
    }
    if (!loadText(text, path)) {
        // Not JSON (or not an object): the file opens as it is in the JSON tab, to be mended there.
        // Nothing applies, saves or runs until it parses; the status names the line and column.
        loadText("{}", path);
        whole_->setPlainText(QString::fromStdString(text)); // pending: typed, not applied
        tabs_->setCurrentWidget(whole_->parentWidget());
        applyWhole(); // fails, and says where
        setWindowModified(false);
    }
    return true;
}

bool ScenarioEditor::saveTo(const QString& path, QString* error) {
    const std::string text = json();
    if (const QString err = saveFile(path, text); !err.isEmpty()) {
        if (error) *error = err;
        return false;
    }
    path_ = path;
    setWindowModified(false);
    setWindowTitle(tr("Scenario editor - %1[*]").arg(QFileInfo(path).fileName()));
    return true;
}

void ScenarioEditor::save(bool as) {
    if (!applyPending()) return; // the typed text does not parse: the status line says where
    QString p = path_;
    if (as || p.isEmpty())
        p = QFileDialog::getSaveFileName(this, tr("Save scenario"), path_.isEmpty() ? "scenario.json" : path_,
                                         tr("Scenarios (*.json)"));
    if (p.isEmpty()) return;
    if (p == path_ && hadComments_ &&
        QMessageBox::question(
            this, tr("Save without the comments?"),
            tr("%1 has // comments. The editor writes the scenario without them (and in its own "
               "layout). Save over it anyway? (No: use Save as for a new file.)")
                .arg(QFileInfo(p).fileName())) != QMessageBox::Yes)
        return;
    QString err;
    if (!saveTo(p, &err)) QMessageBox::warning(this, tr("Cannot save"), err);
}

bool ScenarioEditor::applyPending() {
    if (pendingWhole_ && !applyWhole()) return false;
    if (pendingProgram_ && !applyBehavior()) return false;
    return true;
}

bool ScenarioEditor::maybeSave() {
    if (!isWindowModified()) return true;
    const auto answer = QMessageBox::question(this, tr("Unsaved changes"),
                                              tr("The scenario has changes that are not saved. Save them?"),
                                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Save) save(path_.isEmpty());
    return answer == QMessageBox::Discard || !isWindowModified();
}

void ScenarioEditor::closeEvent(QCloseEvent* e) {
    if (maybeSave())
        e->accept();
    else
        e->ignore();
}

bool ScenarioEditor::applyWhole() {
    JsonValue v;
    scen::JsonError e;
    if (!parseJson(whole_->toPlainText().toStdString(), v, e) || !v.isObject()) {
        status_->setText(
            tr("The JSON tab is not applied: line %1, column %2: %3")
                .arg(e.pos.line)
                .arg(e.pos.column)
                .arg(QString::fromStdString(e.message.empty() ? "not a JSON object" : e.message)));
        status_->setStyleSheet("color: #c0392b;");
        return false;
    }
    pendingWhole_ = false;
    edit(tr("Edit the JSON"), [&v](JsonValue& d) { d = v; });
    return true;
}

bool ScenarioEditor::edit(const QString& what, const std::function<void(JsonValue&)>& change) {
    JsonValue after = doc_;
    change(after);
    if (scen::writeJson(after) == scen::writeJson(doc_)) return false; // nothing changed: no undo step
    undo_.push(new EditCommand(this, what, doc_, std::move(after)));   // redo() applies it
    setWindowModified(true);
    return true;
}

void ScenarioEditor::setDoc(const JsonValue& doc) {
    doc_ = doc;
    fromDoc();
    validate();
}

void ScenarioEditor::fromDoc() {
    loading_ = true;
    const auto str = [this](const JsonValue& o, const char* key) {
        const JsonValue* v = o.find(key);
        return v ? QString::fromStdString(v->text) : QString();
    };
    name_->setText(str(doc_, "name"));
    description_->setText(str(doc_, "description"));
    duration_->setText(str(doc_, "duration"));
    const JsonValue* m = doc_.find("machine");
    const JsonValue none = scen::jsonObject();
    const JsonValue& mach = m && m->isObject() ? *m : none;
    cpus_->setValue(mach.find("cpus") ? int(mach.find("cpus")->number) : 2);
    hz_->setCurrentText(mach.find("hz") ? QString::fromStdString(mach.find("hz")->text) : "250");
    kernel_->setCurrentText(mach.find("kernel") ? str(mach, "kernel") : "6.18");
    const int model = mach.find("preempt") ? preempt_->findText(str(mach, "preempt")) : 0;
    preempt_->setCurrentIndex(std::max(0, model));
    baseSlice_->setText(str(mach, "base_slice"));
    const int keep = tasks_->currentRow();
    const JsonValue* tasks = doc_.find("tasks");
    const int n = tasks && tasks->isArray() ? int(tasks->items.size()) : 0;
    tasks_->setRowCount(n);
    for (int r = 0; r < n; ++r) {
        const JsonValue& t = tasks->items[size_t(r)];
        const JsonValue* workload = t.isObject() ? t.find("workload") : nullptr;
        for (int c = 0; c < Columns; ++c) {
            QString text = t.isObject() ? cellText(t.find(kKeys[c])) : QString();
            if (workload && c == Comm)
                text = tr("(workload) %1 %2")
                           .arg(QString::fromStdString(workload->text), cellText(t.find("args")));
            auto* item = new QTableWidgetItem(text);
            if (workload) item->setFlags(item->flags() & ~Qt::ItemIsEditable); // edited as JSON below
            tasks_->setItem(r, c, item);
        }
    }
    whole_->setPlainText(QString::fromStdString(json()));
    pendingWhole_ = false;
    loading_ = false;
    if (n > 0) {
        loading_ = true;
        tasks_->setCurrentCell(std::clamp(keep, 0, n - 1), 0);
        loading_ = false;
    }
    showSelectedProgram();
}

void ScenarioEditor::showSelectedProgram() {
    const JsonValue* t = selectedTask();
    const int row = tasks_->currentRow();
    const bool workload = t && t->isObject() && t->find("workload");
    QString shared;
    const JsonValue* b = programOf(doc_, row, &shared);
    behaviorLabel_->setText(
        workload ? tr("A workload entry: its operations are the tool's. Its fields (tool, args, slice, nice, "
                      "start) are edited as JSON:")
        : !shared.isEmpty() ? tr("The shared program \"%1\" (scenario programs): a change applies to every "
                                 "task that runs it.")
                                  .arg(shared)
                            : tr("The task's program: what each of its tasks does, in order "
                                 "(scenarios/README.md, Operations)."));
    const bool was = loading_;
    loading_ = true; // showing is not typing
    behavior_->setPlainText(workload ? QString::fromStdString(scen::writeJson(*t, 80))
                            : b      ? QString::fromStdString(scen::writeJson(*b, 80))
                                     : QString());
    loading_ = was;
    pendingProgram_ = false;
    JsonValue none;
    none.type = JsonValue::Type::Array;
    program_->setProgram(b ? *b : none, t && t->isObject() && !workload, row);
    program_->showProblem(problem_, programPrefix(doc_, row));
    if (workload) programTabs_->setCurrentIndex(1); // nothing to show as operations
}

void ScenarioEditor::setNote(const QString& text) {
    note_->setText(text);
    note_->setVisible(!text.isEmpty());
}

QString ScenarioEditor::note() const {
    return note_->text();
}

void ScenarioEditor::validate() {
    scen::Scenario s;
    scen::ScenarioError err;
    const std::string file = path_.isEmpty() ? "new scenario" : QFileInfo(path_).fileName().toStdString();
    if (scen::parseScenario(json(), file, s, err)) {
        int tasks = 0;
        for (const scen::TaskGroupSpec& g : s.tasks)
            tasks += g.count;
        problem_.clear();
        status_->setText(tr("Valid: %1 task(s) on %2 CPU(s) for %3 (lines refer to the JSON tab).")
                             .arg(tasks)
                             .arg(s.config.cpus)
                             .arg(duration_->text().isEmpty() ? tr("1s") : duration_->text()));
        status_->setStyleSheet(QString());
    } else {
        problem_ = QString::fromStdString(err.text());
        status_->setText(tr("Not valid yet: %1").arg(problem_));
        status_->setStyleSheet("color: #c0392b;");
    }
    run_->setEnabled(problem_.isEmpty());
    program_->showProblem(problem_, programPrefix(doc_, tasks_->currentRow()));
}

JsonValue* ScenarioEditor::selectedTask() {
    const int r = tasks_->currentRow();
    JsonValue* tasks = member(doc_, "tasks");
    if (r < 0 || !tasks || size_t(r) >= tasks->items.size()) return nullptr;
    return &tasks->items[size_t(r)];
}

void ScenarioEditor::taskCellEdited(int row, int column) {
    if (loading_ || column < 0 || column >= Columns) return;
    const QString text = tasks_->item(row, column)->text();
    edit(tr("Change %1").arg(kKeys[column]), [&](JsonValue& d) {
        JsonValue& t = member(d, "tasks")->items[size_t(row)];
        scen::setMember(t, kKeys[column], cellValue(column, text));
    });
}

bool ScenarioEditor::applyBehavior() {
    const int r = tasks_->currentRow();
    if (r < 0) return true;
    JsonValue v;
    scen::JsonError e;
    if (!scen::parseJson(behavior_->toPlainText().toStdString(), v, e)) {
        status_->setText(tr("The program is not JSON yet: line %1, column %2: %3")
                             .arg(e.pos.line)
                             .arg(e.pos.column)
                             .arg(QString::fromStdString(e.message)));
        status_->setStyleSheet("color: #c0392b;");
        return false;
    }
    pendingProgram_ = false;
    edit(tr("Change the program"), [&](JsonValue& d) {
        JsonValue& t = member(d, "tasks")->items[size_t(r)];
        if (t.isObject() && t.find("workload"))
            t = v; // the whole workload entry
        else
            setProgramOf(d, r, v);
    });
    return true;
}
