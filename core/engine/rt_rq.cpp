// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/rt_rq.h"

#include <algorithm>

namespace sched {

void RtRq::enqueue(TaskId t, int prio, bool head) {
    const Entry e{prio, head ? --head_ : ++tail_, t};
    auto it = std::upper_bound(q_.begin(), q_.end(), e, [](const Entry& a, const Entry& b) {
        return a.prio < b.prio || (a.prio == b.prio && a.order < b.order);
    });
    q_.insert(it, e);
}

void RtRq::dequeue(TaskId t) {
    auto it = std::find_if(q_.begin(), q_.end(), [t](const Entry& e) { return e.task == t; });
    if (it != q_.end()) q_.erase(it);
}

bool RtRq::hasOtherAtPrio(int prio) const {
    return std::any_of(q_.begin(), q_.end(), [prio](const Entry& e) { return e.prio == prio; });
}

} // namespace sched
