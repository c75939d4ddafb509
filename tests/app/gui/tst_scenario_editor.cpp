// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario editor loses nothing: an unchanged file runs as it is (its comments kept), text typed
// in the JSON tab is saved by Save even before Apply, an edit that changes nothing is no undo step,
// operations cannot be inserted into a workload entry, and a deeply nested value is written back.
// A program is made as a tree of operations: added from templates (into a repeat), values and
// options typed in place, moved, wrapped and unwrapped, removed and undone; a wrong value is
// marked on its row with the loader's message; a shared program is edited once for its tasks.
#include "app/gui/main_window.h"
#include "app/gui/scenario_editor.h"
#include "app/gui/session.h"
#include "tests/app/gui/gui_test_support.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

#include <fstream>
#include <sstream>

namespace {

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void write(const QString& path, const char* text) {
    std::ofstream(path.toStdString()) << text;
}

// The task's program as the file holds it, on one line.
std::string programOf(const ScenarioEditor& e, int task = 0) {
    scen::JsonValue d;
    scen::JsonError err;
    if (!scen::parseJson(e.json(), d, err)) return "(not JSON)";
    const scen::JsonValue* b = d.find("tasks")->items[size_t(task)].find("behavior");
    return b ? scen::writeJson(*b, 1000) : "(none)";
}

// JSON text as writeJson() lays it out on one line, to compare with the file's.
std::string canon(const char* text) {
    scen::JsonValue v;
    scen::JsonError err;
    return scen::parseJson(text, v, err) ? scen::writeJson(v, 1000) : "(bad test JSON)";
}

// Types into the cell of the program tree's row at `item`, column `column`, as a person would:
// select the row, F2 opens the editor, the text replaces what was there, Return commits it.
void typeInto(QTreeWidget* tree, QTreeWidgetItem* item, int column, const QString& text) {
    tree->setCurrentItem(item, column);
    tree->setFocus();
    QTest::keyClick(tree, Qt::Key_F2);
    QTRY_VERIFY(qobject_cast<QLineEdit*>(QApplication::focusWidget()));
    QWidget* editor = QApplication::focusWidget();
    QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(editor, text);
    QTest::keyClick(editor, Qt::Key_Return);
}

QAction* templateAction(ScenarioEditor& e, const QString& label) {
    for (QAction* a : e.findChild<QToolButton*>("addOperation")->menu()->actions())
        if (a->text() == label) return a;
    return nullptr;
}

constexpr const char* kCommented = R"({
  // a hog and nothing else
  "name": "annotated", "duration": "200ms",
  "machine": { "cpus": 1, "preempt": "full" },  // full on purpose
  "tasks": [ { "comm": "hog", "behavior": [ { "run": "10ms" } ] } ]
}
)";

} // namespace

