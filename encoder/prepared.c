/* pmusim encoder — per-model lookups resolved once.
 *
 * Field positions and modifier roles are found by name in the model's layouts
 * the first time a model is used, and cached in the model (model_cache.h), so an
 * encoding never walks a layout or modifier table.  Thread-safe first use. */
#include <string.h>
#include "enc_internal.h"
#include "model_cache.h"

/* The event-select fields the rules write, found by name in the model's
 * layout (the model is the only source of positions). */
static const struct {
    const char *name;
    gsize off;
} evtsel_fields[] = {
    { "event", G_STRUCT_OFFSET(PmsPrepared, event) }, { "umask", G_STRUCT_OFFSET(PmsPrepared, umask) },
    { "int", G_STRUCT_OFFSET(PmsPrepared, intr) },    { "any", G_STRUCT_OFFSET(PmsPrepared, any) },
    { "en", G_STRUCT_OFFSET(PmsPrepared, en) },       { "event_hi", G_STRUCT_OFFSET(PmsPrepared, event_hi) },
};

static const struct {
    const char *name;
    PmsModRole role;
} roles[] = {
    { "k", PMS_ROLE_K }, { "u", PMS_ROLE_U }, { "e", PMS_ROLE_E },         { "i", PMS_ROLE_I },
    { "c", PMS_ROLE_C }, { "t", PMS_ROLE_T }, { "ldlat", PMS_ROLE_LDLAT },
};

/* A copy of the first len bytes of p (upper-cased when asked), zero-padded
 * to whole words plus PMS_FSTR_SLACK bytes: fstr.c and the name comparisons
 * read these a word or 32 bytes at a time. */
static char *padded(const char *p, gsize len, gboolean upper)
{
    char *c = g_malloc0((len / 8 + 1) * 8 + PMS_FSTR_SLACK);
    for (gsize i = 0; i < len; i++)
        c[i] = upper ? g_ascii_toupper(p[i]) : p[i];
    return c;
}

static guint64 field_mask(const PmsField *f)
{
    return f->width >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT(1) << f->width) - 1;
}

static const PmsLayout *evtsel_layout(const PmsModel *m)
{
    const PmsRegister *r = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    if (r && r->layout)
        return r->layout;
    return pms_model_layout(m, "evtsel");
}

static void prepared_free(gpointer p)
{
    PmsPrepared *pp = p;
    if (!pp)
        return;
    g_clear_error(&pp->error);
    for (guint i = 0; i < pp->n_events; i++) {
        g_free(pp->events[i].equiv);
        g_free(pp->events[i].umask_len);
        g_free(pp->events[i].umask_piece);
        g_free(pp->events[i].fstr_umasks);
        g_free(pp->events[i].fstr_head);
        pms_plain_clear(&pp->events[i]);
        pms_nameidx_clear(&pp->events[i].umask_idx);
    }
    pms_nameidx_clear(&pp->event_idx);
    pms_nameidx_clear(&pp->mod_idx);
    for (guint i = 0; i < PMS_ENC_MAX_MODS; i++)
        g_free(pp->fstr_mod[i]);
    g_free(pp->uname);
    g_free(pp->plain_slots);
    g_free(pp->events);
    g_free(pp);
}

static PmsGroupKind group_kind(const char *name)
{
    static const struct {
        const char *n;
        PmsGroupKind k;
    } kinds[] = {
        { "request", PMS_GRP_REQUEST },
        { "response", PMS_GRP_RESPONSE },
        { "supplier", PMS_GRP_SUPPLIER },
        { "snoop", PMS_GRP_SNOOP },
    };
    if (!name || !*name)
        return PMS_GRP_PLAIN;
    for (guint i = 0; i < G_N_ELEMENTS(kinds); i++)
        if (g_ascii_strcasecmp(name, kinds[i].n) == 0)
            return kinds[i].k;
    /* Any other named group of an offcore event is glm's average-latency
     * mode (OUTSTANDING). */
    return PMS_GRP_AVG;
}

/* The umasks a libpfm4 alias ("A:B", "ANY:c=1:i=1") names; modifier parts are
 * the umask's forced values, which the model already carries. */
static PmsUmaskSet equiv_mask(const PmsEvent *ev, const char *equiv, gboolean *has_mods)
{
    PmsUmaskSet mask = PMS_UMASK_SET_EMPTY;
    g_auto(GStrv) parts = g_strsplit(equiv, ":", -1);
    for (guint i = 0; parts[i]; i++) {
        const PmsUmask *u = pms_event_umask(ev, parts[i]);
        if (u)
            pms_uset_add(&mask, (guint)(u - ev->umasks));
        else if (*parts[i])
            *has_mods = TRUE;
    }
    return mask;
}

