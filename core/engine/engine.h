// SPDX-License-Identifier: GPL-3.0-or-later
// The scheduler simulator. A discrete-event loop drives per-CPU runqueues with the fair class
// (EEVDF, Linux 6.12, 6.18.0, 6.18.44: kernel_rules.h) and the RT class, the two need-resched bits and the
// preemption models. Everything is a value: copying an Engine is a snapshot from which the run continues
// identically.
//
// One class, its methods in files by kernel mechanism (the private declarations below are grouped
// the same way, each group under its file's name):
//   engine.cpp       set-up (programs, channels, tasks), the stepping API, the event loop and dispatch
//   fair.cpp         the fair class (kernel/sched/fair.c) on one runqueue: update_curr, update_deadline,
//                    place/enqueue/dequeue_entity, DELAY_DEQUEUE, pick_next_entity, slice protection,
//                    check_preempt_wakeup_fair, yield_task_fair
//   fair_group.cpp   the fair class over task groups (task_group.h): enqueue_task_fair /
//                    dequeue_entities along the entity's path, pick_task_fair's descent, the
//                    partial put_prev/set_next walk, task_tick_fair, update_cfs_group, reweight_entity
//   schedule.cpp     kernel/sched/core.c's __schedule() and pick_next_task(), resched_curr(_lazy),
//                    the preemption points of each model, sched_tick, IPIs, the idle loop, HRTICK
//   wake.cpp         try_to_wake_up, select_task_rq_fair (wake_affine, wake_wide,
//                    select_idle_sibling), fork placement, activate/deactivate_task, CPU loads
//   balance.cpp      migration (detach_tasks), newidle (newidle.h: its cost and NI_RANDOM) / periodic /
//                    NOHZ-idle load balancing
//   next_buddy.cpp   the buddy (cfs_rq->next): NEXT_BUDDY at wakeup, PICK_BUDDY at pick, the group of
//                    a task that sleeps, clear_buddies()
//   dl_server.cpp    the fair_server: fair tasks' 50 ms per 1 s under RT load (6.12+)
//   rt_bandwidth.cpp RT throttling: 950 ms per 1 s for the RT class (the PREEMPT_AUTO RFC profile)
//   interpreter.cpp  what tasks do: the op interpreter, channels, timers, fork, exit
//   mutex.cpp        kernel mutexes (kernel/locking/mutex.c): lock, optimistic spinning, the wait
//                    list, handoff, unlock
//   proxy_exec.cpp   proxy execution (CONFIG_SCHED_PROXY_EXEC): a mutex waiter stays queued and, when
//                    picked, lends its scheduling context to the owner (find_proxy_task())
//   batch.cpp        batches: a running task's operations that cannot interact, planned and replayed
//   params.cpp       live changes: debugfs knobs, HZ, sched_setattr() / nice (the sched_change pattern)
//   explain.cpp      the inspector's prose: why the current task runs, where a set bit will act
//                    (lag_table.h, a free function, reads a runqueue as the lag table)
//   rewind.cpp       snapshot / restore, and forgetting the recorded trace (forgetRecorded)
// The runqueues themselves are cfs_rq.h (avg_vruntime, eligibility, __pick_eevdf on
// eevdf_tree.h's augmented treap) and rt_rq.h; cpu_rq.h is struct rq. Where kernel versions
// differ, the code asks cfg_.has(Rule::...) (kernel_rules.h), never a version number.
#pragma once

#include "engine/cpu_rq.h"
#include "engine/event_queue.h"
#include "engine/lb_env.h"
#include "engine/loop_pattern.h"
#include "engine/param_change.h"
#include "engine/pick_preview.h"
#include "engine/program.h"
#include "engine/sched_config.h"
#include "engine/task.h"
#include "engine/task_group.h"
#include "engine/wake_flags.h"
#include "trace/trace.h"

#include <array>
#include <deque>
#include <string>
#include <utility>
#include <vector>

