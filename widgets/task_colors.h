// SPDX-License-Identifier: GPL-3.0-or-later
// Stable, distinguishable colours per task: the same task keeps its colour across zoom levels,
// runs and exports; tasks of one comm get neighbouring hues.
#pragma once

#include <QColor>
#include <string>

namespace view {

QColor taskColor(int taskId, const std::string& comm, bool darkBackground);
// Colours of the two need-resched bits: eager (TIF_NEED_RESCHED) and lazy.
QColor eagerFlagColor(bool dark);
QColor lazyFlagColor(bool dark);
// An RSEQ slice extension that the task ended with rseq_slice_yield(), and one cut short (the
// timer expired, another reschedule revoked it, another system call aborted it).
QColor sliceExtUsedColor(bool dark);
QColor sliceExtCutColor(bool dark);

} // namespace view
