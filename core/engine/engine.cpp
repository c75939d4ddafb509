// SPDX-License-Identifier: GPL-3.0-or-later
// Engine set-up, the stepping API, event dispatch and live parameter changes.
#include "engine/engine.h"

#include "base/duration.h"
#include "base/limits.h"
#include "engine/custom_slice.h"

#include <algorithm>

namespace sched {

Engine::Engine(const SchedConfig& config, uint64_t seed, TraceOptions opts)
    : cfg_(config), seed_(seed), opts_(opts), rqs_(size_t(std::clamp(config.cpus, 1, kMaxCpus))) {
    trace_.cpus = int(rqs_.size());
    for (auto& rq : rqs_) {
        rq.avgIdle = 2 * cfg_.migrationCost; // as sched_init()
        rq.balanceInterval = Time(cfg_.cpus) * kNsPerMs;
    }
    // sched_rnd_state, one stream per CPU (prandom_init_once()); apart from the tasks' streams,
    // which mixSeed(seed, task id + 1) makes.
    for (size_t c = 0; c < rqs_.size(); ++c) {
        rqs_[c].newidle.rnd = Rng(mixSeed(~seed_, uint64_t(c) + 1));
        rqs_[c].idleExitRnd = Rng(mixSeed(seed_ ^ 0x1d1e'e817'0000'0000ull, uint64_t(c) + 1));
    }
    // sd_llc_shared is kzalloc()ed when the domains are built (__sdt_alloc()), and only a periodic
    // (not newidle) balance of the LLC writes nr_idle_scan (update_idle_cpu_scan()): until then a
    // wakeup does not scan for an idle CPU. An idle machine balances rarely, and the traced one
    // shows it: in the cyclictest trace each wakeup that found kdamond.0 on its CPU stayed there
    // and waited (up to 634 us) with the other CPU idle (docs/fidelity.md).
    nrIdleScan_ = 0;
}

int32_t Engine::addProgram(Program p) {
    for (Op& op : p.ops) {
        op.unplannable = op.clock != 0 || op.cycle >= 0; // also for programs never finalize()d
        // The machine's cost of arming a task's sleep timer becomes part of the syscall's kernel
        // time, so the interpreter and the batch planner (cpuPhase()) both see it.
        if (op.kind == OpKind::MutexLock || op.kind == OpKind::MutexUnlock) op.unplannable = true;
        if ((op.kind == OpKind::Sleep && !op.jiffies && op.mode == ExecMode::User) ||
            op.kind == OpKind::TimerWait)
            op.cost += cfg_.costs.timerArm;
    }
    programs_.push_back(std::move(p));
    patterns_.push_back(LoopPattern::of(programs_.back()));
    return int32_t(programs_.size() - 1);
}

int32_t Engine::addChannel(int capacity, int64_t wakeAllWritersAt, bool syncWake) {
    Channel ch;
    ch.syncWake = syncWake;
    ch.capacity = std::max(1, capacity);
    ch.wakeAllWritersAt = std::min<int64_t>(wakeAllWritersAt, ch.capacity - 1);
    channels_.push_back(std::move(ch));
    return int32_t(channels_.size() - 1);
}

TaskId Engine::newTask(const TaskSpec& spec, TaskId parent) {
    if (int64_t(tasks_.size()) >= limits::kMaxTasks) {
        const std::string limit =
            std::to_string(limits::kMaxTasks) + " tasks, the limit (core/base/limits.h)";
        halt(parent >= 0 ? "the run reached " + limit + ", when " + tasks_[size_t(parent)].comm + ":" +
                               std::to_string(tasks_[size_t(parent)].pid) +
                               " forked another; a program that forks without end?"
                         : "the scenario asks for more than " + limit);
        return kNoTask;
    }
    const TaskId id = TaskId(tasks_.size());
    Task t;
    t.pid = nextPid_++;
    if (spec.group >= 0) {
        if (size_t(spec.group) >= groupTgid_.size()) groupTgid_.resize(size_t(spec.group) + 1, 0);
        if (groupTgid_[size_t(spec.group)] == 0) groupTgid_[size_t(spec.group)] = t.pid;
        t.tgid = groupTgid_[size_t(spec.group)];
    } else {
        t.tgid = t.pid;
    }
    t.parent = parent;
    t.comm = spec.comm.substr(0, 15); // TASK_COMM_LEN - 1
    t.policy = spec.policy;
    t.nice = std::clamp(spec.nice, -20, 19);
    t.rtPriority = std::clamp(spec.rtPriority, 1, 99);
    if (!isRtPolicy(t.policy)) t.rtPriority = 0;
    t.affinity = spec.affinity;
    if (t.affinity.none())
        for (int c = 0; c < cfg_.cpus; ++c)
            t.affinity.set(size_t(c));
    t.cpu = spec.startCpu >= 0 ? std::min<CpuId>(spec.startCpu, cfg_.cpus - 1) : 0;
    t.program = spec.program;
    t.loopLeft.assign(size_t(programs_[size_t(spec.program)].loopSlots), 0);
    t.cycleClass.assign(programs_[size_t(spec.program)].cycles.size(), -1);
    t.rng = Rng(mixSeed(seed_, uint64_t(id) + 1)); // one stream per task: common random numbers
    t.resume = Resume::Continue;
    t.fixedStartCpu = spec.startCpu >= 0;
    t.rseqV1 = spec.rseqV1;
    // A child is in its parent's group (cgroup_post_fork(); the autogroup is the session's).
    t.taskGroup = parent >= 0 ? tasks_[size_t(parent)].taskGroup : spec.taskGroup;
    if (t.taskGroup < kRootGroup || t.taskGroup >= GroupId(groups_.size())) t.taskGroup = kRootGroup;

    SchedEntity se;
    se.load = loadWeightFor(t.policy, t.nice);
    // sched_setattr(sched_runtime): custom slice clamped to [0.1 ms, 100 ms].
    se.customSlice = spec.slice > 0;
    se.slice =
        se.customSlice ? std::clamp<Time>(spec.slice, kCustomSliceMin, kCustomSliceMax) : cfg_.baseSlice();
    tasks_.push_back(std::move(t));
    ents_.push_back(se);
    trace_.tasks.push_back(TraceTask{tasks_.back().pid, tasks_.back().tgid, tasks_.back().comm,
                                     tasks_.back().kernelPrio(),
                                     parent >= 0 ? tasks_[size_t(parent)].pid : 0});
    queue_.push(std::max(spec.start, now_), now_, EventKind::TaskStart, id);
    return id;
}

TaskId Engine::spawn(const TaskSpec& spec) {
    return newTask(spec, kNoTask);
}

void Engine::scheduleChange(const ParamChange& c, Time at) {
    changes_.push_back(c);
    queue_.push(std::max(at, now_), now_, EventKind::Change, int32_t(changes_.size() - 1));
}

// wake_up_new_task(): fork balancing picks the CPU (unless the scenario pins the start CPU),
// ENQUEUE_INITIAL gives half a slice, then the WF_FORK preemption check.
void Engine::startTask(TaskId id) {
    Task& t = tasks_[size_t(id)];
    if (t.state != TaskState::NotStarted) return;
    t.startedAt = now_;
    const TaskId parent = t.parent;
    // A forked child is woken from its parent's CPU; a task the scenario starts has no waker on any
    // CPU, so it is treated like a remote wakeup (an eager bit sends an IPI).
    ctxCpu_ = parent >= 0 ? tasks_[size_t(parent)].cpu : -1;
    CpuId cpu = t.cpu;
    if (!t.fixedStartCpu || !allowed(t, cpu))
        cpu = selectForkCpu(id, parent >= 0 ? tasks_[size_t(parent)].cpu : -1);
    activateTask(cpu, id, true);
    trace_.wakeups.push(now_, parent, id, uint16_t(ctxCpu_ < 0 ? cpu : ctxCpu_), uint16_t(cpu), true);
    wakeupPreempt(cpu, id, WF_FORK);
    if (ctxCpu_ >= 0) reprogram(ctxCpu_);
}

bool Engine::isLive(const Event& e) const {
    switch (e.kind) {
    case EventKind::Tick:
        return rqs_[size_t(e.a)].tickOn && e.gen == rqs_[size_t(e.a)].tickGen;
    case EventKind::Segment:
        return e.gen == rqs_[size_t(e.a)].segGen;
    case EventKind::HrTick:
        return e.gen == rqs_[size_t(e.a)].hrtickGen;
    case EventKind::Timer:
        return e.gen == tasks_[size_t(e.a)].timerGen && tasks_[size_t(e.a)].state == TaskState::Sleeping;
    case EventKind::DlTimer:
        return e.gen == rqs_[size_t(e.a)].fairServer.timerGen;
    case EventKind::RtPeriod:
        return e.gen == rtPeriodGen_;
    case EventKind::SliceExt:
        return e.gen == tasks_[size_t(e.a)].sliceTimerGen;
    default:
        return true;
    }
}

// The queue's head after dropping the cancelled events before it; no event left: nullptr.
EventQueue::Head Engine::liveHead() {
    for (;;) {
        const EventQueue::Head h = queue_.head();
        if (!h.event || isLive(*h.event)) return h;
        queue_.pop(h);
    }
}

bool Engine::peekLive() {
    return liveHead().event != nullptr;
}

Time Engine::nextEventTime() {
    const EventQueue::Head h = liveHead();
    return h.event ? h.event->time : kNever;
}

// The next live event due at or before limit, popped into event_ (the cancelled ones ahead of it
// are dropped on the way, whatever their time); false if there is none (event_ unchanged).
// liveHead() with the time test in its loop: the run loops' path, where this shape measured 0.5 %
// fewer instructions.
bool Engine::popLive(Time limit) {
    for (;;) {
        const EventQueue::Head h = queue_.head();
        if (!h.event) return false;
        if (!isLive(*h.event)) {
            queue_.pop(h);
            continue;
        }
        if (h.event->time > limit) return false;
        queue_.pop(h, event_);
        return true;
    }
}

bool Engine::step() {
    if (finished_ || halted_ || !popLive(kNever)) return false;
    handle();
    return true;
}

// The live event just popped into event_.
void Engine::handle() {
    const Event& e = event_;
    // Time must advance: events without end at one instant mean tasks that hand work to each other
    // at no cost (base/limits.h).
    if (e.time != instant_) {
        instant_ = e.time;
        eventsAtInstant_ = 0;
    } else if (++eventsAtInstant_ > limits::kMaxEventsPerInstant) {
        now_ = e.time;
        halt(spinDescription());
        return;
    }
    now_ = e.time;
    ++events_;
    lastKind_ = e.kind;
    inEvent_ = true;
    dispatch(e);
    inEvent_ = false;
    ctxCpu_ = -1;
}

void Engine::dispatch(const Event& e) {
    switch (e.kind) {
    case EventKind::Tick:
        onTick(e.a);
        break;
    case EventKind::Segment:
        onSegment(e.a);
        break;
    case EventKind::Timer:
        onTimer(e.a);
        break;
    case EventKind::Ipi:
        onIpi(e.a);
        break;
    case EventKind::IdleExit:
        onIdleExit(e.a);
        break;
    case EventKind::HrTick:
        onHrTick(e.a);
        break;
    case EventKind::TaskStart:
        startTask(e.a);
        break;
    case EventKind::DlTimer:
        onDlTimer(e.a);
        break;
    case EventKind::RtPeriod:
        onRtPeriod();
        break;
    case EventKind::SliceExt:
        onSliceExtTimer(e.a);
        break;
    case EventKind::MutexSpin:
        onMutexSpin(e.a);
        break;
    case EventKind::Change: {
        const std::string err = apply(changes_[size_t(e.a)]);
        if (!err.empty()) error_ = err;
        break;
    }
    }
}

void Engine::runUntil(Time t) {
    while (!finished_ && !halted_ && popLive(t))
        handle();
    if (!halted_) now_ = std::max(now_, t);
}

void Engine::halt(std::string why) {
    if (halted_) return;
    halted_ = true;
    error_ = std::move(why);
}

std::string Engine::spinDescription() const {
    std::string running;
    for (size_t c = 0; c < rqs_.size(); ++c)
        if (const TaskId t = rqs_[c].curr; t >= 0) {
            if (running.size() > 200) {
                running += ", ...";
                break;
            }
            running += (running.empty() ? "" : ", ") + tasks_[size_t(t)].comm + ":" +
                       std::to_string(tasks_[size_t(t)].pid) + " on CPU " + std::to_string(c);
        }
    return "simulated time stopped advancing at " + formatDuration(now_) + ": more than " +
           std::to_string(limits::kMaxEventsPerInstant) +
           " events at that one instant (the limit: core/base/limits.h), so the run was stopped. Running "
           "there: " +
           (running.empty() ? std::string("no task") : running) +
           ". Tasks that hand work to each other spin at one instant when a context switch and a wakeup cost "
           "nothing: give the machine's costs non-zero values.";
}

bool Engine::runUntilSwitch(Time limit) {
    const int64_t before = switchesSeen_;
    while (!finished_ && !halted_ && popLive(limit)) {
        handle();
        if (switchesSeen_ != before) return true;
    }
    return false;
}

bool Engine::runUntilTick(Time limit) {
    while (!finished_ && !halted_ && popLive(limit)) {
        handle();
        if (lastKind_ == EventKind::Tick) return true;
    }
    return false;
}

int64_t Engine::contextSwitches() const {
    int64_t n = 0;
    for (const auto& rq : rqs_)
        n += rq.nrSwitches;
    return n;
}

void Engine::recordSample(TaskId t) {
    if (!opts_.samples) return;
    const CpuId c = tasks_[size_t(t)].cpu;
    const SchedEntity& se = ents_[size_t(t)];
    trace_.samples.push(
        EevdfSample{.time = now_,
                    .task = t,
                    .cpu = uint16_t(c),
                    .vruntime = se.vruntime,
                    .deadline = se.relDeadline ? se.deadline + se.vruntime : se.deadline,
                    .avgVruntime = taskCfsRq(t).avgVruntimeValue(ev()), // its own runqueue's V
                    .onRq = se.onRq});
}

void Engine::finish() {
    if (finished_) return;
    finishing_ = true;
    for (CpuId c = 0; c < CpuId(rqs_.size()); ++c) {
        syncProgress(c);
        CpuRq& rq = rqs_[size_t(c)];
        if (rq.batching()) dropRestOfBatch(c); // a batch part-way (batch.cpp)
        clearFlags(c, kStillRunning);          // bits still set when the run ends are closed here
        if (rq.curr < 0) continue;
        trace_.slices.push(rq.sliceStart, now_, rq.curr, uint16_t(c), kStillRunning, kNoReason);
        rq.busyTime += now_ - rq.sliceStart;
        // Account the donor's class up to now so that sum_exec_runtime is complete (the running
        // task's, or under proxy execution the owner's that runs for the donor).
        if (rq.rtDonor >= 0)
            updateCurrRt(c);
        else if (rq.fairCurr >= 0)
            updateCurr(c, cfsRqOf(rq.fairCurr, c), false);
    }
    trace_.endTime = now_;
    finishing_ = false;
    finished_ = true;
}

// finish()'s closing records, made on a copy: the same order (each CPU's bits, then its slice).
Trace Engine::traceSoFar() const {
    Trace t = trace_;
    if (finished_) return t;
    for (CpuId c = 0; c < CpuId(rqs_.size()); ++c) {
        const CpuRq& rq = rqs_[size_t(c)];
        for (size_t b = 0; b < 2; ++b)
            if (rq.flag[b] && opts_.flags)
                t.flags.push(rq.flagSetAt[b], now_, rq.curr, uint16_t(c), uint8_t(b),
                             uint8_t(rq.flagReason[b]), kStillRunning);
        if (rq.curr >= 0) t.slices.push(rq.sliceStart, now_, rq.curr, uint16_t(c), kStillRunning, kNoReason);
    }
    t.endTime = now_;
    return t;
}

} // namespace sched
