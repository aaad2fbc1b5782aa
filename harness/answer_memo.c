/* pmusim harness — the batch answers memo (answer_memo.h). */
#include "answer_memo.h"

#include <string.h>

typedef struct {
    guint64 hash;    /* 0: empty slot */
    guint32 line_len;
    guint32 answer_len;
    char *answer;    /* the answer line; its first line_len bytes are the line */
} Slot;

struct PmsAnswerMemo {
    Slot *slots;
    guint mask;      /* capacity - 1; capacity a power of two */
    guint used;
    guint max_entries;
    gsize max_line;
};

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

PmsAnswerMemo *pms_answer_memo_new(guint max_entries, gsize max_line)
{
    PmsAnswerMemo *m = g_new0(PmsAnswerMemo, 1);
    m->mask = 1023;
    m->slots = g_new0(Slot, m->mask + 1);
    m->max_entries = max_entries;
    m->max_line = max_line;
    return m;
}

void pms_answer_memo_clear(PmsAnswerMemo *m)
{
    for (guint i = 0; i <= m->mask; i++) {
        g_free(m->slots[i].answer);
        m->slots[i] = (Slot){ 0 };
    }
    m->used = 0;
}

void pms_answer_memo_free(PmsAnswerMemo *m)
{
    if (!m)
        return;
    pms_answer_memo_clear(m);
    g_free(m->slots);
    g_free(m);
}

guint pms_answer_memo_size(const PmsAnswerMemo *m)
{
    return m->used;
}

static inline const Slot *find(const PmsAnswerMemo *m, const char *line, gsize len, guint64 h)
{
    for (guint i = (guint)h & m->mask;; i = (i + 1) & m->mask) {
        const Slot *s = &m->slots[i];
        if (s->hash == 0)
            return s;
        if (s->hash == h && s->line_len == len && memcmp(s->answer, line, len) == 0)
            return s;
    }
}

gboolean pms_answer_memo_append(const PmsAnswerMemo *m, const char *line, gsize len, GString *out)
{
    if (len > m->max_line || m->used == 0)
        return FALSE;
    const Slot *s = find(m, line, len, line_hash(line, len));
    if (s->hash == 0)
        return FALSE;
    gsize at = out->len, end = at + s->answer_len;
    if (end < out->allocated_len) {   /* room: g_string_set_size's work, inline */
        out->len = end;
        out->str[end] = '\0';
    } else {
        g_string_set_size(out, end);
    }
    memcpy(out->str + at, s->answer, s->answer_len);
    return TRUE;
}

/* Double the table (load kept at most one half: probes stay short). */
static void grow(PmsAnswerMemo *m)
{
    Slot *old = m->slots;
    guint old_cap = m->mask + 1;
    m->mask = old_cap * 2 - 1;
    m->slots = g_new0(Slot, m->mask + 1);
    for (guint i = 0; i < old_cap; i++) {
        if (old[i].hash == 0)
            continue;
        guint j = (guint)old[i].hash & m->mask;
        while (m->slots[j].hash)
            j = (j + 1) & m->mask;
        m->slots[j] = old[i];
    }
    g_free(old);
}

void pms_answer_memo_put(PmsAnswerMemo *m, const char *line, gsize len, const char *answer, gsize answer_len)
{
    if (len > m->max_line || m->used >= m->max_entries || answer_len < len || answer_len > G_MAXUINT32)
        return;
    g_return_if_fail(memcmp(answer, line, len) == 0);
    if (2 * (m->used + 1) > m->mask + 1)
        grow(m);
    guint64 h = line_hash(line, len);
    Slot *s = (Slot *)find(m, line, len, h);
    if (s->hash != 0)
        return;   /* remembered already */
    s->hash = h;
    s->line_len = (guint32)len;
    s->answer_len = (guint32)answer_len;
    s->answer = g_memdup2(answer, answer_len);
    m->used++;
}
