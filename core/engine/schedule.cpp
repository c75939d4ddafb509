// SPDX-License-Identifier: GPL-3.0-or-later
// __schedule() and everything that decides *when* it runs: the need-resched bits (resched_curr /
// resched_curr_lazy), the preemption points of each model (kernel/entry/common.c, and
// preempt_schedule() / __cond_resched() in kernel/sched/core.c), the tick (sched_tick), IPIs and
// the idle loop. Also the bookkeeping of how far the running task has got in its work.
#include "engine/engine.h"

#include <algorithm>
#include <utility>

namespace sched {

// --- model predicates (PREEMPT_DYNAMIC static keys, or PREEMPT_AUTO's CONFIG_PREEMPTION) ---

bool Engine::irqPreemptible() const {
    if (cfg_.build == KernelBuild::Auto) return true; // AUTO needs PREEMPTION: preempt_schedule_irq is live
    return cfg_.preempt == PreemptModel::Full || cfg_.preempt == PreemptModel::Lazy;
}

bool Engine::condReschedActive() const {
    if (cfg_.build == KernelBuild::Auto) return false; // cond_resched() compiles to nothing
    return cfg_.preempt == PreemptModel::None || cfg_.preempt == PreemptModel::Voluntary;
}

bool Engine::mightReschedActive() const {
    return cfg_.build == KernelBuild::Dynamic && cfg_.preempt == PreemptModel::Voluntary;
}

ExecMode Engine::effectiveMode(const Task& t) const {
    if (t.overhead > 0) return ExecMode::KernelNoPreempt;      // switch / wakeup paths hold locks
    if (t.resume != Resume::Continue) return ExecMode::Kernel; // finishing a syscall or schedule()
    return t.opMode;
}

// --- need-resched bits ---

void Engine::setFlag(CpuId c, ReschedBit bit, ReschedReason why) {
    CpuRq& rq = rqs_[size_t(c)];
    if (rq.flag[size_t(bit)]) return; // set_tsk_need_resched() on a set bit: its interval goes on as it was
    cutBatch(c);                      // the next exit-to-user point acts on the bit: no more chains run ahead
    rq.flag[size_t(bit)] = true;
    rq.flagSetAt[size_t(bit)] = now_;
    rq.flagReason[size_t(bit)] = why;
    rq.flagCause[size_t(bit)] = why == ReschedReason::WakeupPreempt ? wakeupCause_ : WakeupCause{};
    // A mutex spinner polls need_resched() (mutex_spin_on_owner()): it stops spinning.
    if (bit == ReschedBit::Eager && rq.curr >= 0) {
        const LockStage s = tasks_[size_t(rq.curr)].lockStage;
        if (s == LockStage::Spinning || s == LockStage::WaiterSpinning)
            queue_.push(now_, now_, EventKind::MutexSpin, rq.curr, 0);
    }
}

// clear_tsk_need_resched(): both bits go at once; each becomes a recorded interval.
void Engine::clearFlags(CpuId c, uint8_t clearedBy) {
    CpuRq& rq = rqs_[size_t(c)];
    for (size_t b = 0; b < 2; ++b) {
        if (!rq.flag[b]) continue;
        rq.flag[b] = false;
        if (opts_.flags)
            trace_.flags.push(rq.flagSetAt[b], now_, rq.curr, uint16_t(c), uint8_t(b),
                              uint8_t(rq.flagReason[b]), clearedBy);
    }
}

// __resched_curr() with the bit chosen as resched_curr() / resched_curr_lazy() would
// (get_lazy_tif_bit), or as PREEMPT_AUTO's resched_opt_translate() would.
void Engine::reschedCurr(CpuId c, ReschedBit wanted, ReschedReason why) {
    if (finishing_) return; // finish()'s closing accounting: the run has ended, no bit is set or recorded
    CpuRq& rq = rqs_[size_t(c)];
    const bool idle = rq.curr < 0;
    ReschedBit bit = ReschedBit::Eager;
    if (cfg_.build == KernelBuild::Dynamic) {
        if (wanted == ReschedBit::Lazy && cfg_.preempt == PreemptModel::Lazy && cfg_.lazyAvailable())
            bit = ReschedBit::Lazy;
    } else {
        switch (cfg_.preempt) {
        case PreemptModel::None:
            bit = ReschedBit::Lazy;
            break;
        case PreemptModel::Voluntary:
            bit = why == ReschedReason::ClassPreempt ? ReschedBit::Eager : ReschedBit::Lazy;
            break;
        default:
            bit = ReschedBit::Eager;
            break;
        }
        // A tick-originated request that finds the lazy bit still set upgrades it: the task
        // had a whole tick to reach user mode ("on the second tick").
        if (bit == ReschedBit::Lazy && tickContext_ && rq.flag[size_t(ReschedBit::Lazy)]) {
            bit = ReschedBit::Eager;
            why = ReschedReason::LazyPromoted;
        }
    }
    if (idle) bit = ReschedBit::Eager; // the idle task always gets the eager bit
    if (rq.flag[size_t(ReschedBit::Eager)]) return;
    if (bit == ReschedBit::Lazy && rq.flag[size_t(ReschedBit::Lazy)]) return;
    setFlag(c, bit, why);
    if (bit != ReschedBit::Eager) return; // a lazy request sends no IPI, local or remote
    if (idle) {
        if (!rq.idleExitPending) {
            rq.idleExitPending = true;
            queue_.push(now_ + cfg_.costs.idleExit.sample(rq.idleExitRnd), now_, EventKind::IdleExit, c);
        }
        return;
    }
    if (c != ctxCpu_) queue_.push(now_ + cfg_.costs.ipiLatency, now_, EventKind::Ipi, c);
    reprogram(c); // cond_resched()/might_resched() points and preempt_enable() may now act
}

// A preemption point of the running task: switch if the model lets this point act on the
// bits that are set. Returns true if another task (or idle) now runs.
bool Engine::preemptionPoint(CpuId c, SwitchPoint p) {
    CpuRq& rq = rqs_[size_t(c)];
    if (rq.curr < 0) return false;
    const bool nr = rq.flag[size_t(ReschedBit::Eager)];
    const bool lz = rq.flag[size_t(ReschedBit::Lazy)];
    bool act = false;
    switch (p) {
    case SwitchPoint::ExitToUser:
        act = nr || lz;
        break; // exit_to_user_mode_loop() tests both
    case SwitchPoint::IrqReturn:
    case SwitchPoint::PreemptEnable:
        act = nr && irqPreemptible();
        break;
    case SwitchPoint::CondResched:
        act = nr && condReschedActive();
        break;
    case SwitchPoint::MightResched:
        act = nr && mightReschedActive();
        break;
    default:
        act = true;
        break;
    }
    if (!act) return false;
    const TaskId before = rq.curr;
    schedule(c, p);
    return rqs_[size_t(c)].curr != before;
}

// irqentry_exit(): returning to user mode is an exit-to-user point (prev_state R); returning
// to preemptible kernel code calls preempt_schedule_irq() on the eager bit (R+).
void Engine::irqReturn(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    if (rq.curr < 0) return;
    switch (effectiveMode(tasks_[size_t(rq.curr)])) {
    case ExecMode::User: {
        // exit_to_user_mode_loop(): a task that asked for an RSEQ slice extension may get one instead.
        const Task& t = tasks_[size_t(rq.curr)];
        if ((t.sliceRequest || t.sliceGranted) && (rq.flag[0] || rq.flag[1]) && grantSliceExt(c)) break;
        preemptionPoint(c, SwitchPoint::ExitToUser);
        break;
    }
    case ExecMode::Kernel:
        preemptionPoint(c, SwitchPoint::IrqReturn);
        break;
    case ExecMode::KernelNoPreempt:
        break;
    }
}

// --- __schedule() ---

void Engine::schedule(CpuId c, SwitchPoint point) {
    syncProgress(c);
    CpuRq& rq = rqs_[size_t(c)];
    // "Promote REQ to ACT": after a wakeup that set curr's TIF_NEED_RESCHED the switch is accounted
    // at the clock of that wakeup (rq_clock.cpp); the skip lasts to the end of __schedule() unless
    // something updates the clock first.
    rq.clockSkipAct = std::exchange(rq.clockSkipReq, false);
    struct SkipEnds {
        CpuRq& rq;
        ~SkipEnds() { rq.clockSkipAct = false; }
    } skipEnds{rq};
    const TaskId prev = rq.curr;
    const TaskId prevDonor = rq.donor(); // pick_next_task(rq, rq->donor): the class's prev
    const bool afterProxyIdle = std::exchange(rq.proxyIdlePass, false);
    uint8_t reason = kNoReason;
    if (rq.flag[size_t(ReschedBit::Eager)])
        reason = uint8_t(rq.flagReason[size_t(ReschedBit::Eager)]);
    else if (rq.flag[size_t(ReschedBit::Lazy)])
        reason = uint8_t(rq.flagReason[size_t(ReschedBit::Lazy)]);

    const bool blocking = isBlockingPoint(point);
    // try_to_block_task(): dequeue (DELAY_DEQUEUE may keep a fair sleeper queued) - unless the task
    // is blocked on a mutex under proxy execution (task_is_blocked()): then it stays queued.
    if (prev >= 0 && blocking && !tasks_[size_t(prev)].proxyBlocked) {
        // task_tick_rt() requeued an expired RR task at once; a task that leaves the queue takes no
        // pending requeue with it (a woken one goes to the tail anyway).
        tasks_[size_t(prev)].rrExpired = false;
        deactivateTask(c, prev, point == SwitchPoint::Exit);
        tasks_[size_t(prev)].state = point == SwitchPoint::Exit ? TaskState::Dead : TaskState::Sleeping;
    }
    if (prevDonor >= 0 && isRtPolicy(tasks_[size_t(prevDonor)].policy)) updateCurrRt(c); // put_prev_task_rt()
    TaskId donor = pickNextTask(c, prevDonor);
    TaskId next = donor;
    bool idleResched = false; // find_proxy_task() -> proxy_resched_idle() (7.1)
    if (cfg_.proxyExecOn()) next = pickProxy(c, donor, idleResched); // the donor's owner may run
    // rq_set_donor(): an RT donor is the RT class's current task (set_next_task_rt()) while its
    // owner runs; a fair one is cfs_rq->curr already.
    rq.rtDonor = next != donor && isRtPolicy(tasks_[size_t(donor)].policy) ? donor : kNoTask;
    if (rq.rtDonor >= 0) rq.rtBandwidth.execStart = rqClockTask(c);
    // A donor put back was charged up to the clock (update_se() sets its exec_start): cache hot.
    if (prevDonor >= 0 && prevDonor != prev && prevDonor != donor)
        tasks_[size_t(prevDonor)].lastRanAt = rqClockTask(c);
    clearFlags(c, uint8_t(point));
    // The owner that runs for a donor is current to no class (proxy_tag_curr(), until e0ca8991b2de).
    const bool tag = next >= 0 && next != donor && !cfg_.has(Rule::ProxyNoTagCurr);
    if (next == prev) { // re-picked: no switch, no trace event, protection not re-armed
        if (tag) proxyTagCurr(c, next);
        if (donor != prevDonor) { // only the donor changed: its class's set_next_task() ran for it
            cutBatch(c);
            armHrTick(c);
        } else {
            rq.hrtickGen++; // __schedule()'s hrtick_clear(); set_next_task_fair() is not called again
        }
        reprogram(c);
        return;
    }
    if (prev >= 0 && tasks_[size_t(prev)].sliceGranted) sliceExtSwitchedOut(c, prev);
    if (prev >= 0 && !tasks_[size_t(prev)].held.empty()) ownerLeftCpu(prev); // owner_on_cpu() is false now
    rq.nrSwitches++;
    switchesSeen_++;
    if (prev >= 0) {
        Task& pt = tasks_[size_t(prev)];
        trace_.slices.push(rq.sliceStart, now_, prev, uint16_t(c), uint8_t(point),
                           blocking ? kNoReason : reason);
        rq.busyTime += now_ - rq.sliceStart;
        // __schedule() (kernel/sched/core.c): voluntary only when blocking outside a preemption.
        if (blocking)
            pt.nvcsw++;
        else
            pt.nivcsw++;
        if (pt.state == TaskState::Running) pt.state = TaskState::Runnable;
        pt.lastRanAt = rqClockTask(c); // its exec_start: task_hot() measures from it
    } else {
        dlServerUpdateIdle(c); // put_prev_task_idle()
        // Leaving idle: update_avg(&rq->avg_idle, idle time), capped at 2 * migration_cost - not
        // after a pass of find_proxy_task()'s, which was no idle period (nothing set idle_stamp).
        if (!afterProxyIdle) {
            const Time sample = now_ - rq.idleSince;
            rq.avgIdle += (sample - rq.avgIdle) / 8;
            rq.avgIdle = std::min(rq.avgIdle, 2 * cfg_.migrationCost);
        }
    }
    if (tag) proxyTagCurr(c, next);
    switchIn(c, next, prev);
    if (idleResched) { // set_tsk_need_resched(rq->idle): the idle loop enters no idle state, it picks again
        setFlag(c, ReschedBit::Eager, ReschedReason::ProxyIdle);
        rq.proxyIdlePass = true;
        if (!rq.idleExitPending) queue_.push(now_, now_, EventKind::IdleExit, c);
        rq.idleExitPending = true;
    }
}

// pick_next_task(): the deadline class (here only the fair_server, picking a fair task on its
// budget), then RT (unless throttled), then fair, then idle. A still-runnable prev goes back to
// its queue (put_prev_task) unless it is picked again.
TaskId Engine::pickNextTask(CpuId c, TaskId prev) {
    CpuRq& rq = rqs_[size_t(c)];
    // A donor whose owner ran is still queued (Runnable) for its class, like a running task.
    const bool prevRunnable =
        prev >= 0 && (tasks_[size_t(prev)].state == TaskState::Running || prev == rq.rtDonor);
    const bool prevRt = prev >= 0 && isRtPolicy(tasks_[size_t(prev)].policy);
    if (prevRunnable && prevRt) {
        Task& pt = tasks_[size_t(prev)];
        rq.rt.enqueue(prev, pt.kernelPrio(), !pt.rrExpired); // preempted: head; RR expired: tail
        pt.rrExpired = false;
    }
    const bool prevFair = prev >= 0 && !prevRt && rq.fairCurr == prev;
    // __pick_next_task()'s fast path: prev fair or idle and only fair tasks runnable -> the fair
    // class directly; a queued server is not consulted (nor stopped) then.
    const bool fastPath = !prevRt && rq.rt.empty();
    if (rq.fairServer.queued && !fastPath) { // __pick_task_dl() -> fair_server_pick_task()
        if (const TaskId next = pickFair(c, prev, prevFair); next >= 0) return next;
        dlServerStop(c); // nothing to serve
    }
    if (const TaskId next = pickRt(c); next >= 0) {
        if (prevFair) putPrevTaskFair(c, prev);
        return next;
    }
    TaskId next = pickFair(c, prev, prevFair);
    if (next < 0) {
        if (prevFair) putPrevTaskFair(c, prev);
        // sched_balance_newidle(): try to pull work before going idle.
        if (newidleBalance(c)) {
            next = pickRt(c);
            if (next < 0) next = pickFair(c, kNoTask, false);
        }
    }
    return next;
}

// pick_task_rt(): the highest-priority queued RT task, taken off its queue; none while the RT
// class is throttled (rt_bandwidth.cpp).
TaskId Engine::pickRt(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    if (rq.rt.empty() || rq.rtBandwidth.throttled) return kNoTask;
    const TaskId next = rq.rt.first();
    rq.rt.dequeue(next);
    return next;
}

// pick_next_task_fair(): the EEVDF pick (pick_task_fair(), down the task groups); a different
// task replaces prev as cfs_rq->curr along its path. kNoTask when the fair class has nothing
// runnable (prev stays curr then).
TaskId Engine::pickFair(CpuId c, TaskId prev, bool prevFair) {
    const TaskId next = pickTaskFair(c);
    if (next >= 0 && next != prev) {
        if (prevFair)
            putPrevSetNextFair(c, prev, next);
        else
            setNextTaskFair(c, next, true);
    }
    return next;
}

void Engine::switchIn(CpuId c, TaskId next, TaskId /*prev*/) {
    CpuRq& rq = rqs_[size_t(c)];
    rq.curr = next;
    rq.segGen++;
    rq.segEnd = kNever;
    rq.hrtickGen++;
    rq.segStart = now_;
    if (next < 0) { // the idle task: the tick stops (NO_HZ_IDLE)
        rq.idleSince = now_;
        rq.fairServer.idleExecStart = rqClockTask(c); // set_next_task_idle()
        rq.tickOn = false;
        rq.tickGen++;
        return;
    }
    Task& t = tasks_[size_t(next)];
    t.state = TaskState::Running;
    rq.sliceStart = now_;
    if (isRtPolicy(t.policy))
        rq.rtBandwidth.execStart = rqClockTask(c); // set_next_task_rt() (or an RT donor's: schedule())
    t.overhead += cfg_.costs.contextSwitch;
    if (t.policy == Policy::RR && t.rrTicksLeft <= 0)
        t.rrTicksLeft = int(std::max<Time>(1, cfg_.rrTimeslice / cfg_.tickNsec()));
    if (!rq.tickOn) startTick(c);
    armHrTick(c);
    reprogram(c);
}

// --- progress of the running task's work ---

void Engine::syncProgress(CpuId c) {
    if (rqs_[size_t(c)].batching())
        runBatch(c); // a batch's chains due before the current event first (batch.cpp)
    accountProgress(c);
}

// Schedule the running task's next stop: the end of its work, or the first preemption point
// that can act now (cond_resched(), might_resched(), preempt_enable() after a locked path).
void Engine::reprogram(CpuId c) {
    syncProgress(c);
    CpuRq& rq = rqs_[size_t(c)];
    if (rq.curr < 0 || rq.batching()) return;
    const Task& t = tasks_[size_t(rq.curr)];
    Time end;
    SegmentKind kind;
    if (t.resume != Resume::Continue) {
        end = now_ + t.overhead;
        kind = SegmentKind::Resume;
    } else {
        end = now_ + t.overhead + t.remaining;
        kind = SegmentKind::OpEnd;
        if (rq.flag[size_t(ReschedBit::Eager)]) {
            if (t.overhead > 0 && irqPreemptible() && now_ + t.overhead < end) {
                end = now_ + t.overhead;
                kind = SegmentKind::PreemptEnable;
            }
            if (t.opMode == ExecMode::Kernel && t.remaining > 0 &&
                t.ip < programs_[size_t(t.program)].ops.size()) {
                const Op& op = programs_[size_t(t.program)].ops[t.ip];
                auto consider = [&](Time every, SegmentKind k) {
                    if (every <= 0) return;
                    const Time untilPoint = (t.opDone / every + 1) * every - t.opDone;
                    const Time at = now_ + t.overhead + untilPoint;
                    if (untilPoint < t.remaining && at < end) {
                        end = at;
                        kind = k;
                    }
                };
                if (condReschedActive()) consider(op.condReschedEvery, SegmentKind::CondResched);
                if (mightReschedActive()) consider(op.mightReschedEvery, SegmentKind::MightResched);
            }
        }
    }
    // With both bits clear the next ops may run as a batch: from inside an op's CPU phase, or
    // after an overhead from a channel op to retry or a syscall to return from.
    const bool resumable = t.resume == Resume::Continue ||
                           (t.remaining == 0 && (t.resume == Resume::Retry || t.resume == Resume::Next ||
                                                 t.resume == Resume::ExitToUserNext));
    if (opts_.batchOps && resumable && t.opStarted && t.overhead + t.remaining > 0 &&
        !rq.flag[size_t(ReschedBit::Eager)] && !rq.flag[size_t(ReschedBit::Lazy)]) {
        planBatch(c);
        if (rq.batching()) return;
        rq.segRefused = rq.batch.refused;
    } else {
        rq.segRefused = false;
    }
    if (end == rq.segEnd && kind == rq.segKind) return;
    rq.segGen++;
    rq.segEnd = end;
    rq.segKind = kind;
    rq.segPushedAt = now_;
    queue_.push(end, now_, EventKind::Segment, c, rq.segGen);
}

void Engine::onSegment(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    rq.segEnd = kNever;
    ctxCpu_ = c;
    syncProgress(c);
    const TaskId t = rq.curr;
    if (t < 0) return;
    switch (rq.segKind) {
    case SegmentKind::PreemptEnable:
        preemptionPoint(c, SwitchPoint::PreemptEnable);
        break;
    case SegmentKind::CondResched:
        preemptionPoint(c, SwitchPoint::CondResched);
        break;
    case SegmentKind::MightResched:
        preemptionPoint(c, SwitchPoint::MightResched);
        break;
    case SegmentKind::Resume:
    case SegmentKind::OpEnd:
        if (tasks_[size_t(t)].overhead == 0 && tasks_[size_t(t)].remaining == 0) {
            if (rq.segKind == SegmentKind::OpEnd && continueAsBatch(c)) return; // it pushed the next Segment
            runProgram(c, t);
        }
        break;
    }
    reprogram(c);
}

// --- interrupts ---

void Engine::startTick(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    rq.tickOn = true;
    rq.tickGen++;
    const Time tick = cfg_.tickNsec();
    queue_.push((now_ / tick + 1) * tick, now_, EventKind::Tick, c, rq.tickGen); // ticks fall on jiffies
}

// sched_tick(): lazy promotion, the class tick, load balancing, then the IRQ return.
void Engine::onTick(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    ctxCpu_ = c;
    syncProgress(c);
    if (rq.curr < 0) {
        rq.tickOn = false;
        return;
    }
    // The lazy bit as it was at tick entry is promoted (a bit set below waits a tick).
    if (cfg_.build == KernelBuild::Dynamic && cfg_.preempt == PreemptModel::Lazy &&
        rq.flag[size_t(ReschedBit::Lazy)] && !rq.flag[size_t(ReschedBit::Eager)])
        setFlag(c, ReschedBit::Eager, ReschedReason::LazyPromoted);
    Task& t = tasks_[size_t(rq.donor())]; // sched_tick(): donor->sched_class->task_tick(rq, donor)
    tickContext_ = true;
    if (!isRtPolicy(t.policy)) {
        updateRootCfsAvg(c); // entity_tick() -> update_load_avg()
        taskTickFair(c);
    } else {
        updateCurrRt(c); // task_tick_rt() -> update_curr_rt()
        if (t.policy == Policy::RR && --t.rrTicksLeft <= 0) {
            // task_tick_rt(): the RR slice is refilled; requeue at the tail if others share the level.
            t.rrTicksLeft = int(std::max<Time>(1, cfg_.rrTimeslice / cfg_.tickNsec()));
            if (rq.rt.hasOtherAtPrio(t.kernelPrio())) {
                t.rrExpired = true;
                reschedCurr(c, ReschedBit::Eager, ReschedReason::RrSliceExpired);
            }
        }
    }
    tickContext_ = false;
    if (now_ >= rq.nextBalance) periodicBalance(c);
    nohzKick(c);
    irqReturn(c);
    CpuRq& rq2 = rqs_[size_t(c)];
    const Time tick = cfg_.tickNsec();
    if (rq2.curr >= 0)
        queue_.push((now_ / tick + 1) * tick, now_, EventKind::Tick, c, rq2.tickGen);
    else
        rq2.tickOn = false;
    reprogram(c);
}

void Engine::onIpi(CpuId c) {
    ctxCpu_ = c;
    syncProgress(c);
    irqReturn(c);
    reprogram(c);
}

void Engine::onIdleExit(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    rq.idleExitPending = false;
    ctxCpu_ = c;
    if (rq.curr >= 0) return; // something already runs here
    schedule(c, SwitchPoint::IdleExit);
}

// hrtick_start_fair(): with more than one fair task queued, the hrtick fires when the running
// task's slice is used up — at least 10 us ahead (hrtick_start(): shorter "can cause timer DoS"); a
// slice already overrun asks for an eager reschedule at once instead. With one task queued the
// timer is left as it is.
void Engine::hrtickStartFair(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    if (rq.hNrQueued <= 1) return;
    const SchedEntity& se = ents_[size_t(rq.curr)];
    const Time delta = se.slice - (se.sumExecRuntime - se.prevSumExecRuntime);
    if (delta < 0) {
        reschedCurr(c, ReschedBit::Eager, ReschedReason::HrTick);
        return;
    }
    rq.hrtickGen++; // hrtimer_start() moves the one timer
    queue_.push(now_ + std::max<Time>(delta, kHrtickMinDelay), now_, EventKind::HrTick, c, rq.hrtickGen);
}

// At a switch: __schedule()'s hrtick_clear(), then set_next_task_fair()'s hrtick_start_fair().
void Engine::armHrTick(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    rq.hrtickGen++;
    if (!cfg_.feature(Feature::HrTick) || rq.curr < 0 || rq.fairCurr != rq.curr) return;
    hrtickStartFair(c);
}

// hrtick_update() at the end of enqueue_task_fair() and dequeue_task_fair(): a second task queued
// arms the hrtick for what is left of the running task's slice (or, the slice overrun, reschedules).
// The running task's own dequeue (it blocks) is left out: __schedule() clears the hrtick next.
void Engine::hrtickUpdate(CpuId c, TaskId changed) {
    const CpuRq& rq = rqs_[size_t(c)];
    if (!cfg_.feature(Feature::HrTick) || rq.curr < 0 || rq.fairCurr != rq.curr || changed == rq.curr) return;
    hrtickStartFair(c);
}

void Engine::onHrTick(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    ctxCpu_ = c;
    syncProgress(c);
    if (rq.curr < 0 || rq.fairCurr != rq.curr) return;
    // task_tick_fair(queued=1): account on every level, then entity_tick() asks for a lazy
    // reschedule. Since 95a0155224a6 (7.0) the hrtick then re-arms unless need_resched() (the eager
    // bit alone): under the lazy model a spent slice gets a second hrtick 10 us on, whose
    // hrtick_start_fair() finds the slice overrun and reschedules eagerly.
    // 7.1 (5d88e424ec1b "Make hrtick resched hard", with 558c18d3fbb6, which removed the re-arm):
    // the hrtick reschedules eagerly, as the tick does.
    taskTickFair(c);
    const bool hard = cfg_.has(Rule::HrtickHard);
    if (rq.hNrQueued > 1) reschedCurr(c, hard ? ReschedBit::Eager : ReschedBit::Lazy, ReschedReason::HrTick);
    if (!hard && cfg_.has(Rule::HrtickRearm) && !rq.flag[size_t(ReschedBit::Eager)]) hrtickStartFair(c);
    irqReturn(c);
    reprogram(c);
}

} // namespace sched
