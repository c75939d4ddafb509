// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's layout (main_window.h): the docks and the View menu that shows them, the theme and
// text size, and the presentation layout for a projector.
#include "app/gui/main_window.h"

#include "app/gui/critical_path_dialog.h"
#include "app/gui/session.h"
#include "widgets/timeline_view.h"

#include "app/gui/theme.h"
#include "widgets/event_log_panel.h"
#include "widgets/inspector_panel.h"
#include "widgets/metrics_panel.h"
#include "widgets/params_panel.h"

#include <QActionGroup>
#include <QDockWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QVBoxLayout>
#include <cmath>

using namespace sched;

void MainWindow::buildDocks() {
    auto dock = [this](QWidget* w, const QString& title, const char* name, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        addDockWidget(area, d);
        return d;
    };
    params_ = new view::ParamsPanel(this);
    inspector_ = new view::InspectorPanel(this);
    metrics_ = new view::MetricsPanel(this);
    eventLog_ = new view::EventLogPanel(this);
    QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
    // The parameters scroll rather than set the dock's minimum width: their form and feature list
    // are wider than a side column on a 1024 px screen or with presentation text.
    auto* paramsScroll = new QScrollArea(this);
    paramsScroll->setWidget(params_);
    paramsScroll->setWidgetResizable(true);
    paramsScroll->setFrameShape(QFrame::NoFrame);
    QDockWidget* pd = dock(paramsScroll, tr("Parameters"), "paramsDock", Qt::LeftDockWidgetArea);
    QDockWidget* id = dock(inspector_, tr("Inspector"), "inspectorDock", Qt::RightDockWidgetArea);
    QDockWidget* md = dock(metrics_, tr("Metrics"), "metricsDock", Qt::RightDockWidgetArea);
    // The log needs width for its lines: it sits under the charts, between the side columns.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    QDockWidget* ld = dock(eventLog_, tr("Event log"), "eventLogDock", Qt::BottomDockWidgetArea);
    // The timeline is what people come for: side panels start narrow, inspector and metrics share
    // one column.
    docks_ = {pd, id, md, ld};
    defaultDockSizes_ = [this, pd, id, md, ld] {
        // At 1400 px wide the parameters take 260 and the inspector 360; on a narrower screen both
        // shrink with the window (the parameters scroll), so the timeline keeps half of it or more.
        const int w = width();
        resizeDocks({pd, id}, {std::min(260, w * 21 / 100), std::min(360, w * 22 / 100)}, Qt::Horizontal);
        resizeDocks({id, md}, {420, 380}, Qt::Vertical);
        resizeDocks({ld}, {170}, Qt::Vertical);
    };
    for (QDockWidget* d : {pd, id, md, ld})
        viewMenu->addAction(d->toggleViewAction());
    viewMenu->addSeparator();
    viewMenu->addAction(tr("Critical &path of the selected task..."), this, &MainWindow::showCriticalPath)
        ->setToolTip(tr("What led to the selected task running now: when it ran, waited for a CPU, or slept "
                        "until another task woke it, back along the wakers"));
    viewMenu->addSeparator();
    QMenu* themeMenu = viewMenu->addMenu(tr("&Theme"));
    auto* themes = new QActionGroup(this);
    const QString current = QSettings().value("theme", "system").toString();
    for (Theme t : {Theme::System, Theme::Light, Theme::Dark}) {
        QAction* a = themeMenu->addAction(t == Theme::System  ? tr("Follow the &system")
                                          : t == Theme::Light ? tr("&Light")
                                                              : tr("&Dark"));
        a->setCheckable(true);
        a->setChecked(themeName(t) == current);
        themes->addAction(a);
        connect(a, &QAction::triggered, this, [t] {
            applyTheme(t);
            QSettings().setValue("theme", themeName(t));
        });
    }
    // Text size for every window: larger and smaller by steps, and the presentation size.
    QMenu* textMenu = viewMenu->addMenu(tr("Text &size"));
    textMenu->addAction(tr("&Larger text"), QKeySequence::ZoomIn, this,
                        [this] { setTextScale(textScale() * 1.15); });
    textMenu->addAction(tr("&Smaller text"), QKeySequence::ZoomOut, this,
                        [this] { setTextScale(textScale() / 1.15); });
    textMenu->addAction(tr("&Normal size"), QKeySequence(tr("Ctrl+0")), this, [this] { setTextScale(1.0); });
    presentationAct_ = viewMenu->addAction(tr("&Presentation (large text)"));
    presentationAct_->setShortcut(QKeySequence(tr("Ctrl+Shift+P")));
    presentationAct_->setCheckable(true);
    presentationAct_->setChecked(textScale() >= kPresentationScale);
    connect(presentationAct_, &QAction::triggered, this,
            [this](bool on) { setTextScale(on ? kPresentationScale : 1.0); });
    buildHelpMenu();
}

// Presentation: the timeline and the chart take the width; the parameters, the inspector and the
// metrics share one column as tabs (the inspector in front), the event log steps aside. Leaving it
// restores the docks as they were.
void MainWindow::setPresentationLayout(bool on) {
    if (on == presenting_) return;
    presenting_ = on;
    if (!on) {
        restoreState(beforePresentation_);
        return;
    }
    beforePresentation_ = saveState();
    auto [pd, id, md, ld] = docks_;
    for (QDockWidget* d : {pd, id, md}) {
        d->setFloating(false);
        d->show();
        addDockWidget(Qt::RightDockWidgetArea, d);
    }
    tabifyDockWidget(id, pd);
    tabifyDockWidget(id, md);
    id->raise();
    ld->hide();
    resizeDocks({id}, {width() * 30 / 100}, Qt::Horizontal);
}

void MainWindow::setTextScale(double scale) {
    const double set = applyTextScale(scale);
    QSettings().setValue("textScale", set);
    presentationAct_->setChecked(set >= kPresentationScale);
    setPresentationLayout(set >= kPresentationScale);
    statusBar()->showMessage(tr("Text at %1 %").arg(int(std::lround(set * 100))), 3000);
}

// The selected task's critical path back from the present (WakeupChains on the run so far, the
// running slices included), as the CLI's trace --critical-path prints it.
void MainWindow::showCriticalPath() {
    const std::vector<sched::TaskId> sel = timeline_->data().selection;
    if (!session_->loaded() || sel.empty()) {
        QMessageBox::information(this, tr("Critical path"),
                                 tr("Select a task first: click one of its slices in the timeline."));
        return;
    }
    const sched::Trace trace = session_->engine().traceSoFar();
    showCriticalPathDialog(this, criticalPathText(trace, sel[0], session_->engine().now()));
}
