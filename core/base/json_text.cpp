// SPDX-License-Identifier: GPL-3.0-or-later
#include "base/json_text.h"

#include <cstdint>
#include <cstdio>

namespace sched {

std::string jsonQuote(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            o += '\\', o += c;
        else if (uint8_t(c) < 0x20) {
            char b[8];
            std::snprintf(b, sizeof b, "\\u%04x", c);
            o += b;
        } else
            o += c;
    }
    return o + "\"";
}

} // namespace sched
