// SPDX-License-Identifier: GPL-3.0-or-later
// A simulated run written as ftrace text: the kernel's layout field by field against the real
// 6.18 traces, and the importer reading it back to the same slices, wakeups and metrics. The
// same run as trace-cmd's binary trace.dat: its layout decoded here from the man page's
// description, and read back through the real `trace-cmd report`.
#include "tests/test_support.h"
#include "tests/trace/export_support.h"

#include "trace/file.h"
#include "trace/ftrace_text.h"
#include "trace/import.h"
#include "trace/trace_dat.h"

#include <QStandardPaths>
#include <QTemporaryDir>

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

using namespace sched;

namespace {

// A run with everything the exporter writes: forks, exits, preemptions (full, R+), return-to-
// user preemptions, sleeps, migrations, need-resched bits, a live change (a marker).
Engine richRun() {
    Engine e = engineFrom(R"J({"duration": "300ms",
        "machine": {"cpus": 2, "hz": 250, "kernel": "6.18", "preempt": "lazy"},
        "tasks": [ {"workload": "hackbench", "args": "-g 1 -l 50 -f 4 -T"},
                   {"comm": "hog", "count": 3, "behavior": [ {"repeat": 40, "body": [ {"run": "3ms"}, {"sleep": "1ms"} ]} ]},
                   {"comm": "tick er", "behavior": [ {"repeat": "forever", "body": [ {"timer": "2ms"}, {"run": "50us", "mode": "kernel"} ]} ]} ],
        "changes": [ {"at": "100ms", "preempt": "full"} ]})J",
                          3);
    e.runUntil(300 * kNsPerMs);
    e.finish();
    return e;
}

std::vector<std::string> keysOf(const std::string& line) {
    std::vector<std::string> keys;
    static const std::regex key(R"(([a-z_]+)=)");
    const size_t colon = line.find(": ", line.find("]"));
    const std::string payload = line.substr(line.find(": ", colon + 2) + 2);
    for (std::sregex_iterator it(payload.begin(), payload.end(), key), end; it != end; ++it)
        keys.push_back((*it)[1]);
    return keys;
}

// A reader of trace-cmd.dat.v6(5) written from the man page, independent of the writer: the
// header sections in order, then every CPU's ring-buffer pages record by record.
struct DatFile {
    std::string error;
    std::map<std::string, uint16_t> ids; // "system/event" -> id
    std::string cmdlines;
    uint32_t cpus = 0;
    std::vector<std::vector<std::pair<uint64_t, std::string>>> records; // per CPU: (timestamp, payload)
};

