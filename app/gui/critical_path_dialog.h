// SPDX-License-Identifier: GPL-3.0-or-later
// A task's critical path as the main window (a simulation's run so far) and a trace window (an
// imported trace) show it: its runs, its waits for a CPU and its sleeps with the task that woke
// it, back in time from a moment, newest first - the text schedscope-cli trace --critical-path prints.
#pragma once

#include "trace/trace.h"

#include <QString>

class QWidget;

// The path's text, with a first line naming the task and the moment.
QString criticalPathText(const sched::Trace& trace, sched::TaskId task, sched::Time at);
// The text in a modal dialog over parent (a fixed-width font, scrollable, Close).
void showCriticalPathDialog(QWidget* parent, const QString& text);
