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
#include "engine.h"

#include <algorithm>
#include <bit>

namespace sched {

namespace {
constexpr int kMaxChains = 24; // measured: longer plans mostly reserve room that a cut gives back
// Chains due later than this are left to their own events: a long run's Segment is rare anyway,
// and a plan that reaches past the next tick is mostly cut there and given back.
constexpr Time kHorizon = 500 * kNsPerUs;
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

// Plans a batch for c's running task, which is inside an op's CPU phase with nothing pending and
// both need-resched bits clear. On success the CPU's Segment is moved to the batch's end.
void Engine::planBatch(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    // The current op's Segment: the pending one if it already stands for the op's end, else the
    // one reprogram() is about to push.
    const Time opEnd = now_ + tasks_[size_t(rq.curr)].remaining;
    const Time since = rq.segEnd == opEnd && rq.segKind == SegmentKind::OpEnd ? rq.segPushedAt : now_;
    Time lastChain = 0;
    const Time end = walkChains(c, kMaxChains, ChainWalk::Reserve, rq.batchChains, lastChain);
    if (rq.batchChains == 0) {
        releaseBatch(c); // unlists the channels a refused chain had touched
        return;
    }
    rq.batchOpSince = since;
    // The batch's end is the Segment of the op its last chain begins, pushed then.
    rq.segGen++;
    rq.segEnd = end;
    rq.segKind = SegmentKind::OpEnd;
    rq.segPushedAt = lastChain;
    queue_.push(end, lastChain, EventKind::Segment, c, rq.segGen);
}

// Walks up to n chains of c's running task from where it stands, as runProgram() would run them
// with both bits clear: each op's action, the exit-to-user point (no bit: nothing), then the ops
// begun after it until one needs CPU time. Reserve: stops before the first chain with an op that
// could have an effect beyond the task and a reserved counter (sets `chains`, returns when that
// chain is due: the batch's end; lastChain: when the last planned one is). GiveBack: the n chains
// were reserved; their operations are returned. Works on copies of the loop counters and the
// random stream.
Time Engine::walkChains(CpuId c, int n, ChainWalk mode, int32_t& chains, Time& lastChain) {
    const Task& t = tasks_[size_t(rqs_[size_t(c)].curr)];
    const std::vector<Op>& ops = programs_[size_t(t.program)].ops;
    planLoops_.assign(t.loopLeft.begin(), t.loopLeft.end());
    Rng rng = t.rng;
    uint32_t ip = t.ip;
    Time at = now_ + t.remaining; // when the current op's action is due
    chains = 0;
    struct Taken { int32_t ch; bool write; };
    Taken taken[16];
    while (chains < n && (mode == ChainWalk::GiveBack || at - now_ <= kHorizon)) {
        int nTaken = 0;
        bool ok = true;
        uint32_t pip = ip;
        Time dur = 0;
        for (;;) {
            const Op& op = ops[pip];
            switch (op.kind) {
            case OpKind::Run: ++pip; break;
            case OpKind::Loop: pip = loopJumps(op, at - t.startedAt, planLoops_) ? uint32_t(op.target) : pip + 1; break;
            case OpKind::Write:
            case OpKind::Read: {
                const bool write = op.kind == OpKind::Write;
                if (mode == ChainWalk::GiveBack) {
                    Channel& q = channels_[size_t(op.channel)];
                    (write ? q.pendingWrites : q.pendingReads)--;
                } else if (op.measureWake || nTaken == 16 || !reserve(c, op.channel, write)) {
                    ok = false;
                    break;
                } else {
                    taken[nTaken++] = {op.channel, write};
                }
                ++pip;
                break;
            }
            default: ok = false; break;
            }
            if (!ok || pip >= ops.size()) {
                ok = false;
                break;
            }
            // beginOp() of the next op: its CPU phase.
            const Op& next = ops[pip];
            if (next.clock != 0) {
                ok = false;
                break;
            }
            dur = cpuPhase(next, rng);
            if (dur > 0) break;
        }
        if (!ok) { // refused: the chain's own reservations go back
            for (int i = 0; i < nTaken; ++i) {
                Channel& q = channels_[size_t(taken[i].ch)];
                (taken[i].write ? q.pendingWrites : q.pendingReads)--;
            }
            break;
        }
        ip = pip;
        lastChain = at;
        at += dur;
        ++chains;
    }
    return at;
}

// Reserves one write or read of channel ch for c's batch if it succeeds in every order of the
// operations already reserved on ch (see the top of this file).
bool Engine::reserve(CpuId c, int32_t ch, bool write) {
    Channel& q = channels_[size_t(ch)];
    if (write) {
        // unix_stream_sendmsg()/pipe_write(): room, and no reader waiting to be woken.
        if (!q.readers.empty() || q.count + q.pendingWrites + 1 > q.capacity) return false;
        q.pendingWrites++;
    } else {
        // A read that leaves data, and wakes no writer: none blocked, or (a socket) the queue stays
        // above the wake-up mark even if every reserved read comes first.
        const int64_t after = q.count - (q.pendingReads + 1);
        if (after < 0) return false;
        if (!q.writers.empty() && (q.wakeAllWritersAt < 0 || after <= q.wakeAllWritersAt)) return false;
        q.pendingReads++;
    }
    uint64_t& word = q.batchers[size_t(c) / 64];
    const uint64_t bit = uint64_t(1) << (c % 64);
    if (!(word & bit)) { // the channel lists c, c lists the channel
        word |= bit;
        rqs_[size_t(c)].batchChannels.push_back(ch);
    }
    return true;
}

// Runs the chains of c's batch that are due before the current event: those whose time has
// passed, and at this very time those whose Segment the queue would have popped first
// (event_queue.h: pushed earlier, or at the same moment by a lower CPU than the Segment being
// handled).
void Engine::runBatch(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    if (rq.batchChains == 0 || batchExec_) return;
    Task& t = tasks_[size_t(rq.curr)];
    const Time real = now_;
    batchExec_ = true;
    while (rq.batchChains > 0) {
        const Time due = rq.segStart + t.remaining; // no overhead inside a batch
        if (due > real) break;
        if (due == real && inEvent_) {
            const Time since = rq.batchOpSince;
            const bool first = since < event_.pushedAt ||
                               (since == event_.pushedAt && event_.kind == EventKind::Segment && c < event_.a);
            if (!first) break;
        }
        // accountProgress() to the end of the op's CPU phase (a batch carries no overhead)
        const Time w = t.remaining;
        rq.segStart = due;
        t.remaining = 0;
        t.opDone += w;
        (t.opMode == ExecMode::User ? t.utime : t.stime) += w;
        now_ = due;
        runChain(c, t);
        rq.batchOpSince = due; // the op it began would have had its Segment pushed now
        rq.batchChains--;
    }
    batchExec_ = false;
    now_ = real;
    if (rq.batchChains == 0) releaseBatch(c);
}

// One chain of c's batch, due now (its op's CPU phase has just ended): what runProgram() does
// with both bits clear for the op kinds a plan admits (Run, Loop, Write, Read), without its
// general state machine: the action, the exit-to-user point that finds no bit, advanceOp(), then
// beginOp() of the ops that follow until one needs CPU time.
void Engine::runChain(CpuId c, Task& t) {
    const std::vector<Op>& ops = programs_[size_t(t.program)].ops;
    for (;;) {
        const Op& op = ops[t.ip];
        bool jump = false;
        switch (op.kind) {
        case OpKind::Run: break;
        case OpKind::Loop:
            t.iterations++;
            jump = loopJumps(op, now_ - t.startedAt, t.loopLeft);
            break;
        case OpKind::Write:
        case OpKind::Read:
            if (op.kind == OpKind::Write) channelWrite(c, rqs_[size_t(c)].curr, op.channel);
            else channelRead(c, rqs_[size_t(c)].curr, op.channel);
            t.blockedOnRead = false;
            break;
        default: break; // not admitted by walkChains()
        }
        if (jump) {
            t.ip = uint32_t(op.target);
        } else {
            t.ip++;
            t.opMode = ExecMode::User;
        }
        beginOp(t, ops[t.ip]); // no stopwatch: walkChains() admits no op with one
        if (t.remaining > 0) return;
    }
}

// Ends c's batch now: what is due runs, the rest is given back, and the current op gets the
// Segment it would have had (pushed at its start, with both bits clear: its end).
void Engine::cutBatch(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    if (rq.batchChains == 0) return;
    runBatch(c);
    if (rq.batchChains == 0) return; // drained: the pending Segment is the current op's end
    accountProgress(c);
    int32_t walked = 0;
    Time lastChain = 0;
    walkChains(c, rq.batchChains, ChainWalk::GiveBack, walked, lastChain);
    releaseBatch(c);
    rq.segGen++;
    rq.segEnd = now_ + tasks_[size_t(rq.curr)].remaining;
    rq.segKind = SegmentKind::OpEnd;
    rq.segPushedAt = rq.batchOpSince;
    queue_.push(rq.segEnd, rq.segPushedAt, EventKind::Segment, c, rq.segGen);
}

// The batch's reservations are all done or given back: unlist it.
void Engine::releaseBatch(CpuId c) {
    CpuRq& rq = rqs_[size_t(c)];
    for (const int32_t ch : rq.batchChannels) channels_[size_t(ch)].batchers[size_t(c) / 64] &= ~(uint64_t(1) << (c % 64));
    rq.batchChannels.clear();
    rq.batchChains = 0;
}

// Before an operation done the normal way on ch: the batches using ch catch up to now.
void Engine::touchChannel(int32_t ch) {
    const auto listed = channels_[size_t(ch)].batchers; // a copy: a batch that ends unlists itself
    for (size_t w = 0; w < listed.size(); ++w)
        for (uint64_t bits = listed[w]; bits; bits &= bits - 1) runBatch(CpuId(w * 64 + size_t(std::countr_zero(bits))));
}

// After it: cut the batches on ch if the reservations no longer hold in every order.
void Engine::checkChannel(int32_t ch) {
    const Channel& q = channels_[size_t(ch)];
    const auto listed = q.batchers;
    if (std::all_of(listed.begin(), listed.end(), [](uint64_t w) { return w == 0; })) return;
    const bool writesHold = q.readers.empty() ? q.count + q.pendingWrites <= q.capacity : q.pendingWrites == 0;
    const int64_t low = q.count - q.pendingReads;
    const bool readsHold = low >= 0 && (q.writers.empty() || (q.wakeAllWritersAt >= 0 ? low > q.wakeAllWritersAt : q.pendingReads == 0));
    if (writesHold && readsHold) return;
    for (size_t w = 0; w < listed.size(); ++w)
        for (uint64_t bits = listed[w]; bits; bits &= bits - 1) cutBatch(CpuId(w * 64 + size_t(std::countr_zero(bits))));
}

} // namespace sched
