// SPDX-License-Identifier: GPL-3.0-or-later
// Each part runs the same command the docs name beside the figure - as a child where the docs
// name a command line (so that its wall time, peak memory and instruction count are the
// command's own, measured from outside by wait4()), in this process where it is a library call
// (the trace import). Wall times are given as the range over the repeats, because this kind of
// machine's speed swings; the counts beside them (events, switches, instructions, slices, bytes)
// do not move.
#include "app/cli/bench_suite.h"

#include "app/cli/child_process.h"
#include "app/cli/run_command.h"
#include "trace/file.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

using namespace sched;
namespace fs = std::filesystem;

namespace {

std::string format(const char* fmt, auto... args) {
    char b[512];
    std::snprintf(b, sizeof b, fmt, args...);
    return b;
}

// "min - max unit" of a few measurements, or the one; `digits` after the point.
std::string range(std::vector<double> v, const char* unit, int digits = 2) {
    std::sort(v.begin(), v.end());
    if (v.empty()) return "-";
    const std::string u = *unit ? std::string(" ") + unit : std::string();
    if (v.size() == 1 || v.front() == v.back()) return format("%.*f", digits, v.front()) + u;
    return format("%.*f - %.*f", digits, v.front(), digits, v.back()) + u;
}

std::string machineLine() {
    char host[256] = "?";
    gethostname(host, sizeof host - 1);
    std::string cpu = "unknown CPU";
    std::ifstream info("/proc/cpuinfo");
    for (std::string line; std::getline(info, line);)
        if (line.rfind("model name", 0) == 0) {
            cpu = line.substr(line.find(':') + 2);
            break;
        }
    const std::time_t now = std::time(nullptr);
    char date[64];
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    return format("%s, %s x %ld, %s", host, cpu.c_str(), sysconf(_SC_NPROCESSORS_ONLN), date);
}

// The number after `key` on the first line that holds it ("45,414      context-switches").
double numberBefore(const std::string& text, const std::string& key) {
    const size_t at = text.find(key);
    if (at == std::string::npos) return -1;
    const size_t lineStart = text.rfind('\n', at) + 1;
    std::string digits;
    for (size_t i = lineStart; i < at; ++i)
        if (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.') digits += text[i];
    return digits.empty() ? -1 : std::atof(digits.c_str());
}
// The number after `key` ("Total time: 3.094 [sec]", "I   refs:      37,612,345,678").
double numberAfter(const std::string& text, const std::string& key) {
    size_t at = text.find(key);
    if (at == std::string::npos) return -1;
    at += key.size();
    std::string digits;
    for (; at < text.size() && text[at] != '\n'; ++at) {
        if (std::isdigit(static_cast<unsigned char>(text[at])) || text[at] == '.')
            digits += text[at];
        else if (text[at] != ',' && !digits.empty())
            break;
    }
    return digits.empty() ? -1 : std::atof(digits.c_str());
}

// The command line as the docs write it (the program's own path shortened to its name).
std::string commandLine(const std::vector<std::string>& argv) {
    std::string s;
    for (const std::string& a : argv)
        s += (s.empty() ? "" : " ") +
             (a.find('/') != std::string::npos && &a == &argv[0] ? fs::path(a).filename().string() : a);
    return s;
}

void section(std::ostream& out, const std::string& title) {
    out << "\n== " << title << "\n";
}

void messaging(const BenchOptions& o, const std::string& self, std::ostream& out) {
    const std::string name = "benchmarks/messaging-g20-t-l5000";
    std::vector<std::string> cmd{self, "run", name};
    if (o.quick) cmd.insert(cmd.end(), {"--duration", "100ms"});
    section(out, "perf bench sched messaging -g 20 -t -l 5000, 64 CPUs (" +
                     std::string(o.quick ? "its first 100 ms" : "the seed-size run") + ")");
    out << "   $ " << commandLine(cmd) << "   (pinned to CPU 0; " << (o.quick ? "one run" : "three runs")
        << ")\n";
    std::vector<double> walls;
    double simulated = -1, switches = -1;
    long rss = 0;
    bool pinned = true;
    for (int i = 0; i < (o.quick ? 1 : 3); ++i) {
        const ChildRun r = runChild(cmd, true, 0);
        if (!r.ok()) {
            out << "   failed: " << (r.error.empty() ? r.err : r.error) << "\n";
            return;
        }
        walls.push_back(r.wallSec);
        rss = std::max(rss, r.maxRssKb);
        pinned = pinned && r.pinned;
        simulated = numberAfter(r.out, "Total time:");
        switches = numberBefore(r.out, " context-switches");
    }
    if (!pinned) out << "   (could not pin it to CPU 0: the runs were not pinned)\n";
    if (simulated <= 0 || switches <= 0) {
        out << "   failed: no \"Total time:\" or \"context-switches\" in its output\n";
        return;
    }
    std::vector<double> ratio;
    for (double w : walls)
        ratio.push_back(simulated / w);
    out << format("   simulated %.3f s, %.2f M context switches; wall %s, simulated/wall %s; peak %.0f MB\n",
                  simulated, switches / 1e6, range(walls, "s").c_str(), range(ratio, "").c_str(),
                  double(rss) / 1024);
    const std::string valgrind = findInPath("valgrind");
    if (valgrind.empty()) {
        out << "   instructions: not counted (valgrind is not installed: apt-get install valgrind)\n";
        return;
    }
    std::vector<std::string> cg{valgrind, "--tool=cachegrind", "--cache-sim=no",
                                "--cachegrind-out-file=/dev/null"};
    cg.insert(cg.end(), cmd.begin(), cmd.end());
    const ChildRun r = runChild(cg, false);
    const double refs = numberAfter(r.err, "I   refs:");
    if (!r.ok() || refs < 0) {
        out << "   instructions: valgrind failed: " << r.err.substr(0, 300) << "\n";
        return;
    }
    out << format(
        "   %.2f G instructions (valgrind --tool=cachegrind --cache-sim=no; %.0f s under valgrind)\n",
        refs / 1e9, r.wallSec);
}

void timeline(const BenchOptions& o, const std::string& self, std::ostream& out) {
    const std::string seconds = o.quick ? "2" : "153";
    section(out, "the timeline at 1920x1080, 64 CPUs (bench_view " + seconds + ")");
    const fs::path bench = fs::path(self).parent_path().parent_path() / "tests" / "bench_view";
    if (!fs::exists(bench)) {
        out << "   skipped: " << bench.string()
            << " not found (it is built in a build tree's tests/; an installed "
            << "program has no benchmark)\n";
        return;
    }
    const ChildRun empty = runChild({bench.string(), "0"}, true);
    const ChildRun full = runChild({bench.string(), seconds}, true);
    if (!empty.ok() || !full.ok()) {
        out << "   failed: " << (full.ok() ? empty.err : full.err).substr(0, 300) << "\n";
        return;
    }
    std::istringstream lines(full.out);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("peak resident", 0) != 0) out << "   " << line << "\n";
    const double slices = numberAfter(full.out, "run:");
    out << format(
        "   peak resident %.0f MB, an empty run %.0f MB: %.1f bytes per slice (wait4's ru_maxrss)\n",
        double(full.maxRssKb) / 1024, double(empty.maxRssKb) / 1024,
        slices > 0 ? double(full.maxRssKb - empty.maxRssKb) * 1024 / slices : 0.0);
}

// Wall seconds of loading the file in this process (the importer, and for a trace.dat its reader
// child), the fastest of `runs`.
std::vector<double> importTimes(const std::string& path, int runs, int64_t& events, std::string& error) {
    std::vector<double> t;
    for (int i = 0; i < runs; ++i) {
        Trace tr;
        ImportReport rep;
        const auto t0 = std::chrono::steady_clock::now();
        if (!loadTrace(path, tr, rep, error)) return {};
        t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        events = rep.events;
    }
    return t;
}

void import(const BenchOptions& o, const std::string& self, std::ostream& out) {
    const std::string duration = o.quick ? "20ms" : "300ms";
    section(out, "trace import: a run of bench-64cpu-800 (" + duration +
                     ") written as trace.dat and as ftrace text");
    std::error_code ec;
    fs::path tmp = fs::temp_directory_path(ec);
    if (ec) tmp = "/tmp";
    std::string tmpl = (tmp / "schedscope-bench-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) {
        out << "   failed: cannot make a directory in " << tmp.string() << "\n";
        return;
    }
    const fs::path dir = tmpl;
    const int runs = o.quick ? 1 : 3;
    const std::string tracecmd = findInPath("trace-cmd");
    for (const char* file : {"big.dat", "big.txt"}) {
        const std::string path = (dir / file).string();
        const std::vector<std::string> make{
            self, "run", "bench-64cpu-800", "--duration", duration, "--export-ftrace", path};
        const ChildRun m = runChild(make, false);
        if (!m.ok()) {
            out << "   failed: " << commandLine(make) << ": " << m.err.substr(0, 300) << "\n";
            continue;
        }
        const double mb = double(fs::file_size(path, ec)) / 1e6;
        if (ec) {
            out << "   failed: " << path << ": " << ec.message() << "\n";
            continue;
        }
        int64_t events = 0;
        std::string error;
        const std::vector<double> t = importTimes(path, runs, events, error);
        if (t.empty()) {
            out << "   failed: " << error << "\n";
            continue;
        }
        std::vector<double> rate;
        for (double s : t)
            rate.push_back(mb / s);
        out << format("   %-8s %7.1f MB, %lld events: import %s (%s)", file, mb, (long long)events,
                      range(t, "s").c_str(), range(rate, "MB/s", 0).c_str());
        if (std::string(file) == "big.dat" && tracecmd.empty())
            out << "; trace-cmd is not installed (apt-get install trace-cmd): no comparison";
        if (std::string(file) == "big.dat" && !tracecmd.empty()) {
            std::vector<double> report;
            for (int i = 0; i < runs; ++i) {
                const ChildRun r = runChild({tracecmd, "report", path}, false);
                if (r.ok()) report.push_back(r.wallSec);
            }
            std::vector<double> rrate;
            for (double s : report)
                rrate.push_back(mb / s);
            if (report.empty())
                out << "; trace-cmd report failed on it";
            else
                out << format("; trace-cmd report > /dev/null %s (%s)", range(report, "s").c_str(),
                              range(rrate, "MB/s", 0).c_str());
        }
        out << "\n";
    }
    fs::remove_all(dir, ec);
}

} // namespace

