// SPDX-License-Identifier: GPL-3.0-or-later
// Timeline pictures: a decodable PNG of the chosen size, an SVG that QSvgRenderer loads, a
// non-empty PDF, each rendered into bytes (the programs write them: app/common/atomic_file.h,
// tst_atomic_file); sizes out of range are refused with the reason.
#include "tests/test_support.h"
#include "widgets/live_capture.h"
#include "widgets/timeline_export.h"

#include <QApplication>
#include <QImage>
#include <QSvgRenderer>

using namespace sched;
using namespace view;

class TestTimelineExport : public QObject { // and the legend the exports carry
    Q_OBJECT
    Engine engine_ = builtinEngine("kernel-hogs-waker");
    LaneIndex lanes_;
    FlagIndex flags_;
    TimelineData data_;

  private slots:
    // The legend is made from the lanes' own summaries: its CPU times add up to the busy time
    // of the lanes in view, whether the lanes are drawn slice by slice or by pixel column.
    void legendListsTheTasksInViewBusiestFirst() {
        for (int width : {60, 4000}) { // zoomed out (columns) and slice by slice
            TimeAxis axis{10 * kNsPerMs, 110 * kNsPerMs, width};
            const auto tasks = TimelinePainter::visibleTasks(axis, data_);
            QCOMPARE(tasks.size(), size_t(3)); // two hogs and the waker
            QCOMPARE(engine_.trace().tasks[size_t(tasks.back().first)].comm, std::string("waker"));
            for (size_t k = 1; k < tasks.size(); ++k)
                QVERIFY(tasks[k - 1].second >= tasks[k].second);
            double sum = 0, busy = 0;
            for (const auto& t : tasks)
                sum += t.second;
            for (int c = 0; c < 2; ++c)
                busy += double(lanes_.busyIn(c, axis.start, axis.end));
            for (int c = 0; c < 2; ++c) // and the slices still running at 120 ms, up to the window's end
                if (data_.live.curr[size_t(c)] >= 0)
                    busy += double(
                        std::max<Time>(0, axis.end - std::max(axis.start, data_.live.sliceStart[size_t(c)])));
            QVERIFY2(std::abs(sum - busy) <= 1e-6 * busy,
                     qPrintable(QString("%1 vs %2 at width %3").arg(sum).arg(busy).arg(width)));
        }
    }
    void initTestCase() {
        engine_.runUntil(120 * kNsPerMs);
        lanes_.update(engine_.trace());
        flags_.update(engine_.trace());
        data_.trace = &engine_.trace();
        data_.lanes = &lanes_;
        data_.flags = &flags_;
        data_.live = captureLive(engine_);
    }
    QByteArray render(ExportFormat fmt, int width, int height) {
        QByteArray bytes;
        const QString err = renderTimeline(fmt, data_, 0, 100 * kNsPerMs, width, height, qApp->palette(),
                                           qApp->font(), bytes);
        if (!err.isEmpty()) qWarning("%s", qPrintable(err));
        return bytes;
    }
    void pngIsDecodableAtTheChosenSize() {
        QImage img = QImage::fromData(render(ExportFormat::Png, 1600, 300), "PNG");
        QVERIFY(!img.isNull());
        QCOMPARE(img.width(), 1600);
        QCOMPARE(img.height(), 300);
        // Something was drawn: more than a handful of colours (lanes, slices, flags, text).
        QSet<QRgb> colours;
        for (int y = 0; y < img.height(); y += 3)
            for (int x = 0; x < img.width(); x += 7)
                colours.insert(img.pixel(x, y));
        QVERIFY(colours.size() > 5);
    }
    void svgLoadsInQSvgRenderer() {
        QSvgRenderer r(render(ExportFormat::Svg, 1200, 260));
        QVERIFY(r.isValid());
        QCOMPARE(r.viewBoxF(), QRectF(0, 0, 1200, 260));
    }
    void pdfIsANonEmptyPdf() {
        const QByteArray bytes = render(ExportFormat::Pdf, 1200, 260);
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(bytes.trimmed().endsWith("%%EOF"));
        QVERIFY(bytes.size() > 2000);
    }
    void refusalsSayWhy() {
        QByteArray bytes;
        QVERIFY(renderTimeline(ExportFormat::Png, data_, 0, 100 * kNsPerMs, 40000, 200, qApp->palette(),
                               qApp->font(), bytes)
                    .contains("accepted: 1..32768"));
        QVERIFY(bytes.isEmpty());
        QVERIFY(renderTimeline(ExportFormat::Png, data_, 5, 5, 800, 200, qApp->palette(), qApp->font(), bytes)
                    .contains("empty"));
        ExportFormat fmt;
        QVERIFY(!exportFormatFromPath("t.bmpx", fmt));
        QVERIFY(exportFormatFromPath("T.SVG", fmt) && fmt == ExportFormat::Svg);
    }
};

QTEST_MAIN(TestTimelineExport)
#include "tst_timeline_export.moc"
