// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's other windows (main_window.h): a branch and its comparison, imported traces (in
// the background, through the job runner), a trace compared with the simulation, and a scenario
// derived from a trace.
#include "app/gui/main_window.h"
#include "engine/kernel_diff.h"

#include "app/gui/branch_dialog.h"
#include "app/gui/compare_window.h"
#include "app/gui/session.h"
#include "app/gui/trace_window.h"
#include "widgets/latency_histogram.h"
#include "widgets/timeline_view.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QStatusBar>

using namespace sched;

void MainWindow::branchDialog() {
    if (!session_->loaded() || session_->busy()) return;
    const Engine& e = session_->engine();
    const Time remaining = session_->scenario().duration - e.now();
    if (remaining <= 0) {
        statusBar()->showMessage(tr("The scenario is over: step back to branch from an earlier moment."),
                                 6000);
        return;
    }
    BranchDialog d(e, remaining, this);
    if (d.exec() != QDialog::Accepted) return;
    const QString err = session_->branch(d.change(), d.span());
    if (!err.isEmpty()) QMessageBox::warning(this, tr("Cannot branch"), err);
}

// The scenario from 0 to now (or to its end, if nothing ran yet) under the kernel it has and one
// chosen here; the comparison lists the rules that differ above its table.
void MainWindow::compareKernelDialog() {
    if (!session_->loaded() || session_->busy()) return;
    const SchedConfig& c = session_->engine().config();
    QStringList names;
    for (const KernelSpec& k : kernelSpecs())
        if (&k != &kernelSpecOf(c.build, c.profile))
            names << QString::fromUtf8(k.name.data(), qsizetype(k.name.size()));
    bool ok = false;
    const QString spec =
        QInputDialog::getItem(this, tr("Compare with another kernel"),
                              tr("Run the scenario from the start under kernel %1 and under:")
                                  .arg(QString::fromUtf8(kernelSpecName(c.build, c.profile).data())),
                              names, 0, false, &ok);
    if (!ok) return;
    const Time now = session_->engine().now();
    const QString err = session_->compareKernel(spec, now > 0 ? now : session_->scenario().duration);
    if (!err.isEmpty()) QMessageBox::warning(this, tr("Cannot compare"), err);
}

CompareWindow* MainWindow::openComparison(std::shared_ptr<Engine> a, std::shared_ptr<Engine> b, qint64 from,
                                          const QString& change) {
    const auto side = [](const std::shared_ptr<Engine>& e, const QString& label) {
        view::LiveState live; // both runs are finished: nothing is still running
        live.now = e->now();
        live.hz = e->config().hz;
        return CompareWindow::Side{label, std::shared_ptr<const Trace>(e, &e->trace()), live};
    };
    const QString base =
        QString("preempt=%1").arg(QString::fromStdString(std::string(preemptModelName(a->config().preempt))));
    const KernelSpec& ka = kernelSpecOf(a->config().build, a->config().profile);
    const KernelSpec& kb = kernelSpecOf(b->config().build, b->config().profile);
    const QString labelA =
        &ka != &kb
            ? tr("kernel %1 (%2)").arg(QString::fromUtf8(ka.name.data(), qsizetype(ka.name.size())), base)
        : a->config().proxyExec != b->config().proxyExec
            ? tr("proxy execution %1 (%2)").arg(a->config().proxyExec ? tr("on") : tr("off"), base)
            : tr("original continuation (%1)").arg(base);
    auto* w = new CompareWindow(side(a, labelA), side(b, change), from, a->now(), nullptr);
    // Two kernels: the rules that separate them, above the table that shows their effect (each
    // rule's sentence in the tooltip); and why B runs another model, if it does.
    QString note = QString::fromStdString(summarizeKernelDiff(ka, kb));
    if (&ka != &kb && a->config().preempt != b->config().preempt)
        if (const std::string why = b->config().whyNoModel(a->config().preempt); !why.empty())
            note += tr(" B runs preempt=%1, its kernel's default: preempt=%2 is %3.")
                        .arg(QString::fromUtf8(preemptModelName(b->config().preempt).data()),
                             QString::fromUtf8(preemptModelName(a->config().preempt).data()),
                             QString::fromStdString(why));
    w->setNote(note, QString::fromStdString(describeKernelDiff(ka, kb)).trimmed());
    if (!timeline_->selectedTasks().empty()) w->selectTask(timeline_->selectedTasks().front());
    if (charts_->currentWidget() == histogram_) w->showDistributions(); // as the main window shows
    w->setGeometry(geometry());                                         // over the main window, as large
    w->show();
    comparisons_.push_back(w);
    connect(w, &QObject::destroyed, this, [this, w] { comparisons_.removeAll(w); });
    statusBar()->showMessage(tr("Branch ready: %1").arg(change), 6000);
    return w;
}

