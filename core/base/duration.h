// SPDX-License-Identifier: GPL-3.0-or-later
// Human durations ("0.7ms", "500us", "10s", "1234ns") <-> integer nanoseconds, exactly.
#pragma once

#include "base/types.h"

#include <optional>
#include <string>
#include <string_view>

namespace sched {

// Parses a decimal number with a unit suffix (ns, us, ms, s). Decimals are exact (no binary
// floating point), so "0.7ms" is 700000 ns. Returns nullopt on anything else.
std::optional<Time> parseDuration(std::string_view text);
// Shortest exact form: 700000 -> "0.7ms", 4000000 -> "4ms", 1500 -> "1.5us".
std::string formatDuration(Time ns);
// Fixed-point milliseconds with three decimals as perf prints them ("12.345").
std::string formatMs3(Time ns);

} // namespace sched
