/* pmusim models — rebuild a PmsModel from its image (format: model_image.h).
 *
 * Fast by construction: strings are not copied (they point into the image,
 * which the model keeps a reference to), the model and all its arrays are one
 * allocation, and only the name indexes are built.  Defensive by construction
 * too: the reader stops at the first size, offset, count, index or enum out
 * of range, so a damaged image gives a GError naming the byte, never a crash. */
#include <string.h>
#include "model_image.h"
#include "family.h"
#include "model_priv.h"

typedef struct {
    const guint8 *base, *p, *end;
    const char *strtab;
    guint32 strtab_len;
    const char *problem; /* first problem found; reading stops there */
    gsize problem_at;
    char *owned; /* a problem made for the occasion (problem points at it) */
} Rd;

/* Minimum encoded sizes, to reject counts the remaining bytes cannot hold
 * before anything is allocated for them. */
enum {
    MIN_OPTION = 8,
    MIN_LAYOUT = 12,
    MIN_FIELD = 12,
    MIN_REG = 48,
    MIN_MOD = 40,
    MIN_EVENT = 52, /* without the family's facts (4 bytes each) */
    MIN_GROUP = 12,
    MIN_UMASK = 64,
    MIN_INSTANCE = 4
};

static gboolean bad(Rd *r, const char *problem)
{
    if (!r->problem) {
        r->problem = problem;
        r->problem_at = (gsize)(r->p - r->base);
        r->p = r->end; /* every later read fails quietly */
    }
    return FALSE;
}

static inline guint32 le32(const guint8 *b)
{
    return (guint32)b[0] | (guint32)b[1] << 8 | (guint32)b[2] << 16 | (guint32)b[3] << 24;
}

/* Inline: the reader spends most of its time here. */
static inline guint32 u32(Rd *r)
{
    if (r->end - r->p < 4) {
        bad(r, "truncated");
        return 0;
    }
    guint32 v = le32(r->p);
    r->p += 4;
    return v;
}

static guint64 u64(Rd *r)
{
    guint64 lo = u32(r);
    return lo | (guint64)u32(r) << 32;
}

/* A value that must be <= max (enums, flags, widths). */
static guint32 upto(Rd *r, guint32 max, const char *what)
{
    const guint8 *at = r->p;
    guint32 v = u32(r);
    if (v > max) {
        r->p = at;
        bad(r, what);
        return 0;
    }
    return v;
}

/* A signed value in [-1, max] (forced modifiers, umask code). */
static gint opt_int(Rd *r, gint max, const char *what)
{
    guint32 v = u32(r);
    if (v == G_MAXUINT32)
        return -1;
    if (v > (guint32)max)
        bad(r, what);
    return (gint)v;
}

/* On a problem, "" for a required string: reading goes on to the end of the
 * current record, and an index must never be given a NULL name. */
static char *str(Rd *r, gboolean nullable)
{
    guint32 off = u32(r);
    if (off == PMS_IMAGE_NONE && nullable)
        return NULL;
    if (off >= r->strtab_len) {
        bad(r, "string offset out of bounds");
        return nullable ? NULL : (char *)"";
    }
    /* The table ends with a NUL (checked), so every string is terminated. */
    return (char *)(r->strtab + off);
}

static gsize span(gsize n, gsize size)
{
    return (n * size + 15) & ~(gsize)15;
}

/* Carve n items of `size` from the model's single allocation. */
static gpointer carve(guint8 **next, gsize n, gsize size)
{
    gpointer p = n ? *next : NULL;
    *next += span(n, size);
    return p;
}

typedef struct {
    PmsField *fields;
    PmsUmask *umasks;
    PmsUmaskGroup *groups;
    guint32 n_fields, n_umasks, n_groups; /* left in each pool */
} Pools;

static void read_layouts(Rd *r, PmsModel *m, Pools *pl)
{
    for (guint i = 0; i < m->n_layouts && !r->problem; i++) {
        PmsLayout *l = &m->layouts[i];
        l->name = str(r, FALSE);
        l->source_line = u32(r);
        guint32 n = u32(r);
        if (n > pl->n_fields) {
            bad(r, "more fields than the header declares");
            return;
        }
        l->fields = n ? pl->fields : NULL;
        l->n_fields = n;
        /* A pool may be NULL when the model has none of its items: never
         * offset a null pointer, even by 0 (C11 6.5.6; clang's UBSan). */
        if (n)
            pl->fields += n;
        pl->n_fields -= n;
        for (guint j = 0; j < n; j++) {
            PmsField *f = &l->fields[j];
            f->name = str(r, FALSE);
            f->shift = upto(r, 63, "field shift above 63");
            f->width = upto(r, 64 - f->shift, "field runs past bit 63");
            if (f->width == 0)
                bad(r, "field of width 0");
        }
        g_hash_table_insert(pms_model_ix(m)->layout_index, l->name, GUINT_TO_POINTER(i + 1));
    }
}

