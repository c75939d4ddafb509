// SPDX-License-Identifier: GPL-3.0-or-later
// The buddy, cfs_rq->next: an entity the next pick takes, while it is eligible, ahead of the
// earliest eligible deadline. Three writers set it: a wakeup under NEXT_BUDDY (off in every
// kernel modelled), a task that sleeps while its group stays queued (dequeue_entities(): the group
// becomes its parent runqueue's buddy, unconditionally), and yield_to() (not modelled). Where it
// is read changed twice:
// - 6.12.0: pick_next_entity() takes it only under NEXT_BUDDY, so the group buddy had no effect;
// - 2a77e4be12cb (6.14, Rule::PickBuddy): under PICK_BUDDY (on), the group buddy counts;
// - e837456fdca8 (6.19, 6.18.33; Rule::WakeupPreemptRework): inside __pick_eevdf(), so the wakeup
//   check sees it too, and NEXT_BUDDY sets it only for a wakee with an earlier deadline.
// It is cleared when picked (set_next_entity()), dequeued, rescheduled by update_curr() or yielding.
#include "engine/engine.h"

namespace sched {

// Whether a pick may take the buddy: PICK_BUDDY where the kernel has it, NEXT_BUDDY before.
bool Engine::pickBuddyOn() const {
    return cfg_.has(Rule::PickBuddy) ? cfg_.feature(Feature::PickBuddy) : cfg_.feature(Feature::NextBuddy);
}

// Whether the buddy is read inside __pick_eevdf() (e837456fdca8), not only by pick_next_entity().
bool Engine::buddyInPick() const {
    return cfg_.has(Rule::WakeupPreemptRework) && pickBuddyOn();
}

// __pick_eevdf() as the profile has it, with curr's protection worked out here.
// Since 78cde54ea5f0 (7.1) only a pick with protection takes the buddy: the shorter-slice wakeup
// check, which picks without, is not kept off by it.
TaskId Engine::pickEevdf(const CfsRq& cfs, bool protect) const {
    const bool buddy = buddyInPick() && (protect || !cfg_.has(Rule::ShortClearsBuddy));
    return cfs.pickEevdf(ev(), protect, currProtected(cfs), buddy);
}

// set_next_buddy(): the entity is the buddy in its runqueue and its ancestors in theirs, up to an
// idle entity (a SCHED_IDLE task is never anyone's buddy).
void Engine::setNextBuddy(CpuId c, EntityId se) {
    for (; se != kNoTask; se = parentEntity(se, c)) {
        if (entityIsTask(se) && tasks_[size_t(se)].policy == Policy::Idle) return; // se_is_idle()
        cfsRqOf(se, c).next = se;
    }
}

// clear_buddies() / __clear_buddies_next(): if se is its runqueue's buddy, it stops being one
// there and in each ancestor whose buddy is the path up from it.
void Engine::clearBuddies(CpuId c, CfsRq& cfs, EntityId se) {
    if (cfs.next != se) return;
    for (; se != kNoTask; se = parentEntity(se, c)) {
        CfsRq& q = cfsRqOf(se, c);
        if (q.next != se) break;
        q.next = kNoTask;
    }
}

// set_preempt_buddy() (e837456fdca8): a buddy with an earlier deadline than the wakee's stays.
bool Engine::setPreemptBuddy(CpuId c, CfsRq& cfs, EntityId pse) {
    if (cfs.next >= 0 && entity(cfs.next).deadline - entity(pse).deadline < 0)
        return false; // entity_before()
    setNextBuddy(c, pse);
    return true;
}

// set_short_buddy() (8f97b627ff1c, 7.3): a shorter-slice wakee that preempts becomes the buddy
// unless the buddy has a still shorter slice; NEXT_BUDDY or not.
bool Engine::setShortBuddy(CpuId c, CfsRq& cfs, EntityId pse) {
    if (cfs.next >= 0 && entity(cfs.next).slice < entity(pse).slice) return false;
    setNextBuddy(c, pse);
    return true;
}

// preempt_sync() (e837456fdca8): a WF_SYNC wakeup that made a new buddy preempts only once the
// waker has run sysctl_sched_migration_cost (a quarter of it when select_task_rq() chose the CPU:
// the two are stacking where they could spread) and the wakee's deadline is earlier. The run is
// measured from exec_start, which the update_curr() just before has set to now: as merged the
// test never passes and a sync wakeup that set a buddy does not preempt — the buddy is picked at
// the waker's next schedule.
bool Engine::preemptSync(int wakeFlags, EntityId pse, EntityId se) const {
    Time threshold = cfg_.migrationCost;
    const Time delta = std::max<Time>(0, now_ - entity(se).execStart);
    if (wakeFlags & WF_RQ_SELECTED) threshold >>= 2;
    return entity(pse).deadline - entity(se).deadline < 0 && delta >= threshold;
}

} // namespace sched
