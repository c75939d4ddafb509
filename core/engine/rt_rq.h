// SPDX-License-Identifier: GPL-3.0-or-later
// One CPU's real-time runqueue (SCHED_FIFO / SCHED_RR): highest priority first, FIFO within a
// priority. The running RT task is kept out of the queue, like the fair curr; a preempted RT
// task goes back to the head of its level (as the kernel keeps it in place), a woken one or an
// RR task whose slice expired to the tail. RT tasks are few, so a sorted vector is the fastest
// structure here.
#pragma once

#include "base/types.h"

#include <vector>

namespace sched {

class RtRq {
  public:
    // prio: kernel prio, 0 (highest) .. 98; lower is more important.
    void enqueue(TaskId t, int prio, bool head);
    void dequeue(TaskId t);
    bool empty() const { return q_.empty(); }
    size_t size() const { return q_.size(); }
    TaskId first() const { return q_.empty() ? kNoTask : q_.front().task; }
    bool hasOtherAtPrio(int prio) const;
    friend bool operator==(const RtRq&, const RtRq&) = default;

  private:
    struct Entry {
        int prio;
        int64_t order;
        TaskId task;
        friend bool operator==(const Entry&, const Entry&) = default;
    };
    std::vector<Entry> q_;
    int64_t tail_ = 0, head_ = 0;
};

} // namespace sched
