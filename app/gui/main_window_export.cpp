// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's exports (main_window.h): the timeline and the chart as PNG, SVG or PDF, the
// metrics as CSV or JSON, the run as an ftrace text or trace.dat file, each through the one save
// helper.
#include "app/gui/main_window.h"

#include "metrics/export.h"

#include "app/common/trace_save.h"
#include "app/gui/save_file.h"
#include "app/gui/session.h"
#include "widgets/eevdf_chart.h"
#include "widgets/latency_histogram.h"
#include "widgets/plot_export.h"
#include "widgets/timeline_export.h"
#include "widgets/timeline_view.h"
#include "widgets/tree_lens.h"
#include "widgets/vtime_lens.h"
#include "widgets/widget_export.h"

#include <QFile>
#include <QFileDialog>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>

using namespace sched;

QString MainWindow::exportTimelineTo(const QString& path, int width, int height, int pixelRatio) {
    if (!session_->loaded()) return tr("no run loaded");
    view::ExportFormat fmt;
    if (!view::exportFormatFromPath(path, fmt))
        return tr("%1: unknown file type; use .png, .svg or .pdf").arg(path);
    const view::TimelineData d = timeline_->data();
    QByteArray bytes;
    const QString err = view::renderTimeline(
        fmt, d, timeline_->axis().start, timeline_->axis().end, width > 0 ? width : timeline_->width(),
        height > 0 ? height
                   : timeline_->layout().height(d.trace ? d.trace->cpus : 1,
                                                d.taskLanes ? int(d.trace->tasks.size()) : 0),
        palette(), timeline_->font(), bytes, pixelRatio);
    if (!err.isEmpty()) return tr("%1: %2").arg(path, err);
    return saveFile(path, std::string_view(bytes.constData(), size_t(bytes.size())));
}

QString MainWindow::exportChartTo(const QString& path, int width, int height, int pixelRatio) {
    if (!session_->loaded()) return tr("no run loaded");
    view::ExportFormat fmt;
    if (!view::exportFormatFromPath(path, fmt))
        return tr("%1: unknown file type; use .png, .svg or .pdf").arg(path);
    QByteArray bytes;
    // The lenses are painted, not plotted: the widget itself at the picture's size.
    if (QWidget* lens = charts_->currentWidget(); lens == vtime_ || lens == tree_) {
        const QString title =
            lens == vtime_ ? tr("SchedScope virtual-time lens") : tr("SchedScope tree lens");
        if (const QString err =
                view::renderWidget(fmt, *lens, QSize(width, height), title, bytes, pixelRatio);
            !err.isEmpty())
            return tr("%1: %2").arg(path, err);
        return saveFile(path, std::string_view(bytes.constData(), size_t(bytes.size())));
    }
    QCustomPlot* plot = charts_->currentWidget() == histogram_ ? histogram_->plot() : chart_->plot();
    if (const QString err = view::renderPlot(plot, fmt, width, height, bytes, pixelRatio); !err.isEmpty())
        return tr("%1: %2").arg(path, err);
    return saveFile(path, std::string_view(bytes.constData(), size_t(bytes.size())));
}

QString MainWindow::exportMetricsTo(const QString& path) {
    if (!session_->loaded() || session_->busy()) return tr("no run to export");
    const bool json = path.endsWith(".json", Qt::CaseInsensitive);
    if (!json && !path.endsWith(".csv", Qt::CaseInsensitive))
        return tr("%1: use a .csv or .json file name").arg(path);
    const Engine& e = session_->engine();
    const Trace soFar = e.traceSoFar(); // the running tasks counted up to now, as the panel does
    return saveFile(path, json ? metricsJson(soFar, e.now()) : metricsCsv(soFar, e.now()));
}

QString MainWindow::exportFtraceTo(const QString& path) {
    if (!session_->loaded() || session_->busy()) return tr("no run to export");
    FtraceExportOptions o;
    o.offset = 100 * kNsPerSec; // a machine up for 100 s, as ftrace prints timestamps
    if (const std::string why =
            saveTraceFile(session_->engine().trace(), QFile::encodeName(path).toStdString(), o);
        !why.empty())
        return tr("%1: cannot write (%2)").arg(path, QString::fromStdString(why));
    return {};
}

void MainWindow::exportDialog() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export timeline"), "timeline.png",
                                     tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty()) return;
    const QString err =
        exportTimelineTo(path, 0, 0, 2); // the view's layout in every format; a PNG at twice the pixels
    if (!err.isEmpty())
        QMessageBox::warning(this, tr("Export failed"), err);
    else
        statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
}
