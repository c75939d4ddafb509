// SPDX-License-Identifier: GPL-3.0-or-later
// Load balancing and migration (kernel/sched/fair.c): detach_task() / attach_task(),
// sched_balance_newidle() when a CPU goes idle, the periodic sched_balance_rq() at the tick, and
// NOHZ idle balancing kicked from a busy CPU's tick. What is simplified against the kernel (one
// scheduling domain, runnable counts instead of PELT loads) is listed in docs/design.md.
#include "engine/engine.h"

#include <algorithm>

namespace sched {

// detach_tasks() + attach_tasks(), with migrate_task's count as the imbalance. The walk starts
// at the tail of the source's cfs_tasks (the task that ran longest ago, cfs_tasks.h) and looks at
// no more than loop_max = min(sysctl_sched_nr_migrate = 32, src nr_running) tasks; one that
// can_migrate_task() refuses goes to the head, so every step sees another. A newly idle CPU stops
// after one task (the CONFIG_PREEMPTION break: every build the engine models has it), an idle
// one once the source is down to one task. The detached tasks are attached in reverse order,
// as attach_tasks() takes them from the head of env->tasks, each with wakeup_preempt().
bool Engine::balanceFrom(CpuId dst, CpuId src, int imbalance, BalanceIdle idle) {
    CpuRq& srq = rqs_[size_t(src)];
    const int failed = rqs_[size_t(dst)].balanceFailed;
    const uint32_t srcNrRunning = srq.nrRunning + srq.hNrDelayed; // rq->nr_running counts delayed sleepers
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
        detachTask(p, src, dst);
        detached.push_back(p);
        if (idle == BalanceIdle::NewlyIdle) break;
        if (--imbalance <= 0) break;
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
    // task_is_ineligible_on_dst_cpu() (873199d27bb2, v6.14; not in the 6.12 profile): with
    // PLACE_LAG, a task that owes service on src is not moved onto a busy dst to shed its
    // negative lag there (until balancing has failed).
    // The destination is the task's group's runqueue there (task_group(p)->cfs_rq[dst]).
    const CfsRq& dcfs = cfsRqOf(p, dst);
    if (cfg_.has(Rule::IneligibleOnDst) && nrBalanceFailed == 0 && cfg_.feature(Feature::PlaceLag) &&
        dcfs.nrQueued > 0 && !taskCfsRq(p).entityEligible(ev(), p))
        return false;
    if (!allowed(t, dst)) return false;
    if (rqs_[size_t(src)].curr == p) return false;            // task_on_cpu()
    const bool hot = now_ - t.lastRanAt < cfg_.migrationCost; // task_hot(): rq_clock_task - exec_start
    return !hot || nrBalanceFailed > kCacheNiceTries;
}

// detach_task(): deactivate_task() on src and set_task_cpu(); the lag and the relative deadline
// travel, the vruntime does not.
void Engine::detachTask(TaskId p, CpuId src, CpuId dst) {
    Task& t = tasks_[size_t(p)];
    // dequeue_entity() of a migrating task detaches its load first (DO_DETACH), so the source's
    // group entity is reweighted without it.
    if (t.loadCpu >= 0) detachEntityLoadAvg(p, true);
    dequeueTaskFair(src, p, false);
    addRunning(src, -1);
    rqs_[size_t(src)].runnableLoad -= taskLoad(p);
    trace_.migrations.push(now_, p, uint16_t(src), uint16_t(dst));
    t.nrMigrations++;
    t.overhead += cfg_.costs.migration;
    t.cpu = dst;
    t.lastRanAt = kNeverRan; // migrate_task_rq_fair(): exec_start = 0, no longer cache hot
}

// attach_task(): activate_task() on dst, then wakeup_preempt().
void Engine::attachTask(TaskId p, CpuId dst) {
    enqueueTaskFair(dst, p, false);
    addRunning(dst, 1);
    rqs_[size_t(dst)].runnableLoad += taskLoad(p);
    wakeupPreempt(dst, p, false);
}

// One sched_balance_rq() of CPU c against the busiest CPU, imbalance runnable tasks apart: below
// two it is balanced (out_balanced), else half the difference is pulled. nr_balance_failed counts
// the attempts in a row that moved nothing (the periodic and NOHZ idle balances alike).
bool Engine::balanceRq(CpuId c, CpuId busiest, int imbalance, BalanceIdle idle) {
    int& failed = rqs_[size_t(c)].balanceFailed;
    if (imbalance < 2) {
        failed = 0;
        return false;
    }
    const bool moved = balanceFrom(c, busiest, imbalance / 2, idle);
    failed = moved ? 0 : failed + 1;
    return moved;
}

static CpuId busiestCpu(const std::vector<CpuRq>& rqs, CpuId self) {
    CpuId best = -1;
    for (CpuId c = 0; c < CpuId(rqs.size()); ++c) {
        if (c == self) continue;
        if (best < 0 || rqs[size_t(c)].nrRunning > rqs[size_t(best)].nrRunning) best = c;
    }
    return best;
}

// sched_balance_newidle() for the one domain: skipped while the root domain is not overloaded
// and when this CPU's idle periods are shorter than a balance costs (avg_idle <
// max_newidle_lb_cost); with NI_RANDOM (6.18.5+) tried only in proportion to the domain's
// successes. The balance is sched_balance_rq(CPU_NEWLY_IDLE): one task from the busiest CPU, which
// fails when no CPU has two. Its cost then feeds max_newidle_lb_cost; 6.17's bump (until the
// 6.18.y revert) raises it x1.5 on a failure instead, so failing CPUs stop trying.
bool Engine::newidleBalance(CpuId c) {
    if (cfg_.cpus < 2) return false;
    NewidleDomain& sd = rqs_[size_t(c)].newidle;
    if (!rdOverloaded_ || rqs_[size_t(c)].avgIdle < sd.maxNewidleLbCost) return false;
    updateBlockedFair(c); // sched_balance_update_blocked_averages(), once past the gate
    const bool proportional = cfg_.has(Rule::ProportionalNewidle);
    uint32_t weight = 1;
    if (proportional && cfg_.feature(Feature::NiRandom)) {
        const uint32_t d1k = uint32_t(sd.rnd.next()) % 1024; // sched_rng() % 1024
        weight = 1 + sd.ratio;
        if (d1k > weight) {
            sd.updateStats(0);
            return false;
        }
        weight = (1024 + weight / 2) / weight; // a success stands for this many skipped tries
    }
    updateRdOverloaded(); // update_sd_lb_stats(), before the pull
    const CpuId busiest = busiestCpu(rqs_, c);
    const bool pulled = busiest >= 0 && balanceFrom(c, busiest, 1, BalanceIdle::NewlyIdle);
    const bool bump = cfg_.has(Rule::NewidleCostBump);
    const Time cost = bump && !pulled ? 3 * sd.maxNewidleLbCost / 2 : cfg_.costs.newidleBalance;
    sd.updateCost(now_, cost, bump, cfg_.migrationCost);
    if (proportional && cost > 0) sd.updateStats(pulled ? weight : 0);
    return pulled;
}

// update_sd_lb_stats() at the root domain: overloaded while some CPU has two tasks or more
// (rq->nr_running, which counts delayed sleepers).
void Engine::updateRdOverloaded() {
    rdOverloaded_ = false;
    for (const CpuRq& rq : rqs_)
        if (rq.nrRunning + rq.hNrDelayed > 1) rdOverloaded_ = true;
}

// sched_balance_domains() for one flat domain: pull half the difference in runnable tasks from
// the busiest CPU; the interval doubles while balanced and is stretched x16 while busy.
void Engine::periodicBalance(CpuId c) {
    updateCfsUtil(c); // update_blocked_averages() of the balancing CPU
    updateBlockedFair(c);
    updateIdleCpuScan(); // update_sd_lb_stats(), before the imbalance is looked at
    updateRdOverloaded();
    CpuRq& rq = rqs_[size_t(c)];
    rq.newidle.updateCost(now_, 0, false, cfg_.migrationCost); // sched_balance_domains(): decay only
    const Time ms = kNsPerMs;
    const Time minInterval = Time(cfg_.cpus) * ms, maxInterval = 2 * minInterval;
    if (rq.balanceInterval == 0) rq.balanceInterval = minInterval;
    const CpuId busiest = cfg_.cpus > 1 ? busiestCpu(rqs_, c) : -1;
    const int imbalance = busiest < 0 ? 0 : int(rqs_[size_t(busiest)].nrRunning) - int(rq.nrRunning);
    if (balanceRq(c, busiest, imbalance, rq.curr < 0 ? BalanceIdle::Idle : BalanceIdle::NotIdle))
        rq.balanceInterval = minInterval;
    else if (imbalance < 2)
        rq.balanceInterval = std::min(rq.balanceInterval * 2, maxInterval);
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
    // blocked load of the idle ones, so an idle CPU's part of a group's load decays in
    // tg->load_avg too. (Only the groups' loads: a CPU's util, which SIS_UTIL reads as last
    // stored, is not refreshed by it here.)
    if (!groups_.empty() && now_ >= nohzNextBlocked_) {
        nohzNextBlocked_ = now_ + pelt::kLoadAvgPeriod * kNsPerMs;
        for (CpuId c = 0; c < cfg_.cpus; ++c)
            if (rqs_[size_t(c)].nrRunning == 0) updateBlockedFair(c);
    }
    if (cfg_.cpus < 2 || rqs_[size_t(busy)].nrRunning < 2 || now_ < nohzNextBalance_) return;
    nohzNextBalance_ = now_ + Time(cfg_.cpus) * kNsPerMs;
    bool scanned = false;
    for (CpuId c = 0; c < cfg_.cpus; ++c) {
        if (rqs_[size_t(c)].nrRunning != 0) continue;
        const CpuId busiest = busiestCpu(rqs_, c);
        if (busiest < 0) continue;
        updateCfsUtil(c); // _nohz_idle_balance(): update_blocked_averages() of each idle CPU
        updateBlockedFair(c);
        rqs_[size_t(c)].newidle.updateCost(now_, 0, false, cfg_.migrationCost); // its sched_balance_domains()
        if (!scanned) { // the first idle CPU's update_sd_lb_stats()
            updateIdleCpuScan();
            updateRdOverloaded();
            scanned = true;
        }
        balanceRq(c, busiest, int(rqs_[size_t(busiest)].nrRunning), BalanceIdle::Idle); // on c's behalf
    }
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
    constexpr uint64_t kCapacity = 1024, kImbalancePct = 117; // SCHED_CAPACITY_SCALE; an MC domain's
    uint64_t sumUtil = 0;
    for (CpuId c = 0; c < cfg_.cpus; ++c)
        sumUtil += std::min<uint64_t>(rqs_[size_t(c)].cfsUtil.utilAvg, kCapacity);
    const uint64_t llcWeight = uint64_t(cfg_.cpus);
    const uint64_t x = sumUtil / llcWeight;
    const uint64_t tmp = std::min(x * x * kImbalancePct * kImbalancePct / (10000 * kCapacity), kCapacity);
    nrIdleScan_ = int((kCapacity - tmp) * llcWeight / kCapacity);
}

} // namespace sched
