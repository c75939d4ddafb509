// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/task_colors.h"

#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace view {

namespace {

// Okabe & Ito (2008), without black (slices carry black or white labels); yellow last among them,
// the weakest on white. Then Paul Tol's "muted" scheme (2021) for runs with more comms.
constexpr QRgb kPalette[] = {0x0072B2, 0xE69F00, 0x009E73, 0xCC79A7, 0x56B4E9, 0xD55E00, 0xF0E442, 0xCC6677,
                             0x332288, 0xDDCC77, 0x117733, 0x88CCEE, 0x882255, 0x44AA99, 0x999933, 0xAA4499};
constexpr int kColors = int(std::size(kPalette));
// The tasks within a comm: the base colour, then mixed with white (> 0) or black (< 0) by turns,
// in percent.
constexpr int kShades[] = {0, 30, -25, 50, -45};
constexpr int kShadeCount = int(std::size(kShades));

struct Registry {
    std::mutex lock;
    std::unordered_map<std::string, int> slot;
    // Per trace (by address, checked against its task count and first and last pid, so a grown
    // table or a new trace at a freed one's address is counted again): each task's rank among the
    // tasks of its comm, in task-table order. A comm of one task gets the base colour.
    struct Ranks {
        size_t tasks = 0;
        int32_t firstPid = 0, lastPid = 0;
        std::vector<int> rank;
    };
    std::unordered_map<const sched::Trace*, Ranks> ranks;
};
Registry& registry() {
    static Registry r;
    return r;
}

} // namespace

int commSlot(const sched::Trace& trace, const std::string& comm) {
    Registry& r = registry();
    std::lock_guard guard(r.lock);
    if (const auto it = r.slot.find(comm); it != r.slot.end()) return it->second;
    for (const sched::TraceTask& t : trace.tasks) // first appearance: the trace's task table
        r.slot.try_emplace(t.comm, int(r.slot.size()));
    return r.slot.try_emplace(comm, int(r.slot.size())).first->second;
}

QColor paletteColor(int slot, int shade, bool dark) {
    QColor c = QColor::fromRgb(kPalette[slot % kColors]);
    // Past the palette's end the colours come round again, darker (odd rounds) or paler (even
    // ones) before the task's shade, so no two (slot, shade) pairs meet.
    if (const int round = slot / kColors; round > 0) {
        const int toward = round % 2 ? 0 : 255, a = 40;
        c = QColor((c.red() * (100 - a) + toward * a) / 100, (c.green() * (100 - a) + toward * a) / 100,
                   (c.blue() * (100 - a) + toward * a) / 100);
    }
    const int mix = kShades[shade % kShadeCount];
    const int toward = mix > 0 ? 255 : 0, a = std::abs(mix);
    const auto blend = [&](int v) { return (v * (100 - a) + toward * a) / 100; };
    c = QColor(blend(c.red()), blend(c.green()), blend(c.blue()));
    if (dark && c.lightness() < 90) c = c.lighter(160); // indigo and wine would vanish on a dark base
    return c;
}

namespace {
int rankInComm(const sched::Trace& trace, sched::TaskId t) {
    Registry& r = registry();
    std::lock_guard guard(r.lock);
    auto it = r.ranks.find(&trace);
    if (it == r.ranks.end()) {
        if (r.ranks.size() >= 64) r.ranks.clear(); // traces come and go (branches, comparisons)
        it = r.ranks.emplace(&trace, Registry::Ranks{}).first;
    }
    Registry::Ranks& k = it->second;
    const auto& tasks = trace.tasks;
    if (k.tasks != tasks.size() || k.firstPid != tasks.front().pid || k.lastPid != tasks.back().pid) {
        std::unordered_map<std::string_view, int> seen;
        k.rank.resize(tasks.size());
        for (size_t i = 0; i < tasks.size(); ++i)
            k.rank[i] = seen[tasks[i].comm]++;
        k.tasks = tasks.size();
        k.firstPid = tasks.front().pid;
        k.lastPid = tasks.back().pid;
    }
    return k.rank[size_t(t)];
}
} // namespace

void forgetTaskRanks(const sched::Trace* trace) {
    Registry& r = registry();
    std::lock_guard guard(r.lock);
    r.ranks.erase(trace);
}

QColor taskColor(const sched::Trace& trace, sched::TaskId t, bool dark) {
    if (t < 0 || size_t(t) >= trace.tasks.size()) return QColor(128, 128, 128);
    return paletteColor(commSlot(trace, trace.tasks[size_t(t)].comm), rankInComm(trace, t) % kShadeCount,
                        dark);
}

QColor eagerFlagColor(bool dark) {
    return dark ? QColor(255, 90, 90) : QColor(210, 30, 30);
}
QColor lazyFlagColor(bool dark) {
    return dark ? QColor(255, 200, 70) : QColor(225, 150, 0);
}
QColor sliceExtUsedColor(bool dark) {
    return dark ? QColor(90, 230, 140) : QColor(0, 140, 70);
}
QColor sliceExtCutColor(bool dark) {
    return dark ? QColor(255, 110, 230) : QColor(190, 0, 150);
}

} // namespace view
