// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace/time_column.h"

#include <algorithm>

namespace sched {

namespace {
struct ByIndex {
    template <class E> bool operator()(const E& e, uint64_t i) const { return e.index < i; }
};
} // namespace

Time TimeColumn::escapedValue(size_t i) const {
    return std::lower_bound(escaped_.begin(), escaped_.end(), uint64_t(i), ByIndex())->value;
}

void TimeColumn::setSlow(size_t i, Time v, int32_t d) {
    const auto at = std::lower_bound(escaped_.begin(), escaped_.end(), uint64_t(i), ByIndex());
    const bool was = off_[i] == kEscaped;
    off_[i] = d;
    if (d != kEscaped) { // fits again
        if (was) escaped_.erase(at);
    } else if (was) {
        at->value = v;
    } else {
        escaped_.insert(at, Escaped{uint64_t(i), v});
        if (n_ >= kPlainAfter && escaped_.size() * kPlainFrom > n_) makePlain();
    }
}

void TimeColumn::makePlain() {
    TraceColumn<Time> values;
    values.reserve(n_);
    for (size_t i = 0; i < n_; ++i)
        values.push_back((*this)[i]);
    off_ = {}, base_ = {}, escaped_ = {};
    plainValues_ = std::move(values);
    plain_ = true;
}

void TimeColumn::resize(size_t n, Time v) {
    if (n >= n_) {
        reserve(n);
        while (n_ < n)
            push_back(v);
        return;
    }
    if (n == 0) return clear(); // emptied: what comes next may fit
    if (plain_) {
        plainValues_.resize(n);
        n_ = n;
        return;
    }
    escaped_.erase(std::lower_bound(escaped_.begin(), escaped_.end(), uint64_t(n), ByIndex()),
                   escaped_.end());
    base_.resize((n + kBlock - 1) >> kShift);
    off_.resize(n);
    n_ = n;
}

void TimeColumn::reserve(size_t n) {
    if (plain_) return plainValues_.reserve(n);
    off_.reserve(n);
    base_.reserve((n + kBlock - 1) >> kShift);
}

void TimeColumn::clear() { // what comes next may fit again
    off_.clear();
    base_.clear();
    escaped_.clear();
    if (plain_) plainValues_ = {};
    plain_ = false;
    n_ = 0;
}

size_t TimeColumn::memoryBytes() const {
    return off_.capacity() * sizeof(int32_t) + base_.capacity() * sizeof(Time) +
           escaped_.capacity() * sizeof(Escaped) + plainValues_.capacity() * sizeof(Time);
}

size_t TimeColumn::bytes() const {
    return off_.size() * sizeof(int32_t) + base_.size() * sizeof(Time) + escaped_.size() * sizeof(Escaped) +
           plainValues_.size() * sizeof(Time);
}

bool operator==(const TimeColumn& a, const TimeColumn& b) {
    if (a.n_ != b.n_) return false;
    for (size_t i = 0; i < a.n_; ++i)
        if (a[i] != b[i]) return false;
    return true;
}

} // namespace sched
