// SPDX-License-Identifier: GPL-3.0-or-later
// The kernels the engine models, as data. A kernel profile is a set of rules: each rule is one
// behaviour of kernel/sched/ that some kernels have and others do not, named for what it does,
// with the commit that brought it. The engine asks SchedConfig::has(Rule) where versions differ
// instead of comparing version numbers, so a new kernel is a new row.
#pragma once

#include "base/types.h"

#include <bitset>
#include <span>
#include <string>
#include <string_view>

namespace sched {

enum class Rule : uint8_t {
    // v6.7 .. v6.12: what the 6.6-queue profile (the seed's PREEMPT_SHORT kernel) does not have
    ReweightEevdf,    // reweight_entity() keeps a queued entity's lag (6.7)
    PreemptShortFull, // PREEMPT_SHORT as merged: also when curr is ineligible, and at the tick
    PlaceRelDeadline, // PLACE_REL_DEADLINE: a migrating entity keeps its relative deadline
    FairServer,       // the fair_server (dl_server) guards fair tasks; before, RT throttling
    // v6.12 .. v6.18.0
    GroupMinSlice,         // a group entity's slice is the shortest slice queued below it (6.12)
    LazyModel,             // the PREEMPT_LAZY model exists
    PlaceLagNonZero,       // place_entity() skips the lag inflation for a zero vlag
    RelDeadlineAlways,     // a migrated entity's relative deadline is restored whatever the feature bit
    ReweightPlace,         // reweight_entity() scales the lag and places the entity again
    EmptyGroupKeepsWeight, // update_cfs_group() leaves an emptied group's entity alone
    IneligibleOnDst,       // detach_tasks() keeps an ineligible task off a busy destination
    PickBuddy,             // PICK_BUDDY: the buddy is picked whatever NEXT_BUDDY says (6.14)
    BaseSlice700us,        // the normalized base slice is 0.70 ms, not 0.75 ms
    ProtectSliceVprot,     // slice protection in se->vprot; update_curr() reschedules lazily
    LazyFairServerStop,    // the fair_server stops only when picked with nothing to serve
    NewidleCostBump,       // a failed newidle balance inflates max_newidle_lb_cost (reverted in 6.18.y)
    // v6.18.0 .. v6.18.44 (the stable series; docs/kernel-6.18.y.md)
    YieldForfeit,               // sched_yield() forfeits the rest of the request
    ZeroVruntime,               // keys relative to zero_vruntime (= V), not min_vruntime
    ProportionalNewidle,        // NI_RANDOM: newidle balance tried in proportion to its success
    DlServerClearsDeferRunning, // a new server period re-arms the deferral ("stuck" dl_server)
    ProtectAtPickOnly,          // RUN_TO_PARITY protection armed at pick, not by a sched_change
    ReweightVprot,              // reweight_entity() rescales the protection like the deadline
    LagClampMaxSlice,           // update_entity_lag() clamps to the largest queued slice + a tick
    DlServerRevisedWakeup,      // a fair_server start inside its period keeps the deadline
    WakeupPreemptRework,        // the wakeup check as pick_next_entity(); fork wakeups do not preempt
    ForkClearsRelDeadline,      // a forked entity starts without a stale relative deadline
    DlServerRevisedOnlyRunning, // ... that revised rule only for a server that was running
    // 7.0 and after (docs/kernels.md)
    RestrictPreemptModels, // none and voluntary gone where lazy preemption exists (7.0)
    DlServerIdleWait,      // idle time exhausts the fair_server once, then its timer stops it (6.19)
    VlagVprotSplit,        // se->vprot no longer shares storage with se->vlag (7.0, 6.18.45)
    ReweightRescale,       // reweight_entity() keeps V and rescales, no re-placement (7.1, 6.18.45)
    RseqSliceExt,          // a user task may ask, through rseq, for a time-slice extension (7.0)
    HrtickRearm,           // an hrtick re-arms unless need_resched(): a lazy request turns eager (7.0)
    HrtickDefault,         // HRTICK on by default with CONFIG_HRTIMER_REARM_DEFERRED (7.1)
    HrtickHard,            // the hrtick reschedules eagerly, and does not re-arm (7.1)
    ShortClearsBuddy,      // a shorter-slice preemption clears curr's buddy; no buddy without protect (7.1)
    DelayedLagKeep,        // a delayed sleeper's negative lag never grows; re-placed when clamped (7.1)
    NewidleRate,           // NI_RATE: the newidle ratio, capped at 1024, grows with the tries' spacing (7.1)
    // 7.3: Vincent Guittot's short-slice wakeup series
    ShortProtectIneligible, // a shorter queued slice protects curr until it is no longer eligible
    ProtectUpdateAlways,    // a wakee that does not preempt still shrinks curr's protection
    ShortEligiblePreempts,  // an eligible shorter-slice wakee preempts though another would be picked
    ShortDespiteResched,    // with PREEMPT_SHORT a pending reschedule does not end the wakeup check
    ProtectFromAverage,     // the shrunk protection counts from min(vruntime, V)
    ShortBuddy,             // a shorter-slice wakee that preempts becomes the next buddy
    DelayedNoPreempt,       // a delayed wakee never preempts, whatever its slice
    GroupsOneRunqueue,      // task groups scheduled on the CPU's one runqueue (not modelled: refused)
    // proxy execution (CONFIG_SCHED_PROXY_EXEC; SchedConfig::proxyExec says whether it is built in)
    ProxyExec,           // a mutex waiter stays queued and lends its slice to the owner (6.17)
    ProxyDonorMigration, // a donor whose owner is on another CPU migrates there, and is sent back (7.1)
    ProxyNoTagCurr,  // the owner that runs for a donor is not requeued (proxy_tag_curr() gone; 7.1, 7.0.y)
    RseqV2SliceExt,  // slice extensions only for an rseq area larger than 32 bytes (the v2 ABI; 7.0.10, 7.1)
    ProxyTtwuReturn, // return migration in try_to_wake_up(), the lock handed to the donor (7.2; not modelled)
    Count
};
constexpr size_t kRuleCount = size_t(Rule::Count);
using RuleSet = std::bitset<kRuleCount>;

struct RuleInfo {
    Rule rule;               // the row's own rule (the table is indexed by it)
    std::string_view name;   // short kebab-case name, as printed
    std::string_view since;  // the first kernel with it ("6.18.5": a stable backport)
    std::string_view commit; // upstream commit id and title (the stable id where known)
    std::string_view where;  // the kernel function it changes
    std::string_view what;   // one sentence: what a run shows differently
    std::string_view engine; // how the engine follows it, where that is not simply "as described"
};
const RuleInfo& ruleInfo(Rule r);
// The rule's commit id alone ("7dadeaa6e851"), without its title.
inline std::string_view commitId(const RuleInfo& ri) {
    return ri.commit.substr(0, ri.commit.find(' '));
}

// A kernel a scenario or --kernel can name.
struct KernelSpec {
    std::string_view name; // "6.18.44"
    KernelBuild build;
    KernelProfile profile;
    std::string_view title; // one line for lists and menus
    RuleSet rules;
    // What this kernel changed that the profile does not (yet) model, with the commits: printed in
    // docs/kernels.md so that a profile never claims more than it has.
    std::string_view notModelled = {};
};
std::span<const KernelSpec> kernelSpecs();
const KernelSpec* findKernelSpec(std::string_view name);
const KernelSpec& kernelSpecOf(KernelBuild b, KernelProfile p);
const RuleSet& kernelRules(KernelBuild b, KernelProfile p); // kernelSpecOf(b, p).rules
// "6.12, 6.18, 6.18.44, ...": for error messages and help.
std::string acceptedKernelNames();

} // namespace sched
