// SPDX-License-Identifier: GPL-3.0-or-later
// Live knobs: kernel build (restarts the run), preemption model, base slice, HZ, scheduler
// features, and per-task policy, nice and slice.
// The panel never touches the engine: it emits the change, the session applies it at the
// current simulated time, exactly as writing /sys/kernel/debug/sched/* would.
#pragma once

#include "engine/engine.h"

#include <QWidget>

class QComboBox;
class QSpinBox;
class QDoubleSpinBox;
class QCheckBox;
class QTableWidget;
class QLabel;

namespace view {

class ParamsPanel : public QWidget {
    Q_OBJECT
  public:
    QSize sizeHint() const override { return QSize(240, 420); } // narrow: the timeline comes first
    explicit ParamsPanel(QWidget* parent = nullptr);
    // Shows the engine's current settings and tasks (call after load and after each change).
    void sync(const sched::Engine& e);

  signals:
    void changeRequested(const sched::ParamChange& change);
    // A kernel (a name of kernelSpecs(): "6.18.44", "auto-rfc"): a boot-time choice, so a restart.
    void kernelRequested(const QString& spec);
    void archRequested(const QString& name);

  private:
    void taskEdited(int row, int column);
    QComboBox* kernel_ = nullptr;
    QComboBox* arch_ = nullptr;
    QComboBox* model_ = nullptr;
    QComboBox* hz_ = nullptr;
    QDoubleSpinBox* slice_ = nullptr;
    std::vector<QCheckBox*> features_;
    QTableWidget* tasks_ = nullptr;
    bool syncing_ = false;
    struct ShownTask { // what the table shows, to turn an edit into the call it stands for
        sched::Policy policy;
        int nice, rtPriority;
    };
    std::vector<ShownTask> shown_;
};

} // namespace view
