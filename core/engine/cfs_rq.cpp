// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/cfs_rq.h"

#include <algorithm>
#include <cassert>

namespace sched {

void CfsRq::enqueueTree(Entities ents, TaskId id) {
    SchedEntity& se = ents[size_t(id)];
    // avg_vruntime_add()
    const int64_t w = se.load.weight;
    avgVruntime += (se.vruntime - minVruntime) * w;
    avgLoad += w;
    timeline.insert(ents, id, nextSeq++);
}

void CfsRq::dequeueTree(Entities ents, TaskId id) {
    SchedEntity& se = ents[size_t(id)];
    // avg_vruntime_sub()
    const int64_t w = se.load.weight;
    avgVruntime -= (se.vruntime - minVruntime) * w;
    avgLoad -= w;
    [[maybe_unused]] const bool found = timeline.erase(ents, id);
    assert(found && "an entity's key changed while it was in the tree");
}

int64_t CfsRq::avgVruntimeValue(Entities ents) const {
    int64_t avg = avgVruntime;
    int64_t load = avgLoad;
    if (curr >= 0 && ents[size_t(curr)].onRq) {
        const SchedEntity& c = ents[size_t(curr)];
        avg += (c.vruntime - minVruntime) * int64_t(c.load.weight);
        load += c.load.weight;
    }
    if (load) {
        // As avg_vruntime(): make the division floor toward -inf ("left bias"), so that an
        // entity exactly at V is always eligible.
        if (avg < 0) avg -= (load - 1);
        avg /= load;
    }
    return minVruntime + avg;
}

int64_t CfsRq::ineligibleVruntime() const {
    int64_t avg = avgVruntime;
    if (avgLoad) {
        if (avg < 0) avg -= (avgLoad - 1); // the same floor as avg_vruntime()
        avg /= avgLoad;
    }
    return minVruntime + avg + 1;
}

bool CfsRq::vruntimeEligible(Entities ents, int64_t vruntime) const {
    int64_t avg = avgVruntime;
    int64_t load = avgLoad;
    if (curr >= 0 && ents[size_t(curr)].onRq) {
        const SchedEntity& c = ents[size_t(curr)];
        avg += (c.vruntime - minVruntime) * int64_t(c.load.weight);
        load += c.load.weight;
    }
    return avg >= (vruntime - minVruntime) * load;
}

void CfsRq::updateMinVruntime(Entities ents) {
    int64_t vruntime = minVruntime;
    bool haveCurr = false;
    if (curr >= 0 && ents[size_t(curr)].onRq) {
        vruntime = ents[size_t(curr)].vruntime;
        haveCurr = true;
    }
    if (int32_t r = timeline.root(); r >= 0) {
        const int64_t rootMin = ents[size_t(r)].minVruntime;
        vruntime = haveCurr ? std::min(vruntime, rootMin) : rootMin;
    }
    // __update_min_vruntime(): ensure we never go backwards; shift the sums with the offset.
    const int64_t delta = vruntime - minVruntime;
    if (delta > 0) {
        avgVruntime -= avgLoad * delta;
        minVruntime = vruntime;
    }
}

int64_t CfsRq::minSlice(Entities ents) const {
    int64_t s = INT64_MAX;
    if (curr >= 0 && ents[size_t(curr)].onRq) s = ents[size_t(curr)].slice;
    if (int32_t r = timeline.root(); r >= 0) s = std::min<int64_t>(s, ents[size_t(r)].minSlice);
    return s;
}

int64_t CfsRq::maxSlice(Entities ents) const {
    int64_t s = 0;
    if (curr >= 0 && ents[size_t(curr)].onRq) s = ents[size_t(curr)].slice;
    if (int32_t r = timeline.root(); r >= 0) s = std::max<int64_t>(s, ents[size_t(r)].maxSlice);
    return s;
}

TaskId CfsRq::pickEevdf(Entities ents, bool protect, bool protectedCurr, bool buddy) const {
    TaskId c = curr;
    const int32_t root = timeline.root();
    // Only one queued entity: take it whatever its lag.
    if (nrQueued == 1) return (c >= 0 && ents[size_t(c)].onRq) ? c : timeline.leftmost(ents);
    if (buddy && next >= 0 && entityEligible(ents, next)) return next;
    // curr competes only while it is queued and eligible.
    if (c >= 0 && (!ents[size_t(c)].onRq || !entityEligible(ents, c))) c = kNoTask;
    // Run to parity: a protected curr keeps the CPU.
    if (protect && c >= 0 && protectedCurr) return c;

    TaskId best = kNoTask;
    // Fast path: the earliest deadline is eligible.
    const int32_t left = timeline.leftmost(ents);
    if (left >= 0 && entityEligible(ents, left)) {
        best = left;
    } else {
        // Heap search for the earliest eligible deadline: go left whenever the left subtree
        // holds an eligible entity (its min_vruntime is eligible), else take this node if it
        // is eligible, else go right.
        int32_t node = root;
        while (node >= 0) {
            const SchedEntity& se = ents[size_t(node)];
            if (se.left >= 0 && vruntimeEligible(ents, ents[size_t(se.left)].minVruntime)) {
                node = se.left;
                continue;
            }
            if (vruntimeEligible(ents, se.vruntime)) {
                best = node;
                break;
            }
            node = se.right;
        }
    }
    if (best < 0 || (c >= 0 && ents[size_t(c)].deadline < ents[size_t(best)].deadline)) best = c;
    return best;
}

} // namespace sched
