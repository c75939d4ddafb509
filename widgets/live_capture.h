// SPDX-License-Identifier: GPL-3.0-or-later
// Reads what the timeline needs from the engine's present state (running tasks and their open
// slices, the need-resched bits set now). Per CPU, so it costs nothing per event.
#pragma once

#include "engine/engine.h"
#include "metrics/latency_fold.h"
#include "widgets/model/flag_index.h"
#include "widgets/model/lane_index.h"
#include "widgets/timeline_painter.h"

namespace view {

LiveState captureLive(const sched::Engine& e);
// What the painter needs to draw a finished run: its trace, the lane and flag indexes (built
// here, held by the caller) and the run's end; nothing is live.
TimelineData finishedRunData(const sched::Engine& e, LaneIndex& lanes, FlagIndex& flags,
                             sched::WakeupChains* chains = nullptr);
// Each CPU's current slice (LatencyFold::endedAt()); none for an idle CPU.
std::vector<sched::RunningSlice> runningSlices(const sched::Engine& e);

} // namespace view
