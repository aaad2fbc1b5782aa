/* pmusim — the two engines: advance the PMU instance by a run of identical
 * cycles.
 *
 * Both engines first resolve the run's inputs into occurrences per counter
 * per thread (signal selection by event code + unit mask, offcore matching
 * against OFFCORE_RSP_i, load latency against PEBS_LD_LAT), then count with the
 * pure pms_sim_pipe().  The reference engine calls it once per counter per
 * cycle.  The fast engine calls it twice per counter per segment (the run's
 * first cycle may differ from the rest only through the edge latch) and jumps
 * to the exact cycle of the next PMI-raising overflow, where the freeze may
 * change what counts afterwards; without a PMI a whole run is one segment.
 *
 * Not modelled (docs/semantics.md §8): the sibling thread's own registers
 * (one instance = thread 0; thread 1 only supplies occurrences and CPL);
 * PMI delivery (a PMI is a recorded cycle, optionally `pmi_skid` cycles
 * late; no LVT-PC mask); PEBS arming, assists, records and OvfBuf, and the
 * PEBS_ENABLE LL bits for load latency; LBR contents and LBR_SELECT; BTS;
 * FREEZE_WHILE_SMM; the PC pin; CPUID; NHM errata; the uncore boxes, the
 * Xeon 7500 C-Box/U-Box and Itanium (pms_sim_new rejects their
 * architectures).
 */
#include "sim_internal.h"

#include <string.h>

typedef guint64 Occ[PMS_SIM_MAX_THREADS];

/* ---- inputs -------------------------------------------------------------- */

/* Does signal key `sig` feed an evtsel with event code E and unit mask U?
 * BITS (default): the umask bits of the signal all lie inside U (a signal of
 * umask 0 only under umask 0); EXACT: equal umask.  See semantics.md §10. */
static gboolean selects(const PmsSim *s, guint64 E, guint64 U, guint32 sig)
{
    guint32 code = sig >> 8, um = sig & 0xff;
    if (code != E)
        return FALSE;
    if (um == U)
        return TRUE;
    if (E <= 0xff && s->exact_code[E])
        return FALSE;
    return um != 0 && (um & ~U) == 0;
}

static gboolean oc_match(const PmsSim *s, guint64 rsp, const PmsSimOffcore *t)
{
    if (!s->offcore_glm) {
        /* semantics.md §4.2: a request bit and a response bit must both match. */
        return !t->inflight && (rsp & s->oc_req_bits & t->req) && (rsp & s->oc_resp_bits & t->resp);
    }
    /* semantics.md §4.3: ANY_REQUEST matches every request; OUTSTANDING counts
     * in-flight occupancy; ANY_RESPONSE every response; else supplier/snoop
     * bits OR-ed (A19). */
    gboolean req_ok = (rsp & s->oc_req_bits & t->req) || (rsp & s->oc_any_req);
    if (!req_ok)
        return FALSE;
    if (rsp & s->oc_outstanding)
        return t->inflight;
    if (t->inflight)
        return FALSE;
    if (rsp & s->oc_any_resp)
        return TRUE;
    return (rsp & t->resp & s->oc_resp_bits & ~s->oc_any_resp) != 0;
}

static void resolve_inputs(const PmsSim *s, const PmsSimRun *run, Occ *gp, Occ *fx)
{
    memset(gp, 0, sizeof(Occ) * PMS_SIM_MAX_GP);
    memset(fx, 0, sizeof(Occ) * PMS_SIM_MAX_FIXED);
    guint64 thr = sim_fget(s->ldlat_thr, *s->ld_lat);
    for (guint i = 0; i < s->n_gp; i++) {
        guint64 v = *s->evtsel[i];
        guint64 E = sim_fget(s->ev.event, v), U = sim_fget(s->ev.umask, v);
        for (guint k = 0; k < run->n_counts; k++)
            if (selects(s, E, U, run->counts[k].signal))
                gp[i][run->counts[k].thread] += run->counts[k].count;
        for (guint r = 0; r < PMS_SIM_MAX_OFFCORE; r++) {
            if (!s->oc_sig[r] || !selects(s, E, U, s->oc_sig[r]))
                continue;
            for (guint k = 0; k < run->n_offcore; k++)
                if (oc_match(s, *s->offcore[r], &run->offcore[k]))
                    gp[i][run->offcore[k].thread] += run->offcore[k].count;
        }
        if (selects(s, E, U, s->ldlat_sig))
            for (guint k = 0; k < run->n_loads; k++)
                if (run->loads[k].latency > thr) /* SDM 18-39: strictly greater */
                    gp[i][run->loads[k].thread] += run->loads[k].count;
    }
    for (guint i = 0; i < s->n_fixed; i++)
        for (guint k = 0; k < run->n_counts; k++)
            for (guint j = 0; j < G_N_ELEMENTS(s->fixed_sig[i]) && s->fixed_sig[i][j]; j++)
                if (run->counts[k].signal == s->fixed_sig[i][j])
                    fx[i][run->counts[k].thread] += run->counts[k].count;
}

