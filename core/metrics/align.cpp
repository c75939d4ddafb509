// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/align.h"

#include <algorithm>
#include <map>

namespace sched {

namespace {

// What one run offers: first event, per comm its first switch-in and first wakeup (not the
// wakeup_new of its creation), per marker text its first time.
struct Firsts {
    Time start = kNever;
    std::map<std::string, Time> run, wake, marker;
};

Firsts firstsOf(const Trace& t) {
    Firsts f;
    const auto early = [](std::map<std::string, Time>& m, const std::string& k, Time at) {
        auto [it, fresh] = m.emplace(k, at);
        if (!fresh) it->second = std::min(it->second, at);
    };
    for (size_t i = 0; i < t.slices.size(); ++i) {
        f.start = std::min(f.start, t.slices.start[i]);
        early(f.run, t.tasks[size_t(t.slices.task[i])].comm, t.slices.start[i]);
    }
    for (size_t i = 0; i < t.wakeups.size(); ++i) {
        f.start = std::min(f.start, t.wakeups.time[i]);
        if (!t.wakeups.isNew[i]) early(f.wake, t.tasks[size_t(t.wakeups.wakee[i])].comm, t.wakeups.time[i]);
    }
    for (const Marker& m : t.markers)
        early(f.marker, m.text, m.time);
    return f;
}

} // namespace

std::vector<AlignPoint> alignmentPoints(const Trace& a, const Trace& b) {
    const Firsts fa = firstsOf(a), fb = firstsOf(b);
    std::vector<AlignPoint> out;
    if (fa.start != kNever && fb.start != kNever) out.push_back({"start", "first event", fa.start, fb.start});
    // Task groups in the order they first ran in A.
    std::vector<std::pair<Time, std::string>> order;
    for (const auto& [comm, at] : fa.run)
        if (fb.run.count(comm)) order.push_back({at, comm});
    std::sort(order.begin(), order.end());
    for (const auto& [at, comm] : order) {
        out.push_back({"run:" + comm, "first run of " + comm, at, fb.run.at(comm)});
        const auto wa = fa.wake.find(comm), wb = fb.wake.find(comm);
        if (wa != fa.wake.end() && wb != fb.wake.end())
            out.push_back({"wake:" + comm, "first wakeup of " + comm, wa->second, wb->second});
    }
    std::vector<std::pair<Time, std::string>> marks;
    for (const auto& [text, at] : fa.marker)
        if (fb.marker.count(text)) marks.push_back({at, text});
    std::sort(marks.begin(), marks.end());
    for (const auto& [at, text] : marks)
        out.push_back({"marker:" + text, "marker '" + text + "'", at, fb.marker.at(text)});
    return out;
}

bool findAlignment(const Trace& a, const Trace& b, const std::string& key, AlignPoint& out,
                   std::string& error) {
    const std::vector<AlignPoint> points = alignmentPoints(a, b);
    for (const AlignPoint& p : points)
        if (p.key == key) {
            out = p;
            return true;
        }
    // A marker may be named by a part of its text (the traces' markers carry pids and attempts).
    if (key.rfind("marker:", 0) == 0)
        for (const AlignPoint& p : points)
            if (p.key.rfind("marker:", 0) == 0 && p.key.find(key.substr(7)) != std::string::npos) {
                out = p;
                return true;
            }
    error = "no event '" + key + "' in both runs; accepted: start, run:COMM, wake:COMM, marker:TEXT";
    if (!points.empty()) {
        error += "; these runs both have:";
        for (size_t i = 0; i < points.size() && i < 8; ++i)
            error += " " + points[i].key;
        if (points.size() > 8) error += " ...";
    }
    return false;
}

} // namespace sched
