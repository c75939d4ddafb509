// SPDX-License-Identifier: GPL-3.0-or-later
// The newidle fields of a CPU's sched_domain (struct sched_domain in include/linux/sched/topology.h)
// and the kernel's arithmetic on them (kernel/sched/fair.c): max_newidle_lb_cost, which gates
// sched_balance_newidle() against rq->avg_idle, and the success statistics that proportional
// newidle balancing (NI_RANDOM, 33cf66d88306, v6.19 / 6.18.5) rolls its die against, and from 7.1
// their rate (NI_RATE, 9fe89f022c05: a domain that goes newidle rarely balances every time). The engine
// has one domain per CPU (docs/design.md), so a CPU holds one of these.
#pragma once

#include "base/rng.h"
#include "base/types.h"

#include <algorithm>

namespace sched {

struct NewidleDomain {
    Time maxNewidleLbCost = 0; // sd->max_newidle_lb_cost (sd_init(): 0)
    Time lastDecay = 0;        // sd->last_decay_max_lb_cost
    // sd_init() (33cf66d88306): "50% success rate" to begin with.
    uint32_t call = 512, success = 256, ratio = 512;
    // sd->newidle_stamp (9fe89f022c05): sched_clock() when the window began; sd_init() sets it when
    // the domains are built, which is the run's start here.
    Time stamp = 0;
    Rng rnd; // this CPU's sched_rnd_state: sched_rng() = prandom_u32_state()

    // update_newidle_stats(): every 512 counted tries (the counts start at 512 and halve at 1024)
    // the ratio becomes the weighted successes per 1024. 7.1 (rate: 9fe89f022c05) caps it at 1024
    // and, with NI_RATE, adds one per 2^22 ns (~4.19 ms) the window lasted: 512 tries in 4 s or
    // more give 1024 whatever the successes, 512 in half a second about 120 more.
    void updateStats(uint32_t succeeded, Time now, bool rate, bool niRate) {
        call++;
        success += succeeded;
        if (call >= 1024) {
            if (rate) {
                const Time delta = std::max<Time>(0, now - stamp);
                stamp = now;
                const uint64_t r = (niRate ? uint64_t(delta) >> 22 : 0) + success;
                ratio = uint32_t(std::min<uint64_t>(1024, r));
            } else {
                ratio = success; // before 7.1 not capped: a success counts up to 1024
            }
            call /= 2;
            success /= 2;
        }
    }

    // update_newidle_cost(sd, cost[, success]): a new maximum is taken (capped at migration_cost
    // + 200 ns while the 6.17 bump is in, so that it cannot grow without bound); otherwise the
    // maximum decays by 253/256 at most once a second. cost == 0 is the periodic balance's decay-
    // only call, which the statistics do not count.
    void updateCost(Time now, Time cost, bool capAtMigrationCost, Time migrationCost) {
        if (cost > maxNewidleLbCost) {
            maxNewidleLbCost = capAtMigrationCost ? std::min(cost, migrationCost + 200) : cost;
            lastDecay = now;
        } else if (now > lastDecay + kNsPerSec) { // time_after(jiffies, last_decay + HZ)
            maxNewidleLbCost = maxNewidleLbCost * 253 / 256;
            lastDecay = now;
        }
    }

    friend bool operator==(const NewidleDomain&, const NewidleDomain&) = default;
};

} // namespace sched
