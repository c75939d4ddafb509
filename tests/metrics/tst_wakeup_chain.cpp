// SPDX-License-Identifier: GPL-3.0-or-later
// Wakeup chains (core/metrics/wakeup_chain.h): each wakeup joined to the wakee's next switch-in,
// and a task's critical path walked backwards. Checked against the raw lines of a public capture
// (parsed here, not by the importer) and, on simulations, against the trace by brute force.
#include "metrics/wakeup_chain.h"
#include "tests/test_support.h"
#include "trace/file.h"

#include <QProcess>

#include <map>

using namespace sched;

namespace {

// The first switch-in of `task` at or after t, by a scan of every slice.
std::optional<std::pair<Time, int>> firstRunFrom(const Trace& tr, TaskId task, Time t) {
    std::optional<std::pair<Time, int>> best;
    for (size_t i = 0; i < tr.slices.size(); ++i)
        if (tr.slices.task[i] == task && tr.slices.start[i] >= t &&
            (!best || tr.slices.start[i] < best->first))
            best = std::make_pair(tr.slices.start[i], int(tr.slices.cpu[i]));
    return best;
}

// "  comm-pid   [cpu] flags  secs.frac: event: fields": pid, cpu, flags, time (ns), event, fields.
struct RawLine {
    int pid = -1, cpu = -1;
    std::string flags, event, fields;
    Time time = 0;
};
bool parseRaw(const std::string& l, RawLine& r) {
    const size_t br = l.find(" [");
    if (br == std::string::npos || l.size() < br + 7 || l[br + 5] != ']') return false;
    const size_t dash = l.rfind('-', br);
    if (dash == std::string::npos) return false;
    r.pid = std::stoi(l.substr(dash + 1, br - dash - 1));
    r.cpu = std::stoi(l.substr(br + 2, 3));
    const size_t fl = br + 7, ts = l.find(' ', fl);
    r.flags = l.substr(fl, ts - fl);
    const size_t colon = l.find(": ", ts);
    const std::string stamp = l.substr(l.find_first_not_of(' ', ts), colon - l.find_first_not_of(' ', ts));
    const size_t dot = stamp.find('.');
    std::string frac = stamp.substr(dot + 1);
    frac.resize(9, '0');
    r.time = std::stoll(stamp.substr(0, dot)) * kNsPerSec + std::stoll(frac);
    const size_t ev = l.find(": ", colon + 2);
    r.event = l.substr(colon + 2, ev - colon - 2);
    r.fields = l.substr(ev + 2);
    return true;
}
int fieldInt(const std::string& f, const std::string& key) {
    const size_t at = f.find(key);
    return at == std::string::npos ? -1 : std::stoi(f.substr(at + key.size()));
}

} // namespace

class TestWakeupChain : public QObject {
    Q_OBJECT
  private slots:
    // On a public capture: every sched_waking of a task that the trace then switches in on CPU 0
    // (where the idle exits are recorded) is joined to that sched_switch line - the same wakee,
    // the same switch-in time - and to the waker the line's prefix names (none from an interrupt).
    void linksJoinTheRawLinesOfAPublicTrace() {
        const std::string path =
            std::string(SCHEDSCOPE_TEST_DATA) + "/traces/cyclictest-i1000-l5000.trace.xz";
        Trace tr;
        ImportReport rep;
        std::string error;
        QVERIFY2(loadTrace(path, tr, rep, error), error.c_str());
        WakeupChains chains;
        chains.update(tr);
        QProcess xz;
        xz.start("xz", {"-dc", QString::fromStdString(path)});
        QVERIFY(xz.waitForFinished(60000));
        const QList<QByteArray> lines = xz.readAllStandardOutput().split('\n');
        // Raw: the wakings in order, and each pid's switch-ins.
        struct Waking {
            Time time;
            int wakerPid, wakeePid, target;
            bool irq;
        };
        std::vector<Waking> wakings;
        std::map<int, std::vector<std::pair<Time, int>>> switchIns;
        std::map<int, std::vector<Time>> seen; // each pid's lines as the running task
        for (const QByteArray& b : lines) {
            RawLine r;
            if (!parseRaw(b.toStdString(), r)) continue;
            if (r.pid > 0) seen[r.pid].push_back(r.time - rep.first); // running: it is in the prefix
            if (r.event == "sched_waking")
                wakings.push_back({r.time - rep.first, r.pid, fieldInt(r.fields, " pid="),
                                   fieldInt(r.fields, "target_cpu="),
                                   r.flags.find_first_of("hHs") != std::string::npos});
            else if (r.event == "sched_switch")
                switchIns[fieldInt(r.fields, "next_pid=")].push_back({r.time - rep.first, r.cpu});
        }
        QVERIFY(wakings.size() > 1000);
        std::map<int, TaskId> byPid;
        for (size_t t = 0; t < tr.tasks.size(); ++t)
            byPid[tr.tasks[t].pid] = TaskId(t);
        // The trace's wakeups in order are the wakings (and wakeup_news) in order.
        size_t wi = 0, checked = 0;
        for (const Waking& k : wakings) {
            while (wi < tr.wakeups.size() && !(tr.wakeups.time[wi] == k.time &&
                                               tr.tasks[size_t(tr.wakeups.wakee[wi])].pid == k.wakeePid))
                ++wi;
            QVERIFY(wi < tr.wakeups.size());
            const auto& ins = switchIns[k.wakeePid];
            const auto next = std::lower_bound(ins.begin(), ins.end(), std::make_pair(k.time, -1));
            // Skipped: a wakee seen running before its next switch-in line (a switch-in the trace
            // lacks, which the importer closes from that evidence: tests/data/traces/README.md).
            const auto& ev = seen[k.wakeePid];
            const auto firstSeen = std::upper_bound(ev.begin(), ev.end(), k.time);
            const bool missingSwitchIn =
                next != ins.end() && firstSeen != ev.end() && *firstSeen < next->first;
            if (k.target != 0 || next == ins.end() || next->second != 0 || missingSwitchIn) {
                ++wi;
                continue;
            }
            const std::optional<WakeupLink> l = chains.link(wi);
            QVERIFY(l.has_value());
            QCOMPARE(tr.tasks[size_t(l->wakee)].pid, k.wakeePid);
            QCOMPARE(l->run, next->first);
            QCOMPARE(l->runCpu, 0);
            if (k.irq || k.wakerPid == 0)
                QCOMPARE(l->waker, kNoTask);
            else
                QCOMPARE(tr.tasks[size_t(l->waker)].pid, k.wakerPid);
            ++checked;
            ++wi;
        }
        QVERIFY2(checked > 1000, std::to_string(checked).c_str());
    }

