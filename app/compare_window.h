// SPDX-License-Identifier: GPL-3.0-or-later
// A/B comparison window: two runs' timelines stacked on one synchronised time axis (zoom or pan
// either, both follow; a task selected in one is selected in both), and a table with both runs'
// metrics per task group over the compared window and the change from A to B. "Branch here"
// opens it with the original continuation as A and the changed one as B; the same window takes
// any two traces (an imported one included) that share a time base.
#pragma once

#include "compare.h"
#include "timeline_painter.h"

#include <QWidget>
#include <memory>

class QLabel;
class QTableWidget;

namespace view {
class TimelineView;
}

class CompareWindow : public QWidget {
    Q_OBJECT
public:
    struct Side {
        QString label;
        std::shared_ptr<const sched::Trace> trace; // kept alive by the window
        view::LiveState live;                      // what still runs at the end (empty: a finished run)
    };
    CompareWindow(Side a, Side b, sched::Time from, sched::Time to, QWidget* parent = nullptr);
    const sched::Comparison& comparison() const { return cmp_; }
    view::TimelineView* timelineA() const { return timelines_[0]; }
    view::TimelineView* timelineB() const { return timelines_[1]; }
    // The table as text (the same as schedscope-cli compare prints), written atomically.
    QString saveTable(const QString& path) const;

private:
    void fillTable();
    void syncRange(int from, qint64 start, qint64 end);
    void syncSelection(int from, int task);

    Side sides_[2];
    sched::Comparison cmp_;
    view::TimelineView* timelines_[2] = {nullptr, nullptr};
    QTableWidget* table_ = nullptr;
    QLabel* summary_ = nullptr;
    bool syncing_ = false;
};
