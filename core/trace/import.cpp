// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace/import.h"

#include "base/limits.h"
#include "trace/comm.h"
#include "trace/line_tokenizer.h"
#include "trace/text_fields.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace sched {

std::string_view traceFormatName(TraceFormat f) {
    switch (f) {
    case TraceFormat::Ftrace:
        return "ftrace text";
    case TraceFormat::TraceCmd:
        return "trace-cmd report";
    case TraceFormat::PerfScript:
        return "perf script";
    case TraceFormat::TraceDat:
        return "trace.dat (libtracecmd)";
    case TraceFormat::Unknown:
        break;
    }
    return "unknown";
}

using text::field;
using text::number;
using text::pidNumber;
using text::trim;

namespace {

constexpr Time kMaxTraceSpan = Time(1) << 50; // 13 days: see line()

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

// A tracepoint's fields in their own order, read left to right (each `key=` where the last value
// ended), instead of one search of the whole payload per field. The comm is the one value that may
// hold blanks: it ends at the first " NEXTKEY=". `false` where the payload is not laid out exactly
// so; the field-by-field reading (text::field()) then decides.
class FieldCursor {
  public:
    explicit FieldCursor(std::string_view p) : p_(p) {}
    // "key=" at the cursor, then the value up to the next blank (or the end).
    bool value(std::string_view key, std::string_view& out) {
        if (p_.compare(at_, key.size(), key) != 0) return false;
        const size_t from = at_ + key.size();
        size_t end = p_.find(' ', from);
        if (end == std::string_view::npos) end = p_.size();
        out = p_.substr(from, end - from);
        at_ = end;
        return !out.empty();
    }
    // "key=" at the cursor, then a comm up to the first `next` (" pid=", which stays for value()).
    bool comm(std::string_view key, std::string_view next, std::string_view& out) {
        if (p_.compare(at_, key.size(), key) != 0) return false;
        const size_t from = at_ + key.size();
        const size_t end = p_.find(next, from);
        if (end == std::string_view::npos) return false;
        out = p_.substr(from, end - from);
        at_ = end + 1;
        return true;
    }
    bool literal(std::string_view s) { // s at the cursor
        if (p_.compare(at_, s.size(), s) != 0) return false;
        at_ += s.size();
        return true;
    }
    bool blank() { return literal(" "); }
    bool atEnd() const { return at_ == p_.size(); }

  private:
    std::string_view p_;
    size_t at_ = 0;
};

uint8_t pointForState(std::string_view state) {
    if (state == "R+") return uint8_t(SwitchPoint::IrqReturn); // SM_PREEMPT
    if (state == "R")
        return uint8_t(SwitchPoint::ExitToUser); // runnable, not a preemption: return to user, yield
    if (state.find('X') != std::string_view::npos || state.find('Z') != std::string_view::npos)
        return uint8_t(SwitchPoint::Exit);
    if (!state.empty() && state[0] == 'D') return uint8_t(SwitchPoint::BlockUninterruptible); // D, D|K, D|W
    if (state == "I") return uint8_t(SwitchPoint::BlockIdle);                                 // TASK_IDLE
    return uint8_t(SwitchPoint::Block);
}

} // namespace

std::string ImportReport::summary() const {
    char b[256];
    std::string out;
    std::snprintf(b, sizeof b, "%s: %lld lines, %lld sched events, %d CPUs, %.6f s\n",
                  std::string(traceFormatName(format)).c_str(), (long long)lines, (long long)events, cpus,
                  double(last - first) / 1e9);
    out += b;
    if (malformed > 0) {
        std::snprintf(b, sizeof b, "%lld malformed or truncated lines skipped", (long long)malformed);
        out += b;
        if (!problems.empty())
            out += ", the first at line " + std::to_string(problems[0].line) + ": " + problems[0].what;
        out += "\n";
    }
    if (missingSwitchOut > 0) {
        std::snprintf(b, sizeof b,
                      "%lld switch-outs missing: those slices end at the task's last event on its CPU\n",
                      (long long)missingSwitchOut);
        out += b;
    }
    if (missingSwitchIn > 0) {
        std::snprintf(b, sizeof b,
                      "%lld switch-ins missing (e.g. idle exits): those slices start at the wakeup + %.1f us "
                      "(the median idle exit "
                      "recorded elsewhere), or at the task's first event on the CPU\n",
                      (long long)missingSwitchIn, double(idleExitDelay) / 1e3);
        out += b;
    }
    if (unprintableComms > 0)
        out += std::to_string(unprintableComms) + " task names held control characters or bytes that are not "
                                                  "UTF-8: shown with '?' in their place\n";
    if (outOfOrder > 0) {
        int64_t firstLine = 0;
        for (const ImportProblem& p : problems)
            if (p.what.find("out of time order") != std::string::npos) {
                firstLine = p.line;
                break;
            }
        out += std::to_string(outOfOrder) + " lines out of time order dropped" +
               (firstLine > 0 ? ", the first at line " + std::to_string(firstLine) : std::string()) +
               " (the tools print in time order: a stray timestamp)\n";
    }
    return out;
}

