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

/* Eight bytes per step (glib's g_str_hash takes one byte per step, which
 * was most of a remembered line's cost); never 0, the empty slot's mark. */
static guint64 line_hash(const char *p, gsize n)
{
    guint64 h = 0x9e3779b97f4a7c15ull ^ n;
    for (; n >= 8; n -= 8, p += 8) {
        guint64 w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    guint64 w = 0;
    memcpy(&w, p, n);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 29;
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

static const Slot *find(const PmsAnswerMemo *m, const char *line, gsize len, guint64 h)
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
    gsize at = out->len;
    g_string_set_size(out, at + s->answer_len);
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
