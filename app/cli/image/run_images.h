// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope-cli run --export-timeline / --export-chart: run 1's timeline and its EEVDF chart or
// delay histogram, drawn by the GUI's own widgets offscreen, as the app's File > Export draws them.
// Its own library (app/cli/image), the one part of the CLI that links widgets/ and Qt; the program
// hands it to runCommand() (app/cli/main.cpp).
#pragma once

#include "app/cli/options.h"

#include <ostream>

// Runs the scenario once more with the first seed (a run is deterministic, so this is run 1) and
// writes the pictures asked for. Returns a process exit code.
int writeRunImages(const RunOptions& o, const scen::Scenario& s, std::ostream& err);
