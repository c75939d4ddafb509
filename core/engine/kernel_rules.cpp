// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/kernel_rules.h"

#include <array>

namespace sched {

namespace {

// Ids are upstream commits; a 6.18.y rule names the stable release that first carried it.
constexpr std::array<RuleInfo, kRuleCount> kRules{{
    {Rule::ReweightEevdf,
     "reweight-eevdf",
     "6.7",
     "eab03c23c2a1 sched/eevdf: Fix vruntime adjustment on reweight",
     "reweight_entity(), reweight_eevdf()",
     "a queued entity whose weight changes keeps its lag and the distance of its deadline from V, both "
     "scaled by old / new weight; before, its vruntime stayed where it was and only its relative deadline "
     "was scaled, so a group entity's lag changed with every change of its share",
     {}},
    {Rule::PreemptShortFull,
     "preempt-short-full",
     "6.12",
     "85e511df3cec sched/eevdf: Allow shorter slices to wakeup-preempt (as merged; co-developed by Chunxin "
     "Zang)",
     "check_preempt_wakeup_fair() do_preempt_short(), update_curr() did_preempt_short()",
     "a shorter-slice, eligible wakee cancels curr's protection also when curr is no longer eligible, and "
     "a curr whose protection was cancelled is rescheduled at the tick once it is ineligible; the version "
     "in Peter Zijlstra's queue from autumn 2023 to the April 2024 RFC cancelled the protection only for a "
     "wakee with an earlier deadline than a still-protected curr, and did nothing at the tick",
     {}},
    {Rule::PlaceRelDeadline,
     "place-rel-deadline",
     "6.12",
     "82e9d0456e06 sched/fair: Avoid re-setting virtual deadline on 'migrations'",
     "dequeue_entity(), "
     "place_entity()",
     "PLACE_REL_DEADLINE exists: an entity dequeued other than to sleep (a migration, an attribute change) "
     "keeps its deadline relative to its vruntime and gets it back when placed",
     {}},
    {Rule::FairServer,
     "fair-server",
     "6.12",
     "557a6bfc662c sched/fair: Add trivial fair server (the dl_server series)",
     "dl_server, sched_rt_runtime",
     "the fair_server gives fair tasks 50 ms per 1 s under RT load; before, "
     "RT throttling stopped the RT class after 950 ms per 1 s",
     {}},
    {Rule::GroupMinSlice, "group-min-slice", "6.12",
     "aef6987d8954 sched/eevdf: Propagate min_slice up the cgroup hierarchy",
     "enqueue_task_fair(), dequeue_entities()",
     "a group entity's slice is the shortest slice queued in its group, so a short-slice task keeps its "
     "short request when it competes as its group",
     "written in June 2024 for the \"Complete EEVDF\" series: the autumn-2023 queue (6.6-queue) had group "
     "entities at the base slice"},
    {Rule::LazyModel,
     "lazy-model",
     "6.13",
     "7c70cb94d29c sched: Add Lazy preemption model",
     "preempt_model_lazy()",
     "the lazy preemption model exists; fair-class requests set TIF_NEED_RESCHED_LAZY",
     {}},
    {Rule::PlaceLagNonZero,
     "place-lag-nonzero",
     "6.13",
     "4423af84b297 sched/fair: optimize the PLACE_LAG when se->vlag is zero",
     "place_entity()",
     "an entity that left with zero lag is placed at V without the inflation arithmetic",
     {}},
    {Rule::RelDeadlineAlways,
     "rel-deadline-always",
     "6.13",
     "6d71a9c61604 sched/fair: Fix EEVDF entity placement bug causing scheduling lag",
     "place_entity()",
     "a migrated entity's relative deadline is restored even with PLACE_REL_DEADLINE off",
     {}},
    {Rule::ReweightPlace, "reweight-place", "6.13",
     "6d71a9c61604 sched/fair: Fix EEVDF entity placement bug causing scheduling lag", "reweight_entity()",
     "a queued entity whose weight changes keeps its scaled lag and is placed again (before: "
     "reweight_eevdf() "
     "rescaled it around V as it stood)",
     "acts on group entities only: a task's renice dequeues it first"},
    {Rule::EmptyGroupKeepsWeight,
     "empty-group-keeps-weight",
     "6.13",
     "66951e4860d3 sched/fair: Fix update_cfs_group() vs DELAY_DEQUEUE",
     "update_cfs_group()",
     "a group emptied on a CPU keeps its entity's weight, so a delayed group entity competes at the weight "
     "it had (before: reweighted to the empty group's share, MIN_SHARES with the engine's instantaneous "
     "load)",
     {}},
    {Rule::IneligibleOnDst,
     "ineligible-on-dst",
     "6.14",
     "873199d27bb2 sched/core: Prioritize migrating eligible tasks in sched_balance_rq()",
     "can_migrate_task()",
     "a task with negative lag is not moved to a busy CPU until balancing has failed",
     {}},
    {Rule::PickBuddy, "pick-buddy", "6.14",
     "2a77e4be12cb sched/fair: Untangle NEXT_BUDDY and pick_next_task()",
     "pick_next_entity(), dequeue_entities()",
     "the buddy (cfs_rq->next) is picked when eligible whatever NEXT_BUDDY says (PICK_BUDDY, on): a task "
     "that sleeps while its group stays queued makes the group the parent runqueue's buddy, so the group "
     "runs again before an earlier deadline elsewhere; before, only NEXT_BUDDY (off) let a buddy be picked",
     "next_buddy.cpp; 6.12.y took it as a backport, the 6.12 profile is 6.12.0 without it"},
    {Rule::BaseSlice700us,
     "base-slice-700us",
     "6.15",
     "2ae891b82695 sched: Reduce the default slice to avoid tasks getting an extra tick",
     "sysctl_sched_base_slice",
     "the normalized base slice is 0.70 ms (0.75 before)",
     {}},
    {Rule::ProtectSliceVprot,
     "protect-slice-vprot",
     "6.17",
     "74eec63661d4 sched/fair: Fix NO_RUN_TO_PARITY case (with 9de74a9850b9, 052c3d87c82e, 3a0baa8e6c57, "
     "0b9ca2dcabc3)",
     "set_next_entity(), update_curr(), check_preempt_wakeup_fair()",
     "protection lasts to se->vprot (at most the shortest queued slice); its end asks for a lazy reschedule; "
     "a shorter-slice wakee is picked without protection",
     {}},
    {Rule::LazyFairServerStop,
     "lazy-fair-server-stop",
     "6.17",
     "cccb45d7c429 sched/deadline: Less agressive dl_server handling",
     "dequeue_entities(), fair_server_pick_task()",
     "the fair_server is stopped only when picked with no fair task, not when the class empties",
     {}},
    {Rule::NewidleCostBump,
     "newidle-cost-bump",
     "6.17",
     "155213a2aed4 sched/fair: Bump sd->max_newidle_lb_cost when newidle balance fails",
     "sched_balance_newidle(), update_newidle_cost()",
     "a newidle balance that pulls nothing raises the domain's cost x1.5 (to migration_cost + 200 ns), so a "
     "CPU "
     "whose idle periods are short stops newidle balancing; reverted by d206fbad9328 in 6.18.y",
     {}},
    {Rule::YieldForfeit,
     "yield-forfeit",
     "6.18.2",
     "79104becf42b sched/fair: Forfeit vruntime on yield",
     "yield_task_fair()",
     "an eligible yielder's vruntime jumps to its deadline; before, only its deadline moved on",
     {}},
    {Rule::ZeroVruntime, "zero-vruntime", "6.18.4",
     "79f3f9bedd14 sched/eevdf: Fix min_vruntime vs avg_vruntime; b3d99f43c72b (6.18.17), 1319ea57529e "
     "(6.18.22)",
     "avg_vruntime(), entity_key()", "entity keys are taken against V itself, so they cannot overflow",
     "no decision changes: V and eligibility are the same integers from either base (tst_kernel_6_18_44); "
     "the engine keeps min_vruntime"},
    {Rule::ProportionalNewidle, "proportional-newidle", "6.18.5",
     "33cf66d88306 sched/fair: Proportional newidle balance (stable 98a26893fad4)", "sched_balance_newidle()",
     "NI_RANDOM: a domain is balanced on newidle with chance (1 + newidle_ratio) / 1024, its successes per "
     "1024 tries",
     "one domain per CPU; each CPU's die is its own seeded stream"},
    {Rule::DlServerClearsDeferRunning,
     "dl-server-clears-defer-running",
     "6.18.9",
     "115135422562 sched/deadline: Fix 'stuck' dl_server",
     "update_dl_entity()",
     "a stopped fair_server that starts in a new period is deferred again instead of running at once",
     {}},
    {Rule::ProtectAtPickOnly,
     "protect-at-pick-only",
     "6.18.17",
     "bcd74b2ffdd0 sched/fair: Only set slice protection at pick time",
     "set_next_entity()",
     "a renice, slice or policy change of the running task ends its protection instead of re-arming it",
     {}},
    {Rule::ReweightVprot, "reweight-vprot", "6.18.17",
     "ff38424030f9 sched/eevdf: Update se->vprot in reweight_entity()", "reweight_entity()",
     "reweighting the running group entity keeps its slice protection, scaled like the deadline (before, "
     "update_entity_lag() overwrote se->vprot, which shares its storage with se->vlag: protection ended)",
     "only group entities are reweighted while queued (a task's renice dequeues it first)"},
    {Rule::LagClampMaxSlice,
     "lag-clamp-max-slice",
     "6.18.17",
     "6e3c0a4e1ad1 sched/fair: Fix lag clamp",
     "update_entity_lag()",
     "lag is clamped to the largest queued slice plus a tick, not to twice the entity's own slice",
     {}},
    {Rule::DlServerRevisedWakeup,
     "dl-server-revised-wakeup",
     "6.18.24",
     "14a857056466 sched/deadline: Use revised wakeup rule for dl_server",
     "update_dl_entity()",
     "a fair_server started before its deadline with too much budget left keeps the deadline and gets "
     "runtime = density x laxity, instead of a new period",
     {}},
    {Rule::WakeupPreemptRework, "wakeup-preempt-rework", "6.18.33",
     "e837456fdca8 sched/fair: Reimplement NEXT_BUDDY to align with EEVDF goals; 15257cc2f905 Revert force "
     "wakeup preemption; ac8e69e69363, 9f6d929ee2c6 Fix wakeup_preempt_fair()",
     "check_preempt_wakeup_fair()",
     "fork wakeups and delayed wakees do not preempt; a delayed sleeper met by the check is dequeued; a "
     "wakee that is not picked shrinks curr's protection to the shortest slice",
     "the buddy is picked inside __pick_eevdf(), so the wakeup check sees it too (next_buddy.cpp); with "
     "NEXT_BUDDY on a wakee becomes the buddy only if its deadline is earlier than the buddy's, and a "
     "WF_SYNC wakeup that made a new buddy preempts only after the waker ran migration_cost"},
    {Rule::ForkClearsRelDeadline, "fork-clears-rel-deadline", "6.18.33",
     "3da56dc063cd sched/fair: Clear rel_deadline when initializing forked entities", "__sched_fork()",
     "a forked task never starts with its parent's relative deadline",
     "no effect: the engine's new entities start without one in every profile"},
    {Rule::DlServerRevisedOnlyRunning, "dl-server-revised-only-running", "6.18.44",
     "1842bf97af10 sched/deadline: Use revised wakeup rule only for running dl_server", "update_dl_entity()",
     "the revised rule applies only to a server that was running (dl_defer_running); others are deferred",
     "the hunk, read in the stable queue's copy: update_dl_entity() takes the revised rule for a deferred "
     "server only if dl_defer && dl_defer_running. Mainline took it in 7.2 (7.2-rc7), after 7.0 and 7.1: "
     "the 6.18.y series had it first, and the stable queue holds it for 7.1.y (the 7.1 profile is 7.1.0)"},
    {Rule::RestrictPreemptModels, "restrict-preempt-models", "7.0",
     "7dadeaa6e851 sched: Further restrict the preemption modes",
     "kernel/Kconfig.preempt, sched_dynamic_mode()",
     "where the architecture has lazy preemption (x86_64, arm64, powerpc, riscv, s390, loongarch) only full "
     "and lazy remain and lazy is the default: preempt=none and voluntary are refused at boot; voluntary "
     "stays where there is no lazy preemption, none only where the kernel cannot be preempted at all",
     "machine.arch chooses the architecture (x86_64 by default); a scenario that names no model gets the "
     "kernel's default"},
    {Rule::DlServerIdleWait, "dl-server-idle-wait", "7.0",
     "f5a538c07df2 sched/deadline: Fix dl_server stop condition; e636ffb9e31b Fix dl_server time accounting; "
     "ca1e8eede4fc Fix server stopping with runnable tasks (all 6.19)",
     "update_curr_dl_se(), dl_server_timer(), dl_server_start(), update_curr_idle()",
     "idle time is charged to the fair_server through update_curr_dl_se(): when it uses up a deferred "
     "server's budget on an idle CPU, the server takes one new period marked idle (dl_defer_idle) and its "
     "zero-laxity timer stops it instead of queuing it, so an idle CPU is not woken to serve no one (6.18 "
     "queued the server there and set need_resched on the idle CPU); a fair task that arrives meanwhile "
     "clears the mark; and the timer charges the running task's time before it looks, so fair time got in "
     "the background just before zero laxity pushes it back instead of queuing the server",
     "idle_rq() without ttwu_pending (the engine's remote wakeups activate the task at once); the idle "
     "task's tick does not run (NO_HZ_IDLE), so idle time is charged when the CPU leaves idle and when the "
     "timer fires"},
    {Rule::VlagVprotSplit,
     "vlag-vprot-split",
     "7.0",
     "80390ead2080 sched/fair: Separate se->vlag from se->vprot (6.18.45: 4043e196dc88)",
     "struct sched_entity, set_next_entity(), reweight_entity()",
     "writing the lag no longer overwrites the running entity's protection: a renice, slice or policy "
     "change of the running task keeps the protection it had (6.18.17 - 6.18.44 ended it), and a "
     "reweight of a running group entity whose protection had run out leaves the stale se->vprot, which "
     "holds again if the re-placement puts the vruntime below it (the fix \"Keep expired protection "
     "expired across reweighting\" was under review in October 2026)",
     {}},
    {Rule::ReweightRescale, "reweight-rescale", "7.1",
     "101f3498b4bd sched/fair: Revert 6d71a9c61604 (\"Fix EEVDF entity placement bug causing scheduling "
     "lag\") (6.18.45: 62fefb817bb3)",
     "reweight_entity(), rescale_entity(), place_entity()",
     "a queued entity whose weight changes keeps V: its clamped lag, relative deadline and relative "
     "protection are scaled by old / new weight and it goes back at V - vlag, without place_entity() and "
     "its lag inflation; place_entity() restores a relative deadline only with PLACE_REL_DEADLINE again",
     "acts on group entities: a task's renice dequeues it first"},
    {Rule::RseqSliceExt, "rseq-slice-ext", "7.0",
     "dfb630f548a7 (rseq_grant_slice_extension(); the series merged for 7.0 with 0ac3b5c3dc45 the "
     "enforcement timer, dd0a04606937 the syscall entry work, 7ee58f98b59b the reset when scheduled, "
     "e1d7f54900f1 and 21c0e92d0681 the debugfs knob and its 5 us default)",
     "rseq_grant_slice_extension(), exit_to_user_mode_loop(), the rseq syscall entry work",
     "a user task that set its rseq slice_ctrl.request before a critical section keeps the CPU when an "
     "interrupt returns to user mode with a need-resched bit set: the bits are cleared and a timer of "
     "debugfs rseq/slice_ext_nsec (5 us by default, 5 - 50 us) armed; rseq_slice_yield() or any other "
     "system call ends the extension and reschedules, the timer's expiry or a second reschedule revokes "
     "it, and a move to another CPU clears the request",
     "the ops {\"slice_ext\": \"request\"} and {\"slice_ext\": \"yield\"}, machine.rseq_slice_ext "
     "(false: a kernel built without it); on x86_64, the one architecture checked to have "
     "GENERIC_ENTRY and HAVE_GENERIC_TIF_BITS"},
    {Rule::HrtickRearm, "hrtick-rearm", "7.0", "95a0155224a6 sched/fair: Limit hrtick work",
     "task_tick_fair()",
     "an hrtick (HRTICK on) does the accounting and, unless the eager need-resched bit is set, arms "
     "itself again through hrtick_start_fair(): under the lazy model the slice's end sets only the lazy "
     "bit, so a second hrtick 10 us later finds the slice overrun and reschedules eagerly — the lazy "
     "request does not wait for the next tick",
     "with HRTICK off, as 7.0 has it by default, nothing changes"},
    {Rule::HrtickDefault, "hrtick-default", "7.1",
     "9213aa4784cf sched: Default enable HRTICK when deferred rearming is enabled", "kernel/sched/features.h",
     "HRTICK and HRTICK_DL are on by default where CONFIG_HRTIMER_REARM_DEFERRED is set: a fair task's "
     "slice ends at an hrtimer, not at the next tick",
     "on x86_64, the one architecture checked to set CONFIG_HRTIMER_REARM_DEFERRED; HRTICK_DL changes "
     "nothing here: since the dl_server clean-up (ef90b5b37246, 6.12; with 3c97cdfe1758's "
     "hrtick_enabled_dl()) start_hrtick_dl() is armed from set_next_task_dl() for SCHED_DEADLINE tasks "
     "only, which the engine has none of - a task the fair_server picks is set through "
     "set_next_task_fair()"},
    {Rule::HrtickHard, "hrtick-hard", "7.1",
     "5d88e424ec1b sched/fair: Make hrtick resched hard; 558c18d3fbb6 sched/eevdf: Fix HRTICK duration",
     "entity_tick(), task_tick_fair()",
     "an hrtick asks for an eager reschedule, as the tick does (\"letting the hrtick do lazy preemption "
     "completely defeats the purpose\"), and no longer re-arms itself (hrtick-rearm is gone)",
     "558c18d3fbb6 also times the hrtick from the deadline, (deadline - vruntime) x weight / NICE_0_LOAD, "
     "where the engine keeps slice - ran; the same series' 97015376642f (hrtick_update() at enqueue only, "
     "when none is pending), 96d1610e0b20 (no hrtick_clear() at a switch) and c8cdb9b51640 (no re-arm "
     "within 5 us) are not modelled"},
    {Rule::ShortClearsBuddy, "short-clears-buddy", "7.1",
     "78cde54ea5f0 sched/eevdf: Clear buddies for preempt_short",
     "check_preempt_wakeup_fair() / wakeup_preempt_fair(), __pick_eevdf()",
     "a shorter-slice wakee that preempts clears curr's buddy with its protection, and the pick without "
     "protection (the shorter-slice check) does not take a buddy: a group left as its parent's buddy by a "
     "sleeping task no longer keeps a short-slice wakee of another group off the CPU",
     "offered to 7.0.y and 6.19.y (AUTOSEL, April 2026); not in the 6.18.y profiles"},
    {Rule::DelayedLagKeep, "delayed-lag-keep", "7.1",
     "059258b0d424 sched/fair: Prevent negative lag increase during delayed dequeue; c5cd6fd75b6a Fix the "
     "negative lag increase fix",
     "update_entity_lag(), dequeue_entity(), requeue_delayed_entity()",
     "a delayed sleeper's lag is taken when it is delayed and may then shrink but not grow more negative "
     "(vlag = max(V - v, the lag it was delayed with), at most 0 with DELAY_ZERO) when it is woken or "
     "finally dequeued; woken, it is placed again whenever that changed its lag (before, only a positive "
     "lag under DELAY_ZERO re-placed it)",
     "the code as mainline has it after both commits, read in context; which of the two brought the "
     "re-placement is not known (neither diff was found)"},
    {Rule::NewidleRate, "newidle-rate", "7.1",
     "9fe89f022c05 sched/fair: More complex proportional newidle balance",
     "update_newidle_stats(), sched_balance_newidle()",
     "every 512 counted newidle tries the success ratio is capped at 1024 and, with NI_RATE (on by "
     "default), raised by one per 2^22 ns the 512 tries took; a domain whose ratio is full balances on every "
     "newidle without rolling NI_RANDOM's die - a CPU that goes idle rarely (under ~120 counted tries a "
     "second) balances each time, however seldom it pulls",
     "sd->newidle_stamp starts at the run's start (sd_init() at boot in the kernel); one domain per CPU"},
    {Rule::ShortProtectIneligible, "short-protect-ineligible", "7.3",
     "0d1e7a2bab35 sched/eevdf: Speedup short slice task scheduling",
     "set_protect_slice(), ineligible_vruntime()",
     "with PREEMPT_SHORT, a task picked while a shorter slice is queued is protected until its vruntime "
     "passes the average of the others (ineligible_vruntime(): zero_vruntime + floor(sum_w_vruntime / "
     "sum_weight) + 1, curr out of the sums) or its deadline, whichever is first - no longer for one "
     "shortest slice of its own time",
     "from a line-by-line port of 7.3's fair.c (the C diff not read; Vincent Guittot's v2 used "
     "avg_vruntime(), which Peter Zijlstra objected to); aae2a33ea662, queued for 7.4, clamps it to the "
     "shortest slice again"},
    {Rule::ProtectUpdateAlways, "protect-update-always", "7.3",
     "7cd2ef17de5e sched/eevdf: Always update slice protection", "wakeup_preempt_fair()",
     "a wakee that cannot preempt - SCHED_IDLE against a normal curr or the reverse, SCHED_BATCH, a fork, "
     "a delayed entity - or that pick_eevdf() does not choose still shrinks curr's protection to the "
     "shortest queued slice (RUN_TO_PARITY); only a WF_SYNC buddy that waits for the waker's next "
     "schedule leaves it",
     "as the port of 7.3's fair.c has it (the C diff not read)"},
    {Rule::ShortEligiblePreempts, "short-eligible-preempts", "7.3",
     "ba0d3bf5f97b sched/eevdf: Cancel slice protection if short slice task is eligible",
     "wakeup_preempt_fair()",
     "a shorter-slice wakee that is eligible preempts curr even when pick_eevdf() would choose another "
     "task with an earlier deadline (before, only when it was the pick); every preemption cancels curr's "
     "protection",
     "as the port of 7.3's fair.c has it (the C diff not read); which commit made every preemption cancel "
     "the protection (7.2: only a shorter-slice one and a SCHED_IDLE curr) is not known: it goes with "
     "this rule here"},
    {Rule::ShortDespiteResched, "short-despite-resched", "7.3",
     "7ad0ec7890b3 sched/eevdf: Update slice protection even when resched is already set",
     "wakeup_preempt_fair()",
     "with PREEMPT_SHORT on, a wakeup that finds TIF_NEED_RESCHED already set still runs the check: it "
     "shrinks or cancels curr's protection and may make the wakee the buddy, so the coming pick sees it",
     "as the port of 7.3's fair.c has it (the C diff not read)"},
    {Rule::ProtectFromAverage, "protect-from-average", "7.3",
     "49f87b4d0be8 sched/eevdf: Take into account current's lag when updating slice protection",
     "update_protect_slice()",
     "a wakee that shrinks curr's protection counts the shortest slice from min(curr's vruntime, V): a "
     "curr ahead of the average (negative lag) keeps the CPU only until V + that slice",
     "as the port of 7.3's fair.c has it (the C diff not read)"},
    {Rule::ShortBuddy, "short-buddy", "7.3", "8f97b627ff1c sched/fair: Set next buddy for preempt short",
     "wakeup_preempt_fair(), set_short_buddy()",
     "a shorter-slice wakee that preempts becomes the next buddy (unless the buddy has a shorter slice), "
     "whatever NEXT_BUDDY says, so PICK_BUDDY runs it at the reschedule even if another eligible task has "
     "an earlier deadline; it replaces short-clears-buddy's clear_buddies() there (the pick without "
     "protection still takes no buddy)",
     "as the port of 7.3's fair.c has it (the C diff not read); d2e010082757 (7.4) adds a tie-break for "
     "equal slices"},
    {Rule::DelayedNoPreempt, "delayed-no-preempt", "7.3",
     "04998aa54848 sched/eevdf: Delayed dequeue task can't preempt", "wakeup_preempt_fair()",
     "a delayed (sched_delayed) wakee never preempts, a shorter slice included: it only shrinks curr's "
     "protection (protect-update-always)",
     "as the port of 7.3's fair.c has it (the C diff not read)"},
    {Rule::GroupsOneRunqueue, "groups-one-runqueue", "7.3",
     "85570f10a4c6 (the single runqueue for task groups, 7.3)",
     "set_next_entity(), update_curr(), wakeup_preempt_fair(), pick_task_fair()",
     "task groups' entities no longer queue on per-group runqueues: every task is on its CPU's one "
     "runqueue with its group's share of the weight (h_load) and cfs_rq->h_curr",
     "not modelled: a 7.3 scenario with task groups (cgroups, or sessions under autogroup) is refused"},
    {Rule::ProxyExec, "proxy-exec", "6.17",
     "25c411fce735 .. 7de9d4f94638 (\"Single RunQueue Proxy Execution\" v19: CONFIG_SCHED_PROXY_EXEC, "
     "blocked_on, find_proxy_task(), the split accounting of aa4f74dfd42b)",
     "__schedule(), try_to_block_task(), find_proxy_task(), update_se(), can_migrate_task()",
     "where the kernel is built with CONFIG_SCHED_PROXY_EXEC (no Kconfig default, depends on EXPERT: "
     "machine.proxy_exec, off by default), a task blocked on a struct mutex stays queued; when the pick "
     "chooses it, find_proxy_task() follows blocked_on to the owner and runs the owner in its place: the "
     "owner executes on the waiter's slice, vruntime and deadline (the donor's), its sum_exec_runtime "
     "grows, the trace shows a switch to the owner; an owner asleep, delayed or (before 7.1: "
     "proxy-donor-migration) on another CPU makes the donor sleep; the unlock wakes the first waiter where "
     "it is queued, and a donor woken so does not "
     "preempt the owner that runs for it. The donor may be a real-time task (find_proxy_task() looks at "
     "no class): a fair owner then runs in its RT context - the tick and update_curr_rt() are the "
     "donor's, fair wakeups cannot preempt it, the owner's vruntime stands still - and goes on in it "
     "after the unlock until the next schedule() on its CPU",
     "no hrtick while an owner runs for a donor (6.17 - 6.18 armed it from the donor and fired it at the "
     "owner, e38e5299747b); the owner is requeued with its lag when it starts to run for a donor "
     "(proxy_tag_curr()) in the profiles without proxy-no-tag-curr; not modelled: "
     "check_preempt_equal_prio() (an equal-priority RT wakeup of a pinned task), the RT donor's "
     "RLIMIT_RTTIME watchdog, deadline donors (no SCHED_DEADLINE tasks here)"},
    {Rule::ProxyDonorMigration, "proxy-donor-migration", "7.1",
     "b049b81bdff6 sched: Handle blocked-waiter migration (and return migration), with 2d7622669836 "
     "(PROXY_WAKING)",
     "find_proxy_task(), proxy_migrate_task(), proxy_force_return(), __mutex_unlock_slowpath()",
     "a picked waiter whose owner is queued on another CPU moves there (in a chain, the waiter blocked on "
     "that owner, one hop a pick; __set_task_cpu(): no "
     "sched_migrate_task event, its affinity not looked at, wake_cpu kept) and lends its context to the "
     "owner on that CPU - where the task that just blocked is itself in the chain, the CPU runs idle and "
     "picks again at once; the unlock marks the first waiter PROXY_WAKING, and when it is next picked "
     "(or a waiter whose mutex has no owner is) it is sent back before it runs: dequeued and enqueued on "
     "its wake_cpu (select_task_rq() without WF_TTWU keeps it), even when it never left its CPU",
     "from the v23 posting's code (30 Oct 2025), the merged text not read; the moved donor's load average "
     "stays where it was attached until a set_task_cpu(), as enqueue_entity() attaches nothing without "
     "migrate_task_rq_fair(); the kernel's removal of it from the wrong cfs_rq on the return is not "
     "modelled; core scheduling and migrate_disable() (fe3c73d7bc76) are out"},
    {Rule::ProxyNoTagCurr, "proxy-no-tag-curr", "7.1",
     "e0ca8991b2de sched: Make class_schedulers avoid pushing current, and get rid of proxy_tag_curr() "
     "(queued for 7.0.y in May 2026; 6.18.y dropped it then and took it in 6.18.53)",
     "__schedule()",
     "an owner that starts to run for a donor stays as it is queued: no dequeue / enqueue cycle "
     "(DEQUEUE_SAVE, ENQUEUE_RESTORE) re-places its entity with its lag (clamped), clears its buddy "
     "and brings the donor's time up to date first; its vruntime and deadline stay exactly where they "
     "were",
     ""},
    {Rule::RseqV2SliceExt, "rseq-v2-slice-ext", "7.0.10",
     "99428157dcf3 rseq: Reenable performance optimizations conditionally (7.1-rc3, after b9eac6a9d93c "
     "rseq: Revert to historical performance killing behaviour; both in 7.0.10)",
     "rseq_register(), rseq_slice_extension_prctl()",
     "time-slice extensions only for a thread whose rseq area is larger than the original 32 bytes (the "
     "optimized v2 ABI, on architectures with the generic IRQ entry): a legacy 32-byte registration gets "
     "no RSEQ_CS_FLAG_SLICE_EXT_AVAILABLE and prctl(PR_RSEQ_SLICE_EXTENSION) fails with -ENOTSUPP, so "
     "its requests are never granted",
     "a task's \"rseq\": \"v1\" is the 32-byte registration (\"v2\", the default, a larger one)"},
    {Rule::ProxyTtwuReturn, "proxy-ttwu-return", "7.2",
     "f13beb010e4a (return migration in try_to_wake_up()), 7918cf369361 (only return migrate when needed, "
     "PROXY_WAKING gone, p->is_blocked), 1628b25248d0 (the mutex handed to the blocked_donor)",
     "find_proxy_task(), ttwu_runnable() / proxy_needs_return(), try_to_wake_up(), __mutex_unlock_slowpath()",
     "the unlock hands the mutex to the waiter the owner last ran for (owner->blocked_donor, "
     "MUTEX_FLAG_PICKUP) "
     "and wakes it instead of the wait list's head; a woken waiter runs where it is queued unless it was "
     "moved "
     "there (task_cpu != wake_cpu), and then try_to_wake_up() places it as any wakeup (select_task_rq() with "
     "WF_TTWU from wake_cpu); a picked waiter whose mutex has no owner, or whose owner sleeps, really sleeps "
     "(blocked_on cleared)",
     "not modelled: proxy execution on a 7.2 kernel is refused (read from a 7.2-era core.c; mainline "
     "7.2's mutex.c was not found)"},
}};
// The table is indexed by Rule: each row names its own, and a row out of place fails the build.
constexpr bool rowsInEnumOrder() {
    for (size_t i = 0; i < kRules.size(); ++i)
        if (size_t(kRules[i].rule) != i) return false;
    return true;
}
static_assert(rowsInEnumOrder(), "kRules must list the rules in the order of enum class Rule");

RuleSet rulesOf(std::initializer_list<Rule> rs) {
    RuleSet s;
    for (Rule r : rs)
        s.set(size_t(r));
    return s;
}

// The autumn-2023 sched/eevdf queue on 6.6 (the seed's PREEMPT_SHORT kernel): none of the
// rules above; its prototype delayed dequeue is DELAY_DEQUEUE (the 6.12 one: see its KernelSpec).
const RuleSet kV6_6Queue = {};
const RuleSet kV6_12 = rulesOf({Rule::ReweightEevdf, Rule::PreemptShortFull, Rule::PlaceRelDeadline,
                                Rule::FairServer, Rule::GroupMinSlice});
const RuleSet kV6_18 =
    kV6_12 | rulesOf({Rule::ProxyExec, Rule::LazyModel, Rule::PlaceLagNonZero, Rule::RelDeadlineAlways,
                      Rule::ReweightPlace, Rule::GroupMinSlice, Rule::EmptyGroupKeepsWeight,
                      Rule::IneligibleOnDst, Rule::PickBuddy, Rule::BaseSlice700us, Rule::ProtectSliceVprot,
                      Rule::LazyFairServerStop, Rule::NewidleCostBump});
// v6.18.44: 6.18.0 plus the stable series' scheduler changes (docs/kernel-6.18.y.md), minus the
// max_newidle_lb_cost bump that the series reverted (d206fbad9328, by 6.18.4).
const RuleSet kV6_18_44 =
    (kV6_18 | rulesOf({Rule::YieldForfeit, Rule::ZeroVruntime, Rule::ProportionalNewidle,
                       Rule::DlServerClearsDeferRunning, Rule::ProtectAtPickOnly, Rule::ReweightVprot,
                       Rule::LagClampMaxSlice, Rule::DlServerRevisedWakeup, Rule::WakeupPreemptRework,
                       Rule::ForkClearsRelDeadline, Rule::DlServerRevisedOnlyRunning})) &
    ~rulesOf({Rule::NewidleCostBump});
// 6.18.45: the reweight_entity() revert with the vlag / vprot split it needs (62fefb817bb3,
// 4043e196dc88); the revert also takes back 6d71a9c61604's unconditional relative deadline.
const RuleSet kV6_18_45 = (kV6_18_44 | rulesOf({Rule::VlagVprotSplit, Rule::ReweightRescale})) &
                          ~rulesOf({Rule::ReweightPlace, Rule::RelDeadlineAlways});
// 7.0 (with its 7.0.y fixes): the rules of 6.18.44 came from 6.19 or 7.0 or were taken into 7.0.y
// as well (the wakeup_preempt_fair() fixes, 3da56dc063cd), but for 1842bf97af10
// (dl-server-revised-only-running), which reached mainline in the 7.2 cycle; 7.0 adds the
// restricted models and the split; e0ca8991b2de (proxy-no-tag-curr) and the rseq v2 ABI's slice
// extensions (rseq-v2-slice-ext, 7.0.10) came with 7.0.y too.
const RuleSet kV7_0 = (kV6_18_44 | rulesOf({Rule::RestrictPreemptModels, Rule::DlServerIdleWait,
                                            Rule::VlagVprotSplit, Rule::RseqSliceExt, Rule::HrtickRearm,
                                            Rule::ProxyNoTagCurr, Rule::RseqV2SliceExt})) &
                      ~rulesOf({Rule::DlServerRevisedOnlyRunning});
// 7.1: the reweight_entity() revert, HRTICK by default, the delayed sleeper's lag kept (its other
// changes: docs/kernels.md).
const RuleSet kV7_1 =
    (kV7_0 | rulesOf({Rule::ReweightRescale, Rule::HrtickDefault, Rule::DelayedLagKeep, Rule::HrtickHard,
                      Rule::ShortClearsBuddy, Rule::ProxyDonorMigration, Rule::NewidleRate})) &
    ~rulesOf({Rule::ReweightPlace, Rule::RelDeadlineAlways, Rule::HrtickRearm});
// 7.2: the dl_server's revised wakeup rule only for a running server (1842bf97af10, 7.2-rc7; 6.18.44
// had it from stable). Its other scheduler changes decide nothing the engine models (the profile's
// notModelled).
// The proxy-execution series of the 7.2 cycle (proxy-ttwu-return) reworked 7.1's donor return.
const RuleSet kV7_2 = kV7_1 | rulesOf({Rule::DlServerRevisedOnlyRunning, Rule::ProxyTtwuReturn});
// 7.3: the short-slice wakeup series (Vincent Guittot, merged for 7.3-rc1 with sched-core-2026-08-17)
// and the single runqueue for task groups (not modelled: such scenarios are refused).
const RuleSet kV7_3 =
    kV7_2 | rulesOf({Rule::ShortProtectIneligible, Rule::ProtectUpdateAlways, Rule::ShortEligiblePreempts,
                     Rule::ShortDespiteResched, Rule::ProtectFromAverage, Rule::ShortBuddy,
                     Rule::DelayedNoPreempt, Rule::GroupsOneRunqueue});
// The 2024 PREEMPT_AUTO series on the 6.18 EEVDF rules, without PREEMPT_LAZY (it realises
// laziness inside none / voluntary / full); RT throttling stands in for the fair_server there
// (SchedConfig::rtThrottling()). The series was posted on v6.8-rc (v1, Feb 2024) and rebased to v6.9
// (v2, May 2024): no proxy execution.
const RuleSet kAutoRfc = kV6_18 & ~rulesOf({Rule::LazyModel, Rule::FairServer, Rule::ProxyExec});

// Oldest first, the RFC last: menus, lists and docs/kernels.md show them in this order.
const std::array<KernelSpec, 10> kSpecs{{
    {"6.6-queue", KernelBuild::Dynamic, KernelProfile::V6_6_Queue,
     "6.6 + the sched/eevdf queue of autumn 2023 (custom slices, first PREEMPT_SHORT)", kV6_6Queue,
     "the queue's prototype delayed dequeue (\"sched/eevdf: Delay dequeue\", 15 Sep 2023, DELAY_DEQUEUE and "
     "GENTLE_DELAY on) is modelled as 6.12's DELAY_DEQUEUE and DELAY_ZERO, and whether the seed's kernel "
     "had it is not known: --feature DELAY_DEQUEUE=off runs it without; PLACE_FUDGE (the latency-nice "
     "branch); the tree keyed by vruntime (the pick is the same); 6.6's fixes after rc2 are assumed "
     "(b01db23d5923, 650cad561cce, 8dafa9d0eb1a)"},
    {"6.12", KernelBuild::Dynamic, KernelProfile::V6_12, "6.12 PREEMPT_DYNAMIC", kV6_12},
    {"6.18", KernelBuild::Dynamic, KernelProfile::V6_18, "6.18.0 PREEMPT_DYNAMIC", kV6_18,
     "the psi fix for "
     "deactivated donors (c2ae8b0df2d1, 6.18.2: no PSI here); before 127b90315ca0 (6.18.4) a sched_yield() "
     "of an owner that runs for a donor moved the owner's deadline (the engine moves the donor's, as 6.18.4 "
     "does)"},
    {"6.18.44", KernelBuild::Dynamic, KernelProfile::V6_18_44, "6.18.44 stable PREEMPT_DYNAMIC", kV6_18_44},
    {"6.18.45", KernelBuild::Dynamic, KernelProfile::V6_18_45, "6.18.45 stable PREEMPT_DYNAMIC", kV6_18_45},
    {"7.0", KernelBuild::Dynamic, KernelProfile::V7_0, "7.0 PREEMPT_DYNAMIC", kV7_0,
     "the hrtick of a donor (e38e5299747b: none is armed "
     "while an owner runs for one); titles read, code not: 4b603f1551a7 "
     "(rq->avg_idle updated "
     "when a task moves to an idle CPU), 704069649b5b and 5324953c06bd (wakeup_preempt() across classes)"},
    {"7.1", KernelBuild::Dynamic, KernelProfile::V7_1, "7.1 PREEMPT_DYNAMIC", kV7_1,
     "what 7.0 leaves out; full-weight avg_vruntime() and "
     "__calc_delta() (4823725d9d1d, db4551e2ba34: the engine's weights are the unscaled ones, so only "
     "rounding could differ); the SIS_UTIL "
     "simplification "
     "(fe7171d0d5df, f1320a8dd8ba: titles only)"},
    {"7.2", KernelBuild::Dynamic, KernelProfile::V7_2, "7.2 PREEMPT_DYNAMIC", kV7_2,
     "what 7.1 leaves out; newidle balancing from pick_task_fair() (b3a2dfa8b42e: the engine's fair pick is "
     "the same, and a started fair_server that finds no fair task does not pull one here); the time update "
     "before a delayed entity is requeued (333238da9a19: no effect, the engine's curr is always up to date); "
     "proxy execution's rework (proxy-ttwu-return: a 7.2 scenario with proxy execution is refused); "
     "cache-aware scheduling (several LLCs only); the RT runtime default of 1 s (c2e390197ad1: "
     "deadline admission only) and RT_PUSH_IPI off (dd29c017aed6: RT push not modelled)"},
    {"7.3", KernelBuild::Dynamic, KernelProfile::V7_3, "7.3 PREEMPT_DYNAMIC", kV7_3,
     "what 7.2 leaves out; the single runqueue for task groups (groups-one-runqueue: a 7.3 scenario with "
     "task groups is refused); the short-slice series is modelled from a line-by-line port of 7.3's "
     "fair.c, its C diffs not read"},
    {"auto-rfc", KernelBuild::Auto, KernelProfile::V6_18, "6.18 + PREEMPT_AUTO (2024 series)", kAutoRfc},
}};

} // namespace

const RuleInfo& ruleInfo(Rule r) {
    return kRules[size_t(r)];
}

std::span<const KernelSpec> kernelSpecs() {
    return kSpecs;
}

const KernelSpec* findKernelSpec(std::string_view name) {
    for (const KernelSpec& k : kSpecs)
        if (k.name == name) return &k;
    return nullptr;
}

const KernelSpec& kernelSpecOf(KernelBuild b, KernelProfile p) {
    for (const KernelSpec& k : kSpecs)
        if (k.build == b && (k.profile == p || b == KernelBuild::Auto)) return k;
    return *findKernelSpec("6.18"); // every build and profile has a row: not reached
}

const RuleSet& kernelRules(KernelBuild b, KernelProfile p) {
    // Indexed, not searched: the engine asks on every update_curr().
    static const std::array<RuleSet, 9> dynamic{kV6_18, kV6_12,     kV6_18_44, kV6_18_45, kV7_0,
                                                kV7_1,  kV6_6Queue, kV7_2,     kV7_3}; // KernelProfile order
    return b == KernelBuild::Auto ? kAutoRfc : dynamic[size_t(p)];
}

std::string acceptedKernelNames() {
    std::string s;
    for (const KernelSpec& k : kSpecs) {
        if (!s.empty()) s += ", ";
        s += k.name;
    }
    return s;
}

} // namespace sched
