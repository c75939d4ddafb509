// SPDX-License-Identifier: GPL-3.0-or-later
// The tree lens widget: every entity of the runqueue is drawn or counted in a folded subtree,
// left to right in deadline order, boxes of one level never overlap, the search's path is never
// folded, one box carries the pick's star, and the header tells the search in words.
#include "tests/test_support.h"
#include "widgets/tree_lens.h"

#include <QImage>

using namespace sched;

class TestTreeLens : public QObject {
    Q_OBJECT
  private slots:
    void drawsTheTreeInDeadlineOrder_data() {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<int>("width");
        QTest::newRow("eevdf-tree wide") << "eevdf-tree" << 1600;
        QTest::newRow("eevdf-tree narrow") << "eevdf-tree" << 500;
        QTest::newRow("bench-1cpu-100") << "bench-1cpu-100" << 900;
    }
    void drawsTheTreeInDeadlineOrder() {
        QFETCH(QString, scenario);
        QFETCH(int, width);
        Engine e = builtinEngine(scenario.toStdString());
        view::TreeLens lens;
        lens.resize(width, 400);
        lens.show(); // the canvas lays out for its real width
        int folded = 0, walked = 0;
        for (Time t = 50 * kNsPerMs; t < 90 * kNsPerMs; t += 1300 * kNsPerUs) {
            e.runUntil(t);
            lens.refresh(e, 0);
            QCoreApplication::processEvents();
            const PickWalk& w = lens.walk();
            int counted = 0, stars = 0;
            const view::TreeLens::Box* prev = nullptr;
            std::vector<bool> shown(w.nodes.size(), false);
            for (const auto& b : lens.boxes()) {
                stars += b.pick;
                if (b.node < 0) continue; // curr, outside the tree
                counted += 1 + b.hidden;
                folded += b.hidden > 0;
                shown[size_t(b.node)] = true;
                QCOMPARE(b.level, w.nodes[size_t(b.node)].depth);
                if (prev) { // left to right by deadline
                    QVERIFY(w.nodes[size_t(prev->node)].rank < w.nodes[size_t(b.node)].rank);
                    QVERIFY(prev->slot < b.slot);
                }
                prev = &b;
                for (const auto& o : lens.boxes()) // one level: a box width apart at least
                    if (&o != &b && o.level == b.level) QVERIFY(std::abs(o.slot - b.slot) >= 1.0 - 1e-9);
            }
            QCOMPARE(counted, int(w.nodes.size()));
            QCOMPARE(stars, w.preview.pick >= 0 ? 1 : 0);
            for (const PickWalk::Move& m : w.path)
                QVERIFY(shown[size_t(m.node)]);
            if (w.found >= 0) QVERIFY(shown[size_t(w.found)]);
            if (w.searched && !w.path.empty() && w.path.front().step != PickWalk::Step::Leftmost) {
                walked++;
                QVERIFY2(lens.reason().contains("from the root"), qPrintable(lens.reason()));
            }
        }
        if (scenario == "bench-1cpu-100") QVERIFY(folded > 0); // 99 entities do not fit 900 px
        if (scenario == "eevdf-tree") QVERIFY(walked > 0);
        // painted: something besides the background
        QImage img(lens.size(), QImage::Format_ARGB32);
        img.fill(Qt::white);
        lens.render(&img);
        QVERIFY(img != QImage(lens.size(), QImage::Format_ARGB32));
    }

    void anEmptyCpuSaysSo() {
        Engine e = builtinEngine("balance-8-on-4");
        view::TreeLens lens;
        lens.refresh(e, 99); // no such CPU
        QVERIFY(lens.boxes().empty());
        lens.refresh(e, 0);
        QVERIFY(lens.reason().startsWith("CPU 0 at"));
    }
};

QTEST_MAIN(TestTreeLens)
#include "tst_tree_lens.moc"
