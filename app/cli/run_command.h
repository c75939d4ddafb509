// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope-cli run / list / bench.
#pragma once

#include "app/cli/options.h"

#include <ostream>

int runCommand(const RunOptions& o, std::ostream& out, std::ostream& err);
int listCommand(std::ostream& out);
int benchCommand(const BenchOptions& o, std::ostream& out, std::ostream& err);
