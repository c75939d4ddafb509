// SPDX-License-Identifier: GPL-3.0-or-later
// Lining up two runs at an event both have: a simulation starts its workload at 0, a trace from
// a real machine somewhere after the tracer started, and two runs of one scenario diverge after
// a change. The events offered are the ones a person would name: the first event, a marker both
// carry (a live change, the traces' "VALID root=" line), the first time a task group runs, the
// first time it is woken.
#pragma once

#include "trace/trace.h"

#include <string>
#include <vector>

namespace sched {

struct AlignPoint {
    std::string key;   // "start", "run:COMM", "wake:COMM", "marker:TEXT" (the CLI's --align)
    std::string label; // "first run of COMM", ...
    Time a = 0, b = 0; // when it happens in each run
    Time shift() const { return b - a; } // B's time = A's time + shift
};

// Every event both runs have, "start" first, then per task group (in A's order of first run)
// its first run and first wakeup, then the markers both carry (their first occurrence).
std::vector<AlignPoint> alignmentPoints(const Trace& a, const Trace& b);

// The point named by key (as in AlignPoint::key); false with `error` saying what is accepted
// and which keys these two runs offer.
bool findAlignment(const Trace& a, const Trace& b, const std::string& key, AlignPoint& out,
                   std::string& error);

} // namespace sched
