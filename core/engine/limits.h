// SPDX-License-Identifier: GPL-3.0-or-later
// The bounds of a custom slice, named as the kernel names them: SCHED_SLICE_MIN and
// SCHED_SLICE_MAX (kernel/sched/fair.c, above update_entity_lag(), since the 6.12 "sched/eevdf: Use
// sched_attr::sched_runtime to set request/slice suggestion"), the range __setscheduler_params()
// clamps sched_attr.sched_runtime into. The kernel does not bound the base slice
// (/sys/kernel/debug/sched/base_slice_ns is a plain u32); the engine keeps it in the same range, so
// that every slice it runs is one a task could have asked for.
#pragma once

#include "base/types.h"

namespace sched {

constexpr Time kSchedSliceMin = kNsPerMs / 10; // a tick at HZ=1000, divided by 10
constexpr Time kSchedSliceMax = kNsPerMs * 100; // a tick at HZ=100, times 10

} // namespace sched
