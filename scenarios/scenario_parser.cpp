// SPDX-License-Identifier: GPL-3.0-or-later
// JSON -> Scenario, with an error naming file, line, column and field for anything wrong: the top
// level, the machine, tasks, workloads and changes (the operations: scenario_reader_ops.cpp).
#include "base/limits.h"
#include "engine/custom_slice.h"
#include "scenarios/scenario_reader.h"
#include "scenarios/workload.h"
#include "trace/comm.h"

#include <algorithm>
#include <filesystem>

namespace scen {

namespace detail {

bool ScenarioReader::read(const JsonValue& root, Scenario& s) {
    if (!expect(root, JT::Object, "(top level)")) return false;
    if (!checkKeys(root, "",
                   {"name", "description", "duration", "seed", "machine", "channels", "mutexes", "programs",
                    "tasks", "changes", "cgroups", "sessions"}))
        return false;
    if (auto* v = root.find("name")) {
        if (!expect(*v, JT::String, "name")) return false;
        s.name = v->text;
    }
    if (auto* v = root.find("description")) {
        if (!expect(*v, JT::String, "description")) return false;
        s.description = v->text;
    }
    if (auto* v = root.find("duration");
        v && !duration(*v, "duration", s.duration, kNsPerUs, 3600 * kNsPerSec))
        return false;
    if (auto* v = root.find("seed"); v && !integerAs(*v, "seed", 0, INT64_MAX, s.seed)) return false;
    if (auto* v = root.find("machine"); v && !machine(*v, s)) return false;
    if (auto* v = root.find("cgroups"); v && !cgroups(*v, s)) return false;
    if (auto* v = root.find("sessions"); v && !sessions(*v, s)) return false;
    if (auto* v = root.find("channels")) {
        if (!expect(*v, JT::Array, "channels")) return false;
        for (size_t i = 0; i < v->items.size(); ++i) {
            const JsonValue& c = v->items[i];
            const std::string f = idx("channels", i);
            if (!expect(c, JT::Object, f) || !checkKeys(c, f, {"name", "capacity", "sync"})) return false;
            ChannelSpec ch;
            const JsonValue* n = c.find("name");
            if (!n) return fail(c.pos, f, "a channel needs a \"name\"");
            if (!expect(*n, JT::String, join(f, "name"))) return false;
            if (channelIndex_.count(n->text))
                return fail(n->pos, join(f, "name"), "channel '" + n->text + "' is defined twice");
            ch.name = n->text;
            if (auto* cap = c.find("capacity");
                cap && !integerAs(*cap, join(f, "capacity"), 1, 1000000, ch.capacity))
                return false;
            if (auto* x = c.find("sync"); x && !boolean(*x, join(f, "sync"), ch.syncWake)) return false;
            channelIndex_[ch.name] = int(s.channels.size());
            s.channels.push_back(ch);
        }
    }
    if (auto* v = root.find("mutexes")) {
        if (!expect(*v, JT::Array, "mutexes")) return false;
        for (size_t i = 0; i < v->items.size(); ++i) {
            const JsonValue& n = v->items[i];
            const std::string f = idx("mutexes", i);
            if (!expect(n, JT::String, f)) return false;
            if (n.text.empty()) return fail(n.pos, f, "a mutex needs a name");
            if (mutexIndex_.count(n.text)) return fail(n.pos, f, "mutex '" + n.text + "' is named twice");
            mutexIndex_[n.text] = int(s.mutexes.size());
            s.mutexes.push_back(n.text);
        }
    }
    // Programs: names first, so that fork can refer to a program defined later.
    const JsonValue* progs = root.find("programs");
    if (progs) {
        if (!expect(*progs, JT::Object, "programs")) return false;
        for (const auto& [name, body] : progs->members) {
            programIndex_[name] = int(s.programs.size());
            s.programs.push_back(Program{name, {}, 0});
            s.programNames.push_back(name);
        }
        for (size_t i = 0; i < progs->members.size(); ++i) {
            const std::string f = "programs." + progs->members[i].first;
            if (!ops(progs->members[i].second, f, s.programs[i], 0)) return false;
            if (std::string e = s.programs[i].finalize(); !e.empty())
                return fail(progs->members[i].second.pos, f, e);
        }
    }
    const JsonValue* tasks = root.find("tasks");
    if (!tasks) return fail(root.pos, "tasks", "a scenario needs a \"tasks\" array with at least one task");
    if (!expect(*tasks, JT::Array, "tasks")) return false;
    if (tasks->items.empty())
        return fail(tasks->pos, "tasks", "the task list is empty; give at least one task");
    for (size_t i = 0; i < tasks->items.size(); ++i) {
        const size_t before = s.tasks.size();
        if (!task(tasks->items[i], idx("tasks", i), s)) return false;
        // Task groups: a kernel whose group scheduling is not modelled refuses them (validate()).
        const bool grouped = std::any_of(s.tasks.begin() + ptrdiff_t(before), s.tasks.end(),
                                         [&](const TaskGroupSpec& g) { return inTaskGroup(g, s.grouping); });
        if (grouped && !s.config.taskGroups) {
            s.config.taskGroups = true;
            if (std::string e = s.config.validate(); !e.empty())
                return fail(tasks->items[i].pos, idx("tasks", i), e);
        }
    }
    if (auto* v = root.find("changes")) {
        if (!expect(*v, JT::Array, "changes")) return false;
        for (size_t i = 0; i < v->items.size(); ++i)
            if (!change(v->items[i], idx("changes", i), s)) return false;
    }
    return true;
}

bool ScenarioReader::machine(const JsonValue& m, Scenario& s) {
    const std::string f = "machine";
    if (!expect(m, JT::Object, f)) return false;
    if (!checkKeys(m, f,
                   {"cpus", "hz", "kernel", "preempt", "base_slice", "sysctl_base_slice", "tunable_scaling",
                    "features", "costs", "migration_cost", "rr_timeslice", "fair_server_runtime",
                    "fair_server_period", "sched_rt_runtime", "sched_rt_period", "autogroup", "arch",
                    "rseq_slice_ext", "proxy_exec"}))
        return false;
    SchedConfig& c = s.config;
    if (auto* v = m.find("autogroup"); v && !boolean(*v, "machine.autogroup", s.grouping.autogroup))
        return false;
    if (auto* v = m.find("cpus"); v && !integerAs(*v, "machine.cpus", 1, kMaxCpus, c.cpus)) return false;
    if (auto* v = m.find("hz")) {
        if (!integerAs(*v, "machine.hz", 1, 100000, c.hz)) return false;
        if (c.hz != 100 && c.hz != 250 && c.hz != 300 && c.hz != 1000)
            return fail(v->pos, "machine.hz",
                        v->text + " is not a kernel HZ choice; accepted: 100, 250, 300, 1000");
    }
    if (auto* v = m.find("kernel")) {
        if (!expect(*v, JT::String, "machine.kernel")) return false;
        if (!parseKernelSpec(v->text, c.build, c.profile))
            return fail(v->pos, "machine.kernel",
                        "unknown kernel '" + v->text + "'; accepted: " + acceptedKernelNames());
    }
    if (auto* v = m.find("arch")) {
        if (!expect(*v, JT::String, "machine.arch")) return false;
        const int a = findArch(v->text);
        if (a < 0)
            return fail(v->pos, "machine.arch",
                        "unknown architecture '" + v->text + "'; accepted: " + acceptedArchNames());
        c.arch = ArchId(a);
    }
    if (auto* v = m.find("preempt")) {
        if (!expect(*v, JT::String, "machine.preempt")) return false;
        if (!parsePreemptModel(v->text, c.preempt))
            return fail(v->pos, "machine.preempt",
                        "unknown model '" + v->text + "'; accepted: none, voluntary, full, lazy");
        c.preemptChosen = true;
    } else if (!c.preemptChosen) {
        c.preempt = c.defaultModel(); // the kernel's Kconfig default (lazy on 7.0's x86_64)
    }
    if (auto* v = m.find("base_slice");
        v && !duration(*v, "machine.base_slice", c.normalizedBaseSlice, kCustomSliceMin, kCustomSliceMax))
        return false;
    if (auto* v = m.find("sysctl_base_slice");
        v &&
        !duration(*v, "machine.sysctl_base_slice", c.baseSliceOverride, kCustomSliceMin, kCustomSliceMax))
        return false;
    if (auto* v = m.find("tunable_scaling")) {
        if (!expect(*v, JT::String, "machine.tunable_scaling")) return false;
        if (v->text == "none")
            c.tunableScaling = 0;
        else if (v->text == "log")
            c.tunableScaling = 1;
        else if (v->text == "linear")
            c.tunableScaling = 2;
        else
            return fail(v->pos, "machine.tunable_scaling",
                        "unknown '" + v->text + "'; accepted: none, log, linear");
    }
    if (auto* v = m.find("migration_cost");
        v && !duration(*v, "machine.migration_cost", c.migrationCost, 0, kNsPerSec))
        return false;
    if (auto* v = m.find("rr_timeslice");
        v && !duration(*v, "machine.rr_timeslice", c.rrTimeslice, kNsPerMs, 10 * kNsPerSec))
        return false;
    // The fair_server's debugfs limits (sched_fair_server_write(): period 100 us .. ~4 s, runtime
    // at most the period, 0 = off) and sched_rt_runtime_us / sched_rt_period_us.
    const Time maxPeriod = Time(1) << 22 << 10; // (1 << 22) us
    if (auto* v = m.find("fair_server_period");
        v && !duration(*v, "machine.fair_server_period", c.fairServerPeriod, 100 * kNsPerUs, maxPeriod))
        return false;
    if (auto* v = m.find("fair_server_runtime");
        v && !duration(*v, "machine.fair_server_runtime", c.fairServerRuntime, 0, c.fairServerPeriod))
        return false;
    if (auto* v = m.find("sched_rt_period");
        v && !duration(*v, "machine.sched_rt_period", c.rtPeriod, kNsPerMs, 10 * kNsPerSec))
        return false;
    if (auto* v = m.find("sched_rt_runtime");
        v && !duration(*v, "machine.sched_rt_runtime", c.rtRuntime, 0, c.rtPeriod))
        return false;
    // debugfs rseq/slice_ext_nsec (7.0: 5 - 50 us), or false: a kernel built without the extension.
    if (auto* v = m.find("rseq_slice_ext")) {
        if (v->isBool()) {
            if (v->boolean)
                return fail(
                    v->pos, "machine.rseq_slice_ext",
                    "accepted: a duration from 5us to 50us (debugfs rseq/slice_ext_nsec), or false (a "
                    "kernel built without CONFIG_RSEQ_SLICE_EXTENSION)");
            c.sliceExtNsec = 0;
        } else if (!duration(*v, "machine.rseq_slice_ext", c.sliceExtNsec, SchedConfig::kSliceExtMin,
                             SchedConfig::kSliceExtMax)) {
            return false;
        }
    }
    // CONFIG_SCHED_PROXY_EXEC built in (6.17+; validate() names the kernels that have it).
    if (auto* v = m.find("proxy_exec"); v && !boolean(*v, "machine.proxy_exec", c.proxyExec)) return false;
    if (auto* v = m.find("features")) {
        if (!expect(*v, JT::Object, "machine.features")) return false;
        for (size_t i = 0; i < v->members.size(); ++i) {
            const auto& [name, val] = v->members[i];
            const auto feat = parseFeature(name);
            if (!feat) {
                std::string list;
                for (size_t k = 0; k < kFeatureCount; ++k)
                    list += (k ? ", " : "") + std::string(featureName(Feature(k)));
                return fail(v->keyPos[i], "machine.features." + name, "unknown feature; accepted: " + list);
            }
            bool on = true;
            if (!boolean(val, "machine.features." + name, on)) return false;
            c.features.set(*feat, on);
        }
    }
    if (auto* v = m.find("costs")) {
        const std::string cf = "machine.costs";
        if (!expect(*v, JT::Object, cf) ||
            !checkKeys(*v, cf,
                       {"context_switch", "wakeup", "ipi", "timer_irq", "idle_exit", "migration",
                        "newidle_balance", "timer_slack", "timer_arm", "timer_jitter"}))
            return false;
        const std::pair<const char*, Time*> costs[] = {{"context_switch", &c.costs.contextSwitch},
                                                       {"wakeup", &c.costs.wakeup},
                                                       {"ipi", &c.costs.ipiLatency},
                                                       {"timer_irq", &c.costs.timerIrq},
                                                       {"migration", &c.costs.migration},
                                                       {"newidle_balance", &c.costs.newidleBalance},
                                                       {"timer_slack", &c.costs.timerSlack},
                                                       {"timer_arm", &c.costs.timerArm}};
        for (const auto& [key, dst] : costs)
            if (auto* x = v->find(key); x && !duration(*x, join(cf, key), *dst, 0, 10 * kNsPerMs))
                return false;
        if (auto* x = v->find("timer_jitter");
            x && !distribution(*x, join(cf, "timer_jitter"), c.costs.timerJitter))
            return false;
        // A fixed idle exit is a duration up to 10 ms, as the other costs; a drawn one is kept
        // in that range too (a lognormal's rare huge draw would otherwise stall a CPU).
        if (auto* x = v->find("idle_exit")) {
            Distribution& d = c.costs.idleExit;
            if (x->isString() || x->isNumber()) {
                Time t = 0;
                if (!duration(*x, join(cf, "idle_exit"), t, 0, 10 * kNsPerMs)) return false;
                d = Distribution::fixed(t);
            } else {
                if (!distribution(*x, join(cf, "idle_exit"), d)) return false;
                const Time top = d.kind == Distribution::Kind::Fixed       ? d.a
                                 : d.kind == Distribution::Kind::Uniform   ? d.b
                                 : d.kind == Distribution::Kind::Empirical ? d.quantiles->back()
                                                                           : d.min;
                if (top > 10 * kNsPerMs)
                    return fail(x->pos, join(cf, "idle_exit"),
                                "a value above 10ms; accepted: durations 0ns to 10ms (a distribution's "
                                "\"lo\" too; its draws are kept within 10ms)");
                d.max = std::min(d.max, 10 * kNsPerMs);
            }
        }
    }
    if (std::string e = c.validate(); !e.empty()) return fail(m.pos, f, e);
    return true;
}

bool ScenarioReader::cpuList(const JsonValue& v, const std::string& f, int cpus, CpuMask& out) {
    if (!expect(v, JT::Array, f)) return false;
    if (v.items.empty())
        return fail(v.pos, f, "an empty CPU list allows no CPU; omit the field to allow all");
    for (size_t i = 0; i < v.items.size(); ++i) {
        int c = 0;
        if (!integerAs(v.items[i], idx(f, i), 0, cpus - 1, c)) return false;
        out.set(size_t(c));
    }
    return true;
}

bool ScenarioReader::task(const JsonValue& v, const std::string& f, Scenario& s) {
    if (!expect(v, JT::Object, f)) return false;
    if (v.find("workload")) return workload(v, f, s);
    if (!checkKeys(v, f,
                   {"comm", "count", "threads", "program", "behavior", "policy", "nice", "priority", "slice",
                    "cpus", "start_cpu", "start", "session", "cgroup", "rseq"}))
        return false;
    TaskGroupSpec t;
    if (!taskGrouping(v, f, t.session, t.cgroup)) return false;
    const JsonValue* comm = v.find("comm");
    if (!comm) return fail(v.pos, f, "a task needs a \"comm\" (its name, at most 15 characters)");
    if (!expect(*comm, JT::String, join(f, "comm"))) return false;
    if (comm->text.empty() || comm->text.size() > kCommMaxBytes)
        return fail(comm->pos, join(f, "comm"), "a comm is 1 to 15 bytes (TASK_COMM_LEN)");
    if (const std::string why = commProblem(comm->text); !why.empty())
        return fail(comm->pos, join(f, "comm"),
                    why +
                        "; accepted: printable UTF-8 (a newline would break every trace written of the run)");
    t.comm = comm->text;
    if (auto* x = v.find("count");
        x && !integerAs(*x, join(f, "count"), 1, int(sched::limits::kMaxTasks), t.count))
        return false;
    if (auto* x = v.find("threads"); x && !boolean(*x, join(f, "threads"), t.threads)) return false;
    const JsonValue* prog = v.find("program");
    const JsonValue* beh = v.find("behavior");
    if (prog && beh)
        return fail(beh->pos, join(f, "behavior"), "give either \"program\" or \"behavior\", not both");
    if (prog) {
        if (!expect(*prog, JT::String, join(f, "program"))) return false;
        auto it = programIndex_.find(prog->text);
        if (it == programIndex_.end())
            return fail(prog->pos, join(f, "program"),
                        "no program named '" + prog->text + "' in \"programs\"");
        t.program = it->second;
    } else if (beh) {
        Program p{t.comm, {}, 0};
        if (!ops(*beh, join(f, "behavior"), p, 0)) return false;
        if (std::string e = p.finalize(); !e.empty()) return fail(beh->pos, join(f, "behavior"), e);
        t.program = int32_t(s.programs.size());
        s.programs.push_back(std::move(p));
        s.programNames.push_back(t.comm);
    } else {
        return fail(v.pos, f, "a task needs a \"behavior\" (array of operations) or a \"program\" name");
    }
    if (auto* x = v.find("policy")) {
        if (!expect(*x, JT::String, join(f, "policy"))) return false;
        if (!parsePolicy(x->text, t.policy))
            return fail(x->pos, join(f, "policy"),
                        "unknown policy '" + x->text + "'; accepted: normal, batch, idle, fifo, rr");
    }
    if (auto* x = v.find("nice"); x && !integerAs(*x, join(f, "nice"), -20, 19, t.nice)) return false;
    if (auto* x = v.find("priority")) {
        if (!isRtPolicy(t.policy))
            return fail(x->pos, join(f, "priority"), "an RT priority needs \"policy\": \"fifo\" or \"rr\"");
        if (!integerAs(*x, join(f, "priority"), 1, 99, t.rtPriority)) return false;
    } else if (isRtPolicy(t.policy)) {
        return fail(v.pos, f, "an RT task needs a \"priority\" from 1 to 99");
    }
    if (auto* x = v.find("slice")) {
        if (isRtPolicy(t.policy))
            return fail(x->pos, join(f, "slice"),
                        "a custom slice applies to fair policies only (normal, batch, idle)");
        if (!duration(*x, join(f, "slice"), t.slice, kCustomSliceMin, kCustomSliceMax)) return false;
    }
    if (auto* x = v.find("cpus"); x && !cpuList(*x, join(f, "cpus"), s.config.cpus, t.affinity)) return false;
    if (auto* x = v.find("start_cpu");
        x && !integerAs(*x, join(f, "start_cpu"), 0, s.config.cpus - 1, t.startCpu))
        return false;
    if (t.startCpu >= 0 && t.affinity.any() && !t.affinity.test(size_t(t.startCpu)))
        return fail(v.find("start_cpu")->pos, join(f, "start_cpu"), "the start CPU is not in \"cpus\"");
    if (auto* x = v.find("start"); x && !duration(*x, join(f, "start"), t.start, 0, 3600 * kNsPerSec))
        return false;
    // sys_rseq()'s rseq_len: a larger area selects the optimized v2 ABI (99428157dcf3), the one 7.1
    // grants slice extensions to.
    if (auto* x = v.find("rseq")) {
        if (!expect(*x, JT::String, join(f, "rseq"))) return false;
        if (x->text != "v1" && x->text != "v2")
            return fail(x->pos, join(f, "rseq"),
                        "unknown rseq ABI '" + x->text +
                            "'; accepted: \"v2\" (an rseq area larger than 32 bytes, the optimized ABI; the "
                            "default) or \"v1\" (the original 32 bytes)");
        t.rseqV1 = x->text == "v1";
    }
    s.tasks.push_back(t);
    return true;
}

namespace {
// "2.4" or "2.4.1" (a patch release behaves as its minor one) as major * 100 + minor.
bool parseRelease(const std::string& t, int& out) {
    std::vector<long long> parts;
    size_t from = 0;
    for (size_t dot = 0; dot != std::string::npos && parts.size() < 4; from = dot + 1) {
        dot = t.find('.', from);
        long long n = 0;
        if (!wholeNumber(t.substr(from, dot == std::string::npos ? std::string::npos : dot - from), 0, 999,
                         n))
            return false;
        parts.push_back(n);
    }
    if (parts.size() < 2 || parts.size() > 3 || parts[0] > 99 || parts[1] > 99) return false;
    out = int(parts[0] * 100 + parts[1]);
    return out > 0;
}
} // namespace

// {"workload": "massive_intr", "args": "8 10 8 1", "slice": "100ms", "nice": 0, "start": "1s"}:
// the tool's tasks; slice and nice apply to all of them (forked ones inherit them). "version":
// the tool's release, for the models that follow it (cyclictest's rt-tests).
bool ScenarioReader::workload(const JsonValue& v, const std::string& f, Scenario& s) {
    if (!checkKeys(v, f, {"workload", "args", "version", "slice", "nice", "start", "session", "cgroup"}))
        return false;
    int release = 0;
    const JsonValue* version = v.find("version");
    if (version) {
        if (!expect(*version, JT::String, join(f, "version"))) return false;
        if (!parseRelease(version->text, release))
            return fail(version->pos, join(f, "version"),
                        "'" + version->text +
                            "' is not a release; accepted: MAJOR.MINOR or MAJOR.MINOR.PATCH, e.g. \"2.4\"");
    }
    std::string session, cgroup;
    if (!taskGrouping(v, f, session, cgroup)) return false;
    const JsonValue& tool = *v.find("workload");
    if (!expect(tool, JT::String, join(f, "workload"))) return false;
    std::string args;
    if (auto* a = v.find("args")) {
        if (!expect(*a, JT::String, join(f, "args"))) return false;
        args = a->text;
    }
    Workload w;
    if (tool.text == "rt-app" && version)
        return fail(version->pos, join(f, "version"),
                    "the rt-app model does not depend on the tool's release; leave it out");
    if (tool.text == "rt-app") { // args: an rt-app JSON file, relative to this scenario's directory
        if (args.empty())
            return fail(v.pos, join(f, "args"), "rt-app needs the path of its JSON file in \"args\"");
        std::filesystem::path path(args);
        if (path.is_relative()) path = std::filesystem::path(file_).parent_path() / path;
        std::string text;
        RtAppArgs ra;
        w.tool = "rt-app";
        w.args = args;
        w.comm = "rt-app";
        w.firstGroup = s.tasks.size();
        for (const TaskGroupSpec& g : s.tasks)
            w.firstTask += g.count;
        if (!readTextFile(path.string(), text, err_) || !addRtApp(text, path.string(), s, ra, err_))
            return false;
        w.params = ra;
        w.groups = s.tasks.size() - w.firstGroup;
        for (size_t g = w.firstGroup; g < s.tasks.size(); ++g)
            w.taskCount += s.tasks[g].count;
    } else if (std::string e = addWorkload(tool.text, args, s, w, release); !e.empty()) {
        if (e.rfind("unknown workload", 0) == 0) return fail(tool.pos, join(f, "workload"), e);
        if (e.rfind("version: ", 0) == 0) return fail(version->pos, join(f, "version"), e.substr(9));
        const JsonValue* a = v.find("args");
        return fail(a ? a->pos : v.pos, join(f, "args"), e);
    }
    Time slice = 0, start = 0;
    int nice = 0;
    if (auto* x = v.find("slice");
        x && !duration(*x, join(f, "slice"), slice, kCustomSliceMin, kCustomSliceMax))
        return false;
    if (auto* x = v.find("nice"); x && !integerAs(*x, join(f, "nice"), -20, 19, nice)) return false;
    if (auto* x = v.find("start"); x && !duration(*x, join(f, "start"), start, 0, 3600 * kNsPerSec))
        return false;
    for (size_t g = w.firstGroup; g < w.firstGroup + w.groups; ++g) {
        TaskGroupSpec& t = s.tasks[g];
        t.start = start;
        t.session = session;
        t.cgroup = cgroup;
        if (isRtPolicy(t.policy)) continue; // cyclictest -p: its threads are SCHED_FIFO
        t.slice = slice;
        t.nice = nice;
    }
    s.workloads.push_back(w);
    return true;
}

bool ScenarioReader::change(const JsonValue& v, const std::string& f, Scenario& s) {
    if (!expect(v, JT::Object, f)) return false;
    if (!checkKeys(v, f,
                   {"at", "preempt", "base_slice", "feature", "on", "hz", "task", "slice", "nice", "policy",
                    "priority"}))
        return false;
    TimedChange tc;
    const JsonValue* at = v.find("at");
    if (!at) return fail(v.pos, f, "a change needs \"at\": the simulated time it applies (e.g. \"500ms\")");
    if (!duration(*at, join(f, "at"), tc.at, 0, 3600 * kNsPerSec)) return false;
    ParamChange& c = tc.change;
    int kinds = 0;
    if (auto* x = v.find("preempt")) {
        ++kinds;
        c.kind = ParamChange::Kind::PreemptModel;
        if (!expect(*x, JT::String, join(f, "preempt"))) return false;
        if (!parsePreemptModel(x->text, c.model))
            return fail(x->pos, join(f, "preempt"),
                        "unknown model '" + x->text + "'; accepted: none, voluntary, full, lazy");
        SchedConfig probe = s.config;
        probe.preempt = c.model;
        if (std::string e = probe.validate(); !e.empty()) return fail(x->pos, join(f, "preempt"), e);
    }
    if (auto* x = v.find("base_slice")) {
        ++kinds;
        c.kind = ParamChange::Kind::BaseSlice;
        if (!duration(*x, join(f, "base_slice"), c.value, kCustomSliceMin, kCustomSliceMax)) return false;
    }
    if (auto* x = v.find("feature")) {
        ++kinds;
        c.kind = ParamChange::Kind::Feature;
        if (!expect(*x, JT::String, join(f, "feature"))) return false;
        const auto feat = parseFeature(x->text);
        if (!feat)
            return fail(x->pos, join(f, "feature"),
                        "unknown feature '" + x->text + "' (see machine.features for the list)");
        c.feature = *feat;
        const JsonValue* on = v.find("on");
        if (!on) return fail(v.pos, f, "a feature change needs \"on\": true or false");
        if (!boolean(*on, join(f, "on"), c.on)) return false;
    }
    if (auto* x = v.find("hz")) {
        ++kinds;
        c.kind = ParamChange::Kind::Hz;
        if (!integerAs(*x, join(f, "hz"), 1, 100000, c.hz)) return false;
        if (c.hz != 100 && c.hz != 250 && c.hz != 300 && c.hz != 1000)
            return fail(x->pos, join(f, "hz"), "accepted: 100, 250, 300, 1000");
    }
    if (auto* x = v.find("task")) {
        if (!expect(*x, JT::String, join(f, "task"))) return false;
        const bool known =
            std::any_of(s.tasks.begin(), s.tasks.end(),
                        [&](const TaskGroupSpec& t) { return t.comm == x->text; }) ||
            std::find(s.programNames.begin(), s.programNames.end(), x->text) != s.programNames.end();
        if (!known) return fail(x->pos, join(f, "task"), "no task or program named '" + x->text + "'");
        c.comm = x->text;
        int taskKinds = 0;
        if (auto* y = v.find("slice")) {
            ++taskKinds;
            c.kind = ParamChange::Kind::TaskSlice;
            if (y->isNumber() && y->text == "0")
                c.value = 0;
            else if (!duration(*y, join(f, "slice"), c.value, kCustomSliceMin, kCustomSliceMax))
                return false;
        }
        if (auto* y = v.find("nice")) {
            ++taskKinds;
            c.kind = ParamChange::Kind::TaskNice;
            if (!integerAs(*y, join(f, "nice"), -20, 19, c.nice)) return false;
        }
        if (auto* y = v.find("policy")) {
            ++taskKinds;
            c.kind = ParamChange::Kind::TaskPolicy;
            if (!expect(*y, JT::String, join(f, "policy")) || !parsePolicy(y->text, c.policy))
                return fail(y->pos, join(f, "policy"), "accepted: normal, batch, idle, fifo, rr");
            if (isRtPolicy(c.policy)) {
                const JsonValue* p = v.find("priority");
                if (!p) return fail(v.pos, f, "an RT policy change needs \"priority\" (1..99)");
                if (!integerAs(*p, join(f, "priority"), 1, 99, c.rtPriority)) return false;
            }
        }
        if (taskKinds != 1)
            return fail(x->pos, f, "a task change sets exactly one of \"slice\", \"nice\", \"policy\"");
        ++kinds;
    }
    if (kinds != 1)
        return fail(v.pos, f,
                    "a change sets exactly one of: preempt, base_slice, feature, hz, or task (with slice, "
                    "nice or policy)");
    s.changes.push_back(tc);
    return true;
}

} // namespace detail

using detail::ScenarioReader;

bool parseScenario(const std::string& text, const std::string& fileName, Scenario& out, ScenarioError& err) {
    JsonValue root;
    JsonError je;
    if (!parseJson(text, root, je)) {
        err = ScenarioError{fileName, je.pos.line, je.pos.column, "", "JSON syntax: " + je.message};
        return false;
    }
    return parseScenarioJson(root, fileName, "", out, err);
}

bool parseScenarioJson(const JsonValue& root, const std::string& fileName, const std::string& fieldPrefix,
                       Scenario& out, ScenarioError& err) {
    Scenario s;
    s.source = fileName;
    ScenarioReader r(fileName, err);
    if (!r.read(root, s)) {
        if (!fieldPrefix.empty()) err.field = err.field.empty() ? fieldPrefix : fieldPrefix + "." + err.field;
        return false;
    }
    if (s.name.empty()) s.name = fileName;
    out = std::move(s);
    return true;
}

} // namespace scen
