// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/main_window.h"

#include "app/gui/compare_window.h"
#include "app/gui/session.h"
#include "app/gui/theme.h"
#include "app/gui/trace_window.h"
#include "base/duration.h"
#include "scenarios/builtin_scenarios.h"
#include "scenarios/gallery.h"
#include "trace/trace_dat.h"
#include "widgets/eevdf_chart.h"
#include "widgets/event_log_panel.h"
#include "widgets/inspector_panel.h"
#include "widgets/latency_histogram.h"
#include "widgets/live_capture.h"
#include "widgets/metrics_panel.h"
#include "widgets/params_panel.h"
#include "widgets/timeline_view.h"
#include "widgets/tree_lens.h"
#include "widgets/vtime_lens.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>

using namespace sched;

MainWindow::MainWindow(Session* session, QWidget* parent) : QMainWindow(parent), session_(session) {
    imports_ = new JobRunner(this);
    connect(imports_, &JobRunner::failed, this, [this](quint64, const QString& what) {
        if (importProgress_) importProgress_->deleteLater();
        QMessageBox::warning(this, tr("Cannot open the trace"), tr("The import failed: %1").arg(what));
    });
    setWindowTitle(tr("SchedScope"));
    timeline_ = new view::TimelineView(this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(timeline_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    chart_ = new view::EevdfChart(this);
    histogram_ = new view::LatencyHistogram(this);
    charts_ = new QTabWidget(this);
    charts_->addTab(chart_, tr("EEVDF: vruntime, deadline, lag"));
    charts_->addTab(histogram_, tr("Distributions"));
    vtime_ = new view::VtimeLens(this);
    vtime_->setObjectName("vtimeLens");
    charts_->addTab(vtime_, tr("Virtual time"));
    tree_ = new view::TreeLens(this);
    tree_->setObjectName("treeLens");
    charts_->addTab(tree_, tr("Tree"));
    charts_->setTabToolTip(
        2, tr("The inspector's CPU on the axis of virtual time: V, each entity from vruntime to "
              "deadline, the eligible ones filled, and what pick_eevdf() would choose now"));
    charts_->setTabToolTip(3,
                           tr("The inspector's CPU's runqueue as the tree pick_eevdf() searches: ordered by "
                              "deadline, each subtree's min_vruntime and min_slice, the search's path"));
    connect(charts_, &QTabWidget::currentChanged, this, [this] { refreshPanels(true); });
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(scroll);
    split->addWidget(charts_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    setCentralWidget(split);
    status_ = new QLabel(this);
    statusBar()->addPermanentWidget(status_);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 100);
    progress_->setMaximumWidth(200);
    progress_->hide();
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->hide();
    connect(cancel_, &QPushButton::clicked, session_, &Session::cancel);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    buildActions();
    buildDocks();

    connect(session_, &Session::advanced, this, &MainWindow::onAdvanced);
    connect(session_, &Session::reloaded, this, &MainWindow::onReloaded);
    connect(session_, &Session::rewound, this, [this] { // drop what the views indexed
        eventLog_->clear();
        metrics_->clear();
        timeline_->clearRun();
        chart_->setTrace(nullptr);
    });
    connect(timeline_, &view::TimelineView::runToRequested, session_, &Session::runTo);
    connect(session_, &Session::busyChanged, this, &MainWindow::onBusy);
    connect(session_, &Session::progress, this, [this](int pct) {
        progress_->setValue(pct);
        timeline_->setFrozenNote(tr("Simulating in the background... %1%").arg(pct));
    });
    connect(session_, &Session::message, this,
            [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    connect(session_, &Session::playingChanged, this, [this](bool on) {
        playAct_->setText(on ? tr("Pause") : tr("Play"));
        playAct_->setIcon(paletteIcon(on ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay, *this));
    });
    connect(timeline_, &view::TimelineView::rangeChanged, chart_, &view::EevdfChart::setRange);
    // The log lists the visible range; a drag fires many range changes, the log follows once they settle.
    logTimer_ = new QTimer(this);
    logTimer_->setSingleShot(true);
    logTimer_->setInterval(60);
    connect(logTimer_, &QTimer::timeout, this, [this] {
        if (!session_->busy() && session_->loaded())
            eventLog_->refresh(timeline_->data(), timeline_->axis().start, timeline_->axis().end);
    });
    connect(timeline_, &view::TimelineView::rangeChanged, logTimer_, qOverload<>(&QTimer::start));
    connect(eventLog_, &view::EventLogPanel::taskSelected, this,
            [this](int t) { select(t >= 0 ? std::vector<TaskId>{t} : std::vector<TaskId>{}); });
    connect(eventLog_, &view::EventLogPanel::timeActivated, this,
            [this](qint64 t) { timeline_->centerOn(t); });
    connect(timeline_, &view::TimelineView::taskSelected, this,
            [this](int t) { select(t >= 0 ? std::vector<TaskId>{t} : std::vector<TaskId>{}); });
    connect(timeline_, &view::TimelineView::taskToggled, this, [this](int t) {
        std::vector<TaskId> sel = timeline_->selectedTasks();
        if (const auto it = std::find(sel.begin(), sel.end(), t); it != sel.end())
            sel.erase(it);
        else if (sel.size() < view::EevdfChart::kMaxTasks)
            sel.push_back(t);
        else
            statusBar()->showMessage(tr("The chart shows at most %1 tasks.").arg(view::EevdfChart::kMaxTasks),
                                     5000);
        select(sel);
    });
    connect(timeline_, &view::TimelineView::cursorMoved, this, [this](qint64, int cpu) {
        if (cpu >= 0) inspector_->setCpu(cpu);
    });
    connect(timeline_, &view::TimelineView::momentClicked, this, [this](qint64 t, int cpu) {
        inspectAt(t, cpu >= 0 ? cpu : inspector_->cpu()); // outside a lane: the CPU on show
    });
    connect(inspector_, &view::InspectorPanel::followPresent, this, [this] {
        inspectAt_.reset();
        refreshPanels(true);
    });
    connect(inspector_, &view::InspectorPanel::taskSelected, this, [this](int t) { select({t}); });
    connect(session_, &Session::branchReady, this, &MainWindow::openComparison);
    connect(params_, &view::ParamsPanel::changeRequested, session_,
            [this](const ParamChange& c) { session_->apply(c); });
    // A kernel or an architecture is chosen at boot: past the start, ask before restarting.
    const auto restartAllowed = [this](const QString& what) {
        if (session_->engine().now() == 0) return true;
        if (QMessageBox::question(this, tr("Restart with another %1?").arg(what),
                                  tr("The %1 is chosen at boot: the run restarts from 0, without the live "
                                     "changes made so far.")
                                      .arg(what)) == QMessageBox::Yes)
            return true;
        params_->sync(session_->engine()); // show the machine that still runs
        return false;
    };
    connect(params_, &view::ParamsPanel::kernelRequested, this, [this, restartAllowed](const QString& spec) {
        if (restartAllowed(tr("kernel"))) session_->restartWithKernel(spec);
    });
    connect(params_, &view::ParamsPanel::archRequested, this, [this, restartAllowed](const QString& name) {
        if (restartAllowed(tr("architecture"))) session_->restartWithArch(name);
    });

    QSettings settings;
    geometryRestored_ = restoreGeometry(settings.value("window/geometry").toByteArray());
    if (!restoreState(
            settings.value("window/state").toByteArray())) // first start: sizes once the window has its size
        QTimer::singleShot(0, this, [this] { defaultDockSizes_(); });
    updateRecentMenu();
}

void MainWindow::buildActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open scenario..."),
                    QKeySequence::Open, this, &MainWindow::openDialog);
    file->addAction(tr("Open from &gallery..."), QKeySequence(tr("Ctrl+Shift+O")), this,
                    &MainWindow::showWelcome);
    file->addAction(tr("&New scenario..."), QKeySequence::New, this, [this] { showEditor(true); });
    file->addAction(tr("&Edit scenario..."), QKeySequence(tr("Ctrl+Shift+E")), this,
                    [this] { showEditor(false); });
    // Every shipped scenario in the gallery's groups, its description in the tooltip.
    builtinMenu_ = file->addMenu(tr("Open &built-in"));
    builtinMenu_->setToolTipsVisible(true);
    for (const scen::GalleryGroup& g : scen::galleryGroups()) {
        QMenu* sub = builtinMenu_->addMenu(QString::fromStdString(g.title));
        sub->setToolTipsVisible(true);
        for (const std::string& n : g.names) {
            const QString name = QString::fromStdString(n);
            QAction* a = sub->addAction(name.section('/', -1), this, [this, name] { openScenario(name); });
            scen::Scenario s;
            scen::ScenarioError e;
            if (scen::loadScenario(n, s, e)) a->setToolTip(QString::fromStdString(s.description));
        }
    }
    recentMenu_ = file->addMenu(tr("Open &recent"));
    file->addSeparator();
    file->addAction(tr("Open &trace..."), QKeySequence(tr("Ctrl+T")), this, &MainWindow::openTraceDialog);
    file->addSeparator();
    file->addAction(tr("&Export timeline (PNG, SVG, PDF)..."), QKeySequence(tr("Ctrl+E")), this,
                    &MainWindow::exportDialog);
    file->addAction(tr("Export &chart (PNG, SVG, PDF)..."), this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Export chart"), "chart.png",
                                         tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
        if (path.isEmpty()) return;
        const QString err = exportChartTo(path, 0, 0, 2); // as on screen; a PNG at twice the pixels
        if (!err.isEmpty())
            QMessageBox::warning(this, tr("Export failed"), err);
        else
            statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
    });
    file->addAction(tr("Export &metrics (CSV, JSON)..."), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export metrics"), "metrics.csv",
                                                          tr("CSV table (*.csv);;JSON (*.json)"));
        if (path.isEmpty()) return;
        const QString err = exportMetricsTo(path);
        if (!err.isEmpty())
            QMessageBox::warning(this, tr("Export failed"), err);
        else
            statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
    });
    file->addSeparator();
    file->addAction(tr("Export run as kernel &trace (ftrace text, trace.dat)..."), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export the run as a kernel trace"), "run.trace",
            tr("ftrace text (*.trace *.txt);;trace-cmd binary (*.dat);;All files (*)"));
        if (path.isEmpty()) return;
        const QString err = exportFtraceTo(path);
        if (!err.isEmpty())
            QMessageBox::warning(this, tr("Export failed"), err);
        else if (isTraceDatPath(path.toStdString()))
            statusBar()->showMessage(
                tr("Exported %1 (trace.dat: trace-cmd report, KernelShark and File > Open trace read it)")
                    .arg(path),
                6000);
        else
            statusBar()->showMessage(
                tr("Exported %1 (ftrace text: Perfetto, trace viewers and File > Open trace read it)")
                    .arg(path),
                6000);
    });
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QToolBar* tb = addToolBar(tr("Run"));
    tb->setObjectName("runToolbar");
    playAct_ =
        tb->addAction(paletteIcon(QStyle::SP_MediaPlay, *this), tr("Play"), session_, &Session::togglePlay);
    playAct_->setShortcut(Qt::Key_Space);
    playAct_->setToolTip(tr("Play / pause (Space)"));
    // Words, not the media player's seek icons: ⏩ reads as "fast forward", not as one event.
    QAction* step = tb->addAction(tr("Step"), session_, &Session::stepEvent);
    step->setShortcut(Qt::Key_Period);
    step->setToolTip(tr("One scheduler event (.)"));
    QAction* tick = tb->addAction(tr("Next tick"), session_, &Session::stepTick);
    tick->setShortcut(Qt::Key_T);
    tick->setToolTip(tr("Run to the next tick (T)"));
    QAction* sw = tb->addAction(tr("Next switch"), session_, &Session::stepSwitch);
    sw->setShortcut(Qt::Key_N);
    sw->setToolTip(tr("Run to the next context switch (N)"));
    QAction* back = tb->addAction(tr("Step back"), session_, &Session::stepBackEvent);
    back->setShortcut(Qt::Key_Comma);
    back->setToolTip(tr("Back one scheduler event (,) - rewinds to a snapshot and replays"));
    QAction* backTick = tb->addAction(tr("Back 1 ms"), this, [this] { session_->stepBack(kNsPerMs); });
    backTick->setShortcut(QKeySequence(tr("Shift+T")));
    backTick->setToolTip(tr("Back one millisecond of simulated time (Shift+T); double-click the timeline to "
                            "run or rewind to a time"));
    resetAct_ = tb->addAction(paletteIcon(QStyle::SP_MediaSkipBackward, *this), tr("Reset"), session_,
                              &Session::reset);
    QAction* reset = resetAct_;
    reset->setShortcut(QKeySequence(tr("Ctrl+R")));
    QAction* branch = tb->addAction(tr("Branch here..."), this, &MainWindow::branchDialog);
    branch->setShortcut(Qt::Key_B);
    branch->setToolTip(
        tr("Continue from this moment twice - as it is and with one setting changed - and compare (B)"));
    // The same controls in a menu, where they can be found by name, and Run to time.
    QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
    runMenu->addActions({playAct_, step, tick, sw, back, backTick});
    QAction* runTo = runMenu->addAction(tr("Run to &time..."), this, &MainWindow::runToDialog);
    runTo->setShortcut(QKeySequence(tr("Ctrl+G")));
    runMenu->addAction(reset);
    tb->addSeparator();
    tb->addWidget(new QLabel(tr(" Speed "), this));
    speed_ = new QComboBox(this);
    const std::pair<const char*, double> speeds[] = {
        {"1 event / frame", -1}, {"10 us/s", 1e4}, {"100 us/s", 1e5},
        {"1 ms/s", 1e6},         {"10 ms/s", 1e7}, {"100 ms/s", 1e8},
        {"1 s/s", 1e9},          {"10 s/s", 1e10}, {"as fast as possible", 0}};
    for (const auto& [label, v] : speeds)
        speed_->addItem(tr(label), v);
    speed_->setCurrentIndex(4);
    speed_->setToolTip(tr("Simulated time per second of wall time"));
    connect(speed_, &QComboBox::currentIndexChanged, this,
            [this] { session_->setSpeed(speed_->currentData().toDouble()); });
    session_->setSpeed(speed_->currentData().toDouble());
    tb->addWidget(speed_);
    tb->addSeparator();
    QAction* fit = tb->addAction(tr("Zoom to fit"), timeline_, &view::TimelineView::zoomToFit);
    fit->setShortcut(Qt::Key_Home);
    QAction* follow = tb->addAction(tr("Follow"));
    follow->setCheckable(true);
    follow->setChecked(true);
    follow->setToolTip(tr("Keep the present in view while the run goes on"));
    connect(follow, &QAction::toggled, timeline_, &view::TimelineView::setFollow);
    connect(timeline_, &view::TimelineView::followChanged, follow, &QAction::setChecked);
    follow->setObjectName("followAction");
    taskLanesAct_ = tb->addAction(tr("Task lanes"));
    taskLanesAct_->setCheckable(true);
    taskLanesAct_->setToolTip(
        tr("A lane per task under the CPUs: running, runnable (waiting for a CPU), sleeping"));
    connect(taskLanesAct_, &QAction::toggled, timeline_, &view::TimelineView::setShowTaskLanes);
}

