// SPDX-License-Identifier: GPL-3.0-or-later
// The fields part of a record's line ("comm=x pid=1 prio=120 target_cpu=001"), printed without
// libtraceevent's print-fmt interpreter where the event's print fmt is simple enough to follow
// exactly: tep_print_event() walks the parsed print fmt for every record and took four fifths of
// the reader's instructions on a run's trace.dat. An event qualifies when every conversion of its
// format is %s of a fixed char array or %d / %u / %03d (with l / ll) of a number field, as the
// sched_waking, sched_wakeup(_new), sched_migrate_task and sched_process_fork formats are; and
// sched_switch, whose prev_state expression is printed once per distinct prev_state value by
// tep_print_event() itself and then reused. Anything else - another format, a damaged record, a
// prev_state never seen - is printed by tep_print_event() as before.
//
// Each event's first records are printed both ways and compared; one difference and the event
// goes back to tep_print_event() for the rest of the file. With `check` set, every record is.
#pragma once

#include <stddef.h>

struct tep_handle;
struct tep_event;
struct tep_record;
struct fast_print;

struct fast_print* fast_print_new(int check);
void fast_print_free(struct fast_print* fp);

// The record's fields as tep_print_event(tep, s, rec, "%s", TEP_PRINT_INFO) prints them, in
// *text (valid until the next call; not NUL-terminated) and *text_len. `ev` may be NULL (an
// unknown event type). Returns 0, -1 out of memory, or -2 (check mode only) on a difference, with
// the two texts in *why.
int fast_print_info(struct fast_print* fp, struct tep_handle* tep, struct tep_event* ev,
                    struct tep_record* rec, const char** text, size_t* text_len, const char** why);

// How many records took the fast path and how many tep_print_event() (for --stats).
void fast_print_counts(const struct fast_print* fp, long long* fast, long long* slow);
