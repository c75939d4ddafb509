// SPDX-License-Identifier: GPL-3.0-or-later
#include "derive.h"

#include "latency.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

namespace scen {

using namespace sched;

namespace {

struct TaskProfile {
    TaskId id = kNoTask;
    std::vector<Time> bursts, sleeps;
    bool exited = false;
    Time start = 0;
    std::map<std::string, int64_t> wakers; // who woke it: a comm, or "an interrupt" (timer, IRQ)
};

struct Stats {
    double mean = 0, sd = 0;
    Time lo = 0, hi = 0;
    size_t n = 0;
};

Stats stats(const std::vector<Time>& v) {
    Stats s;
    s.n = v.size();
    if (v.empty()) return s;
    s.lo = *std::min_element(v.begin(), v.end());
    s.hi = *std::max_element(v.begin(), v.end());
    for (Time x : v) s.mean += double(x);
    s.mean /= double(v.size());
    for (Time x : v) s.sd += (double(x) - s.mean) * (double(x) - s.mean);
    s.sd = v.size() > 1 ? std::sqrt(s.sd / double(v.size() - 1)) : 0.0;
    return s;
}

std::string ns(double t) { return std::to_string(std::llround(std::max(0.0, t))) + "ns"; }

// A duration or a lognormal distribution bounded by what was observed.
std::string dist(const Stats& s, double shift = 0) {
    const double mean = std::max(1000.0, s.mean - shift);
    if (s.n <= 1 || s.sd < 0.01 * mean) return "\"" + ns(mean) + "\"";
    return "{\"dist\": \"lognormal\", \"mean\": \"" + ns(mean) + "\", \"sd\": \"" + ns(s.sd) + "\", \"lo\": \"" +
           ns(std::max(0.0, double(s.lo) - shift)) + "\", \"hi\": \"" + ns(std::max(1000.0, double(s.hi) - shift)) + "\"}";
}

std::string quote(const std::string& s) {
    std::string q = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') q += '\\';
        if (static_cast<unsigned char>(c) >= 0x20) q += c;
    }
    return q + "\"";
}

std::vector<TaskProfile> profiles(const Trace& trace, const std::vector<char>& want) {
    std::vector<TaskProfile> p(trace.tasks.size());
    std::vector<std::vector<uint32_t>> slices(trace.tasks.size());
    const Slices& s = trace.slices;
    for (uint32_t i = 0; i < s.size(); ++i)
        if (want[size_t(s.task[i])]) slices[size_t(s.task[i])].push_back(i);
    std::vector<std::vector<Time>> wakes(trace.tasks.size());
    const Wakeups& w = trace.wakeups;
    for (size_t i = 0; i < w.size(); ++i) {
        const size_t t = size_t(w.wakee[i]);
        if (!want[t] || w.isNew[i]) continue;
        wakes[t].push_back(w.time[i]);
        const TaskId by = w.waker[i];
        p[t].wakers[by >= 0 && by != TaskId(t) ? trace.tasks[size_t(by)].comm : "an interrupt"]++;
    }
    for (size_t t = 0; t < trace.tasks.size(); ++t) {
        auto& v = slices[t];
        if (v.empty()) continue;
        std::sort(v.begin(), v.end(), [&](uint32_t a, uint32_t b) { return s.start[a] < s.start[b]; });
        std::sort(wakes[t].begin(), wakes[t].end());
        TaskProfile& tp = p[t];
        tp.id = TaskId(t);
        tp.start = s.start[v.front()];
        Time acc = 0;
        for (size_t k = 0; k < v.size(); ++k) {
            const uint32_t i = v[k];
            acc += s.end[i] - s.start[i];
            const uint8_t pt = s.endPoint[i];
            if (pt == uint8_t(SwitchPoint::Exit)) {
                tp.bursts.push_back(acc);
                acc = 0;
                tp.exited = true;
                break;
            }
            if (pt != uint8_t(SwitchPoint::Block)) continue; // preempted: the burst goes on
            tp.bursts.push_back(acc);
            acc = 0;
            // The sleep: to the wakeup that ended it, else to the next switch-in.
            const Time out = s.end[i];
            const Time next = k + 1 < v.size() ? s.start[v[k + 1]] : -1;
            auto wk = std::lower_bound(wakes[t].begin(), wakes[t].end(), out);
            if (wk != wakes[t].end() && (next < 0 || *wk <= next)) tp.sleeps.push_back(*wk - out);
            else if (next >= 0) tp.sleeps.push_back(next - out);
        }
        if (acc > 0) tp.bursts.push_back(acc);
    }
    return p;
}

} // namespace

