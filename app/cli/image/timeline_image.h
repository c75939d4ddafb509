// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope-cli run --export-timeline: run 1's timeline drawn with the GUI's painter, offscreen.
// Its own library (app/cli/image), the one part of the CLI that links widgets/ and Qt Gui; the
// program hands it to runCommand() (app/cli/main.cpp).
#pragma once

#include "app/cli/options.h"

#include <ostream>

// Runs the scenario once more with the first seed (a run is deterministic, so this is run 1) and
// writes the picture. Returns a process exit code.
int writeTimelineImage(const RunOptions& o, const scen::Scenario& s, std::ostream& err);