std::string ImportReport::refusedWhy() const {
    if (outOfOrder <= 10 || outOfOrder * 100 <= events + outOfOrder) return {};
    const int64_t first = [&] {
        for (const ImportProblem& p : problems)
            if (p.what.find("out of time order") != std::string::npos) return p.line;
        return int64_t(0);
    }();
    return std::to_string(outOfOrder) + " event lines out of time order (the first at line " +
           std::to_string(first) +
           "): a reversed or shuffled file? ftrace, trace-cmd report and perf script print in time order";
}

void TraceImporter::feed(std::string_view data) {
    while (!data.empty()) {
        const size_t nl = data.find('\n');
        const std::string_view part = data.substr(0, nl == std::string_view::npos ? data.size() : nl);
        if (overlong_) {
            // The rest of a line past the limit: skipped up to its newline, never held.
        } else if (int64_t(pending_.size() + part.size()) > limits::kMaxTraceLine) {
            report_.lines++;
            malformed("a line longer than " + std::to_string(limits::kMaxTraceLine >> 20) +
                      " MiB (the limit: base/limits.h; ftrace lines are a few hundred bytes): skipped");
            pending_.clear();
            overlong_ = true;
        } else if (nl != std::string_view::npos && pending_.empty()) {
            line(part);
        } else {
            pending_.append(part);
            if (nl != std::string_view::npos) {
                line(pending_);
                pending_.clear();
            }
        }
        if (nl == std::string_view::npos) return;
        overlong_ = false;
        data.remove_prefix(nl + 1);
    }
}

void TraceImporter::malformed(std::string what) {
    report_.malformed++;
    if (report_.problems.size() < ImportReport::kMaxProblems)
        report_.problems.push_back({lineNo_, std::move(what)});
}

TaskId TraceImporter::task(int32_t pid, std::string_view comm, int prio) {
    if (pid <= 0) return kNoTask;
    if (size_t(pid) >= byPid_.size()) byPid_.resize(size_t(pid) + 1, kNoTask);
    // Nearly every call names a known task by the comm it has (a kept comm is printable): done.
    if (const TaskId known = byPid_[size_t(pid)];
        known != kNoTask && (comm.empty() || trace_.tasks[size_t(known)].comm == comm)) {
        if (prio >= 0) trace_.tasks[size_t(known)].prio = prio;
        return known;
    }
    // A comm is kept printable (trace/comm.h); printable ASCII, nearly every one, is taken as it is.
    std::string fixed;
    bool unprintable = false;
    for (char ch : comm)
        if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) >= 0x7f) {
            fixed = printableComm(comm, &unprintable);
            comm = fixed;
            break;
        }
    TaskId& id = byPid_[size_t(pid)];
    if (id == kNoTask) {
        id = TaskId(trace_.tasks.size());
        trace_.tasks.push_back(TraceTask{pid, pid, std::string(comm), prio >= 0 ? prio : 120, 0});
    } else if (!comm.empty() && trace_.tasks[size_t(id)].comm != comm && comm != "<...>") {
        trace_.tasks[size_t(id)].comm = std::string(comm); // exec renamed it: perf reports the last comm
    }
    if (unprintable) { // counted once a task
        if (unprintableTask_.size() <= size_t(id)) unprintableTask_.resize(size_t(id) + 1, 0);
        report_.unprintableComms += !unprintableTask_[size_t(id)];
        unprintableTask_[size_t(id)] = 1;
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
    auto it = lastWakeup_.find(pid);
    if (evidenceOnly) {
        // No recorded switch-in: if the task was woken onto this CPU, it started about one idle
        // exit after that wakeup (fixed in finish() with the median measured where recorded).
        report_.missingSwitchIn++;
        if (it != lastWakeup_.end() && it->second <= start)
            estimatedStarts_.push_back({cs.slice, it->second, cs.lastTime});
    }
    // A wakeup is used up by the run it led to: a later run without a switch-in (the task
    // preempted, then seen elsewhere) must not be dated from it, before the run it already had.
    if (it != lastWakeup_.end()) lastWakeup_.erase(it);
}