namespace sched {

struct TaskSpec {
    std::string comm = "task";
    int group = -1; // tasks with the same group share a tgid (threads of one process)
    int32_t program = 0;
    Policy policy = Policy::Normal;
    int nice = 0;
    int rtPriority = 0;
    Time slice = 0;      // custom slice (sched_attr.sched_runtime), 0 = base slice
    bool rseqV1 = false; // its rseq area is the original 32 bytes (sys_rseq()'s rseq_len), not the v2 ABI
    CpuMask affinity;    // empty = all CPUs
    CpuId startCpu = -1; // -1 = fork balancing picks the idlest CPU
    Time start = 0;
    GroupId taskGroup = kRootGroup; // its task group (addTaskGroup()); forked children inherit it
};

// The first cache line holds all a batch's reservation and replay read (batch.cpp).
struct alignas(64) Channel {
    int64_t count = 0;
    // Reserved by batches (batch.cpp): writes and reads planned but not yet done.
    int64_t pendingWrites = 0, pendingReads = 0;
    // Blocked writers are woken when the queue has drained to this many messages: all of them at
    // once (an AF_UNIX socket: unix_writable() wakes the whole wait queue at a quarter of
    // sk_sndbuf), or -1: one writer per freed message (a pipe's exclusive wr_wait).
    int64_t wakeAllWritersAt = -1;
    Time lastWrite = -1; // when the newest message was posted (schbench's wake stamp)
    int32_t capacity = 1;
    uint32_t blockedReaders = 0, blockedWriters = 0; // readers.size(), writers.size()
    // A pipe's or a socket's wake-ups are synchronous (pipe_write()/pipe_read() and
    // sock_def_readable()/unix_write_space() call wake_up_interruptible_sync_poll(): WF_SYNC, the
    // waker is about to sleep); a channel that stands for a futex or a work queue wakes plainly.
    bool syncWake = true;
    std::array<uint64_t, kMaxCpus / 64> batchers{}; // the CPUs whose batches hold reservations, a bit each
    std::deque<TaskId> readers, writers;            // blocked tasks, FIFO

    void blockReader(TaskId t) { readers.push_back(t), blockedReaders++; }
    void blockWriter(TaskId t) { writers.push_back(t), blockedWriters++; }
    TaskId unblockReader() {
        const TaskId t = readers.front();
        readers.pop_front(), blockedReaders--;
        return t;
    }
    TaskId unblockWriter() {
        const TaskId t = writers.front();
        writers.pop_front(), blockedWriters--;
        return t;
    }
};

struct TraceOptions {
    bool samples = true; // record vruntime/deadline/V samples (charts); off for pure metrics runs
    // Run the operations of a running task that cannot interact with anything ahead in batches
    // instead of one event each (batch.cpp). The decisions and the trace are the same;
    // the task's program position seen between events lags behind, so interactive views that
    // inspect it keep this off.
    bool batchOps = false;
    // Record each need-resched bit's set-to-clear interval (the timelines' flag rows, the event
    // log, the ftrace export's flag letters). The bits themselves and every decision they drive
    // are the same without; runs that only print perf's reports leave this off (a fifth of the
    // trace's bytes in messaging).
    bool flags = true;
};

class Engine {
  public:
    Engine(const SchedConfig& config, uint64_t seed, TraceOptions opts = {});

    // --- set-up (before or during the run) ---
    int32_t addProgram(Program p); // p must be finalize()d
    int32_t addChannel(int capacity, int64_t wakeAllWritersAt = -1, bool syncWake = true);
    int32_t addMutex(std::string name); // a kernel struct mutex for the lock / unlock ops (mutex.cpp)
    // A task group (a cgroup or an autogroup) under parent, with tg->shares = shares (1024 for
    // cpu.weight 100 or autogroup nice 0). Before the first spawn().
    GroupId addTaskGroup(std::string name, GroupId parent, int64_t shares);
    TaskId spawn(const TaskSpec& spec); // starts at spec.start
    void scheduleChange(const ParamChange& c, Time at);

    // --- stepping ---
    bool step();                     // one event; false when nothing is left to do
    bool peekLive();                 // drop cancelled events at the head; false if none left
    Time nextEventTime();            // the next live event's time, kNever if none
    void runUntil(Time t);           // all events with time <= t; now() becomes t
    bool runUntilSwitch(Time limit); // until the next context switch (true) or limit
    bool runUntilTick(Time limit);
    std::string apply(const ParamChange& c); // now, at now(); returns an error text or empty
    void finish();                           // close open slices and flags at now(); terminal

