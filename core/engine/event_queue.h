// SPDX-License-Identifier: GPL-3.0-or-later
// The discrete-event queue. Equal-time events pop in a fixed order, so a run is identical on
// every machine: the one pushed at the earlier simulated time first; among those pushed at the
// same time, every other kind before the Segment events, other kinds in the order they were
// pushed (a sequence number), Segments by CPU. That is the order of pushing except that a
// Segment's place never depends on what else was pushed at the same moment, which is what lets
// the engine run a task's operations ahead without pushing a Segment for each
// (batch.cpp) and still make the same decisions in the same order.
//
// A CPU has at most one pending Segment: pushing one replaces the CPU's previous one (the engine
// has cancelled it by then). Segments, most of the events, sit in one slot per CPU under a
// tournament tree (an update is one comparison per level, log2 of the CPU count); the other
// kinds are in a 4-ary min-heap of small POD events, where cancelled ones are skipped by
// generation numbers instead of being removed. No allocation per event once both have grown.
#pragma once

#include "base/types.h"

#include <algorithm>
#include <vector>

namespace sched {

enum class EventKind : uint8_t {
    Tick,      // a = cpu, gen = tick generation
    Segment,   // a = cpu: the running task reaches the end of its work or a preemption point
    Timer,     // a = task: hrtimer expiry (sleep or periodic timer)
    Ipi,       // a = cpu: resched IPI arrives
    IdleExit,  // a = cpu: the idle loop notices need_resched()
    HrTick,    // a = cpu: HRTICK slice timer
    TaskStart, // a = task: the scenario starts this task (wake_up_new_task)
    Change,    // a = index of a scheduled parameter change
    DlTimer,   // a = cpu, gen = its fair_server's timer generation (dl_server.cpp)
    RtPeriod,  // gen = the RT bandwidth period timer's generation (rt_bandwidth.cpp)
    SliceExt,  // a = task, gen = its RSEQ slice extension timer's generation (rseq_slice_ext.cpp)
    MutexSpin  // a = task: a mutex spinner checks its lock and owner again (mutex.cpp)
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
        if (kind == EventKind::Segment) {
            setSegment(a, t, pushedAt, gen);
            return;
        }
        heap_.push_back(Event{t, pushedAt, seq_++, a, gen, kind});
        siftUp(heap_.size() - 1);
    }
    bool empty() const { return heap_.empty() && segments_ == 0; }
    size_t size() const { return heap_.size() + size_t(segments_); }
    const Event& top() { return *head().event; }
    // The head and where it sits (valid until the next push or pop), so that pop(head) takes it
    // without finding it again; no event: nullptr.
    struct Head {
        const Event* event;
        bool segment;
    };
    Head head() {
        settle();
        if (segmentFirst()) return {&slots_[winner()], true};
        return {heap_.empty() ? nullptr : &heap_.front(), false};
    }
    // Copies the head into `into` from where it sits: an Event built field by field and then
    // copied whole is read back in wider pieces than it was stored, which stalls the CPU's
    // store-to-load forwarding (measured: half of the event loop's own time).
    void pop(Head h, Event& into);
    Event pop(Head h) {
        Event e;
        pop(h, e);
        return e;
    }
    Event pop() { return pop(head()); }

