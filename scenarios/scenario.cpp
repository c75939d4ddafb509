// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenarios/scenario.h"

#include "base/limits.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

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
    const auto fail = [&](const std::string& why) {
        err = ScenarioError{path, 0, 0, "", why};
        return false;
    };
    // Checked before opening: a FIFO would block, /dev/zero never ends.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return fail("cannot open the file (does it exist and is it readable?)");
    if (S_ISDIR(st.st_mode))
        return fail("a directory; a scenario, experiment or rt-app file is a regular file");
    if (!S_ISREG(st.st_mode))
        return fail(
            "not a regular file (a FIFO or a device); a scenario, experiment or rt-app file is read from a "
            "regular file");
    if (st.st_size > sched::limits::kMaxScenarioFile)
        return fail(std::to_string(st.st_size >> 20) + " MiB; a scenario file may be up to " +
                    std::to_string(sched::limits::kMaxScenarioFile >> 20) +
                    " MiB (the limit: core/base/limits.h)");
    std::ifstream in(path, std::ios::binary);
    if (!in) return fail("cannot open the file (does it exist and is it readable?)");
    out.assign(size_t(st.st_size), '\0');
    in.read(out.data(), std::streamsize(out.size()));
    out.resize(size_t(std::max<std::streamsize>(0, in.gcount())));
    if (in.bad()) return fail("cannot read the file");
    return true;
}

std::string placementError(const Scenario& s) {
    const int cpus = s.config.cpus;
    const std::string machine = std::to_string(cpus) + " CPU" + (cpus == 1 ? "" : "s") + " (0 to " +
                                std::to_string(cpus - 1) + "; set machine.cpus or --cpus)";
    for (const TaskGroupSpec& t : s.tasks) {
        const std::string who = t.affinityWhere.empty() ? "task '" + t.comm + "' is" : t.affinityWhere + ":";
        if (t.startCpu >= cpus)
            return "task '" + t.comm + "' starts on CPU " + std::to_string(t.startCpu) +
                   ", but the machine has " + machine;
        for (size_t k = size_t(cpus); k < t.affinity.size(); ++k)
            if (t.affinity.test(k))
                return who + " pinned to CPU " + std::to_string(k) + ", but the machine has " + machine;
    }
    return {};
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
    for (const auto& m : s.mutexes)
        e.addMutex(m);
    const std::vector<sched::GroupId> taskGroup = addTaskGroups(s, e);
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
            spec.rseqV1 = g.rseqV1;
            spec.affinity = g.affinity;
            spec.startCpu = g.startCpu;
            spec.start = g.start;
            spec.taskGroup = taskGroup[size_t(thisGroup)];
            e.spawn(spec);
        }
    }
    for (const auto& c : s.changes)
        e.scheduleChange(c.change, c.at);
    return e;
}

} // namespace scen
