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

// __schedule()'s pick with proxy execution: find_proxy_task() on what pick_next_task() chose. A
// donor that had to be deactivated, or (7.1) was moved to its owner's CPU or sent back to the CPU
// it was woken for, is gone from this queue: pick again (pick_again). The idle task with a
// need-resched bit (proxy_resched_idle()) is kNoTask with idleResched set; donor is then kNoTask.
TaskId Engine::pickProxy(CpuId c, TaskId& donor, bool& idleResched) {
    for (;;) {
        ProxyFound found = ProxyFound::Run;
        const TaskId next = findProxyTask(c, donor, found);
        if (found == ProxyFound::Run) return next;
        if (found == ProxyFound::Idle) {
            donor = kNoTask;
            idleResched = true;
            return kNoTask;
        }
        donor = pickNextTask(c, kNoTask); // the donor was put first: prev is the idle task now
    }
}

// find_proxy_task(): from the donor along blocked_on to a task that can run here. The owner runs
// if it is queued on this CPU (or is the task that runs now); a mutex without an owner (released,
// not handed off) lets the waiter run itself, to take it (clear_task_blocked_on()).
//
// From 7.1 (b049b81bdff6, Rule::ProxyDonorMigration; the v23 posting's find_proxy_task(), the
// merged text not read: docs/kernels.md) the walk remembers whether it met rq->curr (the task that
// just blocked is still current during __schedule()), and:
// - a waiter the unlock marked PROXY_WAKING, or one whose mutex has no owner, runs if it is
//   rq->curr and is otherwise sent back (proxy_force_return()), even if it never left its CPU;
// - an owner on another CPU: the chain element blocked on it moves there (proxy_migrate_task()) -
//   unless rq->curr is in the chain, which makes this CPU run idle and pick again at once
//   (proxy_resched_idle());
// - an owner asleep or delayed: the donor sleeps (proxy_deactivate()), or idle as above.
TaskId Engine::findProxyTask(CpuId c, TaskId donor, ProxyFound& found) {
    const bool migration = cfg_.has(Rule::ProxyDonorMigration);
    const TaskId curr = rqs_[size_t(c)].curr;
    bool currInChain = false;
    TaskId p = donor;
    for (size_t hops = 0; p >= 0 && tasks_[size_t(p)].proxyBlocked; ++hops) {
        Task& pt = tasks_[size_t(p)];
        if (migration && pt.proxyWaking) { // blocked_on == PROXY_WAKING
            if (p == curr) {
                pt.proxyBlocked = pt.proxyWaking = false;
                return p;
            }
            proxyForceReturn(c, donor, p);
            found = ProxyFound::PickAgain;
            return kNoTask;
        }
        if (p == curr) currInChain = true;
        const TaskId owner = mutexes_[size_t(pt.blockedOn)].owner;
        if (owner == kNoTask) {
            if (!migration || p == curr) {
                pt.proxyBlocked = false;
                return p;
            }
            proxyForceReturn(c, donor, p);
            found = ProxyFound::PickAgain;
            return kNoTask;
        }
        const Task& o = tasks_[size_t(owner)];
        const bool queued = o.state == TaskState::Runnable || o.state == TaskState::Running;
        // Not queued (asleep; a delayed sleeper's state is Sleeping too), or before 7.1 on another
        // CPU ("don't handle migrations yet"): the donor sleeps. A chain longer than there are
        // tasks is a cycle of owners, a deadlock the kernel's walk does not expect: the same.
        const bool remote = queued && o.cpu != c;
        if (!queued || hops > tasks_.size() || (remote && !migration)) {
            if (migration && currInChain) {
                proxyReschedIdle(c, donor);
                found = ProxyFound::Idle;
                return kNoTask;
            }
            proxyDeactivate(c, donor);
            found = ProxyFound::PickAgain;
            return kNoTask;
        }
        if (remote) {
            if (currInChain)
                proxyReschedIdle(c, donor);
            else
                proxyMigrateTask(c, donor, p, o.cpu);
            found = currInChain ? ProxyFound::Idle : ProxyFound::PickAgain;
            return kNoTask;
        }
        p = owner;
    }
    if (p != donor && p >= 0) mutexes_[size_t(tasks_[size_t(donor)].blockedOn)].proxyRuns++;
    return p;
}

// proxy_resched_idle(): put_prev_set_next_task(rq, rq->donor, rq->idle) - the picked donor goes
// back to its class (a fair one stops being cfs_rq->curr; an RT one, which pick_task_rt() leaves
// at the head of its queue, is put back there: the engine's pick took it off) - and the idle
// task, with TIF_NEED_RESCHED, is what __schedule() switches to (schedule() sets the bit).
void Engine::proxyReschedIdle(CpuId c, TaskId donor) {
    CpuRq& rq = rqs_[size_t(c)];
    if (isRtPolicy(tasks_[size_t(donor)].policy))
        rq.rt.enqueue(donor, tasks_[size_t(donor)].kernelPrio(), true);
    else if (rq.fairCurr == donor)
        putPrevTaskFair(c, donor);
}

