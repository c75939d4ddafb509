// SPDX-License-Identifier: GPL-3.0-or-later
// A JSON string literal for any text: quotes, backslashes and control characters escaped. The
// one writer of JSON strings for the metrics exports and the scenario editor's files.
#pragma once

#include <string>

namespace sched {

std::string jsonQuote(const std::string& s);

} // namespace sched
