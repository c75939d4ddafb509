// SPDX-License-Identifier: GPL-3.0-or-later
// Batches: a running task's operations that cannot interact with anything, run without an event
// each.
//
// Most of a message-passing workload's operations are a write into a channel that has room and
// no blocked reader, or a read from one that holds data and has no blocked writer: each is a
// counter moving by one, and the task's next step is fixed. Between two events that touch its
// CPU, such a task's future is known, so the engine plans a run of "chains" (one op's action and
// the ops begun after it until one needs CPU time) and pushes one Segment for the end of the run.
//
// The plan reserves its channel operations: the writes and reads every batch still has to do on a
// channel are counted, and a chain is planned only if it succeeds in every order of all those
// operations (room for all reserved writes with no read done, data for all reserved reads with no
// write done, no blocked task to wake). Reserved operations therefore commute with each other,
// and only an operation done the normal way can break a reservation; it brings the batches on
// its channel up to date first (touchChannel) and cuts those whose reservation no longer holds
// (checkChannel). Anything that reaches a batching CPU (an event on it, a need-resched bit)
// brings its batch up to date, in the queue's order of equal-time events (event_queue.h), and a
// bit ends the batch, so every decision sees the state it would have seen with one event per op.
//
// A plan is a record (batch_plan.h): running the batch replays it, moving counters and the task's
// work and mode; the task's program position jumps to the plan's end once the whole batch has
// run, or is walked again up to the last chain run when the batch is cut part-way.
//
// Planning walks the program as runProgram() would, op by op (walkChain()); inside a counted loop
// of channel operations and fixed runs (loop_pattern.h: every messaging and hackbench worker) it
// takes the loop's precomputed steps instead (walkPattern()), the same chains for a third fewer
// instructions.
#include "engine/engine.h"

#include <algorithm>
#include <bit>

