// SPDX-License-Identifier: GPL-3.0-or-later
// The machine and kernel settings a run starts with; most can be changed live through
// Engine::apply(ParamChange).
#pragma once

#include "base/distribution.h"
#include "base/types.h"
#include "engine/arch.h"
#include "engine/kernel_rules.h"
#include "engine/sched_features.h"

#include <string>

namespace sched {

struct FixedCosts {
    Time contextSwitch = 2 * kNsPerUs; // charged to the incoming task, preemption disabled
    Time wakeup = 1 * kNsPerUs;        // try_to_wake_up() path, charged to the waker
    Time ipiLatency = 2 * kNsPerUs;    // resched IPI: send to handler entry on the target CPU
    Time timerIrq = 2 * kNsPerUs;      // hrtimer interrupt entry: expiry -> wakeup
    // From the wakeup to the idle CPU's switch: the rest of the interrupt, the idle state's exit
    // (C-state, a virtual machine's halt exit), tick_nohz_idle_exit(), schedule(). A distribution
    // on a real machine: drawn per exit from the CPU's own stream (CpuRq::idleExitRnd).
    Distribution idleExit = Distribution::fixed(5 * kNsPerUs);
    Time migration = 5 * kNsPerUs; // cache refill after a task changes CPU (charged on arrival)
    // What a newidle sched_balance_rq() of one small domain takes, as sched_balance_newidle()
    // measures it into max_newidle_lb_cost: only the avg_idle gate reads it (not charged).
    Time newidleBalance = 3 * kNsPerUs;
    Time timerSlack = 50 * kNsPerUs; // timer_slack_ns of fair tasks: hrtimer sleeps end this much late
    // A task's timed sleep (nanosleep(), clock_nanosleep()) arms an hrtimer that usually expires
    // first on its CPU, so hrtimer_start_range_ns() reprograms the clock event device
    // (hrtimer_reprogram() -> tick_program_event(); in a virtual machine a trapped TSC-deadline
    // write). Charged to the sleeping task before it blocks, on top of the op's own cost; none
    // by default (Engine::addProgram() folds it into the program's sleep ops).
    Time timerArm = 0;
    // Variable part of the timer interrupt's delivery (a virtual machine's timer emulation, C-state
    // exits): drawn per expiry from the sleeping task's random stream; none by default.
    Distribution timerJitter = Distribution::fixed(0);
};

struct SchedConfig {
    int cpus = 2;
    int hz = 250;
    KernelBuild build = KernelBuild::Dynamic;
    KernelProfile profile = KernelProfile::V6_18;
    PreemptModel preempt = PreemptModel::None;
    // Whether preempt was chosen (a scenario's machine.preempt, --preempt, the GUI) or is the
    // kernel's default (defaultModel()), which a change of kernel or architecture then follows.
    bool preemptChosen = false;
    ArchId arch = 0; // archs()[0], x86_64
    // The feature bits set by hand (FeatureSet::isSet()); the others are the kernel's defaults:
    // read them through feature().
    FeatureSet features;
    // Normalized base slice (before the log2(ncpus) scaling): 0.70 ms for 6.15+ / late 6.12.y,
    // 0.75 ms for early 6.12 (commit 2ae891b82695 "sched: Reduce the default slice to avoid tasks
    // getting an extra tick", v6.15, backported to 6.12-stable in May 2025). 0 = the profile's
    // default.
    Time normalizedBaseSlice = 0;
    // If > 0, the scaled sysctl value written directly (as /sys/kernel/debug/sched/base_slice_ns).
    Time baseSliceOverride = 0;
    int tunableScaling = 1;              // 0 none, 1 log (default), 2 linear
    Time migrationCost = 500 * kNsPerUs; // sysctl_sched_migration_cost: cache-hot window
    Time rrTimeslice = 100 * kNsPerMs;   // RR_TIMESLICE
    // The fair_server of each CPU (6.12+, /sys/kernel/debug/sched/fair_server/cpuN/): fair tasks
    // starved by RT ones get this much of every period; runtime 0 disables it.
    Time fairServerRuntime = 50 * kNsPerMs;
    Time fairServerPeriod = 1000 * kNsPerMs;
    // RT throttling before 6.12 (sched_rt_runtime_us / sched_rt_period_us): the RFC profile's.
    Time rtRuntime = 950 * kNsPerMs;
    Time rtPeriod = 1000 * kNsPerMs;
    FixedCosts costs;
    // debugfs rseq/slice_ext_nsec (7.0, e1d7f54900f1, 21c0e92d0681): how long an RSEQ time-slice
    // extension may defer a reschedule, 5 - 50 us; 0 = a kernel built without
    // CONFIG_RSEQ_SLICE_EXTENSION or booted with rseq_slice_ext=0.
    Time sliceExtNsec = 5 * kNsPerUs;
    static constexpr Time kSliceExtMin = 5 * kNsPerUs, kSliceExtMax = 50 * kNsPerUs;
    // CONFIG_SCHED_PROXY_EXEC built in and not turned off with sched_proxy_exec=0 (6.17,
    // 25c411fce735: no Kconfig default, depends on EXPERT, so off unless a scenario asks).
    bool proxyExec = false;
    // Whether the scenario puts tasks in task groups (a cgroup, or a session under autogroup): the
    // scenario reader sets it, so that a kernel whose group scheduling is not modelled (7.3's one
    // runqueue, groups-one-runqueue) refuses the scenario wherever its machine is checked.
    bool taskGroups = false;

