// SPDX-License-Identifier: GPL-3.0-or-later
// The fair class (kernel/sched/fair.c): accounting, placement, enqueue/dequeue with
// DELAY_DEQUEUE, the switch-in/out of the running entity with slice protection, picking and
// wakeup preemption. Where kernel versions differ, the rule the profile has decides
// (kernel_rules.h: SchedConfig::has()); each such branch names its rule.
#include "engine/engine.h"

#include <algorithm>

namespace sched {

Time Engine::entitySlice(const SchedEntity& se) const {
    return se.customSlice ? se.slice : cfg_.baseSlice();
}

// update_deadline(): a request is renewed only once vruntime reaches the deadline, and the new
// deadline is computed from the current vruntime.
bool Engine::updateDeadline(SchedEntity& se) {
    if (se.vruntime - se.deadline < 0) return false;
    if (!se.customSlice) se.slice = cfg_.baseSlice();
    se.deadline = se.vruntime + calcDeltaFair(se.slice, se.load);
    return true;
}

// update_curr(): charge the running entity for the time since exec_start and decide whether a
// reschedule is due (6.17+: deadline renewed or protection over; 6.12: deadline renewed or
// did_preempt_short()).
void Engine::updateCurr(CpuId c, CfsRq& cfs, bool fromTick) {
    CpuRq& rq = rqs_[size_t(c)];
    const Time now = rqClockTask(c);
    const EntityId t = cfs.curr;
    if (t < 0) return;
    SchedEntity& se = entity(t);
    const Time delta = now - se.execStart;
    if (delta <= 0) return;
    se.execStart = now;
    if (rq.proxying() && t == rq.fairCurr) {
        // update_se() (aa4f74dfd42b): a task's time is the running task's - the mutex owner that
        // runs for this donor - while the donor's vruntime and deadline pay for it below.
        ents_[size_t(rq.curr)].sumExecRuntime += delta;
        if (tasks_[size_t(t)].blockedOn >= 0) mutexes_[size_t(tasks_[size_t(t)].blockedOn)].proxied += delta;
    } else {
        se.sumExecRuntime += delta;
    }
    se.vruntime += calcDeltaFair(delta, se.load);
    const bool renewed = updateDeadline(se);
    cfs.updateMinVruntime(ev());
    if (entityIsTask(t)) {
        if (fromTick || renewed) recordSample(t);
        if (rq.fairServer.active) dlServerUpdate(c, delta); // whether or not t runs on its behalf
    }

    if (cfs.nrQueued == 1) return; // a lone entity is never rescheduled by the fair class
    const bool vprot = cfg_.has(Rule::ProtectSliceVprot);
    if (!currReschedules(se, se.vruntime, se.deadline, renewed, vprot || cfs.entityEligible(ev(), t))) return;
    // 6.17+ asks lazily (resched_curr_lazy()), 6.12 eagerly
    reschedCurr(c, vprot ? ReschedBit::Lazy : ReschedBit::Eager,
                renewed ? ReschedReason::SliceExpired : ReschedReason::ProtectionEnded);
    clearBuddies(c, cfs, t);
}

// update_curr()'s reschedule: the slice renewed, or (6.17+) the protection over, or (6.12)
// did_preempt_short(): protection cancelled (or stale) and curr no longer eligible. The 2023
// queue's PREEMPT_SHORT did nothing at the tick (Rule::PreemptShortFull).
bool Engine::currReschedules(const SchedEntity& se, int64_t v, int64_t d, bool renewed, bool eligible) const {
    if (renewed) return true;
    if (cfg_.has(Rule::ProtectSliceVprot)) return se.vprot - v <= 0;
    return cfg_.has(Rule::PreemptShortFull) && cfg_.feature(Feature::PreemptShort) && se.vlag != d &&
           !eligible;
}

// place_entity(): put a (re)joining entity at V minus its inflated lag, with a fresh or restored
// relative deadline.
void Engine::placeEntity(CfsRq& cfs, EntityId t, bool initial) {
    SchedEntity& se = entity(t);
    const int64_t V = cfs.avgVruntimeValue(ev());
    if (!se.customSlice) se.slice = cfg_.baseSlice();
    int64_t vslice = calcDeltaFair(se.slice, se.load);
    int64_t lag = 0;
    const bool haveLag = !cfg_.has(Rule::PlaceLagNonZero) || se.vlag != 0;
    if (cfg_.feature(Feature::PlaceLag) && cfs.nrQueued > 0 && haveLag) {
        // Inflate the lag so that it is still vlag after V moves toward the newcomer:
        // lag = vlag * (W + w) / W, with W including curr.
        int64_t load = cfs.avgLoad;
        if (cfs.curr >= 0 && entity(cfs.curr).onRq) load += entity(cfs.curr).load.weight;
        int128 l = int128(se.vlag) * (load + se.load.weight);
        if (!load) load = 1;
        lag = int64_t(l / load); // div_s64 truncates toward zero
    }
    se.vruntime = V - lag;
    const bool relOk = cfg_.has(Rule::RelDeadlineAlways) ||
                       (cfg_.has(Rule::PlaceRelDeadline) && cfg_.feature(Feature::PlaceRelDeadline));
    if (se.relDeadline && relOk) {
        se.deadline += se.vruntime;
        se.relDeadline = false;
        return;
    }
    se.relDeadline = false;
    // PLACE_DEADLINE_INITIAL: a new task starts with half a request so it gets in sooner.
    if (cfg_.feature(Feature::PlaceDeadlineInitial) && initial) vslice /= 2;
    se.deadline = se.vruntime + vslice;
}

// enqueue_entity(): a group entity is reweighted to its group's new share before it is placed
// (update_cfs_group()); the running entity is placed before update_curr().
void Engine::enqueueEntity(CpuId c, CfsRq& cfs, EntityId t, bool initial) {
    SchedEntity& se = entity(t);
    const bool isCurr = cfs.curr == t;
    updateRootCfsAvg(c); // update_load_avg()
    if (isCurr) placeEntity(cfs, t, initial);
    updateCurr(c, cfs, false);
    updateEntityLoadAvg(c, t, true); // update_load_avg(.., DO_ATTACH)
    if (!entityIsTask(t)) updateCfsGroup(c, t);
    if (!isCurr) placeEntity(cfs, t, initial);
    addQueuedWeight(c, cfs, int64_t(se.load.weight));
    cfs.nrQueued++;
    if (!isCurr) cfs.enqueueTree(ev(), t);
    if (entityIsTask(t)) rqs_[size_t(c)].cfsTasks.add(ents_, t); // account_entity_enqueue()
    se.onRq = true;
    sampleJoin(cfs, t);
}

// The chart's samples around a change of the queue: the entity itself and the running task,
// whose lag line shows V's jump (O(1); waiting tasks' lines interpolate V between their
// samples). Only tasks have lines.
void Engine::sampleJoin(const CfsRq& cfs, EntityId t) {
    if (entityIsTask(t)) recordSample(t);
    if (cfs.curr >= 0 && cfs.curr != t && entityIsTask(cfs.curr)) recordSample(cfs.curr);
}

// dequeue_entity(). Returns false when DELAY_DEQUEUE keeps a non-eligible sleeper queued. The
// buddy is cleared first (493afbd187c4, 6.13), so a buddy is never a delayed sleeper.
bool Engine::dequeueEntity(CpuId c, CfsRq& cfs, EntityId t, bool sleep, bool delayedFinish, bool mayDelay) {
    SchedEntity& se = entity(t);
    updateCurr(c, cfs, false);
    clearBuddies(c, cfs, t);
    updateRootCfsAvg(c);              // update_load_avg()
    updateEntityLoadAvg(c, t, false); // update_load_avg(): it was queued
    if (!delayedFinish && sleep && mayDelay && cfg_.feature(Feature::DelayDequeue) &&
        !cfs.entityEligible(ev(), t)) {
        // Negative lag may not be shed by sleeping: stay queued until picked or woken. 7.1 takes
        // the lag now: while delayed it may shrink, never grow (updateEntityLag()).
        if (cfg_.has(Rule::DelayedLagKeep)) updateEntityLag(cfs, t);
        se.schedDelayed = true;
        cfs.nrDelayed++;
        if (entityIsTask(t)) rqs_[size_t(c)].hNrDelayed++;
        return false;
    }
    updateEntityLag(cfs, t);
    // Leave the tree before the key (deadline) is made relative: the tree finds nodes by key.
    if (t != cfs.curr) cfs.dequeueTree(ev(), t);
    if (cfg_.has(Rule::PlaceRelDeadline) && cfg_.feature(Feature::PlaceRelDeadline) && !sleep) {
        se.deadline -= se.vruntime;
        se.relDeadline = true;
    }
    se.onRq = false;
    if (entityIsTask(t)) rqs_[size_t(c)].cfsTasks.del(ents_, t); // account_entity_dequeue()
    addQueuedWeight(c, cfs, -int64_t(se.load.weight));
    cfs.nrQueued--;
    cfs.updateMinVruntime(ev());
    if (delayedFinish) {
        se.schedDelayed = false;
        cfs.nrDelayed--;
        if (entityIsTask(t)) rqs_[size_t(c)].hNrDelayed--;
        if (cfg_.feature(Feature::DelayZero) && se.vlag > 0) se.vlag = 0;
    }
    sampleJoin(cfs, t); // V jumped
    return true;
}

// update_load_avg() on the root cfs_rq (pelt.h): brings the CPU's utilisation and load up to now
// with the state it had since the last update (queued weight, a fair task running). Called
// before each change of that state, as the kernel's enqueue/dequeue/set_next/put_prev and the
// tick do; cpu_load() and SIS_UTIL read what it last stored.
void Engine::updateRootCfsAvg(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    rq.cfsUtil.update(now_, rq.cfs.nrQueued > 0, rq.cfs.curr >= 0);
    rq.cfsLoad.update(now_, uint64_t(rq.cfs.loadWeight), 1);
}

// entity_lag(): clamp(V - v, +-limit), the limit calc_delta_fair() of max(2 slice, TICK_NSEC)
// before 6e3c0a4e1ad1 "Fix lag clamp" (6.18.17) and of the largest slice queued plus TICK_NSEC
// after it (cfs_rq_max_slice(), with the entity itself still queued).
int64_t Engine::entityLag(const CfsRq& cfs, EntityId t) const {
    const SchedEntity& se = entity(t);
    const int64_t lag = cfs.avgVruntimeValue(ev()) - se.vruntime;
    const int64_t span = cfg_.has(Rule::LagClampMaxSlice) ? cfs.maxSlice(ev()) + cfg_.tickNsec()
                                                          : std::max<int64_t>(2 * se.slice, cfg_.tickNsec());
    const int64_t limit = calcDeltaFair(span, se.load);
    return std::clamp(lag, -limit, limit);
}

// update_entity_lag(): se->vlag = entity_lag(). Since 059258b0d424 and c5cd6fd75b6a (7.1) a
// delayed sleeper keeps the lag it was delayed with if V has since moved back (a newcomer placed
// behind it): its lag may shrink, not grow more negative, and DELAY_ZERO caps it at 0. True when
// the stored lag is not V - v, i.e. the entity is not where its lag says (it is re-placed at
// requeue).
bool Engine::updateEntityLag(const CfsRq& cfs, EntityId t) {
    SchedEntity& se = entity(t);
    const int64_t V = cfs.avgVruntimeValue(ev());
    int64_t vlag = entityLag(cfs, t);
    if (se.schedDelayed && cfg_.has(Rule::DelayedLagKeep)) {
        vlag = std::max(vlag, se.vlag); // it was negative, or the entity would not be delayed
        if (cfg_.feature(Feature::DelayZero)) vlag = std::min<int64_t>(vlag, 0);
    }
    se.vlag = vlag;
    return V - vlag != se.vruntime;
}

// set_next_entity(): take the entity out of the tree and arm its slice protection. first is false
// for the sched_change pattern's set_next_task() (a renice, slice or policy change of the running
// task): since bcd74b2ffdd0 (6.18.17) that no longer re-arms the protection, and as the change's
// dequeue stored the lag in the field vprot shares with vlag (a union in 6.17 - 6.18.44), the
// protection is over. Once the two are separate (80390ead2080, 7.0; 6.18.45), vprot keeps the
// value it had, and the protection holds again if the re-placement left vruntime below it.
void Engine::setNextEntity(CpuId c, CfsRq& cfs, EntityId t, bool first) {
    SchedEntity& se = entity(t);
    clearBuddies(c, cfs, t); // picked: no longer anyone's buddy
    updateRootCfsAvg(c);     // update_load_avg(): the time before this pick
    if (se.onRq) {
        cfs.dequeueTree(ev(), t);
        if (entityIsTask(t))
            rqs_[size_t(c)].cfsTasks.moveToHead(ents_, t); // __set_next_task_fair(): MRU order
        if (!cfg_.has(Rule::ProtectSliceVprot)) {
            se.vlag = se.deadline; // 6.12: the "HACK" stash that marks the protected slice
        } else if (!first && cfg_.has(Rule::ProtectAtPickOnly)) {
            if (!cfg_.has(Rule::VlagVprotSplit)) se.vprot = se.vruntime;
        } else {
            // set_protect_slice(): protect until the deadline, or for the shortest slice queued
            // (RUN_TO_PARITY) / the minimum quantum (NO_RUN_TO_PARITY) if that is shorter.
            int64_t s = cfg_.feature(Feature::RunToParity) ? cfs.minSlice(ev()) : cfg_.normalizedSlice();
            s = std::min<int64_t>(s, se.slice);
            int64_t vprot = se.deadline;
            // 7.3 (0d1e7a2bab35): with PREEMPT_SHORT, until curr is no longer eligible against the
            // others (curr is out of the tree's sums here) rather than for the shortest slice.
            if (s != se.slice)
                vprot = std::min(vprot,
                                 cfg_.has(Rule::ShortProtectIneligible) && cfg_.feature(Feature::PreemptShort)
                                     ? cfs.ineligibleVruntime()
                                     : se.vruntime + calcDeltaFair(s, se.load));
            se.vprot = vprot;
        }
    }
    cfs.curr = t;
    se.prevSumExecRuntime = se.sumExecRuntime;
    se.execStart = rqClockTask(c);
    if (entityIsTask(t))
        recordSample(t); // where the chart's lines start rising: v, deadline and V at the pick
}

// put_prev_entity(): a still-queued entity goes back into the tree.
void Engine::putPrevEntity(CpuId c, CfsRq& cfs, EntityId t) {
    SchedEntity& se = entity(t);
    if (se.onRq) updateCurr(c, cfs, false);
    updateRootCfsAvg(c); // update_load_avg(): the time it ran
    if (se.onRq) cfs.enqueueTree(ev(), t);
    cfs.curr = kNoTask;
}

bool Engine::currProtected(const CfsRq& cfs) const {
    if (cfs.curr < 0) return false;
    const SchedEntity& se = entity(cfs.curr);
    return sliceProtected(se, se.vruntime, se.deadline);
}

bool Engine::sliceProtected(const SchedEntity& se, int64_t v, int64_t d) const {
    if (cfg_.has(Rule::ProtectSliceVprot)) return se.vprot - v > 0; // protect_slice()
    return cfg_.feature(Feature::RunToParity) && se.vlag == d;      // 6.12: vlag holds the protected deadline
}

void Engine::cancelProtectSlice(SchedEntity& se) {
    if (cfg_.has(Rule::ProtectSliceVprot)) {
        if (se.vprot - se.vruntime > 0) se.vprot = se.vruntime;
    } else if (se.vlag == se.deadline) {
        se.vlag = se.deadline + 1;
    }
}

// update_protect_slice(): a shorter-slice wakee shrinks curr's window to the shortest slice,
// counted since 7.3 (49f87b4d0be8) from V where curr is ahead of it.
void Engine::updateProtectSlice(const CfsRq& cfs, SchedEntity& se) {
    const int64_t s = cfs.minSlice(ev());
    const int64_t from =
        cfg_.has(Rule::ProtectFromAverage) ? std::min(se.vruntime, cfs.avgVruntimeValue(ev())) : se.vruntime;
    se.vprot = std::min(se.vprot, from + calcDeltaFair(s, se.load));
}

// pick_next_entity(): an eligible buddy (before e837456fdca8; after it __pick_eevdf() looks at
// the buddy itself), else pick_eevdf with protection. A delayed sleeper that wins is dequeued for
// real, with its emptied parents (dequeue_entities()), and kNoTask tells pick_task_fair() to
// start again from the top (no switch happens for it).
EntityId Engine::pickNextEntity(CpuId c, CfsRq& cfs) {
    if (!buddyInPick() && pickBuddyOn() && cfs.next >= 0 && cfs.entityEligible(ev(), cfs.next))
        return cfs.next;
    EntityId se = pickEevdf(cfs, true);
    if (se < 0) se = cfs.timeline.leftmost(ev()); // cannot happen with exact sums; be safe
    if (entity(se).schedDelayed) {
        dequeueEntities(c, se, true, true);
        return kNoTask;
    }
    return se;
}

// requeue_delayed_entity(): a delayed sleeper woken before it was picked stays where it is,
// unless it has become eligible, in which case (DELAY_ZERO) it restarts at V with zero lag. 7.1
// (059258b0d424, c5cd6fd75b6a): placed again at V - vlag whenever update_entity_lag() changed its
// lag — kept from growing more negative, or capped at 0.
void Engine::requeueDelayed(CpuId c, CfsRq& cfs, EntityId t) {
    SchedEntity& se = entity(t);
    if (cfg_.has(Rule::DelayedLagKeep)) {
        if (updateEntityLag(cfs, t)) {
            cfs.nrQueued--;
            if (t != cfs.curr) cfs.dequeueTree(ev(), t);
            placeEntity(cfs, t, false);
            if (t != cfs.curr) cfs.enqueueTree(ev(), t);
            cfs.nrQueued++;
        }
    } else if (cfg_.feature(Feature::DelayZero)) {
        updateEntityLag(cfs, t);
        if (se.vlag > 0) {
            cfs.nrQueued--;
            if (t != cfs.curr) cfs.dequeueTree(ev(), t);
            se.vlag = 0;
            placeEntity(cfs, t, false);
            if (t != cfs.curr) cfs.enqueueTree(ev(), t);
            cfs.nrQueued++;
        }
    }
    se.schedDelayed = false;
    cfs.nrDelayed--;
    if (entityIsTask(t)) {
        rqs_[size_t(c)].hNrDelayed--;
        recordSample(t);
    }
}

// check_preempt_wakeup_fair(). WF_FORK does not change the 6.12-6.18.0 rule; the 6.18.33 rework
// (checkPreemptWakeupReworked()) stops fork wakeups from preempting. With task groups the two
// entities compared are curr's and p's ancestors in the runqueue they share (find_matching_se()):
// a wakee in another group competes as its group, with the group's deadline and slice. Before the
// rework NEXT_BUDDY makes every wakee but a forked or delayed one the buddy, whatever follows.
void Engine::checkPreemptWakeupFair(CpuId c, TaskId p, int wakeFlags) {
    CpuRq& rq = rqs_[size_t(c)];
    // The donor's entity decides (rq->donor: under proxy execution the mutex owner runs on it); a
    // woken donor meets itself (se == pse) and preempts nothing.
    const TaskId curr = rq.donor();
    if (curr < 0 || curr == p || rq.fairCurr != curr) return;
    const bool rework = cfg_.has(Rule::WakeupPreemptRework);
    if (!rework && cfg_.feature(Feature::NextBuddy) && !(wakeFlags & WF_FORK) && !entity(p).schedDelayed)
        setNextBuddy(c, p);
    // test_tsk_need_resched(): already going - since 7.3 (7ad0ec7890b3) only without PREEMPT_SHORT,
    // so that the protection and the buddy are brought up to date for the coming pick.
    if (rq.flag[size_t(ReschedBit::Eager)] &&
        !(cfg_.has(Rule::ShortDespiteResched) && cfg_.feature(Feature::PreemptShort)))
        return;
    if (!cfg_.feature(Feature::WakeupPreemption)) return;
    const bool v618 = cfg_.has(Rule::ProtectSliceVprot);
    const ReschedBit bit = v618 ? ReschedBit::Lazy : ReschedBit::Eager;

    EntityId seId = curr, pseId = p;
    findMatchingSe(c, seId, pseId);
    SchedEntity& se = entity(seId);
    const SchedEntity& pse = entity(pseId);
    // se_is_idle(): a SCHED_IDLE task (a group is never idle here: no cpu.idle).
    const bool currIdle = entityIsTask(seId) && tasks_[size_t(seId)].policy == Policy::Idle;
    const bool wakeeIdle = entityIsTask(pseId) && tasks_[size_t(pseId)].policy == Policy::Idle;
    wakeupCause_ = {p, pseId, seId, WakeupCause::Rule::None}; // each reschedCurr() below says its rule
    if (currIdle && !wakeeIdle) {                             // a SCHED_IDLE curr yields to anything else
        if (v618) cancelProtectSlice(se);
        wakeupCause_.rule = WakeupCause::Rule::IdleCurr;
        reschedCurr(c, bit, ReschedReason::WakeupPreempt);
        return;
    }
    CfsRq& cfs = cfsRqOf(seId, c);
    if (cfg_.has(Rule::ProtectUpdateAlways)) {
        // 7.3 (7cd2ef17de5e, 04998aa54848): curr brought up to date first; a wakee that cannot
        // preempt - the other side of SCHED_IDLE, SCHED_BATCH, a delayed entity - still shrinks
        // curr's protection.
        updateCurr(c, cfs, false);
        if (currIdle != wakeeIdle || tasks_[size_t(p)].policy != Policy::Normal ||
            (cfg_.has(Rule::DelayedNoPreempt) && pse.schedDelayed)) {
            if (cfg_.feature(Feature::RunToParity)) updateProtectSlice(cfs, se);
            return;
        }
    } else {
        if (currIdle != wakeeIdle) return;
        if (tasks_[size_t(p)].policy != Policy::Normal) return; // SCHED_BATCH never wakeup-preempts
        updateCurr(c, cfs, false);
    }

    if (v618 && rework) {
        checkPreemptWakeupReworked(c, cfs, seId, pseId, wakeFlags);
        return;
    }
    if (v618) {
        const bool shortSlice = cfg_.feature(Feature::PreemptShort) && pse.slice < se.slice;
        if (pickEevdf(cfs, !shortSlice) == pseId) {
            // PREEMPT_SHORT decided only where curr's protection would have kept the CPU (asked
            // with a second pick only then: an unprotected curr gives the same pick either way)
            const bool byShort = shortSlice && currProtected(cfs) && pickEevdf(cfs, true) != pseId;
            if (shortSlice) cancelProtectSlice(se);
            wakeupCause_.rule = byShort ? WakeupCause::Rule::ShortSlice : WakeupCause::Rule::Pick;
            reschedCurr(c, bit, ReschedReason::WakeupPreempt);
            return;
        }
        if (cfg_.feature(Feature::RunToParity) && shortSlice) updateProtectSlice(cfs, se);
        return;
    }
    // 6.12 do_preempt_short(): a shorter, eligible wakee that is earlier (or curr is no longer
    // eligible) cancels curr's protection even if it is not picked now. The queue's first version
    // (autumn 2023 to the April 2024 RFC) asked for an earlier deadline than a still-protected curr.
    const bool wasProtected = currProtected(cfs);
    bool cancelled = false;
    if (cfg_.feature(Feature::PreemptShort) && pse.slice < se.slice && cfs.entityEligible(ev(), pseId)) {
        if (!cfg_.has(Rule::PreemptShortFull)) {
            if (pse.deadline - se.deadline < 0 && se.vlag == se.deadline) {
                se.vlag = se.deadline - 1;
                cancelled = true;
            }
        } else if (pse.deadline < se.deadline || !cfs.entityEligible(ev(), seId)) {
            cancelProtectSlice(se);
            cancelled = true;
        }
    }
    if (pickEevdf(cfs, true) == pseId) {
        // PREEMPT_SHORT decided where it cancelled a protection that held
        wakeupCause_.rule =
            cancelled && wasProtected ? WakeupCause::Rule::ShortSlice : WakeupCause::Rule::Pick;
        reschedCurr(c, bit, ReschedReason::WakeupPreempt);
    }
}

// find_matching_se(): walk both entities up to the same depth, then on until they share a
// runqueue. Without task groups both are already in the CPU's root runqueue.
void Engine::findMatchingSe(CpuId c, EntityId& se, EntityId& pse) const {
    int seDepth = depthOf(se), pseDepth = depthOf(pse);
    while (seDepth > pseDepth) {
        se = parentEntity(se, c);
        --seDepth;
    }
    while (pseDepth > seDepth) {
        pse = parentEntity(pse, c);
        --pseDepth;
    }
    while (parentGroup(se) != parentGroup(pse)) { // is_same_group()
        se = parentEntity(se, c);
        pse = parentEntity(pse, c);
    }
}

// The rest of check_preempt_wakeup_fair() after the 6.18.33 rework (e837456fdca8 with the
// revert 15257cc2f905, ac8e69e69363, 9f6d929ee2c6), for a normal wakee of a normal curr, curr
// updated: a shorter-slice wakee is picked without curr's protection; otherwise fork wakeups and
// delayed wakees do not preempt, and under NEXT_BUDDY (off) the wakee becomes the buddy unless
// the buddy has an earlier deadline, a WF_SYNC wakeup that did so deciding at once
// (preempt_sync()). The pick is pick_next_entity(), buddy included, which dequeues a delayed
// sleeper it meets and is then repeated; a wakee that is not picked still shrinks curr's
// protection to the shortest slice (RUN_TO_PARITY). 7.3 (wakeup_preempt_fair() after Vincent
// Guittot's series): an eligible shorter-slice wakee preempts though not picked and becomes the
// buddy (set_short_buddy()), every preemption cancels curr's protection, and a fork wakee, too,
// shrinks it.
void Engine::checkPreemptWakeupReworked(CpuId c, CfsRq& cfs, EntityId seId, EntityId pseId, int wakeFlags) {
    SchedEntity& se = entity(seId);
    const SchedEntity& pse = entity(pseId);
    const bool shortSlice = cfg_.feature(Feature::PreemptShort) && pse.slice < se.slice;
    const bool v73 = cfg_.has(Rule::ShortEligiblePreempts);
    // What a wakee that does not preempt leaves: before 7.3 only the one the pick passed over and
    // shrank curr's protection (RUN_TO_PARITY); since, every one (protect-update-always).
    const auto noPreempt = [&](bool always) {
        if (cfg_.feature(Feature::RunToParity) && (always || cfg_.has(Rule::ProtectUpdateAlways)))
            updateProtectSlice(cfs, se);
    };
    if (!shortSlice) {
        if ((wakeFlags & WF_FORK) || pse.schedDelayed) return noPreempt(false);
        if (cfg_.feature(Feature::NextBuddy) && setPreemptBuddy(c, cfs, pseId) && (wakeFlags & WF_SYNC)) {
            if (preemptSync(wakeFlags, pseId, seId)) {
                if (v73) cancelProtectSlice(se);
                wakeupCause_.rule = WakeupCause::Rule::SyncBuddy;
                reschedCurr(c, ReschedBit::Lazy, ReschedReason::WakeupPreempt);
            }
            return; // PREEMPT_WAKEUP_NONE: the buddy is picked at the waker's next schedule
        }
    }
    WakeupCause::Rule why = WakeupCause::Rule::None;
    for (;;) {
        const EntityId nse = pickEevdf(cfs, !shortSlice);
        if (nse == pseId) {
            const bool byShort = // the protection would have held (see checkPreemptWakeupFair())
                shortSlice && currProtected(cfs) && pickEevdf(cfs, true) != pseId;
            why = byShort ? WakeupCause::Rule::ShortSlice : WakeupCause::Rule::Pick;
            break;
        }
        if (nse < 0 || nse == seId || !entity(nse).schedDelayed) break;
        dequeueEntities(c, nse, true, true); // pick_next_entity(): the delayed sleeper leaves
        if (cfs.nrQueued == 0) break;
    }
    // 7.3 (ba0d3bf5f97b): an eligible shorter-slice wakee preempts though the pick is another.
    if (why == WakeupCause::Rule::None && v73 && shortSlice && cfs.entityEligible(ev(), pseId))
        why = WakeupCause::Rule::ShortEligible;
    if (why == WakeupCause::Rule::None) return noPreempt(true);
    if (shortSlice || v73) cancelProtectSlice(se); // 7.3: every preemption cancels it
    if (shortSlice) {
        if (cfg_.has(Rule::ShortBuddy))
            setShortBuddy(c, cfs, pseId); // 8f97b627ff1c: it runs at the coming pick
        else if (cfg_.has(Rule::ShortClearsBuddy))
            clearBuddies(c, cfs, seId); // 78cde54ea5f0
    }
    wakeupCause_.rule = why;
    reschedCurr(c, ReschedBit::Lazy, ReschedReason::WakeupPreempt);
}

// yield_task_fair(): before 79104becf42b (6.18.2) the yielder's deadline moved on by a request;
// since, an eligible yielder forfeits the rest of its request (update_deadline() from the
// deadline, 1319ea57529e). Only the task's own entity, in its own runqueue.
void Engine::yieldFair(CpuId c, TaskId t) {
    CpuRq& rq = rqs_[size_t(c)];
    if (rq.nrRunning == 1) return;
    CfsRq& cfs = cfsRqOf(t, c);
    clearBuddies(c, cfs, t);
    updateCurr(c, cfs, false);
    SchedEntity& se = ents_[size_t(t)];
    if (!cfg_.has(Rule::YieldForfeit)) {
        se.deadline += calcDeltaFair(se.slice, se.load);
    } else if (cfs.entityEligible(ev(), t)) {
        se.vruntime = se.deadline;
        updateDeadline(se);
    }
}

} // namespace sched
