// SPDX-License-Identifier: GPL-3.0-or-later
// A kernel struct mutex (kernel/locking/mutex.c) as the engine keeps it: the owner, the
// MUTEX_FLAG_HANDOFF bit, the FIFO wait_list and the optimistic spinners (the osq, in order).
// A program takes one with {"lock": NAME} and gives it back with {"unlock": NAME}; the ops
// between run inside the kernel (mutex.cpp says how each step follows the kernel's).
#pragma once

#include "base/types.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace sched {

struct Mutex {
    std::string name;
    TaskId owner = kNoTask;     // __mutex_owner(); a handoff sets it to the first waiter (MUTEX_FLAG_PICKUP)
    bool handoff = false;       // MUTEX_FLAG_HANDOFF: the woken first waiter lost the lock and asked for it
    std::deque<TaskId> waiters; // lock->wait_list: __mutex_add_waiter() at the tail, woken from the head
    std::vector<TaskId> spinners; // in mutex_optimistic_spin(): the osq's order, the first one gets it
    // What the run did with it (the report's lock line).
    int64_t acquired = 0, contended = 0, slept = 0, handoffs = 0;
    Time waitSum = 0, waitMax = 0; // from a contended mutex_lock() to owning it
    // Proxy execution (proxy_exec.cpp): how long an owner ran on a waiter's scheduling context, how
    // often find_proxy_task() chose the owner for a picked waiter, how often a picked waiter had to
    // sleep after all (proxy_deactivate(): its owner asleep, or before 7.1 on another CPU), and
    // from 7.1 how often a waiter moved to its owner's CPU (proxy_migrate_task()) and a woken or
    // ownerless one was sent back to the CPU it was woken for (proxy_force_return()).
    Time proxied = 0;
    int64_t proxyRuns = 0, proxyDeactivations = 0, proxyMigrations = 0, proxyReturns = 0;
};

// Where a task stands inside mutex_lock() (__mutex_lock_common()) while it does not own the lock.
enum class LockStage : uint8_t {
    None,           // not in mutex_lock()
    Spinning,       // mutex_optimistic_spin() before queueing, on the owner while it runs
    Preempted,      // left the spin for need_resched(); when it runs again: the slow path
    Waiting,        // on the wait_list; when it runs again it was woken (or preempted after a spin)
    WaiterSpinning, // the first waiter, woken, spinning on the owner (mutex_optimistic_spin(waiter))
};

} // namespace sched
