// SPDX-License-Identifier: GPL-3.0-or-later
// Scheduler feature bits, as /sys/kernel/debug/sched/features (kernel/sched/features.h).
// Only the features that change a decision the engine models are listed.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace sched {

enum class Feature : uint8_t {
    PlaceLag,
    PlaceDeadlineInitial,
    PlaceRelDeadline,
    RunToParity,
    PreemptShort,
    DelayDequeue,
    DelayZero,
    WakeupPreemption,
    HrTick,
    WaIdle,
    WaWeight,
    SisUtil,
    NiRandom,  // 6.18.5+ (Rule::ProportionalNewidle); no effect in profiles without the rule
    NiRate,    // 7.1+ (Rule::NewidleRate): the newidle ratio grows with the time 512 tries took
    NextBuddy, // off in every modelled kernel (next_buddy.cpp)
    PickBuddy, // 6.14+ (Rule::PickBuddy): the pick side of the buddy, apart from NEXT_BUDDY
    Count
};

constexpr size_t kFeatureCount = size_t(Feature::Count);

// Kernel spelling: PLACE_LAG, RUN_TO_PARITY, ...
std::string_view featureName(Feature f);
std::optional<Feature> parseFeature(std::string_view name);

class FeatureSet {
  public:
    FeatureSet(); // the 6.13-6.18 defaults (HRTICK and NEXT_BUDDY off, everything else here on)
    // The bit as set; unset bits read as the 6.13-6.18 defaults (SchedConfig::feature() knows
    // the kernel's own).
    bool operator[](Feature f) const { return bits_[size_t(f)]; }
    void set(Feature f, bool on) { bits_[size_t(f)] = on, set_[size_t(f)] = true; }
    bool isSet(Feature f) const { return set_[size_t(f)]; }
    friend bool operator==(const FeatureSet&, const FeatureSet&) = default;

  private:
    std::array<bool, kFeatureCount> bits_{};
    std::array<bool, kFeatureCount> set_{};
};

} // namespace sched
