// SPDX-License-Identifier: GPL-3.0-or-later
// The event log lists exactly the trace's events of a window, in time order, as the tracepoints
// would name them: every closed slice ends in one sched_switch row whose next task is the one
// whose slice starts there (or <idle>), every wakeup and migration of the window appears once,
// need-resched bits appear set and cleared, and the cap keeps the earliest rows.
#include "tests/test_support.h"
#include "widgets/event_log_model.h"
#include "widgets/live_capture.h"

using namespace sched;
using namespace view;

namespace {

struct Indexed {
    LaneIndex lanes;
    FlagIndex flags;
    TimelineData data(const Engine& e) {
        TimelineData d = finishedRunData(e, lanes, flags);
        d.live = captureLive(e); // the run may still be going on
        return d;
    }
};

constexpr unsigned kAll = (1u << EventLogModel::KindCount) - 1;

Engine busyRun(Time until) {
    Engine e = engineFrom(R"J({"machine": {"cpus": 2, "hz": 1000, "preempt": "full"},
      "tasks": [ {"comm": "w", "count": 5, "behavior": [{"repeat": "forever", "body": [
          {"run": {"dist": "exponential", "mean": "300us"}}, {"sleep": {"dist": "exponential", "mean": "700us"}}]}]},
                 {"comm": "hog", "behavior": [{"repeat": "forever", "body": [{"run": "5ms", "mode": "kernel"}]}]} ]})J");
    e.runUntil(until);
    return e;
}

} // namespace

