// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace/line_tokenizer.h"

#include "trace/text_fields.h"

namespace sched {

using text::number;
using text::trim;

namespace {

// The first "[digits]" of the line: ftrace's, trace-cmd report's and perf script's CPU field.
size_t bracketedCpuField(std::string_view l) {
    size_t lb = l.find('[');
    while (lb != std::string_view::npos) {
        const size_t rb = l.find(']', lb);
        int c = 0;
        if (rb != std::string_view::npos && rb > lb + 1 && number(l.substr(lb + 1, rb - lb - 1), c)) break;
        lb = l.find('[', lb + 1);
    }
    return lb;
}

// Where "CPUFLAGS" starts in a trace-cmd report -l line: the token before the first
// "SECONDS.MICROS:" token that is digits followed by four or five latency flag characters
// (irqs-off, need-resched, hardirq/softirq, preempt depth, migrate-disable); npos if none.
size_t latencyCpuField(std::string_view l) {
    size_t i = 0;
    size_t prev = std::string_view::npos;
    while (i < l.size()) {
        while (i < l.size() && l[i] == ' ')
            ++i;
        const size_t start = i;
        while (i < l.size() && l[i] != ' ')
            ++i;
        const std::string_view tok = l.substr(start, i - start);
        if (tok.size() > 2 && tok.back() == ':' && tok.find('.') != std::string_view::npos &&
            tok.find_first_not_of("0123456789.:") == std::string_view::npos) {
            if (prev == std::string_view::npos) return prev;
            const std::string_view f = l.substr(prev, l.find(' ', prev) - prev);
            size_t d = 0;
            while (d < f.size() && f[d] >= '0' && f[d] <= '9')
                ++d;
            const size_t n = f.size() - d;
            if (d == 0 || n < 4 || n > 5 || std::string_view(".dDbX").find(f[d]) == std::string_view::npos)
                return std::string_view::npos;
            return prev;
        }
        if (!tok.empty()) prev = start;
    }
    return std::string_view::npos;
}

TokenizedLine malformed(std::string why) {
    TokenizedLine t;
    t.kind = LineKind::Malformed;
    t.why = std::move(why);
    return t;
}

// ftrace text, trace-cmd report: "COMM-PID [CPU] ..."; the rest starts after the bracket.
void splitBracketed(std::string_view l, size_t lb, TraceLine& out, std::string_view& rest) {
    const size_t rb = l.find(']', lb);
    number(l.substr(lb + 1, rb - lb - 1), out.cpu);
    rest = trim(l.substr(rb + 1));
}

// trace-cmd report -l: "COMM-PID CPUFLAGS ...", the CPU number run together with the latency flags
// ("  <idle>-0      15dN.2.   100.000000: ...").
void splitLatency(std::string_view l, size_t at, TraceLine& out, std::string_view& rest) {
    size_t d = at;
    while (d < l.size() && l[d] >= '0' && l[d] <= '9')
        ++d;
    number(l.substr(at, d - at), out.cpu);
    const size_t end = l.find(' ', d);
    out.flags = l.substr(d, end - d);
    rest = trim(l.substr(end));
}

// The task before the CPU field: "comm-pid" (ftrace, trace-cmd), from the right: comms may hold '-'.
bool taskOfFtrace(std::string_view who, TraceLine& out) {
    const size_t dash = who.rfind('-');
    if (dash == std::string_view::npos || !number(who.substr(dash + 1), out.pid)) return false;
    out.comm = who.substr(0, dash);
    return true;
}

// perf script's "comm tid" (comms may hold blanks); a perf line in the "comm-pid" form is read as ftrace's.
// With -F ...,pid,tid,... perf prints "comm pid/tid": the thread is the task, the pid its process.
bool taskOfPerfScript(std::string_view who, TraceLine& out) {
    const size_t blank = who.rfind(' ');
    if (blank != std::string_view::npos) {
        const std::string_view ids = who.substr(blank + 1);
        const size_t slash = ids.find('/');
        const bool ok = slash == std::string_view::npos ? number(ids, out.pid)
                                                        : number(ids.substr(0, slash), out.tgid) &&
                                                              number(ids.substr(slash + 1), out.pid);
        if (ok) {
            out.comm = trim(who.substr(0, blank));
            return true;
        }
        out.tgid = 0;
    }
    return taskOfFtrace(who, out);
}

} // namespace

TokenizedLine tokenizeLine(std::string_view l) {
    TokenizedLine r;
    while (!l.empty() && l.back() == '\r')
        l.remove_suffix(1);
    const std::string_view trimmed = trim(l); // once: ftrace pads every comm to 16 columns
    if (trimmed.empty() || trimmed.front() == '#') {
        // ftrace's header tells the CPU count: "# entries-in-buffer/entries-written: 1/1   #P:2"
        if (const size_t p = l.find("#P:"); p != std::string_view::npos) {
            int n = 0;
            if (number(trim(l.substr(p + 3)), n) && n > 0 && n <= 4096) r.cpusHint = n;
        }
        return r;
    }
    // The leading blanks go (positions below are in the line without them); `lead` keeps whether
    // there were any, which the checks for a field at the line's very start need.
    const size_t lead = size_t(trimmed.data() - l.data());
    l.remove_prefix(lead);
    TraceLine& out = r.line;
    // (Bracketed layouts have their '[CPU]' before the first ": "; only other lines may be
    // trace-cmd report -l's, whose "[120]" further on would be the payload's.)
    size_t lb = bracketedCpuField(l);
    const size_t latency =
        lb != std::string_view::npos && lb < l.find(": ") ? std::string_view::npos : latencyCpuField(l);
    if (latency != std::string_view::npos) lb = std::string_view::npos;
    std::string_view rest;
    if (latency != std::string_view::npos) {
        splitLatency(l, latency, out, rest);
        lb = latency; // the task part ends here
    } else if (lb == std::string_view::npos || (lb == 0 && lead == 0)) {
        r.kind = LineKind::NoCpu; // trace-cmd report's header ("version = 6", "cpus=2", "CPU 1 is empty") or
                                  // a broken line
        int n = 0;
        if (lead == 0 && l.rfind("cpus=", 0) == 0 && number(trim(l.substr(5)), n) && n > 0 && n <= 4096)
            r.cpusHint = n;
        return r;
    } else {
        splitBracketed(l, lb, out, rest);
    }
    if (out.cpu < 0 || out.cpu > 4095) return malformed("CPU number out of range");
    // Optional flags, then the timestamp ending in ':'.
    size_t sp = rest.find(' ');
    if (sp == std::string_view::npos) return malformed("truncated after the CPU field");
    if (out.flags.empty() && rest[sp - 1] != ':') {
        out.flags = rest.substr(0, sp);
        rest = trim(rest.substr(sp));
        sp = rest.find(' ');
        if (sp == std::string_view::npos) return malformed("truncated after the flags");
    }
    if (int64_t count = 0; rest[sp - 1] == ':' && number(rest.substr(0, sp - 1), count))
        // trace_print_time() (trace_output.c) prints "%12llu" for a clock that does not count nanoseconds
        // (trace_clocks[].in_ns == 0: counter, uptime, x86-tsc): raw counts, not time.
        return malformed(
            "a timestamp without a decimal point: the trace was taken with a counter clock (counter, uptime, "
            "x86-tsc), whose counts are not time; take it with a nanosecond clock (local, global, mono, "
            "boot)");
    if (rest[sp - 1] != ':' || !text::timestamp(rest.substr(0, sp - 1), out.timestamp))
        return malformed("no 'SECONDS.MICROS:' timestamp");
    rest = trim(rest.substr(sp));
    const size_t colon = rest.find(": ");
    std::string_view event = colon == std::string_view::npos ? rest : rest.substr(0, colon);
    if (!event.empty() && event.back() == ':') event = trim(event).substr(0, event.size() - 1);
    out.payload = colon == std::string_view::npos ? std::string_view{} : trim(rest.substr(colon + 2));
    const std::string_view who = trim(l.substr(0, lb));
    bool task = false;
    if (const size_t sub = event.rfind(':'); sub != std::string_view::npos) {
        out.event = event.substr(sub + 1); // perf script: "sched:sched_switch"
        out.layout = LineLayout::PerfScript;
        task = taskOfPerfScript(who, out);
    } else {
        out.event = event;
        out.layout = latency != std::string_view::npos ? LineLayout::TraceCmdLatency
                     : out.flags.empty()               ? LineLayout::TraceCmd
                                                       : LineLayout::Ftrace;
        task = taskOfFtrace(who, out);
    }
    if (!task) return malformed("no 'comm-pid' before the CPU field");
    if (out.pid < 0 || out.pid >= text::kPidMaxLimit || out.tgid < 0 || out.tgid >= text::kPidMaxLimit)
        return malformed("pid out of range before the CPU field (accepted: 0 to 4194303, PID_MAX_LIMIT - 1)");
    r.kind = LineKind::Event;
    return r;
}

} // namespace sched
