// SPDX-License-Identifier: GPL-3.0-or-later
// "Branch here": asks which one setting the branch changes at the present moment (preemption
// model, base slice, HZ, a feature, a task's nice or slice) and how far both continuations run.
#pragma once

#include "engine/engine.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QCheckBox;
class QStackedWidget;

class BranchDialog : public QDialog {
    Q_OBJECT
  public:
    BranchDialog(const sched::Engine& e, sched::Time remaining, QWidget* parent = nullptr);
    sched::ParamChange change() const;
    sched::Time span() const;

  private:
    QComboBox* kind_ = nullptr;
    QStackedWidget* editors_ = nullptr;
    QComboBox* model_ = nullptr;
    QDoubleSpinBox* slice_ = nullptr;
    QComboBox* hz_ = nullptr;
    QComboBox* feature_ = nullptr;
    QCheckBox* featureOn_ = nullptr;
    QComboBox* niceTask_ = nullptr;
    QSpinBox* nice_ = nullptr;
    QComboBox* sliceTask_ = nullptr;
    QDoubleSpinBox* taskSlice_ = nullptr;
    QDoubleSpinBox* span_ = nullptr;
};