void MainWindow::openTrace(const QString& path, TraceOpened then) {
    if (importProgress_) importProgress_->deleteLater(); // a newer import supersedes it
    auto* dialog = new QProgressDialog(tr("Importing %1...").arg(QFileInfo(path).fileName()), tr("Cancel"), 0,
                                       1000, this);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->setMinimumDuration(300);
    importProgress_ = dialog;
    connect(dialog, &QProgressDialog::canceled, imports_, &JobRunner::cancel);
    const quint64 id =
        imports_->start<TraceImport>([path](JobControl& job) { return importTrace(path, job); },
                                     [this, path, dialog, then](TraceImport r) {
                                         dialog->reset();
                                         dialog->deleteLater();
                                         TraceWindow* w = r.trace ? showTrace(r, path) : nullptr;
                                         if (!w) statusBar()->showMessage(r.error, 8000);
                                         if (then) then(w, r.error);
                                     });
    connect(imports_, &JobRunner::progress, dialog, [dialog, id](quint64 job, int permille) {
        if (job == id) dialog->setValue(permille);
    });
}

TraceWindow* MainWindow::showTrace(const TraceImport& r, const QString& path) {
    auto* w = new TraceWindow(r.trace, r.report, path, nullptr);
    connect(w, &TraceWindow::compareRequested, this, [this](TraceWindow* t) { compareWithTrace(t); });
    connect(w, &TraceWindow::simulateRequested, this, [this](TraceWindow* t) {
        const QFileInfo in(t->path());
        const QString path = QFileDialog::getSaveFileName(
            t, tr("Save the derived scenario"),
            in.dir().filePath(in.fileName().section('.', 0, 0) + ".scenario.json"), tr("Scenario (*.json)"));
        if (!path.isEmpty()) simulateTrace(t, path);
    });
    w->show();
    traces_.push_back(w);
    connect(w, &QObject::destroyed, this, [this, w] { traces_.removeAll(w); });
    statusBar()->showMessage(
        tr("Imported %1: %2 events").arg(QFileInfo(path).fileName()).arg(r.report.events), 6000);
    return w;
}

CompareWindow* MainWindow::compareWithTrace(TraceWindow* t) {
    if (!t || !session_->loaded() || session_->busy()) {
        statusBar()->showMessage(tr("The simulation is busy; compare when it has stopped"), 6000);
        return nullptr;
    }
    const Engine& e = session_->engine();
    if (e.now() <= 0) {
        statusBar()->showMessage(tr("Run the simulation first: its run so far is compared with the trace"),
                                 6000);
        return nullptr;
    }
    view::LiveState simLive;
    simLive.now = e.now();
    simLive.hz = e.config().hz;
    view::LiveState traceLive;
    traceLive.now = t->trace().endTime;
    const QString simLabel =
        tr("simulation %1 (preempt=%2)")
            .arg(QString::fromStdString(session_->scenario().name),
                 QString::fromStdString(std::string(preemptModelName(e.config().preempt))));
    const Time to = std::min(e.now(), t->trace().endTime);
    auto* w = new CompareWindow(
        CompareWindow::Side{simLabel, std::make_shared<const Trace>(e.traceSoFar()), simLive},
        CompareWindow::Side{tr("trace %1").arg(QFileInfo(t->path()).fileName()), t->sharedTrace(), traceLive},
        0, to, nullptr);
    if (!timeline_->selectedTasks().empty()) w->selectTask(timeline_->selectedTasks().front());
    if (charts_->currentWidget() == histogram_) w->showDistributions(); // as the main window shows
    w->setGeometry(geometry());
    w->show();
    comparisons_.push_back(w);
    connect(w, &QObject::destroyed, this, [this, w] { comparisons_.removeAll(w); });
    return w;
}

bool MainWindow::simulateTrace(TraceWindow* t, const QString& path, QString* error) {
    QString summary;
    QString err = t->deriveScenarioTo(path, &summary);
    if (err.isEmpty() && !openScenario(path)) err = tr("The derived scenario %1 did not open").arg(path);
    if (error) *error = err;
    statusBar()->showMessage(err.isEmpty() ? tr("Derived %1 from %2: run it, then compare it with the trace")
                                                 .arg(summary, QFileInfo(t->path()).fileName())
                                           : err,
                             8000);
    return err.isEmpty();
}