class TestScenarioEditor : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { useTestSettings("tst_scenario_editor"); }
    void anUnchangedFileRunsAsItIs() {
        QTemporaryDir dir;
        const QString path = dir.filePath("annotated.json");
        write(path, kCommented);
        Session s;
        MainWindow w(&s);
        ScenarioEditor* e = w.showEditor(true);
        QString err;
        QVERIFY2(e->openFile(path, &err), qPrintable(err));
        QVERIFY(!e->isWindowModified());
        QTest::mouseClick(e->findChild<QPushButton*>("run"), Qt::LeftButton);
        QTRY_COMPARE(s.source(), path);
        QCOMPARE(readAll(path), QByteArray(kCommented)); // not rewritten: the comments are there
    }
    // Edit scenario on a run opened as NAME@settings shows the scenario's own text and says, in the
    // editor's own note line (the main window's status bar is behind the editor), what the run has
    // on top of it; the next scenario loaded clears the note.
    void theSettingsOnTopOfTheOpenRunAreNamedInTheEditor() {
        Session s;
        QString err;
        QVERIFY2(s.load("kernel-hogs-waker@preempt=full,cpus=3", &err), qPrintable(err));
        MainWindow w(&s);
        ScenarioEditor* e = w.showEditor(false);
        auto* note = e->findChild<QLabel*>("note");
        QVERIFY(note);
        QVERIFY2(e->note().contains("kernel-hogs-waker") && e->note().contains("preempt=full,cpus=3"),
                 qPrintable(e->note()));
        QVERIFY(!note->isHidden());
        QVERIFY(e->json().find("preempt=full") == std::string::npos); // the text is the file's own
        e->newScenario();
        QVERIFY(e->note().isEmpty());
        QVERIFY(note->isHidden());
    }
    void textTypedInTheJsonTabIsSaved() {
        QTemporaryDir dir;
        const QString path = dir.filePath("plain.json");
        ScenarioEditor e;
        QString err;
        QVERIFY(e.saveTo(path, &err));
        auto* whole = e.findChild<QPlainTextEdit*>("wholeJson");
        QString text = whole->toPlainText();
        QVERIFY(text.contains("\"duration\": \"1s\""));
        text.replace("\"duration\": \"1s\"", "\"duration\": \"300ms\"");
        whole->setPlainText(text); // typed, not applied
        QVERIFY(e.isWindowModified());
        QTest::mouseClick(e.findChild<QPushButton*>("save"), Qt::LeftButton);
        QVERIFY(readAll(path).contains("\"duration\": \"300ms\""));
        QVERIFY(!e.isWindowModified());
        // A typed text that does not parse is not saved over the file, and says why.
        whole->setPlainText("{ \"name\": ");
        QTest::mouseClick(e.findChild<QPushButton*>("save"), Qt::LeftButton);
        QVERIFY(readAll(path).contains("\"duration\": \"300ms\""));
        QVERIFY(e.isWindowModified());
    }
    // A file that does not parse opens as it is in the JSON tab, with where it fails; once mended
    // there it saves, and never before.
    void aBrokenFileOpensInTheJsonTabToBeMended() {
        QTemporaryDir dir;
        const QString path = dir.filePath("broken.json");
        const QByteArray broken = "{\n  \"name\": \"b\",\n  \"duration\": \"1s\"\n  \"tasks\": []\n}\n";
        write(path, broken.constData());
        ScenarioEditor e;
        QString err;
        QVERIFY2(e.openFile(path, &err), qPrintable(err));
        auto* whole = e.findChild<QPlainTextEdit*>("wholeJson");
        QCOMPARE(whole->toPlainText().toUtf8(), broken);
        QCOMPARE(e.findChild<QTabWidget*>()->currentWidget(), whole->parentWidget()); // the JSON tab in front
        const QString status = e.findChild<QLabel*>("status")->text();
        QVERIFY2(status.contains("line 4"), qPrintable(status));
        QTest::mouseClick(e.findChild<QPushButton*>("save"), Qt::LeftButton);
        QCOMPARE(readAll(path), broken); // refused: the file is as it was
        QString mended = whole->toPlainText();
        mended.replace("\"1s\"\n", "\"1s\",\n");
        whole->setPlainText(mended);
        QTest::mouseClick(e.findChild<QPushButton*>("save"), Qt::LeftButton);
        QVERIFY2(readAll(path).contains("\"duration\": \"1s\""), readAll(path).constData());
        QVERIFY(!e.isWindowModified());
    }
    void nothingChangedIsNoUndoStep() {
        ScenarioEditor e;
        const int steps = e.undoStack()->count();
        auto* tasks = e.findChild<QTableWidget*>("tasks");
        tasks->item(0, 0)->setText(tasks->item(0, 0)->text()); // the same comm again
        QCOMPARE(e.undoStack()->count(), steps);
        tasks->item(0, 0)->setText("other");
        QCOMPARE(e.undoStack()->count(), steps + 1);
    }
    void aWorkloadEntryTakesNoOperations() {
        ScenarioEditor e;
        QVERIFY(e.loadText(R"({"name": "w", "machine": {"cpus": 2},
                              "tasks": [{"workload": "massive_intr", "args": "2 1"}, {"comm": "t", "behavior": [{"run": "1ms"}]}]})",
                           QString()));
        auto* tasks = e.findChild<QTableWidget*>("tasks");
        auto* insert = e.findChild<QToolButton*>("addOperation");
        QVERIFY(insert);
        tasks->setCurrentCell(0, 0);
        QVERIFY(!insert->isEnabled());
        tasks->setCurrentCell(1, 0);
        QVERIFY(insert->isEnabled());
    }
    void aProgramIsEditedAsOperations() {
        ScenarioEditor e;
        e.show();
        QVERIFY(QTest::qWaitForWindowActive(&e));
        auto* tree = e.findChild<QTreeWidget*>("programTree");
        QVERIFY(tree && tree->isVisible());
        // The new scenario's hog: a repeat for ever around a 10 ms run, shown as parent and child.
        QCOMPARE(tree->topLevelItemCount(), 1);
        QTreeWidgetItem* repeat = tree->topLevelItem(0);
        QCOMPARE(repeat->text(0), QString("repeat"));
        QCOMPARE(repeat->text(1), QString("forever"));
        QCOMPARE(repeat->childCount(), 1);
        QCOMPARE(repeat->child(0)->text(3), QString("compute for 10ms in user mode"));

        // A sleep into the selected repeat, after its run.
        tree->setCurrentItem(repeat);
        QAction* sleep = templateAction(e, "Sleep (nanosleep)");
        QVERIFY(sleep);
        sleep->trigger();
        QCOMPARE(programOf(e),
                 canon(R"([{"repeat": "forever", "body": [{"run": "10ms"}, {"sleep": "1ms"}]}])"));
        QCOMPARE(e.undoStack()->count(), 1);

        // Its value and the run's options, typed in place: one undo step each.
        tree = e.findChild<QTreeWidget*>("programTree");
        QCOMPARE(tree->currentItem()->text(0), QString("sleep")); // the new operation is selected
        typeInto(tree, tree->currentItem(), 1, "3ms");
        QTRY_COMPARE(programOf(e),
                     canon(R"([{"repeat": "forever", "body": [{"run": "10ms"}, {"sleep": "3ms"}]}])"));
        QCOMPARE(e.undoStack()->count(), 2);
        QTreeWidgetItem* run = tree->topLevelItem(0)->child(0);
        typeInto(tree, run, 2, "mode=kernel, cond_resched_every=100us");
        QTRY_COMPARE(
            programOf(e),
            canon(
                R"([{"repeat": "forever", "body": [{"run": "10ms", "mode": "kernel", "cond_resched_every": "100us"}, {"sleep": "3ms"}]}])"));
        QCOMPARE(tree->topLevelItem(0)->child(0)->text(3),
                 QString("a system call: 10ms of CPU in the kernel, cond_resched() every 100us"));
        QCOMPARE(e.undoStack()->count(), 3);
        QVERIFY2(e.problem().isEmpty(), qPrintable(e.problem()));

        // Down moves the run after the sleep; Wrap puts the sleep into a repeat of its own, Unwrap
        // takes it out again; Remove takes the run away.
        tree->setCurrentItem(tree->topLevelItem(0)->child(0));
        QTest::mouseClick(e.findChild<QPushButton*>("moveDown"), Qt::LeftButton);
        QCOMPARE(tree->currentItem()->text(0), QString("run"));
        QVERIFY(!e.findChild<QPushButton*>("moveDown")->isEnabled()); // the last of its list
        tree->setCurrentItem(tree->topLevelItem(0)->child(0));
        QCOMPARE(tree->currentItem()->text(0), QString("sleep"));
        QTest::mouseClick(e.findChild<QPushButton*>("wrapInRepeat"), Qt::LeftButton);
        QCOMPARE(
            programOf(e),
            canon(
                R"([{"repeat": "forever", "body": [{"repeat": 2, "body": [{"sleep": "3ms"}]}, {"run": "10ms", "mode": "kernel", "cond_resched_every": "100us"}]}])"));
        QVERIFY(e.findChild<QPushButton*>("unwrapRepeat")->isEnabled());
        QTest::mouseClick(e.findChild<QPushButton*>("unwrapRepeat"), Qt::LeftButton);
        tree->setCurrentItem(tree->topLevelItem(0)->child(1));
        QTest::mouseClick(e.findChild<QPushButton*>("removeOperation"), Qt::LeftButton);
        QCOMPARE(programOf(e), canon(R"([{"repeat": "forever", "body": [{"sleep": "3ms"}]}])"));
        QCOMPARE(tree->currentItem()->text(0), QString("sleep")); // the one before takes the selection
        // Down, wrap, unwrap and remove: one step each (7 in all). Undone, the run is back; redone,
        // it is gone again.
        QCOMPARE(e.undoStack()->count(), 7);
        QTest::mouseClick(e.findChild<QPushButton*>("undo"), Qt::LeftButton);
        QVERIFY(programOf(e).find("\"run\": \"10ms\"") != std::string::npos);
        QCOMPARE(tree->topLevelItem(0)->childCount(), 2);
        QTest::mouseClick(e.findChild<QPushButton*>("redo"), Qt::LeftButton);
        QCOMPARE(programOf(e), canon(R"([{"repeat": "forever", "body": [{"sleep": "3ms"}]}])"));
        // The same value typed again is no step, and the cell shows the file's value.
        typeInto(tree, tree->topLevelItem(0)->child(0), 1, "3ms ");
        QTRY_COMPARE(tree->topLevelItem(0)->child(0)->text(1), QString("3ms"));
        QCOMPARE(e.undoStack()->index(), 7); // after the redo, as it was
    }
    // A value typed for one task and committed by a click on another task's row is that first
    // task's: the view commits the text, then shows the other program, then the edit applies.
    void anEditCommittedByChangingTasksStaysWithItsTask() {
        ScenarioEditor e;
        QVERIFY(e.loadText(R"({"name": "two", "machine": {"cpus": 1},
                              "tasks": [{"comm": "a", "behavior": [{"run": "1ms"}]},
                                        {"comm": "b", "behavior": [{"sleep": "2ms"}, {"run": "5ms"}]}]})",
                           QString()));
        e.show();
        QVERIFY(QTest::qWaitForWindowActive(&e));
        auto* tree = e.findChild<QTreeWidget*>("programTree");
        auto* tasks = e.findChild<QTableWidget*>("tasks");
        tree->setCurrentItem(tree->topLevelItem(0), 1);
        tree->setFocus();
        QTest::keyClick(tree, Qt::Key_F2);
        QTRY_VERIFY(qobject_cast<QLineEdit*>(QApplication::focusWidget()));
        QWidget* cell = QApplication::focusWidget();
        QTest::keyClick(cell, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(cell, "3ms");
        // A click on task b's row: the editor loses focus and commits, then b's program shows.
        QTest::mouseClick(tasks->viewport(), Qt::LeftButton, {},
                          tasks->visualItemRect(tasks->item(1, 0)).center());
        QTRY_COMPARE(programOf(e, 0), canon(R"([{"run": "3ms"}])"));
        QCOMPARE(programOf(e, 1), canon(R"([{"sleep": "2ms"}, {"run": "5ms"}])"));
        QCOMPARE(tasks->currentRow(), 1);
        QCOMPARE(tree->topLevelItemCount(), 2); // b's program is what the tree shows
    }
    // An operation whose kind is not its first key is read as the loader reads it.
    void anOperationIsKnownByItsKindWhereverItStands() {
        ScenarioEditor e;
        QVERIFY(e.loadText(R"({"name": "k", "machine": {"cpus": 1},
                              "tasks": [{"comm": "a", "behavior": [{"mode": "kernel", "run": "5ms"}]}]})",
                           QString()));
        auto* tree = e.findChild<QTreeWidget*>("programTree");
        QCOMPARE(tree->topLevelItem(0)->text(0), QString("run"));
        QCOMPARE(tree->topLevelItem(0)->text(1), QString("5ms"));
        QCOMPARE(tree->topLevelItem(0)->text(2), QString("mode=kernel"));
        QVERIFY(tree->topLevelItem(0)->text(3).startsWith("a system call: 5ms"));
    }
    void aWrongOperationIsMarkedWhereItIs() {
        ScenarioEditor e;
        e.show();
        QVERIFY(QTest::qWaitForWindowActive(&e));
        auto* tree = e.findChild<QTreeWidget*>("programTree");
        QTreeWidgetItem* run = tree->topLevelItem(0)->child(0);
        typeInto(tree, run, 1, "10xs");
        QTRY_VERIFY(e.problem().contains("tasks[0].behavior[0].body[0].run"));
        run = tree->topLevelItem(0)->child(0);
        QVERIFY2(run->toolTip(1).contains("not a duration"), qPrintable(run->toolTip(1)));
        QCOMPARE(run->foreground(0).color(), QColor(0xc0, 0x39, 0x2b));
        QVERIFY(tree->topLevelItem(0)->toolTip(1).isEmpty()); // the repeat is not the wrong one
        QVERIFY(!e.findChild<QPushButton*>("run")->isEnabled());
        // Options that are not key=value are refused before they reach the file, and say so.
        const std::string before = programOf(e);
        typeInto(tree, run, 2, "kernel");
        QTRY_VERIFY(e.findChild<QLabel*>("status")->text().contains("is not key=value"));
        QCOMPARE(programOf(e), before);
        QCOMPARE(tree->topLevelItem(0)->child(0)->text(2), QString()); // the cell shows the file again
        // Mended, the mark goes.
        typeInto(tree, tree->topLevelItem(0)->child(0), 1, "10ms");
        QTRY_VERIFY(e.problem().isEmpty());
        QVERIFY(tree->topLevelItem(0)->child(0)->toolTip(1).isEmpty());
        QVERIFY(e.findChild<QPushButton*>("run")->isEnabled());
    }
    void aSharedProgramIsEditedOnce() {
        ScenarioEditor e;
        QVERIFY(e.loadText(R"({"name": "s", "machine": {"cpus": 1},
                              "programs": {"worker": [{"run": "1ms"}, {"sleep": "2ms"}]},
                              "tasks": [{"comm": "a", "program": "worker"}, {"comm": "b", "program": "worker"}]})",
                           QString()));
        auto* tasks = e.findChild<QTableWidget*>("tasks");
        tasks->setCurrentCell(1, 0);
        auto* tree = e.findChild<QTreeWidget*>("programTree");
        QCOMPARE(tree->topLevelItemCount(), 2);
        tree->setCurrentItem(tree->topLevelItem(1));
        QTest::mouseClick(e.findChild<QPushButton*>("removeOperation"), Qt::LeftButton);
        scen::JsonValue d;
        scen::JsonError err;
        QVERIFY(scen::parseJson(e.json(), d, err));
        QCOMPARE(scen::writeJson(*d.find("programs"), 1000), canon(R"({"worker": [{"run": "1ms"}]})"));
        QVERIFY(!d.find("tasks")->items[1].find("behavior")); // still the shared program's task
        tasks->setCurrentCell(0, 0);
        QCOMPARE(tree->topLevelItemCount(), 1); // task a runs it too
    }
    void aDeeplyNestedValueIsWrittenBack() {
        std::string deep;
        for (int i = 0; i < 60; ++i)
            deep += "[";
        deep += "1, \"s\"";
        for (int i = 0; i < 60; ++i)
            deep += "]";
        scen::JsonValue v;
        scen::JsonError je;
        QVERIFY(scen::parseJson(deep, v, je));
        const std::string again = scen::writeJson(v);
        QVERIFY(again.find("\"s\"") != std::string::npos && again.find('1') != std::string::npos);
        QVERIFY(again.find("{") == std::string::npos);
    }
};

QTEST_MAIN(TestScenarioEditor)
#include "tst_scenario_editor.moc"
