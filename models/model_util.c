/* pmusim models — lookups, field access, names of enums, freeing. */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "model.h"
#include "model_priv.h"

G_DEFINE_QUARK(pms - model - error - quark, pms_model_error)

guint pms_ci_hash(gconstpointer key)
{
    guint h = 5381;
    for (const char *p = key; *p; p++)
        h = h * 33 + (guint)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p); /* inline: hot in encoding */
    return h;
}

gboolean pms_ci_equal(gconstpointer a, gconstpointer b)
{
    return g_ascii_strcasecmp(a, b) == 0;
}

void pms_msg_add(GPtrArray *msgs, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_ptr_array_add(msgs, g_strdup_vprintf(fmt, ap));
    va_end(ap);
}

GHashTable *pms_ci_index_new(void)
{
    /* Keys point into the model's own strings: no key destroy function. */
    return g_hash_table_new(pms_ci_hash, pms_ci_equal);
}

gboolean pms_parse_u64(const char *text, guint64 *out)
{
    if (!text || !*text)
        return FALSE;
    guint base = 10;
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text += 2;
        if (!*text)
            return FALSE;
    }
    for (const char *p = text; *p; p++)
        if (!(base == 16 ? g_ascii_isxdigit(*p) : g_ascii_isdigit(*p)))
            return FALSE;
    return g_ascii_string_to_unsigned(text, base, 0, G_MAXUINT64, out, NULL);
}

static const char *const reg_kind_names[] = {
    [PMS_REG_EVTSEL] = "evtsel",
    [PMS_REG_PMC] = "pmc",
    [PMS_REG_A_PMC] = "a_pmc",
    [PMS_REG_FIXED_CTR] = "fixed_ctr",
    [PMS_REG_FIXED_CTRL] = "fixed_ctrl",
    [PMS_REG_GLOBAL_CTRL] = "global_ctrl",
    [PMS_REG_GLOBAL_STATUS] = "global_status",
    [PMS_REG_GLOBAL_OVF_CTRL] = "global_ovf_ctrl",
    [PMS_REG_GLOBAL_STATUS_RESET] = "global_status_reset",
    [PMS_REG_GLOBAL_STATUS_SET] = "global_status_set",
    [PMS_REG_GLOBAL_INUSE] = "global_inuse",
    [PMS_REG_OFFCORE_RSP] = "offcore_rsp",
    [PMS_REG_PEBS_ENABLE] = "pebs_enable",
    [PMS_REG_PEBS_LD_LAT] = "pebs_ld_lat",
    [PMS_REG_LBR_SELECT] = "lbr_select",
    [PMS_REG_DEBUGCTL] = "debugctl",
    [PMS_REG_PERF_CAPABILITIES] = "perf_capabilities",
    [PMS_REG_LBR_TOS] = "lbr_tos",
    [PMS_REG_LBR_FROM] = "lbr_from",
    [PMS_REG_LBR_TO] = "lbr_to",
    [PMS_REG_LBR_INFO] = "lbr_info",
    [PMS_REG_PEBS_FRONTEND] = "pebs_frontend",
    [PMS_REG_PERF_METRICS] = "perf_metrics",
    [PMS_REG_BOX_CTRL] = "box_ctrl",
    [PMS_REG_BOX_STATUS] = "box_status",
    [PMS_REG_BOX_OVF_CTRL] = "box_ovf_ctrl",
    [PMS_REG_MATCH] = "match",
    [PMS_REG_IA64_PMC] = "ia64_pmc",
    [PMS_REG_IA64_PMD] = "ia64_pmd",
    [PMS_REG_IA64_IBR] = "ia64_ibr",
    [PMS_REG_IA64_DBR] = "ia64_dbr",
    [PMS_REG_OTHER] = "other",
};

const char *pms_reg_kind_name(PmsRegKind kind)
{
    if ((guint)kind >= G_N_ELEMENTS(reg_kind_names))
        return NULL;
    return reg_kind_names[kind];
}

gboolean pms_reg_kind_from_name(const char *name, PmsRegKind *kind)
{
    for (guint i = 0; i < G_N_ELEMENTS(reg_kind_names); i++)
        if (reg_kind_names[i] && g_ascii_strcasecmp(name, reg_kind_names[i]) == 0) {
            *kind = (PmsRegKind)i;
            return TRUE;
        }
    return FALSE;
}

