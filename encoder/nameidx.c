/* pmusim encoder — case-insensitive name index (see nameidx.h). */
#include <string.h>
#include "nameidx.h"

/* ASCII upper-casing by table: one load per byte in the hot loops. */
static guchar fold_table[256];

static void
fold_init(void)
{
    static gsize done = 0;
    if (g_once_init_enter(&done)) {
        for (guint c = 0; c < 256; c++)
            fold_table[c] = (guchar)((c >= 'a' && c <= 'z') ? c - 'a' + 'A' : c);
        g_once_init_leave(&done, 1);
    }
}

static inline guchar
fold(guchar c)
{
    return fold_table[c];
}

static guint32
hash(const char *p, gsize len)
{
    guint32 h = 2166136261u;
    for (gsize i = 0; i < len; i++) {
        h ^= fold((guchar)p[i]);
        h *= 16777619u;
    }
    return h;
}

void
pms_nameidx_build(PmsNameIdx *ix, const void *table, gsize stride, gsize name_off, guint n)
{
    fold_init();
    guint size = 8;
    while (size < 2 * n)
        size *= 2;
    ix->slots = g_new0(PmsNameSlot, size);
    ix->mask = size - 1;
    for (guint i = 0; i < n; i++) {
        const char *name = *(const char *const *)((const char *)table + i * stride + name_off);
        if (!name)
            continue;
        gsize len = strlen(name);
        if (pms_nameidx_find(ix, name, len) >= 0)
            continue;   /* the first of two equal names wins, as in the model's index */
        guint32 h = hash(name, len);
        guint j = h & ix->mask;
        while (ix->slots[j].name)
            j = (j + 1) & ix->mask;
        ix->slots[j] = (PmsNameSlot){ name, h, (guint32)len, i };
    }
}

void
pms_nameidx_clear(PmsNameIdx *ix)
{
    g_clear_pointer(&ix->slots, g_free);
    ix->mask = 0;
}

gint
pms_nameidx_find(const PmsNameIdx *ix, const char *p, gsize len)
{
    if (!ix->slots)
        return -1;
    guint32 h = hash(p, len);
    for (guint j = h & ix->mask;; j = (j + 1) & ix->mask) {
        const PmsNameSlot *s = &ix->slots[j];
        if (!s->name)
            return -1;
        if (s->hash != h || s->len != len)
            continue;
        gsize k = 0;
        while (k < len && fold((guchar)s->name[k]) == fold((guchar)p[k]))
            k++;
        if (k == len)
            return (gint)s->idx;
    }
}
