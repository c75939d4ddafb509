// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/model/coverage_buckets.h"

#include "widgets/model/time_axis.h"

#include <algorithm>

namespace view {

size_t CoverageBuckets::bound() const {
    return size_t(std::max<uint64_t>(1024, added_ / 8));
}

size_t CoverageBuckets::buckets() const {
    size_t n = 0;
    for (const Level& l : levels_)
        n += l.b.size();
    return n;
}

void CoverageBuckets::addTo(Level& l, int shift, Time start, Time end, int32_t key) {
    const Time width = Time(1) << shift;
    const size_t first = size_t((start - l.origin) >> shift);
    const size_t last = end > start ? size_t((end - 1 - l.origin) >> shift) : first;
    if (last >= l.b.size()) l.b.resize(last + 1);
    for (size_t k = first; k <= last; ++k) {
        const Time bs = l.origin + Time(k) * width;
        const Time overlap = std::min(end, bs + width) - std::max(start, bs);
        const Time cover = std::max<Time>(1, overlap); // a zero-length interval still counts
        Bucket& b = l.b[k];
        b.covered += float(overlap);
        if (float(cover) > b.best) {
            b.best = float(cover);
            b.key = key;
        }
        b.touches++;
        if (start <= bs + width / 2 && bs + width / 2 < end) b.sample = key;
    }
}

namespace {
// Bucket b folded into m: a merged bucket's sample is the first half's when it has one (what ran
// a quarter of the way in samples the bucket as well as its middle), else the second half's.
template <class B> void fold(B& m, const B& b) {
    m.covered += b.covered;
    m.touches += b.touches;
    if (b.best > m.best) {
        m.best = b.best;
        m.key = b.key;
    }
    if (m.sample < 0) m.sample = b.sample;
}
} // namespace

CoverageBuckets::Level CoverageBuckets::merged(const Level& l, int shift) {
    const Time wide = Time(1) << shift;
    Level up;
    up.origin = l.origin - (((l.origin % wide) + wide) % wide); // a multiple of the new width
    refold(l, up, shift, 0);
    return up;
}

size_t CoverageBuckets::refold(const Level& low, Level& up, int shift, size_t from) {
    const size_t skew = size_t((low.origin - up.origin) >> (shift - 1)); // 0 or 1 bucket below
    const size_t first = (from + skew) / 2;
    up.b.resize((low.b.size() + skew + 1) / 2);
    std::fill(up.b.begin() + std::ptrdiff_t(first), up.b.end(), Bucket{});
    for (size_t k = first * 2 >= skew ? first * 2 - skew : 0; k < low.b.size(); ++k)
        fold(up.b[(k + skew) / 2], low.b[k]);
    return first;
}

void CoverageBuckets::flush() {
    if (levels_.empty() || dirty_ == SIZE_MAX) return;
    size_t from = dirty_;
    for (size_t i = 1; i < levels_.size(); ++i)
        from = refold(levels_[i - 1], levels_[i], shift_ + int(i), from);
    while (levels_.back().b.size() > kTop)
        levels_.push_back(merged(levels_.back(), shift_ + int(levels_.size())));
    dirty_ = SIZE_MAX;
}

void CoverageBuckets::coarsenOnce() {
    flush();
    if (levels_.size() < 2) levels_.push_back(merged(levels_[0], shift_ + 1));
    levels_.erase(levels_.begin());
    ++shift_;
}

void CoverageBuckets::add(Time start, Time end, int32_t key) {
    if (levels_.empty()) levels_.push_back(Level{start >> shift_ << shift_, {}});
    start = std::max(start, levels_[0].origin); // out of order by less than a bucket: clipped
    end = std::max(end, start);
    // A long gap or interval widens the buckets before they are made, not after: the finest level
    // never holds more than twice its bound, whatever the span.
    while (size_t(((end > start ? end - 1 : start) - levels_[0].origin) >> shift_) + 1 > 2 * bound())
        coarsenOnce();
    dirty_ = std::min(dirty_, size_t((start - levels_[0].origin) >> shift_));
    addTo(levels_[0], shift_, start, end, key);
    ++added_;
    while (levels_[0].b.size() > bound())
        coarsenOnce();
}

std::vector<CoverageBuckets::Cell> CoverageBuckets::columns(Time t0, Time t1, int width) const {
    std::vector<Cell> cells(size_t(std::max(width, 0)));
    if (levels_.empty() || width <= 0 || t1 <= t0) return cells;
    // The coarsest level whose buckets still fit kMinBucketsPerColumn to a column.
    const double perColumn = double(t1 - t0) / double(width);
    size_t lv = 0;
    while (lv + 1 < levels_.size() &&
           perColumn >= double(Time(kMinBucketsPerColumn) << (shift_ + int(lv) + 1)))
        ++lv;
    const Level& level = levels_[lv];
    const int shift = shift_ + int(lv);
    const Time bw = Time(1) << shift;
    const Time origin = level.origin;
    const Time end = origin + Time(level.b.size()) * bw;
    const ColumnEdges edge(t0, t1, width);
    const Bucket* b = level.b.data();
    for (int x = 0; x < width; ++x) {
        const Time lo = std::max(edge(x), origin), hi = std::min(edge(x + 1), end);
        if (hi <= lo) continue;
        Cell& c = cells[size_t(x)];
        const size_t first = size_t((lo - origin) >> shift), last = size_t((hi - 1 - origin) >> shift);
        float best = 0;
        float covered = 0; // of the whole buckets; the two at the edges pro rata below
        uint32_t touches = 0;
        for (size_t k = first; k <= last; ++k) {
            covered += b[k].covered;
            touches += b[k].touches;
            if (b[k].best > best) {
                best = b[k].best;
                c.key = b[k].key;
            }
        }
        // The parts of the edge buckets outside the column, taken off pro rata.
        const Time outFirst = lo - (origin + Time(first) * bw);
        const Time outLast = origin + Time(last + 1) * bw - hi;
        c.covered = double(covered) - double(b[first].covered) * double(outFirst) / double(bw) -
                    double(b[last].covered) * double(outLast) / double(bw);
        c.touches = touches;
        c.sample = b[size_t((lo + (hi - lo) / 2 - origin) >> shift)].sample;
    }
    return cells;
}

} // namespace view