bool MainWindow::openScenario(const QString& nameOrPath, bool remember) {
    QString error;
    if (!session_->load(nameOrPath, &error)) {
        QMessageBox::warning(this, tr("Cannot open scenario"), error);
        return false;
    }
    if (!remember) return true;
    // A file is remembered by its absolute path (a relative one fails from another directory); a
    // built-in scenario by its name.
    const QFileInfo file(nameOrPath);
    const QString key = file.isFile() ? file.absoluteFilePath() : nameOrPath;
    QSettings settings;
    QStringList recent = settings.value("recentFiles").toStringList();
    recent.removeAll(key);
    recent.prepend(key);
    while (recent.size() > 10)
        recent.removeLast();
    settings.setValue("recentFiles", recent);
    settings.setValue("lastScenario", key);
    updateRecentMenu();
    return true;
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    for (const QString& r : QSettings().value("recentFiles").toStringList())
        recentMenu_->addAction(r, this, [this, r] { openScenario(r); });
    recentMenu_->setEnabled(!recentMenu_->isEmpty());
}

void MainWindow::openTraceDialog() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open a trace from a real machine"), QString(),
                                     tr("Traces (*.txt *.trace *.dat *.xz *.gz *.zst);;All files (*)"));
    if (path.isEmpty()) return;
    openTrace(path, [this](TraceWindow* w, const QString& err) {
        if (!w) QMessageBox::warning(this, tr("Cannot open the trace"), err);
    });
}