void TraceImporter::closeSlice(int c, Time end, uint8_t point) {
    CpuState& cs = cpu(c);
    if (cs.slice >= 0) {
        trace_.slices.end.set(size_t(cs.slice), std::max(end, trace_.slices.start[size_t(cs.slice)]));
        trace_.slices.endPoint[size_t(cs.slice)] = point;
    }
    // __schedule() clears both need-resched bits of the task it switches away from.
    for (int& slot : cs.flagSlot)
        if (slot >= 0) {
            trace_.flags.clear.set(size_t(slot), end);
            trace_.flags.clearedBy[size_t(slot)] = point;
            slot = -1;
        }
    cs.slice = -1;
}

void TraceImporter::flagObservation(int c, Time t, char nr) {
    // need-resched column (kernel/trace/trace_output.c: trace_print_lat_fmt()): N/n/p/B/b carry
    // TIF_NEED_RESCHED (or its folded form), L/l/B/b TIF_NEED_RESCHED_LAZY.
    const bool eager = nr == 'N' || nr == 'n' || nr == 'p' || nr == 'B' || nr == 'b';
    const bool lazy = nr == 'L' || nr == 'l' || nr == 'B' || nr == 'b';
    CpuState& cs = cpu(c);
    FlagIntervals& f = trace_.flags;
    for (int bit = 0; bit < 2; ++bit) {
        const bool on = bit == 0 ? eager : lazy;
        int& slot = cs.flagSlot[bit];
        if (on && slot < 0) {
            slot = int(f.set.size());
            f.push(t, t, cs.curr > 0 ? task(cs.curr, {}) : kNoTask, uint16_t(c),
                   uint8_t(bit == 0 ? ReschedBit::Eager : ReschedBit::Lazy), kNoReason, kStillRunning);
        } else if (!on && slot >= 0) {
            f.clear.set(size_t(slot), t);
            slot = -1;
        } else if (on) {
            f.clear.set(size_t(slot), t);
        }
    }
}

