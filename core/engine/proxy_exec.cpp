// SPDX-License-Identifier: GPL-3.0-or-later
// Proxy execution (CONFIG_SCHED_PROXY_EXEC; 6.17's "Single RunQueue Proxy Execution",
// 25c411fce735 .. 7de9d4f94638). A task that blocks on a struct mutex sets p->blocked_on and
// stays queued: try_to_block_task() leaves a task_is_blocked() task alone, so it keeps competing
// with its own weight, slice and deadline. When the pick chooses it, find_proxy_task() follows
// blocked_on to the mutex's owner and runs the owner in its place. rq->donor is the picked
// waiter, whose scheduling context is charged (cfs_rq->curr: vruntime, deadline, the end of its
// slice); rq->curr is the owner that executes (its sum_exec_runtime grows, and sched_switch shows
// a switch to it). In the engine these are rq.fairCurr and rq.curr (CpuRq::donor(), proxying()).
// Where the single-runqueue version gives up, the engine does too: an owner that sleeps, is a
// delayed sleeper or is on another CPU makes the donor sleep after all (proxy_deactivate()), and
// the unlock then wakes it as it wakes any sleeper. The donor may be a real-time task: nothing in
// find_proxy_task() looks at classes. pick_task_rt() chooses a blocked RT waiter as it chooses any
// (be39617e38e0 only keeps it off the pushable list), and its owner then runs on the RT context —
// the RT tick and update_curr_rt() are the donor's, fair wakeups cannot preempt it, and the owner's
// vruntime stands still (rq.rtDonor; no cfs_rq->curr). The unlock wakes such a waiter without a
// reschedule (wakeup_preempt_rt(): the waiter is the donor, p->prio == donor->prio), so the owner
// goes on in the RT context until the next schedule() on its CPU.
#include "engine/engine.h"

namespace sched {

// __schedule()'s pick with proxy execution: find_proxy_task() on what pick_next_task() chose; a
// donor that had to be deactivated is gone from the queue, so pick again (pick_again).
TaskId Engine::pickProxy(CpuId c, TaskId& donor) {
    for (;;) {
        bool deactivated = false;
        const TaskId next = findProxyTask(c, donor, deactivated);
        if (!deactivated) return next;
        donor = pickNextTask(c, kNoTask); // the donor was put first: prev is the idle task now
    }
}

// find_proxy_task(): from the donor along blocked_on to a task that can run here. The owner runs
// if it is queued on this CPU (or is the task that runs now); a mutex without an owner (released,
// not handed off) lets the waiter run itself, to take it (clear_task_blocked_on()).
TaskId Engine::findProxyTask(CpuId c, TaskId donor, bool& deactivated) {
    TaskId p = donor;
    for (size_t hops = 0; p >= 0 && tasks_[size_t(p)].proxyBlocked; ++hops) {
        Task& pt = tasks_[size_t(p)];
        const TaskId owner = mutexes_[size_t(pt.blockedOn)].owner;
        if (owner == kNoTask) {
            pt.proxyBlocked = false;
            return p;
        }
        const Task& o = tasks_[size_t(owner)];
        const bool queued = o.state == TaskState::Runnable || o.state == TaskState::Running;
        // Not queued (asleep; a delayed sleeper's state is Sleeping too) or on another CPU: 6.17 -
        // 7.0 "don't handle migrations yet". A chain longer than there are tasks is a cycle of
        // owners, a deadlock the kernel's walk does not expect: the donor sleeps, as without proxy.
        if (!queued || o.cpu != c || hops > tasks_.size()) {
            proxyDeactivate(c, donor);
            deactivated = true;
            return kNoTask;
        }
        p = owner;
    }
    if (p != donor && p >= 0) mutexes_[size_t(tasks_[size_t(donor)].blockedOn)].proxyRuns++;
    return p;
}

// proxy_deactivate(): proxy_resched_idle() takes the donor off cfs_rq->curr, then block_task()
// dequeues it as try_to_block_task() would have without proxy execution (DEQUEUE_SLEEP: DELAY_DEQUEUE
// may keep it queued as a delayed sleeper); blocked_on stays. No sched_switch: it was switched out
// when it blocked.
void Engine::proxyDeactivate(CpuId c, TaskId donor) {
    Task& t = tasks_[size_t(donor)];
    mutexes_[size_t(t.blockedOn)].proxyDeactivations++;
    t.proxyBlocked = false;
    if (isRtPolicy(t.policy)) { // pick_task_rt() took it off its queue already
        addRunning(c, -1);
    } else {
        if (rqs_[size_t(c)].fairCurr == donor) putPrevTaskFair(c, donor);
        deactivateTask(c, donor, false);
    }
    t.state = TaskState::Sleeping;
}

// proxy_tag_curr(): the owner that runs for a donor goes through a dequeue / enqueue cycle
// (DEQUEUE_SAVE / ENQUEUE_RESTORE) so that it is current to no class; for the fair class it is
// placed again with its lag and relative deadline, and stays in the tree while it runs.
void Engine::proxyTagCurr(CpuId c, TaskId owner) {
    if (isRtPolicy(tasks_[size_t(owner)].policy)) return;
    dequeueTaskFair(c, owner, false);
    enqueueTaskFair(c, owner, false);
}

// __mutex_unlock_slowpath() under proxy execution: the first waiter's blocked_on is cleared and
// wake_up_q() finds it still queued (ttwu_runnable()): no CPU is chosen, sched_wakeup is traced and
// wakeup_preempt() compares it with its CPU's donor — which does nothing when it is that donor
// (check_preempt_wakeup_fair(): se == pse): the owner goes on running on the woken waiter's
// context until the next schedule() on that CPU.
void Engine::proxyWakeWaiter(CpuId ctxCpu, TaskId waker, TaskId w) {
    Task& t = tasks_[size_t(w)];
    t.proxyBlocked = false;
    t.wokenAt = now_;
    tasks_[size_t(waker)].overhead += cfg_.costs.wakeup;
    trace_.wakeups.push(now_, waker, w, uint16_t(ctxCpu), uint16_t(t.cpu), false);
    wakeupPreempt(t.cpu, w, WF_TTWU);
}

} // namespace sched