void MainWindow::openDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"), QString(),
                                                      tr("Scenarios (*.json);;All files (*)"));
    if (!path.isEmpty()) openScenario(path);
}

// Run (or rewind) to a time typed with its unit, as the CLI's --run-to takes it.
void MainWindow::runToDialog() {
    if (!session_->loaded() || session_->busy()) return;
    bool ok = false;
    const QString text = QInputDialog::getText(
        this, tr("Run to time"),
        tr("Simulated time to run or rewind to (e.g. 250ms, 1.5s; the scenario lasts %1):")
            .arg(QString::fromStdString(formatDuration(session_->scenario().duration))),
        QLineEdit::Normal, QString::fromStdString(formatDuration(session_->engine().now())), &ok);
    if (!ok) return;
    const auto t = parseDuration(text.trimmed().toStdString());
    if (!t || *t < 0 || *t > session_->scenario().duration) {
        QMessageBox::warning(
            this, tr("Run to time"),
            tr("'%1' is not a time within the scenario: write a number with a unit (ns, us, ms, "
               "s) up to %2")
                .arg(text, QString::fromStdString(formatDuration(session_->scenario().duration))));
        return;
    }
    session_->runTo(*t);
}

void MainWindow::onReloaded() {
    inspectAt_.reset();
    eventLog_->clear();
    metrics_->clear();
    const Engine& e = session_->engine();
    timeline_->clearRun();
    chart_->setTrace(nullptr);
    histogramGroupsFor_ = size_t(-1); // a new run: its own groups
    timeline_->setRun(&e.trace(), view::captureLive(e));
    timeline_->setRange(0, std::min<Time>(session_->scenario().duration, 100 * kNsPerMs));
    timeline_->setFollow(true);
    chart_->setTrace(&e.trace());
    // Start with the first task selected so that the chart shows something at once.
    const TaskId first = e.tasks().empty() ? kNoTask : TaskId(0);
    select(first >= 0 ? std::vector<TaskId>{first} : std::vector<TaskId>{});
    setWindowTitle(tr("SchedScope - %1").arg(QString::fromStdString(session_->scenario().name)));
    refreshPanels(true);
}

