// SPDX-License-Identifier: GPL-3.0-or-later
// A run as the kernel's tracer would have recorded it: the sched_* and tracing_mark_write
// records in emission order, each with the context tracing_gen_ctx() captures (the task on the
// CPU, irqs-off, the need-resched bits, preempt depth). Both writers — ftrace text and the
// trace-cmd binary — render this one stream, so they cannot disagree about what happened.
#pragma once

#include "trace/trace.h"

#include <array>
#include <cstdint>
#include <vector>

namespace sched {

// What part of a run the writers render, and how its timestamps are printed.
struct FtraceExportOptions {
    Time offset = 0; // added to every timestamp (an imported trace's first timestamp, or a boot-like 100 s)
    Time from = 0, to = -1; // the time range to write (-1: to the end)
};

struct FtraceEvent {
    enum class Kind : uint8_t { Fork, WakeupNew, Waking, Migrate, Wakeup, Exit, Switch, Mark };
    Time time;
    uint64_t order; // ties at one time: in the order the kernel emits them
    Kind kind;
    uint16_t cpu;
    int32_t a = -1,
            b = -1; // kind-specific: wakeup / migration / marker index; switch: prev, next task (-1 = idle);
                    // waking: the CPU before selection or -1; migrate inside a wakeup: that wakeup
    uint8_t point = 0; // switch: how prev left (SwitchPoint)
};

// What the record's common fields carry (trace_event_buffer_reserve() -> tracing_gen_ctx()).
struct FtraceContext {
    int32_t task = -1;        // TaskId running on the CPU when the record was made (-1: idle)
    bool irqsOff = false;     // TRACE_FLAG_IRQS_OFF
    bool hardirq = false;     // TRACE_FLAG_HARDIRQ: a wakeup from an interrupt (hrtimer expiry)
    bool softirq = false;     // TRACE_FLAG_SOFTIRQ: load balancing in SCHED_SOFTIRQ
    bool needResched = false; // TIF_NEED_RESCHED (with the preempt-count fold: TRACE_FLAG_PREEMPT_RESCHED)
    bool needReschedLazy = false;
    uint8_t preemptDepth = 0;
};

class FtraceEvents {
  public:
    FtraceEvents(const Trace& trace, const FtraceExportOptions& opts);
    size_t size() const { return events_.size(); }
    int cpus() const { return int(perCpuCount_); }

    // Calls f(event, context) for every record in time order. Single pass (the need-resched
    // cursors only move forward).
    template <class F> void forEach(F&& f) {
        std::vector<int32_t> current(perCpuCount_, -1);
        for (const FtraceEvent& e : events_) {
            FtraceContext ctx = contextOf(e, current);
            f(e, ctx);
            if (e.kind == FtraceEvent::Kind::Switch && e.cpu < current.size()) current[e.cpu] = e.b;
        }
    }

    // prev_state as __trace_sched_switch_state() reports it: a state bit, or TASK_REPORT_MAX
    // (0x100, printed "R+") for a preemption (SM_PREEMPT).
    static int64_t prevStateBits(uint8_t point, const TraceTask& t);
    static const char* prevStateText(uint8_t point, const TraceTask& t);

  private:
    struct Flip {
        Time t;
        int8_t bit, delta;
    };
    FtraceContext contextOf(const FtraceEvent& e, const std::vector<int32_t>& current);
    void needReschedAt(uint16_t c, Time t, FtraceContext& ctx, bool setsOnlyAtT = false);

    const Trace& trace_;
    std::vector<FtraceEvent> events_;
    size_t perCpuCount_ = 0;
    std::vector<std::vector<Flip>> flips_;
    std::vector<size_t> cursor_;
    std::vector<std::array<int, 2>> bits_;
};

} // namespace sched
