// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare_window.h"

#include "duration.h"
#include "timeline_view.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

using namespace sched;

namespace {
QString ms(Time t) { return QString::number(double(t) / 1e6, 'f', 3); }
// The change from a to b as a signed percentage (or count), coloured by whether lower is better.
QTableWidgetItem* changeItem(double a, double b, bool percent, bool lowerIsBetter) {
    QString text;
    if (a == b) text = "=";
    else if (!percent) text = QString::asprintf("%+.0f", b - a);
    else if (a == 0) text = QObject::tr("new");
    else text = QString::asprintf("%+.1f%%", 100.0 * (b - a) / a);
    auto* it = new QTableWidgetItem(text);
    it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (a != b && lowerIsBetter) it->setForeground((b < a) ? QColor(30, 150, 60) : QColor(200, 50, 50));
    return it;
}
QTableWidgetItem* number(const QString& text) {
    auto* it = new QTableWidgetItem(text);
    it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return it;
}
} // namespace

CompareWindow::CompareWindow(Side a, Side b, Time from, Time to, QWidget* parent) : QWidget(parent, Qt::Window) {
    sides_[0] = std::move(a);
    sides_[1] = std::move(b);
    cmp_ = compareRuns(*sides_[0].trace, *sides_[1].trace, from, to);
    setWindowTitle(tr("SchedScope - compare: %1 vs %2").arg(sides_[0].label, sides_[1].label));
    setAttribute(Qt::WA_DeleteOnClose);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    auto* split = new QSplitter(Qt::Vertical, this);
    for (int k = 0; k < 2; ++k) {
        auto* box = new QWidget(split);
        auto* bl = new QVBoxLayout(box);
        bl->setContentsMargins(0, 0, 0, 0);
        bl->setSpacing(0);
        auto* title = new QLabel(QString("<b>%1</b>&nbsp;&nbsp;%2").arg(k == 0 ? "A" : "B", sides_[k].label.toHtmlEscaped()), box);
        title->setContentsMargins(6, 2, 6, 2);
        bl->addWidget(title);
        auto* t = new view::TimelineView(box);
        t->setFollow(false);
        t->setRun(sides_[k].trace.get(), sides_[k].live);
        t->setRange(from, to);
        bl->addWidget(t, 1);
        timelines_[k] = t;
        split->addWidget(box);
        connect(t, &view::TimelineView::rangeChanged, this, [this, k](qint64 s, qint64 e) { syncRange(k, s, e); });
        connect(t, &view::TimelineView::taskSelected, this, [this, k](int task) { syncSelection(k, task); });
    }
    auto* bottom = new QWidget(split);
    auto* bottomLay = new QVBoxLayout(bottom);
    bottomLay->setContentsMargins(0, 0, 0, 0);
    summary_ = new QLabel(bottom);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setWordWrap(true);
    bottomLay->addWidget(summary_);
    table_ = new QTableWidget(bottom);
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    bottomLay->addWidget(table_, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    auto* save = new QPushButton(tr("Save table..."), bottom);
    connect(save, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save comparison"), "compare.txt", tr("Text (*.txt)"));
        if (path.isEmpty()) return;
        if (const QString err = saveTable(path); !err.isEmpty()) QMessageBox::warning(this, tr("Save failed"), err);
    });
    buttons->addWidget(save);
    bottomLay->addLayout(buttons);
    split->addWidget(bottom);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 2);
    lay->addWidget(split);
    fillTable();
    resize(1300, 900);
}

