// SPDX-License-Identifier: GPL-3.0-or-later
// Kernel mutexes (kernel/locking/mutex.c, as of 6.x - 7.1): mutex_lock() and mutex_unlock() as
// program ops. The steps the kernel takes and the engine follows:
// - mutex_lock(): the fast path takes a free lock (a cmpxchg of the owner word); in the slow
//   path, __mutex_lock_common() first tries __mutex_trylock(), then mutex_optimistic_spin():
//   while the owner runs on another CPU (owner_on_cpu()) and need_resched() is clear, spin with
//   preemption disabled (mutex_can_spin_on_owner(), mutex_spin_on_owner(); the spinners queue on
//   the osq, the first one takes the lock when it is released). A spinner that sees
//   need_resched() calls schedule() while runnable; one whose owner leaves its CPU queues.
// - Queued (__mutex_add_waiter(), FIFO), the waiter sleeps in TASK_UNINTERRUPTIBLE
//   (schedule_preempt_disabled()); woken, __mutex_trylock_or_handoff(): it takes a free lock, or,
//   if it is the first waiter and the lock was taken meanwhile (a spinner, or a task that came by
//   the slow path's trylock), sets MUTEX_FLAG_HANDOFF and spins on the new owner or sleeps again.
// - mutex_unlock(): __mutex_unlock_slowpath() wakes the first waiter (wake_q, no WF_SYNC) and,
//   with MUTEX_FLAG_HANDOFF set, hands the lock to it (__mutex_handoff(): MUTEX_FLAG_PICKUP);
//   otherwise the lock is free and whoever tries first takes it.
// The ops between a lock and its unlock run inside the kernel: no exit to user mode in between.
// With proxy execution (machine.proxy_exec) a waiter stays queued and lends its scheduling context
// to the owner: proxy_exec.cpp. Not modelled: ww_mutexes, signals (mutex_lock_interruptible()).
#include "engine/engine.h"

#include <algorithm>

