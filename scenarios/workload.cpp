// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenarios/workload.h"

#include <charconv>
#include <sstream>

namespace scen {

namespace ops {
using namespace sched;
Op run(Time work, ExecMode mode) {
    return run(Distribution::fixed(work), mode);
}
Op run(const Distribution& work, ExecMode mode) {
    Op o;
    o.kind = OpKind::Run;
    o.mode = mode;
    o.duration = work;
    return o;
}
Op sleep(Time d) {
    Op o;
    o.kind = OpKind::Sleep;
    o.duration = Distribution::fixed(d);
    return o;
}
Op channel(OpKind readOrWrite, int32_t ch, Time cost) {
    Op o;
    o.kind = readOrWrite;
    o.channel = ch;
    o.cost = cost;
    return o;
}
Op loop(int32_t target, int64_t count, Time until) {
    Op o;
    o.kind = OpKind::Loop;
    o.target = target;
    o.count = count;
    o.until = until;
    return o;
}
Op fork(int32_t program, int64_t count, bool thread, Time cost) {
    Op o;
    o.kind = OpKind::Fork;
    o.target = program;
    o.count = count;
    o.thread = thread;
    o.cost = cost;
    return o;
}
Op simple(OpKind kind) {
    Op o;
    o.kind = kind;
    return o;
}
} // namespace ops

bool wholeNumber(const std::string& s, long long lo, long long hi, long long& out) {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size() && out >= lo && out <= hi;
}

int32_t addProgram(Scenario& s, sched::Program p, const std::string& name) {
    p.finalize();
    s.programs.push_back(std::move(p));
    s.programNames.push_back(name);
    return int32_t(s.programs.size() - 1);
}

int64_t histogramPercentile(const std::vector<int64_t>& bins, double p) {
    int64_t total = 0;
    for (int64_t c : bins)
        total += c;
    if (total == 0) return 0;
    const int64_t rank = int64_t(p * double(total - 1)) + 1;
    int64_t seen = 0;
    for (size_t b = 0; b < bins.size(); ++b)
        if ((seen += bins[b]) >= rank) return int64_t(b);
    return int64_t(bins.size() - 1);
}

std::vector<std::string> splitArgs(const std::string& args) {
    std::istringstream in(args);
    std::vector<std::string> out;
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

namespace {

// Parses a tool's command line into its arguments, then adds its tasks to the scenario.
template <class Args, class Parse, class Add>
std::string build(Scenario& s, Workload& out, Parse parse, Add add) {
    Args a;
    if (std::string e = parse(a); !e.empty()) return e;
    add(a, s);
    out.params = a;
    return {};
}

using Argv = std::vector<std::string>;

// The tools a scenario can name, each with the comm its tasks carry (what perf sched latency
// groups by) and whether it is background load (a run ends when the foreground ones are done).
struct Tool {
    const char* name;
    const char* comm;
    bool background;
    std::string (*make)(const Argv& argv, Scenario& s, Workload& out);
    // Whether the model follows the tool's release (a scenario's "version"), and from which on.
    int firstRelease = 0;
};

const Tool kTools[] = {
    {"massive_intr", "massive_intr", false,
     [](const Argv& argv, Scenario& s, Workload& w) {
         return build<MassiveIntrArgs>(
             s, w, [&](MassiveIntrArgs& a) { return parseMassiveIntr(argv, a); }, addMassiveIntr);
     }},
    {"cyclictest", "cyclictest", false,
     [](const Argv& argv, Scenario& s, Workload& w) {
         return build<CyclictestArgs>(
             s, w, [&](CyclictestArgs& a) { return parseCyclictest(argv, s.config.cpus, w.release, a); },
             addCyclictest);
     },
     200}, // rt-tests 2.0 (2021): its affinity default is the oldest the model knows
    {"messaging", "sched-messaging", false,
     [](const Argv& argv, Scenario& s, Workload& w) {
         return build<MessagingArgs>(
             s, w, [&](MessagingArgs& a) { return parseMessaging(argv, true, a); }, addMessaging);
     }},
    {"hackbench", "hackbench", false,
     [](const Argv& argv, Scenario& s, Workload& w) {
         return build<MessagingArgs>(
             s, w, [&](MessagingArgs& a) { return parseMessaging(argv, false, a); }, addMessaging);
     }},
    {"kernbench", "make", false,
     [](const Argv& argv, Scenario& s, Workload& w) {
         return build<KernbenchArgs>(
             s, w, [&](KernbenchArgs& a) { return parseKernbench(argv, s.config.cpus, a); }, addKernbench);
     }},
    {"kthreads", "kworker", true,
     [](const Argv& argv, Scenario& s, Workload& w) {
         return build<KthreadsArgs>(
             s, w, [&](KthreadsArgs& a) { return parseKthreads(argv, a); }, addKthreads);
     }},
    {"browser", "chromium-browse", true,
     [](const Argv& argv, Scenario& s, Workload& w) {
         return build<BrowserArgs>(
             s, w, [&](BrowserArgs& a) { return parseBrowser(argv, a); }, addBrowser);
     }},
    {"schbench", "schbench", false,
     [](const Argv& argv, Scenario& s, Workload& w) {
         return build<SchbenchArgs>(
             s, w, [&](SchbenchArgs& a) { return parseSchbench(argv, s.config.cpus, a); }, addSchbench);
     }},
};

} // namespace

// rt-app reads a file rather than a command line; the scenario reader handles it.
std::vector<std::string> workloadTools() {
    std::vector<std::string> names;
    for (const Tool& t : kTools)
        names.push_back(t.name);
    names.push_back("rt-app");
    return names;
}

std::string addWorkload(const std::string& tool, const std::string& args, Scenario& s, Workload& out,
                        int release) {
    out = Workload{};
    out.tool = tool;
    out.args = args;
    out.release = release;
    out.firstGroup = s.tasks.size();
    for (const TaskGroupSpec& g : s.tasks)
        out.firstTask += g.count;
    const Tool* t = nullptr;
    for (const Tool& k : kTools)
        if (tool == k.name) t = &k;
    if (!t) {
        std::string list;
        for (const auto& name : workloadTools())
            list += (list.empty() ? "" : ", ") + name;
        return "unknown workload '" + tool + "'; accepted: " + list;
    }
    if (release != 0 && t->firstRelease == 0)
        return "version: the " + tool + " model does not depend on the tool's release; leave it out";
    if (release != 0 && release < t->firstRelease)
        return "version: " + std::to_string(release / 100) + "." + std::to_string(release % 100) +
               " is older than the " + tool +
               " model knows; accepted: " + std::to_string(t->firstRelease / 100) + "." +
               std::to_string(t->firstRelease % 100) + " or later";
    if (std::string e = t->make(splitArgs(args), s, out); !e.empty()) return e;
    out.comm = t->comm;
    out.groups = s.tasks.size() - out.firstGroup;
    for (size_t g = out.firstGroup; g < s.tasks.size(); ++g)
        out.taskCount += s.tasks[g].count;
    out.background = t->background;
    return {};
}

std::string workloadReport(const Workload& w, const sched::Engine& e,
                           const std::vector<sched::LatencyRow>* perTask) {
    if (std::holds_alternative<MassiveIntrArgs>(w.params)) return massiveIntrReport(w, e);
    if (std::holds_alternative<MessagingArgs>(w.params)) return messagingReport(w, e);
    if (std::holds_alternative<KernbenchArgs>(w.params)) return kernbenchReport(w, e);
    if (std::holds_alternative<KthreadsArgs>(w.params)) return kthreadsReport(w, e);
    if (std::holds_alternative<BrowserArgs>(w.params)) return browserReport(w, e);
    if (std::holds_alternative<RtAppArgs>(w.params)) return rtAppReport(w, e);
    if (std::holds_alternative<SchbenchArgs>(w.params)) return schbenchReport(w, e, perTask);
    return cyclictestReport(w, e);
}

} // namespace scen
