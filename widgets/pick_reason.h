// SPDX-License-Identifier: GPL-3.0-or-later
// What pick_eevdf() would choose now and why, in one sentence, for the lenses that show a pick
// (the virtual-time lens and the tree lens say it alike).
#pragma once

#include "engine/engine.h"
#include "engine/pick_preview.h"

#include <QString>

namespace view {

// ... and, where a need-resched bit is pending on cpu, who set it and why (a wakeup preemption
// names its wakee and the rule) and where the switch will happen.
QString pickReason(const sched::Engine& e, int cpu, const sched::PickPreview& p);

} // namespace view
