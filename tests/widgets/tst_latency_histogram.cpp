// SPDX-License-Identifier: GPL-3.0-or-later
// The delay histogram's logarithmic bins, and that its bars count every delay measurement.
#include "tests/test_support.h"
#include "widgets/latency_histogram.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QStandardItemModel>
#include <qcustomplot.h>

using namespace sched;
using view::LatencyHistogram;

class TestLatencyHistogram : public QObject {
    Q_OBJECT
  private slots:
    void binsAreFifthsOfADecadeFromOneMicrosecond() {
        QCOMPARE(LatencyHistogram::binOf(0), 0);
        QCOMPARE(LatencyHistogram::binOf(999), 0);
        QCOMPARE(LatencyHistogram::binOf(1000), 0);
        QCOMPARE(LatencyHistogram::binOf(1584), 0);
        QCOMPARE(LatencyHistogram::binOf(1585), 1); // 10^(1/5) us
        QCOMPARE(LatencyHistogram::binOf(10 * kNsPerUs), 5);
        QCOMPARE(LatencyHistogram::binOf(4 * kNsPerMs), 18);
        QCOMPARE(LatencyHistogram::binOf(kNsPerSec), 30);
        QCOMPARE(LatencyHistogram::binOf(100 * kNsPerSec), 30);
    }
    void barsCountEveryMeasurement() {
        Engine e = builtinEngine("kernel-hogs-waker");
        e.runUntil(kNsPerSec);
        LatencyHistogram h;
        h.refresh(e.trace());
        auto* bars = h.findChild<QCustomPlot*>()->plottable(0);
        double total = 0;
        for (int i = 0; i < bars->interface1D()->dataCount(); ++i)
            total += bars->interface1D()->dataMainValue(i);
        QCOMPARE(total, double(schedDelays(e.trace()).size()));
        QVERIFY(total > 50);
    }

    // The run-length choice for the selected task: one bar count per finished slice of it, and the
    // title says what is shown.
    void runLengthsOfTheSelectedTask() {
        Engine e = builtinEngine("kernel-hogs-waker");
        e.runUntil(kNsPerSec);
        LatencyHistogram h;
        const TaskId waker = taskByComm(e, "waker");
        h.setTask(waker);
        h.setKind(SampleKind::RunLength);
        h.setScope(SampleScope::Task);
        h.refresh(e.trace());
        auto* bars = h.plot()->plottable(0);
        double total = 0;
        for (int i = 0; i < bars->interface1D()->dataCount(); ++i)
            total += bars->interface1D()->dataMainValue(i);
        size_t slices = 0;
        for (size_t i = 0; i < e.trace().slices.size(); ++i)
            slices += e.trace().slices.task[i] == waker && e.trace().slices.endPoint[i] != kStillRunning;
        QCOMPARE(total, double(slices));
        QVERIFY(slices > 10);
        const QString title = h.findChild<QLabel*>()->text();
        QVERIFY2(title.startsWith("Run lengths of waker:"), qPrintable(title));
    }

    // Two runs overlaid (a comparison): each run's bars are its share of its own samples, the
    // other run's task is the one with the same comm, and a comm the other run lacks shows nothing
    // there (not another scope's samples); the task-group entry is offered only where some task is outside
    // the root.
    void twoRunsOverlaidAsShares() {
        Engine a = builtinEngine("kernel-hogs-waker"), b = builtinEngine("kernel-hogs-waker", 2);
        a.runUntil(kNsPerSec);
        b.runUntil(kNsPerSec / 2);
        LatencyHistogram h;
        h.setTask(taskByComm(a, "waker"));
        h.setOverlay(&b.trace(), "first", "second");
        h.refresh(a.trace());
        for (int k : {0, 2}) {
            auto* bars = h.plot()->plottable(k);
            double sum = 0;
            for (int i = 0; i < bars->interface1D()->dataCount(); ++i)
                sum += bars->interface1D()->dataMainValue(i);
            QVERIFY2(std::abs(sum - 100.0) < 1e-6, qPrintable(QString::number(sum)));
        }
        QVERIFY2(h.title().contains("first, waker (1 task)") && h.title().contains("second, waker (1 task)"),
                 qPrintable(h.title()));
        Engine other = builtinEngine("fair-pair"); // no waker there
        other.runUntil(kNsPerSec / 2);
        h.setOverlay(&other.trace(), "first", "pair");
        QVERIFY2(!h.title().contains("pair"), qPrintable(h.title())); // drawn at the next refresh
        h.refresh(a.trace());
        QVERIFY2(h.title().contains("pair, no task named waker: none measured"), qPrintable(h.title()));
        auto* otherBars = h.plot()->plottable(2);
        for (int i = 0; i < otherBars->interface1D()->dataCount(); ++i)
            QCOMPARE(otherBars->interface1D()->dataMainValue(i), 0.0);
        auto* scope = h.findChild<QComboBox*>("distributionScope");
        auto* model = qobject_cast<QStandardItemModel*>(scope->model());
        QVERIFY(!model->item(int(SampleScope::TaskGroup))->isEnabled());
        h.setTaskGroups({"", "/autogroup-1"});
        QVERIFY(model->item(int(SampleScope::TaskGroup))->isEnabled());
    }
};

QTEST_MAIN(TestLatencyHistogram)
#include "tst_latency_histogram.moc"
