// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace/import.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>

namespace sched {

std::string_view traceFormatName(TraceFormat f) {
    switch (f) {
    case TraceFormat::Ftrace: return "ftrace text";
    case TraceFormat::TraceCmd: return "trace-cmd report";
    case TraceFormat::PerfScript: return "perf script";
    case TraceFormat::Unknown: break;
    }
    return "unknown";
}

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

template <class T> bool number(std::string_view s, T& out) {
    if (s.empty()) return false;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}

// A pid the kernel can give: 0 (idle) to PID_MAX_LIMIT - 1 (include/linux/threads.h: 4 * 1024 *
// 1024 on 64-bit). A garbled larger one would otherwise size the pid -> task table.
constexpr int32_t kPidMaxLimit = 4 * 1024 * 1024;
constexpr Time kMaxTraceSpan = Time(1) << 50; // 13 days: see line()
bool pidNumber(std::string_view s, int32_t& out) { return number(s, out) && out >= 0 && out < kPidMaxLimit; }

// "976.785403" -> ns (any number of decimals up to 9), up to 2^63 ns (292 years).
bool timestamp(std::string_view s, Time& out) {
    const size_t dot = s.find('.');
    int64_t sec = 0, frac = 0;
    if (dot == std::string_view::npos || !number(s.substr(0, dot), sec) || sec < 0 || sec >= INT64_MAX / kNsPerSec) return false;
    const std::string_view f = s.substr(dot + 1);
    if (f.empty() || f.size() > 9 || !number(f, frac)) return false;
    for (size_t i = f.size(); i < 9; ++i) frac *= 10;
    out = sec * kNsPerSec + frac;
    return true;
}

// The value after "key=" up to the next " " + one of the stop keys (comms may hold blanks).
std::string_view field(std::string_view payload, std::string_view key, std::string_view nextKey = {}) {
    const size_t at = payload.find(key);
    if (at == std::string_view::npos) return {};
    std::string_view v = payload.substr(at + key.size());
    size_t end = nextKey.empty() ? v.find(' ') : v.find(nextKey);
    if (end == std::string_view::npos) end = v.size();
    return v.substr(0, end);
}

// "comm:pid [prio]" (libtraceevent's sched plugin), parsed from the right: comms may hold ':'.
bool pluginTask(std::string_view s, std::string_view& comm, int32_t& pid, int& prio) {
    s = trim(s);
    const size_t lb = s.rfind(" [");
    if (lb == std::string_view::npos || s.back() != ']') return false;
    if (!number(s.substr(lb + 2, s.size() - lb - 3), prio)) return false;
    const std::string_view cp = s.substr(0, lb);
    const size_t colon = cp.rfind(':');
    if (colon == std::string_view::npos || !pidNumber(cp.substr(colon + 1), pid)) return false;
    comm = cp.substr(0, colon);
    return true;
}

uint8_t pointForState(std::string_view state) {
    if (state == "R+") return uint8_t(SwitchPoint::IrqReturn);  // SM_PREEMPT
    if (state == "R") return uint8_t(SwitchPoint::ExitToUser);  // runnable, not a preemption: return to user, yield
    if (state.find('X') != std::string_view::npos || state.find('Z') != std::string_view::npos) return uint8_t(SwitchPoint::Exit);
    return uint8_t(SwitchPoint::Block);
}

} // namespace

std::string ImportReport::summary() const {
    char b[256];
    std::string out;
    std::snprintf(b, sizeof b, "%s: %lld lines, %lld sched events, %d CPUs, %.6f s\n", std::string(traceFormatName(format)).c_str(),
                  (long long)lines, (long long)events, cpus, double(last - first) / 1e9);
    out += b;
    if (malformed > 0) {
        std::snprintf(b, sizeof b, "%lld malformed or truncated lines skipped", (long long)malformed);
        out += b;
        if (!problems.empty()) out += ", the first at line " + std::to_string(problems[0].line) + ": " + problems[0].what;
        out += "\n";
    }
    if (missingSwitchOut > 0) {
        std::snprintf(b, sizeof b, "%lld switch-outs missing: those slices end at the task's last event on its CPU\n", (long long)missingSwitchOut);
        out += b;
    }
    if (missingSwitchIn > 0) {
        std::snprintf(b, sizeof b,
                      "%lld switch-ins missing (e.g. idle exits): those slices start at the wakeup + %.1f us (the median idle exit "
                      "recorded elsewhere), or at the task's first event on the CPU\n",
                      (long long)missingSwitchIn, double(idleExitDelay) / 1e3);
        out += b;
    }
    if (unordered > 0) {
        std::snprintf(b, sizeof b, "%lld lines with a timestamp earlier than the previous one on their CPU\n", (long long)unordered);
        out += b;
    }
    return out;
}

