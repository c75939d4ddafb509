// SPDX-License-Identifier: GPL-3.0-or-later
// Colours per task that a reader can tell apart and that mean the same in every window: a
// qualitative palette (Okabe and Ito's seven colours, which stay distinct under the common
// colour-vision deficiencies, then Paul Tol's nine "muted" ones) handed out per comm in the order
// the comms first appear — in the task table of the first trace a view draws, then each new comm
// of a later one — so a comm keeps its colour in the simulation, an imported trace, a comparison
// and their exports alike. Tasks of one comm share its hue in five lightnesses by their rank
// in the comm (the first the base colour), so threads are told apart and a lone task is plain.
#pragma once

#include "trace/trace.h"

#include <QColor>
#include <string>

namespace view {

QColor taskColor(const sched::Trace& trace, sched::TaskId t, bool darkBackground);
// The palette slot of a comm (0, 1, ...): registered with every comm of the trace, in task-table
// order, the first time one of them is asked for. Thread-safe (the welcome screen's previews are
// drawn on a worker thread).
int commSlot(const sched::Trace& trace, const std::string& comm);
// The ranks cached for a trace that is replaced or cut back (a new engine may be built at the same
// address: File > Open, a reset).
void forgetTaskRanks(const sched::Trace* trace);
// A colour of the palette: slot, and the shade of a task within its comm (0 = the base colour).
QColor paletteColor(int slot, int shade, bool darkBackground);
// Colours of the two need-resched bits: eager (TIF_NEED_RESCHED) and lazy.
QColor eagerFlagColor(bool dark);
QColor lazyFlagColor(bool dark);
// An RSEQ slice extension that the task ended with rseq_slice_yield(), and one cut short (the
// timer expired, another reschedule revoked it, another system call aborted it).
QColor sliceExtUsedColor(bool dark);
QColor sliceExtCutColor(bool dark);

} // namespace view
