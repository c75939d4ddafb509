// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope-cli run / list / bench.
#pragma once

#include "app/cli/options.h"

#include <ostream>

// How --export-timeline and --export-chart draw their pictures: app/cli/image's writeRunImages(),
// which the program passes in so that the simulation, trace and metrics code here links no Qt.
// Without one, the options are refused.
using RunImageWriter = int (*)(const RunOptions& o, const scen::Scenario& s, std::ostream& err);

int runCommand(const RunOptions& o, std::ostream& out, std::ostream& err, RunImageWriter image = nullptr);
int listCommand(std::ostream& out);
int benchCommand(const BenchOptions& o, std::ostream& out, std::ostream& err);
