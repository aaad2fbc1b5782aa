/* pmusim models — the ia64 family's checks (models/families.c): the
 * consistency of Itanium (arch ia64) facts.
 *
 * The per-event facts of libpfm's Montecito table (max increment, counters,
 * cache group and set, type, qualifiers, EAR kind and mode, ETB, MESI) only
 * make sense together; a model whose facts contradict each other would make
 * the encoder or the simulator guess.  The loader rejects such a model with
 * the first message; the lint lists them all, and the facts that are missing
 * too (docs/model-format.md). */
#include <string.h>
#include "model.h"
#include "model_priv.h"

/* thres is a 3-bit field: max_inc above 8 would name thresholds it cannot hold. */
#define IA64_MAX_INC_MAX 8u


gboolean pms_ia64_event_has_facts(const PmsEvent *e)
{
    return e->max_inc || e->cache_group || e->cache_set >= 0 || e->ev_type || e->qualifiers || e->ear || e->ear_mode ||
        e->etb || e->mesi || e->code_range;
}

/* The counting PMC of the first counter: its layout holds the umask field. */
static const PmsField *counter_field(const PmsModel *m, const char *name)
{
    const PmsRegister *r = pms_model_reg_by_kind(m, PMS_REG_IA64_PMC, m->counter_base);
    return r ? pms_layout_field(r->layout, name) : NULL;
}

void pms_ia64_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs)
{
    if (m->counter_base + m->n_gp > 64) {
        pms_msg_add(msgs, "counters %u..%u do not fit a 64-bit counter mask", m->counter_base,
                    m->counter_base + m->n_gp - 1);
        return;
    }
    static const char *const needed[] = { "es", "umask", "thres" };
    for (guint i = m->counter_base; complete && i < m->counter_base + m->n_gp; i++) {
        const PmsRegister *c = pms_model_reg_by_kind(m, PMS_REG_IA64_PMC, i);
        const PmsRegister *d = pms_model_reg_by_kind(m, PMS_REG_IA64_PMD, i);
        if (!c) {
            pms_msg_add(msgs, "counter %u has no configuration register (kind ia64_pmc, index %u)", i, i);
        } else {
            for (guint f = 0; f < G_N_ELEMENTS(needed); f++)
                if (!pms_layout_field(c->layout, needed[f]))
                    pms_msg_add(msgs, "counter %u: register %s has no field %s", i, c->name, needed[f]);
        }
        if (!d)
            pms_msg_add(msgs, "counter %u has no data register (kind ia64_pmd, index %u)", i, i);
        else if (d->width != m->gp_width)
            pms_msg_add(msgs, "counter %u: register %s is %u bits wide, gp_width is %u", i, d->name, d->width,
                        m->gp_width);
    }
    if (complete)
        pms_ia64_fields_check(m, msgs);
}

