// SPDX-License-Identifier: GPL-3.0-or-later
// Load balancing and migration (kernel/sched/fair.c): detach_task() / attach_task(),
// sched_balance_newidle() when a CPU goes idle, the periodic sched_balance_rq() at the tick, and
// NOHZ idle balancing kicked from a busy CPU's tick, on PELT loads (cpu_load(), task_h_load()).
// What is simplified against the kernel (one scheduling domain of one-CPU groups) is listed in
// docs/design.md.
#include "engine/engine.h"

#include <algorithm>

namespace sched {

// detach_tasks() + attach_tasks(). The walk starts at the tail of the source's cfs_tasks (the task
// that ran longest ago, cfs_tasks.h) and looks at no more than loop_max = min(sysctl_sched_nr_migrate
// = 32, src nr_running) tasks; one that can_migrate_task() refuses, or whose task_h_load() is more
// than the load still to move (halved per failed balance: shr_bound()), goes to the head, so every
// step sees another. Moving load, each task takes its task_h_load() off the imbalance; moving
// tasks, one. A newly idle CPU stops after one task (the CONFIG_PREEMPTION break: every build the
// engine models has it), an idle one once the source is down to one task. The detached tasks are
// attached in reverse order, as attach_tasks() takes them from the head of env->tasks, each with
// wakeup_preempt().
bool Engine::balanceFrom(CpuId dst, const LbImbalance& env, BalanceIdle idle) {
    const CpuId src = env.busiest;
    CpuRq& srq = rqs_[size_t(src)];
    const int failed = rqs_[size_t(dst)].balanceFailed;
    const uint32_t srcNrRunning = srq.nrRunning + srq.hNrDelayed; // rq->nr_running counts delayed sleepers
    int64_t imbalance = env.imbalance;
    if (srcNrRunning <= 1 || imbalance <= 0) return false;
    const uint32_t loopMax = std::min<uint32_t>(kSchedNrMigrate, srcNrRunning);
    std::vector<TaskId> detached;
    for (uint32_t loop = 1; !srq.cfsTasks.empty(); ++loop) {
        if (idle != BalanceIdle::NotIdle && srq.nrRunning + srq.hNrDelayed <= 1) break;
        if (loop > loopMax) break;
        const TaskId p = srq.cfsTasks.tail;
        if (!canMigrateTask(p, src, dst, failed)) {
            srq.cfsTasks.moveToHead(ents_, p);
            continue;
        }
        int64_t amount = 1;
        if (env.type == MigrationType::Load) {
            amount = std::max<int64_t>(taskHLoad(p), 1); // LB_MIN is off
            if ((amount >> std::min(failed, 63)) > imbalance) {
                srq.cfsTasks.moveToHead(ents_, p);
                continue;
            }
        }
        detachTask(p, src, dst, idle);
        detached.push_back(p);
        if (idle == BalanceIdle::NewlyIdle) break;
        imbalance -= amount;
        if (imbalance <= 0) break;
    }
    for (auto it = detached.rbegin(); it != detached.rend(); ++it)
        attachTask(*it, dst);
    return !detached.empty();
}

// can_migrate_task() for a fair task under migrate_task, in the kernel's order. A cache-hot task
// (task_hot(): it ran on src within sysctl_sched_migration_cost) may still go once the domain has
// failed to balance more than cache_nice_tries (1, an MC domain's) times in a row.
bool Engine::canMigrateTask(TaskId p, CpuId src, CpuId dst, int nrBalanceFailed) const {
    const SchedEntity& se = ents_[size_t(p)];
    const Task& t = tasks_[size_t(p)];
    if (se.schedDelayed) return false; // only migrate_load moves a delayed sleeper
    if (t.proxyBlocked) return false;  // task_is_blocked(): a donor-to-be stays with its owner (7de9d4f94638)
    // task_is_ineligible_on_dst_cpu() (873199d27bb2, v6.14; not in the 6.12 profile): with
    // PLACE_LAG, a task that owes service on src is not moved onto a busy dst to shed its
    // negative lag there (until balancing has failed).
    // The destination is the task's group's runqueue there (task_group(p)->cfs_rq[dst]).
    const CfsRq& dcfs = cfsRqOf(p, dst);
    if (cfg_.has(Rule::IneligibleOnDst) && nrBalanceFailed == 0 && cfg_.feature(Feature::PlaceLag) &&
        dcfs.nrQueued > 0 && !taskCfsRq(p).entityEligible(ev(), p))
        return false;
    if (!allowed(t, dst)) return false;
    // task_on_cpu(), or the donor an owner runs for (task_current_donor(), 7de9d4f94638).
    if (rqs_[size_t(src)].curr == p || rqs_[size_t(src)].fairCurr == p) return false;
    // task_hot(): the buddy is cache hot where it would not run at once (CACHE_HOT_BUDDY, on);
    // otherwise it ran on src within migration_cost (rq_clock_task - exec_start).
    const bool hot = (rqs_[size_t(dst)].nrRunning > 0 && taskCfsRq(p).next == p) ||
                     now_ - t.lastRanAt < cfg_.migrationCost;
    return !hot || nrBalanceFailed > kCacheNiceTries;
}

// detach_task(): deactivate_task() on src and set_task_cpu(); the lag and the relative deadline
// travel, the vruntime does not.
void Engine::detachTask(TaskId p, CpuId src, CpuId dst, BalanceIdle idle) {
    Task& t = tasks_[size_t(p)];
    // dequeue_entity() of a migrating task detaches its load first (DO_DETACH), so the source's
    // group entity is reweighted without it.
    if (t.loadCpu >= 0) detachEntityLoadAvg(p, true);
    dequeueTaskFair(src, p, false);
    addRunning(src, -1);
    const MigrationPath how = ilb_ >= 0                        ? MigrationPath::NohzBalance
                              : idle == BalanceIdle::NewlyIdle ? MigrationPath::NewIdle
                                                               : MigrationPath::Balance;
    trace_.migrations.push(now_, p, uint16_t(src), uint16_t(dst), uint16_t(ilb_ >= 0 ? ilb_ : dst), how);
    t.nrMigrations++;
    t.overhead += cfg_.costs.migration;
    t.cpu = dst;
    t.proxyHome = -1;
    t.sliceRequest = false;  // rseq ids_changed: slice_ctrl zeroed at its next exit to user (7ee58f98b59b)
    t.lastRanAt = kNeverRan; // migrate_task_rq_fair(): exec_start = 0, no longer cache hot
}

// attach_task(): activate_task() on dst, then wakeup_preempt().
void Engine::attachTask(TaskId p, CpuId dst) {
    updateRqClock(dst); // attach_tasks(): rq_lock(env->dst_rq), update_rq_clock()
    enqueueTaskFair(dst, p, false);
    addRunning(dst, 1);
    wakeupPreempt(dst, p, 0);
}

// group_classify() of a one-CPU group: overloaded with more than one task (rq->nr_running, delayed
// sleepers and other classes included) when the CPU's utilisation is over 100/117 of its capacity;
// fully busy with one task so used; spare otherwise. (The runnable_avg test, a queue 1.17x the
// capacity, and util_est are not modelled: the utilisation test is what a busy CPU meets.)
GroupType Engine::groupClassify(CpuId c) const {
    const CpuRq& rq = rqs_[size_t(c)];
    const uint32_t nr = rq.nrRunning + rq.hNrDelayed;
    const uint64_t util = std::min<uint64_t>(rq.cfsUtil.utilAvg, 1024); // cpu_util_cfs(), capacity 1024
    const bool used = util * uint64_t(kImbalancePct) > 1024 * 100;
    if (nr == 0 || !used) return GroupType::HasSpare;
    return nr == 1 ? GroupType::FullyBusy : GroupType::Overloaded;
}

// sched_balance_find_src_group() with update_sd_pick_busiest(), calculate_imbalance() and
// sched_balance_find_src_rq() for one domain of one-CPU groups. The busiest is the busiest type
// among the CPUs with fair tasks, visited from dst + 1 round: the highest cpu_load() among
// overloaded ones (the first on a tie), the last visited among fully busy ones, the most tasks
// among spare ones. An idle dst with spare capacity pulls half the difference in tasks (a busy one
// nothing); a busier dst pulls load only from an overloaded CPU, when it is below both that CPU and
// the average (an overloaded dst also more than imbalance_pct below the busiest): the smaller of
// the two distances to the average.
LbImbalance Engine::findSrc(CpuId dst, BalanceIdle idle) const {
    const int n = cfg_.cpus;
    auto hNrRunnable = [&](CpuId c) { return rqs_[size_t(c)].hNrQueued - rqs_[size_t(c)].hNrDelayed; };
    auto nrRunning = [&](CpuId c) { return int64_t(rqs_[size_t(c)].nrRunning + rqs_[size_t(c)].hNrDelayed); };
    CpuId b = -1;
    GroupType tb = GroupType::HasSpare;
    int64_t sumLoad = cpuLoad(dst);
    for (int i = 1; i < n; ++i) {
        const CpuId c = CpuId((dst + i) % n);
        sumLoad += cpuLoad(c);
        if (hNrRunnable(c) == 0) continue;
        const GroupType t = groupClassify(c);
        if (b >= 0 && t < tb) continue;
        if (b < 0 || t > tb || (t == GroupType::Overloaded && cpuLoad(c) > cpuLoad(b)) ||
            t == GroupType::FullyBusy || (t == GroupType::HasSpare && nrRunning(c) > nrRunning(b))) {
            b = c;
            tb = t;
        }
    }
    if (b < 0) return {};
    const GroupType td = groupClassify(dst);
    if (td > tb) return {};
    const int64_t avg = sumLoad / n, local = cpuLoad(dst), busiest = cpuLoad(b);
    if (td == GroupType::Overloaded &&
        (local >= busiest || local >= avg || 100 * busiest <= kImbalancePct * local))
        return {};
    if (tb != GroupType::Overloaded && (idle == BalanceIdle::NotIdle || hNrRunnable(b) == 1)) return {};
    LbImbalance env{b, MigrationType::Task, 0};
    if (td == GroupType::HasSpare) { // sibling_imbalance(): 0 for a busy dst
        if (idle != BalanceIdle::NotIdle)
            env.imbalance = std::max<int64_t>(0, nrRunning(b) - nrRunning(dst)) >> 1;
    } else if (local < busiest && local < avg) {
        env.type = MigrationType::Load;
        // (B - A) wraps in the kernel's unsigned arithmetic when an overloaded busiest is below
        // the average, and min() then takes (A - L).
        env.imbalance = busiest >= avg ? std::min(busiest - avg, avg - local) : avg - local;
        // sched_balance_find_src_rq(): a busiest with one fair task more loaded than the
        // imbalance is left alone.
        if (hNrRunnable(b) == 1 && busiest > env.imbalance) return {};
    }
    if (env.imbalance <= 0) return {};
    return env;
}

// One sched_balance_rq() of CPU c with its bookkeeping. nr_balance_failed counts the balances in
// a row that found a busiest CPU and moved nothing (not the newly idle ones: they are too frequent
// to count); a balanced domain or a move resets it, for every kind of balance. balance_interval
// goes back to min_interval (N ms) whenever a busiest CPU was found, and doubles up to
// max_interval (2N ms) when balanced, except for a newly idle balance, which disregards intervals.
// (All-pinned tasks are not told apart from cache-hot ones: both count as a failure here.)
LbResult Engine::balanceRq(CpuId c, BalanceIdle idle) {
    CpuRq& rq = rqs_[size_t(c)];
    const Time minInterval = Time(cfg_.cpus) * kNsPerMs, maxInterval = 2 * minInterval;
    if (rq.balanceInterval == 0) rq.balanceInterval = minInterval;
    const LbImbalance env = findSrc(c, idle);
    if (env.busiest < 0) { // out_balanced
        rq.balanceFailed = 0;
        if (idle != BalanceIdle::NewlyIdle)
            rq.balanceInterval = std::min(rq.balanceInterval * 2, maxInterval);
        return LbResult::Balanced;
    }
    const bool moved = balanceFrom(c, env, idle);
    if (moved)
        rq.balanceFailed = 0;
    else if (idle != BalanceIdle::NewlyIdle)
        rq.balanceFailed++;
    rq.balanceInterval = minInterval;
    return moved ? LbResult::Moved : LbResult::NothingMoved;
}

// sched_balance_newidle() for the one domain: skipped while the root domain is not overloaded
// and when this CPU's idle periods are shorter than a balance costs (avg_idle <
// max_newidle_lb_cost); with NI_RANDOM (6.18.5+) tried only in proportion to the domain's
// successes - from 7.1 not while the ratio is full (1024), which NI_RATE gives a CPU that goes
// newidle rarely (9fe89f022c05). The balance is sched_balance_rq(CPU_NEWLY_IDLE): one task from the busiest
// CPU, which fails when no CPU has two. Its cost then feeds max_newidle_lb_cost; 6.17's bump (until the
// 6.18.y revert) raises it x1.5 on a failure instead, so failing CPUs stop trying.
bool Engine::newidleBalance(CpuId c) {
    if (cfg_.cpus < 2) return false;
    NewidleDomain& sd = rqs_[size_t(c)].newidle;
    if (!rdOverloaded_ || rqs_[size_t(c)].avgIdle < sd.maxNewidleLbCost) return false;
    updateBlockedFair(c); // sched_balance_update_blocked_averages(), once past the gate
    updateRqClock(c);     // ... which updates the clock (6.12 - 6.18; rq_clock.cpp)
    const bool proportional = cfg_.has(Rule::ProportionalNewidle);
    const bool rate = cfg_.has(Rule::NewidleRate);
    const bool niRate = rate && cfg_.feature(Feature::NiRate);
    uint32_t weight = 1;
    if (proportional && cfg_.feature(Feature::NiRandom) && !(rate && sd.ratio >= 1024)) {
        const uint32_t d1k = uint32_t(sd.rnd.next()) % 1024; // sched_rng() % 1024
        weight = 1 + sd.ratio;
        if (d1k > weight) {
            sd.updateStats(0, now_, rate, niRate);
            return false;
        }
        weight = (1024 + weight / 2) / weight; // a success stands for this many skipped tries
    }
    updateRdOverloaded(); // update_sd_lb_stats(), before the pull
    const bool pulled = balanceRq(c, BalanceIdle::NewlyIdle) == LbResult::Moved;
    const bool bump = cfg_.has(Rule::NewidleCostBump);
    const Time cost = bump && !pulled ? 3 * sd.maxNewidleLbCost / 2 : cfg_.costs.newidleBalance;
    sd.updateCost(now_, cost, bump, cfg_.migrationCost);
    if (proportional && cost > 0) sd.updateStats(pulled ? weight : 0, now_, rate, niRate);
    return pulled;
}

// update_sd_lb_stats() at the root domain: overloaded while some CPU has two tasks or more
// (rq->nr_running, which counts delayed sleepers).
void Engine::updateRdOverloaded() {
    rdOverloaded_ = false;
    for (const CpuRq& rq : rqs_)
        if (rq.nrRunning + rq.hNrDelayed > 1) rdOverloaded_ = true;
}

// sched_balance_domains() for one flat domain: a balance when its interval (balanceRq()) is up,
// stretched x16 while the CPU is busy.
void Engine::periodicBalance(CpuId c) {
    updateRootCfsAvg(c); // update_blocked_averages() of the balancing CPU
    updateBlockedFair(c);
    updateIdleCpuScan(); // update_sd_lb_stats(), before the imbalance is looked at
    updateRdOverloaded();
    CpuRq& rq = rqs_[size_t(c)];
    rq.newidle.updateCost(now_, 0, false, cfg_.migrationCost); // sched_balance_domains(): decay only
    const BalanceIdle idle = rq.curr < 0 ? BalanceIdle::Idle : BalanceIdle::NotIdle;
    if (cfg_.cpus < 2) // no domain to balance: the interval stays at its longest
        rq.balanceInterval = 2 * kNsPerMs;
    else
        balanceRq(c, idle);
    const Time tick = cfg_.tickNsec();
    Time interval = rq.balanceInterval;
    if (rqs_[size_t(c)].curr >= 0) interval = interval * 16 - tick; // busy_factor, minus a jiffy
    interval = std::clamp(interval, tick, Time(cfg_.hz) * cfg_.cpus / 10 * tick);
    rqs_[size_t(c)].nextBalance = now_ + interval;
}

// nohz_balancer_kick(): a busy CPU with more than one runnable task has idle CPUs balance on
// behalf of themselves (their tick is stopped), rate-limited like nohz.next_balance.
void Engine::nohzKick(CpuId busy) {
    // NOHZ_STATS_KICK: every LOAD_AVG_PERIOD ms a busy CPU's tick has an idle CPU update the
    // blocked averages of the idle ones (update_blocked_averages()): their root load and util,
    // which cpu_load() and SIS_UTIL read, and their part of each group's load in tg->load_avg.
    if (now_ >= nohzNextBlocked_) {
        nohzNextBlocked_ = now_ + pelt::kLoadAvgPeriod * kNsPerMs;
        for (CpuId c = 0; c < cfg_.cpus; ++c) {
            if (rqs_[size_t(c)].nrRunning != 0) continue;
            updateRootCfsAvg(c);
            updateBlockedFair(c);
        }
    }
    if (cfg_.cpus < 2 || rqs_[size_t(busy)].nrRunning < 2 || now_ < nohzNextBalance_) return;
    nohzNextBalance_ = now_ + Time(cfg_.cpus) * kNsPerMs;
    // kick_ilb(): find_new_ilb() takes the first idle CPU. It balances for the others in
    // _nohz_idle_balance()'s for_each_cpu_wrap() from the next CPU on, and for itself last
    // (7a82e5f52a35); the tasks it moves are set_task_cpu()'d there, so their sched_migrate_task
    // is its event, not the destination's.
    CpuId ilb = 0;
    while (ilb < cfg_.cpus && rqs_[size_t(ilb)].nrRunning != 0)
        ++ilb;
    if (ilb == cfg_.cpus) return;
    ilb_ = ilb;
    bool scanned = false;
    for (CpuId k = 1; k <= cfg_.cpus; ++k) {
        const CpuId c = (ilb + k) % cfg_.cpus;
        if (rqs_[size_t(c)].nrRunning != 0) continue;
        updateRootCfsAvg(c); // _nohz_idle_balance(): update_blocked_averages() of each idle CPU
        updateBlockedFair(c);
        rqs_[size_t(c)].newidle.updateCost(now_, 0, false, cfg_.migrationCost); // its sched_balance_domains()
        if (!scanned) { // the first idle CPU's update_sd_lb_stats()
            updateIdleCpuScan();
            updateRdOverloaded();
            scanned = true;
        }
        balanceRq(c, BalanceIdle::Idle); // on c's behalf
    }
    ilb_ = -1;
}

// update_idle_cpu_scan() (SIS_UTIL), from update_sd_lb_stats() of a balance that is not newly
// idle, at the LLC (here the machine): the fewer CPUs select_idle_cpu() may scan the busier the
// LLC, none from ~85 % utilisation on (100 / imbalance_pct 117):
//   x = sum_util / llc_weight, y = 1024 - min(1024, x^2 * pct^2 / (10000 * 1024)),
//   nr_idle_scan = y * llc_weight / 1024,
// with sum_util the CPUs' cpu_util_cfs() (util_avg clamped to the capacity; util_est is not
// modelled) as they were last stored: a busy CPU's at its last tick or switch, an idle one's at
// its last blocked-load update (its own balance, or a NOHZ idle balance run for it).
void Engine::updateIdleCpuScan() {
    if (!cfg_.feature(Feature::SisUtil)) return;
    constexpr uint64_t kCapacity = 1024; // SCHED_CAPACITY_SCALE
    uint64_t sumUtil = 0;
    for (CpuId c = 0; c < cfg_.cpus; ++c)
        sumUtil += std::min<uint64_t>(rqs_[size_t(c)].cfsUtil.utilAvg, kCapacity);
    const uint64_t llcWeight = uint64_t(cfg_.cpus);
    const uint64_t x = sumUtil / llcWeight;
    const uint64_t tmp =
        std::min(x * x * uint64_t(kImbalancePct * kImbalancePct) / (10000 * kCapacity), kCapacity);
    nrIdleScan_ = int((kCapacity - tmp) * llcWeight / kCapacity);
}

} // namespace sched
