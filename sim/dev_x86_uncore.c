/* pmusim — the Nehalem/Westmere uncore PMU device (SDM Vol. 3B 18.8.2,
 * docs/semantics.md "Nehalem/Westmere uncore"): eight general counters
 * MSR_UNCORE_PMC0..7 with MSR_UNCORE_PERFEVTSEL0..7, the fixed counter
 * MSR_UNCORE_FIXED_CTR0 with its control, and the uncore's own
 * MSR_UNCORE_PERF_GLOBAL_CTRL / STATUS / OVF_CTRL.  One simulated cycle is one
 * uncore clock (A14).
 *
 *   counting: a general counter counts when its EN and GLOBAL_CTRL.EN_PCk
 *     are set; the fixed counter adds 1 every enabled cycle (it counts
 *     U-clocks) when its EN and EN_FC0 are set.  No privilege filter and no
 *     any-thread: the pipeline is the core's threshold (cmask, INV) then
 *     edge, with the CPL gate open.
 *   overflow: the carry out of bit 47 sets OVF_PCk / OVF_FC0; an overflow of
 *     a counter with its PMI bit set also sets OVF_PMI, and with PMI_FRZ
 *     clears every EN_PCk and EN_FC0 in the same cycle (semantics.md 6.2).
 *     CHG is set whenever another status bit goes from 0 to 1 (A21).  The PMI
 *     is recorded when at least one EN_PMI_COREn routes it (A15).
 *   OVF_CTRL: write 1 to clear the status bit; reads 0 (A22).
 *   counters: full-width writes; bits above bit 47 are a #GP, as any
 *     reserved bit of any register (A10).
 *
 * Not modelled: the queue-occupancy accumulators behind the occupancy
 * events (the stimulus gives an occupancy event's per-cycle value directly;
 * OCC_CTR_RST is accepted and reads 0 but resets nothing); the
 * ADDR_OPCODE_MATCH filter (stored, not applied); PMI delivery to the cores
 * (a PMI is a recorded cycle; the cores' DEBUGCTL.UNCORE_PMI_EN and their
 * GLOBAL_STATUS bit 61 belong to the core devices); the separate clock
 * domain's ratio to the core clock.
 */
#include "sim_internal.h"

#include <string.h>

enum { UNC_MAX_GP = 8 };

typedef struct {
    PmsSim *sim;
    guint n_gp, n_fixed;
    guint64 gp_mask, fixed_mask;
    guint64 *evtsel[UNC_MAX_GP], *pmc[UNC_MAX_GP];
    guint64 *fixed_ctr, *fixed_ctrl, *global_ctrl, *global_status;
    SimField ev_event, ev_umask, ev_occ, ev_edge, ev_int, ev_en, ev_inv, ev_cmask;
    SimField fc_en, fc_pmi;
    SimField gc_pmc[UNC_MAX_GP], gc_fixed, gc_pmi_core, gc_pmi_frz;
    SimField st_pmc[UNC_MAX_GP], st_fixed, st_ovf_pmi, st_chg;
    gboolean exact_code[256];
    gboolean latch[UNC_MAX_GP];
    PmsPipeCfg cfg[UNC_MAX_GP];
    gboolean cfg_valid;
} X86Uncore;

