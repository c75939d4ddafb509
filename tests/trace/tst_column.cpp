// SPDX-License-Identifier: GPL-3.0-or-later
// The trace columns: buffers from columnStorage::kHugeFrom up are mappings of their own, aligned
// to 2 MiB and grown in place or by their page tables (mremap), smaller ones malloc()'s; a column
// behaves as a vector across both while it grows, is copied, moved, shrunk and cleared (the
// sanitizer build checks that every buffer goes back the way it came).
#include "trace/column.h"

#include <QtTest>

#include <cstdint>

using namespace sched;

namespace {
constexpr size_t kHuge = size_t(2) << 20;

template <class T> bool onHugePath(const TraceColumn<T>& v) {
    return v.capacity() * sizeof(T) >= columnStorage::kHugeFrom &&
           reinterpret_cast<uintptr_t>(v.data()) % kHuge == 0;
}

template <class T> T valueAt(size_t i) {
    return T(i * 2654435761u);
}
} // namespace

class TestTraceColumn : public QObject {
    Q_OBJECT
  private slots:
    void growsAcrossTheHugePageThresholdKeepingEveryValue() {
        TraceColumn<int64_t> times;
        TraceColumn<uint8_t> bytes;
        const size_t n = 3 * kHuge / sizeof(int64_t) + 17; // ends past 4 MiB of int64_t
        bool sawSmall = false;
        for (size_t i = 0; i < n; ++i) {
            times.push_back(valueAt<int64_t>(i));
            bytes.push_back(valueAt<uint8_t>(i));
            if (times.capacity() * sizeof(int64_t) < columnStorage::kHugeFrom) sawSmall = true;
        }
        QVERIFY(sawSmall);
        QVERIFY(onHugePath(times));
        QVERIFY(onHugePath(bytes));
        for (size_t i = 0; i < n; ++i) {
            if (times[i] != valueAt<int64_t>(i) || bytes[i] != valueAt<uint8_t>(i))
                QFAIL(qPrintable(QStringLiteral("value %1 lost while growing").arg(i)));
        }
    }
    void copiesMovesAndShrinksLikeAVector() {
        TraceColumn<uint32_t> a;
        const size_t n = 2 * kHuge / sizeof(uint32_t) + 1000;
        for (size_t i = 0; i < n; ++i)
            a.push_back(valueAt<uint32_t>(i));
        const TraceColumn<uint32_t> copy = a;
        QVERIFY(copy == a);
        QVERIFY(copy.data() != a.data());
        TraceColumn<uint32_t> moved = std::move(a);
        QVERIFY(moved == copy);
        moved.resize(100); // down below the threshold: the huge buffer goes back on shrink
        moved.shrink_to_fit();
        QCOMPARE(moved.size(), size_t(100));
        QCOMPARE(moved[99], valueAt<uint32_t>(99));
        QVERIFY(moved.capacity() * sizeof(uint32_t) < columnStorage::kHugeFrom);
        moved.clear();
        moved.shrink_to_fit();
        QCOMPARE(moved.capacity(), size_t(0));
    }
    void aHugeColumnStaysAlignedThroughEveryGrowth() {
        // Growing past a mapping's end moves it (mremap) to another 2 MiB boundary when the
        // address space after it is taken: an unaligned mapping would split its huge pages. A
        // second column growing alongside takes the space after the first.
        TraceColumn<int64_t> a, b;
        size_t growths = 0;
        for (size_t i = 0; i < 12 * kHuge / sizeof(int64_t); ++i) {
            const size_t cap = a.capacity();
            a.push_back(valueAt<int64_t>(i));
            b.push_back(valueAt<int64_t>(i + 1));
            if (a.capacity() != cap && onHugePath(a)) ++growths;
            if (a.capacity() * sizeof(int64_t) >= columnStorage::kHugeFrom && !onHugePath(a))
                QFAIL(qPrintable(QStringLiteral("unaligned after growing to %1 values").arg(a.size())));
        }
        QVERIFY(growths >= 3);
        for (size_t i = 0; i < a.size(); ++i)
            if (a[i] != valueAt<int64_t>(i) || b[i] != valueAt<int64_t>(i + 1))
                QFAIL(qPrintable(QStringLiteral("value %1 lost").arg(i)));
    }
    void pushingItsOwnValueWhileGrowingCopiesItFirst() {
        TraceColumn<int64_t> v;
        v.push_back(42);
        while (v.size() < v.capacity())
            v.push_back(1);
        for (int k = 0; k < 18;
             ++k) { // full each time: push_back grows the buffer that holds v[0] (to 32 MiB)
            v.push_back(v[0]);
            QCOMPARE(v.back(), int64_t(42));
            while (v.size() < v.capacity())
                v.push_back(1);
        }
    }
    void resizeFillsOnlyTheNewValues() {
        TraceColumn<uint16_t> v;
        for (uint16_t i = 0; i < 10; ++i)
            v.push_back(i);
        v.resize(4);
        v.resize(8, 0xbeef);
        QCOMPARE(v.size(), size_t(8));
        QCOMPARE(v[3], uint16_t(3));
        QCOMPARE(v[4], uint16_t(0xbeef));
        QCOMPARE(v[7], uint16_t(0xbeef));
    }
    void hugeReservationIsAlignedToTwoMiB() {
        TraceColumn<uint16_t> v;
        v.reserve(5 * kHuge / sizeof(uint16_t));
        QVERIFY(onHugePath(v));
        v.push_back(7);
        QCOMPARE(v.front(), uint16_t(7));
    }
};

QTEST_APPLESS_MAIN(TestTraceColumn)
#include "tst_column.moc"
