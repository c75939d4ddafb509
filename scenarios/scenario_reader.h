// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario reader (JSON -> Scenario), internal to two files: scenario_parser.cpp reads the top
// level, machine, tasks, workloads and changes; scenario_reader_ops.cpp the behaviour language
// (operations and the distributions of their durations). Every error names file, line, column
// and field.
#pragma once

#include "scenarios/json_value.h"
#include "scenarios/scenario.h"

#include "base/duration.h"

#include <algorithm>
#include <functional>
#include <map>
#include <string>

namespace scen::detail {

using namespace sched;
using JT = JsonValue::Type;

class ScenarioReader {
  public:
    ScenarioReader(const std::string& file, ScenarioError& err) : file_(file), err_(err) {}

    bool read(const JsonValue& root, Scenario& s);

  private:
    bool fail(const JsonPos& p, const std::string& field, const std::string& msg) {
        err_ = ScenarioError{file_, p.line, p.column, field, msg};
        return false;
    }
    bool expect(const JsonValue& v, JT t, const std::string& field) {
        if (v.type == t) return true;
        return fail(v.pos, field, "expected " + jsonTypeName(t) + ", found " + jsonTypeName(v.type));
    }
    bool checkKeys(const JsonValue& obj, const std::string& field,
                   std::initializer_list<const char*> allowed) {
        for (size_t i = 0; i < obj.members.size(); ++i) {
            const std::string& k = obj.members[i].first;
            if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return k == a; })) {
                std::string list;
                for (const char* a : allowed)
                    list += (list.empty() ? "" : ", ") + std::string(a);
                return fail(obj.keyPos[i], join(field, k), "unknown field; accepted here: " + list);
            }
        }
        return true;
    }
    static std::string join(const std::string& a, const std::string& b) {
        return a.empty() ? b : a + "." + b;
    }
    static std::string idx(const std::string& a, size_t i) { return a + "[" + std::to_string(i) + "]"; }

    bool duration(const JsonValue& v, const std::string& f, Time& out, Time lo = 0,
                  Time hi = 1000 * kNsPerSec) {
        if (v.isNumber())
            return fail(v.pos, f,
                        "a duration needs a unit: write e.g. \"" + v.text + "ms\" (units: ns, us, ms, s)");
        if (!expect(v, JT::String, f)) return false;
        const auto d = parseDuration(v.text);
        if (!d)
            return fail(
                v.pos, f,
                "'" + v.text +
                    "' is not a duration; write a number with a unit: ns, us, ms or s (e.g. \"0.7ms\")");
        if (*d < lo || *d > hi)
            return fail(v.pos, f,
                        "'" + v.text + "' is out of range; accepted: " + formatDuration(lo) + " to " +
                            formatDuration(hi));
        out = *d;
        return true;
    }
    bool integer(const JsonValue& v, const std::string& f, long long lo, long long hi, long long& out) {
        if (!expect(v, JT::Number, f)) return false;
        const auto i = v.integer();
        if (!i) return fail(v.pos, f, "'" + v.text + "' is not a whole number");
        if (*i < lo || *i > hi)
            return fail(v.pos, f,
                        v.text + " is out of range; accepted: " + std::to_string(lo) + " to " +
                            std::to_string(hi));
        out = *i;
        return true;
    }
    template <class T>
    bool integerAs(const JsonValue& v, const std::string& f, long long lo, long long hi, T& out) {
        long long x = 0;
        if (!integer(v, f, lo, hi, x)) return false;
        out = T(x);
        return true;
    }
    bool boolean(const JsonValue& v, const std::string& f, bool& out) {
        if (!expect(v, JT::Bool, f)) return false;
        out = v.boolean;
        return true;
    }

    bool machine(const JsonValue& m, Scenario& s);
    bool distribution(const JsonValue& v, const std::string& f, Distribution& out);
    bool ops(const JsonValue& arr, const std::string& f, Program& prog, int depth);
    bool op(const JsonValue& v, const std::string& f, Program& prog, int depth);
    bool cycle(const JsonValue& v, const std::string& f, Program& prog);
    // The options of a run (mode, resched points) and of a sleep (jiffies, idle), on a run or sleep
    // op or on a cycle, whose run and sleep take them.
    bool runOptions(const JsonValue& v, const std::string& f, Op& op);
    bool sleepOptions(const JsonValue& v, const std::string& f, Op& op);
    bool task(const JsonValue& v, const std::string& f, Scenario& s);
    bool change(const JsonValue& v, const std::string& f, Scenario& s);
    bool workload(const JsonValue& v, const std::string& f, Scenario& s);
    bool cpuList(const JsonValue& v, const std::string& f, int cpus, CpuMask& out);
    // scenario_groups.cpp
    bool cgroups(const JsonValue& v, Scenario& s);
    bool sessions(const JsonValue& v, Scenario& s);
    bool namedSettings(const JsonValue& v, const std::string& f, const char* key, int lo, int hi, int dflt,
                       std::map<std::string, int>& out,
                       const std::function<std::string(const std::string&)>& nameProblem);
    bool taskGrouping(const JsonValue& v, const std::string& f, std::string& session, std::string& cgroup);

    std::string file_;
    ScenarioError& err_;
    std::map<std::string, int> programIndex_;
    std::map<std::string, int> channelIndex_;
    std::map<std::string, int> mutexIndex_;
    std::vector<int> held_; // the mutexes the program being read holds at its current op
};

} // namespace scen::detail
