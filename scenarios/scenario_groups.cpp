// SPDX-License-Identifier: GPL-3.0-or-later
// Group scheduling in a scenario: the "cgroups" and "sessions" tables, a task's "cgroup" and
// "session", machine.autogroup; and the engine's task groups made from them. A task in a cgroup
// is in that cgroup's group (autogroup does not apply outside the root cgroup:
// task_wants_autogroup()); a task in the root cgroup with a session is in the session's autogroup
// while kernel.sched_autogroup_enabled is set; anything else is in the root task group, as kernel
// threads are.
#include "engine/weights.h"
#include "scenarios/scenario_reader.h"

namespace scen {

namespace detail {

namespace {

constexpr size_t kNameMax = 64;
constexpr int kMaxDepth = 16;

// "/a/b": absolute, components of [A-Za-z0-9._-@:], not "/" itself, at most kMaxDepth deep.
std::string cgroupPathProblem(const std::string& p) {
    if (p.empty() || p[0] != '/') return "a cgroup path starts with '/', e.g. \"/user.slice/build\"";
    if (p == "/") return "\"/\" is the root cgroup: omit the field for a task in the root";
    if (p.back() == '/') return "no trailing '/'";
    if (p.size() > 255) return "at most 255 bytes";
    int depth = 0;
    for (size_t i = 0; i < p.size(); ++i) {
        const char ch = p[i];
        if (ch == '/') {
            if (i + 1 < p.size() && p[i + 1] == '/') return "an empty component ('//')";
            if (++depth > kMaxDepth) return "at most " + std::to_string(kMaxDepth) + " levels";
            continue;
        }
        const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                        ch == '.' || ch == '_' || ch == '-' || ch == '@' || ch == ':';
        if (!ok) return std::string("the character '") + ch + "' (accepted: letters, digits, . _ - @ :)";
    }
    return {};
}

std::string sessionProblem(const std::string& n) {
    if (n.empty() || n.size() > kNameMax)
        return "a session name is 1 to " + std::to_string(kNameMax) + " bytes";
    for (char ch : n)
        if (ch < 0x21 || ch > 0x7e) return "a session name is printable ASCII without spaces";
    return {};
}

} // namespace

bool ScenarioReader::taskGrouping(const JsonValue& v, const std::string& f, std::string& session,
                                  std::string& cgroup) {
    if (auto* x = v.find("session")) {
        if (!expect(*x, JT::String, join(f, "session"))) return false;
        if (const std::string why = sessionProblem(x->text); !why.empty())
            return fail(x->pos, join(f, "session"), why);
        session = x->text;
    }
    if (auto* x = v.find("cgroup")) {
        if (!expect(*x, JT::String, join(f, "cgroup"))) return false;
        if (const std::string why = cgroupPathProblem(x->text); !why.empty())
            return fail(x->pos, join(f, "cgroup"), "'" + x->text + "': " + why);
        cgroup = x->text;
    }
    return true;
}

// "cgroups": {"/build": {"weight": 50}}: cpu.weight per cgroup (cgroup v2, 1 ... 10000, default 100).
bool ScenarioReader::cgroups(const JsonValue& v, Scenario& s) {
    return namedSettings(v, "cgroups", "weight", 1, 10000, 100, s.grouping.cgroupWeight,
                         [](const std::string& path) {
                             const std::string why = cgroupPathProblem(path);
                             return why.empty() ? why : "'" + path + "': " + why;
                         });
}

// "sessions": {"desktop": {"nice": 5}}: an autogroup's nice (echo 5 > /proc/PID/autogroup).
bool ScenarioReader::sessions(const JsonValue& v, Scenario& s) {
    return namedSettings(v, "sessions", "nice", -20, 19, 0, s.grouping.sessionNice, sessionProblem);
}

// A table of names, each with one integer setting: {"NAME": {"KEY": N}}.
bool ScenarioReader::namedSettings(const JsonValue& v, const std::string& f, const char* key, int lo, int hi,
                                   int dflt, std::map<std::string, int>& out,
                                   const std::function<std::string(const std::string&)>& nameProblem) {
    if (!expect(v, JT::Object, f)) return false;
    for (size_t i = 0; i < v.members.size(); ++i) {
        const auto& [name, body] = v.members[i];
        const std::string fi = f + "." + name;
        if (const std::string why = nameProblem(name); !why.empty()) return fail(v.keyPos[i], fi, why);
        if (!expect(body, JT::Object, fi) || !checkKeys(body, fi, {key})) return false;
        int value = dflt;
        if (auto* x = body.find(key); x && !integerAs(*x, join(fi, key), lo, hi, value)) return false;
        out[name] = value;
    }
    return true;
}

} // namespace detail

std::vector<sched::GroupId> addTaskGroups(const Scenario& s, sched::Engine& e) {
    std::map<std::string, sched::GroupId> made;
    // A cgroup and its ancestors, parents first; cpu.weight w gives tg->shares = w * 1024 / 100,
    // rounded (sched_weight_from_cgroup()).
    auto cgroup = [&](const std::string& path, auto& self) -> sched::GroupId {
        if (auto it = made.find(path); it != made.end()) return it->second;
        const size_t slash = path.rfind('/');
        const sched::GroupId parent = slash == 0 ? sched::kRootGroup : self(path.substr(0, slash), self);
        const auto w = s.grouping.cgroupWeight.find(path);
        const int64_t weight = w == s.grouping.cgroupWeight.end() ? 100 : w->second;
        const sched::GroupId g = e.addTaskGroup(path, parent, (weight * 1024 + 50) / 100);
        made[path] = g;
        return g;
    };
    std::vector<sched::GroupId> out;
    for (const TaskGroupSpec& t : s.tasks) {
        if (!inTaskGroup(t, s.grouping)) {
            out.push_back(sched::kRootGroup);
        } else if (!t.cgroup.empty()) {
            out.push_back(cgroup(t.cgroup, cgroup));
        } else {
            // autogroup_create(): a child of the root group; its nice sets the shares
            // (proc_sched_autogroup_set_nice(): sched_prio_to_weight[nice + 20]).
            const std::string key = "session:" + t.session; // cgroup paths start with '/'
            if (auto it = made.find(key); it != made.end()) {
                out.push_back(it->second);
                continue;
            }
            const auto n = s.grouping.sessionNice.find(t.session);
            const int nice = n == s.grouping.sessionNice.end() ? 0 : n->second;
            const sched::GroupId g =
                e.addTaskGroup("/autogroup-" + t.session, sched::kRootGroup, sched::niceToWeight(nice));
            made[key] = g;
            out.push_back(g);
        }
    }
    return out;
}

} // namespace scen
