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

    // The chart's rotated axis titles never run past their plots: at 1024x768 the two plots are
    // shorter than "virtual time (ms)" and "lag V-v (ms)" and take the short forms; on a tall
    // window the upper one has room for the full title again.
    void theChartsAxisTitlesFitTheirPlots() {
        for (const QSize size : {QSize(1024, 768), QSize(1600, 1400)}) {
            ShownWindow shown("kernel-hogs-waker", size);
            shown.s.runTo(120 * kNsPerMs);
            shown.w.selectTasksByComm({"waker", "hog"});
            QCustomPlot* plot = shown.w.findChild<view::EevdfChart*>()->plot();
            for (int pass = 0; pass < 2; ++pass) { // the layout decides, then the titles follow
                QCoreApplication::processEvents();
                plot->replot(QCustomPlot::rpImmediateRefresh);
            }
            QCOMPARE(plot->axisRectCount(), 2);
            for (QCPAxisRect* r : plot->axisRects()) {
                QCPAxis* a = r->axis(QCPAxis::atLeft);
                const int w = QFontMetrics(a->labelFont()).horizontalAdvance(a->label());
                QVERIFY2(w <= r->height(), qPrintable(QString("%1: %2 px in a %3 px plot at %4x%5")
                                                          .arg(a->label())
                                                          .arg(w)
                                                          .arg(r->height())
                                                          .arg(size.width())
                                                          .arg(size.height())));
            }
            const QString upper = plot->axisRect(0)->axis(QCPAxis::atLeft)->label();
            if (size.height() == 768)
                QCOMPARE(upper, QString("v (ms)"));
            else
                QCOMPARE(upper, QString("virtual time (ms)"));
        }
    }
};

QTEST_MAIN(TestPresentation)
#include "tst_presentation.moc"
