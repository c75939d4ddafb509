// SPDX-License-Identifier: GPL-3.0-or-later
// The EEVDF samples of a run (vruntime, deadline and V of a task at each decision that changed
// them), packed: the GUI records two for every slice, and as seven plain columns they were 39
// bytes each, the largest part of what a long run holds (issue 31: at most 40 bytes a slice for
// everything). Here a sample is a handful of LEB128 varints, each a difference from a value the
// reader already has — the time from the previous sample's, V from the last V of the same CPU,
// vruntime from V (minus the lag), the deadline from vruntime (about a slice) — or, where the
// task's own last vruntime or deadline is nearer (a task picked again: neither moved while it
// waited; a deadline while its slice lasts), from that, two bits with the task saying which: 10.5
// bytes a sample on the timeline benchmark (11.75 without the task's; performance-log.md).
// Samples are packed in blocks of kBlock that start from nothing, so a read starts at the beginning of a
// block; the charts read a task's samples front to back, and rewind cuts the tail. Differences are taken
// modulo 2^64: any values round-trip.
//
// libstreamvbyte (Debian) was looked at and left: it packs 32-bit integers, and four of these six
// fields are 64-bit signed differences.
#pragma once

#include "base/types.h"
#include "trace/column.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sched {

struct EevdfSample {
    Time time = 0;
    TaskId task = kNoTask;
    uint16_t cpu = 0;
    int64_t vruntime = 0, deadline = 0, avgVruntime = 0; // avgVruntime: V of the task's own cfs_rq
    bool onRq = false; // false: the entity just left the runqueue; its values are stale until the next sample

    friend bool operator==(const EevdfSample&, const EevdfSample&) = default;
};

class EevdfSamples {
  public:
    static constexpr size_t kBlock = 4096;

    size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    void push(const EevdfSample& s);
    // The i-th sample (decodes its block up to it: for spot reads, not for walks).
    EevdfSample at(size_t i) const;
    // Samples [from, to) in order: f(index, sample).
    template <class F> void forEach(size_t from, size_t to, F&& f) const {
        Reader r(*this, from);
        EevdfSample s;
        for (size_t i = from; i < to && i < n_; ++i) {
            r.next(s);
            f(i, s);
        }
    }
    // Keeps the first n samples (memory stays reserved), as a rewind needs.
    void cut(size_t n);
    void clear() { cut(0); }
    size_t memoryBytes() const; // reserved
    size_t packedBytes() const { return bytes_.size(); }
    const uint8_t* packedData() const { return bytes_.data(); } // for byte comparisons in tests

    // Same samples in the same order: the packing is a function of the sequence, so the bytes are.
    friend bool operator==(const EevdfSamples& a, const EevdfSamples& b) {
        return a.n_ == b.n_ && a.bytes_ == b.bytes_;
    }

  private:
    // What a sample is packed against: the previous sample's time, the last V of each CPU and the
    // last vruntime and deadline of each task (tasks below kTaskRefs), all from the start of the
    // sample's block. The writer keeps one, each walk its own.
    static constexpr uint32_t kTaskRefs = 1u << 20;
    struct TaskRef {
        int64_t vruntime = 0, deadline = 0;
        uint32_t seenIn = 0; // block + 1 where they were set in it
    };
    struct PackState {
        Time time = 0;
        uint32_t block = 0;
        std::vector<int64_t> lastV;
        std::vector<uint32_t> seenIn; // block + 1 where lastV[cpu] was set in it
        std::vector<TaskRef> tasks;
        void enterBlock(uint32_t b) { block = b, time = 0; }
        int64_t v(uint16_t cpu) const {
            return cpu < seenIn.size() && seenIn[cpu] == block + 1 ? lastV[cpu] : 0;
        }
        void setV(uint16_t cpu, int64_t v);
        TaskRef task(uint32_t t) const { // zeros where the block has not seen it
            return t < tasks.size() && tasks[t].seenIn == block + 1 ? tasks[t] : TaskRef{};
        }
        void setTask(uint32_t t, int64_t vruntime, int64_t deadline);
    };
    class Reader {
      public:
        Reader(const EevdfSamples& s, size_t from);
        void next(EevdfSample& out);
        size_t offset() const { return size_t(p_ - base_); }
        const PackState& state() const { return st_; }

      private:
        const uint8_t *base_, *p_;
        size_t i_;
        PackState st_;
    };

    TraceColumn<uint8_t> bytes_;
    TraceColumn<uint64_t> blockStart_; // byte offset of each block's first sample
    size_t n_ = 0;
    PackState writer_; // the state the next sample is packed against
};

} // namespace sched
