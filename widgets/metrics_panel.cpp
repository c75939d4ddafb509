// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/metrics_panel.h"

#include "metrics/latency.h"
#include "metrics/perf_report.h"
#include "widgets/data_table.h"

#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace view {

using namespace sched;

MetricsPanel::MetricsPanel(QWidget* parent) : QWidget(parent) {
    auto* lay = new QVBoxLayout(this);
    counts_ = new QLabel(this);
    counts_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    counts_->setWordWrap(true);
    lay->addWidget(counts_);
    table_ = new QTableWidget(this);
    setUpDataTable(
        table_,
        {tr("Task"), tr("Runtime ms"), tr("Switches"), tr("Avg delay ms"), tr("Max delay ms"),
         tr("Sum delay ms")},
        {QStringLiteral("receiver:(4000)"), QStringLiteral("99999.999"), QStringLiteral("9999999")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setToolTip(
        tr("perf sched latency: delay from wakeup (or a runnable switch-out) to the next switch-in"));
    lay->addWidget(table_, 1);
}

void MetricsPanel::clear() {
    fold_ = LatencyFold(1);
    cursor_ = {};
}

void MetricsPanel::refresh(const Trace& trace, std::span<const RunningSlice> running, Time now) {
    if (cursor_.slices > trace.slices.size() || cursor_.wakeups > trace.wakeups.size() ||
        cursor_.migrations > trace.migrations.size())
        clear(); // cut back without a clear(): never fold a stretch twice or skip one
    fold_.add(trace, cursor_);
    const LatencyFold soFar = fold_.endedAt(running, now);
    const auto rows = soFar.rows(trace.tasks);
    const SwitchCounts c = soFar.switches();
    counts_->setText(tr("context-switches %1   voluntary %2   involuntary %3   migrations %4   (run so "
                        "far: %5 ms, the running tasks counted up to now)")
                         .arg(QString::fromStdString(groupThousands(double(c.total))))
                         .arg(QString::fromStdString(groupThousands(double(c.voluntary))))
                         .arg(QString::fromStdString(groupThousands(double(c.involuntary))))
                         .arg(QString::fromStdString(groupThousands(double(c.migrations))))
                         .arg(double(now) / 1e6, 0, 'f', 3));
    table_->setRowCount(int(rows.size()));
    for (size_t r = 0; r < rows.size(); ++r) {
        const LatencyRow& row = rows[r];
        const QString name = row.merged > 1
                                 ? QString("%1:(%2)").arg(QString::fromStdString(row.comm)).arg(row.merged)
                                 : QString("%1:%2").arg(QString::fromStdString(row.comm)).arg(row.pid);
        const QString cells[6] = {name,
                                  QString::number(double(row.runtime) / 1e6, 'f', 3),
                                  QString::number(row.count),
                                  QString::number(double(row.avgDelay()) / 1e6, 'f', 3),
                                  QString::number(double(row.maxDelay) / 1e6, 'f', 3),
                                  QString::number(double(row.totalDelay) / 1e6, 'f', 3)};
        for (int col = 0; col < 6; ++col) {
            QTableWidgetItem* it = table_->item(int(r), col);
            if (!it) {
                it = new QTableWidgetItem;
                if (col) it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                table_->setItem(int(r), col, it);
            }
            it->setText(cells[col]);
        }
    }
}

} // namespace view
