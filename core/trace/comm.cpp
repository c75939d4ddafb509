// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace/comm.h"

#include <cstdio>

namespace sched {

namespace {

// The length of the valid UTF-8 sequence at s[i] (1 to 4), or 0 (RFC 3629: no overlong forms,
// no surrogates, nothing past U+10FFFF).
size_t utf8Length(std::string_view s, size_t i) {
    const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    if (c < 0x80) return 1;
    size_t n = 0;
    unsigned char lo = 0x80, hi = 0xbf; // the second byte's range
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c == 0xe0)
        n = 3, lo = 0xa0;
    else if (c >= 0xe1 && c <= 0xec)
        n = 3;
    else if (c == 0xed)
        n = 3, hi = 0x9f;
    else if (c >= 0xee && c <= 0xef)
        n = 3;
    else if (c == 0xf0)
        n = 4, lo = 0x90;
    else if (c >= 0xf1 && c <= 0xf3)
        n = 4;
    else if (c == 0xf4)
        n = 4, hi = 0x8f;
    else
        return 0;
    if (i + n > s.size() || b(i + 1) < lo || b(i + 1) > hi) return 0;
    for (size_t k = 2; k < n; ++k)
        if (b(i + k) < 0x80 || b(i + k) > 0xbf) return 0;
    return n;
}

bool isControl(unsigned char c) {
    return c < 0x20 || c == 0x7f;
}

} // namespace

std::string printableComm(std::string_view raw, bool* changed) {
    std::string out;
    out.reserve(raw.size());
    bool any = false;
    for (size_t i = 0; i < raw.size();) {
        const size_t n = utf8Length(raw, i);
        if (n == 0 || (n == 1 && isControl(static_cast<unsigned char>(raw[i])))) {
            out += '?';
            any = true;
            ++i;
        } else {
            out.append(raw.substr(i, n));
            i += n;
        }
    }
    if (changed) *changed = any;
    return out;
}

std::vector<TraceTask> printableTasks(const std::vector<TraceTask>& tasks) {
    std::vector<TraceTask> out = tasks;
    for (TraceTask& t : out)
        t.comm = printableComm(t.comm);
    return out;
}

std::string commProblem(std::string_view comm) {
    for (size_t i = 0; i < comm.size();) {
        const size_t n = utf8Length(comm, i);
        const unsigned char c = static_cast<unsigned char>(comm[i]);
        if (n == 0) {
            char b[96];
            std::snprintf(b, sizeof b, "byte %zu (0x%02x) is not UTF-8", i + 1, c);
            return b;
        }
        if (n == 1 && isControl(c)) {
            char b[96];
            std::snprintf(b, sizeof b, "contains a control character (U+%04X) at byte %zu", c, i + 1);
            return b;
        }
        i += n;
    }
    return {};
}

} // namespace sched
