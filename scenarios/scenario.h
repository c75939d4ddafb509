// SPDX-License-Identifier: GPL-3.0-or-later
// A scenario: the machine, the tasks and their behaviour, and a timed list of live parameter
// changes. Read from a JSON file (format in scenarios/README.md) and turned into an Engine.
#pragma once

#include "engine/engine.h"
#include "scenarios/workload_spec.h"

#include <map>
#include <string>
#include <vector>

namespace scen {

struct ChannelSpec {
    std::string name;
    int capacity = 1;
    int64_t wakeAllWritersAt = -1; // see sched::Channel
    bool syncWake = true;          // see sched::Channel
};

struct TaskGroupSpec {
    std::string comm;
    int count = 1;
    bool threads = false; // the count tasks are threads of one process (one tgid)
    int process = -1;     // >= 0: its tasks are threads of that earlier group's process instead
    int32_t program = 0;
    sched::Policy policy = sched::Policy::Normal;
    int nice = 0;
    int rtPriority = 0;
    sched::Time slice = 0;
    bool rseqV1 = false; // "rseq": "v1": a 32-byte rseq area (the original ABI), not the v2 one
    sched::CpuMask affinity;
    int startCpu = -1;
    sched::Time start = 0;
    std::string session; // its session (setsid()): an autogroup while autogroup is enabled
    std::string cgroup;  // its cpu cgroup ("/a/b"); empty = the root cgroup
    // Where the file set the affinity ("file:line:column: field"), for a message when the machine's
    // CPU count is settled later (an rt-app file has none: --cpus or the default decide it).
    std::string affinityWhere;
};

// Group scheduling (CONFIG_FAIR_GROUP_SCHED): each task is in its cpu cgroup or, in the root
// cgroup, in its session's autogroup (kernel/sched/autogroup.c), or in the root task group.
struct GroupingSpec {
    bool autogroup = true;                   // kernel.sched_autogroup_enabled (Debian's kernels: on)
    std::map<std::string, int> cgroupWeight; // cpu.weight by cgroup path, 1 ... 10000 (default 100)
    std::map<std::string, int> sessionNice;  // an autogroup's nice (/proc/PID/autogroup), default 0
};

// Whether a task is outside the root task group: in a cgroup, or in its session's autogroup
// while autogroup is enabled (task_wants_autogroup()); addTaskGroups() makes the groups.
inline bool inTaskGroup(const TaskGroupSpec& t, const GroupingSpec& g) {
    return !t.cgroup.empty() || (!t.session.empty() && g.autogroup);
}

struct TimedChange {
    sched::Time at = 0;
    sched::ParamChange change;
};

struct Scenario {
    std::string name;
    std::string description;
    std::string source; // file name or "builtin:NAME", for messages
    sched::SchedConfig config;
    sched::Time duration = sched::kNsPerSec;
    uint64_t seed = 1;
    std::vector<sched::Program> programs;
    std::vector<std::string> programNames;
    std::vector<ChannelSpec> channels;
    std::vector<std::string> mutexes; // kernel mutexes for the lock / unlock ops, by index
    std::vector<TaskGroupSpec> tasks;
    GroupingSpec grouping;
    std::vector<TimedChange> changes;
    std::vector<Workload> workloads; // tool models among the tasks, for their reports
};

struct ScenarioError {
    std::string file;
    int line = 0, column = 0;
    std::string field;        // e.g. tasks[1].behavior[0].run
    std::string message;      // what is wrong and what would be accepted
    std::string text() const; // "file:line:column: field: message"
};

bool parseScenario(const std::string& text, const std::string& fileName, Scenario& out, ScenarioError& err);
struct JsonValue;
// From an already parsed document (an experiment's merged configuration); fields outside the
// scenario are named with `fieldPrefix` in errors.
bool parseScenarioJson(const JsonValue& root, const std::string& fileName, const std::string& fieldPrefix,
                       Scenario& out, ScenarioError& err);
bool loadScenarioFile(const std::string& path, Scenario& out, ScenarioError& err);
// The whole file, or an error naming it.
bool readTextFile(const std::string& path, std::string& out, ScenarioError& err);

// Every task's CPUs exist on the machine — checked once the CPU count is settled (after --cpus
// or an experiment's configuration): empty, or what is wrong and where the file set it.
std::string placementError(const Scenario& s);

// The task groups the tasks need, in the engine (parents before children; each cgroup and
// autogroup once), and each task spec's group: index i of the result is s.tasks[i]'s group.
std::vector<sched::GroupId> addTaskGroups(const Scenario& s, sched::Engine& e);

// Builds the engine: programs, channels, task groups, tasks and the scheduled changes.
sched::Engine instantiate(const Scenario& s, uint64_t seed, sched::TraceOptions opts = {});

} // namespace scen
