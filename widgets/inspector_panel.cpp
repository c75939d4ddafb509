// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/inspector_panel.h"

#include "base/duration.h"
#include "engine/lag_table.h"
#include "widgets/data_table.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

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
    why_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    // The prose scrolls above the table, which keeps the height of its rows (up to eight): on a
    // 768-pixel screen the words would otherwise push the lag table down to two rows, and on a large
    // one the table would take space it has no rows for.
    auto* prose = new QScrollArea(this);
    prose->setWidget(why_);
    prose->setWidgetResizable(true);
    prose->setFrameShape(QFrame::NoFrame);
    prose->setMinimumHeight(fontMetrics().lineSpacing() * 3);
    table_ = new QTableWidget(this);
    setUpDataTable(table_,
                   {tr("task"), tr("state"), tr("vlag ms"), tr("lag ms"), tr("deadline - V"), tr("eligible"),
                    tr("slice ms"), tr("weight")},
                   {QStringLiteral("receiver:99999"), tr("delayed sleeper"), QStringLiteral("-99.999"),
                    QStringLiteral("-99.999"), QStringLiteral("-99.999"), QString(), QString(),
                    QStringLiteral("88761")});
    table_->horizontalHeaderItem(2)->setToolTip(
        tr("V - v: how far the entity's vruntime is behind V (virtual time)"));
    table_->horizontalHeaderItem(3)->setToolTip(
        tr("weight x (V - v) / 1024: the CPU time the entity is owed (negative: it ran ahead). "
           "The last row adds them up: zero, but for V's rounding."));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    lay->addWidget(prose, 1);
    lay->addWidget(table_);
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
    const LagTable lt = lagTableOf(rq.cfs, ents, e.now(), e.config().baseSlice());
    why_->setText(QString::fromStdString(e.describePick(c)) +
                  tr("\nAt %1: %2 queued (%3 delayed sleepers), V = %4 ms (the running entity's vruntime "
                     "as update_curr() would make it now).")
                      .arg(QString::fromStdString(formatDuration(e.now())))
                      .arg(rq.cfs.nrQueued)
                      .arg(rq.cfs.nrDelayed)
                      .arg(double(lt.V) / 1e6, 0, 'f', 3));
    // The CPU's root runqueue as a lag table (lag_table.h): tasks, and with task groups the groups'
    // entities (one row each, named by the group), as pick_eevdf() sees them at this level; an RT
    // task that runs comes first, or an RT donor whose mutex owner runs for it (proxy execution).
    rows_.clear();
    const TaskId donor = rq.donor();
    const bool rtCurr = donor >= 0 && isRtPolicy(e.tasks()[size_t(donor)].policy);
    if (rtCurr) rows_.push_back(donor);
    for (const LagRow& lr : lt.rows) {
        if (rows_.size() >= 500) break; // a view, not a dump
        rows_.push_back(lr.id);
    }
    table_->setRowCount(int(rows_.size()) + 1);
    auto set = [&](int row, int col, const QString& text) {
        QTableWidgetItem* it = table_->item(row, col);
        if (!it) {
            it = new QTableWidgetItem;
            table_->setItem(row, col, it);
        }
        it->setText(text);
    };
    const auto ms = [](int64_t ns) { return QString::number(double(ns) / 1e6, 'f', 3); };
    for (size_t r = 0; r < rows_.size(); ++r) {
        const EntityId t = rows_[r];
        const bool isTask = entityIsTask(t);
        const int row = int(r);
        if (rtCurr && r == 0) {
            set(row, 0, QString::fromStdString(e.entityName(t)));
            set(row, 1, rq.proxying() ? tr("donor") : tr("running"));
            set(row, 2, QStringLiteral("RT"));
            for (int col = 3; col < 7; ++col)
                set(row, col, QString());
            set(row, 7, QString::number(ents[size_t(t)].load.weight));
            continue;
        }
        const LagRow& lr = lt.rows[r - (rtCurr ? 1 : 0)];
        // Under proxy execution the running entity is the donor's: another task executes on it.
        QString state = lr.running     ? (rq.proxying() && t == rq.fairCurr ? tr("donor") : tr("running"))
                        : lr.delayed   ? tr("delayed sleeper")
                        : t == rq.curr ? tr("runs for the donor")
                                       : tr("queued");
        if (!isTask) state += tr(" (group)");
        set(row, 0, QString::fromStdString(e.entityName(t)));
        set(row, 1, state);
        set(row, 2, ms(lr.vlag));
        set(row, 3, ms(lr.lag));
        set(row, 4, ms(lr.deadline - lt.V));
        set(row, 5, lr.eligible ? tr("yes") : tr("no"));
        set(row, 6, QString::number(double(lr.slice) / 1e6, 'g', 4));
        set(row, 7, QString::number(lr.weight));
    }
    // The check row: the lags add up to zero (V is the weighted mean of the vruntimes).
    const int sumRow = int(rows_.size());
    int64_t lagSum = 0;
    for (const LagRow& lr : lt.rows)
        lagSum += lr.lag;
    set(sumRow, 0, tr("sum of lags"));
    set(sumRow, 1, QString());
    set(sumRow, 2, QString());
    set(sumRow, 3, ms(lagSum));
    for (int col = 4; col < 8; ++col)
        set(sumRow, col, QString());
    set(sumRow, 7, QString::number(lt.weightSum));
    table_->item(sumRow, 3)->setToolTip(
        tr("Exactly: sum of weight x (V - v) = %1 (weight x ns): V = avg_vruntime() rounds its division "
           "down, so the sum lies between -%2 and 0; each row's lag is rounded too.")
            .arg(lt.weightedVlagSum)
            .arg(lt.weightSum));
    // As high as its rows, eight at most (more scroll): the prose above takes the rest.
    const int shown = std::min(table_->rowCount(), 8);
    int h = table_->horizontalHeader()->height() + 2 * table_->frameWidth() +
            table_->horizontalScrollBar()->sizeHint().height();
    for (int r = 0; r < shown; ++r)
        h += table_->rowHeight(r);
    table_->setFixedHeight(h);
}

} // namespace view
