// SPDX-License-Identifier: GPL-3.0-or-later
// Set-up the GUI suites share: settings of their own, and a main window shown on a scenario.
#pragma once

#include "app/gui/main_window.h"
#include "app/gui/session.h"

#include <QCoreApplication>
#include <QSettings>
#include <QSize>
#include <QtTest>

// Each suite keeps its settings (recent files, theme, text size) apart from the user's and from
// the other suites', and starts from none unless it asks to keep them.
inline void useTestSettings(const char* suite, bool clear = true) {
    QCoreApplication::setOrganizationName("SchedScopeTest");
    QCoreApplication::setApplicationName(suite);
    if (clear) QSettings().clear();
}

// The main window as a person sees it: a scenario opened, the window at a size, shown and exposed.
struct ShownWindow {
    Session s;
    MainWindow w{&s};
    explicit ShownWindow(const QString& scenario, QSize size = QSize(1200, 800)) {
        if (!w.openScenario(scenario)) qFatal("cannot open the scenario %s", qPrintable(scenario));
        w.resize(size);
        w.show();
        if (!QTest::qWaitForWindowExposed(&w)) qFatal("the main window is not shown");
    }
};
