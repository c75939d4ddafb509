// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/sched_config.h"

#include <algorithm>
#include <bit>

namespace sched {

Time SchedConfig::normalizedSlice() const {
    if (normalizedBaseSlice > 0) return normalizedBaseSlice;
    return has(Rule::BaseSlice700us) ? 700 * kNsPerUs : 750 * kNsPerUs;
}

Time SchedConfig::baseSlice() const {
    if (baseSliceOverride > 0) return baseSliceOverride;
    // get_update_sysctl_factor(): 1 + ilog2(min(ncpus, 8)) for SCHED_TUNABLESCALING_LOG.
    const unsigned n = unsigned(std::min(cpus, 8));
    unsigned factor = 1;
    if (tunableScaling == 1)
        factor = 1 + unsigned(std::bit_width(n) - 1);
    else if (tunableScaling == 2)
        factor = n;
    return normalizedSlice() * Time(factor);
}

std::string SchedConfig::whyNoModel(PreemptModel m) const {
    const ArchInfo& a = archInfo(arch);
    const std::string arch(a.name);
    if (a.noPreempt && m != PreemptModel::None)
        return arch + " cannot preempt its kernel (it selects ARCH_NO_PREEMPT): only none exists there";
    if (m == PreemptModel::Lazy) {
        if (build == KernelBuild::Auto)
            return "the PREEMPT_AUTO build has no lazy model (its laziness is inside the others)";
        if (!has(Rule::LazyModel)) return "the lazy model came with 6.13 (7c70cb94d29c)";
        if (!a.preemptLazy) return arch + " has no lazy preemption (ARCH_HAS_PREEMPT_LAZY)";
    }
    if (has(Rule::RestrictPreemptModels) && !a.noPreempt) {
        // kernel/Kconfig.preempt and sched_dynamic_mode() since 7dadeaa6e851 (7.0).
        if (a.preemptLazy && (m == PreemptModel::None || m == PreemptModel::Voluntary))
            return "gone since 7.0 where lazy preemption exists (7dadeaa6e851), as on " + arch +
                   "; it stays only on architectures without it (machine.arch: arm, mips or um keep "
                   "voluntary; "
                   "alpha, hexagon and m68k only have none)";
        if (m == PreemptModel::None)
            return "since 7.0 (7dadeaa6e851) only architectures that cannot preempt (ARCH_NO_PREEMPT: alpha, "
                   "hexagon, m68k) build none";
    }
    return {};
}

PreemptModel SchedConfig::defaultModel() const {
    const ArchInfo& a = archInfo(arch);
    if (a.noPreempt) return PreemptModel::None;
    // 7.0's Kconfig: "default PREEMPT_LAZY if ARCH_HAS_PREEMPT_LAZY", and with PREEMPT_NONE out of
    // reach the choice falls to its next entry, voluntary. Before, the engine's default: none.
    if (has(Rule::RestrictPreemptModels)) return a.preemptLazy ? PreemptModel::Lazy : PreemptModel::Voluntary;
    return PreemptModel::None;
}

bool SchedConfig::featureDefault(Feature f) const {
    // 9213aa4784cf (7.1): HRTICK on where CONFIG_HRTIMER_REARM_DEFERRED is set; off before.
    if (f == Feature::HrTick) return has(Rule::HrtickDefault) && archInfo(arch).genericEntryTifBits;
    return f != Feature::NextBuddy;
}

std::string SchedConfig::validate() const {
    if (cpus < 1 || cpus > kMaxCpus) return "cpus must be 1.." + std::to_string(kMaxCpus);
    if (hz != 100 && hz != 250 && hz != 300 && hz != 1000) return "hz must be one of 100, 250, 300, 1000";
    if (const std::string why = whyNoModel(preempt); !why.empty()) {
        std::string accepted;
        for (PreemptModel m :
             {PreemptModel::None, PreemptModel::Voluntary, PreemptModel::Full, PreemptModel::Lazy})
            if (whyNoModel(m).empty())
                accepted += (accepted.empty() ? "" : ", ") + std::string(preemptModelName(m));
        return "preempt model " + std::string(preemptModelName(preempt)) + ": " + why + "; accepted on " +
               std::string(kernelSpecName(build, profile)) +
               (arch ? " on " + std::string(archInfo(arch).name) : std::string()) + ": " + accepted;
    }
    if (normalizedBaseSlice < 0 || baseSliceOverride < 0) return "base slice must be positive";
    if (tunableScaling < 0 || tunableScaling > 2) return "tunable_scaling must be 0, 1 or 2";
    if (baseSlice() > Time(UINT32_MAX)) return "base slice must be at most 4.29 s (base_slice_ns is a u32)";
    if (fairServerPeriod <= 0 || fairServerRuntime < 0 || fairServerRuntime > fairServerPeriod)
        return "fair_server runtime must be 0..period and the period positive";
    if (proxyExec && !has(Rule::ProxyExec)) {
        std::string accepted;
        for (const KernelSpec& k : kernelSpecs())
            if (k.rules[size_t(Rule::ProxyExec)])
                accepted += (accepted.empty() ? "" : ", ") + std::string(k.name);
        return "proxy_exec: kernel " + std::string(kernelSpecName(build, profile)) +
               " has no CONFIG_SCHED_PROXY_EXEC (it came with 6.17, 25c411fce735); accepted with: " +
               accepted;
    }
    if (taskGroups && has(Rule::GroupsOneRunqueue))
        return "kernel " + std::string(kernelSpecName(build, profile)) +
               " schedules task groups on the CPU's one runqueue (85570f10a4c6), which is not modelled; "
               "accepted: a scenario without cgroups or autogroup sessions, or a kernel up to 7.2";
    if (proxyExec && has(Rule::ProxyTtwuReturn))
        return "proxy_exec on " + std::string(kernelSpecName(build, profile)) +
               ": this kernel returns a woken waiter in try_to_wake_up() and hands the mutex to the waiter "
               "its owner ran for (f13beb010e4a, 1628b25248d0), which is not modelled; accepted: a kernel "
               "from 6.18 to 7.1";
    return {};
}

std::string_view kernelBuildName(KernelBuild b) {
    return b == KernelBuild::Auto ? "PREEMPT_AUTO" : "PREEMPT_DYNAMIC";
}

std::string_view kernelSpecName(KernelBuild b, KernelProfile p) {
    return kernelSpecOf(b, p).name;
}

std::string_view kernelProfileName(KernelProfile p) {
    return kernelSpecOf(KernelBuild::Dynamic, p).name;
}

bool parseKernelSpec(std::string_view s, KernelBuild& build, KernelProfile& profile) {
    const KernelSpec* k = findKernelSpec(s);
    if (!k) return false;
    build = k->build;
    profile = k->profile;
    return true;
}

} // namespace sched
