// SPDX-License-Identifier: GPL-3.0-or-later
// Per-CPU, per-bit index of the need-resched intervals of a trace, for the thin flag lanes:
// which pixel columns a TIF_NEED_RESCHED / TIF_NEED_RESCHED_LAZY interval covers, in
// O(log n) per column, or zoomed out from time buckets (coverage_buckets.h): a column is marked
// when an interval touches one of the buckets it spans.
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

  private:
    struct Lane {
        std::vector<uint32_t> idx;
        std::vector<Time> set, clear;
        std::vector<uint8_t> reason; // a copy, so a column does not reach into the trace
        CoverageBuckets buckets;     // keyed by reason
    };
    std::vector<std::array<Lane, 2>> lanes_;
    const sched::Trace* trace_ = nullptr;
    size_t consumed_ = 0;
};

} // namespace view
