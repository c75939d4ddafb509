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
// The seeds' experiments ("experiments/preempt-short") and the real-machine scenarios
// ("real-machine/cyclictest-i1000-l5000"), embedded from scenarios/experiments and
// scenarios/real-machine so that an installed program has them too.
const std::vector<BuiltinScenario>& libraryScenarios();
constexpr const char* kDefaultScenario = "kernel-hogs-waker";

// A scenario file, an rt-app JSON file, the name of a built-in scenario, or a library name: a
// real-machine scenario, or an experiment, which opens as its first configuration at its quick
// size (the description says what the experiment compares and what the post published).
bool loadScenario(const std::string& nameOrPath, Scenario& out, ScenarioError& err);
bool loadRtAppScenario(const std::string& text, const std::string& file, Scenario& out, ScenarioError& err);

} // namespace scen
