// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/model/lane_index.h"

#include "widgets/model/sorted_search.h"
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
        if (l.idx.size() % kCheckpoint == 0) l.busyEvery.push_back(l.busyTotal);
        l.idx.push_back(uint32_t(consumed_));
        l.busyTotal += s.end[consumed_] - s.start[consumed_];
        l.buckets.add(s.start[consumed_], s.end[consumed_], s.task[consumed_]);
    }
    for (Lane& l : lanes_)
        l.buckets.flush();
}

size_t LaneIndex::memoryBytes() const {
    size_t n = lanes_.capacity() * sizeof(Lane);
    for (const Lane& l : lanes_)
        n += l.idx.capacity() * sizeof(uint32_t) + l.busyEvery.capacity() * sizeof(Time) +
             l.buckets.memoryBytes();
    return n;
}

Time LaneIndex::busyBetween(const Lane& l, size_t from, size_t to) const {
    Time sum = 0;
    for (size_t j = from; j < to; ++j)
        sum += end(l, j) - start(l, j);
    return sum;
}

Time LaneIndex::busyBefore(const Lane& l, size_t k) const {
    if (k >= l.idx.size()) return l.busyTotal; // a checkpoint exists only before a slice
    const size_t c = k / kCheckpoint;
    return l.busyEvery[c] + busyBetween(l, c * kCheckpoint, k); // at most kCheckpoint - 1 slices
}

Time LaneIndex::busyUntil(const Lane& l, Time t) const {
    // First slice that starts at or after t: every slice before it started before t.
    const size_t k = firstNotSkipped(0, l.idx.size(), [&](size_t j) { return start(l, j) < t; });
    if (k == 0) return 0;
    const size_t last = k - 1; // may still be running at t
    return busyBefore(l, last) + (std::min(end(l, last), t) - start(l, last));
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
    size_t k = firstNotSkipped(0, l.idx.size(), [&](size_t j) { return end(l, j) <= t0; });
    for (; k < l.idx.size() && start(l, k) < t1 && out.size() < max; ++k)
        out.push_back(l.idx[k]);
    return out;
}

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
    const size_t n = haveSlices ? l->idx.size() : 0;
    size_t posA = haveSlices ? firstNotSkipped(0, n, [&](size_t j) { return start(*l, j) < a; }) : 0;
    // Busy time before posA's slices, and before a: the slice before posA may reach past a.
    Time prefixA = haveSlices ? busyBefore(*l, posA) : 0;
    const auto overhang = [&](size_t pos, Time t) { // of slice pos - 1 beyond t
        return pos == 0 ? Time(0) : std::max<Time>(0, end(*l, pos - 1) - t);
    };
    Time busyA = prefixA - overhang(posA, a);
    for (int x = 0; x < width; ++x) {
        const Time b = boundary(x + 1);
        Column& c = cols[size_t(x)];
        if (b <= a) continue;
        Time busy = 0, best = 0;
        if (haveSlices) {
            const size_t posB = gallopNotSkipped(posA, n, [&](size_t j) { return start(*l, j) < b; });
            const Time prefixB =
                posB - posA <= kCheckpoint ? prefixA + busyBetween(*l, posA, posB) : busyBefore(*l, posB);
            const Time busyB = prefixB - overhang(posB, b);
            busy = busyB - busyA;
            // Slices overlapping [a, b): the one before posA if it reaches past a, then up to posB.
            const size_t first = posA > 0 && end(*l, posA - 1) > a ? posA - 1 : posA;
            const size_t count = posB - first;
            if (count > 0 && count <= 8) { // few slices: the one covering most of the column
                for (size_t j = first; j < posB; ++j) {
                    const Time cover = std::min(b, end(*l, j)) - std::max(a, start(*l, j));
                    if (cover > best) {
                        best = cover;
                        c.task = tr->slices.task[l->idx[j]];
                    }
                }
            } else if (count > 8) { // many: the one running at the middle, else the next one to start
                const Time mid = a + (b - a) / 2;
                // first slice ending after mid
                const size_t m = gallopNotSkipped(first, n, [&](size_t j) { return end(*l, j) < mid + 1; });
                c.task = tr->slices.task[l->idx[m < posB ? m : posB - 1]];
            }
            c.slices = uint32_t(std::min<size_t>(count, 9));
            posA = posB;
            prefixA = prefixB;
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