int benchSuite(const BenchOptions& o, std::ostream& out, std::ostream& err) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::string selfPath = ::selfPath();
    if (selfPath.empty()) {
        err << "bench --suite: cannot find this program's own path (/proc/self/exe)\n";
        return 1;
    }
    out << "SchedScope " << PROJECT_VERSION << " bench suite"
        << (o.quick ? " (--quick: small sizes, not the docs' figures)" : "") << "\n"
        << machineLine() << "\nbuild: " << SCHEDSCOPE_BUILD_KIND << "\n";
    // The children whose peak memory is reported run first: a child's ru_maxrss also counts the
    // memory of this process, whose pages it shares between posix_spawn()'s vfork and its exec, so
    // they start while this process is small (printed: a floor under every child's figure).
    rusage self{};
    getrusage(RUSAGE_SELF, &self);
    out << format("(this process: %.0f MB resident when it starts the children measured for memory)\n",
                  double(self.ru_maxrss) / 1024);
    messaging(o, selfPath, out);
    out.flush();
    timeline(o, selfPath, out);
    out.flush();
    section(out, "the engine (schedscope-cli bench)");
    BenchOptions engine;
    if (o.quick) engine.duration = 20 * kNsPerMs;
    if (int rc = benchCommand(engine, out, err); rc != 0) return rc;
    out.flush();
    import(o, selfPath, out);
    out << format("\n(the suite took %.0f s)\n",
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return 0;
}
