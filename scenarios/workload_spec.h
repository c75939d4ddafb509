// SPDX-License-Identifier: GPL-3.0-or-later
// A workload of a scenario as its tool's command line gave it (massive_intr, cyclictest): the
// parsed parameters and where its tasks are, so that the tool's own output can be printed after
// a run. Built by addWorkload() (workload.h).
#pragma once

#include "base/types.h"

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
    int64_t loops = 0;        // -l: samples per thread (0 = until -D or the scenario's end)
    sched::Time duration = 0; // -D
    int priority = -1;        // -p: SCHED_FIFO priority; -1 = SCHED_OTHER
    bool smp = false;         // -S: one thread per CPU, pinned
    bool quiet = false;       // -q
    int histogram = 0;        // -h US: histogram buckets of 1 us
    // The rt-tests release (major * 100 + minor; 0: the current one). Releases before 2.5 pin
    // every measuring thread without -a or -S too (cyclictest.c below).
    int release = 0;
};

// perf bench sched messaging (-g -l -t -p) and rt-tests hackbench (-g -l -f -s -T -P -p).
struct MessagingArgs {
    bool perf = true; // the front end: perf bench's output, or hackbench's
    int groups = 10;
    int64_t loops = 100;
    int fds = 20; // receivers (and senders) per group
    int datasize = 100;
    bool threads = false;
    bool pipe = false;
};

// kernbench: one load level, `make -j N` (0 = no limit) over OBJECTS compile jobs.
struct KernbenchArgs {
    int jobs = 1;
    int objects = 2400;
};

// Per-CPU kernel threads: wake-ups per second per CPU and the mean run.
struct KthreadsArgs {
    int rate = 10;
    sched::Time run = 20 * sched::kNsPerUs;
};

// The desktop background load (Chromium playing a video).
struct BrowserArgs {
    int fps = 24;
};

// schbench (Chris Mason): -m message threads, -t workers each, -r runtime, -s usleep, -n passes
// of a -F KB matrix multiply per request, -i reporting interval.
struct SchbenchArgs {
    int messageThreads = 1, workers = 0; // 0: ceil(cpus / messageThreads)
    sched::Time runtime = 30 * sched::kNsPerSec, sleep = 100 * sched::kNsPerUs,
                interval = 10 * sched::kNsPerSec;
    int operations = 5, footprintKb = 256;
};

// An rt-app JSON file read into the scenario.
struct RtAppArgs {
    std::string file;
    sched::Time duration = 0;  // global.duration; 0 = -1 (until the tasks end)
    bool loopsForever = false; // some task loops for ever
};

// GNU time's fields for make and its waited-for descendants, as kernbench averages them.
struct KernbenchNumbers {
    double elapsed = 0, user = 0, system = 0, percentCpu = 0, involuntary = 0, voluntary = 0;
    bool finished = false;
};

struct Workload {
    std::string tool, args;
    int release = 0;  // the tool's release the model follows (major * 100 + minor); 0: the current one
    std::string comm; // the tool's comm (its tasks carry it, threads included)
    std::variant<MassiveIntrArgs, CyclictestArgs, MessagingArgs, KernbenchArgs, KthreadsArgs, BrowserArgs,
                 RtAppArgs, SchbenchArgs>
        params;
    size_t firstGroup = 0, groups = 0; // its entries in Scenario::tasks
    int taskCount = 0;                 // tasks of those entries (forked ones come later)
    sched::TaskId firstTask = 0; // the engine's id of its first task (scenario tasks are spawned in order)
    bool background = false; // runs for ever beside the measured workloads (kthreads): a run ends without it
};

} // namespace scen
