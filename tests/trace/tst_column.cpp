// SPDX-License-Identifier: GPL-3.0-or-later
// The trace columns: buffers from columnStorage::kHugeFrom up are mappings of their own, aligned
// to 2 MiB and grown in place or by their page tables (mremap), smaller ones malloc()'s; a column
// behaves as a vector across both while it grows, is copied, moved, shrunk and cleared (the
// sanitizer build checks that every buffer goes back the way it came). A time column (4 bytes a
// value, a side table for those whose difference does not fit) reads back every value as a vector of
// them does, through appends, changes, cuts and copies.
#include "trace/column.h"
#include "trace/time_column.h"

#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

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

    // Against a plain vector: times a trace has (steps of nanoseconds to milliseconds), jumps of
    // an hour and back, the extremes, values changed after they were appended (the importer's
    // ends), cuts at and inside blocks followed by more appends (a rewind), copies.
    void aTimeColumnReadsBackWhatAVectorHolds() {
        constexpr Time kMin = std::numeric_limits<Time>::min(), kMax = std::numeric_limits<Time>::max();
        std::mt19937_64 rng(11);
        std::vector<Time> want;
        TimeColumn c;
        Time t = 5'000'000'000;
        const auto next = [&]() -> Time {
            switch (rng() % 4096) { // now and then: most blocks stay narrow
            case 0:
                return kMax;
            case 1:
                return kMin;
            case 2:
                return t += 3'600'000'000'000; // an idle hour
            case 3:
                return t - 3'000'000'000; // before the block's first value, out of int32's reach
            default:
                return t += Time(rng() % 2'000'000);
            }
        };
        const auto same = [&](const char* when) {
            QCOMPARE(c.size(), want.size());
            for (size_t i = 0; i < want.size(); ++i)
                if (c[i] != want[i])
                    QFAIL(qPrintable(
                        QString("%1: value %2 is %3, want %4").arg(when).arg(i).arg(c[i]).arg(want[i])));
            QVERIFY(std::equal(c.begin(), c.end(), want.begin(), want.end()));
        };
        size_t mostEscaped = 0;
        for (int round = 0; round < 6; ++round) {
            for (int i = 0; i < 1500; ++i) {
                const Time v = next();
                c.push_back(v);
                want.push_back(v);
            }
            for (int k = 0; k < 200; ++k) { // changed after they were appended
                const size_t i = size_t(rng() % want.size());
                const Time v =
                    rng() % 100 == 0 ? next() : Time(uint64_t(want[i]) + rng() % 1000); // wraps at the top
                c.set(i, v);
                want[i] = v;
            }
            same("appended and changed");
            mostEscaped = std::max(mostEscaped, c.escapedValues());
            const size_t cut = round % 2 ? want.size() / 2 / TimeColumn::kBlock * TimeColumn::kBlock
                                         : want.size() - 1 - size_t(rng() % 700);
            c.resize(cut);
            want.resize(cut);
            same("cut");
        }
        qInfo("at most %zu values escaped at once", mostEscaped);
        QVERIFY(mostEscaped > 0);                      // the jumps and extremes did not fit
        QVERIFY(mostEscaped < (6 * 1500 + 1200) / 50); // the rest did
        TimeColumn copy = c;
        QVERIFY(copy == c);
        copy.set(3, copy[3] + 1);
        QVERIFY(!(copy == c));
        c.resize(c.size() + 5, 42);
        want.resize(want.size() + 5, 42);
        same("grown with a value");
        c.clear();
        QVERIFY(c.empty());
        QCOMPARE(c.escapedValues(), size_t(0));
    }

    // Times too far apart for their blocks (one every 10 s: a block spans hours) would all be in
    // the side table; past one in 16 the column keeps plain times, and every value still reads back.
    void aSparseTimeColumnKeepsPlainTimes() {
        TimeColumn c;
        std::vector<Time> want;
        for (Time t = 0; t < 3 * 3'600'000'000'000; t += 1'000'000'000) {
            c.push_back(t);
            want.push_back(t);
            if (want.size() == 4000) QVERIFY(!c.plain()); // too few yet to judge: kept in the table
        }
        QVERIFY(c.plain());
        c.set(7, 5);
        want[7] = 5;
        c.resize(500);
        want.resize(500);
        QVERIFY(std::equal(c.begin(), c.end(), want.begin(), want.end()));
        c.resize(0); // a rewind to the start, or a folded stretch dropped
        c.push_back(1);
        QVERIFY(!c.plain()); // emptied: what comes next may fit
        QCOMPARE(c[0], Time(1));
    }

    // A moved-from column is empty and takes values again (an importer's trace is moved out).
    void aMovedFromTimeColumnIsEmpty() {
        TimeColumn a;
        for (Time t = 0; t < 1000; ++t)
            a.push_back(t * 7);
        TimeColumn b = std::move(a);
        QCOMPARE(b.size(), size_t(1000));
        QCOMPARE(b[999], Time(6993));
        QVERIFY(a.empty()); // NOLINT(bugprone-use-after-move): what is tested
        a.push_back(5);
        QCOMPARE(a[0], Time(5));
        TimeColumn c;
        c.push_back(1);
        c = std::move(b);
        QCOMPARE(c.size(), size_t(1000));
        QVERIFY(b.empty()); // NOLINT(bugprone-use-after-move)
    }

    // A trace's times take 4 bytes each: a steady run of them escapes none.
    void aTimeColumnOfATracesTimesHoldsFourBytesAValue() {
        TimeColumn c;
        for (Time t = 0; t < 2'000'000'000; t += 37'000) // 2 s in steps of 37 us
            c.push_back(t);
        QCOMPARE(c.escapedValues(), size_t(0));
        QVERIFY2(double(c.bytes()) / double(c.size()) < 4.05, // and a base per 256
                 qPrintable(QString::number(double(c.bytes()) / double(c.size()))));
        const auto it = std::lower_bound(c.begin(), c.end(), Time(1'000'000'000));
        QCOMPARE(*it, Time(1'000'000'000 + (37'000 - 1'000'000'000 % 37'000) % 37'000));
    }
};

QTEST_APPLESS_MAIN(TestTraceColumn)
#include "tst_column.moc"
