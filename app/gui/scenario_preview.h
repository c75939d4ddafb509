// SPDX-License-Identifier: GPL-3.0-or-later
// A small picture of a scenario's first moments for the welcome screen: the scenario simulated
// for its first kPreviewSpan (or less, if it is shorter) and drawn by the timeline's own painter.
// Pure and thread-safe (a QImage, no widgets), so the welcome screen renders it off the GUI thread.
#pragma once

#include "scenarios/scenario.h"

#include <QFont>
#include <QImage>
#include <QPalette>

inline constexpr sched::Time kPreviewSpan = 250 * sched::kNsPerMs;

// At most box.width() x box.height() pixels (a machine with many CPUs is scaled down to fit).
QImage scenarioPreview(const scen::Scenario& s, QSize box, const QPalette& palette, const QFont& font);
