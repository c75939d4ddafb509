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
void Engine::updateCurr(CpuId c, bool fromTick) {
    CpuRq& rq = rqs_[size_t(c)];
    const TaskId t = rq.cfs.curr;
    if (t < 0) return;
    SchedEntity& se = ents_[size_t(t)];
    const Time delta = now_ - se.execStart;
    if (delta <= 0) return;
    se.execStart = now_;
    se.sumExecRuntime += delta;
    se.vruntime += calcDeltaFair(delta, se.load);
    const bool renewed = updateDeadline(se);
    rq.cfs.updateMinVruntime(ents_);
    if (fromTick || renewed) recordSample(t);
    if (rq.fairServer.active) dlServerUpdate(c, delta); // whether or not t runs on its behalf

    if (rq.cfs.nrQueued == 1) return; // a lone task is never rescheduled by the fair class
    if (cfg_.has(Rule::ProtectSliceVprot)) {
        if (renewed || se.vprot - se.vruntime <= 0)
            reschedCurr(c, ReschedBit::Lazy,
                        renewed ? ReschedReason::SliceExpired : ReschedReason::ProtectionEnded);
    } else {
        // 6.12 did_preempt_short(): protection cancelled (or stale) and curr no longer eligible.
        const bool didPreemptShort = cfg_.features[Feature::PreemptShort] && se.vlag != se.deadline &&
                                     !rq.cfs.entityEligible(ents_, t);
        if (renewed || didPreemptShort)
            reschedCurr(c, ReschedBit::Eager,
                        renewed ? ReschedReason::SliceExpired : ReschedReason::ProtectionEnded);
    }
}

// place_entity(): put a (re)joining entity at V minus its inflated lag, with a fresh or restored
// relative deadline.
void Engine::placeEntity(CpuId c, TaskId t, bool initial) {
    CfsRq& cfs = rqs_[size_t(c)].cfs;
    SchedEntity& se = ents_[size_t(t)];
    const int64_t V = cfs.avgVruntimeValue(ents_);
    if (!se.customSlice) se.slice = cfg_.baseSlice();
    int64_t vslice = calcDeltaFair(se.slice, se.load);
    int64_t lag = 0;
    const bool haveLag = !cfg_.has(Rule::PlaceLagNonZero) || se.vlag != 0;
    if (cfg_.features[Feature::PlaceLag] && cfs.nrQueued > 0 && haveLag) {
        // Inflate the lag so that it is still vlag after V moves toward the newcomer:
        // lag = vlag * (W + w) / W, with W including curr.
        int64_t load = cfs.avgLoad;
        if (cfs.curr >= 0 && ents_[size_t(cfs.curr)].onRq) load += ents_[size_t(cfs.curr)].load.weight;
        int128 l = int128(se.vlag) * (load + se.load.weight);
        if (!load) load = 1;
        lag = int64_t(l / load); // div_s64 truncates toward zero
    }
    se.vruntime = V - lag;
    const bool relOk = cfg_.has(Rule::RelDeadlineAlways) || cfg_.features[Feature::PlaceRelDeadline];
    if (se.relDeadline && relOk) {
        se.deadline += se.vruntime;
        se.relDeadline = false;
        return;
    }
    se.relDeadline = false;
    // PLACE_DEADLINE_INITIAL: a new task starts with half a request so it gets in sooner.
    if (cfg_.features[Feature::PlaceDeadlineInitial] && initial) vslice /= 2;
    se.deadline = se.vruntime + vslice;
}

void Engine::enqueueEntity(CpuId c, TaskId t, bool /*wakeup*/, bool initial) {
    CfsRq& cfs = rqs_[size_t(c)].cfs;
    SchedEntity& se = ents_[size_t(t)];
    const bool isCurr = cfs.curr == t;
    updateCfsUtil(c); // update_load_avg()
    if (isCurr) placeEntity(c, t, initial);
    updateCurr(c, false);
    if (!isCurr) placeEntity(c, t, initial);
    cfs.loadWeight += se.load.weight;
    cfs.nrQueued++;
    if (!isCurr) cfs.enqueueTree(ents_, t);
    rqs_[size_t(c)].cfsTasks.add(ents_, t); // account_entity_enqueue()
    se.onRq = true;
    if (cfs.nrQueued == 1) { // enqueue_task_fair(): the fair class's first task on this CPU
        if (rqs_[size_t(c)].nrRunning == 0) dlServerUpdateIdle(c);
        dlServerStart(c);
    }
    recordSample(t);
    // V jumps for everyone when an entity joins; the running one is sampled too (O(1)), so that
    // its lag line shows the jump (waiting entities' lines interpolate V between their samples).
    if (cfs.curr >= 0 && cfs.curr != t) recordSample(cfs.curr);
}

