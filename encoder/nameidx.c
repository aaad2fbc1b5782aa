/* pmusim encoder — case-insensitive name index (see nameidx.h). */
#include <string.h>
#include "nameidx.h"

/* Bytes a key occupies: the name, at least one zero byte, whole words. */
static gsize key_size(gsize len)
{
    return (len / 8 + 1) * 8;
}

void pms_nameidx_build(PmsNameIdx *ix, const void *table, gsize stride, gsize name_off, guint n)
{
    guint size = 8;
    while (size < 2 * n)
        size *= 2;
    ix->slots = g_new0(PmsNameSlot, size);
    ix->mask = size - 1;
    ix->max_len = 0;
    ix->min_len = G_MAXUINT;
    gsize total = 0;
    for (guint i = 0; i < n; i++) {
        const char *name = *(const char *const *)((const char *)table + i * stride + name_off);
        if (name)
            total += key_size(strlen(name));
    }
    /* 8 spare bytes: a lookup key is read a word past its end */
    ix->keys = g_malloc0(total + 8);
    char *k = ix->keys;
    for (guint i = 0; i < n; i++) {
        const char *name = *(const char *const *)((const char *)table + i * stride + name_off);
        if (!name)
            continue;
        gsize len = strlen(name);
        for (gsize c = 0; c < len; c++)
            k[c] = g_ascii_toupper(name[c]);
        ix->max_len = MAX(ix->max_len, (guint)len);
        ix->min_len = MIN(ix->min_len, (guint)len);
        if (pms_nameidx_find(ix, k, len) >= 0) {
            memset(k, 0, len);
            continue; /* the first of two equal names wins, as in the model's index */
        }
        guint32 h = pms_name_hash(k, len);
        guint j = h & ix->mask;
        while (ix->slots[j].key)
            j = (j + 1) & ix->mask;
        ix->slots[j] = (PmsNameSlot){ k, h, (guint32)len, i };
        k += key_size(len);
    }
}

void pms_nameidx_clear(PmsNameIdx *ix)
{
    g_clear_pointer(&ix->slots, g_free);
    g_clear_pointer(&ix->keys, g_free);
    ix->mask = 0;
    ix->max_len = 0;
    ix->min_len = G_MAXUINT;
}

gint pms_nameidx_find_raw(const PmsNameIdx *ix, const char *p, gsize len)
{
    if (!ix->slots || len > ix->max_len)
        return -1;
    char *buf = g_alloca(key_size(len) + 8);
    for (gsize c = 0; c < len; c++)
        buf[c] = g_ascii_toupper(p[c]);
    memset(buf + len, 0, key_size(len) + 8 - len);
    return pms_nameidx_find(ix, buf, len);
}
