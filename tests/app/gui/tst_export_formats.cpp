// SPDX-License-Identifier: GPL-3.0-or-later
// One picture in three formats: the timeline and the EEVDF chart exported as PNG, SVG and PDF at
// one size show the same thing — rasterised at that size (rsvg-convert, pdftoppm) and blurred by
// 1.5 px, ImageMagick's `compare -metric AE -fuzz 25%` finds at most 1 % of the pixels differing —
// the SVG is valid (xmllint) and clipped to the chart's axis rects like the screen, and the hover
// cursor is in none of them. Needs librsvg2-bin, poppler-utils, imagemagick and libxml2-utils
// (the README's install line has them).
#include "app/gui/main_window.h"
#include "app/gui/session.h"
#include "tests/app/gui/gui_test_support.h"
#include "widgets/eevdf_chart.h"
#include "widgets/timeline_view.h"

#include <qcustomplot.h>

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <functional>

using namespace sched;

namespace {

QString run(const QString& program, const QStringList& args, int* rc = nullptr) {
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(60000)) qFatal("%s did not finish", qPrintable(program));
    if (rc) *rc = p.exitCode();
    return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError()).trimmed();
}

bool haveTools() {
    for (const char* tool : {"rsvg-convert", "pdftoppm", "convert", "compare", "xmllint"})
        if (QStandardPaths::findExecutable(tool).isEmpty()) {
            qWarning("%s is missing (Debian: librsvg2-bin, poppler-utils, imagemagick, libxml2-utils)", tool);
            return false;
        }
    return true;
}

// base.svg and base.pdf as PNGs of size, beside base.png.
void rasterise(const QString& base, QSize size) {
    int rc = 0;
    run("rsvg-convert",
        {"-w", QString::number(size.width()), "-h", QString::number(size.height()), "-b", "white", "-o",
         base + "-svg.png", base + ".svg"},
        &rc);
    QCOMPARE(rc, 0);
    // The PDF page is as many points as the picture has pixels: 72 dpi gives the same size.
    run("pdftoppm", {"-r", "72", "-png", "-singlefile", base + ".pdf", base + "-pdf"}, &rc);
    QCOMPARE(rc, 0);
}

// Pixels that differ between two same-size images after a 1.5 px blur, within crop if given.
double differing(const QString& a, const QString& b, const QRect& crop = {}) {
    QStringList pre{"-background", "white", "-flatten", "-blur", "0x1.5"};
    if (!crop.isNull())
        pre << "-crop"
            << QString("%1x%2+%3+%4").arg(crop.width()).arg(crop.height()).arg(crop.x()).arg(crop.y())
            << "+repage";
    run("convert", QStringList{a} + pre + QStringList{a + ".b.png"});
    run("convert", QStringList{b} + pre + QStringList{b + ".b.png"});
    const QString out =
        run("compare", {"-metric", "AE", "-fuzz", "25%", a + ".b.png", b + ".b.png", "null:"});
    bool ok = false;
    const double n = out.section(' ', 0, 0).toDouble(&ok);
    if (!ok) qFatal("compare said: %s", qPrintable(out));
    return n;
}

// A window on a scenario run to `until`, its timeline showing [from, to).
struct Shown : ShownWindow {
    Shown(const char* scenario, Time until, Time from, Time to) : ShownWindow(scenario) {
        s.runTo(until);
        w.timeline()->setFollow(false);
        w.timeline()->setRange(from, to);
        QCoreApplication::processEvents();
    }
};

// base.png, base.svg and base.pdf written by exportTo(path): the SVG valid, and both rasterised
// within 1 % of the PNG's pixels.
void checkSamePicture(const QString& what, const QString& base, QSize size,
                      const std::function<QString(const QString&)>& exportTo) {
    for (const char* ext : {".png", ".svg", ".pdf"})
        QCOMPARE(exportTo(base + ext), QString());
    QCOMPARE(QImage(base + ".png").size(), size);
    int rc = 0;
    const QString lint = run("xmllint", {"--noout", base + ".svg"}, &rc);
    QVERIFY2(rc == 0, qPrintable(lint));
    rasterise(base, size);
    const double total = size.width() * size.height();
    const double svg = differing(base + ".png", base + "-svg.png"),
                 pdf = differing(base + ".png", base + "-pdf.png");
    qInfo("%s: SVG differs in %.2f %%, PDF in %.2f %% of the pixels", qPrintable(what), 100 * svg / total,
          100 * pdf / total);
    QVERIFY(svg <= 0.01 * total);
    QVERIFY(pdf <= 0.01 * total);
}

} // namespace

