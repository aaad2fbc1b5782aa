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

#include <string.h>


/* The kinds of which an x86 family's unit instance has one register, of
 * index 0: the devices and the program step read no other index. */
static gboolean single_kind(PmsRegKind k)
{
    switch (k) {
    case PMS_REG_FIXED_CTRL:
    case PMS_REG_GLOBAL_CTRL:
    case PMS_REG_GLOBAL_STATUS:
    case PMS_REG_GLOBAL_OVF_CTRL:
    case PMS_REG_GLOBAL_STATUS_RESET:
    case PMS_REG_GLOBAL_STATUS_SET:
    case PMS_REG_GLOBAL_INUSE:
    case PMS_REG_PEBS_ENABLE:
    case PMS_REG_PEBS_LD_LAT:
    case PMS_REG_LBR_SELECT:
    case PMS_REG_DEBUGCTL:
    case PMS_REG_PERF_CAPABILITIES:
    case PMS_REG_LBR_TOS:
    case PMS_REG_BOX_CTRL:
    case PMS_REG_BOX_STATUS:
    case PMS_REG_BOX_OVF_CTRL:
    case PMS_REG_MATCH:
        return TRUE;
    default:
        return FALSE;
    }
}

void pms_x86_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs)
{
    if (m->counter_base)
        pms_msg_add(msgs, "counter_base %u on a non-ia64 model (its counters are numbered from 0)", m->counter_base);
    /* a register no one would read: GLOBAL_CTRL of index 8 left the model
     * without one, silently counting as perfmon v1 (issue 20) */
    for (guint i = 0; i < m->n_regs; i++) {
        const PmsRegister *r = &m->regs[i];
        if (r->index && single_kind(r->kind))
            pms_msg_add(msgs,
                        "register %s (line %u): index %u, but a unit has one register of kind %s, index 0 (the "
                        "simulator and the program step read no other)",
                        r->name, r->source_line, r->index, pms_reg_kind_name(r->kind));
    }
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

/* The boxes the Xeon 7500 uncore device holds (sim/dev_nhmex.c, docs/
 * semantics.md section 10): C-Boxes 0..7 (S-Box 0 summarises 0-3, S-Box 1
 * 4-7), the two S-Box summaries and the one U-Box.  A box outside these
 * would be missing from the device, or index past its arrays: the loader
 * refuses it (issue 20). */
enum { NHMEX_CBOXES = 8, NHMEX_SBOXES = 2, NHMEX_UBOXES = 1 };

/* How many boxes of a unit the device holds, and their name; G_MAXUINT: a
 * unit it does not read (no limit). */
static guint nhmex_boxes(const char *unit, const char **name, const char **names)
{
    static const struct {
        const char *unit, *name, *names;
        guint n;
    } units[] = { { "cbox", "C-Box", "C-Boxes 0..7", NHMEX_CBOXES },
                  { "sbox", "S-Box", "S-Boxes 0 and 1", NHMEX_SBOXES },
                  { "ubox", "U-Box", "one U-Box, 0", NHMEX_UBOXES } };
    for (guint i = 0; unit && i < G_N_ELEMENTS(units); i++)
        if (strcmp(unit, units[i].unit) == 0) {
            *name = units[i].name;
            *names = units[i].names;
            return units[i].n;
        }
    return G_MAXUINT;
}

static void nhmex_boxes_check(const PmsModel *m, GPtrArray *msgs)
{
    const char *name = NULL, *names = NULL;
    guint max = nhmex_boxes(m->unit, &name, &names);
    for (guint k = 0; k < MAX(m->n_instances, 1); k++) {
        guint inst = m->n_instances ? m->instances[k] : m->instance;
        if (inst >= max)
            pms_msg_add(msgs, "%s names %s %u: the Xeon 7500 uncore has %s, which the simulator's device holds",
                        m->n_instances ? "instances" : "instance", name, inst, names);
    }
    for (guint i = 0; i < m->n_regs; i++) {
        const PmsRegister *r = &m->regs[i];
        if (r->instance >= nhmex_boxes(r->unit, &name, &names))
            pms_msg_add(msgs,
                        "register %s (line %u) belongs to %s %u: the Xeon 7500 uncore has %s, which the "
                        "simulator's device holds",
                        r->name, r->source_line, name, r->instance, names);
    }
}

void pms_nhmex_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs)
{
    nhmex_boxes_check(m, msgs);
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
