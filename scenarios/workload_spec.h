// SPDX-License-Identifier: GPL-3.0-or-later
// A workload of a scenario as its tool's command line gave it (massive_intr, cyclictest): the
// parsed parameters and where its tasks are, so that the tool's own output can be printed after
// a run. Built by addWorkload() (workload.h).
#pragma once

#include "types.h"

#include <string>
#include <variant>

namespace scen {

struct MassiveIntrArgs {
    int nproc = 0;
    sched::Time runtime = 0, run = 8 * sched::kNsPerMs, sleep = sched::kNsPerMs;
};

struct CyclictestArgs {
    int threads = 1;
    sched::Time interval = sched::kNsPerMs, distance = 500 * sched::kNsPerUs;
    int64_t loops = 0;       // -l: samples per thread (0 = until -D or the scenario's end)
    sched::Time duration = 0; // -D
    int priority = -1;        // -p: SCHED_FIFO priority; -1 = SCHED_OTHER
    bool smp = false;         // -S: one thread per CPU, pinned
    bool quiet = false;       // -q
    int histogram = 0;        // -h US: histogram buckets of 1 us
};

// perf bench sched messaging (-g -l -t -p) and rt-tests hackbench (-g -l -f -s -T -P -p).
struct MessagingArgs {
    bool perf = true;  // the front end: perf bench's output, or hackbench's
    int groups = 10;
    int64_t loops = 100;
    int fds = 20;      // receivers (and senders) per group
    int datasize = 100;
    bool threads = false;
    bool pipe = false;
};

struct Workload {
    std::string tool, args;
    std::string comm;             // the tool's comm (its tasks carry it, threads included)
    std::variant<MassiveIntrArgs, CyclictestArgs, MessagingArgs> params;
    size_t firstGroup = 0, groups = 0; // its entries in Scenario::tasks
    sched::TaskId firstTask = 0;       // the engine's id of its first task (scenario tasks are spawned in order)
};

} // namespace scen
