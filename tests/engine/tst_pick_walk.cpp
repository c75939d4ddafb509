// SPDX-License-Identifier: GPL-3.0-or-later
// The tree lens's walk (pick_walk.h), checked at many random moments by brute force from each
// entity's vruntime, weight and deadline - not by asking the engine: the nodes come in deadline
// order, each node's min_vruntime and min_slice are its subtree's, eligibility is the weighted
// test against a V recomputed from the entities, the search ends on the earliest eligible deadline,
// every subtree it prunes holds no eligible entity, and its pick is the preview's (or curr's, with
// a strictly earlier deadline).
#include "engine/pick_walk.h"
#include "tests/test_support.h"

using namespace sched;

namespace {

// V = v0 + floor(sum w (v - v0) / sum w) over curr (if queued) and the tree, as avg_vruntime().
int64_t bruteV(const PickWalk& w) {
    std::vector<std::pair<int64_t, int64_t>> vw; // vruntime, weight
    for (const LagRow& r : w.preview.table.rows)
        if (r.running) vw.push_back({r.vruntime, r.weight});
    for (const TreeNode& n : w.nodes)
        vw.push_back({n.vruntime, n.weight});
    const int64_t v0 = std::min_element(vw.begin(), vw.end())->first;
    int64_t S = 0, W = 0;
    for (const auto& [v, wt] : vw) {
        S += (v - v0) * wt;
        W += wt;
    }
    return v0 + S / W; // S >= 0: division floors
}

bool ancestorOf(const PickWalk& w, int32_t a, int32_t n) {
    for (; n >= 0; n = w.nodes[size_t(n)].parent)
        if (n == a) return true;
    return false;
}

} // namespace

class TestPickWalk : public QObject {
    Q_OBJECT
  private slots:
    void theWalkFollowsPickEevdf_data() {
        QTest::addColumn<QString>("scenario");
        for (const char* s : {"eevdf-tree", "eligibility-and-lag", "nice-ladder", "bench-1cpu-100",
                              "balance-8-on-4", "experiments/preempt-short", "kernel-hogs-waker"})
            QTest::newRow(s) << QString(s);
    }
    void theWalkFollowsPickEevdf() {
        QFETCH(QString, scenario);
        Engine e = builtinEngine(scenario.toStdString());
        Rng rng(5);
        std::vector<Time> at;
        for (int i = 0; i < 150; ++i)
            at.push_back(Time(rng.below(uint64_t(300 * kNsPerMs))));
        std::sort(at.begin(), at.end());
        int searched = 0, walked = 0, pruned = 0;
        for (const Time t : at) {
            e.runUntil(t);
            for (size_t c = 0; c < e.cpus().size(); ++c) {
                const PickWalk w = pickWalkOf(e.cpus()[c].cfs, e.entityView(), e.previewPick(CpuId(c)));
                QVERIFY(w.augmentOk);
                if (w.nodes.empty()) {
                    QCOMPARE(w.root, -1);
                    QVERIFY(w.path.empty());
                    continue;
                }
                // the tree's rows of the lag table, in the same (deadline) order
                std::vector<EntityId> treeRows;
                for (const LagRow& r : w.preview.table.rows)
                    if (!r.running) treeRows.push_back(r.id);
                QCOMPARE(treeRows.size(), w.nodes.size());
                const int64_t V = bruteV(w);
                QCOMPARE(V, w.preview.table.V);
                for (size_t i = 0; i < w.nodes.size(); ++i) {
                    const TreeNode& n = w.nodes[i];
                    QCOMPARE(n.id, treeRows[i]);
                    QCOMPARE(n.rank, int32_t(i));
                    if (i > 0) QVERIFY(w.nodes[i - 1].deadline <= n.deadline);
                    QCOMPARE(n.eligible, n.vruntime <= V);
                    // the augmentation, from every node below it (found through parent links)
                    int64_t minV = INT64_MAX, minS = INT64_MAX;
                    int size = 0;
                    for (size_t j = 0; j < w.nodes.size(); ++j)
                        if (ancestorOf(w, int32_t(i), int32_t(j))) {
                            minV = std::min(minV, w.nodes[j].vruntime);
                            minS = std::min(minS, w.nodes[j].slice);
                            ++size;
                        }
                    QCOMPARE(n.minVruntime, minV);
                    QCOMPARE(n.minSlice, minS);
                    QCOMPARE(n.size, size);
                    QCOMPARE(n.subtreeEligible, minV <= V);
                }
                int32_t firstEligible = -1;
                for (size_t i = 0; i < w.nodes.size() && firstEligible < 0; ++i)
                    if (w.nodes[i].eligible) firstEligible = int32_t(i);
                using Why = PickPreview::Why;
                if (w.preview.why == Why::Only) {
                    QVERIFY(w.path.empty());
                    continue;
                }
                QCOMPARE(w.searched, w.preview.why == Why::EarliestEligible);
                QVERIFY(!w.path.empty());
                // the search ends on the earliest eligible deadline (or none)
                QCOMPARE(w.found, firstEligible);
                if (w.path.front().step == PickWalk::Step::Leftmost) {
                    QCOMPARE(w.path.size(), size_t(1));
                    QCOMPARE(w.found, 0);
                } else {
                    // a chain from the root, each step to the child it names
                    QCOMPARE(w.path.front().node, w.root);
                    for (size_t k = 0; k < w.path.size(); ++k) {
                        const PickWalk::Move& m = w.path[k];
                        const TreeNode& n = w.nodes[size_t(m.node)];
                        if (m.step == PickWalk::Step::Take) {
                            QCOMPARE(k + 1, w.path.size());
                            QVERIFY(n.eligible);
                            continue;
                        }
                        const int32_t next = m.step == PickWalk::Step::Left ? n.left : n.right;
                        if (k + 1 < w.path.size()) QCOMPARE(w.path[k + 1].node, next);
                        if (m.step == PickWalk::Step::Right) {
                            QVERIFY(!n.eligible);
                            // the pruned left subtree holds no eligible entity
                            for (size_t j = 0; j < w.nodes.size(); ++j)
                                if (n.left >= 0 && ancestorOf(w, n.left, int32_t(j)))
                                    QVERIFY(!w.nodes[j].eligible);
                            pruned += n.left >= 0;
                        }
                    }
                    walked++;
                }
                if (w.searched) {
                    searched++;
                    if (w.currWins) {
                        const LagRow& curr = w.preview.table.rows.front();
                        QVERIFY(curr.running && curr.eligible && curr.id == w.preview.pick);
                        QVERIFY(w.found < 0 || curr.deadline < w.nodes[size_t(w.found)].deadline);
                    } else {
                        QCOMPARE(w.nodes[size_t(w.found)].id, w.preview.pick);
                    }
                }
            }
        }
        qInfo("%s: %d searched, %d walked from the root, %d pruned subtrees", qPrintable(scenario), searched,
              walked, pruned);
        if (scenario ==
            "eevdf-tree") { // made for it: the heap search itself, not only the leftmost fast path
            QVERIFY(walked > 20);
            QVERIFY(pruned > 5);
        }
    }
};

QTEST_GUILESS_MAIN(TestPickWalk)
#include "tst_pick_walk.moc"
