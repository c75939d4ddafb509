// SPDX-License-Identifier: GPL-3.0-or-later
// wake_flags (kernel/sched/sched.h): why wakeup_preempt() is called, as the kernel passes them to
// check_preempt_wakeup_fair(). Only the bits a modelled rule reads.
#pragma once

namespace sched {

enum WakeFlags : int {
    WF_FORK = 0x04,        // wake_up_new_task(): a forked child's first wakeup
    WF_TTWU = 0x08,        // try_to_wake_up()
    WF_SYNC = 0x10,        // the waker is about to sleep (a pipe or socket wakeup)
    WF_RQ_SELECTED = 0x80, // select_task_rq() chose the CPU (the task may run on more than one)
};

} // namespace sched
