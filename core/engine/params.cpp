// SPDX-License-Identifier: GPL-3.0-or-later
// Live parameter changes (debugfs knobs, sched_setattr, nice) and the inspector's explanation.
#include "engine/engine.h"
#include "base/duration.h"

#include <algorithm>

namespace sched {

std::string Engine::apply(const ParamChange& ch) {
    for (CpuId c = 0; c < CpuId(rqs_.size()); ++c) cutBatch(c); // a change may alter any plan
    switch (ch.kind) {
    case ParamChange::Kind::PreemptModel: {
        SchedConfig next = cfg_;
        next.preempt = ch.model;
        if (std::string err = next.validate(); !err.empty()) return err;
        cfg_.preempt = ch.model; // __sched_dynamic_update(): takes effect at once on all CPUs
        break;
    }
    case ParamChange::Kind::BaseSlice:
        if (ch.value < 100 * kNsPerUs || ch.value > 100 * kNsPerMs) return "base_slice must be 0.1ms..100ms";
        cfg_.baseSliceOverride = ch.value; // picked up at the next placement / deadline renewal
        break;
    case ParamChange::Kind::Feature: cfg_.features.set(ch.feature, ch.on); break;
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
        if (!matched) return "no live task matches '" + (ch.task >= 0 ? std::to_string(ch.task) : ch.comm) + "'";
        break;
    }
    }
    trace_.markers.push_back(Marker{now_, ch.label()});
    for (CpuId c = 0; c < CpuId(rqs_.size()); ++c) reprogram(c);
    return {};
}

