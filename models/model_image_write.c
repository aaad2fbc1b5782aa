/* pmusim models — write a loaded model as a flat image (format: model_image.h).
 *
 * Used at build time by pmusim-modelc, and by the tests; not part of the
 * library.  The body order here is the format: model_image_read.c reads the
 * same sequence. */
#include <string.h>
#include "model_image.h"
#include "family.h"
#include "model_priv.h"

typedef struct {
    GByteArray *body;
    GByteArray *strtab;
    GHashTable *offsets; /* string -> offset + 1 in strtab (deduplication) */
} Wr;

static void put_u32(GByteArray *a, guint32 v)
{
    guint8 b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >> 24) & 0xff };
    g_byte_array_append(a, b, sizeof b);
}

static void u32(Wr *w, guint32 v)
{
    put_u32(w->body, v);
}

static void u64(Wr *w, guint64 v)
{
    put_u32(w->body, (guint32)v);
    put_u32(w->body, (guint32)(v >> 32));
}

static void str(Wr *w, const char *s)
{
    if (!s) {
        u32(w, PMS_IMAGE_NONE);
        return;
    }
    guint off = GPOINTER_TO_UINT(g_hash_table_lookup(w->offsets, s));
    if (!off) {
        off = w->strtab->len + 1;
        g_byte_array_append(w->strtab, (const guint8 *)s, (guint)strlen(s) + 1);
        g_hash_table_insert(w->offsets, (gpointer)s, GUINT_TO_POINTER(off));
    }
    u32(w, off - 1);
}

