// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenarios/derive.h"

#include "base/limits.h"

#include "metrics/latency.h"
#include "scenarios/workload.h"

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
    std::vector<TaskId>
        sleepWaker; // per sleep, the task whose wakeup ended it; kNoTask: an interrupt, or none seen
    bool exited = false;
    Time start = 0;
    std::map<std::string, int64_t> wakers; // who woke it: a comm, or "an interrupt" (timer, IRQ)
};

std::string ns(double t) {
    return std::to_string(std::llround(std::max(0.0, t))) + "ns";
}

// What was observed, less `shift`: a duration, or the empirical distribution of its 21 quantiles
// (every 5 %; all values when there are fewer). A fitted lognormal loses the shape that matters:
// hackbench's bursts have two humps (tens of microseconds, and half a millisecond and more), its
// sleeps span three decades, and a short burst leaves a task with the lag that lets it preempt
// when it is woken again (with a lognormal fit the re-simulation had 4.9 k involuntary switches
// instead of 7.9 k; the machine had 11.6 k).
std::string dist(std::vector<Time> v, double shift = 0) {
    std::sort(v.begin(), v.end());
    const auto at = [&](double x) { return std::max(0.0, x - shift); };
    if (v.size() <= 1 || v.front() == v.back())
        return "\"" + ns(std::max(1000.0, at(v.empty() ? 0 : double(v.front())))) + "\"";
    const size_t n = std::min<size_t>(21, v.size());
    std::vector<double> x(n);
    double mean = 0, drawn = 0;
    for (Time t : v)
        mean += at(double(t)) / double(v.size());
    for (size_t k = 0; k < n; ++k) {
        const double pos = double(k) * double(v.size() - 1) / double(n - 1);
        const size_t i = std::min(size_t(pos), v.size() - 2);
        x[k] = at(double(v[i]) + (pos - double(i)) * double(v[i + 1] - v[i]));
        if (k > 0) drawn += (x[k - 1] + x[k]) / 2 / double(n - 1);
    }
    // Interpolating up to the maximum over-weights a long tail (the last 5 % would average
    // halfway to the largest value): the top value is moved so that the mean is the observed one.
    // (Never beyond the largest seen: with a handful of values that would invent a longer one.)
    x[n - 1] = std::clamp(x[n - 1] + 2 * double(n - 1) * (mean - drawn), x[n - 2], x[n - 1]);
    std::string q;
    for (size_t k = 0; k < n; ++k)
        q += (k ? ", \"" : "\"") + ns(x[k]) + "\"";
    return "{\"dist\": \"empirical\", \"quantiles\": [" + q + "]}";
}

