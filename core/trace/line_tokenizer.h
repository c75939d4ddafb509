// SPDX-License-Identifier: GPL-3.0-or-later
// Text traces, line by line, into fields — the tokenizer, apart from the event parser that gives
// the fields their meaning (trace/import.h), as Perfetto's systrace importer splits them. Three
// layouts, each recognised by its shape and split by its own function:
//   ftrace text and trace-cmd report   COMM-PID [CPU] FLAGS TIMESTAMP: EVENT: PAYLOAD
//                                      (trace-cmd report prints no FLAGS)
//   trace-cmd report -l                COMM-PID CPUFLAGS TIMESTAMP: EVENT: PAYLOAD
//                                      (the CPU number run together with the latency flags)
//   perf script                        COMM TID [CPU] TIMESTAMP: sched:EVENT: PAYLOAD
//                                      (with -F ...,pid,tid,...: COMM PID/TID [CPU] ...)
// Nothing here keeps state between lines.
#pragma once

#include "base/types.h"

#include <string>
#include <string_view>

namespace sched {

enum class LineLayout : uint8_t { Ftrace, TraceCmd, TraceCmdLatency, PerfScript };

// One event line's fields, as printed (views into the line).
struct TraceLine {
    LineLayout layout = LineLayout::Ftrace;
    std::string_view comm; // "<idle>" for pid 0, as ftrace prints it
    int32_t pid = 0;
    int32_t tgid = 0; // perf script's "pid/tid" column: the process; 0 where the layout has none
    int cpu = 0;
    std::string_view flags; // the latency flags column ("dN.2."); empty where the layout has none
    Time timestamp = 0;     // ns, as printed (the parser makes it relative to the trace's start)
    std::string_view event; // "sched_switch" (perf script's "sched:" taken off)
    std::string_view payload;
};

enum class LineKind : uint8_t {
    Event,   // line holds the fields
    Comment, // empty or '#': nothing, but ftrace's header may give the CPU count (cpusHint)
    NoCpu, // no CPU field: trace-cmd report's header before the events (it may give cpusHint), else malformed
    Malformed, // why says what is wrong and what would be accepted
};

struct TokenizedLine {
    LineKind kind = LineKind::Comment;
    TraceLine line;
    int cpusHint = 0; // a CPU count the line states ("#P:2", "cpus=2"), 0 if none
    std::string why;
};

// Splits one line (without its newline; a trailing '\r' is ignored).
TokenizedLine tokenizeLine(std::string_view l);

} // namespace sched
