// SPDX-License-Identifier: GPL-3.0-or-later
// What pick_eevdf() would choose now and why, in one sentence, for the lenses that show a pick
// (the virtual-time lens and the tree lens say it alike).
#pragma once

#include "engine/engine.h"
#include "engine/pick_preview.h"

#include <QString>

namespace view {

QString pickReason(const sched::Engine& e, const sched::PickPreview& p);

} // namespace view
