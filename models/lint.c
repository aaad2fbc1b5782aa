/* pmusim models — lint: consistency checks a model file can fail and still
 * load (the loader rejects only what it cannot represent).  Each problem is
 * one line "SOURCE:LINE: message", so a user's variant points at its mistake. */
#include <string.h>
#include "model.h"
#include "family.h"
#include "model_priv.h"

static void problem(GPtrArray *out, const PmsModel *m, guint line, const char *fmt, ...) G_GNUC_PRINTF(4, 5);

static void problem(GPtrArray *out, const PmsModel *m, guint line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_ptr_array_add(out, g_strdup_printf("%s:%u: %s", m->source, line, msg));
}

static guint64 mask_of(guint n)
{
    return n >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT(1) << n) - 1;
}

static guint64 field_bits(const PmsField *f)
{
    return mask_of(f->width) << f->shift;
}

static void lint_layouts(const PmsModel *m, GPtrArray *out)
{
    for (guint i = 0; i < m->n_layouts; i++) {
        const PmsLayout *l = &m->layouts[i];
        if (l->n_fields == 0)
            problem(out, m, l->source_line, "layout %s has no fields", l->name);
        for (guint a = 0; a < l->n_fields; a++)
            for (guint b = a + 1; b < l->n_fields; b++)
                if (field_bits(&l->fields[a]) & field_bits(&l->fields[b]))
                    problem(out, m, l->source_line, "layout %s: fields %s and %s overlap", l->name, l->fields[a].name,
                            l->fields[b].name);
    }
}

static void lint_registers(const PmsModel *m, GPtrArray *out)
{
    for (guint i = 0; i < m->n_regs; i++) {
        const PmsRegister *r = &m->regs[i];
        /* a register is one address of its space, and one kind and index of
         * its unit instance (C-Box 3's evtsel 0 is not C-Box 4's) */
        for (guint j = 0; j < i; j++)
            if (m->regs[j].address == r->address && m->regs[j].space == r->space)
                problem(out, m, r->source_line, "register %s has the address 0x%x of %s", r->name, r->address,
                        m->regs[j].name);
        for (guint j = 0; j < i && !r->alias; j++) /* an alias is its register's other name */
            if (!m->regs[j].alias && m->regs[j].kind == r->kind && m->regs[j].index == r->index &&
                g_strcmp0(m->regs[j].unit, r->unit) == 0 && m->regs[j].instance == r->instance)
                problem(out, m, r->source_line, "register %s repeats kind %s index %u of %s", r->name,
                        pms_reg_kind_name(r->kind), r->index, m->regs[j].name);
        if (r->readonly && r->writable != G_MAXUINT64 && r->writable != 0)
            problem(out, m, r->source_line, "register %s is read-only but has writable bits", r->name);
        if (r->reset & ~r->writable && !r->readonly)
            problem(out, m, r->source_line, "register %s resets to bits software cannot write", r->name);
        if (r->layout)
            for (guint f = 0; f < r->layout->n_fields; f++) {
                const PmsField *fd = &r->layout->fields[f];
                if (fd->shift + fd->width > r->width)
                    problem(out, m, r->source_line, "register %s (width %u): field %s ends beyond it", r->name,
                            r->width, fd->name);
            }
    }
}

static void lint_modifiers(const PmsModel *m, GPtrArray *out)
{
    for (guint i = 0; i < m->n_mods; i++) {
        const PmsModifier *mod = &m->mods[i];
        PmsRegKind kind;
        const PmsRegister *r = NULL;
        /* The register of the first counter (Itanium's counting PMC4, kind
         * ia64_pmc index counter_base), else the kind's first one. */
        if (pms_reg_kind_from_name(mod->reg_kind, &kind)) {
            r = pms_model_reg_by_kind(m, kind, m->counter_base);
            if (!r)
                r = pms_model_reg_by_kind(m, kind, 0);
        }
        if (!r) {
            problem(out, m, mod->source_line, "modifier %s: no register of kind %s", mod->name, mod->reg_kind);
            continue;
        }
        const PmsField *f = pms_layout_field(r->layout, mod->field);
        if (!f) {
            problem(out, m, mod->source_line, "modifier %s: field %s is not in register %s's layout", mod->name,
                    mod->field, r->name);
            continue;
        }
        if (f->width < 64 && mod->max > mask_of(f->width))
            problem(out, m, mod->source_line,
                    "modifier %s: maximum %" G_GUINT64_FORMAT " does not fit field %s (%u bits)", mod->name, mod->max,
                    f->name, f->width);
    }
}

