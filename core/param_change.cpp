// SPDX-License-Identifier: GPL-3.0-or-later
#include "param_change.h"
#include "duration.h"

namespace sched {

std::string ParamChange::label() const {
    const std::string who = task >= 0 ? "task " + std::to_string(task) : comm;
    switch (kind) {
    case Kind::PreemptModel: return "preempt=" + std::string(preemptModelName(model));
    case Kind::BaseSlice: return "base_slice=" + formatDuration(value);
    case Kind::Feature: return (on ? "" : "NO_") + std::string(featureName(feature));
    case Kind::Hz: return "HZ=" + std::to_string(hz);
    case Kind::TaskSlice: return who + " slice=" + (value ? formatDuration(value) : std::string("default"));
    case Kind::TaskNice: return who + " nice=" + std::to_string(nice);
    case Kind::TaskPolicy: return who + " policy=" + std::string(policyName(policy));
    }
    return "?";
}

} // namespace sched