static gboolean validate(const PmsSim *s, const PmsSimRun *run, GError **error)
{
    const char *what = NULL;
    guint bad = 0;
    if (run->cycles == 0)
        what = "run of 0 cycles";
    else if (run->cycles > G_MAXINT64 || s->cycle > G_MAXINT64 - run->cycles)
        what = "cycle count beyond 2^63";
    for (guint t = 0; !what && t < s->n_threads; t++)
        if (run->cpl[t] > 3)
            what = "CPL above 3", bad = t;
    for (guint k = 0; !what && k < run->n_counts; k++) {
        if (run->counts[k].thread >= s->n_threads)
            what = "occurrences for a thread the PMU does not have", bad = run->counts[k].thread;
        else if (run->counts[k].count > G_MAXUINT32)
            what = "occurrence count of 2^32 or more per cycle", bad = run->counts[k].thread;
    }
    for (guint k = 0; !what && k < run->n_offcore; k++)
        if (run->offcore[k].thread >= s->n_threads || run->offcore[k].count > G_MAXUINT32)
            what = "offcore transaction with a bad thread or count", bad = run->offcore[k].thread;
    for (guint k = 0; !what && k < run->n_loads; k++)
        if (run->loads[k].thread >= s->n_threads || run->loads[k].count > G_MAXUINT32)
            what = "load with a bad thread or count", bad = run->loads[k].thread;
    if (!what)
        return TRUE;
    g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS, "cycle %" G_GUINT64_FORMAT ": %s (thread %u; %s has %u)",
                s->cycle, what, bad, s->model->name, s->n_threads);
    return FALSE;
}

/* ---- reference engine ----------------------------------------------------- */

typedef struct {
    guint64 *ctr;
    guint64 mask, status_bit;
    gboolean fixed;
    guint index;
    PmsPipeCfg cfg;
    const guint64 *n;
    gboolean *latch;   /* GP only; NULL for fixed counters (no edge detector) */
} Unit;

static guint units(PmsSim *s, Occ *gp, Occ *fx, Unit *u)
{
    if (!s->cfg_valid) {
        for (guint i = 0; i < s->n_gp; i++)
            sim_gp_cfg(s, i, &s->gp_cfg[i]);
        for (guint i = 0; i < s->n_fixed; i++)
            sim_fixed_cfg(s, i, &s->fixed_cfg[i]);
        s->cfg_valid = TRUE;
    }
    guint k = 0;
    for (guint i = 0; i < s->n_gp; i++, k++)
        u[k] = (Unit){ s->pmc[i], s->gp_mask, sim_status_bit_gp(s, i), FALSE, i, s->gp_cfg[i], gp[i], &s->latch[i] };
    for (guint i = 0; i < s->n_fixed; i++, k++)
        u[k] = (Unit){ s->fixed_ctr[i], s->fixed_mask, sim_status_bit_fixed(s, i), TRUE, i, s->fixed_cfg[i], fx[i], NULL };
    return k;
}

static gboolean unit_enabled(const PmsSim *s, const Unit *u)
{
    return u->fixed ? sim_fixed_enabled(s, u->index) : sim_gp_enabled(s, u->index);
}

static gboolean unit_pmi(const PmsSim *s, const Unit *u)
{
    return u->fixed ? sim_fixed_pmi(s, u->index) : sim_gp_int(s, u->index);
}

/* The PMI is recorded `pmi_skid` cycles after the overflow; the status bit
 * and the freeze take effect in the overflow cycle itself (A8, LKML-frz). */
static void raise_pmi(PmsSim *s, guint64 cycle)
{
    guint64 at = cycle + s->pmi_skid;
    g_array_append_val(s->pmis, at);
    sim_freeze(s);
}

