// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope: the desktop app. Opens the scenario given on the command line, else the last one,
// else the default built-in scenario.
#include "builtin_scenarios.h"
#include "main_window.h"
#include "session.h"

#include <QApplication>
#include <QCommandLineParser>
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
    parser.addOption(play);
    parser.process(app);

    Session session;
    MainWindow w(&session);
    QString scenario = parser.positionalArguments().value(0);
    if (scenario.isEmpty()) scenario = QSettings().value("lastScenario", scen::kDefaultScenario).toString();
    if (!w.openScenario(scenario) && scenario != scen::kDefaultScenario) w.openScenario(scen::kDefaultScenario);
    w.resize(1400, 900);
    w.show();
    if (parser.isSet(play)) QTimer::singleShot(0, &session, &Session::play);
    return app.exec();
}
