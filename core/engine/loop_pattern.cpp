// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/loop_pattern.h"

namespace sched {

namespace {
// What beginOp() and the planner's walk (batch.cpp) do for op, if it needs CPU time
// without a draw through a distribution and its action can only be a reserved channel operation.
// op.unplannable (a stopwatch, a cycle class) is set by Engine::addProgram().
bool stepOf(const Op& op, LoopPattern::Step& s) {
    if (op.unplannable) return false;
    switch (op.kind) {
    case OpKind::Run: {
        if (op.duration.kind != Distribution::Kind::Fixed) return false;
        Rng none; // a fixed distribution draws nothing
        s.base = op.duration.sample(none);
        s.mode = op.mode;
        s.chanOp = LoopPattern::kNoChannelOp;
        break;
    }
    case OpKind::Write:
    case OpKind::Read:
        if (op.measureWake || op.channel < 0) return false;
        s.base = syscallCostBase(op); // as cpuPhase() draws it
        s.range = syscallCostRange(op);
        s.mode = ExecMode::Kernel;
        s.chanOp = uint32_t(op.channel) << 1 | (op.kind == OpKind::Write ? 1u : 0u);
        break;
    default:
        return false;
    }
    return s.base > 0; // every chain ends at the next body op's CPU phase
}
} // namespace

LoopPattern LoopPattern::of(const Program& p) {
    for (size_t i = 0; i < p.ops.size(); ++i) {
        const Op& loop = p.ops[i];
        if (loop.kind != OpKind::Loop || loop.until > 0 || loop.count < 0 || loop.loopSlot < 0 ||
            loop.target < 0 || size_t(loop.target) >= i)
            continue;
        LoopPattern lp;
        lp.target = uint32_t(loop.target);
        lp.count = loop.count;
        lp.loopSlot = loop.loopSlot;
        lp.steps.resize(i - size_t(loop.target));
        bool ok = !loop.unplannable;
        for (size_t j = 0; ok && j < lp.steps.size(); ++j)
            ok = stepOf(p.ops[lp.target + j], lp.steps[j]);
        if (ok) return lp;
    }
    return {};
}

} // namespace sched
