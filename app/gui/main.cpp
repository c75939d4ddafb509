// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope: the desktop app. Opens the scenario given on the command line, else the last one,
// else the default built-in scenario.
#include "app/gui/compare_window.h"
#include "app/gui/main_window.h"
#include "app/gui/session.h"
#include "app/gui/theme.h"
#include "app/gui/trace_window.h"
#include "app/gui/welcome_dialog.h"
#include "app/gui/window_size.h"
#include "base/duration.h"
#include "scenarios/builtin_scenarios.h"
#include "widgets/timeline_view.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QPointer>
#include <QSettings>
#include <QTimer>

#include <memory>
#include <optional>

int main(int argc, char** argv) {
    QCoreApplication::setOrganizationName("SchedScope");
    QCoreApplication::setApplicationName("SchedScope");
    QCoreApplication::setApplicationVersion(PROJECT_VERSION);
    QCommandLineParser parser;
    parser.setApplicationDescription("SchedScope - a laboratory for the Linux CPU scheduler");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("scenario",
                                 "scenario file or built-in name, with settings after an @ "
                                 "(preempt-switch@kernel=7.1,preempt=lazy; default: the last one opened)");
    QCommandLineOption play("play", "start playing at once");
    QCommandLineOption runTo("run-to", "run the simulation up to TIME (e.g. 300ms) before showing it",
                             "time");
    QCommandLineOption range("range", "show the time range A-B (e.g. 280ms-320ms)", "range");
    QCommandLineOption select("select", "select the first task with this comm (several: a,b,c)", "comms");
    QCommandLineOption chart(
        "chart",
        "show the chart 'eevdf' (default), 'delay' (the delay histogram; a comparison's too) or 'vtime' (the "
        "virtual-time lens) or 'tree' (the tree lens)",
        "name");
    QCommandLineOption taskLanes("task-lanes", "show a lane per task under the CPU lanes");
    QCommandLineOption dark("dark", "use the dark theme for this start (same as --theme dark)");
    QCommandLineOption editorOpt("edit", "open the scenario editor on the scenario (File > Edit scenario)");
    QCommandLineOption presentation("presentation",
                                    "large text for a projector, for this start (View > Presentation)");
    QCommandLineOption themeOpt(
        "theme", "colour theme for this start: system, light or dark (default: as chosen in View > Theme)",
        "name");
    QCommandLineOption branch("branch",
                              "branch at the present moment (after --run-to) with CHANGE, e.g. preempt=full, "
                              "base_slice=3ms, NO_PREEMPT_SHORT, 'hog nice=5', and open the comparison",
                              "change");
    QCommandLineOption branchFor("branch-for", "how far both continuations of --branch run (default 100ms)",
                                 "time");
    QCommandLineOption compareKernel(
        "compare-kernel",
        "run the scenario from the start to the present moment (after --run-to; else to its end) under its "
        "kernel and under KERNEL, and open the comparison with the rules that differ",
        "kernel");
    QCommandLineOption compareProxy(
        "compare-proxy-exec",
        "run the scenario from the start to the present moment (after --run-to; else to its end) with proxy "
        "execution as it has it and switched, and open the comparison");
    QCommandLineOption criticalPath("critical-path",
                                    "open the critical path of the selected task (--select) back from the "
                                    "present moment (after --run-to)");
    QCommandLineOption eventLog("event-log", "bring the event log to the front of its dock");
    QCommandLineOption inspect("inspect", "show CPU 0's runqueue in the inspector at an earlier TIME",
                               "time");
    QCommandLineOption traceOpt("trace",
                                "open a trace from a real machine (ftrace text, trace-cmd report, perf "
                                "script, trace.dat; .xz/.gz/.zst) in its own window",
                                "file");
    QCommandLineOption compareTrace(
        "compare-trace", "with --trace: compare the simulation's run so far (after --run-to) with the trace");
    QCommandLineOption deriveOpt(
        "derive",
        "with --trace: derive a scenario from the trace's workload, save it as FILE and open it "
        "(before --run-to), as the trace window's 'Simulate this workload' does",
        "file");
    QCommandLineOption alignOpt(
        "align",
        "with --compare-trace: line the trace up with the simulation at an event both have "
        "(start, run:COMM, wake:COMM, marker:TEXT)",
        "event");
    parser.addOptions({play,         runTo,        range,         select,       chart,        taskLanes,
                       dark,         presentation, editorOpt,     themeOpt,     eventLog,     inspect,
                       branch,       branchFor,    compareKernel, compareProxy, criticalPath, traceOpt,
                       compareTrace, deriveOpt,    alignOpt});
    // --help and --version need no display: they are answered (and the program ends) before the
    // GUI connects to one.
    for (int i = 1; i < argc; ++i)
        for (const char* asked : {"-h", "--help", "--help-all", "-v", "--version"})
            if (qstrcmp(argv[i], asked) == 0) {
                QCoreApplication core(argc, argv);
                parser.process(core); // prints and exits
            }
    QApplication app(argc, argv);
    parser.process(app);
    QApplication::setWindowIcon(QIcon(":/io.github.schedscope.SchedScope.svg"));
    QGuiApplication::setDesktopFileName("io.github.schedscope.SchedScope"); // the .desktop file it belongs to
    // --dark / --theme apply to this start only; otherwise the theme chosen in View > Theme.
    Theme theme = themeFromName(QSettings().value("theme", "system").toString());
    if (parser.isSet(themeOpt)) {
        bool ok = false;
        theme = themeFromName(parser.value(themeOpt), &ok);
        if (!ok)
            qWarning("--theme: '%s' is not one of system, light, dark", qPrintable(parser.value(themeOpt)));
    }
    if (parser.isSet(dark)) theme = Theme::Dark;
    applyTheme(theme);
    if (parser.isSet(presentation))
        applyTextScale(kPresentationScale);
    else if (const double scale = QSettings().value("textScale", 1.0).toDouble(); scale != 1.0)
        applyTextScale(scale);

    Session session;
    MainWindow w(&session);
    QString scenario = parser.positionalArguments().value(0);
    // Started with nothing to open: the last scenario behind the welcome screen's gallery (until
    // the user unticks its "Show at start").
    // A command line that sets up a view (--run-to, --select, --trace, ...) is a run the user asked
    // for: no welcome screen over it.
    bool viewOptions = false;
    for (const QCommandLineOption* o :
         {&play, &runTo, &range, &select, &chart, &taskLanes, &eventLog, &inspect, &branch, &branchFor,
          &compareKernel, &compareProxy, &criticalPath, &traceOpt, &compareTrace, &deriveOpt})
        viewOptions = viewOptions || parser.isSet(*o);
    const bool welcome = scenario.isEmpty() && !viewOptions && WelcomeDialog::showAtStart();
    // The scenario opened by default is not one the user chose: it does not enter the recent files.
    const bool chosen = !scenario.isEmpty() || QSettings().contains("lastScenario");
    if (scenario.isEmpty()) scenario = QSettings().value("lastScenario", scen::kDefaultScenario).toString();
    if (!w.openScenario(scenario, chosen) && scenario != scen::kDefaultScenario)
        w.openScenario(scen::kDefaultScenario, false);
    if (!w.geometryRestored()) fitToScreen(w, {1400, 900});
    w.show();
    if (textScale() >= kPresentationScale) w.setPresentationLayout(true);
    if (parser.isSet(editorOpt))
        w.showEditor(false);
    else if (welcome)
        w.showWelcome();
    if (parser.isSet(deriveOpt) && !parser.isSet(traceOpt))
        qWarning("--derive: needs --trace FILE (the trace to derive the scenario from)");
    // What follows the scenario's opening; with --trace it waits for the import (a background job),
    // since --derive opens the derived scenario first and --compare-trace compares with the trace.
    const auto runFirst = [&] {
        if (parser.isSet(runTo)) {
            const auto t = sched::parseDuration(parser.value(runTo).toStdString());
            if (!t)
                qWarning("--run-to: '%s' is not a duration (e.g. 300ms)", qPrintable(parser.value(runTo)));
            else {
                if (*t > session.scenario().duration)
                    qWarning("--run-to: %s is past the scenario's end (%s): ran to its end",
                             qPrintable(parser.value(runTo)),
                             sched::formatDuration(session.scenario().duration).c_str());
                session.runTo(*t);
            }
        }
    };
    // The rest waits for that run: a long --run-to goes to the worker thread, and a branch, a
    // comparison or --compare-trace started while it runs would find the session busy.
    const auto afterRun = [&](TraceWindow* traceWindow) {
        if (parser.isSet(range)) {
            const QStringList ab = parser.value(range).split('-');
            sched::Time a = 0, b = 0;
            bool ok = ab.size() == 2;
            if (ok) {
                const auto pa = sched::parseDuration(ab[0].toStdString()),
                           pb = sched::parseDuration(ab[1].toStdString());
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
        if (parser.isSet(select)) w.selectTasksByComm(parser.value(select).split(','));
        if (parser.value(chart) == "delay") w.showDelayHistogram();
        if (parser.value(chart) == "vtime") w.showVirtualTimeLens();
        if (parser.value(chart) == "tree") w.showTreeLens();
        if (parser.isSet(taskLanes)) w.setTaskLanes(true);
        if (parser.isSet(eventLog)) w.showEventLog();
        if (parser.isSet(inspect)) {
            if (const auto t = sched::parseDuration(parser.value(inspect).toStdString()))
                w.inspectAt(*t, 0);
            else
                qWarning("--inspect: '%s' is not a duration (e.g. 210ms)", qPrintable(parser.value(inspect)));
        }
        if (parser.isSet(branch)) {
            sched::ParamChange change;
            const std::string err = sched::parseParamChange(parser.value(branch).toStdString(), change);
            std::optional<sched::Time> span = sched::Time(100 * sched::kNsPerMs);
            if (parser.isSet(branchFor)) span = sched::parseDuration(parser.value(branchFor).toStdString());
            if (!err.empty())
                qWarning("--branch: %s", err.c_str());
            else if (!span || *span <= 0)
                qWarning("--branch-for: '%s' is not a duration (e.g. 100ms)",
                         qPrintable(parser.value(branchFor)));
            else if (const QString why = session.branch(change, *span); !why.isEmpty())
                qWarning("--branch: %s", qPrintable(why));
        }
        if (parser.isSet(compareKernel)) {
            const sched::Time now = session.engine().now();
            if (const QString why = session.compareKernel(parser.value(compareKernel),
                                                          now > 0 ? now : session.scenario().duration);
                !why.isEmpty())
                qWarning("--compare-kernel: %s", qPrintable(why));
        }
        if (parser.isSet(compareProxy)) {
            const sched::Time now = session.engine().now();
            if (const QString why = session.compareProxyExec(now > 0 ? now : session.scenario().duration);
                !why.isEmpty())
                qWarning("--compare-proxy-exec: %s", qPrintable(why));
        }
        if (traceWindow && parser.isSet(compareTrace)) {
            CompareWindow* c = w.compareWithTrace(traceWindow);
            std::string why;
            if (c && parser.isSet(alignOpt) && !c->alignTo(parser.value(alignOpt).toStdString(), why))
                qWarning("--align: %s", why.c_str());
        }
        if (parser.isSet(criticalPath)) QTimer::singleShot(0, &w, &MainWindow::showCriticalPath);
        if (parser.isSet(play)) QTimer::singleShot(0, &session, &Session::play);
    };
    const auto arrange = [&](TraceWindow* traceWindow) {
        runFirst();
        if (!session.busy()) {
            afterRun(traceWindow);
            return;
        }
        auto once = std::make_shared<QMetaObject::Connection>();
        *once = QObject::connect(&session, &Session::busyChanged, &session,
                                 [&afterRun, once, tw = QPointer<TraceWindow>(traceWindow)](bool busy) {
                                     if (busy) return;
                                     QObject::disconnect(*once);
                                     // After the run's own advanced(), which the job delivers next.
                                     QTimer::singleShot(0, [&afterRun, tw] { afterRun(tw.data()); });
                                 });
    };
    if (parser.isSet(traceOpt)) {
        w.openTrace(parser.value(traceOpt), [&](TraceWindow* traceWindow, const QString& error) {
            QString err;
            if (!traceWindow)
                qWarning("--trace: %s", qPrintable(error));
            else if (parser.isSet(deriveOpt) && !w.simulateTrace(traceWindow, parser.value(deriveOpt), &err))
                qWarning("--derive: %s", qPrintable(err));
            arrange(traceWindow);
        });
    } else {
        arrange(nullptr);
    }
    return app.exec();
}