// The steady run-sleep cycles (all but the first) as a "cycle" op: `classes` classes by burst
// length (equal counts), per class the bursts and the sleeps that followed them, and the chain
// from one cycle's class to the same task's next. Bursts have memory — in the hackbench trace a
// short burst (< 12 us) follows a short one 79 % of the time against 43 % overall — and a task
// that keeps running briefly keeps its lag, which lets it preempt when it is woken; drawn
// independently the re-simulation had 68 % of the machine's involuntary switches, with three
// classes 82 %. Empty when there are too few cycles for the classes.
std::string cycleJson(const std::vector<const TaskProfile*>& members, int classes, double shift) {
    std::vector<Time> all;
    for (const TaskProfile* tp : members)
        for (size_t k = 1; k < tp->bursts.size() && k < tp->sleeps.size(); ++k)
            all.push_back(tp->bursts[k]);
    if (classes < 2 || all.size() < size_t(100 * classes)) return {};
    std::sort(all.begin(), all.end());
    std::vector<Time> upper; // class i holds the bursts below upper[i]
    for (int i = 1; i < classes; ++i)
        upper.push_back(all[all.size() * size_t(i) / size_t(classes)]);
    upper.erase(std::unique(upper.begin(), upper.end()), upper.end());
    const size_t n = upper.size() + 1;
    const auto classOf = [&](Time b) {
        return size_t(std::upper_bound(upper.begin(), upper.end(), b) - upper.begin());
    };
    std::vector<std::vector<Time>> bursts(n), sleeps(n);
    std::vector<std::vector<double>> moves(n, std::vector<double>(n, 0));
    std::vector<double> count(n, 0);
    double total = 0;
    for (const TaskProfile* tp : members) {
        const size_t cycles = std::min(tp->bursts.size(), tp->sleeps.size());
        for (size_t k = 1; k < cycles; ++k) {
            const size_t c = classOf(tp->bursts[k]);
            bursts[c].push_back(tp->bursts[k]);
            sleeps[c].push_back(tp->sleeps[k]);
            count[c]++;
            total++;
            if (k + 1 < cycles) moves[c][classOf(tp->bursts[k + 1])]++;
        }
    }
    std::string out = "{ \"cycle\": [";
    for (size_t c = 0; c < n; ++c) {
        double row = 0;
        for (double m : moves[c])
            row += m;
        std::string next;
        for (size_t d = 0; d < n; ++d) {
            char p[32];
            std::snprintf(p, sizeof p, "%.4f", row > 0 ? moves[c][d] / row : count[d] / total);
            next += (d ? ", " : "") + std::string(p);
        }
        char share[32];
        std::snprintf(share, sizeof share, "%.4f", count[c] / total);
        out += std::string(c ? "," : "") + "\n          { \"share\": " + share + ", \"next\": [" + next +
               "],\n            \"run\": " + dist(bursts[c]) +
               ",\n            \"sleep\": " + dist(sleeps[c], shift) + " }";
    }
    return out + " ] }";
}

// A trace's comm as a scenario accepts it: printable (the derived file's comments name wakers
// too), at most 15 bytes (TASK_COMM_LEN) cut on a UTF-8 boundary, and "<...>" — ftrace's name
// for a comm it does not know — where nothing is left.
std::string commForScenario(const std::string& comm) {
    std::string c;
    for (char ch : comm)
        if (static_cast<unsigned char>(ch) >= 0x20 && ch != 0x7f) c += ch;
    if (c.size() > 15) {
        size_t n = 15;
        while (n > 0 && (static_cast<unsigned char>(c[n]) & 0xc0) == 0x80)
            --n; // c[n] continues a character
        c.resize(n);
    }
    return c.empty() ? "<...>" : c;
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
    std::vector<std::vector<std::pair<Time, TaskId>>> wakes(trace.tasks.size());
    const Wakeups& w = trace.wakeups;
    for (size_t i = 0; i < w.size(); ++i) {
        const size_t t = size_t(w.wakee[i]);
        if (!want[t] || w.isNew[i]) continue;
        const TaskId by = w.waker[i] >= 0 && w.waker[i] != TaskId(t) ? w.waker[i] : kNoTask;
        wakes[t].push_back({w.time[i], by});
        p[t].wakers[by != kNoTask ? commForScenario(trace.tasks[size_t(by)].comm) : "an interrupt"]++;
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
            if (pt >= uint8_t(SwitchPoint::Count) || !isSleepPoint(SwitchPoint(pt)))
                continue; // preempted: the burst goes on
            tp.bursts.push_back(acc);
            acc = 0;
            // The sleep: to the wakeup that ended it, else to the next switch-in.
            const Time out = s.end[i];
            const Time next = k + 1 < v.size() ? s.start[v[k + 1]] : -1;
            auto wk =
                std::lower_bound(wakes[t].begin(), wakes[t].end(), std::make_pair(out, TaskId(INT32_MIN)));
            if (wk != wakes[t].end() && (next < 0 || wk->first <= next)) {
                tp.sleeps.push_back(wk->first - out);
                tp.sleepWaker.push_back(wk->second);
            } else if (next >= 0) {
                tp.sleeps.push_back(next - out);
                tp.sleepWaker.push_back(kNoTask);
            }
        }
        if (acc > 0) tp.bursts.push_back(acc);
    }
    return p;
}