    // --- rewind ---
    // A copy of the whole state except the trace, which only grows: the snapshot remembers how
    // long each trace column was. restore() returns to that state and cuts this engine's trace
    // back to those lengths, so replaying from there reproduces the run exactly.
    Engine snapshot() const;
    void restore(const Engine& snap);
    // Drops the events recorded so far (slices, need-resched intervals, wake-ups, migrations,
    // samples) and records the next ones into the same memory; tasks, markers and the end time
    // stay. For a caller that folds the trace as the run goes (LatencyFold). A snapshot taken
    // before restores a trace without events: what it held up to then is gone.
    void forgetRecorded();

    // --- state, read-only ---
    Time now() const { return now_; }
    bool finished() const { return finished_; } // finish() closed the open slices at now()
    const SchedConfig& config() const { return cfg_; }
    const Trace& trace() const { return trace_; }
    // A copy of the trace as finish() would leave it now: the running slices and the bits still
    // set closed at now(), the end time now(). What a view that compares or exports the run so
    // far needs without ending the run (finish() is terminal).
    Trace traceSoFar() const;
    const std::vector<Task>& tasks() const { return tasks_; }
    const std::vector<SchedEntity>& entities() const { return ents_; }
    const std::vector<TaskGroup>& groups() const { return groups_; }
    // Every entity a runqueue can hold: tasks' and groups' (entity_view.h).
    EntityView entityView() const {
        return EntityView(const_cast<SchedEntity*>(ents_.data()),
                          const_cast<SchedEntity*>(groupEnts_.data()));
    }
    std::string entityName(EntityId id) const; // "comm:pid", or the group's name
    // The runqueue a task's entity is queued in on its CPU: the root's, or its group's.
    const CfsRq& taskCfsRq(TaskId t) const;
    const std::vector<CpuRq>& cpus() const { return rqs_; }
    const std::vector<Channel>& channels() const { return channels_; }
    const std::vector<Mutex>& mutexes() const { return mutexes_; }
    const std::vector<Program>& programs() const { return programs_; }
    uint64_t eventsProcessed() const { return events_; }
    int64_t contextSwitches() const;
    // SIS_UTIL's scan depth for wakeups (sd_llc_shared->nr_idle_scan), as last set by a balance.
    int nrIdleScan() const { return nrIdleScan_; }
    // Why the CPU's current task holds the CPU, in words (inspector).
    std::string describePick(CpuId cpu) const;
    std::string describePendingSwitch(CpuId cpu) const;          // which bit is set and where it will act
    std::string describeWakeupCause(const WakeupCause& w) const; // who set a wakeup preemption's bit, why
    std::string describeStarvationGuard(CpuId cpu) const;        // fair_server / RT throttling, when RT runs
    std::string describeSliceExt(CpuId cpu) const;               // an RSEQ slice extension asked for or held
    std::string describeBuddies(CpuId cpu) const;                // cfs_rq->next on the running task's path
    std::string describeMutexes(CpuId cpu) const; // kernel mutexes held, spun on or waited for here
    // What pick_eevdf() would choose on cpu's root runqueue now, and why (pick_preview.h; explain.cpp).
    PickPreview previewPick(CpuId cpu) const;
    // The real thing, to hold the preview to it on a copy of the engine: update_curr() of the root's
    // curr, then pick_next_entity() at the root, without a switch (a delayed pick is dequeued as the
    // kernel's pick does it, and kNoTask returned). Changes the engine.
    EntityId pickRootEntityNow(CpuId cpu);
    // The last error a task program hit (empty if none), e.g. a spin without progress.
    const std::string& error() const { return error_; }
    // The run stopped at a limit (base/limits.h: too many tasks, time that does not advance) and
    // goes no further; error() says why. now() is where it stopped.
    bool halted() const { return halted_; }

