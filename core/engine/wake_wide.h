// SPDX-License-Identifier: GPL-3.0-or-later
// wake_wide() (kernel/sched/fair.c): whether a wake-up belongs to a one-to-many pattern, in which
// case select_task_rq_fair() does not pull the wakee towards the waker (no wake_affine()).
#pragma once

#include <cstdint>
#include <utility>

namespace sched {

// The waker and the wakee each count how often they switched between wakees (record_wakee(),
// halved every second). Wide when the smaller count reaches the LLC's size and the larger is at
// least llc_size times the smaller.
inline bool wakeWide(uint32_t wakerFlips, uint32_t wakeeFlips, uint32_t llcSize) {
    uint32_t master = wakerFlips, slave = wakeeFlips;
    if (master < slave) std::swap(master, slave);
    return !(slave < llcSize || master < slave * llcSize);
}

} // namespace sched
