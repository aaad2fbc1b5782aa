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
    const char *key; /* upper-cased, zero-padded name in PmsNameIdx.keys; NULL: empty slot */
    guint32 hash;
    guint32 len;
    guint idx; /* index in the table indexed */
} PmsNameSlot;

typedef struct {
    PmsNameSlot *slots;
    char *keys;    /* every key, 8-byte aligned */
    guint mask;    /* slots - 1 (a power of two) */
    guint max_len; /* longest name: a longer token names nothing */
    guint min_len; /* shortest name (G_MAXUINT when empty): a shorter token names nothing */
} PmsNameIdx;

/* names[i * stride] is a `const char *` (a struct member of table entries). */
G_GNUC_INTERNAL void pms_nameidx_build(PmsNameIdx *ix, const void *table, gsize stride, gsize name_off, guint n);
G_GNUC_INTERNAL void pms_nameidx_clear(PmsNameIdx *ix);
/* Any bytes, any case: folds a copy first (not the hot path). */
G_GNUC_INTERNAL gint pms_nameidx_find_raw(const PmsNameIdx *ix, const char *p, gsize len);

static inline guint64 pms_load8(const char *p)
{
    guint64 w;
    memcpy(&w, p, 8);
    return w;
}

/* Little-endian: the first n (1..8) bytes of a loaded word. */
static inline guint64 pms_word_head(guint64 w, gsize n)
{
    return n >= 8 ? w : w & ((G_GUINT64_CONSTANT(1) << (n * 8)) - 1);
}


/* Hash of the first and the last word of the name and its length: two
 * multiplies whatever the length, no loop.  Names that share both ends and
 * the length collide; the probe's comparison sorts them out. */
static inline guint32 pms_name_hash(const char *p, gsize len)
{
    guint64 first, last;
    if (len >= 8) {
        first = pms_load8(p);
        last = pms_load8(p + len - 8);
    } else {
        first = pms_word_head(pms_load8(p), len);
        last = 0;
    }
    guint64 h =
        (first * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15)) ^ ((last + len) * G_GUINT64_CONSTANT(0xff51afd7ed558ccd));
    return (guint32)(h ^ (h >> 31));
}

/* Whether len bytes at p equal the padded key k (both readable 8 bytes on). */
static inline gboolean pms_name_eq(const char *k, const char *p, gsize len)
{
    if (len < 8)
        return pms_load8(k) == pms_word_head(pms_load8(p), len);
    for (gsize i = 0; i + 8 < len; i += 8)
        if (pms_load8(k + i) != pms_load8(p + i))
            return FALSE;
    /* the last word, overlapping the one before: no mask needed */
    return pms_load8(k + len - 8) == pms_load8(p + len - 8);
}

/* Index of the name, -1 when absent.  p: upper case, 8 readable bytes past
 * p + len (see above). */
static inline gint pms_nameidx_find(const PmsNameIdx *ix, const char *p, gsize len)
{
    if (len > ix->max_len)
        return -1;
    guint32 h = pms_name_hash(p, len);
    for (guint j = h & ix->mask;; j = (j + 1) & ix->mask) {
        const PmsNameSlot *s = &ix->slots[j];
        if (!s->key)
            return -1;
        if (s->hash == h && s->len == len && pms_name_eq(s->key, p, len))
            return (gint)s->idx;
    }
}