void pms_ia64_event_check(const PmsModel *m, const PmsEvent *e, gboolean complete, GPtrArray *msgs)
{
    if (e->max_inc == 0 && complete)
        pms_msg_add(msgs, "event %s: max_inc is 0 or missing (an Itanium event occurs 1..%u times per cycle)", e->name,
                    IA64_MAX_INC_MAX);
    else if (e->max_inc > IA64_MAX_INC_MAX)
        pms_msg_add(msgs, "event %s: max_inc %u is above %u (the 3-bit thres could not reach it)", e->name, e->max_inc,
                    IA64_MAX_INC_MAX);
    guint64 all = pms_model_counters_mask(m);
    if (e->counters == 0)
        pms_msg_add(msgs, "event %s can use no counter", e->name);
    else if (e->counters & ~all)
        pms_msg_add(msgs, "event %s: counters 0x%" G_GINT64_MODIFIER "x names counters outside %u..%u", e->name,
                    e->counters, m->counter_base, m->counter_base + m->n_gp - 1);
    if (e->fixed)
        pms_msg_add(msgs, "event %s: fixed 0x%x on a model without fixed counters", e->name, e->fixed);
    if (e->ev_type == PMS_IA64_TYPE_NONE && complete)
        pms_msg_add(msgs, "event %s: type missing (active, floating, causal or self_floating)", e->name);
    if (e->cache_set >= 0 && e->cache_group == PMS_IA64_GROUP_NONE)
        pms_msg_add(msgs, "event %s: cache_set %d without a cache_group", e->name, e->cache_set);
    if (e->cache_group != PMS_IA64_GROUP_NONE && e->cache_set < 0)
        pms_msg_add(msgs, "event %s: cache_group %s without a cache_set", e->name,
                    pms_ia64_cache_group_name(e->cache_group));
    if (e->ear_mode != PMS_IA64_EAR_MODE_NONE && e->ear == PMS_IA64_EAR_NONE)
        pms_msg_add(msgs, "event %s: ear_mode %s without an ear kind (iear or dear)", e->name,
                    pms_ia64_ear_mode_name(e->ear_mode));
    if (e->ear != PMS_IA64_EAR_NONE && e->ear_mode == PMS_IA64_EAR_MODE_NONE)
        pms_msg_add(msgs, "event %s: ear %s without an ear_mode (cache, tlb or alat)", e->name,
                    pms_ia64_ear_name(e->ear));
    if (e->ear == PMS_IA64_EAR_I && e->ear_mode == PMS_IA64_EAR_MODE_ALAT)
        pms_msg_add(msgs, "event %s: the instruction EAR has no alat mode", e->name);
    if (e->ear != PMS_IA64_EAR_NONE && e->etb)
        pms_msg_add(msgs, "event %s: both an EAR event and an ETB event", e->name);
    /* a prefetch or dual event's pair is a code-range fact: it needs iarr */
    if ((e->code_range == PMS_IA64_CODE_RANGE_PREFETCH || e->code_range == PMS_IA64_CODE_RANGE_DUAL) &&
        !(e->qualifiers & PMS_IA64_QUAL_IARR))
        pms_msg_add(msgs, "event %s: code_range = %s without the iarr qualifier", e->name,
                    e->code_range == PMS_IA64_CODE_RANGE_DUAL ? "dual" : "prefetch");
    if (e->n_umasks)
        pms_msg_add(msgs, "event %s: Itanium events carry their one unit mask in base_umask, not umask.* keys",
                    e->name);

    /* Where the unit mask goes: the EAR configuration register's umask field
     * (named by extra) for EAR events, the counting PMC's otherwise. */
    const PmsField *uf = NULL;
    const char *where = NULL;
    if (e->ear != PMS_IA64_EAR_NONE) {
        const PmsRegister *x = e->extra_reg ? pms_model_reg_by_name(m, e->extra_reg) : NULL;
        if (!x)
            pms_msg_add(msgs, "event %s: an EAR event needs extra = the EAR configuration register (%s)", e->name,
                        e->extra_reg ? "no such register" : "missing");
        else if (x->kind != PMS_REG_IA64_PMC || !(uf = pms_layout_field(x->layout, "umask")))
            pms_msg_add(msgs, "event %s: extra register %s is not an ia64_pmc with a umask field", e->name, x->name);
        where = e->extra_reg;
    } else {
        if (e->extra_reg)
            pms_msg_add(msgs, "event %s: extra %s on an event that is not an EAR event", e->name, e->extra_reg);
        uf = counter_field(m, "umask");
        where = "the counting PMC";
    }
    if (uf && uf->width < 32 && e->base_umask >> uf->width)
        pms_msg_add(msgs, "event %s: umask 0x%x does not fit the %u-bit umask field of %s", e->name, e->base_umask,
                    uf->width, where);

    /* MESI qualifiers: modifiers on the counting PMC's mesi_* fields. */
    for (guint j = 0; j < m->n_mods && j < 32; j++)
        if (!e->mesi && (e->modifiers & (1u << j)) && g_str_has_prefix(m->mods[j].field, "mesi_"))
            pms_msg_add(msgs, "event %s takes modifier %s (a MESI qualifier) but mesi is not true", e->name,
                        m->mods[j].name);
}
