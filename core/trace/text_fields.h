// SPDX-License-Identifier: GPL-3.0-or-later
// The small field readers that the text-trace tokenizer (trace/line_tokenizer.h) and the event
// parser (trace/import.cpp) share: trimming, exact numbers, timestamps, key=value payload fields.
#pragma once

#include "base/types.h"

#include <charconv>
#include <string_view>

namespace sched::text {

inline std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// The whole of s as a number of type T (no sign where T has none, nothing left over).
template <class T> bool number(std::string_view s, T& out) {
    if (s.empty()) return false;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}

// A pid the kernel can give: 0 (idle) to PID_MAX_LIMIT - 1 (include/linux/threads.h: 4 * 1024 *
// 1024 on 64-bit). A garbled larger one would otherwise size the importer's pid -> task table.
constexpr int32_t kPidMaxLimit = 4 * 1024 * 1024;
inline bool pidNumber(std::string_view s, int32_t& out) {
    return number(s, out) && out >= 0 && out < kPidMaxLimit;
}

// "976.785403" -> ns (any number of decimals up to 9), up to 2^63 ns (292 years).
inline bool timestamp(std::string_view s, Time& out) {
    const size_t dot = s.find('.');
    int64_t sec = 0, frac = 0;
    if (dot == std::string_view::npos || !number(s.substr(0, dot), sec) || sec < 0 ||
        sec >= INT64_MAX / kNsPerSec)
        return false;
    const std::string_view f = s.substr(dot + 1);
    if (f.empty() || f.size() > 9 || !number(f, frac)) return false;
    for (size_t i = f.size(); i < 9; ++i)
        frac *= 10;
    out = sec * kNsPerSec + frac;
    return true;
}

// The value after "key=" up to the next " " + one of the stop keys (comms may hold blanks).
inline std::string_view field(std::string_view payload, std::string_view key, std::string_view nextKey = {}) {
    const size_t at = payload.find(key);
    if (at == std::string_view::npos) return {};
    std::string_view v = payload.substr(at + key.size());
    size_t end = nextKey.empty() ? v.find(' ') : v.find(nextKey);
    if (end == std::string_view::npos) end = v.size();
    return v.substr(0, end);
}

} // namespace sched::text
