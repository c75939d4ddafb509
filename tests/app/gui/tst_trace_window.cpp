// SPDX-License-Identifier: GPL-3.0-or-later
// A real trace in the GUI: imported on a worker thread behind a progress dialog, shown in the same timeline
// as a simulation with its perf sched latency table, and compared with the simulation A/B.
#include "app/gui/compare_window.h"
#include "app/gui/main_window.h"
#include "app/gui/session.h"
#include "app/gui/trace_window.h"
#include "tests/app/gui/gui_test_support.h"
#include "tests/test_support.h"
#include "widgets/timeline_view.h"

#include <QComboBox>
#include <QFileInfo>
#include <QImage>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>

#include <fstream>

using namespace sched;

namespace {
QString tracePath(const char* name) {
    return QString(SCHEDSCOPE_TEST_DATA) + "/traces/" + name;
}

// File > Open trace, waiting for the background import: the window, or null with *error set.
TraceWindow* openTraceAndWait(MainWindow& w, const QString& path, QString* error) {
    bool done = false;
    TraceWindow* window = nullptr;
    w.openTrace(path, [&](TraceWindow* t, const QString& err) {
        window = t;
        if (error) *error = err;
        done = true;
    });
    if (!QTest::qWaitFor([&] { return done; }, 120000)) {
        if (error) *error = "the import did not end";
        return nullptr;
    }
    return window;
}

// A main window with a scenario open, and the massive_intr trace opened from it (t: null, with
// error set, when the import failed).
struct WithTrace {
    Session s;
    MainWindow w{&s};
    TraceWindow* t = nullptr;
    QString error;
    explicit WithTrace(const QString& scenario) {
        if (w.openScenario(scenario))
            t = openTraceAndWait(w, tracePath("massive_intr-8x8ms-1ms.trace.xz"), &error);
        else
            error = "scenario " + scenario + " did not open";
    }
};
} // namespace

