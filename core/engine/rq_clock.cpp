// SPDX-License-Identifier: GPL-3.0-or-later
// The runqueue clock the fair and RT classes charge by (rq_clock_task(), kernel/sched/sched.h),
// and the one time it lags behind: __schedule() skips its clock update when a wakeup asked it to.
//
// wakeup_preempt() ends with "A queue event has occurred, and we're going to schedule. In this
// case, we can save a useless back to back clock update": if curr is queued and has
// TIF_NEED_RESCHED, rq_clock_skip_update() sets RQCF_REQ_SKIP, and __schedule() promotes it
// ("rq->clock_update_flags <<= 1; update_rq_clock(rq);"), so the switch is accounted at the clock
// of the wakeup (or of whatever updated it since: a tick, another wakeup). Where the switch
// follows the wakeup at once the two clocks agree. Where it does not - under PREEMPT_DYNAMIC's
// none and voluntary the woken task's CPU finishes its system call first, or a remote CPU takes
// the IPI - put_prev_task() charges prev only up to the stale clock and set_next_entity() starts
// next's exec_start there: next pays for prev's tail. Only the eager bit asks
// (test_tsk_need_resched() tests TIF_NEED_RESCHED alone; PREEMPT_AUTO's v2 07/35 made the same
// test explicit): a lazy request is billed exactly. Inside __schedule() the skip ends at the next
// update: a newidle balance past its gate updates the clock in sched_balance_update_blocked_averages()
// (6.12 - 6.18), and a task it pulls is attached after update_rq_clock() (attach_tasks()).
// 45e09225085f (tip, December 2025) dropped the first of these; it is not modelled - when nothing
// is pulled, next is the idle task and the clock only starts the fair_server's idle time.
// PELT keeps the fresh time: a microsecond in its 1,024 us periods moves no decision.
#include "engine/engine.h"

namespace sched {

// rq_clock_task(): the time, unless __schedule() is skipping its update. Outside a skip every
// read stands for the update_rq_clock() that precedes each accounting point in the kernel.
Time Engine::rqClockTask(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    if (!rq.clockSkipAct) rq.clock = now_;
    return rq.clock;
}

// update_rq_clock() where no read of the classes follows at once (an enqueue, a requeue, the RT
// period and dl_server timers, an attribute change): the stale time a later skip would use moves
// on. Inside __schedule() it ends the skip: its flags are RQCF_UPDATED by then, so later updates
// (update_blocked_averages() in a newidle balance, attach_tasks()) take the time again.
void Engine::updateRqClock(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    rq.clockSkipAct = false;
    rq.clock = now_;
}

// The end of wakeup_preempt(): task_on_rq_queued(donor) && test_tsk_need_resched(curr). The donor
// is not queued when __schedule() has just blocked it and a newidle balance attaches a task; a
// delayed sleeper (DELAY_DEQUEUE) still is. The idle task counts as queued in the kernel, but
// what it would bill comes after its exit from the idle state, which the engine's idle exit
// latency stands for: a local interrupt's wakeup runs once the CPU is awake, and a remote one is
// activated by the woken CPU itself (ttwu_queue_cond(): the wakelist for an idle target). So no
// request is made for it, and RT throttling's rq_clock_cancel_skipupdate(), which cancels only a
// request made while the idle task runs, has nothing to cancel.
void Engine::rqClockSkipUpdate(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    const TaskId donor = rq.donor();
    if (donor < 0 || !rq.flag[size_t(ReschedBit::Eager)]) return;
    const Task& t = tasks_[size_t(donor)];
    const bool queued = isRtPolicy(t.policy) ? t.state == TaskState::Running || t.state == TaskState::Runnable
                                             : ents_[size_t(donor)].onRq;
    if (queued) rq.clockSkipReq = true;
}

} // namespace sched
