// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenarios/builtin_scenarios.h"

#include "scenarios/experiment.h"
#include "scenarios/json_value.h"
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

namespace {

// An experiment file (scenarios/experiments/): a JSON object with "configurations".
bool looksLikeExperiment(const std::string& text) {
    JsonValue root;
    JsonError je;
    return parseJson(text, root, je) && root.isObject() && root.find("configurations");
}

// An experiment as one scenario: its first configuration at the quick size. The description
// names the other configurations (what to branch or compare to) and what the post published.
bool experimentScenario(const std::string& text, const std::string& source, const std::string& name,
                        Scenario& out, ScenarioError& err) {
    Experiment x;
    if (!parseExperiment(text, source, true, x, err)) return false;
    if (x.configs.empty()) {
        err = ScenarioError{source, 0, 0, "configurations", "the experiment has no configuration"};
        return false;
    }
    out = x.configs.front().scenario;
    out.name = name;
    out.source = source;
    std::string others;
    for (size_t i = 1; i < x.configs.size(); ++i)
        others += (others.empty() ? "" : ", ") + x.configs[i].label;
    out.description = x.title + ". This is the configuration " + x.configs.front().label +
                      " at the experiment's quick size; the others: " + others +
                      " (schedscope-cli experiment runs them all and prints the post's table).";
    // What the post published: its summary line where it has one, else every line.
    std::string published;
    for (const std::string& line : x.reference) {
        const size_t text = line.find_first_not_of(' ');
        if (text == std::string::npos) continue;
        if (line.starts_with("Summary: ")) {
            published = line.substr(9);
            break;
        }
        published += (published.empty() ? "" : "; ") + line.substr(text);
    }
    if (!published.empty()) out.description += " Published: " + published + ".";
    return true;
}

} // namespace

bool loadScenario(const std::string& nameOrPath, Scenario& out, ScenarioError& err) {
    std::error_code ec;
    // Anything that exists under that name is read as a file (readTextFile() refuses a FIFO, a
    // device or a directory with what it is); a built-in name is looked up only when nothing is.
    if (std::filesystem::exists(std::filesystem::symlink_status(nameOrPath, ec))) {
        std::string text;
        if (!readTextFile(nameOrPath, text, err)) return false;
        if (looksLikeExperiment(text)) return experimentScenario(text, nameOrPath, nameOrPath, out, err);
        return looksLikeRtApp(text) ? loadRtAppScenario(text, nameOrPath, out, err)
                                    : parseScenario(text, nameOrPath, out, err);
    }
    for (const auto& b : builtinScenarios())
        if (nameOrPath == b.name) return parseScenario(b.text, std::string("builtin:") + b.name, out, err);
    for (const auto& b : libraryScenarios()) {
        if (nameOrPath != b.name) continue;
        const std::string source = std::string("builtin:") + b.name;
        if (nameOrPath.starts_with("experiments/"))
            return experimentScenario(b.text, source, b.name, out, err);
        if (!parseScenario(b.text, source, out, err)) return false;
        out.name = b.name; // the name it opens by, not the file's "name" field
        return true;
    }
    std::string names;
    for (const auto* list : {&builtinScenarios(), &libraryScenarios()})
        for (const auto& b : *list)
            names += std::string(names.empty() ? "" : ", ") + b.name;
    err =
        ScenarioError{nameOrPath, 0, 0, "", "no such file, and not a built-in scenario; built-in: " + names};
    return false;
}

} // namespace scen
