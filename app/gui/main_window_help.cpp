// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's Help (main_window.h): the welcome screen with its gallery, the tour on the window's
// own parts, About; and the scenario editor, the other way in for a newcomer.
#include "app/gui/main_window.h"

#include "app/gui/scenario_editor.h"
#include "app/gui/session.h"
#include "app/gui/tour_dialog.h"
#include "app/gui/welcome_dialog.h"
#include "engine/kernel_rules.h"
#include "scenarios/builtin_scenarios.h"
#include "widgets/eevdf_chart.h"
#include "widgets/inspector_panel.h"
#include "widgets/params_panel.h"
#include "widgets/timeline_view.h"

#include <QApplication>
#include <QCoreApplication>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

using namespace sched;

// The Compare and Help menus, after View (buildDocks()).
void MainWindow::buildHelpMenu() {
    // Comparisons: a branch at this moment, or the whole scenario under another kernel.
    QMenu* compareMenu = menuBar()->addMenu(tr("&Compare"));
    compareMenu->addAction(tr("&Branch here..."), this, &MainWindow::branchDialog);
    compareMenu->addAction(tr("With another &kernel..."), this, &MainWindow::compareKernelDialog);
    compareMenu
        ->addAction(tr("With &proxy execution switched"), this,
                    [this] {
                        if (!session_->loaded() || session_->busy()) return;
                        const Time now = session_->engine().now();
                        const QString err =
                            session_->compareProxyExec(now > 0 ? now : session_->scenario().duration);
                        if (!err.isEmpty()) QMessageBox::warning(this, tr("Cannot compare"), err);
                    })
        ->setToolTip(
            tr("Run the scenario from the start again with proxy execution (CONFIG_SCHED_PROXY_EXEC: a "
               "mutex waiter lends its slice to the owner) on if it is off, off if it is on"));
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Welcome and gallery..."), this, &MainWindow::showWelcome);
    help->addAction(tr("&Tour..."), this, &MainWindow::showTour);
    help->addAction(tr("&Keys"), this, [this] {
        QMessageBox::information(
            this, tr("Keys"),
            tr("Space play/pause   . one event   , back one event   T next tick   Shift+T back 1 ms   B "
               "branch here\n"
               "N next switch   Ctrl+G run to a time   Ctrl+R reset   double-click the timeline: run or "
               "rewind to "
               "that time\n"
               "Timeline: wheel zoom at the cursor, drag to pan, Shift+drag to zoom into a range,\n"
               "W/S or Up/Down zoom, A/D or Left/Right pan, Home fit, 1/2 set markers A/B,\n"
               "click a slice to select its task."));
    });
    help->addSeparator();
    help->addAction(tr("&About SchedScope"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::showAbout() {
    QStringList kernels;
    for (const KernelSpec& k : kernelSpecs())
        kernels << QString::fromUtf8(k.name.data(), qsizetype(k.name.size()));
    QMessageBox::about(
        this, tr("About SchedScope"),
        tr("<h3>SchedScope %1</h3>"
           "<p>A laboratory for the Linux CPU scheduler: a deterministic simulator of EEVDF, the "
           "preemption models and the need-resched bits, with the workloads of the kernel "
           "discussions it grew from and real machines' traces beside it.</p>"
           "<p>Kernel profiles: %2 (<tt>schedscope-cli kernels</tt> lists each one's rules and "
           "commits).</p>"
           "<p>Licence: GNU General Public License, version 3 or later. Running on Qt %3, built with "
           "QCustomPlot (GPL-3.0). There is no warranty.</p>")
            .arg(QCoreApplication::applicationVersion(), kernels.join(", "),
                 QString::fromLatin1(qVersion())));
}

WelcomeDialog* MainWindow::showWelcome() {
    auto* d = new WelcomeDialog(QSettings().value("recentFiles").toStringList(), this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    connect(d, &QDialog::accepted, this, [this, d] {
        switch (d->choice()) {
        case WelcomeDialog::Choice::Scenario:
            openScenario(d->chosenScenario());
            break;
        case WelcomeDialog::Choice::ScenarioFile:
            openDialog();
            break;
        case WelcomeDialog::Choice::Trace:
            openTraceDialog();
            break;
        case WelcomeDialog::Choice::None:
            break;
        }
    });
    d->open();
    return d;
}

TourDialog* MainWindow::showTour() {
    std::vector<TourPage> pages{
        {tr("A lane is a CPU"),
         tr("<p>Each lane of the timeline is one CPU. A coloured block is a <b>slice</b>: one task running "
            "from its switch-in to its switch-out, in the task's colour; an empty stretch is the CPU idle. "
            "Zoomed in, blue triangles on a lane's top edge are wakeups landing on that CPU and grey "
            "marks show the ticks; orange diamonds on its bottom edge are tasks migrating onto it.</p>"
            "<p>Click a block to select its task (the chart and the inspector follow it), Ctrl+click to add "
            "one; the wheel zooms at the cursor, a drag pans.</p>"),
         timeline_->grab()},
        {tr("The need-resched bits"),
         tr("<p>Under each lane, the thin <b>resched</b> row shows when the kernel asked the running task to "
            "give up the CPU. Its lower half is red while <tt>TIF_NEED_RESCHED</tt> is set: the task is "
            "preempted at the next preemption point the model allows. Its upper half is amber while "
            "<tt>TIF_NEED_RESCHED_LAZY</tt> is set (the lazy model, and the PREEMPT_AUTO build's none and "
            "voluntary): the task may run on until it returns to user mode or a tick promotes the bit "
            "to the eager one (a bit set by a tick waits for the next).</p><p>A bar ends where "
            "<tt>schedule()</tt> cleared the bit (or an RSEQ slice extension was granted), so its length "
            "is how long the preemption model let the task keep the CPU; under <tt>preempt=none</tt> a "
            "long bar is a task in the kernel without a <tt>cond_resched()</tt> point. The event log "
            "says who set each bit and why.</p>"),
         timeline_->grab(QRect(0, 0, timeline_->width(), // the ruler, CPU 0's lane and its resched row
                               timeline_->layout().laneTop(0) + timeline_->layout().lane +
                                   timeline_->layout().flagLane + 2))},
        {tr("The EEVDF chart"),
         tr("<p>For the selected tasks: <b>vruntime</b> (solid) and <b>deadline</b> (dashed) against time, "
            "and <b>V</b>, the runqueue's weighted average vruntime (<tt>avg_vruntime()</tt>). Below, each "
            "task's <b>lag</b> V &minus; v: a task with lag &ge; 0 has had no more than its share and is "
            "<i>eligible</i>; EEVDF runs the eligible task with the earliest deadline "
            "(<tt>pick_eevdf()</tt>). A task's deadline is set when its request begins: its vruntime "
            "then plus its slice &times; 1024 / its weight, so a shorter slice or a higher weight (a "
            "lower nice) gets an earlier deadline.</p>"),
         chart_->grab()},
        {tr("The inspector"),
         tr("<p>The inspector says in words why the running task runs and what the next pick would be: "
            "each task's vruntime and deadline relative to V, whether it is eligible, which bits are set "
            "and what the preemption model will do with them. Click a moment on the timeline to inspect "
            "that earlier state; <b>Now</b> returns to the present.</p>"),
         inspector_->grab()},
        {tr("Drive the run, change the kernel"),
         tr("<p><b>Play</b> runs at the chosen speed, <b>Step</b> is one scheduler event, <b>Next tick</b> "
            "and <b>Next switch</b> jump ahead, <b>Step back</b> rewinds. In <b>Parameters</b> change the "
            "preemption model, the base slice or a scheduler feature while it runs, as writing "
            "<tt>/sys/kernel/debug/sched/</tt> would, or a task's slice or nice, as "
            "<tt>sched_setattr()</tt> would, and even HZ, a kernel build option the laboratory changes on "
            "the fly; another kernel version restarts the run.</p>"
            "<p><b>Compare &gt; Branch here</b> runs the future twice, as it is and with a change, side by "
            "side; <b>With another kernel</b> runs the scenario under another kernel profile. The Metrics "
            "panel prints what <tt>perf sched latency</tt> would.</p>"),
         params_->grab()},
    };
    auto* d = new TourDialog(pages, this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->open();
    return d;
}

ScenarioEditor* MainWindow::showEditor(bool fresh) {
    if (!editor_) {
        editor_ = new ScenarioEditor(this);
        editor_->setAttribute(Qt::WA_DeleteOnClose);
        connect(editor_, &ScenarioEditor::runRequested, this, [this](const QString& path) {
            if (openScenario(path)) raise();
        });
    }
    if (editor_->isWindowModified() && !editor_->maybeSave()) { // its unsaved work comes first
        editor_->show();
        editor_->raise();
        return editor_;
    }
    if (fresh) {
        editor_->newScenario();
    } else if (session_->loaded()) {
        // The open scenario's own text: its file, or the built-in one (saved elsewhere).
        // "name@key=value,...": the text is the scenario's own, without the settings.
        QString src = session_->source();
        QString settings;
        if (const qsizetype at = src.lastIndexOf('@'); at > 0 && !QFileInfo(src).isFile()) {
            settings = src.mid(at + 1);
            src.truncate(at);
        }
        bool loaded = false;
        QString err;
        if (QFileInfo(src).isFile()) loaded = editor_->openFile(src, &err);
        for (const auto* list : {&scen::builtinScenarios(), &scen::libraryScenarios()})
            for (const auto& b : *list)
                if (!loaded && src == QString::fromUtf8(b.name) && !src.startsWith("experiments/"))
                    loaded = editor_->loadText(b.text, QString());
        if (!loaded) editor_->newScenario();
        if (loaded && !settings.isEmpty())
            editor_->setNote(tr("This is %1 as written; the open run has %2 on top of it (set in the "
                                "main window, not in this file).")
                                 .arg(src, settings));
        if (!loaded)
            editor_->setNote(
                err.isEmpty() ? tr("%1 cannot be edited as a scenario: a new one is open instead.").arg(src)
                              : err);
    }
    editor_->show();
    editor_->raise();
    return editor_;
}
