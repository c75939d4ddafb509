// SPDX-License-Identifier: GPL-3.0-or-later
// A first start on a small screen (a 1024x768 projector) opens every window inside it.
#include "app/gui/window_size.h"

#include <QtTest>

class TestWindowSize : public QObject {
    Q_OBJECT
  private slots:
    void aWindowIsShrunkToTheScreenLessItsFrame() {
        QCOMPARE(fittedWindowSize({1400, 900}, QRect(0, 0, 1024, 768)), QSize(1008, 728));
        QCOMPARE(fittedWindowSize({1400, 900}, QRect(0, 24, 1280, 1000)), QSize(1264, 900)); // a panel on top
    }
    void aScreenLargeEnoughKeepsThePreferredSize() {
        QCOMPARE(fittedWindowSize({1400, 900}, QRect(0, 0, 1920, 1080)), QSize(1400, 900));
        QCOMPARE(fittedWindowSize({1300, 850}, QRect()), QSize(1300, 850)); // no screen known
    }
};

QTEST_MAIN(TestWindowSize)
#include "tst_window_size.moc"
