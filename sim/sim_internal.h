/* pmusim — simulator internals shared by sim_regs.c (register layer),
 * sim_engine.c (engines) and sim_bench.c.  Not installed.
 *
 * Adding an architecture (uncore boxes with their own global control, the
 * Xeon 7500 C-Box/U-Box, Itanium PMC/PMD/IBR/DBR): the register layer is
 * already keyed by model register kind (PmsRegKind has BOX_CTRL, BOX_STATUS,
 * MATCH, IA64_*), so a new architecture adds (1) its field resolution and
 * storage binding next to resolve_fields()/bind_storage() behind the arch
 * check in pms_sim_new, (2) the write/read behaviour of its kinds in
 * pms_sim_write/pms_sim_read, and (3) its counting units in units()
 * (sim_engine.c): a unit is counter storage + width mask + status bit +
 * PmsPipeCfg + enable and PMI predicates, so both engines and the
 * differential suite work for it unchanged.  Threshold/invert/edge rules of
 * those boxes map onto PmsPipeCfg (A5, A14, A23). */
#pragma once

#include "sim.h"

/* A register field resolved once from the model's layout by name. */
typedef struct {
    gboolean present;
    guint shift, width;
} SimField;

static inline guint64 sim_fmask(SimField f)
{
    return f.width >= 64 ? ~(guint64)0 : (((guint64)1 << f.width) - 1);
}
static inline guint64 sim_fget(SimField f, guint64 v)
{
    return f.present ? (v >> f.shift) & sim_fmask(f) : 0;
}
static inline guint64 sim_fset(SimField f, guint64 v, guint64 x)
{
    if (!f.present)
        return v;
    guint64 m = sim_fmask(f) << f.shift;
    return (v & ~m) | ((x << f.shift) & m);
}
static inline guint64 sim_fbit(SimField f)
{
    return f.present ? sim_fmask(f) << f.shift : 0;
}

typedef struct {
    SimField event, umask, usr, os, edge, pc, intr, any, en, inv, cmask;
} SimEvtselFields;

typedef struct {
    SimField en, any, pmi;
} SimFixedFields;

/* How a general counter finds its occurrences (resolved per run). */
typedef enum { SIM_SRC_SIGNALS, SIM_SRC_OFFCORE, SIM_SRC_LDLAT } SimSource;

struct PmsSim {
    const PmsModel *model;
    PmsSimEngine engine;
    guint n_gp, n_fixed, n_threads, version;
    guint64 gp_mask, fixed_mask;   /* 2^width - 1 */
    gboolean cpl_gate_pre;         /* A3 option */
    gboolean any_or_clocks;        /* A6 option: OR for clock events */
    gboolean any_or_all;           /* A6 alternative: OR for every event */
    gboolean has_global_ctrl;
    guint64 pmi_skid;              /* option: cycles between overflow and PMI */
    gboolean global_ctrl_reset_gp; /* A25 option */

    /* Register storage: one value per model register (index = model order). */
    guint64 *val;
    GHashTable *by_addr;           /* address -> index + 1 */
    guint64 zero;                  /* backing store for absent registers */

    /* Storage of each architectural register (points into val or at zero). */
    guint64 *evtsel[PMS_SIM_MAX_GP], *pmc[PMS_SIM_MAX_GP];
    guint64 *fixed_ctr[PMS_SIM_MAX_FIXED];
    guint64 *fixed_ctrl, *global_ctrl, *global_status, *debugctl, *ld_lat;
    guint64 *offcore[PMS_SIM_MAX_OFFCORE];

    SimEvtselFields ev;
    SimFixedFields fx[PMS_SIM_MAX_FIXED];
    SimField gc_pmc[PMS_SIM_MAX_GP], gc_fixed[PMS_SIM_MAX_FIXED];
    SimField st_pmc[PMS_SIM_MAX_GP], st_fixed[PMS_SIM_MAX_FIXED], st_ctr_frz, st_lbr_frz;
    SimField dbg_lbr, dbg_frz_lbr, dbg_frz_perf;
    SimField ldlat_thr;

    /* Offcore: request/response bit sets of the model (nhm style) and GLM's
     * special bits; which event code/umask drives which RSP register. */
    gboolean offcore_glm;
    guint64 oc_req_bits, oc_resp_bits, oc_any_req, oc_any_resp, oc_outstanding;
    guint32 oc_sig[PMS_SIM_MAX_OFFCORE];   /* signal key of the event using RSP_i; 0 none */
    guint32 ldlat_sig;                     /* signal key of the load-latency event */
    guint32 fixed_sig[PMS_SIM_MAX_FIXED][4]; /* signals counted by fixed counter i (0 = none) */
    guint32 clock_sig[2];                  /* signals combined with OR under AnyThread */
    gboolean exact_code[256];              /* event code whose umask must match exactly */

    gboolean latch[PMS_SIM_MAX_GP];
    /* Pipeline configurations derived from EVTSELx / FIXED_CTR_CTRL, rebuilt
     * after any register write (the fast engine's per-run cost). */
    PmsPipeCfg gp_cfg[PMS_SIM_MAX_GP], fixed_cfg[PMS_SIM_MAX_FIXED];
    gboolean cfg_valid;
    guint64 cycle;
    GArray *pmis;                  /* guint64 cycles */

    PmsSimTraceFn trace;
    gpointer trace_data;
};

/* sim_regs.c */
guint64 sim_status_bit_gp(const PmsSim *s, guint i);
guint64 sim_status_bit_fixed(const PmsSim *s, guint i);
/* Raise the PMI side effects of an overflow in this cycle (freeze, A8). */
void sim_freeze(PmsSim *s);

static inline gboolean sim_frozen_v4(const PmsSim *s)
{
    return s->version >= 4 && sim_fget(s->st_ctr_frz, *s->global_status);
}

/* SDM 18-7: local enable AND global enable; v4 also AND NOT CTR_Frz (18-11). */
static inline gboolean sim_gp_enabled(const PmsSim *s, guint i)
{
    return sim_fget(s->ev.en, *s->evtsel[i]) && (!s->has_global_ctrl || sim_fget(s->gc_pmc[i], *s->global_ctrl)) &&
           !sim_frozen_v4(s);
}

static inline gboolean sim_fixed_enabled(const PmsSim *s, guint i)
{
    return sim_fget(s->fx[i].en, *s->fixed_ctrl) &&
           (!s->has_global_ctrl || sim_fget(s->gc_fixed[i], *s->global_ctrl)) && !sim_frozen_v4(s);
}

static inline gboolean sim_gp_int(const PmsSim *s, guint i) { return sim_fget(s->ev.intr, *s->evtsel[i]) != 0; }
static inline gboolean sim_fixed_pmi(const PmsSim *s, guint i) { return sim_fget(s->fx[i].pmi, *s->fixed_ctrl) != 0; }
void sim_gp_cfg(const PmsSim *s, guint i, PmsPipeCfg *cfg);
void sim_fixed_cfg(const PmsSim *s, guint i, PmsPipeCfg *cfg);