static gboolean resolve_fields(X86Uncore *s, const PmsModel *m, GError **error)
{
    const PmsRegister *es = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    const PmsRegister *fc = pms_model_reg_by_kind(m, PMS_REG_FIXED_CTRL, 0);
    const PmsRegister *gc = pms_model_reg_by_kind(m, PMS_REG_GLOBAL_CTRL, 0);
    const PmsRegister *gs = pms_model_reg_by_kind(m, PMS_REG_GLOBAL_STATUS, 0);
#define F(reg, var, name)                                                                                              \
    do {                                                                                                               \
        static const char *const nm_[] = { name, NULL };                                                               \
        var = sim_resolve(reg, nm_, 0, 0);                                                                             \
        if (!sim_require(reg, var, name, error))                                                                       \
            return FALSE;                                                                                              \
    } while (0)
    /* SDM Fig 18-28 (PERFEVTSEL), 18-29 (fixed control), 18-25/26 (global),
     * by name only */
    F(es, s->ev_event, "event");
    F(es, s->ev_umask, "umask");
    F(es, s->ev_occ, "occ_ctr_rst");
    F(es, s->ev_edge, "edge");
    F(es, s->ev_int, "int");
    F(es, s->ev_en, "en");
    F(es, s->ev_inv, "inv");
    F(es, s->ev_cmask, "cmask");
    F(fc, s->fc_en, "en");
    F(fc, s->fc_pmi, "pmi");
    F(gc, s->gc_pmi_core, "pmi_core");
    F(gc, s->gc_pmi_frz, "pmi_frz");
    F(gs, s->st_ovf_pmi, "ovf_pmi");
    F(gs, s->st_chg, "chg");
#undef F
    static const char *const n_pmc[] = { "pmc%u", NULL }, *const n_fix[] = { "fixed%u", NULL };
    for (guint i = 0; i < s->n_gp; i++) {
        s->gc_pmc[i] = sim_resolve(gc, n_pmc, i, 0);
        s->st_pmc[i] = sim_resolve(gs, n_pmc, i, 0);
        g_autofree char *w = g_strdup_printf("pmc%u", i);
        if (!sim_require(gc, s->gc_pmc[i], w, error) || !sim_require(gs, s->st_pmc[i], w, error))
            return FALSE;
    }
    s->gc_fixed = sim_resolve(gc, n_fix, 0, 0);
    s->st_fixed = sim_resolve(gs, n_fix, 0, 0);
    return !s->n_fixed ||
        (sim_require(gc, s->gc_fixed, "fixed0", error) && sim_require(gs, s->st_fixed, "fixed0", error));
}

static gboolean unc_init(PmsSim *sim, GError **error)
{
    const PmsModel *m = sim->model;
    if (m->n_gp > UNC_MAX_GP || m->n_fixed > 1 || m->gp_width < 1 || m->gp_width > 63 ||
        (m->n_fixed && (m->fixed_width < 1 || m->fixed_width > 63)) || m->smt) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: an x86 uncore has at most %d general counters and one fixed counter of widths "
                    "1..63 and no hardware threads (has %u of width %u, %u of width %u%s)",
                    m->name, UNC_MAX_GP, m->n_gp, m->gp_width, m->n_fixed, m->fixed_width, m->smt ? ", smt" : "");
        return FALSE;
    }
    X86Uncore *s = g_new0(X86Uncore, 1);
    sim->dev = s;
    s->sim = sim;
    s->n_gp = m->n_gp;
    s->n_fixed = m->n_fixed;
    s->gp_mask = ((guint64)1 << m->gp_width) - 1;
    s->fixed_mask = m->n_fixed ? ((guint64)1 << m->fixed_width) - 1 : 0;
    for (guint i = 0; i < m->n_regs; i++) {
        const PmsRegister *r = &m->regs[i];
        gboolean gp = r->kind == PMS_REG_EVTSEL || r->kind == PMS_REG_PMC;
        if ((gp && r->index >= m->n_gp) || (r->kind == PMS_REG_FIXED_CTR && r->index >= m->n_fixed) ||
            r->kind == PMS_REG_A_PMC) {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                        "model %s: register %s (%s %u) is not one of the uncore's %u general and %u fixed counters",
                        m->name, r->name, pms_reg_kind_name(r->kind), r->index, m->n_gp, m->n_fixed);
            return FALSE;
        }
    }
    for (guint i = 0; i < s->n_gp; i++) {
        const PmsRegister *es = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, i);
        const PmsRegister *pc = pms_model_reg_by_kind(m, PMS_REG_PMC, i);
        if (!es || !pc) {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "model %s: no %s register for counter %u", m->name,
                        es ? "pmc" : "evtsel", i);
            return FALSE;
        }
        s->evtsel[i] = sim_storage(sim, es);
        s->pmc[i] = sim_storage(sim, pc);
    }
    s->fixed_ctr = sim_storage(sim, pms_model_reg_by_kind(m, PMS_REG_FIXED_CTR, 0));
    s->fixed_ctrl = sim_storage(sim, pms_model_reg_by_kind(m, PMS_REG_FIXED_CTRL, 0));
    s->global_ctrl = sim_storage(sim, pms_model_reg_by_kind(m, PMS_REG_GLOBAL_CTRL, 0));
    s->global_status = sim_storage(sim, pms_model_reg_by_kind(m, PMS_REG_GLOBAL_STATUS, 0));
    sim_exact_codes(m, s->exact_code);
    return resolve_fields(s, m, error);
}

static void unc_finalize(PmsSim *sim)
{
    g_clear_pointer(&sim->dev, g_free);
}

