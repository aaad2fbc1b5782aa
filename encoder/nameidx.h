/* pmusim encoder — case-insensitive name index over a model table.
 *
 * Open addressing, keyed by a folded FNV-1a hash of the bytes; looked up
 * straight from a token (pointer + length) with no copy and no allocation.
 * Built once per model (prepared.c); the GHashTables of the model stay the
 * public lookup, this is the encoder's hot path. */
#pragma once
#include <glib.h>

typedef struct {
    const char *name;  /* NULL: empty slot */
    guint32 hash;
    guint32 len;
    guint idx;         /* index in the table indexed */
} PmsNameSlot;

typedef struct {
    PmsNameSlot *slots;
    guint mask;        /* slots - 1 (a power of two) */
} PmsNameIdx;

/* names[i * stride] is a `const char *` (a struct member of table entries). */
void pms_nameidx_build(PmsNameIdx *ix, const void *table, gsize stride, gsize name_off, guint n);
void pms_nameidx_clear(PmsNameIdx *ix);
/* Index of the name, -1 when absent. */
gint pms_nameidx_find(const PmsNameIdx *ix, const char *p, gsize len);
