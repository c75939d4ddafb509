// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/compare.h"

#include "base/duration.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

namespace sched {

Trace traceWindow(const Trace& t, Time from, Time to, size_t* clippedAtStart) {
    Trace w;
    w.cpus = t.cpus;
    w.tasks = t.tasks;
    w.endTime = std::min(t.endTime, to);
    size_t clipped = 0;
    const Slices& s = t.slices;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s.end[i] <= from || s.start[i] >= to) continue;
        const bool cutStart = s.start[i]<from, cutEnd = s.end[i]> to;
        clipped += cutStart;
        w.slices.push(std::max(s.start[i], from), std::min(s.end[i], to), s.task[i], s.cpu[i],
                      cutEnd ? kStillRunning : s.endPoint[i], cutEnd ? kNoReason : s.endReason[i]);
    }
    const auto in = [&](Time x) { return x >= from && x < to; };
    const Wakeups& wk = t.wakeups;
    for (size_t i = 0; i < wk.size(); ++i) {
        if (!in(wk.time[i])) continue;
        w.wakeups.push(wk.time[i], wk.waker[i], wk.wakee[i], wk.wakerCpu[i], wk.targetCpu[i], wk.isNew[i]);
    }
    const Migrations& m = t.migrations;
    for (size_t i = 0; i < m.size(); ++i) {
        if (!in(m.time[i])) continue;
        w.migrations.push(m.time[i], m.task[i], m.from[i], m.to[i], m.on[i], m.path[i]);
    }
    const FlagIntervals& f = t.flags;
    for (size_t i = 0; i < f.size(); ++i) {
        if (f.clear[i] <= from || f.set[i] >= to) continue;
        w.flags.push(std::max(f.set[i], from), std::min(f.clear[i], to), f.task[i], f.cpu[i], f.bit[i],
                     f.reason[i], f.clear[i] > to ? kStillRunning : f.clearedBy[i]);
    }
    for (const Marker& mk : t.markers)
        if (in(mk.time)) w.markers.push_back(mk);
    if (clippedAtStart) *clippedAtStart = clipped;
    return w;
}

namespace {

Time percentile(std::vector<Time>& v, double p) {
    if (v.empty()) return 0;
    const size_t k = size_t(p * double(v.size() - 1) + 0.5);
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(k), v.end());
    return v[k];
}

// Per comm: runtime and switches out from the slices, delays from perf sched latency's atoms.
std::map<std::string, GroupSide> groups(const Trace& w) {
    std::map<std::string, GroupSide> g;
    std::vector<char> ran(w.tasks.size(), 0);
    const Slices& s = w.slices;
    for (size_t i = 0; i < s.size(); ++i) {
        GroupSide& side = g[w.tasks[size_t(s.task[i])].comm];
        side.runtime += s.end[i] - s.start[i];
        if (!ran[size_t(s.task[i])]) {
            ran[size_t(s.task[i])] = 1;
            side.tasks++;
        }
        if (s.endPoint[i] == kStillRunning) continue;
        const auto p = SwitchPoint(s.endPoint[i]);
        if (isBlockingPoint(p))
            side.voluntary++;
        else
            side.involuntary++;
    }
    std::map<std::string, std::vector<Time>> delays;
    for (const DelayAtom& a : schedDelays(w))
        delays[w.tasks[size_t(a.task)].comm].push_back(a.switchedIn - a.runnableAt);
    for (auto& [comm, d] : delays) {
        GroupSide& side = g[comm];
        side.delays = int64_t(d.size());
        for (Time x : d) {
            side.sumDelay += x;
            side.maxDelay = std::max(side.maxDelay, x);
        }
        side.p50 = percentile(d, 0.50);
        side.p99 = percentile(d, 0.99);
    }
    return g;
}

SwitchCounts windowSwitches(const Trace& w, size_t clippedAtStart) {
    SwitchCounts c = countSwitches(w);
    c.total -= int64_t(clippedAtStart); // those slices were switched in before the window
    return c;
}

Time busy(const Trace& w) {
    Time b = 0;
    for (size_t i = 0; i < w.slices.size(); ++i)
        b += w.slices.end[i] - w.slices.start[i];
    return b;
}

} // namespace

Comparison compareRuns(const Trace& a, const Trace& b, Time from, Time to, Time shiftB) {
    Comparison c;
    c.from = from;
    c.to = to;
    c.shiftB = shiftB;
    size_t ca = 0, cb = 0;
    const Trace wa = traceWindow(a, from, to, &ca), wb = traceWindow(b, from + shiftB, to + shiftB, &cb);
    c.a = windowSwitches(wa, ca);
    c.b = windowSwitches(wb, cb);
    c.busyA = busy(wa);
    c.busyB = busy(wb);
    auto ga = groups(wa), gb = groups(wb);
    std::map<std::string, CompareRow> rows;
    for (auto& [comm, side] : ga)
        rows[comm].a = side;
    for (auto& [comm, side] : gb)
        rows[comm].b = side;
    for (auto& [comm, row] : rows) {
        row.group = comm;
        c.rows.push_back(row);
    }
    std::stable_sort(c.rows.begin(), c.rows.end(), [](const CompareRow& x, const CompareRow& y) {
        return x.a.runtime != y.a.runtime ? x.a.runtime > y.a.runtime : x.b.runtime > y.b.runtime;
    });
    return c;
}