namespace sched {

namespace {
// Chains due later than this are left to their own events: a long run's Segment is rare anyway,
// and a plan that reaches past the next tick is mostly cut there and given back.
constexpr Time kHorizon = 500 * kNsPerUs;

// Loop counters: most programs have one or two loops, too few for a memcpy() call to pay.
void copyCounters(const int64_t* from, size_t n, int64_t* to) {
    if (n == 1)
        *to = *from;
    else
        std::copy_n(from, n, to);
}
} // namespace

// How far the running task's work went since segStart (syncProgress without the batch).
void Engine::accountProgress(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    Time e = now_ - rq.segStart;
    if (e <= 0) return;
    rq.segStart = now_;
    if (rq.curr < 0) return;
    Task& t = tasks_[size_t(rq.curr)];
    const Time o = std::min(e, t.overhead);
    t.overhead -= o;
    e -= o;
    const Time w = std::min(e, t.remaining);
    t.remaining -= w;
    t.opDone += w;
    // Overheads (switch, wakeup, migration) and syscall paths are system time; a user-mode
    // op's work is user time (account_user_time / account_system_time, at ns precision).
    if (t.opMode == ExecMode::User) {
        t.utime += w;
        t.stime += o + (e - w);
    } else {
        t.stime += o + e;
    }
}

// Plans a batch for c's running task, which is inside an op's CPU phase (or at its end), or
// about to resume its program after an overhead (switched in, or it woke a task: a channel op to
// retry, a syscall to return from), with both need-resched bits clear. On success the CPU's
// Segment is moved to the batch's end.
void Engine::planBatch(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    const Task& t = tasks_[size_t(rq.curr)];
    if (t.sliceRequest || t.sliceGranted) return; // an interrupt's return may grant or end an extension
    if (rq.proxying()) return; // a donor's slice, another task's ops: one op at a time (proxy_exec.cpp)
    // The current op's Segment: the pending one if it already stands for the op's end (or the
    // resumption), else the one reprogram() is about to push.
    const Time opEnd = now_ + t.overhead + t.remaining;
    const SegmentKind kind = t.resume == Resume::Continue ? SegmentKind::OpEnd : SegmentKind::Resume;
    const Time since = rq.segEnd == opEnd && rq.segKind == kind ? rq.segPushedAt : now_;
    planChains(c);
    if (!rq.batching()) {
        releaseBatch(c); // unlists the channels a refused chain had touched
        return;
    }
    rq.batchOpSince = since;
    // The batch's end is the Segment of the op its last chain begins, pushed then.
    rq.segGen++;
    rq.segEnd = rq.batch.end;
    rq.segKind = SegmentKind::OpEnd;
    rq.segPushedAt = rq.batch.chains[size_t(rq.batch.size) - 1].due;
    rq.segRefused = rq.batch.refused;
    queue_.push(rq.segEnd, rq.segPushedAt, EventKind::Segment, c, rq.segGen);
}

// At the Segment of the running task's op end (c's own event): if the op's action and what
// follows it can be planned, they run as a batch from here, its first chain now. The
// reservation makes the action succeed exactly as runProgram() would, without bringing the
// other batches on its channel up to date first. Returns false if nothing was planned.
bool Engine::continueAsBatch(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    const Task& t = tasks_[size_t(rq.curr)];
    if (!opts_.batchOps || rq.segRefused || t.resume != Resume::Continue || !t.opStarted ||
        rq.flag[size_t(ReschedBit::Eager)] || rq.flag[size_t(ReschedBit::Lazy)])
        return false;
    planBatch(c);
    if (!rq.batching()) return false;
    runBatch(c, true);
    return true;
}

// Reserves one write or read of channel ch for c's batch if it succeeds in every order of the
// operations already reserved on ch (see the top of this file).
[[gnu::always_inline]] inline bool Engine::reserve(CpuId c, int32_t ch, bool write) {
    Channel& q = channels_[size_t(ch)];
    if (write) {
        // unix_stream_sendmsg()/pipe_write(): room, and no reader waiting to be woken.
        if (q.blockedReaders > 0 || q.count + q.pendingWrites + 1 > q.capacity) return false;
        q.pendingWrites++;
    } else {
        // A read that leaves data, and wakes no writer: none blocked, or (a socket) the queue stays
        // above the wake-up mark even if every reserved read comes first.
        const int64_t after = q.count - (q.pendingReads + 1);
        if (after < 0) return false;
        if (q.blockedWriters > 0 && (q.wakeAllWritersAt < 0 || after <= q.wakeAllWritersAt)) return false;
        q.pendingReads++;
    }
    uint64_t& word = q.batchers[size_t(c) / 64];
    const uint64_t bit = uint64_t(1) << (c % 64);
    if (!(word & bit)) { // the channel lists c, c lists the channel
        word |= bit;
        BatchPlan& b = rqs_[size_t(c)].batch;
        b.channels[size_t(b.channelCount++)] = ch;
    }
    return true;
}

// One chain of c's running task, due at `at`, as runProgram() would run it with both bits clear:
// the action of the op at ip (not with `action` false: a task resuming after the action, at
// Resume::Next or ExitToUserNext), the exit-to-user point (no bit: nothing), advanceOp(), then
// beginOp() of the ops after it until one needs CPU time, whose phase it returns (mode: the begun
// op's). With a plan, its channel operations are reserved and recorded, and an op that could have
// an effect beyond the task, or a reservation that does not hold, refuses the chain (-1, the
// position part-way; `drew`: an op was begun or a loop passed before the refusal, so the random
// stream or a loop counter may have moved); without, the chain was planned before and is walked
// again. The position is in scalars, not a struct: a struct copied between chains is read back
// wider than its fields were just written, which stalls store-to-load forwarding (measured: a
// fifth of the planning time).
[[gnu::always_inline]] inline Time Engine::walkChain(CpuId c, const Task& t, const Op* ops, uint32_t n,
                                                     uint32_t& ip, int64_t& iterations, bool& channelOp,
                                                     ExecMode& mode, Rng& rng, int64_t* loops, Time at,
                                                     BatchPlan* plan, uint32_t& nOps, bool& drew,
                                                     bool action) {
    for (;; action = true) {
        const Op& op = ops[ip];
        bool jump = false;
        if (!action) {
            if (op.kind == OpKind::Loop) return -1; // (a loop has no syscall to return from)
        } else
            switch (op.kind) {
            case OpKind::Run:
                break;
            case OpKind::Loop:
                iterations++;
                drew = true; // a counter may move: a refusal after it walks the chains again
                jump = op.until > 0 ? at - t.startedAt < op.until
                                    : op.count == 0 || loopCounts(op, loops[op.loopSlot]);
                break;
            // Two cases, so that reserve() is inlined with its direction known: whether a plan meets
            // a write or a read is a coin toss across tasks, and testing it again inside reserve()
            // was mispredicted as often as the switch (callgrind --branch-sim: 1.4 M of 23 M).
            case OpKind::Write:
                channelOp = true;
                if (!plan) break;
                if (op.measureWake || nOps == kMaxChainOps || !reserve(c, op.channel, true)) return -1;
                plan->ops[nOps++] = uint32_t(op.channel) << 1 | 1u;
                break;
            case OpKind::Read:
                channelOp = true;
                if (!plan) break;
                if (op.measureWake || nOps == kMaxChainOps || !reserve(c, op.channel, false)) return -1;
                plan->ops[nOps++] = uint32_t(op.channel) << 1;
                break;
            default:
                return -1;
            }
        // advanceOp(), or the loop's jump (which keeps the mode)
        if (jump) {
            ip = uint32_t(op.target);
        } else {
            ++ip;
            mode = ExecMode::User;
        }
        if (ip >= n) return -1;
        // beginOp() of the next op: its CPU phase (no stopwatch: those are not planned)
        const Op& next = ops[ip];
        if (next.unplannable) return -1; // stopwatches and cycle classes
        const Time dur = cpuPhase(next, rng);
        drew = true;
        if (next.kind == OpKind::Run)
            mode = next.mode;
        else if (isSyscall(next))
            mode = ExecMode::Kernel;
        if (dur > 0) return dur;
    }
}

// The chains of a task inside its program's loop pattern (loop_pattern.h), each what walkChain()
// does for it with a plan: the action of the body op at ip (its channel operation reserved and
// recorded), then the next body op begun, past the Loop op if ip is the body's last (a counted
// loop: loopCounts(); an endless one jumps back every time). Stops at the plan's length or
// horizon, before the pass that would leave the loop (the generic walk goes on from there), or at
// a reservation that does not hold, which refuses the chain (returns true) before anything in it
// was drawn or counted.
[[gnu::always_inline]] inline bool Engine::walkPattern(CpuId c, const LoopPattern& pat, uint32_t& ip,
                                                       int64_t& iterations, bool& channelOp, ExecMode& mode,
                                                       Rng& rng, int64_t* loops, Time& at, BatchPlan& b,
                                                       uint32_t& nOps) {
    const LoopPattern::Step* const steps = pat.steps.data();
    const uint32_t last = uint32_t(pat.steps.size()) - 1;
    PlannedChain* const chains = b.chains.data();
    uint32_t* const planned = b.ops.data();
    uint32_t j = ip - pat.target;
    int64_t left = loops[pat.loopSlot];
    int32_t size = b.size;
    // The chains before the pass that leaves a counted loop (the last body op of its last pass):
    // the rest of this pass and every further pass but the last. One bound for the loop's test.
    int32_t end = kMaxChains;
    if (pat.count > 0) {
        const int64_t passes = left == 0 ? pat.count : left; // this one included
        end =
            int32_t(std::min<int64_t>(end, size + (passes - 1) * (int64_t(last) + 1) + (int64_t(last) - j)));
    }
    const Time limit = now_ + kHorizon;
    Rng::State r = rng.state(); // in registers: the chains' and reservations' stores could alias it
    bool refused = false;
    while (size < end && at <= limit) {
        const LoopPattern::Step& s = steps[j];
        if (s.chanOp != LoopPattern::kNoChannelOp) {
            if (nOps == kMaxChainOps || !reserve(c, int32_t(s.chanOp >> 1), (s.chanOp & 1) != 0)) {
                refused = true;
                break;
            }
            planned[nOps++] = s.chanOp;
            channelOp = true;
        }
        if (j == last) { // the Loop op: begun (no CPU phase, the mode stays), passed, jumps back
            iterations++;
            if (pat.count > 0) { // loopCounts(); an endless loop has no counter to move
                if (left == 0) left = pat.count;
                --left;
            }
            j = 0;
        } else {
            ++j;
        }
        const LoopPattern::Step& next = steps[j];
        const Time dur = next.range > 0 ? next.base + Time(Rng::below(r, next.range)) : next.base;
        mode = next.mode;
        chains[size++] = PlannedChain{at, uint16_t(nOps), mode};
        at += dur;
    }
    rng.setState(r);
    ip = pat.target + j;
    loops[pat.loopSlot] = left;
    b.size = size;
    return refused;
}

// Records up to kMaxChains chains of c's running task from where it stands. Stops before the
// first refused chain, giving its own reservations back, or at the horizon. Sets the batch's
// end (when the chain after the last one is due) and the position after the last chain.
void Engine::planChains(CpuId c) {
    const Task& t = tasks_[size_t(rqs_[size_t(c)].curr)];
    BatchPlan& b = rqs_[size_t(c)].batch;
    const size_t slots = t.loopLeft.size();
    // The loop counters are walked in place, like the random stream: a chain that moved either
    // and was then refused is rare, and the accepted chains are walked again below.
    b.lastLoops.setSize(slots);
    int64_t* const loops = b.lastLoops.data();
    copyCounters(t.loopLeft.data(), slots, loops);
    b.size = 0;
    b.next = 0;
    b.refused = false;
    b.resumed = t.resume == Resume::Next || t.resume == Resume::ExitToUserNext;
    uint32_t ip = t.ip;
    int64_t iterations = t.iterations;
    bool channelOp = false;
    ExecMode mode = t.opMode;
    Rng& rng = b.last.rng;
    rng = t.rng;
    uint32_t nOps = 0;
    const Op* const ops = programs_[size_t(t.program)].ops.data();
    const uint32_t n = uint32_t(programs_[size_t(t.program)].ops.size());
    Time at = now_ + t.overhead + t.remaining; // when the current op's action (or return) is due
    bool action = b.actsFirst(0);
    const LoopPattern& pat = patterns_[size_t(t.program)];
    while (b.size < kMaxChains && at - now_ <= kHorizon) {
        if (action && pat.inBody(ip)) { // (no pattern: no body)
            if (walkPattern(c, pat, ip, iterations, channelOp, mode, rng, loops, at, b, nOps)) {
                b.refused = true;
                break;
            }
            if (!(b.size < kMaxChains && at - now_ <= kHorizon)) break;
        }
        uint32_t ip1 = ip;
        int64_t iterations1 = iterations;
        bool channelOp1 = channelOp, drew = false;
        ExecMode mode1 = mode;
        const uint32_t opsBefore = nOps;
        const Time dur = walkChain(c, t, ops, n, ip1, iterations1, channelOp1, mode1, rng, loops, at, &b,
                                   nOps, drew, action);
        if (dur < 0) { // refused: the chain's own reservations go back
            b.refused = true;
            giveBack(b, opsBefore, nOps);
            if (drew) { // the stream and counters after the accepted chains: walked again from the start
                rng = t.rng;
                uint32_t ip2 = t.ip, none = 0;
                int64_t iterations2 = t.iterations;
                bool channelOp2 = false, drew2 = false;
                ExecMode mode2 = t.opMode;
                copyCounters(t.loopLeft.data(), slots, loops);
                for (int32_t i = 0; i < b.size; ++i)
                    walkChain(c, t, ops, n, ip2, iterations2, channelOp2, mode2, rng, loops,
                              b.chains[size_t(i)].due, nullptr, none, drew2, b.actsFirst(i));
            }
            break;
        }
        b.chains[size_t(b.size++)] = PlannedChain{at, uint16_t(nOps), mode1};
        ip = ip1, iterations = iterations1, channelOp = channelOp1, mode = mode1;
        at += dur;
        action = true;
    }
    b.end = at;
    if (b.size == 0) return;
    b.last.ip = ip;
    b.last.iterations = iterations;
    b.last.channelOp = channelOp;
}

// Returns the reservations of the planned channel operations [from, to).
void Engine::giveBack(const BatchPlan& b, uint32_t from, uint32_t to) {
    for (uint32_t i = from; i < to; ++i) {
        Channel& q = channels_[size_t(b.ops[i] >> 1)];
        (b.ops[i] & 1 ? q.pendingWrites : q.pendingReads)--;
    }
}

// Runs the chains of c's batch that are due before the current event: those whose time has
// passed, and at this very time those whose Segment the queue would have popped first
// (event_queue.h: pushed earlier, or at the same moment by a lower CPU than the Segment being
// handled), or c's own Segment being handled (continueAsBatch()). Running a chain is replaying
// its record: the reserved channel operations succeed in any order, so each is a counter moving
// by one. The task's work, time and mode are set once, from the last chain run (what running
// them one by one would leave), its program position once the batch is over.
void Engine::runBatch(CpuId c, bool ownSegment) {
    CpuRq& rq = rqs_[size_t(c)];
    BatchPlan& b = rq.batch;
    if (!b.active()) return;
    const PlannedChain* const chains = b.chains.data();
    const int32_t first = b.next;
    Task& t = tasks_[size_t(rq.curr)];
    // The due chains, in one pass (one loop exit to predict): those before now, and one due now
    // if its Segment comes first. Chains take CPU time (walkChain() returns a positive phase),
    // so at most one is due at this instant. The ops a chain ends ran in the mode of the chain
    // before (user time summed without a branch: the modes alternate).
    Time user = 0;
    uint32_t k = b.opsBegin(first);
    int32_t end = first;
    for (; end < b.size; ++end) {
        const PlannedChain& ch = chains[end];
        if (ch.due >= now_) {
            if (ch.due > now_) break;
            if (inEvent_ && !ownSegment) { // would the op it ends have had its Segment popped first?
                const Time since = end > first ? chains[end - 1].due : rq.batchOpSince;
                if (!(since < event_.pushedAt ||
                      (since == event_.pushedAt && event_.kind == EventKind::Segment && c < event_.a)))
                    break;
            }
        }
        if (end > first)
            user += (ch.due - chains[end - 1].due) & -Time(chains[end - 1].mode == ExecMode::User);
        for (; k < ch.opsEnd; ++k) {
            Channel& q = channels_[size_t(b.ops[k] >> 1)];
            if (b.ops[k] & 1) {
                q.count++;
                q.lastWrite = std::max(q.lastWrite, ch.due); // batches catch up out of time order
                q.pendingWrites--;
            } else {
                q.count--;
                q.pendingReads--;
            }
        }
    }
    if (end == first) return;
    // accountProgress() to the end of each chain's CPU phase: the first chain's may follow an
    // overhead (a switch, a wake-up), system time; the task resumes its program there.
    t.stime += t.overhead;
    t.overhead = 0;
    t.resume = Resume::Continue;
    (t.opMode == ExecMode::User ? t.utime : t.stime) += t.remaining;
    const PlannedChain& last = chains[end - 1];
    t.utime += user;
    t.stime += last.due - chains[first].due - user;
    t.remaining = b.dueAfter(end - 1) - last.due;
    t.opMode = last.mode;
    t.opDone = 0;
    rq.segStart = last.due;
    rq.batchOpSince = last.due; // the op it began would have had its Segment pushed then
    b.next = end;
    if (b.active()) return;
    // The whole batch has run: the task stands where the plan ended.
    t.ip = b.last.ip;
    t.iterations = b.last.iterations;
    t.rng = b.last.rng;
    if (b.last.channelOp) t.blockedOnRead = false;
    copyCounters(b.lastLoops.data(), t.loopLeft.size(), t.loopLeft.data());
    releaseBatch(c);
}

// The running task's program position after the chains of c's batch that ran, the batch still
// being part-way: its chains walked again from where the plan began (done once per cut or at the
// end of the run; a batch that runs whole takes the position recorded with the plan).
void Engine::catchUpPosition(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    BatchPlan& b = rq.batch;
    Task& t = tasks_[size_t(rq.curr)];
    ExecMode mode = t.opMode;
    bool channelOp = false, drew = false;
    uint32_t none = 0;
    const Op* const ops = programs_[size_t(t.program)].ops.data();
    const uint32_t n = uint32_t(programs_[size_t(t.program)].ops.size());
    for (int32_t i = 0; i < b.next; ++i)
        walkChain(c, t, ops, n, t.ip, t.iterations, channelOp, mode, t.rng, t.loopLeft.data(),
                  b.chains[size_t(i)].due, nullptr, none, drew, b.actsFirst(i));
    if (channelOp) t.blockedOnRead = false;
}

// Ends c's batch now: what is due runs, the rest is given back, and the current op gets the
// Segment it would have had (pushed at its start, with both bits clear: its end).
void Engine::cutBatch(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    if (!rq.batching()) return;
    runBatch(c);
    if (!rq.batching()) return; // drained: the pending Segment is the current op's end
    accountProgress(c);
    dropRestOfBatch(c);
    const Task& t = tasks_[size_t(rq.curr)];
    rq.segGen++;
    rq.segEnd = now_ + t.overhead + t.remaining; // an overhead: the first chain had not run
    rq.segKind = t.resume == Resume::Continue ? SegmentKind::OpEnd : SegmentKind::Resume;
    rq.segPushedAt = rq.batchOpSince;
    rq.segRefused = false;
    queue_.push(rq.segEnd, rq.segPushedAt, EventKind::Segment, c, rq.segGen);
}

// A batch part-way, its due chains run: the rest gives its reservations back, the task's program
// position catches up with the chains that ran, and the batch is over.
void Engine::dropRestOfBatch(CpuId c) {
    const BatchPlan& b = rqs_[size_t(c)].batch;
    giveBack(b, b.opsBegin(b.next), b.chains[size_t(b.size) - 1].opsEnd);
    catchUpPosition(c);
    releaseBatch(c);
}

// The batch's reservations are all done or given back: unlist it.
void Engine::releaseBatch(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    for (int32_t i = 0; i < rq.batch.channelCount; ++i)
        channels_[size_t(rq.batch.channels[size_t(i)])].batchers[size_t(c) / 64] &=
            ~(uint64_t(1) << (c % 64));
    rq.batch.channelCount = 0;
    rq.batch.size = 0;
    rq.batch.next = 0;
}

// The channel's list of batching CPUs is read a word at a time, when the walk gets to it: a batch
// that ends (runBatch(), cutBatch()) unlists its own CPU and nothing else, whose bit the walk has
// already taken. Not the whole array copied first: reserve() has just set its bits with 8-byte
// stores, and a copy reads them back in 16-byte pieces, which stalls store-to-load forwarding.
size_t Engine::batcherWords() const {
    return (rqs_.size() + 63) / 64;
}

// Before an operation done the normal way on ch: the batches using ch catch up to now.
void Engine::touchChannel(int32_t ch) {
    const size_t words = batcherWords();
    for (size_t w = 0; w < words; ++w)
        for (uint64_t bits = channels_[size_t(ch)].batchers[w]; bits; bits &= bits - 1)
            runBatch(CpuId(w * 64 + size_t(std::countr_zero(bits))));
}

// After it: cut the batches on ch if the reservations no longer hold in every order.
void Engine::checkChannel(int32_t ch) {
    const Channel& q = channels_[size_t(ch)];
    const size_t words = batcherWords();
    uint64_t any = 0;
    for (size_t w = 0; w < words; ++w)
        any |= q.batchers[w];
    if (any == 0) return;
    const bool writesHold =
        q.blockedReaders == 0 ? q.count + q.pendingWrites <= q.capacity : q.pendingWrites == 0;
    const int64_t low = q.count - q.pendingReads;
    const bool readsHold =
        low >= 0 &&
        (q.blockedWriters == 0 || (q.wakeAllWritersAt >= 0 ? low > q.wakeAllWritersAt : q.pendingReads == 0));
    if (writesHold && readsHold) return;
    for (size_t w = 0; w < words; ++w)
        for (uint64_t bits = q.batchers[w]; bits; bits &= bits - 1)
            cutBatch(CpuId(w * 64 + size_t(std::countr_zero(bits))));
}

} // namespace sched