    Time tickNsec() const { return (kNsPerSec + hz / 2) / hz; } // TICK_NSEC
    Time normalizedSlice() const;
    Time baseSlice() const; // sysctl_sched_base_slice (scaled)
    // Rules taken out of the profile, so that a test can look at one kernel change at a time
    // ("6.18.44 without the lag clamp"). Empty by default; no scenario key sets it.
    RuleSet rulesOff;
    // Whether this build and profile have a rule (kernel_rules.h), less rulesOff.
    bool has(Rule r) const { return kernelRules(build, profile)[size_t(r)] && !rulesOff[size_t(r)]; }
    bool lazyAvailable() const { return has(Rule::LazyModel) && archInfo(arch).preemptLazy; }
    // RSEQ_SLICE_EXTENSION needs GENERIC_ENTRY and HAVE_GENERIC_TIF_BITS (arch.h).
    bool sliceExtAvailable() const {
        return sliceExtNsec > 0 && has(Rule::RseqSliceExt) && archInfo(arch).genericEntryTifBits;
    }
    // Empty if this kernel, build and architecture boot with model m; else why not.
    std::string whyNoModel(PreemptModel m) const;
    // The model the kernel's Kconfig defaults to on this architecture.
    PreemptModel defaultModel() const;
    // A scheduler feature as the kernel has it: set by hand, or this kernel's default.
    // Only HRTICK's default depends on the kernel; the others' unset bits are FeatureSet's own
    // defaults. One branch on the engine's hot paths.
    bool feature(Feature f) const {
        return f != Feature::HrTick || features.isSet(f) ? features[f] : featureDefault(f);
    }
    bool featureDefault(Feature f) const;
    // Whether the kernel has this feature bit at all (NI_RANDOM came with 6.18.5, NI_RATE with 7.1,
    // PICK_BUDDY with 6.14, PLACE_REL_DEADLINE with 6.12).
    bool featureExists(Feature f) const {
        return f == Feature::NiRandom           ? has(Rule::ProportionalNewidle)
               : f == Feature::NiRate           ? has(Rule::NewidleRate)
               : f == Feature::PickBuddy        ? has(Rule::PickBuddy)
               : f == Feature::PlaceRelDeadline ? has(Rule::PlaceRelDeadline)
                                                : true;
    }
    // Which of the two guards against RT starvation the kernel has: the fair_server from 6.12
    // (Rule::FairServer), RT throttling before it and in the PREEMPT_AUTO RFC (a v6.10-era series).
    bool fairServer() const { return has(Rule::FairServer) && fairServerRuntime > 0; }
    bool rtThrottling() const { return !has(Rule::FairServer) && rtRuntime < rtPeriod; }
    // Whether a mutex waiter stays queued as a donor (proxy_exec.cpp).
    bool proxyExecOn() const { return proxyExec && has(Rule::ProxyExec); }
    // Empty if consistent, else a sentence naming what is wrong and what would be accepted.
    std::string validate() const;
};

std::string_view kernelBuildName(KernelBuild b);
// The name --kernel and a scenario's "kernel" use for this build and profile ("6.18.44", "auto-rfc").
std::string_view kernelSpecName(KernelBuild b, KernelProfile p);
std::string_view kernelProfileName(KernelProfile p);
// A name from kernelSpecs(): "6.18", "6.18.44", "6.12", "auto-rfc" (PREEMPT_AUTO on the 6.18 rules).
bool parseKernelSpec(std::string_view s, KernelBuild& build, KernelProfile& profile);

} // namespace sched