// dequeue_entity(). Returns false when DELAY_DEQUEUE keeps a non-eligible sleeper queued.
bool Engine::dequeueEntity(CpuId c, TaskId t, bool sleep, bool delayedFinish, bool mayDelay) {
    CfsRq& cfs = rqs_[size_t(c)].cfs;
    SchedEntity& se = ents_[size_t(t)];
    updateCurr(c, false);
    updateCfsUtil(c); // update_load_avg()
    if (!delayedFinish && sleep && mayDelay && cfg_.features[Feature::DelayDequeue] &&
        !cfs.entityEligible(ents_, t)) {
        // Negative lag may not be shed by sleeping: stay queued until picked or woken.
        se.schedDelayed = true;
        cfs.nrDelayed++;
        return false;
    }
    updateEntityLag(c, t);
    // Leave the tree before the key (deadline) is made relative: the tree finds nodes by key.
    if (t != cfs.curr) cfs.dequeueTree(ents_, t);
    if (cfg_.features[Feature::PlaceRelDeadline] && !sleep) {
        se.deadline -= se.vruntime;
        se.relDeadline = true;
    }
    se.onRq = false;
    rqs_[size_t(c)].cfsTasks.del(ents_, t); // account_entity_dequeue()
    cfs.loadWeight -= se.load.weight;
    cfs.nrQueued--;
    // 6.12-6.16: dequeue_entities() stops the fair_server when the fair class's last task leaves
    // (cccb45d7c429, v6.17, made the stop lazy: only when picked with nothing to run).
    if (cfs.nrQueued == 0 && !cfg_.has(Rule::LazyFairServerStop) && rqs_[size_t(c)].fairServer.active)
        dlServerStop(c);
    cfs.updateMinVruntime(ents_);
    if (delayedFinish) {
        se.schedDelayed = false;
        cfs.nrDelayed--;
        if (cfg_.features[Feature::DelayZero] && se.vlag > 0) se.vlag = 0;
    }
    recordSample(t);
    if (cfs.curr >= 0 && cfs.curr != t) recordSample(cfs.curr); // V jumped: see enqueueEntity()
    return true;
}

// update_load_avg() on the root cfs_rq, util only (pelt.h): brings the CPU's utilisation up to
// now with the state it had since the last update (queued load, a fair task running). Called
// before each change of that state, as the kernel's enqueue/dequeue/set_next/put_prev do.
void Engine::updateCfsUtil(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    rq.cfsUtil.update(now_, rq.cfs.nrQueued > 0, rq.cfs.curr >= 0);
}

// update_entity_lag(): vlag = clamp(V - v, +-limit), the limit calc_delta_fair() of
// max(2 slice, TICK_NSEC) before 6e3c0a4e1ad1 "Fix lag clamp" (6.18.17) and of the largest slice
// queued plus TICK_NSEC after it (cfs_rq_max_slice(), with the entity itself still queued).
void Engine::updateEntityLag(CpuId c, TaskId t) {
    const CfsRq& cfs = rqs_[size_t(c)].cfs;
    SchedEntity& se = ents_[size_t(t)];
    const int64_t lag = cfs.avgVruntimeValue(ents_) - se.vruntime;
    const int64_t span = cfg_.has(Rule::LagClampMaxSlice) ? cfs.maxSlice(ents_) + cfg_.tickNsec()
                                                          : std::max<int64_t>(2 * se.slice, cfg_.tickNsec());
    const int64_t limit = calcDeltaFair(span, se.load);
    se.vlag = std::clamp(lag, -limit, limit);
}

// set_next_entity(): take the entity out of the tree and arm its slice protection. first is false
// for the sched_change pattern's set_next_task() (a renice, slice or policy change of the running
// task): since bcd74b2ffdd0 (6.18.17) that no longer re-arms the protection, and as the change's
// dequeue stored the lag in the field vprot shares with vlag (a union in 6.17+), the
// protection is over.
void Engine::setNextEntity(CpuId c, TaskId t, bool first) {
    CfsRq& cfs = rqs_[size_t(c)].cfs;
    SchedEntity& se = ents_[size_t(t)];
    updateCfsUtil(c); // update_load_avg(): the time before this pick
    if (se.onRq) {
        cfs.dequeueTree(ents_, t);
        rqs_[size_t(c)].cfsTasks.moveToHead(ents_, t); // __set_next_task_fair(): MRU order
        if (!cfg_.has(Rule::ProtectSliceVprot)) {
            se.vlag = se.deadline; // 6.12: the "HACK" stash that marks the protected slice
        } else if (!first && cfg_.has(Rule::ProtectAtPickOnly)) {
            se.vprot = se.vruntime;
        } else {
            // set_protect_slice(): protect until the deadline, or for the shortest slice queued
            // (RUN_TO_PARITY) / the minimum quantum (NO_RUN_TO_PARITY) if that is shorter.
            int64_t s = cfg_.features[Feature::RunToParity] ? cfs.minSlice(ents_) : cfg_.normalizedSlice();
            s = std::min<int64_t>(s, se.slice);
            int64_t vprot = se.deadline;
            if (s != se.slice) vprot = std::min(vprot, se.vruntime + calcDeltaFair(s, se.load));
            se.vprot = vprot;
        }
    }
    cfs.curr = t;
    se.prevSumExecRuntime = se.sumExecRuntime;
    se.execStart = now_;
    recordSample(t); // where the chart's lines start rising: v, deadline and V at the pick
}

