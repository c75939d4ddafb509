// SPDX-License-Identifier: GPL-3.0-or-later
// The packed EEVDF samples (trace/eevdf_samples.h): every value comes back as it went in, extremes
// included, read whole, from the middle or one at a time; a cut keeps a prefix and packs what
// follows into the same bytes as an uninterrupted record; a real run's samples pack small.
#include "tests/test_support.h"
#include "trace/eevdf_samples.h"

#include <limits>
#include <random>

using namespace sched;

namespace {

std::vector<EevdfSample> randomSamples(size_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    constexpr int64_t kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();
    const int64_t extremes[] = {kMin, kMax, 0, -1, 1, kMin + 1, kMax - 1};
    std::vector<EevdfSample> v;
    Time t = 0;
    for (size_t i = 0; i < n; ++i) {
        EevdfSample s;
        const auto pick = [&](int64_t near) {
            switch (rng() % 4) {
            case 0:
                return extremes[rng() % std::size(extremes)];
            case 1:
                return int64_t(rng());
            default:
                return int64_t(uint64_t(near) + rng() % 2000000 - 1000000); // wraps: defined
            }
        };
        t += (rng() % 8 == 0) ? int64_t(rng() % (int64_t(1) << 40)) : int64_t(rng() % 50000);
        s.time = (rng() % 500 == 0) ? pick(t) : t; // an occasional time out of order: still exact
        s.task = (rng() % 100 == 0) ? std::numeric_limits<TaskId>::max() : TaskId(rng() % 1000);
        s.cpu = (rng() % 100 == 0) ? uint16_t(65535) : uint16_t(rng() % 64);
        s.avgVruntime = pick(int64_t(i) * 1000);
        s.vruntime = pick(s.avgVruntime);
        s.deadline = pick(s.vruntime);
        s.onRq = rng() % 3 != 0;
        v.push_back(s);
    }
    return v;
}

EevdfSamples pack(const std::vector<EevdfSample>& v, size_t from = 0, size_t to = SIZE_MAX) {
    EevdfSamples p;
    for (size_t i = from; i < std::min(to, v.size()); ++i)
        p.push(v[i]);
    return p;
}

} // namespace

class TestEevdfSamples : public QObject {
    Q_OBJECT
  private slots:
    void everyValueComesBackExtremesIncluded() {
        const auto v = randomSamples(3 * EevdfSamples::kBlock + 77, 1);
        const EevdfSamples p = pack(v);
        QCOMPARE(p.size(), v.size());
        size_t seen = 0;
        p.forEach(0, p.size(), [&](size_t i, const EevdfSample& s) {
            if (s != v[i]) QFAIL(qPrintable(QString("sample %1 differs").arg(i)));
            ++seen;
        });
        QCOMPARE(seen, v.size());
        for (size_t i : {size_t(0), EevdfSamples::kBlock - 1, EevdfSamples::kBlock,
                         2 * EevdfSamples::kBlock + 5, v.size() - 1})
            QVERIFY(p.at(i) == v[i]);
    }

    void aWalkFromTheMiddleStartsWhereItIsAsked() {
        const auto v = randomSamples(2 * EevdfSamples::kBlock + 10, 2);
        const EevdfSamples p = pack(v);
        for (size_t from :
             {size_t(1), EevdfSamples::kBlock - 1, EevdfSamples::kBlock, EevdfSamples::kBlock + 3}) {
            std::vector<size_t> got;
            p.forEach(from, from + 5, [&](size_t i, const EevdfSample& s) {
                QVERIFY(s == v[i]);
                got.push_back(i);
            });
            QCOMPARE(got, (std::vector<size_t>{from, from + 1, from + 2, from + 3, from + 4}));
        }
        int none = 0;
        p.forEach(p.size(), p.size() + 3, [&](size_t, const EevdfSample&) { ++none; });
        QCOMPARE(none, 0);
    }

    // Rewind cuts the record at a snapshot's mark and the run records the same samples again.
    void aCutAndTheSameSamplesAgainPackTheSameBytes() {
        const auto v = randomSamples(3 * EevdfSamples::kBlock + 11, 3);
        const EevdfSamples whole = pack(v);
        for (size_t at : {size_t(0), size_t(1), EevdfSamples::kBlock - 1, EevdfSamples::kBlock,
                          EevdfSamples::kBlock + 1, 2 * EevdfSamples::kBlock + 100, v.size() - 1}) {
            EevdfSamples p = pack(v);
            p.cut(at);
            QCOMPARE(p.size(), at);
            QVERIFY(p == pack(v, 0, at));
            for (size_t i = at; i < v.size(); ++i)
                p.push(v[i]);
            QVERIFY2(p == whole, qPrintable(QString("cut at %1").arg(at)));
        }
        EevdfSamples p = pack(v);
        p.clear();
        QVERIFY(p.empty());
        p.push(v[0]);
        QVERIFY(p.at(0) == v[0]);
    }

    // A task picked again has the vruntime and deadline it was put back with: each is then packed as
    // a difference from the task's own last one, one byte, where the difference from V and from
    // the vruntime are a lag and a slice (three bytes each). A new block starts from nothing.
    void aTasksUnchangedValuesPackInAByteEach() {
        EevdfSamples p;
        EevdfSample put{1000000, 7, 3, 5000000000, 5003000000, 5000400000, true};
        EevdfSample other{1000000, 8, 3, 5000400000, 5003400000, 5000400000, true};
        p.push(put);
        p.push(other);
        const size_t before = p.packedBytes();
        EevdfSample picked = put;
        picked.time = 1000000 + 50; // the same V
        p.push(picked);
        QCOMPARE(p.packedBytes() - before, size_t(6)); // time, task, CPU, V, vruntime, deadline
        QVERIFY(p.at(2) == picked);
        while (p.size() % EevdfSamples::kBlock != 0)
            p.push(other);
        const size_t blockStart = p.packedBytes();
        p.push(picked);
        QVERIFY(p.packedBytes() - blockStart > 10); // nothing to refer to: full differences
        QVERIFY(p.at(p.size() - 1) == picked);
    }

    // The reason for packing: a run's samples differ from their neighbours by little.
    void aRunsSamplesPackInAFewBytesEach() {
        Engine e = engineFrom(R"J({"machine": {"cpus": 4, "hz": 1000, "preempt": "lazy"},
          "tasks": [{"comm": "w", "count": 12, "behavior": [{"repeat": "forever", "body": [
            {"run": {"dist": "exponential", "mean": "300us"}}, {"sleep": {"dist": "exponential", "mean": "1ms"}}]}]},
                    {"comm": "hog", "count": 4, "nice": 5, "behavior": [{"run": "10s"}]}]})J",
                              7, true);
        e.runUntil(2 * kNsPerSec);
        const EevdfSamples& s = e.trace().samples;
        QVERIFY(s.size() > 20000);
        const double perSample = double(s.packedBytes()) / double(s.size());
        QVERIFY2(perSample < 16.0, qPrintable(QString("%1 bytes a sample").arg(perSample)));
        // and they are the run's: onRq false exactly where a task left its runqueue at that time
        size_t left = 0;
        s.forEach(0, s.size(), [&](size_t, const EevdfSample& x) {
            QVERIFY(x.time >= 0 && x.time <= e.now());
            QVERIFY(x.task >= 0 && size_t(x.task) < e.tasks().size());
            left += x.onRq ? 0 : 1;
        });
        QVERIFY(left > 1000);
    }
};

QTEST_APPLESS_MAIN(TestEevdfSamples)
#include "tst_eevdf_samples.moc"