static void read_registers(Rd *r, PmsModel *m)
{
    for (guint i = 0; i < m->n_regs && !r->problem; i++) {
        PmsRegister *g = &m->regs[i];
        g->name = str(r, FALSE);
        g->address = u32(r);
        g->kind = upto(r, PMS_REG_OTHER, "unknown register kind");
        g->index = upto(r, 1023, "register index above 1023");
        g->width = upto(r, 64, "register width above 64");
        g->writable = u64(r);
        g->ignored = u64(r);
        g->reset = u64(r);
        g->readonly = upto(r, 1, "readonly is not 0 or 1");
        guint32 li = u32(r);
        if (li != PMS_IMAGE_NONE && li >= m->n_layouts)
            bad(r, "layout index out of bounds");
        g->layout = li < m->n_layouts ? &m->layouts[li] : NULL;
        g->space = upto(r, PMS_SPACE_DBR, "unknown register space");
        g->unit = str(r, TRUE);
        g->instance = upto(r, 1023, "instance above 1023");
        g->source_line = u32(r);
        guint32 ai = u32(r); /* an alias names an earlier register (the loader's rule) */
        if (ai != PMS_IMAGE_NONE && (ai >= i || m->regs[ai].alias))
            bad(r, "alias index out of bounds");
        g->alias = ai < i ? &m->regs[ai] : NULL;
        if (g->width == 0)
            bad(r, "register width 0");
        g_hash_table_insert(pms_model_ix(m)->reg_name_index, g->name, GUINT_TO_POINTER(i + 1));
    }
    /* A repeated address maps to its first register, as the loader does:
     * inserting backwards lets the first one win. */
    for (guint i = m->n_regs; i-- > 0;)
        if (m->regs[i].space == PMS_SPACE_MSR)
            g_hash_table_insert(pms_model_ix(m)->reg_index, GUINT_TO_POINTER(m->regs[i].address),
                                GUINT_TO_POINTER(i + 1));
}

static void read_modifiers(Rd *r, PmsModel *m)
{
    for (guint i = 0; i < m->n_mods && !r->problem; i++) {
        PmsModifier *mod = &m->mods[i];
        mod->name = str(r, FALSE);
        mod->type = upto(r, PMS_MOD_INT, "unknown modifier type");
        mod->min = u64(r);
        mod->max = u64(r);
        mod->reg_kind = str(r, FALSE);
        mod->field = str(r, FALSE);
        mod->desc = str(r, TRUE);
        mod->source_line = u32(r);
        if (mod->min > mod->max)
            bad(r, "modifier range with min > max");
        g_hash_table_insert(pms_model_ix(m)->mod_index, mod->name, GUINT_TO_POINTER(i + 1));
    }
}

static void read_umask(Rd *r, const PmsEvent *e, PmsUmask *u)
{
    u->name = str(r, FALSE);
    u->value = u64(r);
    u->flags = u32(r);
    u->group = u32(r);
    if (u->group >= e->n_groups)
        bad(r, "unit mask group index out of bounds");
    u->cmask = opt_int(r, 255, "forced c above 255");
    u->inv = opt_int(r, 1, "forced i above 1");
    u->edge = opt_int(r, 1, "forced e above 1");
    u->any = opt_int(r, 1, "forced t above 1");
    u->desc = str(r, TRUE);
    u->source_line = u32(r);
    u->equiv = str(r, TRUE);
    u->code = opt_int(r, 255, "unit mask code above 0xff");
    u->counters = u64(r);
    u->fixed = u32(r);
}

/* One fact of the family's table (family.h PmsEventFact): its default, or a
 * value the loader could have read. */