void TraceImporter::feed(std::string_view data) {
    while (!data.empty()) {
        const size_t nl = data.find('\n');
        if (nl == std::string_view::npos) {
            pending_.append(data);
            return;
        }
        if (pending_.empty()) {
            line(data.substr(0, nl));
        } else {
            pending_.append(data.substr(0, nl));
            line(pending_);
            pending_.clear();
        }
        data.remove_prefix(nl + 1);
    }
}

void TraceImporter::malformed(std::string what) {
    report_.malformed++;
    if (report_.problems.size() < ImportReport::kMaxProblems) report_.problems.push_back({report_.lines, std::move(what)});
}

TaskId TraceImporter::task(int32_t pid, std::string_view comm, int prio) {
    if (pid <= 0) return kNoTask;
    if (size_t(pid) >= byPid_.size()) byPid_.resize(size_t(pid) + 1, kNoTask);
    TaskId& id = byPid_[size_t(pid)];
    if (id == kNoTask) {
        id = TaskId(trace_.tasks.size());
        trace_.tasks.push_back(TraceTask{pid, pid, std::string(comm), prio >= 0 ? prio : 120, 0});
    } else if (!comm.empty() && trace_.tasks[size_t(id)].comm != comm && comm != "<...>") {
        trace_.tasks[size_t(id)].comm = std::string(comm); // exec renamed it: perf reports the last comm
    }
    if (prio >= 0) trace_.tasks[size_t(id)].prio = prio;
    return id;
}

TraceImporter::CpuState& TraceImporter::cpu(int c) {
    if (size_t(c) >= cpus_.size()) cpus_.resize(size_t(c) + 1);
    trace_.cpus = std::max(trace_.cpus, c + 1);
    return cpus_[size_t(c)];
}

void TraceImporter::openSlice(int c, int32_t pid, Time start, bool evidenceOnly) {
    CpuState& cs = cpu(c);
    cs.curr = pid;
    cs.lastSeen = start;
    cs.slice = -1;
    if (pid <= 0) return;
    Slices& s = trace_.slices;
    cs.slice = int64_t(s.size());
    s.push(start, start, task(pid, {}), uint16_t(c), kStillRunning, kNoReason);
    if (evidenceOnly) {
        // No recorded switch-in: if the task was woken onto this CPU, it started about one idle
        // exit after that wakeup (fixed in finish() with the median measured where recorded).
        report_.missingSwitchIn++;
        auto it = lastWakeup_.find(pid);
        if (it != lastWakeup_.end() && it->second <= start) estimatedStarts_.push_back({cs.slice, it->second, cs.lastTime});
    }
}

void TraceImporter::closeSlice(int c, Time end, uint8_t point) {
    CpuState& cs = cpu(c);
    if (cs.slice >= 0) {
        trace_.slices.end[size_t(cs.slice)] = std::max(end, trace_.slices.start[size_t(cs.slice)]);
        trace_.slices.endPoint[size_t(cs.slice)] = point;
    }
    // __schedule() clears both need-resched bits of the task it switches away from.
    for (int& slot : cs.flagSlot)
        if (slot >= 0) {
            trace_.flags.clear[size_t(slot)] = end;
            trace_.flags.clearedBy[size_t(slot)] = point;
            slot = -1;
        }
    cs.slice = -1;
}

void TraceImporter::flagObservation(int c, Time t, char nr) {
    // need-resched column (kernel §8): N/n/p/B/b carry TIF_NEED_RESCHED (or its folded form),
    // L/l/B/b TIF_NEED_RESCHED_LAZY.
    const bool eager = nr == 'N' || nr == 'n' || nr == 'p' || nr == 'B' || nr == 'b';
    const bool lazy = nr == 'L' || nr == 'l' || nr == 'B' || nr == 'b';
    CpuState& cs = cpu(c);
    FlagIntervals& f = trace_.flags;
    for (int bit = 0; bit < 2; ++bit) {
        const bool on = bit == 0 ? eager : lazy;
        int& slot = cs.flagSlot[bit];
        if (on && slot < 0) {
            slot = int(f.set.size());
            f.push(t, t, cs.curr > 0 ? task(cs.curr, {}) : kNoTask, uint16_t(c), uint8_t(bit == 0 ? ReschedBit::Eager : ReschedBit::Lazy), kNoReason,
                   kStillRunning);
        } else if (!on && slot >= 0) {
            f.clear[size_t(slot)] = t;
            slot = -1;
        } else if (on) {
            f.clear[size_t(slot)] = t;
        }
    }
}

