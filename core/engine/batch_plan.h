// SPDX-License-Identifier: GPL-3.0-or-later
// A planned batch (batch.cpp): the chains a CPU's running task will run without an event
// each, recorded when they are planned so that running them is replaying the record.
#pragma once

#include "base/rng.h"
#include "base/types.h"
#include "engine/loop_counters.h"

#include <array>

namespace sched {

// One chain: the action of the op whose CPU phase ends at `due`, then the ops begun after it
// until one needs CPU time (the next chain's due, or the batch's end, is where that one ends).
// Small on purpose: a CPU's record is written when planned and read back later, after the other
// CPUs' work has gone through the cache.
struct PlannedChain {
    Time due = 0;
    uint16_t opsEnd = 0;            // its channel operations are BatchPlan::ops[previous opsEnd, opsEnd)
    ExecMode mode = ExecMode::User; // the mode of the op it began
};

// Where a task's program stands (the parts a chain moves).
struct ProgramPosition {
    uint32_t ip = 0;
    bool channelOp = false; // a Write or Read was done (a blocked read's wait is over)
    int64_t iterations = 0; // Loop passes
    Rng rng;
};

constexpr int kMaxChains =
    16; // measured (16 of 12, 16, 24, 32, 48): longer plans mostly reserve room that a cut gives back
constexpr uint32_t kMaxChainOps = 4 * kMaxChains; // channel operations in one plan

// The record's arrays, its loop counters and its list of channels are the CPU's own (a plan
// overwrites them up to `size`), inside its CpuRq: no header or heap buffer to load before them.
// The running task's own program position is not moved chain by chain: it stays where the plan
// began until the whole batch has run (then it takes `last`) or the batch is cut part-way (then
// the chains that ran are walked again from it). The fields every event on the CPU reads come
// first (cpu_rq.h: they share a cache line with the Segment's).
struct BatchPlan {
    int32_t size = 0;     // chains planned
    int32_t next = 0;     // the first chain not run yet
    bool refused = false; // planning stopped at a chain it refused, not at its length or the horizon
    bool resumed = false; // the first chain returns to the program after an action already done: it has none
    Time end = 0;         // when the op the last chain begins ends: the batch's Segment
    ProgramPosition last; // after the last chain
    LoopCounters lastLoops;
    int32_t channelCount =
        0; // channels[0, channelCount): those it holds reservations on (Channel::batchers lists the CPU)
    std::array<PlannedChain, kMaxChains> chains;
    std::array<uint32_t, kMaxChainOps> ops; // channel << 1 | write
    std::array<int32_t, kMaxChainOps>
        channels; // a channel joins only with an op reserved on it: never more than the ops
    bool active() const { return next < size; }
    bool actsFirst(int32_t chain) const {
        return chain > 0 || !resumed;
    } // the chain begins with its op's action
    uint32_t opsBegin(int32_t chain) const { return chain == 0 ? 0 : chains[size_t(chain) - 1].opsEnd; }
    Time dueAfter(int32_t chain) const { return chain + 1 < size ? chains[size_t(chain) + 1].due : end; }
};

} // namespace sched
