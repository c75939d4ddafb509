// SPDX-License-Identifier: GPL-3.0-or-later
// Edits a task's scheduling policy in the parameter panel's task table with a list of the five
// policies sched_setattr() accepts, instead of free text that could name none of them.
#pragma once

#include "base/types.h"

#include <QStyledItemDelegate>

namespace view {

QString policyShortName(sched::Policy p); // "normal", "batch", "idle", "fifo", "rr"

class PolicyDelegate : public QStyledItemDelegate {
  public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex&) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;
};

} // namespace view
