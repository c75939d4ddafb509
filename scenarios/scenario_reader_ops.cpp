// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario reader's behaviour language: a task's operations and the distributions of their
// durations.
#include "scenarios/scenario_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace scen::detail {

namespace {
// The names a scenario defined, for "no X named ..." messages.
std::string namesOf(const std::map<std::string, int>& index) {
    std::string list;
    for (const auto& [n, i] : index)
        list += (list.empty() ? "" : ", ") + n;
    return list.empty() ? "(none)" : list;
}
} // namespace

bool ScenarioReader::distribution(const JsonValue& v, const std::string& f, Distribution& out) {
    if (v.isString() || v.isNumber()) {
        Time d = 0;
        if (!duration(v, f, d)) return false;
        out = Distribution::fixed(d);
        return true;
    }
    if (!v.isObject())
        return fail(v.pos, f,
                    "expected a duration (\"8ms\") or a distribution object ({\"dist\": \"uniform\", ...})");
    const JsonValue* k = v.find("dist");
    if (!k || !k->isString())
        return fail(v.pos, f,
                    "a distribution needs \"dist\": one of fixed, uniform, exponential, normal, lognormal, "
                    "empirical");
    const std::string& kind = k->text;
    Time lo = 0, hi = kNever;
    auto get = [&](const char* key, Time& dst) -> bool {
        const JsonValue* x = v.find(key);
        if (!x) return fail(v.pos, f, "a " + kind + " distribution needs \"" + key + "\"");
        return duration(*x, join(f, key), dst);
    };
    auto bounds = [&]() -> bool {
        if (auto* x = v.find("lo"); x && !duration(*x, join(f, "lo"), lo)) return false;
        if (auto* x = v.find("hi"); x && !duration(*x, join(f, "hi"), hi)) return false;
        if (lo > hi) return fail(v.pos, f, "\"lo\" is above \"hi\"");
        return true;
    };
    Time a = 0, b = 0;
    if (kind == "fixed") {
        if (!checkKeys(v, f, {"dist", "value"}) || !get("value", a)) return false;
        out = Distribution::fixed(a);
    } else if (kind == "uniform") {
        if (!checkKeys(v, f, {"dist", "min", "max"}) || !get("min", a) || !get("max", b)) return false;
        if (a > b) return fail(v.pos, f, "\"min\" is above \"max\"");
        out = Distribution::uniform(a, b);
    } else if (kind == "exponential") {
        if (!checkKeys(v, f, {"dist", "mean", "lo", "hi"}) || !get("mean", a) || !bounds()) return false;
        out = Distribution::exponential(a);
    } else if (kind == "normal" || kind == "lognormal") {
        if (!checkKeys(v, f, {"dist", "mean", "sd", "lo", "hi"}) || !get("mean", a) || !get("sd", b) ||
            !bounds())
            return false;
        out = kind == "normal" ? Distribution::normal(a, b) : Distribution::lognormal(a, b);
    } else if (kind == "empirical") {
        if (!checkKeys(v, f, {"dist", "quantiles", "lo", "hi"}) || !bounds()) return false;
        const JsonValue* q = v.find("quantiles");
        const std::string qf = join(f, "quantiles");
        if (!q)
            return fail(v.pos, f,
                        "an empirical distribution needs \"quantiles\": the values at probabilities 0 ... 1, "
                        "evenly spaced");
        if (!expect(*q, JT::Array, qf)) return false;
        if (q->items.size() < 2 || q->items.size() > 1001)
            return fail(q->pos, qf,
                        "give 2 to 1001 values (the minimum, evenly spaced quantiles, the maximum); found " +
                            std::to_string(q->items.size()));
        std::vector<Time> values;
        for (size_t i = 0; i < q->items.size(); ++i) {
            Time d = 0;
            if (!duration(q->items[i], idx(qf, i), d)) return false;
            if (!values.empty() && d < values.back())
                return fail(q->items[i].pos, idx(qf, i),
                            "quantiles must not decrease; this one is below the one before");
            values.push_back(d);
        }
        out = Distribution::empirical(std::move(values));
    } else {
        return fail(k->pos, join(f, "dist"),
                    "unknown distribution '" + kind +
                        "'; accepted: fixed, uniform, exponential, normal, lognormal, empirical");
    }
    out.min = std::max(out.min, lo);
    out.max = std::min(out.max, hi);
    return true;
}

