// SPDX-License-Identifier: GPL-3.0-or-later
// Weights and calc_delta_fair(): the kernel's tables and its 32.32 fixed-point conversion.
#include "engine/weights.h"

#include <QtTest>

using namespace sched;

class TestWeights : public QObject {
    Q_OBJECT
  private slots:
    void prioToWeightTableEndpoints() {
        QCOMPARE(niceToWeight(0), 1024u);
        QCOMPARE(niceToWeight(-20), 88761u);
        QCOMPARE(niceToWeight(19), 15u);
        QCOMPARE(niceToWeight(5), 335u);
        QCOMPARE(niceToWmult(0), 4194304u);
        QCOMPARE(niceToWmult(-20), 48388u);
        QCOMPARE(niceToWmult(19), 286331153u);
    }
    void wmultIsTwoToThe32OverWeight() {
        for (int n = -20; n <= 19; ++n) {
            const double prod = double(niceToWeight(n)) * double(niceToWmult(n));
            QVERIFY2(std::abs(prod / 4294967296.0 - 1.0) < 1e-3, qPrintable(QString("nice %1").arg(n)));
        }
    }
    void eachNiceStepIsAboutTenPercentCpu() {
        // Two tasks one nice apart share about 55:45 (weights differ by ~1.25).
        for (int n = -20; n < 19; ++n) {
            const double r = double(niceToWeight(n)) / double(niceToWeight(n + 1));
            QVERIFY2(r > 1.15 && r < 1.35, qPrintable(QString("nice %1 ratio %2").arg(n).arg(r)));
        }
    }
    void schedIdleGetsMinimumWeight() {
        const LoadWeight lw = loadWeightFor(Policy::Idle, -10);
        QCOMPARE(lw.weight, 3u);
        QCOMPARE(lw.invWeight, 1431655765u);
    }
    void calcDeltaFairIsIdentityForNice0() {
        const LoadWeight lw = loadWeightFor(Policy::Normal, 0);
        for (int64_t d : {1LL, 999LL, 700000LL, 123456789LL})
            QCOMPARE(calcDeltaFair(d, lw), d);
    }
    void calcDeltaFairNice5OneMillisecondByHand() {
        // __calc_delta: fact = 1024 * 12820798 = 13128497152 >= 2^32, hi word 3, fls 2,
        // so fact = 3282124288 with shift 30: (1000000 * 3282124288) >> 30 = 3056716.
        QCOMPARE(calcDeltaFair(1000000, loadWeightFor(Policy::Normal, 5)), int64_t(3056716));
    }
    void calcDeltaFairTracksExactDivision() {
        // The fixed point loses at most a few ns per call against delta * 1024 / w.
        for (int n = -20; n <= 19; ++n) {
            const LoadWeight lw = loadWeightFor(Policy::Normal, n);
            for (int64_t d = 1000; d < 200'000'000; d = d * 3 + 7) {
                const long double exact = (long double)d * 1024.0L / lw.weight;
                const long double got = (long double)calcDeltaFair(d, lw);
                QVERIFY2(std::fabs(double(got - exact)) <= double(exact) * 2e-6 + 2.0,
                         qPrintable(QString("nice %1 delta %2: %3 vs %4")
                                        .arg(n)
                                        .arg(d)
                                        .arg(double(got))
                                        .arg(double(exact))));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestWeights)
#include "tst_weights.moc"