  private:
    // rewind.cpp
    struct TraceMark {
        size_t tasks = 0, slices = 0, flags = 0, wakeups = 0, migrations = 0, samples = 0, markers = 0,
               sliceExts = 0;
        uint32_t forgets = 0; // forgetRecorded() calls before: another count means the lengths are stale
    };
    TraceMark markOf(const Trace& t) const;
    void cutTrace(const TraceMark& m);
    void copyStateFrom(const Engine& o);

    // engine.cpp
    EventQueue::Head liveHead();
    bool popLive(Time limit);
    void handle();
    void dispatch(const Event& e);
    void startTask(TaskId t);
    bool isLive(const Event& e) const;
    void recordSample(TaskId t);
    TaskId newTask(const TaskSpec& spec, TaskId parent); // kNoTask when the task limit halted the run
    void halt(std::string why);
    std::string spinDescription() const;

    // params.cpp
    void applyTaskChange(const ParamChange& c, TaskId t);

    // fair.cpp (one runqueue; an EntityId is a task's or a group's entity)
    void updateCurr(CpuId c, CfsRq& cfs, bool fromTick);
    bool updateDeadline(SchedEntity& se);
    void placeEntity(CfsRq& cfs, EntityId t, bool initial);
    void enqueueEntity(CpuId c, CfsRq& cfs, EntityId t, bool initial);
    bool dequeueEntity(CpuId c, CfsRq& cfs, EntityId t, bool sleep, bool delayedFinish, bool mayDelay = true);
    void sampleJoin(const CfsRq& cfs, EntityId t);
    int64_t entityLag(const CfsRq& cfs, EntityId t) const;
    bool updateEntityLag(const CfsRq& cfs, EntityId t);
    void setNextEntity(CpuId c, CfsRq& cfs, EntityId t, bool first = true);
    void putPrevEntity(CpuId c, CfsRq& cfs, EntityId t);
    EntityId pickNextEntity(CpuId c, CfsRq& cfs);
    TaskId pickEevdf(const CfsRq& cfs, bool protect) const;
    bool currProtected(const CfsRq& cfs) const;
    // The rules behind currProtected() and update_curr()'s reschedule, for curr at vruntime v with
    // deadline d (as it stands, or brought up to date by the lens: pick_preview.h).
    bool sliceProtected(const SchedEntity& se, int64_t v, int64_t d) const;
    bool currReschedules(const SchedEntity& se, int64_t v, int64_t d, bool renewed, bool eligible) const;
    std::string describePendingSwitchPoint(CpuId c) const; // where a set bit will act
    void pickFromTable(const LagTable& t, EntityId buddy, EntityId& pick, PickPreview::Why& why,
                       int64_t& protectedFor) const; // previewPick(): __pick_eevdf()'s order on a table
    void cancelProtectSlice(SchedEntity& se);
    void updateProtectSlice(const CfsRq& cfs, SchedEntity& se);
    void requeueDelayed(CpuId c, CfsRq& cfs, EntityId t);
    void checkPreemptWakeupFair(CpuId c, TaskId p, int wakeFlags);
    void findMatchingSe(CpuId c, EntityId& se, EntityId& pse) const;
    void checkPreemptWakeupReworked(CpuId c, CfsRq& cfs, EntityId se, EntityId pse, int wakeFlags);
    void yieldFair(CpuId c, TaskId t);

    // next_buddy.cpp (cfs_rq->next: NEXT_BUDDY, PICK_BUDDY, the sleeping task's group)
    void setNextBuddy(CpuId c, EntityId se);
    void clearBuddies(CpuId c, CfsRq& cfs, EntityId se);
    bool setPreemptBuddy(CpuId c, CfsRq& cfs, EntityId pse);
    bool setShortBuddy(CpuId c, CfsRq& cfs, EntityId pse); // set_short_buddy() (7.3)
    bool preemptSync(int wakeFlags, EntityId pse, EntityId se) const;
    bool pickBuddyOn() const;
    bool buddyInPick() const;
    void updateRootCfsAvg(CpuId c);
    Time entitySlice(const SchedEntity& se) const;