static void unc_reset(PmsSim *sim)
{
    X86Uncore *s = sim->dev;
    /* SDM 18.8.2: GLOBAL_CTRL resets to 0; counters and status cleared */
    for (guint i = 0; i < s->n_gp; i++)
        *s->pmc[i] = 0;
    *s->fixed_ctr = 0;
    *s->global_ctrl = 0;
    *s->global_status = 0;
    memset(s->latch, 0, sizeof s->latch);
    s->cfg_valid = FALSE;
}

/* Status bits go 0 -> 1: CHG follows (A21). */
static void set_status(X86Uncore *s, guint64 bits)
{
    if (bits & ~*s->global_status)
        *s->global_status |= bits | sim_fbit(s->st_chg);
}

static gboolean unc_write(PmsSim *sim, const PmsRegister *r, guint64 value, GError **error)
{
    X86Uncore *s = sim->dev;
    if (r->kind == PMS_REG_GLOBAL_STATUS)
        return sim_gp_error(error, r, value, value, "read-only register:");
    /* A10: any reserved bit set -> #GP, register unchanged */
    if (value & ~r->writable)
        return sim_gp_error(error, r, value, value & ~r->writable, "reserved bits set:");
    guint64 *v = sim_storage(sim, r);
    s->cfg_valid = FALSE;
    switch (r->kind) {
    case PMS_REG_PMC:
    case PMS_REG_FIXED_CTR: {
        guint64 mask = r->kind == PMS_REG_PMC ? s->gp_mask : s->fixed_mask;
        if (value & ~mask)
            return sim_gp_error(error, r, value, value & ~mask, "bits above the counter width:");
        *v = value;
        return TRUE;
    }
    case PMS_REG_EVTSEL:
        /* OCC_CTR_RST is a command: it reads 0 (Fig 18-28).  A4: a write
         * resets the edge latch. */
        *v = sim_fset(s->ev_occ, value, 0);
        if (r->index < UNC_MAX_GP)
            s->latch[r->index] = FALSE;
        return TRUE;
    case PMS_REG_GLOBAL_OVF_CTRL:
        /* Fig 18-27: write 1 to clear; 0 does nothing; reads 0 (A22) */
        *s->global_status &= ~value;
        return TRUE;
    default:
        *v = value;
        return TRUE;
    }
}

static guint64 unc_read(PmsSim *sim, const PmsRegister *r)
{
    X86Uncore *s = sim->dev;
    switch (r->kind) {
    case PMS_REG_PMC:
        return *sim_storage(sim, r) & s->gp_mask;
    case PMS_REG_FIXED_CTR:
        return *sim_storage(sim, r) & s->fixed_mask;
    case PMS_REG_GLOBAL_OVF_CTRL:
        return 0;
    default:
        return *sim_storage(sim, r);
    }
}

static gboolean unc_set_counter(PmsSim *sim, const PmsRegister *r, guint64 value, GError **error)
{
    X86Uncore *s = sim->dev;
    if (r->kind != PMS_REG_PMC && r->kind != PMS_REG_FIXED_CTR)
        return FALSE;
    guint64 mask = r->kind == PMS_REG_PMC ? s->gp_mask : s->fixed_mask;
    if (value & ~mask) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP,
                    "value 0x%" G_GINT64_MODIFIER "x does not fit the %u-bit counter %s", value,
                    (guint)g_bit_nth_msf(mask, -1) + 1, r->name);
        return FALSE;
    }
    *sim_storage(sim, r) = value;
    return TRUE;
}

/* No privilege filter (the CPL gate is open at every level), no AnyThread. */
static void gp_cfg(const X86Uncore *s, guint i, PmsPipeCfg *c)
{
    guint64 v = *s->evtsel[i];
    memset(c, 0, sizeof *c);
    c->usr = c->os = TRUE;
    c->edge = sim_fget(s->ev_edge, v) != 0;
    c->inv = sim_fget(s->ev_inv, v) != 0;
    c->cmask = (guint)sim_fget(s->ev_cmask, v);
    c->n_threads = 1;
}