static guint32 read_fact(Rd *r, const PmsEventFact *f)
{
    const guint8 *at = r->p;
    guint32 v = u32(r);
    gboolean ok = v == f->dflt;
    switch (f->kind) {
    case PMS_FACT_UINT:
        ok = ok || (v >= f->min && v <= f->max);
        break;
    case PMS_FACT_WORD:
        ok = ok || (v < f->n_words && f->words[v]);
        break;
    case PMS_FACT_BOOL:
        ok = v <= 1;
        break;
    case PMS_FACT_FLAGS:
        ok = f->n_words >= 32 || (v >> f->n_words) == 0;
        break;
    }
    if (!ok && !r->problem) {
        r->p = at;
        r->owned = g_strdup_printf("event fact %s: value %u out of range", f->key, v);
        bad(r, r->owned);
    }
    return v;
}

static void read_event(Rd *r, const PmsModel *m, PmsEvent *e, Pools *pl)
{
    e->name = str(r, FALSE);
    e->code = u32(r);
    e->base_umask = u32(r);
    e->counters = u64(r);
    e->fixed = u32(r);
    e->flags = u32(r);
    e->extra_reg = str(r, TRUE);
    e->match = upto(r, PMS_MATCH_EXACT, "unknown umask match");
    e->desc = str(r, TRUE);
    e->source_line = u32(r);
    e->equiv = str(r, TRUE);
    e->modifiers = u32(r);
    const PmsEventFacts *ef = m->family ? m->family->event_facts : NULL;
    for (guint k = 0; ef && e->facts && k < ef->n_keys; k++)
        pms_fact_set((gpointer)e->facts, &ef->keys[k], read_fact(r, &ef->keys[k]));
    guint32 ng = u32(r);
    if (ng > pl->n_groups) {
        bad(r, "more groups than the header declares");
        return;
    }
    e->groups = ng ? pl->groups : NULL;
    e->n_groups = ng;
    if (ng) /* the pool is NULL in a model without groups: no offset of NULL */
        pl->groups += ng;
    pl->n_groups -= ng;
    for (guint i = 0; i < ng; i++) {
        e->groups[i].name = str(r, FALSE);
        e->groups[i].required = upto(r, 1, "required is not 0 or 1");
        e->groups[i].exclusive = upto(r, 1, "exclusive is not 0 or 1");
    }
    guint32 nu = u32(r);
    if (nu > pl->n_umasks) {
        bad(r, "more unit masks than the header declares");
        return;
    }
    e->umasks = nu ? pl->umasks : NULL;
    e->n_umasks = nu;
    if (nu) /* likewise for a model without unit masks */
        pl->umasks += nu;
    pl->n_umasks -= nu;
    for (guint i = 0; i < nu && !r->problem; i++)
        read_umask(r, e, &e->umasks[i]);
}

static gboolean read_header(Rd *r, gsize len, guint32 *h)
{
    static const guint8 min_size[H_N] = {
        [H_OPTIONS] = MIN_OPTION, [H_LAYOUTS] = MIN_LAYOUT, [H_FIELDS] = MIN_FIELD,
        [H_REGS] = MIN_REG,       [H_MODS] = MIN_MOD,       [H_EVENTS] = MIN_EVENT,
        [H_GROUPS] = MIN_GROUP,   [H_UMASKS] = MIN_UMASK,   [H_INSTANCES] = MIN_INSTANCE
    };
    G_STATIC_ASSERT(PMS_IMAGE_HEADER_LEN == PMS_IMAGE_MAGIC_LEN + 4 * H_N);
    if (len < PMS_IMAGE_HEADER_LEN)
        return bad(r, "shorter than the header");
    if (memcmp(r->base, PMS_IMAGE_MAGIC, PMS_IMAGE_MAGIC_LEN) != 0)
        return bad(r, "bad magic (not a pmusim model image)");
    r->p += PMS_IMAGE_MAGIC_LEN;
    for (guint i = 0; i < H_N; i++)
        h[i] = u32(r);
    if (h[H_VERSION] != PMS_IMAGE_VERSION)
        return bad(r, "unsupported image version");
    if (h[H_SIZE] != len)
        return bad(r, "size in the header differs from the image size");
    if (h[H_STR_OFF] < PMS_IMAGE_HEADER_LEN || h[H_STR_OFF] > len || h[H_STR_LEN] == 0 ||
        h[H_STR_LEN] > len - h[H_STR_OFF] || h[H_BODY_OFF] < PMS_IMAGE_HEADER_LEN || h[H_BODY_OFF] > len ||
        h[H_BODY_LEN] > len - h[H_BODY_OFF])
        return bad(r, "string table or body out of bounds");
    r->strtab = (const char *)r->base + h[H_STR_OFF];
    r->strtab_len = h[H_STR_LEN];
    if (r->strtab[r->strtab_len - 1] != '\0')
        return bad(r, "string table not NUL-terminated");
    /* Every count must fit in the body before anything is allocated for it. */
    for (guint i = H_OPTIONS; i < H_N; i++)
        if (h[i] > h[H_BODY_LEN] / min_size[i])
            return bad(r, "a count in the header exceeds the body");
    r->p = r->base + h[H_BODY_OFF];
    r->end = r->p + h[H_BODY_LEN];
    return TRUE;
}