    // fair_group.cpp (the path from a task's entity to the CPU's root runqueue)
    EntityView ev() { return EntityView(ents_.data(), groupEnts_.data()); }
    EntityView ev() const { return entityView(); }
    SchedEntity& entity(EntityId id) { return ev()[size_t(id)]; }
    const SchedEntity& entity(EntityId id) const { return ev()[size_t(id)]; }
    EntityId groupSe(GroupId g, CpuId c) const { return kGroupSeBase + g * cfg_.cpus + c; }
    GroupId groupOfSe(EntityId id) const { return GroupId((id - kGroupSeBase) / cfg_.cpus); }
    GroupId parentGroup(EntityId id) const {
        return entityIsTask(id) ? tasks_[size_t(id)].taskGroup : groups_[size_t(groupOfSe(id))].parent;
    }
    EntityId parentEntity(EntityId id, CpuId c) const { // parent_entity(), on CPU c
        const GroupId g = parentGroup(id);
        return g == kRootGroup ? kNoTask : groupSe(g, c);
    }
    LoadAvg& cfsLoadAvg(GroupId g, CpuId c) { // a cfs_rq's struct sched_avg, the group's or the root's
        return g == kRootGroup ? rqs_[size_t(c)].cfsLoad : groups_[size_t(g)].load[size_t(c)].avg;
    }
    const LoadAvg& cfsLoadAvg(GroupId g, CpuId c) const {
        return g == kRootGroup ? rqs_[size_t(c)].cfsLoad : groups_[size_t(g)].load[size_t(c)].avg;
    }
    const CfsRq& cfsRqOf(EntityId id, CpuId c) const { // cfs_rq_of(), on CPU c
        const GroupId g = parentGroup(id);
        return g == kRootGroup ? rqs_[size_t(c)].cfs : groups_[size_t(g)].cfsRq[size_t(c)];
    }
    CfsRq& cfsRqOf(EntityId id, CpuId c) { return const_cast<CfsRq&>(std::as_const(*this).cfsRqOf(id, c)); }
    int depthOf(EntityId id) const;
    void addQueuedWeight(CpuId c, CfsRq& cfs, int64_t w);
    void setEntitySlice(CfsRq& cfs, EntityId id, int64_t slice);
    void enqueueTaskFair(CpuId c, TaskId p, bool initial);
    bool dequeueTaskFair(CpuId c, TaskId p, bool sleep, bool mayDelay = true);
    bool dequeueEntities(CpuId c, EntityId se, bool sleep, bool delayed, bool mayDelay = true);
    TaskId pickTaskFair(CpuId c);
    void putPrevTaskFair(CpuId c, TaskId prev);
    void setNextTaskFair(CpuId c, TaskId p, bool first);
    void putPrevSetNextFair(CpuId c, TaskId prev, TaskId next);
    void taskTickFair(CpuId c);
    void updateCfsGroup(CpuId c, EntityId se);
    void updateCfsRqLoadAvg(GroupId g, CpuId c);
    void updateTgLoadAvg(GroupId g, CpuId c);
    void updateBlockedFair(CpuId c);
    void attachEntityLoadAvg(CpuId c, TaskId p);
    void detachEntityLoadAvg(TaskId p, bool onRq);
    void updateTaskLoadAvg(TaskId p, bool onRq);
    void updateGroupSeLoadAvg(CpuId c, GroupId g);
    void reweightTaskLoadAvg(TaskId p, int64_t oldWeight);
    void reweightGroupSeLoadAvg(CpuId c, EntityId se, int64_t oldWeight, int64_t weight);
    static void rescaleLoadAvg(LoadAvg& se, LoadAvg& cfs, int64_t oldWeight, int64_t weight);
    void updateEntityLoadAvg(CpuId c, EntityId se, bool enqueue);
    void reweightEntity(CpuId c, CfsRq& cfs, EntityId id, uint32_t weight);
    void reweightRescale(CpuId c, CfsRq& cfs, EntityId id, uint32_t weight); // 7.1, 6.18.45
    void reweightEevdf612(CpuId c, CfsRq& cfs, EntityId id, uint32_t weight);

