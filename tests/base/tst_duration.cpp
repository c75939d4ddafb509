// SPDX-License-Identifier: GPL-3.0-or-later
#include "base/duration.h"

#include <QtTest>

using namespace sched;

class TestDuration : public QObject {
    Q_OBJECT
  private slots:
    void parsesExactDecimals() {
        QCOMPARE(*parseDuration("0.7ms"), Time(700000));
        QCOMPARE(*parseDuration("0.75ms"), Time(750000));
        QCOMPARE(*parseDuration("1.5us"), Time(1500));
        QCOMPARE(*parseDuration("10s"), Time(10) * kNsPerSec);
        QCOMPARE(*parseDuration("12ns"), Time(12));
        QCOMPARE(*parseDuration("3.333333ms"), Time(3333333));
    }
    void rejectsMalformed() {
        for (const char* bad :
             {"", "ms", "1.2", "-1ms", "1mss", "1 ms", "1.ms5", "abc", "1e3ms", "99999999999999999999s"})
            QVERIFY2(!parseDuration(bad), bad);
    }
    void formatsShortestExactForm() {
        QCOMPARE(formatDuration(700000), std::string("0.7ms"));
        QCOMPARE(formatDuration(4000000), std::string("4ms"));
        QCOMPARE(formatDuration(1500), std::string("1.5us"));
        QCOMPARE(formatDuration(999), std::string("999ns"));
        QCOMPARE(formatDuration(2 * kNsPerSec), std::string("2s"));
    }
    void formatParseRoundTrip() {
        for (Time t : {Time(1), Time(1001), Time(3333333), Time(700000), Time(123456789012)})
            QCOMPARE(*parseDuration(formatDuration(t)), t);
    }
};

QTEST_GUILESS_MAIN(TestDuration)
#include "tst_duration.moc"