// Siblings that wake each other play two roles — hackbench's senders wake its receivers and the
// receivers wake blocked senders: their wake graph is bipartite. Two-coloured, each side becomes
// an entry of its own, with its own bursts and sleeps (a sender's are not a receiver's). Kept whole
// when its members are mostly woken from outside the pool, or the graph is not (nearly) bipartite.
std::vector<std::vector<const TaskProfile*>> sides(const std::vector<const TaskProfile*>& m) {
    std::map<TaskId, size_t> at;
    for (size_t i = 0; i < m.size(); ++i)
        at[m[i]->id] = i;
    std::vector<std::map<size_t, int64_t>> adj(m.size());
    int64_t internal = 0, steady = 0;
    for (size_t i = 0; i < m.size(); ++i)
        for (size_t k = 1; k < m[i]->sleepWaker.size(); ++k) {
            ++steady;
            auto it = at.find(m[i]->sleepWaker[k]);
            if (it == at.end()) continue;
            adj[i][it->second]++;
            adj[it->second][i]++;
            ++internal;
        }
    if (internal == 0 || internal * 2 < steady) return {m};
    std::vector<int> color(m.size(), -1);
    for (size_t s = 0; s < m.size(); ++s) { // breadth first from the first-created task of each component
        if (color[s] >= 0) continue;
        color[s] = 0;
        std::vector<size_t> queue{s};
        for (size_t q = 0; q < queue.size(); ++q)
            for (const auto& [j, n] : adj[queue[q]])
                if (color[j] < 0) {
                    color[j] = 1 - color[queue[q]];
                    queue.push_back(j);
                }
    }
    int64_t conflict = 0; // wake-ups within one side
    for (size_t i = 0; i < m.size(); ++i)
        for (const auto& [j, n] : adj[i])
            if (j > i && color[j] == color[i]) conflict += n;
    std::vector<std::vector<const TaskProfile*>> out(2);
    for (size_t i = 0; i < m.size(); ++i)
        out[size_t(color[i])].push_back(m[i]);
    if (conflict * 10 > internal || out[1].empty()) return {m};
    return out;
}

} // namespace

int workloadRootFromMarkers(const Trace& trace) {
    for (const Marker& m : trace.markers)
        if (const size_t p = m.text.find("root="); p != std::string::npos) {
            long long n = 0;
            const std::string digits = m.text.substr(p + 5, m.text.find(' ', p) - p - 5);
            if (wholeNumber(digits, 1, 1 << 30, n)) return int(n);
            break;
        }
    return -1;
}

