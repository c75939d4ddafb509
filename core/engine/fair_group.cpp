// SPDX-License-Identifier: GPL-3.0-or-later
// The fair class over task groups (kernel/sched/fair.c with CONFIG_FAIR_GROUP_SCHED). On a CPU, a
// task's entity is queued in its group's runqueue, the group's entity in the parent group's, up
// to the CPU's root runqueue: the task-level operations walk that path as enqueue_task_fair(),
// dequeue_entities(), pick_task_fair(), pick_next_task_fair() and task_tick_fair() do, and a
// group entity's weight follows the group's share of its load on the CPU (update_cfs_group()).
// Without groups every path is one entity long and these are the flat operations.
#include "engine/engine.h"

#include <algorithm>
#include <cassert>

namespace sched {

namespace {
constexpr int64_t kMinShares = 2; // MIN_SHARES
} // namespace

GroupId Engine::addTaskGroup(std::string name, GroupId parent, int64_t shares) {
    const GroupId g = GroupId(groups_.size());
    TaskGroup tg;
    tg.name = std::move(name);
    tg.parent = parent;
    tg.depth = parent == kRootGroup ? 0 : groups_[size_t(parent)].depth + 1;
    tg.shares = std::clamp<int64_t>(shares, kMinShares, 1 << 18); // MAX_SHARES
    tg.cfsRq.resize(size_t(cfg_.cpus));
    tg.load.resize(size_t(cfg_.cpus));
    for (CfsRq& q : tg.cfsRq)
        q.tg = g;
    groups_.push_back(std::move(tg));
    // init_tg_cfs_entry(): the group's entity starts at NICE_0_LOAD; update_cfs_group() gives
    // it its share once the group has load.
    groupEnts_.resize(groupEnts_.size() + size_t(cfg_.cpus));
    return g;
}

std::string Engine::entityName(EntityId id) const {
    if (entityIsTask(id)) return tasks_[size_t(id)].comm + ":" + std::to_string(tasks_[size_t(id)].pid);
    return groups_[size_t(groupOfSe(id))].name;
}

const CfsRq& Engine::taskCfsRq(TaskId t) const {
    return cfsRqOf(t, tasks_[size_t(t)].cpu);
}

int Engine::depthOf(EntityId id) const {
    if (entityIsTask(id)) {
        const GroupId g = tasks_[size_t(id)].taskGroup;
        return g == kRootGroup ? 0 : groups_[size_t(g)].depth + 1;
    }
    return groups_[size_t(groupOfSe(id))].depth;
}

// update_load_add() / update_load_sub() on cfs_rq->load, and the group's sum over its CPUs. A
// group's cfs_rq first accounts the weight it had up to now (update_load_avg() comes before
// account_entity_enqueue() / _dequeue() and reweight_entity()'s load update).
void Engine::addQueuedWeight(CpuId c, CfsRq& cfs, int64_t w) {
    updateCfsRqLoadAvg(cfs.tg, c);
    if (cfs.tg >= 0) groups_[size_t(cfs.tg)].loadWeight += w;
    cfs.loadWeight += w;
    assert(cfs.loadWeight >= 0);
}

// update_cfs_rq_load_avg() of the group's cfs_rq on CPU c, or of the CPU's root cfs_rq for
// kRootGroup (struct sched_avg of a cfs_rq, input its queued weight) up to now; when a group's
// period ended, update_tg_load_avg().
void Engine::updateCfsRqLoadAvg(GroupId g, CpuId c) {
    if (g == kRootGroup) return updateRootCfsAvg(c);
    TaskGroup& tg = groups_[size_t(g)];
    if (tg.load[size_t(c)].avg.update(now_, uint64_t(tg.cfsRq[size_t(c)].loadWeight), 1))
        updateTgLoadAvg(g, c);
}

// update_tg_load_avg(): tg->load_avg takes this CPU's new part at most once a millisecond and
// only when it moved by more than 1/64 (1528c661c24b, v6.7: tg->load_avg is one cache line that
// every CPU writes).
void Engine::updateTgLoadAvg(GroupId g, CpuId c) {
    TaskGroup& tg = groups_[size_t(g)];
    GroupCpuLoad& l = tg.load[size_t(c)];
    if (now_ - l.lastUpdateTgLoadAvg < kNsPerMs) return;
    const int64_t delta = l.avg.loadAvg - l.tgLoadAvgContrib;
    if (std::abs(delta) <= l.tgLoadAvgContrib / 64) return;
    tg.loadAvg += delta;
    l.tgLoadAvgContrib = l.avg.loadAvg;
    l.lastUpdateTgLoadAvg = now_;
}

// __update_blocked_fair() of CPU c: a group with nothing queued here decays its load and, through
// update_tg_load_avg(), its part of the group's. A fully decayed cfs_rq is skipped, as the kernel
// drops it from the leaf list (cfs_rq_is_decayed()).
void Engine::updateBlockedFair(CpuId c) {
    updateCfsRqLoadAvg(kRootGroup, c); // the root cfs_rq: cpu_load() of an idle CPU decays
    for (GroupId g = 0; g < GroupId(groups_.size()); ++g) {
        const GroupCpuLoad& l = groups_[size_t(g)].load[size_t(c)];
        if (l.avg.loadSum == 0 && l.tgLoadAvgContrib == 0 &&
            groups_[size_t(g)].cfsRq[size_t(c)].loadWeight == 0)
            continue;
        updateCfsRqLoadAvg(g, c);
        updateGroupSeLoadAvg(c, g); // the group's entity on the parent's runqueue (UPDATE_TG)
    }
}

// __update_load_avg_se() of the group's entity on CPU c up to now: its time on the parent's
// runqueue, weighed by its weight now.
void Engine::updateGroupSeLoadAvg(CpuId c, GroupId g) {
    const SchedEntity& se = entity(groupSe(g, c));
    groups_[size_t(g)].load[size_t(c)].seAvg.update(now_, se.onRq ? 1 : 0, int64_t(se.load.weight));
}

// __update_load_avg_se() of a task: its time on the runqueue (on_rq 0 / 1) up to now.
void Engine::updateTaskLoadAvg(TaskId p, bool onRq) {
    tasks_[size_t(p)].seAvg.update(now_, onRq ? 1 : 0, int64_t(ents_[size_t(p)].load.weight));
}

// __update_load_avg_se() of an entity at its enqueue (it was off the runqueue) or dequeue (on):
// a task's, which also follows the task between CPUs, or a group entity's, which stays on its CPU.
void Engine::updateEntityLoadAvg(CpuId c, EntityId se, bool enqueue) {
    if (entityIsTask(se)) {
        if (enqueue)
            attachEntityLoadAvg(c, TaskId(se)); // update_load_avg(.., DO_ATTACH)
        else
            updateTaskLoadAvg(TaskId(se), true);
        return;
    }
    groups_[size_t(groupOfSe(se))].load[size_t(c)].seAvg.update(now_, enqueue ? 0 : 1,
                                                                int64_t(entity(se).load.weight));
}

// A task's load follows it between CPUs: enqueue_entity()'s update_load_avg() ages its
// se->avg over the time it was off the runqueue and, when the task comes from another CPU (a
// wakeup that migrated, a balance, a new task), remove_entity_load_avg() / detach takes it from
// the old CPU's cfs_rq and attach_entity_load_avg() adds it here. (The kernel subtracts a woken
// task's load from the old cfs_rq at that cfs_rq's next update; here at once.)
void Engine::attachEntityLoadAvg(CpuId c, TaskId p) {
    Task& t = tasks_[size_t(p)];
    const GroupId g = t.taskGroup;
    const int64_t w = int64_t(ents_[size_t(p)].load.weight);
    // A donor moved to its owner's CPU by proxy_migrate_task() went through __set_task_cpu() only:
    // no migrate_task_rq_fair(), so last_update_time is not 0 and enqueue_entity() attaches nothing
    // here - its load stays with the cfs_rq it was attached to until a set_task_cpu().
    if (t.loadCpu == c || (t.proxyHome >= 0 && t.loadCpu >= 0)) {
        updateTaskLoadAvg(p, false);
        return;
    }
    if (t.loadCpu >= 0) {
        detachEntityLoadAvg(p, false); // a woken task placed on another CPU
    } else if (t.loadTracked) {
        updateTaskLoadAvg(p, false); // detached by a balance or a class change: ATTACH_AGE_LOAD
    } else {
        t.seAvg = LoadAvg{}; // init_entity_runnable_average(): a new task starts fully loaded
        t.seAvg.loadAvg = w;
        t.loadTracked = true;
    }
    updateCfsRqLoadAvg(g, c);
    LoadAvg& dst = cfsLoadAvg(g, c);
    t.seAvg.lastUpdate = dst.lastUpdate;
    t.seAvg.periodContrib = dst.periodContrib;
    const uint64_t sum = uint64_t(t.seAvg.loadAvg) * dst.divider();
    t.seAvg.loadSum = uint64_t(w) < sum ? sum / uint64_t(w) : 1;
    dst.loadAvg += t.seAvg.loadAvg;
    dst.loadSum += uint64_t(w) * t.seAvg.loadSum;
    t.loadCpu = c;
    if (g != kRootGroup) updateTgLoadAvg(g, c);
}

// reweight_entity()'s dequeue_load_avg() / enqueue_load_avg() for a reniced task: its load
// average is its time on the runqueue times its new weight, and its cfs_rq's average changes by
// the difference at once.
void Engine::reweightTaskLoadAvg(TaskId p, int64_t oldWeight) {
    Task& t = tasks_[size_t(p)];
    if (t.loadCpu < 0) return;
    rescaleLoadAvg(t.seAvg, cfsLoadAvg(t.taskGroup, t.loadCpu), oldWeight,
                   int64_t(ents_[size_t(p)].load.weight));
}

// The same for a group entity given a new share (update_cfs_group()): the kernel's entity load
// average is its weight now times its time on the runqueue, so a share that changes moves the
// parent's load_avg - the CPU's cpu_load() for a top-level group - at once, not over the
// 32 ms of PELT's half-life.
void Engine::reweightGroupSeLoadAvg(CpuId c, EntityId se, int64_t oldWeight, int64_t weight) {
    const GroupId g = groupOfSe(se), parent = groups_[size_t(g)].parent;
    LoadAvg& seAvg = groups_[size_t(g)].load[size_t(c)].seAvg;
    updateCfsRqLoadAvg(parent, c);
    seAvg.update(now_, entity(se).onRq ? 1 : 0, oldWeight);
    rescaleLoadAvg(seAvg, cfsLoadAvg(parent, c), oldWeight, weight);
}

// dequeue_load_avg() at the old weight, the entity's average recomputed at the new one,
// enqueue_load_avg() (the sums' floor: PELT_MIN_DIVIDER times the average).
void Engine::rescaleLoadAvg(LoadAvg& se, LoadAvg& cfs, int64_t oldWeight, int64_t weight) {
    const int64_t before = se.loadAvg;
    se.loadAvg = int64_t(uint64_t(weight) * se.loadSum / se.divider());
    cfs.loadAvg = std::max<int64_t>(0, cfs.loadAvg - before + se.loadAvg);
    const uint64_t sub = uint64_t(oldWeight) * se.loadSum, add = uint64_t(weight) * se.loadSum;
    cfs.loadSum = (cfs.loadSum > sub ? cfs.loadSum - sub : 0) + add;
    cfs.loadSum = std::max<uint64_t>(cfs.loadSum, uint64_t(cfs.loadAvg) * pelt::kMinDivider);
}

// The task's load leaves the cfs_rq that holds it: a balance's dequeue of a queued task (onRq,
// DO_DETACH before account_entity_dequeue()), a woken task placed on another CPU, its switch to
// another class (detach_task_cfs_rq()) or its exit (task_dead_fair()).
void Engine::detachEntityLoadAvg(TaskId p, bool onRq) {
    Task& t = tasks_[size_t(p)];
    if (t.loadCpu < 0) return;
    const GroupId g = t.taskGroup;
    const CpuId old = t.loadCpu;
    updateCfsRqLoadAvg(g, old);
    updateTaskLoadAvg(p, onRq);
    LoadAvg& src = cfsLoadAvg(g, old);
    const int64_t r = std::min(src.loadAvg, t.seAvg.loadAvg);
    src.loadAvg -= r;
    const uint64_t rs = uint64_t(r) * src.divider();
    src.loadSum = src.loadSum > rs ? src.loadSum - rs : 0;
    src.loadSum = std::max<uint64_t>(src.loadSum, uint64_t(src.loadAvg) * pelt::kMinDivider);
    t.loadCpu = -1;
    if (g != kRootGroup) updateTgLoadAvg(g, old);
}

// A group entity's slice is the shortest slice queued below it (aef6987d8954): set as
// enqueue_task_fair() / dequeue_entities() do, with the tree's augmentation refreshed
// (min_vruntime_cb_propagate()) when the entity waits in it.
void Engine::setEntitySlice(CfsRq& cfs, EntityId id, int64_t slice) {
    SchedEntity& se = entity(id);
    if (se.slice == slice) return;
    se.slice = slice;
    if (se.onRq && cfs.curr != id) cfs.timeline.refresh(ev(), id);
}

// enqueue_task_fair(): enqueue the entities up the path until one is already queued (a delayed
// group entity met there is requeued), then update the queued ancestors: their weight
// (update_cfs_group()) and, where the rule is in, their slice.
void Engine::enqueueTaskFair(CpuId c, TaskId p, bool initial) {
    CpuRq& rq = rqs_[size_t(c)];
    const bool firstFair = rq.hNrQueued == 0;
    // The runqueue just below the entity in hand, whose shortest slice the entity takes: read only
    // when there is a parent (a flat path never reads it).
    const CfsRq* below = nullptr;
    EntityId se = p;
    for (; se != kNoTask; se = parentEntity(se, c)) {
        SchedEntity& e = entity(se);
        CfsRq& cfs = cfsRqOf(se, c);
        if (e.onRq) {
            if (e.schedDelayed) requeueDelayed(c, cfs, se);
            break;
        }
        if (below && cfg_.has(Rule::GroupMinSlice)) {
            e.slice = below->minSlice(ev());
            e.customSlice = true;
        }
        enqueueEntity(c, cfs, se, initial && se == p); // ENQUEUE_INITIAL is the task's only
        below = &cfs;
    }
    for (; se != kNoTask; se = parentEntity(se, c)) {
        CfsRq& cfs = cfsRqOf(se, c);
        updateCfsGroup(c, se);
        if (cfg_.has(Rule::GroupMinSlice)) setEntitySlice(cfs, se, below->minSlice(ev()));
        below = &cfs;
    }
    rq.hNrQueued++;
    if (firstFair) { // the fair class's first task on this CPU starts the fair_server
        // 6.18 charged the idle time here; from 6.19 (e636ffb9e31b) the idle task's own
        // update_curr() does, when the CPU leaves idle.
        if (rq.nrRunning == 0 && !cfg_.has(Rule::DlServerIdleWait)) dlServerUpdateIdle(c);
        dlServerStart(c);
    }
    hrtickUpdate(c, p);
}

bool Engine::dequeueTaskFair(CpuId c, TaskId p, bool sleep, bool mayDelay) {
    if (!dequeueEntities(c, p, sleep, false, mayDelay)) return false;
    hrtickUpdate(c, p);
    return true;
}

// dequeue_entities(): dequeue up the path while the runqueue left behind is empty (the parents as
// sleepers, so an ineligible group entity can be delayed in turn), then update the ancestors
// that stay queued. False when the task itself stays queued as a delayed sleeper. delayed
// finishes a delayed entity's dequeue (it was picked, or its task changes class or attributes).
bool Engine::dequeueEntities(CpuId c, EntityId se, bool sleep, bool delayed, bool mayDelay) {
    CpuRq& rq = rqs_[size_t(c)];
    const EntityId first = se;
    const bool taskSleep = sleep;
    const CfsRq* below = nullptr; // as in enqueueTaskFair()
    while (se != kNoTask) {
        CfsRq& cfs = cfsRqOf(se, c);
        if (!dequeueEntity(c, cfs, se, sleep, delayed, mayDelay)) {
            if (se == first && entityIsTask(se)) return false;
            below = &cfs; // a delayed group entity takes its own runqueue's shortest slice (as the kernel)
            break;
        }
        if (cfs.loadWeight) { // don't dequeue the parent if it has other entities besides us
            below = &cfs;
            se = parentEntity(se, c);
            // "Bias pick_next to pick a task from this cfs_rq, as p is sleeping when it is within
            // its sched_slice": the group is its parent's buddy (next_buddy.cpp).
            if (taskSleep && se != kNoTask) setNextBuddy(c, se);
            break;
        }
        sleep = true, delayed = false, mayDelay = true;
        se = parentEntity(se, c);
    }
    for (; se != kNoTask; se = parentEntity(se, c)) {
        CfsRq& cfs = cfsRqOf(se, c);
        updateCfsGroup(c, se);
        if (cfg_.has(Rule::GroupMinSlice)) setEntitySlice(cfs, se, below->minSlice(ev()));
        below = &cfs;
    }
    if (entityIsTask(first)) rq.hNrQueued--;
    // 6.12-6.16: the fair_server stops when the fair class's last task leaves (cccb45d7c429, v6.17,
    // made the stop lazy: only when picked with nothing to run).
    if (rq.hNrQueued == 0 && !cfg_.has(Rule::LazyFairServerStop) && rq.fairServer.active) dlServerStop(c);
    return true;
}

// pick_task_fair(): pick an entity at each level down to a task, each level's curr brought up to
// date first; a delayed sleeper picked on the way is dequeued and the pick starts again.
TaskId Engine::pickTaskFair(CpuId c) {
    for (;;) {
        CfsRq* cfs = &rqs_[size_t(c)].cfs;
        if (cfs->nrQueued == 0) return kNoTask;
        EntityId se = kNoTask;
        for (;;) {
            if (cfs->curr >= 0 && entity(cfs->curr).onRq) updateCurr(c, *cfs, false);
            se = pickNextEntity(c, *cfs);
            if (se < 0 || entityIsTask(se)) break;
            cfs = &groups_[size_t(groupOfSe(se))].cfsRq[size_t(c)]; // group_cfs_rq()
            if (cfs->nrQueued == 0) return kNoTask;                 // a queued group entity has load below it
        }
        if (se >= 0) return se;
    }
}

EntityId Engine::pickRootEntityNow(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    CfsRq& cfs = rq.cfs;
    if (cfs.nrQueued == 0) return kNoTask;
    rq.clockSkipAct = rq.clockSkipReq; // at the clock the next __schedule() will use (rq_clock.cpp)
    if (cfs.curr >= 0 && entity(cfs.curr).onRq) updateCurr(c, cfs, false);
    rq.clockSkipAct = false;
    return pickNextEntity(c, cfs);
}

// put_prev_task_fair() / set_next_task_fair(): every entity on the path.
void Engine::putPrevTaskFair(CpuId c, TaskId prev) {
    for (EntityId se = prev; se != kNoTask; se = parentEntity(se, c))
        putPrevEntity(c, cfsRqOf(se, c), se);
    rqs_[size_t(c)].fairCurr = kNoTask;
}

void Engine::setNextTaskFair(CpuId c, TaskId p, bool first) {
    for (EntityId se = p; se != kNoTask; se = parentEntity(se, c))
        setNextEntity(c, cfsRqOf(se, c), se, first);
    rqs_[size_t(c)].fairCurr = p;
}

// pick_next_task_fair() after a fair prev: only the part of the two paths that differs is put
// and set, up to the runqueue they share; the common ancestors stay cfs_rq->curr with their
// slice protection and exec_start.
void Engine::putPrevSetNextFair(CpuId c, TaskId prev, TaskId next) {
    EntityId se = next, pse = prev;
    int seDepth = -1, pseDepth = -1;              // read only when the paths differ (never without groups)
    while (parentGroup(se) != parentGroup(pse)) { // !is_same_group()
        if (seDepth < 0) seDepth = depthOf(se), pseDepth = depthOf(pse);
        const int sd = seDepth, pd = pseDepth;
        if (sd <= pd) {
            putPrevEntity(c, cfsRqOf(pse, c), pse);
            pse = parentEntity(pse, c);
            --pseDepth;
        }
        if (sd >= pd) {
            setNextEntity(c, cfsRqOf(se, c), se, true);
            se = parentEntity(se, c);
            --seDepth;
        }
    }
    CfsRq& cfs = cfsRqOf(se, c);
    putPrevEntity(c, cfs, pse);
    setNextEntity(c, cfs, se, true);
    rqs_[size_t(c)].fairCurr = next;
}

// task_tick_fair(): entity_tick() on every level, from the task up: account, then the group
// entity's new share.
void Engine::taskTickFair(CpuId c) {
    for (EntityId se = rqs_[size_t(c)].donor(); se != kNoTask; se = parentEntity(se, c)) {
        updateCurr(c, cfsRqOf(se, c), true);
        if (entityIsTask(se)) updateTaskLoadAvg(TaskId(se), true); // entity_tick()'s update_load_avg()
        updateCfsGroup(c, se);
    }
}

// update_cfs_group() with calc_group_shares(): the group's shares times this CPU's part of its
// load, clamped to [MIN_SHARES, shares]. This CPU's load is max(its queued weight, its PELT
// load_avg); the whole is tg->load_avg with this CPU's part replaced by that load. A group emptied
// on this CPU keeps its weight (66951e4860d3, for DELAY_DEQUEUE).
void Engine::updateCfsGroup(CpuId c, EntityId se) {
    if (entityIsTask(se)) return;
    const GroupId g = groupOfSe(se);
    updateGroupSeLoadAvg(c, g); // the update_load_avg() of the entity that precedes this call
    const TaskGroup& tg = groups_[size_t(g)];
    const int64_t queued = tg.cfsRq[size_t(c)].loadWeight;
    if (queued == 0 && cfg_.has(Rule::EmptyGroupKeepsWeight)) return;
    updateCfsRqLoadAvg(g, c); // the level below's update_load_avg(), which precedes this call in the kernel
    const GroupCpuLoad& l = tg.load[size_t(c)];
    const int64_t load = std::max(queued, l.avg.loadAvg);
    const int64_t tgWeight = tg.loadAvg - l.tgLoadAvgContrib + load;
    int64_t shares = tg.shares * load;
    if (tgWeight) shares /= tgWeight;
    shares = std::clamp<int64_t>(shares, kMinShares, tg.shares);
    if (int64_t(entity(se).load.weight) != shares) reweightEntity(c, cfsRqOf(se, c), se, uint32_t(shares));
}

// reweight_entity() since 6d71a9c61604 (v6.13): a queued entity leaves the sums, its lag and
// relative deadline are scaled to the new weight, and it is placed again. Before ff38424030f9
// (6.18.17) the running entity's protection is lost: se->vprot shares its storage with se->vlag,
// which update_entity_lag() has just overwritten; after, it is kept, scaled like the deadline.
void Engine::reweightEntity(CpuId c, CfsRq& cfs, EntityId id, uint32_t weight) {
    if (!entityIsTask(id)) reweightGroupSeLoadAvg(c, id, int64_t(entity(id).load.weight), int64_t(weight));
    if (cfg_.has(Rule::ReweightRescale)) {
        reweightRescale(c, cfs, id, weight);
        return;
    }
    if (!cfg_.has(Rule::ReweightPlace)) {
        reweightEevdf612(c, cfs, id, weight);
        return;
    }
    SchedEntity& se = entity(id);
    const bool isCurr = cfs.curr == id;
    const int64_t old = se.load.weight;
    const bool vprotRule = cfg_.has(Rule::ProtectSliceVprot);
    int64_t vprot = 0;
    bool keepProtection = false;
    if (se.onRq) {
        updateCurr(c, cfs, false);
        if (isCurr && vprotRule && cfg_.has(Rule::ReweightVprot) && currProtected(cfs)) {
            vprot = se.vprot - se.vruntime;
            keepProtection = true;
        }
        updateEntityLag(cfs, id);
        // Out of the tree before the key (deadline) is made relative: the treap finds nodes by key.
        if (!isCurr) cfs.dequeueTree(ev(), id);
        se.deadline -= se.vruntime;
        se.relDeadline = true;
        cfs.nrQueued--;
        addQueuedWeight(c, cfs, -old);
    }
    // vlag = V - v while lag = w (V - v): virtual quantities scale by old / new weight.
    se.vlag = se.vlag * old / int64_t(weight);
    if (se.relDeadline) se.deadline = se.deadline * old / int64_t(weight);
    if (keepProtection) vprot = vprot * old / int64_t(weight);
    se.load = loadWeightOf(weight);
    if (se.onRq) {
        placeEntity(cfs, id, false);
        if (keepProtection) se.vprot = se.vruntime + vprot;
        // 6.18.0 - 6.18.44: vprot is the union with vlag, a lag now, far below any vruntime:
        // protection is gone wherever the placement put the entity. With the two apart (7.0) an
        // expired vprot stays, and holds again if the placement put vruntime below it.
        else if (isCurr && vprotRule && !cfg_.has(Rule::VlagVprotSplit))
            se.vprot = se.vruntime;
        addQueuedWeight(c, cfs, int64_t(se.load.weight));
        if (!isCurr) cfs.enqueueTree(ev(), id);
        cfs.nrQueued++;
        cfs.updateMinVruntime(ev());
    }
}

// reweight_entity() since 101f3498b4bd (7.1; 6.18.45 as 62fefb817bb3), which reverted the
// re-placement: V must not move when a weight changes (avg_vruntime() already counts a queued
// curr, so place_entity()'s inflation scaled its lag by the wrong total). The lag, clamped as
// update_entity_lag() clamps it, the deadline and a running entity's protection are taken
// relative to V, scaled by old / new weight (rescale_entity()), and the entity goes back at
// V - vlag.
void Engine::reweightRescale(CpuId c, CfsRq& cfs, EntityId id, uint32_t weight) {
    SchedEntity& se = entity(id);
    const bool isCurr = cfs.curr == id;
    const int64_t old = se.load.weight;
    const int64_t w = weight;
    int64_t V = 0;
    bool relVprot = false;
    if (se.onRq) {
        updateCurr(c, cfs, false);
        V = cfs.avgVruntimeValue(ev());
        updateEntityLag(cfs, id); // entity_lag() against this V
        if (!isCurr) cfs.dequeueTree(ev(), id);
        se.deadline -= V;
        se.relDeadline = true;
        if (isCurr && currProtected(cfs)) {
            se.vprot -= V;
            relVprot = true;
        }
        cfs.nrQueued--;
        addQueuedWeight(c, cfs, -old);
    }
    // rescale_entity(): div64_long() truncates toward zero, as C++'s division does.
    se.vlag = se.vlag * old / w;
    if (se.relDeadline) se.deadline = se.deadline * old / w;
    if (relVprot) se.vprot = se.vprot * old / w;
    se.load = loadWeightOf(weight);
    if (se.onRq) {
        if (relVprot) se.vprot += V;
        se.deadline += V;
        se.relDeadline = false;
        se.vruntime = V - se.vlag;
        addQueuedWeight(c, cfs, int64_t(se.load.weight));
        if (!isCurr) cfs.enqueueTree(ev(), id);
        cfs.nrQueued++;
        cfs.updateMinVruntime(ev());
    }
}

// reweight_entity() before 6d71a9c61604 (6.13). 6.7 - 6.12 (reweight_eevdf(), eab03c23c2a1): a
// queued entity keeps its lag and the distance of its deadline from V, both scaled by old / new
// weight, measured against V as it stands; the running entity's 6.12 protection stash (vlag ==
// deadline) no longer matches the moved deadline. 6.6: it stays at its vruntime (it leaves and
// rejoins the sums at its new weight, so V moves and its lag with it) and only its deadline's
// distance from its vruntime is scaled. A sleeper's vlag is scaled in both.
void Engine::reweightEevdf612(CpuId c, CfsRq& cfs, EntityId id, uint32_t weight) {
    SchedEntity& se = entity(id);
    const bool isCurr = cfs.curr == id;
    const int64_t old = se.load.weight;
    const int64_t w = weight;
    if (se.onRq) {
        updateCurr(c, cfs, false);
        const int64_t V = cfs.avgVruntimeValue(ev());
        if (!isCurr) cfs.dequeueTree(ev(), id);
        addQueuedWeight(c, cfs, -old);
        if (!cfg_.has(Rule::ReweightEevdf)) {
            se.deadline = se.vruntime + (se.deadline - se.vruntime) * old / w;
        } else {
            if (V != se.vruntime) {
                // entity_lag(): V - v clamped to the lag of max(2 slices, a tick)
                const int64_t limit =
                    calcDeltaFair(std::max<int64_t>(2 * se.slice, cfg_.tickNsec()), se.load);
                const int64_t vlag = std::clamp(V - se.vruntime, -limit, limit) * old / w;
                se.vruntime = V - vlag;
            }
            se.deadline = V + (se.deadline - V) * old / w;
        }
    } else {
        se.vlag = se.vlag * old / w;
    }
    se.load = loadWeightOf(weight);
    if (se.onRq) {
        addQueuedWeight(c, cfs, int64_t(se.load.weight));
        if (!isCurr) cfs.enqueueTree(ev(), id);
        cfs.updateMinVruntime(ev());
    }
}

} // namespace sched
