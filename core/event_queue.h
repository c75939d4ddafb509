// SPDX-License-Identifier: GPL-3.0-or-later
// The discrete-event queue: a 4-ary min-heap of small POD events in one vector, ordered by
// (time, sequence number). The sequence number makes equal-time events pop in the order they
// were pushed, so a run is identical on every machine. No allocation per event once the vector
// has grown; cancelled events are skipped by generation numbers instead of being removed.
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
    uint64_t seq;
    int32_t a;
    uint32_t gen;
    EventKind kind;
};

class EventQueue {
public:
    void push(Time t, EventKind kind, int32_t a, uint32_t gen = 0) {
        heap_.push_back(Event{t, seq_++, a, gen, kind});
        siftUp(heap_.size() - 1);
    }
    bool empty() const { return heap_.empty(); }
    size_t size() const { return heap_.size(); }
    const Event& top() const { return heap_.front(); }
    Event pop();

private:
    static bool less(const Event& x, const Event& y) {
        return x.time < y.time || (x.time == y.time && x.seq < y.seq);
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
