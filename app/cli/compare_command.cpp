// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/compare_command.h"

#include "app/cli/options.h"
#include "base/duration.h"
#include "engine/kernel_diff.h"
#include "metrics/align.h"
#include "metrics/compare.h"
#include "scenarios/builtin_scenarios.h"
#include "scenarios/scenario_settings.h"
#include "trace/file.h"

#include <filesystem>

using namespace sched;

namespace {

// One side: the trace it stands for and a label; an error text if it cannot be had.
struct Side {
    Trace trace;
    std::string label;
    const KernelSpec* kernel = nullptr; // a simulation's kernel profile; none for a trace
};

bool isScenarioSpec(const std::string& spec) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(spec, ec))
        return true; // a built-in name (or an error the scenario loader names)
    const std::string ext = std::filesystem::path(spec).extension().string();
    return ext == ".json";
}

std::string loadSide(const std::string& spec, Side& side) {
    // A file is that file, '@' in its path or not; else NAME@SETTINGS (the last '@').
    std::error_code ec;
    const size_t at = std::filesystem::is_regular_file(spec, ec) ? std::string::npos : spec.rfind('@');
    const std::string what = spec.substr(0, at);
    if (at == std::string::npos && !isScenarioSpec(what)) {
        ImportReport rep;
        std::string error;
        if (!loadTrace(what, side.trace, rep, error)) return error;
        side.label = std::filesystem::path(what).filename().string() + " (trace)";
        return {};
    }
    scen::Scenario s;
    if (std::string error; !scen::loadScenarioSpec(spec, s, error)) return error;
    Engine e = scen::instantiate(s, s.seed, TraceOptions{false, true});
    e.runUntil(s.duration);
    e.finish();
    side.trace = e.trace();
    side.label = spec;
    side.kernel = &kernelSpecOf(s.config.build, s.config.profile);
    return {};
}

} // namespace

std::string parseCompareOptions(const std::vector<std::string>& args, CompareOptions& out) {
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--from" || a == "--to") {
            if (i + 1 >= args.size()) return a + ": needs a time with a unit, e.g. 500ms";
            const auto d = parseDuration(args[++i]);
            if (!d || *d < 0)
                return a + ": '" + args[i] + "' is not a time; write a number with a unit: ns, us, ms or s";
            (a == "--from" ? out.from : out.to) = *d;
        } else if (a == "--align") {
            if (i + 1 >= args.size())
                return "--align: needs an event both runs have: start, run:COMM, wake:COMM or marker:TEXT";
            out.align = args[++i];
        } else if (!a.empty() && a[0] == '-') {
            return "unknown option '" + a + "'; accepted: --from T, --to T, --align EVENT";
        } else if (out.a.empty()) {
            out.a = a;
        } else if (out.b.empty()) {
            out.b = a;
        } else {
            return "compare takes two runs, A and B (got a third: '" + a + "')";
        }
    }
    if (out.b.empty()) return "needs two runs: A and B, each a scenario[@settings] or a trace file";
    if (out.to >= 0 && out.from >= 0 && out.to <= out.from) return "--to must come after --from";
    return {};
}

int compareCommand(const CompareOptions& o, std::ostream& out, std::ostream& err) {
    Side a, b;
    for (auto [spec, side] : {std::pair{&o.a, &a}, {&o.b, &b}})
        if (std::string e = loadSide(*spec, *side); !e.empty()) {
            err << "schedscope-cli compare: " << e << "\n";
            return 2;
        }
    AlignPoint at;
    if (!o.align.empty()) {
        std::string e;
        if (!findAlignment(a.trace, b.trace, o.align, at, e)) {
            err << "schedscope-cli compare: --align: " << e << "\n";
            return 2;
        }
    }
    // The window in A's time; aligned, by default where both runs exist.
    const Time shift = at.shift();
    const Time from = o.from >= 0 ? o.from : std::max<Time>(0, -shift);
    const Time to = o.to >= 0 ? o.to : std::min(a.trace.endTime, b.trace.endTime - shift);
    if (to <= from) {
        err << "schedscope-cli compare: the window " << formatDuration(from) << " .. " << formatDuration(to)
            << " is empty\n";
        return 2;
    }
    Comparison c = compareRuns(a.trace, b.trace, from, to, shift);
    if (!o.align.empty()) c.alignedAt = at.label;
    // Two kernels: what separates them comes first, so that the table reads as their effect.
    if (a.kernel && b.kernel)
        if (const std::string d = describeKernelDiff(*a.kernel, *b.kernel); !d.empty()) out << d << "\n";
    out << formatComparison(c, a.label, b.label);
    return 0;
}
