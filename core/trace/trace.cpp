// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace/trace.h"

namespace sched {

namespace {
template <class V> size_t cap(const V& v) {
    return v.capacity() * sizeof(typename V::value_type);
}
size_t cap(const TimeColumn& v) {
    return v.memoryBytes();
}
} // namespace

size_t Trace::memoryBytes() const {
    size_t n = cap(slices.start) + cap(slices.end) + cap(slices.task) + cap(slices.cpu) +
               cap(slices.endPoint) + cap(slices.endReason);
    n += cap(flags.set) + cap(flags.clear) + cap(flags.task) + cap(flags.cpu) + cap(flags.bit) +
         cap(flags.reason) + cap(flags.clearedBy);
    n += cap(wakeups.time) + cap(wakeups.waker) + cap(wakeups.wakee) + cap(wakeups.wakerCpu) +
         cap(wakeups.targetCpu) + cap(wakeups.isNew);
    n += cap(migrations.time) + cap(migrations.task) + cap(migrations.from) + cap(migrations.to) +
         cap(migrations.on) + cap(migrations.path);
    n += samples.memoryBytes();
    n += cap(sliceExts.granted) + cap(sliceExts.end) + cap(sliceExts.task) + cap(sliceExts.cpu) +
         cap(sliceExts.how);
    return n;
}

} // namespace sched
