// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/arch.h"

#include <array>

namespace sched {

namespace {

// ARCH_HAS_PREEMPT_LAZY: the architectures 7dadeaa6e851's message names (arm64, loongarch, powerpc,
// riscv, s390, x86). ARCH_NO_PREEMPT: alpha, hexagon and m68k (but ColdFire) select it; um did until
// 6.11 (cd01672d64a3 "um: Enable preemption in UML").
// CONFIG_HRTIMER_REARM_DEFERRED and CONFIG_RSEQ_SLICE_EXTENSION need GENERIC_ENTRY and
// HAVE_GENERIC_TIF_BITS: x86 has both; for the others it was not verified, so they keep HRTICK off
// as every earlier kernel does and have no slice extension.
constexpr std::array<ArchInfo, 12> kArchs{{
    {"x86_64", true, false, true},
    {"arm64", true, false, false},
    {"powerpc", true, false, false},
    {"riscv", true, false, false},
    {"s390", true, false, false},
    {"loongarch", true, false, false},
    {"arm", false, false, false},
    {"mips", false, false, false},
    {"alpha", false, true, false},
    {"hexagon", false, true, false},
    {"m68k", false, true, false},
    {"um", false, false, false},
}};

} // namespace

std::span<const ArchInfo> archs() {
    return kArchs;
}

const ArchInfo& archInfo(ArchId a) {
    return kArchs[a < kArchs.size() ? a : 0];
}

int findArch(std::string_view name) {
    for (size_t i = 0; i < kArchs.size(); ++i)
        if (kArchs[i].name == name) return int(i);
    return -1;
}

std::string acceptedArchNames() {
    std::string s;
    for (const ArchInfo& a : kArchs) {
        if (!s.empty()) s += ", ";
        s += a.name;
    }
    return s;
}

} // namespace sched
