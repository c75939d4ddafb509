// SPDX-License-Identifier: GPL-3.0-or-later
#include "base/types.h"

#include <array>

namespace sched {

std::string_view policyName(Policy p) {
    switch (p) {
    case Policy::Normal:
        return "SCHED_NORMAL";
    case Policy::Fifo:
        return "SCHED_FIFO";
    case Policy::RR:
        return "SCHED_RR";
    case Policy::Batch:
        return "SCHED_BATCH";
    case Policy::Idle:
        return "SCHED_IDLE";
    }
    return "?";
}

bool parsePolicy(std::string_view s, Policy& out) {
    struct Name {
        std::string_view name;
        Policy p;
    };
    static constexpr std::array<Name, 10> names{{{"normal", Policy::Normal},
                                                 {"other", Policy::Normal},
                                                 {"SCHED_NORMAL", Policy::Normal},
                                                 {"SCHED_OTHER", Policy::Normal},
                                                 {"batch", Policy::Batch},
                                                 {"SCHED_BATCH", Policy::Batch},
                                                 {"idle", Policy::Idle},
                                                 {"SCHED_IDLE", Policy::Idle},
                                                 {"fifo", Policy::Fifo},
                                                 {"rr", Policy::RR}}};
    for (const auto& n : names)
        if (n.name == s) {
            out = n.p;
            return true;
        }
    if (s == "SCHED_FIFO") {
        out = Policy::Fifo;
        return true;
    }
    if (s == "SCHED_RR") {
        out = Policy::RR;
        return true;
    }
    return false;
}

std::string_view preemptModelName(PreemptModel m) {
    switch (m) {
    case PreemptModel::None:
        return "none";
    case PreemptModel::Voluntary:
        return "voluntary";
    case PreemptModel::Full:
        return "full";
    case PreemptModel::Lazy:
        return "lazy";
    }
    return "?";
}

bool parsePreemptModel(std::string_view s, PreemptModel& out) {
    for (auto m : {PreemptModel::None, PreemptModel::Voluntary, PreemptModel::Full, PreemptModel::Lazy})
        if (preemptModelName(m) == s) {
            out = m;
            return true;
        }
    return false;
}

std::string_view execModeName(ExecMode m) {
    switch (m) {
    case ExecMode::User:
        return "user";
    case ExecMode::Kernel:
        return "kernel";
    case ExecMode::KernelNoPreempt:
        return "kernel-nopreempt";
    }
    return "?";
}

std::string_view reschedReasonName(ReschedReason r) {
    static constexpr std::array<std::string_view, size_t(ReschedReason::Count)> names{
        "wakeup preemption",
        "slice expired",
        "slice protection ended",
        "lazy promoted at tick",
        "wakeup on idle CPU",
        "higher-class wakeup",
        "RR slice expired",
        "hrtick",
        "attribute change",
        "fair_server started",
        "fair_server budget used",
        "RT throttled",
        "RSEQ slice extension expired",
        "RSEQ slice extension ended",
        "proxy: idle picks again"};
    return names[size_t(r)];
}

std::string_view sliceExtEndName(SliceExtEnd e) {
    static constexpr std::array<std::string_view, size_t(SliceExtEnd::Count)> names{"yielded", "expired",
                                                                                    "revoked", "aborted"};
    return names[size_t(e)];
}

std::string_view switchPointName(SwitchPoint p) {
    static constexpr std::array<std::string_view, size_t(SwitchPoint::Count)> names{
        "blocked",        "exited",       "sched_yield",   "exit to user", "IRQ return",
        "preempt_enable", "cond_resched", "might_resched", "idle exit",    "schedule (runnable)",
        "blocked (D)",    "blocked (I)"};
    return names[size_t(p)];
}

std::string_view prevStateName(PrevState s) {
    switch (s) {
    case PrevState::Running:
        return "R";
    case PrevState::Preempted:
        return "R+";
    case PrevState::Sleeping:
        return "S";
    case PrevState::Dead:
        return "X";
    }
    return "?";
}

} // namespace sched