// A background run owns the engine: freeze every view that reads it, show progress and Cancel.
void MainWindow::changeEvent(QEvent* e) {
    QMainWindow::changeEvent(e);
    if ((e->type() == QEvent::PaletteChange || e->type() == QEvent::StyleChange) && playAct_ && resetAct_) {
        playAct_->setIcon(
            paletteIcon(session_->playing() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay, *this));
        resetAct_->setIcon(paletteIcon(QStyle::SP_MediaSkipBackward, *this));
    }
}

void MainWindow::onBusy(bool busy) {
    timeline_->setFrozen(busy);
    progress_->setValue(0);
    progress_->setVisible(busy);
    cancel_->setVisible(busy);
    for (QWidget* w :
         std::initializer_list<QWidget*>{params_, inspector_, metrics_, chart_, histogram_, eventLog_})
        w->setEnabled(!busy);
    if (busy) eventLog_->clear(); // it points into the trace the worker now grows
    if (!busy) {                  // what the views indexed may predate the run: start them afresh
        timeline_->clearRun();
        chart_->setTrace(nullptr);
    }
}

void MainWindow::onAdvanced() {
    if (session_->busy()) return;
    const Engine& e = session_->engine();
    // The run moved on (a step, play, a run to a time): the inspector follows the present again
    // instead of staying at an earlier moment clicked before, which looked frozen. A refused
    // change or a step with nothing left to do moves nothing, and the moment stays.
    if (inspectAt_ && inspectedFrom_ != std::pair<qint64, quint64>(e.now(), e.eventsProcessed()))
        inspectAt_.reset();
    timeline_->setRun(&e.trace(), view::captureLive(e));
    chart_->setTrace(&e.trace());
    refreshPanels(!session_->playing());
    status_->setText(tr("t = %1 ms   events %2   switches %3   preempt=%4")
                         .arg(double(e.now()) / 1e6, 0, 'f', 3)
                         .arg(e.eventsProcessed())
                         .arg(e.contextSwitches())
                         .arg(QString::fromStdString(std::string(preemptModelName(e.config().preempt)))));
}

