// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/scenario_editor.h"

#include "app/gui/save_file.h"
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
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolButton>
#include <QUndoCommand>
#include <QVBoxLayout>

#include <fstream>
#include <sstream>

using scen::JsonValue;

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

enum Column { Comm, Count, Policy, Nice, Priority, Slice, Cpus, Start, Columns };
const char* const kKeys[Columns] = {"comm", "count", "policy", "nice", "priority", "slice", "cpus", "start"};

// What a cell's text becomes in the file: a number where it reads as one, a list of CPUs, else a
// string (the loader says what is wrong with it); empty removes the field.
JsonValue cellValue(int column, const QString& text) {
    const QString t = text.trimmed();
    if (t.isEmpty()) return JsonValue{};
    bool ok = false;
    if (column == Count || column == Nice || column == Priority) {
        const long long n = t.toLongLong(&ok);
        if (ok) return scen::jsonNumber(n);
    }
    if (column == Cpus) {
        JsonValue list;
        list.type = JsonValue::Type::Array;
        for (const QString& part : t.split(',', Qt::SkipEmptyParts)) {
            const long long c = part.trimmed().toLongLong(&ok);
            if (!ok) return scen::jsonString(t.toStdString());
            list.items.push_back(scen::jsonNumber(c));
        }
        return list;
    }
    return scen::jsonString(t.toStdString());
}

QString cellText(const JsonValue* v) {
    if (!v) return {};
    if (v->isArray()) {
        QStringList parts;
        for (const JsonValue& i : v->items)
            parts << QString::fromStdString(i.text);
        return parts.join(',');
    }
    return QString::fromStdString(v->text);
}

JsonValue* member(JsonValue& object, const char* key) {
    for (auto& [k, v] : object.members)
        if (k == key) return &v;
    return nullptr;
}

JsonValue& machineOf(JsonValue& doc) {
    if (!member(doc, "machine")) scen::setMember(doc, "machine", scen::jsonObject());
    return *member(doc, "machine");
}

JsonValue parsed(const char* text) {
    JsonValue v;
    scen::JsonError e;
    scen::parseJson(text, v, e);
    return v;
}

// Whether the text has // comments outside strings (the editor writes files without them).
bool hasComments(const std::string& text) {
    bool inString = false;
    for (size_t i = 0; i + 1 < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '/' && text[i + 1] == '/') {
            return true;
        }
    }
    return false;
}

// A button named for tests and scripts, added to a row.
QPushButton* addButton(QWidget* parent, QHBoxLayout* row, const char* name, const QString& label) {
    auto* b = new QPushButton(label, parent);
    b->setObjectName(name);
    row->addWidget(b);
    return b;
}

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