class TestEventLog : public QObject {
    Q_OBJECT
  private slots:
    // A sched_wakeup_new row says where the task came from (it used to say "woken by an
    // interrupt (timer)"): started with the scenario, or forked by its parent.
    void aNewTasksWakeupSaysWhereItCameFrom() {
        Engine e = engineFrom(R"J({"machine": {"cpus": 1, "hz": 1000, "preempt": "full"},
          "programs": {"child": [{"run": "1ms"}]},
          "tasks": [{"comm": "parent", "behavior": [{"run": "2ms"}, {"fork": "child"}, {"run": "5ms"}]}]})J");
        e.runUntil(10 * kNsPerMs);
        Indexed ix;
        EventLogModel m;
        m.setWindow(ix.data(e), 0, 10 * kNsPerMs, kAll, {});
        QStringList news;
        for (int row = 0; row < m.rowCount(); ++row)
            if (m.data(m.index(row, 2), Qt::DisplayRole).toString().startsWith("sched_wakeup_new"))
                news << m.data(m.index(row, 3), Qt::DisplayRole).toString();
        QCOMPARE(news.size(), 2);
        QCOMPARE(news[0], QString("a new task, started with the scenario"));
        QVERIFY2(news[1].startsWith("forked by parent:"), qPrintable(news[1]));
    }
    void everyEventOfTheWindowOnceInTimeOrder() {
        Engine e = busyRun(200 * kNsPerMs);
        Indexed ix;
        const TimelineData d = ix.data(e);
        const Time t0 = 50 * kNsPerMs, t1 = 120 * kNsPerMs;
        EventLogModel m;
        QVERIFY(!m.setWindow(d, t0, t1, kAll, {}));
        const Trace& tr = e.trace();
        size_t wake = 0, mig = 0, ends = 0, flagSets = 0, flagClears = 0;
        for (size_t i = 0; i < tr.wakeups.size(); ++i)
            wake += tr.wakeups.time[i] >= t0 && tr.wakeups.time[i] < t1;
        for (size_t i = 0; i < tr.migrations.size(); ++i)
            mig += tr.migrations.time[i] >= t0 && tr.migrations.time[i] < t1;
        for (size_t i = 0; i < tr.slices.size(); ++i)
            ends += tr.slices.end[i] >= t0 && tr.slices.end[i] < t1;
        for (size_t i = 0; i < tr.flags.size(); ++i) {
            flagSets += tr.flags.set[i] >= t0 && tr.flags.set[i] < t1;
            flagClears += tr.flags.clear[i] >= t0 && tr.flags.clear[i] < t1;
        }
        QVERIFY(wake > 50 && ends > 50 && flagSets > 10);
        size_t gotWake = 0, gotMig = 0, gotEnds = 0, gotSets = 0, gotClears = 0;
        for (int r = 0; r < m.rowCount(); ++r) {
            const auto& row = m.row(r);
            QVERIFY(row.time >= t0 && row.time < t1);
            if (r > 0) QVERIFY(m.row(r - 1).time <= row.time);
            switch (row.kind) {
            case EventLogModel::Wakeup:
                ++gotWake;
                break;
            case EventLogModel::Migrate:
                ++gotMig;
                break;
            case EventLogModel::FlagSet:
                ++gotSets;
                break;
            case EventLogModel::FlagClear:
                ++gotClears;
                break;
            case EventLogModel::Switch:
                if (row.index != EventLogModel::kIdle) {
                    ++gotEnds;
                    QCOMPARE(tr.slices.end[row.index], row.time);
                    QCOMPARE(int(tr.slices.cpu[row.index]), row.cpu);
                }
                // The next task's slice starts at this instant on this CPU, and no other does.
                if (row.next != EventLogModel::kIdle && row.next != EventLogModel::kOpen) {
                    QCOMPARE(tr.slices.start[row.next], row.time);
                    QCOMPARE(int(tr.slices.cpu[row.next]), row.cpu);
                } else if (row.next == EventLogModel::kIdle) {
                    for (size_t i = 0; i < tr.slices.size(); ++i)
                        QVERIFY(!(tr.slices.cpu[i] == row.cpu && tr.slices.start[i] == row.time));
                }
                break;
            default:
                break;
            }
        }
        QCOMPARE(gotWake, wake);
        QCOMPARE(gotMig, mig);
        QCOMPARE(gotEnds, ends);
        QCOMPARE(gotSets, flagSets);
        QCOMPARE(gotClears, flagClears);
    }

    void switchRowsSayPrevStateAsSchedSwitch() {
        Engine e = busyRun(100 * kNsPerMs);
        Indexed ix;
        EventLogModel m;
        m.setWindow(ix.data(e), 0, e.now(), 1u << EventLogModel::Switch, {});
        bool sawSleep = false, sawPreempt = false;
        for (int r = 0; r < m.rowCount(); ++r) {
            const auto& row = m.row(r);
            if (row.index == EventLogModel::kIdle) continue;
            const QString text = m.data(m.index(r, 2), Qt::DisplayRole).toString();
            const auto p = SwitchPoint(e.trace().slices.endPoint[row.index]);
            if (p == SwitchPoint::Block) {
                QVERIFY2(text.contains("[S] ==>"), qPrintable(text));
                sawSleep = true;
            } else if (isPreemptMode(p)) {
                QVERIFY2(text.contains("[R+] ==>"), qPrintable(text));
                sawPreempt = true;
            }
        }
        QVERIFY(sawSleep && sawPreempt);
    }

    void aFlagIsSetBeforeTheSwitchItCausesAtTheSameInstant() {
        Engine e = busyRun(100 * kNsPerMs);
        Indexed ix;
        EventLogModel m;
        m.setWindow(ix.data(e), 0, e.now(), kAll, {});
        for (int r = 1; r < m.rowCount(); ++r)
            if (m.row(r).time == m.row(r - 1).time && m.row(r - 1).kind == EventLogModel::Switch)
                QVERIFY(m.row(r).kind != EventLogModel::FlagSet && m.row(r).kind != EventLogModel::Wakeup);
    }

    void onlySelectedTasksKeepsRowsAboutThem() {
        Engine e = busyRun(100 * kNsPerMs);
        Indexed ix;
        const TaskId hog = taskByComm(e, "hog");
        EventLogModel m;
        m.setWindow(ix.data(e), 0, e.now(), kAll, {hog});
        QVERIFY(m.rowCount() > 0);
        for (int r = 0; r < m.rowCount(); ++r) {
            const QString text = m.data(m.index(r, 2), Qt::DisplayRole).toString() +
                                 m.data(m.index(r, 3), Qt::DisplayRole).toString();
            if (m.row(r).kind != EventLogModel::Change) QVERIFY2(text.contains("hog:"), qPrintable(text));
        }
    }

    void theCapKeepsTheEarliestRows() {
        Engine e = busyRun(20 * kNsPerSec); // ~64,000 wakeups, more than kMaxRows
        Indexed ix;
        EventLogModel m;
        const unsigned kinds = 1u << EventLogModel::Wakeup;
        QVERIFY2(m.setWindow(ix.data(e), 0, e.now(), kinds, {}),
                 qPrintable(QString("%1 wakeups until %2").arg(e.trace().wakeups.size()).arg(e.now())));
        QCOMPARE(m.rowCount(), EventLogModel::kMaxRows);
        const Time last = m.row(m.rowCount() - 1).time;
        size_t before = 0;
        for (Time t : e.trace().wakeups.time)
            before += t < last;
        QVERIFY(before < size_t(EventLogModel::kMaxRows)); // nothing earlier than the last row was dropped
    }

    void aLiveChangeIsListed() {
        Engine e = busyRun(10 * kNsPerMs);
        QVERIFY(e.apply(ParamChange::preemptModel(PreemptModel::Full)).empty());
        e.runUntil(20 * kNsPerMs);
        Indexed ix;
        EventLogModel m;
        m.setWindow(ix.data(e), 0, e.now(), 1u << EventLogModel::Change, {});
        QCOMPARE(m.rowCount(), 1);
        QCOMPARE(m.row(0).time, 10 * kNsPerMs);
        QVERIFY(m.data(m.index(0, 2), Qt::DisplayRole).toString().contains("preempt=full"));
    }
};

QTEST_MAIN(TestEventLog)
#include "tst_event_log.moc"
