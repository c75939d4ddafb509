// SPDX-License-Identifier: GPL-3.0-or-later
// Bad and extreme inputs against the real program, schedscope-cli, as a user would give them: each
// case runs it as a child process (with a deadline, under a 2 GiB address-space limit) and checks
// its exit code, its message, and that a file it was asked to overwrite is byte for byte what it
// was. The classes are the ones a first hour of trying such inputs found: lost data (a full disk,
// /dev/full), unbounded work (fork bombs, decompression bombs, spinning tasks, endless inputs),
// silent nonsense (stray timestamps, unprintable names, rows that match nothing) and unclear
// messages. A full disk is a 64 KiB tmpfs mounted in this test's own mount namespace (root, as CI
// runs); without root, RLIMIT_FSIZE in the child stands in for it. At the end the test prints the
// cases per class and what went wrong (docs/bad-input.md reports it).
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <lzma.h>
#include <map>
#include <poll.h>
#include <sched.h>
#include <sstream>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

namespace {

const std::string kCli = SCHEDSCOPE_CLI;
const std::string kData = SCHEDSCOPE_TEST_DATA;
constexpr int kDeadlineSeconds = 120;

struct Outcome {
    int exitCode = -1; // -1: killed by a signal (crash) or by the deadline (hang)
    int signal = 0;
    bool hung = false;
    std::string err;
};

// Runs schedscope-cli with args; stdout to `out` ("" = /dev/null). fsizeLimit > 0: RLIMIT_FSIZE.
Outcome runCli(const std::vector<std::string>& args, const std::string& out = "", rlim_t fsizeLimit = 0) {
    int pipefd[2];
    if (pipe(pipefd) != 0) qFatal("pipe");
    const pid_t pid = fork();
    if (pid == 0) {
        const rlimit as{rlim_t(2) << 30, rlim_t(2) << 30}; // a runaway allocation must fail, not swap
        setrlimit(RLIMIT_AS, &as);
        if (fsizeLimit > 0) {
            signal(SIGXFSZ, SIG_IGN);
            const rlimit fs{fsizeLimit, fsizeLimit};
            setrlimit(RLIMIT_FSIZE, &fs);
        }
        const int o = open(out.empty() ? "/dev/null" : out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(o, STDOUT_FILENO);
        dup2(pipefd[1], STDERR_FILENO);
        close(pipefd[0]);
        std::vector<char*> argv{const_cast<char*>(kCli.c_str())};
        for (const std::string& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(kCli.c_str(), argv.data());
        _exit(127);
    }
    close(pipefd[1]);
    Outcome r;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kDeadlineSeconds);
    char buf[4096];
    for (;;) {
        pollfd p{pipefd[0], POLLIN, 0};
        const int left = int(
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
                .count());
        if (left <= 0) {
            r.hung = true;
            kill(pid, SIGKILL);
            break;
        }
        if (poll(&p, 1, left) <= 0) continue;
        const ssize_t n = read(pipefd[0], buf, sizeof buf);
        if (n <= 0) break;
        r.err.append(buf, size_t(n));
    }
    close(pipefd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status)) r.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status) && !r.hung) r.signal = WTERMSIG(status);
    return r;
}

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeAll(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

std::string unxz(const std::string& path) {
    const std::string in = readAll(path);
    lzma_stream s = LZMA_STREAM_INIT;
    if (lzma_stream_decoder(&s, UINT64_MAX, 0) != LZMA_OK) qFatal("liblzma");
    std::string out(64 << 20, '\0');
    s.next_in = reinterpret_cast<const uint8_t*>(in.data());
    s.avail_in = in.size();
    s.next_out = reinterpret_cast<uint8_t*>(out.data());
    s.avail_out = out.size();
    if (lzma_code(&s, LZMA_FINISH) != LZMA_STREAM_END) qFatal("%s: not whole", path.c_str());
    out.resize(out.size() - s.avail_out);
    lzma_end(&s);
    return out;
}

// The classes of the tally, and what went wrong in each.
struct Tally {
    int cases = 0, crashes = 0, hangs = 0, lost = 0, silent = 0;
};
std::map<std::string, Tally> gTally;

} // namespace

