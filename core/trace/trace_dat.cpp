// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace/trace_dat.h"

#include "trace/comm.h"
#include "trace/ftrace_events.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace sched {

namespace {

using Kind = FtraceEvent::Kind;

constexpr uint32_t kPageSize = 4096;
constexpr uint32_t kPageHeader = 16; // u64 timestamp, local_t commit (a 64-bit long)
constexpr uint32_t kPageData = kPageSize - kPageHeader;
// ring_buffer_event: a 32-bit header of type_len:5 and time_delta:27 (include/linux/ring_buffer.h).
constexpr uint32_t kTimeExtend = 30;
constexpr int kTsShift = 27;

// Event ids: ftrace's print entry is TRACE_PRINT (5) on every kernel; the sched ids are handed
// out at boot and only need to be unique within the file.
enum : uint16_t {
    kPrint = 5,
    kSwitch = 316,
    kWaking = 320,
    kWakeup = 319,
    kWakeupNew = 318,
    kMigrate = 317,
    kFork = 313,
    kExit = 314
};

uint16_t eventId(Kind k) {
    switch (k) {
    case Kind::Fork:
        return kFork;
    case Kind::WakeupNew:
        return kWakeupNew;
    case Kind::Waking:
        return kWaking;
    case Kind::Migrate:
        return kMigrate;
    case Kind::Wakeup:
        return kWakeup;
    case Kind::Exit:
        return kExit;
    case Kind::Switch:
        return kSwitch;
    case Kind::Mark:
        return kPrint;
    }
    return kPrint;
}

// tracefs's events/header_page and events/header_event of a 64-bit kernel.
const char* const kHeaderPage = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
                                "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
                                "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
                                "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";
const char* const kHeaderEvent = "# compressed entry header\n"
                                 "\ttype_len    :    5 bits\n"
                                 "\ttime_delta  :   27 bits\n"
                                 "\tarray       :   32 bits\n\n"
                                 "\tpadding     : type == 29\n"
                                 "\ttime_extend : type == 30\n"
                                 "\ttime_stamp : type == 31\n"
                                 "\tdata max type_len  == 28\n";

std::string format(const char* name, uint16_t id, const char* fields, const char* print) {
    std::string f = std::string("name: ") + name + "\nID: " + std::to_string(id) +
                    "\nformat:\n"
                    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
                    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
                    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
                    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";
    return f + fields + "\nprint fmt: " + print + "\n";
}

// The format files as v6.18's include/trace/events/sched.h and kernel/trace/trace_entries.h
// describe them (chars are unsigned since 6.2's -funsigned-char).
std::string printFormat() {
    return format("print", kPrint,
                  "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
                  "\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n",
                  "\"%ps: %s\", (void *)REC->ip, REC->buf");
}

std::vector<std::string> schedFormats() {
    const char* wakeFields = "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
                             "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
                             "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
                             "\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n";
    const char* wakePrint =
        "\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->target_cpu";
    // __trace_sched_switch_state(): TASK_REPORT bits 0x01..0x80, TASK_REPORT_MAX 0x100 for a preemption.
    const char* switchPrint = "\"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s "
                              "next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, "
                              "REC->prev_prio, (REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | "
                              "0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | "
                              "0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & ((((0x00000000 "
                              "| 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
                              "0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, "
                              "\"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \"T\" }, "
                              "{ 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, { "
                              "0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", "
                              "REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | "
                              "0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) "
                              "? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio";
    return {
        format("sched_process_fork", kFork,
               "\tfield:char parent_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
               "\tfield:pid_t parent_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
               "\tfield:char child_comm[16];\toffset:28;\tsize:16;\tsigned:0;\n"
               "\tfield:pid_t child_pid;\toffset:44;\tsize:4;\tsigned:1;\n",
               "\"comm=%s pid=%d child_comm=%s child_pid=%d\", REC->parent_comm, REC->parent_pid, "
               "REC->child_comm, REC->child_pid"),
        format("sched_process_exit", kExit,
               "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
               "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
               "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
               "\tfield:bool group_dead;\toffset:32;\tsize:1;\tsigned:0;\n",
               "\"comm=%s pid=%d prio=%d group_dead=%s\", REC->comm, REC->pid, REC->prio, REC->group_dead ? "
               "\"true\" : \"false\""),
        format("sched_switch", kSwitch,
               "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
               "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
               "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
               "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
               "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
               "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
               "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n",
               switchPrint),
        format("sched_migrate_task", kMigrate,
               "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
               "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
               "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
               "\tfield:int orig_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
               "\tfield:int dest_cpu;\toffset:36;\tsize:4;\tsigned:1;\n",
               "\"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", REC->comm, REC->pid, REC->prio, "
               "REC->orig_cpu, REC->dest_cpu"),
        format("sched_wakeup_new", kWakeupNew, wakeFields, wakePrint),
        format("sched_wakeup", kWakeup, wakeFields, wakePrint),
        format("sched_waking", kWaking, wakeFields, wakePrint),
    };
}

// kallsyms holds the one symbol the records point at, so that print's "%ps" names it.
constexpr uint64_t kMarkWriteIp = 0xffffffff81000000ull;
const char* const kKallsyms = "ffffffff81000000 T tracing_mark_write\n";

// Little-endian scalars into a byte string.
struct Bytes {
    std::string s;
    template <class T> void put(T v) {
        for (size_t i = 0; i < sizeof(T); ++i)
            s.push_back(char((uint64_t(v) >> (8 * i)) & 0xff));
    }
    void comm(const std::string& c) { // char[16], NUL-padded, truncated like TASK_COMM_LEN
        char b[16] = {};
        std::memcpy(b, c.data(), std::min<size_t>(c.size(), 15));
        s.append(b, 16);
    }
    void text(const std::string& t) { s.append(t); }
    void cstr(const char* t) { s.append(t, std::strlen(t) + 1); }
};

// One CPU's ring buffer, page by page (kernel/trace/ring_buffer.c's layout: each page starts
// with its first record's full timestamp, records carry deltas, long gaps a time-extend record).
class CpuBuffer {
  public:
    void add(Time ts, const std::string& payload) {
        const uint32_t len = uint32_t((payload.size() + 3) & ~size_t(3));
        const uint32_t need = 4 + len + 8; // header, data, and room for a time extend
        if (pages_.empty() || used_ + need > kPageData) newPage(ts);
        uint64_t delta = uint64_t(ts - last_);
        if (delta >> kTsShift) { // a 27-bit delta cannot hold it: RINGBUF_TYPE_TIME_EXTEND
            put32(kTimeExtend | uint32_t(delta & ((1u << kTsShift) - 1)) << 5);
            put32(uint32_t(delta >> kTsShift));
            delta = 0;
        }
        put32(len / 4 | uint32_t(delta) << 5); // type_len = data length in words (<= 28 here)
        std::string& p = pages_.back();
        std::memcpy(&p[kPageHeader + used_], payload.data(), payload.size());
        used_ += len;
        last_ = ts;
    }
    // The pages with their commit counts filled in.
    std::string finish() {
        if (!pages_.empty()) setCommit();
        std::string out;
        out.reserve(pages_.size() * kPageSize);
        for (const std::string& p : pages_)
            out += p;
        return out;
    }

