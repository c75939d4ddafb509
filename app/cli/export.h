// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope-cli run --export-ftrace: run 1 as the kernel's ftrace text or trace-cmd's trace.dat.
#pragma once

#include "app/cli/options.h"

#include <ostream>

// Runs run 1 again and writes it as ftrace text, atomically. Returns a process exit code.
int exportFtraceCommand(const RunOptions& o, const scen::Scenario& s, std::ostream& err);
// Runs run 1 again and writes its lag tables (engine/lag_table.h) at every tick as CSV, atomically.
int exportLagCsvCommand(const RunOptions& o, const scen::Scenario& s, std::ostream& err);
