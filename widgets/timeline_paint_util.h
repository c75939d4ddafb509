// SPDX-License-Identifier: GPL-3.0-or-later
// Small helpers the timeline's painting files share (timeline_painter.cpp draws the lanes,
// timeline_marks.cpp what is drawn over them); not part of the widgets' interface.
#pragma once

#include "widgets/timeline_painter.h"

#include <QPalette>
#include <algorithm>
#include <span>

namespace view::paint {

inline bool isDark(const QPalette& pal) {
    return pal.color(QPalette::Base).lightness() < 128;
}

// Calls fn(i) for every index whose time (a non-decreasing trace column) lies in [t0, t1).
template <class Fn> void forEachInRange(const sched::TimeColumn& times, Time t0, Time t1, Fn&& fn) {
    for (auto it = std::lower_bound(times.begin(), times.end(), t0); it != times.end() && *it < t1; ++it)
        fn(size_t(it - times.begin()));
}

// Whether the run has RSEQ slice extensions to draw: recorded ones, or one held now.
inline bool hasSliceExts(const TimelineData& d) {
    return d.trace->sliceExts.size() > 0 ||
           std::any_of(d.live.sliceExtSince.begin(), d.live.sliceExtSince.end(),
                       [](Time t) { return t >= 0; });
}

} // namespace view::paint
