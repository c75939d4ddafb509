// SPDX-License-Identifier: GPL-3.0-or-later
// What separates two kernel profiles, in words: the rules one has and the other lacks, and the
// preemption models each boots with. For `schedscope-cli kernels A B`, for compare's header and
// for the GUI's kernel comparisons.
#pragma once

#include "engine/kernel_rules.h"

#include <string>
#include <vector>

namespace sched {

// The preemption models this profile accepts ("none, voluntary, full, lazy"), as
// SchedConfig::validate() decides them.
std::string kernelModels(const KernelSpec& k);

struct KernelDiff {
    std::vector<Rule> onlyInA, onlyInB;
    std::string modelsA, modelsB;
    bool same() const { return onlyInA.empty() && onlyInB.empty() && modelsA == modelsB; }
};
KernelDiff diffKernels(const KernelSpec& a, const KernelSpec& b);

// "kernel 6.18 -> 6.18.44: 12 rules differ\n  + yield-forfeit (6.18.2): ...\n": one line per rule,
// '+' for B's own and '-' for A's own; "" when the two are the same kernel.
std::string describeKernelDiff(const KernelSpec& a, const KernelSpec& b);

// The same in one paragraph, rules by name and version only: "kernel 6.18 -> 7.0: 14 rules
// differ. Preemption models: ... Only in 7.0: yield-forfeit (6.18.2), ... Only in 6.18: ...".
std::string summarizeKernelDiff(const KernelSpec& a, const KernelSpec& b);

} // namespace sched
