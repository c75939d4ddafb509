// SPDX-License-Identifier: GPL-3.0-or-later
// Waking and placing tasks: try_to_wake_up() with select_task_rq_fair() (wake_affine(),
// wake_wide(), select_idle_sibling()), fork placement, activate/deactivate_task(), and the
// runqueue loads they compare (kernel/sched/core.c, kernel/sched/fair.c). What is simplified
// against the kernel is listed in docs/design.md.
#include "engine/engine.h"
#include "engine/wake_wide.h"

#include <algorithm>
#include <bit>

namespace sched {

// cpu_load(): the root cfs_rq's load_avg as last stored (fair.cpp's updateRootCfsAvg()), blocked
// load of the tasks that slept here included.
int64_t Engine::cpuLoad(CpuId c) const {
    return rqs_[size_t(c)].cfsLoad.loadAvg;
}

// update_cfs_rq_h_load(): the root's h_load is its load_avg; a group's runqueue below takes its
// parent's h_load times its entity's part of the parent's load.
int64_t Engine::cfsRqHLoad(GroupId g, CpuId c) const {
    if (g == kRootGroup) return cpuLoad(c);
    const GroupId parent = groups_[size_t(g)].parent;
    const int64_t seLoad = groups_[size_t(g)].load[size_t(c)].seAvg.loadAvg;
    return cfsRqHLoad(parent, c) * seLoad / (cfsLoadAvg(parent, c).loadAvg + 1);
}

// task_h_load(): the task's load_avg in root units, its runqueue's h_load shared by load_avg.
// A task whose load is attached nowhere (an RT task, one not started) weighs nothing.
int64_t Engine::taskHLoad(TaskId p) const {
    const Task& t = tasks_[size_t(p)];
    if (t.loadCpu < 0) return 0;
    const int64_t cfsLoad = cfsLoadAvg(t.taskGroup, t.loadCpu).loadAvg;
    return t.seAvg.loadAvg * cfsRqHLoad(t.taskGroup, t.loadCpu) / (cfsLoad + 1);
}

void Engine::activateTask(CpuId c, TaskId p, bool initial) {
    updateRqClock(c); // every caller holds c's rq lock with the clock updated
    Task& t = tasks_[size_t(p)];
    if (t.cpu != c) {
        t.sliceRequest = false; // rseq ids_changed: slice_ctrl zeroed (7ee58f98b59b)
        t.proxyHome = -1;       // set_task_cpu(): wake_cpu is the new CPU
    }
    t.cpu = c;
    t.state = TaskState::Runnable;
    if (isRtPolicy(t.policy)) {
        rqs_[size_t(c)].rt.enqueue(p, t.kernelPrio(), false);
        startRtBandwidth(); // inc_rt_group()
    } else
        enqueueTaskFair(c, p, initial);
    addRunning(c, 1);
}

void Engine::deactivateTask(CpuId c, TaskId p, bool exiting) {
    Task& t = tasks_[size_t(p)];
    if (isRtPolicy(t.policy))
        rqs_[size_t(c)].rt.dequeue(p);
    else {
        dequeueTaskFair(c, p, true, !exiting);      // a dying task is not left delayed
        if (exiting) detachEntityLoadAvg(p, false); // task_dead_fair(): remove_entity_load_avg()
    }
    addRunning(c, -1);
}

// try_to_wake_up(): a delayed sleeper is requeued in place (ttwu_runnable); anything else gets
// a CPU from select_task_rq_fair() and is enqueued with its saved lag.
void Engine::tryToWakeUp(TaskId p, CpuId ctxCpu, TaskId waker, bool sync) {
    Task& t = tasks_[size_t(p)];
    if (t.state != TaskState::Sleeping) return;
    t.timerGen++; // a pending sleep timer no longer applies
    t.channelWait = -1;
    t.wokenAt = now_;
    auto recordWakeup = [&](CpuId target) {
        trace_.wakeups.push(now_, waker, p, uint16_t(ctxCpu < 0 ? target : ctxCpu), uint16_t(target), false);
    };
    if (waker >= 0) tasks_[size_t(waker)].overhead += cfg_.costs.wakeup;

    SchedEntity& se = ents_[size_t(p)];
    if (!isRtPolicy(t.policy) && se.onRq && se.schedDelayed) {
        const CpuId c = t.cpu;
        updateRqClock(c);                    // ttwu_runnable(): __task_rq_lock(), update_rq_clock()
        requeueDelayed(c, cfsRqOf(p, c), p); // enqueue_task_fair(ENQUEUE_DELAYED): the task's entity only
        t.state = TaskState::Runnable;
        addRunning(c, 1);
        recordWakeup(c);
        wakeupPreempt(c, p, WF_TTWU | (sync && waker >= 0 ? WF_SYNC : 0));
        return;
    }
    // select_task_rq_fair(WF_TTWU): record_wakee() and wake_wide() look at `current` — the waker,
    // or for an interrupt's wake-up the task it interrupted. They belong to the fair class: an RT
    // wakee (placed by this path too, docs/design.md) neither counts as a flip nor goes wide.
    const bool fair = !isRtPolicy(t.policy);
    const TaskId current = !fair         ? kNoTask
                           : waker >= 0  ? waker
                           : ctxCpu >= 0 ? rqs_[size_t(ctxCpu)].curr
                                         : kNoTask;
    recordWakee(current, p);
    const CpuId target =
        selectTaskRq(p, ctxCpu < 0 ? t.cpu : ctxCpu, sync && waker >= 0, !wakeIsWide(current, p));
    migrateOnWake(p, target, ctxCpu < 0 ? target : ctxCpu, MigrationPath::Wakeup);
    activateTask(target, p, false);
    recordWakeup(target);
    // select_task_rq() chose the CPU where the task may run on more than one (WF_RQ_SELECTED).
    const int selected = t.affinity.count() > 1 ? WF_RQ_SELECTED : 0;
    wakeupPreempt(target, p, WF_TTWU | (sync && waker >= 0 ? WF_SYNC : 0) | selected);
}

// set_task_cpu() for a task off every runqueue (a wakeup, proxy_force_return()), run on CPU `on`:
// sched_migrate_task, nr_migrations, and migrate_task_rq_fair()'s exec_start = 0 (no longer cache
// hot). The caller enqueues it there (activateTask() sets the CPU).
void Engine::migrateOnWake(TaskId p, CpuId to, CpuId on, MigrationPath how) {
    Task& t = tasks_[size_t(p)];
    if (to == t.cpu) return;
    trace_.migrations.push(now_, p, uint16_t(t.cpu), uint16_t(to), uint16_t(on), how);
    t.nrMigrations++;
    t.overhead += cfg_.costs.migration;
    t.lastRanAt = kNeverRan;
}

// wakeup_preempt(): same class -> the class rule; a higher class -> eager resched.
// Its callers (ttwu_do_activate(), ttwu_runnable(), wake_up_new_task(), attach_task(), ...)
// updated the rq clock first; it ends by asking __schedule() to skip its own update if curr now
// has the eager bit.
void Engine::wakeupPreempt(CpuId c, TaskId p, int wakeFlags) {
    CpuRq& rq = rqs_[size_t(c)];
    if (rq.curr < 0) {
        reschedCurr(c, ReschedBit::Eager, ReschedReason::IdleWakeup);
        return;
    }
    const Task& curr = tasks_[size_t(rq.donor())]; // the class that decides is the donor's
    const Task& wakee = tasks_[size_t(p)];
    const bool currRt = isRtPolicy(curr.policy), wakeeRt = isRtPolicy(wakee.policy);
    if (wakeeRt && (!currRt || wakee.kernelPrio() < curr.kernelPrio()))
        reschedCurr(c, ReschedBit::Eager, ReschedReason::ClassPreempt);
    else if (!wakeeRt && !currRt)
        checkPreemptWakeupFair(c, p, wakeFlags);
    rqClockSkipUpdate(c);
}

// record_wakee(): a waker that changes wakees counts a flip; the count halves once a second.
void Engine::recordWakee(TaskId current, TaskId p) {
    if (current < 0) return; // the idle task's count never matters: it wakes no one in a task's place
    Task& w = tasks_[size_t(current)];
    if (now_ > w.wakeeFlipDecayAt + kNsPerSec) {
        w.wakeeFlips >>= 1;
        w.wakeeFlipDecayAt = now_;
    }
    if (w.lastWakee != p) {
        w.lastWakee = p;
        w.wakeeFlips++;
    }
}

// wake_wide() with the two tasks' flip counts; sd_llc_size is the machine (one LLC).
bool Engine::wakeIsWide(TaskId current, TaskId p) const {
    return current >= 0 && sched::wakeWide(tasks_[size_t(current)].wakeeFlips, tasks_[size_t(p)].wakeeFlips,
                                           uint32_t(cfg_.cpus));
}

// select_task_rq_fair() for a wakeup: wake_affine (WA_IDLE, WA_WEIGHT) between the waker's CPU
// and prev_cpu when want_affine, then select_idle_sibling() over the (single) LLC; without
// want_affine (wake_wide) the target is prev_cpu.
CpuId Engine::selectTaskRq(TaskId p, CpuId wakerCpu, bool sync, bool wantAffine) {
    const Task& t = tasks_[size_t(p)];
    const int n = cfg_.cpus;
    auto idle = [&](CpuId c) { return rqs_[size_t(c)].nrRunning == 0; };
    CpuId prev = t.proxyHome >= 0 ? t.proxyHome : t.cpu; // p->wake_cpu (proxy_exec.cpp)
    if (!allowed(t, prev))
        for (CpuId c = 0; c < n; ++c)
            if (allowed(t, c)) {
                prev = c;
                break;
            }
    CpuId target = prev;
    if (wantAffine && wakerCpu != prev && wakerCpu >= 0 && allowed(t, wakerCpu)) {
        CpuId pick = -1;
        if (cfg_.feature(Feature::WaIdle)) { // wake_affine_idle()
            if (idle(wakerCpu))
                pick = idle(prev) ? prev : wakerCpu;
            else if (sync && rqs_[size_t(wakerCpu)].nrRunning == 1)
                pick = wakerCpu;
            else if (idle(prev))
                pick = prev;
        }
        if (pick < 0 && cfg_.feature(Feature::WaWeight)) pick = wakeAffineWeight(p, wakerCpu, prev, sync);
        target = pick == wakerCpu ? wakerCpu : prev;
    }
    // select_idle_sibling()
    if (idle(target) && allowed(t, target)) return target;
    if (prev != target && idle(prev) && allowed(t, prev)) return prev;
    // select_idle_cpu(): the first idle allowed CPU after target, wrapping (for_each_cpu_wrap);
    // SIS_UTIL looks at no more than nr_idle_scan allowed CPUs, and at none when it is 0.
    if (cfg_.feature(Feature::SisUtil)) {
        int nr = nrIdleScan_;
        for (int i = 1; i <= n && nr > 0; ++i) {
            const CpuId c = (target + i) % n;
            if (!allowed(t, c)) continue;
            if (idle(c)) return c;
            --nr;
        }
    } else {
        for (CpuId c = nextIdleCpu(target + 1); c >= 0; c = nextIdleCpu(c + 1))
            if (allowed(t, c)) return c;
        for (CpuId c = nextIdleCpu(0); c >= 0 && c < target; c = nextIdleCpu(c + 1))
            if (allowed(t, c)) return c;
    }
    return allowed(t, target) ? target : prev;
}

// wake_affine_weight() with WA_BIAS, on PELT loads: the waker's CPU with the wakee's load added
// (and, for a sync wakeup, the waker's taken away: it is about to sleep) against prev_cpu with it
// taken away (its blocked load is still there), prev's side raised by half the domain's
// imbalance_pct. The CPUs' capacities are equal (capacity_of(); RT and IRQ pressure are not
// modelled). The waker's CPU, or -1 for prev.
CpuId Engine::wakeAffineWeight(TaskId p, CpuId thisCpu, CpuId prevCpu, bool sync) const {
    int64_t thisEff = cpuLoad(thisCpu);
    if (sync) {
        const TaskId current = rqs_[size_t(thisCpu)].curr;
        const int64_t currentLoad = current >= 0 ? taskHLoad(current) : 0;
        if (currentLoad > thisEff) return thisCpu;
        thisEff -= currentLoad;
    }
    const int64_t taskLoad = taskHLoad(p);
    thisEff = (thisEff + taskLoad) * 100;
    int64_t prevEff = (cpuLoad(prevCpu) - taskLoad) * (100 + (kImbalancePct - 100) / 2);
    if (sync) prevEff += 1;
    return thisEff < prevEff ? thisCpu : -1;
}

void Engine::addRunning(CpuId c, int delta) {
    uint32_t& n = rqs_[size_t(c)].nrRunning;
    n = uint32_t(int64_t(n) + delta);
    if (delta > 0 && n + rqs_[size_t(c)].hNrDelayed >= 2) rdOverloaded_ = true; // add_nr_running()
    const uint64_t bit = uint64_t(1) << (c % 64);
    uint64_t& word = busyCpus_[size_t(c) / 64];
    word = n > 0 ? word | bit : word & ~bit;
}

// The lowest CPU at or after `from` whose runqueue is empty, or -1.
CpuId Engine::nextIdleCpu(CpuId from) const {
    const int n = int(rqs_.size());
    for (int w = from / 64; from < n && w <= (n - 1) / 64; ++w) {
        const uint64_t above = w == from / 64 ? ~uint64_t(0) << (from % 64) : ~uint64_t(0);
        if (const uint64_t idle = ~busyCpus_[size_t(w)] & above) {
            const CpuId c = CpuId(w * 64 + std::countr_zero(idle));
            return c < n ? c : -1;
        }
    }
    return -1;
}

// sched_balance_find_dst_cpu() for fork: the idlest allowed CPU, the parent's on a tie.
CpuId Engine::selectForkCpu(TaskId p, CpuId parentCpu) {
    const Task& t = tasks_[size_t(p)];
    CpuId best = -1;
    auto better = [&](CpuId a, CpuId b) {
        const CpuRq &x = rqs_[size_t(a)], &y = rqs_[size_t(b)];
        if (x.nrRunning != y.nrRunning) return x.nrRunning < y.nrRunning;
        return cpuLoad(a) < cpuLoad(b);
    };
    if (parentCpu >= 0 && allowed(t, parentCpu)) best = parentCpu;
    for (CpuId c = 0; c < cfg_.cpus; ++c)
        if (allowed(t, c) && (best < 0 || better(c, best))) best = c;
    return best < 0 ? 0 : best;
}

} // namespace sched
