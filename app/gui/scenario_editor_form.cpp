// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario editor's widgets (scenario_editor.h): the machine form, the tasks table, the
// selected task's program (its operations, or its JSON), the JSON tab and the file actions, each
// wired to an edit of the document (scenario_editor.cpp).
#include "app/gui/program_editor.h"
#include "app/gui/scenario_doc.h"
#include "app/gui/scenario_editor.h"
#include "engine/kernel_rules.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

using scen::JsonValue;
using namespace scenario_doc;

namespace {

// A button named for tests and scripts, added to a row.
QPushButton* addButton(QWidget* parent, QHBoxLayout* row, const char* name, const QString& label) {
    auto* b = new QPushButton(label, parent);
    b->setObjectName(name);
    row->addWidget(b);
    return b;
}

} // namespace

void ScenarioEditor::build() {
    auto* lay = new QVBoxLayout(this);
    auto* tabs = tabs_ = new QTabWidget(this);
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
    behaviorLabel_->setWordWrap(true);
    programTabs_ = new QTabWidget(bottom);
    programTabs_->setObjectName("programTabs");
    program_ = new ProgramEditor(programTabs_);
    connect(program_, &ProgramEditor::edited, this,
            [this](const QString& what, const JsonValue& p, int task) {
                // An edit that changes nothing (the same value typed again) shows the program again,
                // so the cell does not keep the typed text.
                if (!edit(what, [task, &p](JsonValue& d) { setProgramOf(d, task, p); }))
                    showSelectedProgram();
            });
    connect(program_, &ProgramEditor::refused, this, [this](const QString& why) {
        status_->setText(tr("Not applied: %1").arg(why));
        status_->setStyleSheet("color: #c0392b;");
    });
    programTabs_->addTab(program_, tr("Operations"));

    auto* jsonPage = new QWidget(programTabs_);
    auto* jl = new QVBoxLayout(jsonPage);
    behavior_ = new QPlainTextEdit(jsonPage);
    behavior_->setObjectName("behavior");
    behavior_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    connect(behavior_, &QPlainTextEdit::textChanged, this, [this] {
        if (loading_) return;
        pendingProgram_ = true; // typed, not applied yet: Save and Run apply it first
        setWindowModified(true);
    });
    auto* apply = new QPushButton(tr("A&pply program"), jsonPage);
    apply->setObjectName("applyBehavior");
    apply->setShortcut(QKeySequence(tr("Ctrl+Return")));
    connect(apply, &QPushButton::clicked, this, &ScenarioEditor::applyBehavior);
    jl->addWidget(behavior_, 1);
    jl->addWidget(apply, 0, Qt::AlignRight);
    programTabs_->addTab(jsonPage, tr("JSON"));
    // What was typed in the JSON box is applied before the operations show the program again.
    connect(programTabs_, &QTabWidget::currentChanged, this, [this, jsonPage](int) {
        if (programTabs_->currentWidget() != jsonPage && pendingProgram_ && !applyBehavior())
            programTabs_->setCurrentWidget(jsonPage); // does not parse: the status line says where
    });
    bl->addWidget(behaviorLabel_);
    bl->addWidget(programTabs_, 1);
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

    note_ = new QLabel(this);
    note_->setObjectName("note");
    note_->setWordWrap(true);
    note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    note_->setFrameShape(QFrame::StyledPanel);
    note_->setMargin(4);
    note_->hide();
    lay->addWidget(note_);
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
