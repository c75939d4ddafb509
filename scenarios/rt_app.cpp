// SPDX-License-Identifier: GPL-3.0-or-later
// rt-app (scheduler-tools/rt-app: doc/tutorial.txt, src/rt-app_parse_config.c) JSON workloads, the
// common subset: tasks with instance, loop, policy, priority, cpus, delay, dl-runtime (a custom
// EEVDF slice on a fair task, Linux 6.12+, as in doc/examples/custom-slice.json), phases, and the
// events run, runtime, sleep, timer and yield, executed in file order; the global section's
// duration and default_policy. Anything else that changes scheduling is refused with its line and
// what is supported, never skipped.
#include "engine/custom_slice.h"
#include "scenarios/json_value.h"
#include "scenarios/workload.h"
#include "trace/comm.h"

#include <algorithm>
#include <cstdio>

namespace scen {

using namespace sched;
using JT = JsonValue::Type;

namespace {

class RtAppReader {
  public:
    RtAppReader(const std::string& file, ScenarioError& err) : file_(file), err_(err) {}

    bool read(const JsonValue& root, Scenario& s, RtAppArgs& out);

  private:
    bool fail(const JsonPos& p, const std::string& field, const std::string& msg) {
        err_ = ScenarioError{file_, p.line, p.column, field, msg};
        return false;
    }
    bool integer(const JsonValue& v, const std::string& f, long long lo, long long hi, long long& out) {
        if (!v.isNumber() || !v.integer())
            return fail(v.pos, f,
                        "expected a whole number, found " +
                            (v.isNumber() ? "'" + v.text + "'" : jsonTypeName(v.type)));
        out = *v.integer();
        if (out < lo || out > hi)
            return fail(v.pos, f,
                        v.text + " is out of range; accepted: " + std::to_string(lo) + " to " +
                            std::to_string(hi));
        return true;
    }
    bool micros(const JsonValue& v, const std::string& f, Time& out, long long lo = 0) {
        long long us = 0;
        if (!integer(v, f, lo, 3600LL * 1000 * 1000, us)) return false;
        out = Time(us) * kNsPerUs;
        return true;
    }
    bool policy(const JsonValue& v, const std::string& f, Policy& out) {
        if (!v.isString()) return fail(v.pos, f, "expected a policy name, found " + jsonTypeName(v.type));
        static const std::pair<const char*, Policy> names[] = {{"SCHED_OTHER", Policy::Normal},
                                                               {"SCHED_BATCH", Policy::Batch},
                                                               {"SCHED_IDLE", Policy::Idle},
                                                               {"SCHED_FIFO", Policy::Fifo},
                                                               {"SCHED_RR", Policy::RR}};
        for (const auto& [n, p] : names)
            if (v.text == n) {
                out = p;
                return true;
            }
        if (v.text == "SCHED_DEADLINE")
            return fail(v.pos, f,
                        "SCHED_DEADLINE is not modelled; accepted: SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, "
                        "SCHED_FIFO, SCHED_RR "
                        "(dl-runtime on SCHED_OTHER sets a custom slice)");
        return fail(v.pos, f,
                    "unknown policy '" + v.text +
                        "'; accepted: SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR");
    }
    bool global(const JsonValue& g, Scenario& s, Policy& defaultPolicy, long long& duration);
    bool task(const std::string& name, const JsonValue& v, const JsonPos& keyPos, Policy defaultPolicy,
              Scenario& s);
    bool events(const JsonValue& obj, const std::string& f, Program& p, bool& consumesTime);

