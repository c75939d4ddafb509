// SPDX-License-Identifier: GPL-3.0-or-later
// Load balancing and migration (kernel/sched/fair.c): detach_task() / attach_task(),
// sched_balance_newidle() when a CPU goes idle, the periodic sched_balance_rq() at the tick, and
// NOHZ idle balancing kicked from a busy CPU's tick. What is simplified against the kernel (one
// scheduling domain, runnable counts instead of PELT loads) is listed in docs/design.md.
#include "engine/engine.h"

#include <algorithm>

namespace sched {

// detach_task() + attach_task(): the lag and relative deadline travel, the vruntime does not.
void Engine::migrateQueued(TaskId p, CpuId from, CpuId to) {
    Task& t = tasks_[size_t(p)];
    dequeueEntity(from, p, false, false);
    addRunning(from, -1);
    rqs_[size_t(from)].runnableLoad -= taskLoad(p);
    trace_.migrations.push(now_, p, uint16_t(from), uint16_t(to));
    t.nrMigrations++;
    t.overhead += cfg_.costs.migration;
    t.cpu = to;
    enqueueEntity(to, p, false, false);
    addRunning(to, 1);
    rqs_[size_t(to)].runnableLoad += taskLoad(p);
    wakeupPreempt(to, p, false);
}

// detach_tasks(): scan at most 32 queued fair tasks of src (sysctl_sched_nr_migrate), skipping
// delayed sleepers, tasks not allowed on dst and cache-hot ones (ran within migration_cost).
bool Engine::balanceFrom(CpuId dst, CpuId src, int maxMoves, bool ignoreHot) {
    std::vector<TaskId> moves;
    int scanned = 0;
    rqs_[size_t(src)].cfs.timeline.forEachInOrder(ents_, [&](int32_t id) {
        if (++scanned > 32 || int(moves.size()) >= maxMoves) return false;
        const Task& t = tasks_[size_t(id)];
        if (ents_[size_t(id)].schedDelayed || !allowed(t, dst)) return true;
        if (!ignoreHot && now_ - t.lastRanAt < cfg_.migrationCost) return true; // task_hot()
        moves.push_back(id);
        return true;
    });
    for (TaskId id : moves)
        migrateQueued(id, src, dst);
    return !moves.empty();
}

static CpuId busiestCpu(const std::vector<CpuRq>& rqs, CpuId self) {
    CpuId best = -1;
    for (CpuId c = 0; c < CpuId(rqs.size()); ++c) {
        if (c == self) continue;
        if (best < 0 || rqs[size_t(c)].nrRunning > rqs[size_t(best)].nrRunning) best = c;
    }
    return best;
}

// sched_balance_newidle(): skipped when this CPU's average idle period is shorter than the
// migration cost; otherwise pull one task from the busiest overloaded CPU.
bool Engine::newidleBalance(CpuId c) {
    if (cfg_.cpus < 2 || rqs_[size_t(c)].avgIdle < cfg_.migrationCost) return false;
    const CpuId busiest = busiestCpu(rqs_, c);
    if (busiest < 0 || rqs_[size_t(busiest)].nrRunning < 2) return false;
    return balanceFrom(c, busiest, 1, false);
}

// sched_balance_domains() for one flat domain: pull half the difference in runnable tasks from
// the busiest CPU; the interval doubles while balanced and is stretched x16 while busy.
void Engine::periodicBalance(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    const Time ms = kNsPerMs;
    const Time minInterval = Time(cfg_.cpus) * ms, maxInterval = 2 * minInterval;
    if (rq.balanceInterval == 0) rq.balanceInterval = minInterval;
    const CpuId busiest = cfg_.cpus > 1 ? busiestCpu(rqs_, c) : -1;
    const int imbalance = busiest < 0 ? 0 : int(rqs_[size_t(busiest)].nrRunning) - int(rq.nrRunning);
    if (imbalance >= 2) {
        if (balanceFrom(c, busiest, imbalance / 2, rq.balanceFailed > 1)) {
            rq.balanceFailed = 0;
            rq.balanceInterval = minInterval;
        } else {
            rq.balanceFailed++;
        }
    } else {
        rq.balanceInterval = std::min(rq.balanceInterval * 2, maxInterval);
    }
    const Time tick = cfg_.tickNsec();
    Time interval = rq.balanceInterval;
    if (rqs_[size_t(c)].curr >= 0) interval = interval * 16 - tick; // busy_factor, minus a jiffy
    interval = std::clamp(interval, tick, Time(cfg_.hz) * cfg_.cpus / 10 * tick);
    rqs_[size_t(c)].nextBalance = now_ + interval;
}

// nohz_balancer_kick(): a busy CPU with more than one runnable task has idle CPUs balance on
// behalf of themselves (their tick is stopped), rate-limited like nohz.next_balance.
void Engine::nohzKick(CpuId busy) {
    if (cfg_.cpus < 2 || rqs_[size_t(busy)].nrRunning < 2 || now_ < nohzNextBalance_) return;
    nohzNextBalance_ = now_ + Time(cfg_.cpus) * kNsPerMs;
    for (CpuId c = 0; c < cfg_.cpus; ++c) {
        if (rqs_[size_t(c)].nrRunning != 0) continue;
        const CpuId busiest = busiestCpu(rqs_, c);
        if (busiest < 0) continue;
        const int imbalance = int(rqs_[size_t(busiest)].nrRunning);
        if (imbalance >= 2) balanceFrom(c, busiest, imbalance / 2, rqs_[size_t(c)].balanceFailed > 1);
    }
}

} // namespace sched
