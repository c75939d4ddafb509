// SPDX-License-Identifier: GPL-3.0-or-later
// The bounds of a custom slice (se->custom_slice): 0.1 ms to 100 ms, the range the kernel clamps
// sched_attr.sched_runtime into since 857b158dc5e8 "sched/eevdf: Use sched_attr::sched_runtime to
// set request/slice suggestion" (v6.12). The kernel writes them out where it clamps — as
// NSEC_PER_MSEC/10 ("HZ=1000 * 10") and NSEC_PER_MSEC*100 ("HZ=100 / 10"), in
// __setscheduler_params() (kernel/sched/syscalls.c) in 6.12 and in __setparam_fair()
// (kernel/sched/fair.c) since 2cf9ac40073d — and names them nowhere; here they have one name.
// The kernel does not bound the base slice (/sys/kernel/debug/sched/base_slice_ns); the engine
// keeps it in the same range, so that every slice it runs is one a task could have asked for.
#pragma once

#include "base/types.h"

namespace sched {

constexpr Time kCustomSliceMin = kNsPerMs / 10;  // a tick at HZ=1000, divided by 10
constexpr Time kCustomSliceMax = kNsPerMs * 100; // a tick at HZ=100, times 10

} // namespace sched
