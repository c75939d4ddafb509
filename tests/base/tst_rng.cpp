// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's own random numbers and distributions: reproducible, and statistically sound.
#include "base/distribution.h"
#include "base/rng.h"

#include <QtTest>
#include <cmath>

using namespace sched;

class TestRng : public QObject {
    Q_OBJECT
  private slots:
    void sameSeedSameSequence() {
        Rng a(42), b(42), c(43);
        bool differs = false;
        for (int i = 0; i < 1000; ++i) {
            const uint64_t x = a.next();
            QCOMPARE(x, b.next());
            differs = differs || x != c.next();
        }
        QVERIFY(differs);
    }
    void isXoshiro256StarStar() {
        // The first outputs from the state {1, 2, 3, 4} of Blackman and Vigna's reference
        // algorithm (xoshiro256starstar.c), computed outside the project.
        Rng r;
        r.setState({1, 2, 3, 4});
        QCOMPARE(r.next(), uint64_t(11520));
        QCOMPARE(r.next(), uint64_t(0));
        QCOMPARE(r.next(), uint64_t(1509978240));
        QCOMPARE(r.next(), uint64_t(1215971899390074240ULL));
    }
    void aStateTakenOutContinuesTheStream() {
        // The batch planner draws from a copy of the state in registers and puts it back: the
        // stream must go on as if the Rng had drawn itself, rejections included (n just above
        // 2^63 rejects about half of the raw values).
        Rng a(11), b(11);
        Rng::State s = a.state();
        const uint64_t big = (uint64_t(1) << 63) + 12345;
        for (int i = 0; i < 200; ++i) {
            QCOMPARE(Rng::below(s, 221), b.below(221));
            QCOMPARE(Rng::below(s, big), b.below(big));
        }
        QVERIFY(!(a == b));
        a.setState(s);
        QVERIFY(a == b);
        QCOMPARE(a.next(), b.next());
    }
    void belowIsInRangeAndCoversIt() {
        Rng r(7);
        std::vector<int> seen(10, 0);
        for (int i = 0; i < 10000; ++i) {
            const uint64_t v = r.below(10);
            QVERIFY(v < 10);
            seen[v]++;
        }
        for (int s : seen)
            QVERIFY(s > 800 && s < 1200);
    }
    void detLogAndExpMatchLibm() {
        Rng r(1);
        for (int i = 0; i < 20000; ++i) {
            const double x = std::ldexp(r.uniform01() + 0.01, int(r.below(60)) - 30);
            QVERIFY(std::fabs(detLog(x) - std::log(x)) <= 1e-13 * std::max(1.0, std::fabs(std::log(x))));
            const double y = (r.uniform01() - 0.5) * 60;
            QVERIFY(std::fabs(detExp(y) / std::exp(y) - 1.0) < 1e-13);
        }
    }
    void exponentialMean() {
        Rng r(3);
        const Distribution d = Distribution::exponential(1000000);
        double sum = 0;
        const int n = 200000;
        for (int i = 0; i < n; ++i)
            sum += double(d.sample(r));
        QVERIFY(std::fabs(sum / n / 1e6 - 1.0) < 0.01);
    }
    void normalMeanAndSpread() {
        Rng r(4);
        const Distribution d = Distribution::normal(5000000, 1000000);
        double sum = 0, sq = 0;
        const int n = 200000;
        for (int i = 0; i < n; ++i) {
            const double v = double(d.sample(r));
            sum += v;
            sq += v * v;
        }
        const double mean = sum / n, sd = std::sqrt(sq / n - mean * mean);
        QVERIFY(std::fabs(mean / 5e6 - 1.0) < 0.005);
        QVERIFY(std::fabs(sd / 1e6 - 1.0) < 0.02);
    }
    void lognormalMeanAndSd() {
        Rng r(5);
        const Distribution d = Distribution::lognormal(2000000, 1000000);
        double sum = 0, sq = 0;
        const int n = 400000;
        for (int i = 0; i < n; ++i) {
            const double v = double(d.sample(r));
            QVERIFY(v > 0);
            sum += v;
            sq += v * v;
        }
        const double mean = sum / n, sd = std::sqrt(sq / n - mean * mean);
        QVERIFY(std::fabs(mean / 2e6 - 1.0) < 0.01);
        QVERIFY(std::fabs(sd / 1e6 - 1.0) < 0.05);
    }
    // Quantiles 0, 10, 20, 1000, 2000 us: a quarter of the draws between each two, spread evenly.
    void empiricalFollowsItsQuantiles() {
        Rng r(8);
        const Distribution d = Distribution::empirical({0, 10000, 20000, 1000000, 2000000});
        const int n = 200000;
        int below[3] = {0, 0, 0};
        double sum = 0;
        for (int i = 0; i < n; ++i) {
            const Time v = d.sample(r);
            QVERIFY(v >= 0 && v <= 2000000);
            below[0] += v < 10000;
            below[1] += v < 20000;
            below[2] += v < 1000000;
            sum += double(v);
        }
        for (int k = 0; k < 3; ++k)
            QVERIFY2(std::fabs(double(below[k]) / n - 0.25 * (k + 1)) < 0.005, QByteArray::number(below[k]));
        QVERIFY(std::fabs(sum / n / 507500.0 - 1.0) < 0.01); // the mean of the four segments' midpoints
        Rng a(9), b(9);
        for (int i = 0; i < 1000; ++i)
            QCOMPARE(d.sample(a), d.sample(b));
    }
    void uniformAndClampBounds() {
        Rng r(6);
        Distribution u = Distribution::uniform(100, 200);
        Distribution n = Distribution::normal(0, 1000);
        n.min = 10;
        n.max = 500;
        for (int i = 0; i < 10000; ++i) {
            const Time a = u.sample(r), b = n.sample(r);
            QVERIFY(a >= 100 && a <= 200);
            QVERIFY(b >= 10 && b <= 500);
        }
    }
};

QTEST_GUILESS_MAIN(TestRng)
#include "tst_rng.moc"
