// SPDX-License-Identifier: GPL-3.0-or-later
// A task's loop counters (one per counted Loop op of its program, Program::loopSlots), the first
// in place and any more on the heap. Nearly every program has one loop, and the batch planner
// copies the counters at every plan and back when a batch has run (batch.cpp): in place
// they sit in the task's and the batch record's hot cache lines (task.h, batch_plan.h), where a
// std::vector's buffer was a line of its own to miss on each side.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace sched {

class LoopCounters {
  public:
    using value_type = int64_t;

    LoopCounters() = default;
    LoopCounters(const LoopCounters& o) { *this = o; }
    LoopCounters(LoopCounters&& o) noexcept : first_(o.first_), more_(std::move(o.more_)), size_(o.size_) {
        o.size_ = 0;
    }
    LoopCounters& operator=(const LoopCounters& o) {
        if (this == &o) return *this;
        setSize(o.size_);
        std::copy_n(o.data(), size_, data());
        return *this;
    }
    LoopCounters& operator=(LoopCounters&& o) noexcept {
        first_ = o.first_, more_ = std::move(o.more_), size_ = o.size_;
        o.size_ = 0;
        return *this;
    }

    // n counters, each v.
    void assign(size_t n, int64_t v) {
        setSize(n);
        std::fill_n(data(), n, v);
    }
    // n counters; what they hold is unspecified (the caller writes them all).
    void setSize(size_t n) {
        if (n > 1 && n != size_) more_ = std::make_unique<int64_t[]>(n);
        if (n <= 1) more_.reset();
        size_ = uint32_t(n);
    }
    size_t size() const { return size_; }
    int64_t* data() { return size_ <= 1 ? &first_ : more_.get(); }
    const int64_t* data() const { return size_ <= 1 ? &first_ : more_.get(); }
    int64_t& operator[](size_t i) { return data()[i]; }

  private:
    int64_t first_ = 0;               // the counter when there is one
    std::unique_ptr<int64_t[]> more_; // all of them when there are more
    uint32_t size_ = 0;
};
static_assert(sizeof(LoopCounters) == 24, "where a std::vector stood: the task's second cache line (task.h)");

} // namespace sched
