// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/compare_window.h"

#include "app/gui/save_file.h"
#include "app/gui/window_size.h"
#include "base/duration.h"
#include "widgets/data_table.h"
#include "widgets/latency_histogram.h"
#include "widgets/plot_export.h"
#include "widgets/timeline_view.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

using namespace sched;

namespace {
QString ms(Time t) {
    return QString::number(double(t) / 1e6, 'f', 3);
}
// The change from a to b as a signed percentage (or count), coloured by whether lower is better.
QTableWidgetItem* changeItem(double a, double b, bool percent, bool lowerIsBetter) {
    QString text;
    if (a == b)
        text = "=";
    else if (!percent)
        text = QString::asprintf("%+.0f", b - a);
    else if (a == 0)
        text = QObject::tr("new");
    else
        text = QString::asprintf("%+.1f%%", 100.0 * (b - a) / a);
    auto* it = new QTableWidgetItem(text);
    it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (a != b && lowerIsBetter) it->setForeground((b < a) ? QColor(30, 150, 60) : QColor(200, 50, 50));
    return it;
}
// "+ 46.408ms" / "- 1.2s": how far B's clock is from A's.
QString signedShift(Time d) {
    return QString::fromStdString((d < 0 ? "- " : "+ ") + formatDuration(std::llabs(d)));
}
QTableWidgetItem* number(const QString& text) {
    auto* it = new QTableWidgetItem(text);
    it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return it;
}
} // namespace

CompareWindow::CompareWindow(Side a, Side b, Time from, Time to, QWidget* parent)
    : QWidget(parent, Qt::Window) {
    sides_[0] = std::move(a);
    sides_[1] = std::move(b);
    from_ = from;
    to_ = to;
    cmp_ = compareRuns(*sides_[0].trace, *sides_[1].trace, from, to);
    points_ = sched::alignmentPoints(*sides_[0].trace, *sides_[1].trace);
    setWindowTitle(tr("SchedScope - compare: %1 vs %2").arg(sides_[0].label, sides_[1].label));
    setAttribute(Qt::WA_DeleteOnClose);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    auto* axes = new QHBoxLayout;
    axes->addWidget(new QLabel(tr("Time axes:"), this));
    align_ = new QComboBox(this);
    align_->addItem(tr("one time axis (the same time in A and B)"));
    for (const AlignPoint& p : points_)
        align_->addItem(tr("B aligned with A at the %1  (B = A %2)")
                            .arg(QString::fromStdString(p.label), signedShift(p.shift())));
    align_->addItem(tr("B aligned with A at marker A of each timeline (hover the event in each, press 1)"));
    align_->setToolTip(tr(
        "Line the two runs up at an event both have: a trace's workload starts wherever the tracer "
        "found it. The axes then move together, B shifted; the table measures B over the shifted window."));
    connect(align_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i == align_->count() - 1)
            alignAtMarkers();
        else
            alignTo(i - 1);
    });
    axes->addWidget(align_, 1);
    axes->addStretch(0);
    lay->addLayout(axes);
    auto* split = new QSplitter(Qt::Vertical, this);
    for (int k = 0; k < 2; ++k) {
        auto* box = new QWidget(split);
        auto* bl = new QVBoxLayout(box);
        bl->setContentsMargins(0, 0, 0, 0);
        bl->setSpacing(0);
        auto* title = new QLabel(
            QString("<b>%1</b>&nbsp;&nbsp;%2").arg(k == 0 ? "A" : "B", sides_[k].label.toHtmlEscaped()), box);
        title->setContentsMargins(6, 2, 6, 2);
        titles_[k] = title;
        bl->addWidget(title);
        auto* t = new view::TimelineView(box);
        t->setFollow(false);
        t->setRun(sides_[k].trace.get(), sides_[k].live);
        t->setRange(from, to);
        bl->addWidget(t, 1);
        timelines_[k] = t;
        split->addWidget(box);
        connect(t, &view::TimelineView::rangeChanged, this,
                [this, k](qint64 s, qint64 e) { syncRange(k, s, e); });
        connect(t, &view::TimelineView::taskSelected, this, [this, k](int task) { syncSelection(k, task); });
    }
    auto* bottom = new QWidget(split);
    auto* bottomLay = new QVBoxLayout(bottom);
    bottomLay->setContentsMargins(0, 0, 0, 0);
    note_ = new QLabel(bottom);
    note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    note_->setWordWrap(true);
    note_->hide();
    bottomLay->addWidget(note_);
    summary_ = new QLabel(bottom);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setWordWrap(true);
    bottomLay->addWidget(summary_);
    table_ = new QTableWidget(bottom);
    // Set up once; fillTable() refills the rows whenever the alignment changes.
    view::setUpDataTable(table_,
                         {tr("task group"), tr("runtime A ms"), tr("runtime B ms"), tr("change"),
                          tr("switches A"), tr("switches B"), tr("change"), tr("vol A/B"), tr("invol A/B"),
                          tr("avg delay A ms"), tr("avg delay B ms"), tr("change"), tr("max delay A/B ms"),
                          tr("sum delay A/B ms"), tr("p50 A/B ms"), tr("p99 A/B ms")},
                         {});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    // The table, and the two runs' distributions drawn over each other for the selected task's comm.
    tabs_ = new QTabWidget(bottom);
    tabs_->addTab(table_, tr("Table"));
    distributions_ = new view::LatencyHistogram(bottom);
    distributions_->setObjectName("compareDistributions");
    updateDistributions();
    tabs_->addTab(distributions_, tr("Distributions"));
    tabs_->setTabToolTip(1, tr("Scheduling delays or run lengths of the selected task, its comm group or all "
                               "tasks in both runs: A's bars filled and CDF solid, B's outlined and dashed"));
    bottomLay->addWidget(tabs_, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    auto* save = new QPushButton(tr("Save table..."), bottom);
    connect(save, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save comparison"), "compare.txt", tr("Text (*.txt)"));
        if (path.isEmpty()) return;
        if (const QString err = saveTable(path); !err.isEmpty())
            QMessageBox::warning(this, tr("Save failed"), err);
    });
    buttons->addWidget(save);
    auto* picture = new QPushButton(tr("Save distributions picture..."), bottom);
    picture->setObjectName("saveDistributionsPicture");
    connect(picture, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save the distributions"), "distributions.png", tr("Pictures (*.png *.svg *.pdf)"));
        if (path.isEmpty()) return;
        if (const QString err = saveDistributionsPicture(path); !err.isEmpty())
            QMessageBox::warning(this, tr("Save failed"), err);
    });
    buttons->addWidget(picture);
    bottomLay->addLayout(buttons);
    split->addWidget(bottom);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 2);
    lay->addWidget(split);
    fillTable();
    fitToScreen(*this, {1300, 900});
}

