// SPDX-License-Identifier: GPL-3.0-or-later
// The deadline-ordered, min_vruntime-augmented tree behind pick_eevdf().
#include "base/rng.h"
#include "engine/eevdf_tree.h"

#include <QtTest>
#include <algorithm>
#include <set>

using namespace sched;

class TestEevdfTree : public QObject {
    Q_OBJECT

    // Recomputes the augmentation of every node and checks the in-order key order.
    static bool consistent(const EevdfTree& t, const std::vector<SchedEntity>& e, int64_t& outMin,
                           int& count) {
        struct R {
            static bool walk(const std::vector<SchedEntity>& e, int32_t n, int64_t& mn, int64_t& ms,
                             int64_t& mx, int& cnt) {
                if (n < 0) return true;
                const SchedEntity& s = e[size_t(n)];
                int64_t lmin = INT64_MAX, lms = INT64_MAX, rmin = INT64_MAX, rms = INT64_MAX, lmx = 0,
                        rmx = 0;
                if (!walk(e, s.left, lmin, lms, lmx, cnt) || !walk(e, s.right, rmin, rms, rmx, cnt))
                    return false;
                ++cnt;
                mn = std::min({s.vruntime, lmin, rmin});
                ms = std::min({s.slice, lms, rms});
                mx = std::max({s.slice, lmx, rmx});
                return s.minVruntime == mn && s.minSlice == ms && s.maxSlice == mx;
            }
        };
        int64_t ms = 0, mx = 0;
        count = 0;
        outMin = INT64_MAX;
        if (!R::walk(e, t.root(), outMin, ms, mx, count)) return false;
        // in-order: non-decreasing (deadline, seq)
        bool ordered = true;
        const SchedEntity* prev = nullptr;
        t.forEachInOrder(e, [&](int32_t id) {
            const SchedEntity& s = e[size_t(id)];
            if (prev && (s.deadline < prev->deadline || (s.deadline == prev->deadline && s.seq < prev->seq)))
                ordered = false;
            prev = &s;
            return true;
        });
        return ordered;
    }

  private slots:
    void randomInsertEraseKeepsOrderAndAugmentation() {
        Rng rng(11);
        const int n = 2000;
        std::vector<SchedEntity> e(n);
        EevdfTree t;
        std::set<int> in;
        uint64_t seq = 1;
        for (int step = 0; step < 20000; ++step) {
            const int id = int(rng.below(n));
            if (in.count(id)) {
                t.erase(e, id);
                in.erase(id);
            } else {
                e[size_t(id)].vruntime = int64_t(rng.below(1000000)) - 500000;
                e[size_t(id)].deadline = int64_t(rng.below(1000)); // many equal deadlines
                e[size_t(id)].slice = int64_t(rng.below(100000)) + 100000;
                t.insert(e, id, seq++);
                in.insert(id);
            }
            if (step % 997 == 0) {
                int64_t mn = 0;
                int count = 0;
                QVERIFY(consistent(t, e, mn, count));
                QCOMPARE(size_t(count), in.size());
            }
        }
        int64_t mn = 0;
        int count = 0;
        QVERIFY(consistent(t, e, mn, count));
        int64_t expect = INT64_MAX;
        for (int id : in)
            expect = std::min(expect, e[size_t(id)].vruntime);
        QCOMPARE(mn, expect);
    }
    void equalDeadlinesKeepInsertionOrder() {
        std::vector<SchedEntity> e(5);
        EevdfTree t;
        for (int i = 0; i < 5; ++i) {
            e[size_t(i)].deadline = 100;
            t.insert(e, 4 - i, uint64_t(i + 1));
        }
        std::vector<int> order;
        t.forEachInOrder(e, [&](int32_t id) {
            order.push_back(id);
            return true;
        });
        QCOMPARE(order, (std::vector<int>{4, 3, 2, 1, 0}));
        QCOMPARE(t.leftmost(e), 4);
    }
    void depthStaysLogarithmic() {
        const int n = 100000;
        std::vector<SchedEntity> e(n);
        EevdfTree t;
        for (int i = 0; i < n; ++i) {
            e[size_t(i)].deadline = i; // sorted input: the worst case for an unbalanced tree
            t.insert(e, i, uint64_t(i + 1));
        }
        struct D {
            static int depth(const std::vector<SchedEntity>& e, int32_t x) {
                return x < 0 ? 0 : 1 + std::max(depth(e, e[size_t(x)].left), depth(e, e[size_t(x)].right));
            }
        };
        const int d = D::depth(e, t.root());
        QVERIFY2(d < 60, qPrintable(QString("depth %1 for %2 nodes").arg(d).arg(n)));
    }
};

QTEST_GUILESS_MAIN(TestEevdfTree)
#include "tst_eevdf_tree.moc"
