// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/model/lane_index.h"

#include "widgets/model/time_axis.h"

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
        l.buckets.add(s.start[consumed_], s.end[consumed_], s.task[consumed_]);
    }
    for (Lane& l : lanes_)
        l.buckets.flush();
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
    for (; k < l.idx.size() && l.start[k] < t1 && out.size() < max; ++k)
        out.push_back(l.idx[k]);
    return out;
}

namespace {
// First index i >= from with v[i] >= t (v sorted): exponential then binary search, so a sweep
// over increasing t costs O(log gap) per step and stays bounded by pixels, not by slices.
size_t gallop(const std::vector<Time>& v, size_t from, Time t) {
    size_t lo = from, step = 1, hi = from;
    while (hi < v.size() && v[hi] < t) {
        lo = hi + 1;
        hi = from + step;
        step *= 2;
    }
    hi = std::min(hi, v.size());
    return size_t(std::lower_bound(v.begin() + std::ptrdiff_t(lo), v.begin() + std::ptrdiff_t(hi), t) -
                  v.begin());
}
} // namespace

std::vector<Column> LaneIndex::columns(int cpu, Time t0, Time t1, int width, TaskId openTask, Time openStart,
                                       Time now) const {
    std::vector<Column> cols(size_t(std::max(width, 0)));
    if (width <= 0 || t1 <= t0) return cols;
    const Lane* l = cpu < cpus() ? &lanes_[size_t(cpu)] : nullptr;
    const bool haveSlices = l && !l->idx.empty();
    const sched::Trace* tr = trace_;
    // Boundary x: time a_x, the first slice starting at or after it, and the busy time before it.
    const ColumnEdges boundary(t0, t1, width);
    // The slice still running on this CPU: its part of [a, b) added to the column, and its task
    // taken where it covers more than `best`.
    const auto addOpen = [&](Column& c, Time a, Time b, double& busy, double best) {
        if (openTask < 0 || now <= a || openStart >= b) return;
        const Time cover = std::min(b, now) - std::max(a, openStart);
        busy += double(cover);
        if (double(cover) > best) c.task = openTask;
        c.slices++;
    };
    if (haveSlices && summarised(cpu, t0, t1, width)) {
        const std::vector<CoverageBuckets::Cell> cells = l->buckets.columns(t0, t1, width);
        for (int x = 0; x < width; ++x) {
            const Time a = boundary(x), b = boundary(x + 1);
            const CoverageBuckets::Cell& cell = cells[size_t(x)];
            Column& c = cols[size_t(x)];
            double busy = cell.covered;
            // What ran near the column's middle, as a sample (a task's columns then come about as
            // often as its share of the time), else, idle there, the longest run in the column.
            c.task = cell.sample >= 0 ? cell.sample : cell.key;
            c.slices = std::min<uint32_t>(cell.touches, 9); // a slice over n buckets counts n times here
            addOpen(c, a, b, busy, cell.covered);
            c.busy = b > a ? float(std::clamp(busy / double(b - a), 0.0, 1.0)) : 0.0f; // pro rata can stray
        }
        return cols;
    }
    Time a = boundary(0);
    size_t posA =
        haveSlices ? size_t(std::lower_bound(l->start.begin(), l->start.end(), a) - l->start.begin()) : 0;
    auto busyAt = [&](size_t pos, Time t) -> Time {
        if (pos == 0) return 0;
        return l->busyBefore[pos - 1] + (std::min(l->end[pos - 1], t) - l->start[pos - 1]);
    };
    Time busyA = haveSlices ? busyAt(posA, a) : 0;
    for (int x = 0; x < width; ++x) {
        const Time b = boundary(x + 1);
        Column& c = cols[size_t(x)];
        if (b <= a) continue;
        Time busy = 0, best = 0;
        if (haveSlices) {
            const size_t posB = gallop(l->start, posA, b);
            const Time busyB = busyAt(posB, b);
            busy = busyB - busyA;
            // Slices overlapping [a, b): the one before posA if it reaches past a, then up to posB.
            const size_t first = posA > 0 && l->end[posA - 1] > a ? posA - 1 : posA;
            const size_t n = posB - first;
            if (n > 0 && n <= 8) { // few slices: the one covering most of the column
                for (size_t j = first; j < posB; ++j) {
                    const Time cover = std::min(b, l->end[j]) - std::max(a, l->start[j]);
                    if (cover > best) {
                        best = cover;
                        c.task = tr->slices.task[l->idx[j]];
                    }
                }
            } else if (n > 8) { // many: the one running at the middle, else the next one to start
                const Time mid = a + (b - a) / 2;
                const size_t m = gallop(l->end, first, mid + 1); // first slice ending after mid
                c.task = tr->slices.task[l->idx[m < posB ? m : posB - 1]];
            }
            c.slices = uint32_t(std::min<size_t>(n, 9));
            posA = posB;
            busyA = busyB;
        }
        double total = double(busy);
        addOpen(c, a, b, total, double(best));
        c.busy = float(total / double(b - a));
        a = b;
    }
    return cols;
}

} // namespace view
