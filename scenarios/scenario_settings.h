// SPDX-License-Identifier: GPL-3.0-or-later
// Settings that change a scenario's machine or run, named as schedscope-cli's options are
// (preempt, kernel, arch, cpus, hz, base-slice, sysctl-base-slice, duration, rseq-slice-ext,
// proxy-exec, feature, seed): the CLI's --KEY VALUE, and "NAME@KEY=VALUE,KEY=VALUE", which both
// programs open (compare's two sides, the GUI's command line).
#pragma once

#include "engine/sched_features.h"
#include "scenarios/scenario.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace scen {

struct ScenarioSettings {
    std::optional<sched::PreemptModel> preempt;
    std::optional<std::string> kernel, arch;
    std::optional<int> cpus, hz;
    std::optional<sched::Time> baseSlice, sysctlBaseSlice, duration;
    std::optional<sched::Time> sliceExt; // rseq-slice-ext: debugfs rseq/slice_ext_nsec, 0 = off
    std::optional<bool> proxyExec;       // proxy-exec on|off: CONFIG_SCHED_PROXY_EXEC
    std::vector<std::pair<sched::Feature, bool>> features;
    std::optional<uint64_t> seed;
};

// A whole number in [lo, hi] as strtoll() reads it (leading blanks and a '+' allowed, nothing after).
bool parseWholeArg(const std::string& s, long long lo, long long hi, long long& out);
// A duration with its unit in [lo, hi], or an error naming `flag`, the value and the range.
std::string parseDurationSetting(const std::string& flag, const std::string& v, sched::Time lo,
                                 sched::Time hi, std::optional<sched::Time>& out);
// Whether KEY (without "--") names a setting.
bool isScenarioSetting(const std::string& key);
// Takes one setting; returns an error naming "--KEY", the value and what is accepted.
std::string parseScenarioSetting(const std::string& key, const std::string& value, ScenarioSettings& out);
// Applies the settings to a loaded scenario; returns an error text (empty on success).
std::string applyScenarioSettings(const ScenarioSettings& o, Scenario& s);
// Those of `over` that are set replace those of `base`; its features come after base's.
void overlayScenarioSettings(ScenarioSettings& base, const ScenarioSettings& over);
// "NAME" or "NAME@KEY=VALUE,KEY=VALUE" (feature=X=on keeps its '='): the name and the settings.
// The whole spec is taken as a file name first, so a file whose name holds '@' is that file.
bool parseScenarioSpec(const std::string& spec, std::string& name, ScenarioSettings& settings,
                       std::string& error);
// Loads the spec's NAME (a built-in, a library scenario or a file) and applies its settings.
bool loadScenarioSpec(const std::string& spec, Scenario& out, std::string& error);

} // namespace scen
