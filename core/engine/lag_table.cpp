// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/lag_table.h"

#include "engine/weights.h"

namespace sched {

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
    int64_t avg = S;
    if (W) {
        if (avg < 0) avg -= W - 1; // floor, as avg_vruntime() divides
        avg /= W;
    }
    t.V = cfs.minVruntime + avg;
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
        r.vlag = t.V - r.vruntime;
        r.lag = r.weight * r.vlag / 1024; // NICE_0_LOAD (the engine's weights are not scaled up)
        r.eligible = (r.vruntime - cfs.minVruntime) * W <= S; // vruntime_eligible(), no division
        t.weightSum += r.weight;
        t.weightedVlagSum += r.weight * r.vlag;
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
    int64_t avg = S;
    if (W) {
        if (avg < 0) avg -= W - 1;
        avg /= W;
    }
    out.V = v0 + avg;
    for (LagRow& r : out.rows) {
        r.vlag = out.V - r.vruntime;
        r.lag = r.weight * r.vlag / 1024;
        r.eligible = (r.vruntime - v0) * W <= S;
        out.weightSum += r.weight;
        out.weightedVlagSum += r.weight * r.vlag;
    }
    return out;
}

} // namespace sched
