// SPDX-License-Identifier: GPL-3.0-or-later
// The session controller and the main window: stepping moves exactly as far as asked, a live
// change applies at the current simulated time and shows as a marker, key bindings of the
// timeline zoom and pan.
#include "app/gui/compare_window.h"
#include "app/gui/main_window.h"
#include "app/gui/session.h"
#include "app/gui/theme.h"
#include "tests/app/gui/gui_test_support.h"
#include "tests/test_support.h"
#include "widgets/latency_histogram.h"
#include "widgets/timeline_view.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QInputDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTimer>
#include <QWheelEvent>
#include <qcustomplot.h>

using namespace sched;

class TestSession : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { useTestSettings("tst_session", false); }
    void loadReportsErrorsAndLoadsBuiltins() {
        Session s;
        QString err;
        QVERIFY(!s.load("no-such-scenario", &err));
        QVERIFY(err.contains("built-in"));
        QVERIFY(s.load("kernel-hogs-waker", &err));
        QCOMPARE(s.engine().now(), Time(0));
    }
    // The command line's scenario may carry settings, as compare's sides do: the run opens with
    // them, and a bad one is refused with the setting's own error.
    void loadTakesSettingsAfterAnAt() {
        Session s;
        QString err;
        QVERIFY2(s.load("preempt-switch@kernel=7.1,preempt=lazy,cpus=2,seed=7", &err), qPrintable(err));
        QCOMPARE(s.engine().config().profile, KernelProfile::V7_1);
        QCOMPARE(s.engine().config().preempt, PreemptModel::Lazy);
        QCOMPARE(s.engine().config().cpus, 2);
        QCOMPARE(s.scenario().seed, uint64_t(7));
        QCOMPARE(s.source(), QString("preempt-switch@kernel=7.1,preempt=lazy,cpus=2,seed=7"));
        QVERIFY(!s.load("preempt-switch@kernel=9.9", &err));
        QVERIFY2(err.contains("--kernel: '9.9' is not a kernel; accepted: ") && err.contains("7.1"),
                 qPrintable(err));
        QVERIFY(!s.load("preempt-switch@colour=red", &err));
        QVERIFY2(err.contains("'colour' is not a setting; accepted: preempt, kernel"), qPrintable(err));
        QVERIFY(!s.load("preempt-switch@lazy", &err));
        QVERIFY2(err.contains("'lazy' in 'preempt-switch@lazy' is not a setting; write key=value"),
                 qPrintable(err));
        QCOMPARE(s.engine().config().profile, KernelProfile::V7_1); // refused: the open run stays
    }
    void stepsMoveExactlyAsFarAsAsked() {
        Session s;
        QVERIFY(s.load("fair-pair", nullptr));
        const uint64_t ev = s.engine().eventsProcessed();
        s.stepEvent();
        QCOMPARE(s.engine().eventsProcessed(), ev + 1);
        const int64_t sw = s.engine().contextSwitches();
        s.stepSwitch();
        QCOMPARE(s.engine().contextSwitches(), sw + 1);
        s.stepTick();
        QCOMPARE(s.engine().now() % (4 * kNsPerMs), Time(0)); // HZ 250: stopped on a tick
        s.runTo(300 * kNsPerMs);
        QCOMPARE(s.engine().now(), 300 * kNsPerMs);
    }
    void liveChangeAppliesAtTheCurrentTime() {
        Session s;
        QVERIFY(s.load("kernel-hogs-waker", nullptr));
        s.runTo(500 * kNsPerMs);
        QSignalSpy advanced(&s, &Session::advanced);
        QCOMPARE(s.apply(ParamChange::preemptModel(PreemptModel::Full)), QString());
        QCOMPARE(advanced.count(), 1);
        QCOMPARE(s.engine().config().preempt, PreemptModel::Full);
        QCOMPARE(s.engine().trace().markers.back().time, 500 * kNsPerMs);
        QCOMPARE(s.engine().trace().markers.back().text, std::string("preempt=full"));
        QVERIFY(!s.apply(ParamChange::hzChange(123)).isEmpty());
        s.reset();
        QCOMPARE(s.engine().now(), Time(0));
        QVERIFY(s.engine().trace().markers.empty());
    }
    void scrubbingBackReturnsTheExactEarlierState() {
        Session a, b;
        QVERIFY(a.load("preempt-switch", nullptr) && b.load("preempt-switch", nullptr));
        a.runTo(230 * kNsPerMs);
        b.runTo(390 * kNsPerMs);
        QSignalSpy rewound(&b, &Session::rewound);
        b.runTo(230 * kNsPerMs); // back, to a time after the live change at 200 ms
        QCOMPARE(rewound.count(), 1);
        QCOMPARE(b.engine().now(), a.engine().now());
        QCOMPARE(b.engine().eventsProcessed(), a.engine().eventsProcessed());
        QVERIFY(b.engine().trace().slices.start == a.engine().trace().slices.start);
        QVERIFY(b.engine().trace().slices.task == a.engine().trace().slices.task);
        QVERIFY(b.engine().trace().flags.set == a.engine().trace().flags.set);
        QCOMPARE(b.engine().trace().markers.size(), size_t(1));
        b.runTo(150 * kNsPerMs); // before the change: the marker is gone, the model is none again
        QVERIFY(b.engine().trace().markers.empty());
        QCOMPARE(b.engine().config().preempt, PreemptModel::None);
        b.stepBack(1 * kNsPerSec); // clamps at the start
        QCOMPARE(b.engine().now(), Time(0));
    }
    void stepBackOneEventUndoesOneStep() {
        Session s;
        QVERIFY(s.load("kernel-hogs-waker", nullptr));
        s.runTo(37 * kNsPerMs);
        const uint64_t ev = s.engine().eventsProcessed();
        const size_t slices = s.engine().trace().slices.size();
        const Time now = s.engine().now();
        s.stepEvent();
        s.stepEvent();
        s.stepBackEvent();
        s.stepBackEvent();
        QCOMPARE(s.engine().eventsProcessed(), ev);
        QCOMPARE(s.engine().trace().slices.size(), slices);
        QVERIFY(s.engine().now() <= now);
    }
    void farRunsGoToTheWorkerThread() {
        Session s;
        QVERIFY(s.load("fair-pair", nullptr));
        s.setBackgroundThreshold(100 * kNsPerMs);
        QSignalSpy busy(&s, &Session::busyChanged);
        s.runTo(900 * kNsPerMs);
        QVERIFY(s.busy());
        QCOMPARE(s.apply(ParamChange::preemptModel(PreemptModel::Full)).isEmpty(),
                 false); // refused meanwhile
        QTRY_VERIFY_WITH_TIMEOUT(!s.busy(), 30000);
        QCOMPARE(busy.count(), 2);
        QCOMPARE(s.engine().now(), 900 * kNsPerMs);
        Engine direct = builtinEngine("fair-pair");
        direct.runUntil(900 * kNsPerMs);
        QCOMPARE(s.engine().eventsProcessed(), direct.eventsProcessed());
        QCOMPARE(s.engine().trace().slices.start, direct.trace().slices.start);
    }
    void aBackgroundRunCanBeCancelled() {
        Session s;
        QVERIFY(s.load("bench-64cpu-800", nullptr));
        s.setBackgroundThreshold(kNsPerMs);
        s.runTo(200 * kNsPerMs);
        QVERIFY(s.busy());
        s.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!s.busy(), 30000);
        QVERIFY(s.engine().now() < 200 * kNsPerMs); // it stopped early, at a chunk boundary
        s.stepEvent();                              // and the engine is usable again
    }
    void playAdvancesTimeWithoutBlockingTheEventLoop() {
        Session s;
        QVERIFY(s.load("kernel-hogs-waker", nullptr));
        s.setSpeed(0); // as fast as possible, still in frames
        QSignalSpy advanced(&s, &Session::advanced);
        s.play();
        QVERIFY(s.playing());
        QTRY_VERIFY_WITH_TIMEOUT(!s.playing(), 20000); // it reaches the scenario's end and stops
        QCOMPARE(s.engine().now(), s.scenario().duration);
        QVERIFY(advanced.count() >= 1);
    }
    void stateAtReplaysAnEarlierMomentWithoutTouchingThePresent() {
        Session s;
        QVERIFY(s.load("kernel-hogs-waker", nullptr));
        s.runTo(300 * kNsPerMs);
        const uint64_t events = s.engine().eventsProcessed();
        const auto past = s.stateAt(123 * kNsPerMs);
        QVERIFY(past.has_value());
        QCOMPARE(past->now(), 123 * kNsPerMs);
        Engine direct = builtinEngine("kernel-hogs-waker");
        direct.runUntil(123 * kNsPerMs);
        QCOMPARE(past->eventsProcessed(), direct.eventsProcessed());
        for (size_t c = 0; c < direct.cpus().size(); ++c) {
            QCOMPARE(past->cpus()[c].curr, direct.cpus()[c].curr);
            QCOMPARE(past->cpus()[c].cfs.avgVruntime, direct.cpus()[c].cfs.avgVruntime);
        }
        QCOMPARE(past->describePick(0), direct.describePick(0));
        QCOMPARE(s.engine().eventsProcessed(), events);  // the live engine did not move
        QVERIFY(!s.stateAt(400 * kNsPerMs).has_value()); // not ahead of the present
    }
    void metricsExportWritesCsvAndJsonAtomically() {
        Session s;
        MainWindow w(&s);
        QVERIFY(w.openScenario("kernel-hogs-waker"));
        s.runTo(500 * kNsPerMs);
        QTemporaryDir dir;
        const QString csv = dir.filePath("m.csv"), json = dir.filePath("m.json");
        QCOMPARE(w.exportMetricsTo(csv), QString());
        QCOMPARE(w.exportMetricsTo(json), QString());
        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(c.readAll());
        // One table (a header, a row per task, TOTAL last), every row as wide as the header.
        const QStringList lines = text.trimmed().split('\n');
        QCOMPARE(lines.front(),
                 QString("task,pid,merged,runtime_ns,switches,avg_delay_ns,max_delay_ns,sum_delay_ns,"
                         "max_delay_start_ns,voluntary,involuntary,migrations"));
        for (const QString& l : lines)
            QCOMPARE(l.count(','), 11);
        QVERIFY(text.contains("\nwaker,1002,1,"));
        const QStringList total = lines.back().split(',');
        QCOMPARE(total[0], QString("TOTAL"));
        QFile j(json);
        QVERIFY(j.open(QIODevice::ReadOnly));
        QJsonParseError e;
        const QJsonDocument d = QJsonDocument::fromJson(j.readAll(), &e);
        QCOMPARE(e.error, QJsonParseError::NoError);
        QCOMPARE(d.object()["simulated_ns"].toDouble(), 500e6);
        // The TOTAL row's switch-outs and runtime are the run's, counted another way in the JSON:
        // its switch counts and the CPUs' busy time (the running slices counted up to now in both).
        QCOMPARE(total[9].toLongLong() + total[10].toLongLong(),
                 d.object()["voluntary"].toInteger() + d.object()["involuntary"].toInteger());
        QCOMPARE(total[11].toLongLong(), d.object()["migrations"].toInteger());
        qint64 busy = 0;
        for (const QJsonValue v : d.object()["cpu_busy_ns"].toArray())
            busy += v.toInteger();
        QCOMPARE(total[3].toLongLong(), busy);
        QVERIFY(busy > 500 * kNsPerMs); // both CPUs' running slices count up to now
        QVERIFY(w.exportMetricsTo(dir.filePath("nodir/m.csv")).contains("cannot write"));
        QVERIFY(w.exportMetricsTo(dir.filePath("m.txt")).contains(".csv or .json"));
    }
    // A moment clicked to inspect stays until the run moves on: a step returns the inspector to the
    // present (it used to stay at the clicked moment while the run stepped on, as if frozen).
    void theInspectorFollowsThePresentOnceTheRunMovesOn() {
        Session s;
        MainWindow w(&s);
        QVERIFY(w.openScenario("kernel-hogs-waker"));
        w.show();
        s.runTo(300 * kNsPerMs);
        auto* now = w.findChild<QPushButton*>("inspectorNow");
        QVERIFY(now);
        w.inspectAt(200 * kNsPerMs, 0);
        QVERIFY(now->isEnabled()); // showing an earlier moment
        s.stepEvent();
        QTRY_VERIFY(!now->isEnabled());
    }
    // The hover readout goes when the mouse leaves the timeline (it stayed at the last time).
    void theHoverReadoutGoesWithTheMouse() {
        ShownWindow shown("kernel-hogs-waker");
        Session& s = shown.s;
        MainWindow& w = shown.w;
        s.runTo(100 * kNsPerMs);
        view::TimelineView* t = w.timeline();
        QTest::mouseMove(t, QPoint(t->width() / 2, t->layout().laneTop(0) + 5));
        QVERIFY(t->data().cursor.has_value());
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(t, &leave);
        QVERIFY(!t->data().cursor.has_value());
    }
    void timelineKeysZoomAndPan() {
        Session s;
        MainWindow w(&s);
        QVERIFY(w.openScenario("fair-pair"));
        w.resize(1200, 800);
        w.show();
        view::TimelineView* t = w.timeline();
        t->setRange(0, 120 * kNsPerMs);
        t->setFocus();
        QTest::keyClick(t, Qt::Key_W);
        QCOMPARE(t->axis().span(), Time(120 * kNsPerMs / 1.5));
        QTest::keyClick(t, Qt::Key_S);
        QVERIFY(std::llabs(t->axis().span() - 120 * kNsPerMs) <= 2);
        const Time before = t->axis().start;
        QTest::keyClick(t, Qt::Key_D);
        QVERIFY(t->axis().start > before);
        QTest::keyClick(t, Qt::Key_A);
        QVERIFY(std::llabs(t->axis().start - before) <= 2);
        s.runTo(400 * kNsPerMs);
        QTest::keyClick(t, Qt::Key_Home);
        QCOMPARE(t->axis().start, Time(0));
        QVERIFY(t->axis().end >= 400 * kNsPerMs);
        const Time fitEnd = t->axis().end;
        // Zooming out from a moment late in the run ends at the whole run, as Home shows it: never
        // before 0, never past it.
        t->setRange(350 * kNsPerMs, 360 * kNsPerMs);
        for (int i = 0; i < 20; ++i)
            QTest::keyClick(t, Qt::Key_S);
        QCOMPARE(t->axis().start, Time(0));
        QCOMPARE(t->axis().end, fitEnd);
        QWheelEvent wheel(QPointF(t->width() - 5, 30), t->mapToGlobal(QPointF(t->width() - 5, 30)), QPoint(),
                          QPoint(0, -120 * 10), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(t, &wheel); // the wheel at the right edge, far out
        QCOMPARE(t->axis().start, Time(0));
        QCOMPARE(t->axis().end, fitEnd);
    }
    void aKernelBuildChangeRestartsTheRunWithThatBuild() {
        Session s;
        QVERIFY(s.load("preempt-switch", nullptr)); // starts under none
        s.runTo(50 * kNsPerMs);
        QCOMPARE(s.restartWithKernel("auto-rfc"), QString());
        QCOMPARE(s.engine().now(), Time(0));
        QCOMPARE(s.engine().config().build, KernelBuild::Auto);
        s.runTo(30 * kNsPerMs);
        const uint64_t events = s.engine().eventsProcessed();
        QVERIFY(s.restartWithKernel("6.10").contains("unknown kernel"));
        QCOMPARE(s.engine().eventsProcessed(), events); // refused: the run goes on untouched
        QCOMPARE(s.restartWithKernel("6.12"), QString());
        QCOMPARE(s.engine().config().profile, KernelProfile::V6_12);
        QCOMPARE(s.engine().config().build, KernelBuild::Dynamic);
    }
    // 7.0 builds none nowhere but on architectures that cannot preempt (7dadeaa6e851): a
    // scenario that chose none is refused with the reason, and runs again on such an architecture.
    void aSevenKernelRefusesNoneUnlessTheArchitectureKeepsIt() {
        Session s;
        QVERIFY(s.load("preempt-switch", nullptr)); // chooses none
        const QString refused = s.restartWithKernel("7.0");
        QVERIFY2(refused.contains("7dadeaa6e851") && refused.contains("full, lazy"), qPrintable(refused));
        QCOMPARE(s.engine().config().profile, KernelProfile::V6_18);
        QCOMPARE(s.restartWithArch("alpha"), QString());
        QCOMPARE(s.restartWithKernel("7.0"), QString());
        QCOMPARE(s.engine().config().profile, KernelProfile::V7_0);
        QCOMPARE(s.engine().config().preempt, PreemptModel::None);
        QVERIFY(s.restartWithArch("vax").contains("unknown architecture"));
    }
    void theLazyModelCannotRestartOnAKernelWithoutIt() {
        Session s;
        QVERIFY(s.load("fair-pair", nullptr)); // starts under lazy
        s.runTo(30 * kNsPerMs);
        const uint64_t events = s.engine().eventsProcessed();
        QVERIFY(s.restartWithKernel("6.12").contains("lazy"));
        QVERIFY(s.restartWithKernel("auto-rfc").contains("lazy"));
        QCOMPARE(s.engine().eventsProcessed(), events);
        QCOMPARE(s.engine().config().profile, KernelProfile::V6_18);
    }
    void ctrlClickAddsTasksToTheSelection() {
        Session s;
        MainWindow w(&s);
        QVERIFY(w.openScenario("fair-pair"));
        w.resize(1200, 800);
        w.show();
        s.runTo(50 * kNsPerMs);
        view::TimelineView* t = w.timeline();
        t->setRange(0, 50 * kNsPerMs);
        const int y = t->layout().laneTop(0) + t->layout().lane / 2;
        const Slices& sl = s.engine().trace().slices;
        size_t other = 1;
        while (other < sl.size() && sl.task[other] == sl.task[0])
            ++other;
        QVERIFY(other < sl.size());
        const auto xMid = [&](size_t i) {
            return t->layout().gutter + int(t->axis().toX((sl.start[i] + sl.end[i]) / 2));
        };
        const int x1 = xMid(0), x2 = xMid(other); // slices of the two hogs
        QTest::mouseClick(t, Qt::LeftButton, {}, QPoint(x1, y));
        QCOMPARE(t->selectedTasks().size(), size_t(1));
        const TaskId first = t->selectedTasks()[0];
        QTest::mouseClick(t, Qt::LeftButton, Qt::ControlModifier, QPoint(x2, y));
        QCOMPARE(t->selectedTasks().size(), size_t(2));
        QCOMPARE(t->selectedTasks()[0], first); // the primary one stays first
        QVERIFY(t->selectedTasks()[1] != first);
        QTest::mouseClick(t, Qt::LeftButton, Qt::ControlModifier, QPoint(x1, y)); // again: removed
        QCOMPARE(t->selectedTasks().size(), size_t(1));
        QVERIFY(t->selectedTasks()[0] != first);
    }
    void branchHereRunsBothContinuationsFromTheSameState() {
        Session s;
        MainWindow w(&s);
        QVERIFY(w.openScenario("kernel-hogs-waker")); // preempt=none
        s.runTo(150 * kNsPerMs);
        const uint64_t events = s.engine().eventsProcessed();
        QSignalSpy ready(&s, &Session::branchReady);
        QVERIFY(s.branch(ParamChange::preemptModel(PreemptModel::Full), 200 * kNsPerMs).isEmpty());
        QVERIFY(s.branching());
        QVERIFY(!s.branch(ParamChange::hzChange(1000), kNsPerMs).isEmpty()); // one branch at a time
        QVERIFY(ready.wait(20000));
        QCOMPARE(s.engine().eventsProcessed(), events); // the live run did not move
        auto a = ready[0][0].value<std::shared_ptr<Engine>>(),
             b = ready[0][1].value<std::shared_ptr<Engine>>();
        QCOMPARE(ready[0][2].toLongLong(), qint64(150 * kNsPerMs));
        QCOMPARE(a->now(), Time(350 * kNsPerMs));
        QCOMPARE(b->now(), Time(350 * kNsPerMs));
        QCOMPARE(a->config().preempt, PreemptModel::None);
        QCOMPARE(b->config().preempt, PreemptModel::Full);
        // Up to the branch both traces are the live run's: the same slices in the same order.
        const Slices &sa = a->trace().slices, &sb = b->trace().slices, &live = s.engine().trace().slices;
        size_t shared = 0;
        while (shared < live.size() && live.end[shared] <= 150 * kNsPerMs)
            ++shared;
        QVERIFY(shared > 10);
        for (size_t i = 0; i < shared; ++i) {
            QCOMPARE(sa.start[i], live.start[i]);
            QCOMPARE(sb.start[i], live.start[i]);
            QCOMPARE(sb.task[i], live.task[i]);
        }
        QVERIFY(b->trace().markers.size() == a->trace().markers.size() + 1);
        CompareWindow* cw = w.openComparison(a, b, 150 * kNsPerMs, "preempt=full at 150 ms");
        QCOMPARE(cw->comparison().from, Time(150 * kNsPerMs));
        QVERIFY(!cw->comparison().rows.empty());
        cw->timelineA()->setRange(200 * kNsPerMs, 220 * kNsPerMs); // one axis for both
        QCOMPARE(cw->timelineB()->axis().start, Time(200 * kNsPerMs));
        QCOMPARE(cw->timelineB()->axis().end, Time(220 * kNsPerMs));
        QTemporaryDir dir;
        QCOMPARE(cw->saveTable(dir.filePath("cmp.txt")), QString());
        QFile f(dir.filePath("cmp.txt"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("waker"));
        // The Distributions tab: both runs' delays of the task selected in either timeline, each as
        // its share of its run's samples; exportable as the charts are.
        cw->selectTask(taskByComm(*a, "waker"));
        cw->showDistributions();
        const QString title = cw->distributions()->title();
        QVERIFY2(title.contains("A (blue bars, solid CDF) original continuation") &&
                     title.contains("B (outlined bars, dashed CDF) preempt=full at 150 ms") &&
                     title.count("waker (1 task)") == 2,
                 qPrintable(title));
        for (int k = 0; k < 2; ++k) { // two bar sets, each adding up to 100 % of its run's delays
            auto* bars = cw->distributions()->plot()->plottable(k == 0 ? 0 : 2);
            double sum = 0;
            for (int i = 0; i < bars->interface1D()->dataCount(); ++i)
                sum += bars->interface1D()->dataMainValue(i);
            QVERIFY2(std::abs(sum - 100.0) < 1e-6, qPrintable(QString::number(sum)));
        }
        QCOMPARE(cw->saveDistributionsPicture(dir.filePath("dist.svg"), 800, 500), QString());
        QFile svg(dir.filePath("dist.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("<svg"));
        QVERIFY(cw->saveDistributionsPicture(dir.filePath("dist.bmp")).contains("unknown file type"));
        QVERIFY(!cw->saveDistributionsPicture(dir.filePath("no/such/dir/dist.png")).isEmpty());
        cw->close();
    }
    // Compare ▸ With another kernel: the scenario from 0 under both kernels; where the other
    // kernel does not build the scenario's model (none on 7.0) it runs the kernel's default and
    // says why; the comparison lists the rules that differ above its table.
    void aKernelComparisonRunsBothKernelsFromTheStart() {
        Session s;
        MainWindow w(&s);
        QVERIFY(w.openScenario("kernel-hogs-waker")); // 6.18, preempt=none
        s.runTo(100 * kNsPerMs);
        QSignalSpy ready(&s, &Session::branchReady);
        QVERIFY(s.compareKernel("6.6", 200 * kNsPerMs).contains("unknown kernel"));
        QVERIFY(s.compareKernel("7.0", 200 * kNsPerMs).isEmpty());
        QVERIFY(ready.wait(20000));
        auto a = ready[0][0].value<std::shared_ptr<Engine>>(),
             b = ready[0][1].value<std::shared_ptr<Engine>>();
        QCOMPARE(ready[0][2].toLongLong(), qint64(0));
        const QString label = ready[0][3].toString();
        QCOMPARE(label, QString("kernel 7.0 (preempt=lazy)"));
        QCOMPARE(a->now(), Time(200 * kNsPerMs));
        QCOMPARE(a->config().profile, KernelProfile::V6_18);
        QCOMPARE(b->config().profile, KernelProfile::V7_0);
        QCOMPARE(a->config().preempt, PreemptModel::None);
        QCOMPARE(b->config().preempt, PreemptModel::Lazy);
        CompareWindow* cw = w.openComparison(a, b, 0, label);
        QVERIFY2(cw->note().startsWith("kernel 6.18 -> 7.0: 18 rules differ."), qPrintable(cw->note()));
        QVERIFY(cw->note().contains("restrict-preempt-models (7.0)"));
        QVERIFY2(
            cw->note().contains("B runs preempt=lazy, its kernel's default: preempt=none is gone since 7.0"),
            qPrintable(cw->note()));
        cw->close();
    }
    // A scenario opened by a relative path is remembered by its absolute one, so that File ▸ Open
    // recent works from any directory; a built-in one by its name.
    // The toolbar's Play and Reset icons take the palette's text colour: light on the dark theme
    // (the Fusion style's own are dark grey there, and vanished), dark on the light one.
    void toolbarIconsAreDrawnInThePalettesTextColour() {
        const auto iconLightness = [](const QAction* a) {
            const QImage img = a->icon().pixmap(QSize(24, 24)).toImage();
            double sum = 0;
            int n = 0;
            for (int y = 0; y < img.height(); ++y)
                for (int x = 0; x < img.width(); ++x)
                    if (qAlpha(img.pixel(x, y)) > 128) sum += QColor(img.pixel(x, y)).lightness(), ++n;
            return n ? sum / n : -1.0;
        };
        Session s;
        MainWindow w(&s);
        QVERIFY(w.openScenario("fair-pair"));
        const auto action = [&w](const QString& text) -> QAction* {
            for (QAction* a : w.findChildren<QAction*>())
                if (a->text() == text) return a;
            return nullptr;
        };
        for (const Theme t : {Theme::Dark, Theme::Light}) {
            applyTheme(t);
            QApplication::processEvents();
            for (const char* name : {"Play", "Reset"}) {
                const QAction* a = action(name);
                QVERIFY(a);
                const double l = iconLightness(a);
                QVERIFY2(t == Theme::Dark ? l > 180 : (l >= 0 && l < 80),
                         qPrintable(QString("%1 icon lightness %2").arg(name).arg(l)));
            }
        }
        applyTheme(Theme::System);
    }
    void recentFilesAreAbsolutePaths() {
        QTemporaryDir dir;
        QFile f(dir.filePath("mine.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"J({"tasks": [{"comm": "t", "behavior": [{"run": "1ms"}]}]})J");
        f.close();
        const QString cwd = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.path()));
        Session s;
        MainWindow w(&s);
        const bool opened = w.openScenario("mine.json");
        QDir::setCurrent(cwd);
        QVERIFY(opened);
        QCOMPARE(QSettings().value("recentFiles").toStringList().value(0), QFileInfo(f).absoluteFilePath());
        QVERIFY(w.openScenario("fair-pair"));
        QCOMPARE(QSettings().value("recentFiles").toStringList().value(0), QString("fair-pair"));
        QCOMPARE(QSettings().value("recentFiles").toStringList().value(1), QFileInfo(f).absoluteFilePath());
    }
    // The view never shows time before 0: a pan to the left at the start, a drag or a centring near
    // 0 keep the span and start at 0 (the run's first moment at the left edge).
    void theViewStopsAtTimeZero() {
        ShownWindow shown("kernel-hogs-waker");
        shown.s.runTo(100 * kNsPerMs);
        view::TimelineView* t = shown.w.timeline();
        t->setRange(10 * kNsPerMs, 60 * kNsPerMs);
        t->setFocus();
        QTest::keyClick(t, Qt::Key_Left);
        QTest::keyClick(t, Qt::Key_Left);
        QCOMPARE(t->axis().start, Time(0));
        QCOMPARE(t->axis().span(), 50 * kNsPerMs);
        const QPoint mid(t->width() / 2, t->height() / 2);
        QTest::mousePress(t, Qt::LeftButton, {}, mid);
        QTest::mouseMove(t, mid + QPoint(200, 0));
        QTest::mouseRelease(t, Qt::LeftButton, {}, mid + QPoint(200, 0));
        QCOMPARE(t->axis().start, Time(0));
        t->centerOn(5 * kNsPerMs);
        QCOMPARE(t->axis().start, Time(0));
        QCOMPARE(t->axis().span(), 50 * kNsPerMs);
    }
    // Follow unchecks itself when the user pans or zooms (it used to stay checked and not follow),
    // and checking it again follows.
    void followUnchecksWhenTheUserMovesTheView() {
        ShownWindow shown("kernel-hogs-waker");
        MainWindow& w = shown.w;
        // The chart opens on the first task (it used to open on the last).
        QCOMPARE(w.timeline()->selectedTasks(), std::vector<TaskId>{0});
        auto* follow = w.findChild<QAction*>("followAction");
        QVERIFY(follow && follow->isChecked());
        view::TimelineView* t = w.timeline();
        QWheelEvent wheel(QPointF(t->width() / 2.0, 20), t->mapToGlobal(QPointF(t->width() / 2.0, 20)),
                          QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(t, &wheel);
        QVERIFY(!t->follow());
        QVERIFY(!follow->isChecked());
        follow->trigger();
        QVERIFY(t->follow());
    }
    // Run ▸ Run to time (Ctrl+G): a time typed with its unit, forward or back.
    void runToTimeTakesATypedTime() {
        Session s;
        MainWindow w(&s);
        QVERIFY(w.openScenario("kernel-hogs-waker"));
        for (const char* typed : {"250ms", "0.1s"}) {
            QTimer::singleShot(0, [typed] {
                auto* d = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
                QVERIFY(d);
                d->setTextValue(typed);
                d->accept();
            });
            w.runToDialog();
        }
        QCOMPARE(s.engine().now(), Time(100 * kNsPerMs)); // 250 ms, then back to 100 ms
    }
    void chartsExportAsPngSvgAndPdf() {
        Session s;
        MainWindow w(&s);
        QVERIFY(w.openScenario("fair-pair"));
        w.resize(1200, 800);
        w.show();
        s.runTo(50 * kNsPerMs);
        QTemporaryDir dir;
        QCOMPARE(w.exportChartTo(dir.filePath("c.png"), 900, 500), QString());
        QCOMPARE(QImage(dir.filePath("c.png")).size(), QSize(900, 500));
        QCOMPARE(w.exportChartTo(dir.filePath("c.svg"), 900, 500), QString());
        QVERIFY(QSvgRenderer(dir.filePath("c.svg")).isValid());
        QCOMPARE(w.exportChartTo(dir.filePath("c.pdf"), 900, 500), QString());
        QFile pdf(dir.filePath("c.pdf"));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-" && pdf.size() > 2000);
        QVERIFY(w.exportChartTo(dir.filePath("c.bmp")).contains(".png, .svg or .pdf"));
        QVERIFY(w.exportChartTo(dir.filePath("nodir/c.png")).contains("cannot write"));
        QVERIFY(!QFile::exists(dir.filePath("nodir/c.png")));
    }
};

QTEST_MAIN(TestSession)
#include "tst_session.moc"
