// SPDX-License-Identifier: GPL-3.0-or-later
#include "task_lane_index.h"

#include <algorithm>

namespace view {

void TaskLaneIndex::Series::add(Time a, Time b) {
    if (b <= a) return;
    before.push_back(before.empty() ? 0 : before.back() + (end.back() - start.back()));
    start.push_back(a);
    end.push_back(b);
}

Time TaskLaneIndex::Series::coveredUntil(Time t, size_t& hint) const {
    // Galloping from the previous column's position: columns are asked left to right.
    size_t k = std::min(hint, start.size());
    while (k > 0 && start[k - 1] >= t) --k;
    while (k < start.size() && start[k] < t) ++k;
    hint = k;
    if (k == 0) return 0;
    return before[k - 1] + (std::min(end[k - 1], t) - start[k - 1]);
}

void TaskLaneIndex::update(const sched::Trace& trace) {
    if (trace_ != &trace || trace.slices.size() < slicesSeen_ || trace.wakeups.size() < wakesSeen_) {
        lanes_.clear();
        slicesSeen_ = wakesSeen_ = 0;
    }
    trace_ = &trace;
    if (lanes_.size() < trace.tasks.size()) lanes_.resize(trace.tasks.size());
    const sched::Wakeups& w = trace.wakeups;
    for (; wakesSeen_ < w.size(); ++wakesSeen_) lanes_[size_t(w.wakee[wakesSeen_])].wakes.push_back(w.time[wakesSeen_]);
    // A task's slices close in time order (it runs on one CPU at a time), so they arrive sorted.
    const sched::Slices& s = trace.slices;
    for (; slicesSeen_ < s.size(); ++slicesSeen_) {
        Lane& l = lanes_[size_t(s.task[slicesSeen_])];
        const Time start = s.start[slicesSeen_];
        Time waitFrom = -1;
        if (l.lastPreempted) {
            waitFrom = l.lastEnd;
        } else {
            while (l.nextWake < l.wakes.size() && l.wakes[l.nextWake] < l.lastEnd) ++l.nextWake;
            if (l.nextWake < l.wakes.size() && l.wakes[l.nextWake] <= start) waitFrom = l.wakes[l.nextWake];
        }
        if (waitFrom >= 0) l.runnable.add(waitFrom, start);
        l.running.add(start, s.end[slicesSeen_]);
        l.lastEnd = s.end[slicesSeen_];
        const uint8_t p = s.endPoint[slicesSeen_];
        l.lastPreempted = p != uint8_t(sched::SwitchPoint::Block) && p != uint8_t(sched::SwitchPoint::Exit);
    }
}

std::vector<TaskState> TaskLaneIndex::columns(TaskId task, Time t0, Time t1, int width) const {
    std::vector<TaskState> cols(size_t(std::max(width, 0)), TaskState::Sleeping);
    if (task < 0 || size_t(task) >= lanes_.size() || width <= 0 || t1 <= t0) return cols;
    const Lane& l = lanes_[size_t(task)];
    size_t hr = 0, hw = 0;
    Time a = t0;
    Time runA = l.running.coveredUntil(a, hr), waitA = l.runnable.coveredUntil(a, hw);
    for (int x = 0; x < width; ++x) {
        const Time b = t0 + Time((sched::int128(t1 - t0) * (x + 1)) / width);
        const Time runB = l.running.coveredUntil(b, hr), waitB = l.runnable.coveredUntil(b, hw);
        const Time run = runB - runA, wait = waitB - waitA, sleep = (b - a) - run - wait;
        if (run > 0 && run >= wait && run >= sleep / 4) cols[size_t(x)] = TaskState::Running; // running shows first
        else if (wait > 0 && wait >= sleep / 4) cols[size_t(x)] = TaskState::Runnable;
        a = b;
        runA = runB;
        waitA = waitB;
    }
    return cols;
}

} // namespace view
