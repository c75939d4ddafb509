// SPDX-License-Identifier: GPL-3.0-or-later
// A simulated task: identity and attributes (task_struct), its sched_entity, where it is in its
// program, and the per-task counters the kernel keeps (nvcsw, nivcsw, sum_exec_runtime).
#pragma once

#include "base/rng.h"
#include "base/types.h"
#include "engine/loop_counters.h"
#include "engine/mutex.h"
#include "engine/pelt.h"
#include "engine/sched_entity.h"

#include <bitset>
#include <string>
#include <vector>

namespace sched {

using CpuMask = std::bitset<kMaxCpus>;

enum class TaskState : uint8_t { NotStarted, Runnable, Running, Sleeping, Dead };

// What a task does when it next gets the CPU after having left it inside an operation.
enum class Resume : uint8_t {
    Continue,       // preempted in the middle of work: carry on
    Next,           // the operation is complete: go to the next one
    ExitToUserNext, // still in the kernel: pass the exit-to-user point, then the next op
    Retry,          // woken while blocked in a channel op / wait(): try again
    TimerFired      // woken by its periodic timer: record the latency, then the next op
};

// The first two cache lines hold what a batch (batch.cpp) reads and moves: its work and
// program position, its random stream and its loop counters (the first in place,
// loop_counters.h). Spread over five lines before, they cost the seed-size messaging run 8 % of
// its first-level cache misses (cachegrind with this machine's 48 KiB L1 at a tenth of the run:
// 46.2 M -> 42.6 M; the counters in place, with the batch's channel list in its record, 34.9 M
// -> 31.2 M).
constexpr Time kNeverRan = INT64_MIN / 2;

struct alignas(64) Task {
    // program position and the work of the current op (line 0)
    int32_t program = 0;
    uint32_t ip = 0;
    bool opStarted = false;
    ExecMode opMode = ExecMode::User;
    Resume resume = Resume::Next;
    bool blockedOnRead = false; // Op::measureWake: a blocking read's wait is running
    Time remaining = 0;         // work left in the current op's CPU phase
    Time overhead = 0;          // non-preemptible kernel time to burn first (switch, wakeup, migration cost)
    Time opDone = 0;            // work done in the current op (places the cond_resched() points)
    // CPU time in user and in kernel mode (getrusage's ru_utime / ru_stime); next to the work
    // fields, which batches move with them
    Time utime = 0, stime = 0;
    int64_t iterations = 0; // times a loop op was passed (massive_intr's loop counter)
    // (line 1)
    Rng rng;
    LoopCounters loopLeft;

    Time startedAt = -1; // when it was forked or started (a Loop's `until` counts from here)

    // identity
    int32_t pid = 0, tgid = 0;
    TaskId parent = kNoTask;
    std::string comm;
    Policy policy = Policy::Normal;
    int32_t taskGroup = -1; // task_group(): its cgroup or autogroup (task_group.h); -1 = root
    int nice = 0;
    int rtPriority = 0; // 1..99 for FIFO/RR
    CpuMask affinity;
    CpuId cpu = 0;
    bool fixedStartCpu = false; // the scenario placed it; no fork balancing
    TaskState state = TaskState::NotStarted;
    std::vector<int8_t> cycleClass; // per Program::cycles: the class of the current cycle (-1: none yet)

    // timers and waiting
    uint32_t timerGen = 0;
    Time timerNext = -1;   // TimerWait: next absolute expiry on the grid
    Time timerExpiry = -1; // expiry that woke the task (latency = run time - expiry)
    int32_t channelWait = -1;
    // mutex_lock() (mutex.cpp): the mutex it waits or spins for (p->blocked_on while queued),
    // where in mutex_lock() it stands, since when it has wanted the lock, and the mutexes it owns.
    int32_t blockedOn = -1;
    LockStage lockStage = LockStage::None;
    // task_is_blocked() under proxy execution (proxy_exec.cpp): asleep on blockedOn's wait list in
    // TASK_UNINTERRUPTIBLE, yet still queued, so that the pick can choose it as a donor.
    bool proxyBlocked = false;
    // From 7.1 (b049b81bdff6): the unlock set blocked_on to PROXY_WAKING - woken, still queued,
    // to be returned before it runs (proxy_force_return()); and p->wake_cpu where it differs from
    // the CPU the task is queued on: a donor moved to its owner's CPU by __set_task_cpu() keeps
    // the CPU it was woken for until a set_task_cpu() (-1: the same).
    bool proxyWaking = false;
    CpuId proxyHome = -1;
    Time lockWantedSince = 0;
    std::vector<int32_t> held;
    int liveChildren = 0;
    int unreaped = 0; // children that exited and were not yet reaped by a WaitChild
    bool waitingChildren = false;
    // record_wakee(): how often it switched between wakees (halved every second), for wake_wide()
    TaskId lastWakee = kNoTask;
    uint32_t wakeeFlips = 0;
    Time wakeeFlipDecayAt = 0;
    int rrTicksLeft = 0;
    bool rrExpired = false;
    // The RSEQ time-slice extension (7.0, rseq_slice_ext.cpp): the user's request byte
    // (rseq->slice_ctrl.request), the kernel's grant (rseq.slice.state.granted) since when, whether
    // its timer fired, and the timer's generation.
    bool sliceRequest = false;
    bool rseqV1 =
        false; // a 32-byte rseq area: no extensions where the v2 ABI is required (rseq-v2-slice-ext)
    bool sliceGranted = false;
    bool sliceExpired = false;
    Time sliceGrantedAt = 0;
    uint32_t sliceTimerGen = 0;

    // scheduler state and accounting
    // For task_hot(): when it last left a CPU (se.exec_start); kNeverRan: never ran here = cold.
    Time lastRanAt = kNeverRan;
    int64_t nvcsw = 0, nivcsw = 0, nrMigrations = 0;
    // A grouped task's se->avg (its time on the runqueue, PELT-averaged, times its weight) and the
    // CPU whose group cfs_rq holds it (-1: not attached yet); it moves with the task (fair_group.cpp).
    LoadAvg seAvg;
    CpuId loadCpu = -1;
    bool loadTracked = false; // seAvg was initialised once: a re-attach ages it (ATTACH_AGE_LOAD)
    Time exitedAt = -1;

    // periodic-timer latency (cyclictest's measurement)
    int64_t latCount = 0;
    Time latMin = kNever, latMax = 0, latSum = 0, latLast = 0;
    std::vector<int64_t>
        latHist; // samples per whole microsecond of latency (grown as needed, last bin: 1 s and more)

    // wake-up latency of a blocking read (Op::measureWake; blockedOnRead above) and request times (Op::clock)
    Time wokenAt = -1;
    Time reqStart = -1;
    std::vector<int64_t> reqHist;   // requests per whole microsecond of duration
    std::vector<int32_t> reqPerSec; // requests completed in each second of the run

    int kernelPrio() const { return isRtPolicy(policy) ? 99 - rtPriority : 120 + nice; }
};

} // namespace sched