  private:
    static bool less(const Event& x, const Event& y) {
        if (x.time != y.time) return x.time < y.time;
        if (x.pushedAt != y.pushedAt) return x.pushedAt < y.pushedAt;
        return x.seq < y.seq;
    }
    // The tournament's nodes, in two arrays (node k >= 1 wins over nodes 2k and 2k + 1; the
    // leaves are at width + cpu): the winner's order, its time and then its key, pushedAt above
    // the CPU's number (both never negative, so the lower CPU wins at equal times and pushedAt,
    // and the winning slot is the key's low byte); an empty slot is the largest. Scalar arrays
    // rather than a struct, and no branch: a level reads what the one below has just written,
    // which a struct copy would read back wider than it was stored (a stalled store-to-load
    // forwarding), and which child wins is as good as a coin toss. The pair compares as one
    // 128-bit number, which GCC turns into a compare and two subtracts with borrow, the second
    // giving the blend's mask: 19 instructions a level, where three arrays (the slot apart, the
    // CPU's order a third test) took 38.
    static constexpr int kCpuBits = 8;
    static_assert(kMaxCpus <= 1 << kCpuBits, "a CPU's number must fit below the key's pushedAt");
    // pushedAt must fit above the CPU: 2^55 ns, 417 days of simulated time. Later ones compare
    // equal to each other, which only reorders Segments of equal time pushed after that.
    static constexpr uint64_t kMaxKeyedTime = (uint64_t(1) << (64 - kCpuBits)) - 1;
    void setLeaf(uint32_t cpu, uint64_t time, uint64_t pushedAt) {
        time_[width_ + cpu] = time, key_[width_ + cpu] = std::min(pushedAt, kMaxKeyedTime) << kCpuBits | cpu;
    }
    void setEmptyLeaf(uint32_t cpu) { time_[width_ + cpu] = ~uint64_t(0), key_[width_ + cpu] = ~uint64_t(0); }
    uint32_t winner() const { return uint32_t(key_[1] & ((1u << kCpuBits) - 1)); }
    bool segmentFirst() const {
        if (segments_ == 0) return false;
        if (heap_.empty()) return true;
        const Event& s = slots_[winner()];
        const Event& h = heap_.front();
        if (s.time != h.time) return s.time < h.time;
        return s.pushedAt < h.pushedAt; // pushed at the same moment: the other kinds first
    }
    // The fields, not an Event: one built by the caller and copied here whole would be read back
    // in wider pieces than it was just stored (a stalled store-to-load forwarding per push).
    void setSegment(int32_t cpu, Time time, Time pushedAt, uint32_t gen);
    void replay(uint32_t cpu); // the path from cpu's leaf to the root
    // A popped Segment's slot is emptied at once but its path is replayed only when needed: most
    // often the same CPU pushes its next Segment first, and one replay does for both.
    void settle() {
        if (popped_ < 0) return;
        replay(uint32_t(popped_));
        popped_ = -1;
    }
    void siftUp(size_t i);
    void siftDown(size_t i);
    std::vector<Event> heap_;
    uint64_t seq_ = 0;
    std::vector<Event> slots_; // the pending Segment of each CPU; seq: 1 holds one, 0 empty
    std::vector<uint64_t> time_, key_;
    uint32_t width_ = 0;   // leaves: a power of two
    int32_t segments_ = 0; // slots holding a Segment
    int32_t popped_ = -1;  // a CPU whose path waits for settle()
};

inline void EventQueue::replay(uint32_t cpu) {
    uint32_t j = width_ + cpu;
    uint64_t t = time_[j], k = key_[j];
    for (; j > 1; j /= 2) {
        const uint32_t o = j ^ 1;
        const uint64_t ot = time_[o], ok = key_[o];
        __extension__ typedef unsigned __int128
            U128; // (time, key) as one number: a compare and a subtract-with-borrow
        const uint64_t other = ((U128(ot) << 64) | ok) < ((U128(t) << 64) | k); // the other node is earlier
        const uint64_t m = 0 - other;
        t ^= (t ^ ot) & m;
        k ^= (k ^ ok) & m;
        time_[j / 2] = t, key_[j / 2] = k;
    }
}

inline void EventQueue::setSegment(int32_t cpu, Time time, Time pushedAt, uint32_t gen) {
    if (popped_ >= 0 && popped_ != cpu) settle();
    popped_ = -1;
    if (uint32_t(cpu) >= width_) { // grow: a power of two of leaves, every path replayed
        uint32_t w = 1;
        while (w <= uint32_t(cpu))
            w *= 2;
        slots_.resize(w, Event{0, 0, 0, 0, 0, EventKind::Segment});
        const uint32_t old = width_;
        std::vector<uint64_t> time(2 * size_t(w), ~uint64_t(0)), key(2 * size_t(w), ~uint64_t(0));
        for (uint32_t i = 0; i < old; ++i)
            time[w + i] = time_[old + i], key[w + i] = key_[old + i];
        time_ = std::move(time), key_ = std::move(key);
        width_ = w;
        for (uint32_t i = 0; i < w; ++i)
            replay(i);
    }
    Event& slot = slots_[size_t(cpu)];
    segments_ += 1 - int32_t(slot.seq);
    slot.time = time, slot.pushedAt = pushedAt, slot.seq = 1, slot.a = cpu, slot.gen = gen,
    slot.kind = EventKind::Segment;
    setLeaf(uint32_t(cpu), uint64_t(time), uint64_t(pushedAt));
    replay(uint32_t(cpu));
}

inline void EventQueue::pop(Head h, Event& into) {
    if (h.segment) {
        const uint32_t cpu = winner();
        Event& slot = slots_[cpu];
        into = slot;
        slot.seq = 0;
        segments_--;
        setEmptyLeaf(cpu);
        popped_ = int32_t(cpu);
        return;
    }
    into = heap_.front();
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) siftDown(0);
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
