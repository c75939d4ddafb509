// SPDX-License-Identifier: GPL-3.0-or-later
// The fair class's per-task state, as struct sched_entity in include/linux/sched.h, plus the
// intrusive tree links (indices, not pointers, so that the engine can be copied as a value).
#pragma once

#include "base/types.h"
#include "engine/weights.h"

namespace sched {

// The fields a tree walk touches (key, augmentation, links, weight) come first and fill exactly
// one 64-byte cache line, so that a pick over 10,000 queued entities stays cheap.
struct alignas(64) SchedEntity {
    int64_t deadline = 0; // virtual deadline: the tree key
    int64_t vruntime = 0;
    int64_t minVruntime = 0; // augmented: minimum vruntime over this node's subtree
    int64_t slice = 0;       // request size r_i in ns
    uint64_t seq = 0;        // insertion order: equal deadlines keep FIFO order, as rb_add does
    // Augmented: minimum and maximum slice over this node's subtree (se->min_slice, and
    // se->max_slice from 6e3c0a4e1ad1). 32 bits hold every slice: the base slice is a u32 sysctl
    // and a custom one at most 100 ms, so the walk's fields still fit one cache line.
    uint32_t minSlice = 0;
    uint32_t maxSlice = 0;
    int32_t left = -1, right = -1;
    uint32_t prio = 0; // treap heap priority (deterministic hash)
    LoadWeight load;   // weight, then the inverse weight (second cache line)

    int64_t vlag = 0;  // V - v saved at dequeue; 6.12 also stashes the deadline here (protection)
    int64_t vprot = 0; // 6.17+: protected-until vruntime while this is cfs_rq->curr
    Time execStart = 0;
    Time sumExecRuntime = 0;
    Time prevSumExecRuntime = 0;
    TaskId groupPrev = kNoTask, groupNext = kNoTask; // rq->cfs_tasks links (cfs_tasks.h)

    bool onRq = false;
    bool schedDelayed = false; // DELAY_DEQUEUE: blocked but still queued
    bool relDeadline = false;  // deadline holds deadline - vruntime (migration / reweight)
    bool customSlice = false;  // slice came from sched_setattr(sched_runtime)
};

} // namespace sched
