// SPDX-License-Identifier: GPL-3.0-or-later
#include "builtin_scenarios.h"

#include <filesystem>

namespace scen {

bool loadScenario(const std::string& nameOrPath, Scenario& out, ScenarioError& err) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(nameOrPath, ec)) return loadScenarioFile(nameOrPath, out, err);
    for (const auto& b : builtinScenarios())
        if (nameOrPath == b.name) return parseScenario(b.text, std::string("builtin:") + b.name, out, err);
    std::string names;
    for (const auto& b : builtinScenarios()) names += std::string(names.empty() ? "" : ", ") + b.name;
    err = ScenarioError{nameOrPath, 0, 0, "", "no such file, and not a built-in scenario; built-in: " + names};
    return false;
}

} // namespace scen
