// SPDX-License-Identifier: GPL-3.0-or-later
// The lag table of one fair runqueue, as people who teach EEVDF draw it: per entity its weight,
// vruntime, vlag = V - v, lag = w * vlag / NICE_0_LOAD (the CPU time it is owed), deadline,
// slice and eligibility, with V = avg_vruntime() and the sum of w * (V - v), which is zero but
// for V's rounding (avg_vruntime() floors its division: the sum lies in (-W, 0]). Read-only:
// built from the runqueue, never changes it.
#pragma once

#include "engine/cfs_rq.h"

#include <cstdint>
#include <vector>

namespace sched {

struct LagRow {
    EntityId id = kNoTask;
    bool running = false; // cfs_rq->curr (not in the tree)
    bool delayed = false; // a DELAY_DEQUEUE sleeper, still queued
    int64_t weight = 0, vruntime = 0, deadline = 0, slice = 0;
    int64_t vlag = 0; // V - v, ns of virtual time
    int64_t lag = 0;  // weight * vlag / 1024: ns of CPU time owed (negative: received too much)
    bool eligible = false;
    bool renewed = false; // the running entity's deadline as update_deadline() renews a used-up slice
};

struct LagTable {
    int64_t V = 0;         // avg_vruntime()
    int64_t weightSum = 0; // W over the rows
    // Sum of weight * (V - v) over the rows, exact: 0 up to V's floor, in (-W, 0].
    int64_t weightedVlagSum = 0;
    std::vector<LagRow> rows; // curr first, then the tree in deadline order

    const LagRow* row(EntityId id) const {
        for (const LagRow& r : rows)
            if (r.id == id) return &r;
        return nullptr;
    }
};

// With now >= 0 the running entity's vruntime is taken as update_curr() would make it at that
// instant (the engine, like the kernel, brings it up to date only at events), its deadline as
// update_deadline() would renew it, and V and every entity's eligibility follow from it; with
// now < 0 the runqueue is read as it stands.
// baseSlice: sysctl_sched_base_slice, which update_deadline() gives an entity without a custom slice
// before it renews the deadline (0: keep the entity's slice).
LagTable lagTableOf(const CfsRq& cfs, EntityView ents, Time now = -1, Time baseSlice = 0);

// The table after one entity left the runqueue (a delayed sleeper the pick dequeued): V, the
// sums, each row's vlag, lag and eligibility without its weight.
LagTable lagTableWithout(const LagTable& t, EntityId gone);

} // namespace sched
