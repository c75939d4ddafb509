// SPDX-License-Identifier: GPL-3.0-or-later
// PELT's utilisation (kernel/sched/pelt.c): the y^n table, decay_load(), and util_avg's rise and
// half-life of 32 periods.
#include "tests/test_support.h"

#include "engine/pelt.h"

#include <cmath>

using namespace sched;

class TestPelt : public QObject {
    Q_OBJECT
  private slots:
    // runnable_avg_yN_inv[n] = (2^32 - 1) * y^n truncated, y = 2^(-1/32): recomputed here.
    void yTableIsTheKernels() {
        for (int n = 0; n < pelt::kLoadAvgPeriod; ++n) {
            const long double v = (std::ldexp(1.0L, 32) - 1) * std::pow(0.5L, n / 32.0L);
            QVERIFY2(std::llabs((long long)pelt::kYnInv[size_t(n)] - (long long)v) <= 1,
                     qPrintable(QString::number(n)));
        }
    }
    // y^32 = 1/2; beyond 63 half-lives everything has decayed.
    void decayLoadHalvesEvery32Periods() {
        QVERIFY(std::llabs((long long)pelt::decayLoad(1 << 20, 32) - (1 << 19)) <= 1);
        QVERIFY(std::llabs((long long)pelt::decayLoad(1 << 20, 64) - (1 << 18)) <= 1);
        QCOMPARE(pelt::decayLoad(uint64_t(1) << 40, 32 * 63 + 1), uint64_t(0));
        QCOMPARE(pelt::decayLoad(12345, 0), uint64_t(12344)); // y^0 is (2^32 - 1) / 2^32
    }
    // A CPU running a fair task for a second reaches ~1024; after 32 ms idle about half is left,
    // after another 32 ms a quarter.
    void utilRisesToCapacityAndHalvesIn32ms() {
        UtilAvg u;
        u.update(kNsPerSec, true, true);
        QVERIFY2(u.utilAvg >= 1000 && u.utilAvg <= 1024, qPrintable(QString::number(u.utilAvg)));
        const double full = u.utilAvg;
        u.update(kNsPerSec + 32 * 1024 * kNsPerUs, true, false);
        QVERIFY2(std::abs(u.utilAvg / full - 0.5) < 0.02, qPrintable(QString::number(u.utilAvg)));
        u.update(kNsPerSec + 64 * 1024 * kNsPerUs, false, false);
        QVERIFY2(std::abs(u.utilAvg / full - 0.25) < 0.02, qPrintable(QString::number(u.utilAvg)));
    }
    // Running half of every 2 ms settles near half the capacity.
    void halfBusySettlesNearHalf() {
        UtilAvg u;
        for (Time t = 0; t < kNsPerSec; t += 2 * kNsPerMs) {
            u.update(t + kNsPerMs, true, true);
            u.update(t + 2 * kNsPerMs, true, false);
        }
        QVERIFY2(u.utilAvg >= 490 && u.utilAvg <= 535, qPrintable(QString::number(u.utilAvg)));
    }
};

QTEST_GUILESS_MAIN(TestPelt)
#include "tst_pelt.moc"