    // A run that begins where the task's previous one ended (preempted on one CPU, switched in on
    // another at the same microsecond, as a trace prints it) still steps back to that run; runs
    // recorded out of start order (an importer's estimated switch-in) are joined in order.
    void pathsStepBackOverBackToBackRuns() {
        Trace tr;
        tr.cpus = 2;
        tr.tasks.push_back(TraceTask{100, 100, "a", 120});
        tr.slices.push(10, 20, 0, 1, uint8_t(SwitchPoint::Block), kNoReason);
        tr.slices.push(0, 10, 0, 0, uint8_t(SwitchPoint::IrqReturn), kNoReason); // recorded after
        tr.wakeups.push(25, kNoTask, 0, 0, 1, false);
        tr.slices.push(30, 40, 0, 1, uint8_t(SwitchPoint::Block), kNoReason);
        WakeupChains chains;
        chains.update(tr);
        const std::vector<PathStep> path = chains.criticalPath(0, 20, 10);
        QCOMPARE(path.size(), size_t(3));
        QCOMPARE(path[0].kind, PathStep::Kind::Running);
        QCOMPARE(path[0].from, Time(10));
        QCOMPARE(path[1].kind, PathStep::Kind::Runnable);
        QCOMPARE(path[1].from, Time(10));
        QCOMPARE(path[1].to, Time(10));
        QCOMPARE(path[2].kind, PathStep::Kind::Running);
        QCOMPARE(path[2].from, Time(0));
        QCOMPARE(path[2].to, Time(10));
        const auto l = chains.link(0);
        QVERIFY(l.has_value());
        QCOMPARE(l->run, Time(30));
    }

    // On simulations: each link's run is the wakee's first switch-in at or after the wakeup (a
    // scan of every slice says which), and a critical path reads as one: newest first, each
    // step ending where the next newer one begins, a sleep's waker running when it woke it.
    void pathsAreContiguousAndLinksAreFirstRuns() {
        for (const char* name : {"pipe-pingpong", "kernel-hogs-waker", "balance-8-on-4"}) {
            Engine e = builtinEngine(name);
            e.runUntil(200 * kNsPerMs);
            e.finish();
            const Trace& tr = e.trace();
            WakeupChains chains;
            chains.update(tr);
            int links = 0;
            for (size_t i = 0; i < std::min<size_t>(tr.wakeups.size(), 3000); ++i) {
                const auto l = chains.link(i);
                const auto want = firstRunFrom(tr, tr.wakeups.wakee[i], tr.wakeups.time[i]);
                QCOMPARE(l.has_value(), want.has_value());
                if (!l) continue;
                QCOMPARE(l->run, want->first);
                QCOMPARE(l->runCpu, want->second);
                QCOMPARE(l->waker, tr.wakeups.waker[i]);
                ++links;
            }
            QVERIFY2(links > 5, name);
            int asleep = 0;
            for (size_t s = 0; s < tr.slices.size(); s += 13) {
                const TaskId t = tr.slices.task[s];
                if (t < 0) continue;
                const Time at = tr.slices.end[s];
                const std::vector<PathStep> path = chains.criticalPath(t, at, 24);
                QVERIFY(!path.empty());
                QCOMPARE(path[0].kind, PathStep::Kind::Running);
                QCOMPARE(path[0].task, t);
                QCOMPARE(path[0].to, at);
                for (size_t k = 1; k < path.size(); ++k) {
                    QVERIFY(path[k].from <= path[k].to);
                    // No gap: each step ends where the newer one begins - but after a sleep the
                    // path goes on with the waker, whose run ends at the wakeup (the sleep's end).
                    if (path[k - 1].kind == PathStep::Kind::Asleep)
                        QVERIFY(path[k].to <= path[k - 1].to);
                    else
                        QCOMPARE(path[k].to, path[k - 1].from);
                    if (path[k].kind == PathStep::Kind::Asleep) {
                        ++asleep;
                        if (k + 1 < path.size() && path[k].wokenBy >= 0) {
                            QCOMPARE(path[k + 1].task, path[k].wokenBy);
                            QVERIFY(path[k + 1].to <= path[k].to);
                        }
                    }
                }
            }
            QVERIFY2(asleep > 0, name);
        }
    }
};

QTEST_GUILESS_MAIN(TestWakeupChain)
#include "tst_wakeup_chain.moc"