// {"cycle": [{"run": D, "sleep": D, "next": [p0, p1, ...], "share": s}, ...]}: a run, then a
// sleep, whose class (one row) follows a Markov chain from cycle to cycle (CycleClasses): two ops.
// A run's options (mode, cond_resched_every, might_resched_every) and a sleep's (jiffies, idle)
// beside "cycle" apply to every class: a kernel thread's periodic work with its own phase.
bool ScenarioReader::cycle(const JsonValue& v, const std::string& f, Program& prog) {
    if (!checkKeys(v, f, {"cycle", "mode", "cond_resched_every", "might_resched_every", "jiffies", "idle"}))
        return false;
    const JsonValue& arr = *v.find("cycle");
    const std::string af = join(f, "cycle");
    if (!expect(arr, JT::Array, af)) return false;
    if (prog.cycles.size() >= size_t(kMaxCycles))
        return fail(v.pos, f, "at most " + std::to_string(kMaxCycles) + " cycle operations in one program");
    const size_t n = arr.items.size();
    if (n < 1 || n > 100)
        return fail(arr.pos, af,
                    "give 1 to 100 classes, each {\"run\": ..., \"sleep\": ..., \"next\": [...]}; found " +
                        std::to_string(n));
    CycleClasses cc;
    std::vector<double> share(n, 1.0);
    for (size_t i = 0; i < n; ++i) {
        const JsonValue& c = arr.items[i];
        const std::string cf = idx(af, i);
        if (!expect(c, JT::Object, cf) || !checkKeys(c, cf, {"run", "sleep", "next", "share"})) return false;
        for (const char* k : {"run", "sleep", "next"})
            if (!c.find(k))
                return fail(c.pos, cf,
                            std::string("a cycle class needs \"") + k +
                                "\" (accepted: run, sleep, next, share)");
        Distribution run, sleep;
        if (!distribution(*c.find("run"), join(cf, "run"), run) ||
            !distribution(*c.find("sleep"), join(cf, "sleep"), sleep))
            return false;
        cc.run.push_back(run);
        cc.sleep.push_back(sleep);
        const JsonValue& nx = *c.find("next");
        const std::string nf = join(cf, "next");
        if (!expect(nx, JT::Array, nf)) return false;
        if (nx.items.size() != n)
            return fail(nx.pos, nf,
                        "give the probability of each class (" + std::to_string(n) +
                            ") for the next cycle; found " + std::to_string(nx.items.size()));
        std::vector<double> p;
        double sum = 0;
        for (size_t j = 0; j < n; ++j) {
            if (!expect(nx.items[j], JT::Number, idx(nf, j))) return false;
            const double x = nx.items[j].number;
            if (!(x >= 0 && x <= 1))
                return fail(nx.items[j].pos, idx(nf, j),
                            "a probability is from 0 to 1; found " + nx.items[j].text);
            p.push_back(sum += x);
        }
        if (std::abs(sum - 1) > 1e-3) {
            char b[32];
            std::snprintf(b, sizeof b, "%g", sum);
            return fail(nx.pos, nf,
                        std::string("the probabilities add up to ") + b + "; they must add up to 1");
        }
        for (double& x : p)
            x /= sum;
        cc.next.push_back(std::move(p));
        if (auto* s = c.find("share")) {
            if (!expect(*s, JT::Number, join(cf, "share"))) return false;
            if (!(s->number >= 0))
                return fail(s->pos, join(cf, "share"),
                            "a share is 0 or more (how often the first cycle is of this class)");
            share[i] = s->number;
        }
    }
    double total = 0;
    for (double s : share)
        cc.share.push_back(total += s);
    if (total <= 0) return fail(arr.pos, af, "the classes' shares are all 0");
    for (double& x : cc.share)
        x /= total;
    Op run, sleep;
    run.kind = OpKind::Run;
    sleep.kind = OpKind::Sleep;
    if (!runOptions(v, f, run) || !sleepOptions(v, f, sleep)) return false; // the run's and the sleep's
    run.cycle = sleep.cycle = int8_t(prog.cycles.size());
    prog.cycles.push_back(std::move(cc));
    prog.ops.push_back(run);
    prog.ops.push_back(sleep);
    return true;
}

bool ScenarioReader::runOptions(const JsonValue& v, const std::string& f, Op& op) {
    if (!held_.empty()) op.mode = ExecMode::Kernel; // a critical section runs in the kernel
    if (auto* m = v.find("mode")) {
        if (!expect(*m, JT::String, join(f, "mode"))) return false;
        if (m->text == "user" && !held_.empty())
            return fail(m->pos, join(f, "mode"),
                        "user mode inside a mutex's critical section, which is kernel code; accepted there: "
                        "kernel, kernel-nopreempt");
        if (m->text == "user")
            op.mode = ExecMode::User;
        else if (m->text == "kernel")
            op.mode = ExecMode::Kernel;
        else if (m->text == "kernel-nopreempt")
            op.mode = ExecMode::KernelNoPreempt;
        else
            return fail(m->pos, join(f, "mode"),
                        "unknown mode '" + m->text + "'; accepted: user, kernel, kernel-nopreempt");
    }
    for (auto [key, dst] : {std::pair{"cond_resched_every", &op.condReschedEvery},
                            std::pair{"might_resched_every", &op.mightReschedEvery}}) {
        if (auto* x = v.find(key)) {
            if (op.mode != ExecMode::Kernel)
                return fail(x->pos, join(f, key), "resched points exist only in \"mode\": \"kernel\"");
            if (!duration(*x, join(f, key), *dst, kNsPerUs)) return false;
        }
    }
    return true;
}