void CompareWindow::fillTable() {
    const QStringList head = {tr("task group"), tr("runtime A ms"), tr("runtime B ms"), tr("change"), tr("switches A"), tr("switches B"),
                              tr("change"), tr("vol A/B"), tr("invol A/B"), tr("avg delay A ms"), tr("avg delay B ms"), tr("change"),
                              tr("max delay A/B ms"), tr("sum delay A/B ms"), tr("p50 A/B ms"), tr("p99 A/B ms")};
    table_->setColumnCount(int(head.size()));
    table_->setHorizontalHeaderLabels(head);
    table_->setRowCount(int(cmp_.rows.size()));
    for (int r = 0; r < int(cmp_.rows.size()); ++r) {
        const CompareRow& row = cmp_.rows[size_t(r)];
        const GroupSide &a = row.a, &b = row.b;
        int c = 0;
        table_->setItem(r, c++, new QTableWidgetItem(QString::fromStdString(row.group) +
                                                     (std::max(a.tasks, b.tasks) > 1 ? QString(":(%1)").arg(std::max(a.tasks, b.tasks)) : QString())));
        table_->setItem(r, c++, number(ms(a.runtime)));
        table_->setItem(r, c++, number(ms(b.runtime)));
        table_->setItem(r, c++, changeItem(double(a.runtime), double(b.runtime), true, false));
        table_->setItem(r, c++, number(QString::number(a.switches())));
        table_->setItem(r, c++, number(QString::number(b.switches())));
        table_->setItem(r, c++, changeItem(double(a.switches()), double(b.switches()), false, false));
        table_->setItem(r, c++, number(QString("%1 / %2").arg(a.voluntary).arg(b.voluntary)));
        table_->setItem(r, c++, number(QString("%1 / %2").arg(a.involuntary).arg(b.involuntary)));
        table_->setItem(r, c++, number(ms(a.avgDelay())));
        table_->setItem(r, c++, number(ms(b.avgDelay())));
        table_->setItem(r, c++, changeItem(double(a.avgDelay()), double(b.avgDelay()), true, true));
        table_->setItem(r, c++, number(QString("%1 / %2").arg(ms(a.maxDelay), ms(b.maxDelay))));
        table_->setItem(r, c++, number(QString("%1 / %2").arg(ms(a.sumDelay), ms(b.sumDelay))));
        table_->setItem(r, c++, number(QString("%1 / %2").arg(ms(a.p50), ms(b.p50))));
        table_->setItem(r, c++, number(QString("%1 / %2").arg(ms(a.p99), ms(b.p99))));
    }
    table_->resizeColumnsToContents();
    const auto pct = [](double x, double y) { return x == 0 ? QString() : QString::asprintf(" (%+.1f%%)", 100.0 * (y - x) / x); };
    summary_->setText(tr("Window %1 - %2 (%3 ms), measured as perf would over that window.   context-switches A %4, B %5%6;   "
                         "voluntary %7 / %8;   involuntary %9 / %10;   migrations %11 / %12;   CPU time %13 / %14 ms%15")
                          .arg(QString::fromStdString(formatDuration(cmp_.from)), QString::fromStdString(formatDuration(cmp_.to)), ms(cmp_.to - cmp_.from))
                          .arg(cmp_.a.total)
                          .arg(cmp_.b.total)
                          .arg(pct(double(cmp_.a.total), double(cmp_.b.total)))
                          .arg(cmp_.a.voluntary)
                          .arg(cmp_.b.voluntary)
                          .arg(cmp_.a.involuntary)
                          .arg(cmp_.b.involuntary)
                          .arg(cmp_.a.migrations)
                          .arg(cmp_.b.migrations)
                          .arg(ms(cmp_.busyA), ms(cmp_.busyB))
                          .arg(pct(double(cmp_.busyA), double(cmp_.busyB))));
}

void CompareWindow::syncRange(int from, qint64 start, qint64 end) {
    if (syncing_) return;
    syncing_ = true;
    timelines_[1 - from]->setRange(start, end);
    syncing_ = false;
}

// Task ids match in both runs up to the branch; beyond it (tasks forked later) the comm decides.
void CompareWindow::syncSelection(int from, int task) {
    const Trace& src = *sides_[from].trace;
    const Trace& dst = *sides_[1 - from].trace;
    TaskId other = kNoTask;
    if (task >= 0 && size_t(task) < dst.tasks.size() && dst.tasks[size_t(task)].comm == src.tasks[size_t(task)].comm) other = task;
    else if (task >= 0)
        for (TaskId t = 0; t < TaskId(dst.tasks.size()); ++t)
            if (dst.tasks[size_t(t)].comm == src.tasks[size_t(task)].comm) {
                other = t;
                break;
            }
    timelines_[1 - from]->setSelectedTask(other);
}

QString CompareWindow::saveTable(const QString& path) const {
    const std::string text = formatComparison(cmp_, sides_[0].label.toStdString(), sides_[1].label.toStdString());
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return tr("%1: cannot write (%2)").arg(path, f.errorString());
    f.write(text.data(), qint64(text.size()));
    if (!f.commit()) return tr("%1: cannot save (%2)").arg(path, f.errorString());
    return {};
}
