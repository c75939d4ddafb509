// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/model/time_axis.h"

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
    while (double(p) * 10 <= minNs && p < (Time(1) << 58))
        p *= 10;
    for (Time m : {Time(1), Time(2), Time(5), Time(10)})
        if (double(p * m) >= minNs) return p * m;
    return p * 10;
}

std::string formatTickLabel(Time t, Time step) {
    struct U {
        Time scale;
        const char* name;
    };
    const U units[] = {{sched::kNsPerSec, "s"}, {sched::kNsPerMs, "ms"}, {sched::kNsPerUs, "us"}, {1, "ns"}};
    // The unit follows the size of the time itself ("10.05ms", not "10050us"), the decimals
    // follow the step, so that neighbouring labels differ and none is longer than needed.
    const Time magnitude = std::max<Time>(t < 0 ? -t : t, step);
    const U* u = &units[3];
    for (const U& c : units)
        if (magnitude >= c.scale) {
            u = &c;
            break;
        }
    int decimals = 0;
    for (Time s = u->scale; s > step && decimals < 9; s /= 10)
        ++decimals; // 1 or 2 ms steps in seconds: 3
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f%s", decimals, double(t) / double(u->scale), u->name);
    return buf;
}

} // namespace view
