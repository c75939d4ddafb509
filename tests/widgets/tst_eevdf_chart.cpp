// SPDX-License-Identifier: GPL-3.0-or-later
// The EEVDF chart reads the packed samples front to back (no index by task): each charted task's
// graphs hold exactly its samples, with a gap after each one taken as it left the runqueue; a
// live run's new samples are appended, another choice of tasks reads them again, a rewound trace
// is read anew.
#include "tests/test_support.h"
#include "widgets/eevdf_chart.h"

#include <qcustomplot.h>

using namespace sched;

namespace {

struct Expected {
    size_t points = 0; // samples, plus a NaN gap after each taken off the runqueue
    double lastVruntimeMs = 0;
};

Expected expectedFor(const Trace& t, TaskId task) {
    Expected x;
    t.samples.forEach(0, t.samples.size(), [&](size_t, const EevdfSample& s) {
        if (s.task != task) return;
        x.points += s.onRq ? 1 : 2;
        x.lastVruntimeMs = s.vruntime / 1e6;
    });
    return x;
}

QCPGraph* vruntimeGraph(view::EevdfChart& c, const Trace& t, TaskId task) {
    const QString name = QString("%1:%2 vruntime")
                             .arg(QString::fromStdString(t.tasks[size_t(task)].comm))
                             .arg(t.tasks[size_t(task)].pid);
    for (int i = 0; i < c.plot()->graphCount(); ++i)
        if (c.plot()->graph(i)->name() == name) return c.plot()->graph(i);
    return nullptr;
}

void check(view::EevdfChart& c, const Trace& t, TaskId task) {
    QCPGraph* g = vruntimeGraph(c, t, task);
    QVERIFY(g);
    const Expected x = expectedFor(t, task);
    QVERIFY(x.points > 10);
    QCOMPARE(size_t(g->data()->size()), x.points);
    // the last real point (a gap is NaN) is the task's last sample
    auto it = g->data()->constEnd();
    do
        --it;
    while (std::isnan(it->value));
    QCOMPARE(it->value, x.lastVruntimeMs);
}

} // namespace

class TestEevdfChart : public QObject {
    Q_OBJECT
  private slots:
    void chartsEachTasksSamplesAsTheRunGoes() {
        Engine e = engineFrom(R"J({"machine": {"cpus": 2, "hz": 1000, "preempt": "lazy"},
          "tasks": [{"comm": "w", "count": 6, "behavior": [{"repeat": "forever", "body": [
            {"run": {"dist": "exponential", "mean": "300us"}}, {"sleep": {"dist": "exponential", "mean": "1ms"}}]}]}]})J",
                              3, true);
        // more than one block of packed samples, so a walk crosses blocks
        e.runUntil(600 * kNsPerMs);
        QVERIFY(e.trace().samples.size() > EevdfSamples::kBlock);
        const TaskId a = taskByComm(e, "w"), b = a + 3;
        view::EevdfChart chart;
        chart.resize(800, 400);
        chart.setTrace(&e.trace());
        chart.setTasks({a, b});
        check(chart, e.trace(), a);
        check(chart, e.trace(), b);

        const Engine at600 = e.snapshot();
        e.runUntil(1000 * kNsPerMs); // live: the new samples are appended
        chart.setTrace(&e.trace());
        check(chart, e.trace(), a);
        check(chart, e.trace(), b);

        chart.setTasks({b, a + 1}); // another choice reads the samples again
        check(chart, e.trace(), b);
        check(chart, e.trace(), a + 1);
        QVERIFY(!vruntimeGraph(chart, e.trace(), a));

        e.restore(at600); // rewound: fewer samples than the chart has read
        e.runUntil(800 * kNsPerMs);
        chart.setTrace(&e.trace());
        check(chart, e.trace(), b);
        check(chart, e.trace(), a + 1);
    }
};

QTEST_MAIN(TestEevdfChart)
#include "tst_eevdf_chart.moc"
