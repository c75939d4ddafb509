// SPDX-License-Identifier: GPL-3.0-or-later
// The architecture a kernel runs on, where the scheduler's behaviour depends on it: which
// preemption models it can build (kernel/Kconfig.preempt), and whether it has the generic entry
// code that 7.0's RSEQ slice extension and 7.1's HRTICK default need. A machine property, "machine.arch" in a
// scenario.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace sched {

struct ArchInfo {
    std::string_view name; // as uname -m spells it ("x86_64", "arm64", "alpha")
    bool preemptLazy;      // selects ARCH_HAS_PREEMPT_LAZY: the lazy model exists (6.13+)
    bool noPreempt;        // selects ARCH_NO_PREEMPT: the kernel can never be preempted
    // GENERIC_ENTRY and HAVE_GENERIC_TIF_BITS: what 7.0's RSEQ_SLICE_EXTENSION and 7.1's
    // HRTIMER_REARM_DEFERRED (HRTICK on by default) depend on.
    bool genericEntryTifBits;
};

using ArchId = uint8_t;
std::span<const ArchInfo> archs();
const ArchInfo& archInfo(ArchId a);
// The id of a name, or -1.
int findArch(std::string_view name);
// "x86_64, arm64, ...": for error messages.
std::string acceptedArchNames();

} // namespace sched
