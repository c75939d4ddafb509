// SPDX-License-Identifier: GPL-3.0-or-later
#include "time_axis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace view {

void TimeAxis::zoomAt(double x, double factor, Time minSpan, Time maxSpan) {
    if (factor <= 0) return;
    const Time anchor = toTime(x);
    Time newSpan = Time(double(span()) / factor);
    newSpan = std::clamp(newSpan, minSpan, maxSpan);
    const double frac = width > 0 ? x / width : 0.0;
    start = anchor - Time(double(newSpan) * frac);
    end = start + newSpan;
}

void TimeAxis::pan(double dx) {
    const Time d = Time(dx * nsPerPixel());
    start += d;
    end += d;
}

void TimeAxis::setRange(Time t0, Time t1, Time minSpan) {
    if (t1 - t0 < minSpan) {
        const Time mid = t0 + (t1 - t0) / 2;
        t0 = mid - minSpan / 2;
        t1 = t0 + minSpan;
    }
    start = t0;
    end = t1;
}

Time niceTickStep(double minNs) {
    Time p = 1;
    while (double(p) * 10 <= minNs && p < (Time(1) << 58)) p *= 10;
    for (Time m : {Time(1), Time(2), Time(5), Time(10)})
        if (double(p * m) >= minNs) return p * m;
    return p * 10;
}

std::string formatTickLabel(Time t, Time step) {
    struct U { Time scale; const char* name; };
    const U units[] = {{sched::kNsPerSec, "s"}, {sched::kNsPerMs, "ms"}, {sched::kNsPerUs, "us"}, {1, "ns"}};
    const U* u = &units[3];
    // The largest unit the step is at least a tenth of: 20 ms steps read "20ms", 0.5 ms "0.5ms".
    for (const U& c : units)
        if (c.scale > 1 && step * 10 >= c.scale && (c.scale != sched::kNsPerSec || step * 10 >= 10 * c.scale / 10)) { u = &c; break; }
    int decimals = 0;
    for (Time s = u->scale; s > step && decimals < 6; s /= 10) ++decimals;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f%s", decimals, double(t) / double(u->scale), u->name);
    return buf;
}

} // namespace view
