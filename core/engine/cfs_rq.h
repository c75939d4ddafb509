// SPDX-License-Identifier: GPL-3.0-or-later
// One CPU's fair runqueue (struct cfs_rq) and the EEVDF arithmetic that depends only on it:
// avg_vruntime with the min_vruntime offset, eligibility without division, update_min_vruntime
// and __pick_eevdf. The running entity (curr) is kept out of the tree and out of the sums, as in
// the kernel; every function that needs V adds it back explicitly.
#pragma once

#include "engine/eevdf_tree.h"
#include "engine/entity_view.h"

#include <vector>

namespace sched {

class CfsRq {
  public:
    using Entities = EntityView; // passed by value: two pointers

    // --- state (fields named as in struct cfs_rq) ---
    EevdfTree timeline;
    TaskId curr = kNoTask;   // running fair entity, not in the tree
    TaskId next = kNoTask;   // the buddy: picked first while eligible (next_buddy.cpp)
    int64_t avgVruntime = 0; // S = sum over tree of w_i * (v_i - v0)
    int64_t avgLoad = 0;     // W = sum over tree of w_i
    int64_t minVruntime = 0; // v0, monotonic
    uint32_t nrQueued = 0;   // queued entities incl. curr and delayed sleepers
    uint32_t nrDelayed = 0;  // sched_delayed entities among them
    int64_t loadWeight = 0;  // sum of weights of queued entities incl. curr and delayed
    uint64_t nextSeq = 1;
    int32_t tg = -1; // the task group whose runqueue this is (task_group.h); -1: a CPU's root

    // --- the tree plus the S/W sums (__enqueue_entity / __dequeue_entity) ---
    void enqueueTree(Entities ents, TaskId id);
    void dequeueTree(Entities ents, TaskId id);

    // avg_vruntime(): V = v0 + floor(S'/W'), S'/W' including curr if it is on_rq.
    int64_t avgVruntimeValue(Entities ents) const;
    // ineligible_vruntime() (0d1e7a2bab35, 7.3): v0 + floor(S/W) + 1 over the tree alone, curr
    // left out - the first vruntime at which curr is no longer eligible against the others.
    int64_t ineligibleVruntime() const;
    // vruntime_eligible(): S' >= (v - v0) * W', evaluated without division.
    bool vruntimeEligible(Entities ents, int64_t vruntime) const;
    bool entityEligible(Entities ents, TaskId id) const {
        return vruntimeEligible(ents, ents[size_t(id)].vruntime);
    }
    // update_min_vruntime() (6.12-6.18): v0 = max(v0, min(curr v, tree min)), S -= W * delta.
    void updateMinVruntime(Entities ents);
    // cfs_rq_min_slice(): min(curr.slice if on_rq, root.min_slice); INT64_MAX if none.
    int64_t minSlice(Entities ents) const;
    // cfs_rq_max_slice() (6e3c0a4e1ad1): max(curr.slice if on_rq, root.max_slice); 0 if none.
    int64_t maxSlice(Entities ents) const;

    // __pick_eevdf(cfs_rq, protect). protectedCurr says whether curr's slice protection holds
    // (6.17+: v < vprot; 6.12: RUN_TO_PARITY && vlag == deadline); the caller computes it because
    // it depends on the kernel profile and the RUN_TO_PARITY feature. buddy: an eligible buddy comes
    // first, ahead of a protected curr (PICK_BUDDY inside __pick_eevdf() since e837456fdca8).
    TaskId pickEevdf(Entities ents, bool protect, bool protectedCurr, bool buddy = false) const;

    friend bool operator==(const CfsRq&, const CfsRq&) = default;
};

} // namespace sched
