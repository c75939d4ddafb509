// SPDX-License-Identifier: GPL-3.0-or-later
// The storage of a trace column: a std::vector whose large buffers sit on transparent huge pages.
//
// A long run's trace grows to hundreds of MB one push_back at a time. Each doubling of a column
// takes a fresh buffer that the kernel maps in 4 KiB page faults: 65,000 of them in the seed-size
// messaging run, a tenth of its wall time. Buffers of 4 MiB and more are therefore aligned to
// 2 MiB and marked MADV_HUGEPAGE, which the kernel honours when transparent_hugepage is
// "madvise" (Debian's default) or "always": one fault per 2 MiB (that run: 18,000 faults left, all
// in smaller buffers, and 9 % less wall time). Elsewhere the hint is ignored and the column is an
// ordinary vector. Nothing else differs from std::allocator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace sched {

template <class T> struct ColumnAllocator {
    using value_type = T;
    static constexpr size_t kHugePage = size_t(2) << 20;
    static constexpr size_t kHugeFrom = 2 * kHugePage; // below: measured no faster, and up to twice the memory

    ColumnAllocator() noexcept = default;
    template <class U> ColumnAllocator(const ColumnAllocator<U>&) noexcept {}

    T* allocate(size_t n) {
        if (n > (size_t(PTRDIFF_MAX) - kHugePage) / sizeof(T)) throw std::bad_array_new_length(); // rounding up stays an object size
        const size_t bytes = n * sizeof(T);
        if (!huge(n)) return static_cast<T*>(::operator new(bytes));
        const size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage; // aligned_alloc wants a multiple
        void* p = std::aligned_alloc(kHugePage, rounded);
        if (!p) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        ::madvise(p, rounded, MADV_HUGEPAGE); // a hint: failure leaves ordinary pages
#endif
        return static_cast<T*>(p);
    }
    void deallocate(T* p, size_t n) noexcept {
        if (!huge(n)) ::operator delete(p);
        else std::free(p);
    }
    // Which way a buffer of n elements comes and goes (the same n both times: the allocator contract).
    static bool huge(size_t n) { return n * sizeof(T) >= kHugeFrom; }
    template <class U> bool operator==(const ColumnAllocator<U>&) const noexcept { return true; }
};

template <class T> using TraceColumn = std::vector<T, ColumnAllocator<T>>;

} // namespace sched
