// SPDX-License-Identifier: GPL-3.0-or-later
// The event log as a table model: the scheduler events of a time window, in time order, in the
// words of the tracepoints they stand for (sched_switch with prev_state, sched_wakeup, the
// need-resched bits being set and cleared, sched_migrate_task, live parameter changes). Rows are
// gathered from the timeline's per-CPU indexes, so a window costs O(rows + CPUs * log n), and
// at most kMaxRows are kept (the earliest of the window): the log is virtual, like the timeline.
#pragma once

#include "widgets/timeline_painter.h"

#include <QAbstractTableModel>

namespace view {

class EventLogModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Kind : uint8_t { Switch, Wakeup, FlagSet, FlagClear, Migrate, Change, KindCount };
    static constexpr int kMaxRows = 50000;
    static constexpr uint32_t kIdle = UINT32_MAX,
                              kOpen = UINT32_MAX - 1; // Switch: no slice / the running one
    struct Row {
        Time time;
        uint32_t index; // into the trace column of its kind (Switch: the prev slice, or kIdle; FlagSet: kOpen
                        // = still set, next = the bit)
        int32_t cpu;    // -1: not about one CPU (a change)
        Kind kind;
        uint32_t next = kIdle; // Switch: the slice that starts, kIdle, or kOpen (running now)
    };

    explicit EventLogModel(QObject* parent = nullptr);
    // Gathers the events of [t0, t1) of the given kinds (bit k = Kind k), only of the given
    // tasks if any. Returns true if the window held more than kMaxRows events.
    bool setWindow(const TimelineData& d, Time t0, Time t1, unsigned kinds,
                   const std::vector<TaskId>& onlyTasks);
    void clear();
    const Row& row(int r) const { return rows_[size_t(r)]; }
    // The task a row is about (the wakee, the task switched in, the task whose bit it is, ...).
    TaskId taskOf(int r) const;

    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : int(rows_.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : 4; }
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

  private:
    QString taskName(TaskId t) const;
    QString what(const Row& r) const;
    QString why(const Row& r) const;
    std::vector<Row> rows_;
    TimelineData d_;
};

} // namespace view