static void lint_umask_groups(const PmsModel *m, const PmsEvent *e, GPtrArray *out)
{
    for (guint g = 0; g < e->n_groups; g++) {
        const PmsUmaskGroup *grp = &e->groups[g];
        guint members = 0, defaults = 0;
        for (guint u = 0; u < e->n_umasks; u++)
            if (e->umasks[u].group == g) {
                members++;
                defaults += (e->umasks[u].flags & PMS_UMASK_DEFAULT) != 0;
            }
        const char *gn = *grp->name ? grp->name : "(unnamed)";
        if (members == 0)
            problem(out, m, e->source_line, "event %s: unit-mask group %s has no member", e->name, gn);
        /* libpfm4 itself insists a lone unit mask be the default. */
        if (members == 1 && grp->required && defaults == 0)
            problem(out, m, e->source_line,
                    "event %s: group %s is required and has one unit mask, which is not the default", e->name, gn);
        if (defaults > 1 && grp->exclusive)
            problem(out, m, e->source_line, "event %s: exclusive group %s has %u defaults", e->name, gn, defaults);
    }
}

/* "/KEY=VALUE" for each fact of the event's family that tells encodings
 * apart (family.h PmsEventFact.distinct) and is not at its default. */
static void append_distinct_facts(GString *key, const PmsModel *m, const PmsEvent *e)
{
    const PmsEventFacts *ef = m->family ? m->family->event_facts : NULL;
    for (guint k = 0; ef && e->facts && k < ef->n_keys; k++) {
        const PmsEventFact *f = &ef->keys[k];
        guint32 v = pms_fact_get(e->facts, f);
        if (f->distinct && v != f->dflt)
            g_string_append_printf(key, "/%s=%u", f->key, v);
    }
}

