// SPDX-License-Identifier: GPL-3.0-or-later
// Task behaviour: the interpreter of a task's program. Each op has a CPU phase (its work, or
// the kernel cost of a syscall) and an action; syscalls end by returning to user mode, which is
// a preemption point. Channels give pipe/socket semantics, timers hrtimer semantics.
#include "engine/engine.h"
#include "engine/timer_wheel.h"

#include <algorithm>

namespace sched {

void Engine::beginOp(Task& t, const Op& op) {
    t.opStarted = true;
    t.opDone = 0;
    if (op.clock == 1) t.reqStart = now_;
    if (op.clock == 2 && t.reqStart >= 0) recordRequest(t);
    t.remaining = op.cycle >= 0 && op.kind == OpKind::Run ? cycleDraw(t, op) : cpuPhase(op, t.rng);
    if (op.kind == OpKind::Run)
        t.opMode = op.mode;
    else if (isSyscall(op))
        t.opMode = ExecMode::Kernel; // a syscall: its kernel path runs preemptible (no cond_resched() points)
}

// A cycle op's draw (Op::cycle) from the task's current class: the run's work, or the sleep's
// length, after which the task moves on to the next cycle's class. The first class is drawn by
// the classes' shares.
Time Engine::cycleDraw(Task& t, const Op& op) {
    const CycleClasses& cc = programs_[size_t(t.program)].cycles[size_t(op.cycle)];
    int8_t& k = t.cycleClass[size_t(op.cycle)];
    if (k < 0) k = int8_t(CycleClasses::draw(cc.share, t.rng));
    if (op.kind == OpKind::Run) return cc.run[size_t(k)].sample(t.rng);
    const Time len = cc.sleep[size_t(k)].sample(t.rng);
    k = int8_t(CycleClasses::draw(cc.next[size_t(k)], t.rng));
    return len;
}

void Engine::advanceOp(Task& t) {
    t.ip++;
    t.opStarted = false;
    t.opMode = ExecMode::User;
}

// Runs the task's program from where it stands until it needs CPU time, blocks, exits or is
// switched out at a preemption point. The task must be running on c with no work pending.
Engine::Step Engine::runProgram(CpuId c, TaskId id) {
    for (int guard = 0;; ++guard) {
        if (guard > 1000000) {
            error_ = "task " + tasks_[size_t(id)].comm +
                     " ran a million operations without using time; stopped it";
            exitTask(c, id);
            return Step::Exited;
        }
        Task& t = tasks_[size_t(id)];
        if (t.resume != Resume::Continue) {
            if (t.overhead > 0) return Step::Continue; // the Resume segment fires after the overhead
            // Leaving a kernel path: the preempt_enable() at its end acts on an eager bit.
            if (t.resume != Resume::Retry && rqs_[size_t(c)].flag[size_t(ReschedBit::Eager)] &&
                irqPreemptible() && preemptionPoint(c, SwitchPoint::PreemptEnable))
                return Step::Switched;
            Task& tt = tasks_[size_t(id)];
            switch (tt.resume) {
            case Resume::TimerFired:
                recordTimerLatency(tt);
                tt.resume = Resume::ExitToUserNext;
                continue;
            case Resume::ExitToUserNext:
                tt.resume = Resume::Next;
                // Holding a kernel mutex, the task has not left the kernel (mutex.cpp).
                if (tt.held.empty() && preemptionPoint(c, SwitchPoint::ExitToUser)) return Step::Switched;
                continue;
            case Resume::Next:
                tt.resume = Resume::Continue;
                advanceOp(tt);
                continue;
            case Resume::Retry:
                tt.resume = Resume::Continue; // redo the action of the current op
                break;
            case Resume::Continue:
                break;
            }
        }
        Task& cur = tasks_[size_t(id)];
        const Program& prog = programs_[size_t(cur.program)];
        if (cur.ip >= prog.ops.size()) {
            // The end of the program is exit(): a system call, which ends an RSEQ slice extension first.
            if (cur.sliceGranted && sliceExtSyscall(c, id, false)) return Step::Switched;
            exitTask(c, id);
            return Step::Exited;
        }
        // Not a copy: the program table never changes while an event is handled (a fork grows the
        // task table only), and copying the 144-byte op with its distribution's shared pointer was
        // most of a step's own work (callgrind, messaging at 1/10: 33 M of runProgram()'s 55 M).
        const Op& op = prog.ops[cur.ip];
        if (!cur.opStarted) {
            // A system call ends an RSEQ slice extension at its entry (rseq_slice_ext.cpp).
            if (cur.sliceGranted &&
                (isSyscall(op) || op.kind == OpKind::Exit ||
                 (op.kind == OpKind::Run && op.mode != ExecMode::User)) &&
                sliceExtSyscall(c, id, false))
                return Step::Switched;
            beginOp(cur, op);
            if (cur.remaining > 0) return Step::Continue;
        }
        if (cur.remaining > 0 || cur.overhead > 0) return Step::Continue;
        const Step s = doOpAction(c, id, op);
        if (s != Step::Continue) return s;
    }
}

// The action of an op whose CPU phase is done. Continue = the task keeps the CPU (the caller's
// loop goes on); anything else = it no longer runs the program now.
Engine::Step Engine::doOpAction(CpuId c, TaskId id, const Op& op) {
    Task& t = tasks_[size_t(id)];
    switch (op.kind) {
    case OpKind::Run:
        if (op.mode == ExecMode::User) {
            advanceOp(t);
        } else if (!t.held.empty()) { // inside a mutex's critical section: still in the kernel
            advanceOp(t);
            t.opMode = ExecMode::Kernel;
        } else {
            t.resume = Resume::ExitToUserNext; // end of the kernel section: syscall return
        }
        return Step::Continue;
    case OpKind::Loop:
        t.iterations++;
        if (loopJumps(op, now_ - t.startedAt, t.loopLeft)) {
            t.ip = uint32_t(op.target);
            t.opStarted = false;
        } else {
            advanceOp(t);
        }
        return Step::Continue;
    case OpKind::Sleep:
        if (const Time d = op.cycle >= 0 ? cycleDraw(t, op) : op.duration.sample(t.rng); op.jiffies)
            armWheelTimer(id, d);
        else
            armTimer(id, now_ + d);
        t.resume = Resume::ExitToUserNext;
        blockCurrent(c, id, op.idleWait ? SwitchPoint::BlockIdle : SwitchPoint::Block);
        return Step::Blocked;
    case OpKind::TimerWait:
        // clock_nanosleep(TIMER_ABSTIME) on the grid start + k * period.
        if (t.timerNext < 0) t.timerNext = now_ + op.period;
        t.timerExpiry = t.timerNext;
        t.resume = Resume::TimerFired;
        if (t.timerNext <= now_) return Step::Continue; // already expired: no sleep
        armTimer(id, t.timerNext);
        blockCurrent(c, id);
        return Step::Blocked;
    case OpKind::Write:
    case OpKind::Read: {
        const bool done =
            op.kind == OpKind::Write ? channelWrite(c, id, op.channel) : channelRead(c, id, op.channel);
        Task& tt = tasks_[size_t(id)];
        if (!done) {
            tt.resume = Resume::Retry;
            tt.channelWait = op.channel;
            tt.blockedOnRead = op.kind == OpKind::Read;
            blockCurrent(c, id, op.idleWait ? SwitchPoint::BlockIdle : SwitchPoint::Block);
            return Step::Blocked;
        }
        // schbench's wake-up latency: from the wake to running, or, when the message was already
        // there (the futex value had changed before the wait), from its posting to now.
        if (op.measureWake) {
            const Time since = tt.blockedOnRead ? tt.wokenAt : channels_[size_t(op.channel)].lastWrite;
            if (since >= 0) recordLatency(tt, now_ - since);
        }
        tt.blockedOnRead = false;
        tt.resume = Resume::ExitToUserNext;
        return Step::Continue;
    }
    case OpKind::Fork:
        forkChildren(c, id, op.target, std::max<int64_t>(1, op.count));
        tasks_[size_t(id)].resume = Resume::ExitToUserNext;
        return Step::Continue;
    case OpKind::WaitChildren:
        if (t.liveChildren > 0) {
            t.waitingChildren = true;
            t.resume = Resume::Retry;
            blockCurrent(c, id);
            return Step::Blocked;
        }
        t.unreaped = 0;
        t.resume = Resume::ExitToUserNext;
        return Step::Continue;
    case OpKind::WaitChild:
        // do_wait() for any child: an exited one is reaped at once; with children alive but none
        // exited the parent sleeps until one exits (wait_consider_task); with none, -ECHILD.
        if (t.unreaped == 0 && t.liveChildren > 0) {
            t.waitingChildren = true;
            t.resume = Resume::Retry;
            blockCurrent(c, id);
            return Step::Blocked;
        }
        if (t.unreaped > 0) t.unreaped--;
        t.resume = Resume::ExitToUserNext;
        return Step::Continue;
    case OpKind::Yield: {
        // do_sched_yield(): rq->donor's class yields (127b90315ca0) - an owner that runs for a
        // donor moves the donor, not itself - then schedule() with the task still runnable.
        if (const TaskId d = rqs_[size_t(c)].donor(); isRtPolicy(tasks_[size_t(d)].policy))
            tasks_[size_t(d)].rrExpired = true; // yield_task_rt(): the tail of its level
        else
            yieldFair(c, d);
        t.resume = Resume::ExitToUserNext;
        const TaskId before = rqs_[size_t(c)].curr;
        schedule(c, SwitchPoint::Yield);
        return rqs_[size_t(c)].curr != before ? Step::Switched : Step::Continue;
    }
    case OpKind::SliceRequest:
        t.sliceRequest = true; // a store to the rseq area: the kernel reads it at an interrupt's return
        advanceOp(t);
        return Step::Continue;
    case OpKind::SliceYield:
        t.sliceRequest = false;
        if (!t.sliceGranted) { // not granted: user space only clears its request
            advanceOp(t);
            return Step::Continue;
        }
        t.resume = Resume::ExitToUserNext; // rseq_slice_yield() returns to user mode after the switch
        return sliceExtSyscall(c, id, true) ? Step::Switched : Step::Continue;
    case OpKind::MutexLock:
        return mutexLock(c, id, op.channel);
    case OpKind::MutexUnlock:
        return mutexUnlock(c, id, op.channel);
    case OpKind::Exit:
        exitTask(c, id);
        return Step::Exited;
    }
    return Step::Continue;
}

void Engine::blockCurrent(CpuId c, TaskId /*id*/, SwitchPoint how) {
    schedule(c, how);
}

void Engine::exitTask(CpuId c, TaskId id) {
    Task& t = tasks_[size_t(id)];
    t.timerGen++;
    t.exitedAt = now_;
    if (t.parent >= 0) {
        Task& p = tasks_[size_t(t.parent)];
        p.liveChildren--;
        p.unreaped++;
        if (p.waitingChildren && p.state == TaskState::Sleeping) {
            p.waitingChildren = false;
            tryToWakeUp(t.parent, c, id);
        }
    }
    schedule(c, SwitchPoint::Exit);
}

void Engine::armTimer(TaskId id, Time at) {
    Task& t = tasks_[size_t(id)];
    t.timerGen++;
    t.timerExpiry = at;
    // hrtimer_nanosleep() arms the range [at, at + timer_slack_ns]; with nothing else to coalesce
    // with, the hard expiry fires. RT tasks have no slack (rt_or_dl_task_policy() -> 0 since 6.7).
    const Time slack = isRtPolicy(t.policy) ? 0 : cfg_.costs.timerSlack;
    const Distribution& jitter = cfg_.costs.timerJitter;
    const Time late = jitter.kind == Distribution::Kind::Fixed ? jitter.a : jitter.sample(t.rng);
    // The wakeup happens once the hrtimer interrupt has been entered.
    queue_.push(std::max(at + slack, now_) + cfg_.costs.timerIrq + late, now_, EventKind::Timer, id,
                t.timerGen);
}

// schedule_timeout(): a timer_list timer on the timer wheel of the task's CPU. The timeout is
// rounded up to jiffies (usecs_to_jiffies()), expires = jiffies + timeout, and the wheel files it
// in a bucket of its level's granularity (timer_wheel.h), so the task wakes in the timer softirq
// of a tick - in phase with the tick, unlike an hrtimer - and without timer slack. kdamond's
// 500 ms sleeps wake 128 jiffies apart, on tick boundaries, in every public trace.
void Engine::armWheelTimer(TaskId id, Time timeout) {
    Task& t = tasks_[size_t(id)];
    t.timerGen++;
    const Time tick = cfg_.tickNsec();
    const uint64_t clk = uint64_t(now_ / tick); // base->clk, forwarded to jiffies when a timer is added
    const uint64_t jiffies = uint64_t((std::max<Time>(timeout, 0) * cfg_.hz + kNsPerSec - 1) / kNsPerSec);
    const Time at = Time(timerWheelBucketExpiry(clk + jiffies, clk, cfg_.hz)) * tick;
    t.timerExpiry = at;
    // The tick's interrupt is the same clock event device as an hrtimer's: its entry and jitter.
    const Distribution& jitter = cfg_.costs.timerJitter;
    const Time late = jitter.kind == Distribution::Kind::Fixed ? jitter.a : jitter.sample(t.rng);
    queue_.push(std::max(at, now_) + cfg_.costs.timerIrq + late, now_, EventKind::Timer, id, t.timerGen);
}

// hrtimer expiry: an interrupt on the CPU where the timer was armed wakes the task.
void Engine::onTimer(TaskId id) {
    const CpuId c = tasks_[size_t(id)].cpu;
    ctxCpu_ = c;
    syncProgress(c);
    tryToWakeUp(id, c, kNoTask);
    irqReturn(c);
    reprogram(c);
}

void Engine::recordTimerLatency(Task& t) {
    // cyclictest: latency = clock read after wakeup - programmed expiry.
    recordLatency(t, now_ - t.timerExpiry);
    // Next expiry on the grid; periods already missed produce no sample.
    const Op& op = programs_[size_t(t.program)].ops[t.ip];
    if (op.period > 0) {
        t.timerNext += op.period;
        if (t.timerNext <= now_) t.timerNext += ((now_ - t.timerNext) / op.period + 1) * op.period;
    }
}

// schbench's request: from the stopwatch's start to now, into a 1-us histogram and a per-second count.
void Engine::recordRequest(Task& t) {
    const size_t bin = size_t(std::clamp<Time>((now_ - t.reqStart) / kNsPerUs, 0, 1'000'000));
    if (t.reqHist.size() <= bin) t.reqHist.resize(bin + 1, 0);
    t.reqHist[bin]++;
    const size_t sec = size_t(now_ / kNsPerSec);
    if (t.reqPerSec.size() <= sec) t.reqPerSec.resize(sec + 1, 0);
    t.reqPerSec[sec]++;
    t.reqStart = -1;
}

void Engine::recordLatency(Task& t, Time lat) {
    t.latCount++;
    t.latSum += lat;
    t.latLast = lat;
    t.latMin = std::min(t.latMin, lat);
    t.latMax = std::max(t.latMax, lat);
    const size_t bin = size_t(std::clamp<Time>(lat / kNsPerUs, 0, 1'000'000));
    if (t.latHist.size() <= bin) t.latHist.resize(bin + 1, 0);
    t.latHist[bin]++;
}

// pipe_write() / unix_stream_sendmsg(): one message, or block while the channel is full.
bool Engine::channelWrite(CpuId c, TaskId id, int32_t ch) {
    Channel& q = channels_[size_t(ch)];
    touchChannel(ch);
    bool done = false;
    if (q.count >= q.capacity) {
        q.blockWriter(id);
    } else {
        done = true;
        q.count++;
        q.lastWrite = std::max(q.lastWrite, now_);
        if (q.blockedReaders > 0) { // the data makes a blocked reader runnable
            const TaskId r = q.unblockReader();
            tryToWakeUp(r, c, id, q.syncWake);
        }
    }
    checkChannel(ch);
    return done;
}

// pipe_read() / unix_stream_recvmsg(): one message, or block while the channel is empty.
bool Engine::channelRead(CpuId c, TaskId id, int32_t ch) {
    Channel& q = channels_[size_t(ch)];
    touchChannel(ch);
    bool done = false;
    if (q.count == 0) {
        q.blockReader(id);
    } else {
        done = true;
        q.count--;
        if (q.wakeAllWritersAt >= 0) { // a socket: every blocked writer once enough has drained
            if (q.count <= q.wakeAllWritersAt)
                while (q.blockedWriters > 0) {
                    const TaskId w = q.unblockWriter();
                    tryToWakeUp(w, c, id, q.syncWake);
                }
        } else if (q.blockedWriters > 0) { // a pipe: the freed room makes one blocked writer runnable
            const TaskId w = q.unblockWriter();
            tryToWakeUp(w, c, id, q.syncWake);
        }
    }
    checkChannel(ch);
    return done;
}

// fork()/clone(): children inherit policy, nice, custom slice and affinity (sched_fork()).
void Engine::forkChildren(CpuId /*c*/, TaskId parent, int32_t program, int64_t count) {
    for (int64_t i = 0; i < count; ++i) {
        const Task& p = tasks_[size_t(parent)];
        TaskSpec spec;
        spec.comm = programs_[size_t(program)].name.empty() ? p.comm : programs_[size_t(program)].name;
        spec.program = program;
        spec.policy = p.policy;
        spec.nice = p.nice;
        spec.rtPriority = p.rtPriority;
        spec.slice = ents_[size_t(parent)].customSlice ? ents_[size_t(parent)].slice : 0;
        spec.affinity = p.affinity;
        spec.rseqV1 = p.rseqV1; // the same libc registers the child's (a fork keeps the parent's area)
        spec.start = now_;
        const bool thread = programs_[size_t(p.program)].ops[p.ip].thread;
        const int32_t tgid = p.tgid;
        const TaskId child = newTask(spec, parent);
        if (child == kNoTask) return; // the task limit halted the run
        if (thread) {
            tasks_[size_t(child)].tgid = tgid;
            trace_.tasks[size_t(child)].tgid = tgid;
        }
        tasks_[size_t(parent)].liveChildren++;
    }
}

} // namespace sched
