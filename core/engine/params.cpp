// SPDX-License-Identifier: GPL-3.0-or-later
// Live parameter changes: the debugfs knobs (preempt, base_slice_ns, features), HZ as a boot
// choice, and a task's sched_setattr() / nice through the kernel's sched_change pattern.
#include "base/duration.h"
#include "engine/custom_slice.h"
#include "engine/engine.h"

#include <algorithm>

namespace sched {

std::string Engine::apply(const ParamChange& ch) {
    for (CpuId c = 0; c < CpuId(rqs_.size()); ++c)
        cutBatch(c); // a change may alter any plan
    switch (ch.kind) {
    case ParamChange::Kind::PreemptModel: {
        SchedConfig next = cfg_;
        next.preempt = ch.model;
        if (std::string err = next.validate(); !err.empty()) return err;
        cfg_.preempt = ch.model; // __sched_dynamic_update(): takes effect at once on all CPUs
        break;
    }
    case ParamChange::Kind::BaseSlice:
        if (ch.value < kCustomSliceMin || ch.value > kCustomSliceMax)
            return "base_slice must be 0.1ms..100ms";
        cfg_.baseSliceOverride = ch.value; // picked up at the next placement / deadline renewal
        break;
    case ParamChange::Kind::Feature:
        cfg_.features.set(ch.feature, ch.on);
        break;
    case ParamChange::Kind::Hz: {
        SchedConfig next = cfg_;
        next.hz = ch.hz;
        if (std::string err = next.validate(); !err.empty()) return err;
        cfg_.hz = ch.hz;
        for (CpuId c = 0; c < CpuId(rqs_.size()); ++c)
            if (rqs_[size_t(c)].tickOn) startTick(c); // re-arm on the new jiffy grid
        break;
    }
    case ParamChange::Kind::TaskSlice:
    case ParamChange::Kind::TaskNice:
    case ParamChange::Kind::TaskPolicy: {
        int matched = 0;
        for (TaskId t = 0; t < TaskId(tasks_.size()); ++t) {
            if (ch.task >= 0 ? t != ch.task : tasks_[size_t(t)].comm != ch.comm) continue;
            if (tasks_[size_t(t)].state == TaskState::Dead) continue;
            applyTaskChange(ch, t);
            ++matched;
        }
        if (!matched)
            return "no live task matches '" + (ch.task >= 0 ? std::to_string(ch.task) : ch.comm) + "'";
        break;
    }
    }
    // The timeline's marker names a task by its comm and pid, as the lanes do ("hog:1000 nice=5"),
    // not by the engine's index.
    ParamChange named = ch;
    if (ch.task >= 0 && size_t(ch.task) < tasks_.size()) {
        named.comm = tasks_[size_t(ch.task)].comm + ":" + std::to_string(tasks_[size_t(ch.task)].pid);
        named.task = -1;
    }
    trace_.markers.push_back(Marker{now_, named.label()});
    for (CpuId c = 0; c < CpuId(rqs_.size()); ++c)
        reprogram(c);
    return {};
}

// The sched_change pattern of __sched_setscheduler() / set_user_nice(): dequeue (SAVE, keeps
// lag and relative deadline), put_prev if running, change, enqueue (RESTORE), set_next (which
// re-arms slice protection before 6.18.17, ends it after: setNextEntity()), then prio_changed().
void Engine::applyTaskChange(const ParamChange& ch, TaskId id) {
    Task& t = tasks_[size_t(id)];
    SchedEntity& se = ents_[size_t(id)];
    const auto setAttr = [&]() {
        switch (ch.kind) {
        case ParamChange::Kind::TaskSlice:
            se.customSlice = ch.value > 0;
            se.slice = se.customSlice ? std::clamp<Time>(ch.value, kCustomSliceMin, kCustomSliceMax)
                                      : cfg_.baseSlice();
            break;
        case ParamChange::Kind::TaskNice:
        case ParamChange::Kind::TaskPolicy: {
            if (ch.kind == ParamChange::Kind::TaskNice) {
                t.nice = std::clamp(ch.nice, -20, 19);
            } else {
                t.policy = ch.policy;
                t.nice = std::clamp(ch.nice, -20, 19);
                t.rtPriority = isRtPolicy(ch.policy) ? std::clamp(ch.rtPriority, 1, 99) : 0;
            }
            // reweight_entity(): vlag and a relative deadline are virtual, so they scale.
            const LoadWeight nw = loadWeightFor(t.policy, t.nice);
            const int64_t oldWeight = int64_t(se.load.weight);
            se.vlag = se.vlag * int64_t(se.load.weight) / int64_t(nw.weight);
            if (se.relDeadline) se.deadline = se.deadline * int64_t(se.load.weight) / int64_t(nw.weight);
            se.load = nw;
            if (!isRtPolicy(t.policy)) reweightTaskLoadAvg(id, oldWeight);
            break;
        }
        default:
            break;
        }
        trace_.tasks[size_t(id)].prio = t.kernelPrio();
    };
    if (t.state == TaskState::NotStarted || t.state == TaskState::Dead) {
        setAttr();
        return;
    }
    const CpuId c = t.cpu;
    CpuRq& rq = rqs_[size_t(c)];
    syncProgress(c);
    updateRqClock(c); // task_rq_lock(), update_rq_clock()
    // A delayed sleeper's dequeue is completed first (as a class or attribute change forces).
    if (!isRtPolicy(t.policy) && se.onRq && se.schedDelayed) dequeueEntities(c, id, true, true);
    // task_current_donor() (af0c8b2bf67b): under proxy execution the class's current task is the
    // donor, and a mutex owner that runs for it is one more queued task.
    const bool running = rq.donor() == id;
    const bool queued = t.state == TaskState::Runnable || t.state == TaskState::Running;
    const bool wasRt = isRtPolicy(t.policy);
    const int oldPrio = t.kernelPrio();
    if (queued) {
        if (wasRt)
            rq.rt.dequeue(id);
        else
            dequeueTaskFair(c, id, false);
    }
    if (running && !wasRt) putPrevTaskFair(c, id);
    if (running && wasRt) updateCurrRt(c); // RT time up to the change
    setAttr();
    const bool nowRt = isRtPolicy(t.policy);
    if (nowRt && !wasRt) detachEntityLoadAvg(id, false); // switched_from_fair(): detach_task_cfs_rq()
    if (queued) {
        if (nowRt) {
            if (!running) rq.rt.enqueue(id, t.kernelPrio(), false);
        } else {
            enqueueTaskFair(c, id, false);
        }
    }
    if (rq.rtDonor == id && !nowRt) rq.rtDonor = kNoTask;
    if (running && !nowRt) setNextTaskFair(c, id, false);   // set_next_task(): not a pick
    if (running && nowRt && rq.curr != id) rq.rtDonor = id; // a fair donor made RT stays the donor
    if (nowRt && queued) {
        if (running && !wasRt) rq.rtBandwidth.execStart = rqClockTask(c);
        startRtBandwidth();
    }
    if (!queued) return;
    if (running) {
        // prio_changed_fair() / switched_to_*: a running task that got worse must reschedule.
        if (t.kernelPrio() > oldPrio || (wasRt && !nowRt))
            reschedCurr(c, ReschedBit::Eager, ReschedReason::Attribute);
    } else if (nowRt && (t.kernelPrio() != oldPrio || !wasRt)) {
        // prio_changed_rt() / switched_to_rt(): resched_curr() if it now outranks the donor - not
        // wakeup_preempt(), so no clock-skip request (rq_clock.cpp).
        const TaskId d = rq.donor();
        if (d < 0)
            reschedCurr(c, ReschedBit::Eager, ReschedReason::IdleWakeup);
        else if (t.kernelPrio() < tasks_[size_t(d)].kernelPrio())
            reschedCurr(c, ReschedBit::Eager, ReschedReason::ClassPreempt);
    } else if (t.kernelPrio() != oldPrio || wasRt != nowRt) {
        wakeupPreempt(c, id, 0); // prio_changed_fair() / switched_to_fair()
    }
}

} // namespace sched
