// SPDX-License-Identifier: GPL-3.0-or-later
// Time <-> pixel maths of the timeline.
#include "widgets/model/time_axis.h"

#include <QtTest>

using namespace view;
using sched::kNsPerMs;
using sched::kNsPerSec;

class TestTimeAxis : public QObject {
    Q_OBJECT
  private slots:
    void toXAndToTimeAreInverse() {
        TimeAxis a{10 * kNsPerSec, 10 * kNsPerSec + 100 * kNsPerMs, 1000};
        QCOMPARE(a.toX(a.start), 0.0);
        QCOMPARE(a.toX(a.end), 1000.0);
        QCOMPARE(a.toX(a.start + 50 * kNsPerMs), 500.0);
        for (int x = 0; x <= 1000; x += 37)
            QVERIFY(std::fabs(a.toX(a.toTime(x)) - x) < 1e-6);
    }
    void precisionDeepInALongRun() {
        // 1 hour in, a 1 us view: nanoseconds stay exact because time is made relative first.
        const Time t0 = 3600 * kNsPerSec;
        TimeAxis a{t0, t0 + 1000, 1000};
        QCOMPARE(a.toX(t0 + 1), 1.0);
        QCOMPARE(a.toTime(999), t0 + 999);
    }
    void columnsTileTheRangeExactly() {
        TimeAxis a{0, 1000003, 7};
        QCOMPARE(a.columnStart(0), Time(0));
        QCOMPARE(a.columnEnd(6), Time(1000003));
        for (int x = 0; x < 7; ++x)
            QCOMPARE(a.columnEnd(x), a.columnStart(x + 1));
    }
    void zoomKeepsTheTimeUnderTheCursor() {
        TimeAxis a{0, 100 * kNsPerMs, 1000};
        const Time under = a.toTime(250);
        a.zoomAt(250, 4.0);
        QCOMPARE(a.span(), 25 * kNsPerMs);
        QVERIFY(std::llabs(a.toTime(250) - under) <= 1);
        a.zoomAt(250, 0.5);
        QCOMPARE(a.span(), 50 * kNsPerMs);
        QVERIFY(std::llabs(a.toTime(250) - under) <= 1);
    }
    void zoomIsClampedAndPanMovesByPixels() {
        TimeAxis a{0, 10000, 1000};
        a.zoomAt(500, 1000.0);
        QCOMPARE(a.span(), Time(1000)); // 1 us minimum span
        TimeAxis b{0, 100 * kNsPerMs, 1000};
        b.pan(100);
        QCOMPARE(b.start, 10 * kNsPerMs);
        QCOMPARE(b.end, 110 * kNsPerMs);
    }
    void niceTickSteps() {
        QCOMPARE(niceTickStep(7), Time(10));
        QCOMPARE(niceTickStep(130), Time(200));
        QCOMPARE(niceTickStep(4e6), Time(5000000));
        QCOMPARE(niceTickStep(1.1e9), Time(2000000000));
    }
    void tickLabelsUseAFittingUnit() {
        QCOMPARE(formatTickLabel(20 * kNsPerMs, 20 * kNsPerMs), std::string("20ms"));
        QCOMPARE(formatTickLabel(1500 * sched::kNsPerUs, 500 * sched::kNsPerUs), std::string("1.5ms"));
        QCOMPARE(formatTickLabel(350 * sched::kNsPerUs, 50 * sched::kNsPerUs), std::string("350us"));
        QCOMPARE(formatTickLabel(3 * kNsPerSec, kNsPerSec), std::string("3s"));
        // Deep zoom late in a run: the unit of the time, the decimals of the step.
        QCOMPARE(formatTickLabel(10050 * sched::kNsPerUs, 50 * sched::kNsPerUs), std::string("10.05ms"));
        QCOMPARE(formatTickLabel(1204 * kNsPerMs, kNsPerMs), std::string("1.204s"));
        QCOMPARE(formatTickLabel(1204 * kNsPerMs, 2 * kNsPerMs), std::string("1.204s"));
        QCOMPARE(formatTickLabel(2 * kNsPerSec + 500 * kNsPerMs, 500 * kNsPerMs), std::string("2.5s"));
        QCOMPARE(formatTickLabel(0, 50 * sched::kNsPerUs), std::string("0us"));
        QCOMPARE(formatTickLabel(300 * kNsPerMs + 120, 20), std::string("300.00012ms"));
    }
};

QTEST_GUILESS_MAIN(TestTimeAxis)
#include "tst_time_axis.moc"
