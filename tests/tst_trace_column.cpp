// SPDX-License-Identifier: GPL-3.0-or-later
// The trace columns' allocator: buffers of 4 MiB and more come from the huge-page path (aligned
// to 2 MiB), smaller ones from operator new, and a column behaves as a vector across both while
// it grows, is copied, moved, shrunk and cleared (the sanitizer build checks that every buffer
// goes back the way it came).
#include "trace_column.h"

#include <QtTest>

#include <cstdint>

using namespace sched;

namespace {
constexpr size_t kHuge = size_t(2) << 20;

template <class T> bool onHugePath(const TraceColumn<T>& v) {
    return v.capacity() * sizeof(T) >= 2 * kHuge && reinterpret_cast<uintptr_t>(v.data()) % kHuge == 0;
}

template <class T> T valueAt(size_t i) { return T(i * 2654435761u); }
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
            if (times.capacity() * sizeof(int64_t) < 2 * kHuge) sawSmall = true;
        }
        QVERIFY(sawSmall);
        QVERIFY(onHugePath(times));
        QVERIFY(bytes.capacity() < 2 * kHuge); // 3 MiB of bytes: still operator new's
        for (size_t i = 0; i < n; ++i) {
            if (times[i] != valueAt<int64_t>(i) || bytes[i] != valueAt<uint8_t>(i))
                QFAIL(qPrintable(QStringLiteral("value %1 lost while growing").arg(i)));
        }
    }
    void copiesMovesAndShrinksLikeAVector() {
        TraceColumn<uint32_t> a;
        const size_t n = 2 * kHuge / sizeof(uint32_t) + 1000;
        for (size_t i = 0; i < n; ++i) a.push_back(valueAt<uint32_t>(i));
        const TraceColumn<uint32_t> copy = a;
        QVERIFY(copy == a);
        QVERIFY(copy.data() != a.data());
        TraceColumn<uint32_t> moved = std::move(a);
        QVERIFY(moved == copy);
        moved.resize(100); // down below the threshold: the huge buffer goes back on shrink
        moved.shrink_to_fit();
        QCOMPARE(moved.size(), size_t(100));
        QCOMPARE(moved[99], valueAt<uint32_t>(99));
        QVERIFY(moved.capacity() * sizeof(uint32_t) < 2 * kHuge);
        moved.clear();
        moved.shrink_to_fit();
        QCOMPARE(moved.capacity(), size_t(0));
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
#include "tst_trace_column.moc"
