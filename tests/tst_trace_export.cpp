// SPDX-License-Identifier: GPL-3.0-or-later
// A simulated run written as ftrace text: the kernel's layout field by field against the real
// 6.18 traces, and the importer reading it back to the same slices, wakeups and metrics.
#include "test_support.h"

#include "trace_export.h"
#include "trace_file.h"
#include "trace_import.h"

#include <map>
#include <regex>
#include <sstream>

using namespace sched;

namespace {

std::string exportText(const Trace& t, Time offset) {
    std::string out;
    FtraceExportOptions o;
    o.offset = offset;
    writeFtraceText(t, [&](std::string_view s) { out += s; }, o);
    return out;
}

// A run with everything the exporter writes: forks, exits, preemptions (full, R+), return-to-
// user preemptions, sleeps, migrations, need-resched bits, a live change (a marker).
Engine richRun() {
    Engine e = engineFrom(R"J({"duration": "300ms",
        "machine": {"cpus": 2, "hz": 250, "kernel": "6.18", "preempt": "lazy"},
        "tasks": [ {"workload": "hackbench", "args": "-g 1 -l 50 -f 4 -T"},
                   {"comm": "hog", "count": 3, "behavior": [ {"repeat": 40, "body": [ {"run": "3ms"}, {"sleep": "1ms"} ]} ]},
                   {"comm": "tick er", "behavior": [ {"repeat": "forever", "body": [ {"timer": "2ms"}, {"run": "50us", "mode": "kernel"} ]} ]} ],
        "changes": [ {"at": "100ms", "preempt": "full"} ]})J", 3);
    e.runUntil(300 * kNsPerMs);
    e.finish();
    return e;
}

// The lines of one event kind from a text, up to n.
std::vector<std::string> linesOf(const std::string& text, const std::string& event, size_t n) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l) && out.size() < n;)
        if (l.find(" " + event + ": ") != std::string::npos) out.push_back(l);
    return out;
}

std::vector<std::string> keysOf(const std::string& line) {
    std::vector<std::string> keys;
    static const std::regex key(R"(([a-z_]+)=)");
    const size_t colon = line.find(": ", line.find("]"));
    const std::string payload = line.substr(line.find(": ", colon + 2) + 2);
    for (std::sregex_iterator it(payload.begin(), payload.end(), key), end; it != end; ++it) keys.push_back((*it)[1]);
    return keys;
}

} // namespace

class TestTraceExport : public QObject {
    Q_OBJECT
private slots:
    void roundTripGivesTheSameSlicesAndMetrics() {
        const Engine e = richRun();
        const Trace& sim = e.trace();
        const Time offset = 100 * kNsPerSec;
        const std::string text = exportText(sim, offset);
        ImportReport rep;
        const Trace back = importTraceText(text, rep);
        QCOMPARE(rep.malformed, int64_t(0));
        QCOMPARE(rep.missingSwitchIn, int64_t(0));
        QCOMPARE(rep.missingSwitchOut, int64_t(0));
        QCOMPARE(back.cpus, sim.cpus);
        QVERIFY(!sim.markers.empty());
        QCOMPARE(back.markers.size(), sim.markers.size());
        // Slices: the same, at the text's microsecond resolution, per task and CPU.
        const auto us = [&](Time t) { return (t + offset) / kNsPerUs; };
        std::map<std::tuple<int32_t, int, Time>, std::pair<Time, int>> want; // (pid, cpu, start us) -> (end us, class)
        const auto cls = [](uint8_t p) {
            if (p == kStillRunning) return 0;
            if (p == uint8_t(SwitchPoint::Block)) return 1;
            if (p == uint8_t(SwitchPoint::Exit)) return 2;
            return isPreemptMode(SwitchPoint(p)) ? 3 : 4;
        };
        for (size_t i = 0; i < sim.slices.size(); ++i)
            want[{sim.tasks[size_t(sim.slices.task[i])].pid, sim.slices.cpu[i], us(sim.slices.start[i])}] = {us(sim.slices.end[i]), cls(sim.slices.endPoint[i])};
        QCOMPARE(back.slices.size(), sim.slices.size());
        const Time first = rep.first / kNsPerUs;
        int compared = 0;
        for (size_t i = 0; i < back.slices.size(); ++i) {
            const auto it = want.find({back.tasks[size_t(back.slices.task[i])].pid, back.slices.cpu[i], first + back.slices.start[i] / kNsPerUs});
            QVERIFY2(it != want.end(), qPrintable(QString("slice %1 not in the run").arg(i)));
            QCOMPARE(first + back.slices.end[i] / kNsPerUs, it->second.first);
            if (it->second.second != 0) QCOMPARE(cls(back.slices.endPoint[i]), it->second.second);
            ++compared;
        }
        qInfo("%d slices compared", compared);
        QVERIFY(compared > 300);
        // Tasks keep their names, pids and prios; wakeups and migrations all come back.
        for (const TraceTask& t : sim.tasks) {
            bool found = false;
            for (const TraceTask& b : back.tasks)
                if (b.pid == t.pid) {
                    found = b.comm == t.comm && b.prio == t.prio && b.ppid == t.ppid;
                    break;
                }
            QVERIFY2(found, t.comm.c_str());
        }
        QCOMPARE(back.wakeups.size(), sim.wakeups.size());
        QCOMPARE(back.migrations.size(), sim.migrations.size());
        // The metrics agree: switch counts exactly, perf sched latency per task to the microsecond.
        const SwitchCounts a = countSwitches(sim), b = countSwitches(back);
        QCOMPARE(b.total, a.total);
        QCOMPARE(b.voluntary, a.voluntary);
        QCOMPARE(b.involuntary, a.involuntary);
        LatencyOptions lo;
        lo.mergeByComm = false;
        const auto ra = perfSchedLatency(sim, lo), rb = perfSchedLatency(back, lo);
        QCOMPARE(rb.size(), ra.size());
        for (const LatencyRow& x : ra)
            for (const LatencyRow& y : rb)
                if (x.pid == y.pid) {
                    QCOMPARE(y.count, x.count);
                    QVERIFY(std::abs(y.runtime - x.runtime) <= Time(x.count + 2) * kNsPerUs);
                    QVERIFY(std::abs(y.maxDelay - x.maxDelay) <= kNsPerUs);
                }
        // Need-resched bits survive as flag observations: every lazy/eager stretch of the run
        // that a written line falls into is seen again.
        QVERIFY(back.flags.size() > 0);
    }

