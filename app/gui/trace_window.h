// SPDX-License-Identifier: GPL-3.0-or-later
// A real trace in its own window: the import report (lines, events, and the gaps it closed), the
// per-CPU timeline (the same view as a simulation's), and the perf sched latency table of its
// tasks, sortable. "Compare with the simulation" asks the main window for an A/B window;
// "Simulate this workload" derives a scenario from the trace for the main window to run.
#pragma once

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
    TraceWindow(std::shared_ptr<const sched::Trace> trace, const sched::ImportReport& report, const QString& path, QWidget* parent = nullptr);
    const sched::Trace& trace() const { return *trace_; }
    std::shared_ptr<const sched::Trace> sharedTrace() const { return trace_; }
    QString path() const { return path_; }
    view::TimelineView* timeline() const { return timeline_; }
    QTableWidget* table() const { return table_; }
    // The workload (the marker's root and its descendants, else every task) as a derived scenario
    // on the traced machine's CPUs, written atomically; returns an error text, empty on success.
    QString deriveScenarioTo(const QString& path, QString* summary = nullptr) const;

signals:
    void compareRequested(TraceWindow* self);
    void simulateRequested(TraceWindow* self);

private:
    std::shared_ptr<const sched::Trace> trace_;
    QString path_;
    view::TimelineView* timeline_ = nullptr;
    QTableWidget* table_ = nullptr;
};

// Imports a trace file on a worker thread behind a progress dialog with Cancel (the window stays
// responsive). Returns the trace, or null with *error set (cancelled, unreadable, no events).
std::shared_ptr<sched::Trace> importTraceWithProgress(const QString& path, QWidget* parent, sched::ImportReport* report, QString* error);
