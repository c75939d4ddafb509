// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenarios/scenario.h"

#include <fstream>
#include <sstream>

namespace scen {

std::string ScenarioError::text() const {
    std::string s = file;
    if (line > 0) {
        s += ':';
        s += std::to_string(line);
        s += ':';
        s += std::to_string(column);
    }
    s += ": ";
    if (!field.empty()) {
        s += field;
        s += ": ";
    }
    s += message;
    return s;
}

bool readTextFile(const std::string& path, std::string& out, ScenarioError& err) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        err = ScenarioError{path, 0, 0, "", "cannot open the file (does it exist and is it readable?)"};
        return false;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    out = ss.str();
    return true;
}

bool loadScenarioFile(const std::string& path, Scenario& out, ScenarioError& err) {
    std::string text;
    return readTextFile(path, text, err) && parseScenario(text, path, out, err);
}

sched::Engine instantiate(const Scenario& s, uint64_t seed, sched::TraceOptions opts) {
    sched::Engine e(s.config, seed, opts);
    for (const auto& p : s.programs)
        e.addProgram(p);
    for (const auto& c : s.channels)
        e.addChannel(c.capacity, c.wakeAllWritersAt, c.syncWake);
    int group = 0;
    for (const auto& g : s.tasks) {
        const int thisGroup = group++;
        for (int i = 0; i < g.count; ++i) {
            sched::TaskSpec spec;
            spec.comm = g.comm;
            spec.group = g.process >= 0 ? g.process : g.threads ? thisGroup : -1;
            spec.program = g.program;
            spec.policy = g.policy;
            spec.nice = g.nice;
            spec.rtPriority = g.rtPriority;
            spec.slice = g.slice;
            spec.affinity = g.affinity;
            spec.startCpu = g.startCpu;
            spec.start = g.start;
            e.spawn(spec);
        }
    }
    for (const auto& c : s.changes)
        e.scheduleChange(c.change, c.at);
    return e;
}

} // namespace scen
