// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace/column.h"

#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace sched::columnStorage {

namespace {

#if defined(__linux__)
size_t mappedLength(size_t bytes) {
    return (bytes + kHugePage - 1) / kHugePage * kHugePage;
}

char* alignUp(char* p) {
    return reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(p) + kHugePage - 1) &
                                   ~uintptr_t(kHugePage - 1));
}

// A 2 MiB-aligned stretch of `len` bytes of address space: a mapping one huge page longer,
// trimmed. PROT_NONE reserves it only (nothing is committed or counted); the caller maps into it.
char* reserveAligned(size_t len, int prot) {
    void* r = ::mmap(nullptr, len + kHugePage, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (r == MAP_FAILED) return nullptr;
    char* const base = static_cast<char*>(r);
    char* const a = alignUp(base);
    if (a > base) ::munmap(base, size_t(a - base));
    if (char* const tail = a + len; tail < base + len + kHugePage)
        ::munmap(tail, size_t(base + len + kHugePage - tail));
    return a;
}

void* mapHuge(size_t bytes) {
    const size_t len = mappedLength(bytes);
    char* const a = reserveAligned(len, PROT_READ | PROT_WRITE);
    if (!a) throw std::bad_alloc();
    ::madvise(a, len, MADV_HUGEPAGE); // a hint: failure leaves ordinary pages
    return a;
}

// The mapping at p grown (or shrunk) to newBytes with its pages, touched or not, where they are:
// in place if the address space after it is free, else moved by its page tables to a 2 MiB
// boundary (where its huge pages stay huge). nullptr if the kernel refuses.
void* remapHuge(void* p, size_t oldBytes, size_t newBytes) {
    const size_t oldLen = mappedLength(oldBytes), newLen = mappedLength(newBytes);
    if (newLen == oldLen) return p;
    if (void* q = ::mremap(p, oldLen, newLen, 0); q != MAP_FAILED) return q;
    char* const target = reserveAligned(newLen, PROT_NONE);
    if (!target) return nullptr;
    void* q = ::mremap(p, oldLen, newLen, MREMAP_MAYMOVE | MREMAP_FIXED, target); // replaces the reservation
    if (q == MAP_FAILED) {
        ::munmap(target, newLen);
        return nullptr;
    }
    ::madvise(q, newLen, MADV_HUGEPAGE);
    return q;
}
#endif

} // namespace

void* reallocate(void* p, size_t oldBytes, size_t used, size_t newBytes) {
#if defined(__linux__)
    if (huge(oldBytes) && huge(newBytes))
        if (void* q = remapHuge(p, oldBytes, newBytes)) return q;
    if (huge(oldBytes) || huge(newBytes)) { // across the threshold (or mremap refused): a copy
        void* q = newBytes == 0 ? nullptr : huge(newBytes) ? mapHuge(newBytes) : std::malloc(newBytes);
        if (newBytes > 0 && !q) throw std::bad_alloc();
        if (p && q && used > 0) std::memcpy(q, p, std::min(used, newBytes));
        release(p, oldBytes);
        return q;
    }
#endif
    if (newBytes == 0) {
        std::free(p);
        return nullptr;
    }
    void* q = std::realloc(p, newBytes);
    if (!q) throw std::bad_alloc(); // p is still valid and still the column's
    return q;
}

void release(void* p, size_t bytes) noexcept {
    if (!p) return;
#if defined(__linux__)
    if (huge(bytes)) {
        ::munmap(p, mappedLength(bytes));
        return;
    }
#endif
    std::free(p);
}

} // namespace sched::columnStorage