void TraceImporter::observePrefix(int c, int32_t pid, std::string_view comm, Time t, char nr) {
    CpuState& cs = cpu(c);
    if (t < cs.lastTime) report_.unordered++;
    if (pid > 0) task(pid, comm);
    if (cs.curr == -1) { // the first event of this CPU: whoever runs has run since before the trace
        openSlice(c, pid, t, false);
    } else if (cs.curr != pid) {
        // The trace holds no switch between what it last showed on this CPU and this task.
        if (cs.curr > 0) {
            report_.missingSwitchOut++;
            closeSlice(c, cs.lastSeen, uint8_t(SwitchPoint::Block));
        } else {
            closeSlice(c, t, uint8_t(SwitchPoint::Block));
        }
        openSlice(c, pid, t, pid > 0);
    }
    cs.lastSeen = t;
    cs.lastTime = std::max(cs.lastTime, t);
    if (nr != 0) flagObservation(c, t, nr);
}

void TraceImporter::switchEvent(int c, Time t, std::string_view p) {
    std::string_view prevComm, nextComm, prevState;
    int32_t prevPid = 0, nextPid = 0;
    int prevPrio = 0, nextPrio = 0;
    const size_t arrow = p.find(" ==> ");
    if (arrow == std::string_view::npos) return malformed("sched_switch without ' ==> '");
    if (p.rfind("prev_comm=", 0) == 0) { // the tracepoint's own format
        prevComm = field(p, "prev_comm=", " prev_pid=");
        nextComm = field(p, "next_comm=", " next_pid=");
        prevState = field(p, "prev_state=");
        if (!pidNumber(field(p, "prev_pid="), prevPid) || !pidNumber(field(p, "next_pid="), nextPid) ||
            !number(field(p, "prev_prio="), prevPrio) || !number(field(p, "next_prio="), nextPrio) || prevState.empty())
            return malformed("sched_switch: a field is missing or not a number (prev_pid, prev_prio, prev_state, next_pid, next_prio; "
                             "pids 0 to 4194303)");
    } else { // libtraceevent's sched plugin: "comm:pid [prio] STATE ==> comm:pid [prio]"
        std::string_view left = p.substr(0, arrow);
        const size_t sp = left.rfind(' ');
        if (sp == std::string_view::npos) return malformed("sched_switch: no prev_state before ' ==> '");
        prevState = left.substr(sp + 1);
        if (!pluginTask(left.substr(0, sp), prevComm, prevPid, prevPrio) || !pluginTask(p.substr(arrow + 5), nextComm, nextPid, nextPrio))
            return malformed("sched_switch: expected 'comm:pid [prio] STATE ==> comm:pid [prio]'");
    }
    CpuState& cs = cpu(c);
    if (cs.curr != prevPid) { // the prefix (perf: the same) disagrees with prev: trust the event
        if (cs.curr > 0) {
            report_.missingSwitchOut++;
            closeSlice(c, cs.lastSeen, uint8_t(SwitchPoint::Block));
        }
        openSlice(c, prevPid, t, prevPid > 0 && cs.curr != -1);
    }
    if (prevPid > 0) task(prevPid, prevComm, prevPrio);
    // Idle exit delay where the trace shows both the wakeup and the switch from idle.
    if (prevPid == 0 && nextPid > 0) {
        auto it = lastWakeup_.find(nextPid);
        if (it != lastWakeup_.end() && t >= it->second && t - it->second < 10 * kNsPerMs) idleExitDelays_.push_back(t - it->second);
    }
    closeSlice(c, t, pointForState(prevState));
    if (nextPid > 0) task(nextPid, nextComm, nextPrio);
    openSlice(c, nextPid, t, false);
    report_.events++;
}