// The sched_change pattern of __sched_setscheduler() / set_user_nice(): dequeue (SAVE, keeps
// lag and relative deadline), put_prev if running, change, enqueue (RESTORE), set_next (which
// re-arms slice protection), then prio_changed().
void Engine::applyTaskChange(const ParamChange& ch, TaskId id) {
    Task& t = tasks_[size_t(id)];
    SchedEntity& se = ents_[size_t(id)];
    const auto setAttr = [&]() {
        switch (ch.kind) {
        case ParamChange::Kind::TaskSlice:
            se.customSlice = ch.value > 0;
            se.slice = se.customSlice ? std::clamp<Time>(ch.value, 100 * kNsPerUs, 100 * kNsPerMs) : cfg_.baseSlice();
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
            se.vlag = se.vlag * int64_t(se.load.weight) / int64_t(nw.weight);
            if (se.relDeadline) se.deadline = se.deadline * int64_t(se.load.weight) / int64_t(nw.weight);
            se.load = nw;
            break;
        }
        default: break;
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
    // A delayed sleeper's dequeue is completed first (as a class or attribute change forces).
    if (!isRtPolicy(t.policy) && se.onRq && se.schedDelayed) dequeueEntity(c, id, true, true);
    const bool running = rq.curr == id;
    const bool queued = t.state == TaskState::Runnable || running;
    const bool wasRt = isRtPolicy(t.policy);
    const int oldPrio = t.kernelPrio();
    const int64_t oldLoad = taskLoad(id);
    if (queued) {
        if (wasRt) rq.rt.dequeue(id);
        else dequeueEntity(c, id, false, false);
    }
    if (running && !wasRt) putPrevEntity(c, id);
    setAttr();
    const bool nowRt = isRtPolicy(t.policy);
    if (queued) {
        rq.runnableLoad += taskLoad(id) - oldLoad;
        if (nowRt) {
            if (!running) rq.rt.enqueue(id, t.kernelPrio(), false);
        } else {
            enqueueEntity(c, id, false, false);
        }
    }
    if (running && !nowRt) setNextEntity(c, id);
    if (!queued) return;
    if (running) {
        // prio_changed_fair() / switched_to_*: a running task that got worse must reschedule.
        if (t.kernelPrio() > oldPrio || (wasRt && !nowRt)) reschedCurr(c, ReschedBit::Eager, ReschedReason::Attribute);
    } else if (t.kernelPrio() != oldPrio || wasRt != nowRt) {
        wakeupPreempt(c, id, false);
    }
}

// Where the reschedule that a set need-resched bit asks for will happen (reference §6.2, §6.4).
std::string Engine::describePendingSwitch(CpuId c) const {
    const CpuRq& rq = rqs_[size_t(c)];
    const bool nr = rq.flag[size_t(ReschedBit::Eager)], lz = rq.flag[size_t(ReschedBit::Lazy)];
    if (!nr && !lz) return {};
    const ReschedBit bit = nr ? ReschedBit::Eager : ReschedBit::Lazy;
    std::string s = std::string(" ") + (nr ? "TIF_NEED_RESCHED" : "TIF_NEED_RESCHED_LAZY") + " is set (" +
                    std::string(reschedReasonName(rq.flagReason[size_t(bit)])) + ", " +
                    formatMs3(now_ - rq.flagSetAt[size_t(bit)]) + " ms ago); under preempt=" +
                    std::string(preemptModelName(cfg_.preempt)) + " the switch happens ";
    const Task& t = tasks_[size_t(rq.curr)];
    const ExecMode mode = effectiveMode(t);
    if (mode == ExecMode::User) return s + "at the next interrupt return to user mode or system call.";
    if (!nr) return s + "when it returns to user mode or blocks" +
                    (cfg_.preempt == PreemptModel::Lazy ? ", or after the next tick promotes the bit." : ".");
    if (mode == ExecMode::KernelNoPreempt)
        return s + (irqPreemptible() ? "at the preempt_enable() that ends its non-preemptible section." : "when it returns to user mode or blocks.");
    if (irqPreemptible()) return s + "at the next interrupt return (tick, IPI) into this kernel code.";
    const Program& prog = programs_[size_t(t.program)];
    const Op* op = t.ip < prog.ops.size() ? &prog.ops[t.ip] : nullptr;
    if (op && condReschedActive() && op->condReschedEvery > 0) return s + "at its next cond_resched().";
    if (op && mightReschedActive() && op->mightReschedEvery > 0) return s + "at its next might_resched().";
    return s + "only when it returns to user mode or blocks: this kernel code has no cond_resched() point.";
}

std::string Engine::describePick(CpuId c) const {
    const CpuRq& rq = rqs_[size_t(c)];
    if (rq.curr < 0) return "CPU " + std::to_string(c) + " is idle: no runnable task.";
    const Task& t = tasks_[size_t(rq.curr)];
    std::string s = t.comm + ":" + std::to_string(t.pid) + " runs on CPU " + std::to_string(c) + " (" +
                    std::string(policyName(t.policy)) + ").";
    if (isRtPolicy(t.policy)) return s + " Real-time tasks run before every fair task.";
    const SchedEntity& se = ents_[size_t(rq.curr)];
    const int64_t V = rq.cfs.avgVruntimeValue(ents_);
    auto ms = [](int64_t v) { return formatMs3(v) + " ms"; };
    s += " Its vruntime is " + ms(se.vruntime - V) + " from V, its deadline " + ms(se.deadline - V) + " from V.";
    s += rq.cfs.entityEligible(ents_, rq.curr) ? " It is eligible (vruntime <= V)."
                                              : " It is no longer eligible (vruntime > V): the next pick chooses another task.";
    if (currProtected(c)) s += " Its slice is protected (RUN_TO_PARITY) for " + ms(se.vprot - se.vruntime) + " more of vruntime.";
    const int32_t left = rq.cfs.timeline.leftmost(ents_);
    if (left >= 0)
        s += " Earliest queued deadline: " + tasks_[size_t(left)].comm + ":" + std::to_string(tasks_[size_t(left)].pid) + " at " +
             ms(ents_[size_t(left)].deadline - V) + (rq.cfs.entityEligible(ents_, left) ? " (eligible)." : " (not eligible).");
    s += describePendingSwitch(c);
    return s;
}

} // namespace sched