static void prepare_event(const PmsModel *m, const PmsPrepared *p, const PmsEvent *ev, PmsPrepEvent *pe)
{
    /* the fixed part of its fstr: "pmu::EVENT" and the modifiers it takes */
    g_autofree char *head = g_strconcat(m->name, "::", ev->equiv ? ev->equiv : ev->name, NULL);
    pe->head_len = (guint)strlen(head);
    GString *tmpl = g_string_new(NULL);
    for (guint j = 0; j < p->n_mods; j++)
        if (pms_mod_allowed(ev, &p->mods[j], j)) {
            pe->allowed_mods |= 1u << j;
            g_string_append_len(tmpl, p->fstr_mod[j], p->fstr_mod_len[j]);
            pe->mod_digit[j] = (guint32)tmpl->len;
            /* the privilege default of rules_x86_core.c */
            gboolean on = (gint)j == p->role_mod[PMS_ROLE_K] || (gint)j == p->role_mod[PMS_ROLE_U];
            g_string_append_c(tmpl, on ? '1' : '0');
        }
    /* head and template in one block (one cache line for short names), each
     * zero-padded to whole words; the template and PMS_FSTR_SLACK zero bytes
     * after it are the head's readable slack (fstr.c copies in blocks) */
    gsize hsize = (pe->head_len / 8 + 1) * 8;
    pe->fstr_head = g_malloc0(hsize + (tmpl->len / 8 + 1) * 8 + PMS_FSTR_SLACK);
    memcpy(pe->fstr_head, head, pe->head_len);
    pe->fstr_mods = pe->fstr_head + hsize;
    memcpy(pe->fstr_mods, tmpl->str, tmpl->len);
    pe->mods_tlen = (guint)tmpl->len;
    g_string_free(tmpl, TRUE);

    if (ev->n_umasks > PMS_ENC_MAX_UMASKS || ev->n_groups > PMS_ENC_MAX_GROUPS) {
        pe->unsupported = TRUE;
        return;
    }
    pe->n_groups = MAX(ev->n_groups, 1);
    for (guint g = 0; g < ev->n_groups; g++)
        pe->group_kind[g] = (ev->flags & PMS_EVENT_OFFCORE) ? group_kind(ev->groups[g].name) : PMS_GRP_PLAIN;
    for (guint i = 0; i < ev->n_umasks; i++) {
        const PmsUmask *u = &ev->umasks[i];
        if (u->group < PMS_ENC_MAX_GROUPS)
            pms_uset_add(&pe->group_mask[u->group], i);
        if (u->flags & PMS_UMASK_DEFAULT)
            pms_uset_add(&pe->default_mask, i);
        if (u->flags & PMS_UMASK_EXCL)
            pms_uset_add(&pe->excl_mask, i);
        if (u->flags & PMS_UMASK_OVERRIDE)
            pms_uset_add(&pe->override_mask, i);
        if (u->flags & PMS_UMASK_LDLAT)
            pms_uset_add(&pe->ldlat_mask, i);
        if (u->cmask >= 0 || u->inv >= 0 || u->edge >= 0 || u->any >= 0)
            pms_uset_add(&pe->forced_mask, i);
        if (u->equiv) {
            if (!pe->equiv)
                pe->equiv = g_new0(PmsUmaskSet, ev->n_umasks);
            gboolean mods = FALSE;
            pe->equiv[i] = equiv_mask(ev, u->equiv, &mods);
            if (mods)
                pms_uset_add(&pe->equiv_mods, i);
        }
    }
    for (guint g = 0; g < pe->n_groups; g++)
        pe->grouped_default = pms_uset_or(pe->grouped_default, pms_uset_and(pe->group_mask[g], pe->default_mask));
    for (guint g = 0; g < ev->n_groups; g++)
        if (ev->groups[g].required && !pms_uset_empty(pe->group_mask[g]))
            pe->required_groups |= 1u << g;
    if (ev->extra_reg)
        pe->extra = pms_model_reg_by_name(m, ev->extra_reg);
    pe->umask_extra = (ev->flags & PMS_EVENT_OFFCORE) || (pe->extra && pe->extra->kind == PMS_REG_PEBS_FRONTEND);
    /* a modifier whose register is the extra register's kind writes a field
     * of it, found by name in the modifier's [modifier] field */
    for (guint j = 0; pe->umask_extra && j < p->n_mods; j++) {
        const PmsPrepMod *pm = &p->mods[j];
        PmsRegKind kind;
        if ((pe->allowed_mods & (1u << j)) && pm->role == PMS_ROLE_OTHER && !pm->in_evtsel && pm->field &&
            pm->mod->reg_kind && pms_reg_kind_from_name(pm->mod->reg_kind, &kind) && kind == pe->extra->kind)
            pe->extra_mods |= 1u << j;
    }
    pms_nameidx_build(&pe->umask_idx, ev->umasks, sizeof *ev->umasks, G_STRUCT_OFFSET(PmsUmask, name), ev->n_umasks);
    /* ":UMASK" pieces, each starting on a word, one spare word at the end */
    pe->umask_len = g_new0(guint16, MAX(ev->n_umasks, 1));
    pe->umask_piece = g_new0(guint32, MAX(ev->n_umasks, 1));
    gsize total = 0;
    for (guint i = 0; i < ev->n_umasks; i++) {
        pe->umask_len[i] = (guint16)MIN(1 + strlen(ev->umasks[i].name), G_MAXUINT16 - 8);
        pe->umask_piece[i] = (guint32)total;
        total += (pe->umask_len[i] / 8u + 1) * 8;
    }
    pe->fstr_umasks = g_malloc0(total + PMS_FSTR_SLACK);
    for (guint i = 0; i < ev->n_umasks; i++) {
        pe->fstr_umasks[pe->umask_piece[i]] = ':';
        memcpy(pe->fstr_umasks + pe->umask_piece[i] + 1, ev->umasks[i].name, pe->umask_len[i] - 1u);
    }
}

