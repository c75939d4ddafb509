// SPDX-License-Identifier: GPL-3.0-or-later
// Task names (comm) as SchedScope keeps them. The kernel's comm is up to 15 bytes of anything but
// NUL (TASK_COMM_LEN - 1; set by exec or prctl(PR_SET_NAME), cut at 15 bytes even inside a UTF-8
// character), and ftrace prints it raw. A newline or another control character in one would break
// every line-based format that carries it (the ftrace text export, CSV), and bytes that are not
// UTF-8 cannot be shown. So an imported comm is made printable, a comm a user writes (a scenario)
// must be printable, and the writers pass only printable comms.
#pragma once

#include "trace/trace.h"

#include <string>
#include <string_view>
#include <vector>

namespace sched {

constexpr size_t kCommMaxBytes = 15; // TASK_COMM_LEN - 1

// raw with every control character (below 0x20, 0x7f) and every byte of an invalid or incomplete
// UTF-8 sequence replaced by '?'. *changed tells whether anything was.
std::string printableComm(std::string_view raw, bool* changed = nullptr);

// The tasks with their comms made printable (for the writers).
std::vector<TraceTask> printableTasks(const std::vector<TraceTask>& tasks);

// Why a comm a user wrote is not accepted ("contains a control character (U+000A)"), or empty.
std::string commProblem(std::string_view comm);

} // namespace sched