guint pms_model_counter_width(const PmsModel *m, PmsRegKind kind, guint index)
{
    if (kind == PMS_REG_FIXED_CTR)
        return m->fixed_width;
    gboolean gp = kind == PMS_REG_PMC || kind == PMS_REG_A_PMC ||
        (kind == PMS_REG_IA64_PMD && index >= m->counter_base && index < m->counter_base + m->n_gp);
    return gp ? m->gp_width : 0;
}

guint64 pms_model_counters_mask(const PmsModel *m)
{
    if (m->counter_base >= 64)
        return 0;
    guint64 all = m->n_gp >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT(1) << m->n_gp) - 1;
    return all << m->counter_base;
}

guint64 pms_model_pebs_counters(const PmsModel *m)
{
    const PmsRegister *pe = pms_model_reg_by_kind(m, PMS_REG_PEBS_ENABLE, 0);
    const PmsField *en = pms_register_field(pe, "pebs_en");
    if (!en)
        return 0;
    guint n = MIN(en->width, m->n_gp);
    return n >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT(1) << n) - 1;
}

guint pms_model_pebs_format(const PmsModel *m)
{
    const PmsRegister *cap = pms_model_reg_by_kind(m, PMS_REG_PERF_CAPABILITIES, 0);
    const PmsField *f = pms_register_field(cap, "pebs_rec_fmt");
    return f ? (guint)pms_field_get(f, cap->reset) : 0;
}

/* Name indexes hold 1-based positions: 0 means absent. */
static guint index_get(GHashTable *index, const char *key)
{
    return index && key ? GPOINTER_TO_UINT(g_hash_table_lookup(index, key)) : 0;
}

const PmsEvent *pms_model_event(const PmsModel *m, const char *name)
{
    guint i = index_get(pms_model_ix(m)->event_index, name);
    return i ? &m->events[i - 1] : NULL;
}

const PmsUmask *pms_event_umask(const PmsEvent *ev, const char *name)
{
    /* a scan: an event has a few dozen unit masks at most, and the encoder
     * keeps its own index (prepared.c) */
    for (guint i = 0; name && i < ev->n_umasks; i++)
        if (g_ascii_strcasecmp(ev->umasks[i].name, name) == 0)
            return &ev->umasks[i];
    return NULL;
}

const PmsUmask *pms_event_default_umask(const PmsEvent *ev)
{
    for (guint i = 0; i < ev->n_umasks; i++)
        if (ev->umasks[i].flags & PMS_UMASK_DEFAULT)
            return &ev->umasks[i];
    return NULL;
}