static PmsPrepared *prepare(const PmsModel *m)
{
    PmsPrepared *p = g_new0(PmsPrepared, 1);
    p->fam = pms_enc_family(m);
    const PmsLayout *l = evtsel_layout(m);
    for (guint i = 0; i < G_N_ELEMENTS(evtsel_fields); i++) {
        PmsField *dst = (PmsField *)((char *)p + evtsel_fields[i].off);
        const PmsField *f = pms_layout_field(l, evtsel_fields[i].name);
        dst->name = NULL;
        dst->shift = f ? f->shift : 0;
        dst->width = f ? f->width : 0;
    }
    for (guint i = 0; p->fam && p->fam->decode_ignores && p->fam->decode_ignores[i]; i++) {
        const PmsField *f = pms_layout_field(l, p->fam->decode_ignores[i]);
        if (f)
            p->decode_ignore |= field_mask(f) << f->shift;
    }
    p->evtsel_all_writable = G_MAXUINT64;
    for (guint i = 0; i < m->n_regs; i++)
        if (m->regs[i].kind == PMS_REG_EVTSEL)
            p->evtsel_all_writable &= m->regs[i].writable;
    const PmsRegister *sel0 = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    if (sel0)
        p->decode_ignore |= sel0->ignored;
    for (guint i = 0; i < G_N_ELEMENTS(p->role_mod); i++)
        p->role_mod[i] = -1;
    p->name_len = (guint)strlen(m->name);
    p->uname = padded(m->name, p->name_len, TRUE);
    if (m->n_mods > PMS_ENC_MAX_MODS) {
        p->error = g_error_new(PMS_ENCODE_ERROR, PMS_ERR_NOTSUPP,
                               "model %s declares %u modifiers; the encoder handles at most %d", m->name, m->n_mods,
                               PMS_ENC_MAX_MODS);
        return p;
    }
    pms_nameidx_build(&p->mod_idx, m->mods, sizeof *m->mods, G_STRUCT_OFFSET(PmsModifier, name), m->n_mods);
    pms_nameidx_build(&p->event_idx, m->events, sizeof *m->events, G_STRUCT_OFFSET(PmsEvent, name), m->n_events);
    for (guint c = 'A'; c <= 'Z'; c++) {
        char key[16] = { (char)c };
        p->mod_letter[c & 31] = (gint8)pms_nameidx_find(&p->mod_idx, key, 1);
    }
    for (guint i = 0; i < m->n_mods; i++) {
        g_autofree char *piece = g_strconcat(":", m->mods[i].name, "=", NULL);
        p->fstr_mod_len[i] = (guint)strlen(piece);
        p->fstr_mod[i] = padded(piece, p->fstr_mod_len[i], FALSE);
        PmsPrepMod *pm = &p->mods[p->n_mods++];
        pm->mod = &m->mods[i];
        pm->role = PMS_ROLE_OTHER;
        for (guint j = 0; j < G_N_ELEMENTS(roles); j++)
            if (strcmp(m->mods[i].name, roles[j].name) == 0)
                pm->role = roles[j].role;
        if (pm->role != PMS_ROLE_OTHER && p->role_mod[pm->role] < 0)
            p->role_mod[pm->role] = (gint)i;
        PmsRegKind kind;
        const PmsRegister *reg = NULL;
        /* the first counter's register of that kind: index counter_base (0
         * on x86; Itanium's PMC0 is the status register, PMC4 the first counter) */
        if (m->mods[i].reg_kind && pms_reg_kind_from_name(m->mods[i].reg_kind, &kind))
            reg = pms_model_reg_by_kind(m, kind, m->counter_base);
        pm->in_evtsel =
            reg ? reg->kind == PMS_REG_EVTSEL : (m->mods[i].reg_kind && strcmp(m->mods[i].reg_kind, "evtsel") == 0);
        pm->field = pms_layout_field(pm->in_evtsel ? l : (reg ? reg->layout : NULL), m->mods[i].field);
        if (pm->role == PMS_ROLE_LDLAT)
            p->pebs_ld_lat = reg ? reg : pms_model_reg_by_kind(m, PMS_REG_PEBS_LD_LAT, 0);
        if (pm->role != PMS_ROLE_LDLAT && pm->in_evtsel && pm->field) {
            p->evtsel_mods |= 1u << i;
            p->evtsel_mod_mask[i] = field_mask(pm->field);
        }
    }
    for (guint r = PMS_ROLE_K; r <= PMS_ROLE_U; r++)
        if (p->role_mod[r] >= 0)
            p->plm_mods |= 1u << p->role_mod[r];
    /* default privilege k=1 u=1 (rules_x86_core.c), every other modifier 0;
     * fields set in modifier order as the general path does */
    for (guint i = 0; i < p->n_mods; i++) {
        if (!(p->evtsel_mods & (1u << i)))
            continue;
        gboolean on = (gint)i == p->role_mod[PMS_ROLE_K] || (gint)i == p->role_mod[PMS_ROLE_U];
        p->mods_clear |= p->evtsel_mod_mask[i] << p->mods[i].field->shift;
        p->mods_default = pms_fset(p->mods[i].field, p->mods_default, on);
    }
    p->en_int = pms_fset(&p->intr, pms_fset(&p->en, 0, 1), 1);
    p->en_int_clear = (field_mask(&p->en) << p->en.shift) | (field_mask(&p->intr) << p->intr.shift);
    p->event_fmask = field_mask(&p->event);
    p->umask_fmask = field_mask(&p->umask);
    p->glm_offcore = m->offcore_style && strcmp(m->offcore_style, "glm") == 0;
    for (guint i = 0; i < PMS_ENC_MAX_COUNTERS; i++)
        p->evtsel_regs[i] = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, i);
    p->events = g_new0(PmsPrepEvent, m->n_events);
    p->n_events = m->n_events;
    for (guint i = 0; i < m->n_events; i++)
        prepare_event(m, p, &m->events[i], &p->events[i]);
    /* the plain-result cache's slots, filled as strings are asked for */
    pms_plain_init(m, p);
    return p;
}

