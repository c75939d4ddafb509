// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/policy_delegate.h"

#include "base/types.h"

#include <QComboBox>

namespace view {

using namespace sched;

QString policyShortName(Policy p) { // as chrt(1) prints them, and as parsePolicy() reads them
    return QString::fromStdString(std::string(policyName(p))).mid(6).toLower();
}

QWidget* PolicyDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem&,
                                      const QModelIndex&) const {
    auto* box = new QComboBox(parent);
    for (Policy p : {Policy::Normal, Policy::Batch, Policy::Idle, Policy::Fifo, Policy::RR})
        box->addItem(policyShortName(p));
    return box;
}

void PolicyDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const {
    auto* box = static_cast<QComboBox*>(editor);
    box->setCurrentIndex(std::max(0, box->findText(index.data().toString())));
}

void PolicyDelegate::setModelData(QWidget* editor, QAbstractItemModel* model,
                                  const QModelIndex& index) const {
    model->setData(index, static_cast<QComboBox*>(editor)->currentText());
}

} // namespace view
