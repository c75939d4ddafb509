// SPDX-License-Identifier: GPL-3.0-or-later
// The panels' tables show their headers and typical values uncut at the width they open with, one
// line a row: the metrics panel's "perf sched latency" columns filled from a real run, every
// cell's text fits its column.
#include "tests/test_support.h"
#include "widgets/data_table.h"
#include "widgets/live_capture.h"
#include "widgets/metrics_panel.h"

#include <QHeaderView>
#include <QTableWidget>

using namespace sched;
using namespace view;

class TestDataTable : public QObject {
    Q_OBJECT

    static int textWidth(const QTableWidget& t, const QString& s) {
        return t.fontMetrics().horizontalAdvance(s);
    }

  private slots:
    void columnsAreAsWideAsTheirHeaderOrSample() {
        QTableWidget t;
        const QStringList headers{"task", "a much longer header", "x"};
        setUpDataTable(&t, headers, {"receiver:99999", "", "a sample wider than its header"});
        QCOMPARE(t.columnCount(), 3);
        const QHeaderView* h = t.horizontalHeader();
        for (int c = 0; c < 3; ++c) {
            QCOMPARE(t.horizontalHeaderItem(c)->text(), headers[c]);
            QVERIFY2(h->sectionSize(c) > textWidth(t, headers[c]), qPrintable(headers[c]));
        }
        QVERIFY(h->sectionSize(0) > textWidth(t, "receiver:99999"));
        QVERIFY(h->sectionSize(2) > textWidth(t, "a sample wider than its header"));
        QVERIFY(h->sectionSize(1) < textWidth(t, "a much longer header") * 2); // the header alone sets it
        QVERIFY(!t.wordWrap());
        QVERIFY(!t.verticalHeader()->isVisible());
        QVERIFY(t.verticalHeader()->defaultSectionSize() < 2 * t.fontMetrics().height()); // one line a row
    }

    void metricsPanelCellsFitTheirColumns() {
        Engine e = engineFrom(R"J({"machine": {"cpus": 2, "hz": 1000, "preempt": "full"},
          "tasks": [ {"comm": "receiver", "count": 40, "behavior": [{"repeat": "forever", "body": [
              {"run": {"dist": "exponential", "mean": "300us"}}, {"sleep": {"dist": "exponential", "mean": "700us"}}]}]} ]})J");
        e.runUntil(2 * kNsPerSec);
        MetricsPanel panel;
        panel.refresh(e.trace(), view::runningSlices(e), e.now());
        const auto* t = panel.findChild<QTableWidget*>();
        QVERIFY(t);
        QVERIFY(t->rowCount() >= 1);
        const QHeaderView* h = t->horizontalHeader();
        for (int c = 0; c + 1 < t->columnCount(); ++c) { // the last column stretches
            QVERIFY2(h->sectionSize(c) > textWidth(*t, t->horizontalHeaderItem(c)->text()),
                     qPrintable(t->horizontalHeaderItem(c)->text()));
            for (int r = 0; r < t->rowCount(); ++r)
                QVERIFY2(h->sectionSize(c) > textWidth(*t, t->item(r, c)->text()),
                         qPrintable(t->item(r, c)->text()));
        }
    }
};

QTEST_MAIN(TestDataTable)
#include "tst_data_table.moc"