// Tables are cheap but not free: while playing they refresh a few times a second.
void MainWindow::refreshPanels(bool force) {
    if (session_->busy()) return;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (!force && now - lastPanelRefresh_ < 300) return;
    lastPanelRefresh_ = now;
    const Engine& e = session_->engine();
    params_->sync(e);
    // The tree lens copies the runqueue's tree: only while its tab is shown.
    const bool treeShown = charts_->currentWidget() == tree_;
    // The inspector shows an inspected earlier moment (replayed from a snapshot) or the present.
    if (inspectAt_ && *inspectAt_ < e.now()) {
        if (const auto past = session_->stateAt(*inspectAt_)) {
            inspector_->refresh(*past, true);
            vtime_->refresh(*past, inspector_->cpu(), true);
            if (treeShown) tree_->refresh(*past, inspector_->cpu(), true);
        } else {
            inspector_->refresh(e);
            vtime_->refresh(e, inspector_->cpu());
            if (treeShown) tree_->refresh(e, inspector_->cpu());
        }
    } else {
        inspector_->refresh(e);
        vtime_->refresh(e, inspector_->cpu());
        if (treeShown) tree_->refresh(e, inspector_->cpu());
    }
    metrics_->refresh(e.trace(), view::runningSlices(e), e.now());
    eventLog_->refresh(timeline_->data(), timeline_->axis().start, timeline_->axis().end);
    if (histogramGroupsFor_ != e.tasks().size()) { // the "task group" scope: each task's cgroup or autogroup
        histogramGroupsFor_ = e.tasks().size();
        std::vector<std::string> groupOf(e.tasks().size());
        for (size_t t = 0; t < groupOf.size(); ++t)
            if (const int32_t g = e.tasks()[t].taskGroup; g >= 0 && size_t(g) < e.groups().size())
                groupOf[t] = e.groups()[size_t(g)].name;
        histogram_->setTaskGroups(std::move(groupOf));
    }
    histogram_->refresh(e.trace());
}

