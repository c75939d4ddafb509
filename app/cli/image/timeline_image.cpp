// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/image/timeline_image.h"

#include "app/common/atomic_file.h"

#include "widgets/live_capture.h"
#include "widgets/timeline_export.h"

#include <QFont>
#include <QGuiApplication>
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
} // namespace

int writeTimelineImage(const RunOptions& o, const scen::Scenario& s, std::ostream& err) {
    // The painter needs a GUI application for fonts; the offscreen platform needs no display.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    gPrevious = qInstallMessageHandler(quietRuntimeDir);
    int argc = 1;
    char name[] = "schedscope-cli";
    char* argv[] = {name, nullptr};
    QGuiApplication app(argc, argv);
    sched::Engine e = scen::instantiate(s, s.seed, sched::TraceOptions{false, o.batch});
    e.runUntil(s.duration);
    e.finish();
    view::LaneIndex lanes;
    view::FlagIndex flags;
    const view::TimelineData d = view::finishedRunData(e, lanes, flags);
    const sched::Time end = o.rangeEnd < 0 ? s.duration : o.rangeEnd;
    QFont font("DejaVu Sans", 9);
    view::ExportFormat fmt = view::ExportFormat::Png; // the option's parser checked the name
    view::exportFormatFromPath(QString::fromStdString(o.exportTimeline), fmt);
    QByteArray bytes;
    if (const QString msg = view::renderTimeline(fmt, d, o.rangeStart, end, o.exportWidth, 0,
                                                 QPalette(Qt::white), font, bytes);
        !msg.isEmpty()) {
        err << "schedscope-cli: " << o.exportTimeline << ": " << msg.toStdString() << "\n";
        return 1;
    }
    if (std::string why; !saveTextAtomically(
            o.exportTimeline, std::string_view(bytes.constData(), size_t(bytes.size())), &why)) {
        err << "schedscope-cli: cannot write " << o.exportTimeline << ": " << why
            << " (nothing was changed)\n";
        return 1;
    }
    return 0;
}
