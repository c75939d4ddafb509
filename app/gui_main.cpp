// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope: the desktop app. Opens the scenario given on the command line, else the last one,
// else the default built-in scenario.
#include "builtin_scenarios.h"
#include "duration.h"
#include "timeline_view.h"
#include "main_window.h"
#include "session.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QPalette>
#include <QSettings>
#include <QTimer>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("SchedScope");
    QApplication::setApplicationName("SchedScope");
    QApplication::setApplicationVersion(PROJECT_VERSION);
    QCommandLineParser parser;
    parser.setApplicationDescription("SchedScope - a laboratory for the Linux CPU scheduler");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("scenario", "scenario file or built-in name (default: the last one opened)");
    QCommandLineOption play("play", "start playing at once");
    QCommandLineOption runTo("run-to", "run the simulation up to TIME (e.g. 300ms) before showing it", "time");
    QCommandLineOption range("range", "show the time range A-B (e.g. 280ms-320ms)", "range");
    QCommandLineOption select("select", "select the first task with this comm", "comm");
    QCommandLineOption chart("chart", "show the chart 'eevdf' (default) or 'delay' (the delay histogram)", "name");
    QCommandLineOption taskLanes("task-lanes", "show a lane per task under the CPU lanes");
    QCommandLineOption dark("dark", "use a dark palette (the platform's palette is followed otherwise)");
    QCommandLineOption inspect("inspect", "show CPU 0's runqueue in the inspector at an earlier TIME", "time");
    parser.addOptions({play, runTo, range, select, chart, taskLanes, dark, inspect});
    parser.process(app);
    if (parser.isSet(dark)) {
        QApplication::setStyle("Fusion");
        QPalette p;
        p.setColor(QPalette::Window, QColor(45, 45, 48));
        p.setColor(QPalette::WindowText, QColor(230, 230, 230));
        p.setColor(QPalette::Base, QColor(30, 30, 32));
        p.setColor(QPalette::AlternateBase, QColor(45, 45, 48));
        p.setColor(QPalette::Text, QColor(230, 230, 230));
        p.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
        p.setColor(QPalette::Button, QColor(55, 55, 58));
        p.setColor(QPalette::ButtonText, QColor(230, 230, 230));
        p.setColor(QPalette::Highlight, QColor(60, 110, 200));
        p.setColor(QPalette::HighlightedText, Qt::white);
        p.setColor(QPalette::Mid, QColor(90, 90, 95));
        p.setColor(QPalette::ToolTipBase, QColor(50, 50, 55));
        p.setColor(QPalette::ToolTipText, QColor(230, 230, 230));
        QApplication::setPalette(p);
    }

    Session session;
    MainWindow w(&session);
    QString scenario = parser.positionalArguments().value(0);
    if (scenario.isEmpty()) scenario = QSettings().value("lastScenario", scen::kDefaultScenario).toString();
    if (!w.openScenario(scenario) && scenario != scen::kDefaultScenario) w.openScenario(scen::kDefaultScenario);
    w.resize(1400, 900);
    w.show();
    if (parser.isSet(runTo)) {
        const auto t = sched::parseDuration(parser.value(runTo).toStdString());
        if (!t) qWarning("--run-to: '%s' is not a duration (e.g. 300ms)", qPrintable(parser.value(runTo)));
        else session.runTo(*t);
    }
    if (parser.isSet(range)) {
        const QStringList ab = parser.value(range).split('-');
        sched::Time a = 0, b = 0;
        bool ok = ab.size() == 2;
        if (ok) {
            const auto pa = sched::parseDuration(ab[0].toStdString()), pb = sched::parseDuration(ab[1].toStdString());
            ok = pa.has_value() && pb.has_value();
            if (ok) a = pa.value(), b = pb.value();
        }
        if (!ok || b <= a) {
            qWarning("--range: write START-END with units, e.g. 280ms-320ms");
        } else {
            w.timeline()->setFollow(false);
            w.timeline()->setRange(a, b);
        }
    }
    if (parser.isSet(select)) w.selectTaskByComm(parser.value(select));
    if (parser.value(chart) == "delay") w.showDelayHistogram();
    if (parser.isSet(taskLanes)) w.setTaskLanes(true);
    if (parser.isSet(inspect)) {
        if (const auto t = sched::parseDuration(parser.value(inspect).toStdString())) w.inspectAt(*t, 0);
        else qWarning("--inspect: '%s' is not a duration (e.g. 210ms)", qPrintable(parser.value(inspect)));
    }
    if (parser.isSet(play)) QTimer::singleShot(0, &session, &Session::play);
    return app.exec();
}
