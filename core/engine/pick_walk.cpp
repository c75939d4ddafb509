// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/pick_walk.h"

#include <algorithm>

namespace sched {

namespace {

// Copies the tree in deadline order; returns the copied subtree's root index.
int32_t copySubtree(const EntityView& ents, int32_t id, int32_t parent, int32_t depth, int64_t V,
                    std::vector<TreeNode>& out) {
    if (id < 0) return -1;
    const SchedEntity& se = ents[size_t(id)];
    const int32_t left = copySubtree(ents, se.left, -1, depth + 1, V, out);
    const int32_t me = int32_t(out.size());
    TreeNode n;
    n.id = id;
    n.parent = parent;
    n.depth = depth;
    n.rank = me;
    n.weight = int64_t(se.load.weight);
    n.vruntime = se.vruntime;
    n.deadline = se.deadline;
    n.slice = se.slice;
    n.minVruntime = se.minVruntime;
    n.minSlice = se.minSlice;
    n.eligible = se.vruntime <= V; // (v - v0) * W <= S, with V = v0 + floor(S / W)
    n.subtreeEligible = se.minVruntime <= V;
    n.delayed = se.schedDelayed;
    out.push_back(n);
    if (left >= 0) {
        out[size_t(me)].left = left;
        out[size_t(left)].parent = me;
    }
    const int32_t right = copySubtree(ents, se.right, me, depth + 1, V, out);
    out[size_t(me)].right = right;
    return me;
}

// Subtree sizes and a brute-force check of the augmentation, bottom-up.
void finish(std::vector<TreeNode>& nodes, int32_t n, bool& ok) {
    TreeNode& t = nodes[size_t(n)];
    int64_t minV = t.vruntime, minS = t.slice;
    for (const int32_t c : {t.left, t.right}) {
        if (c < 0) continue;
        finish(nodes, c, ok);
        const TreeNode& k = nodes[size_t(c)];
        t.size += k.size;
        minV = std::min(minV, k.minVruntime);
        minS = std::min(minS, k.minSlice);
    }
    if (minV != t.minVruntime || minS != t.minSlice) ok = false;
}

} // namespace

PickWalk pickWalkOf(const CfsRq& cfs, EntityView ents, PickPreview preview) {
    PickWalk w;
    w.preview = std::move(preview);
    const int64_t V = w.preview.table.V;
    w.root = copySubtree(ents, cfs.timeline.root(), -1, 0, V, w.nodes);
    if (w.root >= 0) finish(w.nodes, w.root, w.augmentOk);
    // The search runs for EarliestEligible only; for a protected curr or a buddy it is still
    // walked, as the pick would walk it once the protection ends, and the lens says so.
    using Why = PickPreview::Why;
    w.searched = w.preview.why == Why::EarliestEligible;
    if (w.root < 0 || w.preview.why == Why::Empty || w.preview.why == Why::Only) return w;
    // __pick_eevdf(): the cached leftmost first, then the heap search from the root.
    if (w.nodes.front().eligible) {
        w.path.push_back({0, PickWalk::Step::Leftmost});
        w.found = 0;
    } else {
        for (int32_t n = w.root; n >= 0;) {
            const TreeNode& t = w.nodes[size_t(n)];
            if (t.left >= 0 && w.nodes[size_t(t.left)].subtreeEligible) {
                w.path.push_back({n, PickWalk::Step::Left});
                n = t.left;
            } else if (t.eligible) {
                w.path.push_back({n, PickWalk::Step::Take});
                w.found = n;
                break;
            } else {
                w.path.push_back({n, PickWalk::Step::Right});
                n = t.right;
            }
        }
    }
    for (const PickWalk::Move& m : w.path)
        w.nodes[size_t(m.node)].visited = true;
    // found: if (!best || (curr && entity_before(curr, best))) best = curr;
    w.currWins = w.searched && (w.found < 0 || w.nodes[size_t(w.found)].id != w.preview.pick);
    return w;
}

} // namespace sched