class TestExportFormats : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        useTestSettings("tst_export_formats", false);
        if (!haveTools()) QFAIL("the picture tools are missing");
    }
    void theTimelineIsOnePictureInEveryFormat() {
        Shown v("kernel-hogs-waker", 300 * kNsPerMs, 20 * kNsPerMs, 120 * kNsPerMs);
        QTemporaryDir dir;
        const QString base = dir.filePath("t");
        const QSize size(900, 160);
        checkSamePicture("timeline", base, size, [&](const QString& path) {
            return v.w.exportTimelineTo(path, size.width(), size.height());
        });
        // A PNG at pixel ratio 2 is the same layout at twice the pixels.
        QCOMPARE(v.w.exportTimelineTo(base + "2.png", size.width(), size.height(), 2), QString());
        QCOMPARE(QImage(base + "2.png").size(), size * 2);
    }
    void theHoverCursorIsNotExported() {
        Shown v("kernel-hogs-waker", 300 * kNsPerMs, 20 * kNsPerMs, 120 * kNsPerMs);
        view::TimelineView* t = v.w.timeline();
        QTemporaryDir dir;
        QCOMPARE(v.w.exportTimelineTo(dir.filePath("a.png"), 900, 160), QString());
        QTest::mouseMove(t, QPoint(t->width() / 2, t->layout().laneTop(0) + 5)); // the cursor line is drawn
        QVERIFY(t->data().cursor.has_value());
        QCOMPARE(v.w.exportTimelineTo(dir.filePath("b.png"), 900, 160), QString());
        QCOMPARE(QImage(dir.filePath("b.png")), QImage(dir.filePath("a.png")));
    }
    void theChartIsOnePictureInEveryFormatAndClipped() {
        Shown v("fair-pair", 80 * kNsPerMs, 20 * kNsPerMs, 30 * kNsPerMs); // graphs run on past both edges
        v.w.selectTasksByComm({"hog"});
        QCoreApplication::processEvents();
        QTemporaryDir dir;
        const QString base = dir.filePath("c");
        const QSize size(900, 500);
        checkSamePicture("chart", base, size, [&](const QString& path) {
            return v.w.exportChartTo(path, size.width(), size.height());
        });
        QFile svgFile(base + ".svg");
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        QCOMPARE(svgFile.readAll().count("<clipPath"), 2); // the vruntime panel and the lag panel
        // Left of the axis rects (the tick labels) the SVG draws no graph: nothing may differ there.
        QCustomPlot* plot = v.w.findChild<view::EevdfChart*>()->plot();
        plot->setGeometry(QRect(QPoint(0, 0), size)); // the axis rects' layout at the export size
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const QRect left(0, 0, plot->axisRect(0)->left() - 3, size.height());
        QVERIFY(left.width() > 10);
        const double margin = differing(base + ".png", base + "-svg.png", left);
        qInfo("chart: %.0f pixels differ in the left margin", margin);
        QVERIFY(margin <= 0.002 * left.width() * left.height());
    }
    // The two lenses are painted widgets: Export chart on their tab writes them, not the EEVDF
    // chart, laid out at the asked size, one picture in every format.
    void theLensesAreOnePictureInEveryFormat() {
        Shown v("eevdf-tree", 104100 * kNsPerUs, 90 * kNsPerMs, 105 * kNsPerMs);
        for (const char* name : {"vtime", "tree"}) {
            if (QString(name) == "vtime")
                v.w.showVirtualTimeLens();
            else
                v.w.showTreeLens();
            QCoreApplication::processEvents();
            QTemporaryDir dir;
            const QString base = dir.filePath(name);
            const QSize size(900, 420);
            checkSamePicture(name, base, size, [&](const QString& path) {
                return v.w.exportChartTo(path, size.width(), size.height());
            });
            QFile svg(base + ".svg");
            QVERIFY(svg.open(QIODevice::ReadOnly));
            const QByteArray text = svg.readAll();
            QVERIFY2(
                text.contains(QString(name) == "vtime" ? "pick_eevdf() now" : "the runqueue&apos;s tree") ||
                    text.contains(QString(name) == "vtime" ? "pick_eevdf() now" : "the runqueue's tree"),
                name);
        }
    }
};

QTEST_MAIN(TestExportFormats)
#include "tst_export_formats.moc"
