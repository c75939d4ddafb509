// SPDX-License-Identifier: GPL-3.0-or-later
// The discrete-event queue: a 4-ary min-heap of small POD events in one vector. Equal-time
// events pop in a fixed order, so a run is identical on every machine: the one pushed at the
// earlier simulated time first; among those pushed at the same time, every other kind before
// the Segment events, other kinds in the order they were pushed (a sequence number), Segments by
// CPU. That is the order of pushing except that a Segment's place never depends on what else was
// pushed at the same moment, which is what lets the engine run a task's operations ahead without
// pushing a Segment for each (engine_batch.cpp) and still make the same decisions in the same
// order. No allocation per event once the vector has grown; cancelled events are skipped by
// generation numbers instead of being removed.
#pragma once

#include "types.h"

#include <vector>

namespace sched {

enum class EventKind : uint8_t {
    Tick,        // a = cpu, gen = tick generation
    Segment,     // a = cpu: the running task reaches the end of its work or a preemption point
    Timer,       // a = task: hrtimer expiry (sleep or periodic timer)
    Ipi,         // a = cpu: resched IPI arrives
    IdleExit,    // a = cpu: the idle loop notices need_resched()
    HrTick,      // a = cpu: HRTICK slice timer
    TaskStart,   // a = task: the scenario starts this task (wake_up_new_task)
    Change       // a = index of a scheduled parameter change
};

struct Event {
    Time time;
    Time pushedAt; // the simulated time at which it was pushed
    uint64_t seq;
    int32_t a;
    uint32_t gen;
    EventKind kind;
};

class EventQueue {
public:
    void push(Time t, Time pushedAt, EventKind kind, int32_t a, uint32_t gen = 0) {
        heap_.push_back(Event{t, pushedAt, seq_++, a, gen, kind});
        siftUp(heap_.size() - 1);
    }
    bool empty() const { return heap_.empty(); }
    size_t size() const { return heap_.size(); }
    const Event& top() const { return heap_.front(); }
    Event pop();

private:
    static bool less(const Event& x, const Event& y) {
        if (x.time != y.time) return x.time < y.time;
        if (x.pushedAt != y.pushedAt) return x.pushedAt < y.pushedAt;
        const bool xs = x.kind == EventKind::Segment, ys = y.kind == EventKind::Segment;
        if (xs != ys) return ys;
        if (xs && x.a != y.a) return x.a < y.a;
        return x.seq < y.seq;
    }
    void siftUp(size_t i);
    void siftDown(size_t i);
    std::vector<Event> heap_;
    uint64_t seq_ = 0;
};

inline Event EventQueue::pop() {
    Event top = heap_.front();
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) siftDown(0);
    return top;
}

inline void EventQueue::siftUp(size_t i) {
    const Event e = heap_[i];
    while (i > 0) {
        const size_t p = (i - 1) / 4;
        if (!less(e, heap_[p])) break;
        heap_[i] = heap_[p];
        i = p;
    }
    heap_[i] = e;
}

inline void EventQueue::siftDown(size_t i) {
    const size_t n = heap_.size();
    const Event e = heap_[i];
    for (;;) {
        const size_t c0 = 4 * i + 1;
        if (c0 >= n) break;
        size_t best = c0;
        const size_t cEnd = c0 + 4 < n ? c0 + 4 : n;
        for (size_t c = c0 + 1; c < cEnd; ++c)
            if (less(heap_[c], heap_[best])) best = c;
        if (!less(heap_[best], e)) break;
        heap_[i] = heap_[best];
        i = best;
    }
    heap_[i] = e;
}

} // namespace sched
