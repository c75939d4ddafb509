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

std::string SchedConfig::validate() const {
    if (cpus < 1 || cpus > kMaxCpus) return "cpus must be 1.." + std::to_string(kMaxCpus);
    if (hz != 100 && hz != 250 && hz != 300 && hz != 1000) return "hz must be one of 100, 250, 300, 1000";
    if (preempt == PreemptModel::Lazy && !lazyAvailable())
        return build == KernelBuild::Auto
                   ? "preempt model lazy does not exist in the PREEMPT_AUTO build; "
                     "accepted: none, voluntary, full"
                   : "preempt model lazy needs kernel 6.13+ (6.18 or 6.18.44); accepted "
                     "on 6.12: none, voluntary, full";
    if (normalizedBaseSlice < 0 || baseSliceOverride < 0) return "base slice must be positive";
    if (tunableScaling < 0 || tunableScaling > 2) return "tunable_scaling must be 0, 1 or 2";
    if (baseSlice() > Time(UINT32_MAX)) return "base slice must be at most 4.29 s (base_slice_ns is a u32)";
    if (fairServerPeriod <= 0 || fairServerRuntime < 0 || fairServerRuntime > fairServerPeriod)
        return "fair_server runtime must be 0..period and the period positive";
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
