// SPDX-License-Identifier: GPL-3.0-or-later
// The recorded run: columnar (struct-of-arrays) so that a slice costs 16 bytes (its times in
// 4 bytes each: trace/time_column.h) and views can scan one column at a time. The same type holds imported
// traces of real machines, so every metric and view works on both.
#pragma once

#include "base/types.h"
#include "trace/column.h"
#include "trace/eevdf_samples.h"
#include "trace/time_column.h"

#include <string>
#include <vector>

namespace sched {

struct TraceTask {
    int32_t pid = 0;
    int32_t tgid = 0;
    std::string comm;
    int prio = 120;   // kernel prio as the tracepoints print it (120 + nice, 99 - rt_priority)
    int32_t ppid = 0; // the parent's pid (sched_process_fork), 0 if unknown
};

// One slice = one contiguous stretch of a task on a CPU, from switch-in to switch-out.
struct Slices {
    TimeColumn start, end;
    TraceColumn<TaskId> task;
    TraceColumn<uint16_t> cpu;
    TraceColumn<uint8_t> endPoint;  // SwitchPoint, or kStillRunning
    TraceColumn<uint8_t> endReason; // ReschedReason of the bit acted on, or kNoReason
    size_t size() const { return start.size(); }
    void push(Time s, Time e, TaskId t, uint16_t c, uint8_t point, uint8_t reason) {
        start.push_back(s);
        end.push_back(e);
        task.push_back(t);
        cpu.push_back(c);
        endPoint.push_back(point);
        endReason.push_back(reason);
    }
    // Bytes the slices take (not what the columns reserve): 16 a slice and a little per block.
    size_t bytes() const {
        return start.bytes() + end.bytes() +
               size() * (sizeof(TaskId) + sizeof(uint16_t) + 2 * sizeof(uint8_t));
    }
};
constexpr uint8_t kStillRunning = 0xff;
constexpr uint8_t kNoReason = 0xff;

// A need-resched bit from set to clear.
struct FlagIntervals {
    TimeColumn set, clear;
    TraceColumn<TaskId> task;
    TraceColumn<uint16_t> cpu;
    TraceColumn<uint8_t> bit;    // ReschedBit
    TraceColumn<uint8_t> reason; // ReschedReason
    TraceColumn<uint8_t>
        clearedBy; // SwitchPoint of the __schedule() that cleared it, kStillRunning, or kClearedBySliceExt
    size_t size() const { return set.size(); }
    void push(Time s, Time c, TaskId t, uint16_t onCpu, uint8_t b, uint8_t why, uint8_t by) {
        set.push_back(s);
        clear.push_back(c);
        task.push_back(t);
        cpu.push_back(onCpu);
        bit.push_back(b);
        reason.push_back(why);
        clearedBy.push_back(by);
    }
};

struct Wakeups {
    TimeColumn time;
    TraceColumn<TaskId> waker; // kNoTask: an interrupt (timer) woke it
    TraceColumn<TaskId> wakee;
    TraceColumn<uint16_t> wakerCpu, targetCpu;
    TraceColumn<uint8_t> isNew; // sched_wakeup_new
    size_t size() const { return time.size(); }
    void push(Time t, TaskId by, TaskId who, uint16_t byCpu, uint16_t target, bool fresh) {
        time.push_back(t);
        waker.push_back(by);
        wakee.push_back(who);
        wakerCpu.push_back(byCpu);
        targetCpu.push_back(target);
        isNew.push_back(fresh ? 1 : 0);
    }
};

// The kernel path that moved a task, which sets the context its sched_migrate_task is recorded in.
enum class MigrationPath : uint8_t {
    Unknown,     // an imported trace's (its line's flags are not kept)
    Wakeup,      // try_to_wake_up(): select_task_rq() chose another CPU
    NewIdle,     // sched_balance_newidle() in __schedule(), before the switch to idle or the pulled task
    Balance,     // sched_balance_rq() from the SCHED_SOFTIRQ of a CPU's own tick
    NohzBalance, // _nohz_idle_balance(): the idle load balancer's SCHED_SOFTIRQ, for itself or another CPU
    ProxyReturn, // proxy_force_return() in __schedule()'s find_proxy_task()
};

// A task moved between CPUs: set_task_cpu()'s sched_migrate_task.
struct Migrations {
    TimeColumn time;
    TraceColumn<TaskId> task;
    TraceColumn<uint16_t> from, to;
    // The CPU that ran set_task_cpu(), where a trace records the event: the waker's for a wake-up,
    // the balancing CPU for a pull (the idle-load-balancer's when it balances for another idle CPU),
    // the CPU whose __schedule() sent a proxy-execution waiter back.
    TraceColumn<uint16_t> on;
    TraceColumn<MigrationPath> path;
    size_t size() const { return time.size(); }
    void push(Time t, TaskId who, uint16_t src, uint16_t dst, uint16_t onCpu, MigrationPath how) {
        time.push_back(t);
        task.push_back(who);
        from.push_back(src);
        to.push_back(dst);
        on.push_back(onCpu);
        path.push_back(how);
    }
};

// RSEQ time-slice extensions (7.0): each from its grant to its end, and how it ended (SliceExtEnd).
struct SliceExts {
    TimeColumn granted, end;
    TraceColumn<TaskId> task;
    TraceColumn<uint16_t> cpu;
    TraceColumn<uint8_t> how;
    size_t size() const { return granted.size(); }
    void push(Time g, Time e, TaskId t, uint16_t c, uint8_t h) {
        granted.push_back(g);
        end.push_back(e);
        task.push_back(t);
        cpu.push_back(c);
        how.push_back(h);
    }
};
// A flag interval's clearedBy when an RSEQ slice extension's grant cleared the bits (no switch).
constexpr uint8_t kClearedBySliceExt = 0xfe;

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
    EevdfSamples samples; // packed: trace/eevdf_samples.h
    SliceExts sliceExts;
    std::vector<Marker> markers;
    Time endTime = 0;

    size_t memoryBytes() const;
};

} // namespace sched