class TestTraceWindow : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { useTestSettings("tst_trace_window", false); }

    void openTraceShowsTimelineAndLatencyTable() {
        WithTrace x("kernel-hogs-waker");
        TraceWindow* t = x.t;
        QVERIFY2(t, qPrintable(x.error));
        QCOMPARE(t->trace().cpus, 2);
        QVERIFY(t->trace().slices.size() > 7000);
        // The timeline shows the whole recording.
        QCOMPARE(t->timeline()->axis().start, Time(0));
        QCOMPARE(t->timeline()->axis().span(), t->trace().endTime);
        // The table: perf sched latency merged by comm, sorted by runtime; massive_intr first.
        QTableWidget* tab = t->table();
        QVERIFY(tab->rowCount() > 10);
        QCOMPARE(tab->item(0, 0)->text(), QString("massive_intr:(9)"));
        QCOMPARE(tab->item(0, 2)->text(), QString("6875"));
        t->close();
    }

    // The trace window's Critical path: the selected task's runs, waits and sleeps back from the
    // end of the visible range - nothing without a selection.
    void theCriticalPathOfATracedTask() {
        WithTrace x("kernel-hogs-waker");
        TraceWindow* t = x.t;
        QVERIFY2(t, qPrintable(x.error));
        QVERIFY(t->criticalPathText().isEmpty());
        TaskId worker = kNoTask;
        for (TaskId k = 0; k < TaskId(t->trace().tasks.size()); ++k)
            if (t->trace().tasks[size_t(k)].pid == 18113) worker = k;
        QVERIFY(worker != kNoTask);
        t->timeline()->setSelectedTask(worker);
        t->timeline()->setRange(4 * kNsPerSec, 5 * kNsPerSec);
        const QString text = t->criticalPathText();
        QVERIFY2(text.startsWith("massive_intr:18113 back from 5000.000 ms"), qPrintable(text.left(120)));
        QVERIFY(text.contains("ran on CPU"));
        QVERIFY(text.contains("waited for a CPU (runnable)"));
        QVERIFY(text.contains("along the path: running"));
        QVERIFY(t->findChild<QPushButton*>("criticalPath"));
        t->close();
    }

    // "Simulate this workload": the trace's workload as a derived scenario, saved and opened in the
    // main window on the traced machine's CPUs, then run and compared with the trace.
    void simulateTheTracesWorkload() {
        WithTrace x("kernel-hogs-waker");
        Session& s = x.s;
        MainWindow& w = x.w;
        TraceWindow* t = x.t;
        QVERIFY2(t, qPrintable(x.error));
        QString err;
        QTemporaryDir dir;
        QVERIFY(!w.simulateTrace(t, dir.filePath("no/such/dir/x.json"), &err));
        QVERIFY2(err.contains("cannot write"), qPrintable(err));
        const QString path = dir.filePath("massive.scenario.json");
        QVERIFY2(w.simulateTrace(t, path, &err), qPrintable(err));
        QVERIFY(QFileInfo::exists(path));
        QCOMPARE(QString::fromStdString(s.scenario().name),
                 QString("derived-massive_intr-8x8ms-1ms.trace.xz"));
        QCOMPARE(s.engine().config().cpus, 2);
        size_t workers = 0;
        for (const scen::TaskGroupSpec& g : s.scenario().tasks)
            if (g.comm == "massive_intr") workers += size_t(g.count);
        QCOMPARE(workers, size_t(9)); // the parent and its eight workers, from the marker's root
        s.setBackgroundThreshold(100 * kNsPerSec);
        s.runTo(2 * kNsPerSec);
        CompareWindow* c = w.compareWithTrace(t);
        QVERIFY(c);
        c->close();
        t->close();
    }

    void compareSimulationWithTrace() {
        Session s;
        MainWindow w(&s);
        QVERIFY(
            w.openScenario(QString(SCHEDSCOPE_SCENARIO_DIR) + "/real-machine/massive_intr-8x8ms-1ms.json"));
        QString err;
        TraceWindow* t = openTraceAndWait(w, tracePath("massive_intr-8x8ms-1ms.trace.xz"), &err);
        QVERIFY2(t, qPrintable(err));
        QVERIFY(!w.compareWithTrace(t));           // nothing simulated yet: refused
        s.setBackgroundThreshold(100 * kNsPerSec); // run in this thread
        s.runTo(3 * kNsPerSec);
        CompareWindow* c = w.compareWithTrace(t);
        QVERIFY(c);
        QCOMPARE(c->comparison().to, 3 * kNsPerSec);
        bool found = false;
        for (const CompareRow& r : c->comparison().rows)
            if (r.group == "massive_intr") {
                found = true;
                QVERIFY(r.a.runtime > 0 && r.b.runtime > 0);
                // Both keep the two CPUs busy: within 10 % of each other over the window.
                QVERIFY(std::abs(double(r.a.runtime - r.b.runtime)) < 0.1 * double(r.b.runtime));
            }
        QVERIFY(found);
        // One axis: moving A moves B.
        c->timelineA()->setRange(kNsPerSec, 2 * kNsPerSec);
        QCOMPARE(c->timelineB()->axis().start, kNsPerSec);
        // Aligned at an event both have: B shifted by the difference, moving together, measured
        // over the shifted window, the event marked in both.
        std::string why;
        QVERIFY(!c->alignTo("run:nosuch", why));
        QVERIFY2(c->alignTo("wake:massive_intr", why), why.c_str());
        const Time shift = c->shift();
        QVERIFY(shift != 0);
        QCOMPARE(c->comparison().shiftB, shift);
        QCOMPARE(c->comparison().alignedAt, std::string("first wakeup of massive_intr"));
        QCOMPARE(*c->timelineB()->markerA() - *c->timelineA()->markerA(), shift);
        c->timelineA()->setRange(kNsPerSec, 2 * kNsPerSec);
        QCOMPARE(c->timelineB()->axis().start, kNsPerSec + shift);
        c->timelineB()->setRange(kNsPerSec, 2 * kNsPerSec);
        QCOMPARE(c->timelineA()->axis().start, kNsPerSec - shift);
        // At any event the user marks: marker A in each timeline.
        c->timelineA()->setMarkerA(2 * kNsPerSec);
        c->timelineB()->setMarkerA(2 * kNsPerSec + 5 * kNsPerMs);
        QVERIFY(c->alignAtMarkers());
        QCOMPARE(c->shift(), 5 * kNsPerMs);
        QCOMPARE(c->alignCombo()->currentIndex(), c->alignCombo()->count() - 1);
        // Back to one time axis from the combo.
        c->alignCombo()->setCurrentIndex(0);
        QCOMPARE(c->shift(), Time(0));
        QCOMPARE(c->comparison().shiftB, Time(0));
        c->timelineB()->setMarkerA(std::nullopt);
        QVERIFY(!c->alignAtMarkers()); // refused without both markers, and nothing changes
        QCOMPARE(c->alignCombo()->currentIndex(), 0);
        c->close();
        t->close();
    }

    // File > Export run as ftrace text, then File > Open trace of that file: the same run.
    void exportedRunOpensAsATrace() {
        Session s;
        MainWindow w(&s);
        QVERIFY(w.openScenario("kernel-hogs-waker"));
        s.runTo(300 * kNsPerMs);
        QTemporaryDir dir;
        const QString path = dir.filePath("run.trace");
        QCOMPARE(w.exportFtraceTo(path), QString());
        QVERIFY(w.exportFtraceTo(dir.filePath("nodir/run.trace")).contains("cannot write"));
        QString err;
        TraceWindow* t = openTraceAndWait(w, path, &err);
        QVERIFY2(t, qPrintable(err));
        const SwitchCounts a = countSwitches(s.engine().trace()), b = countSwitches(t->trace());
        QCOMPARE(b.total, a.total);
        QCOMPARE(b.voluntary, a.voluntary);
        t->close();
    }

    // Degenerate traces open as windows that draw: every event at one instant (a run of 0 s), and a
    // stray timestamp on a sched_switch line (it took the window down with SIGSEGV).
    void degenerateTracesOpenAndDraw() {
        Session s;
        MainWindow w(&s);
        QTemporaryDir dir;
        const std::string sw =
            " [000] d..2. 5.000000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S "
            "==> next_comm=b next_pid=11 next_prio=120\n";
        const QString instant = dir.filePath("instant.txt");
        std::ofstream(instant.toStdString()) << "a-10" << sw << "b-11" << sw << "a-10" << sw;
        const QString stray = dir.filePath("stray.txt");
        {
            std::ofstream f(stray.toStdString());
            for (int i = 0; i < 40; ++i) {
                f << "a-10 [000] d..2. " << 1 + i
                  << ".000000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 "
                  << "prev_state=S ==> next_comm=b next_pid=11 next_prio=120\n";
                if (i == 20)
                    f << "b-11 [000] d..2. 99999.000000: sched_switch: prev_comm=b prev_pid=11 prev_prio=120 "
                         "prev_state=S ==> next_comm=a next_pid=10 next_prio=120\n";
            }
        }
        for (const QString& path : {instant, stray}) {
            QString err;
            TraceWindow* t = openTraceAndWait(w, path, &err);
            QVERIFY2(t, qPrintable(err));
            t->resize(900, 600);
            t->show();
            QImage shot(t->size(), QImage::Format_ARGB32);
            t->render(&shot); // paints the timeline and the table
            QVERIFY(t->timeline()->axis().span() >= 1);
            t->close();
        }
    }

    void badTraceGivesAnErrorNotAWindow() {
        Session s;
        MainWindow w(&s);
        QTemporaryDir dir;
        const QString junk = dir.filePath("junk.txt");
        std::ofstream(junk.toStdString()) << "this is not a trace\n";
        QString err;
        QVERIFY(!openTraceAndWait(w, junk, &err));
        QVERIFY2(err.contains("no scheduler events"), qPrintable(err));
        QVERIFY(!openTraceAndWait(w, dir.filePath("missing.txt"), &err));
        QVERIFY2(err.contains("no such file"), qPrintable(err));
    }
};

QTEST_MAIN(TestTraceWindow)
#include "tst_trace_window.moc"
