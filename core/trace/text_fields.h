// SPDX-License-Identifier: GPL-3.0-or-later
// The small field readers that the text-trace tokenizer (trace/line_tokenizer.h) and the event
// parser (trace/import.cpp) share: trimming, exact numbers, timestamps, key=value payload fields.
#pragma once

#include "base/types.h"

#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

namespace sched::text {

inline std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// The whole of s as a number of type T (no sign where T has none, nothing left over), as
// std::from_chars() reads a decimal integer: an optional '-' for a signed T, digits (leading zeros
// allowed), nothing else, within T's range. Written out because libstdc++ 12's from_chars() took
// ~60 instructions for a pid: every line of a trace has several numbers.
template <class T> bool number(std::string_view s, T& out) {
    static_assert(std::is_integral_v<T> && sizeof(T) <= 8, "decimal integers only");
    const char* p = s.data();
    const char* const end = p + s.size();
    bool negative = false;
    if constexpr (std::is_signed_v<T>)
        if (p != end && *p == '-') negative = true, ++p;
    if (p == end) return false;
    uint64_t v = 0;
    if (end - p <= 19) { // below 10^19: no overflow of 64 bits to check digit by digit
        for (; p != end; ++p) {
            const unsigned d = unsigned(static_cast<unsigned char>(*p)) - '0';
            if (d > 9) return false;
            v = v * 10 + d;
        }
    } else {
        for (; p != end; ++p) {
            const unsigned d = unsigned(static_cast<unsigned char>(*p)) - '0';
            if (d > 9 || __builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, d, &v)) return false;
        }
    }
    const uint64_t max = uint64_t(std::numeric_limits<T>::max());
    if (v > max + (negative ? 1 : 0)) return false;
    out = negative ? T(0 - v) : T(v);
    return true;
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
