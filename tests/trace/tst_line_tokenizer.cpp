// SPDX-License-Identifier: GPL-3.0-or-later
// The text-trace tokenizer: each layout's fields, read off lines as the tools print them (ftrace's
// trace file, trace-cmd report with and without -l, perf script), the header lines that state the
// CPU count, and the malformed lines, each with its reason. The event parser is tst_import's.
#include "trace/line_tokenizer.h"
#include "trace/text_fields.h"

#include <charconv>
#include <random>
#include <string>

#include <QTest>

using namespace sched;

class TstLineTokenizer : public QObject {
    Q_OBJECT
  private slots:
    // text::number() reads a decimal integer exactly as std::from_chars() does (it replaced it for
    // speed): the same verdict and value for edge cases and for 200,000 random strings of digits,
    // signs and other characters, for every width the importer uses.
    void numbersAreReadAsFromCharsReadsThem() {
        const auto same = [](const std::string& s) {
            const auto check = [&](auto zero) {
                using T = decltype(zero);
                T a{}, b{};
                const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), a);
                const bool want = !s.empty() && ec == std::errc() && p == s.data() + s.size();
                const bool got = sched::text::number(std::string_view(s), b);
                if (got != want || (got && a != b))
                    qFatal("'%s': from_chars %d, number %d", s.c_str(), want, got);
            };
            check(int32_t{}), check(int64_t{}), check(uint16_t{}), check(uint64_t{}), check(int8_t{});
        };
        for (const char* s : {"",
                              "-",
                              "0",
                              "-0",
                              "007",
                              "+1",
                              " 1",
                              "1 ",
                              "2147483647",
                              "2147483648",
                              "-2147483648",
                              "-2147483649",
                              "9223372036854775807",
                              "9223372036854775808",
                              "-9223372036854775808",
                              "-9223372036854775809",
                              "18446744073709551615",
                              "18446744073709551616",
                              "99999999999999999999999",
                              "65535",
                              "65536",
                              "-1",
                              "127",
                              "128",
                              "-128",
                              "-129",
                              "12a",
                              "1.5",
                              "--1"})
            same(s);
        std::mt19937_64 rng(7);
        const std::string alphabet = "0123456789-+ a.";
        for (int i = 0; i < 200000; ++i) {
            std::string s(rng() % 22, ' ');
            for (char& c : s)
                c = alphabet[rng() % (i % 2 ? 10 : alphabet.size())];
            same(s);
        }
    }
    void ftraceText() {
        const TokenizedLine t = tokenizeLine("          <idle>-0       [001] dNh2.   976.785403: "
                                             "sched_wakeup: comm=cyclictest pid=1234 prio=19 target_cpu=001");
        QCOMPARE(t.kind, LineKind::Event);
        QCOMPARE(t.line.layout, LineLayout::Ftrace);
        QCOMPARE(t.line.comm, std::string_view("<idle>"));
        QCOMPARE(t.line.pid, 0);
        QCOMPARE(t.line.cpu, 1);
        QCOMPARE(t.line.flags, std::string_view("dNh2."));
        QCOMPARE(t.line.timestamp, Time(976'785'403'000));
        QCOMPARE(t.line.event, std::string_view("sched_wakeup"));
        QCOMPARE(t.line.payload, std::string_view("comm=cyclictest pid=1234 prio=19 target_cpu=001"));
    }

    void commsWithDashesAndBlanks() {
        const TokenizedLine t =
            tokenizeLine(" kworker/u8:2-ev-5501  [000] d..2.   10.000001: sched_switch: prev_comm=x");
        QCOMPARE(t.kind, LineKind::Event);
        QCOMPARE(t.line.comm, std::string_view("kworker/u8:2-ev"));
        QCOMPARE(t.line.pid, 5501);
        const TokenizedLine p = tokenizeLine(
            "  Web Content  4242 [003] 5.5: sched:sched_waking: comm=a pid=1 prio=120 target_cpu=003");
        QCOMPARE(p.kind, LineKind::Event);
        QCOMPARE(p.line.layout, LineLayout::PerfScript);
        QCOMPARE(p.line.comm, std::string_view("Web Content"));
        QCOMPARE(p.line.pid, 4242);
        QCOMPARE(p.line.timestamp, Time(5'500'000'000));
        QCOMPARE(p.line.event, std::string_view("sched_waking"));
        QVERIFY(p.line.flags.empty());
    }

    void perfScriptWithAPidColumn() { // perf script -F comm,pid,tid,cpu,time,event,trace
        const TokenizedLine t =
            tokenizeLine("  hackbench 17431/17433 [001] 100.000123: sched:sched_switch: prev_comm=hackbench");
        QCOMPARE(t.kind, LineKind::Event);
        QCOMPARE(t.line.layout, LineLayout::PerfScript);
        QCOMPARE(t.line.comm, std::string_view("hackbench"));
        QCOMPARE(t.line.pid, 17433);
        QCOMPARE(t.line.tgid, 17431);
        QCOMPARE(tokenizeLine("  x 1/4194304 [001] 1.0: sched:sched_switch: p").kind, LineKind::Malformed);
    }

    void traceCmdReport() {
        const TokenizedLine t = tokenizeLine("     hackbench-17431 [000]   100.000123: sched_switch:         "
                                             "hackbench:17431 [120] S ==> swapper/0:0 [120]");
        QCOMPARE(t.kind, LineKind::Event);
        QCOMPARE(t.line.layout, LineLayout::TraceCmd);
        QCOMPARE(t.line.cpu, 0);
        QVERIFY(t.line.flags.empty());
        QCOMPARE(t.line.timestamp, Time(100'000'123'000));
        QCOMPARE(t.line.payload, std::string_view("hackbench:17431 [120] S ==> swapper/0:0 [120]"));
    }

    void traceCmdReportLatency() {
        // The CPU number run together with the latency flags; the payload's "[120]" is not the CPU.
        const TokenizedLine t = tokenizeLine(
            "  <idle>-0      15dN.2.   100.000000: sched_wakeup:         cyclictest:1234 [19] CPU:015");
        QCOMPARE(t.kind, LineKind::Event);
        QCOMPARE(t.line.layout, LineLayout::TraceCmdLatency);
        QCOMPARE(t.line.cpu, 15);
        QCOMPARE(t.line.flags, std::string_view("dN.2."));
        QCOMPARE(t.line.timestamp, Time(100) * kNsPerSec);
        QCOMPARE(t.line.event, std::string_view("sched_wakeup"));
    }

    void headersStateTheCpuCount() {
        const TokenizedLine f = tokenizeLine("# entries-in-buffer/entries-written: 140080/250280   #P:4");
        QCOMPARE(f.kind, LineKind::Comment);
        QCOMPARE(f.cpusHint, 4);
        const TokenizedLine c = tokenizeLine("cpus=2");
        QCOMPARE(c.kind, LineKind::NoCpu);
        QCOMPARE(c.cpusHint, 2);
        QCOMPARE(tokenizeLine("version = 6").kind, LineKind::NoCpu);
        QCOMPARE(tokenizeLine("   \r").kind, LineKind::Comment);
        QCOMPARE(tokenizeLine("#P:0").cpusHint, 0); // not a CPU count
    }

    void malformedLinesSayWhy() {
        const struct {
            const char* line;
            const char* why;
        } cases[] = {
            {"a-1 [4096] d..2. 1.0: sched_switch: x", "CPU number out of range"},
            {"a-1 [001]", "truncated after the CPU field"},
            {"a-1 [001] d..2.", "truncated after the CPU field"},
            {"a-1 [001] d..2. 1.5", "truncated after the flags"},
            {"a-1 [001] d..2. 12345678: sched_switch: x", "a timestamp without a decimal point"},
            {"a-1 [001] d..2. 1.0000000001: sched_switch: x", "no 'SECONDS.MICROS:' timestamp"},
            {"a [001] d..2. 1.0: sched_switch: x", "no 'comm-pid' before the CPU field"},
            {"a-4194304 [001] d..2. 1.0: sched_switch: x", "pid out of range before the CPU field"},
        };
        for (const auto& c : cases) {
            const TokenizedLine t = tokenizeLine(c.line);
            QVERIFY2(t.kind == LineKind::Malformed, c.line);
            QVERIFY2(t.why.rfind(c.why, 0) == 0, (std::string(c.line) + " -> " + t.why).c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TstLineTokenizer)
#include "tst_line_tokenizer.moc"