static gint cmp_str(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **pms_model_option_keys(const PmsModel *m)
{
    GHashTable *o = pms_model_ix(m)->options;
    guint n = 0;
    char **keys = o ? (char **)g_hash_table_get_keys_as_array(o, &n) : g_new0(char *, 1);
    for (guint i = 0; i < n; i++)
        keys[i] = g_strdup(keys[i]);
    qsort(keys, n, sizeof *keys, cmp_str);
    return keys;
}

void pms_model_set_option(PmsModel *m, const char *key, const char *value)
{
    struct PmsModelIndex *ix = pms_model_ix(m);
    if (!ix->options)
        ix->options = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_hash_table_replace(ix->options, g_strdup(key), g_strdup(value));
}

const PmsModifier *pms_model_modifier(const PmsModel *m, const char *name)
{
    guint i = index_get(pms_model_ix(m)->mod_index, name);
    return i ? &m->mods[i - 1] : NULL;
}

const PmsRegister *pms_model_reg_by_addr(const PmsModel *m, guint32 address)
{
    guint i = GPOINTER_TO_UINT(g_hash_table_lookup(pms_model_ix(m)->reg_index, GUINT_TO_POINTER(address)));
    return i ? &m->regs[i - 1] : NULL;
}

const PmsRegister *pms_model_reg_by_name(const PmsModel *m, const char *name)
{
    guint i = index_get(pms_model_ix(m)->reg_name_index, name);
    return i ? &m->regs[i - 1] : NULL;
}

const PmsRegister *pms_model_reg_in_unit(const PmsModel *m, const char *unit, guint instance, PmsRegKind kind,
                                         guint index)
{
    /* A model has a few dozen registers (a few hundred for a whole uncore);
     * callers resolve once per setup. */
    for (guint i = 0; i < m->n_regs; i++) {
        const PmsRegister *r = &m->regs[i];
        if (r->kind == kind && r->index == index && g_strcmp0(r->unit, unit) == 0 && (!unit || r->instance == instance))
            return r;
    }
    return NULL;
}

const PmsRegister *pms_model_reg_by_kind(const PmsModel *m, PmsRegKind kind, guint index)
{
    return pms_model_reg_in_unit(m, m->unit, m->instance, kind, index);
}

const PmsRegister *pms_model_reg_at(const PmsModel *m, PmsRegSpace space, guint32 address)
{
    if (space == PMS_SPACE_MSR)
        return pms_model_reg_by_addr(m, address);
    for (guint i = 0; i < m->n_regs; i++)
        if (m->regs[i].space == space && m->regs[i].address == address)
            return &m->regs[i];
    return NULL;
}

static const char *const space_names[] = { "msr", "pmc", "pmd", "ibr", "dbr" };

const char *pms_reg_space_name(PmsRegSpace space)
{
    return (guint)space < G_N_ELEMENTS(space_names) ? space_names[space] : "?";
}

gboolean pms_reg_space_from_name(const char *name, PmsRegSpace *space)
{
    for (guint i = 0; i < G_N_ELEMENTS(space_names); i++)
        if (g_ascii_strcasecmp(name, space_names[i]) == 0) {
            *space = (PmsRegSpace)i;
            return TRUE;
        }
    return FALSE;
}

const PmsLayout *pms_model_layout(const PmsModel *m, const char *name)
{
    guint i = index_get(pms_model_ix(m)->layout_index, name);
    return i ? &m->layouts[i - 1] : NULL;
}

const PmsField *pms_layout_field(const PmsLayout *l, const char *name)
{
    if (!l || !name)
        return NULL;
    for (guint i = 0; i < l->n_fields; i++)
        if (g_ascii_strcasecmp(l->fields[i].name, name) == 0)
            return &l->fields[i];
    return NULL;
}

const PmsField *pms_register_field(const PmsRegister *r, const char *name)
{
    return r ? pms_layout_field(r->layout, name) : NULL;
}

const char *pms_model_option(const PmsModel *m, const char *key, const char *fallback)
{
    const char *v = pms_model_ix(m)->options ? g_hash_table_lookup(pms_model_ix(m)->options, key) : NULL;
    return v ? v : fallback;
}

static guint64 field_mask(const PmsField *f)
{
    return f->width >= 64 ? G_MAXUINT64 : ((G_GUINT64_CONSTANT(1) << f->width) - 1);
}

guint64 pms_field_get(const PmsField *f, guint64 reg)
{
    return (reg >> f->shift) & field_mask(f);
}

guint64 pms_field_set(const PmsField *f, guint64 reg, guint64 value)
{
    guint64 m = field_mask(f) << f->shift;
    return (reg & ~m) | ((value << f->shift) & m);
}

static void event_clear(PmsEvent *e)
{
    g_free(e->name);
    g_free(e->extra_reg);
    g_free(e->desc);
    g_free(e->equiv);
    for (guint i = 0; i < e->n_umasks; i++) {
        g_free(e->umasks[i].name);
        g_free(e->umasks[i].desc);
        g_free(e->umasks[i].equiv);
    }
    g_free(e->umasks);
    for (guint i = 0; i < e->n_groups; i++)
        g_free(e->groups[i].name);
    g_free(e->groups);
}

/* A model loaded from text owns every string and array. */
static void text_model_free(PmsModel *m)
{
    g_free(m->name);
    g_free(m->desc);
    g_free(m->source);
    g_free(m->offcore_style);
    g_free(m->unit);
    g_free(m->instances);
    g_free(m->name_pattern);
    g_free(m->desc_pattern);
    for (guint i = 0; i < m->n_layouts; i++) {
        for (guint j = 0; j < m->layouts[i].n_fields; j++)
            g_free(m->layouts[i].fields[j].name);
        g_free(m->layouts[i].fields);
        g_free(m->layouts[i].name);
    }
    g_free(m->layouts);
    for (guint i = 0; i < m->n_regs; i++) {
        g_free(m->regs[i].name);
        g_free(m->regs[i].unit);
    }
    g_free(m->regs);
    for (guint i = 0; i < m->n_mods; i++) {
        g_free(m->mods[i].name);
        g_free(m->mods[i].reg_kind);
        g_free(m->mods[i].field);
        g_free(m->mods[i].desc);
    }
    g_free(m->mods);
    for (guint i = 0; i < m->n_events; i++)
        event_clear(&m->events[i]);
    g_free(m->events);
}

void pms_model_facts_alloc(PmsModel *m, guint n)
{
    const PmsEventFacts *ef = m->family ? m->family->event_facts : NULL;
    PmsModelPriv *pm = pms_model_priv(m);
    if (!ef || !n || pm->facts)
        return;
    guint8 *block = pm->facts = g_malloc0_n(n, ef->size);
    for (guint i = 0; i < n; i++) {
        gpointer f = block + (gsize)i * ef->size;
        for (guint k = 0; k < ef->n_keys; k++)
            pms_fact_set(f, &ef->keys[k], ef->keys[k].dflt);
        m->events[i].facts = f;
    }
}

void pms_model_caches_free(PmsModel *m)
{
    PmsModelCache *c = pms_model_priv(m)->head.cache;
    for (guint i = 0; i < PMS_MODEL_N_CACHES; i++)
        if (c[i].data && c[i].free)
            c[i].free(c[i].data);
}

void pms_model_free(PmsModel *m)
{
    if (!m)
        return;
    PmsModelPriv *pm = pms_model_priv(m);
    if (pm->base) {
        pms_model_view_free(m);
        return;
    }
    /* Views hold the model too: the last holder frees it. */
    if (g_atomic_int_add(&pm->view_refs, -1) > 0)
        return;
    /* a model read from an image: its strings live in the image and its
     * arrays in the model's own block (PmsModelPriv.image) */
    if (!pm->image)
        text_model_free(m);
    g_clear_pointer(&pms_model_ix(m)->event_index, g_hash_table_unref);
    g_clear_pointer(&pms_model_ix(m)->reg_index, g_hash_table_unref);
    g_clear_pointer(&pms_model_ix(m)->options, g_hash_table_unref);
    g_clear_pointer(&pms_model_ix(m)->reg_name_index, g_hash_table_unref);
    g_clear_pointer(&pms_model_ix(m)->mod_index, g_hash_table_unref);
    g_clear_pointer(&pms_model_ix(m)->layout_index, g_hash_table_unref);
    pms_model_caches_free(m);
    pms_perf_free(m->perf);
    g_free(pm->facts);
    if (pm->image)
        g_bytes_unref(pm->image);
    g_free(pm);
}

gboolean pms_read_text_file(const char *path, gsize max, char **data, gsize *len, GError **error)
{
    /* "-" is standard input, as every command's "-" argument */
    gboolean in = strcmp(path, "-") == 0;
    FILE *f = in ? stdin : fopen(path, "rb");
    if (!f) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", path, g_strerror(e));
        return FALSE;
    }
    GString *s = g_string_new(NULL);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0 && s->len <= max)
        g_string_append_len(s, buf, (gssize)n);
    gboolean bad = ferror(f) != 0;
    int e = errno;
    if (!in)
        fclose(f);
    if (bad || s->len > max) {
        if (bad)
            g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", path, g_strerror(e));
        else
            g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                        "%s: larger than %" G_GSIZE_FORMAT " bytes: not a text file this command reads", path, max);
        g_string_free(s, TRUE);
        return FALSE;
    }
    *len = s->len;
    *data = g_string_free(s, FALSE);
    return TRUE;
}

const char *pms_text_bom_message(const char *text, gsize len)
{
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
        return "the file starts with a UTF-8 byte-order mark (bytes EF BB BF): save it without one";
    return "";
}