  private:
    void newPage(Time ts) {
        if (!pages_.empty()) setCommit();
        pages_.emplace_back(kPageSize, '\0');
        for (int i = 0; i < 8; ++i)
            pages_.back()[size_t(i)] = char((uint64_t(ts) >> (8 * i)) & 0xff);
        used_ = 0;
        last_ = ts;
    }
    void setCommit() {
        for (int i = 0; i < 8; ++i)
            pages_.back()[size_t(8 + i)] = char((uint64_t(used_) >> (8 * i)) & 0xff);
    }
    void put32(uint32_t v) {
        std::string& p = pages_.back();
        for (int i = 0; i < 4; ++i)
            p[kPageHeader + used_ + size_t(i)] = char((v >> (8 * i)) & 0xff);
        used_ += 4;
    }
    std::vector<std::string> pages_;
    uint32_t used_ = 0;
    Time last_ = 0;
};

} // namespace

bool isTraceDatPath(std::string_view path) {
    return path.size() >= 4 && path.substr(path.size() - 4) == ".dat";
}

int64_t writeTraceDat(const Trace& trace, const std::function<void(std::string_view)>& sink,
                      const FtraceExportOptions& opts) {
    FtraceEvents events(trace, opts);
    const int cpus = std::max(events.cpus(), std::max(1, trace.cpus));
    std::vector<CpuBuffer> buffers(size_t(cpus), CpuBuffer{});
    const Wakeups& w = trace.wakeups;
    const Migrations& m = trace.migrations;
    // Every comm written is printable (trace/comm.h): a newline in one would end a line of the
    // text, or of trace.dat's saved_cmdlines, early.
    const std::vector<TraceTask> tasks = printableTasks(trace.tasks);
    const auto task = [&](int32_t id) -> const TraceTask& { return tasks[size_t(id)]; };
    events.forEach([&](const FtraceEvent& e, const FtraceContext& ctx) {
        Bytes r;
        r.put(eventId(e.kind));
        // enum trace_flag_type (6.13+): IRQS_OFF 0x01, NEED_RESCHED_LAZY 0x02, NEED_RESCHED 0x04,
        // HARDIRQ 0x08, SOFTIRQ 0x10, PREEMPT_RESCHED 0x20 (the folded bit that makes the text show N
        // rather than n).
        r.put(uint8_t((ctx.irqsOff ? 0x01 : 0) | (ctx.needReschedLazy ? 0x02 : 0) |
                      (ctx.needResched ? 0x24 : 0) | (ctx.hardirq ? 0x08 : 0) | (ctx.softirq ? 0x10 : 0)));
        r.put(uint8_t(ctx.preemptDepth));
        r.put(int32_t(ctx.task >= 0 ? task(ctx.task).pid : 0));
        const auto wake = [&](size_t i, int target) {
            const TraceTask& t = task(w.wakee[i]);
            r.comm(t.comm);
            r.put(int32_t(t.pid));
            r.put(int32_t(t.prio));
            r.put(int32_t(target));
        };
        switch (e.kind) {
        case Kind::Switch: {
            const std::string idle = "swapper/" + std::to_string(e.cpu);
            const TraceTask* p = e.a >= 0 ? &task(e.a) : nullptr;
            const TraceTask* n = e.b >= 0 ? &task(e.b) : nullptr;
            r.comm(p ? p->comm : idle);
            r.put(int32_t(p ? p->pid : 0));
            r.put(int32_t(p ? p->prio : 120));
            r.put(int64_t(p ? FtraceEvents::prevStateBits(e.point, *p) : 0));
            r.comm(n ? n->comm : idle);
            r.put(int32_t(n ? n->pid : 0));
            r.put(int32_t(n ? n->prio : 120));
            break;
        }
        case Kind::Waking:
            wake(size_t(e.a), e.b >= 0 ? e.b : w.targetCpu[size_t(e.a)]);
            break;
        case Kind::Wakeup:
        case Kind::WakeupNew:
            wake(size_t(e.a), w.targetCpu[size_t(e.a)]);
            break;
        case Kind::Fork: {
            const TraceTask& child = task(w.wakee[size_t(e.a)]);
            r.comm(ctx.task >= 0 ? task(ctx.task).comm : std::string());
            r.put(int32_t(child.ppid));
            r.comm(child.comm);
            r.put(int32_t(child.pid));
            break;
        }
        case Kind::Migrate: {
            const TraceTask& t = task(m.task[size_t(e.a)]);
            r.comm(t.comm);
            r.put(int32_t(t.pid));
            r.put(int32_t(t.prio));
            r.put(int32_t(m.from[size_t(e.a)]));
            r.put(int32_t(m.to[size_t(e.a)]));
            break;
        }
        case Kind::Exit: {
            const TraceTask& t = task(e.a);
            r.comm(t.comm);
            r.put(int32_t(t.pid));
            r.put(int32_t(t.prio));
            r.put(uint8_t(t.pid == t.tgid));
            break;
        }
        case Kind::Mark: // tracing_mark_write() ends the text with a newline when it has none
            r.put(kMarkWriteIp);
            r.cstr((trace.markers[size_t(e.a)].text + "\n").c_str());
            break;
        }
        buffers[e.cpu].add(e.time + opts.offset, r.s);
    });

    // The header (trace-cmd.dat.v6(5)), in file order.
    Bytes h;
    h.text(std::string("\x17\x08\x44tracing", 10));
    h.cstr("6");
    h.put(uint8_t(0)); // little endian
    h.put(uint8_t(8)); // sizeof(long)
    h.put(uint32_t(kPageSize));
    h.cstr("header_page");
    h.put(uint64_t(std::strlen(kHeaderPage)));
    h.text(kHeaderPage);
    h.cstr("header_event");
    h.put(uint64_t(std::strlen(kHeaderEvent)));
    h.text(kHeaderEvent);
    const std::string print = printFormat();
    h.put(uint32_t(1)); // ftrace's own entries: print
    h.put(uint64_t(print.size()));
    h.text(print);
    const std::vector<std::string> sched = schedFormats();
    h.put(uint32_t(1)); // event systems: sched
    h.cstr("sched");
    h.put(uint32_t(sched.size()));
    for (const std::string& f : sched) {
        h.put(uint64_t(f.size()));
        h.text(f);
    }
    h.put(uint32_t(std::strlen(kKallsyms)));
    h.text(kKallsyms);
    h.put(uint32_t(0));   // printk formats
    std::string cmdlines; // saved_cmdlines: "pid comm"
    for (const TraceTask& t : tasks)
        cmdlines += std::to_string(t.pid) + " " + t.comm + "\n";
    h.put(uint64_t(cmdlines.size()));
    h.text(cmdlines);
    h.put(uint32_t(cpus));
    h.text(std::string("flyrecord\0", 10));
    std::vector<std::string> data;
    data.reserve(size_t(cpus));
    for (CpuBuffer& b : buffers)
        data.push_back(b.finish());
    // Per CPU: offset and size of its pages, which start page-aligned after the header.
    uint64_t offset = (h.s.size() + 16 * uint64_t(cpus) + kPageSize - 1) / kPageSize * kPageSize;
    for (const std::string& d : data) {
        h.put(uint64_t(d.empty() ? 0 : offset));
        h.put(uint64_t(d.size()));
        offset += d.size();
    }
    h.s.resize((h.s.size() + kPageSize - 1) / kPageSize * kPageSize, '\0');
    sink(h.s);
    for (const std::string& d : data)
        if (!d.empty()) sink(d);
    return int64_t(events.size());
}

} // namespace sched
