// SPDX-License-Identifier: GPL-3.0-or-later
// A task group of the fair class (struct task_group with CONFIG_FAIR_GROUP_SCHED): a cgroup, or
// the autogroup of a session (kernel/sched/autogroup.c: every setsid() makes one while
// kernel.sched_autogroup_enabled is set; kernel threads and tasks in a non-root cpu cgroup stay
// out). On every CPU the group has its own cfs_rq (tg->cfs_rq[cpu]) and an entity that stands for
// it in its parent's runqueue (tg->se[cpu]); the entity's weight is the group's shares split over
// the CPUs by where its load is (calc_group_shares(), fair_group.cpp).
#pragma once

#include "engine/cfs_rq.h"
#include "engine/pelt.h"

#include <string>
#include <vector>

namespace sched {

using GroupId = int32_t; // index into the engine's groups; -1 = the root task group
constexpr GroupId kRootGroup = -1;

// The load-tracking fields of the group's cfs_rq on one CPU.
struct GroupCpuLoad {
    LoadAvg avg;                  // cfs_rq->avg: its queued weight, PELT-averaged (blocked load decays)
    LoadAvg seAvg;                // the group entity's se->avg on this CPU: its time on the parent's runqueue
    int64_t tgLoadAvgContrib = 0; // cfs_rq->tg_load_avg_contrib: its part of tg->load_avg
    Time lastUpdateTgLoadAvg = -kNsPerMs; // cfs_rq->last_update_tg_load_avg
    friend bool operator==(const GroupCpuLoad&, const GroupCpuLoad&) = default;
};

struct TaskGroup {
    std::string name; // "/autogroup-<session>" or the cgroup path
    GroupId parent = kRootGroup;
    int depth = 0;                  // its entities' se->depth: 0 for a child of the root group
    int64_t shares = 1024;          // tg->shares (scale_load_down()): cpu.weight 100 or autogroup nice 0
    std::vector<CfsRq> cfsRq;       // per CPU: the group's own runqueue
    std::vector<GroupCpuLoad> load; // per CPU: its cfs_rq's load average and contribution
    int64_t loadAvg = 0;            // tg->load_avg: the CPUs' contributions, refreshed lazily
    int64_t loadWeight = 0;         // the group's queued weight summed over its CPUs (inspector)

    friend bool operator==(const TaskGroup&, const TaskGroup&) = default;
};

} // namespace sched
