// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario editor loses nothing: an unchanged file runs as it is (its comments kept), text typed
// in the JSON tab is saved by Save even before Apply, an edit that changes nothing is no undo step,
// operations cannot be inserted into a workload entry, and a deeply nested value is written back.
#include "app/gui/main_window.h"
#include "app/gui/scenario_editor.h"
#include "app/gui/session.h"
#include "tests/app/gui/gui_test_support.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>
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
        auto* insert = e.findChild<QToolButton*>();
        QVERIFY(insert);
        tasks->setCurrentCell(0, 0);
        QVERIFY(!insert->isEnabled());
        tasks->setCurrentCell(1, 0);
        QVERIFY(insert->isEnabled());
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
