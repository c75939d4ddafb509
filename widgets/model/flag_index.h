// SPDX-License-Identifier: GPL-3.0-or-later
// Per-CPU, per-bit index of the need-resched intervals of a trace, for the thin flag lanes:
// which pixel columns a TIF_NEED_RESCHED / TIF_NEED_RESCHED_LAZY interval covers, in
// O(log n) per column, or zoomed out from time buckets (coverage_buckets.h): a column is marked
// when an interval touches one of the buckets it spans. A lane holds the intervals' indices and
// reads their times and reasons from the trace's columns (4 bytes an interval).
#pragma once

#include "trace/trace.h"
#include "widgets/model/coverage_buckets.h"

#include <array>
#include <vector>

namespace view {

using sched::Time;

class FlagIndex {
  public:
    void update(const sched::Trace& trace);
    // Per column: 0 = bit clear, else 1 + the ReschedReason of the interval covering most of it.
    std::vector<uint8_t> columns(int cpu, int bit, Time t0, Time t1, int width) const;
    // Interval indices (into trace.flags) on this CPU and bit overlapping [t0, t1), at most max.
    std::vector<uint32_t> intervalsIn(int cpu, int bit, Time t0, Time t1, size_t max) const;
    size_t memoryBytes() const; // its vectors' capacities and the buckets

  private:
    struct Lane {
        std::vector<uint32_t> idx; // in set order (so in clear order too: they do not overlap)
        CoverageBuckets buckets;   // keyed by reason
    };
    Time set(const Lane& l, size_t k) const { return trace_->flags.set[l.idx[k]]; }
    Time clear(const Lane& l, size_t k) const { return trace_->flags.clear[l.idx[k]]; }
    std::vector<std::array<Lane, 2>> lanes_;
    const sched::Trace* trace_ = nullptr;
    size_t consumed_ = 0;
};

} // namespace view
