// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/program_editor.h"

#include "app/gui/scenario_doc.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QMenu>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>

using scen::JsonValue;
using namespace program_ops;

namespace {

enum Col { Kind, Value, Options, What };
constexpr int kBaseTip = Qt::UserRole + 1; // a cell's tooltip when no problem is marked on it

// Only the value and the options are typed; the kind and the words follow from them.
class ValueColumnsDelegate : public QStyledItemDelegate {
  public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const override {
        const bool typed =
            index.column() == Options || (index.column() == Value && !index.data(Qt::UserRole).toBool());
        return typed ? QStyledItemDelegate::createEditor(parent, option, index) : nullptr;
    }
};

// The operations a program is made of (scenarios/README.md, "Operations"), as templates to adjust.
struct Template {
    const char* label;
    const char* json;
};
const Template kTemplates[] = {
    {QT_TRANSLATE_NOOP("ProgramEditor", "Compute in user mode"), R"({"run": "1ms"})"},
    {QT_TRANSLATE_NOOP("ProgramEditor", "Kernel section without cond_resched()"),
     R"({"run": "5ms", "mode": "kernel"})"},
    {QT_TRANSLATE_NOOP("ProgramEditor", "Kernel section with cond_resched() every 100 us"),
     R"({"run": "5ms", "mode": "kernel", "cond_resched_every": "100us"})"},
    {QT_TRANSLATE_NOOP("ProgramEditor", "Sleep (nanosleep)"), R"({"sleep": "1ms"})"},
    {QT_TRANSLATE_NOOP("ProgramEditor", "Sleep as a kernel thread (schedule_timeout)"),
     R"({"sleep": "100ms", "jiffies": true})"},
    {QT_TRANSLATE_NOOP("ProgramEditor", "Periodic timer (cyclictest)"), R"({"timer": "1ms"})"},
    {QT_TRANSLATE_NOOP("ProgramEditor", "Write to a channel"), R"({"write": "pipe"})"},
    {QT_TRANSLATE_NOOP("ProgramEditor", "Read from a channel"), R"({"read": "pipe"})"},
    {QT_TRANSLATE_NOOP("ProgramEditor", "Fork a program"), R"({"fork": "child"})"},
    {QT_TRANSLATE_NOOP("ProgramEditor", "Wait for the children"), R"({"wait": "children"})"},
    {QT_TRANSLATE_NOOP("ProgramEditor", "sched_yield()"), R"({"yield": true})"},
    {QT_TRANSLATE_NOOP("ProgramEditor", "Lock a mutex"), R"({"lock": "m"})"},
    {QT_TRANSLATE_NOOP("ProgramEditor", "Unlock a mutex"), R"({"unlock": "m"})"},
    {QT_TRANSLATE_NOOP("ProgramEditor", "Repeat"),
     R"({"repeat": 10, "body": [{"run": "1ms"}, {"sleep": "1ms"}]})"},
    {QT_TRANSLATE_NOOP("ProgramEditor", "Repeat for ever"),
     R"({"repeat": "forever", "body": [{"run": "1ms"}, {"sleep": "1ms"}]})"},
    {QT_TRANSLATE_NOOP("ProgramEditor", "Exit"), R"({"exit": true})"},
};

QPushButton* button(QWidget* parent, QHBoxLayout* row, const char* name, const QString& label,
                    const QString& tip) {
    auto* b = new QPushButton(label, parent);
    b->setObjectName(name);
    b->setToolTip(tip);
    row->addWidget(b);
    return b;
}

} // namespace

