// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/event_log_model.h"

#include "base/duration.h"

#include <algorithm>
#include <span>

namespace view {

using namespace sched;

namespace {
// prev_state as sched_switch prints it (include/trace/events/sched.h: __trace_sched_switch_state()):
// preemptions are R+, blocking S, exit X.
const char* prevStateOf(uint8_t endPoint) {
    if (endPoint == kStillRunning) return "R";
    const auto p = SwitchPoint(endPoint);
    if (isPreemptMode(p)) return "R+";
    if (p == SwitchPoint::Block) return "S";
    if (p == SwitchPoint::BlockUninterruptible) return "D";
    if (p == SwitchPoint::BlockIdle) return "I";
    if (p == SwitchPoint::Exit) return "X";
    return "R";
}
QString str(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}
} // namespace

EventLogModel::EventLogModel(QObject* parent) : QAbstractTableModel(parent) {}

void EventLogModel::clear() {
    beginResetModel();
    rows_.clear();
    d_ = TimelineData{};
    endResetModel();
}

bool EventLogModel::setWindow(const TimelineData& d, Time t0, Time t1, unsigned kinds,
                              const std::vector<TaskId>& only) {
    beginResetModel();
    rows_.clear();
    d_ = d;
    bool more = false;
    if (!d.trace || !d.lanes || t1 <= t0) {
        endResetModel();
        return false;
    }
    const Trace& trc = *d.trace;
    const auto wanted = [&](TaskId a, TaskId b = kNoTask) {
        return only.empty() || std::find(only.begin(), only.end(), a) != only.end() ||
               (b >= 0 && std::find(only.begin(), only.end(), b) != only.end());
    };
    const size_t cap = size_t(kMaxRows) +
                       1; // each source gives its earliest cap rows: enough for the merged earliest kMaxRows
    const auto in = [&](Time t) { return t >= t0 && t < t1; };
    if (kinds & (1u << Switch)) {
        const Slices& s = trc.slices;
        for (int c = 0; c < trc.cpus; ++c) {
            // Consecutive slices of a CPU: prev's end is next's start, else the CPU idled between.
            // From t0 - 1 so that a slice ending exactly at t0 is there to name prev.
            const auto idx = d.lanes->slicesIn(c, t0 - 1, t1, cap);
            const bool liveOpen = c < int(d.live.curr.size()) && d.live.curr[size_t(c)] >= 0;
            const Time liveStart = liveOpen ? d.live.sliceStart[size_t(c)] : 0;
            const auto add = [&](Time t, uint32_t prev, uint32_t next) {
                const TaskId pt = prev == kIdle ? kNoTask : s.task[prev];
                const TaskId nt = next == kIdle   ? kNoTask
                                  : next == kOpen ? d.live.curr[size_t(c)]
                                                  : s.task[next];
                if (in(t) && wanted(pt, nt)) rows_.push_back({t, prev, c, Switch, next});
            };
            if (!idx.empty()) add(s.start[idx[0]], kIdle, idx[0]); // the CPU was idle before the first
            for (size_t k = 0; k < idx.size(); ++k) {
                const uint32_t i = idx[k];
                const bool last = k + 1 == idx.size();
                uint32_t next = kIdle;
                if (!last && s.start[idx[k + 1]] == s.end[i])
                    next = idx[k + 1];
                else if (last && liveOpen && liveStart == s.end[i])
                    next = kOpen;
                if (s.endPoint[i] != kStillRunning) add(s.end[i], i, next);
                if (next == kIdle && !last) add(s.start[idx[k + 1]], kIdle, idx[k + 1]);
                if (next == kIdle && last && liveOpen) add(liveStart, kIdle, kOpen);
            }
            if (idx.empty() && liveOpen) add(liveStart, kIdle, kOpen);
        }
    }
    // Time-ordered columns: a binary search finds the window.
    const auto timeColumn = [&](const sched::TimeColumn& time, Kind kind, auto&& cpuOf, auto&& ok) {
        auto it = std::lower_bound(time.begin(), time.end(), t0);
        for (size_t n = 0; it != time.end() && *it < t1 && n < cap; ++it) {
            const uint32_t i = uint32_t(it - time.begin());
            if (!ok(i)) continue;
            rows_.push_back({*it, i, cpuOf(i), kind});
            ++n;
        }
    };
    if (kinds & (1u << Wakeup))
        timeColumn(
            trc.wakeups.time, Wakeup, [&](uint32_t i) { return int(trc.wakeups.targetCpu[i]); },
            [&](uint32_t i) { return wanted(trc.wakeups.wakee[i], trc.wakeups.waker[i]); });
    if (kinds & (1u << Migrate))
        timeColumn(
            trc.migrations.time, Migrate, [&](uint32_t i) { return int(trc.migrations.to[i]); },
            [&](uint32_t i) { return wanted(trc.migrations.task[i]); });
    if (kinds & ((1u << FlagSet) | (1u << FlagClear)) && d.flags) {
        const FlagIntervals& f = trc.flags;
        for (int c = 0; c < trc.cpus; ++c)
            for (int bit = 0; bit < 2; ++bit)
                for (uint32_t i : d.flags->intervalsIn(c, bit, t0, t1, cap)) {
                    if (!wanted(f.task[i])) continue;
                    if ((kinds & (1u << FlagSet)) && in(f.set[i])) rows_.push_back({f.set[i], i, c, FlagSet});
                    if ((kinds & (1u << FlagClear)) && f.clearedBy[i] != kStillRunning && in(f.clear[i]))
                        rows_.push_back({f.clear[i], i, c, FlagClear});
                }
        // Bits set now and not yet cleared are not in the trace yet: they come from the live state.
        if (kinds & (1u << FlagSet))
            for (size_t c = 0; c < d.live.flag.size() && c < d.live.flagReason.size(); ++c)
                for (uint32_t bit = 0; bit < 2; ++bit)
                    if (d.live.flag[c][bit] && in(d.live.flagSetAt[c][bit]) && wanted(d.live.curr[c]))
                        rows_.push_back({d.live.flagSetAt[c][bit], kOpen, int32_t(c), FlagSet, bit});
    }
    if (kinds & (1u << Change))
        for (uint32_t i = 0; i < trc.markers.size(); ++i)
            if (in(trc.markers[i].time)) rows_.push_back({trc.markers[i].time, i, -1, Change});
    // Same instant: a flag is set before the switch it causes; a wakeup before its flag.
    static constexpr int order[KindCount] = {4, 1, 2, 3, 5, 0};
    std::stable_sort(rows_.begin(), rows_.end(), [](const Row& a, const Row& b) {
        return a.time != b.time ? a.time < b.time : order[a.kind] < order[b.kind];
    });
    if (rows_.size() > size_t(kMaxRows)) {
        rows_.resize(size_t(kMaxRows));
        more = true;
    }
    endResetModel();
    return more;
}

QString EventLogModel::taskName(TaskId t) const {
    if (t < 0 || !d_.trace || size_t(t) >= d_.trace->tasks.size()) return QStringLiteral("<idle>");
    const auto& task = d_.trace->tasks[size_t(t)];
    return QString("%1:%2").arg(QString::fromStdString(task.comm)).arg(task.pid);
}

TaskId EventLogModel::taskOf(int r) const {
    const Row& row = rows_[size_t(r)];
    const Trace& trc = *d_.trace;
    switch (row.kind) {
    case Switch:
        if (row.next == kOpen) return d_.live.curr[size_t(row.cpu)];
        if (row.next != kIdle) return trc.slices.task[row.next];
        return row.index != kIdle ? trc.slices.task[row.index] : kNoTask;
    case Wakeup:
        return trc.wakeups.wakee[row.index];
    case FlagSet:
    case FlagClear:
        return row.index == kOpen ? d_.live.curr[size_t(row.cpu)] : trc.flags.task[row.index];
    case Migrate:
        return trc.migrations.task[row.index];
    default:
        return kNoTask;
    }
}

QString EventLogModel::what(const Row& r) const {
    const Trace& trc = *d_.trace;
    switch (r.kind) {
    case Switch: {
        const bool fromIdle = r.index == kIdle;
        const QString prev = fromIdle ? QStringLiteral("<idle>") : taskName(trc.slices.task[r.index]);
        const QString state =
            fromIdle ? QStringLiteral("R") : QString(prevStateOf(trc.slices.endPoint[r.index]));
        const TaskId next = r.next == kOpen   ? d_.live.curr[size_t(r.cpu)]
                            : r.next == kIdle ? kNoTask
                                              : trc.slices.task[r.next];
        return tr("sched_switch %1 [%2] ==> %3").arg(prev, state, taskName(next));
    }
    case Wakeup:
        return tr("%1 %2 target_cpu=%3")
            .arg(trc.wakeups.isNew[r.index] ? "sched_wakeup_new" : "sched_wakeup",
                 taskName(trc.wakeups.wakee[r.index]))
            .arg(trc.wakeups.targetCpu[r.index]);
    case FlagSet:
    case FlagClear:
        if (r.index == kOpen)
            return tr("set %1 of %2")
                .arg(r.next == uint32_t(ReschedBit::Lazy) ? "TIF_NEED_RESCHED_LAZY" : "TIF_NEED_RESCHED",
                     taskName(d_.live.curr[size_t(r.cpu)]));
        return tr("%1 %2 of %3")
            .arg(r.kind == FlagSet ? tr("set") : tr("clear"),
                 trc.flags.bit[r.index] == uint8_t(ReschedBit::Lazy) ? "TIF_NEED_RESCHED_LAZY"
                                                                     : "TIF_NEED_RESCHED",
                 taskName(trc.flags.task[r.index]));
    case Migrate:
        return tr("sched_migrate_task %1 orig_cpu=%2 dest_cpu=%3")
            .arg(taskName(trc.migrations.task[r.index]))
            .arg(trc.migrations.from[r.index])
            .arg(trc.migrations.to[r.index]);
    case Change:
        return tr("change: %1").arg(QString::fromStdString(trc.markers[r.index].text));
    default:
        return {};
    }
}

// The reason the engine recorded, in words: where the switch happened and which request caused it.
QString EventLogModel::why(const Row& r) const {
    const Trace& trc = *d_.trace;
    switch (r.kind) {
    case Switch: {
        if (r.index == kIdle) return tr("the idle loop saw need_resched()");
        const uint8_t p = trc.slices.endPoint[r.index], why = trc.slices.endReason[r.index];
        QString s = str(switchPointName(SwitchPoint(p)));
        if (why != kNoReason) s += " (" + str(reschedReasonName(ReschedReason(why))) + ")";
        return s;
    }
    case Wakeup: {
        const int32_t waker = trc.wakeups.waker[r.index], cpu = trc.wakeups.wakerCpu[r.index];
        if (trc.wakeups.isNew[r.index]) // sched_wakeup_new: a task's first wakeup, after its fork
            return waker < 0 ? tr("a new task, started with the scenario")
                             : tr("forked by %1 on CPU %2").arg(taskName(waker)).arg(cpu);
        return waker < 0 ? tr("woken by an interrupt (timer) on CPU %1").arg(cpu)
                         : tr("woken by %1 on CPU %2").arg(taskName(waker)).arg(cpu);
    }
    case FlagSet:
        return str(reschedReasonName(ReschedReason(r.index == kOpen
                                                       ? d_.live.flagReason[size_t(r.cpu)][r.next]
                                                       : trc.flags.reason[r.index]))) +
               (r.index == kOpen ? tr(" - still set") : QString());
    case FlagClear:
        if (trc.flags.clearedBy[r.index] == kClearedBySliceExt)
            return tr("an RSEQ slice extension granted instead of __schedule(), %1 after it was set")
                .arg(QString::fromStdString(
                    formatDuration(trc.flags.clear[r.index] - trc.flags.set[r.index])));
        return tr("__schedule() at %1, %2 after it was set")
            .arg(str(switchPointName(SwitchPoint(trc.flags.clearedBy[r.index]))),
                 QString::fromStdString(formatDuration(trc.flags.clear[r.index] - trc.flags.set[r.index])));
    case Migrate:
        return tr("load balance or wake-up placement");
    case Change:
        return tr("applied at this instant, as writing the debugfs knob would");
    default:
        return {};
    }
}

QVariant EventLogModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || size_t(index.row()) >= rows_.size() || !d_.trace) return {};
    const Row& r = rows_[size_t(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case 0:
            return QString::number(double(r.time) / 1e9, 'f', 6); // seconds.microseconds, as ftrace
        case 1:
            return r.cpu < 0 ? QString("-") : QString::number(r.cpu);
        case 2:
            return what(r);
        case 3:
            return why(r);
        }
    } else if (role == Qt::TextAlignmentRole && index.column() < 2) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    } else if (role == Qt::ToolTipRole && index.column() >= 2) {
        return what(r) + "\n" + why(r);
    }
    return {};
}

QVariant EventLogModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"time (s)", "CPU", "event", "why"};
    return tr(names[section]);
}

} // namespace view
