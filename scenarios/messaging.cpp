// SPDX-License-Identifier: GPL-3.0-or-later
// perf bench sched messaging (tools/perf/bench/sched-messaging.c: sender(), receiver()) and
// rt-tests hackbench (src/hackbench/hackbench.c): G groups of FDS receivers and FDS senders over
// socketpairs (or pipes). Each receiver owns a channel; every sender of a group writes LOOPS rounds
// of one message to each of the group's receivers, each receiver reads FDS * LOOPS messages.
// Workers wait for the main thread's start signal once all exist; the reported time runs from that
// signal to the last worker's exit.
#include "scenarios/workload.h"

#include <cstdio>

namespace scen {

using namespace sched;

namespace {
// Kernel time per 100-byte message on the traced 2-CPU VM, each side measured on its own
// (hackbench -g 4 -l 2000, 3.2 M messages; docs/fidelity.md, "hackbench: who pays for a message"):
// the receivers ran 8,303.5 ms in 49,503 switches, the senders 6,912.6 ms in 25,639; less the
// engine's 2 us per switch-in, its 1 us per wakeup done and the 100 ns user loop, a read costs
// 2.46 us and a write 2.03 us. The split decides how often a socket fills: readers slower than
// writers keep the buffers full and the senders blocking, as the machine's did (15.5 k blocking
// switches of senders; 6.7 k with the split the other way round, 2.0 us read / 2.2 us write).
constexpr Time kWriteCost = 2030, kReadCost = 2460, kUserPerMessage = 100;
// A syscall's kernel time varies by a few percent from call to call (cache state, lock hand-off).
// Without it every cost is a multiple of 100 ns, senders and receivers on different CPUs finish
// their calls at the same nanosecond all the time, and who goes first at such a tie (a convention
// of the event queue) decides whether a reader blocks.
Op jittered(Op o) {
    o.costJitter = o.cost / 20;
    return o;
}
// Channel room in 100-byte messages: an AF_UNIX stream socket's 208 KB send buffer charged with
// each skb's truesize (~768 B), or a 64 KiB pipe filled 40 messages per page.
int capacityFor(const MessagingArgs& a) {
    const int perMessage = a.pipe ? std::max(1, a.datasize) : std::max(1, a.datasize) + 668;
    return a.pipe ? std::max(1, 16 * (4096 / std::max(1, a.datasize))) : std::max(1, 212992 / perMessage);
}
} // namespace

std::string parseMessaging(const std::vector<std::string>& argv, bool perf, MessagingArgs& out) {
    out = MessagingArgs{};
    out.perf = perf;
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        const auto value = [&](const char* what, long long lo, long long hi, long long& n) -> std::string {
            if (i + 1 >= argv.size()) return a + ": needs a value (" + what + ")";
            if (!wholeNumber(argv[++i], lo, hi, n))
                return a + ": '" + argv[i] + "' is not " + what + "; accepted: " + std::to_string(lo) +
                       " to " + std::to_string(hi);
            return {};
        };
        long long n = 0;
        if (a == "-g" || a == "--group" || a == "--groups") {
            if (auto e = value("a group count", 1, 1000, n); !e.empty()) return e;
            out.groups = int(n);
        } else if (a == "-l" || a == "--nr_loops" || a == "--loops") {
            if (auto e = value("a loop count", 1, 10'000'000, n); !e.empty()) return e;
            out.loops = n;
        } else if (a == "-p" || a == "--pipe") {
            out.pipe = true;
        } else if ((perf && (a == "-t" || a == "--thread")) || (!perf && (a == "-T" || a == "--threads"))) {
            out.threads = true;
        } else if (!perf && (a == "-P" || a == "--process")) {
            out.threads = false;
        } else if (!perf && (a == "-f" || a == "--fds")) {
            if (auto e = value("a descriptor count", 1, 1000, n); !e.empty()) return e;
            out.fds = int(n);
        } else if (!perf && (a == "-s" || a == "--datasize")) {
            if (auto e = value("a message size in bytes", 1, 65536, n); !e.empty()) return e;
            out.datasize = int(n);
        } else {
            return perf ? "unsupported messaging option '" + a + "'; accepted: -g N, -l N, -t, -p"
                        : "unsupported hackbench option '" + a +
                              "'; accepted: -g N, -l N, -f N, -s BYTES, -T, -P, -p";
        }
    }
    if (int64_t(out.groups) * out.fds * 2 > 100000)
        return "-g: " + std::to_string(out.groups) + " groups make more than 100000 tasks";
    return {};
}

