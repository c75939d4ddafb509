// SPDX-License-Identifier: GPL-3.0-or-later
// Per-CPU index of a trace's slices that answers "what does pixel column x of this lane show"
// without looking at every slice (KernelShark's one-bin-per-pixel idea). Zoomed out, where a
// column spans at least CoverageBuckets::kMinBucketsPerColumn of the lane's time buckets, a
// column is read from those buckets: the busy fraction (edge buckets pro rata) and a task sampled
// at one instant of the bucket at its middle (else the longest run within a finest bucket among
// them) - a frame costs about columns x 8 to 16 reads whatever the run's length. Nearer, in O(log n) per
// column: the busy fraction exact, from prefix sums of busy time, and the task running longest in the column
// when a few slices overlap it, else the one running at the column's middle (or, if the CPU is idle there,
// the next one to start in the column).
//
// A lane holds the indices of its slices and reads their times from the trace's own columns
// (4 bytes a slice, and a busy-time checkpoint every kCheckpoint slices), rather than copies of
// them: the index of a 10 M-slice run is 40 MB, not 280 MB.
#pragma once

#include "trace/trace.h"
#include "widgets/model/coverage_buckets.h"

#include <vector>

namespace view {

using sched::TaskId;
using sched::Time;

struct Column {
    float busy = 0;               // fraction of the column's time some task ran, 0..1
    TaskId task = sched::kNoTask; // the task to colour the column with
    uint32_t slices = 0;          // how many slices overlap the column (0, 1, 2.. capped)
};

class LaneIndex {
  public:
    // Catches up with slices appended to the trace since the last call (traces only grow).
    void update(const sched::Trace& trace);
    void reset() { *this = LaneIndex(); }
    int cpus() const { return int(lanes_.size()); }

    // Columns [0, width) of one CPU's lane for the time range [t0, t1). Slices still running at
    // `now` on that CPU are passed as (task, start) and extend to `now`.
    std::vector<Column> columns(int cpu, Time t0, Time t1, int width, TaskId openTask = sched::kNoTask,
                                Time openStart = 0, Time now = 0) const;
    // Slice indices (into the trace) on this CPU overlapping [t0, t1), in time order; at most max.
    std::vector<uint32_t> slicesIn(int cpu, Time t0, Time t1, size_t max) const;
    size_t slicesOnCpu(int cpu) const { return cpu < cpus() ? lanes_[size_t(cpu)].idx.size() : 0; }
    // Bytes the index holds (its vectors' capacities and the buckets), for the memory figures.
    size_t memoryBytes() const;
    // Busy time of a CPU in [t0, t1) from closed slices (exact).
    Time busyIn(int cpu, Time t0, Time t1) const;
    Time bucketWidth(int cpu) const {
        return cpu < cpus() ? Time(1) << lanes_[size_t(cpu)].buckets.shift() : 0;
    }
    // Whether columns of [t0, t1) in `width` pixels come from the time buckets (zoomed out).
    bool summarised(int cpu, Time t0, Time t1, int width) const {
        return cpu < cpus() && width > 0 &&
               lanes_[size_t(cpu)].buckets.summarises(double(t1 - t0) / double(width));
    }

  private:
    static constexpr size_t kCheckpoint = 32;
    struct Lane {
        std::vector<uint32_t> idx;   // slice indices in start order (so in end order too)
        std::vector<Time> busyEvery; // busy time of slices [0, k * kCheckpoint), k = 0, 1, ..
        Time busyTotal = 0;          // of all of them
        CoverageBuckets buckets;     // keyed by task
    };
    Time start(const Lane& l, size_t k) const { return trace_->slices.start[l.idx[k]]; }
    Time end(const Lane& l, size_t k) const { return trace_->slices.end[l.idx[k]]; }
    Time busyBefore(const Lane& l, size_t k) const;                // busy time of slices [0, k)
    Time busyBetween(const Lane& l, size_t from, size_t to) const; // of slices [from, to)
    Time busyUntil(const Lane& l, Time t) const;                   // busy time in [-inf, t)
    std::vector<Lane> lanes_;
    const sched::Trace* trace_ = nullptr;
    size_t consumed_ = 0;
};

} // namespace view