std::string deriveScenarioJson(const Trace& trace, const DeriveOptions& o, DeriveSummary* summary) {
    std::vector<char> want = o.rootPid > 0 ? descendantsOf(trace, o.rootPid) : std::vector<char>(trace.tasks.size(), 1);
    const auto prof = profiles(trace, want);
    // Entries: one per task, or one per comm with more than poolAbove tasks.
    // Siblings of one comm (the same parent) do the same thing: they are pooled.
    std::map<std::pair<std::string, int32_t>, std::vector<const TaskProfile*>> byComm;
    std::vector<std::pair<std::string, int32_t>> order;
    for (const TaskProfile& tp : prof) {
        if (tp.id == kNoTask || tp.bursts.empty()) continue;
        const auto key = std::make_pair(trace.tasks[size_t(tp.id)].comm, trace.tasks[size_t(tp.id)].ppid);
        if (!byComm.count(key)) order.push_back(key);
        byComm[key].push_back(&tp);
    }
    // A machine's timer sleep ends timer slack (50 us for fair tasks) and the interrupt path
    // (2 us) after its request; the engine adds both again, so a timer-woken sleep asks for less.
    const double timerPath = 52e3;
    DeriveSummary sum;
    std::string tasks;
    std::string wakers;
    const auto entry = [&](const std::string& comm, const std::vector<const TaskProfile*>& members) {
        std::vector<Time> bursts, sleeps, firstBurst, firstSleep;
        std::map<std::string, int64_t> by;
        Time start = INT64_MAX;
        int64_t cycles = 0;
        bool exits = true;
        // The first burst and sleep stand apart (start-up: a start signal, a calibration, an exec);
        // the rest are the steady state.
        for (const TaskProfile* tp : members) {
            firstBurst.push_back(tp->bursts.front());
            if (!tp->sleeps.empty()) firstSleep.push_back(tp->sleeps.front());
            bursts.insert(bursts.end(), tp->bursts.begin() + 1, tp->bursts.end());
            if (!tp->sleeps.empty()) sleeps.insert(sleeps.end(), tp->sleeps.begin() + 1, tp->sleeps.end());
            for (const auto& [k, n] : tp->wakers) by[k] += n;
            start = std::min(start, tp->start);
            cycles += std::max<int64_t>(0, int64_t(tp->sleeps.size()) - 1);
            exits = exits && tp->exited;
            for (Time b : tp->bursts) sum.runtime += b;
            ++sum.tasks;
        }
        sum.bursts += int64_t(bursts.size() + firstBurst.size());
        sum.sleeps += int64_t(sleeps.size() + firstSleep.size());
        const int64_t perTask = std::max<int64_t>(0, (cycles + int64_t(members.size()) / 2) / int64_t(members.size()));
        int64_t total = 0, fromIrq = 0;
        std::string top;
        for (const auto& [k, n] : by) {
            total += n;
            if (k == "an interrupt") fromIrq = n;
        }
        std::vector<std::pair<int64_t, std::string>> ranked;
        for (const auto& [k, n] : by) ranked.push_back({-n, k});
        std::sort(ranked.begin(), ranked.end());
        for (size_t i = 0; i < ranked.size() && i < 3; ++i)
            top += (i ? ", " : "") + ranked[i].second + " " + std::to_string(int(std::lround(-100.0 * double(ranked[i].first) / double(total)))) + "%";
        if (!top.empty()) wakers += "  //   " + comm + " woken by " + top + "\n";
        const bool timerWoken = total > 0 && fromIrq * 2 >= total;
        const TraceTask& first = trace.tasks[size_t(members.front()->id)];
        std::string e = "    { \"comm\": " + quote(comm.substr(0, 15));
        if (members.size() > 1) e += ", \"count\": " + std::to_string(members.size());
        e += ", \"start\": \"" + ns(double(start)) + "\"";
        if (first.prio < 100) e += ", \"policy\": \"fifo\", \"priority\": " + std::to_string(std::clamp(99 - first.prio, 1, 99));
        else if (first.prio != 120) e += ", \"nice\": " + std::to_string(std::clamp(first.prio - 120, -20, 19));
        e += ",\n      \"behavior\": [ ";
        const Stats b = stats(bursts), sl = stats(sleeps), b0 = stats(firstBurst), s0 = stats(firstSleep);
        e += "{ \"run\": " + dist(b0) + " }";
        if (s0.n > 0) e += ", { \"sleep\": " + dist(s0, timerWoken ? timerPath : 0) + " }";
        if (perTask > 0 && sl.n > 0)
            e += ", { \"repeat\": " + std::to_string(perTask) + ", \"body\": [ { \"run\": " + dist(b) + " }, { \"sleep\": " +
                 dist(sl, timerWoken ? timerPath : 0) + " } ] }";
        if (b.n > 0 && s0.n > 0) e += ", { \"run\": " + dist(b) + " }";
        e += exits ? ", { \"exit\": true } ]" : " ]";
        e += " }";
        tasks += (tasks.empty() ? "" : ",\n") + e;
        ++sum.entries;
    };
    for (const auto& key : order) {
        const auto& members = byComm[key];
        if (int(members.size()) > o.poolAbove) entry(key.first, members);
        else
            for (const TaskProfile* tp : members) entry(key.first, {tp});
    }
    const int cpus = o.cpus > 0 ? o.cpus : std::max(1, trace.cpus);
    char head[1024];
    std::snprintf(head, sizeof head,
                  "{\n  // Derived by schedscope-cli derive from %s: per task (or per comm group) its CPU bursts\n"
                  "  // between sleeps and its sleeps, as lognormal distributions bounded by what was seen.\n"
                  "  // Sleeps are modelled as timer sleeps; who woke whom in the trace:\n",
                  o.source.c_str());
    std::string out = head + wakers;
    out += "  \"name\": " + quote("derived-" + o.source.substr(o.source.find_last_of('/') + 1)) + ",\n";
    out += "  \"description\": " + quote("Derived from the trace " + o.source + ": " + std::to_string(sum.tasks) + " tasks in " +
                                         std::to_string(sum.entries) + " entries") + ",\n";
    out += "  \"duration\": \"" + ns(double(trace.endTime + 100 * kNsPerMs)) + "\",\n";
    out += "  \"machine\": { \"cpus\": " + std::to_string(cpus) + ", \"hz\": " + std::to_string(o.hz) + ", \"kernel\": " + quote(o.kernel) +
           ", \"preempt\": " + quote(o.preempt) + " },\n";
    out += "  \"tasks\": [\n" + tasks + "\n  ]\n}\n";
    if (summary) *summary = sum;
    return out;
}

} // namespace scen
