// SPDX-License-Identifier: GPL-3.0-or-later
#include "base/duration.h"

#include <cstdio>

namespace sched {

std::optional<Time> parseDuration(std::string_view t) {
    size_t i = 0;
    int128 intPart = 0, frac = 0, fracScale = 1;
    bool digits = false;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') {
        intPart = intPart * 10 + (t[i++] - '0');
        digits = true;
        if (intPart > int128(INT64_MAX)) return std::nullopt;
    }
    if (i < t.size() && t[i] == '.') {
        ++i;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9') {
            if (fracScale < int128(1000000000000000000LL)) {
                frac = frac * 10 + (t[i] - '0');
                fracScale *= 10;
            }
            ++i;
            digits = true;
        }
    }
    if (!digits) return std::nullopt;
    const std::string_view unit = t.substr(i);
    int128 mult;
    if (unit == "ns")
        mult = 1;
    else if (unit == "us")
        mult = kNsPerUs;
    else if (unit == "ms")
        mult = kNsPerMs;
    else if (unit == "s")
        mult = kNsPerSec;
    else
        return std::nullopt;
    const int128 ns = intPart * mult + (frac * mult) / fracScale;
    if (ns > int128(INT64_MAX)) return std::nullopt;
    return Time(ns);
}

std::string formatDuration(Time ns) {
    struct Unit {
        Time scale;
        const char* name;
    };
    static constexpr Unit units[] = {{kNsPerSec, "s"}, {kNsPerMs, "ms"}, {kNsPerUs, "us"}};
    const bool neg = ns < 0;
    const Time v = neg ? -ns : ns;
    for (const auto& u : units) {
        // The largest unit in which the value is at least 0.1 (0.7ms rather than 700us).
        if (v >= (u.scale == kNsPerMs ? u.scale / 10 : u.scale) &&
            (u.scale < kNsPerSec || v % (u.scale / 1000000) == 0)) {
            std::string s = std::to_string(v / u.scale);
            if (v < u.scale) s = "0";
            Time rem = v % u.scale;
            if (rem) {
                std::string f = std::to_string(rem + u.scale).substr(1); // zero-padded
                while (!f.empty() && f.back() == '0')
                    f.pop_back();
                s += "." + f;
            }
            std::string out = neg ? "-" : "";
            out += s;
            out += u.name;
            return out;
        }
    }
    std::string out = neg ? "-" : "";
    out += std::to_string(v);
    out += "ns";
    return out;
}

std::string formatMs3(Time ns) {
    char buf[48];
    const bool neg = ns < 0;
    const Time v = neg ? -ns : ns;
    // Round to the microsecond as printf("%.3f", ns / 1e6) would, but in integers.
    const Time us = (v + 500) / 1000;
    std::snprintf(buf, sizeof buf, "%s%lld.%03lld", neg ? "-" : "", (long long)(us / 1000),
                  (long long)(us % 1000));
    return buf;
}

} // namespace sched
