// SPDX-License-Identifier: GPL-3.0-or-later
// The architecture a kernel runs on, where the scheduler's behaviour depends on it: which
// preemption models it can build (kernel/Kconfig.preempt) and whether HRTICK is on by default
// (7.1's CONFIG_HRTIMER_REARM_DEFERRED). A machine property, "machine.arch" in a scenario.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace sched {

struct ArchInfo {
    std::string_view name;     // as uname -m spells it ("x86_64", "arm64", "alpha")
    bool preemptLazy;          // selects ARCH_HAS_PREEMPT_LAZY: the lazy model exists (6.13+)
    bool noPreempt;            // selects ARCH_NO_PREEMPT: the kernel can never be preempted
    bool hrtimerRearmDeferred; // CONFIG_HRTIMER_REARM_DEFERRED is set (7.1: HRTICK on by default)
};

using ArchId = uint8_t;
std::span<const ArchInfo> archs();
const ArchInfo& archInfo(ArchId a);
// The id of a name, or -1.
int findArch(std::string_view name);
// "x86_64, arm64, ...": for error messages.
std::string acceptedArchNames();

} // namespace sched
