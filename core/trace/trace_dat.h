// SPDX-License-Identifier: GPL-3.0-or-later
// A run written as trace-cmd's binary trace.dat, file format version 6 (trace-cmd.dat.v6(5)):
// the initial block, header_page / header_event, the event format files of the records it holds
// (ftrace print, sched_switch, sched_waking, sched_wakeup, sched_wakeup_new, sched_migrate_task,
// sched_process_fork, sched_process_exit) as 6.18 describes them, the pid -> comm map, and one
// flyrecord ring-buffer stream per CPU in the kernel's page layout. `trace-cmd report` prints it
// and KernelShark opens it; this project reads it back through trace-cmd report.
#pragma once

#include "trace/ftrace_events.h"

#include <functional>
#include <string_view>

namespace sched {

// trace-cmd's own name for the file: a path ending in ".dat" is written as trace.dat, any
// other as ftrace text.
bool isTraceDatPath(std::string_view path);

// Writes the file in pieces through `sink`. Returns the number of records.
int64_t writeTraceDat(const Trace& trace, const std::function<void(std::string_view)>& sink,
                      const FtraceExportOptions& opts = {});

} // namespace sched
