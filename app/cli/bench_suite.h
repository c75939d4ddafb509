// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope-cli bench --suite: every performance figure the README and docs/performance.md give,
// measured in one command on this machine and printed with its name and the date - the engine's
// events per second, the seed-size messaging run's wall time and instructions, the timeline's
// frame times and bytes per slice at 9.79 M slices, and the trace import rates beside
// `trace-cmd report` on the same files.
#pragma once

#include "app/cli/options.h"

#include <ostream>

int benchSuite(const BenchOptions& o, std::ostream& out, std::ostream& err);