    // schedule.cpp
    void schedule(CpuId c, SwitchPoint point);
    TaskId pickNextTask(CpuId c, TaskId prev);
    TaskId pickFair(CpuId c, TaskId prev, bool prevFair);
    TaskId pickRt(CpuId c);
    void switchIn(CpuId c, TaskId next, TaskId prev);
    void reschedCurr(CpuId c, ReschedBit wanted, ReschedReason why);
    void setFlag(CpuId c, ReschedBit bit, ReschedReason why);
    void clearFlags(CpuId c, uint8_t clearedBy); // a SwitchPoint, or kStillRunning at the end
    bool preemptionPoint(CpuId c, SwitchPoint p);
    void irqReturn(CpuId c);

    // rseq_slice_ext.cpp (7.0's RSEQ time-slice extension)
    bool grantSliceExt(CpuId c);
    void onSliceExtTimer(TaskId id);
    void endSliceExt(CpuId c, TaskId id, SliceExtEnd how);
    bool sliceExtSyscall(CpuId c, TaskId id, bool yield);
    void sliceExtSwitchedOut(CpuId c, TaskId prev);

    void syncProgress(CpuId c);
    void reprogram(CpuId c);
    void onTick(CpuId c);
    void onSegment(CpuId c);
    void onIpi(CpuId c);
    void onIdleExit(CpuId c);
    void onHrTick(CpuId c);
    void startTick(CpuId c);
    void armHrTick(CpuId c);
    void hrtickStartFair(CpuId c);
    void hrtickUpdate(CpuId c, TaskId changed);
    static constexpr Time kHrtickMinDelay = 10 * kNsPerUs; // hrtick_start()
    ExecMode effectiveMode(const Task& t) const;
    bool irqPreemptible() const;    // IRQ return to kernel / preempt_enable() act on NR
    bool condReschedActive() const; // cond_resched() can switch
    bool mightReschedActive() const;

    // wake.cpp
    void tryToWakeUp(TaskId p, CpuId ctxCpu, TaskId waker, bool sync = false);
    void migrateOnWake(TaskId p, CpuId to, CpuId on, MigrationPath how);
    void wakeupPreempt(CpuId c, TaskId p, int wakeFlags);
    CpuId selectTaskRq(TaskId p, CpuId wakerCpu, bool sync, bool wantAffine = true);
    void recordWakee(TaskId current, TaskId p);
    bool wakeIsWide(TaskId current, TaskId p) const;
    CpuId selectForkCpu(TaskId p, CpuId parentCpu);
    void activateTask(CpuId c, TaskId p, bool initial);
    void deactivateTask(CpuId c, TaskId p, bool exiting);
    int64_t cpuLoad(CpuId c) const;
    int64_t cfsRqHLoad(GroupId g, CpuId c) const;
    int64_t taskHLoad(TaskId p) const;
    CpuId wakeAffineWeight(TaskId p, CpuId thisCpu, CpuId prevCpu, bool sync) const;
    void addRunning(CpuId c, int delta);
    CpuId nextIdleCpu(CpuId from) const;
    bool allowed(const Task& t, CpuId c) const { return t.affinity.test(size_t(c)); }

    // balance.cpp
    enum class BalanceIdle : uint8_t { NotIdle, Idle, NewlyIdle }; // enum cpu_idle_type
    static constexpr uint32_t kSchedNrMigrate = 32; // sysctl_sched_nr_migrate (SCHED_NR_MIGRATE_BREAK)
    static constexpr int kCacheNiceTries = 1;       // sd->cache_nice_tries of an MC domain (sd_init())
    static constexpr int64_t kImbalancePct = 117;   // sd->imbalance_pct of an MC domain (sd_init())
    GroupType groupClassify(CpuId c) const;
    LbImbalance findSrc(CpuId dst, BalanceIdle idle) const;
    LbResult balanceRq(CpuId c, BalanceIdle idle);
    bool balanceFrom(CpuId dst, const LbImbalance& env, BalanceIdle idle);
    bool canMigrateTask(TaskId p, CpuId src, CpuId dst, int nrBalanceFailed) const;
    void detachTask(TaskId p, CpuId src, CpuId dst, BalanceIdle idle);
    void attachTask(TaskId p, CpuId dst);
    bool newidleBalance(CpuId c);
    void updateRdOverloaded();
    void periodicBalance(CpuId c);
    void nohzKick(CpuId busy);
    void updateIdleCpuScan();

