// SPDX-License-Identifier: GPL-3.0-or-later
// A program's counted (or endless) loop in the shape the batch planner can walk without interpreting ops
// (batch.cpp): a body of channel operations and fixed runs that each need CPU time, such
// as every messaging, hackbench and pipe ping-pong worker. The planner's generic walk dispatches
// on each op's kind, tests what an op could do and draws through the op's description; for such
// a body all of that is known when the program is taken, so a chain inside it is one precomputed
// step: its channel operation, and the next op's CPU phase and mode.
#pragma once

#include "engine/program.h"

#include <vector>

namespace sched {

struct LoopPattern {
    // The body op at target + j: what its action does on a channel, and what beginning it draws.
    struct Step {
        Time base = 0; // its CPU phase: base, plus a draw below `range` if range > 0
        uint64_t range = 0;
        uint32_t chanOp = 0;            // channel << 1 | write, or kNoChannelOp (a Run)
        ExecMode mode = ExecMode::User; // the mode beginning it sets
    };
    static constexpr uint32_t kNoChannelOp = ~0u;

    uint32_t target = 0;   // the body is ops [target, target + steps.size()), the Loop op right after it
    int64_t count = 0;     // the loop's passes (Op::count), 0: forever (the counter is not used)
    int32_t loopSlot = -1; // its counter in Task::loopLeft
    std::vector<Step> steps;

    bool found() const { return !steps.empty(); }
    bool inBody(uint32_t ip) const { return ip - target < uint32_t(steps.size()); }

    // The first counted or endless loop of p whose body has the shape, or none (found() false).
    // p as the engine holds it (Engine::programs()): addProgram() marks the unplannable ops.
    static LoopPattern of(const Program& p);
};

} // namespace sched