bool ScenarioReader::sleepOptions(const JsonValue& v, const std::string& f, Op& op) {
    if (auto* x = v.find("jiffies"); x && !boolean(*x, join(f, "jiffies"), op.jiffies)) return false;
    if (auto* x = v.find("idle"); x && !boolean(*x, join(f, "idle"), op.idleWait)) return false;
    return true;
}

bool ScenarioReader::ops(const JsonValue& arr, const std::string& f, Program& prog, int depth) {
    if (!expect(arr, JT::Array, f)) return false;
    if (arr.items.empty()) return fail(arr.pos, f, "a behaviour needs at least one operation");
    if (depth == 0) held_.clear();
    const std::vector<int> heldBefore = held_;
    for (size_t i = 0; i < arr.items.size(); ++i)
        if (!op(arr.items[i], idx(f, i), prog, depth)) return false;
    // A mutex locked in a repeat's body or a program is unlocked in it: a second pass would
    // lock it again (a self-deadlock), and a task cannot exit holding one.
    if (held_ != heldBefore) {
        std::string names;
        for (const int m : held_)
            if (std::find(heldBefore.begin(), heldBefore.end(), m) == heldBefore.end())
                for (const auto& [n, i] : mutexIndex_)
                    if (i == m) names += (names.empty() ? "'" : ", '") + n + "'";
        return fail(
            arr.pos, f,
            (depth == 0 ? "the behaviour ends holding mutex " : "the body ends holding mutex ") + names +
                "; accepted: every \"lock\" followed by an \"unlock\" of the same mutex in the same " +
                (depth == 0 ? "behaviour" : "body"));
    }
    return true;
}