static void lint_events(const PmsModel *m, GPtrArray *out)
{
    guint64 fx = mask_of(m->n_fixed);
    g_autoptr(GHashTable) codes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    gboolean has_ldlat = pms_model_modifier(m, "ldlat") != NULL;
    /* 8 bits, or with an event_hi field (AMD's 35:32) the two fields' bits */
    const PmsField *ehi = pms_register_field(pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0), "event_hi");
    guint code_max = ehi ? (1u << (8 + MIN(ehi->width, 16u))) - 1 : 0xff;
    for (guint i = 0; i < m->n_events; i++) {
        const PmsEvent *e = &m->events[i];
        /* The general counters an event may use are the family's check
         * (lint_family): numbered from 0 on x86, from counter_base on ia64. */
        if (e->fixed & ~fx)
            problem(out, m, e->source_line, "event %s: fixed 0x%x names counters beyond the %u fixed ones", e->name,
                    e->fixed, m->n_fixed);
        if (e->code > code_max || e->base_umask > 0xff)
            problem(out, m, e->source_line,
                    "event %s: code wider than the event select's event field%s (0x%x) or base_umask wider than 8 bits",
                    e->name, code_max > 0xff ? "s" : "", code_max);
        if (e->extra_reg && !pms_model_reg_by_name(m, e->extra_reg))
            problem(out, m, e->source_line, "event %s: extra register %s does not exist", e->name, e->extra_reg);
        if ((e->flags & PMS_EVENT_OFFCORE) && !e->extra_reg)
            problem(out, m, e->source_line, "event %s: offcore event without an extra register", e->name);
        if ((e->flags & PMS_EVENT_LDLAT) && !has_ldlat)
            problem(out, m, e->source_line, "event %s: ldlat event but the model has no ldlat modifier", e->name);
        for (guint u = 0; u < e->n_umasks; u++)
            if ((e->umasks[u].flags & PMS_UMASK_LDLAT) && !(e->flags & PMS_EVENT_LDLAT))
                problem(out, m, e->umasks[u].source_line, "event %s: unit mask %s is marked ldlat but the event is not",
                        e->name, e->umasks[u].name);
        if ((e->flags & PMS_EVENT_GROUP_EXCL) && e->n_groups < 2)
            problem(out, m, e->source_line, "event %s: group_excl on an event with fewer than two unit-mask groups",
                    e->name);
        if (e->modifiers != G_MAXUINT32 && m->n_mods < 32 && (e->modifiers & ~(guint32)mask_of(m->n_mods)))
            problem(out, m, e->source_line, "event %s: modifiers names a modifier the model does not declare", e->name);
        if (e->equiv && !e->equiv[0])
            problem(out, m, e->source_line, "event %s: empty equiv", e->name);
        lint_umask_groups(m, e, out);
        if (e->n_umasks == 0 && !e->equiv && !(e->flags & (PMS_EVENT_FIXED_ONLY | PMS_EVENT_DUP))) {
            /* Events of a code may differ by a fact of their family too
             * (Itanium's EAR events: by EAR kind and mode). */
            GString *ks = g_string_new(NULL);
            g_string_printf(ks, "%02x/%02x/-1/-1/-1/-1", e->code, e->base_umask);
            append_distinct_facts(ks, m, e);
            char *key = g_string_free(ks, FALSE);
            const char *prev = g_hash_table_lookup(codes, key);
            if (prev) {
                problem(out, m, e->source_line, "%s has the same encoding as %s", e->name, prev);
                g_free(key);
            } else {
                g_hash_table_insert(codes, key, g_strdup(e->name));
            }
        }
        for (guint u = 0; u < e->n_umasks; u++) {
            const PmsUmask *um = &e->umasks[u];
            const PmsRegister *xr = e->extra_reg ? pms_model_reg_by_name(m, e->extra_reg) : NULL;
            if ((e->flags & PMS_EVENT_OFFCORE) && xr && (um->value & ~xr->writable))
                problem(out, m, um->source_line,
                        "event %s: unit mask %s sets bits 0x%" G_GINT64_MODIFIER "x that %s does not implement",
                        e->name, um->name, um->value & ~xr->writable, xr->name);
            /* an offcore or FRONTEND_RETIRED unit mask is its extra register's value */
            gboolean extra_value = (e->flags & PMS_EVENT_OFFCORE) || (xr && xr->kind == PMS_REG_PEBS_FRONTEND);
            if (!extra_value && (um->value | e->base_umask) > 0xff)
                problem(out, m, um->source_line,
                        "event %s: unit mask %s value 0x%" G_GINT64_MODIFIER "x is wider than 8 bits", e->name,
                        um->name, um->value);
            /* Aliases share a value with what they stand for; only the real
             * unit masks must be distinct encodings. */
            if (um->equiv || (um->flags & PMS_UMASK_DUP) || (e->flags & (PMS_EVENT_OFFCORE | PMS_EVENT_DUP)))
                continue;
            char *key =
                g_strdup_printf("%02x/%02" G_GINT64_MODIFIER "x/%d/%d/%d/%d", um->code >= 0 ? (guint)um->code : e->code,
                                (um->value | e->base_umask) & 0xff, um->cmask, um->inv, um->edge, um->any);
            /* Events that are libpfm4 aliases (equiv) repeat their target's code. */
            if (e->equiv) {
                g_free(key);
                continue;
            }
            const char *prev = g_hash_table_lookup(codes, key);
            if (prev)
                problem(out, m, um->source_line, "%s:%s has the same encoding as %s", e->name, um->name, prev);
            else
                g_hash_table_insert(codes, key, g_strdup_printf("%s:%s", e->name, um->name));
            if (prev)
                g_free(key);
        }
    }
    /* the stored names are leaked into the table values: free them */
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, codes);
    while (g_hash_table_iter_next(&it, &k, &v))
        g_free(v);
}