static void run_reference(PmsSim *s, const PmsSimRun *run, Unit *u, guint nu)
{
    PmsPipeOut out[PMS_SIM_MAX_GP + PMS_SIM_MAX_FIXED];
    gboolean en[PMS_SIM_MAX_GP + PMS_SIM_MAX_FIXED], ovf[PMS_SIM_MAX_GP + PMS_SIM_MAX_FIXED];
    for (guint64 c = 0; c < run->cycles; c++) {
        gboolean pmi = FALSE;
        for (guint k = 0; k < nu; k++) {
            en[k] = unit_enabled(s, &u[k]);
            ovf[k] = FALSE;
            memset(&out[k], 0, sizeof out[k]);
            if (!en[k])
                continue; /* A4: the latch changes only on enabled cycles */
            out[k] = pms_sim_pipe(&u[k].cfg, u[k].n, run->cpl, u[k].latch && *u[k].latch);
            if (u[k].latch)
                *u[k].latch = out[k].latch;
            guint64 sum = *u[k].ctr + out[k].inc;
            /* SDM 18-4 / §3.5: overflow is the carry out of the top bit. */
            if (sum > u[k].mask) {
                ovf[k] = TRUE;
                *s->global_status |= u[k].status_bit; /* always, INT or not */
                pmi |= unit_pmi(s, &u[k]);
            }
            *u[k].ctr = sum & u[k].mask;
        }
        /* One PMI however many counters overflowed (SDM 18-39); A8: freeze now. */
        if (pmi)
            raise_pmi(s, s->cycle);
        if (s->trace) {
            for (guint k = 0; k < nu; k++) {
                PmsSimTrace t = { s->cycle, u[k].fixed, u[k].index, en[k], out[k].n, out[k].cond,
                                  out[k].edge, out[k].inc, *u[k].ctr, ovf[k], *s->global_status, pmi };
                s->trace(&t, s->trace_data);
            }
        }
        s->cycle++;
    }
}

/* ---- fast engine ----------------------------------------------------------- */

/* First cycle k (1-based) in which ctr + f + (k-1)*r carries out of the mask;
 * G_MAXUINT64 when never. */
static guint64 overflow_cycle(guint64 ctr, guint64 mask, guint64 f, guint64 r)
{
    guint64 need = mask - ctr + 1;
    if (f >= need)
        return 1;
    if (r == 0)
        return G_MAXUINT64;
    guint64 rest = need - f;
    return 1 + rest / r + (rest % r ? 1 : 0);
}

static void run_fast(PmsSim *s, const PmsSimRun *run, Unit *u, guint nu)
{
    gboolean first[PMS_SIM_MAX_GP + PMS_SIM_MAX_FIXED];
    guint64 f[PMS_SIM_MAX_GP + PMS_SIM_MAX_FIXED], r[PMS_SIM_MAX_GP + PMS_SIM_MAX_FIXED];
    guint64 kc[PMS_SIM_MAX_GP + PMS_SIM_MAX_FIXED];
    gboolean en[PMS_SIM_MAX_GP + PMS_SIM_MAX_FIXED], pmi_en[PMS_SIM_MAX_GP + PMS_SIM_MAX_FIXED];
    gboolean latch_after[PMS_SIM_MAX_GP + PMS_SIM_MAX_FIXED];
    for (guint k = 0; k < nu; k++)
        first[k] = TRUE;
    guint64 rem = run->cycles;
    while (rem > 0) {
        guint64 K = rem;
        gboolean any_en = FALSE;
        for (guint k = 0; k < nu; k++) {
            en[k] = unit_enabled(s, &u[k]);
            if (!en[k])
                continue;
            any_en = TRUE;
            PmsPipeOut o1 = pms_sim_pipe(&u[k].cfg, u[k].n, run->cpl, u[k].latch && *u[k].latch);
            PmsPipeOut o2 = pms_sim_pipe(&u[k].cfg, u[k].n, run->cpl, o1.latch);
            /* The steady state: the latch equals the (constant) condition. */
            f[k] = first[k] ? o1.inc : o2.inc;
            r[k] = o2.inc;
            latch_after[k] = o2.latch;
            kc[k] = overflow_cycle(*u[k].ctr, u[k].mask, f[k], r[k]);
            pmi_en[k] = unit_pmi(s, &u[k]);
            if (pmi_en[k] && kc[k] < K)
                K = kc[k];
        }
        if (!any_en) {
            s->cycle += rem;
            return;
        }
        gboolean pmi = FALSE;
        for (guint k = 0; k < nu; k++) {
            if (!en[k])
                continue;
            if (kc[k] <= K) {
                *s->global_status |= u[k].status_bit;
                pmi |= kc[k] == K && pmi_en[k];
            }
            /* mod 2^64 arithmetic is exact mod 2^W since 2^W divides 2^64 */
            *u[k].ctr = (*u[k].ctr + f[k] + (K - 1) * r[k]) & u[k].mask;
            if (u[k].latch)
                *u[k].latch = latch_after[k];
            first[k] = FALSE;
        }
        s->cycle += K;
        rem -= K;
        if (pmi)
            raise_pmi(s, s->cycle - 1);
    }
}

gboolean pms_sim_run(PmsSim *s, const PmsSimRun *run, GError **error)
{
    if (!validate(s, run, error))
        return FALSE;
    Occ gp[PMS_SIM_MAX_GP], fx[PMS_SIM_MAX_FIXED];
    Unit u[PMS_SIM_MAX_GP + PMS_SIM_MAX_FIXED];
    resolve_inputs(s, run, gp, fx);
    guint nu = units(s, gp, fx, u);
    if (s->engine == PMS_SIM_REFERENCE || s->trace)
        run_reference(s, run, u, nu);
    else
        run_fast(s, run, u, nu);
    return TRUE;
}
