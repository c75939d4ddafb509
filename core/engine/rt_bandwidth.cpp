// SPDX-License-Identifier: GPL-3.0-or-later
// RT throttling, the default RT bandwidth control before the fair_server replaced it
// (5f6bd380c7bd "sched/rt: Remove default bandwidth control", v6.12): the profile of the
// PREEMPT_AUTO RFC. kernel/sched/rt.c without CONFIG_RT_GROUP_SCHED: update_curr_rt() adds the RT
// run time to rt_rq->rt_time, sched_rt_runtime_exceeded() throttles the CPU's RT class once it
// passes sched_rt_runtime_us (950 ms), and the global period timer (sched_rt_period_timer(),
// started by the first RT enqueue, every sched_rt_period_us = 1 s) pays back one runtime per
// period and unthrottles. RT_RUNTIME_SHARE is off (the default since v5.10), so no CPU borrows
// another's runtime. A throttled CPU's RT tasks stay counted in nrRunning (the kernel takes them
// out of rq->nr_running); they are only not picked.
#include "engine/engine.h"

namespace sched {

// start_rt_bandwidth(): from inc_rt_group() at every RT enqueue; a no-op while the timer runs.
void Engine::startRtBandwidth() {
    if (!cfg_.rtThrottling() || rtPeriodActive_) return;
    rtPeriodActive_ = true;
    queue_.push(now_ + cfg_.rtPeriod, now_, EventKind::RtPeriod, 0, ++rtPeriodGen_);
}

// update_curr_rt() with sched_rt_runtime_exceeded(): charge the RT donor (the running RT task, or
// the one whose mutex owner runs for it) and throttle the class when its time is up.
void Engine::updateCurrRt(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    RtBandwidth& b = rq.rtBandwidth;
    const Time now = rqClockTask(c);
    const Time delta = now - b.execStart;
    b.execStart = now;
    if (delta <= 0) return;
    if (rq.rtDonor >= 0) { // update_se(): the owner's sum_exec_runtime grows, the donor's class pays
        ents_[size_t(rq.curr)].sumExecRuntime += delta;
        if (const int32_t m = tasks_[size_t(rq.rtDonor)].blockedOn; m >= 0)
            mutexes_[size_t(m)].proxied += delta;
    }
    if (!cfg_.rtThrottling()) return;
    b.rtTime += delta; // the overrun past the throttle point counts too
    if (b.throttled || b.rtTime <= cfg_.rtRuntime) return;
    if (cfg_.rtRuntime == 0) { // sched_rt_runtime_exceeded(): a zero runtime never throttles
        b.rtTime = 0;
        return;
    }
    b.throttled = true;
    reschedCurr(c, ReschedBit::Eager, ReschedReason::RtThrottle);
}

// sched_rt_period_timer() -> do_sched_rt_period_timer(): per CPU, rt_time -= min(rt_time,
// overrun * runtime); a throttled CPU under its runtime again gets its RT class back (and a
// reschedule). The timer stops when no CPU has RT time or RT tasks left.
void Engine::onRtPeriod() {
    ctxCpu_ = 0; // the period timer's interrupt (one timer for the machine); other CPUs get IPIs
    syncProgress(0);
    bool idle = true;
    for (CpuId c = 0; c < cfg_.cpus; ++c) {
        CpuRq& rq = rqs_[size_t(c)];
        RtBandwidth& b = rq.rtBandwidth;
        const bool rtRunning = rq.donor() >= 0 && isRtPolicy(tasks_[size_t(rq.donor())].policy);
        const bool rtQueued = !rq.rt.empty() || rtRunning;
        if (b.rtTime == 0 && !rtQueued) continue;
        updateRqClock(c); // rq_lock(), update_rq_clock()
        bool enqueue = false;
        if (b.rtTime > 0) {
            b.rtTime -= std::min(b.rtTime, cfg_.rtRuntime);
            if (b.throttled && b.rtTime < cfg_.rtRuntime) {
                b.throttled = false;
                enqueue = true;
            }
            if (b.rtTime > 0 || rtQueued) idle = false;
        } else {
            idle = false;
            enqueue = !b.throttled;
        }
        // sched_rt_rq_enqueue(): the RT class is back; its first task preempts a fair one.
        if (enqueue && !rq.rt.empty() && !rtRunning)
            reschedCurr(c, ReschedBit::Eager, ReschedReason::ClassPreempt);
    }
    irqReturn(0);
    reprogram(0);
    if (idle) {
        rtPeriodActive_ = false;
        return;
    }
    queue_.push(now_ + cfg_.rtPeriod, now_, EventKind::RtPeriod, 0, ++rtPeriodGen_);
}

} // namespace sched
