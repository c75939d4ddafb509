// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/image/run_images.h"

#include "app/common/atomic_file.h"

#include "widgets/eevdf_chart.h"
#include "widgets/latency_histogram.h"
#include "widgets/live_capture.h"
#include "widgets/plot_export.h"
#include "widgets/plot_style.h"
#include "widgets/timeline_export.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QFont>
#include <QPalette>

namespace {
// Qt's platform start-up warns when XDG_RUNTIME_DIR is unset (a CI job, a cron job, sudo), about
// a directory the export never uses: that one line is not the user's business. Every other
// message goes where it would have gone.
QtMessageHandler gPrevious = nullptr;
void quietRuntimeDir(QtMsgType type, const QMessageLogContext& ctx, const QString& msg) {
    if (type == QtWarningMsg && msg.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set")))
        return;
    gPrevious(type, ctx, msg);
}

// The bytes to path, atomically; false with the message on err.
bool save(const std::string& path, const QByteArray& bytes, std::ostream& err) {
    if (std::string why;
        !saveTextAtomically(path, std::string_view(bytes.constData(), size_t(bytes.size())), &why)) {
        err << "schedscope-cli: cannot write " << path << ": " << why << " (nothing was changed)\n";
        return false;
    }
    return true;
}

view::ExportFormat formatOf(const std::string& path) {
    view::ExportFormat fmt = view::ExportFormat::Png; // the option's parser checked the name
    view::exportFormatFromPath(QString::fromStdString(path), fmt);
    return fmt;
}

// The tasks --select names (the first task of each comm), or the first task.
std::vector<sched::TaskId> chartedTasks(const RunOptions& o, const sched::Trace& t, std::ostream& err) {
    std::vector<sched::TaskId> ids;
    for (const std::string& comm : o.select) {
        const auto it =
            std::find_if(t.tasks.begin(), t.tasks.end(), [&](const auto& k) { return k.comm == comm; });
        if (it == t.tasks.end()) {
            std::string comms;
            for (const auto& k : t.tasks)
                if (comms.find(" " + k.comm + ",") == std::string::npos && comms.size() < 300)
                    comms += " " + k.comm + ",";
            err << "schedscope-cli: --select: no task is called '" << comm << "'; the run has:" << comms
                << "\n";
            return {};
        }
        ids.push_back(sched::TaskId(it - t.tasks.begin()));
    }
    if (o.select.empty() && !t.tasks.empty()) ids.push_back(0);
    return ids;
}

int writeChart(const RunOptions& o, const sched::Trace& t, sched::Time end, std::ostream& err) {
    const std::vector<sched::TaskId> tasks = chartedTasks(o, t, err);
    if (tasks.empty()) return 2;
    // --chart-height, else --height when the chart is the only picture, else 500.
    const int height = o.chartHeight > 0                                ? o.chartHeight
                       : o.exportHeight > 0 && o.exportTimeline.empty() ? o.exportHeight
                                                                        : 500;
    const QSize size(o.exportWidth, height);
    view::EevdfChart eevdf;
    view::LatencyHistogram delays;
    QCustomPlot* plot = nullptr;
    if (o.delayChart) {
        delays.setTask(tasks.front());
        delays.refresh(t);
        plot = delays.plot();
    } else {
        eevdf.setTrace(&t);
        eevdf.setTasks(tasks);
        eevdf.setRange(o.rangeStart, end);
        plot = eevdf.plot();
    }
    plot->resize(size); // the legend's columns and the ticks for this size
    view::stylePlot(plot, plot->font());
    QByteArray bytes;
    if (const QString msg =
            view::renderPlot(plot, formatOf(o.exportChart), size.width(), size.height(), bytes, 1);
        !msg.isEmpty()) {
        err << "schedscope-cli: " << o.exportChart << ": " << msg.toStdString() << "\n";
        return 1;
    }
    return save(o.exportChart, bytes, err) ? 0 : 1;
}

} // namespace

int writeRunImages(const RunOptions& o, const scen::Scenario& s, std::ostream& err) {
    // The painter and the charts need a GUI application for fonts (QCustomPlot is a widget); the
    // offscreen platform needs no display.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    gPrevious = qInstallMessageHandler(quietRuntimeDir);
    int argc = 1;
    char name[] = "schedscope-cli";
    char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    QApplication::setFont(QFont("DejaVu Sans", 9));
    // The chart reads the EEVDF samples; the timeline alone does not need them.
    const bool samples = !o.exportChart.empty() && !o.delayChart;
    sched::Engine e = scen::instantiate(s, s.seed, sched::TraceOptions{samples, o.batch});
    e.runUntil(s.duration);
    e.finish();
    const sched::Time end = o.rangeEnd < 0 ? s.duration : o.rangeEnd;
    if (!o.exportChart.empty())
        if (const int rc = writeChart(o, e.trace(), end, err); rc != 0) return rc;
    if (o.exportTimeline.empty()) return 0;
    view::LaneIndex lanes;
    view::FlagIndex flags;
    sched::WakeupChains chains;
    const view::TimelineData d = view::finishedRunData(e, lanes, flags, &chains);
    QByteArray bytes;
    if (const QString msg =
            view::renderTimeline(formatOf(o.exportTimeline), d, o.rangeStart, end, o.exportWidth,
                                 o.exportHeight, QPalette(Qt::white), QApplication::font(), bytes);
        !msg.isEmpty()) {
        err << "schedscope-cli: " << o.exportTimeline << ": " << msg.toStdString() << "\n";
        return 1;
    }
    return save(o.exportTimeline, bytes, err) ? 0 : 1;
}
