// SPDX-License-Identifier: GPL-3.0-or-later
// A trace column: a growable array of a trivially copyable type whose large buffers grow in place.
//
// A long run's trace grows to hundreds of MB one push_back at a time. A std::vector doubles into
// a fresh buffer each time: the old values are copied over and the kernel zeroes every page of the
// new buffer on first touch, most of it twice over a column's life. Buffers from 1 MiB up are
// therefore mappings of their own (columnStorage below): aligned to 2 MiB and marked
// MADV_HUGEPAGE, which the kernel honours when transparent_hugepage is "madvise" (Debian's
// default) or "always", so that one fault maps 2 MiB; and grown with mremap(), which moves the
// page tables instead of the bytes and leaves the pages already touched as they are. Measured on
// the seed-size messaging run (docs/performance-log.md, with the latency report's change): 18,700
// page faults and 108 huge ones with the vector (which had the same huge-page path from 4 MiB up)
// against 3,900 and 88. Smaller buffers, and every buffer off Linux, are malloc()'s, grown with
// realloc(). A huge column's last page is touched whole: each of a trace's 30 columns holds at
// most one huge page (2 MiB) more than its values.
//
// The interface is std::vector's, the part the trace uses: indices, pointers as iterators,
// push_back, resize, reserve, clear, shrink_to_fit, copies and comparison.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace sched {

namespace columnStorage {
constexpr size_t kHugePage = size_t(2) << 20;
// Measured: from 256 KiB up, the seed-size run had 1,700 faults fewer, but its tenth (msg -l 500)
// took 64 MiB of memory instead of 49 (43 with the vector).
constexpr size_t kHugeFrom = kHugePage / 2;
inline bool huge(size_t bytes) {
    return bytes >= kHugeFrom;
}
// p's buffer of oldBytes (nullptr, 0: none) as one of newBytes (0: none), its first `used` bytes
// carried over. Throws std::bad_alloc (p then stays valid).
void* reallocate(void* p, size_t oldBytes, size_t used, size_t newBytes);
void release(void* p, size_t bytes) noexcept;
} // namespace columnStorage

template <class T> class TraceColumn {
    static_assert(std::is_trivially_copyable_v<T>, "a column's values are moved as bytes");

  public:
    using value_type = T;
    using size_type = size_t;
    using reference = T&;
    using const_reference = const T&;
    using iterator = T*;
    using const_iterator = const T*;

    TraceColumn() = default;
    TraceColumn(const TraceColumn& o) { assign(o.p_, o.n_); }
    TraceColumn(TraceColumn&& o) noexcept
        : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)), cap_(std::exchange(o.cap_, 0)) {}
    TraceColumn& operator=(const TraceColumn& o) {
        if (this != &o) {
            clear();
            assign(o.p_, o.n_);
        }
        return *this;
    }
    TraceColumn& operator=(TraceColumn&& o) noexcept {
        if (this != &o) {
            columnStorage::release(p_, cap_ * sizeof(T));
            p_ = std::exchange(o.p_, nullptr), n_ = std::exchange(o.n_, 0), cap_ = std::exchange(o.cap_, 0);
        }
        return *this;
    }
    ~TraceColumn() { columnStorage::release(p_, cap_ * sizeof(T)); }

    size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    size_t capacity() const { return cap_; }
    T* data() { return p_; }
    const T* data() const { return p_; }
    T* begin() { return p_; }
    T* end() { return p_ + n_; }
    const T* begin() const { return p_; }
    const T* end() const { return p_ + n_; }
    T& operator[](size_t i) { return p_[i]; }
    const T& operator[](size_t i) const { return p_[i]; }
    T& front() { return p_[0]; }
    const T& front() const { return p_[0]; }
    T& back() { return p_[n_ - 1]; }
    const T& back() const { return p_[n_ - 1]; }

    void push_back(T v) { // by value: v may be one of this column's own values, which growing moves
        if (n_ == cap_) setCapacity(std::max<size_t>({16, 2 * cap_, n_ + 1}));
        p_[n_++] = v;
    }
    void reserve(size_t n) {
        if (n > cap_) setCapacity(n);
    }
    void resize(size_t n, T v = T()) {
        reserve(n);
        std::fill(p_ + std::min(n, n_), p_ + n, v);
        n_ = n;
    }
    void clear() { n_ = 0; }
    void shrink_to_fit() {
        if (cap_ > n_) setCapacity(n_);
    }

    friend bool operator==(const TraceColumn& a, const TraceColumn& b) {
        return a.n_ == b.n_ && (a.n_ == 0 || std::equal(a.p_, a.p_ + a.n_, b.p_));
    }

  private:
    void assign(const T* from, size_t n) {
        reserve(n);
        if (n > 0) std::memcpy(static_cast<void*>(p_), from, n * sizeof(T));
        n_ = n;
    }
    void setCapacity(size_t cap) {
        if (cap > (SIZE_MAX - columnStorage::kHugePage) / sizeof(T))
            throw std::bad_alloc(); // rounding up stays a size
        p_ =
            static_cast<T*>(columnStorage::reallocate(p_, cap_ * sizeof(T), n_ * sizeof(T), cap * sizeof(T)));
        cap_ = cap;
    }

    T* p_ = nullptr;
    size_t n_ = 0, cap_ = 0;
};

} // namespace sched
