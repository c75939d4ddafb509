// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/sample_distribution.h"

#include "metrics/latency.h"

#include <algorithm>
#include <cmath>

namespace sched {

Time SampleDistribution::percentile(double p) const {
    if (sorted.empty()) return 0;
    return sorted[size_t(std::clamp(p, 0.0, 1.0) * double(sorted.size() - 1))];
}

int SampleDistribution::binOf(Time t) {
    if (t < 1000) return 0;
    return std::clamp(int(std::floor(5.0 * std::log10(double(t) / 1000.0))), 0, kBins - 1);
}

double SampleDistribution::binLowerUs(int bin) {
    return std::pow(10.0, bin / 5.0);
}

std::array<int64_t, SampleDistribution::kBins> SampleDistribution::histogram() const {
    std::array<int64_t, kBins> h{};
    for (const Time t : sorted)
        h[size_t(binOf(t))]++;
    return h;
}

std::array<double, SampleDistribution::kBins> SampleDistribution::cdf() const {
    std::array<double, kBins> c{};
    const auto h = histogram();
    int64_t below = 0;
    for (int b = 0; b < kBins; ++b) {
        below += h[size_t(b)];
        c[size_t(b)] = sorted.empty() ? 0.0 : double(below) / double(sorted.size());
    }
    return c;
}

namespace {
const std::string& groupName(const std::vector<std::string>& groupOf, size_t t) {
    static const std::string root;
    return t < groupOf.size() ? groupOf[t] : root;
}

// Which tasks a scope takes: one, those with the task's comm or group, or all.
std::vector<char> scopeTasks(const Trace& tr, SampleScope scope, TaskId task,
                             const std::vector<std::string>& groupOf) {
    std::vector<char> in(tr.tasks.size(), scope == SampleScope::All ? 1 : 0);
    if (task < 0 || size_t(task) >= tr.tasks.size())
        return scope == SampleScope::All ? in : std::vector<char>{};
    for (size_t t = 0; t < tr.tasks.size(); ++t)
        switch (scope) {
        case SampleScope::Task:
            in[t] = TaskId(t) == task;
            break;
        case SampleScope::CommGroup:
            in[t] = tr.tasks[t].comm == tr.tasks[size_t(task)].comm;
            break;
        case SampleScope::TaskGroup:
            in[t] = groupName(groupOf, t) == groupName(groupOf, size_t(task));
            break;
        case SampleScope::All:
            break;
        }
    return in;
}
} // namespace

SampleDistribution sampleDistribution(const Trace& tr, SampleKind kind, SampleScope scope, TaskId task,
                                      const std::vector<std::string>& groupOf) {
    SampleDistribution d;
    const std::vector<char> in = scopeTasks(tr, scope, task, groupOf);
    const auto taken = [&](TaskId t) { return t >= 0 && size_t(t) < in.size() && in[size_t(t)]; };
    if (kind == SampleKind::SchedDelay) {
        for (const DelayAtom& a : schedDelays(tr, scope == SampleScope::Task ? task : kNoTask))
            if (taken(a.task)) d.sorted.push_back(a.switchedIn - a.runnableAt);
    } else {
        for (size_t i = 0; i < tr.slices.size(); ++i)
            if (taken(tr.slices.task[i]) && tr.slices.endPoint[i] != kStillRunning)
                d.sorted.push_back(tr.slices.end[i] - tr.slices.start[i]);
    }
    std::sort(d.sorted.begin(), d.sorted.end());
    return d;
}

std::string sampleScopeName(const Trace& tr, SampleScope scope, TaskId task,
                            const std::vector<std::string>& groupOf) {
    if (scope == SampleScope::All || task < 0 || size_t(task) >= tr.tasks.size()) return "all tasks";
    const TraceTask& t = tr.tasks[size_t(task)];
    if (scope == SampleScope::Task) return t.comm + ":" + std::to_string(t.pid);
    size_t n = 0;
    for (size_t o = 0; o < tr.tasks.size(); ++o)
        n += scope == SampleScope::TaskGroup ? groupName(groupOf, o) == groupName(groupOf, size_t(task))
                                             : tr.tasks[o].comm == t.comm;
    const std::string who = scope == SampleScope::TaskGroup ? (groupName(groupOf, size_t(task)).empty()
                                                                   ? std::string("the root group")
                                                                   : groupName(groupOf, size_t(task)))
                                                            : t.comm;
    return who + " (" + std::to_string(n) + (n == 1 ? " task)" : " tasks)");
}

} // namespace sched
