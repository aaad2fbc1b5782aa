/* pmusim models — the x86 families' checks (models/families.c: x86_core,
 * x86_uncore, nhmex_cbox): their counters are numbered from 0, each general
 * counter has an event-select register, and an event's counter masks name
 * only counters the model has; and, for the lint, the register fields each
 * family's simulator reads by name (field_need.c).  Itanium's per-event
 * facts are the ia64 family's keys (model_ia64.c): the loader refuses them
 * in an x86 model as unknown keys. */
#include "model.h"
#include "family.h"
#include "model_priv.h"


void pms_x86_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs)
{
    if (m->counter_base)
        pms_msg_add(msgs, "counter_base %u on a non-ia64 model (its counters are numbered from 0)", m->counter_base);
    /* per unit instance the model stands for: each of its PMUs' (a file of
     * several, [pmu] instances), or its own */
    for (guint k = 0; complete && k < MAX(m->n_instances, 1); k++) {
        guint inst = m->n_instances ? m->instances[k] : m->instance;
        g_autofree char *which = m->n_instances ? g_strdup_printf("%s instance %u: ", m->unit, inst) : g_strdup("");
        for (guint i = 0; i < m->n_gp; i++)
            if (!pms_model_reg_in_unit(m, m->unit, inst, PMS_REG_EVTSEL, i))
                pms_msg_add(msgs, "%sgp_counters %u but no event-select register (kind evtsel) of index %u", which,
                            m->n_gp, i);
    }
}

void pms_x86_core_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs)
{
    pms_x86_model_check(m, complete, msgs);
    if (complete)
        pms_x86_core_fields_check(m, msgs);
}

void pms_x86_uncore_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs)
{
    pms_x86_model_check(m, complete, msgs);
    if (complete)
        pms_x86_uncore_fields_check(m, msgs);
}

void pms_nhmex_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs)
{
    pms_x86_model_check(m, complete, msgs);
    if (complete)
        pms_nhmex_fields_check(m, msgs);
}

void pms_x86_event_check(const PmsModel *m, const PmsEvent *e, gboolean complete, GPtrArray *msgs)
{
    if (!complete)
        return;
    guint64 gp = pms_model_counters_mask(m);
    if (e->counters & ~gp)
        pms_msg_add(msgs, "event %s: counters 0x%" G_GINT64_MODIFIER "x names counters beyond the %u generic ones",
                    e->name, e->counters, m->n_gp);
    if (!e->counters && !e->fixed)
        pms_msg_add(msgs, "event %s can use no counter", e->name);
}
