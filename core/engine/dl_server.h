// SPDX-License-Identifier: GPL-3.0-or-later
// What keeps real-time tasks from starving fair ones, per CPU.
//
// 6.12 and later: the fair_server, a SCHED_DEADLINE entity that runs the fair class on its
// budget (50 ms every 1 s; /sys/kernel/debug/sched/fair_server/cpuN/{runtime,period}). It is
// deferred (a110a81c52a9 "sched/deadline: Deferrable dl server", v6.12): while fair tasks get CPU
// time on their own, that time is charged to its budget and it never needs to run; only when they
// have been starved up to the zero-laxity point (deadline - runtime, ~950 ms in) does it queue on
// the deadline class — ahead of every RT task — and let them run until the budget is used.
// Fields named as in struct sched_dl_entity (include/linux/sched.h).
//
// Before 6.12 (the PREEMPT_AUTO RFC profile): RT throttling, the RT class stopped once its tasks
// have run sched_rt_runtime_us (950 ms) of a sched_rt_period_us (1 s) period.
#pragma once

#include "base/types.h"

namespace sched {

struct DlServer {
    Time runtime = 0;          // budget left in this period
    Time deadline = -1;        // absolute; before time 0 until the first period (the kernel's 0 at boot)
    bool active = false;       // dl_server_active: started, not yet stopped
    bool throttled = false;    // dl_throttled: waiting for its timer (not queued)
    bool deferArmed = false;   // dl_defer_armed: the timer is the zero-laxity one
    bool deferRunning = false; // dl_defer_running: starvation seen, runs as a plain deadline entity
    bool queued = false;       // on the deadline runqueue: picked before RT
    bool deferIdle = false;    // dl_defer_idle (6.19): idle time used the budget up; the timer stops it
    uint32_t timerGen = 0;     // the pending dl_timer's generation (a new start cancels the old)
    Time idleExecStart = 0;    // the idle task's se.exec_start (dl_server_update_idle_time())
};

// The RT class's bandwidth (kernel/sched/rt.c, !CONFIG_RT_GROUP_SCHED before 6.12).
struct RtBandwidth {
    Time rtTime = 0;        // rt_rq->rt_time: RT run time in this period
    Time execStart = 0;     // the running RT task's exec_start
    bool throttled = false; // rt_rq->rt_throttled: RT tasks not picked until the period timer
};

} // namespace sched
