/* pmusim — PEBS in the simulator: the DS save area's PEBS fields, the record
 * formats and the buffer (include/pmusim/pebs.h).  The x86 core device
 * decides when an assist runs (dev_x86_core.c: arming at the wrap, the assist
 * on the next counted event); this file writes the record and moves the index.
 *
 * Record format 1 (NHM/WSM, PERF_CAPABILITIES.PEBS_REC_FMT = 1): RFLAGS, RIP,
 * RAX..R15, IA32_PERF_GLOBAL_STATUS, data linear address, data source
 * encoding, latency; 64 bits each, 0xB0 bytes (SDM Vol. 3B, the Core i7 PEBS
 * record, as issue 8 cites it).  Other formats (GLM's) are not modelled: the
 * reference set does not describe them. */
#include "pebs_internal.h"

#include <string.h>

static const char *const fmt1_fields[] = {
    "rflags", "rip", "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp",
    "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
    "status", "dla", "dse", "lat", NULL,
};
G_STATIC_ASSERT(G_N_ELEMENTS(fmt1_fields) - 1 <= PMS_PEBS_MAX_FIELDS);

const char *pms_pebs_field_name(guint format, guint i)
{
    if (format == 1 && i < G_N_ELEMENTS(fmt1_fields) - 1)
        return fmt1_fields[i];
    return NULL;
}

guint pms_pebs_record_size(guint format)
{
    return format == 1 ? (guint)(G_N_ELEMENTS(fmt1_fields) - 1) * 8 : 0;
}

SimPebs *sim_pebs_new(const PmsModel *m)
{
    SimPebs *p = g_new0(SimPebs, 1);
    const PmsRegister *cap = pms_model_reg_by_kind(m, PMS_REG_PERF_CAPABILITIES, 0);
    const PmsField *f = cap && cap->layout ? pms_layout_field(cap->layout, "pebs_rec_fmt") : NULL;
    p->format = f ? (guint)pms_field_get(f, cap->reset) : 0;
    p->size = pms_model_reg_by_kind(m, PMS_REG_PEBS_ENABLE, 0) ? pms_pebs_record_size(p->format) : 0;
    p->records = g_array_new(FALSE, TRUE, sizeof(PmsPebsRecord));
    return p;
}

void sim_pebs_free(SimPebs *p)
{
    if (!p)
        return;
    g_array_unref(p->records);
    g_free(p);
}

void sim_pebs_reset(SimPebs *p)
{
    memset(&p->ds, 0, sizeof p->ds);
    memset(p->regs, 0, sizeof p->regs);
    memset(p->armed, 0, sizeof p->armed);
    g_array_set_size(p->records, 0);
    p->total = 0;
}

gboolean sim_pebs_assist(SimPebs *p, guint64 cycle, guint counter, const SimPebsSample *smp)
{
    /* Choice (docs/semantics.md §8a): a record that would pass the
     * absolute maximum is not written; the assist's other effects stay. */
    if (p->ds.index >= p->ds.max || p->ds.max - p->ds.index < p->size)
        return FALSE;
    {
        PmsPebsRecord r = { cycle, counter, p->ds.index, p->format, 0, { 0 } };
        /* format 1: RFLAGS, RIP, RAX..R15, then the PMU's fields */
        r.field[r.n_fields++] = p->regs[0];
        r.field[r.n_fields++] = smp->ip;
        for (guint i = 1; i < 17; i++)
            r.field[r.n_fields++] = p->regs[i];
        r.field[r.n_fields++] = smp->status;
        r.field[r.n_fields++] = smp->dla;
        r.field[r.n_fields++] = smp->dse;
        r.field[r.n_fields++] = smp->lat;
        if (p->records->len < PMS_PEBS_RECORDS_LISTED)
            g_array_append_val(p->records, r);
        p->total++;
        p->ds.index += p->size;
    }
    /* SDM 18-19 p.655 (semantics.md §5.2): OvfBuf when the index reaches the
     * interrupt threshold (0: no interrupt) */
    return p->ds.threshold != 0 && p->ds.index >= p->ds.threshold;
}

/* ---- public API ---- */

gboolean pms_sim_set_pebs_ds(PmsSim *sim, const PmsPebsDs *ds, GError **error)
{
    SimPebs *p = sim->pebs;
    if (!p || !p->size) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: no PEBS records modelled (%s; record format 1, NHM/WSM, only)", sim->model->name,
                    !p || !pms_model_reg_by_kind(sim->model, PMS_REG_PEBS_ENABLE, 0) ? "no IA32_PEBS_ENABLE"
                                                                                    : "PEBS_REC_FMT is not 1");
        return FALSE;
    }
    const char *bad = NULL;
    if (ds->index < ds->base)
        bad = "the index is below the buffer base";
    else if (ds->max < ds->base)
        bad = "the absolute maximum is below the buffer base";
    else if (ds->threshold && (ds->threshold < ds->base || ds->threshold > ds->max))
        bad = "the interrupt threshold lies outside base..maximum";
    if (bad) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS, "DS area: %s (base 0x%" G_GINT64_MODIFIER
                    "x, index 0x%" G_GINT64_MODIFIER "x, maximum 0x%" G_GINT64_MODIFIER "x, threshold 0x%"
                    G_GINT64_MODIFIER "x)", bad, ds->base, ds->index, ds->max, ds->threshold);
        return FALSE;
    }
    p->ds = *ds;
    return TRUE;
}

void pms_sim_get_pebs_ds(const PmsSim *sim, PmsPebsDs *ds)
{
    if (sim->pebs)
        *ds = sim->pebs->ds;
    else
        memset(ds, 0, sizeof *ds);
}

void pms_sim_set_pebs_regs(PmsSim *sim, const guint64 regs[17])
{
    if (sim->pebs)
        memcpy(sim->pebs->regs, regs, sizeof sim->pebs->regs);
}

void pms_sim_get_pebs_regs(const PmsSim *sim, guint64 regs[17])
{
    if (sim->pebs)
        memcpy(regs, sim->pebs->regs, sizeof sim->pebs->regs);
    else
        memset(regs, 0, 17 * sizeof(guint64));
}

void pms_sim_set_pebs_source(PmsSim *sim, gboolean valid, guint64 dse)
{
    if (sim->pebs) {
        sim->pebs->dse_valid = valid;
        sim->pebs->dse = valid ? dse : 0;
    }
}

const PmsPebsRecord *pms_sim_pebs_records(const PmsSim *sim, guint *n, guint64 *total)
{
    SimPebs *p = sim->pebs;
    *n = p ? p->records->len : 0;
    if (total)
        *total = p ? p->total : 0;
    return p ? (const PmsPebsRecord *)(void *)p->records->data : NULL;
}
