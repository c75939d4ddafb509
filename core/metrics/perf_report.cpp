// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/perf_report.h"

#include <cmath>
#include <cstdio>

namespace sched {

namespace {

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

double ms(Time ns) {
    return double(ns) / 1e6;
}

} // namespace

std::string formatLatencyTable(const std::vector<LatencyRow>& rows) {
    const std::string header = "  Task                  |   Runtime ms  | Switches | Avg delay ms    | Max "
                               "delay ms    | Sum delay ms     |";
    const std::string dashes = " " + std::string(header.size() - 1, '-');
    std::string out = "\n" + dashes + "\n" + header + "\n" + dashes + "\n";
    Time totalRuntime = 0, maxDelay = 0, sumDelay = 0;
    int64_t totalCount = 0;
    char buf[256];
    for (const LatencyRow& r : rows) {
        std::string name = "  ";
        name += r.comm;
        name += r.merged > 1 ? ":(" : ":";
        name += std::to_string(r.merged > 1 ? r.merged : r.pid);
        name += r.merged > 1 ? ") " : " ";
        if (name.size() < 24) name.append(24 - name.size(), ' ');
        std::snprintf(buf, sizeof buf, "|%11.3f ms |%9lld | avg:%8.3f ms | max:%8.3f ms | sum:%9.3f ms |",
                      ms(r.runtime), (long long)r.count, ms(r.avgDelay()), ms(r.maxDelay), ms(r.totalDelay));
        out += name + buf + "\n";
        totalRuntime += r.runtime;
        totalCount += r.count;
        sumDelay += r.totalDelay;
        maxDelay = std::max(maxDelay, r.maxDelay);
    }
    out += dashes + "\n";
    std::snprintf(buf, sizeof buf,
                  "  TOTAL:                |%11.3f ms |%9lld |                 | %12.3f ms | %13.3f ms |",
                  ms(totalRuntime), (long long)totalCount, ms(maxDelay), ms(sumDelay));
    out += std::string(buf) + "\n" + dashes + "\n";
    return out;
}

std::string groupThousands(double value) {
    const long long v = std::llround(value);
    std::string digits = std::to_string(v < 0 ? -v : v);
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    if (v < 0) out.insert(out.begin(), '-');
    return out;
}

std::string formatPerfStat(const PerfStatBlock& b) {
    const int n = b.switches.n;
    std::string out = "\n Performance counter stats for '" + b.target + "'";
    if (n > 1) out += " (" + std::to_string(n) + " runs)";
    out += ":\n\n";
    char buf[256];
    auto countLine = [&](const RunStats& s, const char* name) {
        std::snprintf(buf, sizeof buf, "%18s      %-33s", groupThousands(s.mean).c_str(), name);
        std::string line = buf;
        if (n > 1) line += fmt("( +-%6.2f%% )", s.relStderrPct());
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out += line + "\n";
    };
    countLine(b.switches, "context-switches");
    // The voluntary / involuntary lines as Ankur Arora's PREEMPT_AUTO posts print them (e.g.
    // "[PATCH v2 27/35] sched: support preempt=none under PREEMPT_AUTO", LKML, 27 May 2024): mean
    // +- standard error, then the relative error; one run has no error to print, so it gets a plain
    // count line like the one above.
    auto splitLine = [&](const RunStats& s, const char* name) {
        if (n <= 1) return countLine(s, name);
        std::snprintf(buf, sizeof buf, "%18.2f +- %.2f %s   ( +- %.2f%% )", s.mean, s.stderror, name,
                      s.relStderrPct());
        out += std::string(buf) + "\n";
    };
    splitLine(b.voluntary, "voluntary context-switches");
    splitLine(b.involuntary, "involuntary context-switches");
    out += "\n";
    if (n > 1) {
        // get_precision(): two more digits than the error's magnitude.
        const double sd = b.elapsedSec.stderror;
        const int precision = (sd > 1 || sd <= 0 ? 0 : int(std::lround(std::ceil(-std::log10(sd))))) + 2;
        std::snprintf(buf, sizeof buf, " %17.*f +- %.*f seconds time elapsed", precision, b.elapsedSec.mean,
                      precision, sd);
        out += buf;
        out += fmt("  ( +-%6.2f%% )", b.elapsedSec.relStderrPct());
        out += "\n";
    } else {
        std::snprintf(buf, sizeof buf, " %17.9f seconds time elapsed\n", b.elapsedSec.mean);
        out += buf;
    }
    return out;
}

} // namespace sched
