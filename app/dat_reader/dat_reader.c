// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope-dat-reader FILE: a trace-cmd trace.dat read with libtracecmd (LGPL-2.1, the library
// trace-cmd and KernelShark use) and written to standard output as the kernel's own ftrace
// `trace` text - "cpus=N", then one line per record in time order: comm-pid [cpu] flags
// seconds.nanoseconds: event: fields - for the importer (core/trace/file.cpp), which starts it.
// A program of its own and not a library call, because libtracecmd 3.1 trusts the file: 95 of 400
// mutated (truncated or overwritten) trace.dat files crashed it with SIGSEGV. In a child process a
// damaged file is an error message, never the end of the application. C, because libtracefs's
// header (pulled in by trace-cmd.h) is not valid C++.
#include "fast_print.h"

#include <trace-cmd.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Called with each line (ending in '\n'); a non-zero return stops the reading.
typedef int (*line_fn)(void* ctx, const char* text, size_t len);
enum { DONE = 0, STOPPED = 1, UNREADABLE = -1 };

// enum trace_flag_type (kernel/trace/trace.h, 6.13+): what common_flags holds.
enum {
    FLAG_IRQS_OFF = 0x01,
    FLAG_NEED_RESCHED_LAZY = 0x02, // TRACE_FLAG_IRQS_NOSUPPORT before 6.13 (never set on x86)
    FLAG_NEED_RESCHED = 0x04,
    FLAG_HARDIRQ = 0x08,
    FLAG_SOFTIRQ = 0x10,
    FLAG_PREEMPT_RESCHED = 0x20,
    FLAG_NMI = 0x40,
    FLAG_BH_OFF = 0x80,
};

// A pid's comm as tep_data_comm_from_pid() finds it (a binary search of the saved cmdlines, a
// tenth of the reader's instructions when done for every record), kept per pid in a direct-mapped
// table. The pointer stays valid: the cmdlines do not change while the records are read.
enum { COMM_SLOTS = 8192 };
struct comm_slot {
    int pid;
    unsigned len;
    const char* comm; // NULL: empty
};

struct reader {
    line_fn line;
    void* ctx;
    struct comm_slot* comms;   // COMM_SLOTS of them
    struct tep_event** events; // by event id (common_type is 16 bits), found once

    struct fast_print* fields; // the event's fields, as its print fmt prints them (NULL: --slow)
    struct trace_seq seq;      // ... printed by tep_print_event() alone (--slow)
    long long records;
    char* text; // the line, grown for a long record (a large trace_marker write)
    size_t cap;
    const char* error; // why the reading stopped, if it did
};