// One selection for every view: the timeline highlights all selected tasks, the chart draws them
// all (the first is the primary one), the histogram and inspector follow the primary one.
void MainWindow::select(const std::vector<TaskId>& tasks) {
    timeline_->setSelectedTasks(tasks);
    chart_->setTasks(tasks);
    histogram_->setTask(tasks.empty() ? kNoTask : tasks.front());
    refreshPanels(true);
}

void MainWindow::selectTasksByComm(const QStringList& comms) {
    const auto& tasks = session_->engine().tasks();
    std::vector<TaskId> sel;
    for (const QString& comm : comms)
        for (TaskId t = 0; t < TaskId(tasks.size()); ++t)
            if (QString::fromStdString(tasks[size_t(t)].comm) == comm) {
                sel.push_back(t);
                break;
            }
    select(sel);
}

void MainWindow::setTaskLanes(bool on) {
    taskLanesAct_->setChecked(on);
}

void MainWindow::inspectAt(qint64 time, int cpu) {
    inspector_->setCpu(cpu);
    inspectAt_ = time;
    if (session_->loaded() && !session_->busy())
        inspectedFrom_ = {session_->engine().now(), quint64(session_->engine().eventsProcessed())};
    refreshPanels(true);
}

void MainWindow::showEventLog() {
    if (auto* d = findChild<QDockWidget*>("eventLogDock")) {
        d->show();
        d->raise();
    }
}

void MainWindow::showDelayHistogram() {
    charts_->setCurrentWidget(histogram_);
    for (const QPointer<CompareWindow>& w : comparisons_) // and the comparisons' distributions
        if (w) w->showDistributions();
}

void MainWindow::showVirtualTimeLens() {
    charts_->setCurrentWidget(vtime_);
}

void MainWindow::showTreeLens() {
    charts_->setCurrentWidget(tree_);
}

void MainWindow::closeEvent(QCloseEvent* ev) {
    for (const QPointer<CompareWindow>& w : comparisons_)
        if (w) w->close();
    for (const QPointer<TraceWindow>& w : traces_)
        if (w) w->close();
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    // The presentation layout is for the room: the next start gets the user's own.
    settings.setValue("window/state", presenting_ ? beforePresentation_ : saveState());
    ev->accept();
}