// deactivate_task(rq, p, 0): a plain dequeue, not a sleep (the lag and the relative deadline
// travel, nothing is delayed).
void Engine::proxyDequeue(CpuId c, TaskId p) {
    if (isRtPolicy(tasks_[size_t(p)].policy))
        rqs_[size_t(c)].rt.dequeue(p);
    else
        dequeueTaskFair(c, p, false);
    addRunning(c, -1);
}

// proxy_migrate_task() (7.1): the blocked task p, whose owner is queued on `target`, moves there
// - proxy_resched_idle(), deactivate_task(), proxy_set_task_cpu() (__set_task_cpu() with wake_cpu
// kept: no sched_migrate_task event, no nr_migrations, affinity not looked at - a scheduling
// context may go where it could not run), then activate_task() and wakeup_preempt() there (no
// IPI of its own: the target reschedules only if the donor preempts what runs there).
void Engine::proxyMigrateTask(CpuId c, TaskId donor, TaskId p, CpuId target) {
    proxyReschedIdle(c, donor);
    Task& t = tasks_[size_t(p)];
    if (t.blockedOn >= 0) mutexes_[size_t(t.blockedOn)].proxyMigrations++;
    proxyDequeue(c, p);
    if (t.proxyHome < 0) t.proxyHome = t.cpu;
    t.cpu = target;
    activateTask(target, p, false);
    wakeupPreempt(target, p, 0);
}

// proxy_force_return() (7.1): a waiter woken by the unlock (PROXY_WAKING) or blocked on a mutex
// nobody owns is sent back before it runs: dequeued, placed by select_task_rq(p, p->wake_cpu, 0) -
// without WF_TTWU select_task_rq_fair() and select_task_rq_rt() keep that CPU (is_cpu_allowed(),
// else select_fallback_rq()) - set_task_cpu() (a migration if the CPU changes), blocked_on
// cleared, then activate_task() and wakeup_preempt() there. 7.1 does this even for a waiter that
// never left its CPU: it is dequeued and enqueued again (placed with its lag).
void Engine::proxyForceReturn(CpuId c, TaskId donor, TaskId p) {
    proxyReschedIdle(c, donor);
    Task& t = tasks_[size_t(p)];
    if (t.blockedOn >= 0) mutexes_[size_t(t.blockedOn)].proxyReturns++;
    proxyDequeue(c, p);
    CpuId home = t.proxyHome >= 0 ? t.proxyHome : t.cpu;
    if (!allowed(t, home))
        for (CpuId k = 0; k < cfg_.cpus; ++k)
            if (allowed(t, k)) {
                home = k;
                break;
            }
    t.proxyHome = -1;
    migrateOnWake(p, home, c, MigrationPath::ProxyReturn); // set_task_cpu(), in c's __schedule()
    t.proxyBlocked = t.proxyWaking = false;                // clear_task_blocked_on()
    activateTask(home, p, false);
    wakeupPreempt(home, p, 0);
}

// proxy_deactivate(): proxy_resched_idle() takes the donor off cfs_rq->curr, then block_task()
// dequeues it as try_to_block_task() would have without proxy execution (DEQUEUE_SLEEP: DELAY_DEQUEUE
// may keep it queued as a delayed sleeper); blocked_on stays. No sched_switch: it was switched out
// when it blocked.
void Engine::proxyDeactivate(CpuId c, TaskId donor) {
    Task& t = tasks_[size_t(donor)];
    mutexes_[size_t(t.blockedOn)].proxyDeactivations++;
    t.proxyBlocked = t.proxyWaking = false;
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
    // Woken already by an earlier unlock, still on the wait list: try_to_wake_up() finds it
    // TASK_RUNNING and does nothing (no sched_waking).
    if (t.proxyWaking) return;
    // 7.1 (2d7622669836): set_task_blocked_on_waking() - blocked_on = PROXY_WAKING, not cleared:
    // the waiter may sit on its owner's CPU and is returned when it is next picked.
    if (cfg_.has(Rule::ProxyDonorMigration))
        t.proxyWaking = true;
    else
        t.proxyBlocked = false;
    t.wokenAt = now_;
    tasks_[size_t(waker)].overhead += cfg_.costs.wakeup;
    trace_.wakeups.push(now_, waker, w, uint16_t(ctxCpu), uint16_t(t.cpu), false);
    updateRqClock(t.cpu); // ttwu_runnable(): the waiter is still queued
    wakeupPreempt(t.cpu, w, WF_TTWU);
}

} // namespace sched
