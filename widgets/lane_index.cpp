// SPDX-License-Identifier: GPL-3.0-or-later
#include "lane_index.h"

#include <algorithm>

namespace view {

void LaneIndex::update(const sched::Trace& trace) {
    if (trace_ != &trace || trace.slices.size() < consumed_) reset();
    trace_ = &trace;
    if (lanes_.size() < size_t(std::max(trace.cpus, 1))) lanes_.resize(size_t(std::max(trace.cpus, 1)));
    const sched::Slices& s = trace.slices;
    // Slices of one CPU never overlap and are appended when they end, so per CPU they arrive in
    // start order: appending keeps each lane sorted.
    for (; consumed_ < s.size(); ++consumed_) {
        const size_t c = s.cpu[consumed_];
        if (c >= lanes_.size()) lanes_.resize(c + 1);
        Lane& l = lanes_[c];
        const Time before = l.busyBefore.empty() ? 0 : l.busyBefore.back() + (l.end.back() - l.start.back());
        l.idx.push_back(uint32_t(consumed_));
        l.start.push_back(s.start[consumed_]);
        l.end.push_back(s.end[consumed_]);
        l.busyBefore.push_back(before);
    }
}

Time LaneIndex::busyUntil(const Lane& l, Time t) const {
    // First slice that starts at or after t: every slice before it started before t.
    const size_t k = size_t(std::lower_bound(l.start.begin(), l.start.end(), t) - l.start.begin());
    if (k == 0) return 0;
    const size_t last = k - 1; // may still be running at t
    return l.busyBefore[last] + (std::min(l.end[last], t) - l.start[last]);
}

Time LaneIndex::busyIn(int cpu, Time t0, Time t1) const {
    if (cpu >= cpus() || t1 <= t0) return 0;
    const Lane& l = lanes_[size_t(cpu)];
    return busyUntil(l, t1) - busyUntil(l, t0);
}

std::vector<uint32_t> LaneIndex::slicesIn(int cpu, Time t0, Time t1, size_t max) const {
    std::vector<uint32_t> out;
    if (cpu >= cpus()) return out;
    const Lane& l = lanes_[size_t(cpu)];
    // First slice ending after t0 (ends are sorted too, slices do not overlap).
    size_t k = size_t(std::upper_bound(l.end.begin(), l.end.end(), t0) - l.end.begin());
    for (; k < l.idx.size() && l.start[k] < t1 && out.size() < max; ++k) out.push_back(l.idx[k]);
    return out;
}

std::vector<Column> LaneIndex::columns(int cpu, Time t0, Time t1, int width, TaskId openTask, Time openStart,
                                       Time now) const {
    std::vector<Column> cols(size_t(std::max(width, 0)));
    if (width <= 0 || t1 <= t0) return cols;
    const Lane* l = cpu < cpus() ? &lanes_[size_t(cpu)] : nullptr;
    const sched::Trace* tr = trace_;
    for (int x = 0; x < width; ++x) {
        const Time a = t0 + Time((sched::int128(t1 - t0) * x) / width);
        const Time b = t0 + Time((sched::int128(t1 - t0) * (x + 1)) / width);
        if (b <= a) continue;
        Column& c = cols[size_t(x)];
        Time busy = 0;
        Time best = 0;
        if (l && !l->idx.empty()) {
            busy = busyUntil(*l, b) - busyUntil(*l, a);
            size_t k = size_t(std::upper_bound(l->end.begin(), l->end.end(), a) - l->end.begin());
            size_t n = 0;
            const size_t first = k;
            for (; k < l->idx.size() && l->start[k] < b && n < 9; ++k, ++n) {}
            if (n <= 8) { // few slices: the one covering most of the column
                for (size_t j = first; j < first + n; ++j) {
                    const Time cover = std::min(b, l->end[j]) - std::max(a, l->start[j]);
                    if (cover > best) {
                        best = cover;
                        c.task = tr->slices.task[l->idx[j]];
                    }
                }
                c.slices = uint32_t(n);
            } else { // many: the one running at the middle, else the next one to start
                const Time mid = a + (b - a) / 2;
                const size_t m = size_t(std::upper_bound(l->end.begin(), l->end.end(), mid) - l->end.begin());
                c.task = tr->slices.task[l->idx[m < l->idx.size() && l->start[m] < b ? m : m - 1]];
                c.slices = uint32_t(n);
            }
        }
        if (openTask >= 0 && now > a && openStart < b) { // the slice still running on this CPU
            const Time cover = std::min(b, now) - std::max(a, openStart);
            busy += cover;
            if (cover > best) c.task = openTask;
            c.slices++;
        }
        c.busy = float(double(busy) / double(b - a));
    }
    return cols;
}

} // namespace view