static gint cmp_str(gconstpointer a, gconstpointer b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static guint32 write_options(Wr *w, const PmsModel *m)
{
    /* Sorted, so the image does not depend on hash order (reproducible builds). */
    guint n = 0;
    g_autofree gpointer *keys =
        pms_model_ix(m)->options ? g_hash_table_get_keys_as_array(pms_model_ix(m)->options, &n) : NULL;
    if (n)
        qsort(keys, n, sizeof *keys, cmp_str);
    for (guint i = 0; i < n; i++) {
        str(w, keys[i]);
        str(w, g_hash_table_lookup(pms_model_ix(m)->options, keys[i]));
    }
    return n;
}

static void write_event(Wr *w, const PmsModel *m, const PmsEvent *e)
{
    const PmsEventFacts *ef = m->family->event_facts;
    str(w, e->name);
    u32(w, e->code);
    u32(w, e->base_umask);
    u64(w, e->counters);
    u32(w, e->fixed);
    u32(w, e->flags);
    str(w, e->extra_reg);
    u32(w, e->match);
    str(w, e->desc);
    u32(w, e->source_line);
    str(w, e->equiv);
    u32(w, e->modifiers);
    /* the family's facts, in its table's order (an event made without
     * them: their defaults) */
    for (guint k = 0; ef && k < ef->n_keys; k++)
        u32(w, e->facts ? pms_fact_get(e->facts, &ef->keys[k]) : ef->keys[k].dflt);
    u32(w, e->n_groups);
    for (guint i = 0; i < e->n_groups; i++) {
        str(w, e->groups[i].name);
        u32(w, (guint32)e->groups[i].required);
        u32(w, (guint32)e->groups[i].exclusive);
    }
    u32(w, e->n_umasks);
    for (guint i = 0; i < e->n_umasks; i++) {
        const PmsUmask *u = &e->umasks[i];
        str(w, u->name);
        u64(w, u->value);
        u32(w, u->flags);
        u32(w, u->group);
        u32(w, (guint32)u->cmask);
        u32(w, (guint32)u->inv);
        u32(w, (guint32)u->edge);
        u32(w, (guint32)u->any);
        str(w, u->desc);
        u32(w, u->source_line);
        str(w, u->equiv);
        u32(w, (guint32)u->code);
        u64(w, u->counters);
        u32(w, u->fixed);
    }
}

GBytes *pms_model_image_write(const PmsModel *m)
{
    Wr w = { g_byte_array_new(), g_byte_array_new(), g_hash_table_new(g_str_hash, g_str_equal) };
    guint32 n_fields = 0, n_umasks = 0, n_groups = 0, n_options;

    str(&w, m->name);
    str(&w, m->desc);
    str(&w, m->source);
    str(&w, m->family->name);
    u32(&w, m->version);
    u32(&w, (guint32)m->smt);
    u32(&w, m->n_gp);
    u32(&w, m->gp_width);
    u32(&w, m->n_fixed);
    u32(&w, m->fixed_width);
    u32(&w, m->counter_base);
    u32(&w, (guint32)m->edge_needs_cmask);
    str(&w, m->offcore_style);
    str(&w, m->unit);
    u32(&w, m->instance);
    u32(&w, m->source_line);
    str(&w, m->name_pattern);
    str(&w, m->desc_pattern);
    for (guint i = 0; i < m->n_instances; i++)
        u32(&w, m->instances[i]);
    n_options = write_options(&w, m);

    for (guint i = 0; i < m->n_layouts; i++) {
        const PmsLayout *l = &m->layouts[i];
        str(&w, l->name);
        u32(&w, l->source_line);
        u32(&w, l->n_fields);
        n_fields += l->n_fields;
        for (guint j = 0; j < l->n_fields; j++) {
            str(&w, l->fields[j].name);
            u32(&w, l->fields[j].shift);
            u32(&w, l->fields[j].width);
        }
    }
    for (guint i = 0; i < m->n_regs; i++) {
        const PmsRegister *r = &m->regs[i];
        str(&w, r->name);
        u32(&w, r->address);
        u32(&w, r->kind);
        u32(&w, r->index);
        u32(&w, r->width);
        u64(&w, r->writable);
        u64(&w, r->ignored);
        u64(&w, r->reset);
        u32(&w, (guint32)r->readonly);
        u32(&w, r->layout ? (guint32)(r->layout - m->layouts) : PMS_IMAGE_NONE);
        u32(&w, r->space);
        str(&w, r->unit);
        u32(&w, r->instance);
        u32(&w, r->source_line);
        u32(&w, r->alias ? (guint32)(r->alias - m->regs) : PMS_IMAGE_NONE);
    }
    for (guint i = 0; i < m->n_mods; i++) {
        const PmsModifier *mod = &m->mods[i];
        str(&w, mod->name);
        u32(&w, mod->type);
        u64(&w, mod->min);
        u64(&w, mod->max);
        str(&w, mod->reg_kind);
        str(&w, mod->field);
        str(&w, mod->desc);
        u32(&w, mod->source_line);
    }
    /* [perf] as written (model_perf.c parses it again): NONE without one */
    if (!m->perf) {
        u32(&w, PMS_IMAGE_NONE);
    } else {
        u32(&w, pms_perf_n_keys(m->perf));
        u32(&w, m->perf->source_line);
        for (guint i = 0; i < pms_perf_n_keys(m->perf); i++) {
            const char *v;
            str(&w, pms_perf_key(m->perf, i, &v));
            str(&w, v);
        }
    }
    for (guint i = 0; i < m->n_events; i++) {
        write_event(&w, m, &m->events[i]);
        n_umasks += m->events[i].n_umasks;
        n_groups += m->events[i].n_groups;
    }
    /* The table is never empty (a model always has a name): the reader
     * relies on its last byte being a NUL. */

    GByteArray *out = g_byte_array_new();
    guint32 str_off = PMS_IMAGE_HEADER_LEN, body_off = str_off + w.strtab->len;
    g_byte_array_append(out, (const guint8 *)PMS_IMAGE_MAGIC, PMS_IMAGE_MAGIC_LEN);
    put_u32(out, PMS_IMAGE_VERSION);
    put_u32(out, body_off + w.body->len);
    put_u32(out, str_off);
    put_u32(out, w.strtab->len);
    put_u32(out, body_off);
    put_u32(out, w.body->len);
    put_u32(out, n_options);
    put_u32(out, m->n_layouts);
    put_u32(out, n_fields);
    put_u32(out, m->n_regs);
    put_u32(out, m->n_mods);
    put_u32(out, m->n_events);
    put_u32(out, n_groups);
    put_u32(out, n_umasks);
    put_u32(out, m->n_instances);
    g_byte_array_append(out, w.strtab->data, w.strtab->len);
    g_byte_array_append(out, w.body->data, w.body->len);
    g_byte_array_unref(w.strtab);
    g_byte_array_unref(w.body);
    g_hash_table_unref(w.offsets);
    return g_byte_array_free_to_bytes(out);
}
