// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/model/flag_index.h"

#include "widgets/model/sorted_search.h"
#include "widgets/model/time_axis.h"

#include <algorithm>

namespace view {

void FlagIndex::update(const sched::Trace& trace) {
    if (trace_ != &trace || trace.flags.size() < consumed_) {
        lanes_.clear();
        consumed_ = 0;
    }
    trace_ = &trace;
    const sched::FlagIntervals& f = trace.flags;
    // Intervals of one CPU and bit never overlap and are appended when they close, so each lane
    // stays sorted by set time.
    for (; consumed_ < f.size(); ++consumed_) {
        const size_t c = f.cpu[consumed_];
        if (c >= lanes_.size()) lanes_.resize(c + 1);
        Lane& l = lanes_[c][f.bit[consumed_] & 1];
        l.idx.push_back(uint32_t(consumed_));
        l.buckets.add(f.set[consumed_], f.clear[consumed_], f.reason[consumed_]);
    }
    for (auto& bits : lanes_)
        for (Lane& l : bits)
            l.buckets.flush();
}

size_t FlagIndex::memoryBytes() const {
    size_t n = lanes_.capacity() * sizeof(lanes_[0]);
    for (const auto& bits : lanes_)
        for (const Lane& l : bits)
            n += l.idx.capacity() * sizeof(uint32_t) + l.buckets.memoryBytes();
    return n;
}

std::vector<uint32_t> FlagIndex::intervalsIn(int cpu, int bit, Time t0, Time t1, size_t max) const {
    std::vector<uint32_t> out;
    if (cpu < 0 || size_t(cpu) >= lanes_.size()) return out;
    const Lane& l = lanes_[size_t(cpu)][size_t(bit & 1)];
    size_t k = firstNotSkipped(0, l.idx.size(), [&](size_t j) { return clear(l, j) <= t0; });
    for (; k < l.idx.size() && set(l, k) < t1 && out.size() < max; ++k)
        out.push_back(l.idx[k]);
    return out;
}

std::vector<uint8_t> FlagIndex::columns(int cpu, int bit, Time t0, Time t1, int width) const {
    std::vector<uint8_t> cols(size_t(std::max(width, 0)), 0);
    if (cpu < 0 || size_t(cpu) >= lanes_.size() || width <= 0 || t1 <= t0) return cols;
    const Lane& l = lanes_[size_t(cpu)][size_t(bit & 1)];
    if (l.idx.empty()) return cols;
    if (l.buckets.summarises(double(t1 - t0) / double(width))) {
        const std::vector<CoverageBuckets::Cell> cells = l.buckets.columns(t0, t1, width);
        for (int x = 0; x < width; ++x)
            if (cells[size_t(x)].touches > 0) cols[size_t(x)] = uint8_t(1 + cells[size_t(x)].key);
        return cols;
    }
    // Sweep the columns left to right; k = first interval that clears after the column start.
    const size_t n = l.idx.size();
    size_t k = firstNotSkipped(0, n, [&](size_t j) { return clear(l, j) <= t0; });
    const ColumnEdges edge(t0, t1, width);
    const uint8_t* reason = trace_->flags.reason.data();
    for (int x = 0; x < width && k < n; ++x) {
        const Time a = edge(x), b = edge(x + 1);
        k = gallopNotSkipped(k, n, [&](size_t j) { return clear(l, j) <= a; }); // first clearing after a
        if (k >= n) break;
        Time best = 0;
        // An interval that is set and cleared at the same instant still marks its column.
        for (size_t j = k, seen = 0; j < n && set(l, j) < b && seen < 8; ++j, ++seen) {
            const Time cover = std::max<Time>(1, std::min(b, clear(l, j)) - std::max(a, set(l, j)));
            if (cover > best) {
                best = cover;
                cols[size_t(x)] = uint8_t(1 + reason[l.idx[j]]);
            }
        }
    }
    return cols;
}

} // namespace view