    // dl_server.cpp
    bool dlOverflow(const DlServer& s) const;
    void dlReplenishNewPeriod(CpuId c);
    void dlStartTimer(CpuId c);
    bool dlReplenish(CpuId c);
    void dlServerStart(CpuId c);
    void dlServerStop(CpuId c);
    void dlServerUpdate(CpuId c, Time delta);
    void dlServerUpdateIdle(CpuId c);
    void onDlTimer(CpuId c);

    // rq_clock.cpp
    Time rqClockTask(CpuId c);
    void updateRqClock(CpuId c);
    void rqClockSkipUpdate(CpuId c);

    // rt_bandwidth.cpp
    void startRtBandwidth();
    void updateCurrRt(CpuId c);
    void onRtPeriod();

    // batch.cpp
    void planBatch(CpuId c);
    void planChains(CpuId c);
    Time walkChain(CpuId c, const Task& t, const Op* ops, uint32_t n, uint32_t& ip, int64_t& iterations,
                   bool& channelOp, ExecMode& mode, Rng& rng, int64_t* loops, Time at, BatchPlan* plan,
                   uint32_t& nOps, bool& drew, bool action);
    bool walkPattern(CpuId c, const LoopPattern& pat, uint32_t& ip, int64_t& iterations, bool& channelOp,
                     ExecMode& mode, Rng& rng, int64_t* loops, Time& at, BatchPlan& b, uint32_t& nOps);
    void catchUpPosition(CpuId c);
    bool reserve(CpuId c, int32_t ch, bool write);
    void giveBack(const BatchPlan& b, uint32_t from, uint32_t to);
    void runBatch(CpuId c, bool ownSegment = false);
    bool continueAsBatch(CpuId c);
    void cutBatch(CpuId c);
    void dropRestOfBatch(CpuId c);
    void releaseBatch(CpuId c);
    size_t batcherWords() const;
    void touchChannel(int32_t ch);
    void checkChannel(int32_t ch);
    void accountProgress(CpuId c);

    // interpreter.cpp
    enum class Step : uint8_t { Continue, Blocked, Switched, Exited };
    Step runProgram(CpuId c, TaskId t);
    Step doOpAction(CpuId c, TaskId t, const Op& op);
    void beginOp(Task& t, const Op& op);
    void advanceOp(Task& t);
    Time cycleDraw(Task& t, const Op& op);
    void resumeTask(CpuId c, TaskId t);
    void blockCurrent(CpuId c, TaskId t,
                      SwitchPoint how = SwitchPoint::Block); // or BlockUninterruptible, BlockIdle
    void exitTask(CpuId c, TaskId t);
    void armTimer(TaskId t, Time at);
    void armWheelTimer(TaskId t, Time timeout);
    void onTimer(TaskId t);
    bool channelWrite(CpuId c, TaskId t, int32_t ch);
    bool channelRead(CpuId c, TaskId t, int32_t ch);
    void recordTimerLatency(Task& t);
    void recordLatency(Task& t, Time lat);
    void recordRequest(Task& t);
    void forkChildren(CpuId c, TaskId parent, int32_t program, int64_t count);

    // mutex.cpp (kernel/locking/mutex.c)
    bool ownerOnCpu(TaskId owner) const;
    bool canSpin(CpuId c, const Mutex& m) const;
    Step mutexLock(CpuId c, TaskId id, int32_t mi);
    Step mutexUnlock(CpuId c, TaskId id, int32_t mi);
    Step mutexAcquired(TaskId id, int32_t mi);
    Step startSpin(TaskId id, int32_t mi, LockStage stage);
    Step mutexSleep(CpuId c, TaskId id, int32_t mi);
    Step spinRescheduled(CpuId c, TaskId id, LockStage then);
    void wakeSpinners(const Mutex& m);
    void ownerLeftCpu(TaskId owner);
    void onMutexSpin(TaskId id);