namespace {
std::string ms(Time t) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", double(t) / 1e6);
    return buf;
}
// The change from a to b: "+12.5%", "-3", "=" or "new" when a is zero.
std::string change(double a, double b, bool percent) {
    char buf[32];
    if (a == b) return "=";
    if (!percent) {
        std::snprintf(buf, sizeof buf, "%+.0f", b - a);
        return buf;
    }
    if (a == 0) return "new";
    std::snprintf(buf, sizeof buf, "%+.1f%%", 100.0 * (b - a) / a);
    return buf;
}
} // namespace

std::string unrelatedRunsWarning(const Comparison& c) {
    std::string a, b;
    int na = 0, nb = 0;
    for (const CompareRow& r : c.rows) {
        if (r.a.tasks > 0 && r.b.tasks > 0) return {};
        const bool inA = r.a.tasks > 0;
        std::string& names = inA ? a : b;
        int& n = inA ? na : nb;
        if (r.a.tasks == 0 && r.b.tasks == 0) continue;
        if (n < 4) names += (n ? ", " : "") + r.group;
        n++;
    }
    if (na == 0 || nb == 0) return {};
    const auto more = [](int n) { return n > 4 ? " and " + std::to_string(n - 4) + " more" : std::string(); };
    return "A and B have no task group in common in this window (A: " + a + more(na) + "; B: " + b +
           more(nb) + "): each row is one side's alone, so they compare different programs";
}

std::string formatComparison(const Comparison& c, const std::string& labelA, const std::string& labelB) {
    std::string out;
    char line[512];
    out += " A: " + labelA + "\n B: " + labelB + "\n";
    out += " window " + formatDuration(c.from) + " - " + formatDuration(c.to) + " (" + ms(c.to - c.from) +
           " ms)";
    if (c.shiftB != 0 || !c.alignedAt.empty())
        out += "; B " + formatDuration(c.from + c.shiftB) + " - " + formatDuration(c.to + c.shiftB) +
               ", aligned at " + (c.alignedAt.empty() ? std::string("a shift") : c.alignedAt) + " (B = A " +
               (c.shiftB < 0 ? "- " : "+ ") + formatDuration(std::abs(c.shiftB)) + ")";
    out += "\n";
    if (const std::string w = unrelatedRunsWarning(c); !w.empty()) out += " warning: " + w + "\n";
    out += "\n";
    std::snprintf(line, sizeof line,
                  " %-16s | %10s %10s %8s | %7s %7s %6s | %7s %7s | %9s %9s %8s | %9s %9s | %9s %9s |\n",
                  "Task group", "runtime A", "runtime B", "change", "cs A", "cs B", "change", "invol A",
                  "invol B", "avg dly A", "avg dly B", "change", "max dly A", "max dly B", "p99 A", "p99 B");
    out += line;
    out += " " + std::string(std::strlen(line) - 2, '-') + "\n";
    for (const CompareRow& r : c.rows) {
        std::snprintf(
            line, sizeof line,
            " %-16.16s | %10s %10s %8s | %7lld %7lld %6s | %7lld %7lld | %9s %9s %8s | %9s %9s | %9s %9s |\n",
            r.group.c_str(), ms(r.a.runtime).c_str(), ms(r.b.runtime).c_str(),
            change(double(r.a.runtime), double(r.b.runtime), true).c_str(), (long long)r.a.switches(),
            (long long)r.b.switches(), change(double(r.a.switches()), double(r.b.switches()), false).c_str(),
            (long long)r.a.involuntary, (long long)r.b.involuntary, ms(r.a.avgDelay()).c_str(),
            ms(r.b.avgDelay()).c_str(), change(double(r.a.avgDelay()), double(r.b.avgDelay()), true).c_str(),
            ms(r.a.maxDelay).c_str(), ms(r.b.maxDelay).c_str(), ms(r.a.p99).c_str(), ms(r.b.p99).c_str());
        out += line;
    }
    out += "\n";
    std::snprintf(
        line, sizeof line,
        " context-switches  A %lld  B %lld  (%s)   voluntary A %lld  B %lld   involuntary A %lld  B %lld\n",
        (long long)c.a.total, (long long)c.b.total,
        change(double(c.a.total), double(c.b.total), true).c_str(), (long long)c.a.voluntary,
        (long long)c.b.voluntary, (long long)c.a.involuntary, (long long)c.b.involuntary);
    out += line;
    std::snprintf(line, sizeof line, " CPU time used     A %s ms  B %s ms  (%s)\n", ms(c.busyA).c_str(),
                  ms(c.busyB).c_str(), change(double(c.busyA), double(c.busyB), true).c_str());
    out += line;
    return out;
}

TaskId counterpartTask(const Trace& a, TaskId t, const Trace& b) {
    if (t < 0 || size_t(t) >= a.tasks.size()) return kNoTask;
    const std::string& comm = a.tasks[size_t(t)].comm;
    if (size_t(t) < b.tasks.size() && b.tasks[size_t(t)].comm == comm) return t;
    for (size_t k = 0; k < b.tasks.size(); ++k)
        if (b.tasks[k].comm == comm) return TaskId(k);
    return kNoTask;
}

} // namespace sched
