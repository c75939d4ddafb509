// SPDX-License-Identifier: GPL-3.0-or-later
// What a task does: a small program of operations (run, sleep, timers, channels, fork, loops).
// Workload models (massive_intr, cyclictest, messaging, kernbench) are built from these.
#pragma once

#include "base/distribution.h"
#include "base/types.h"
#include "engine/loop_counters.h"

#include <string>
#include <vector>

namespace sched {

enum class OpKind : uint8_t {
    Run,          // consume CPU for a drawn duration in user or kernel mode
    Sleep,        // nanosleep(): relative hrtimer sleep; or schedule_timeout() on the timer wheel
    TimerWait,    // clock_nanosleep(TIMER_ABSTIME) on a periodic grid (cyclictest)
    Write,        // post one message to a channel; block while it is full
    Read,         // take one message from a channel; block while it is empty
    Fork,         // create children running another program (wake_up_new_task)
    WaitChildren, // wait() until none is left: block until every child has exited
    WaitChild,    // wait() once: reap one exited child, blocking until one exits (make's jobserver)
    Yield,        // sched_yield()
    SliceRequest, // rseq: set slice_ctrl.request before a critical section (a store, no syscall)
    SliceYield,   // rseq: after it, clear the request; if the kernel granted an extension, rseq_slice_yield()
    MutexLock, // mutex_lock() of mutex `channel` in the kernel: spin on a running owner, or wait (mutex.cpp)
    MutexUnlock, // mutex_unlock(): wake the first waiter, or hand the lock to it if it asked
    Loop,        // jump back to `target` (count times, 0 = forever)
    Exit
};
std::string_view opKindName(OpKind k);

struct Op {
    OpKind kind = OpKind::Run;
    ExecMode mode = ExecMode::User; // Run
    Distribution duration;          // Run: work; Sleep: sleep length
    Time condReschedEvery = 0;      // Run in kernel mode: cond_resched() spacing in work time (0 = none)
    Time mightReschedEvery = 0;     // Run in kernel mode: might_resched() spacing (0 = none)
    Time cost = 0;                  // syscall ops: kernel time spent before the operation
    Time costJitter = 0;            // ... drawn uniformly from cost +- costJitter (0 = exactly cost)
    Time period = 0;                // TimerWait
    int32_t channel = -1;           // Write / Read: the channel; MutexLock / MutexUnlock: the mutex
    int32_t target = 0;             // Loop: op index; Fork: program index
    int64_t count = 0;              // Loop: iterations (0 = forever); Fork: children
    Time until =
        0; // Loop: repeat while the task has existed less than this (massive_intr's runtime); 0 = use count
    int32_t loopSlot = -1;    // Loop: index of this loop's counter in Task::loopLeft
    bool thread = false;      // Fork: children are threads of the parent's process
    bool measureWake = false; // Read: record wake-up to run latency when it had to block (schbench)
    bool jiffies = false;     // Sleep: schedule_timeout(), a timer-wheel timer that fires on a tick
    bool idleWait = false;    // Sleep / Read: the wait is in TASK_IDLE (a kernel thread's), prev_state I
    uint8_t clock = 0; // request stopwatch at the op's start: 1 = start, 2 = stop and record (schbench)
    int8_t cycle =
        -1; // Run / Sleep: drawn from the task's class in Program::cycles[cycle] (at most kMaxCycles)
    // Set when the engine takes the program: beginning this op cannot be planned into a batch (a
    // stopwatch, or a cycle's class draw), so the batch planner tests one byte.
    bool unplannable = false;
};
constexpr int kMaxCycles = 127;

// Whether the op's CPU phase is a system call's kernel time, run in kernel mode before its action:
// every op but a run, a loop, an exit (do_exit() has no such phase here) and the stores to the
// rseq area that ask for and give back a slice extension.
inline bool isSyscall(const Op& op) {
    return op.kind != OpKind::Run && op.kind != OpKind::Loop && op.kind != OpKind::Exit &&
           op.kind != OpKind::SliceRequest && op.kind != OpKind::SliceYield;
}

// A syscall op's kernel time is base + a uniform draw below range: cost +- costJitter, or exactly
// cost (range 0, nothing drawn). The batch planner's loop patterns (loop_pattern.cpp) keep the two.
inline Time syscallCostBase(const Op& op) {
    return op.costJitter > 0 ? op.cost - op.costJitter : op.cost;
}
inline uint64_t syscallCostRange(const Op& op) {
    return op.costJitter > 0 ? uint64_t(2 * op.costJitter + 1) : 0;
}

// The CPU time an op needs before its action, drawn when it begins: a run's work, a syscall's
// kernel time, nothing for a loop or an exit.
inline Time cpuPhase(const Op& op, Rng& rng) {
    switch (op.kind) {
    case OpKind::Run:
        return op.duration.sample(rng);
    case OpKind::Loop:
    case OpKind::Exit:
    case OpKind::SliceRequest: // stores to the rseq area (rseq_slice_yield() itself is not timed)
    case OpKind::SliceYield:
        return 0;
    default: {
        const uint64_t range = syscallCostRange(op);
        return syscallCostBase(op) + (range > 0 ? Time(rng.below(range)) : 0);
    }
    }
}

// A counted loop's step on its counter (0 = not started).
inline bool loopCounts(const Op& op, int64_t& left) {
    if (left == 0) left = op.count;
    return --left > 0;
}

// Whether a Loop op goes back to its target: while the task has existed less than `until`
// (massive_intr's "while (time() - start < runtime)"), forever (count 0), or count times by the
// task's counter for this loop.
inline bool loopJumps(const Op& op, Time sinceStart, LoopCounters& loopLeft) {
    if (op.until > 0) return sinceStart < op.until;
    if (op.count == 0) return true;
    return loopCounts(op, loopLeft[size_t(op.loopSlot)]);
}

// A run-then-sleep cycle whose lengths have memory (derived scenarios: a task that has just run
// briefly tends to run briefly again): the cycle's class follows a Markov chain. A Run op bound
// to it draws its work from the task's current class, the Sleep op after it draws its length
// from the same class and then moves the task to the next class.
struct CycleClasses {
    std::vector<Distribution> run, sleep;
    std::vector<std::vector<double>> next; // per class: cumulative probabilities of the next class
    std::vector<double> share;             // cumulative: the first cycle's class

    static size_t draw(const std::vector<double>& cumulative, Rng& rng) {
        const double u = rng.uniform01();
        size_t k = 0;
        while (k + 1 < cumulative.size() && u >= cumulative[k])
            ++k;
        return k;
    }
};

struct Program {
    std::string name;
    std::vector<Op> ops;
    int loopSlots = 0;
    std::vector<CycleClasses> cycles{};
    // Assigns loop slots; returns an error text (empty if fine), e.g. a loop whose body can
    // never consume time or block, which would spin the simulator forever.
    std::string finalize();
};

} // namespace sched
