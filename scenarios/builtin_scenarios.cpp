// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenarios/builtin_scenarios.h"

#include "scenarios/workload.h"

#include <filesystem>

namespace scen {

bool loadRtAppScenario(const std::string& text, const std::string& file, Scenario& out, ScenarioError& err) {
    // An rt-app file on its own: the default machine (override with --cpus, --preempt, ...) and
    // global.duration; with "duration": -1 the run lasts until every task has ended.
    Scenario s;
    s.source = file;
    s.name = std::filesystem::path(file).filename().string();
    s.description = "rt-app workload " + file;
    Workload w;
    w.tool = "rt-app";
    w.args = file;
    w.comm = "rt-app";
    RtAppArgs ra;
    if (!addRtApp(text, file, s, ra, err)) return false;
    if (ra.duration == 0 && ra.loopsForever) {
        err = ScenarioError{file, 1, 1, "global.duration",
                            "a task loops for ever (\"loop\": -1 or no loop) and the run has no duration; "
                            "give global.duration in seconds"};
        return false;
    }
    s.duration = ra.duration > 0 ? ra.duration : 3600 * sched::kNsPerSec;
    w.params = ra;
    w.groups = s.tasks.size();
    for (const TaskGroupSpec& g : s.tasks)
        w.taskCount += g.count;
    s.workloads.push_back(w);
    out = std::move(s);
    return true;
}

bool loadScenario(const std::string& nameOrPath, Scenario& out, ScenarioError& err) {
    std::error_code ec;
    // Anything that exists under that name is read as a file (readTextFile() refuses a FIFO, a
    // device or a directory with what it is); a built-in name is looked up only when nothing is.
    if (std::filesystem::exists(std::filesystem::symlink_status(nameOrPath, ec))) {
        std::string text;
        if (!readTextFile(nameOrPath, text, err)) return false;
        return looksLikeRtApp(text) ? loadRtAppScenario(text, nameOrPath, out, err)
                                    : parseScenario(text, nameOrPath, out, err);
    }
    for (const auto& b : builtinScenarios())
        if (nameOrPath == b.name) return parseScenario(b.text, std::string("builtin:") + b.name, out, err);
    std::string names;
    for (const auto& b : builtinScenarios())
        names += std::string(names.empty() ? "" : ", ") + b.name;
    err =
        ScenarioError{nameOrPath, 0, 0, "", "no such file, and not a built-in scenario; built-in: " + names};
    return false;
}

} // namespace scen
