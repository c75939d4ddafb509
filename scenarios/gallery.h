// SPDX-License-Identifier: GPL-3.0-or-later
// The welcome screen's gallery: every scenario the programs ship, in groups that follow how
// scheduling is taught (when the woken task runs, EEVDF on one CPU, weights, slices, classes and
// balancing), then the seeds' experiments, the real machine and the engine's benchmarks. Names
// are loadScenario() names; tst_scenario_parser checks that each shipped scenario is in exactly one
// group.
#pragma once

#include <string>
#include <vector>

namespace scen {

struct GalleryGroup {
    std::string title;
    std::string blurb;              // one line: what the group shows
    std::vector<std::string> names; // in the order to try them
};

const std::vector<GalleryGroup>& galleryGroups();

} // namespace scen
