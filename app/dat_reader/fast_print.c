// SPDX-License-Identifier: GPL-3.0-or-later
#include "fast_print.h"

#include <trace-cmd.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_CONV = 16, CHECKED_FIRST = 64, STATE_KEYS = 4096, MAX_EVENTS = 1 << 16, MAX_WIDTH = 64 };
enum { PLAN_UNKNOWN = 0, PLAN_FAST, PLAN_SLOW };

// One conversion of the format: %s of a char array, or an integer field as printf prints the
// value that libtraceevent's eval_num_arg() reads (zero-extended, then cast by the length).
struct conv {
    const char* lit; // the literal text before it
    size_t lit_len;
    struct tep_format_field* field; // NULL: an expression (sched_switch's prev_state)
    char kind;                      // 's', 'd', 'u'
    int longs;                      // 0: int, 1: long, 2: long long
    int width;
    char pad; // ' ' or '0'
};

struct plan {
    int state; // PLAN_*
    int n;
    struct conv conv[MAX_CONV];
    const char* tail; // the literal text after the last conversion
    size_t tail_len;
    int opaque_first, opaque_last; // the run of expression conversions (sched_switch), or -1
    struct tep_format_field* key;  // prev_state: what the expressions' text depends on
    char* keyed[STATE_KEYS];       // their text per value, as tep_print_event() printed it
    long long checked;             // records compared with tep_print_event()
};

struct fast_print {
    int check;
    struct plan* plans[MAX_EVENTS]; // by event id (common_type is 16 bits)
    struct trace_seq slow;
    char* buf; // the fast text
    size_t cap;
    long long fast_count, slow_count;
};

// A difference found in check mode: outlives the fast_print, since the reader reports it after
// freeing everything.
static char difference[512];

struct fast_print* fast_print_new(int check) {
    struct fast_print* fp = calloc(1, sizeof *fp);
    if (!fp) return NULL;
    fp->check = check;
    trace_seq_init(&fp->slow);
    return fp;
}

void fast_print_free(struct fast_print* fp) {
    if (!fp) return;
    for (size_t i = 0; i < MAX_EVENTS; ++i) {
        struct plan* p = fp->plans[i];
        if (!p) continue;
        for (size_t k = 0; k < STATE_KEYS; ++k)
            free(p->keyed[k]);
        free(p);
    }
    trace_seq_destroy(&fp->slow);
    free(fp->buf);
    free(fp);
}

void fast_print_counts(const struct fast_print* fp, long long* fast, long long* slow) {
    *fast = fp->fast_count;
    *slow = fp->slow_count;
}

// A field a conversion may read directly: a fixed char array for %s, a plain number otherwise.
static int plain_field(const struct tep_format_field* f, char kind) {
    if (!f || f->offset < 0 ||
        (f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE | TEP_FIELD_IS_POINTER)))
        return 0; // a damaged format file can say anything: only fields inside the record's data
    if (kind == 's') return (f->flags & TEP_FIELD_IS_ARRAY) && f->elementsize == 1 && f->size > 0;
    return !(f->flags & TEP_FIELD_IS_ARRAY) && (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8);
}

// Parses the event's print fmt into conversions; PLAN_SLOW where it is not one we follow exactly.
static void make_plan(struct plan* p, struct tep_event* ev) {
    p->state = PLAN_SLOW;
    p->opaque_first = p->opaque_last = -1;
    const char* f = ev->print_fmt.format;
    // An event libtraceevent prints by a handler (a plugin's, a built-in one) or failed to parse.
    if (!f || strchr(f, '\\') || ev->handler || (ev->flags & TEP_EVENT_FL_FAILED)) return;
    struct tep_print_arg* arg = ev->print_fmt.args;
    const char* lit = f;
    int n = 0;
    while (*f) {
        if (*f != '%') {
            ++f;
            continue;
        }
        if (f[1] == '%') return; // a literal '%': rare, left to libtraceevent
        if (n == MAX_CONV || !arg) return;
        struct conv* c = &p->conv[n];
        c->lit = lit;
        c->lit_len = (size_t)(f - lit);
        ++f;
        c->pad = ' ';
        if (*f == '0') {
            c->pad = '0';
            ++f;
        }
        c->width = 0;
        while (*f >= '0' && *f <= '9') {
            c->width = c->width * 10 + (*f++ - '0');
            if (c->width > MAX_WIDTH) return; // a damaged format file's width: libtraceevent's business
        }
        c->longs = 0;
        while (*f == 'l' && c->longs < 2) {
            ++c->longs;
            ++f;
        }
        if (*f == 's' && c->width == 0 && c->longs == 0 && c->pad == ' ')
            c->kind = 's';
        else if (*f == 'd' || *f == 'i')
            c->kind = 'd';
        else if (*f == 'u')
            c->kind = 'u';
        else
            return;
        ++f;
        lit = f;
        c->field = NULL;
        if (arg->type == TEP_PRINT_FIELD) {
            c->field = tep_find_field(ev, arg->field.name);
            if (!plain_field(c->field, c->kind)) return;
        } else {
            // An expression: only sched_switch's prev_state run ("%s%s", keyed by prev_state).
            if (c->kind != 's' || strcmp(ev->name, "sched_switch") != 0) return;
            if (p->opaque_first < 0)
                p->opaque_first = n;
            else if (p->opaque_last != n - 1 || c->lit_len != 0)
                return;
            p->opaque_last = n;
        }
        arg = arg->next;
        ++n;
    }
    if (arg) return; // more arguments than conversions
    p->n = n;
    p->tail = lit;
    p->tail_len = (size_t)(f - lit);
    if (p->opaque_first >= 0) {
        p->key = tep_find_field(ev, "prev_state");
        if (!plain_field(p->key, 'd')) return;
    }
    p->state = PLAN_FAST;
}

