// SPDX-License-Identifier: GPL-3.0-or-later
// File > New scenario / Edit scenario: a scenario made and changed in the app. The machine (CPUs,
// HZ, kernel, model, base slice, duration), the tasks in a table (add, duplicate, remove; comm,
// count, policy, nice, RT priority, slice, affinity, start), each task's program as a tree of
// operations (program_editor.h: templates for compute, sleep, kernel sections with or without
// cond_resched(), timers, channels, fork, mutexes, repeats; values and options edited in place) or
// as its JSON, and the whole file as JSON for what the form does not show (channels, changes). Every edit is
// checked by the loader at once (its message, with line and field, under the form), can be undone, and Run
// opens the saved file in the main window, which restarts the run from it. The document is the file's JSON
// tree (scenarios/json_value.h), so fields the form does not know are kept; comments are not.
#pragma once

#include "scenarios/json_value.h"

#include <QUndoStack>
#include <QWidget>
#include <functional>

class ProgramEditor;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableWidget;

class ScenarioEditor : public QWidget {
    Q_OBJECT
  public:
    explicit ScenarioEditor(QWidget* parent = nullptr);
    void newScenario();                                            // a machine and one task
    bool loadText(const std::string& text, const QString& source); // false: the text is not JSON
    bool openFile(const QString& path, QString* error);
    bool saveTo(const QString& path, QString* error);
    QString path() const { return path_; }
    std::string json() const { return scen::writeJson(doc_); }
    QString problem() const { return problem_; } // the loader's message, empty when the scenario is valid
    QUndoStack* undoStack() { return &undo_; }
    bool maybeSave(); // unsaved changes: Save, Discard or Cancel (false)
    // A line above the status about where the text came from (the main window's open run has
    // settings on top of it, or could not be opened here); hidden when empty, cleared by the next
    // scenario loaded. The editor's own line: the main window's status bar is behind the editor.
    void setNote(const QString& text);
    QString note() const;

  signals:
    void runRequested(const QString& path); // the saved scenario, to open in the main window

  protected:
    void closeEvent(QCloseEvent* e) override;

  private:
    friend class EditCommand;
    void build();
    void fromDoc(); // the document into the widgets
    void showSelectedProgram();
    // Undoable; false when the change leaves the document as it was (no undo step).
    bool edit(const QString& what, const std::function<void(scen::JsonValue&)>& change);
    void setDoc(const scen::JsonValue& doc);
    void validate();
    scen::JsonValue* selectedTask();
    void taskCellEdited(int row, int column);
    bool applyBehavior(); // false: the program box does not parse (the status line says where)
    bool applyWhole();    // the JSON tab; false when it does not parse
    bool applyPending();  // what was typed in either box and not applied yet
    void save(bool as);

    scen::JsonValue doc_;
    QString path_;
    QString problem_;
    QUndoStack undo_;
    bool loading_ = false;     // the widgets are being filled from the document: no edits
    bool hadComments_ = false; // the file opened had // comments, which saving over it drops
    bool pendingWhole_ = false, pendingProgram_ = false; // typed in a box, not applied yet
    QLineEdit* name_ = nullptr;
    QLineEdit* description_ = nullptr;
    QLineEdit* duration_ = nullptr;
    QSpinBox* cpus_ = nullptr;
    QComboBox* hz_ = nullptr;
    QComboBox* kernel_ = nullptr;
    QComboBox* preempt_ = nullptr;
    QLineEdit* baseSlice_ = nullptr;
    QTableWidget* tasks_ = nullptr;
    QPlainTextEdit* behavior_ = nullptr;
    QLabel* behaviorLabel_ = nullptr;
    ProgramEditor* program_ = nullptr;
    QTabWidget* programTabs_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QPlainTextEdit* whole_ = nullptr;
    QLabel* note_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* run_ = nullptr;
};
