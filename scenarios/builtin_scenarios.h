// SPDX-License-Identifier: GPL-3.0-or-later
// Scenarios that ship inside the programs (scenarios/builtin/*.json, embedded at build time).
#pragma once

#include "scenarios/scenario.h"

#include <string>
#include <vector>

namespace scen {

struct BuiltinScenario {
    const char* name;
    const char* text;
};

const std::vector<BuiltinScenario>& builtinScenarios();
constexpr const char* kDefaultScenario = "kernel-hogs-waker";

// A path to a scenario file, or the name of a built-in scenario.
// A built-in name, a scenario file, or an rt-app JSON file.
bool loadScenario(const std::string& nameOrPath, Scenario& out, ScenarioError& err);
bool loadRtAppScenario(const std::string& text, const std::string& file, Scenario& out, ScenarioError& err);

} // namespace scen
