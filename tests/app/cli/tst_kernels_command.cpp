// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope-cli kernels: docs/kernels.md is the command's output; every rule names its commit;
// two names list the rules that differ, and compare puts that list above its table.
#include "app/cli/compare_command.h"
#include "app/cli/kernels_command.h"
#include "engine/kernel_diff.h"

#include <QFile>
#include <QRegularExpression>
#include <QtTest>
#include <sstream>

using namespace sched;

namespace {

std::string kernelsOut(const std::vector<std::string>& args) {
    KernelsOptions o;
    const std::string e = parseKernelsOptions(args, o);
    if (!e.empty()) qFatal("%s", e.c_str());
    std::ostringstream out, err;
    if (kernelsCommand(o, out, err) != 0) qFatal("kernels failed");
    return out.str();
}

} // namespace

class TestKernelsCommand : public QObject {
    Q_OBJECT
  private slots:
    void docsKernelsMdIsTheCommandsOutput() {
        QFile f(QStringLiteral(SCHEDSCOPE_SCENARIO_DIR "/../docs/kernels.md"));
        QVERIFY2(f.open(QIODevice::ReadOnly), "docs/kernels.md is missing");
        const std::string doc = f.readAll().toStdString();
        // Not QCOMPARE on the whole text: on a difference, name the first line that differs.
        const std::string gen = kernelsOut({"--markdown"});
        if (doc != gen) {
            size_t i = 0, line = 1;
            while (i < doc.size() && i < gen.size() && doc[i] == gen[i])
                line += doc[i++] == '\n';
            QFAIL(
                qPrintable(QString("docs/kernels.md differs from `schedscope-cli kernels --markdown` at line "
                                   "%1; regenerate it (the file's header says how)")
                               .arg(line)));
        }
    }

    void everyRuleNamesItsCommitAndWhereItActs() {
        const QRegularExpression commit(QStringLiteral("^[0-9a-f]{12} "));
        const QRegularExpression version(QStringLiteral("^[0-9]+\\.[0-9]+(\\.[0-9]+)?$"));
        for (size_t r = 0; r < kRuleCount; ++r) {
            const RuleInfo& ri = ruleInfo(Rule(r));
            const QString name = QString::fromUtf8(ri.name.data(), qsizetype(ri.name.size()));
            QVERIFY2(
                commit.match(QString::fromUtf8(ri.commit.data(), qsizetype(ri.commit.size()))).hasMatch(),
                qPrintable(name + ": the commit must start with a 12-digit id"));
            QVERIFY2(version.match(QString::fromUtf8(ri.since.data(), qsizetype(ri.since.size()))).hasMatch(),
                     qPrintable(name + ": 'since' must be a kernel version"));
            QVERIFY2(!ri.where.empty() && !ri.what.empty(), qPrintable(name));
        }
    }

    void twoKernelsListTheRulesThatDiffer() {
        const std::string d = kernelsOut({"6.18", "6.18.44"});
        QVERIFY2(d.find("kernel 6.18 -> 6.18.44:") == 0, d.c_str());
        QVERIFY2(d.find("  + yield-forfeit (6.18.2, 79104becf42b)") != std::string::npos, d.c_str());
        QVERIFY2(d.find("  - newidle-cost-bump (6.17, 155213a2aed4)") != std::string::npos, d.c_str());
        QVERIFY2(d.find("group-min-slice") == std::string::npos, "a rule both have is not a difference");
        QCOMPARE(kernelsOut({"6.12", "6.12"}), std::string("the two profiles have the same rules\n"));
        // The lazy model is a difference in the models each kernel boots with.
        QVERIFY(kernelsOut({"6.12", "6.18"})
                    .find("preemption models: none, voluntary, full -> none, voluntary, "
                          "full, lazy") != std::string::npos);
    }

    void badArgumentsAreRefusedWithWhatIsAccepted() {
        KernelsOptions o;
        QVERIFY(parseKernelsOptions({"6.6", "6.18"}, o).find("'6.6' is not a kernel; accepted: ") == 0);
        KernelsOptions o2;
        QVERIFY(parseKernelsOptions({"6.18"}, o2).find("give two kernels") == 0);
        KernelsOptions o3;
        QVERIFY(parseKernelsOptions({"--markdown", "6.18", "6.12"}, o3).find("--markdown prints every") == 0);
        KernelsOptions o4;
        QVERIFY(parseKernelsOptions({"--md"}, o4).find("unknown option '--md'") == 0);
    }

    void compareOfTwoKernelsPrintsTheirDifferenceFirst() {
        CompareOptions o;
        QVERIFY(parseCompareOptions({"kernel-hogs-waker@kernel=6.18,duration=50ms",
                                     "kernel-hogs-waker@kernel=6.18.44,duration=50ms"},
                                    o)
                    .empty());
        std::ostringstream out, err;
        QCOMPARE(compareCommand(o, out, err), 0);
        const std::string s = out.str();
        QVERIFY2(s.find("kernel 6.18 -> 6.18.44: 12 rules differ") == 0, s.c_str());
        QVERIFY2(s.find("Task group") > s.find("+ dl-server-revised-only-running"), s.c_str());
        // The same kernel on both sides: no header, the table first.
        CompareOptions same;
        QVERIFY(parseCompareOptions(
                    {"kernel-hogs-waker@duration=50ms", "kernel-hogs-waker@preempt=full,duration=50ms"}, same)
                    .empty());
        std::ostringstream out2;
        QCOMPARE(compareCommand(same, out2, err), 0);
        QVERIFY2(out2.str().find("rules differ") == std::string::npos, out2.str().c_str());
    }
};

QTEST_GUILESS_MAIN(TestKernelsCommand)
#include "tst_kernels_command.moc"