std::string deriveScenarioJson(const Trace& trace, const DeriveOptions& o, DeriveSummary* summary) {
    std::vector<char> want =
        o.rootPid > 0 ? descendantsOf(trace, o.rootPid) : std::vector<char>(trace.tasks.size(), 1);
    auto prof = profiles(trace, want);
    // The scenario format's limits (scenario_reader.h, scenario_parser.cpp): an op takes up to
    // 1000 s, a task starts and the run ends within 1 h. A longer trace is cut to them, and the
    // file says how much.
    constexpr Time kMaxOp = 1000 * kNsPerSec, kMaxRun = 3600 * kNsPerSec;
    int64_t cut = 0, tasksCut = 0;
    for (TaskProfile& tp : prof) {
        for (std::vector<Time>* v : {&tp.bursts, &tp.sleeps})
            for (Time& t : *v)
                if (t > kMaxOp) t = kMaxOp, ++cut;
        tp.start = std::min(tp.start, kMaxRun);
    }
    // Entries: one per task, or one per comm with more than poolAbove tasks.
    // Siblings of one comm (the same parent) do the same thing: they are pooled.
    std::map<std::pair<std::string, int32_t>, std::vector<const TaskProfile*>> byComm;
    std::vector<std::pair<std::string, int32_t>> order;
    for (const TaskProfile& tp : prof) {
        if (tp.id == kNoTask || tp.bursts.empty()) continue;
        const auto key =
            std::make_pair(commForScenario(trace.tasks[size_t(tp.id)].comm), trace.tasks[size_t(tp.id)].ppid);
        if (!byComm.count(key)) order.push_back(key);
        byComm[key].push_back(&tp);
    }
    if (order.empty()) { // a scenario needs a task: the caller says there is nothing to derive
        if (summary) *summary = {};
        return {};
    }
    // A machine's timer sleep ends timer slack (50 us for fair tasks) and the interrupt path
    // (2 us) after its request; the engine adds both again, so a timer-woken sleep asks for less.
    const double timerPath = 52e3;
    DeriveSummary sum;
    std::string tasks;
    std::string wakers;
    const auto entry = [&](const std::string& comm, const std::vector<const TaskProfile*>& members,
                           const std::string& label) {
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
            for (const auto& [k, n] : tp->wakers)
                by[k] += n;
            start = std::min(start, tp->start);
            cycles += std::max<int64_t>(0, int64_t(tp->sleeps.size()) - 1);
            exits = exits && tp->exited;
            for (Time b : tp->bursts)
                sum.runtime += b;
            ++sum.tasks;
        }
        sum.bursts += int64_t(bursts.size() + firstBurst.size());
        sum.sleeps += int64_t(sleeps.size() + firstSleep.size());
        const int64_t perTask =
            std::max<int64_t>(0, (cycles + int64_t(members.size()) / 2) / int64_t(members.size()));
        int64_t total = 0, fromIrq = 0;
        std::string top;
        for (const auto& [k, n] : by) {
            total += n;
            if (k == "an interrupt") fromIrq = n;
        }
        std::vector<std::pair<int64_t, std::string>> ranked;
        for (const auto& [k, n] : by)
            ranked.push_back({-n, k});
        std::sort(ranked.begin(), ranked.end());
        for (size_t i = 0; i < ranked.size() && i < 3; ++i)
            top += (i ? ", " : "") + ranked[i].second + " " +
                   std::to_string(int(std::lround(-100.0 * double(ranked[i].first) / double(total)))) + "%";
        if (!top.empty()) wakers += "  //   " + label + " woken by " + top + "\n";
        const bool timerWoken = total > 0 && fromIrq * 2 >= total;
        const TraceTask& first = trace.tasks[size_t(members.front()->id)];
        std::string e = "    { \"comm\": " + quote(comm);
        // The reader takes at most limits::kMaxTasks a group (core/base/limits.h).
        if (members.size() > size_t(limits::kMaxTasks))
            tasksCut += int64_t(members.size()) - limits::kMaxTasks;
        if (members.size() > 1)
            e += ", \"count\": " +
                 std::to_string(std::min<int64_t>(int64_t(members.size()), limits::kMaxTasks));
        e += ", \"start\": \"" + ns(double(start)) + "\"";
        if (first.prio < 100)
            e +=
                ", \"policy\": \"fifo\", \"priority\": " + std::to_string(std::clamp(99 - first.prio, 1, 99));
        else if (first.prio != 120)
            e += ", \"nice\": " + std::to_string(std::clamp(first.prio - 120, -20, 19));
        e += ",\n      \"behavior\": [ ";
        e += "{ \"run\": " + dist(firstBurst) + " }";
        if (!firstSleep.empty()) e += ", { \"sleep\": " + dist(firstSleep, timerWoken ? timerPath : 0) + " }";
        const std::string cycle = perTask > 0 && !sleeps.empty()
                                      ? cycleJson(members, o.cycleClasses, timerWoken ? timerPath : 0)
                                      : "";
        if (!cycle.empty())
            e += ",\n      { \"repeat\": " + std::to_string(perTask) + ", \"body\": [\n        " + cycle +
                 " ] }";
        else if (perTask > 0 && !sleeps.empty())
            e += ",\n      { \"repeat\": " + std::to_string(perTask) +
                 ", \"body\": [\n        { \"run\": " + dist(bursts) +
                 " },\n        { \"sleep\": " + dist(sleeps, timerWoken ? timerPath : 0) + " } ] }";
        if (!bursts.empty() && !firstSleep.empty()) e += ",\n      { \"run\": " + dist(bursts) + " }";
        e += exits ? ", { \"exit\": true } ]" : " ]";
        e += " }";
        tasks += (tasks.empty() ? "" : ",\n") + e;
        ++sum.entries;
    };
    for (const auto& key : order) {
        const auto& members = byComm[key];
        if (int(members.size()) > o.poolAbove) {
            const auto parts = sides(members);
            for (size_t i = 0; i < parts.size(); ++i)
                entry(key.first, parts[i],
                      parts.size() == 1
                          ? key.first
                          : key.first + " (" + std::to_string(parts[i].size()) +
                                " tasks woken by the other " + std::to_string(parts[1 - i].size()) + ")");
        } else
            for (const TaskProfile* tp : members)
                entry(key.first, {tp}, key.first);
    }
    // The simulator models up to kMaxCpus: a bigger machine's workload runs on that many (said below).
    const int cpus = std::min(o.cpus > 0 ? o.cpus : std::max(1, trace.cpus), kMaxCpus);
    char head[1024];
    std::snprintf(
        head, sizeof head,
        "{\n  // Derived by schedscope-cli derive from %s: per task (or per comm group) its CPU bursts\n"
        "  // between sleeps and its sleeps, as empirical distributions (21 quantiles, mean kept); a\n"
        "  // \"cycle\" draws each run-sleep cycle's class (by burst length) from the previous one's.\n"
        "  // Sleeps are modelled as timer sleeps; who woke whom in the trace:\n",
        o.source.c_str());
    std::string out = head + wakers;
    if (o.cpus <= 0 && trace.cpus > kMaxCpus)
        out += "  // The trace's machine has " + std::to_string(trace.cpus) +
               " CPUs; the simulator models up to " + std::to_string(kMaxCpus) + ": this scenario runs on " +
               std::to_string(kMaxCpus) + ".\n";
    if (tasksCut > 0)
        out += "  // Cut to the scenario format's limits: " + std::to_string(tasksCut) + " tasks past " +
               std::to_string(limits::kMaxTasks) + " in a group (core/base/limits.h).\n";
    if (cut > 0 || trace.endTime + 100 * kNsPerMs > kMaxRun)
        out += "  // Cut to the scenario format's limits: " + std::to_string(cut) +
               " bursts or sleeps longer than 1000 s, and the " + "run to 1 h (the trace spans " +
               std::to_string(trace.endTime / kNsPerSec) + " s).\n";
    out += "  \"name\": " + quote("derived-" + o.source.substr(o.source.find_last_of('/') + 1)) + ",\n";
    out += "  \"description\": " +
           quote("Derived from the trace " + o.source + ": " + std::to_string(sum.tasks) + " tasks in " +
                 std::to_string(sum.entries) + " entries") +
           ",\n";
    out += "  \"duration\": \"" + ns(double(std::min(trace.endTime + 100 * kNsPerMs, kMaxRun))) + "\",\n";
    out += "  \"machine\": { \"cpus\": " + std::to_string(cpus) + ", \"hz\": " + std::to_string(o.hz) +
           ", \"kernel\": " + quote(o.kernel) + ", \"preempt\": " + quote(o.preempt) + " },\n";
    out += "  \"tasks\": [\n" + tasks + "\n  ]\n}\n";
    if (summary) *summary = sum;
    return out;
}

} // namespace scen
