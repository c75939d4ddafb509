// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/model/task_lane_index.h"

#include "widgets/model/time_axis.h"

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
    while (k > 0 && start[k - 1] >= t)
        --k;
    while (k < start.size() && start[k] < t)
        ++k;
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
    for (; wakesSeen_ < w.size(); ++wakesSeen_)
        lanes_[size_t(w.wakee[wakesSeen_])].wakes.push_back(w.time[wakesSeen_]);
    // A task's slices close in time order (it runs on one CPU at a time), so they arrive sorted.
    const sched::Slices& s = trace.slices;
    for (; slicesSeen_ < s.size(); ++slicesSeen_) {
        Lane& l = lanes_[size_t(s.task[slicesSeen_])];
        const Time start = s.start[slicesSeen_];
        Time waitFrom = -1;
        if (l.lastPreempted) {
            waitFrom = l.lastEnd;
        } else {
            while (l.nextWake < l.wakes.size() && l.wakes[l.nextWake] < l.lastEnd)
                ++l.nextWake;
            if (l.nextWake < l.wakes.size() && l.wakes[l.nextWake] <= start) waitFrom = l.wakes[l.nextWake];
        }
        if (waitFrom >= 0) l.runnable.add(waitFrom, start);
        if (l.lastUninterruptible) l.uninterruptible.add(l.lastEnd, waitFrom >= 0 ? waitFrom : start);
        l.running.add(start, s.end[slicesSeen_]);
        l.lastEnd = s.end[slicesSeen_];
        const uint8_t p = s.endPoint[slicesSeen_];
        l.lastPreempted = !sched::isBlockingPoint(p);
        l.lastUninterruptible = p == uint8_t(sched::SwitchPoint::BlockUninterruptible);
    }
}

// A task waits for a CPU from its preemption (it never stopped being runnable) or from its first
// wakeup after it last ran (sched_waking), until it is switched in.
Time TaskLaneIndex::waitingSince(const Lane& l, Time until) const {
    if (l.lastPreempted && l.lastEnd >= 0) return l.lastEnd;
    const auto it = std::lower_bound(l.wakes.begin(), l.wakes.end(), l.lastEnd);
    return it != l.wakes.end() && *it <= until ? *it : -1;
}

std::vector<TaskState> TaskLaneIndex::columns(TaskId task, Time t0, Time t1, int width, Time now,
                                              Time runningSince) const {
    std::vector<TaskState> cols(size_t(std::max(width, 0)), TaskState::Sleeping);
    if (task < 0 || size_t(task) >= lanes_.size() || width <= 0 || t1 <= t0) return cols;
    const Lane& l = lanes_[size_t(task)];
    // The open stretch at `now`, which the closed slices do not cover yet.
    Time openRunA = 0, openRunB = 0, openWaitA = 0, openWaitB = 0, openDA = 0, openDB = 0;
    if (now >= 0) {
        const Time waitEnd = runningSince >= 0 ? runningSince : now;
        const Time w = waitingSince(l, waitEnd);
        if (w >= 0) openWaitA = w, openWaitB = waitEnd;
        if (runningSince >= 0) openRunA = runningSince, openRunB = now;
        if (l.lastUninterruptible && l.lastEnd >= 0) openDA = l.lastEnd, openDB = w >= 0 ? w : waitEnd;
    }
    const auto overlap = [](Time a, Time b, Time x, Time y) {
        return std::max<Time>(0, std::min(b, y) - std::max(a, x));
    };
    size_t hr = 0, hw = 0, hd = 0;
    const ColumnEdges edge(t0, t1, width);
    Time a = t0;
    Time runA = l.running.coveredUntil(a, hr), waitA = l.runnable.coveredUntil(a, hw),
         dA = l.uninterruptible.coveredUntil(a, hd);
    for (int x = 0; x < width; ++x) {
        const Time b = edge(x + 1);
        const Time runB = l.running.coveredUntil(b, hr), waitB = l.runnable.coveredUntil(b, hw),
                   dB = l.uninterruptible.coveredUntil(b, hd);
        const Time run = runB - runA + overlap(a, b, openRunA, openRunB),
                   wait = waitB - waitA + overlap(a, b, openWaitA, openWaitB),
                   d = dB - dA + overlap(a, b, openDA, openDB);
        const Time sleep = (b - a) - run - wait - d;
        if (run > 0 && run >= wait && run >= sleep / 4)
            cols[size_t(x)] = TaskState::Running; // running shows first
        else if (wait > 0 && wait >= sleep / 4)
            cols[size_t(x)] = TaskState::Runnable;
        else if (d > 0 && d >= sleep)
            cols[size_t(x)] = TaskState::Uninterruptible;
        a = b;
        runA = runB;
        waitA = waitB;
        dA = dB;
    }
    return cols;
}

} // namespace view
