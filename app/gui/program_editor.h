// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario editor's structured program editor: a task's operations as a tree (a repeat holds
// its body), one row per operation with its kind, its value, its options and what it does in
// words. Operations are added from templates (into a selected repeat, else after the selected
// operation), removed, moved, wrapped in a repeat or unwrapped; the value and the options are
// edited in place (double-click or F2). It owns no document: each change is emitted as the whole
// new program, and the scenario editor applies it as one undoable edit and shows it again. The
// operation a loader message points at is marked, with the message as its tooltip.
#pragma once

#include "app/gui/program_ops.h"

#include <QWidget>
#include <functional>

class QPushButton;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;

class ProgramEditor : public QWidget {
    Q_OBJECT
  public:
    explicit ProgramEditor(QWidget* parent = nullptr);
    // editable: false for a workload entry, whose operations are its tool's. owner: whose program
    // it is (the scenario editor's task row), handed back with each edit of it.
    void setProgram(const scen::JsonValue& program, bool editable, int owner = -1);
    // Marks the operation `message` (the loader's) names in the program it calls `prefix`
    // (program_ops::pathInMessage()); an empty message, or one about something else, marks nothing.
    void showProblem(const QString& message, const QString& prefix);
    program_ops::OpPath currentPath() const;
    void selectPath(const program_ops::OpPath& path);

  signals:
    // The whole new program of `owner`: a value typed in place is applied after the view has
    // committed it, by when another owner's program may be shown.
    void edited(const QString& what, const scen::JsonValue& program, int owner);
    void refused(const QString& why); // a typed value or option that cannot be applied

  private:
    void fill();
    void updateButtons();
    void change(const QString& what, const std::function<bool(scen::JsonValue&, program_ops::OpPath&)>& f);
    void cellEdited(QTreeWidgetItem* item, int column);
    QTreeWidgetItem* itemAt(const program_ops::OpPath& path) const;
    program_ops::OpPath pathOf(const QTreeWidgetItem* item) const;

    scen::JsonValue program_;
    bool editable_ = true;
    int owner_ = -1;
    bool filling_ = false;
    program_ops::OpPath select_; // where the selection goes once the edited program comes back
    QTreeWidget* tree_ = nullptr;
    QToolButton* add_ = nullptr;
    QPushButton* remove_ = nullptr;
    QPushButton* up_ = nullptr;
    QPushButton* down_ = nullptr;
    QPushButton* wrap_ = nullptr;
    QPushButton* unwrap_ = nullptr;
};
