// SPDX-License-Identifier: GPL-3.0-or-later
// The SchedScope main window: the timeline and the EEVDF chart in the middle, panels in docks
// (parameters, inspector, metrics), a toolbar to drive the run. Each feature lives in its own
// widget; this class only wires them to the session. Its methods are in four files:
// main_window.cpp (set-up, actions, docks, following the run), main_window_export.cpp (pictures,
// metrics, trace files), main_window_windows.cpp (branches, traces, comparisons) and
// main_window_help.cpp (welcome, tour, About).
#pragma once

#include "app/gui/job_runner.h"

#include <QMainWindow>
#include <QPointer>
#include <QProgressDialog>
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class Session;
class CompareWindow;
class TraceWindow;
class ScenarioEditor;
class TourDialog;
class WelcomeDialog;
struct TraceImport;
namespace sched {
class Engine;
}
namespace view {
class TimelineView;
class EevdfChart;
class LatencyHistogram;
class ParamsPanel;
class InspectorPanel;
class VtimeLens;
class TreeLens;
class MetricsPanel;
class EventLogPanel;
} // namespace view

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(Session* session, QWidget* parent = nullptr);
    // remember: record it in the recent files and as the scenario to open at the next start.
    bool openScenario(const QString& nameOrPath, bool remember = true);
    // Whether the last session's window geometry was restored (else the window is sized to the screen).
    bool geometryRestored() const { return geometryRestored_; }
    view::TimelineView* timeline() const { return timeline_; }
    void selectTasksByComm(const QStringList& comms); // the first task of each comm
    void select(const std::vector<int>& tasks);
    void showDelayHistogram();
    void showVirtualTimeLens();
    void showTreeLens();
    void showCriticalPath(); // the selected task's wakeup chain back from now
    void showEventLog();
    void inspectAt(qint64 time, int cpu); // the inspector shows that earlier moment
    void setTaskLanes(bool on);
    // Exports the timeline's visible range; returns an error text, empty on success.
    // A PNG has pixelRatio device pixels per picture pixel; SVG and PDF the same layout in points.
    QString exportTimelineTo(const QString& path, int width = 0, int height = 0, int pixelRatio = 1);
    // The chart on show (EEVDF or delay histogram) as .png/.svg/.pdf; size 0 = as on screen.
    QString exportChartTo(const QString& path, int width = 0, int height = 0, int pixelRatio = 1);
    // Metrics as .csv or .json, written atomically; returns an error text, empty on success.
    QString exportMetricsTo(const QString& path);
    // The run so far as ftrace text (the kernel's layout) or, for a .dat path, trace-cmd's binary; written
    // atomically.
    QString exportFtraceTo(const QString& path);
    // A finished branch in a new comparison window (A: original continuation, B: changed).
    CompareWindow* openComparison(std::shared_ptr<sched::Engine> a, std::shared_ptr<sched::Engine> b,
                                  qint64 from, const QString& change);

    // A real trace (ftrace, trace-cmd report, perf script, trace.dat; compressed or not), imported
    // on a worker thread behind a progress dialog with Cancel, then shown in its own window.
    // then(window, error) follows when the import ends: the window, or null and why. A later
    // openTrace() supersedes one still importing (its result is dropped and then is not called).
    using TraceOpened = std::function<void(TraceWindow*, const QString& error)>;
    void openTrace(const QString& path, TraceOpened then = {});
    // The simulation's run so far (A) against a trace (B) over their common time span.
    CompareWindow* compareWithTrace(TraceWindow* trace);
    // A scenario derived from the trace, saved to path and opened here; false with *error set.
    bool simulateTrace(TraceWindow* trace, const QString& path, QString* error = nullptr);

    // Run ▸ Run to time: asks for a time with its unit, then runs or rewinds there.
    void runToDialog();
    // Help ▸ Welcome: the gallery (window-modal); opens what the user picks there.
    WelcomeDialog* showWelcome();
    // Help ▸ Tour: what a lane, a flag bit, the chart and the inspector mean, on this window's parts.
    TourDialog* showTour();
    void showAbout(); // version, kernel profiles, licence
    // File > New scenario / Edit scenario: the editor window, with a new scenario or the open one.
    ScenarioEditor* showEditor(bool fresh);
    // View > Text size / Presentation: every window's text at scale times the platform's.
    void setTextScale(double scale);
    // The docks arranged for a projector (presentation text) or back as they were.
    void setPresentationLayout(bool on);

  protected:
    void closeEvent(QCloseEvent*) override;

  protected:
    void changeEvent(QEvent* e) override; // a theme switch redraws the toolbar's icons

  private:
    bool geometryRestored_ = false;
    QAction* resetAct_ = nullptr;
    QAction* presentationAct_ = nullptr;
    QPointer<ScenarioEditor> editor_;
    std::array<QDockWidget*, 4> docks_{}; // parameters, inspector, metrics, event log
    bool presenting_ = false;
    QByteArray beforePresentation_; // saveState() before the presentation layout
    void buildActions();
    void buildDocks();    // main_window_layout.cpp
    void buildHelpMenu(); // main_window_help.cpp
    void onAdvanced();
    void onReloaded();
    void onBusy(bool busy);
    void refreshPanels(bool force);
    void updateRecentMenu();
    void openDialog();
    void openTraceDialog();
    void exportDialog();
    void branchDialog();
    void compareKernelDialog();
    TraceWindow* showTrace(const TraceImport& r, const QString& path);

    Session* session_;
    view::TimelineView* timeline_ = nullptr;
    view::EevdfChart* chart_ = nullptr;
    view::LatencyHistogram* histogram_ = nullptr;
    class QTabWidget* charts_ = nullptr;
    view::ParamsPanel* params_ = nullptr;
    view::InspectorPanel* inspector_ = nullptr;
    view::VtimeLens* vtime_ = nullptr;
    view::TreeLens* tree_ = nullptr;
    size_t histogramGroupsFor_ = size_t(-1); // the task count the histogram's groups were given for
    view::MetricsPanel* metrics_ = nullptr;
    view::EventLogPanel* eventLog_ = nullptr;
    class QTimer* logTimer_ = nullptr;
    QAction* playAct_ = nullptr;
    QAction* taskLanesAct_ = nullptr;
    QComboBox* speed_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QMenu* builtinMenu_ = nullptr;
    QLabel* status_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    qint64 lastPanelRefresh_ = 0;
    std::optional<qint64> inspectAt_;            // an earlier moment the inspector shows; none = the present
    std::pair<qint64, quint64> inspectedFrom_{}; // the run's (now, events) when the moment was chosen
    std::function<void()> defaultDockSizes_;
    QList<QPointer<CompareWindow>> comparisons_;
    QList<QPointer<TraceWindow>> traces_;
    JobRunner* imports_ = nullptr; // trace imports
    QPointer<QProgressDialog> importProgress_;
};