static gpointer prepare_cache(const PmsModel *m)
{
    return prepare(m);
}

const PmsPrepared *pms_prepared_get(const PmsModel *m)
{
    return pms_model_cache(m, PMS_MODEL_CACHE_ENCODER, prepare_cache, prepared_free);
}

gboolean pms_mod_allowed(const PmsEvent *ev, const PmsPrepMod *pm, guint j)
{
    /* the event's own list (`modifiers` key): libpfm4's per-event modifier
     * mask, empty for nhm_unc UNC_CLK_UNHALTED and UNC_QHL_CYCLES_NOT_EMPTY */
    if (j >= 32 || !(ev->modifiers & (1u << j)))
        return FALSE;
    /* ldlat belongs to the load-latency event only (libpfm4 offers it nowhere else) */
    if (pm->role == PMS_ROLE_LDLAT && !(ev->flags & PMS_EVENT_LDLAT))
        return FALSE;
    /* Fixed-counter events: IA32_FIXED_CTR_CTRL has only the privilege and
     * any-thread controls, so libpfm4 offers k, u (and t) there. */
    if (!(ev->flags & PMS_EVENT_FIXED_ONLY))
        return TRUE;
    return pm->role == PMS_ROLE_K || pm->role == PMS_ROLE_U || pm->role == PMS_ROLE_T;
}