void TraceImporter::wakeEvent(int c, int32_t wakerPid, Time t, std::string_view p, bool waking, bool isNew) {
    std::string_view comm;
    int32_t pid = 0;
    int prio = 0, target = 0;
    if (p.rfind("comm=", 0) == 0) {
        comm = field(p, "comm=", " pid=");
        if (!pidNumber(field(p, " pid="), pid) || !number(field(p, "prio="), prio) || !number(field(p, "target_cpu="), target))
            return malformed("wakeup: a field is missing or not a number (pid 0 to 4194303, prio, target_cpu)");
    } else { // plugin: "comm:pid [prio] [success=1] CPU:NNN"
        const size_t cpuAt = p.rfind(" CPU:");
        if (cpuAt == std::string_view::npos || !number(trim(p.substr(cpuAt + 5)), target)) return malformed("wakeup: no ' CPU:' target");
        std::string_view head = p.substr(0, cpuAt);
        if (const size_t s = head.rfind(" success="); s != std::string_view::npos) head = head.substr(0, s);
        if (!pluginTask(head, comm, pid, prio)) return malformed("wakeup: expected 'comm:pid [prio]'");
    }
    if (target < 0 || target > 4095) return malformed("wakeup: target_cpu out of range");
    const TaskId wakee = task(pid, comm, prio);
    if (wakee == kNoTask) return malformed("wakeup of pid 0");
    cpu(target);
    Wakeups& w = trace_.wakeups;
    auto pending = pendingWaking_.find(pid);
    if (!waking && !isNew && pending != pendingWaking_.end()) { // sched_wakeup after its sched_waking: the chosen CPU
        w.targetCpu[pending->second] = uint16_t(target);
        pendingWaking_.erase(pending);
    } else {
        const size_t i = w.size();
        // A wakeup from interrupt context (a timer, an IRQ) has no waking task: the prefix only
        // names whoever the interrupt arrived on.
        w.push(t, wakerPid > 0 && !inIrq_ ? task(wakerPid, {}) : kNoTask, wakee, uint16_t(c), uint16_t(target), isNew);
        if (waking) pendingWaking_[pid] = i;
        lastWakeup_[pid] = t;
    }
    report_.events++;
}

void TraceImporter::migrateEvent(Time t, std::string_view p) {
    int32_t pid = 0;
    int orig = 0, dest = 0;
    if (!pidNumber(field(p, " pid="), pid) || !number(field(p, "orig_cpu="), orig) || !number(field(p, "dest_cpu="), dest) || orig < 0 ||
        dest < 0 || orig > 4095 || dest > 4095)
        return malformed("sched_migrate_task: expected pid= (0 to 4194303), orig_cpu=, dest_cpu= (0 to 4095)");
    const TaskId id = task(pid, field(p, "comm=", " pid="));
    if (id == kNoTask) return;
    trace_.migrations.push(t, id, uint16_t(orig), uint16_t(dest));
    report_.events++;
}

void TraceImporter::forkEvent(std::string_view p) {
    int32_t parent = 0, child = 0;
    if (!pidNumber(field(p, " pid="), parent) || !pidNumber(field(p, "child_pid="), child))
        return malformed("sched_process_fork: expected pid= and child_pid= (0 to 4194303)");
    const TaskId c = task(child, field(p, "child_comm=", " child_pid="));
    if (c != kNoTask) trace_.tasks[size_t(c)].ppid = parent;
    task(parent, field(p, "comm=", " pid="));
    report_.events++;
}

namespace {
// Where "CPUFLAGS" starts in a trace-cmd report -l line: the token before the first
// "SECONDS.MICROS:" token that is digits followed by four or five latency flag characters
// (irqs-off, need-resched, hardirq/softirq, preempt depth, migrate-disable); npos if none.
size_t latencyCpuField(std::string_view l) {
    size_t i = 0;
    size_t prev = std::string_view::npos;
    while (i < l.size()) {
        while (i < l.size() && l[i] == ' ') ++i;
        const size_t start = i;
        while (i < l.size() && l[i] != ' ') ++i;
        const std::string_view tok = l.substr(start, i - start);
        if (tok.size() > 2 && tok.back() == ':' && tok.find('.') != std::string_view::npos &&
            tok.find_first_not_of("0123456789.:") == std::string_view::npos) {
            if (prev == std::string_view::npos) return prev;
            const std::string_view f = l.substr(prev, l.find(' ', prev) - prev);
            size_t d = 0;
            while (d < f.size() && f[d] >= '0' && f[d] <= '9') ++d;
            const size_t n = f.size() - d;
            if (d == 0 || n < 4 || n > 5 || std::string_view(".dDbX").find(f[d]) == std::string_view::npos) return std::string_view::npos;
            return prev;
        }
        if (!tok.empty()) prev = start;
    }
    return std::string_view::npos;
}
} // namespace

