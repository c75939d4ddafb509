// SPDX-License-Identifier: GPL-3.0-or-later
// A run written as the kernel's ftrace `trace` text (kernel/trace/trace.c:
// print_func_help_header_irq(); kernel/trace/trace_output.c: trace_print_context(),
// trace_print_lat_fmt(); include/trace/events/sched.h): the header, the line prefix
// "comm-pid [cpu] flags seconds.micros:", the need-resched letters of the flags column, and
// sched_switch / sched_waking / sched_wakeup(_new) / sched_migrate_task / sched_process_fork /
// sched_process_exit / tracing_mark_write payloads as 6.18 prints them. Perfetto's UI and this
// project's importer read it; so can any tool that reads ftrace text.
#pragma once

#include "trace/ftrace_events.h"

#include <functional>
#include <string_view>

namespace sched {

// Writes the text in pieces through `sink` (so that large runs need not fit in one string).
// Returns the number of event lines.
int64_t writeFtraceText(const Trace& trace, const std::function<void(std::string_view)>& sink,
                        const FtraceExportOptions& opts = {});

} // namespace sched