static guint unc_units(PmsSim *sim, const PmsSimRun *run, SimOcc *occ, SimUnit *u)
{
    X86Uncore *s = sim->dev;
    if (!s->cfg_valid) {
        for (guint i = 0; i < s->n_gp; i++)
            gp_cfg(s, i, &s->cfg[i]);
        s->cfg_valid = TRUE;
    }
    memset(occ, 0, sizeof(SimOcc) * (s->n_gp + s->n_fixed));
    for (guint i = 0; i < s->n_gp; i++) {
        guint64 v = *s->evtsel[i];
        guint64 E = sim_fget(s->ev_event, v), U = sim_fget(s->ev_umask, v);
        for (guint k = 0; k < run->n_counts; k++)
            if (sim_signal_selects(s->exact_code, E, U, run->counts[k].signal))
                occ[i][0] += run->counts[k].count;
        u[i] = (SimUnit){ s->pmc[i], s->gp_mask, s->cfg[i], occ[i], &s->latch[i], FALSE, i, i, 0 };
    }
    if (s->n_fixed) {
        /* the fixed counter counts uncore clocks: one per cycle */
        guint k = s->n_gp;
        occ[k][0] = 1;
        PmsPipeCfg fc = { .usr = TRUE, .os = TRUE, .n_threads = 1 };
        u[k] = (SimUnit){ s->fixed_ctr, s->fixed_mask, fc, occ[k], NULL, TRUE, 0, k, 0 };
    }
    return s->n_gp + s->n_fixed;
}

static gboolean unc_enabled(const PmsSim *sim, const SimUnit *u)
{
    const X86Uncore *s = sim->dev;
    if (u->fixed)
        return sim_fget(s->fc_en, *s->fixed_ctrl) && sim_fget(s->gc_fixed, *s->global_ctrl);
    return sim_fget(s->ev_en, *s->evtsel[u->index]) && sim_fget(s->gc_pmc[u->index], *s->global_ctrl);
}

static guint unc_off_reasons(const PmsSim *sim, const SimUnit *u)
{
    const X86Uncore *s = sim->dev;
    gboolean local = u->fixed ? sim_fget(s->fc_en, *s->fixed_ctrl) != 0 : sim_fget(s->ev_en, *s->evtsel[u->index]) != 0;
    gboolean global = sim_fget(u->fixed ? s->gc_fixed : s->gc_pmc[u->index], *s->global_ctrl) != 0;
    return (local ? 0 : PMS_SIM_OFF_COUNTER) | (global ? 0 : PMS_SIM_OFF_GLOBAL);
}

static gboolean unc_pmi_enabled(const PmsSim *sim, const SimUnit *u)
{
    const X86Uncore *s = sim->dev;
    return u->fixed ? sim_fget(s->fc_pmi, *s->fixed_ctrl) != 0 : sim_fget(s->ev_int, *s->evtsel[u->index]) != 0;
}

static void unc_overflow(PmsSim *sim, const SimUnit *u)
{
    X86Uncore *s = sim->dev;
    set_status(s, sim_fbit(u->fixed ? s->st_fixed : s->st_pmc[u->index]));
}

static gboolean unc_pmi(PmsSim *sim, guint64 cycle)
{
    X86Uncore *s = sim->dev;
    set_status(s, sim_fbit(s->st_ovf_pmi));
    guint64 gc = *s->global_ctrl;
    if (sim_fget(s->gc_pmi_frz, gc)) {
        /* PMI_FRZ: every counter's global enable off until software sets them again */
        guint64 en = sim_fbit(s->gc_fixed);
        for (guint i = 0; i < s->n_gp; i++)
            en |= sim_fbit(s->gc_pmc[i]);
        *s->global_ctrl = gc & ~en;
    }
    return sim_fget(s->gc_pmi_core, gc) != 0;
}

static guint64 unc_status(const PmsSim *sim, const SimUnit *u)
{
    const X86Uncore *s = sim->dev;
    return *s->global_status;
}

static gboolean unc_edge_latch(const PmsSim *sim, guint i)
{
    const X86Uncore *s = sim->dev;
    return i < s->n_gp && s->latch[i];
}

const SimDeviceOps sim_x86_uncore_ops = {
    .name = "x86_uncore",
    .init = unc_init,
    .finalize = unc_finalize,
    .reset = unc_reset,
    .write = unc_write,
    .read = unc_read,
    .set_counter = unc_set_counter,
    .units = unc_units,
    .enabled = unc_enabled,
    .off_reasons = unc_off_reasons,
    .pmi_enabled = unc_pmi_enabled,
    .overflow = unc_overflow,
    .pmi = unc_pmi,
    .status = unc_status,
    .edge_latch = unc_edge_latch,
};
