// SPDX-License-Identifier: GPL-3.0-or-later
// rq->cfs_tasks: every queued fair task of a CPU (delayed sleepers and the running one included)
// in most-recently-picked order. account_entity_enqueue() adds a task at the head,
// __set_next_task_fair() moves the picked one back to the head ("so our cfs_tasks list becomes
// MRU one"), account_entity_dequeue() unlinks it; detach_tasks() walks it from the tail, the task
// that has waited longest since it last ran (kernel/sched/fair.c). The links live in the
// entities (sched_entity.group_node), as indices so that the engine stays a copyable value.
#pragma once

#include "engine/sched_entity.h"

#include <vector>

namespace sched {

struct CfsTasks {
    TaskId head = kNoTask, tail = kNoTask;

    bool empty() const { return head < 0; }

    void add(std::vector<SchedEntity>& ents, TaskId id) { // list_add(): at the head
        SchedEntity& se = ents[size_t(id)];
        se.groupPrev = kNoTask;
        se.groupNext = head;
        if (head >= 0)
            ents[size_t(head)].groupPrev = id;
        else
            tail = id;
        head = id;
    }
    void del(std::vector<SchedEntity>& ents, TaskId id) { // list_del_init()
        SchedEntity& se = ents[size_t(id)];
        (se.groupPrev >= 0 ? ents[size_t(se.groupPrev)].groupNext : head) = se.groupNext;
        (se.groupNext >= 0 ? ents[size_t(se.groupNext)].groupPrev : tail) = se.groupPrev;
        se.groupPrev = se.groupNext = kNoTask;
    }
    void moveToHead(std::vector<SchedEntity>& ents, TaskId id) { // list_move()
        if (head == id) return;
        del(ents, id);
        add(ents, id);
    }
};

} // namespace sched
