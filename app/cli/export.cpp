// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/export.h"

#include "app/common/atomic_file.h"
#include "app/common/trace_save.h"
#include "engine/lag_table.h"

#include <algorithm>
#include <cstdio>

int exportFtraceCommand(const RunOptions& o, const scen::Scenario& s, std::ostream& err) {
    sched::Engine e = scen::instantiate(s, s.seed, sched::TraceOptions{false, o.batch});
    e.runUntil(s.duration);
    e.finish();
    sched::FtraceExportOptions fo;
    fo.from = o.rangeStart;
    fo.to = o.rangeEnd;
    fo.offset = 100 * sched::kNsPerSec; // timestamps like a machine up for 100 s, as ftrace prints them
    if (const std::string why = saveTraceFile(e.trace(), o.exportFtrace, fo); !why.empty()) {
        err << "schedscope-cli: cannot write " << o.exportFtrace << ": " << why << " (nothing was changed)\n";
        return 1;
    }
    return 0;
}

// One block per tick: the lag table of each CPU's root runqueue as the tick found it (sampled
// just before the tick's event, so the tick's own update_curr() is not in it), and one more at
// the end of the run.
int exportLagCsvCommand(const RunOptions& o, const scen::Scenario& s, std::ostream& err) {
    using namespace sched;
    Engine e = scen::instantiate(s, s.seed, TraceOptions{false, o.batch});
    const Time end = o.rangeEnd >= 0 ? std::min(o.rangeEnd, s.duration) : s.duration;
    const Time tick = e.config().tickNsec();
    std::string out =
        "time_ns,cpu,entity,state,weight,vruntime,V,vlag_ns,lag_ns,deadline_minus_V_ns,slice_ns,"
        "eligible\n";
    char line[512];
    const auto sample = [&] {
        for (size_t c = 0; c < e.cpus().size(); ++c) {
            const LagTable t = lagTableOf(e.cpus()[c].cfs, e.entityView(), e.now(), e.config().baseSlice());
            int64_t lagSum = 0;
            for (const LagRow& r : t.rows) {
                std::string name = e.entityName(r.id);
                for (char& ch : name)
                    if (ch == ',' || ch == '"' || ch == '\n') ch = '_'; // a comm with a comma stays one field
                std::snprintf(line, sizeof line, "%lld,%zu,%s,%s,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%s\n",
                              (long long)e.now(), c, name.c_str(),
                              r.running   ? "running"
                              : r.delayed ? "delayed"
                                          : "queued",
                              (long long)r.weight, (long long)r.vruntime, (long long)t.V, (long long)r.vlag,
                              (long long)r.lag, (long long)(r.deadline - t.V), (long long)r.slice,
                              r.eligible ? "yes" : "no");
                out += line;
                lagSum += r.lag;
            }
            if (t.rows.empty()) continue;
            // the check row: weight is W, vlag_ns the exact sum of weight x vlag, lag_ns the rows' sum
            std::snprintf(line, sizeof line, "%lld,%zu,(sum),,%lld,,%lld,%lld,%lld,,,\n", (long long)e.now(),
                          c, (long long)t.weightSum, (long long)t.V, (long long)t.weightedVlagSum,
                          (long long)lagSum);
            out += line;
        }
    };
    for (Time t = (o.rangeStart / tick + 1) * tick; t < end && !e.halted(); t += tick) {
        e.runUntil(t - 1); // just before the tick at t
        sample();
        if (out.size() > (size_t(1) << 30)) {
            err << "schedscope-cli: --lag-csv: more than 1 GiB of rows; narrow it with --range\n";
            return 2;
        }
    }
    e.runUntil(end);
    sample();
    std::string why;
    if (!saveTextAtomically(o.lagCsv, out, &why)) {
        err << "schedscope-cli: cannot write " << o.lagCsv << ": " << why << " (nothing was changed)\n";
        return 1;
    }
    return 0;
}
