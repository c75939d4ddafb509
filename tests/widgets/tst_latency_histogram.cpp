// SPDX-License-Identifier: GPL-3.0-or-later
// The delay histogram's logarithmic bins, and that its bars count every delay measurement.
#include "tests/test_support.h"
#include "widgets/latency_histogram.h"

#include <QApplication>
#include <QLabel>
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
};

QTEST_MAIN(TestLatencyHistogram)
#include "tst_latency_histogram.moc"