DatFile readDat(const std::string& d) {
    DatFile f;
    size_t at = 0;
    const auto need = [&](size_t n) { return at + n <= d.size(); };
    const auto u = [&](int bytes) {
        uint64_t v = 0;
        for (int i = 0; i < bytes; ++i)
            v |= uint64_t(uint8_t(d[at + size_t(i)])) << (8 * i);
        at += size_t(bytes);
        return v;
    };
    const auto cstr = [&]() {
        const size_t end = d.find('\0', at);
        std::string s = d.substr(at, end - at);
        at = end + 1;
        return s;
    };
    const auto formatId = [&](const std::string& fmt, const std::string& system) {
        std::smatch m;
        if (std::regex_search(fmt, m, std::regex("name: (\\S+)\nID: (\\d+)\n")))
            f.ids[system + "/" + m[1].str()] = uint16_t(std::stoi(m[2]));
    };
    if (d.compare(0, 10, std::string("\x17\x08\x44tracing", 10)) != 0) return f.error = "magic", f;
    at = 10;
    if (cstr() != "6") return f.error = "version", f;
    if (u(1) != 0 || u(1) != 8 || u(4) != 4096) return f.error = "endianness, long size or page size", f;
    if (cstr() != "header_page") return f.error = "header_page", f;
    at += size_t(u(8));
    if (cstr() != "header_event") return f.error = "header_event", f;
    at += size_t(u(8));
    for (uint64_t n = u(4); n > 0; --n) {
        const size_t len = size_t(u(8));
        formatId(d.substr(at, len), "ftrace");
        at += len;
    }
    for (uint64_t systems = u(4); systems > 0; --systems) {
        const std::string system = cstr();
        for (uint64_t n = u(4); n > 0; --n) {
            const size_t len = size_t(u(8));
            formatId(d.substr(at, len), system);
            at += len;
        }
    }
    at += size_t(u(4)); // kallsyms
    at += size_t(u(4)); // printk formats
    const size_t cl = size_t(u(8));
    f.cmdlines = d.substr(at, cl);
    at += cl;
    f.cpus = uint32_t(u(4));
    if (d.compare(at, 10, std::string("flyrecord\0", 10)) != 0) return f.error = "flyrecord", f;
    at += 10;
    std::vector<std::pair<uint64_t, uint64_t>> where;
    for (uint32_t c = 0; c < f.cpus; ++c) {
        const uint64_t off = u(8), size = u(8);
        where.push_back({off, size});
    }
    f.records.resize(f.cpus);
    for (uint32_t c = 0; c < f.cpus; ++c) {
        const auto [off, size] = where[c];
        if (size == 0) continue;
        if (off % 4096 != 0 || size % 4096 != 0 || off + size > d.size())
            return f.error = "cpu data placement", f;
        for (uint64_t page = off; page < off + size; page += 4096) {
            at = size_t(page);
            uint64_t ts = u(8);
            const uint64_t commit = u(8);
            if (commit > 4080) return f.error = "commit beyond the page", f;
            const size_t end = size_t(page + 16 + commit);
            while (at < end) {
                const uint32_t h = uint32_t(u(4));
                const uint32_t type = h & 31, delta = h >> 5;
                if (type == 30) { // time extend
                    ts += delta + (u(4) << 27);
                    continue;
                }
                if (type == 0 || type > 28) return f.error = "record type " + std::to_string(type), f;
                ts += delta;
                if (!need(type * 4)) return f.error = "record past the end", f;
                f.records[c].push_back({ts, d.substr(at, type * 4)});
                at += type * 4;
            }
            if (at != end) return f.error = "records overrun the commit", f;
        }
    }
    return f;
}

// The kernel's counters of two traces of one run agree.
void compareSwitchCounts(const Trace& got, const Trace& want) {
    const SwitchCounts a = countSwitches(want), b = countSwitches(got);
    QCOMPARE(b.total, a.total);
    QCOMPARE(b.voluntary, a.voluntary);
    QCOMPARE(b.involuntary, a.involuntary);
}

LatencyOptions perTask() {
    LatencyOptions lo;
    lo.mergeByComm = false;
    return lo;
}