    // proxy_exec.cpp (CONFIG_SCHED_PROXY_EXEC)
    enum class ProxyFound : uint8_t { Run, PickAgain, Idle };
    TaskId pickProxy(CpuId c, TaskId& donor, bool& idleResched);
    TaskId findProxyTask(CpuId c, TaskId donor, ProxyFound& found);
    void proxyDeactivate(CpuId c, TaskId donor);
    void proxyReschedIdle(CpuId c, TaskId donor);
    void proxyDequeue(CpuId c, TaskId p);
    void proxyMigrateTask(CpuId c, TaskId donor, TaskId p, CpuId target);
    void proxyForceReturn(CpuId c, TaskId donor, TaskId p);
    void proxyTagCurr(CpuId c, TaskId owner);
    void proxyWakeWaiter(CpuId ctxCpu, TaskId waker, TaskId w);

    SchedConfig cfg_;
    uint64_t seed_;
    TraceOptions opts_;
    Time now_ = 0;
    uint64_t events_ = 0;
    int64_t switchesSeen_ = 0;
    EventQueue queue_;
    std::vector<CpuRq> rqs_;
    std::vector<Task> tasks_;
    std::vector<SchedEntity> ents_;
    std::vector<TaskGroup> groups_;
    std::vector<SchedEntity> groupEnts_; // group g's entity on CPU c at g * cpus + c (groupSe())
    std::vector<Program> programs_;
    std::vector<LoopPattern> patterns_; // per program (batch.cpp)
    std::vector<Channel> channels_;
    std::vector<Mutex> mutexes_;
    std::vector<ParamChange> changes_;
    std::vector<int32_t> groupTgid_;
    int32_t nextPid_ = 1000;
    std::string error_;
    CpuId ctxCpu_ = -1;        // CPU whose context the current handler runs in (-1: none)
    bool tickContext_ = false; // inside sched_tick()'s class tick (PREEMPT_AUTO promotion)
    WakeupCause wakeupCause_;  // the wakeup check's, just before its reschedCurr(): setFlag() keeps it
    bool finished_ = false;
    bool finishing_ = false; // inside finish(): accounting only, no reschedule
    bool halted_ = false;
    Time instant_ = -1;           // the time of the last event handled,
    int64_t eventsAtInstant_ = 0; // and how many were handled at it
    EventKind lastKind_ = EventKind::Tick;
    // The event being handled (a batch's chains due at its time run first only if the queue
    // orders their Segments before it); outside events everything due runs. The queue pops
    // into it (popLive()): no copy of the event on the way.
    Event event_{};
    bool inEvent_ = false;
    // A bit per CPU whose nrRunning is not 0, kept by addRunning(): select_idle_sibling()'s scan
    // of a busy machine reads four words instead of every runqueue (idle_cpu()).
    std::array<uint64_t, kMaxCpus / 64> busyCpus_{};
    Time nohzNextBalance_ = 0;
    CpuId ilb_ = -1;           // the idle load balancer while it balances on other idle CPUs' behalf, else -1
    Time nohzNextBlocked_ = 0; // nohz.next_blocked: the next NOHZ_STATS_KICK
    // sd_llc_shared->nr_idle_scan of the one LLC: how many CPUs select_idle_cpu() may look at
    // (SIS_UTIL). A run starts on a machine that has been up and idle, not at boot (where it is
    // 0 until the first balance): the LLC's weight, what update_idle_cpu_scan() leaves at zero
    // utilisation (the constructor sets it).
    int nrIdleScan_ = 0;
    // rq->rd->overloaded of the one root domain: set when a runqueue gets a second task
    // (add_nr_running()), refreshed by every balance's update_sd_lb_stats(); newidle balancing
    // is skipped while it is clear.
    bool rdOverloaded_ = false;
    bool rtPeriodActive_ = false; // rt_bandwidth.rt_period_active (rt_bandwidth.cpp)
    uint32_t rtPeriodGen_ = 0;
    TraceMark snapMark_;   // in a snapshot: the trace lengths it corresponds to
    uint32_t forgets_ = 0; // forgetRecorded() calls: part of the trace's state, not copied by copyStateFrom()
    Trace trace_;
};

} // namespace sched
