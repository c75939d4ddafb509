// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/trace_window.h"

#include "app/gui/critical_path_dialog.h"
#include "app/gui/save_file.h"
#include "app/gui/window_size.h"
#include "metrics/latency.h"
#include "scenarios/derive.h"
#include "trace/file.h"
#include "widgets/data_table.h"
#include "widgets/timeline_view.h"

#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <new>

using namespace sched;

namespace {
// A number cell that sorts by value.
class NumberItem : public QTableWidgetItem {
  public:
    NumberItem(double v, const QString& text) : QTableWidgetItem(text), v_(v) {
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem& o) const override {
        const auto* n = dynamic_cast<const NumberItem*>(&o);
        return n ? v_ < n->v_ : QTableWidgetItem::operator<(o);
    }

  private:
    double v_;
};
QString ms(Time t) {
    return QString::number(double(t) / 1e6, 'f', 3);
}
} // namespace

TraceWindow::TraceWindow(std::shared_ptr<const Trace> trace, const ImportReport& report, const QString& path,
                         QWidget* parent)
    : QWidget(parent, Qt::Window), trace_(std::move(trace)), path_(path) {
    setWindowTitle(tr("SchedScope - trace %1").arg(QFileInfo(path).fileName()));
    setAttribute(Qt::WA_DeleteOnClose);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    auto* head = new QHBoxLayout;
    auto* summary = new QLabel(
        QString::fromStdString(report.summary()).trimmed().toHtmlEscaped().replace("\n", "<br>"), this);
    summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary->setWordWrap(true);
    head->addWidget(summary, 1);
    auto* compare = new QPushButton(tr("Compare with the simulation..."), this);
    compare->setToolTip(tr("The simulation's run so far (A) and this trace (B) on one time axis, with the "
                           "metrics per task group"));
    connect(compare, &QPushButton::clicked, this, [this] { emit compareRequested(this); });
    auto* simulate = new QPushButton(tr("Simulate this workload..."), this);
    simulate->setToolTip(tr(
        "Derive a scenario from this trace (each task's bursts and sleeps as measured, start, policy, nice), "
        "save it and run it in the simulator on the traced machine's CPUs: then change the model or a "
        "slice"));
    connect(simulate, &QPushButton::clicked, this, [this] { emit simulateRequested(this); });
    auto* critical = new QPushButton(tr("Critical path..."), this);
    critical->setObjectName("criticalPath");
    critical->setToolTip(
        tr("The selected task's runs, waits for a CPU and sleeps with who woke it, back from the "
           "end of the visible range"));
    connect(critical, &QPushButton::clicked, this, [this] {
        const QString text = criticalPathText();
        if (text.isEmpty())
            QMessageBox::information(this, tr("Critical path"),
                                     tr("Select a task first: click one of its slices in the timeline."));
        else
            showCriticalPathDialog(this, text);
    });
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(compare);
    buttons->addWidget(simulate);
    buttons->addWidget(critical);
    buttons->addStretch(1);
    head->addLayout(buttons);
    lay->addLayout(head);

    auto* split = new QSplitter(Qt::Vertical, this);
    timeline_ = new view::TimelineView(split);
    timeline_->setFollow(false);
    view::LiveState live; // a recording: nothing still runs, HZ unknown
    live.now = trace_->endTime;
    timeline_->setRun(trace_.get(), live);
    timeline_->setRange(0, std::max<Time>(trace_->endTime, 1));
    split->addWidget(timeline_);

    // perf sched latency of every task, merged by comm as perf does.
    table_ = new QTableWidget(split);
    const QStringList cols{tr("Task"),         tr("Runtime ms"),   tr("Switches"),
                           tr("Avg delay ms"), tr("Max delay ms"), tr("Sum delay ms")};
    view::setUpDataTable(table_, cols, {});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    const auto rows = perfSchedLatency(*trace_);
    table_->setRowCount(int(rows.size()));
    for (int r = 0; r < int(rows.size()); ++r) {
        const LatencyRow& row = rows[size_t(r)];
        const QString name = row.merged > 1
                                 ? QString("%1:(%2)").arg(QString::fromStdString(row.comm)).arg(row.merged)
                                 : QString("%1:%2").arg(QString::fromStdString(row.comm)).arg(row.pid);
        table_->setItem(r, 0, new QTableWidgetItem(name));
        table_->setItem(r, 1, new NumberItem(double(row.runtime), ms(row.runtime)));
        table_->setItem(r, 2, new NumberItem(double(row.count), QString::number(row.count)));
        table_->setItem(r, 3, new NumberItem(double(row.avgDelay()), ms(row.avgDelay())));
        table_->setItem(r, 4, new NumberItem(double(row.maxDelay), ms(row.maxDelay)));
        table_->setItem(r, 5, new NumberItem(double(row.totalDelay), ms(row.totalDelay)));
    }
    table_->setSortingEnabled(true);
    table_->sortByColumn(1, Qt::DescendingOrder);
    table_->horizontalHeader()->setStretchLastSection(false);
    table_->horizontalHeader()->setSectionResizeMode(
        0, QHeaderView::Stretch); // the task names take what is left
    table_->resizeColumnsToContents();
    split->addWidget(table_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    lay->addWidget(split, 1);
    fitToScreen(*this, {1300, 850});
}

QString TraceWindow::deriveScenarioTo(const QString& path, QString* summary) const {
    scen::DeriveOptions o;
    o.rootPid = scen::workloadRootFromMarkers(*trace_);
    o.source = QFileInfo(path_).fileName().toStdString();
    scen::DeriveSummary sum;
    const std::string json = scen::deriveScenarioJson(*trace_, o, &sum);
    if (json.empty())
        return o.rootPid > 0
                   ? tr("No task of pid %1 and its descendants ran in this trace: nothing to derive.")
                         .arg(o.rootPid)
                   : tr("No task ran in this trace: nothing to derive.");
    if (QString err = saveFile(path, json); !err.isEmpty()) return err;
    if (summary)
        *summary = tr("%1 tasks in %2 entries%3")
                       .arg(sum.tasks)
                       .arg(sum.entries)
                       .arg(o.rootPid > 0 ? tr(" (pid %1 and its descendants)").arg(o.rootPid) : QString());
    return {};
}

QString TraceWindow::criticalPathText() const {
    const std::vector<sched::TaskId>& sel = timeline_->selectedTasks();
    if (sel.empty() || sel[0] < 0 || size_t(sel[0]) >= trace_->tasks.size()) return {};
    return ::criticalPathText(*trace_, sel[0], std::min(timeline_->axis().end, trace_->endTime));
}

TraceImport importTrace(const QString& path, JobControl& job) {
    TraceImport r;
    std::string err;
    bool ok = false;
    try {
        r.trace = std::make_shared<Trace>();
        // Compressed input reports the bytes of text read: measure them against the file size x 10.
        const bool plain = !path.endsWith(".xz") && !path.endsWith(".gz") && !path.endsWith(".zst") &&
                           !path.endsWith(".dat");
        const double total =
            double(std::max<int64_t>(1, plain ? QFileInfo(path).size() : QFileInfo(path).size() * 10));
        ok = loadTrace(QFile::encodeName(path).toStdString(), *r.trace, r.report, err,
                       [&](int64_t done, int64_t) {
                           job.setProgress(std::min(999, int(1000.0 * double(done) / total)));
                           return !job.cancelled();
                       });
    } catch (const std::bad_alloc&) {
        err = QFile::encodeName(path).toStdString() + ": out of memory while importing";
    }
    if (!ok) {
        r.trace.reset();
        r.error = QString::fromStdString(err);
    }
    return r;
}