static int reserve(struct fast_print* fp, size_t need) {
    if (need <= fp->cap) return 0;
    if (need > ((size_t)1 << 30)) return -1; // a line of fields is a few hundred bytes
    size_t cap = fp->cap ? fp->cap : 256;
    while (cap < need)
        cap *= 2;
    char* grown = realloc(fp->buf, cap);
    if (!grown) return -1;
    fp->buf = grown;
    fp->cap = cap;
    return 0;
}

// printf("%d" / "%0Nd" / "%Nd") of v.
static char* put_int(char* o, long long v, int is_unsigned, int width, char pad) {
    char d[24];
    int n = 0;
    const int neg = !is_unsigned && v < 0;
    unsigned long long u = is_unsigned ? (unsigned long long)v
                           : neg       ? 0ULL - (unsigned long long)v
                                       : (unsigned long long)v;
    do
        d[n++] = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    const int len = n + neg;
    if (pad == ' ')
        for (int i = len; i < width; ++i)
            *o++ = ' ';
    if (neg) *o++ = '-';
    if (pad == '0')
        for (int i = len; i < width; ++i)
            *o++ = '0';
    while (n)
        *o++ = d[--n];
    return o;
}

// The value as eval_num_arg() reads it and print_arg_number() casts it.
static long long number(const struct conv* c, const unsigned char* data) {
    unsigned long long v = 0;
    switch (c->field->size) {
    case 1:
        v = data[c->field->offset];
        break;
    case 2: {
        uint16_t x;
        memcpy(&x, data + c->field->offset, 2);
        v = x;
        break;
    }
    case 4: {
        uint32_t x;
        memcpy(&x, data + c->field->offset, 4);
        v = x;
        break;
    }
    default: {
        uint64_t x;
        memcpy(&x, data + c->field->offset, 8);
        v = x;
        break;
    }
    }
    if (c->longs == 2 || (c->longs == 1 && sizeof(long) == 8)) return (long long)v;
    return c->kind == 'u' ? (long long)(unsigned int)v : (long long)(int)v;
}

// Prints conversions [from, to) and, if `tail`, the text after the last; 0, or -1 (memory).
static int put_range(struct fast_print* fp, const struct plan* p, const unsigned char* data, int from, int to,
                     int tail, size_t* len) {
    size_t need = *len + (tail ? p->tail_len : 0) + 1;
    for (int i = from; i < to; ++i)
        need += p->conv[i].lit_len + (p->conv[i].kind == 's' ? (size_t)p->conv[i].field->size : 24) +
                (size_t)p->conv[i].width;
    if (reserve(fp, need) != 0) return -1;
    char* o = fp->buf + *len;
    for (int i = from; i < to; ++i) {
        const struct conv* c = &p->conv[i];
        memcpy(o, c->lit, c->lit_len);
        o += c->lit_len;
        if (c->kind == 's') {
            const char* s = (const char*)data + c->field->offset;
            const char* end = memchr(s, '\0', (size_t)c->field->size);
            const size_t n = end ? (size_t)(end - s) : (size_t)c->field->size;
            memcpy(o, s, n);
            o += n;
        } else {
            o = put_int(o, number(c, data), c->kind == 'u', c->width, c->pad);
        }
    }
    if (tail) {
        memcpy(o, p->tail, p->tail_len);
        o += p->tail_len;
    }
    *len = (size_t)(o - fp->buf);
    return 0;
}

