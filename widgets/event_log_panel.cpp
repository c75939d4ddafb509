// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/event_log_panel.h"

#include "base/duration.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace view {

EventLogPanel::EventLogPanel(QWidget* parent) : QWidget(parent) {
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(2, 2, 2, 2);
    lay->setSpacing(2);
    auto* filters = new QHBoxLayout;
    filters->setSpacing(8);
    const std::pair<EventLogModel::Kind, const char*> kinds[] = {
        {EventLogModel::Switch, "switches"},     {EventLogModel::Wakeup, "wake-ups"},
        {EventLogModel::FlagSet, "resched set"}, {EventLogModel::FlagClear, "resched clear"},
        {EventLogModel::Migrate, "migrations"},  {EventLogModel::Change, "changes"}};
    // The kinds sit in a drop-down menu so that the dock stays as narrow as the other panels.
    auto* kindButton = new QToolButton(this);
    kindButton->setText(tr("Events"));
    kindButton->setToolTip(tr("Which kinds of events to list"));
    kindButton->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(kindButton);
    for (const auto& [k, label] : kinds) {
        QAction* a = menu->addAction(tr(label));
        a->setCheckable(true);
        a->setChecked(true);
        a->setData(int(k));
        connect(a, &QAction::toggled, this, &EventLogPanel::again);
        kindActions_.push_back(a);
    }
    kindButton->setMenu(menu);
    filters->addWidget(kindButton);
    onlySelected_ = new QCheckBox(tr("selected tasks only"), this);
    onlySelected_->setToolTip(
        tr("Only events about the tasks selected in the timeline (Ctrl+click adds one)"));
    connect(onlySelected_, &QCheckBox::toggled, this, &EventLogPanel::again);
    filters->addWidget(onlySelected_);
    filters->addStretch(1);
    lay->addLayout(filters);
    model_ = new EventLogModel(this);
    table_ = new QTableView(this);
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->setVisible(false);
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);
    table_->setColumnWidth(0, fontMetrics().horizontalAdvance("0000.000000") + 12);
    table_->setColumnWidth(1, fontMetrics().horizontalAdvance("CPU") + 16);
    table_->setColumnWidth(
        2, fontMetrics().horizontalAdvance("sched_switch kworker/0:1:1234 [R+] ==> kworker/0:1:1234") + 12);
    lay->addWidget(table_, 1);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    lay->addWidget(status_);
    connect(table_, &QTableView::clicked, this,
            [this](const QModelIndex& i) { emit taskSelected(model_->taskOf(i.row())); });
    connect(table_, &QTableView::doubleClicked, this,
            [this](const QModelIndex& i) { emit timeActivated(model_->row(i.row()).time); });
}

void EventLogPanel::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    again();
}

unsigned EventLogPanel::kinds() const {
    unsigned k = 0;
    for (QAction* a : kindActions_)
        if (a->isChecked()) k |= 1u << a->data().toInt();
    return k;
}

void EventLogPanel::setKinds(unsigned kinds) {
    for (QAction* a : kindActions_)
        a->setChecked(kinds & (1u << a->data().toInt()));
}

void EventLogPanel::clear() {
    d_ = TimelineData{};
    model_->clear();
    status_->clear();
}

void EventLogPanel::refresh(const TimelineData& d, Time t0, Time t1) {
    d_ = d;
    t0_ = t0;
    t1_ = std::min(t1, std::max(d.live.now + 1, Time(1)));
    again();
}

void EventLogPanel::again() {
    if (!isVisible()) return; // a hidden log costs nothing; it catches up when shown
    const bool more = model_->setWindow(d_, t0_, t1_, kinds(),
                                        onlySelected_->isChecked() ? d_.selection : std::vector<TaskId>{});
    const QString range = QString("%1 - %2").arg(QString::fromStdString(sched::formatDuration(t0_)),
                                                 QString::fromStdString(sched::formatDuration(t1_)));
    status_->setText(
        more ? tr("The first %L1 events of %2; zoom in to list the rest.")
                   .arg(EventLogModel::kMaxRows)
                   .arg(range)
             : tr("%L1 events in %2 (the timeline's visible range).").arg(model_->rowCount()).arg(range));
}

} // namespace view
