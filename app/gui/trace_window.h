// SPDX-License-Identifier: GPL-3.0-or-later
// A real trace in its own window: the import report (lines, events, and the gaps it closed), the
// per-CPU timeline (the same view as a simulation's), and the perf sched latency table of its
// tasks, sortable. "Compare with the simulation" asks the main window for an A/B window;
// "Simulate this workload" derives a scenario from the trace for the main window to run.
#pragma once

#include "app/gui/job_runner.h"
#include "trace/import.h"

#include <QWidget>
#include <memory>

class QTableWidget;
namespace view {
class TimelineView;
}

class TraceWindow : public QWidget {
    Q_OBJECT
  public:
    TraceWindow(std::shared_ptr<const sched::Trace> trace, const sched::ImportReport& report,
                const QString& path, QWidget* parent = nullptr);
    const sched::Trace& trace() const { return *trace_; }
    std::shared_ptr<const sched::Trace> sharedTrace() const { return trace_; }
    QString path() const { return path_; }
    view::TimelineView* timeline() const { return timeline_; }
    QTableWidget* table() const { return table_; }
    // The workload (the marker's root and its descendants, else every task) as a derived scenario
    // on the traced machine's CPUs, written atomically; returns an error text, empty on success.
    QString deriveScenarioTo(const QString& path, QString* summary = nullptr) const;
    // The selected task's critical path back from the end of the visible range (empty: none
    // selected), as the Critical path button shows it.
    QString criticalPathText() const;

  signals:
    void compareRequested(TraceWindow* self);
    void simulateRequested(TraceWindow* self);

  private:
    std::shared_ptr<const sched::Trace> trace_;
    QString path_;
    view::TimelineView* timeline_ = nullptr;
    QTableWidget* table_ = nullptr;
};

// What a trace import delivers: the trace and its report, or null and the error (cancelled,
// unreadable, no events).
struct TraceImport {
    std::shared_ptr<sched::Trace> trace;
    sched::ImportReport report;
    QString error;
};
// Imports path; a job for a JobRunner (it reads the file on the worker thread, reports progress
// and stops when cancelled).
TraceImport importTrace(const QString& path, JobControl& job);