    std::string file_;
    ScenarioError& err_;
    bool forever_ = false;
};

// Output and system settings that do not change what is scheduled: accepted and ignored.
constexpr const char* kIgnoredGlobals[] = {"calibration", "logdir",          "log_basename",    "log_size",
                                           "lock_pages",  "ftrace",          "gnuplot",         "pi_enabled",
                                           "io_device",   "mem_buffer_size", "cumulative_slack"};

bool RtAppReader::global(const JsonValue& g, Scenario& s, Policy& defaultPolicy, long long& duration) {
    if (!g.isObject()) return fail(g.pos, "global", "expected an object, found " + jsonTypeName(g.type));
    for (size_t i = 0; i < g.members.size(); ++i) {
        // Named references, not a structured binding: lambdas below capture k (Clang < 16 cannot).
        const std::string& k = g.members[i].first;
        const JsonValue& v = g.members[i].second;
        const std::string f = "global." + k;
        if (k == "duration") {
            if (!integer(v, f, -1, 86400, duration)) return false;
            if (duration == 0)
                return fail(v.pos, f,
                            "0 s is no run; accepted: -1 (until the tasks end) or 1 to 86400 seconds");
        } else if (k == "default_policy") {
            if (!policy(v, f, defaultPolicy)) return false;
        } else if (std::none_of(std::begin(kIgnoredGlobals), std::end(kIgnoredGlobals),
                                [&](const char* n) { return k == n; })) {
            std::string list = "duration, default_policy";
            for (const char* n : kIgnoredGlobals)
                list += std::string(", ") + n;
            return fail(g.keyPos[i], f, "unknown global setting; accepted: " + list);
        }
    }
    (void)s;
    return true;
}

// The events of a task or phase, in file order. rt-app matches event names by prefix, so that an
// object can hold several of a kind ("run0", "sleep1").
bool RtAppReader::events(const JsonValue& obj, const std::string& f, Program& p, bool& consumesTime) {
    static const char* const kTaskKeys[] = {"instance", "loop",       "policy",    "priority",    "cpus",
                                            "delay",    "dl-runtime", "dl-period", "dl-deadline", "phases"};
    static const char* const kUnsupported[] = {"lock",      "unlock",   "wait",     "signal",       "broad",
                                               "sync",      "barrier",  "suspend",  "resume",       "mem",
                                               "iorun",     "memrun",   "sem_post", "sem_wait",     "fork",
                                               "taskgroup", "util_min", "util_max", "nodes_membind"};
    for (size_t i = 0; i < obj.members.size(); ++i) {
        const std::string& k = obj.members[i].first; // captured below: see global()
        const JsonValue& v = obj.members[i].second;
        const std::string ef = f + "." + k;
        if (std::any_of(std::begin(kTaskKeys), std::end(kTaskKeys), [&](const char* t) { return k == t; }))
            continue;
        const auto is = [&](const char* prefix) { return k.rfind(prefix, 0) == 0; };
        Op op;
        if (is("runtime")) {
            // rt-app spins until this much wall time has passed; modelled as that much CPU time
            // (the same when the thread is not preempted while it spins).
            Time d = 0;
            if (!micros(v, ef, d)) return false;
            op = ops::run(d);
            consumesTime = consumesTime || d > 0;
        } else if (is("run")) {
            Time d = 0;
            if (!micros(v, ef, d)) return false;
            op = ops::run(d);
            consumesTime = consumesTime || d > 0;
        } else if (is("sleep")) {
            Time d = 0;
            if (!micros(v, ef, d)) return false;
            op = ops::sleep(d);
            consumesTime = true;
        } else if (is("timer")) {
            if (!v.isObject())
                return fail(
                    v.pos, ef,
                    "a timer is an object: {\"ref\": \"name\", \"period\": US, \"mode\": \"absolute\"}");
            for (size_t j = 0; j < v.members.size(); ++j)
                if (v.members[j].first != "ref" && v.members[j].first != "period" &&
                    v.members[j].first != "mode")
                    return fail(v.keyPos[j], ef + "." + v.members[j].first,
                                "unknown timer field; accepted: ref, period, mode");
            const JsonValue* period = v.find("period");
            if (!period) return fail(v.pos, ef, "a timer needs a \"period\" in microseconds");
            op.kind = OpKind::TimerWait;
            if (!micros(*period, ef + ".period", op.period, 1)) return false;
            if (const JsonValue* m = v.find("mode");
                m && (!m->isString() || (m->text != "absolute" && m->text != "relative")))
                return fail(m->pos, ef + ".mode", "accepted: \"absolute\" or \"relative\"");
            op.cost = 2 * kNsPerUs; // clock_nanosleep() entry
            consumesTime = true;
        } else if (is("yield")) {
            op = ops::simple(OpKind::Yield);
        } else if (std::any_of(std::begin(kUnsupported), std::end(kUnsupported),
                               [&](const char* u) { return is(u); })) {
            return fail(obj.keyPos[i], ef,
                        "the rt-app event '" + k +
                            "' is not modelled; supported: run, runtime, sleep, timer, yield");
        } else {
            return fail(obj.keyPos[i], ef,
                        "unknown rt-app key '" + k +
                            "'; events: run, runtime, sleep, timer, yield; task settings: "
                            "instance, loop, policy, priority, cpus, delay, dl-runtime, phases");
        }
        p.ops.push_back(op);
    }
    return true;
}

bool RtAppReader::task(const std::string& name, const JsonValue& v, const JsonPos& keyPos,
                       Policy defaultPolicy, Scenario& s) {
    const std::string f = "tasks." + name;
    if (!v.isObject()) return fail(v.pos, f, "expected an object, found " + jsonTypeName(v.type));
    if (name.empty() || name.size() > kCommMaxBytes)
        return fail(keyPos, f, "a task name is its comm: 1 to 15 bytes (TASK_COMM_LEN)");
    if (const std::string why = commProblem(name); !why.empty())
        return fail(keyPos, f, "a task name is its comm: " + why + "; accepted: printable UTF-8");
    TaskGroupSpec g;
    g.comm = name;
    g.policy = defaultPolicy;
    long long n = 1;
    if (auto* x = v.find("instance")) {
        if (!integer(*x, f + ".instance", 1, 10000, n)) return false;
    }
    g.count = int(n);
    if (auto* x = v.find("policy"); x && !policy(*x, f + ".policy", g.policy)) return false;
    if (auto* x = v.find("priority")) {
        if (isRtPolicy(g.policy)) {
            if (!integer(*x, f + ".priority", 1, 99, n)) return false;
            g.rtPriority = int(n);
        } else {
            if (!integer(*x, f + ".priority", -20, 19, n)) return false; // the nice value for fair policies
            g.nice = int(n);
        }
    } else if (isRtPolicy(g.policy)) {
        g.rtPriority = 10; // rt-app's default priority for RT policies
    }
    if (auto* x = v.find("cpus")) {
        if (!x->isArray() || x->items.empty())
            return fail(x->pos, f + ".cpus", "expected a non-empty array of CPU numbers");
        // Checked against the machine once its CPU count is settled (placementError(): an
        // rt-app file has no machine; --cpus or the default decides it).
        for (size_t i = 0; i < x->items.size(); ++i) {
            const std::string field = f + ".cpus[" + std::to_string(i) + "]";
            if (!integer(x->items[i], field, 0, sched::kMaxCpus - 1, n)) return false;
            if (n >= s.config.cpus && g.affinityWhere.empty())
                g.affinityWhere = file_ + ":" + std::to_string(x->items[i].pos.line) + ":" +
                                  std::to_string(x->items[i].pos.column) + ": " + field;
            g.affinity.set(size_t(n));
        }
    }
    if (auto* x = v.find("delay"); x && !micros(*x, f + ".delay", g.start)) return false;
    if (auto* x = v.find("dl-runtime")) {
        // Linux 6.12+: sched_attr.sched_runtime on a fair task requests a custom slice, which
        // the kernel clamps to 0.1 .. 100 ms.
        if (isRtPolicy(g.policy))
            return fail(x->pos, f + ".dl-runtime",
                        "dl-runtime sets a custom slice of a fair task; this task is RT");
        if (!micros(*x, f + ".dl-runtime", g.slice)) return false;
        g.slice = std::clamp<Time>(g.slice, kCustomSliceMin, kCustomSliceMax);
    }
    for (const char* dl : {"dl-period", "dl-deadline"})
        if (auto* x = v.find(dl))
            return fail(
                x->pos, f + "." + dl,
                "SCHED_DEADLINE parameters are not modelled (dl-runtime alone sets a fair task's slice)");
    long long loop = -1;
    if (auto* x = v.find("loop")) {
        if (!integer(*x, f + ".loop", -1, 1LL << 40, loop)) return false;
        if (loop == 0)
            return fail(x->pos, f + ".loop",
                        "0 runs nothing; accepted: -1 (for ever) or a count of 1 or more");
    }
    Program p{name, {}, 0};
    bool consumesTime = false;
    if (auto* phases = v.find("phases")) {
        if (!phases->isObject() || phases->members.empty())
            return fail(phases->pos, f + ".phases",
                        "expected an object of named phases, each with events and an optional loop");
        for (size_t i = 0; i < phases->members.size(); ++i) {
            const auto& [pname, ph] = phases->members[i];
            const std::string pf = f + ".phases." + pname;
            if (!ph.isObject())
                return fail(ph.pos, pf, "expected an object of events, found " + jsonTypeName(ph.type));
            const int32_t start = int32_t(p.ops.size());
            for (size_t j = 0; j < ph.members.size(); ++j)
                if (ph.members[j].first != "loop" && ph.members[j].first.rfind("run", 0) != 0 &&
                    ph.members[j].first.rfind("sleep", 0) != 0 &&
                    ph.members[j].first.rfind("timer", 0) != 0 && ph.members[j].first.rfind("yield", 0) != 0)
                    return fail(ph.keyPos[j], pf + "." + ph.members[j].first,
                                "a phase holds events (run, runtime, sleep, timer, yield) and \"loop\"; the "
                                "rt-app event '" +
                                    ph.members[j].first + "' is not modelled");
            if (!events(ph, pf, p, consumesTime)) return false;
            if (int32_t(p.ops.size()) == start) return fail(ph.pos, pf, "a phase needs at least one event");
            long long ploop = 1;
            if (auto* x = ph.find("loop"); x && !integer(*x, pf + ".loop", 1, 1LL << 40, ploop)) return false;
            if (ploop > 1) p.ops.push_back(ops::loop(start, ploop));
        }
    } else {
        if (!events(v, f, p, consumesTime)) return false;
    }
    if (p.ops.empty())
        return fail(v.pos, f, "a task needs events (run, runtime, sleep, timer, yield) or \"phases\"");
    if (!consumesTime)
        return fail(v.pos, f,
                    "the task's events take no time (no run, sleep or timer of more than 0 us): it would "
                    "spin without time passing");
    // The task's loop repeats the whole event list (or all phases); -1 = for ever.
    if (loop != 1) p.ops.push_back(ops::loop(0, loop < 0 ? 0 : loop));
    if (loop < 0) forever_ = true;
    p.ops.push_back(ops::simple(OpKind::Exit));
    if (std::string e = p.finalize(); !e.empty()) return fail(v.pos, f, e);
    g.program = addProgram(s, std::move(p), "rt-app." + name);
    g.threads = g.count > 1;
    s.tasks.push_back(g);
    return true;
}

bool RtAppReader::read(const JsonValue& root, Scenario& s, RtAppArgs& out) {
    if (!root.isObject())
        return fail(root.pos, "(top level)",
                    "an rt-app file is an object with \"tasks\" and an optional \"global\"");
    for (size_t i = 0; i < root.members.size(); ++i)
        if (root.members[i].first != "tasks" && root.members[i].first != "global" &&
            root.members[i].first != "resources")
            return fail(root.keyPos[i], root.members[i].first,
                        "unknown section; accepted: tasks, global (resources: only unused ones)");
    if (auto* r = root.find("resources"); r && (!r->isObject() || !r->members.empty()))
        return fail(r->pos, "resources",
                    "shared resources (mutexes, condition variables, barriers) are not modelled");
    Policy defaultPolicy = Policy::Normal;
    long long duration = -1;
    if (auto* g = root.find("global"); g && !global(*g, s, defaultPolicy, duration)) return false;
    const JsonValue* tasks = root.find("tasks");
    if (!tasks) return fail(root.pos, "tasks", "an rt-app file needs \"tasks\": an object of named tasks");
    if (!tasks->isObject() || tasks->members.empty())
        return fail(tasks->pos, "tasks", "expected an object with at least one named task");
    for (size_t i = 0; i < tasks->members.size(); ++i)
        if (!task(tasks->members[i].first, tasks->members[i].second, tasks->keyPos[i], defaultPolicy, s))
            return false;
    out.duration = duration > 0 ? Time(duration) * kNsPerSec : 0;
    out.loopsForever = forever_;
    return true;
}

} // namespace

bool addRtApp(const std::string& text, const std::string& file, Scenario& s, RtAppArgs& out,
              ScenarioError& err) {
    JsonValue root;
    JsonError je;
    if (!parseJson(text, root, je)) {
        err = ScenarioError{file, je.pos.line, je.pos.column, "", "JSON syntax: " + je.message};
        return false;
    }
    out.file = file;
    RtAppReader r(file, err);
    return r.read(root, s, out);
}

bool looksLikeRtApp(const std::string& text) {
    JsonValue root;
    JsonError je;
    if (!parseJson(text, root, je) || !root.isObject()) return false;
    const JsonValue* tasks = root.find("tasks");
    return (tasks && tasks->isObject()) || root.find("global");
}

std::string rtAppReport(const Workload& w, const Engine& e) {
    // Per task instance, what rt-app's log summarises: loops done, CPU time, and the wake-up
    // latency after timer events (wu_lat).
    std::string out = "#name             passes     run(us)   wu_lat avg(us)  wu_lat max(us)\n";
    char b[200];
    for (size_t t = size_t(w.firstTask);
         t < e.tasks().size() && t < size_t(w.firstTask) + size_t(w.taskCount); ++t) {
        const Task& task = e.tasks()[t];
        const double avg = task.latCount ? double(task.latSum) / double(task.latCount) / 1e3 : 0.0;
        const std::string name = task.comm + "-" + std::to_string(t - size_t(w.firstTask));
        std::snprintf(b, sizeof b, "%-19s %8lld %11.0f %16.1f %15.1f\n", name.c_str(),
                      (long long)task.iterations, double(task.utime + task.stime) / 1e3, avg,
                      double(task.latMax) / 1e3);
        out += b;
    }
    return out;
}

} // namespace scen
