// SPDX-License-Identifier: GPL-3.0-or-later
// Task names (trace/comm.h): a comm with control characters or bytes that are not UTF-8 is made
// printable on import — and a trace holding one exports to ftrace text that imports back line for
// line — while a comm a user writes must be printable already.
#include "trace/comm.h"
#include "trace/ftrace_text.h"
#include "trace/import.h"

#include <QTest>

using namespace sched;

class TstComm : public QObject {
    Q_OBJECT
  private slots:
    void printableCommReplacesWhatCannotBeShown() {
        const struct {
            std::string in, out;
            bool changed;
        } cases[] = {
            {"kworker/0:1", "kworker/0:1", false},
            {"caf\xc3\xa9", "caf\xc3\xa9", false}, // é: valid UTF-8 stays
            {"a\nb", "a?b", true},                 // a newline
            {std::string("a\0b", 3), "a?b", true}, // NUL
            {"x\x7f", "x?", true},                 // DEL
            {"\xff\xfe", "??", true},              // not UTF-8
            {"abcdefghijklmn\xc3", "abcdefghijklmn?",
             true},                        // a character cut at 15 bytes, as the kernel cuts it
            {"\xc0\xaf", "??", true},      // an overlong '/'
            {"\xed\xa0\x80", "???", true}, // a UTF-16 surrogate
        };
        for (const auto& c : cases) {
            bool changed = !c.changed;
            QCOMPARE(printableComm(c.in, &changed), c.out);
            QCOMPARE(changed, c.changed);
        }
    }

    void commProblemNamesTheByte() {
        QCOMPARE(commProblem("hackbench"), std::string());
        QCOMPARE(commProblem("caf\xc3\xa9"), std::string());
        QCOMPARE(commProblem("two\nlines"), std::string("contains a control character (U+000A) at byte 4"));
        QCOMPARE(commProblem("a\xff"), std::string("byte 2 (0xff) is not UTF-8"));
    }

    void anUnprintableCommSurvivesExportAndImport() {
        const std::string text =
            "   x-11 [000] d..2.     1.000000: sched_switch: prev_comm=x prev_pid=11 prev_prio=120 "
            "prev_state=S ==> "
            "next_comm=bad\x1bname next_pid=12 next_prio=120\n"
            "   y-12 [000] d..2.     1.000100: sched_switch: prev_comm=bad\x1bname prev_pid=12 prev_prio=120 "
            "prev_state=S ==> next_comm=\xff\xfe next_pid=13 next_prio=120\n"
            "   z-13 [000] d..2.     1.000200: sched_switch: prev_comm=\xff\xfe prev_pid=13 prev_prio=120 "
            "prev_state=S ==> next_comm=x next_pid=11 next_prio=120\n";
        ImportReport rep;
        const Trace t = importTraceText(text, rep);
        QCOMPARE(rep.malformed, int64_t(0));
        QCOMPARE(rep.unprintableComms, int64_t(2));
        QVERIFY(rep.summary().find("2 task names held control characters") != std::string::npos);
        std::string exported;
        writeFtraceText(t, [&](std::string_view chunk) { exported.append(chunk); });
        QVERIFY(exported.find('\x1b') == std::string::npos);
        ImportReport back;
        const Trace u = importTraceText(exported, back);
        QCOMPARE(back.malformed, int64_t(0));
        QCOMPARE(u.slices.size(), t.slices.size());
        bool found = false;
        for (const TraceTask& task : u.tasks)
            found = found || task.comm == "bad?name";
        QVERIFY(found);
    }
};

QTEST_GUILESS_MAIN(TstComm)
#include "tst_comm.moc"
