// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/program.h"

namespace sched {

std::string_view opKindName(OpKind k) {
    switch (k) {
    case OpKind::Run:
        return "run";
    case OpKind::Sleep:
        return "sleep";
    case OpKind::TimerWait:
        return "timer";
    case OpKind::Write:
        return "write";
    case OpKind::Read:
        return "read";
    case OpKind::Fork:
        return "fork";
    case OpKind::WaitChildren:
        return "wait";
    case OpKind::WaitChild:
        return "wait-child";
    case OpKind::Yield:
        return "yield";
    case OpKind::SliceRequest:
        return "slice-request";
    case OpKind::SliceYield:
        return "slice-yield";
    case OpKind::MutexLock:
        return "lock";
    case OpKind::MutexUnlock:
        return "unlock";
    case OpKind::Loop:
        return "loop";
    case OpKind::Exit:
        return "exit";
    }
    return "?";
}

static bool opAdvancesTime(const Op& op) {
    switch (op.kind) {
    case OpKind::Run:
        return op.cycle >= 0 || op.duration.kind != Distribution::Kind::Fixed || op.duration.a > 0 ||
               op.duration.min > 0;
    case OpKind::Sleep:
    case OpKind::TimerWait:
    case OpKind::Read:
    case OpKind::Write:
    case OpKind::WaitChildren:
    case OpKind::WaitChild:
    case OpKind::Exit:
        return true;
    default:
        return op.cost > 0;
    }
}

std::string Program::finalize() {
    loopSlots = 0;
    for (size_t i = 0; i < ops.size(); ++i) {
        Op& op = ops[i];
        if (op.kind != OpKind::Loop) continue;
        if (op.target < 0 || size_t(op.target) > i)
            return "op " + std::to_string(i) + ": loop target must be an earlier op";
        bool advances = false;
        for (size_t j = size_t(op.target); j < i; ++j)
            advances = advances || opAdvancesTime(ops[j]);
        if (!advances)
            return "op " + std::to_string(i) +
                   ": loop body neither runs, sleeps nor blocks (it would spin forever)";
        op.loopSlot = loopSlots++;
    }
    return {};
}

} // namespace sched