void ScenarioEditor::build() {
    auto* lay = new QVBoxLayout(this);
    auto* tabs = new QTabWidget(this);
    auto* form = new QWidget(tabs);
    auto* fl = new QVBoxLayout(form);

    auto* machine = new QFormLayout;
    const auto line = [this](const char* name, const QString& tip) {
        auto* e = new QLineEdit(this);
        e->setObjectName(name);
        e->setToolTip(tip);
        return e;
    };
    name_ = line("name", tr("The scenario's name (shown in titles and reports)"));
    description_ = line("description", tr("One or two sentences: what the scenario shows"));
    duration_ = line("duration", tr("Simulated time with a unit, e.g. 500ms, 2s"));
    baseSlice_ = line("baseSlice",
                      tr("machine.base_slice: the normalized base slice, e.g. 0.7ms; empty: the kernel's"));
    cpus_ = new QSpinBox(this);
    cpus_->setObjectName("cpus");
    cpus_->setRange(1, 256);
    hz_ = new QComboBox(this);
    hz_->setObjectName("hz");
    for (int h : {100, 250, 300, 1000})
        hz_->addItem(QString::number(h));
    kernel_ = new QComboBox(this);
    kernel_->setObjectName("kernel");
    for (const sched::KernelSpec& k : sched::kernelSpecs())
        kernel_->addItem(QString::fromUtf8(k.name.data(), qsizetype(k.name.size())));
    preempt_ = new QComboBox(this);
    preempt_->setObjectName("preempt");
    preempt_->addItems({tr("(the kernel's default)"), "none", "voluntary", "full", "lazy"});
    machine->addRow(tr("Name"), name_);
    machine->addRow(tr("Description"), description_);
    machine->addRow(tr("Duration"), duration_);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("CPUs"), this));
    row->addWidget(cpus_);
    row->addWidget(new QLabel(tr("HZ"), this));
    row->addWidget(hz_);
    row->addWidget(new QLabel(tr("Kernel"), this));
    row->addWidget(kernel_);
    row->addWidget(new QLabel(tr("Model"), this));
    row->addWidget(preempt_);
    row->addWidget(new QLabel(tr("Base slice"), this));
    row->addWidget(baseSlice_);
    machine->addRow(tr("Machine"), row);
    fl->addLayout(machine);

    const auto text = [this](QLineEdit* e, const char* key, bool inMachine) {
        connect(e, &QLineEdit::editingFinished, this, [this, e, key, inMachine] {
            if (loading_) return;
            const QString t = e->text().trimmed();
            edit(tr("Change %1").arg(key), [&](JsonValue& d) {
                scen::setMember(inMachine ? machineOf(d) : d, key,
                                t.isEmpty() ? JsonValue{} : scen::jsonString(t.toStdString()));
            });
        });
    };
    text(name_, "name", false);
    text(description_, "description", false);
    text(duration_, "duration", false);
    text(baseSlice_, "base_slice", true);
    connect(cpus_, &QSpinBox::valueChanged, this, [this](int n) {
        if (!loading_)
            edit(tr("Change CPUs"),
                 [n](JsonValue& d) { scen::setMember(machineOf(d), "cpus", scen::jsonNumber(n)); });
    });
    connect(hz_, &QComboBox::currentTextChanged, this, [this](const QString& t) {
        if (!loading_)
            edit(tr("Change HZ"), [t](JsonValue& d) {
                scen::setMember(machineOf(d), "hz", scen::jsonNumber(t.toLongLong()));
            });
    });
    connect(kernel_, &QComboBox::currentTextChanged, this, [this](const QString& t) {
        if (!loading_)
            edit(tr("Change kernel"), [t](JsonValue& d) {
                scen::setMember(machineOf(d), "kernel", scen::jsonString(t.toStdString()));
            });
    });
    connect(preempt_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (loading_) return;
        const QString t = preempt_->itemText(i);
        edit(tr("Change model"), [i, t](JsonValue& d) {
            scen::setMember(machineOf(d), "preempt",
                            i == 0 ? JsonValue{} : scen::jsonString(t.toStdString()));
        });
    });

    auto* split = new QSplitter(Qt::Vertical, form);
    auto* top = new QWidget(split);
    auto* tl = new QVBoxLayout(top);
    tl->setContentsMargins(0, 0, 0, 0);
    tasks_ = new QTableWidget(0, Columns, top);
    tasks_->setObjectName("tasks");
    tasks_->setHorizontalHeaderLabels({tr("comm"), tr("count"), tr("policy"), tr("nice"), tr("RT priority"),
                                       tr("slice"), tr("CPUs"), tr("start")});
    tasks_->setToolTip(
        tr("policy: normal, batch, idle, fifo, rr; RT priority 1..99 for fifo and rr; slice 0.1..100 ms "
           "(sched_setattr); CPUs as 0,1; start as 10ms. An empty cell takes the default."));
    tasks_->horizontalHeader()->setStretchLastSection(true);
    tasks_->setSelectionBehavior(QAbstractItemView::SelectRows);
    tasks_->setSelectionMode(QAbstractItemView::SingleSelection);
    tl->addWidget(tasks_);
    auto* buttons = new QHBoxLayout;
    QPushButton* add = addButton(this, buttons, "addTask", tr("&Add task"));
    QPushButton* dup = addButton(this, buttons, "duplicateTask", tr("&Duplicate"));
    QPushButton* remove = addButton(this, buttons, "removeTask", tr("&Remove"));
    buttons->addStretch(1);
    tl->addLayout(buttons);
    connect(add, &QPushButton::clicked, this, [this] {
        edit(tr("Add task"), [](JsonValue& d) {
            if (!member(d, "tasks")) {
                JsonValue a;
                a.type = JsonValue::Type::Array;
                scen::setMember(d, "tasks", a);
            }
            member(d, "tasks")
                ->items.push_back(parsed(
                    R"({"comm": "task", "behavior": [{"repeat": "forever", "body": [{"run": "1ms"}, {"sleep": "4ms"}]}]})"));
        });
        tasks_->selectRow(tasks_->rowCount() - 1);
    });
    connect(dup, &QPushButton::clicked, this, [this] {
        const int r = tasks_->currentRow();
        if (r < 0) return;
        edit(tr("Duplicate task"), [r](JsonValue& d) {
            auto& items = member(d, "tasks")->items;
            items.insert(items.begin() + r + 1, items[size_t(r)]);
        });
        tasks_->selectRow(r + 1);
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        const int r = tasks_->currentRow();
        if (r < 0) return;
        edit(tr("Remove task"), [r](JsonValue& d) {
            auto& items = member(d, "tasks")->items;
            items.erase(items.begin() + r);
        });
    });
    connect(tasks_, &QTableWidget::cellChanged, this, &ScenarioEditor::taskCellEdited);
    connect(tasks_, &QTableWidget::currentCellChanged, this, [this] {
        if (!loading_) showSelectedProgram();
    });

    auto* bottom = new QWidget(split);
    auto* bl = new QVBoxLayout(bottom);
    bl->setContentsMargins(0, 0, 0, 0);
    behaviorLabel_ = new QLabel(bottom);
    behavior_ = new QPlainTextEdit(bottom);
    behavior_->setObjectName("behavior");
    behavior_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    connect(behavior_, &QPlainTextEdit::textChanged, this, [this] {
        if (loading_) return;
        pendingProgram_ = true; // typed, not applied yet: Save and Run apply it first
        setWindowModified(true);
    });
    auto* opRow = new QHBoxLayout;
    auto* insert = insert_ = new QToolButton(bottom);
    insert->setText(tr("Insert operation"));
    insert->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(insert);
    const std::pair<QString, const char*> ops[] = {
        {tr("Compute in user mode"), R"({"run": "1ms"})"},
        {tr("Kernel section without cond_resched()"), R"({"run": "5ms", "mode": "kernel"})"},
        {tr("Kernel section with cond_resched() every 100 us"),
         R"({"run": "5ms", "mode": "kernel", "cond_resched_every": "100us"})"},
        {tr("Sleep"), R"({"sleep": "1ms"})"},
        {tr("Periodic timer (cyclictest)"), R"({"timer": "1ms"})"},
        {tr("Write to a channel"), R"({"write": "pipe"})"},
        {tr("Read from a channel"), R"({"read": "pipe"})"},
        {tr("Fork a program"), R"({"fork": "child"})"},
        {tr("Repeat for ever"), R"({"repeat": "forever", "body": [{"run": "1ms"}, {"sleep": "1ms"}]})"},
    };
    for (const auto& [label, json] : ops)
        menu->addAction(label, this, [this, json = json] { insertOp(json); });
    insert->setMenu(menu);
    auto* apply = new QPushButton(tr("A&pply program"), bottom);
    apply->setObjectName("applyBehavior");
    apply->setShortcut(QKeySequence(tr("Ctrl+Return")));
    connect(apply, &QPushButton::clicked, this, &ScenarioEditor::applyBehavior);
    opRow->addWidget(insert);
    opRow->addStretch(1);
    opRow->addWidget(apply);
    bl->addWidget(behaviorLabel_);
    bl->addWidget(behavior_, 1);
    bl->addLayout(opRow);
    fl->addWidget(split, 1);
    tabs->addTab(form, tr("Form"));

    auto* wholeTab = new QWidget(tabs);
    auto* wl = new QVBoxLayout(wholeTab);
    wl->addWidget(new QLabel(tr("The whole file: channels, programs, changes and every other field "
                                "(scenarios/README.md)."),
                             wholeTab));
    whole_ = new QPlainTextEdit(wholeTab);
    whole_->setObjectName("wholeJson");
    whole_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    connect(whole_, &QPlainTextEdit::textChanged, this, [this] {
        if (loading_) return;
        pendingWhole_ = true;
        setWindowModified(true);
    });
    wl->addWidget(whole_, 1);
    auto* applyJson = new QPushButton(tr("Apply the JSON"), wholeTab);
    connect(applyJson, &QPushButton::clicked, this, &ScenarioEditor::applyWhole);
    wl->addWidget(applyJson, 0, Qt::AlignRight);
    tabs->addTab(wholeTab, tr("JSON"));
    lay->addWidget(tabs, 1);

    status_ = new QLabel(this);
    status_->setObjectName("status");
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    lay->addWidget(status_);
    auto* actions = new QHBoxLayout;
    const auto action = [this, actions](const char* name, const QString& label) {
        return addButton(this, actions, name, label);
    };
    QPushButton* fresh = action("new", tr("&New"));
    QPushButton* open = action("open", tr("&Open..."));
    QPushButton* save = action("save", tr("&Save"));
    QPushButton* saveAs = action("saveAs", tr("Save &as..."));
    QPushButton* undo = action("undo", tr("&Undo"));
    QPushButton* redo = action("redo", tr("R&edo"));
    actions->addStretch(1);
    run_ = action("run", tr("&Run in the main window"));
    run_->setToolTip(tr("Save, then open the scenario in the main window: the run restarts from it"));
    lay->addLayout(actions);
    connect(fresh, &QPushButton::clicked, this, [this] {
        if (maybeSave()) newScenario();
    });
    connect(open, &QPushButton::clicked, this, [this] {
        if (!maybeSave()) return;
        const QString p =
            QFileDialog::getOpenFileName(this, tr("Open scenario"), QString(), tr("Scenarios (*.json)"));
        QString err;
        if (!p.isEmpty() && !openFile(p, &err)) QMessageBox::warning(this, tr("Cannot open"), err);
    });
    connect(save, &QPushButton::clicked, this, [this] { this->save(false); });
    connect(saveAs, &QPushButton::clicked, this, [this] { this->save(true); });
    connect(undo, &QPushButton::clicked, &undo_, &QUndoStack::undo);
    connect(redo, &QPushButton::clicked, &undo_, &QUndoStack::redo);
    connect(&undo_, &QUndoStack::canUndoChanged, undo, &QPushButton::setEnabled);
    connect(&undo_, &QUndoStack::canRedoChanged, redo, &QPushButton::setEnabled);
    undo->setShortcut(QKeySequence::Undo);
    redo->setShortcut(QKeySequence::Redo);
    undo->setEnabled(false);
    redo->setEnabled(false);
    connect(run_, &QPushButton::clicked, this, [this] {
        // An unchanged file runs as it is: saving would rewrite it (its comments and layout).
        if (isWindowModified() || path_.isEmpty()) this->save(path_.isEmpty());
        if (!path_.isEmpty() && problem_.isEmpty() && !isWindowModified()) emit runRequested(path_);
    });
}