class TstReliability : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    std::string dir_;   // inputs and outputs
    std::string full_;  // a directory on a full file system ("" without root)
    std::string trace_; // the massive_intr trace as text

    std::string in(const char* name) const { return dir_ + "/" + name; }

    // One case: run, then the checks every case shares; the class is tallied.
    Outcome check(const char* cls, const std::vector<std::string>& args, int wantExit,
                  const std::string& wantMessage, const std::string& out = "", const std::string& keep = "",
                  rlim_t fsize = 0) {
        const std::string before = keep.empty() ? std::string() : readAll(keep);
        const Outcome r = runCli(args, out, fsize);
        Tally& t = gTally[cls];
        t.cases++;
        t.crashes += r.signal != 0;
        t.hangs += r.hung;
        const bool lost = !keep.empty() && readAll(keep) != before;
        t.lost += lost;
        const bool said = r.err.find(wantMessage) != std::string::npos;
        t.silent += r.exitCode == wantExit && !said;
        if (r.signal) qWarning("killed by signal %d: %s", r.signal, r.err.c_str());
        if (r.hung) qWarning("no end within %d s", kDeadlineSeconds);
        [&] {
            QCOMPARE(r.exitCode, wantExit);
            QVERIFY2(said, (wantMessage + " not in: " + r.err).c_str());
            QVERIFY2(!lost, (keep + " changed").c_str());
        }();
        return r;
    }

  private slots:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        dir_ = tmp_.path().toStdString();
        QVERIFY2(access(kCli.c_str(), X_OK) == 0, kCli.c_str());
        trace_ = unxz(kData + "/traces/massive_intr-8x8ms-1ms.trace.xz");
        QVERIFY(trace_.size() > 1000000);
        // A full file system: a 64 KiB tmpfs in a mount namespace of this test's own, filled up.
        if (geteuid() == 0 && unshare(CLONE_NEWNS) == 0 &&
            mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0) {
            const std::string mnt = dir_ + "/full";
            mkdir(mnt.c_str(), 0755);
            if (mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=64k") == 0) {
                for (const char* name :
                     {"t.svg", "t.pdf", "t.png", "run.trace", "run.dat", "x.txt", "d.json"})
                    writeAll(mnt + "/" + name, std::string("the old file ") + name + "\n");
                const int fd = open((mnt + "/filler").c_str(), O_WRONLY | O_CREAT, 0600);
                const std::string block(4096, 'f');
                while (write(fd, block.data(), block.size()) > 0) {
                }
                close(fd);
                full_ = mnt;
            }
        }
        if (full_.empty()) qInfo("no root: RLIMIT_FSIZE stands in for a full disk");
    }

    // Lost data: a full disk must leave the old file and say so, exit 1.
    void fullDiskKeepsTheOldFile_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("file");
        QTest::newRow("timeline as SVG")
            << QStringList{"run", "kernel-hogs-waker", "--export-timeline", "@/t.svg"} << "t.svg";
        QTest::newRow("timeline as PDF")
            << QStringList{"run", "kernel-hogs-waker", "--export-timeline", "@/t.pdf"} << "t.pdf";
        QTest::newRow("timeline as PNG")
            << QStringList{"run", "kernel-hogs-waker", "--export-timeline", "@/t.png"} << "t.png";
        QTest::newRow("chart as SVG")
            << QStringList{"run",     "kernel-hogs-waker", "--duration", "100ms", "--export-chart",
                           "@/c.svg", "--select",          "waker"}
            << "c.svg";
        QTest::newRow("small ftrace export")
            << QStringList{"run", "kernel-hogs-waker", "--duration", "20ms", "--export-ftrace", "@/run.trace"}
            << "run.trace";
        QTest::newRow("small trace.dat export")
            << QStringList{"run", "kernel-hogs-waker", "--duration", "20ms", "--export-ftrace", "@/run.dat"}
            << "run.dat";
        QTest::newRow("experiment --output")
            << QStringList{"experiment",
                           QString::fromStdString(std::string(SCHEDSCOPE_SCENARIO_DIR) +
                                                  "/experiments/preempt-auto-full-kernbench.json"),
                           "--quick",
                           "--repeat",
                           "1",
                           "--output",
                           "@/x.txt"}
            << "x.txt";
        QTest::newRow("derive -o") << QStringList{"derive",
                                                  QString::fromStdString(
                                                      kData + "/traces/massive_intr-8x8ms-1ms.trace.xz"),
                                                  "-o", "@/d.json"}
                                   << "d.json";
    }
    void fullDiskKeepsTheOldFile() {
        QFETCH(QStringList, args);
        QFETCH(QString, file);
        const std::string where = full_.empty() ? dir_ : full_;
        std::vector<std::string> a;
        for (const QString& s : args)
            a.push_back(s.startsWith("@") ? where + s.mid(1).toStdString() : s.toStdString());
        const std::string target = where + "/" + file.toStdString();
        if (full_.empty()) writeAll(target, "the old file\n");
        check("lost data: full disk", a, 1, full_.empty() ? "File too large" : "No space left on device", "",
              target, full_.empty() ? 256 : 0);
        if (!full_.empty()) { // nothing left behind either
            int names = 0;
            for (const char* n :
                 {"t.svg", "t.pdf", "t.png", "run.trace", "run.dat", "x.txt", "d.json", "filler"})
                names += access((full_ + "/" + n).c_str(), F_OK) == 0;
            QCOMPARE(names, 8);
        }
    }

    // Lost output: standard output that cannot be written is an error, not exit 0.
    void stdoutToDevFull_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("run") << QStringList{"run", "kernel-hogs-waker"};
        QTest::newRow("list") << QStringList{"list"};
        QTest::newRow("trace") << QStringList{
            "trace", QString::fromStdString(kData + "/traces/cyclictest-i1000-l5000.trace.xz")};
        QTest::newRow("compare") << QStringList{"compare", "kernel-hogs-waker@preempt=none",
                                                "kernel-hogs-waker@preempt=full"};
    }
    void stdoutToDevFull() {
        QFETCH(QStringList, args);
        std::vector<std::string> a;
        for (const QString& s : args)
            a.push_back(s.toStdString());
        check("lost data: stdout", a, 1, "cannot write to standard output: No space left on device",
              "/dev/full");
    }

    // Unbounded work: every one ends, within the limits, with the reason.
    void unboundedWorkIsBounded() {
        writeAll(in("bomb.json"), R"({"duration": "10s", "machine": {"cpus": 4},
            "programs": {"bomb": [{"fork": "bomb"}, {"run": "10us"}, {"fork": "bomb"}]},
            "tasks": [{"comm": "bomb", "program": "bomb"}]})");
        check("unbounded work", {"run", in("bomb.json")}, 1, "200000 tasks, the limit");
        writeAll(in("many.json"),
                 R"({"duration": "1s", "tasks": [{"comm": "a", "count": 200000, "behavior": [{"run": "1ms"}]},
            {"comm": "b", "count": 200000, "behavior": [{"run": "1ms"}]}]})");
        check("unbounded work", {"run", in("many.json")}, 1, "asks for more than 200000 tasks");
        writeAll(in("ten-million.json"),
                 R"({"tasks": [{"comm": "a", "count": 10000000, "behavior": [{"run": "1ms"}]}]})");
        check("unbounded work", {"run", in("ten-million.json")}, 2, "tasks[0].count");
        writeAll(in("spin.json"), R"({"duration": "1s", "machine": {"cpus": 1,
              "costs": {"context_switch": "0ns", "wakeup": "0ns", "ipi": "0ns", "migration": "0ns"}},
            "channels": [{"name": "a", "capacity": 1}, {"name": "b", "capacity": 1}],
            "tasks": [{"comm": "ping", "behavior": [{"repeat": "forever", "body": [{"write": "a"}, {"read": "b"}]}]},
                      {"comm": "pong", "behavior": [{"repeat": "forever", "body": [{"read": "a"}, {"write": "b"}]}]}]})");
        check("unbounded work", {"run", in("spin.json")}, 1, "simulated time stopped advancing");
        check("unbounded work", {"experiment", "/dev/zero"}, 2, "not a regular file");
        check("unbounded work", {"run", "/dev/zero"}, 2, "not a regular file");
        check("unbounded work", {"trace", "/dev/zero"}, 2, "a character device");
        mkfifo(in("fifo").c_str(), 0600);
        check("unbounded work", {"trace", in("fifo")}, 2, "a FIFO");
        check("unbounded work", {"run", in("fifo")}, 2, "not a regular file");
        // 512 MiB of zeros in a few kB of zstd.
        std::string bomb(1 << 20, '\0');
        {
            ZSTD_CCtx* cc = ZSTD_createCCtx();
            const std::string zeros(size_t(64) << 20, '\0');
            ZSTD_outBuffer ob{bomb.data(), bomb.size(), 0};
            for (int i = 0; i < 8; ++i) {
                ZSTD_inBuffer ib{zeros.data(), zeros.size(), 0};
                ZSTD_compressStream2(cc, &ob, &ib, i == 7 ? ZSTD_e_end : ZSTD_e_continue);
            }
            bomb.resize(ob.pos);
            ZSTD_freeCCtx(cc);
        }
        writeAll(in("bomb.zst"), bomb);
        check("unbounded work", {"trace", in("bomb.zst")}, 2, "decompression bomb");
        writeAll(in("no-newline.txt"), std::string(3 << 20, 'x'));
        check("unbounded work", {"trace", in("no-newline.txt")}, 2, "no scheduler events");
    }

    // Silent nonsense: what is wrong is said, with where.
    void oddInputsAreReported() {
        // One stray timestamp in the future: dropped and named; the trace keeps its 10 s.
        std::string stray = trace_;
        const size_t at = stray.find("\n", stray.size() / 2) + 1;
        stray.insert(
            at,
            "    massive_intr-18110   [001] d..2.  9999.000000: sched_switch: prev_comm=massive_intr "
            "prev_pid=18110 prev_prio=120 prev_state=R+ ==> next_comm=swapper/1 next_pid=0 next_prio=120\n");
        writeAll(in("stray.txt"), stray);
        const std::string out = in("stray.out");
        check("silent nonsense", {"trace", in("stray.txt")}, 0, "", out);
        QVERIFY(readAll(out).find("1 lines out of time order dropped, the first at line") !=
                std::string::npos);
        QVERIFY(readAll(out).find(" 10.31") != std::string::npos); // 10.31 s, not 0 s
        // A reversed file: refused.
        std::vector<std::string> lines;
        std::istringstream ls(trace_);
        for (std::string l; std::getline(ls, l);)
            lines.push_back(l);
        std::string reversed;
        for (size_t i = lines.size(); i-- > 0;)
            reversed += lines[i] + "\n";
        writeAll(in("reversed.txt"), reversed);
        check("silent nonsense", {"trace", in("reversed.txt")}, 2, "a reversed or shuffled file?");
        // A comm with a newline in a scenario: refused, with the byte.
        writeAll(in("newline-comm.json"),
                 "{\"tasks\": [{\"comm\": \"two\\nlines\", \"behavior\": [{\"run\": \"1ms\"}]}]}");
        check("silent nonsense", {"run", in("newline-comm.json")}, 2, "control character (U+000A)");
        // A trace comm with control characters: shown with '?', and said.
        std::string esc = trace_.substr(0, trace_.find("\n", 200000));
        for (size_t p = 0; (p = esc.find("kdamond.0", p)) != std::string::npos; p += 9)
            esc[p + 7] = '\x1b';
        writeAll(in("esc.txt"), esc);
        check("silent nonsense", {"trace", in("esc.txt"), "--all"}, 0, "", in("esc.out"));
        QVERIFY(readAll(in("esc.out")).find("task names held control characters") != std::string::npos);
        // An experiment row that matches nothing.
        writeAll(
            in("rows.json"),
            R"({ "name": "x", "title": "t", "report": "perf-sched-latency", "repeat": 1, "rows": ["hog", "chromium"],
          "scenario": { "duration": "50ms", "machine": {"cpus": 1}, "tasks": [ {"comm": "hog", "behavior": [{"run": "100ms"}]} ] },
          "configurations": [ {"label": "a", "machine": {"preempt": "none"}}, {"label": "b", "machine": {"preempt": "full"}} ] })");
        check("silent nonsense", {"experiment", in("rows.json")}, 2,
              "'chromium' is no task group of the runs");
    }

    // Unclear messages: each says what and where.
    void messagesSayWhatAndWhere() {
        const std::string xz = readAll(kData + "/traces/hackbench-g4-l2000-threads.trace.xz");
        writeAll(in("cut.xz"), xz.substr(0, xz.size() / 3));
        check("unclear", {"trace", in("cut.xz")}, 2, "the xz file is truncated (liblzma");
        writeAll(in("not.gz"), "plain text, no gzip\n");
        check("unclear", {"trace", in("not.gz")}, 2, "named .gz but not gzip data");
        writeAll(in("broken.dat"), std::string("\x17\x08\x44tracing", 10) + std::string("6\0broken", 8));
        check("unclear", {"trace", in("broken.dat")}, 2,
              "broken.dat: the trace.dat reader (libtracecmd) exited with status 1");
        // perf script with a pid/tid column: read.
        std::string perf;
        std::istringstream ls(trace_.substr(0, 400000));
        for (std::string l; std::getline(ls, l);) {
            const size_t dash = l.find('-', l.find_first_not_of(' '));
            const size_t br = l.find(" [");
            if (l.empty() || l[0] == '#' || dash == std::string::npos || br == std::string::npos || dash > br)
                continue;
            const std::string comm = l.substr(0, dash), pid = l.substr(dash + 1, br - dash - 1);
            const size_t colon = l.find(": ", br);
            const std::string rest = l.substr(br, l.find(']', br) - br + 1); // " [001]"
            const size_t ts = l.find_last_of(' ', colon) + 1;
            perf += comm + " 18109/" + std::string(pid.begin(), pid.end()) + rest + " " +
                    l.substr(ts, colon - ts) + ": sched:" + l.substr(colon + 2) + "\n";
        }
        writeAll(in("perf.txt"), perf);
        check("unclear", {"trace", in("perf.txt"), "--all"}, 0, "", in("perf.out"));
        QVERIFY2(readAll(in("perf.out")).find("perf script") != std::string::npos,
                 readAll(in("perf.out")).substr(0, 300).c_str());
        // An rt-app file pinned to CPU 5: accepted with --cpus 8, refused without, naming the place.
        writeAll(in("rtapp.json"),
                 R"({"global": {"duration": 1}, "tasks": {"t": {"cpus": [5], "run": 1000, "sleep": 1000}}})");
        check("unclear", {"run", in("rtapp.json"), "--cpus", "8"}, 0, "");
        check("unclear", {"run", in("rtapp.json")}, 2,
              "tasks.t.cpus[0]: pinned to CPU 5, but the machine has 2 CPUs");
        // ... and by compare, with settings or without (a run on CPUs it does not have would be
        // silent nonsense).
        check("unclear", {"compare", in("rtapp.json"), in("rtapp.json") + "@cpus=8"}, 2,
              "tasks.t.cpus[0]: pinned to CPU 5, but the machine has 2 CPUs");
    }

    // The desktop app answers --help and --version without a display (a terminal, a CI job, a
    // man-page generator); anything else needs one.
    void guiHelpAndVersionNeedNoDisplay() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* v : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(v);
        for (const char* arg : {"--help", "--version"}) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(SCHEDSCOPE_GUI, {arg});
            QVERIFY(p.waitForFinished(kDeadlineSeconds * 1000));
            QCOMPARE(p.exitStatus(), QProcess::NormalExit);
            QCOMPARE(p.exitCode(), 0);
            const QByteArray out = p.readAllStandardOutput();
            QVERIFY2(out.contains(qstrcmp(arg, "--help") == 0 ? "--compare-kernel" : "SchedScope "),
                     out.constData());
            QVERIFY2(!p.readAllStandardError().contains("platform plugin"), arg);
        }
    }
    // A picture exported from a terminal without XDG_RUNTIME_DIR (cron, CI, sudo) says nothing
    // on stderr: Qt's warning about that directory is not the user's business.
    void cliExportIsQuietWithoutARuntimeDir() {
        QTemporaryDir dir;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("XDG_RUNTIME_DIR");
        env.remove("QT_QPA_PLATFORM");
        QProcess p;
        p.setProcessEnvironment(env);
        const QString png = dir.filePath("t.png");
        p.start(QString::fromStdString(kCli),
                {"run", "kernel-hogs-waker", "--duration", "20ms", "--export-timeline", png});
        QVERIFY(p.waitForFinished(kDeadlineSeconds * 1000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(p.readAllStandardError()), QString());
        QVERIFY(QFileInfo(png).size() > 1000);
    }
    // --export-chart: the app's EEVDF chart or delay histogram, drawn offscreen: the size asked for,
    // an SVG clipped to its two panels, and a --select that names no task says which ones exist.
    void chartExportDrawsTheSelectedTasks() {
        QTemporaryDir dir;
        const auto cli = [&](const QStringList& args, QString* err = nullptr) {
            QProcess p;
            p.start(QString::fromStdString(kCli), args);
            p.waitForFinished(kDeadlineSeconds * 1000);
            if (err) *err = QString::fromUtf8(p.readAllStandardError());
            return p.exitCode();
        };
        const QStringList run{"run", "kernel-hogs-waker", "--duration", "300ms", "--range", "100ms-200ms"};
        QCOMPARE(cli(run + QStringList{"--export-chart", dir.filePath("c.png"), "--select", "waker,hog",
                                       "--width", "900", "--height", "400"}),
                 0);
        QCOMPARE(QImage(dir.filePath("c.png")).size(), QSize(900, 400));
        // Both pictures: --height is the timeline's, --chart-height the chart's (500 without it).
        QCOMPARE(cli(run + QStringList{"--export-chart", dir.filePath("b.png"), "--export-timeline",
                                       dir.filePath("t.png"), "--width", "800", "--height", "300"}),
                 0);
        QCOMPARE(QImage(dir.filePath("t.png")).size(), QSize(800, 300));
        QCOMPARE(QImage(dir.filePath("b.png")).size(), QSize(800, 500));
        QCOMPARE(cli(run + QStringList{"--export-chart", dir.filePath("b.png"), "--export-timeline",
                                       dir.filePath("t.png"), "--width", "800", "--height", "300",
                                       "--chart-height", "650"}),
                 0);
        QCOMPARE(QImage(dir.filePath("b.png")).size(), QSize(800, 650));
        QCOMPARE(QImage(dir.filePath("t.png")).size(), QSize(800, 300));
        QCOMPARE(cli(run + QStringList{"--export-chart", dir.filePath("c.svg"), "--select", "waker"}), 0);
        QFile svg(dir.filePath("c.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray text = svg.readAll();
        QCOMPARE(text.count("<clipPath"), 2);
        QVERIFY(text.contains("waker:1002 vruntime"));
        QCOMPARE(cli(run + QStringList{"--export-chart", dir.filePath("d.pdf"), "--chart", "delay"}), 0);
        QVERIFY(QFileInfo(dir.filePath("d.pdf")).size() > 1000);
        QString err;
        QCOMPARE(cli(run + QStringList{"--export-chart", dir.filePath("x.png"), "--select", "nobody"}, &err),
                 2);
        QVERIFY2(err.contains("no task is called 'nobody'") && err.contains("waker"), qPrintable(err));
        QVERIFY(!QFile::exists(dir.filePath("x.png")));
        QCOMPARE(cli(run + QStringList{"--export-chart", dir.filePath("x.png"), "--chart", "pie"}, &err), 2);
        QVERIFY2(err.contains("accepted: eevdf, delay"), qPrintable(err));
    }
    void cleanupTestCase() {
        int cases = 0, crashes = 0, hangs = 0, lost = 0, silent = 0;
        for (const auto& [cls, t] : gTally) {
            qInfo("%-26s %2d cases: %d crashes, %d hangs, %d lost files, %d silent", cls.c_str(), t.cases,
                  t.crashes, t.hangs, t.lost, t.silent);
            cases += t.cases, crashes += t.crashes, hangs += t.hangs, lost += t.lost, silent += t.silent;
        }
        qInfo("%-26s %2d cases: %d crashes, %d hangs, %d lost files, %d silent", "all", cases, crashes, hangs,
              lost, silent);
        if (!full_.empty()) umount(full_.c_str());
    }
};

QTEST_GUILESS_MAIN(TstReliability)
#include "tst_reliability.moc"