/* The body's first part: the model's own members up to its instances
 * (m->instances holds n_instances), which pms_model_image_names reads too. */
static void read_pmu(Rd *r, PmsModel *m, guint32 n_instances)
{
    m->name = str(r, FALSE);
    m->desc = str(r, TRUE);
    m->source = str(r, FALSE);
    m->family = pms_family_by_name(str(r, FALSE));
    if (!m->family)
        bad(r, "unknown family");
    m->version = upto(r, 255, "version above 255");
    m->smt = upto(r, 1, "smt is not 0 or 1");
    m->n_gp = upto(r, 64, "more than 64 generic counters");
    m->gp_width = upto(r, 64, "counter width above 64");
    m->n_fixed = upto(r, 32, "more than 32 fixed counters");
    m->fixed_width = upto(r, 64, "counter width above 64");
    m->counter_base = upto(r, 63, "counter_base above 63");
    m->edge_needs_cmask = upto(r, 1, "edge_needs_cmask is not 0 or 1");
    m->offcore_style = str(r, TRUE);
    m->unit = str(r, TRUE);
    m->instance = upto(r, 1023, "instance above 1023");
    m->source_line = u32(r);
    m->name_pattern = str(r, TRUE);
    m->desc_pattern = str(r, TRUE);
    for (guint i = 0; i < n_instances; i++)
        m->instances[i] = upto(r, 1023, "instance above 1023");
    /* the views' names must be made: a pattern, and a unit they belong to */
    if (n_instances && (!m->unit || !m->name_pattern || !strstr(m->name_pattern, "%u")))
        bad(r, "instances without a unit or name pattern");
}

/* [perf]: its keys as written, parsed and checked by model_perf.c. */
static void read_perf(Rd *r, PmsModel *m)
{
    guint32 n = u32(r);
    if (r->problem || n == PMS_IMAGE_NONE)
        return;
    if (n > (guint32)((r->end - r->p) / 8)) {
        bad(r, "truncated: more [perf] keys than bytes left");
        return;
    }
    m->perf = pms_perf_new();
    m->perf->source_line = u32(r);
    for (guint i = 0; i < n && !r->problem; i++) {
        const char *k = str(r, FALSE), *v = str(r, FALSE);
        g_autofree char *problem = NULL;
        if (!r->problem && !pms_perf_add(m->perf, k, v, &problem))
            bad(r, "bad [perf] key");
    }
    const char *key = NULL;
    g_autofree char *problem = NULL;
    if (!r->problem && !pms_perf_resolve(m->perf, m, &key, &problem))
        bad(r, "bad [perf] section");
}