    // Field by field against the real 6.18 traces: the header, the prefix layout, each event's
    // keys in order and their value formats.
    void layoutMatchesTheRealTraces() {
        TraceImporter unused;
        std::string real;
        {
            FILE* f = popen(("xz -dc '" + std::string(SCHEDSCOPE_TEST_DATA) + "/traces/massive_intr-8x8ms-1ms.trace.xz'").c_str(), "r");
            QVERIFY(f);
            char buf[65536];
            for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;) real.append(buf, n);
            pclose(f);
        }
        const Engine e = richRun();
        const std::string ours = exportText(e.trace(), 100 * kNsPerSec);
        // The header: every line but the entry counts is the kernel's.
        std::istringstream ri(real), oi(ours);
        for (int i = 0; i < 12; ++i) {
            std::string a, b;
            std::getline(ri, a);
            std::getline(oi, b);
            if (i == 2) {
                QVERIFY(std::regex_match(b, std::regex(R"(# entries-in-buffer/entries-written: (\d+)/\1   #P:2)")));
                continue;
            }
            QCOMPARE(b, a);
        }
        const std::regex prefix(R"(^ *\S[^\[]*-\d+ +\[\d{3}\] [.dDb][.NnpBbLl][.ZzHhs][.0-9a-f][.0-9] +\d+\.\d{6}: ([a-z_]+): )");
        const std::map<std::string, std::regex> value = {
            {"prev_state", std::regex("(R\\+?|S|D|X|Z|I)")}, {"target_cpu", std::regex(R"(\d{3})")},
            {"prio", std::regex(R"(-?\d+)")},                 {"pid", std::regex(R"(\d+)")}};
        int kinds = 0;
        for (const char* event : {"sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new", "sched_migrate_task",
                                  "sched_process_fork", "sched_process_exit"}) {
            const auto r = linesOf(real, event, 1), o = linesOf(ours, event, 50);
            QVERIFY2(!r.empty() && !o.empty(), event);
            ++kinds;
            std::smatch m;
            QVERIFY2(std::regex_search(r[0], m, prefix), r[0].c_str());
            for (const std::string& line : o) {
                QVERIFY2(std::regex_search(line, m, prefix) && m[1] == event, line.c_str());
                // '[' at the same column as the kernel's for pids of up to 7 digits.
                QCOMPARE(line.find('['), r[0].find('['));
                QCOMPARE(keysOf(line), keysOf(r[0]));
                for (const auto& [key, re] : value) {
                    const std::regex kv("(^|[ :])" + key + "=(\\S+)");
                    std::smatch v;
                    const std::string payload = line.substr(line.find(std::string(event) + ": "));
                    if (std::regex_search(payload, v, kv)) QVERIFY2(std::regex_match(v[2].str(), re), line.c_str());
                }
            }
        }
        QCOMPARE(kinds, 7);
    }

    // Perfetto's UI opens ftrace text through its systrace line tokenizer (trace_processor,
    // importers/systrace): "-PID [( TGID)] [CPU] FLAGS(0-5) SECONDS.FRACTION: EVENT:" after the
    // task name, and a file starting with "# tracer:". Every line written satisfies that.
    void linesSatisfyPerfettosSystraceTokenizer() {
        const Engine e = richRun();
        const std::string text = exportText(e.trace(), 100 * kNsPerSec);
        QVERIFY(text.rfind("# tracer: nop\n", 0) == 0);
        const std::regex line(R"(-(\d+)\s+\(?\s*(\d+|-+)?\)?\s?\[(\d+)\]\s*[a-zA-Z0-9.]{0,5}\s*(\d+\.\d+):\s+(\S+):)");
        std::istringstream in(text);
        int64_t n = 0;
        for (std::string l; std::getline(in, l);) {
            if (l.empty() || l[0] == '#') continue;
            std::smatch m;
            QVERIFY2(std::regex_search(l, m, line), l.c_str());
            QVERIFY(m.prefix().length() > 0); // the task name before "-PID"
            ++n;
        }
        QVERIFY(n > 1000);
    }

    void rangeLimitsTheLines() {
        const Engine e = richRun();
        std::string all, part;
        FtraceExportOptions o;
        const int64_t n = writeFtraceText(e.trace(), [&](std::string_view s) { all += s; }, o);
        o.from = 100 * kNsPerMs;
        o.to = 150 * kNsPerMs;
        const int64_t k = writeFtraceText(e.trace(), [&](std::string_view s) { part += s; }, o);
        QVERIFY(k > 0 && k < n / 3);
        ImportReport rep;
        const Trace t = importTraceText(part, rep);
        QVERIFY(rep.first >= 100 * kNsPerMs && rep.last <= 150 * kNsPerMs);
    }
};

QTEST_GUILESS_MAIN(TestTraceExport)
#include "tst_trace_export.moc"