// put_prev_entity(): a still-queued entity goes back into the tree.
void Engine::putPrevEntity(CpuId c, TaskId t) {
    CfsRq& cfs = rqs_[size_t(c)].cfs;
    SchedEntity& se = ents_[size_t(t)];
    if (se.onRq) updateCurr(c, false);
    updateCfsUtil(c); // update_load_avg(): the time it ran
    if (se.onRq) cfs.enqueueTree(ents_, t);
    cfs.curr = kNoTask;
}

bool Engine::currProtected(CpuId c) const {
    const CfsRq& cfs = rqs_[size_t(c)].cfs;
    if (cfs.curr < 0) return false;
    const SchedEntity& se = ents_[size_t(cfs.curr)];
    if (cfg_.has(Rule::ProtectSliceVprot)) return se.vprot - se.vruntime > 0; // protect_slice()
    return cfg_.features[Feature::RunToParity] && se.vlag == se.deadline;
}

void Engine::cancelProtectSlice(SchedEntity& se) {
    if (cfg_.has(Rule::ProtectSliceVprot)) {
        if (se.vprot - se.vruntime > 0) se.vprot = se.vruntime;
    } else if (se.vlag == se.deadline) {
        se.vlag = se.deadline + 1;
    }
}

// update_protect_slice(): a shorter-slice wakee shrinks curr's window to the shortest slice.
void Engine::updateProtectSlice(CpuId c, SchedEntity& se) {
    const int64_t s = rqs_[size_t(c)].cfs.minSlice(ents_);
    se.vprot = std::min(se.vprot, se.vruntime + calcDeltaFair(s, se.load));
}

// pick_task_fair() / pick_next_entity(): pick_eevdf with protection; a delayed sleeper that
// wins is dequeued for real (no switch happens for it) and the pick is repeated.
TaskId Engine::pickNextEntity(CpuId c) {
    CfsRq& cfs = rqs_[size_t(c)].cfs;
    for (;;) {
        if (cfs.nrQueued == 0) return kNoTask;
        if (cfs.curr >= 0 && ents_[size_t(cfs.curr)].onRq) updateCurr(c, false);
        TaskId se = cfs.pickEevdf(ents_, true, currProtected(c));
        if (se < 0) se = cfs.timeline.leftmost(ents_); // cannot happen with exact sums; be safe
        if (se < 0) return kNoTask;
        if (ents_[size_t(se)].schedDelayed) {
            dequeueEntity(c, se, true, true);
            continue;
        }
        return se;
    }
}

// requeue_delayed_entity(): a delayed sleeper woken before it was picked stays where it is,
// unless it has become eligible, in which case it restarts at V with zero lag.
void Engine::requeueDelayed(CpuId c, TaskId t) {
    CfsRq& cfs = rqs_[size_t(c)].cfs;
    SchedEntity& se = ents_[size_t(t)];
    if (cfg_.features[Feature::DelayZero]) {
        updateEntityLag(c, t);
        if (se.vlag > 0) {
            cfs.nrQueued--;
            if (t != cfs.curr) cfs.dequeueTree(ents_, t);
            se.vlag = 0;
            placeEntity(c, t, false);
            if (t != cfs.curr) cfs.enqueueTree(ents_, t);
            cfs.nrQueued++;
        }
    }
    se.schedDelayed = false;
    cfs.nrDelayed--;
    recordSample(t);
}

