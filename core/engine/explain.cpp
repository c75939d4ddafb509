// SPDX-License-Identifier: GPL-3.0-or-later
// The inspector's prose: why the running task holds its CPU, and where a pending need-resched
// bit will act, read off the engine's state with the rules the decisions themselves use.
#include "base/duration.h"
#include "engine/engine.h"
#include "engine/lag_table.h"

#include <algorithm>

namespace sched {

// Where the reschedule that a set need-resched bit asks for will happen (kernel/entry/common.c:
// exit_to_user_mode_loop(), raw_irqentry_exit_cond_resched(); kernel/sched/core.c:
// preempt_schedule(), __cond_resched(), sched_tick()).
std::string Engine::describePendingSwitch(CpuId c) const {
    const CpuRq& rq = rqs_[size_t(c)];
    if (!rq.flag[size_t(ReschedBit::Eager)] && !rq.flag[size_t(ReschedBit::Lazy)]) return {};
    std::string s = describePendingSwitchPoint(c);
    // rq_clock_skip_update() (rq_clock.cpp): the switch will be accounted at the wakeup's clock.
    if (rq.clockSkipReq)
        s += " A wakeup asked __schedule() to skip its clock update (rq_clock_skip_update()): the switch "
             "will be accounted at the clock of " +
             formatMs3(now_ - rq.clock) + " ms ago, so the next task pays for " + entityName(rq.curr) +
             "'s run since then.";
    return s;
}

// Which bit is set and where the model lets it act (a bit is set: describePendingSwitch()).
std::string Engine::describePendingSwitchPoint(CpuId c) const {
    const CpuRq& rq = rqs_[size_t(c)];
    const bool nr = rq.flag[size_t(ReschedBit::Eager)];
    const ReschedBit bit = nr ? ReschedBit::Eager : ReschedBit::Lazy;
    std::string s =
        std::string(" ") + (nr ? "TIF_NEED_RESCHED" : "TIF_NEED_RESCHED_LAZY") + " is set (" +
        std::string(reschedReasonName(rq.flagReason[size_t(bit)])) +
        describeWakeupCause(rq.flagCause[size_t(bit)]) + ", " + formatMs3(now_ - rq.flagSetAt[size_t(bit)]) +
        " ms ago); under preempt=" + std::string(preemptModelName(cfg_.preempt)) + " the switch happens ";
    const Task& t = tasks_[size_t(rq.curr)];
    const ExecMode mode = effectiveMode(t);
    if (mode == ExecMode::User) return s + "at the next interrupt return to user mode or system call.";
    if (!nr)
        return s + "when it returns to user mode or blocks" +
               (cfg_.preempt == PreemptModel::Lazy ? ", or after the next tick promotes the bit." : ".");
    if (mode == ExecMode::KernelNoPreempt)
        return s + (irqPreemptible() ? "at the preempt_enable() that ends its non-preemptible section."
                                     : "when it returns to user mode or blocks.");
    if (irqPreemptible()) return s + "at the next interrupt return (tick, IPI) into this kernel code.";
    const Program& prog = programs_[size_t(t.program)];
    const Op* op = t.ip < prog.ops.size() ? &prog.ops[t.ip] : nullptr;
    if (op && condReschedActive() && op->condReschedEvery > 0) return s + "at its next cond_resched().";
    if (op && mightReschedActive() && op->mightReschedEvery > 0) return s + "at its next might_resched().";
    return s + "only when it returns to user mode or blocks: this kernel code has no cond_resched() point.";
}

// check_preempt_wakeup_fair()'s verdict in words: whose wakeup, and the rule that decided.
std::string Engine::describeWakeupCause(const WakeupCause& w) const {
    if (w.rule == WakeupCause::Rule::None || w.wakeeSe < 0 || w.currSe < 0) return {};
    const std::string wakee = w.wakee >= 0 ? entityName(w.wakee) : entityName(w.wakeeSe);
    // Under task groups the two compared entities may be groups: say so.
    const std::string as = w.wakee >= 0 && w.wakeeSe != w.wakee
                               ? " (as its group " + entityName(w.wakeeSe) + ")"
                               : std::string();
    const std::string curr = entityName(w.currSe);
    switch (w.rule) {
    case WakeupCause::Rule::Pick:
        return ": " + wakee + as + " woke, and pick_eevdf() chose it over " + curr +
               " - the earliest eligible deadline (or the buddy), " + curr +
               "'s slice protection not in the way";
    case WakeupCause::Rule::ShortSlice:
        return ": " + wakee + as + " woke with a shorter slice than " + curr + "'s, PREEMPT_SHORT set " +
               curr + "'s slice protection aside, and pick_eevdf() chose it";
    case WakeupCause::Rule::ShortEligible:
        return ": " + wakee + as + " woke with a shorter slice than " + curr + "'s and is eligible: 7.3 " +
               "preempts for it even where pick_eevdf() would choose another task first, and makes it " +
               "the buddy (short-eligible-preempts, short-buddy)";
    case WakeupCause::Rule::IdleCurr:
        return ": " + wakee + as + " woke, and " + curr + " is SCHED_IDLE";
    case WakeupCause::Rule::SyncBuddy:
        return ": " + wakee + as + " woke by a WF_SYNC wakeup as the buddy (NEXT_BUDDY), " + curr +
               " about to sleep";
    case WakeupCause::Rule::None:
        break;
    }
    return {};
}

std::string Engine::describePick(CpuId c) const {
    const CpuRq& rq = rqs_[size_t(c)];
    if (rq.curr < 0) return "CPU " + std::to_string(c) + " is idle: no runnable task.";
    const Task& t = tasks_[size_t(rq.curr)];
    std::string s = t.comm + ":" + std::to_string(t.pid) + " runs on CPU " + std::to_string(c) + " (" +
                    std::string(policyName(t.policy)) + ").";
    auto ms = [](int64_t v) { return formatMs3(v) + " ms"; };
    // Under proxy execution the numbers that decide are the donor's: the owner runs on its context.
    const TaskId d = rq.donor();
    if (isRtPolicy(t.policy) && d == rq.curr)
        return s + " Real-time tasks run before every fair task." + describeStarvationGuard(c) +
               describeMutexes(c);
    if (d != rq.curr) {
        const Task& dt = tasks_[size_t(d)];
        const Mutex& m = mutexes_[size_t(dt.blockedOn >= 0 ? dt.blockedOn : 0)];
        const bool rt = isRtPolicy(dt.policy);
        s += " It runs for " + dt.comm + ":" + std::to_string(dt.pid) +
             " (proxy execution): the pick chose " + dt.comm +
             (rt ? " (" + std::string(policyName(dt.policy)) + ", RT priority " +
                       std::to_string(dt.rtPriority) + ")"
                 : std::string()) +
             ", " +
             (dt.proxyBlocked && dt.proxyWaking
                  ? "woken by the unlock of " + m.name +
                        " and still queued here as PROXY_WAKING: its next pick returns it to its CPU "
                        "(proxy_force_return()), and the owner goes on until then"
              : dt.proxyBlocked
                  ? "which is blocked on " + m.name +
                        ", held by this task, so find_proxy_task() runs the owner in its place"
                  : "woken by the unlock of " + m.name + "; the owner goes on until the next schedule()") +
             (rt ? ", in " + dt.comm +
                       "'s real-time context: fair wakeups cannot preempt it, and the tick and the RT time "
                       "are " +
                       dt.comm + "'s" + (isRtPolicy(t.policy) ? "." : " (this task's vruntime stands still).")
                 : ", on " + dt.comm + "'s slice, vruntime and deadline.");
        if (rt) return s + describeStarvationGuard(c) + describeMutexes(c);
    }
    const std::string who = d != rq.curr ? "The donor's" : "Its";
    const SchedEntity& se = ents_[size_t(d)];
    const CfsRq& cfs = taskCfsRq(d); // its own runqueue: the root's or its group's
    // The runqueue as update_curr() would leave it now (lag_table.h): the inspector's table agrees.
    const LagTable lt = lagTableOf(cfs, ev(), now_, cfg_.baseSlice());
    const int64_t V = lt.V;
    const LagRow* cr = lt.row(d);
    const int64_t vNow = cr ? cr->vruntime : se.vruntime;
    if (rq.fairServer.queued)
        s += " It runs on the fair_server's budget (" + ms(rq.fairServer.runtime) +
             " left of this period): real-time tasks had starved the fair class up to the server's "
             "zero-laxity point.";
    s += " " + who + " vruntime is " + ms(vNow - V) + " from V, its deadline " + ms(se.deadline - V) +
         " from V.";
    s += (cr ? cr->eligible : cfs.entityEligible(ev(), d))
             ? " It is eligible (vruntime <= V)."
             : " It is no longer eligible (vruntime > V): the next pick chooses another task.";
    if (rq.fairCurr == d && cfg_.has(Rule::ProtectSliceVprot) && sliceProtected(se, vNow, se.deadline))
        s += " " + who + " slice is protected (RUN_TO_PARITY) for " + ms(se.vprot - vNow) +
             " more of vruntime.";
    const int32_t left = cfs.timeline.leftmost(ev());
    if (left >= 0) {
        const LagRow* lr = lt.row(left);
        s += " Earliest queued deadline: " + entityName(left) + " at " + ms(entity(left).deadline - V) +
             ((lr ? lr->eligible : cfs.entityEligible(ev(), left)) ? " (eligible)." : " (not eligible).");
    }
    // With task groups the task competes inside its group; the groups compete as entities above.
    for (GroupId g = t.taskGroup; g != kRootGroup; g = groups_[size_t(g)].parent) {
        const SchedEntity& ge = entity(groupSe(g, c));
        s += " It runs inside " + groups_[size_t(g)].name + ", whose entity on this CPU has weight " +
             std::to_string(ge.load.weight) + " of the group's " + std::to_string(groups_[size_t(g)].shares) +
             " shares.";
    }
    s += describeBuddies(c);
    s += describeSliceExt(c);
    s += describeMutexes(c);
    s += describePendingSwitch(c);
    return s;
}

// The kernel mutexes that matter on this CPU: the running task spinning on one, and each lock
// whose owner is queued or runs here while others wait for it (mutex.cpp).
std::string Engine::describeMutexes(CpuId c) const {
    std::string s;
    const TaskId curr = rqs_[size_t(c)].curr;
    const auto name = [&](TaskId id) {
        return tasks_[size_t(id)].comm + ":" + std::to_string(tasks_[size_t(id)].pid);
    };
    for (const Mutex& m : mutexes_) {
        if (m.owner < 0) continue;
        const Task& o = tasks_[size_t(m.owner)];
        if (curr >= 0 && std::find(m.spinners.begin(), m.spinners.end(), curr) != m.spinners.end())
            s += " It spins on " + m.name + ", held by " + name(m.owner) + " running on CPU " +
                 std::to_string(o.cpu) +
                 " (mutex_optimistic_spin()): it takes the lock the moment it is released.";
        if (o.cpu != c || m.waiters.empty()) continue;
        s += " " + name(m.owner) + " holds " + m.name +
             (m.owner == curr                  ? " and runs"
              : o.state == TaskState::Runnable ? " and is queued here, not running"
                                               : " and sleeps") +
             "; waiting for it:";
        for (size_t i = 0; i < m.waiters.size(); ++i) {
            const Task& w = tasks_[size_t(m.waiters[i])];
            s += (i ? ", " : " ") + name(m.waiters[i]) +
                 (w.proxyWaking    ? " (woken, PROXY_WAKING, still queued: returned at its pick)"
                  : w.proxyBlocked ? " (blocked, TASK_UNINTERRUPTIBLE, still queued)"
                  : w.state == TaskState::Sleeping ? " (asleep, TASK_UNINTERRUPTIBLE)"
                                                   : " (woken)");
        }
        if (cfg_.proxyExecOn())
            s += ". With proxy execution a queued waiter lends its scheduling context: when the pick chooses "
                 "it, "
                 "the owner runs in its place (find_proxy_task()) on its slice - or, a real-time waiter, in "
                 "its RT context; " +
                 std::string(
                     cfg_.has(Rule::ProxyDonorMigration)
                         ? "a waiter whose owner runs on another CPU moves there (7.1), one whose owner "
                           "sleeps sleeps after all."
                         : "a waiter whose owner sleeps or runs on another CPU sleeps after all.");
        else
            s += ". A struct mutex lends the waiters nothing: the owner runs with its own " +
                 (isRtPolicy(o.policy) ? "RT priority " + std::to_string(o.rtPriority)
                                       : "weight " + std::to_string(ents_[size_t(m.owner)].load.weight)) +
                 " when the scheduler picks it (without proxy execution: machine.proxy_exec).";
    }
    return s;
}

// The buddies (cfs_rq->next) on the running task's path, from its own runqueue up to the root.
std::string Engine::describeBuddies(CpuId c) const {
    std::string s;
    const TaskId curr = rqs_[size_t(c)].donor();
    for (EntityId se = curr; se != kNoTask; se = parentEntity(se, c)) {
        const CfsRq& cfs = cfsRqOf(se, c);
        if (cfs.next < 0) continue;
        const bool eligible = cfs.entityEligible(ev(), cfs.next);
        s += " " + entityName(cfs.next) + " is the buddy of " +
             (cfs.tg < 0 ? std::string("the root runqueue") : groups_[size_t(cfs.tg)].name + "'s runqueue") +
             (entityIsTask(cfs.next)
                  ? " (a NEXT_BUDDY wakee)"
                  : " (a task in it slept while it stayed queued, or woke under NEXT_BUDDY)");
        if (cfs.next == cfs.curr)
            s += ", and runs there: it stays the buddy until it is rescheduled or dequeued (its group "
                 "was picked again, so set_next_entity() did not clear it).";
        else if (!pickBuddyOn())
            s += ", which this kernel's pick does not read (PICK_BUDDY came with 6.14; NEXT_BUDDY is off).";
        else
            s += eligible ? ": the next pick there takes it ahead of an earlier deadline."
                          : ": it is not eligible now; the first pick there once it is takes it.";
    }
    return s;
}

// The running task's RSEQ time-slice extension (rseq_slice_ext.cpp), asked for or granted.
std::string Engine::describeSliceExt(CpuId c) const {
    const Task& t = tasks_[size_t(rqs_[size_t(c)].curr)];
    const std::string us = " us";
    if (t.sliceGranted)
        return " It holds an RSEQ slice extension granted " +
               std::to_string((now_ - t.sliceGrantedAt) / kNsPerUs) + us +
               " ago: the reschedule an interrupt asked for was deferred, until it calls "
               "rseq_slice_yield() (or any other system call) or the extension's " +
               std::to_string(cfg_.sliceExtNsec / kNsPerUs) + us + " timer fires.";
    if (!t.sliceRequest) return {};
    if (!cfg_.sliceExtAvailable())
        return " It has set its rseq slice_ctrl.request, which this kernel ignores (no RSEQ slice extension "
               "before 7.0, on this architecture, or with machine.rseq_slice_ext false).";
    if (t.rseqV1 && cfg_.has(Rule::RseqV2SliceExt))
        return " It has set its rseq slice_ctrl.request, which this kernel ignores: its rseq area is the "
               "original 32 bytes, and prctl(PR_RSEQ_SLICE_EXTENSION) refused it (99428157dcf3).";
    return " It has set its rseq slice_ctrl.request: a reschedule at its next interrupt return to user mode "
           "is deferred by up to " +
           std::to_string(cfg_.sliceExtNsec / kNsPerUs) + us + ".";
}

// What will stop the running RT task from starving the fair class on this CPU.
std::string Engine::describeStarvationGuard(CpuId c) const {
    const CpuRq& rq = rqs_[size_t(c)];
    auto ms = [](int64_t v) { return formatMs3(v) + " ms"; };
    if (cfg_.rtThrottling())
        return " RT throttling: the RT class has run " + ms(rq.rtBandwidth.rtTime) + " of its " +
               ms(cfg_.rtRuntime) + " in this " + ms(cfg_.rtPeriod) + " period.";
    const DlServer& f = rq.fairServer;
    if (!cfg_.fairServer() || !f.active || rq.hNrQueued == rq.hNrDelayed) return {};
    if (f.throttled && f.deferArmed)
        return " Fair tasks wait; unless they get " + ms(f.runtime) +
               " of CPU time first, the fair_server queues at zero laxity in " +
               ms(std::max<Time>(0, f.deadline - f.runtime - now_)) + " and runs them ahead of RT.";
    if (f.throttled)
        return " The fair_server used its budget; it runs fair tasks again in " +
               ms(std::max<Time>(0, f.deadline - now_)) + ".";
    return {};
}

// pick_next_entity() / __pick_eevdf() replayed on the lag table's up-to-date runqueue (the pick
// itself calls update_curr() first, so this is the state it would see) - at the clock the next
// __schedule() will use, which a pending skip keeps at the wakeup's (rq_clock.cpp).
PickPreview Engine::previewPick(CpuId c) const {
    PickPreview p;
    const CpuRq& rq = rqs_[size_t(c)];
    const CfsRq& cfs = rq.cfs;
    p.table = lagTableOf(cfs, ev(), rq.clockSkipReq ? rq.clock : now_, cfg_.baseSlice());
    p.running = cfs.curr;
    if (p.table.rows.empty()) return p;
    const LagRow* curr = p.table.rows.front().running ? &p.table.rows.front() : nullptr;
    // update_curr() clears curr's buddy when it asks for a reschedule: its slice renewed, or (6.17+)
    // its protection over, or (6.12) did_preempt_short(); the pick then sees no buddy.
    EntityId buddy = pickBuddyOn() ? cfs.next : kNoTask;
    if (curr && buddy == curr->id && p.table.rows.size() > 1 &&
        currReschedules(entity(curr->id), curr->vruntime, curr->deadline, curr->renewed, curr->eligible))
        buddy = kNoTask;
    pickFromTable(p.table, buddy, p.pick, p.why, p.protectedFor);
    const LagRow* r = p.table.row(p.pick);
    p.pickDelayed = r && r->delayed;
    // pick_next_entity() dequeues a delayed sleeper it picks (dequeue_entities(), which clears the
    // buddies it was) and pick_task_fair() picks again (its `again:` loop): without its weight in V,
    // which can make another delayed sleeper the pick, and so on until one is not delayed.
    if (p.pickDelayed) {
        LagTable rest = p.table;
        EntityId gone = p.pick;
        for (;;) {
            rest = lagTableWithout(rest, gone);
            if (buddy == gone) buddy = kNoTask;
            int64_t unused = 0;
            pickFromTable(rest, buddy, p.secondPick, p.secondWhy, unused);
            const LagRow* next = rest.row(p.secondPick);
            if (!next || !next->delayed) break;
            ++p.moreDelayed;
            gone = p.secondPick;
        }
    }
    return p;
}

// The order of pick_next_entity() / __pick_eevdf() on a lag table's rows.
void Engine::pickFromTable(const LagTable& t, EntityId buddy, EntityId& pick, PickPreview::Why& why,
                           int64_t& protectedFor) const {
    const std::vector<LagRow>& rows = t.rows;
    pick = kNoTask;
    why = PickPreview::Why::Empty;
    if (rows.empty()) return;
    const LagRow* curr = rows.front().running ? &rows.front() : nullptr;
    if (rows.size() == 1) {
        pick = rows.front().id;
        why = PickPreview::Why::Only;
    } else if (const LagRow* b = buddy >= 0 ? t.row(buddy) : nullptr; b && b->eligible) {
        pick = b->id;
        why = PickPreview::Why::Buddy;
    } else if (curr && curr->eligible && sliceProtected(entity(curr->id), curr->vruntime, curr->deadline)) {
        pick = curr->id;
        why = PickPreview::Why::Protected;
        if (cfg_.has(Rule::ProtectSliceVprot)) protectedFor = entity(curr->id).vprot - curr->vruntime;
    } else {
        const LagRow* best = nullptr; // the tree's rows come in deadline order: the first eligible one
        for (const LagRow& r : rows)
            if (!r.running && r.eligible) {
                best = &r;
                break;
            }
        if (curr && curr->eligible && (!best || curr->deadline < best->deadline)) best = curr;
        if (best) {
            pick = best->id;
            why = PickPreview::Why::EarliestEligible;
        }
    }
}

} // namespace sched
