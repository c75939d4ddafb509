// SPDX-License-Identifier: GPL-3.0-or-later
// The recorded run: columnar (struct-of-arrays) so that a slice costs 24 bytes and views can
// scan one column at a time. The same type holds imported traces of real machines, so every
// metric and view works on both.
#pragma once

#include "types.h"

#include <string>
#include <vector>

namespace sched {

struct TraceTask {
    int32_t pid = 0;
    int32_t tgid = 0;
    std::string comm;
    int prio = 120; // kernel prio as the tracepoints print it (120 + nice, 99 - rt_priority)
    int32_t ppid = 0; // the parent's pid (sched_process_fork), 0 if unknown
};

// One slice = one contiguous stretch of a task on a CPU, from switch-in to switch-out.
struct Slices {
    std::vector<Time> start, end;
    std::vector<TaskId> task;
    std::vector<uint16_t> cpu;
    std::vector<uint8_t> endPoint;  // SwitchPoint, or kStillRunning
    std::vector<uint8_t> endReason; // ReschedReason of the bit acted on, or kNoReason
    size_t size() const { return start.size(); }
    static constexpr size_t kBytesPerSlice = sizeof(Time) * 2 + sizeof(TaskId) + 2 + 1 + 1;
};
constexpr uint8_t kStillRunning = 0xff;
constexpr uint8_t kNoReason = 0xff;

// A need-resched bit from set to clear.
struct FlagIntervals {
    std::vector<Time> set, clear;
    std::vector<TaskId> task;
    std::vector<uint16_t> cpu;
    std::vector<uint8_t> bit;       // ReschedBit
    std::vector<uint8_t> reason;    // ReschedReason
    std::vector<uint8_t> clearedBy; // SwitchPoint of the __schedule() that cleared it, or kStillRunning
    size_t size() const { return set.size(); }
};

struct Wakeups {
    std::vector<Time> time;
    std::vector<TaskId> waker; // kNoTask: an interrupt (timer) woke it
    std::vector<TaskId> wakee;
    std::vector<uint16_t> wakerCpu, targetCpu;
    std::vector<uint8_t> isNew; // sched_wakeup_new
    size_t size() const { return time.size(); }
};

struct Migrations {
    std::vector<Time> time;
    std::vector<TaskId> task;
    std::vector<uint16_t> from, to;
    size_t size() const { return time.size(); }
};

// vruntime / deadline / vlag of one task and V of its runqueue, at a decision that changed them.
struct EevdfSamples {
    std::vector<Time> time;
    std::vector<TaskId> task;
    std::vector<uint16_t> cpu;
    std::vector<int64_t> vruntime, deadline, avgVruntime;
    std::vector<uint8_t> onRq; // 0: the entity just left the runqueue (sleep); its values are stale until the next sample
    size_t size() const { return time.size(); }
};

struct Marker {
    Time time = 0;
    std::string text;
};

struct Trace {
    int cpus = 0;
    std::vector<TraceTask> tasks; // indexed by TaskId
    Slices slices;
    FlagIntervals flags;
    Wakeups wakeups;
    Migrations migrations;
    EevdfSamples samples;
    std::vector<Marker> markers;
    Time endTime = 0;

    size_t memoryBytes() const;
};

} // namespace sched
