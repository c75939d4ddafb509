// SPDX-License-Identifier: GPL-3.0-or-later
// A live change of a scheduler parameter, applied at one simulated instant exactly as writing
// the debugfs knob or calling sched_setattr() would be.
#pragma once

#include "base/types.h"
#include "engine/sched_features.h"

#include <string>
#include <string_view>

namespace sched {

struct ParamChange {
    enum class Kind : uint8_t { PreemptModel, BaseSlice, Feature, Hz, TaskSlice, TaskNice, TaskPolicy };
    Kind kind = Kind::PreemptModel;
    PreemptModel model = PreemptModel::None; // PreemptModel
    Time value = 0;                          // BaseSlice (scaled sysctl value), TaskSlice (0 = default)
    Feature feature = Feature::PlaceLag;     // Feature
    bool on = true;                          // Feature
    int hz = 250;                            // Hz
    std::string comm;                        // Task*: every live task with this comm ...
    TaskId task = kNoTask;                   // ... or this one task
    int nice = 0;                            // TaskNice, TaskPolicy (fair)
    Policy policy = Policy::Normal;          // TaskPolicy
    int rtPriority = 0;                      // TaskPolicy (RT)

    std::string label() const; // "preempt=lazy", "base_slice=0.5ms", "NO_PREEMPT_SHORT", ...

    static ParamChange preemptModel(PreemptModel m) {
        ParamChange c;
        c.kind = Kind::PreemptModel;
        c.model = m;
        return c;
    }
    static ParamChange hzChange(int hz) {
        ParamChange c;
        c.kind = Kind::Hz;
        c.hz = hz;
        return c;
    }
    static ParamChange featureChange(Feature f, bool on) {
        ParamChange c;
        c.kind = Kind::Feature;
        c.feature = f;
        c.on = on;
        return c;
    }
};

// Reads what label() prints ("preempt=full", "base_slice=3ms", "HZ=1000", "NO_PREEMPT_SHORT",
// "hog nice=5", "task 3 slice=0.5ms", "waker policy=SCHED_FIFO"). Returns an error naming what
// is wrong and what would be accepted, empty on success.
std::string parseParamChange(std::string_view spec, ParamChange& out);

} // namespace sched