/* [perf]: every term perf takes from a raw config lies in the raw mask;
 * the bits perf owns, the privilege modifiers' fields and the fields whose
 * setting perf loses lie outside it. */
static void lint_perf(const PmsModel *m, GPtrArray *out)
{
    const PmsPerf *p = pms_model_perf(m);
    if (!p->pmu)
        return;
    const PmsRegister *es = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    if (p->owned & p->raw_mask)
        problem(out, m, p->source_line, "[perf]: owned bits 0x%" G_GINT64_MODIFIER "x lie in raw_mask",
                p->owned & p->raw_mask);
    for (guint i = 0; i < p->n_terms; i++) {
        const PmsPerfTerm *t = &p->terms[i];
        const PmsField *f = t->kind == PMS_PERF_EXTRA ? NULL : pms_register_field(es, t->target);
        if (!f)
            continue;
        guint64 bits = field_bits(f);
        if (t->kind == PMS_PERF_TERM && (bits & ~p->raw_mask))
            problem(out, m, p->source_line, "[perf]: term %s's field %s lies outside raw_mask", t->name, t->target);
        else if (t->kind != PMS_PERF_TERM && (bits & (p->raw_mask | p->owned)))
            problem(out, m, p->source_line, "[perf]: field %s of a priv. or lost. key lies in raw_mask or owned",
                    t->target);
    }
}

static void lint_family(const PmsModel *m, GPtrArray *out)
{
    const PmsFamily *f = m->family;
    g_autoptr(GPtrArray) msgs = g_ptr_array_new_with_free_func(g_free);
    if (f->check_model)
        f->check_model(m, TRUE, msgs);
    for (guint i = 0; i < msgs->len; i++)
        problem(out, m, m->source_line, "%s", (const char *)msgs->pdata[i]);
    /* facts only the family's table can give meaning to */
    for (guint e = 0; !f->event_facts && e < m->n_events; e++)
        if (m->events[e].facts)
            problem(out, m, m->events[e].source_line, "event %s: per-event facts on a %s model (its family has none)",
                    m->events[e].name, f->name);
    for (guint e = 0; f->check_event && e < m->n_events; e++) {
        g_ptr_array_set_size(msgs, 0);
        f->check_event(m, &m->events[e], TRUE, msgs);
        for (guint i = 0; i < msgs->len; i++)
            problem(out, m, m->events[e].source_line, "%s", (const char *)msgs->pdata[i]);
    }
}

/* The encoder's limits (encoder/enc_internal.h PMS_ENC_MAX_*): a model past
 * them loads, and every event of it is then refused. */
#define LINT_MAX_MODS 16
#define LINT_MAX_UMASKS PMS_UMASK_SET_MAX
#define LINT_MAX_GROUPS 7

/* Names an equiv string uses must exist: the target event (an event's
 * equiv), its unit masks and the model's modifiers. */
static void lint_equiv(const PmsModel *m, const PmsEvent *e, const char *equiv, gboolean of_event, guint line,
                       GPtrArray *out)
{
    g_auto(GStrv) t = g_strsplit(equiv, ":", -1);
    const PmsEvent *target = e;
    guint i = 0;
    if (of_event) {
        target = t[0] ? pms_model_event(m, t[0]) : NULL;
        if (!target) {
            problem(out, m, line, "event %s: equiv names the unknown event %s", e->name, t[0] ? t[0] : "");
            return;
        }
        i = 1;
    }
    for (; t[i]; i++) {
        char *eq = strchr(t[i], '=');
        if (eq) {
            *eq = 0;
            if (!pms_model_modifier(m, t[i]))
                problem(out, m, line, "event %s: equiv '%s' names the unknown modifier %s", e->name, equiv, t[i]);
        } else if (!pms_event_umask(target, t[i]) && !pms_model_modifier(m, t[i])) {
            problem(out, m, line, "event %s: equiv '%s' names %s, neither a unit mask of %s nor a modifier", e->name,
                    equiv, t[i], target->name);
        }
    }
}

