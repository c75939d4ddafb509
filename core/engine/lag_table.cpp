// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/lag_table.h"

#include "engine/weights.h"

namespace sched {

namespace {

// avg_vruntime()'s division, floored: V = v0 + floor(S / W).
int64_t flooredAverage(int64_t S, int64_t W) {
    if (W == 0) return 0;
    return (S < 0 ? S - (W - 1) : S) / W;
}

// A row against V: its vlag and lag, its eligibility as vruntime_eligible() tests it (no
// division: (v - v0) * W <= S), and its share of the table's sums.
void settleRow(LagTable& t, LagRow& r, int64_t v0, int64_t S, int64_t W) {
    r.vlag = t.V - r.vruntime;
    r.lag = r.weight * r.vlag / 1024; // NICE_0_LOAD (the engine's weights are not scaled up)
    r.eligible = (r.vruntime - v0) * W <= S;
    t.weightSum += r.weight;
    t.weightedVlagSum += r.weight * r.vlag;
}

} // namespace

LagTable lagTableOf(const CfsRq& cfs, EntityView ents, Time now, Time baseSlice) {
    LagTable t;
    // avg_vruntime()'s sums, S = sum of w * (v - v0) and W = sum of w, over the tree and curr;
    // curr counts only while it is on_rq (a task being dequeued is not).
    const bool haveCurr = cfs.curr >= 0 && ents[size_t(cfs.curr)].onRq;
    int64_t currV = 0;
    bool advanced = false; // update_curr() returns early without time to charge
    int64_t S = cfs.avgVruntime, W = cfs.avgLoad;
    if (haveCurr) {
        const SchedEntity& c = ents[size_t(cfs.curr)];
        currV = c.vruntime;
        advanced = now > c.execStart;
        if (advanced) currV += calcDeltaFair(now - c.execStart, c.load); // update_curr()
        S += (currV - cfs.minVruntime) * int64_t(c.load.weight);
        W += int64_t(c.load.weight);
    }
    t.V = cfs.minVruntime + flooredAverage(S, W);
    const auto add = [&](EntityId id, bool running) {
        const SchedEntity& se = ents[size_t(id)];
        LagRow r;
        r.id = id;
        r.running = running;
        r.delayed = se.schedDelayed;
        r.weight = int64_t(se.load.weight);
        r.vruntime = running ? currV : se.vruntime;
        r.deadline = se.deadline;
        r.slice = se.slice;
        if (running && advanced && currV - se.deadline >= 0) { // update_deadline(): a new request
            if (!se.customSlice && baseSlice > 0) r.slice = baseSlice;
            r.deadline = currV + calcDeltaFair(r.slice, se.load);
            r.renewed = true;
        }
        settleRow(t, r, cfs.minVruntime, S, W);
        t.rows.push_back(r);
    };
    if (haveCurr) add(cfs.curr, true);
    cfs.timeline.forEachInOrder(ents, [&](int32_t id) {
        add(id, false);
        return true;
    });
    return t;
}

LagTable lagTableWithout(const LagTable& t, EntityId gone) {
    LagTable out;
    for (const LagRow& r : t.rows)
        if (r.id != gone) out.rows.push_back(r);
    if (out.rows.empty()) return out;
    // V = floor(sum w * v / W); the same from any origin, so the first row's vruntime serves (and
    // keeps the products small).
    const int64_t v0 = out.rows.front().vruntime;
    int64_t S = 0, W = 0;
    for (const LagRow& r : out.rows) {
        S += (r.vruntime - v0) * r.weight;
        W += r.weight;
    }
    out.V = v0 + flooredAverage(S, W);
    for (LagRow& r : out.rows)
        settleRow(out, r, v0, S, W);
    return out;
}

} // namespace sched