bool ScenarioReader::op(const JsonValue& v, const std::string& f, Program& prog, int depth) {
    static const char* kinds =
        "run, sleep, cycle, timer, write, read, lock, unlock, fork, wait, yield, slice_ext, repeat, exit";
    if (!expect(v, JT::Object, f)) return false;
    std::string kind;
    for (const char* k : {"run", "sleep", "cycle", "timer", "write", "read", "lock", "unlock", "fork", "wait",
                          "yield", "slice_ext", "repeat", "exit"})
        if (v.find(k)) {
            if (!kind.empty())
                return fail(v.pos, f, "one operation per object; found both '" + kind + "' and '" + k + "'");
            kind = k;
        }
    if (kind.empty())
        return fail(v.pos, f, std::string("no operation named; each object needs one of: ") + kinds);
    if (!held_.empty() && (kind == "cycle" || kind == "fork" || kind == "wait" || kind == "yield" ||
                           kind == "slice_ext" || kind == "exit"))
        return fail(
            v.pos, f,
            "'" + kind +
                "' inside a mutex's critical section (between \"lock\" and \"unlock\"), where the task "
                "is in the kernel; accepted there: run (in kernel mode), sleep, timer, read, write, lock, "
                "unlock, repeat");
    if (kind == "cycle") return cycle(v, f, prog);
    const JsonValue& arg = *v.find(kind);
    const std::string af = join(f, kind);
    Op op;
    if (kind == "run") {
        if (!checkKeys(v, f, {"run", "mode", "cond_resched_every", "might_resched_every"})) return false;
        op.kind = OpKind::Run;
        if (!distribution(arg, af, op.duration) || !runOptions(v, f, op)) return false;
    } else if (kind == "sleep") {
        if (!checkKeys(v, f, {"sleep", "jiffies", "idle"})) return false;
        op.kind = OpKind::Sleep;
        if (!distribution(arg, af, op.duration) || !sleepOptions(v, f, op)) return false;
    } else if (kind == "timer") {
        if (!checkKeys(v, f, {"timer", "cost"})) return false;
        op.kind = OpKind::TimerWait;
        if (!duration(arg, af, op.period, kNsPerUs)) return false;
    } else if (kind == "write" || kind == "read") {
        if (!(kind == "write" ? checkKeys(v, f, {"write", "cost"})
                              : checkKeys(v, f, {"read", "cost", "idle"})))
            return false;
        op.kind = kind == "write" ? OpKind::Write : OpKind::Read;
        if (auto* x = v.find("idle"); x && !boolean(*x, join(f, "idle"), op.idleWait)) return false;
        if (!expect(arg, JT::String, af)) return false;
        auto it = channelIndex_.find(arg.text);
        if (it == channelIndex_.end())
            return fail(arg.pos, af,
                        "no channel named '" + arg.text + "'; defined channels: " + namesOf(channelIndex_));
        op.channel = it->second;
    } else if (kind == "lock" || kind == "unlock") {
        if (!checkKeys(v, f, {kind == "lock" ? "lock" : "unlock", "cost"})) return false;
        op.kind = kind == "lock" ? OpKind::MutexLock : OpKind::MutexUnlock;
        if (!expect(arg, JT::String, af)) return false;
        auto it = mutexIndex_.find(arg.text);
        if (it == mutexIndex_.end())
            return fail(arg.pos, af,
                        "no mutex named '" + arg.text + "'; named in \"mutexes\": " + namesOf(mutexIndex_));
        op.channel = it->second;
        const auto at = std::find(held_.begin(), held_.end(), op.channel);
        if (op.kind == OpKind::MutexLock) {
            if (at != held_.end())
                return fail(
                    arg.pos, af,
                    "mutex '" + arg.text +
                        "' is already held here: a second mutex_lock() would wait for itself forever");
            held_.push_back(op.channel);
        } else {
            if (at == held_.end())
                return fail(arg.pos, af,
                            "mutex '" + arg.text +
                                "' is not held here; accepted: unlock a mutex this behaviour "
                                "locked before");
            held_.erase(at);
        }
    } else if (kind == "fork") {
        if (!checkKeys(v, f, {"fork", "count", "thread", "cost"})) return false;
        op.kind = OpKind::Fork;
        if (!expect(arg, JT::String, af)) return false;
        auto it = programIndex_.find(arg.text);
        if (it == programIndex_.end())
            return fail(arg.pos, af, "no program named '" + arg.text + "' in \"programs\"");
        op.target = it->second;
        op.count = 1;
        if (auto* x = v.find("count"); x && !integerAs(*x, join(f, "count"), 1, 100000, op.count))
            return false;
        if (auto* x = v.find("thread"); x && !boolean(*x, join(f, "thread"), op.thread)) return false;
    } else if (kind == "wait") {
        if (!checkKeys(v, f, {"wait", "cost"})) return false;
        if (!arg.isString() || (arg.text != "children" && arg.text != "child"))
            return fail(arg.pos, af,
                        "accepted: \"children\" (wait until every child has exited) or \"child\" (reap one "
                        "child, waiting for one to exit)");
        op.kind = arg.text == "child" ? OpKind::WaitChild : OpKind::WaitChildren;
    } else if (kind == "slice_ext") { // 7.0's RSEQ time-slice extension: stores to the rseq area
        if (!checkKeys(v, f, {"slice_ext"})) return false;
        if (!arg.isString() || (arg.text != "request" && arg.text != "yield"))
            return fail(arg.pos, af,
                        "accepted: \"request\" (set rseq slice_ctrl.request before a critical section) or "
                        "\"yield\" (after it: clear the request, and call rseq_slice_yield() if an extension "
                        "was granted)");
        op.kind = arg.text == "request" ? OpKind::SliceRequest : OpKind::SliceYield;
    } else if (kind == "yield" || kind == "exit") {
        if (!checkKeys(v, f, {kind == "yield" ? "yield" : "exit", "cost"})) return false;
        if (!arg.isBool() || !arg.boolean) return fail(arg.pos, af, "write \"" + kind + "\": true");
        op.kind = kind == "yield" ? OpKind::Yield : OpKind::Exit;
    } else { // repeat
        if (!checkKeys(v, f, {"repeat", "body"})) return false;
        if (depth > 8) return fail(v.pos, f, "repeats nested deeper than 8 levels");
        if (arg.isString() && arg.text == "forever")
            op.count = 0;
        else if (arg.isString() && parseDuration(arg.text)) { // "10s": while the task is younger than that
            if (!duration(arg, af, op.until, kNsPerUs, 3600 * kNsPerSec)) return false;
        } else if (!arg.isNumber())
            return fail(arg.pos, af,
                        "accepted: a count of 1 or more, \"forever\", or a duration (\"10s\": while the task "
                        "has existed less than that)");
        else if (!integerAs(arg, af, 1, INT64_MAX / 2, op.count))
            return false;
        const JsonValue* body = v.find("body");
        if (!body) return fail(v.pos, f, "a repeat needs a \"body\": an array of operations");
        op.kind = OpKind::Loop;
        op.target = int32_t(prog.ops.size());
        if (!ops(*body, join(f, "body"), prog, depth + 1)) return false;
    }
    if (auto* c = v.find("cost");
        c && op.kind != OpKind::Run && !duration(*c, join(f, "cost"), op.cost, 0, kNsPerSec))
        return false;
    prog.ops.push_back(op);
    return true;
}

} // namespace scen::detail