/* What loads but makes other commands refuse the model or its events. */
static void lint_limits(const PmsModel *m, GPtrArray *out)
{
    if (m->n_regs == 0)
        problem(out, m, m->source_line, "model %s has no registers", m->name);
    if (m->n_events == 0)
        problem(out, m, m->source_line, "model %s has no events", m->name);
    if (m->n_gp && (m->gp_width == 0 || m->gp_width >= 64))
        problem(out, m, m->source_line, "gp_width %u: expected 1..63 bits", m->gp_width);
    if (m->n_mods > LINT_MAX_MODS)
        problem(out, m, m->mods[LINT_MAX_MODS].source_line, "%u modifiers: the encoder takes at most %u", m->n_mods,
                LINT_MAX_MODS);
    for (guint i = 0; i < m->n_mods; i++) {
        const PmsModifier *mod = &m->mods[i];
        /* the fstr prints a modifier not given as 0; ldlat only when given,
         * fe_thres (MSR_PEBS_FRONTEND) as libpfm4 does: 0 where it does not apply */
        if (mod->min > 0 && strcmp(mod->name, "ldlat") != 0 && g_strcmp0(mod->reg_kind, "pebs_frontend") != 0)
            problem(out, m, mod->source_line,
                    "modifier %s: range %" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT
                    " excludes 0, the value the fstr prints when it is not given",
                    mod->name, mod->min, mod->max);
    }
    /* per unit instance the model stands for: each of its PMUs' (a file
     * of several, [pmu] instances), or its own */
    for (guint k = 0; k < MAX(m->n_instances, 1); k++) {
        guint inst = m->n_instances ? m->instances[k] : m->instance;
        for (guint i = 0; i < m->n_regs; i++) {
            const PmsRegister *r = &m->regs[i];
            if (r->kind == PMS_REG_EVTSEL && r->index >= m->n_gp && g_strcmp0(r->unit, m->unit) == 0 &&
                r->instance == inst)
                problem(out, m, r->source_line, "register %s: event-select index %u, but there are %u counters",
                        r->name, r->index, m->n_gp);
        }
    }
    for (guint i = 0; i < m->n_events; i++) {
        const PmsEvent *e = &m->events[i];
        if (e->n_umasks > LINT_MAX_UMASKS)
            problem(out, m, e->source_line, "event %s: %u unit masks: the encoder takes at most %u", e->name,
                    e->n_umasks, LINT_MAX_UMASKS);
        if (e->n_groups > LINT_MAX_GROUPS)
            problem(out, m, e->source_line, "event %s: %u unit-mask groups: the encoder takes at most %u", e->name,
                    e->n_groups, LINT_MAX_GROUPS);
        if (e->equiv && e->equiv[0])
            lint_equiv(m, e, e->equiv, TRUE, e->source_line, out);
        for (guint u = 0; u < e->n_umasks; u++)
            if (e->umasks[u].equiv)
                lint_equiv(m, e, e->umasks[u].equiv, FALSE, e->umasks[u].source_line, out);
    }
}

/* The LBR ring (model_lbr.c), for models that reached memory another way
 * than the loader (which refuses it): at the register's or the layout's line. */
static void lint_lbr(const PmsModel *m, GPtrArray *out)
{
    const PmsRegister *r = NULL;
    gboolean on_field = FALSE;
    g_autofree char *msg = pms_model_lbr_problem(m, &r, &on_field);
    if (msg)
        problem(out, m, on_field ? r->layout->source_line : r->source_line, "%s", msg);
}

gboolean pms_model_lint(const PmsModel *m, GPtrArray *problems)
{
    guint before = problems->len;
    lint_layouts(m, problems);
    lint_registers(m, problems);
    lint_modifiers(m, problems);
    lint_events(m, problems);
    lint_family(m, problems);
    lint_perf(m, problems);
    lint_limits(m, problems);
    lint_lbr(m, problems);
    return problems->len == before;
}