void ScenarioEditor::newScenario() {
    loadText(kNewScenario, QString());
}

bool ScenarioEditor::loadText(const std::string& text, const QString& source) {
    JsonValue v;
    scen::JsonError e;
    if (!scen::parseJson(text, v, e) || !v.isObject()) return false;
    path_ = source;
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
        if (error) *error = tr("%1: not a JSON object").arg(path);
        return false;
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

void ScenarioEditor::edit(const QString& what, const std::function<void(JsonValue&)>& change) {
    JsonValue after = doc_;
    change(after);
    if (scen::writeJson(after) == scen::writeJson(doc_)) return;     // nothing changed: no undo step
    undo_.push(new EditCommand(this, what, doc_, std::move(after))); // redo() applies it
    setWindowModified(true);
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
    const JsonValue* b = t && t->isObject() ? t->find("behavior") : nullptr;
    const bool workload = t && t->isObject() && t->find("workload");
    behaviorLabel_->setText(workload ? tr("The workload entry (its tool, args, slice, nice, start):")
                                     : tr("The task's program (operations as in scenarios/README.md):"));
    const bool was = loading_;
    loading_ = true; // showing is not typing
    behavior_->setPlainText(workload ? QString::fromStdString(scen::writeJson(*t, 80))
                            : b      ? QString::fromStdString(scen::writeJson(*b, 80))
                                     : QString());
    loading_ = was;
    pendingProgram_ = false;
    insert_->setEnabled(t && t->isObject() && !workload); // operations go into a task's own program
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
            scen::setMember(t, "behavior", v);
    });
    return true;
}

// Appends the operation to the program in the box and applies it; its values are then edited in
// the box.
void ScenarioEditor::insertOp(const char* json) {
    JsonValue ops;
    scen::JsonError e;
    const QString text = behavior_->toPlainText().trimmed();
    if (text.isEmpty()) {
        ops.type = JsonValue::Type::Array;
    } else if (!scen::parseJson(text.toStdString(), ops, e) || !ops.isArray()) {
        status_->setText(tr("The program box does not hold a list of operations yet; nothing was inserted"));
        status_->setStyleSheet("color: #c0392b;");
        return; // the typed text stays as it is
    }
    ops.items.push_back(parsed(json));
    behavior_->setPlainText(QString::fromStdString(scen::writeJson(ops, 80)));
    applyBehavior();
}