// The line is put together here rather than by tep_print_event()'s format string: parsing
// "%16s-%-7d [%03d]" for every record was a third of the reader's time.
static char* put(char* p, const char* s, size_t n) {
    memcpy(p, s, n);
    return p + n;
}
static char* put_uint(char* p, unsigned long long v, int width, char pad) {
    char d[24];
    int n = 0;
    do
        d[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    for (; n < width; --width)
        *p++ = pad;
    while (n)
        *p++ = d[--n];
    return p;
}

// trace_print_lat_fmt(): irqs-off, need-resched, hard/soft irq, preempt depth, migrate-disable.
// libtraceevent 1.7's own latency column predates the lazy bit, so it is printed here.
static char* latency(char* p, int flags, int pc) {
    char nr = '.';
    switch (flags & (FLAG_NEED_RESCHED | FLAG_NEED_RESCHED_LAZY | FLAG_PREEMPT_RESCHED)) {
    case FLAG_NEED_RESCHED | FLAG_NEED_RESCHED_LAZY | FLAG_PREEMPT_RESCHED:
        nr = 'B';
        break;
    case FLAG_NEED_RESCHED | FLAG_PREEMPT_RESCHED:
        nr = 'N';
        break;
    case FLAG_NEED_RESCHED_LAZY | FLAG_PREEMPT_RESCHED:
        nr = 'L';
        break;
    case FLAG_NEED_RESCHED | FLAG_NEED_RESCHED_LAZY:
        nr = 'b';
        break;
    case FLAG_NEED_RESCHED:
        nr = 'n';
        break;
    case FLAG_PREEMPT_RESCHED:
        nr = 'p';
        break;
    case FLAG_NEED_RESCHED_LAZY:
        nr = 'l';
        break;
    default:
        break;
    }
    const int nmi = flags & FLAG_NMI, hard = flags & FLAG_HARDIRQ, soft = flags & FLAG_SOFTIRQ;
    const int irqsOff = flags & FLAG_IRQS_OFF, bhOff = flags & FLAG_BH_OFF;
    const char irq = (nmi && hard) ? 'Z' : nmi ? 'z' : (hard && soft) ? 'H' : hard ? 'h' : soft ? 's' : '.';
    const int depth = pc & 0xf, migrate = (pc >> 4) & 0xf;
    static const char hex[] = "0123456789abcdef";
    *p++ = (irqsOff && bhOff) ? 'D' : irqsOff ? 'd' : bhOff ? 'b' : '.';
    *p++ = nr;
    *p++ = irq;
    *p++ = depth ? hex[depth] : '.';
    *p++ = migrate ? hex[migrate] : '.';
    return p;
}

// One record as the kernel's trace file prints it: "%16s-%-7d [%03d] " (comm, pid, CPU), the
// latency flags, "%llu.%09llu: " (nanoseconds: the record has them), the event's name and fields.
static int record(struct tracecmd_input* handle, struct tep_record* rec, int cpu, void* data) {
    struct reader* r = data;
    struct tep_handle* tep = tracecmd_get_tep(handle);
    (void)cpu;
    r->records++;
    // tep_find_event() remembers only the last event it found: a binary search on every change.
    const int type = tep_data_type(tep, rec);
    struct tep_event* ev = NULL;
    if (type >= 0 && type < 65536) {
        ev = r->events[type];
        if (!ev) ev = r->events[type] = tep_find_event(tep, type);
    } else {
        ev = tep_find_event(tep, type);
    }
    const char* info = NULL;
    size_t infoLen = 0;
    // libtracecmd stops on a negative return only; every stop is an error the parent reports.
    if (r->fields) {
        const int rc = fast_print_info(r->fields, tep, ev, rec, &info, &infoLen, &r->error);
        if (rc != 0) {
            if (!r->error) r->error = "out of memory formatting a record";
            return -1;
        }
    } else {
        trace_seq_reset(&r->seq);
        tep_print_event(tep, &r->seq, rec, "%s", TEP_PRINT_INFO);
        if (r->seq.state != TRACE_SEQ__GOOD) {
            r->error = "out of memory formatting a record";
            return -1;
        }
        info = r->seq.buffer;
        infoLen = (size_t)r->seq.len;
    }
    const int pid = tep_data_pid(tep, rec);
    struct comm_slot* slot = &r->comms[(unsigned)pid % COMM_SLOTS];
    if (!slot->comm || slot->pid != pid) {
        slot->pid = pid;
        slot->comm = tep_data_comm_from_pid(tep, pid);
        slot->len = (unsigned)strlen(slot->comm);
    }
    const char* comm = slot->comm;
    const size_t commLen = slot->len, nameLen = ev ? strlen(ev->name) : 0;
    const size_t need = commLen + nameLen + infoLen + 96; // the fixed parts take at most 84
    if (need > r->cap) {
        char* grown = realloc(r->text, need);
        if (!grown) {
            r->error = "out of memory for a record's line";
            return -1;
        }
        r->text = grown;
        r->cap = need;
    }
    char* p = r->text;
    for (size_t i = commLen; i < 16; ++i)
        *p++ = ' ';
    p = put(p, comm, commLen);
    *p++ = '-';
    char* pidStart = p;
    if (pid < 0) *p++ = '-';
    p = put_uint(p, (unsigned long long)(pid < 0 ? -(long long)pid : pid), 0, ' ');
    while (p - pidStart < 7)
        *p++ = ' ';
    p = put(p, " [", 2);
    p = put_uint(p, (unsigned long long)rec->cpu, 3, '0');
    p = put(p, "] ", 2);
    p = latency(p, tep_data_flags(tep, rec), tep_data_preempt_count(tep, rec));
    *p++ = ' ';
    p = put_uint(p, rec->ts / 1000000000ULL, 0, ' ');
    *p++ = '.';
    p = put_uint(p, rec->ts % 1000000000ULL, 9, '0');
    p = put(p, ": ", 2);
    if (ev) p = put(p, ev->name, nameLen);
    p = put(p, ": ", 2);
    p = put(p, info, infoLen);
    *p++ = '\n';
    if (r->line(r->ctx, r->text, (size_t)(p - r->text)) != 0) {
        r->error = "cannot write the text (the reader's output closed)";
        return -1;
    }
    return 0;
}

// mode: 0 the fast fields where they follow the print fmt, 1 tep_print_event() alone (--slow),
// 2 both for every record, a difference an error (--check).
// The records of all CPUs in time order (ties: the lower CPU first), as tracecmd_iterate_events()
// gives them, but merged through a binary heap: that function looks at every CPU for every
// record, a sixth of the reader's instructions on a 64-CPU trace. Returns the callback's first
// negative return, -2 out of memory, or 0.
struct pending {
    struct tep_record* rec;
    int cpu;
};
static int before(const struct pending* a, const struct pending* b) {
    return a->rec->ts < b->rec->ts || (a->rec->ts == b->rec->ts && a->cpu < b->cpu);
}
static void sift_down(struct pending* h, int n, int i) {
    for (;;) {
        int m = i;
        const int l = 2 * i + 1, r = l + 1;
        if (l < n && before(&h[l], &h[m])) m = l;
        if (r < n && before(&h[r], &h[m])) m = r;
        if (m == i) return;
        const struct pending t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}
static int iterate_in_time_order(struct tracecmd_input* handle,
                                 int (*fn)(struct tracecmd_input*, struct tep_record*, int, void*),
                                 void* data) {
    const int cpus = tep_get_cpus(tracecmd_get_tep(handle));
    struct pending* h = cpus > 0 ? malloc(sizeof *h * (size_t)cpus) : NULL;
    if (cpus > 0 && !h) return -2;
    int n = 0;
    for (int cpu = 0; cpu < cpus; ++cpu) {
        struct tep_record* rec = tracecmd_read_cpu_first(handle, cpu);
        if (rec) h[n++] = (struct pending){rec, cpu};
    }
    for (int i = n / 2 - 1; i >= 0; --i)
        sift_down(h, n, i);
    int rc = 0;
    while (n > 0) {
        struct pending top = h[0];
        rc = fn(handle, top.rec, top.cpu, data);
        struct tep_record* next = rc < 0 ? NULL : tracecmd_read_data(handle, top.cpu);
        tracecmd_free_record(top.rec);
        if (rc < 0) break;
        if (next)
            h[0].rec = next;
        else
            h[0] = h[--n];
        sift_down(h, n, 0);
    }
    if (rc < 0)
        for (int i = 1; i < n; ++i)
            tracecmd_free_record(h[i].rec);
    free(h);
    return rc < 0 ? rc : 0;
}

static int read_lines(int fd, int mode, line_fn line, void* ctx, long long* records, const char** error) {
    *error = NULL;
    *records = 0;
    tracecmd_set_loglevel(TEP_LOG_NONE);
    // Without plugins every event prints by its format file's print fmt: the kernel's text.
    // tracecmd_open_fd() takes the descriptor over (tracecmd_close() closes it): a copy of it.
    const int own = dup(fd);
    if (own < 0) return UNREADABLE;
    lseek(own, 0, SEEK_SET);
    struct tracecmd_input* handle =
        tracecmd_open_fd(own, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
    if (!handle) return UNREADABLE; // a failed open has closed `own` itself
    struct reader r = {line,
                       ctx,
                       calloc(COMM_SLOTS, sizeof(struct comm_slot)),
                       calloc(65536, sizeof(struct tep_event*)),
                       NULL,
                       {0},
                       0,
                       NULL,
                       0,
                       NULL};
    if (!r.comms || !r.events) {
        free(r.comms);
        free(r.events);
        tracecmd_close(handle);
        *error = "out of memory";
        return STOPPED;
    }
    trace_seq_init(&r.seq);
    if (mode != 1 && !(r.fields = fast_print_new(mode == 2))) {
        free(r.comms);
        free(r.events);
        trace_seq_destroy(&r.seq);
        tracecmd_close(handle);
        *error = "out of memory";
        return STOPPED;
    }
    char head[32];
    const int n = snprintf(head, sizeof head, "cpus=%d\n", tep_get_cpus(tracecmd_get_tep(handle)));
    int rc = line(ctx, head, (size_t)n) != 0 ? -1 : iterate_in_time_order(handle, record, &r);
    if (rc < 0 && !r.error) r.error = "libtracecmd stopped reading the records";
    if (r.fields && getenv("SCHEDSCOPE_DAT_READER_STATS")) {
        long long fast = 0, slow = 0;
        fast_print_counts(r.fields, &fast, &slow);
        fprintf(stderr, "records: %lld printed by the reader, %lld by tep_print_event()\n", fast, slow);
    }
    fast_print_free(r.fields);
    free(r.comms);
    free(r.events);
    trace_seq_destroy(&r.seq);
    free(r.text);
    tracecmd_close(handle);
    *records = r.records;
    *error = r.error;
    return rc < 0 ? STOPPED : DONE;
}

// Standard output, buffered here: stdio's fwrite() took a tenth of the reader's instructions for
// lines that are each a memcpy() into a buffer.
struct output {
    char buf[1 << 16];
    size_t used;
    int failed;
};

// All of it, or the output failed: a closed pipe (the import cancelled) stops the reading, and so
// does a write that takes nothing.
static int write_all(struct output* o, const char* p, size_t len) {
    while (len > 0 && !o->failed) {
        const ssize_t n = write(STDOUT_FILENO, p, len);
        if (n > 0)
            p += n, len -= (size_t)n;
        else if (n == 0 || errno != EINTR)
            o->failed = 1;
    }
    return o->failed;
}

static int flush_out(struct output* o) {
    write_all(o, o->buf, o->used);
    o->used = 0;
    return o->failed;
}

static int write_out(void* ctx, const char* text, size_t len) {
    struct output* o = ctx;
    if (o->used + len > sizeof o->buf && flush_out(o) != 0) return 1;
    if (len > sizeof o->buf) return write_all(o, text, len); // a long record (a large trace_marker write)
    memcpy(o->buf + o->used, text, len);
    o->used += len;
    return 0;
}

int main(int argc, char** argv) {
    int mode = 0;
    if (argc == 3 && strcmp(argv[1], "--slow") == 0) mode = 1;
    if (argc == 3 && strcmp(argv[1], "--check") == 0) mode = 2;
    if (argc != 2 + (mode != 0)) {
        fprintf(stderr,
                "usage: schedscope-dat-reader [--slow | --check] FILE\n(prints a trace.dat as ftrace text; "
                "run by SchedScope's importer. --slow: every record's fields by libtraceevent's print fmt "
                "interpreter; --check: both ways, a difference an error)\n");
        return 2;
    }
    const char* path = argv[argc - 1];
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "cannot open %s: %s\n", path, strerror(errno));
        return 1;
    }
    static struct output out;
    long long records = 0;
    const char* error = NULL;
    const int r = read_lines(fd, mode, write_out, &out, &records, &error);
    close(fd);
    if (r == UNREADABLE) {
        fprintf(stderr, "libtracecmd cannot read it as a trace.dat (a damaged or truncated file, or not a "
                        "trace-cmd file)\n");
        return 1;
    }
    // A stop part-way, or output that did not all get out, is a failure: never a shorter trace.
    if (flush_out(&out) != 0) error = error ? error : "cannot write the text (the reader's output closed)";
    if (r == STOPPED || error) {
        fprintf(stderr, "stopped after %lld records: %s\n", records, error ? error : "unknown error");
        return 1;
    }
    return 0;
}
