/* pmusim harness — the batch answers memo (answer_memo.h). */
#include "answer_memo.h"

#include <string.h>

/* The table holds a tag and an offset per line, 8 bytes: a lookup's one
 * random access stays in a small array (4,096 slots for 2,000 lines: 32 kB),
 * and the entries lie one after the other in the arena, in the order they
 * were remembered, which is often the order they come back in. */
typedef struct {
    guint32 tag; /* the hash's high half, never 0; 0: empty slot */
    guint32 at;  /* offset of the entry in the arena */
} Slot;

/* An entry in the arena, on an 8-byte boundary: the answer line follows,
 * its first line_len bytes the line itself. */
typedef struct {
    guint32 line_len;
    guint32 answer_len;
} Entry;

struct PmsAnswerMemo {
    Slot *slots;
    guint mask; /* capacity - 1; capacity a power of two */
    guint used;
    guint max_entries;
    gsize max_line;
    GByteArray *arena;
    /* resting (answer_memo.h): misses in a row while awake; while resting,
     * the sampled lines' hashes (open addressing, 0 empty) and the window */
    guint miss_run;
    gboolean resting;
    guint64 *sample;
    guint sample_used, window, repeats;
    guint transitions; /* rests and wakes so far (pms_answer_memo_transitions) */
};

#define SAMPLE_SLOTS 1024 /* at most half full: cleared then */

/* Eight bytes per step, the last eight overlapping (glib's g_str_hash takes
 * one byte per step, which was most of a remembered line's cost); mixed at
 * the end so that the low bits, the table index, depend on every byte.
 * Never 0, the empty slot's mark. */
static inline guint64 line_hash(const char *p, gsize n)
{
    const guint64 k = 0x9e3779b97f4a7c15ull;
    guint64 h = (n + 1) * k, w;
    if (n >= 8) {
        const char *last = p + n - 8;
        for (; p < last; p += 8) {
            memcpy(&w, p, 8);
            h = (h ^ w) * k;
        }
        memcpy(&w, last, 8);
        h = (h ^ w) * k;
    } else {
        w = 0;
        for (gsize i = 0; i < n; i++)
            w = (w << 8) | (guchar)p[i];
        h = (h ^ w) * k;
    }
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ull;
    h ^= h >> 32;
    return h ? h : 1;
}

static inline guint32 tag_of(guint64 h)
{
    return (guint32)(h >> 32) | 1;
}

static inline const Entry *entry_at(const PmsAnswerMemo *m, guint32 at)
{
    return (const Entry *)(m->arena->data + at);
}

/* The n bytes at a and b are equal: a word at a time, the last word
 * overlapping (lines are short; a libc call would cost more than the work). */
static inline gboolean same_bytes(const char *a, const char *b, gsize n)
{
    guint64 x, y;
    if (n < 8) {
        for (gsize i = 0; i < n; i++)
            if (a[i] != b[i])
                return FALSE;
        return TRUE;
    }
    for (gsize i = 0; i + 8 < n; i += 8) {
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        if (x != y)
            return FALSE;
    }
    memcpy(&x, a + n - 8, 8);
    memcpy(&y, b + n - 8, 8);
    return x == y;
}

PmsAnswerMemo *pms_answer_memo_new(guint max_entries, gsize max_line)
{
    PmsAnswerMemo *m = g_new0(PmsAnswerMemo, 1);
    m->mask = 1023;
    m->slots = g_new0(Slot, m->mask + 1);
    m->max_entries = max_entries;
    m->max_line = max_line;
    m->arena = g_byte_array_new();
    return m;
}

static void wake(PmsAnswerMemo *m)
{
    m->transitions += m->resting;
    m->resting = FALSE;
    m->miss_run = 0;
}

void pms_answer_memo_clear(PmsAnswerMemo *m)
{
    memset(m->slots, 0, (m->mask + 1) * sizeof *m->slots);
    g_byte_array_set_size(m->arena, 0);
    m->used = 0;
    wake(m);
}

gboolean pms_answer_memo_resting(const PmsAnswerMemo *m)
{
    return m->resting;
}

guint pms_answer_memo_transitions(const PmsAnswerMemo *m)
{
    return m->transitions;
}

static void rest(PmsAnswerMemo *m)
{
    m->transitions++;
    m->resting = TRUE;
    if (!m->sample)
        m->sample = g_new0(guint64, SAMPLE_SLOTS);
    memset(m->sample, 0, SAMPLE_SLOTS * sizeof *m->sample);
    m->sample_used = m->window = m->repeats = 0;
}

/* Whether a resting memo samples the line: one in sixteen, chosen by a
 * mix of its length and its first and last eight bytes, so that a line
 * that comes back is chosen again, and the fifteen in sixteen it passes
 * over cost no hash of the whole line (on a stream of distinct lines that
 * hash was a tenth of an error line's time). */
static inline gboolean sampled(const char *line, gsize len)
{
    if (len < 8)
        return TRUE; /* short: the whole line's hash decides, it is as cheap */
    guint64 a, b;
    memcpy(&a, line, 8);
    memcpy(&b, line + len - 8, 8);
    guint64 f = ((a * 0x9e3779b97f4a7c15ull) ^ b ^ len) * 0xd6e8feb86659fd93ull;
    return (f >> 60) == 0;
}

