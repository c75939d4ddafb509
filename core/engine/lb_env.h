// SPDX-License-Identifier: GPL-3.0-or-later
// What one load balance decides before it moves anything (struct lb_env's migration_type and
// imbalance, and the group_type it classified the CPUs by), for the engine's one scheduling
// domain whose groups are single CPUs: an MC domain with SD_SHARE_LLC, no SMT, no NUMA, no
// asymmetric capacity, no EAS (balance.cpp).
#pragma once

#include "base/types.h"

#include <cstdint>

namespace sched {

// enum group_type, the three such a domain reaches, in the kernel's order (a higher one is busier).
enum class GroupType : uint8_t {
    HasSpare,  // group_has_spare: idle, or not using its capacity
    FullyBusy, // group_fully_busy: one task, using the CPU
    Overloaded // group_overloaded: more than one task, and the CPU is used up
};

// enum migration_type: whole tasks or load (migrate_util is not reached: SD_SHARE_LLC excludes it).
enum class MigrationType : uint8_t { Task, Load };

struct LbImbalance {
    CpuId busiest = -1; // the source CPU, -1 when balanced
    MigrationType type = MigrationType::Task;
    int64_t imbalance = 0; // tasks to move, or load (cpu_load() units) to move
};

// How a sched_balance_rq() ended: balanced (no busiest CPU, or nothing to move), tasks moved, or a
// busiest found and nothing could be moved (a failed balance: nr_balance_failed counts these).
enum class LbResult : uint8_t { Balanced, Moved, NothingMoved };

} // namespace sched
