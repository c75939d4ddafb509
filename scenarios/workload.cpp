// SPDX-License-Identifier: GPL-3.0-or-later
#include "workload.h"

#include <charconv>
#include <sstream>

namespace scen {

namespace ops {
using namespace sched;
Op run(Time work, ExecMode mode) { return run(Distribution::fixed(work), mode); }
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
    for (int64_t c : bins) total += c;
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
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

std::vector<std::string> workloadTools() { return {"massive_intr", "cyclictest", "messaging", "hackbench", "kernbench", "kthreads", "browser", "schbench", "rt-app"}; }

std::string addWorkload(const std::string& tool, const std::string& args, Scenario& s, Workload& out) {
    out = Workload{};
    out.tool = tool;
    out.args = args;
    out.firstGroup = s.tasks.size();
    for (const TaskGroupSpec& g : s.tasks) out.firstTask += g.count;
    const auto argv = splitArgs(args);
    if (tool == "massive_intr") {
        MassiveIntrArgs a;
        if (std::string e = parseMassiveIntr(argv, a); !e.empty()) return e;
        addMassiveIntr(a, s);
        out.params = a;
    } else if (tool == "cyclictest") {
        CyclictestArgs a;
        if (std::string e = parseCyclictest(argv, s.config.cpus, a); !e.empty()) return e;
        addCyclictest(a, s);
        out.params = a;
    } else if (tool == "messaging" || tool == "hackbench") {
        MessagingArgs a;
        if (std::string e = parseMessaging(argv, tool == "messaging", a); !e.empty()) return e;
        addMessaging(a, s);
        out.params = a;
    } else if (tool == "kernbench") {
        KernbenchArgs a;
        if (std::string e = parseKernbench(argv, s.config.cpus, a); !e.empty()) return e;
        addKernbench(a, s);
        out.params = a;
    } else if (tool == "kthreads") {
        KthreadsArgs a;
        if (std::string e = parseKthreads(argv, a); !e.empty()) return e;
        addKthreads(a, s);
        out.params = a;
    } else if (tool == "schbench") {
        SchbenchArgs a;
        if (std::string e = parseSchbench(argv, s.config.cpus, a); !e.empty()) return e;
        addSchbench(a, s);
        out.params = a;
    } else if (tool == "browser") {
        BrowserArgs a;
        if (std::string e = parseBrowser(argv, a); !e.empty()) return e;
        addBrowser(a, s);
        out.params = a;
    } else {
        std::string list;
        for (const auto& t : workloadTools()) list += (list.empty() ? "" : ", ") + t;
        return "unknown workload '" + tool + "'; accepted: " + list;
    }
    out.comm = tool == "messaging" ? "sched-messaging" : tool == "kernbench" ? "make" : tool == "kthreads" ? "kworker" : tool == "browser" ? "chromium-browse" : tool;
    out.groups = s.tasks.size() - out.firstGroup;
    for (size_t g = out.firstGroup; g < s.tasks.size(); ++g) out.taskCount += s.tasks[g].count;
    out.background = tool == "kthreads" || tool == "browser";
    return {};
}

std::string workloadReport(const Workload& w, const sched::Engine& e) {
    if (std::holds_alternative<MassiveIntrArgs>(w.params)) return massiveIntrReport(w, e);
    if (std::holds_alternative<MessagingArgs>(w.params)) return messagingReport(w, e);
    if (std::holds_alternative<KernbenchArgs>(w.params)) return kernbenchReport(w, e);
    if (std::holds_alternative<KthreadsArgs>(w.params)) return kthreadsReport(w, e);
    if (std::holds_alternative<BrowserArgs>(w.params)) return browserReport(w, e);
    if (std::holds_alternative<RtAppArgs>(w.params)) return rtAppReport(w, e);
    if (std::holds_alternative<SchbenchArgs>(w.params)) return schbenchReport(w, e);
    return cyclictestReport(w, e);
}

} // namespace scen