ProgramEditor::ProgramEditor(QWidget* parent) : QWidget(parent) {
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    tree_ = new QTreeWidget(this);
    tree_->setObjectName("programTree");
    tree_->setColumnCount(4);
    tree_->setHeaderLabels({tr("operation"), tr("value"), tr("options"), tr("what it does")});
    tree_->setItemDelegate(new ValueColumnsDelegate(tree_));
    tree_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                           QAbstractItemView::SelectedClicked);
    tree_->setSelectionMode(QAbstractItemView::SingleSelection);
    tree_->setRootIsDecorated(true);
    tree_->setUniformRowHeights(true);
    tree_->header()->setStretchLastSection(true);
    tree_->setToolTip(tr("Double-click (or F2) a value or the options to change them: a duration as "
                         "1ms or 100us, a repeat's count or forever; options as key=value, e.g. "
                         "mode=kernel, cond_resched_every=100us"));
    lay->addWidget(tree_, 1);

    auto* row = new QHBoxLayout;
    add_ = new QToolButton(this);
    add_->setObjectName("addOperation");
    add_->setText(tr("Add operation"));
    add_->setToolTip(tr("Into the selected repeat, else after the selected operation"));
    add_->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(add_);
    for (const Template& t : kTemplates)
        menu->addAction(tr(t.label), this, [this, json = t.json] {
            const JsonValue op = scenario_doc::parsed(json);
            change(tr("Add %1").arg(kindOf(op)),
                   [&op](JsonValue& p, OpPath& at) { return insert(p, at, op); });
        });
    add_->setMenu(menu);
    row->addWidget(add_);
    remove_ = button(this, row, "removeOperation", tr("Remove"), tr("Remove the selected operation"));
    up_ = button(this, row, "moveUp", tr("Up"), tr("Move the operation up within its list"));
    down_ = button(this, row, "moveDown", tr("Down"), tr("Move the operation down within its list"));
    wrap_ = button(this, row, "wrapInRepeat", tr("Wrap in repeat"),
                   tr("Put the operation into a new repeat (twice; change the count after)"));
    unwrap_ = button(this, row, "unwrapRepeat", tr("Unwrap"),
                     tr("Replace the selected repeat by its body's operations"));
    row->addStretch(1);
    lay->addLayout(row);

    connect(remove_, &QPushButton::clicked, this, [this] {
        change(tr("Remove operation"), [](JsonValue& p, OpPath& at) {
            if (!remove(p, at)) return false;
            // The selection goes to the operation that took its place, else the one before.
            if (!opAt(p, at) && at.back() > 0) --at.back();
            if (!opAt(p, at)) at.pop_back();
            return true;
        });
    });
    connect(up_, &QPushButton::clicked, this, [this] {
        change(tr("Move operation"), [](JsonValue& p, OpPath& at) { return program_ops::move(p, at, -1); });
    });
    connect(down_, &QPushButton::clicked, this, [this] {
        change(tr("Move operation"), [](JsonValue& p, OpPath& at) { return program_ops::move(p, at, 1); });
    });
    connect(wrap_, &QPushButton::clicked, this, [this] {
        change(tr("Wrap in repeat"), [](JsonValue& p, OpPath& at) { return wrapInRepeat(p, at); });
    });
    connect(unwrap_, &QPushButton::clicked, this,
            [this] { change(tr("Unwrap repeat"), [](JsonValue& p, OpPath& at) { return unwrap(p, at); }); });
    connect(tree_, &QTreeWidget::itemChanged, this, &ProgramEditor::cellEdited);
    connect(tree_, &QTreeWidget::currentItemChanged, this, &ProgramEditor::updateButtons);
    updateButtons();
}

void ProgramEditor::setProgram(const JsonValue& program, bool editable, int owner) {
    const OpPath keep = select_.empty() ? currentPath() : select_;
    program_ = program;
    editable_ = editable;
    owner_ = owner;
    fill();
    selectPath(keep);
    select_.clear();
}

void ProgramEditor::fill() {
    filling_ = true;
    tree_->clear();
    const std::function<void(const JsonValue&, QTreeWidgetItem*)> add = [&](const JsonValue& list,
                                                                            QTreeWidgetItem* parent) {
        for (const JsonValue& op : list.items) {
            auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree_);
            item->setText(Kind, kindOf(op).isEmpty() ? tr("(not an operation)") : kindOf(op));
            item->setText(Value, valueText(op));
            if (!valueIsTyped(op)) { // a distribution: edited as JSON
                item->setData(Value, Qt::UserRole, true);
                item->setData(Value, kBaseTip, tr("Edit it in the program's JSON tab"));
            }
            item->setText(Options, optionsText(op));
            item->setText(What, describe(op));
            item->setData(What, kBaseTip, describe(op));
            item->setData(Options, kBaseTip, optionsText(op)); // the whole of a cut cell
            if (editable_) item->setFlags(item->flags() | Qt::ItemIsEditable);
            const JsonValue* body = op.isObject() ? op.find("body") : nullptr;
            if (body && body->isArray()) add(*body, item);
        }
    };
    if (program_.isArray()) add(program_, nullptr);
    for (QTreeWidgetItemIterator it(tree_); *it; ++it)
        for (int c = Kind; c <= What; ++c)
            (*it)->setToolTip(c, (*it)->data(c, kBaseTip).toString());
    tree_->expandAll();
    // Wide enough for what they hold, but never so wide that the words are pushed out of view.
    const int em = fontMetrics().horizontalAdvance('M');
    const int widest[] = {10 * em, 16 * em, 22 * em};
    for (int c = Kind; c < What; ++c) {
        tree_->resizeColumnToContents(c);
        tree_->setColumnWidth(c, std::min(tree_->columnWidth(c), widest[c]));
    }
    tree_->setEnabled(editable_);
    filling_ = false;
    updateButtons();
}

