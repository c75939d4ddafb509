// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/export.h"

#include "app/common/trace_save.h"

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
