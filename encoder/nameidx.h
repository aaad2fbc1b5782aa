/* pmusim encoder — case-insensitive name index over a model table.
 *
 * Open addressing over upper-cased copies of the names, each zero-padded to
 * whole 8-byte words, so a lookup hashes and compares a word at a time.  The
 * key looked up must be upper case already and readable 8 bytes past its end
 * (the tokenizer's folded copy of the input, PmsTokens.up, is both); any
 * other key goes through pms_nameidx_find_raw.  Built once per model
 * (prepared.c); the model's GHashTables stay the public lookup, this is the
 * encoder's hot path. */
#pragma once
#include <string.h>
#include <glib.h>

typedef struct {
    const char *key;   /* upper-cased, zero-padded name in PmsNameIdx.keys; NULL: empty slot */
    guint32 hash;
    guint32 len;
    guint idx;         /* index in the table indexed */
} PmsNameSlot;

typedef struct {
    PmsNameSlot *slots;
    char *keys;        /* every key, 8-byte aligned */
    guint mask;        /* slots - 1 (a power of two) */
    guint max_len;     /* longest name: a longer token names nothing */
} PmsNameIdx;

/* names[i * stride] is a `const char *` (a struct member of table entries). */
G_GNUC_INTERNAL void pms_nameidx_build(PmsNameIdx *ix, const void *table, gsize stride, gsize name_off, guint n);
G_GNUC_INTERNAL void pms_nameidx_clear(PmsNameIdx *ix);
/* Any bytes, any case: folds a copy first (not the hot path). */
G_GNUC_INTERNAL gint pms_nameidx_find_raw(const PmsNameIdx *ix, const char *p, gsize len);

static inline guint64
pms_load8(const char *p)
{
    guint64 w;
    memcpy(&w, p, 8);
    return w;
}

/* Little-endian: the first n (1..8) bytes of a loaded word. */
static inline guint64
pms_word_head(guint64 w, gsize n)
{
    return n >= 8 ? w : w & ((G_GUINT64_CONSTANT(1) << (n * 8)) - 1);
}

/* ASCII a-z to A-Z in eight bytes at once; other bytes (also >= 0x80) kept.
 * Per byte h = b & 0x7f: h + 0x1f reaches bit 7 iff h >= 'a', h + 0x05 iff
 * h > 'z'; no sum carries into the next byte. */
static inline guint64
pms_fold8(guint64 x)
{
    const guint64 ones = G_GUINT64_CONSTANT(0x0101010101010101);
    const guint64 high = ones * 0x80;
    guint64 h = x & ~high;
    guint64 lower = (h + ones * 0x1f) & ~(h + ones * 0x05) & ~x & high;
    return x - (lower >> 2);
}

static inline guint32
pms_name_hash(const char *p, gsize len)
{
    guint64 h = (guint64)len * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15);
    gsize i = 0;
    for (; i + 8 <= len; i += 8)
        h = ((h << 7 | h >> 57) ^ pms_load8(p + i)) * G_GUINT64_CONSTANT(0xff51afd7ed558ccd);
    if (i < len)
        h = ((h << 7 | h >> 57) ^ pms_word_head(pms_load8(p + i), len - i)) * G_GUINT64_CONSTANT(0xff51afd7ed558ccd);
    return (guint32)(h ^ (h >> 29));
}

/* Index of the name, -1 when absent.  p: upper case, 8 readable bytes past
 * p + len (see above). */
static inline gint
pms_nameidx_find(const PmsNameIdx *ix, const char *p, gsize len)
{
    if (len > ix->max_len)
        return -1;
    guint32 h = pms_name_hash(p, len);
    for (guint j = h & ix->mask;; j = (j + 1) & ix->mask) {
        const PmsNameSlot *s = &ix->slots[j];
        if (!s->key)
            return -1;
        if (s->hash != h || s->len != len)
            continue;
        gsize i = 0;
        while (i + 8 <= len && pms_load8(s->key + i) == pms_load8(p + i))
            i += 8;
        if (i + 8 <= len)
            continue;
        if (i == len || pms_load8(s->key + i) == pms_word_head(pms_load8(p + i), len - i))
            return (gint)s->idx;
    }
}
