// SPDX-License-Identifier: GPL-3.0-or-later
// The zoomed-out summary of one lane (a CPU's slices, or one need-resched bit's intervals): time
// buckets of 2^shift ns, each with the time covered in it, the key (task, or reason) of the
// interval covering the most of it, and how many intervals touch it. Intervals come in time
// order, as a lane's slices do; whenever the finest level has more than max(1024, intervals / 8)
// buckets, its neighbours merge and the width doubles, so it stays an eighth of the intervals
// (the levels above, each the one below with pairs merged, as many again) and is extended, never
// rebuilt, during a live run. A pixel column at least kMinBucketsPerColumn buckets of the finest
// level wide is summarised from the coarsest level that still has that many, in order and without
// a search: a zoomed-out frame costs columns x 8 to 16 reads whatever the run's length
// (KernelShark's one-bin-per-pixel idea, with the bins built once). Narrower columns are drawn
// from the slices themselves (lane_index.h), so deep zoom is exact.
#pragma once

#include "base/types.h"

#include <cstdint>
#include <vector>

namespace view {

using sched::Time;

class CoverageBuckets {
  public:
    static constexpr int kMinBucketsPerColumn = 8;

    // [start, end) with its key; a zero-length interval still touches its bucket. Adds go to the
    // finest level; flush() brings the levels above up to date (call it before columns()).
    void add(Time start, Time end, int32_t key);
    void flush();
    void clear() { *this = CoverageBuckets(); }
    int shift() const { return shift_; } // the finest level's width: 1 << shift
    size_t size() const { return levels_.empty() ? 0 : levels_[0].b.size(); }
    size_t buckets() const; // on every level
    size_t memoryBytes() const {
        size_t n = levels_.capacity() * sizeof(Level);
        for (const Level& l : levels_)
            n += l.b.capacity() * sizeof(Bucket);
        return n;
    }
    // Whether columns of this many nanoseconds are summarised from the buckets.
    bool summarises(double nsPerColumn) const {
        return size() > 0 && nsPerColumn >= double(Time(kMinBucketsPerColumn) << shift_);
    }

    struct Cell {
        double covered = 0;   // ns of the column covered (edge buckets pro rata)
        int32_t key = -1;     // the key of the longest cover within one finest bucket among those it spans
        int32_t sample = -1;  // a sample of what ran: see Bucket::sample, of the bucket at its middle
        uint32_t touches = 0; // intervals touching those buckets (an interval over several counts in each)
    };
    // Columns [0, width) of [t0, t1), as ColumnEdges divides it, from the coarsest level with at
    // least kMinBucketsPerColumn buckets a column: 8 to 16 reads a column at any zoom.
    std::vector<Cell> columns(Time t0, Time t1, int width) const;

  private:
    struct Bucket {
        float covered = 0, best = 0; // ns: time covered, and the longest cover within a finest bucket
        int32_t key = -1;
        // The key of the interval at one instant of the bucket, or -1 if none: the middle of a
        // finest bucket; above, the first of its finest buckets that has one (a merge keeps the
        // first half's). A sample either way: a key comes up about as often as its share of time.
        int32_t sample = -1;
        uint32_t touches = 0;
    };
    // Level i: buckets of 2^(shift + i) ns from `origin`, a multiple of that width. Each level is
    // the one below with pairs merged (refolded from dirty_ on by flush()), up to one of at most
    // kTop buckets.
    struct Level {
        Time origin = 0;
        std::vector<Bucket> b;
    };
    static constexpr size_t kTop = 64;
    static void addTo(Level& l, int shift, Time start, Time end, int32_t key);
    static Level merged(const Level& l, int shift); // the level above l (of width 2^shift)
    // Recomputes the buckets of `up` over `low`'s buckets from index `from` on; returns the first
    // bucket of `up` it recomputed.
    static size_t refold(const Level& low, Level& up, int shift, size_t from);
    size_t bound() const; // the finest level's most buckets
    void coarsenOnce();   // the finest level goes; the next is finest
    std::vector<Level> levels_;
    int shift_ = 16; // 65.5 us to start with
    uint64_t added_ = 0;
    size_t dirty_ = SIZE_MAX; // the finest level's first bucket changed since the last flush()
};

} // namespace view
