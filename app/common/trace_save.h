// SPDX-License-Identifier: GPL-3.0-or-later
// "Save run as trace", for both programs: a run's trace written as trace-cmd's binary trace.dat
// when the name ends in ".dat" (trace/trace_dat.h), else as the kernel's ftrace text
// (trace/ftrace_text.h), all or nothing (app/common/atomic_file.h).
#pragma once

#include "trace/ftrace_events.h"

#include <string>

// Returns the reason it could not be written (nothing was changed then), or an empty string.
std::string saveTraceFile(const sched::Trace& trace, const std::string& path,
                          const sched::FtraceExportOptions& o);