namespace sched {

namespace {
constexpr Time kSpinHorizon = 3600 * kNsPerSec; // a spin ends by an event, not by running out
template <class C> void eraseTask(C& c, TaskId id) {
    c.erase(std::remove(c.begin(), c.end(), id), c.end());
}
} // namespace

int32_t Engine::addMutex(std::string name) {
    Mutex m;
    m.name = std::move(name);
    mutexes_.push_back(std::move(m));
    return int32_t(mutexes_.size() - 1);
}

// owner_on_cpu(): the owner is the task running on its CPU.
bool Engine::ownerOnCpu(TaskId owner) const {
    return owner >= 0 && tasks_[size_t(owner)].state == TaskState::Running &&
           rqs_[size_t(tasks_[size_t(owner)].cpu)].curr == owner;
}

// mutex_can_spin_on_owner() / mutex_spin_on_owner(): spin while the owner runs and this CPU has
// no need_resched() (the eager bit; the lazy one is not seen inside the kernel). A free lock
// (owner 0, where the kernel would spin and retry) never gets here: the trylock took it first.
bool Engine::canSpin(CpuId c, const Mutex& m) const {
    return ownerOnCpu(m.owner) && !rqs_[size_t(c)].flag[size_t(ReschedBit::Eager)];
}

Engine::Step Engine::mutexAcquired(TaskId id, int32_t mi) {
    Task& t = tasks_[size_t(id)];
    Mutex& m = mutexes_[size_t(mi)];
    m.owner = id;
    m.acquired++;
    if (t.lockStage != LockStage::None) { // it had to wait or spin
        const Time waited = now_ - t.lockWantedSince;
        m.contended++;
        m.waitSum += waited;
        m.waitMax = std::max(m.waitMax, waited);
    }
    eraseTask(m.waiters, id); // __mutex_remove_waiter() on the acquired path
    if (m.waiters.empty()) m.handoff = false;
    t.blockedOn = -1;
    t.lockStage = LockStage::None;
    if (std::find(t.held.begin(), t.held.end(), mi) == t.held.end()) t.held.push_back(mi);
    advanceOp(t);
    t.opMode = ExecMode::Kernel; // still inside the kernel: the next op continues the section
    return Step::Continue;
}

Engine::Step Engine::startSpin(TaskId id, int32_t mi, LockStage stage) {
    Task& t = tasks_[size_t(id)];
    Mutex& m = mutexes_[size_t(mi)];
    t.lockStage = stage;
    t.blockedOn = mi;
    if (std::find(m.spinners.begin(), m.spinners.end(), id) == m.spinners.end()) m.spinners.push_back(id);
    t.remaining = kSpinHorizon;
    t.opMode = ExecMode::KernelNoPreempt; // __mutex_lock_common() runs with preemption disabled
    return Step::Continue;
}

// The slow path's queueing: __mutex_add_waiter() at the tail, TASK_UNINTERRUPTIBLE, schedule().
Engine::Step Engine::mutexSleep(CpuId c, TaskId id, int32_t mi) {
    Task& t = tasks_[size_t(id)];
    Mutex& m = mutexes_[size_t(mi)];
    if (std::find(m.waiters.begin(), m.waiters.end(), id) == m.waiters.end()) m.waiters.push_back(id);
    m.slept++;
    t.lockStage = LockStage::Waiting;
    t.blockedOn = mi;
    t.opMode = ExecMode::Kernel;
    t.resume = Resume::Retry;
    // __set_task_blocked_on(): with proxy execution it stays queued (proxy_exec.cpp).
    t.proxyBlocked = cfg_.proxyExecOn();
    blockCurrent(c, id, SwitchPoint::BlockUninterruptible);
    return Step::Blocked;
}

// mutex_optimistic_spin()'s fail path on need_resched(): schedule() while runnable (prev_state
// R, an involuntary switch); run again, the task goes on from `then` (the slow path, or the wait).
Engine::Step Engine::spinRescheduled(CpuId c, TaskId id, LockStage then) {
    Task& t = tasks_[size_t(id)];
    t.lockStage = then;
    t.opMode = ExecMode::Kernel;
    t.resume = Resume::Retry;
    schedule(c, SwitchPoint::Reschedule);
    return rqs_[size_t(c)].curr != id ? Step::Switched : Step::Continue;
}

// The MutexLock op's action, each time the task runs it: on entry, after a spin ended, and when
// it runs again after sleeping or being rescheduled.
Engine::Step Engine::mutexLock(CpuId c, TaskId id, int32_t mi) {
    Mutex& m = mutexes_[size_t(mi)];
    Task& t = tasks_[size_t(id)];
    const LockStage stage = t.lockStage;
    if (stage == LockStage::Spinning || stage == LockStage::WaiterSpinning) eraseTask(m.spinners, id);
    if (m.owner == kNoTask || m.owner == id) return mutexAcquired(id, mi); // trylock, or a handoff's pickup
    switch (stage) {
    case LockStage::None:
        t.lockWantedSince = now_;
        [[fallthrough]];
    case LockStage::Spinning: // (again, after a spin ended: the next owner may run too)
        if (canSpin(c, m)) return startSpin(id, mi, LockStage::Spinning);
        // mutex_can_spin_on_owner() or the spin said no; the spin's fail path still reschedules
        // first if need_resched() is set, and only then does the slow path queue the task.
        if (rqs_[size_t(c)].flag[size_t(ReschedBit::Eager)])
            return spinRescheduled(c, id, LockStage::Preempted);
        return mutexSleep(c, id, mi);
    case LockStage::Preempted:
        return mutexSleep(c, id, mi);
    case LockStage::Waiting:
    case LockStage::WaiterSpinning: {
        // __mutex_trylock_or_handoff(lock, first): the first waiter that finds the lock taken asks
        // for it; it spins while that owner runs, else sleeps again.
        const bool first = !m.waiters.empty() && m.waiters.front() == id;
        if (!first) return mutexSleep(c, id, mi);
        m.handoff = true;
        if (canSpin(c, m)) return startSpin(id, mi, LockStage::WaiterSpinning);
        // The waiter's mutex_optimistic_spin() has no can-spin gate: it fails at once and, on
        // need_resched(), reschedules while runnable (the kernel then loops once more without
        // sleeping; the engine re-checks when the task runs again).
        if (rqs_[size_t(c)].flag[size_t(ReschedBit::Eager)])
            return spinRescheduled(c, id, LockStage::Waiting);
        return mutexSleep(c, id, mi);
    }
    }
    return Step::Continue;
}

Engine::Step Engine::mutexUnlock(CpuId c, TaskId id, int32_t mi) {
    Mutex& m = mutexes_[size_t(mi)];
    Task& t = tasks_[size_t(id)];
    t.held.erase(std::remove(t.held.begin(), t.held.end(), mi), t.held.end());
    m.owner = kNoTask;
    if (m.waiters.empty())
        m.handoff = false; // __mutex_remove_waiter() cleared the flags with the last waiter
    if (m.handoff) {       // __mutex_handoff(): the lock is the first waiter's (MUTEX_FLAG_PICKUP)
        const TaskId w = m.waiters.front();
        m.owner = w;
        m.handoff = false;
        m.handoffs++;
        tasks_[size_t(w)].held.push_back(mi);
    } else if (!m.spinners.empty()) {
        // __mutex_unlock_slowpath() releases the owner word before it takes wait_lock to wake
        // anyone: the osq's first spinner, polling it, takes the lock at once.
        const TaskId s = m.spinners.front();
        m.owner = s;
        tasks_[size_t(s)].held.push_back(mi);
    }
    if (!m.waiters.empty()) { // wake_q: the first waiter, no WF_SYNC
        const TaskId w = m.waiters.front();
        Task& wt = tasks_[size_t(w)];
        if (wt.proxyBlocked) {
            proxyWakeWaiter(c, id, w); // still queued (proxy execution)
        } else if (wt.state == TaskState::Sleeping) {
            // 7.1: blocked_on survives proxy_deactivate(), so set_task_blocked_on_waking() marks this
            // waiter too; woken, it is queued as PROXY_WAKING and returned at its first pick.
            if (cfg_.proxyExecOn() && cfg_.has(Rule::ProxyDonorMigration))
                wt.proxyBlocked = wt.proxyWaking = true;
            tryToWakeUp(w, c, id, false);
        }
    }
    wakeSpinners(m);
    // Out of the last critical section the task is back on its way out of the kernel.
    if (t.held.empty())
        t.resume = Resume::ExitToUserNext;
    else {
        advanceOp(t);
        t.opMode = ExecMode::Kernel;
    }
    return Step::Continue;
}

// The spinners re-check at once: the lock changed hands, or its owner left its CPU.
void Engine::wakeSpinners(const Mutex& m) {
    for (const TaskId s : m.spinners)
        queue_.push(now_, now_, EventKind::MutexSpin, s, 0);
}

void Engine::ownerLeftCpu(TaskId owner) {
    for (const int32_t mi : tasks_[size_t(owner)].held)
        wakeSpinners(mutexes_[size_t(mi)]);
}

// A spinner's check: its spin ends now and the lock op's action decides what follows.
void Engine::onMutexSpin(TaskId id) {
    Task& t = tasks_[size_t(id)];
    if (t.lockStage != LockStage::Spinning && t.lockStage != LockStage::WaiterSpinning) return;
    const CpuId c = t.cpu;
    if (rqs_[size_t(c)].curr != id) return;
    ctxCpu_ = c;
    syncProgress(c);
    t.remaining = 0;
    reprogram(c);
}

} // namespace sched
