// SPDX-License-Identifier: GPL-3.0-or-later
// View > Presentation: every window's text grows (the timeline's bands and gutter, the chart's
// axes and legend, whose entries are never cut), the docks make room for the timeline and the
// chart (the side panels as tabs of one column, the event log aside), and leaving it restores the
// layout and the text. Driven through the real window at 1024x768.
#include "app/gui/main_window.h"
#include "app/gui/session.h"
#include "app/gui/theme.h"
#include "tests/app/gui/gui_test_support.h"
#include "widgets/eevdf_chart.h"
#include "widgets/timeline_view.h"

#include <qcustomplot.h>

#include <QDockWidget>
#include <QSettings>
#include <QtTest>

using namespace sched;

class TestPresentation : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { useTestSettings("tst_presentation"); }
    void presentationGrowsTheTextAndMakesRoom() {
        ShownWindow shown("kernel-hogs-waker", QSize(1024, 768));
        Session& s = shown.s;
        MainWindow& w = shown.w;
        s.runTo(300 * kNsPerMs);
        w.selectTasksByComm({"waker"});
        QCoreApplication::processEvents();
        const double normal = QApplication::font().pointSizeF();
        const int gutter = w.timeline()->layout().gutter, legendBand = w.timeline()->layout().legend;
        auto* log = w.findChild<QDockWidget*>("eventLogDock");
        auto* params = w.findChild<QDockWidget*>("paramsDock");
        auto* inspector = w.findChild<QDockWidget*>("inspectorDock");
        QVERIFY(log && params && inspector && log->isVisible());

        w.setTextScale(kPresentationScale);
        QCoreApplication::processEvents();
        QCOMPARE(QApplication::font().pointSizeF(), normal * kPresentationScale);
        QCOMPARE(QSettings().value("textScale").toDouble(), kPresentationScale);
        QCOMPARE(w.timeline()->font().pointSizeF(), normal * kPresentationScale);
        QVERIFY(w.timeline()->layout().legend > legendBand);
        QVERIFY(w.timeline()->layout().gutter >= gutter);
        QVERIFY(w.timeline()->layout().gutter > QFontMetrics(w.timeline()->font()).horizontalAdvance("CPU0"));
        QCustomPlot* plot = w.findChild<view::EevdfChart*>()->plot();
        QCOMPARE(plot->xAxis->tickLabelFont().pointSizeF(), normal * kPresentationScale);
        QCOMPARE(plot->legend->font().pointSizeF(), normal * kPresentationScale * 0.85);
        // Every legend entry is as tall as its text: none is cut.
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const int line = QFontMetrics(plot->legend->font()).height();
        int entries = 0;
        for (int i = 0; i < plot->legend->itemCount(); ++i)
            if (const QCPAbstractLegendItem* item = plot->legend->item(i)) {
                QVERIFY2(item->outerRect().height() >= line - 1, qPrintable(QString::number(i)));
                ++entries;
            }
        QVERIFY(entries >= 4);
        // The side panels share one column as tabs; the event log steps aside.
        QVERIFY(w.tabifiedDockWidgets(inspector).contains(params));
        QVERIFY(!log->isVisible());
        QVERIFY(w.timeline()->width() > w.width() / 2);

        w.setTextScale(1.0);
        QCoreApplication::processEvents();
        QCOMPARE(QApplication::font().pointSizeF(), normal);
        QVERIFY(log->isVisible());
        QVERIFY(!w.tabifiedDockWidgets(inspector).contains(params));
        QCOMPARE(w.timeline()->layout().legend, legendBand);
    }
};

QTEST_MAIN(TestPresentation)
#include "tst_presentation.moc"