void addMessaging(const MessagingArgs& a, Scenario& s) {
    const std::string comm = a.perf ? "sched-messaging" : "hackbench";
    const int32_t wake = int32_t(s.channels.size());
    const int workers = 2 * a.fds * a.groups;
    s.channels.push_back({comm + ".wake", workers, -1, true}); // the start signal: one byte per worker
    const int cap = capacityFor(a);
    // A socket wakes all its blocked writers when a quarter of its buffer is in use
    // (unix_writable()); a pipe wakes one writer per freed slot.
    const int64_t wakeAt = a.pipe ? -1 : cap / 4;
    for (int g = 0; g < a.groups; ++g)
        for (int r = 0; r < a.fds; ++r)
            s.channels.push_back(
                {comm + ".g" + std::to_string(g) + "r" + std::to_string(r), cap, wakeAt, true});
    const auto channelOf = [&](int g, int r) { return wake + 1 + g * a.fds + r; };
    const Time creation =
        a.threads ? 15 * kNsPerUs : 60 * kNsPerUs; // clone() of a thread / fork() of a process
    // Worker programs: wait for the start signal, then the loop body from op 1, then exit.
    const auto addWorker = [&](std::vector<Op> body, int64_t rounds, const std::string& name) {
        Program p{"", {}, 0};
        p.ops.push_back(ops::channel(OpKind::Read, wake, 1000));
        for (Op& o : body)
            p.ops.push_back(o);
        p.ops.push_back(ops::loop(1, rounds));
        p.ops.push_back(ops::simple(OpKind::Exit));
        p.finalize();
        s.programs.push_back(p);
        s.programNames.push_back(name);
        return int32_t(s.programs.size() - 1);
    };
    Program main{"", {}, 0};
    for (int g = 0; g < a.groups; ++g) {
        const std::string group = comm + ".g" + std::to_string(g);
        // Receivers first, as both tools create them: each reads fds * loops messages.
        for (int r = 0; r < a.fds; ++r) {
            const int32_t prog = addWorker(
                {jittered(ops::channel(OpKind::Read, channelOf(g, r), kReadCost)), ops::run(kUserPerMessage)},
                int64_t(a.fds) * a.loops, group + ".receiver" + std::to_string(r));
            main.ops.push_back(ops::fork(prog, 1, a.threads, creation));
        }
        // The group's senders: loops rounds of one message to each receiver, in order.
        std::vector<Op> round;
        for (int r = 0; r < a.fds; ++r)
            round.push_back(jittered(ops::channel(OpKind::Write, channelOf(g, r), kWriteCost)));
        round.push_back(ops::run(kUserPerMessage * a.fds));
        main.ops.push_back(
            ops::fork(addWorker(round, a.loops, group + ".sender"), a.fds, a.threads, creation));
    }
    // All created: the start signal, one byte per worker, then wait for them all.
    const int32_t signalAt = int32_t(main.ops.size());
    main.ops.push_back(ops::channel(OpKind::Write, wake, 1000));
    main.ops.push_back(ops::loop(signalAt, workers));
    main.ops.push_back(ops::simple(OpKind::WaitChildren));
    main.ops.push_back(ops::simple(OpKind::Exit));
    main.finalize();
    TaskGroupSpec g;
    g.comm = comm;
    g.program = int32_t(s.programs.size());
    s.programs.push_back(main);
    s.programNames.push_back(comm + ".main");
    s.tasks.push_back(g);
}

std::string messagingReport(const Workload& w, const Engine& e) {
    const auto& a = std::get<MessagingArgs>(w.params);
    // From the start signal (all workers exist: the last one's creation) to the last exit.
    const TaskId main = w.firstTask;
    // The end is the workers' last switch-out (their exits), or the end of the run for one still
    // on a CPU when it ended (finish() closes its slice there): the last slice's end, which the
    // trace need not hold any more (LatencyFold).
    std::vector<char> running(e.tasks().size(), 0);
    if (e.finished())
        for (const CpuRq& rq : e.cpus())
            if (rq.curr >= 0) running[size_t(rq.curr)] = 1;
    Time start = 0, end = 0;
    bool allDone = true;
    for (TaskId t = 0; t < TaskId(e.tasks().size()); ++t) {
        const Task& task = e.tasks()[size_t(t)];
        if (task.parent != main) continue;
        start = std::max(start, task.startedAt);
        allDone = allDone && task.state == TaskState::Dead;
        end = std::max(end, running[size_t(t)] ? e.now() : task.lastRanAt);
    }
    const int tasks = 2 * a.fds * a.groups;
    char buf[256];
    std::string out;
    if (a.perf) {
        std::snprintf(buf, sizeof buf,
                      "# Running 'sched/messaging' benchmark:\n# %d sender and receiver %s per group\n# %d "
                      "groups == %d %s run\n\n",
                      a.fds, a.threads ? "threads" : "processes", a.groups, tasks,
                      a.threads ? "threads" : "processes");
        out += buf;
        std::snprintf(buf, sizeof buf, "     Total time: %.3f [sec]\n", double(end - start) / 1e9);
    } else {
        std::snprintf(buf, sizeof buf,
                      "Running in %s mode with %d groups using %d file descriptors each (== %d tasks)\n"
                      "Each sender will pass %lld messages of %d bytes\n",
                      a.threads ? "threaded" : "process", a.groups, 2 * a.fds, tasks, (long long)a.loops,
                      a.datasize);
        out += buf;
        std::snprintf(buf, sizeof buf, "Time: %.3f\n", double(end - start) / 1e9);
    }
    out += buf;
    if (!allDone) out += "# (the run ended before every worker finished: the time is a lower bound)\n";
    return out;
}

} // namespace scen