void ProgramEditor::showProblem(const QString& message, const QString& prefix) {
    const std::optional<OpPath> path = message.isEmpty() ? std::nullopt : pathInMessage(message, prefix);
    QTreeWidgetItem* item = path ? itemAt(*path) : nullptr;
    filling_ = true; // colouring is not editing
    for (QTreeWidgetItemIterator it(tree_); *it; ++it)
        for (int c = Kind; c <= What; ++c) {
            (*it)->setData(c, Qt::ForegroundRole, QVariant());
            (*it)->setToolTip(c, (*it)->data(c, kBaseTip).toString());
        }
    if (item) {
        for (int c = Kind; c <= What; ++c) {
            item->setForeground(c, QColor(0xc0, 0x39, 0x2b));
            item->setToolTip(c, message);
        }
        tree_->scrollToItem(item);
    }
    filling_ = false;
}

OpPath ProgramEditor::currentPath() const {
    return pathOf(tree_->currentItem());
}

void ProgramEditor::selectPath(const OpPath& path) {
    QTreeWidgetItem* item = itemAt(path);
    if (!item && tree_->topLevelItemCount() > 0) item = tree_->topLevelItem(0);
    tree_->setCurrentItem(item);
    updateButtons();
}

OpPath ProgramEditor::pathOf(const QTreeWidgetItem* item) const {
    OpPath path;
    for (; item; item = item->parent())
        path.insert(path.begin(), item->parent()
                                      ? item->parent()->indexOfChild(const_cast<QTreeWidgetItem*>(item))
                                      : tree_->indexOfTopLevelItem(const_cast<QTreeWidgetItem*>(item)));
    return path;
}

QTreeWidgetItem* ProgramEditor::itemAt(const OpPath& path) const {
    QTreeWidgetItem* item = nullptr;
    for (int k : path) {
        const int n = item ? item->childCount() : tree_->topLevelItemCount();
        if (k < 0 || k >= n) return nullptr;
        item = item ? item->child(k) : tree_->topLevelItem(k);
    }
    return item;
}

void ProgramEditor::updateButtons() {
    const OpPath at = currentPath();
    const JsonValue* op = opAt(program_, at);
    const bool isRepeat = op && kindOf(*op) == "repeat";
    add_->setEnabled(editable_);
    remove_->setEnabled(editable_ && op);
    up_->setEnabled(editable_ && op && at.back() > 0);
    const QTreeWidgetItem* item = tree_->currentItem();
    const int siblings = !item            ? 0
                         : item->parent() ? item->parent()->childCount()
                                          : tree_->topLevelItemCount();
    down_->setEnabled(editable_ && op && at.back() + 1 < siblings);
    wrap_->setEnabled(editable_ && op);
    unwrap_->setEnabled(editable_ && isRepeat);
}

void ProgramEditor::change(const QString& what, const std::function<bool(JsonValue&, OpPath&)>& f) {
    if (!editable_) return;
    JsonValue p = program_;
    OpPath at = currentPath();
    if (!f(p, at)) return;
    select_ = at;
    emit edited(what, p, owner_); // the editor applies it and calls setProgram() with the result
}

void ProgramEditor::cellEdited(QTreeWidgetItem* item, int column) {
    if (filling_ || (column != Value && column != Options)) return;
    const OpPath at = pathOf(item);
    JsonValue p = program_;
    QString why;
    const QString text = item->text(column);
    const bool ok = column == Value ? setValue(p, at, text, &why) : setOptions(p, at, text, &why);
    // Later, not inside the view's commit of the typed text: the tree is rebuilt either way. The
    // program it belongs to is the one shown now (a click on another task commits the text and
    // then shows that task's program before this runs).
    QTimer::singleShot(0, this, [this, ok, why, at, p, column, owner = owner_] {
        if (!ok) {
            emit refused(why);
            fill(); // the cell shows the program's value again
            selectPath(at);
            return;
        }
        if (owner == owner_) select_ = at;
        emit edited(column == Value ? tr("Change %1").arg(kindOf(*opAt(p, at))) : tr("Change options"), p,
                    owner);
    });
}
