// SPDX-License-Identifier: GPL-3.0-or-later
// The inspector: one CPU's runqueue as the scheduler sees it now — each queued task's
// vruntime, deadline, lag, eligibility, slice and weight — and why the running task holds the
// CPU, in plain words.
#pragma once

#include "engine.h"

#include <QWidget>

class QLabel;
class QTableWidget;
class QSpinBox;

namespace view {

class InspectorPanel : public QWidget {
    Q_OBJECT
public:
    QSize sizeHint() const override { return QSize(330, 320); } // narrow: the timeline comes first
    explicit InspectorPanel(QWidget* parent = nullptr);
    void setCpu(int cpu);
    void refresh(const sched::Engine& e);

signals:
    void taskSelected(int task);

private:
    QSpinBox* cpu_ = nullptr;
    QLabel* why_ = nullptr;
    QTableWidget* table_ = nullptr;
    std::vector<sched::TaskId> rows_;
};

} // namespace view
