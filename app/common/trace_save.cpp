// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/common/trace_save.h"

#include "app/common/atomic_file.h"
#include "trace/ftrace_text.h"
#include "trace/trace_dat.h"

std::string saveTraceFile(const sched::Trace& trace, const std::string& path,
                          const sched::FtraceExportOptions& o) {
    AtomicFile f(path);
    if (!f.open()) return f.error();
    bool ok = true;
    const auto sink = [&](std::string_view chunk) { ok = ok && f.write(chunk); };
    if (sched::isTraceDatPath(path))
        sched::writeTraceDat(trace, sink, o);
    else
        sched::writeFtraceText(trace, sink, o);
    if (!ok || !f.commit()) return f.error();
    return {};
}
