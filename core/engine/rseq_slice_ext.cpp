// SPDX-License-Identifier: GPL-3.0-or-later
// The RSEQ time-slice extension (7.0: dfb630f548a7 rseq_grant_slice_extension(), 0ac3b5c3dc45 the
// enforcement timer, dd0a04606937 the syscall entry work, 7ee58f98b59b the reset when scheduled,
// 21c0e92d0681 the 5 us default; include/linux/rseq_entry.h, kernel/rseq.c). A user task sets its
// rseq slice_ctrl.request byte before a short critical section (OpKind::SliceRequest). When an
// interrupt returns to user mode with a need-resched bit set (either bit on a non-RT kernel), and
// the request is the only work pending, the kernel clears the bits instead of calling schedule()
// and arms a timer of debugfs rseq/slice_ext_nsec. The task ends its critical section with
// rseq_slice_yield() (OpKind::SliceYield: the extension was used); any other system call ends it as
// well (aborted); the timer's expiry sets TIF_NEED_RESCHED and the interrupt's return revokes the
// grant and schedules (expired), as does a second reschedule request while granted (revoked).
#include "engine/engine.h"

namespace sched {

// rseq_grant_slice_extension() at an interrupt's exit to user mode with a need-resched bit set.
// True when the task keeps the CPU: the extension was granted.
bool Engine::grantSliceExt(CpuId c) {
    const TaskId id = rqs_[size_t(c)].curr;
    Task& t = tasks_[size_t(id)];
    if (!cfg_.sliceExtAvailable()) return false;
    // rseq_slice_extension_prctl() refused a legacy registration (99428157dcf3): the extension was
    // never enabled, and the request byte is a store the kernel does not read.
    if (t.rseqV1 && cfg_.has(Rule::RseqV2SliceExt)) return false;
    if (t.sliceGranted) { // a reschedule while granted: the grant goes and schedule() runs
        endSliceExt(c, id, t.sliceExpired ? SliceExtEnd::Expired : SliceExtEnd::Revoked);
        t.sliceRequest = false; // slice_ctrl.all = 0: a request made during the grant goes too
        return false;
    }
    if (!t.sliceRequest) return false;
    t.sliceRequest = false; // usr_ctrl.request = 0, granted = 1
    t.sliceGranted = true;
    t.sliceExpired = false;
    t.sliceGrantedAt = now_;
    clearFlags(c, kClearedBySliceExt); // clear_tsk_need_resched(): both bits
    // The hrtimer is armed for granted + slice_ext_nsec; its interrupt enters timer_irq later.
    queue_.push(now_ + cfg_.sliceExtNsec + cfg_.costs.timerIrq, now_, EventKind::SliceExt, id,
                ++t.sliceTimerGen);
    return true;
}

// The enforcement timer (rseq_slice_expired()): still granted to the task that runs here, it
// sets TIF_NEED_RESCHED, and the interrupt's return to user mode revokes the grant and schedules.
void Engine::onSliceExtTimer(TaskId id) {
    Task& t = tasks_[size_t(id)];
    const CpuId c = t.cpu;
    if (!t.sliceGranted || rqs_[size_t(c)].curr != id) return;
    ctxCpu_ = c;
    syncProgress(c);
    t.sliceExpired = true;
    setFlag(c, ReschedBit::Eager, ReschedReason::SliceExtExpired); // set_need_resched_current()
    irqReturn(c);
    reprogram(c);
}

// The grant ends: recorded from its start, its timer cancelled.
void Engine::endSliceExt(CpuId c, TaskId id, SliceExtEnd how) {
    Task& t = tasks_[size_t(id)];
    trace_.sliceExts.push(t.sliceGrantedAt, now_, id, uint16_t(c), uint8_t(how));
    t.sliceGranted = false;
    t.sliceExpired = false;
    t.sliceTimerGen++;
}

// A system call of a task holding an extension (the SYSCALL_WORK_SYSCALL_RSEQ_SLICE entry work):
// the grant ends - used if the call is rseq_slice_yield(), aborted otherwise - TIF_NEED_RESCHED
// is set and the entry work reschedules at once (preempt_enable() under full and lazy, the only
// models of the kernels that have the extension). True if another task now runs.
bool Engine::sliceExtSyscall(CpuId c, TaskId id, bool yield) {
    endSliceExt(c, id, yield ? SliceExtEnd::Yielded : SliceExtEnd::Aborted);
    setFlag(c, ReschedBit::Eager, ReschedReason::SliceExtEnded);
    schedule(c, SwitchPoint::PreemptEnable);
    return rqs_[size_t(c)].curr != id;
}

// A task switched out while granted loses the grant (a revoke or a system call ends it before any
// switch; kept as a guard). Its request stays: 7ee58f98b59b zeroes slice_ctrl at the next exit to
// user mode only after a switch that rseq_sched_switch_event() raises - one from a user-mode
// interrupt, where the request was granted or revoked already, or one after a CPU change (the
// task's CPU changes in activateTask() and detachTask(), which clear it) - so a request survives a
// sleep or a preemption in the kernel on the same CPU.
void Engine::sliceExtSwitchedOut(CpuId c, TaskId prev) {
    if (tasks_[size_t(prev)].sliceGranted) endSliceExt(c, prev, SliceExtEnd::Revoked);
}

} // namespace sched
