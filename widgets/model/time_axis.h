// SPDX-License-Identifier: GPL-3.0-or-later
// The mapping between simulated time and pixels of a view: a small value type, tested on its
// own. Absolute nanosecond timestamps are made relative to the view's start in int64 before any
// floating point, so a view deep inside a long run keeps nanosecond precision.
#pragma once

#include "base/types.h"

#include <cstdint>

namespace view {

using sched::Time;

// The edges of `width` equal columns of [t0, t1): edge x = t0 + floor((t1 - t0) * x / width),
// exactly, in 64-bit arithmetic unless the product could overflow (a 128-bit division per
// column costs more than the rest of a summary column).
struct ColumnEdges {
    Time t0, span;
    int width;
    bool wide;
    ColumnEdges(Time a, Time b, int w)
        : t0(a), span(b - a), width(w > 0 ? w : 1), wide(span > INT64_MAX / (width + 1)) {}
    Time operator()(int x) const {
        return t0 + (wide ? Time((sched::int128(span) * x) / width) : span * x / width);
    }
};

struct TimeAxis {
    Time start = 0;
    Time end = sched::kNsPerSec; // exclusive; end > start
    int width = 1000;            // pixels

    Time span() const { return end - start; }
    double nsPerPixel() const { return double(span()) / double(width > 0 ? width : 1); }
    double toX(Time t) const { return double(t - start) / nsPerPixel(); }
    Time toTime(double x) const { return start + Time(x * nsPerPixel()); }
    // Time at the left edge of pixel column x and at the right edge (exclusive).
    Time columnStart(int x) const { return ColumnEdges(start, end, width)(x); }
    Time columnEnd(int x) const { return columnStart(x + 1); }

    // Zoom by factor (> 1 zooms in) keeping the time under pixel x where it is.
    void zoomAt(double x, double factor, Time minSpan = 1000, Time maxSpan = Time(1) << 62);
    void pan(double dx); // by pixels, positive moves the view later
    void setRange(Time t0, Time t1, Time minSpan = 1000);
    friend bool operator==(const TimeAxis&, const TimeAxis&) = default;
};

// A "nice" tick step for a ruler: 1, 2 or 5 times a power of ten nanoseconds, at least minNs.
Time niceTickStep(double minNs);
// A ruler label for t with a unit fitting the step: "12.5ms", "1.204s", "350us".
std::string formatTickLabel(Time t, Time step);

} // namespace view
