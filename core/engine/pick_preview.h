// SPDX-License-Identifier: GPL-3.0-or-later
// What pick_eevdf() would choose on a CPU's root runqueue at this instant, and why, for the
// virtual-time lens: the runqueue as update_curr() would leave it (lag_table.h), then the order of
// pick_next_entity() / __pick_eevdf(): the only entity; an eligible buddy (PICK_BUDDY); curr while
// its slice is protected (RUN_TO_PARITY) and it is eligible; else the eligible entity with the
// earliest deadline, curr winning only with a strictly earlier one. Read-only.
#pragma once

#include "engine/lag_table.h"

namespace sched {

struct PickPreview {
    enum class Why : uint8_t { Empty, Only, Buddy, Protected, EarliestEligible };
    LagTable table;
    EntityId running = kNoTask; // cfs_rq->curr: what the last pick chose
    EntityId pick = kNoTask;    // what a pick now would choose
    Why why = Why::Empty;
    int64_t protectedFor = 0; // Protected: vruntime left to se->vprot (6.17+), or 0 (6.12's vlag == deadline)
    bool pickDelayed =
        false; // the pick is a delayed sleeper: picking it dequeues it, and the pick runs again
    // ... and what the pick chooses once it and any further delayed sleepers it meets are dequeued
    // (kNoTask: nothing), and how many more sleepers that took
    EntityId secondPick = kNoTask;
    Why secondWhy = Why::Empty;
    int moreDelayed = 0;
};

} // namespace sched
