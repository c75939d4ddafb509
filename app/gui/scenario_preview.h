// SPDX-License-Identifier: GPL-3.0-or-later
// A small picture of a scenario's first moments for the welcome screen: the scenario simulated
// for its first kPreviewSpan (or less, if it is shorter) and drawn by the timeline's own painter.
// Pure and thread-safe (a QImage, no widgets), so the welcome screen renders it off the GUI thread.
#pragma once

#include "scenarios/scenario.h"

#include <QFont>
#include <QImage>
#include <QPalette>
#include <functional>

inline constexpr sched::Time kPreviewSpan = 250 * sched::kNsPerMs;

// At most box.width() x box.height() pixels (a machine with many CPUs is scaled down to fit). The
// run goes in steps of simulated time and stops, with a null image, as soon as cancelled() says so:
// a 64-CPU scenario's preview takes seconds, and a newer selection supersedes it.
QImage scenarioPreview(const scen::Scenario& s, QSize box, const QPalette& palette, const QFont& font,
                       const std::function<bool()>& cancelled);
