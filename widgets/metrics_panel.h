// SPDX-License-Identifier: GPL-3.0-or-later
// The perf sched latency table and the context-switch counts of the run so far.
#pragma once

#include "trace/trace.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace view {

class MetricsPanel : public QWidget {
    Q_OBJECT
  public:
    QSize sizeHint() const override { return QSize(330, 260); } // narrow: the timeline comes first
    explicit MetricsPanel(QWidget* parent = nullptr);
    void refresh(const sched::Trace& trace, sched::Time now);

  private:
    QLabel* counts_ = nullptr;
    QTableWidget* table_ = nullptr;
};

} // namespace view