/* A resting memo offered a line: one in sixteen (sampled) is looked up
 * among the earlier samples by its hash and added; a window with enough
 * repeats wakes the memo. */
static void sample(PmsAnswerMemo *m, const char *line, gsize len)
{
    if (!sampled(line, len))
        return;
    guint64 h = line_hash(line, len);
    if (len < 8 && ((h >> 40) & 15))
        return;
    guint i = (guint)h & (SAMPLE_SLOTS - 1);
    while (m->sample[i] && m->sample[i] != h)
        i = (i + 1) & (SAMPLE_SLOTS - 1);
    if (m->sample[i]) {
        m->repeats++;
    } else {
        if (2 * (m->sample_used + 1) > SAMPLE_SLOTS) {
            memset(m->sample, 0, SAMPLE_SLOTS * sizeof *m->sample);
            m->sample_used = 0;
            i = (guint)h & (SAMPLE_SLOTS - 1);
        }
        m->sample[i] = h;
        m->sample_used++;
    }
    if (++m->window < PMS_MEMO_WAKE_WINDOW)
        return;
    if (m->repeats >= PMS_MEMO_WAKE_REPEATS)
        wake(m);
    m->window = m->repeats = 0;
}

void pms_answer_memo_free(PmsAnswerMemo *m)
{
    if (!m)
        return;
    g_byte_array_free(m->arena, TRUE);
    g_free(m->slots);
    g_free(m->sample);
    g_free(m);
}

guint pms_answer_memo_size(const PmsAnswerMemo *m)
{
    return m->used;
}

/* The slot holding line, or the empty slot where it would go. */
static inline const Slot *find(const PmsAnswerMemo *m, const char *line, gsize len, guint64 h)
{
    guint32 tag = tag_of(h);
    for (guint i = (guint)h & m->mask;; i = (i + 1) & m->mask) {
        const Slot *s = &m->slots[i];
        if (s->tag == 0)
            return s;
        if (s->tag == tag) {
            const Entry *e = entry_at(m, s->at);
            if (e->line_len == len && same_bytes((const char *)(e + 1), line, len))
                return s;
        }
    }
}

gboolean pms_answer_memo_append(PmsAnswerMemo *m, const char *line, gsize len, GString *out)
{
    if (m->resting) {
        /* the lookup's line is the one that will be put: sampled here, one
         * call a line instead of two */
        sample(m, line, len);
        return FALSE;
    }
    const Slot *s = len > m->max_line || m->used == 0 ? NULL : find(m, line, len, line_hash(line, len));
    if (s == NULL || s->tag == 0) {
        if (++m->miss_run >= PMS_MEMO_REST_AFTER)
            rest(m);
        return FALSE;
    }
    m->miss_run = 0;
    const Entry *e = entry_at(m, s->at);
    gsize at = out->len, end = at + e->answer_len;
    if (end < out->allocated_len) { /* room: g_string_set_size's work, inline */
        out->len = end;
        out->str[end] = '\0';
    } else {
        g_string_set_size(out, end);
    }
    memcpy(out->str + at, e + 1, e->answer_len);
    return TRUE;
}

/* Double the table (load kept at most one half: probes stay short).  The
 * tag is half the hash: the slot's home comes from the entry's line. */
static void grow(PmsAnswerMemo *m)
{
    Slot *old = m->slots;
    guint old_cap = m->mask + 1;
    m->mask = old_cap * 2 - 1;
    m->slots = g_new0(Slot, m->mask + 1);
    for (guint i = 0; i < old_cap; i++) {
        if (old[i].tag == 0)
            continue;
        const Entry *e = entry_at(m, old[i].at);
        guint j = (guint)line_hash((const char *)(e + 1), e->line_len) & m->mask;
        while (m->slots[j].tag)
            j = (j + 1) & m->mask;
        m->slots[j] = old[i];
    }
    g_free(old);
}

void pms_answer_memo_put(PmsAnswerMemo *m, const char *line, gsize len, const char *answer, gsize answer_len)
{
    if (m->resting)
        return; /* sampled when it was looked up */
    gsize at = m->arena->len, size = (sizeof(Entry) + answer_len + 7) / 8 * 8;
    /* offsets are 32 bits: the arena stays below 4 GB */
    if (len > m->max_line || m->used >= m->max_entries || answer_len < len || answer_len > G_MAXUINT32 - at ||
        size > G_MAXUINT32 - at)
        return;
    g_return_if_fail(memcmp(answer, line, len) == 0);
    if (2 * (m->used + 1) > m->mask + 1)
        grow(m);
    guint64 h = line_hash(line, len);
    Slot *s = (Slot *)find(m, line, len, h);
    if (s->tag != 0)
        return; /* remembered already */
    g_byte_array_set_size(m->arena, (guint)(at + size));
    Entry *e = (Entry *)(m->arena->data + at);
    e->line_len = (guint32)len;
    e->answer_len = (guint32)answer_len;
    memcpy(e + 1, answer, answer_len);
    s->tag = tag_of(h);
    s->at = (guint32)at;
    m->used++;
}
