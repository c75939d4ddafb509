// SPDX-License-Identifier: GPL-3.0-or-later
// A column of times (ns) in 4 bytes a value instead of 8 (issue 31: at most 40 bytes a slice for
// everything a run holds). Values are kept as 32-bit signed differences from the first value of
// their block of kBlock: a block of a trace spans a few milliseconds, far inside the ±2.1 s that
// fit. A value that does not fit (after an idle hour, a sentinel, an imported trace's end patched
// long after its start) is escaped: its difference slot holds kEscaped and the value itself is in
// a short side table, sorted by index. Reads stay O(1) and branch-predictable — the difference, the
// block's first value (an array 1/64 the size of the differences) — so binary searches over a
// column cost about what they did, and twice as many values share a cache line. Tried and left:
// widening a whole block to plain times instead (a per-block flag tested on every read; no faster
// measurably, docs/performance-log.md); the value before the block as its
// base, so that an outlier first in its block (a slice of seconds, whose start is pushed when it
// ends) escapes alone — worse where the times jump (after an idle hour every value of the next
// block escaped); such a block's other values escape, which costs reads, not correctness.
//
// The interface is the part of TraceColumn's that the trace's time columns use, with set() where a
// value changes after it was appended (the importer closes a slice or a need-resched interval that
// way), and an iterator that yields values (for std::lower_bound and friends).
//
// Blocks of 256 (1,024 were measured too: no faster, and sparse traces escape sooner). The cost:
// the timeline's exact path, which probes slices 64 apart in the trace, draws 16 slices a pixel
// column 25 - 40 % slower than with plain times (docs/performance-log.md); the other zooms alike.
#pragma once

#include "base/types.h"
#include "trace/column.h"

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

namespace sched {

class TimeColumn {
  public:
    static constexpr size_t kShift = 8;
    static constexpr size_t kBlock = size_t(1) << kShift;
    static constexpr int32_t kEscaped = INT32_MIN; // the value is in the side table
    using value_type = Time;

    TimeColumn() = default;
    TimeColumn(const TimeColumn&) = default;
    TimeColumn& operator=(const TimeColumn&) = default;
    TimeColumn(TimeColumn&& o) noexcept
        : off_(std::move(o.off_)), base_(std::move(o.base_)), escaped_(std::move(o.escaped_)),
          plain_(std::exchange(o.plain_, false)), plainValues_(std::move(o.plainValues_)),
          n_(std::exchange(o.n_, 0)) {
        o.escaped_.clear();
    }
    TimeColumn& operator=(TimeColumn&& o) noexcept {
        off_ = std::move(o.off_), base_ = std::move(o.base_), escaped_ = std::move(o.escaped_);
        o.escaped_.clear();
        plain_ = std::exchange(o.plain_, false), plainValues_ = std::move(o.plainValues_);
        n_ = std::exchange(o.n_, 0);
        return *this;
    }

    size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    Time operator[](size_t i) const {
        if (plain_) return plainValues_[i];
        const int32_t d = off_[i];
        return d != kEscaped ? base_[i >> kShift] + d : escapedValue(i);
    }
    Time front() const { return (*this)[0]; }
    Time back() const { return (*this)[n_ - 1]; }

    void push_back(Time v) {
        if (plain_) {
            plainValues_.push_back(v);
            ++n_;
            return;
        }
        if ((n_ & (kBlock - 1)) == 0) base_.push_back(v);
        off_.push_back(0);
        ++n_;
        set(n_ - 1, v);
    }
    void set(size_t i, Time v) {
        if (plain_) {
            plainValues_[i] = v;
            return;
        }
        Time d;
        const bool fits =
            !__builtin_sub_overflow(v, base_[i >> kShift], &d) && d > INT32_MIN && d <= INT32_MAX;
        if (fits && off_[i] != kEscaped) {
            off_[i] = int32_t(d);
            return;
        }
        setSlow(i, v, fits ? int32_t(d) : kEscaped);
    }
    // Shorter: the tail goes (its memory stays, as a rewind wants); longer: filled with v.
    void resize(size_t n, Time v = 0);
    void reserve(size_t n);
    void clear();
    size_t capacity() const { return plain_ ? plainValues_.capacity() : off_.capacity(); }
    size_t memoryBytes() const; // reserved
    size_t bytes() const;       // used by the values, their blocks' first values and the side table
    size_t escapedValues() const { return escaped_.size(); }
    bool plain() const { return plain_; } // kept as plain times: too many did not fit

    class const_iterator {
      public:
        using iterator_category = std::random_access_iterator_tag;
        using iterator_concept = std::random_access_iterator_tag;
        using value_type = Time;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = Time;

        const_iterator() = default;
        const_iterator(const TimeColumn* c, size_t i) : c_(c), i_(i) {}
        Time operator*() const { return (*c_)[i_]; }
        Time operator[](difference_type k) const { return (*c_)[size_t(difference_type(i_) + k)]; }
        const_iterator& operator++() { return ++i_, *this; }
        const_iterator operator++(int) { return {c_, i_++}; }
        const_iterator& operator--() { return --i_, *this; }
        const_iterator operator--(int) { return {c_, i_--}; }
        const_iterator& operator+=(difference_type k) { return i_ = size_t(difference_type(i_) + k), *this; }
        const_iterator& operator-=(difference_type k) { return i_ = size_t(difference_type(i_) - k), *this; }
        friend const_iterator operator+(const_iterator a, difference_type k) { return a += k; }
        friend const_iterator operator+(difference_type k, const_iterator a) { return a += k; }
        friend const_iterator operator-(const_iterator a, difference_type k) { return a -= k; }
        friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
            return difference_type(a.i_) - difference_type(b.i_);
        }
        friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.i_ == b.i_; }
        friend auto operator<=>(const const_iterator& a, const const_iterator& b) { return a.i_ <=> b.i_; }

      private:
        const TimeColumn* c_ = nullptr;
        size_t i_ = 0;
    };
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, n_}; }

    friend bool operator==(const TimeColumn& a, const TimeColumn& b); // the same values

  private:
    Time escapedValue(size_t i) const;
    void setSlow(size_t i, Time v, int32_t d); // d: the difference, or kEscaped if v does not fit
    void makePlain();
    struct Escaped {
        uint64_t index;
        Time value;
    };
    TraceColumn<int32_t> off_;     // per value: the difference from its block's first value
    TraceColumn<Time> base_;       // per block: its first value
    std::vector<Escaped> escaped_; // by index
    // A column whose values are too far apart for their blocks (more than one in kPlainFrom
    // escaped once it holds kPlainAfter: a sparse trace of hours, whose 256 records span more than
    // 2.1 s) keeps them plain, as TraceColumn<Time> would: the side table's searches would cost
    // more than they save. Until it is emptied (a cut to 0, clear()).
    static constexpr size_t kPlainFrom = 16, kPlainAfter = 16 * kBlock;
    bool plain_ = false;
    TraceColumn<Time> plainValues_;
    size_t n_ = 0;
};

} // namespace sched
