// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope-cli --export-timeline: draws a run's timeline with the GUI's painter, offscreen.
#pragma once

#include "app/cli/options.h"

#include <ostream>

// Runs the scenario once more with the first seed (a run is deterministic, so this is run 1) and
// writes the picture. Returns a process exit code.
int exportTimelineCommand(const RunOptions& o, const scen::Scenario& s, std::ostream& err);

// Runs run 1 again and writes it as ftrace text, atomically. Returns a process exit code.
int exportFtraceCommand(const RunOptions& o, const scen::Scenario& s, std::ostream& err);
