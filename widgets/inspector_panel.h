// SPDX-License-Identifier: GPL-3.0-or-later
// The inspector: one CPU's runqueue as the scheduler sees it now — each queued task's
// vruntime, deadline, lag, eligibility, slice and weight — and why the running task holds the
// CPU, in plain words.
#pragma once

#include "engine/engine.h"

#include <QWidget>

class QLabel;
class QTableWidget;
class QSpinBox;
class QPushButton;

namespace view {

class InspectorPanel : public QWidget {
    Q_OBJECT
  public:
    QSize sizeHint() const override { return QSize(330, 320); } // narrow: the timeline comes first
    explicit InspectorPanel(QWidget* parent = nullptr);
    void setCpu(int cpu);
    int cpu() const;
    // Shows e's state; `past` says it is an inspected earlier moment, not the present.
    void refresh(const sched::Engine& e, bool past = false);

  signals:
    void taskSelected(int task);
    void followPresent(); // the user wants the present again

  private:
    QSpinBox* cpu_ = nullptr;
    QLabel* why_ = nullptr;
    QLabel* when_ = nullptr;
    QPushButton* now_ = nullptr;
    QTableWidget* table_ = nullptr;
    std::vector<sched::TaskId> rows_;
};

} // namespace view
