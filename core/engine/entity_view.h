// SPDX-License-Identifier: GPL-3.0-or-later
// Where the runqueues find their entities. A cfs_rq queues tasks' entities and, with task groups
// (task_group.h), group entities: the sched_entity a group has on each CPU, queued in its parent's
// runqueue. Both are addressed by one 32-bit id, as the trees link them by index: a task's id is
// its TaskId, a group entity's kGroupSeBase + its index in the engine's group entity array. The
// view is two pointers, passed by value; a plain vector of task entities converts to it (tests).
#pragma once

#include "engine/sched_entity.h"

#include <vector>

namespace sched {

using EntityId = int32_t;                  // a TaskId, or a group entity's kGroupSeBase + index
constexpr EntityId kGroupSeBase = 1 << 30; // above any task id (base/limits.h caps tasks far lower)

inline bool entityIsTask(EntityId id) {
    return id < kGroupSeBase;
} // entity_is_task()

class EntityView {
  public:
    EntityView(std::vector<SchedEntity>& tasks) : tasks_(tasks.data()) {}
    EntityView(const std::vector<SchedEntity>& tasks) : tasks_(const_cast<SchedEntity*>(tasks.data())) {}
    EntityView(SchedEntity* tasks, SchedEntity* groups) : tasks_(tasks), groups_(groups) {}

    SchedEntity& operator[](size_t id) const {
        return id < size_t(kGroupSeBase) ? tasks_[id] : groups_[id - size_t(kGroupSeBase)];
    }

  private:
    SchedEntity* tasks_ = nullptr;
    SchedEntity* groups_ = nullptr;
};

} // namespace sched