void CompareWindow::fillTable() {
    table_->setRowCount(int(cmp_.rows.size()));
    for (int r = 0; r < int(cmp_.rows.size()); ++r) {
        const CompareRow& row = cmp_.rows[size_t(r)];
        const GroupSide &a = row.a, &b = row.b;
        int c = 0;
        table_->setItem(r, c++,
                        new QTableWidgetItem(QString::fromStdString(row.group) +
                                             (std::max(a.tasks, b.tasks) > 1
                                                  ? QString(":(%1)").arg(std::max(a.tasks, b.tasks))
                                                  : QString())));
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
    const auto pct = [](double x, double y) {
        return x == 0 ? QString() : QString::asprintf(" (%+.1f%%)", 100.0 * (y - x) / x);
    };
    const QString windowB = cmp_.shiftB == 0 && cmp_.alignedAt.empty()
                                ? QString()
                                : tr(" (B: %1 - %2, aligned at the %3)")
                                      .arg(QString::fromStdString(formatDuration(cmp_.from + cmp_.shiftB)),
                                           QString::fromStdString(formatDuration(cmp_.to + cmp_.shiftB)),
                                           QString::fromStdString(cmp_.alignedAt));
    summary_->setText(
        tr("Window %1 - %2 (%3 ms)%16, measured as perf would over that window.   context-switches A %4, B "
           "%5%6;   "
           "voluntary %7 / %8;   involuntary %9 / %10;   migrations %11 / %12;   CPU time %13 / %14 ms%15")
            .arg(QString::fromStdString(formatDuration(cmp_.from)),
                 QString::fromStdString(formatDuration(cmp_.to)), ms(cmp_.to - cmp_.from))
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
            .arg(pct(double(cmp_.busyA), double(cmp_.busyB)))
            .arg(windowB));
    // Two runs that share no task group: said above the table, where the eye goes first.
    if (const std::string w = unrelatedRunsWarning(cmp_); !w.empty())
        summary_->setText(
            QString("<b>%1</b><br>%2")
                .arg(QString::fromStdString(w).toHtmlEscaped(), summary_->text().toHtmlEscaped()));
}

void CompareWindow::syncRange(int from, qint64 start, qint64 end) {
    if (syncing_) return;
    syncing_ = true;
    const Time d = from == 0 ? shift_ : -shift_; // the other side's time for the same moment
    timelines_[1 - from]->setRange(start + d, end + d);
    syncing_ = false;
}

Time CompareWindow::endOf(int side) const {
    return sides_[side].live.now > 0 ? sides_[side].live.now : sides_[side].trace->endTime;
}

bool CompareWindow::alignTo(const std::string& key, std::string& error) {
    AlignPoint p;
    if (!findAlignment(*sides_[0].trace, *sides_[1].trace, key, p, error)) return false;
    for (size_t i = 0; i < points_.size(); ++i)
        if (points_[i].key == p.key) alignTo(int(i));
    return true;
}

void CompareWindow::alignTo(int point) {
    if (point >= int(points_.size())) return;
    const QSignalBlocker block(align_);
    align_->setCurrentIndex(point + 1);
    applied_ = point + 1;
    applyAlignment(point >= 0 ? &points_[size_t(point)] : nullptr);
}

// The event the user put marker A on in each timeline (key 1), whatever it is.
bool CompareWindow::alignAtMarkers() {
    const auto a = timelines_[0]->markerA(), b = timelines_[1]->markerA();
    const QSignalBlocker block(align_);
    if (!a || !b) {
        align_->setCurrentIndex(applied_); // what is still in force
        summary_->setText(
            tr("<b>Put marker A on the event in both timelines first</b>: hover it and press 1 (A) in each, "
               "then choose this again."));
        return false;
    }
    align_->setCurrentIndex(align_->count() - 1);
    applied_ = align_->count() - 1;
    const AlignPoint p{"markers", "marker A of each timeline", *a, *b};
    applyAlignment(&p);
    return true;
}

// Shift B so that the chosen event happens at the same place on both axes; the table is measured
// again over the part of A's window that B also covers.
void CompareWindow::applyAlignment(const AlignPoint* p) {
    shift_ = p ? p->shift() : 0;
    Time from = from_, to = to_;
    if (p) {
        from = std::max<Time>(from_, std::max<Time>(0, -shift_));
        to = std::min(endOf(0), endOf(1) - shift_);
    }
    cmp_ = compareRuns(*sides_[0].trace, *sides_[1].trace, from, std::max(to, from + 1), shift_);
    if (p) cmp_.alignedAt = p->label;
    fillTable();
    updateDistributions();
    const QString shifted =
        p ? tr("&nbsp;&nbsp;<i>shifted: B time = A time %1</i>").arg(signedShift(shift_)) : QString();
    titles_[1]->setText(QString("<b>B</b>&nbsp;&nbsp;%1%2").arg(sides_[1].label.toHtmlEscaped(), shifted));
    // Keep A's zoom, bring the event into view a tenth from the left, mark it in both.
    const Time span = timelines_[0]->axis().end - timelines_[0]->axis().start;
    const Time startA = p ? std::max<Time>(0, p->a - span / 10) : timelines_[0]->axis().start;
    timelines_[0]->setMarkerA(p ? std::optional<Time>(p->a) : std::nullopt);
    timelines_[1]->setMarkerA(p ? std::optional<Time>(p->b) : std::nullopt);
    timelines_[0]->setRange(startA, startA + span); // B follows through syncRange
    syncRange(0, startA, startA + span);
}

// Task ids match in both runs up to the branch; beyond it (tasks forked later) the comm decides.
void CompareWindow::syncSelection(int from, int task) {
    const Trace& src = *sides_[from].trace;
    const Trace& dst = *sides_[1 - from].trace;
    const TaskId other = counterpartTask(src, task, dst);
    timelines_[1 - from]->setSelectedTask(other);
    distributions_->setTask(from == 0 ? TaskId(task) : other); // A's task; B's is found by comm
    distributions_->refresh(*windowed_[0]);
}

// The distributions over the table's window: A's [from, to), B's shifted as the alignment says
// (a branch's shared prefix, or a trace's lead-in, would otherwise water the difference down).
void CompareWindow::updateDistributions() {
    if (!distributions_) return; // the table is filled before the tab exists
    windowed_[0] = std::make_shared<const Trace>(traceWindow(*sides_[0].trace, cmp_.from, cmp_.to));
    windowed_[1] = std::make_shared<const Trace>(
        traceWindow(*sides_[1].trace, cmp_.from + cmp_.shiftB, cmp_.to + cmp_.shiftB));
    distributions_->setOverlay(windowed_[1].get(), sides_[0].label, sides_[1].label);
    distributions_->refresh(*windowed_[0]);
}

void CompareWindow::showDistributions() {
    tabs_->setCurrentWidget(distributions_);
}

void CompareWindow::selectTask(TaskId a) {
    timelines_[0]->setSelectedTask(a);
    syncSelection(0, a);
}

QString CompareWindow::saveDistributionsPicture(const QString& path, int width, int height) const {
    view::ExportFormat fmt;
    if (!view::exportFormatFromPath(path, fmt))
        return tr("%1: unknown file type; use .png, .svg or .pdf").arg(path);
    QByteArray bytes;
    if (const QString err = view::renderPlot(distributions_->plot(), fmt, width, height, bytes);
        !err.isEmpty())
        return tr("%1: %2").arg(path, err);
    return saveFile(path, std::string_view(bytes.constData(), size_t(bytes.size())));
}

QString CompareWindow::saveTable(const QString& path) const {
    const std::string text =
        formatComparison(cmp_, sides_[0].label.toStdString(), sides_[1].label.toStdString());
    return saveFile(path, text);
}

void CompareWindow::setNote(const QString& text, const QString& details) {
    note_->setText(text);
    note_->setToolTip(details);
    note_->setVisible(!text.isEmpty());
}

QString CompareWindow::note() const {
    return note_->text();
}
