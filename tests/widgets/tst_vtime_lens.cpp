// SPDX-License-Identifier: GPL-3.0-or-later
// The virtual-time lens widget: its rows are the runqueue's entities relative to V, one of them
// marked as pick_eevdf()'s choice with the reason in words, and it paints each eligible span in
// its task's colour.
#include "tests/test_support.h"
#include "widgets/task_colors.h"
#include "widgets/vtime_lens.h"

#include <QImage>

using namespace sched;

class TestVtimeLens : public QObject {
    Q_OBJECT
  private slots:
    void showsTheRunqueueAndThePick() {
        Engine e = builtinEngine("kernel-hogs-waker");
        e.runUntil(100 * kNsPerMs + 100 * kNsPerUs); // the waker has just woken beside a hog
        view::VtimeLens lens;
        lens.resize(800, 260);
        lens.refresh(e, 0);
        const PickPreview p = e.previewPick(0);
        QCOMPARE(lens.rows().size(), p.table.rows.size());
        QVERIFY(lens.rows().size() >= 2);
        int picks = 0;
        for (size_t i = 0; i < lens.rows().size(); ++i) {
            const auto& r = lens.rows()[i];
            QCOMPARE(r.from, p.table.rows[i].vruntime - p.table.V);
            QCOMPARE(r.eligible, p.table.rows[i].eligible);
            picks += r.pick;
            if (r.pick) QVERIFY(r.eligible);
        }
        QCOMPARE(picks, 1);
        QVERIFY2(lens.reason().startsWith("pick_eevdf() now: waker:"), qPrintable(lens.reason()));
        QVERIFY(lens.reason().contains("earliest deadline among the eligible"));
        // painted: the waker's span in its colour somewhere in its row
        QImage img(lens.size(), QImage::Format_ARGB32);
        img.fill(Qt::white);
        lens.render(&img);
        const QColor waker = view::taskColor(e.trace(), taskByComm(e, "waker"), false);
        int hits = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x)
                hits += img.pixelColor(x, y) == waker;
        QVERIFY2(hits > 50, qPrintable(QString("%1 pixels of the waker's colour").arg(hits)));
    }

    void anIdleCpuSaysSo() {
        Engine e = builtinEngine("kernel-hogs-waker");
        view::VtimeLens lens;
        lens.refresh(e, 0); // before the first task started
        QVERIFY(lens.rows().empty());
        QCOMPARE(lens.reason(), QStringLiteral("Nothing fair is queued on this CPU."));
    }
};

QTEST_MAIN(TestVtimeLens)
#include "tst_vtime_lens.moc"
