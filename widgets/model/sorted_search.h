// SPDX-License-Identifier: GPL-3.0-or-later
// Searches over a lane's entries whose times live in the trace's columns (the lane holds only
// their indices): `skip(k)` is true for a prefix of [lo, hi) and false after it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <ranges>

namespace view {

// The first k in [lo, hi) with !skip(k), or hi.
template <class Skip> size_t firstNotSkipped(size_t lo, size_t hi, const Skip& skip) {
    const auto range = std::views::iota(lo, hi);
    return lo + size_t(std::ranges::partition_point(range, skip) - range.begin());
}

// The same from `from`, exponential then binary: a left-to-right sweep of pixel columns costs
// O(log gap) a step, bounded by pixels rather than by entries.
template <class Skip> size_t gallopNotSkipped(size_t from, size_t n, const Skip& skip) {
    size_t lo = from, hi = from, step = 1;
    while (hi < n && skip(hi)) {
        lo = hi + 1;
        hi = from + step;
        step *= 2;
    }
    return firstNotSkipped(lo, hi < n ? hi : n, skip);
}

} // namespace view