// One task on one CPU running [times[0], times[1]), [times[2], times[3]), ... and blocking after each.
Trace oneTaskTrace(const std::vector<Time>& times) {
    Trace t;
    t.cpus = 1;
    t.tasks.push_back({1000, 1000, "a", 120, 0});
    for (size_t i = 0; i + 1 < times.size(); i += 2) {
        t.slices.push(times[i], times[i + 1], 0, 0, uint8_t(SwitchPoint::Block), kNoReason);
    }
    return t;
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
        const auto us = [&](Time t) { return (t + offset + 500) / kNsPerUs; }; // ns2usecs() rounds
        std::map<std::tuple<int32_t, int, Time>, std::pair<Time, int>>
            want; // (pid, cpu, start us) -> (end us, class)
        const auto cls = [](uint8_t p) {
            if (p == kStillRunning) return 0;
            if (p == uint8_t(SwitchPoint::Block)) return 1;
            if (p == uint8_t(SwitchPoint::Exit)) return 2;
            return isPreemptMode(SwitchPoint(p)) ? 3 : 4;
        };
        for (size_t i = 0; i < sim.slices.size(); ++i)
            want[{sim.tasks[size_t(sim.slices.task[i])].pid, sim.slices.cpu[i], us(sim.slices.start[i])}] = {
                us(sim.slices.end[i]), cls(sim.slices.endPoint[i])};
        QCOMPARE(back.slices.size(), sim.slices.size());
        const Time first = rep.first / kNsPerUs;
        int compared = 0;
        for (size_t i = 0; i < back.slices.size(); ++i) {
            const auto it = want.find({back.tasks[size_t(back.slices.task[i])].pid, back.slices.cpu[i],
                                       first + back.slices.start[i] / kNsPerUs});
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
        // Timer wakeups are written in hardirq context (d.h2.), so they come back without a waker.
        const auto fromIrq = [](const Trace& t) {
            return std::count(t.wakeups.waker.begin(), t.wakeups.waker.end(), kNoTask);
        };
        QVERIFY(fromIrq(sim) > 50);
        QCOMPARE(fromIrq(back), fromIrq(sim));
        QCOMPARE(back.migrations.size(), sim.migrations.size());
        QCOMPARE(migrationSet(back), migrationSet(sim));
        // The metrics agree: switch counts exactly, perf sched latency per task to the microsecond.
        compareSwitchCounts(back, sim);
        if (QTest::currentTestFailed()) return;
        const auto ra = perfSchedLatency(sim, perTask()), rb = perfSchedLatency(back, perTask());
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
            FILE* f = popen(
                ("xz -dc '" + std::string(SCHEDSCOPE_TEST_DATA) + "/traces/massive_intr-8x8ms-1ms.trace.xz'")
                    .c_str(),
                "r");
            QVERIFY(f);
            char buf[65536];
            for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;)
                real.append(buf, n);
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
                QVERIFY(std::regex_match(
                    b, std::regex(R"(# entries-in-buffer/entries-written: (\d+)/\1   #P:2)")));
                continue;
            }
            QCOMPARE(b, a);
        }
        const std::regex prefix(
            R"(^ *\S[^\[]*-\d+ +\[\d{3}\] [.dDb][.NnpBbLl][.ZzHhs][.0-9a-f][.0-9] +\d+\.\d{6}: ([a-z_]+): )");
        const std::map<std::string, std::regex> value = {{"prev_state", std::regex("(R\\+?|S|D|X|Z|I)")},
                                                         {"target_cpu", std::regex(R"(\d{3})")},
                                                         {"prio", std::regex(R"(-?\d+)")},
                                                         {"pid", std::regex(R"(\d+)")}};
        int kinds = 0;
        for (const char* event : {"sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
                                  "sched_migrate_task", "sched_process_fork", "sched_process_exit"}) {
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
                    if (std::regex_search(payload, v, kv))
                        QVERIFY2(std::regex_match(v[2].str(), re), line.c_str());
                }
            }
        }
        QCOMPARE(kinds, 7);
    }

    // Perfetto's UI opens ftrace text through trace_processor (importers/systrace): a file whose
    // start contains "# tracer" is systrace text; each line not starting with '#' is tokenized
    // around its first "[digits]" (the CPU): before it "-PID", optionally "(TGID)", after the task
    // name; after it the first "digits.digits:" is the timestamp, then the event name up to ':'.
    // A line that fails is dropped (systrace_parse_failure). systrace_line_parser.cc then splits
    // the payload on ' ' and '=': a sched_switch is dropped unless prev_pid, prev_prio, next_pid
    // and next_prio are integers, and its prev_state shows as "?" unless it is R, R+ or a set of
    // the letters task_state.cc knows (S D T t X Z x K W P N); a sched_waking needs pid=.
    void linesSatisfyPerfettosSystraceParser() {
        const Engine e = richRun();
        const std::string text = exportText(e.trace(), 100 * kNsPerSec);
        QVERIFY(text.find("# tracer") < 20);
        const std::regex line(
            R"(^(.+)-(\d+)\s+(?:\(\s*(?:\d+|-+)\)\s*)?\[(\d+)\][^\[]*?\s(\d+\.\d+):\s+([^\s:]+):(.*)$)");
        const std::regex state(R"(R\+?|[SDTtXZxKWPN|]+\+?)");
        std::istringstream in(text);
        std::map<std::string, int64_t> events;
        for (std::string l; std::getline(in, l);) {
            if (l.empty() || l[0] == '#') continue;
            std::smatch m;
            QVERIFY2(std::regex_match(l, m, line), l.c_str());
            QVERIFY2(m[1].str().find('[') == std::string::npos, l.c_str()); // the CPU is the first [digits]
            const std::string event = m[5].str();
            ++events[event];
            std::map<std::string, std::string> arg;
            std::istringstream payload(m[6].str());
            for (std::string tok; payload >> tok;)
                if (const size_t eq = tok.find('='); eq != std::string::npos)
                    arg[tok.substr(0, eq)] = tok.substr(eq + 1);
            const auto integer = [&](const char* k) {
                return std::regex_match(arg[k], std::regex(R"(-?\d+)"));
            };
            if (event == "sched_switch") {
                for (const char* k : {"prev_pid", "prev_prio", "next_pid", "next_prio"})
                    QVERIFY2(integer(k), l.c_str());
                QVERIFY2(std::regex_match(arg["prev_state"], state), l.c_str());
            }
            if (event == "sched_waking") QVERIFY2(integer("pid"), l.c_str());
        }
        qInfo("%lld sched_switch, %lld sched_waking lines", (long long)events["sched_switch"],
              (long long)events["sched_waking"]);
        QVERIFY(events["sched_switch"] > 300);
        QVERIFY(events["sched_waking"] > 100);
    }

    // trace-cmd.dat.v6(5): the header sections in order, the event formats with ids, the pid ->
    // comm map, page-aligned CPU data whose pages hold exactly the records written, in time
    // order, each with the common fields the text shows (event id, irqs-off flag, pid).
    void traceDatHasTheManPagesLayout() {
        const Engine e = richRun();
        std::string dat;
        FtraceExportOptions o;
        o.offset = 100 * kNsPerSec;
        const int64_t n = writeTraceDat(
            e.trace(), [&](std::string_view s) { dat += s; }, o);
        const DatFile f = readDat(dat);
        QVERIFY2(f.error.empty(), f.error.c_str());
        QCOMPARE(f.cpus, uint32_t(2));
        for (const char* ev : {"sched/sched_switch", "sched/sched_waking", "sched/sched_wakeup",
                               "sched/sched_wakeup_new", "sched/sched_migrate_task",
                               "sched/sched_process_fork", "sched/sched_process_exit", "ftrace/print"})
            QVERIFY2(f.ids.count(ev), ev);
        QCOMPARE(f.ids.at("ftrace/print"), uint16_t(5)); // TRACE_PRINT
        for (const TraceTask& t : e.trace().tasks)
            QVERIFY(f.cmdlines.find(std::to_string(t.pid) + " " + t.comm + "\n") != std::string::npos);
        int64_t records = 0, switches = 0, gaps = 0;
        for (const auto& cpu : f.records) {
            uint64_t last = 0;
            for (const auto& [ts, payload] : cpu) {
                QVERIFY(ts >= last && ts >= uint64_t(o.offset));
                gaps += ts - last > (uint64_t(1) << 27) && last > 0; // needed a time-extend record
                last = ts;
                uint16_t id;
                std::memcpy(&id, payload.data(), 2);
                if (id == f.ids.at("sched/sched_switch")) {
                    ++switches;
                    QCOMPARE(payload.size(), size_t(64));
                    QCOMPARE(uint8_t(payload[2]) & 1, 1); // __schedule() runs with irqs off
                    int32_t commonPid, prevPid;
                    std::memcpy(&commonPid, payload.data() + 4, 4);
                    std::memcpy(&prevPid, payload.data() + 24, 4);
                    QCOMPARE(commonPid, prevPid); // the record is made by the task switching out
                }
                ++records;
            }
        }
        QCOMPARE(records, n);
        std::string text;
        writeFtraceText(
            e.trace(), [&](std::string_view s) { text += s; }, o);
        QCOMPARE(switches, int64_t(linesOf(text, "sched_switch", SIZE_MAX).size()));
        qInfo("%lld records, %lld gaps longer than a 27-bit delta", (long long)records, (long long)gaps);
    }

    // The file read back through libtracecmd (schedscope-dat-reader) gives what the ftrace text
    // gives: slices, wakeups, migrations, markers, switch counts and perf sched latency - to the
    // microsecond the text rounds to (the trace.dat keeps nanoseconds).
    void traceDatReadsBackThroughLibtracecmd() {
        const Engine e = richRun();
        QTemporaryDir dir;
        const std::string path = dir.filePath("run.dat").toStdString();
        {
            std::ofstream out(path, std::ios::binary);
            FtraceExportOptions o;
            o.offset = 100 * kNsPerSec;
            writeTraceDat(
                e.trace(), [&](std::string_view s) { out.write(s.data(), std::streamsize(s.size())); }, o);
        }
        Trace back;
        ImportReport rep;
        std::string error;
        QVERIFY2(loadTrace(path, back, rep, error), error.c_str());
        QCOMPARE(rep.format, TraceFormat::TraceDat);
        QCOMPARE(rep.malformed, int64_t(0));
        ImportReport textRep;
        const Trace text = importTraceText(exportText(e.trace(), 100 * kNsPerSec), textRep);
        QCOMPARE(back.slices.size(), text.slices.size());
        for (size_t i = 0; i < back.slices.size(); ++i) {
            QVERIFY(std::llabs(back.slices.start[i] - text.slices.start[i]) <= 500);
            QVERIFY(std::llabs(back.slices.end[i] - text.slices.end[i]) <= 500);
        }
        QCOMPARE(back.wakeups.size(), text.wakeups.size());
        QCOMPARE(back.migrations.size(), text.migrations.size());
        QCOMPARE(back.markers.size(), text.markers.size());
        for (size_t i = 0; i < back.markers.size(); ++i)
            QCOMPARE(back.markers[i].text, text.markers[i].text);
        // The latency flags come through too, the lazy need-resched bit included (libtraceevent 1.7's
        // own column, and so `trace-cmd report -l`, drops it; the reader prints it as the kernel does).
        QVERIFY(back.flags.size() > 0);
        QCOMPARE(back.flags.size(), text.flags.size());
        size_t lazy = 0;
        for (size_t i = 0; i < back.flags.size(); ++i)
            lazy += back.flags.bit[i] == uint8_t(ReschedBit::Lazy);
        QVERIFY(lazy > 0);
        compareSwitchCounts(back, text);
        if (QTest::currentTestFailed()) return;
        const auto ra = perfSchedLatency(text, perTask()), rb = perfSchedLatency(back, perTask());
        QCOMPARE(rb.size(), ra.size());
        for (size_t i = 0; i < ra.size(); ++i) {
            QCOMPARE(rb[i].pid, ra[i].pid);
            QCOMPARE(rb[i].count, ra[i].count);
            QVERIFY(std::llabs(rb[i].runtime - ra[i].runtime) <= Time(ra[i].count + 2) * kNsPerUs);
            QVERIFY(std::llabs(rb[i].maxDelay - ra[i].maxDelay) <= kNsPerUs);
        }
    }

    // The binary keeps nanoseconds; a gap longer than a 27-bit delta (134 ms) goes through a
    // time-extend record and comes back exact.
    void traceDatKeepsNanosecondsAcrossLongGaps() {
        const Trace t = oneTaskTrace({1499, 2500, 5 * kNsPerSec + 7, 5 * kNsPerSec + 300'001});
        std::string dat;
        QCOMPARE(writeTraceDat(t, [&](std::string_view s) { dat += s; }), int64_t(4));
        const DatFile f = readDat(dat);
        QVERIFY2(f.error.empty(), f.error.c_str());
        QCOMPARE(f.records[0].size(), size_t(4));
        const std::vector<uint64_t> want = {1499, 2500, 5 * kNsPerSec + 7, 5 * kNsPerSec + 300'001};
        for (size_t i = 0; i < 4; ++i)
            QCOMPARE(f.records[0][i].first, want[i]);
    }

    // ftrace prints microseconds rounded to nearest (ns2usecs() adds 500 ns before dividing).
    void timestampsRoundToTheNearestMicrosecond() {
        const Trace t = oneTaskTrace({1499, 2500});
        const std::string text = exportText(t, 100 * kNsPerSec);
        QVERIFY2(text.find("100.000001: sched_switch: prev_comm=swapper/0") != std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("100.000003: sched_switch: prev_comm=a") != std::string::npos, text.c_str());
    }

    // ttwu_do_activate(): wakeup_preempt() sets TIF_NEED_RESCHED before trace_sched_wakeup(), so
    // the line shows N even when the IRQ exit switches at the same nanosecond (the engine has no
    // time between them); sched_waking comes before wakeup_preempt() and shows no N.
    void wakeupLineShowsTheBitItsWakeupSets() {
        Trace t;
        t.cpus = 1;
        t.tasks.push_back({1000, 1000, "hog", 120, 0});
        t.tasks.push_back({1001, 1001, "sleeper", 120, 0});
        t.slices.push(1000, 5000, 0, 0, uint8_t(SwitchPoint::ExitToUser),
                      uint8_t(ReschedReason::WakeupPreempt));
        t.slices.push(5000, 9000, 1, 0, uint8_t(SwitchPoint::Block), kNoReason);
        t.wakeups.push(5000, kNoTask, 1, 0, 0, false); // from the hrtimer interrupt
        t.flags.push(5000, 5000, 0, 0, uint8_t(ReschedBit::Eager), uint8_t(ReschedReason::WakeupPreempt),
                     uint8_t(SwitchPoint::ExitToUser));
        const std::string text = exportText(t, 100 * kNsPerSec);
        const auto lineWith = [&](const char* what) {
            const size_t at = text.find(what);
            if (at == std::string::npos) return std::string();
            const size_t start = text.rfind('\n', at) + 1;
            return text.substr(start, text.find('\n', at) - start);
        };
        QVERIFY2(lineWith("sched_wakeup: comm=sleeper").find(" dNh3. ") != std::string::npos, text.c_str());
        QVERIFY2(lineWith("sched_waking: comm=sleeper").find(" d.h2. ") != std::string::npos, text.c_str());
        QVERIFY2(lineWith("sched_switch: prev_comm=hog").find(" d..2. ") != std::string::npos, text.c_str());
    }

    void rangeLimitsTheLines() {
        const Engine e = richRun();
        std::string all, part;
        FtraceExportOptions o;
        const int64_t n = writeFtraceText(
            e.trace(), [&](std::string_view s) { all += s; }, o);
        o.from = 100 * kNsPerMs;
        o.to = 150 * kNsPerMs;
        const int64_t k = writeFtraceText(
            e.trace(), [&](std::string_view s) { part += s; }, o);
        QVERIFY(k > 0 && k < n / 3);
        ImportReport rep;
        const Trace t = importTraceText(part, rep);
        QVERIFY(rep.first >= 100 * kNsPerMs && rep.last <= 150 * kNsPerMs);
    }
};

QTEST_GUILESS_MAIN(TestTraceExport)
#include "tst_export.moc"
