// SPDX-License-Identifier: GPL-3.0-or-later
// The first minute of someone who has never seen the app, through the real widgets with mouse and
// key events: from the welcome screen open a teaching scenario and read what it shows, change the
// preemption model, make a new scenario with two tasks in the editor, save it through the file
// dialog and run it in the main window.
#include "app/gui/main_window.h"
#include "app/gui/scenario_editor.h"
#include "app/gui/session.h"
#include "app/gui/welcome_dialog.h"
#include "scenarios/builtin_scenarios.h"
#include "tests/app/gui/gui_test_support.h"
#include "widgets/timeline_view.h"

#include <QComboBox>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeWidget>
#include <QtTest>

using namespace sched;

namespace {

QTreeWidgetItem* entry(QTreeWidget* tree, const QString& name) {
    const auto found = tree->findItems(name, Qt::MatchExactly | Qt::MatchRecursive);
    return found.isEmpty() ? nullptr : found.front();
}

void clickItem(QTreeWidget* tree, QTreeWidgetItem* item) {
    tree->scrollToItem(item);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(item).center());
}

} // namespace

class TestFirstMinute : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { useTestSettings("tst_first_minute"); }
    void fromTheWelcomeScreenToANewScenario() {
        Session s;
        MainWindow w(&s);
        QVERIFY(w.openScenario(scen::kDefaultScenario, false)); // as the app opens it: not a recent file
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));

        // 1. The welcome screen: a teaching scenario, its description, Open.
        WelcomeDialog* welcome = w.showWelcome();
        QVERIFY(QTest::qWaitForWindowExposed(welcome));
        QTreeWidgetItem* fair = entry(welcome->gallery(), "fair-pair");
        QVERIFY(fair);
        clickItem(welcome->gallery(), fair);
        QVERIFY(welcome->shownDescription().contains("EEVDF gives each half of the CPU"));
        QTest::mouseClick(welcome->findChild<QPushButton*>("openScenario"), Qt::LeftButton);
        QTRY_COMPARE(QString::fromStdString(s.scenario().name), QString("fair-pair"));

        // 2. Change the preemption model with the mouse and the keyboard.
        auto* model = w.findChild<QComboBox*>("preemptModel");
        QVERIFY(model && model->isVisible());
        const PreemptModel before = s.engine().config().preempt;
        const PreemptModel target = before == PreemptModel::Full ? PreemptModel::Lazy : PreemptModel::Full;
        const int index = model->findData(int(target));
        QVERIFY(index >= 0);
        model->setFocus();
        QTest::mouseClick(model, Qt::LeftButton); // opens the list
        for (int k = 0; k < model->count(); ++k)
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Up);
        for (int k = 0; k < index; ++k)
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Down);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QTRY_COMPARE(s.engine().config().preempt, target);

        // 3. File > New scenario (Ctrl+N): the editor, a second task, its comm typed in.
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTest::keyClick(static_cast<QWidget*>(w.timeline()), Qt::Key_N, Qt::ControlModifier);
        ScenarioEditor* editor = w.findChild<ScenarioEditor*>();
        QVERIFY(editor);
        QVERIFY(QTest::qWaitForWindowExposed(editor));
        editor->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(editor));
        auto* tasks = editor->findChild<QTableWidget*>("tasks");
        QCOMPARE(tasks->rowCount(), 1);
        QTest::mouseClick(editor->findChild<QPushButton*>("addTask"), Qt::LeftButton);
        QCOMPARE(tasks->rowCount(), 2);
        const QRect cell = tasks->visualItemRect(tasks->item(1, 0));
        QTest::mouseClick(tasks->viewport(), Qt::LeftButton, {}, cell.center());
        QTest::keyClick(tasks, Qt::Key_F2); // edit the cell, as a double-click would
        QTRY_VERIFY(qobject_cast<QLineEdit*>(QApplication::focusWidget()));
        QWidget* cellEditor = QApplication::focusWidget();
        QTest::keyClick(cellEditor, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(cellEditor, "waker");
        QTest::keyClick(cellEditor, Qt::Key_Return);
        QTRY_COMPARE(tasks->item(1, 0)->text(), QString("waker"));
        QVERIFY2(editor->problem().isEmpty(), qPrintable(editor->problem()));
        // A wrong value gets the loader's message, and Undo takes it back.
        tasks->item(1, 2)->setText("fifoo");
        QVERIFY(editor->problem().contains("policy"));
        QTest::mouseClick(editor->findChild<QPushButton*>("undo"), Qt::LeftButton);
        QVERIFY2(editor->problem().isEmpty(), qPrintable(editor->problem()));

        // 4. Save as, through the file dialog, then Run in the main window.
        QTemporaryDir dir;
        const QString path = dir.filePath("two-tasks.json");
        QTimer::singleShot(300, [path] {
            auto* d = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            QVERIFY(d);
            auto* name = d->findChild<QLineEdit*>("fileNameEdit"); // typed, as a person would
            QVERIFY(name);
            name->clear();
            QTest::keyClicks(name, path);
            QTest::keyClick(name, Qt::Key_Return);
        });
        QTest::mouseClick(editor->findChild<QPushButton*>("saveAs"), Qt::LeftButton);
        QTRY_VERIFY(QFile::exists(path));
        QCOMPARE(editor->path(), path);
        QTest::mouseClick(editor->findChild<QPushButton*>("run"), Qt::LeftButton);
        QTRY_COMPARE(s.source(), path);
        QCOMPARE(s.scenario().tasks.size(), size_t(2));
        QCOMPARE(s.scenario().tasks[1].comm, std::string("waker"));
        scen::Scenario saved;
        scen::ScenarioError e;
        QVERIFY2(scen::loadScenario(path.toStdString(), saved, e), e.text().c_str());
        QCOMPARE(saved.tasks[0].comm, std::string("hog"));
    }
};

QTEST_MAIN(TestFirstMinute)
#include "tst_first_minute.moc"