// check_preempt_wakeup_fair(). WF_FORK does not change the 6.12-6.18.0 rule; the 6.18.33 rework
// (checkPreemptWakeupReworked()) stops fork wakeups from preempting.
void Engine::checkPreemptWakeupFair(CpuId c, TaskId p, bool fork) {
    CpuRq& rq = rqs_[size_t(c)];
    const TaskId curr = rq.curr;
    if (curr < 0 || curr == p || rq.cfs.curr != curr) return;
    if (rq.flag[size_t(ReschedBit::Eager)]) return; // test_tsk_need_resched(): already going
    if (!cfg_.features[Feature::WakeupPreemption]) return;
    SchedEntity& se = ents_[size_t(curr)];
    const SchedEntity& pse = ents_[size_t(p)];
    const bool v618 = cfg_.has(Rule::ProtectSliceVprot);
    const ReschedBit bit = v618 ? ReschedBit::Lazy : ReschedBit::Eager;

    const bool currIdle = tasks_[size_t(curr)].policy == Policy::Idle;
    const bool wakeeIdle = tasks_[size_t(p)].policy == Policy::Idle;
    if (currIdle && !wakeeIdle) { // a SCHED_IDLE curr yields to anything else
        if (v618) cancelProtectSlice(se);
        reschedCurr(c, bit, ReschedReason::WakeupPreempt);
        return;
    }
    if (currIdle != wakeeIdle) return;
    if (tasks_[size_t(p)].policy != Policy::Normal) return; // SCHED_BATCH never wakeup-preempts
    updateCurr(c, false);

    if (v618 && cfg_.has(Rule::WakeupPreemptRework)) {
        checkPreemptWakeupReworked(c, p, fork);
        return;
    }
    if (v618) {
        const bool shortSlice = cfg_.features[Feature::PreemptShort] && pse.slice < se.slice;
        if (rq.cfs.pickEevdf(ents_, !shortSlice, currProtected(c)) == p) {
            if (shortSlice) cancelProtectSlice(se);
            reschedCurr(c, bit, ReschedReason::WakeupPreempt);
            return;
        }
        if (cfg_.features[Feature::RunToParity] && shortSlice) updateProtectSlice(c, se);
        return;
    }
    // 6.12 do_preempt_short(): a shorter, eligible wakee that is earlier (or curr is no longer
    // eligible) cancels curr's protection even if it is not picked now.
    if (cfg_.features[Feature::PreemptShort] && pse.slice < se.slice && rq.cfs.entityEligible(ents_, p) &&
        (pse.deadline < se.deadline || !rq.cfs.entityEligible(ents_, curr)))
        cancelProtectSlice(se);
    if (rq.cfs.pickEevdf(ents_, true, currProtected(c)) == p)
        reschedCurr(c, bit, ReschedReason::WakeupPreempt);
}

// The rest of check_preempt_wakeup_fair() after the 6.18.33 rework (e837456fdca8 with the
// revert 15257cc2f905, ac8e69e69363, 9f6d929ee2c6), for a normal wakee of a normal curr, curr
// updated: a shorter-slice wakee is picked without curr's protection; otherwise fork wakeups and
// delayed wakees do not preempt (NEXT_BUDDY, off in 6.18.y, is not modelled). The pick is
// pick_next_entity(), which dequeues a delayed sleeper it meets and is then repeated; a wakee
// that is not picked still shrinks curr's protection to the shortest slice (RUN_TO_PARITY).
void Engine::checkPreemptWakeupReworked(CpuId c, TaskId p, bool fork) {
    CfsRq& cfs = rqs_[size_t(c)].cfs;
    const TaskId curr = rqs_[size_t(c)].curr;
    SchedEntity& se = ents_[size_t(curr)];
    const SchedEntity& pse = ents_[size_t(p)];
    const bool shortSlice = cfg_.features[Feature::PreemptShort] && pse.slice < se.slice;
    if (!shortSlice && (fork || pse.schedDelayed)) return;
    for (;;) {
        const TaskId nse = cfs.pickEevdf(ents_, !shortSlice, currProtected(c));
        if (nse == p) {
            if (shortSlice) cancelProtectSlice(se);
            reschedCurr(c, ReschedBit::Lazy, ReschedReason::WakeupPreempt);
            return;
        }
        if (nse < 0 || nse == curr || !ents_[size_t(nse)].schedDelayed) break;
        dequeueEntity(c, nse, true, true); // pick_next_entity(): the delayed sleeper leaves
        if (cfs.nrQueued == 0) break;
    }
    if (cfg_.features[Feature::RunToParity]) updateProtectSlice(c, se);
}

// yield_task_fair(): before 79104becf42b (6.18.2) the yielder's deadline moved on by a request;
// since, an eligible yielder forfeits the rest of its request (update_deadline() from the
// deadline, 1319ea57529e).
void Engine::yieldFair(CpuId c, TaskId t) {
    CpuRq& rq = rqs_[size_t(c)];
    if (rq.nrRunning == 1) return;
    updateCurr(c, false);
    SchedEntity& se = ents_[size_t(t)];
    if (!cfg_.has(Rule::YieldForfeit)) {
        se.deadline += calcDeltaFair(se.slice, se.load);
    } else if (rq.cfs.entityEligible(ents_, t)) {
        se.vruntime = se.deadline;
        updateDeadline(se);
    }
}

} // namespace sched
