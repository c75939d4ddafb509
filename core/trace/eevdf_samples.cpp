// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace/eevdf_samples.h"

namespace sched {

namespace {

// A time, task (with two bits), CPU and three 64-bit values: at most 10 + 5 + 3 + 3 * 10 bytes.
constexpr size_t kMaxPacked = 48;

int64_t diff(int64_t a, int64_t b) {
    return int64_t(uint64_t(a) - uint64_t(b)); // modulo 2^64: no overflow, exact on the way back
}
int64_t sum(int64_t a, int64_t d) {
    return int64_t(uint64_t(a) + uint64_t(d));
}

uint8_t* putVarint(uint8_t* q, uint64_t v) {
    while (v >= 0x80) {
        *q++ = uint8_t(v) | 0x80;
        v >>= 7;
    }
    *q++ = uint8_t(v);
    return q;
}
uint64_t zigzag(int64_t d) { // small magnitudes of either sign stay short
    return (uint64_t(d) << 1) ^ uint64_t(d >> 63);
}
uint8_t* putSigned(uint8_t* q, int64_t d) {
    return putVarint(q, zigzag(d));
}

uint64_t getVarint(const uint8_t*& p) {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        const uint8_t b = *p++;
        v |= uint64_t(b & 0x7f) << shift;
        if (b < 0x80) return v;
    }
}
int64_t getSigned(const uint8_t*& p) {
    const uint64_t u = getVarint(p);
    return int64_t((u >> 1) ^ (~(u & 1) + 1));
}

} // namespace

void EevdfSamples::PackState::setV(uint16_t cpu, int64_t v) {
    if (cpu >= seenIn.size()) {
        seenIn.resize(size_t(cpu) + 1, 0);
        lastV.resize(size_t(cpu) + 1, 0);
    }
    seenIn[cpu] = block + 1;
    lastV[cpu] = v;
}

void EevdfSamples::PackState::setTask(uint32_t t, int64_t vruntime, int64_t deadline) {
    if (t >= kTaskRefs) return;
    if (t >= tasks.size()) tasks.resize(size_t(t) + 1);
    tasks[t] = {vruntime, deadline, block + 1};
}

void EevdfSamples::push(const EevdfSample& s) {
    if (n_ % kBlock == 0) {
        writer_.enterBlock(uint32_t(n_ / kBlock));
        blockStart_.push_back(bytes_.size());
    }
    uint8_t buf[kMaxPacked];
    uint8_t* q = putSigned(buf, diff(s.time, writer_.time));
    // vruntime from V (minus the lag) or from the task's last; the deadline from vruntime (about a
    // slice) or from the task's last: whichever difference is smaller (equal: the first).
    const uint32_t task = uint32_t(s.task);
    const TaskRef ref = writer_.task(task); // zeros for a task the block has not seen (or past kTaskRefs)
    const int64_t vrV = diff(s.vruntime, s.avgVruntime), vrTask = diff(s.vruntime, ref.vruntime);
    const int64_t dlVr = diff(s.deadline, s.vruntime), dlTask = diff(s.deadline, ref.deadline);
    const bool vrFromTask = zigzag(vrTask) < zigzag(vrV), dlFromTask = zigzag(dlTask) < zigzag(dlVr);
    q = putVarint(q, uint64_t(task) << 2 | (vrFromTask ? 2u : 0u) | (dlFromTask ? 1u : 0u));
    q = putVarint(q, uint64_t(s.cpu) << 1 | (s.onRq ? 1u : 0u));
    q = putSigned(q, diff(s.avgVruntime, writer_.v(s.cpu)));
    q = putSigned(q, vrFromTask ? vrTask : vrV);
    q = putSigned(q, dlFromTask ? dlTask : dlVr);
    writer_.time = s.time;
    writer_.setV(s.cpu, s.avgVruntime);
    writer_.setTask(task, s.vruntime, s.deadline);
    bytes_.reserve(bytes_.size() + size_t(q - buf));
    for (const uint8_t* b = buf; b < q; ++b)
        bytes_.push_back(*b);
    ++n_;
}

EevdfSamples::Reader::Reader(const EevdfSamples& s, size_t from) : base_(s.bytes_.data()) {
    const size_t b = std::min(from, s.n_) / kBlock;
    p_ = base_ + (b < s.blockStart_.size() ? s.blockStart_[b] : s.bytes_.size());
    i_ = b * kBlock;
    st_.enterBlock(uint32_t(b));
    EevdfSample skip;
    while (i_ < from && i_ < s.n_)
        next(skip);
}

void EevdfSamples::Reader::next(EevdfSample& o) {
    if (i_ % kBlock == 0) st_.enterBlock(uint32_t(i_ / kBlock));
    o.time = sum(st_.time, getSigned(p_));
    const uint64_t taskModes = getVarint(p_);
    const uint32_t task = uint32_t(taskModes >> 2);
    o.task = TaskId(task);
    const uint64_t cpuOnRq = getVarint(p_);
    o.cpu = uint16_t(cpuOnRq >> 1);
    o.onRq = (cpuOnRq & 1) != 0;
    o.avgVruntime = sum(st_.v(o.cpu), getSigned(p_));
    const TaskRef ref = st_.task(task);
    o.vruntime = sum(taskModes & 2 ? ref.vruntime : o.avgVruntime, getSigned(p_));
    o.deadline = sum(taskModes & 1 ? ref.deadline : o.vruntime, getSigned(p_));
    st_.time = o.time;
    st_.setV(o.cpu, o.avgVruntime);
    st_.setTask(task, o.vruntime, o.deadline);
    ++i_;
}

EevdfSample EevdfSamples::at(size_t i) const {
    Reader r(*this, i);
    EevdfSample s;
    if (i < n_) r.next(s);
    return s;
}

void EevdfSamples::cut(size_t n) {
    if (n >= n_) return;
    const Reader r(*this, n); // where sample n starts, and the state it was packed against
    bytes_.resize(r.offset());
    blockStart_.resize((n + kBlock - 1) / kBlock);
    writer_ = r.state();
    n_ = n;
}

size_t EevdfSamples::memoryBytes() const {
    return bytes_.capacity() + blockStart_.capacity() * sizeof(uint64_t) +
           writer_.lastV.capacity() * sizeof(int64_t) + writer_.seenIn.capacity() * sizeof(uint32_t) +
           writer_.tasks.capacity() * sizeof(TaskRef);
}

} // namespace sched