void TraceImporter::line(std::string_view l) {
    report_.lines++;
    while (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (trim(l).empty() || trim(l).front() == '#') {
        // ftrace's header tells the CPU count: "# entries-in-buffer/entries-written: 1/1   #P:2"
        if (const size_t p = l.find("#P:"); p != std::string_view::npos) {
            int n = 0;
            if (number(trim(l.substr(p + 3)), n) && n > 0 && n <= 4096) cpu(n - 1);
        }
        return;
    }
    // "COMM-PID [CPU] FLAGS TIMESTAMP: EVENT: PAYLOAD" (ftrace), the same without FLAGS
    // (trace-cmd report), "COMM TID [CPU] TIMESTAMP: sched:EVENT: PAYLOAD" (perf script).
    size_t lb = l.find('[');
    while (lb != std::string_view::npos) {
        const size_t rb = l.find(']', lb);
        int c = 0;
        if (rb != std::string_view::npos && rb > lb + 1 && number(l.substr(lb + 1, rb - lb - 1), c)) break;
        lb = l.find('[', lb + 1);
    }
    int c = 0;
    std::string_view rest, flags;
    // trace-cmd report -l: "COMM-PID CPUFLAGS TIMESTAMP: EVENT: PAYLOAD", the CPU number run
    // together with the latency flags ("  <idle>-0      15dN.2.   100.000000: ..."); a "[120]"
    // further on is the payload's.
    // (Bracketed formats have their '[CPU]' before the first ": "; only other lines are tried.)
    const size_t latency = lb != std::string_view::npos && lb < l.find(": ") ? std::string_view::npos : latencyCpuField(l);
    if (latency != std::string_view::npos) lb = std::string_view::npos;
    if (lb == std::string_view::npos || lb == 0) {
        if (const size_t at = latency; at != std::string_view::npos) {
            size_t d = at;
            while (d < l.size() && l[d] >= '0' && l[d] <= '9') ++d;
            number(l.substr(at, d - at), c);
            const size_t end = l.find(' ', d);
            flags = l.substr(d, end - d);
            rest = trim(l.substr(end));
            lb = at; // the task part ends here
        } else if (!sawEvent_) { // trace-cmd report's header ("version = 6", "cpus=2", "CPU 1 is empty")
            int n = 0;
            if (l.rfind("cpus=", 0) == 0 && number(trim(l.substr(5)), n) && n > 0 && n <= 4096) cpu(n - 1);
            return;
        } else {
            return malformed("no '[CPU]' field");
        }
    } else {
        const size_t rb = l.find(']', lb);
        number(l.substr(lb + 1, rb - lb - 1), c);
        rest = trim(l.substr(rb + 1));
    }
    if (c < 0 || c > 4095) return malformed("CPU number out of range");
    // Optional flags, then the timestamp ending in ':'.
    size_t sp = rest.find(' ');
    if (sp == std::string_view::npos) return malformed("truncated after the CPU field");
    if (flags.empty() && rest[sp - 1] != ':') {
        flags = rest.substr(0, sp);
        rest = trim(rest.substr(sp));
        sp = rest.find(' ');
        if (sp == std::string_view::npos) return malformed("truncated after the flags");
    }
    Time t = 0;
    if (int64_t count = 0; rest[sp - 1] == ':' && number(rest.substr(0, sp - 1), count))
        // trace_print_time() (trace_output.c) prints "%12llu" for a clock that does not count nanoseconds
        // (trace_clocks[].in_ns == 0: counter, uptime, x86-tsc): raw counts, not time.
        return malformed("a timestamp without a decimal point: the trace was taken with a counter clock (counter, uptime, "
                         "x86-tsc), whose counts are not time; take it with a nanosecond clock (local, global, mono, boot)");
    if (rest[sp - 1] != ':' || !timestamp(rest.substr(0, sp - 1), t)) return malformed("no 'SECONDS.MICROS:' timestamp");
    rest = trim(rest.substr(sp));
    const size_t colon = rest.find(": ");
    std::string_view event = colon == std::string_view::npos ? rest : rest.substr(0, colon);
    if (event.empty() || event.back() == ':') event = trim(event).substr(0, event.size() - (event.back() == ':' ? 1 : 0));
    std::string_view payload = colon == std::string_view::npos ? std::string_view{} : trim(rest.substr(colon + 2));
    bool perf = false;
    if (const size_t sub = event.rfind(':'); sub != std::string_view::npos) {
        event = event.substr(sub + 1); // perf script: "sched:sched_switch"
        perf = true;
    }
    // The task part: "comm-pid" or (perf) "comm tid".
    const std::string_view who = trim(l.substr(0, lb));
    std::string_view comm;
    int32_t pid = 0;
    const size_t blank = who.rfind(' ');
    if (perf && blank != std::string_view::npos && number(who.substr(blank + 1), pid)) {
        comm = trim(who.substr(0, blank));
    } else {
        const size_t dash = who.rfind('-');
        if (dash == std::string_view::npos || !number(who.substr(dash + 1), pid)) return malformed("no 'comm-pid' before the CPU field");
        comm = who.substr(0, dash);
    }
    if (pid < 0 || pid >= kPidMaxLimit) return malformed("pid out of range before the CPU field (accepted: 0 to 4194303, PID_MAX_LIMIT - 1)");
    if (!sawEvent_) {
        sawEvent_ = true;
        report_.format = perf ? TraceFormat::PerfScript : flags.empty() || latency != std::string_view::npos ? TraceFormat::TraceCmd : TraceFormat::Ftrace;
        report_.first = t;
    }
    if (t < report_.first) t = report_.first; // before the first event: counted as unordered below
    // A trace that would span more than kMaxTraceSpan holds a garbled timestamp (ftrace's clocks
    // count from boot; a trace buffer holds seconds to hours): keeping it would stretch a slice
    // over years and overflow the sums of every metric.
    if (t - report_.first > kMaxTraceSpan)
        return malformed("timestamp " + std::to_string((t - report_.first) / kNsPerSec) +
                         " s after the trace's first event (accepted: up to 13 days after it)");
    report_.last = std::max(report_.last, t);
    t -= report_.first;                          // the trace starts at 0; report.first keeps the offset
    const char nr = flags.size() >= 2 ? flags[1] : 0;
    inIrq_ = flags.size() >= 3 && std::string_view("hHsZz").find(flags[2]) != std::string_view::npos;
    observePrefix(c, pid, comm == "<idle>" ? std::string_view{} : comm, t, nr);
    if (event == "sched_switch") switchEvent(c, t, payload);
    else if (event == "sched_waking") wakeEvent(c, pid, t, payload, true, false);
    else if (event == "sched_wakeup") wakeEvent(c, pid, t, payload, false, false);
    else if (event == "sched_wakeup_new") wakeEvent(c, pid, t, payload, false, true);
    else if (event == "sched_migrate_task") migrateEvent(t, payload);
    else if (event == "sched_process_fork") forkEvent(payload);
    else if (event == "tracing_mark_write") trace_.markers.push_back(Marker{t, std::string(payload)});
    else if (event == "print") { // trace-cmd report: print's "%ps: %s" names the writer before the text
        constexpr std::string_view writer = "tracing_mark_write: ";
        if (payload.substr(0, writer.size()) == writer) payload.remove_prefix(writer.size());
        trace_.markers.push_back(Marker{t, std::string(payload)});
    }
    else if (event == "sched_process_exec" || event == "sched_process_exit" || event == "sched_process_free") report_.events++;
    else report_.otherEvents++;
}

Trace TraceImporter::finish(ImportReport& report) {
    if (!pending_.empty()) {
        line(pending_);
        pending_.clear();
    }
    const Time end = report_.last - report_.first;
    for (size_t c = 0; c < cpus_.size(); ++c) {
        CpuState& cs = cpus_[c];
        if (cs.slice >= 0) trace_.slices.end[size_t(cs.slice)] = std::max(end, trace_.slices.start[size_t(cs.slice)]);
        for (int slot : cs.flagSlot)
            if (slot >= 0) trace_.flags.clear[size_t(slot)] = end;
    }
    if (!idleExitDelays_.empty()) {
        auto mid = idleExitDelays_.begin() + long(idleExitDelays_.size() / 2);
        std::nth_element(idleExitDelays_.begin(), mid, idleExitDelays_.end());
        report_.idleExitDelay = *mid;
    }
    for (const EstimatedStart& e : estimatedStarts_) {
        Time& start = trace_.slices.start[size_t(e.slice)];
        start = std::clamp(e.wake + report_.idleExitDelay, std::min(e.lowerBound, start), start);
    }
    report_.cpus = trace_.cpus;
    trace_.endTime = end;
    report = report_;
    return std::move(trace_);
}

Trace importTraceText(std::string_view text, ImportReport& report) {
    TraceImporter imp;
    imp.feed(text);
    return imp.finish(report);
}

} // namespace sched
