// SPDX-License-Identifier: GPL-3.0-or-later
// Basic vocabulary of the engine: time, identifiers, scheduling policies and the enums that the
// trace records. Plain C++20, no Qt: core/ must stay usable without any GUI.
#pragma once

#include <cstdint>
#include <string_view>

namespace sched {

// Time is integer nanoseconds, as the kernel's u64 clocks. int64_t gives 292 years of range and
// lets differences be compared with a plain sign test (the kernel uses wrap-safe s64 casts).
using Time = int64_t;
__extension__ typedef __int128 int128; // 128-bit products, as mul_u64_u32_shr()
__extension__ typedef unsigned __int128 uint128;
constexpr Time kNsPerUs = 1000;
constexpr Time kNsPerMs = 1000 * 1000;
constexpr Time kNsPerSec = 1000 * 1000 * 1000;
constexpr Time kNever = INT64_MAX;

using TaskId = int32_t; // index into Engine::tasks(); -1 = none / the idle task
constexpr TaskId kNoTask = -1;
using CpuId = int32_t;
constexpr int kMaxCpus = 256;

// Scheduling policies (include/uapi/linux/sched.h numbering).
enum class Policy : uint8_t { Normal = 0, Fifo = 1, RR = 2, Batch = 3, Idle = 5 };

inline bool isRtPolicy(Policy p) {
    return p == Policy::Fifo || p == Policy::RR;
}
std::string_view policyName(Policy p);
bool parsePolicy(std::string_view s, Policy& out);

// Preemption models (kernel/Kconfig.preempt, /sys/kernel/debug/sched/preempt).
enum class PreemptModel : uint8_t { None, Voluntary, Full, Lazy };
std::string_view preemptModelName(PreemptModel m);
bool parsePreemptModel(std::string_view s, PreemptModel& out);

// How the kernel was built. Dynamic = the merged design (PREEMPT_DYNAMIC, 6.13+ lazy bit);
// Auto = Ankur Arora's 2024 PREEMPT_AUTO series (not merged: "[PATCH 00/30] PREEMPT_AUTO: support
// lazy rescheduling", LKML, 12 Feb 2024; v2, 27 May 2024), where none/voluntary/full only choose
// which bit a resched request sets.
enum class KernelBuild : uint8_t { Dynamic, Auto };

// Which kernel version's rules apply; each is a set of rules (engine/kernel_rules.h) that says
// where the versions differ. V6_18 is v6.18.0, V6_18_44 the 6.18.44 stable release.
enum class KernelProfile : uint8_t { V6_18, V6_12, V6_18_44, V6_18_45, V7_0, V7_1, V6_6_Queue, V7_2, V7_3 };

// Execution context of a running task: where a reschedule may happen (kernel/entry/common.c:
// exit_to_user_mode_loop(), raw_irqentry_exit_cond_resched(); kernel/sched/core.c: __cond_resched()).
enum class ExecMode : uint8_t {
    User,           // user space: any interrupt return may reschedule
    Kernel,         // kernel, preemption enabled (cond_resched()/might_resched() points optional)
    KernelNoPreempt // kernel with preempt_count > 0: nothing until preempt_enable()
};
std::string_view execModeName(ExecMode m);

// The two need-resched bits of the running task (TIF_NEED_RESCHED, TIF_NEED_RESCHED_LAZY).
enum class ReschedBit : uint8_t { Eager = 0, Lazy = 1 };

// Why a need-resched bit was set (the caller of resched_curr / resched_curr_lazy).
enum class ReschedReason : uint8_t {
    WakeupPreempt,      // check_preempt_wakeup_fair() picked the wakee
    SliceExpired,       // update_curr(): update_deadline() renewed the request
    ProtectionEnded,    // update_curr(): curr ran past vprot (6.17+) / did_preempt_short (6.12)
    LazyPromoted,       // sched_tick(): TIF_NEED_RESCHED_LAZY upgraded to TIF_NEED_RESCHED
    IdleWakeup,         // a task became runnable on an idle CPU (idle always gets the eager bit)
    ClassPreempt,       // a wakee of a higher class (RT over fair, RT prio)
    RrSliceExpired,     // task_tick_rt(): SCHED_RR time slice used up
    HrTick,             // HRTICK timer fired at the end of the slice
    Attribute,          // nice / policy / slice change of the running task (prio_changed_fair)
    FairServerStart,    // the fair_server queued (zero laxity reached: fair tasks starved by RT)
    FairServerThrottle, // the fair_server used its budget for this period: RT runs again
    RtThrottle,         // RT throttling: the RT class used sched_rt_runtime_us of this period
    SliceExtExpired,    // the RSEQ slice extension's timer fired (7.0: set_need_resched_current())
    SliceExtEnded,      // a system call ended an RSEQ slice extension (rseq_slice_yield() or another)
    ProxyIdle,          // find_proxy_task() -> proxy_resched_idle(): idle runs and picks again at once
    Count
};
std::string_view reschedReasonName(ReschedReason r);

// Where the running task left the CPU (or re-entered __schedule()) — the kernel's preemption
// points (kernel/entry/common.c; kernel/sched/core.c: preempt_schedule(), preempt_schedule_irq(),
// __cond_resched()) plus blocking.
enum class SwitchPoint : uint8_t {
    Block,                // went to sleep: schedule() with a non-running state (voluntary)
    Exit,                 // do_task_dead()
    Yield,                // sched_yield()
    ExitToUser,           // exit_to_user_mode_loop(): either bit set
    IrqReturn,            // irqentry_exit_cond_resched() -> preempt_schedule_irq() (eager bit)
    PreemptEnable,        // preempt_enable() reaching 0 -> preempt_schedule() (eager bit)
    CondResched,          // cond_resched() (none / voluntary models)
    MightResched,         // might_resched() inside might_sleep() (voluntary model)
    IdleExit,             // the idle loop saw need_resched()
    Reschedule,           // schedule() called while runnable (a mutex spinner that saw need_resched())
    BlockUninterruptible, // went to sleep in TASK_UNINTERRUPTIBLE (a mutex waiter): prev_state D
    BlockIdle,            // went to sleep in TASK_IDLE (a kernel thread waiting for work): prev_state I
    Count
};
std::string_view switchPointName(SwitchPoint p);

// How an RSEQ time-slice extension (7.0) ended, as the kernel's debugfs rseq/stats counts them:
// the task called rseq_slice_yield() in time, the enforcement timer fired first, another
// need-resched arrived at an interrupt return while it was granted, or another system call.
enum class SliceExtEnd : uint8_t { Yielded, Expired, Revoked, Aborted, Count };
std::string_view sliceExtEndName(SliceExtEnd e);
// A switch out of a task that went to sleep (prev_state S, D or I) or exited: voluntary (nvcsw).
inline bool isSleepPoint(SwitchPoint p) {
    return p == SwitchPoint::Block || p == SwitchPoint::BlockUninterruptible || p == SwitchPoint::BlockIdle;
}
inline bool isBlockingPoint(SwitchPoint p) {
    return isSleepPoint(p) || p == SwitchPoint::Exit;
}
inline bool isBlockingPoint(uint8_t p) {
    return p < uint8_t(SwitchPoint::Count) && isBlockingPoint(SwitchPoint(p));
}
// SM_PREEMPT switches print prev_state "R+" and never count as voluntary (kernel/sched/core.c:
// __schedule(); include/trace/events/sched.h: __trace_sched_switch_state()).
inline bool isPreemptMode(SwitchPoint p) {
    return p == SwitchPoint::IrqReturn || p == SwitchPoint::PreemptEnable || p == SwitchPoint::CondResched ||
           p == SwitchPoint::MightResched;
}

// prev_state of a sched_switch as ftrace prints it.
enum class PrevState : uint8_t { Running, Preempted /* R+ */, Sleeping /* S */, Dead /* X */ };
std::string_view prevStateName(PrevState s);

} // namespace sched
