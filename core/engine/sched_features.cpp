// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/sched_features.h"

namespace sched {

namespace {
constexpr std::array<std::string_view, kFeatureCount> kNames{"PLACE_LAG",
                                                             "PLACE_DEADLINE_INITIAL",
                                                             "PLACE_REL_DEADLINE",
                                                             "RUN_TO_PARITY",
                                                             "PREEMPT_SHORT",
                                                             "DELAY_DEQUEUE",
                                                             "DELAY_ZERO",
                                                             "WAKEUP_PREEMPTION",
                                                             "HRTICK",
                                                             "WA_IDLE",
                                                             "WA_WEIGHT",
                                                             "SIS_UTIL",
                                                             "NI_RANDOM",
                                                             "NI_RATE",
                                                             "NEXT_BUDDY",
                                                             "PICK_BUDDY"};
}

std::string_view featureName(Feature f) {
    return kNames[size_t(f)];
}

std::optional<Feature> parseFeature(std::string_view name) {
    for (size_t i = 0; i < kFeatureCount; ++i)
        if (kNames[i] == name) return Feature(i);
    return std::nullopt;
}

FeatureSet::FeatureSet() {
    bits_.fill(true);
    bits_[size_t(Feature::HrTick)] = false; // off before 7.1; SchedConfig::featureDefault() knows 7.1's
    // Off since EEVDF (5e963f2bd465, 6.6); 6.19-rc1 turned it on (aceccac58ad7) and -rc7 off again
    // (4f70f106bca1).
    bits_[size_t(Feature::NextBuddy)] = false;
}

} // namespace sched
