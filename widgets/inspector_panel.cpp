// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/inspector_panel.h"

#include "base/duration.h"
#include "widgets/data_table.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace view {

using namespace sched;

InspectorPanel::InspectorPanel(QWidget* parent) : QWidget(parent) {
    auto* lay = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("CPU"), this));
    cpu_ = new QSpinBox(this);
    cpu_->setRange(0, 0);
    top->addWidget(cpu_);
    when_ = new QLabel(this);
    top->addWidget(when_, 1);
    now_ = new QPushButton(tr("Now"), this);
    now_->setObjectName("inspectorNow");
    now_->setToolTip(
        tr("Follow the present again (click a lane in the timeline to inspect an earlier moment)"));
    top->addWidget(now_);
    connect(now_, &QPushButton::clicked, this, &InspectorPanel::followPresent);
    lay->addLayout(top);
    why_ = new QLabel(this);
    why_->setWordWrap(true);
    why_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    lay->addWidget(why_);
    table_ = new QTableWidget(this);
    setUpDataTable(table_,
                   {tr("task"), tr("state"), tr("v - V (ms)"), tr("deadline - V"), tr("eligible"),
                    tr("slice ms"), tr("weight")},
                   {QStringLiteral("receiver:99999"), tr("delayed sleeper"), QStringLiteral("-99.999"),
                    QStringLiteral("-99.999"), QString(), QString(), QStringLiteral("88761")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    lay->addWidget(table_, 1);
    connect(table_, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (row >= 0 && size_t(row) < rows_.size() && sched::entityIsTask(rows_[size_t(row)]))
            emit taskSelected(rows_[size_t(row)]);
    });
}

int InspectorPanel::cpu() const {
    return cpu_->value();
}

void InspectorPanel::setCpu(int cpu) {
    if (cpu >= 0 && cpu <= cpu_->maximum()) cpu_->setValue(cpu);
}

void InspectorPanel::refresh(const Engine& e, bool past) {
    when_->setText(past ? tr("at %1 (inspected moment)").arg(QString::fromStdString(formatDuration(e.now())))
                        : tr("now, %1").arg(QString::fromStdString(formatDuration(e.now()))));
    now_->setEnabled(past);
    cpu_->setMaximum(int(e.cpus().size()) - 1);
    const int c = cpu_->value();
    const CpuRq& rq = e.cpus()[size_t(c)];
    const EntityView ents = e.entityView();
    why_->setText(QString::fromStdString(e.describePick(c)) +
                  tr("\nAt %1: %2 queued (%3 delayed sleepers), V = %4 ms.")
                      .arg(QString::fromStdString(formatDuration(e.now())))
                      .arg(rq.cfs.nrQueued)
                      .arg(rq.cfs.nrDelayed)
                      .arg(double(rq.cfs.avgVruntimeValue(ents)) / 1e6, 0, 'f', 3));
    // The CPU's root runqueue: tasks, and with task groups the groups' entities (one row each,
    // named by the group), as pick_eevdf() sees them at this level.
    rows_.clear();
    if (rq.cfs.curr >= 0)
        rows_.push_back(rq.cfs.curr);
    else if (rq.curr >= 0)
        rows_.push_back(rq.curr); // an RT task
    rq.cfs.timeline.forEachInOrder(ents, [&](int32_t id) {
        rows_.push_back(id);
        return rows_.size() < 500; // a view, not a dump
    });
    const int64_t V = rq.cfs.avgVruntimeValue(ents);
    table_->setRowCount(int(rows_.size()));
    for (size_t r = 0; r < rows_.size(); ++r) {
        const EntityId t = rows_[r];
        const bool isTask = entityIsTask(t);
        const SchedEntity& se = ents[size_t(t)];
        const bool fair = !isTask || !isRtPolicy(e.tasks()[size_t(t)].policy);
        const bool running = t == rq.curr || t == rq.cfs.curr;
        QString state = running ? tr("running") : se.schedDelayed ? tr("delayed sleeper") : tr("queued");
        if (!isTask) state += tr(" (group)");
        auto set = [&](int col, const QString& text) {
            QTableWidgetItem* it = table_->item(int(r), col);
            if (!it) {
                it = new QTableWidgetItem;
                table_->setItem(int(r), col, it);
            }
            it->setText(text);
        };
        set(0, QString::fromStdString(e.entityName(t)));
        set(1, state);
        set(2, fair ? QString::number(double(se.vruntime - V) / 1e6, 'f', 3) : QString("RT"));
        set(3, fair ? QString::number(double(se.deadline - V) / 1e6, 'f', 3) : QString());
        set(4, fair ? (rq.cfs.entityEligible(ents, t) ? tr("yes") : tr("no")) : QString());
        set(5, fair ? QString::number(double(se.slice) / 1e6, 'g', 4) : QString());
        set(6, QString::number(se.load.weight));
    }
}

} // namespace view
