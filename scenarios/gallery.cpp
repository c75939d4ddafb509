// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenarios/gallery.h"

namespace scen {

const std::vector<GalleryGroup>& galleryGroups() {
    static const std::vector<GalleryGroup> groups{
        {"Preemption models",
         "When does a woken task get the CPU? none, voluntary, full and lazy, and the two need-resched bits.",
         {"kernel-hogs-waker", "preempt-switch", "rt-over-fair", "why-none-went", "vhost-kworker-lazy",
          "who-pays-the-wait"}},
        {"EEVDF basics",
         "Virtual time, lag and deadlines: how EEVDF shares one CPU and picks the next task.",
         {"fair-pair", "eligibility-and-lag", "eevdf-tree", "pipe-pingpong"}},
        {"Nice and weight",
         "A task's weight (sched_prio_to_weight[]) sets its share of the CPU.",
         {"nice-pair", "nice-ladder"}},
        {"Slices",
         "A task's slice sets its deadline: shorter slices wait less and preempt sooner.",
         {"slice-and-deadline", "preempt-short", "short-slice-wakeup", "hrtick-by-default", "rseq-lock"}},
        {"Locks",
         "Kernel mutexes: a contender spins while the owner runs and sleeps when it does not; a waiter "
         "behind a low-weight owner waits for it (priority inversion) - unless proxy execution lends it the "
         "waiter's slice, or a real-time waiter's class.",
         {"mutex-spin", "priority-inversion", "priority-inversion-proxy", "priority-inversion-rt",
          "priority-inversion-smp"}},
        {"Classes and balancing",
         "SCHED_FIFO beside fair tasks, the fair server that keeps them alive, and tasks spread over CPUs.",
         {"rt-hog-fair-server", "balance-8-on-4"}},
        {"The seeds' experiments",
         "The kernel mailing-list posts SchedScope grew from, at their quick size; schedscope-cli experiment "
         "prints their tables in full.",
         {"experiments/preempt-short", "experiments/preempt-auto-none-messaging",
          "experiments/preempt-auto-full-messaging", "experiments/preempt-auto-none-kernbench",
          "experiments/preempt-auto-full-kernbench"}},
        {"The real machine",
         "Workloads traced on a 2-CPU Linux 6.18.44 machine: open the trace (File > Open trace) beside them "
         "and "
         "compare.",
         {"real-machine/hackbench-g4-l2000-threads", "real-machine/cyclictest-i1000-l5000",
          "real-machine/massive_intr-8x8ms-1ms"}},
        {"Engine benchmarks",
         "Large runs that measure the simulator itself (schedscope-cli bench).",
         {"bench-1cpu-100", "bench-1cpu-10000", "bench-64cpu-800", "benchmarks/messaging-g20-t-l5000"}},
    };
    return groups;
}

} // namespace scen
