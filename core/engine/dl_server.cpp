// SPDX-License-Identifier: GPL-3.0-or-later
// The fair_server, the deadline server that gives fair tasks their share under RT load (6.12+,
// kernel/sched/deadline.c: dl_server_start(), dl_server_stop(), dl_server_update(),
// dl_server_update_idle_time(), dl_server_timer(), with update_dl_entity(),
// replenish_dl_entity(), replenish_dl_new_period() and update_curr_dl_se() as they act on a
// deferred server), as 6.18.0 has it: started when the fair class gets its first task, stopped
// only when picked with no fair task to run (cccb45d7c429, a3a70caf7906, 4ae8d9aa9f9d; v6.17);
// the 6.12 profile also stops it when the fair class's last task leaves (fair.cpp). The 6.18.y
// fixes of its start are rules of the 6.18.44 profile (dlServerStart()); the idle-wait rework of
// 6.19 (f5a538c07df2, e636ffb9e31b, ca1e8eede4fc) is the 7.x profiles' Rule::DlServerIdleWait:
// idle time goes through update_curr_dl_se() like fair time, and a server whose budget idle time
// used up waits idle for one period and is stopped by its timer. The state is dl_server.h's.
#include "engine/engine.h"

namespace sched {

namespace {
// dl_server_min_res: a deferred timer that finds the budget could still be used in the
// background later than this before zero laxity is pushed back instead of queuing the server.
constexpr Time kDlServerMinRes = kNsPerMs;
} // namespace

// dl_entity_overflow(): would the remaining budget over the time left to the deadline exceed the
// reserved bandwidth (runtime / deadline > dl_runtime / dl_deadline)? The CBS wake-up rule, in the
// kernel's arithmetic: each factor shifted right by DL_SCALE (10) so that the products fit.
bool Engine::dlOverflow(const DlServer& s) const {
    constexpr int kDlScale = 10;
    const int64_t left = (cfg_.fairServerPeriod >> kDlScale) * (s.runtime >> kDlScale);
    const int64_t right = ((s.deadline - now_) >> kDlScale) * (cfg_.fairServerRuntime >> kDlScale);
    return right < left;
}

// replenish_dl_new_period(): a fresh period from now; a deferred server that has not seen
// starvation waits for its zero-laxity timer instead of queuing.
void Engine::dlReplenishNewPeriod(CpuId c) {
    DlServer& s = rqs_[size_t(c)].fairServer;
    s.deadline = now_ + cfg_.fairServerPeriod;
    s.runtime = cfg_.fairServerRuntime;
    if (!s.deferRunning) s.throttled = s.deferArmed = true;
}

// start_dl_timer(): at zero laxity (deadline - runtime) when armed, else at the deadline (the
// next period's replenishment). A time already past fires now.
void Engine::dlStartTimer(CpuId c) {
    DlServer& s = rqs_[size_t(c)].fairServer;
    const Time at = s.deferArmed ? s.deadline - s.runtime : s.deadline;
    queue_.push(std::max(at, now_), now_, EventKind::DlTimer, c, ++s.timerGen);
}

// replenish_dl_entity() followed by the rest of enqueue_dl_entity(ENQUEUE_REPLENISH): returns
// whether the server is now queued (false: it went back to waiting for a deferred timer).
bool Engine::dlReplenish(CpuId c) {
    DlServer& s = rqs_[size_t(c)].fairServer;
    // A deferred reservation that reached zero laxity with its budget unused would overflow: it
    // gets a new period from now (the one it will run in).
    if (s.deferArmed && dlOverflow(s)) {
        s.deadline = now_ + cfg_.fairServerPeriod;
        s.runtime = cfg_.fairServerRuntime;
    }
    while (s.runtime <= 0) {
        s.deadline += cfg_.fairServerPeriod;
        s.runtime += cfg_.fairServerRuntime;
    }
    if (s.deadline < now_) dlReplenishNewPeriod(c);
    s.throttled = false;
    if (s.deferArmed) {
        s.deferArmed = false;
        s.queued = true;
        return true;
    }
    if (!s.deferRunning && now_ < s.deadline - s.runtime) {
        s.deferArmed = s.throttled = true;
        dlStartTimer(c);
        return false;
    }
    s.queued = true;
    return true;
}

// dl_server_start(): from enqueue_task_fair() when the fair class gets its first task on this
// CPU (h_nr_queued 0 -> 1). enqueue_dl_entity(ENQUEUE_WAKEUP) applies update_dl_entity(): a
// passed deadline or an overflowing budget starts a new period, else a server that has not seen
// starvation is armed again. (The kernel's resched_curr() after a start whose server stays
// throttled changes no pick and is left out.)
void Engine::dlServerStart(CpuId c) {
    DlServer& s = rqs_[size_t(c)].fairServer;
    s.deferIdle = false; // ca1e8eede4fc: a fair task is here, even for a server still active
    if (!cfg_.fairServer() || s.active) return;
    // rq->donor->sched_class->update_curr() (e636ffb9e31b): on an idle CPU update_curr_idle(),
    // which charges nothing to a server that is not active but moves the idle task's exec_start.
    if (cfg_.has(Rule::DlServerIdleWait) && rqs_[size_t(c)].curr < 0) s.idleExecStart = now_;
    s.active = true;
    // update_dl_entity(). From 6.18.24 (14a857056466) a server whose deadline is still ahead takes
    // the revised wakeup rule (update_dl_revised_wakeup()): it keeps the deadline with runtime =
    // dl_density * laxity, flags untouched; from 6.18.44 (1842bf97af10) only a server that was
    // running (dl_defer_running; inferred from the title, the hunk was not read). Otherwise a
    // new period, whose deferral 6.18.9 (115135422562, the "stuck" dl_server) re-arms by
    // clearing dl_defer_running first.
    const bool lapsed = s.deadline < now_;
    if (lapsed || dlOverflow(s)) {
        const bool revised = !lapsed && cfg_.has(Rule::DlServerRevisedWakeup) &&
                             (!cfg_.has(Rule::DlServerRevisedOnlyRunning) || s.deferRunning);
        if (revised) {
            constexpr int kBwShift = 20; // BW_SHIFT
            const int64_t density =
                (cfg_.fairServerRuntime << kBwShift) / cfg_.fairServerPeriod; // to_ratio()
            s.runtime = (density * (s.deadline - now_)) >> kBwShift;
        } else {
            if (cfg_.has(Rule::DlServerClearsDeferRunning)) s.deferRunning = false;
            dlReplenishNewPeriod(c);
        }
    } else if (!s.deferRunning) {
        s.deferArmed = s.throttled = true;
    }
    if (s.throttled) {
        dlStartTimer(c);
        return;
    }
    s.queued = true;
    reschedCurr(c, ReschedBit::Eager, ReschedReason::FairServerStart);
}

// dl_server_stop(): picked with no fair task to run (__pick_task_dl()). dl_defer_running stays:
// a fair task that comes back soon after a starvation runs on the server's remaining budget.
void Engine::dlServerStop(CpuId c) {
    DlServer& s = rqs_[size_t(c)].fairServer;
    s.queued = s.throttled = s.deferArmed = s.deferIdle = s.active = false;
    s.timerGen++;
}

// dl_server_update() -> update_curr_dl_se(): fair run time is charged to an active server
// whether or not the task runs on its behalf. Time the fair class got in the background while the
// server waits means it is not needed this period (a new, deferred one starts); a server that
// ran out of budget while queued is throttled until its next period and the CPU rescheduled.
// With Rule::DlServerIdleWait (f5a538c07df2) the time may be the idle task's: on an idle
// runqueue (idle_rq(): idle curr, nothing queued) a budget used up starts one new period marked
// dl_defer_idle, and further idle time only holds the runtime at zero until the timer stops the
// server; any other time clears the mark.
void Engine::dlServerUpdate(CpuId c, Time delta) {
    const CpuRq& rq = rqs_[size_t(c)];
    DlServer& s = rqs_[size_t(c)].fairServer;
    const bool idle = cfg_.has(Rule::DlServerIdleWait) && rq.curr < 0 && rq.nrRunning == 0;
    s.runtime -= delta;
    if (s.deferIdle && !idle) s.deferIdle = false;
    if (s.throttled) {
        if (s.runtime <= 0) {
            if (s.deferIdle) { // idle, still: wait for the period timer to stop the server
                s.runtime = 0;
                return;
            }
            s.deferRunning = false;
            dlReplenishNewPeriod(c);
            s.deferIdle = idle;
            dlStartTimer(c);
        }
        return;
    }
    if (s.runtime > 0) return;
    s.throttled = true;
    s.queued = false;
    dlStartTimer(c);
    reschedCurr(c, ReschedBit::Eager, ReschedReason::FairServerThrottle);
}

// dl_server_update_idle_time(): idle time counts against the budget too (the RT class did not
// use it, so the fair class owes it nothing); once it is spent, starvation is forgotten. From 6.19
// (e636ffb9e31b) update_curr_idle() -> dl_server_update_idle(): the idle task's time since its
// exec_start, charged through update_curr_dl_se() to an active server only.
void Engine::dlServerUpdateIdle(CpuId c) {
    DlServer& s = rqs_[size_t(c)].fairServer;
    if (cfg_.has(Rule::DlServerIdleWait)) {
        const Time delta = now_ - s.idleExecStart;
        if (delta <= 0) return;
        s.idleExecStart = now_;
        if (cfg_.fairServer() && s.active) dlServerUpdate(c, delta);
        return;
    }
    if (!cfg_.fairServer() || s.runtime < 0) return;
    const Time delta = now_ - s.idleExecStart;
    if (delta < 0) return;
    s.runtime -= delta;
    if (s.runtime < 0) {
        s.deferRunning = false;
        s.runtime = 0;
    }
    s.idleExecStart = now_;
}

// dl_server_timer(): at zero laxity a deferred server whose fair tasks could still get their
// budget in the background is pushed back; otherwise it has seen starvation and queues, ahead of
// every RT task (the deadline class comes first in pick_next_task()).
void Engine::onDlTimer(CpuId c) {
    ctxCpu_ = c;
    syncProgress(c);
    DlServer& s = rqs_[size_t(c)].fairServer;
    if (!s.throttled) return;
    updateRqClock(c); // dl_server_timer(): rq_lock(), update_rq_clock()
    if (cfg_.has(Rule::DlServerIdleWait)) {
        // rq->donor->sched_class->update_curr() first (e636ffb9e31b): the fair donor's time up
        // to now is charged before the zero-laxity check below, and so is the idle task's.
        const CpuRq& rq = rqs_[size_t(c)];
        if (rq.curr < 0)
            dlServerUpdateIdle(c);
        else if (rq.fairCurr >= 0)
            updateCurr(c, cfsRqOf(rq.fairCurr, c), false);
        if (s.deferIdle) { // f5a538c07df2: idle for a whole period, nothing to serve
            dlServerStop(c);
            return;
        }
    }
    if (s.deferArmed) {
        if (now_ < s.deadline - s.runtime - kDlServerMinRes) {
            dlStartTimer(c);
            return;
        }
        s.deferRunning = true;
    }
    if (!dlReplenish(c)) return;
    reschedCurr(c, ReschedBit::Eager, ReschedReason::FairServerStart);
    irqReturn(c);
    reprogram(c);
}

} // namespace sched
