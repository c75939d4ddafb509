// SPDX-License-Identifier: GPL-3.0-or-later
// Per-CPU scheduler state (struct rq): the class runqueues, the running task, its two
// need-resched bits, the tick, and what the engine needs to resume the running task's work.
#pragma once

#include "base/rng.h"
#include "base/types.h"
#include "engine/batch_plan.h"
#include "engine/cfs_rq.h"
#include "engine/cfs_tasks.h"
#include "engine/dl_server.h"
#include "engine/newidle.h"
#include "engine/pelt.h"
#include "engine/rt_rq.h"

#include <array>
#include <vector>

namespace sched {

// What the pending Segment event of a CPU stands for.
enum class SegmentKind : uint8_t { OpEnd, PreemptEnable, CondResched, MightResched, Resume };

// The first lines hold what every event on the CPU and every batch read (the running task, the
// pending Segment, the batch's record with its arrays, batch_plan.h), in the order they are read.
// Behind the runqueues, with the arrays on the heap, they were six lines and three more loads:
// cachegrind's first-level misses at a tenth of the seed-size messaging run 42.6 M -> 38.2 M.
// Why a wakeup set a need-resched bit (check_preempt_wakeup_fair()), for the inspector and the
// lenses: the wakee, the two entities compared (a task's, or its group's under task groups) and the
// rule that decided.
struct WakeupCause {
    enum class Rule : uint8_t {
        None,
        Pick,         // pick_eevdf() chose the wakee's entity: eligible, earlier deadline, curr unprotected
        ShortSlice,   // PREEMPT_SHORT: a shorter slice set curr's protection aside, then the pick chose it
        IdleCurr,     // curr is SCHED_IDLE and the wakee is not
        SyncBuddy,    // a WF_SYNC wakee made the buddy (NEXT_BUDDY), the waker about to sleep
        ShortEligible // 7.3: an eligible shorter-slice wakee, though the pick would choose another
    };
    TaskId wakee = kNoTask;
    EntityId wakeeSe = kNoTask, currSe = kNoTask;
    Rule rule = Rule::None;
    friend bool operator==(const WakeupCause&, const WakeupCause&) = default;
};

struct alignas(64) CpuRq {
    TaskId curr = kNoTask; // kNoTask = the idle task (swapper/N)
    // progress of curr's work: the pending Segment
    uint32_t segGen = 0;
    SegmentKind segKind = SegmentKind::OpEnd;
    // The planner refused the action of the op whose end the pending Segment is (a write that
    // wakes, a read that blocks): at the Segment the op runs without a batch being tried again.
    bool segRefused = false;
    // TIF_NEED_RESCHED / TIF_NEED_RESCHED_LAZY of curr (when and why each was set: below).
    std::array<bool, 2> flag{};
    Time segStart = 0;
    Time segEnd = kNever;
    Time segPushedAt = 0;  // when the pending Segment was pushed (the queue's equal-time order)
    Time batchOpSince = 0; // when the current op's Segment would have been pushed without the batch
    // A batch (batch.cpp): curr runs the planned chains of operations without a Segment
    // event each; the pending Segment is the end of the batch.
    BatchPlan batch;

    CfsRq cfs;
    CfsTasks cfsTasks; // rq->cfs_tasks: the order detach_tasks() walks
    RtRq rt;
    UtilAvg cfsUtil;         // rq->cfs.avg's util (pelt.h): what SIS_UTIL sums
    LoadAvg cfsLoad;         // rq->cfs.avg's load: cpu_load(), what wake_affine_weight() compares
    DlServer fairServer;     // rq->fair_server (6.12+)
    RtBandwidth rtBandwidth; // rt_rq's throttling state (RFC profile)
    uint32_t nrRunning = 0;  // runnable tasks incl. curr, excl. delayed sleepers
    // The fair class over task groups: rq->cfs.h_nr_queued (fair tasks queued at any depth,
    // delayed sleepers included), how many of them are delayed, and the task whose path of
    // entities is cfs_rq->curr at every level (set_next_task_fair() .. put_prev_task_fair()).
    uint32_t hNrQueued = 0;
    uint32_t hNrDelayed = 0;
    TaskId fairCurr = kNoTask;
    // A real-time task the pick chose while it is blocked on a mutex, whose owner runs in its place
    // (proxy execution): rq->donor when it is an RT task. Off the RT queue while it is the donor,
    // like a running RT task; put back at the head of its level by the next pick.
    TaskId rtDonor = kNoTask;
    std::array<Time, 2> flagSetAt{};
    std::array<ReschedReason, 2> flagReason{};
    std::array<WakeupCause, 2> flagCause{}; // for a WakeupPreempt bit: whose wakeup, by which rule

    // periodic tick (stopped while idle: NO_HZ_IDLE)
    bool tickOn = false;
    uint32_t tickGen = 0;
    uint32_t hrtickGen = 0;
    bool idleExitPending = false;
    Rng idleExitRnd; // draws FixedCosts::idleExit when it is a distribution (a fixed one draws nothing)

    // rq_clock_task() as the fair and RT classes read it: the time of the last update_rq_clock().
    // A wakeup that leaves curr with TIF_NEED_RESCHED asks __schedule() to skip its update
    // (rq_clock_skip_update(): RQCF_REQ_SKIP); __schedule() promotes the request (RQCF_ACT_SKIP)
    // and accounts the switch at the stale clock (rq_clock.cpp).
    Time clock = 0;
    bool clockSkipReq = false;
    bool clockSkipAct = false;

    // trace and accounting
    Time sliceStart = 0;
    Time idleSince = 0;
    Time avgIdle = 0;           // rq->avg_idle, gates newidle balancing
    bool proxyIdlePass = false; // idle runs only to pick again (proxy_resched_idle()): no idle time to count
    NewidleDomain newidle;      // the newidle fields of this CPU's sched_domain
    int64_t nrSwitches = 0;
    Time busyTime = 0;

    // load balancing
    Time nextBalance = 0;
    Time balanceInterval = 0;
    int balanceFailed = 0;

    bool idle() const { return nrRunning == 0; }
    // rq->donor: the task whose scheduling context is charged — the picked task (an RT task, or the
    // fair one that is cfs_rq->curr) while it lends it to the mutex owner that runs (proxy
    // execution), else the running task.
    TaskId donor() const { return rtDonor >= 0 ? rtDonor : fairCurr >= 0 ? fairCurr : curr; }
    bool proxying() const { return donor() != curr; }
    bool batching() const { return batch.active(); }
};

} // namespace sched
