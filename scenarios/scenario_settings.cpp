// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenarios/scenario_settings.h"

#include "base/duration.h"
#include "engine/arch.h"
#include "engine/custom_slice.h"
#include "engine/kernel_rules.h"
#include "scenarios/builtin_scenarios.h"

#include <cerrno>
#include <cstdlib>
#include <filesystem>

namespace scen {

using namespace sched;

namespace {

constexpr const char* kKeys[] = {
    "preempt",           "kernel",   "arch",           "cpus",       "hz",      "base-slice",
    "sysctl-base-slice", "duration", "rseq-slice-ext", "proxy-exec", "feature", "seed"};

} // namespace

// A whole number in [lo, hi] as strtoll() reads it (leading blanks and a '+' allowed, nothing
// after): what the CLI's options have always accepted.
bool parseWholeArg(const std::string& s, long long lo, long long hi, long long& out) {
    if (s.empty()) return false;
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(s.c_str(), &end, 10);
    if (errno || *end || v < lo || v > hi) return false;
    out = v;
    return true;
}

std::string parseDurationSetting(const std::string& flag, const std::string& v, Time lo, Time hi,
                                 std::optional<Time>& out) {
    const auto d = parseDuration(v);
    if (!d)
        return flag + ": '" + v +
               "' is not a duration; write a number with a unit: ns, us, ms or s (e.g. 0.7ms)";
    if (*d < lo || *d > hi)
        return flag + ": '" + v + "' is out of range; accepted: " + formatDuration(lo) + " to " +
               formatDuration(hi);
    out = *d;
    return {};
}

bool isScenarioSetting(const std::string& key) {
    for (const char* k : kKeys)
        if (key == k) return true;
    return false;
}

std::string parseScenarioSetting(const std::string& key, const std::string& v, ScenarioSettings& o) {
    const std::string a = "--" + key;
    long long n = 0;
    if (key == "preempt") {
        PreemptModel m;
        if (!parsePreemptModel(v, m))
            return a + ": '" + v + "' is not a preemption model; accepted: none, voluntary, full, lazy";
        o.preempt = m;
    } else if (key == "kernel") {
        KernelBuild b;
        KernelProfile p;
        if (!parseKernelSpec(v, b, p))
            return a + ": '" + v + "' is not a kernel; accepted: " + acceptedKernelNames();
        o.kernel = v;
    } else if (key == "arch") {
        if (findArch(v) < 0)
            return a + ": '" + v + "' is not an architecture; accepted: " + acceptedArchNames();
        o.arch = v;
    } else if (key == "cpus") {
        if (!parseWholeArg(v, 1, kMaxCpus, n))
            return a + ": '" + v + "' is not a CPU count; accepted: 1 to " + std::to_string(kMaxCpus);
        o.cpus = int(n);
    } else if (key == "hz") {
        if (!parseWholeArg(v, 1, 100000, n) || (n != 100 && n != 250 && n != 300 && n != 1000))
            return a + ": '" + v + "' is not a kernel HZ; accepted: 100, 250, 300, 1000";
        o.hz = int(n);
    } else if (key == "base-slice") {
        return parseDurationSetting(a, v, kCustomSliceMin, kCustomSliceMax, o.baseSlice);
    } else if (key == "sysctl-base-slice") {
        return parseDurationSetting(a, v, kCustomSliceMin, kCustomSliceMax, o.sysctlBaseSlice);
    } else if (key == "duration") {
        return parseDurationSetting(a, v, kNsPerUs, 3600 * kNsPerSec, o.duration);
    } else if (key == "rseq-slice-ext") {
        if (v == "off") {
            o.sliceExt = 0;
        } else if (auto e = parseDurationSetting(a, v, SchedConfig::kSliceExtMin, SchedConfig::kSliceExtMax,
                                                 o.sliceExt);
                   !e.empty()) {
            return e + " (or off: a kernel without CONFIG_RSEQ_SLICE_EXTENSION)";
        }
    } else if (key == "proxy-exec") {
        if (v != "on" && v != "off") return a + ": '" + v + "'; accepted: on, off";
        o.proxyExec = v == "on";
    } else if (key == "feature") {
        const size_t eq = v.find('=');
        const std::string name = v.substr(0, eq);
        const auto f = parseFeature(name);
        if (!f) {
            std::string list;
            for (size_t k = 0; k < kFeatureCount; ++k)
                list += (k ? ", " : "") + std::string(featureName(Feature(k)));
            return a + ": unknown feature '" + name + "'; accepted: " + list;
        }
        const std::string state = eq == std::string::npos ? "" : v.substr(eq + 1);
        if (state != "on" && state != "off") return a + ": write NAME=on or NAME=off (got '" + v + "')";
        o.features.emplace_back(*f, state == "on");
    } else if (key == "seed") {
        if (!parseWholeArg(v, 0, INT64_MAX, n)) return a + ": '" + v + "' is not a non-negative whole number";
        o.seed = uint64_t(n);
    } else {
        std::string list;
        for (const char* k : kKeys)
            list += (list.empty() ? "" : ", ") + std::string(k);
        return "'" + key + "' is not a setting; accepted: " + list;
    }
    return {};
}

std::string applyScenarioSettings(const ScenarioSettings& o, Scenario& s) {
    SchedConfig& c = s.config;
    if (o.cpus) c.cpus = *o.cpus;
    if (std::string e = placementError(s); !e.empty())
        return (o.cpus ? "--cpus " + std::to_string(c.cpus) + ": " : "") + e;
    if (o.hz) c.hz = *o.hz;
    if (o.kernel) parseKernelSpec(*o.kernel, c.build, c.profile);
    if (o.arch) c.arch = ArchId(findArch(*o.arch));
    if (o.preempt) {
        c.preempt = *o.preempt;
        c.preemptChosen = true;
    } else if (!c.preemptChosen) {
        c.preempt = c.defaultModel(); // another kernel or architecture: its default model
    }
    if (o.baseSlice) c.normalizedBaseSlice = *o.baseSlice;
    if (o.sysctlBaseSlice) c.baseSliceOverride = *o.sysctlBaseSlice;
    if (o.sliceExt) c.sliceExtNsec = *o.sliceExt;
    if (o.proxyExec) c.proxyExec = *o.proxyExec;
    for (const auto& [f, on] : o.features)
        c.features.set(f, on);
    if (o.duration) s.duration = *o.duration;
    if (o.seed) s.seed = *o.seed;
    if (std::string e = c.validate(); !e.empty()) return e;
    return {};
}

void overlayScenarioSettings(ScenarioSettings& base, const ScenarioSettings& over) {
    const auto take = [](auto& to, const auto& from) {
        if (from) to = from;
    };
    take(base.preempt, over.preempt), take(base.kernel, over.kernel), take(base.arch, over.arch);
    take(base.cpus, over.cpus), take(base.hz, over.hz), take(base.baseSlice, over.baseSlice);
    take(base.sysctlBaseSlice, over.sysctlBaseSlice), take(base.duration, over.duration);
    take(base.sliceExt, over.sliceExt), take(base.proxyExec, over.proxyExec), take(base.seed, over.seed);
    base.features.insert(base.features.end(), over.features.begin(), over.features.end());
}

bool parseScenarioSpec(const std::string& spec, std::string& name, ScenarioSettings& settings,
                       std::string& error) {
    // The last '@': no setting's value holds one, a file's path may ("run@home.json@cpus=2").
    std::error_code ec;
    const size_t at = std::filesystem::is_regular_file(spec, ec) ? std::string::npos : spec.rfind('@');
    name = spec.substr(0, at);
    if (at == std::string::npos) return true;
    const std::string rest = spec.substr(at + 1);
    for (size_t p = 0; p <= rest.size();) {
        const size_t comma = std::min(rest.find(',', p), rest.size());
        const std::string kv = rest.substr(p, comma - p);
        const size_t eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) {
            error = "'" + kv + "' in '" + spec +
                    "' is not a setting; write key=value (preempt=full, kernel=6.12, cpus=4, "
                    "feature=PREEMPT_SHORT=off, seed=2, duration=2s, base-slice=0.7ms)";
            return false;
        }
        if (std::string e = parseScenarioSetting(kv.substr(0, eq), kv.substr(eq + 1), settings); !e.empty()) {
            error = spec + ": " + e;
            return false;
        }
        p = comma + 1;
    }
    return true;
}

bool loadScenarioSpec(const std::string& spec, Scenario& out, std::string& error) {
    std::string name;
    ScenarioSettings settings;
    if (!parseScenarioSpec(spec, name, settings, error)) return false;
    ScenarioError se;
    if (!loadScenario(name, out, se)) {
        error = se.text();
        return false;
    }
    // Applied even when there are none: its checks (a CPU list the machine lacks, a model the
    // kernel refuses) are the ones a run needs.
    if (std::string e = applyScenarioSettings(settings, out); !e.empty()) {
        error = name == spec ? e : spec + ": " + e;
        return false;
    }
    return true;
}

} // namespace scen