void TraceImporter::observePrefix(int c, int32_t pid, std::string_view comm, Time t, char nr) {
    CpuState& cs = cpu(c);
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
    std::string_view a, b, d, e;
    FieldCursor f(p);
    if (f.comm("prev_comm=", " prev_pid=", prevComm) && f.value("prev_pid=", a) && f.blank() &&
        f.value("prev_prio=", b) && f.blank() && f.value("prev_state=", prevState) && f.literal(" ==> ") &&
        f.comm("next_comm=", " next_pid=", nextComm) && f.value("next_pid=", d) && f.blank() &&
        f.value("next_prio=", e) && f.atEnd() && pidNumber(a, prevPid) && number(b, prevPrio) &&
        pidNumber(d, nextPid) && number(e, nextPrio)) {
        // the tracepoint's own format, as 6.18 prints it
    } else if (p.rfind("prev_comm=", 0) == 0) { // the tracepoint's own format, fields found by name
        prevComm = field(p, "prev_comm=", " prev_pid=");
        nextComm = field(p, "next_comm=", " next_pid=");
        prevState = field(p, "prev_state=");
        if (!pidNumber(field(p, "prev_pid="), prevPid) || !pidNumber(field(p, "next_pid="), nextPid) ||
            !number(field(p, "prev_prio="), prevPrio) || !number(field(p, "next_prio="), nextPrio) ||
            prevState.empty())
            return malformed("sched_switch: a field is missing or not a number (prev_pid, prev_prio, "
                             "prev_state, next_pid, next_prio; "
                             "pids 0 to 4194303)");
    } else { // libtraceevent's sched plugin: "comm:pid [prio] STATE ==> comm:pid [prio]"
        std::string_view left = p.substr(0, arrow);
        const size_t sp = left.rfind(' ');
        if (sp == std::string_view::npos) return malformed("sched_switch: no prev_state before ' ==> '");
        prevState = left.substr(sp + 1);
        if (!pluginTask(left.substr(0, sp), prevComm, prevPid, prevPrio) ||
            !pluginTask(p.substr(arrow + 5), nextComm, nextPid, nextPrio))
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
        if (it != lastWakeup_.end() && t >= it->second && t - it->second < 10 * kNsPerMs)
            idleExitDelays_.push_back(t - it->second);
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
    std::string_view a, b, d;
    FieldCursor f(p);
    if (f.comm("comm=", " pid=", comm) && f.value("pid=", a) && f.blank() && f.value("prio=", b) &&
        f.blank() && f.value("target_cpu=", d) && f.atEnd() && pidNumber(a, pid) && number(b, prio) &&
        number(d, target)) {
        // the tracepoint's own format
    } else if (p.rfind("comm=", 0) == 0) {
        comm = field(p, "comm=", " pid=");
        if (!pidNumber(field(p, " pid="), pid) || !number(field(p, "prio="), prio) ||
            !number(field(p, "target_cpu="), target))
            return malformed(
                "wakeup: a field is missing or not a number (pid 0 to 4194303, prio, target_cpu)");
    } else { // plugin: "comm:pid [prio] [success=1] CPU:NNN"
        const size_t cpuAt = p.rfind(" CPU:");
        if (cpuAt == std::string_view::npos || !number(trim(p.substr(cpuAt + 5)), target))
            return malformed("wakeup: no ' CPU:' target");
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
    if (!waking && !isNew &&
        pending != pendingWaking_.end()) { // sched_wakeup after its sched_waking: the chosen CPU
        w.targetCpu[pending->second] = uint16_t(target);
        pendingWaking_.erase(pending);
    } else {
        const size_t i = w.size();
        // A wakeup from interrupt context (a timer, an IRQ) has no waking task: the prefix only
        // names whoever the interrupt arrived on.
        w.push(t, wakerPid > 0 && !inIrq_ ? task(wakerPid, {}) : kNoTask, wakee, uint16_t(c),
               uint16_t(target), isNew);
        if (waking) pendingWaking_[pid] = i;
        lastWakeup_[pid] = t;
    }
    report_.events++;
}

void TraceImporter::migrateEvent(int c, Time t, std::string_view p) {
    int32_t pid = 0;
    int orig = 0, dest = 0;
    if (!pidNumber(field(p, " pid="), pid) || !number(field(p, "orig_cpu="), orig) ||
        !number(field(p, "dest_cpu="), dest) || orig < 0 || dest < 0 || orig > 4095 || dest > 4095)
        return malformed(
            "sched_migrate_task: expected pid= (0 to 4194303), orig_cpu=, dest_cpu= (0 to 4095)");
    const TaskId id = task(pid, field(p, "comm=", " pid="));
    if (id == kNoTask) return;
    trace_.migrations.push(t, id, uint16_t(orig), uint16_t(dest), uint16_t(c), MigrationPath::Unknown);
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

// The event parser: a tokenized line's fields (trace/line_tokenizer.h) into the trace. ftrace's
// trace file, trace-cmd report and perf script print in time order (the per-CPU buffers merged by
// timestamp), so an event line out of it is a damaged one. Whether the line that goes back is the
// wrong one or the one before it (a stray timestamp in the future) shows only with the next line
// in view: each event line is held until the next one arrives, then kept or dropped.
void TraceImporter::line(std::string_view l) {
    report_.lines++;
    lineNo_ = report_.lines;
    TokenizedLine tok = tokenizeLine(l);
    switch (tok.kind) {
    case LineKind::Comment:
        if (tok.cpusHint > 0) cpu(tok.cpusHint - 1);
        return;
    case LineKind::NoCpu:
        if (sawEvent_) return malformed("no '[CPU]' field");
        if (tok.cpusHint > 0) cpu(tok.cpusHint - 1); // trace-cmd report's header
        return;
    case LineKind::Malformed:
        return malformed(std::move(tok.why));
    case LineKind::Event:
        break;
    }
    if (held_) decideHeld(tok.line.timestamp);
    // Hold a copy: the fields are views into l, which the caller reuses.
    heldText_.assign(l);
    held_ = tok.line;
    const auto rebase = [&](std::string_view& v) {
        if (!v.empty()) v = std::string_view(heldText_.data() + (v.data() - l.data()), v.size());
    };
    rebase(held_->comm);
    rebase(held_->flags);
    rebase(held_->event);
    rebase(held_->payload);
    heldNo_ = report_.lines;
}

// The held line, judged with the next event line's time in view (none at the end): dropped when
// it is earlier than the line kept before it, or when it is a spike — later than the next line
// while the next one goes on from the line kept before.
void TraceImporter::decideHeld(std::optional<Time> next) {
    const TraceLine f = *held_;
    held_.reset();
    const Time h = f.timestamp;
    const bool dip = kept_ && h < lastKept_;
    const bool spike = !dip && next && *next < h && (!kept_ || *next >= lastKept_);
    lineNo_ = heldNo_;
    if (dip || spike) {
        report_.outOfOrder++;
        if (report_.problems.size() < ImportReport::kMaxProblems) {
            char b[160];
            std::snprintf(b, sizeof b, "timestamp %.6f %s: out of time order, dropped", double(h) / 1e9,
                          dip ? "earlier than the line kept before it" : "later than the lines around it");
            report_.problems.push_back({heldNo_, b});
        }
        return;
    }
    kept_ = true;
    lastKept_ = h;
    event(f);
}

void TraceImporter::event(const TraceLine& f) {
    const int c = f.cpu;
    Time t = f.timestamp;
    if (!sawEvent_) {
        sawEvent_ = true;
        report_.format = traceDat_                            ? TraceFormat::TraceDat
                         : f.layout == LineLayout::PerfScript ? TraceFormat::PerfScript
                         : f.layout == LineLayout::Ftrace     ? TraceFormat::Ftrace
                                                              : TraceFormat::TraceCmd;
        report_.first = t;
    }
    // A trace that would span more than kMaxTraceSpan holds a garbled timestamp (ftrace's clocks
    // count from boot; a trace buffer holds seconds to hours): keeping it would stretch a slice
    // over years and overflow the sums of every metric.
    if (t - report_.first > kMaxTraceSpan)
        return malformed("timestamp " + std::to_string((t - report_.first) / kNsPerSec) +
                         " s after the trace's first event (accepted: up to 13 days after it)");
    report_.last = std::max(report_.last, t);
    t -= report_.first; // the trace starts at 0; report.first keeps the offset
    const char nr = f.flags.size() >= 2 ? f.flags[1] : 0;
    inIrq_ = f.flags.size() >= 3 && std::string_view("hHsZz").find(f.flags[2]) != std::string_view::npos;
    const int32_t pid = f.pid;
    observePrefix(c, pid, f.comm == "<idle>" ? std::string_view{} : f.comm, t, nr);
    if (f.tgid > 0 && pid > 0) trace_.tasks[size_t(task(pid, {}))].tgid = f.tgid; // perf's pid/tid
    const std::string_view event = f.event;
    std::string_view payload = f.payload;
    if (event == "sched_switch")
        switchEvent(c, t, payload);
    else if (event == "sched_waking")
        wakeEvent(c, pid, t, payload, true, false);
    else if (event == "sched_wakeup")
        wakeEvent(c, pid, t, payload, false, false);
    else if (event == "sched_wakeup_new")
        wakeEvent(c, pid, t, payload, false, true);
    else if (event == "sched_migrate_task")
        migrateEvent(c, t, payload);
    else if (event == "sched_process_fork")
        forkEvent(payload);
    else if (event == "tracing_mark_write")
        trace_.markers.push_back(Marker{t, std::string(payload)});
    else if (event == "print") { // trace-cmd report: print's "%ps: %s" names the writer before the text
        constexpr std::string_view writer = "tracing_mark_write: ";
        if (payload.substr(0, writer.size()) == writer) payload.remove_prefix(writer.size());
        trace_.markers.push_back(Marker{t, std::string(payload)});
    } else if (event == "sched_process_exec" || event == "sched_process_exit" ||
               event == "sched_process_free")
        report_.events++;
    else
        report_.otherEvents++;
}

Trace TraceImporter::finish(ImportReport& report) {
    if (!pending_.empty()) {
        line(pending_);
        pending_.clear();
    }
    if (held_) decideHeld(std::nullopt);
    const Time end = report_.last - report_.first;
    for (size_t c = 0; c < cpus_.size(); ++c) {
        CpuState& cs = cpus_[c];
        if (cs.slice >= 0)
            trace_.slices.end.set(size_t(cs.slice), std::max(end, trace_.slices.start[size_t(cs.slice)]));
        for (int slot : cs.flagSlot)
            if (slot >= 0) trace_.flags.clear.set(size_t(slot), end);
    }
    if (!idleExitDelays_.empty()) {
        auto mid = idleExitDelays_.begin() + long(idleExitDelays_.size() / 2);
        std::nth_element(idleExitDelays_.begin(), mid, idleExitDelays_.end());
        report_.idleExitDelay = *mid;
    }
    for (const EstimatedStart& e : estimatedStarts_) {
        const Time start = trace_.slices.start[size_t(e.slice)];
        trace_.slices.start.set(size_t(e.slice), std::clamp(e.wake + report_.idleExitDelay,
                                                            std::min(e.lowerBound, start), start));
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