static int slow_print(struct fast_print* fp, struct tep_event* ev, struct tep_record* rec) {
    trace_seq_reset(&fp->slow);
    tep_print_event(ev->tep, &fp->slow, rec, "%s", TEP_PRINT_INFO);
    return fp->slow.state == TRACE_SEQ__GOOD ? 0 : -1;
}

// The fast text in fp->buf; 1: it needs tep_print_event() (a damaged record, an unseen key).
static int fast_text(struct fast_print* fp, struct plan* p, struct tep_event* ev, struct tep_record* rec,
                     size_t* len) {
    const unsigned char* data = rec->data;
    for (int i = 0; i < p->n; ++i)
        if (p->conv[i].field && (long long)p->conv[i].field->offset + p->conv[i].field->size > rec->size)
            return 1;
    *len = 0;
    if (p->opaque_first < 0) return put_range(fp, p, data, 0, p->n, 1, len);
    if ((long long)p->key->offset + p->key->size > rec->size) return 1;
    struct conv k = {0};
    k.field = p->key;
    k.kind = 'u';
    k.longs = 2;
    const unsigned long long key = (unsigned long long)number(&k, data);
    if (put_range(fp, p, data, 0, p->opaque_first, 0, len) != 0) return -1;
    const size_t prefix = *len;
    const char* keyed = key < STATE_KEYS ? p->keyed[key] : NULL;
    if (!keyed) {
        // Learn it from tep_print_event(): what lies between the fast prefix and suffix.
        if (key >= STATE_KEYS) return 1;
        const size_t mark = *len;
        if (put_range(fp, p, data, p->opaque_last + 1, p->n, 1, len) != 0) return -1;
        const size_t suffix_len = *len - mark;
        if (slow_print(fp, ev, rec) != 0) return -1;
        const size_t slow_len = (size_t)fp->slow.len;
        if (slow_len < prefix + suffix_len || memcmp(fp->slow.buffer, fp->buf, prefix) != 0 ||
            memcmp(fp->slow.buffer + slow_len - suffix_len, fp->buf + mark, suffix_len) != 0) {
            p->state = PLAN_SLOW; // not the layout we follow: libtraceevent prints this event
            return 1;
        }
        const size_t n = slow_len - prefix - suffix_len;
        char* text = malloc(n + 1);
        if (!text) return -1;
        memcpy(text, fp->slow.buffer + prefix, n);
        text[n] = '\0';
        p->keyed[key] = text;
        keyed = text;
        *len = prefix;
    }
    // The keyed text begins with the literal before the first expression (" prev_state=").
    const size_t klen = strlen(keyed);
    if (reserve(fp, *len + klen + 1) != 0) return -1;
    memcpy(fp->buf + *len, keyed, klen);
    *len += klen;
    return put_range(fp, p, data, p->opaque_last + 1, p->n, 1, len);
}

int fast_print_info(struct fast_print* fp, struct tep_handle* tep, struct tep_event* ev,
                    struct tep_record* rec, const char** text, size_t* text_len, const char** why) {
    *why = NULL;
    struct plan* p = NULL;
    if (ev && ev->id >= 0 && ev->id < MAX_EVENTS) {
        p = fp->plans[ev->id];
        if (!p) {
            p = calloc(1, sizeof *p);
            if (!p) return -1;
            make_plan(p, ev);
            fp->plans[ev->id] = p;
        }
    }
    size_t len = 0;
    int r = p && p->state == PLAN_FAST ? fast_text(fp, p, ev, rec, &len) : 1;
    if (r < 0) return -1;
    if (r == 0 && (fp->check || p->checked < CHECKED_FIRST)) {
        p->checked++;
        if (slow_print(fp, ev, rec) != 0) return -1;
        if ((size_t)fp->slow.len != len || memcmp(fp->slow.buffer, fp->buf, len) != 0) {
            if (fp->check) {
                const int sl = fp->slow.len > 200 ? 200 : fp->slow.len, fl = len > 200 ? 200 : (int)len;
                snprintf(difference, sizeof difference,
                         "%s: libtraceevent printed \"%.*s\", the reader \"%.*s\"", ev->name, sl,
                         fp->slow.buffer, fl, fp->buf);
                *why = difference;
                return -2;
            }
            p->state = PLAN_SLOW;
            r = 1;
        }
    }
    if (r == 0) {
        fp->fast_count++;
        *text = fp->buf;
        *text_len = len;
        return 0;
    }
    fp->slow_count++;
    trace_seq_reset(&fp->slow);
    tep_print_event(tep, &fp->slow, rec, "%s", TEP_PRINT_INFO);
    if (fp->slow.state != TRACE_SEQ__GOOD) return -1;
    *text = fp->slow.buffer;
    *text_len = (size_t)fp->slow.len;
    return 0;
}