static PmsModel *read_model(Rd *r, const guint32 *h)
{
    /* The model and all its arrays: one allocation, sized from the header. */
    gsize size = span(1, sizeof(PmsModelPriv)) + span(h[H_LAYOUTS], sizeof(PmsLayout)) +
        span(h[H_FIELDS], sizeof(PmsField)) + span(h[H_REGS], sizeof(PmsRegister)) +
        span(h[H_MODS], sizeof(PmsModifier)) + span(h[H_EVENTS], sizeof(PmsEvent)) +
        span(h[H_GROUPS], sizeof(PmsUmaskGroup)) + span(h[H_UMASKS], sizeof(PmsUmask)) +
        span(h[H_INSTANCES], sizeof(guint));
    guint8 *next = g_malloc0(size);
    PmsModel *m = carve(&next, 1, sizeof(PmsModelPriv));
    m->instances = carve(&next, m->n_instances = h[H_INSTANCES], sizeof(guint));
    m->layouts = carve(&next, m->n_layouts = h[H_LAYOUTS], sizeof(PmsLayout));
    Pools pl = { .n_fields = h[H_FIELDS], .n_groups = h[H_GROUPS], .n_umasks = h[H_UMASKS] };
    pl.fields = carve(&next, h[H_FIELDS], sizeof(PmsField));
    m->regs = carve(&next, m->n_regs = h[H_REGS], sizeof(PmsRegister));
    m->mods = carve(&next, m->n_mods = h[H_MODS], sizeof(PmsModifier));
    m->events = carve(&next, m->n_events = h[H_EVENTS], sizeof(PmsEvent));
    pl.groups = carve(&next, h[H_GROUPS], sizeof(PmsUmaskGroup));
    pl.umasks = carve(&next, h[H_UMASKS], sizeof(PmsUmask));
    pms_model_ix(m)->event_index = pms_ci_index_new();
    pms_model_ix(m)->reg_name_index = pms_ci_index_new();
    pms_model_ix(m)->mod_index = pms_ci_index_new();
    pms_model_ix(m)->layout_index = pms_ci_index_new();
    pms_model_ix(m)->reg_index = g_hash_table_new(g_direct_hash, g_direct_equal);
    pms_model_ix(m)->options = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);

    read_pmu(r, m, h[H_INSTANCES]);
    /* Options are copied: callers may change the table, as for loaded files. */
    for (guint i = 0; i < h[H_OPTIONS] && !r->problem; i++) {
        const char *k = str(r, FALSE), *v = str(r, FALSE);
        g_hash_table_insert(pms_model_ix(m)->options, g_strdup(k), g_strdup(v));
    }
    read_layouts(r, m, &pl);
    read_registers(r, m);
    read_modifiers(r, m);
    read_perf(r, m);
    if (!r->problem)
        pms_model_facts_alloc(m, m->n_events);
    for (guint i = 0; i < m->n_events && !r->problem; i++) {
        read_event(r, m, &m->events[i], &pl);
        g_hash_table_insert(pms_model_ix(m)->event_index, m->events[i].name, GUINT_TO_POINTER(i + 1));
    }
    if (!r->problem && (pl.n_fields || pl.n_umasks || pl.n_groups))
        bad(r, "fewer fields, unit masks or groups than the header declares");
    if (!r->problem && r->p != r->end)
        bad(r, "bytes left after the model");
    return m;
}

PmsModel *pms_model_image_read(GBytes *image, const char *name, GError **error)
{
    gsize len = 0;
    const guint8 *data = g_bytes_get_data(image, &len);
    Rd r = { .base = data, .p = data, .end = data + len };
    guint32 h[H_N] = { 0 };
    PmsModel *m = NULL;
    if (read_header(&r, len, h))
        m = read_model(&r, h);
    if (m)
        pms_model_priv(m)->image = g_bytes_ref(image);
    if (r.problem) {
        g_set_error(error, PMS_MODEL_ERROR, PMS_MODEL_ERROR_PARSE,
                    "%s: damaged model image at byte %" G_GSIZE_FORMAT ": %s", name, r.problem_at, r.problem);
        pms_model_free(m);
        g_free(r.owned);
        return NULL;
    }
    return m;
}

GStrv pms_model_image_names(GBytes *image, const char *name, gboolean *views, GError **error)
{
    gsize len = 0;
    const guint8 *data = g_bytes_get_data(image, &len);
    Rd r = { .base = data, .p = data, .end = data + len };
    guint32 h[H_N] = { 0 };
    PmsModel m = { 0 };
    g_autofree guint *instances = NULL;
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    if (read_header(&r, len, h)) {
        m.instances = instances = g_new0(guint, h[H_INSTANCES] + 1);
        read_pmu(&r, &m, h[H_INSTANCES]);
        m.n_instances = h[H_INSTANCES];
    }
    if (!r.problem && !m.n_instances)
        g_ptr_array_add(names, g_strdup(m.name));
    for (guint i = 0; !r.problem && i < m.n_instances; i++) {
        char *n = pms_model_view_name(&m, i);
        if (!n) {
            bad(&r, "bad name pattern");
            break;
        }
        g_ptr_array_add(names, n);
    }
    if (r.problem) {
        g_set_error(error, PMS_MODEL_ERROR, PMS_MODEL_ERROR_PARSE,
                    "%s: damaged model image at byte %" G_GSIZE_FORMAT ": %s", name, r.problem_at, r.problem);
        g_ptr_array_free(names, TRUE);
        return NULL;
    }
    g_ptr_array_add(names, NULL);
    if (views)
        *views = m.n_instances > 0;
    return (GStrv)g_ptr_array_free(names, FALSE);
}
