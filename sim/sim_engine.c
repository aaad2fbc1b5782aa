/* pmusim — the two engines: advance a device by a run of identical cycles.
 *
 * The device resolves the run's inputs into units (a counter, its pipeline
 * configuration and its occurrences per thread); both engines then count
 * with the pure pms_sim_pipe() and ask the device whether a unit counts this
 * cycle, whether its overflow interrupts, and hand it every overflow (status
 * bits) and every PMI (freeze).  The reference engine calls the pipeline once
 * per unit per cycle.  The fast engine calls it once per unit per segment,
 * twice when the edge latch changes in the first cycle (the run's first
 * cycle may differ from the rest only through it), and jumps to the exact cycle of the next PMI-raising overflow, where
 * the device's freeze may change what counts afterwards; without a PMI a
 * whole run is one segment.  What each device does not model is said in its
 * file's header (dev_*.c).
 */
#include "sim_internal.h"
#include "sim_pipe_eval.h"

#include <stdlib.h>
#include <string.h>

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
        else if (run->counts[k].box && !s->model->unit)
            what = "occurrences for another box of a PMU that has none", bad = run->counts[k].thread;
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

typedef SimUnit Unit;

static gboolean unit_enabled(const PmsSim *s, const Unit *u)
{
    return s->ops->enabled(s, u);
}

static gboolean unit_pmi(const PmsSim *s, const Unit *u)
{
    return s->ops->pmi_enabled(s, u);
}

static gboolean unit_ext(const PmsSim *s, const Unit *u)
{
    return s->ops->ext_enabled && s->ops->ext_enabled(s, u);
}

/* An interrupt-enabled counter overflowed in this cycle: the device applies
 * its side effects (status, freeze) in the overflow cycle itself (A8,
 * LKML-frz) and says whether a PMI reaches a processor; the PMI is recorded
 * `pmi_skid` cycles later.  Returns whether one was recorded. */
static gboolean raise_pmi(PmsSim *s, guint64 cycle)
{
    if (!s->ops->pmi(s, cycle))
        return FALSE;
    sim_pmi_record(s, cycle + s->pmi_skid);
    return TRUE;
}

/* A device's own scheduled action (the Xeon 7500 U-Box's delayed freeze):
 * run it when its cycle has come.  Returns the next one's cycle. */
static guint64 device_events(PmsSim *s)
{
    if (!s->ops->next_event)
        return G_MAXUINT64;
    guint64 at;
    while ((at = s->ops->next_event(s)) <= s->cycle)
        s->ops->fire(s);
    return at;
}

/* One trace record of unit u: `cycles` cycles from `cycle`, the stage
 * outputs `pipe` (NULL: not enabled), the counter and status after them. */
static void emit_trace(PmsSim *s, const PmsSimRun *run, const Unit *u, guint64 cycle, guint64 cycles,
                       const PmsPipeOut *pipe, gboolean latch_before, guint64 value, guint64 status, guint64 carries,
                       guint64 pmis, gboolean assist)
{
    PmsSimTrace t = {
        .cycle = cycle + cycles - 1,
        .fixed = u->fixed,
        .index = u->index,
        .enabled = pipe != NULL,
        .n = pipe ? pipe->n : 0,
        .cond = pipe && pipe->cond,
        .edge = pipe && pipe->edge,
        .inc = pipe ? pipe->inc : 0,
        .value = value,
        .overflow = carries != 0,
        .status = status,
        .pmi = pmis != 0,
        .box = u->box,
        .cycles = cycles,
        .n_threads = s->n_threads,
        .cfg = &u->cfg,
        .pipe = pipe,
        .has_latch = u->latch != NULL,
        .latch_before = latch_before,
        .off = pipe || !s->ops->off_reasons ? 0 : s->ops->off_reasons(s, u),
        .mask = u->mask,
        .carries = carries,
        .pmis = pmis,
        .pebs_assist = assist,
    };
    if (s->ops->trace)
        s->ops->trace(s, cycle, &t); /* the device's own fields (the x86 core's LBR) */
    for (guint th = 0; th < PMS_SIM_MAX_THREADS; th++) {
        t.occ[th] = u->n[th];
        t.cpl[th] = run->cpl[th];
    }
    s->trace(&t, s->trace_data);
}

static void run_reference(PmsSim *s, const PmsSimRun *run, Unit *u, guint nu)
{
    PmsPipeOut out[SIM_MAX_UNITS];
    gboolean en[SIM_MAX_UNITS], ovf[SIM_MAX_UNITS], latch_before[SIM_MAX_UNITS], assist[SIM_MAX_UNITS];
    for (guint64 c = 0; c < run->cycles; c++) {
        gboolean pmi = FALSE;
        device_events(s);
        for (guint k = 0; k < nu; k++) {
            en[k] = unit_enabled(s, &u[k]);
            ovf[k] = FALSE;
            assist[k] = FALSE;
            latch_before[k] = u[k].latch && *u[k].latch;
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
                s->ops->overflow(s, &u[k]); /* status: always, INT or not */
                pmi |= unit_pmi(s, &u[k]);
                if (unit_ext(s, &u[k]))
                    sim_ext_record(s, s->cycle);
            }
            *u[k].ctr = sum & u[k].mask;
            /* PEBS (dev_x86_core.c): arming at the wrap, the assist on the next event */
            if (s->ops->after_count) {
                guint a = s->ops->after_count(s, &u[k], out[k].inc, ovf[k], run);
                assist[k] = (a & SIM_AFTER_ASSIST) != 0;
                pmi |= (a & SIM_AFTER_PMI) != 0;
            }
        }
        /* One PMI however many counters overflowed (SDM 18-39); A8: freeze now. */
        if (pmi)
            pmi = raise_pmi(s, s->cycle);
        if (s->trace) {
            for (guint k = 0; k < nu; k++)
                emit_trace(s, run, &u[k], s->cycle, 1, en[k] ? &out[k] : NULL, latch_before[k], *u[k].ctr,
                           s->ops->status(s, &u[k]), ovf[k], pmi, assist[k]);
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

/* The external notifications of a segment of K cycles starting at cycle c0:
 * every carry of every unit with ext[k], in the order the reference engine
 * records them (by cycle, then unit).  Only the first PMS_SIM_EXT_LISTED
 * need their cycle; the rest are counted from the segment's sum, so the work
 * stays bounded however many times a counter wraps. */
typedef struct {
    guint64 cycle;
    guint unit;
} ExtHit;

static gint ext_hit_cmp(gconstpointer a, gconstpointer b)
{
    const ExtHit *x = a, *y = b;
    if (x->cycle != y->cycle)
        return x->cycle < y->cycle ? -1 : 1;
    return x->unit < y->unit ? -1 : x->unit > y->unit;
}

/* A segment's carries of one unit: their number from the sum (exact however
 * many), and the cycles of the first `max` of them, walked from one carry
 * to the next; returns the number of cycles stored in at[]. */
static guint segment_carries(const Unit *u, guint64 ctr0, guint64 f, guint64 r, guint64 c0, guint64 K, guint max,
                             guint64 *at, guint64 *carries)
{
    unsigned __int128 sum = (unsigned __int128)ctr0 + f + (unsigned __int128)(K - 1) * r;
    *carries = (guint64)(sum / ((unsigned __int128)u->mask + 1));
    guint64 v = ctr0, cyc = c0, inc = f;
    guint n = 0;
    for (; n < *carries && n < max; n++) {
        guint64 kc = overflow_cycle(v, u->mask, inc, r);
        cyc += kc;
        at[n] = cyc - 1;
        v = (v + inc + (kc - 1) * r) & u->mask;
        inc = r;
    }
    return n;
}

static void segment_ext(PmsSim *s, const Unit *u, guint nu, const gboolean *ext, const guint64 *ctr0, const guint64 *f,
                        const guint64 *r, guint64 c0, guint64 K)
{
    ExtHit hits[SIM_MAX_UNITS * PMS_SIM_EXT_LISTED];
    guint nh = 0;
    for (guint k = 0; k < nu; k++) {
        if (!ext[k])
            continue;
        guint64 at[PMS_SIM_EXT_LISTED], carries;
        guint n = segment_carries(&u[k], ctr0[k], f[k], r[k], c0, K, PMS_SIM_EXT_LISTED, at, &carries);
        for (guint j = 0; j < n; j++)
            hits[nh++] = (ExtHit){ at[j], k };
        s->ext_total += carries;
    }
    qsort(hits, nh, sizeof hits[0], ext_hit_cmp);
    for (guint i = 0; i < nh && s->n_ext < PMS_SIM_EXT_LISTED; i++)
        s->ext[s->n_ext++] = hits[i].cycle;
}

/* The PMIs of a steady segment's one interrupting unit: one per carry, at
 * the carries' cycles (the first PMS_SIM_PMI_LISTED walked, the rest counted
 * from the sum).  The device's PMI action changes nothing in a steady run,
 * so it runs once, for the last carry, and says whether PMIs reach a
 * processor at all. */
static void segment_pmis(PmsSim *s, const Unit *u, guint64 ctr0, guint64 f, guint64 r, guint64 c0, guint64 K)
{
    guint room = PMS_SIM_PMI_LISTED - MIN(s->pmis->len, PMS_SIM_PMI_LISTED);
    g_autofree guint64 *at = g_new(guint64, MAX(room, 1u));
    guint64 carries;
    guint n = segment_carries(u, ctr0, f, r, c0, K, room, at, &carries);
    if (carries == 0)
        return;
    /* the last carry's cycle: the segment's last cycle minus the cycles
     * since the counter last passed a multiple of 2^W (r = 0: only the
     * first cycle carries) */
    unsigned __int128 sum = (unsigned __int128)ctr0 + f + (unsigned __int128)(K - 1) * r;
    guint64 after = (guint64)(sum % ((unsigned __int128)u->mask + 1));
    guint64 last = r ? c0 + K - 1 - MIN(after / r, K - 1) : c0;
    if (!s->ops->pmi(s, last))
        return;
    for (guint j = 0; j < n; j++)
        sim_pmi_record(s, at[j] + s->pmi_skid);
    s->pmi_total += carries - n;
}

/* The trace of a fast-engine segment of K cycles that ended at s->cycle:
 * per unit its first cycle (o1) and the K - 1 steady ones (o2), with the
 * counter after each part and the carries and PMIs in it.  PMIs: at the
 * segment's last cycle, or (counted, unit pk) one per carry of pk. */
static void trace_segment(PmsSim *s, const PmsSimRun *run, const Unit *u, guint nu, const gboolean *en,
                          const PmsPipeOut *o1, const PmsPipeOut *o2, const gboolean *latch0, const guint64 *status0,
                          const guint64 *ctr0, const guint64 *f, const guint64 *r, const guint64 *kc, guint64 K,
                          guint64 pmis, guint pk)
{
    guint64 c0 = s->cycle - K;
    guint64 pmis_first = K == 1 ? pmis : pk != G_MAXUINT && kc[pk] == 1 && pmis ? 1 : 0;
    for (guint k = 0; k < nu; k++) {
        guint64 st = s->ops->status(s, &u[k]);
        if (!en[k]) {
            emit_trace(s, run, &u[k], c0, K, NULL, FALSE, *u[k].ctr, st, 0, 0, FALSE);
            continue;
        }
        gboolean carry1 = kc[k] == 1;
        guint64 v1 = (ctr0[k] + f[k]) & u[k].mask;
        emit_trace(s, run, &u[k], c0, 1, &o1[k], latch0[k], K == 1 ? *u[k].ctr : v1, K == 1 || carry1 ? st : status0[k],
                   carry1, pmis_first, FALSE);
        if (K == 1)
            continue;
        unsigned __int128 sum = (unsigned __int128)ctr0[k] + f[k] + (unsigned __int128)(K - 1) * r[k];
        guint64 carries = (guint64)(sum / ((unsigned __int128)u[k].mask + 1));
        emit_trace(s, run, &u[k], c0 + 1, K - 1, &o2[k], o1[k].latch, *u[k].ctr, st, carries - carry1,
                   pmis - pmis_first, FALSE);
    }
}

static void run_fast(PmsSim *s, const PmsSimRun *run, Unit *u, guint nu)
{
    gboolean first[SIM_MAX_UNITS];
    guint64 f[SIM_MAX_UNITS], r[SIM_MAX_UNITS];
    guint64 kc[SIM_MAX_UNITS];
    gboolean en[SIM_MAX_UNITS], pmi_en[SIM_MAX_UNITS];
    gboolean latch_after[SIM_MAX_UNITS];
    gboolean ext[SIM_MAX_UNITS];
    guint64 ctr0[SIM_MAX_UNITS];
    /* spans (pms_sim_set_trace_spans): each unit's first-cycle and steady stage outputs */
    PmsPipeOut o1s[SIM_MAX_UNITS], o2s[SIM_MAX_UNITS];
    gboolean latch0[SIM_MAX_UNITS];
    guint64 status0[SIM_MAX_UNITS];
    for (guint k = 0; k < nu; k++)
        first[k] = TRUE;
    /* steady: the last PMI changed no unit's enabled or interrupt state (no
     * freeze), so the following ones change nothing either and one counter's
     * PMIs can be counted from a segment's sum instead of one segment each */
    gboolean steady = FALSE;
    guint64 rem = run->cycles;
    while (rem > 0) {
        guint64 K = rem;
        /* a segment ends where the device acts on its own */
        guint64 next = device_events(s);
        if (next != G_MAXUINT64)
            steady = FALSE; /* its action may change what the PMIs do */
        if (next - s->cycle < K)
            K = next - s->cycle;
        gboolean any_en = FALSE;
        for (guint k = 0; k < nu; k++) {
            en[k] = unit_enabled(s, &u[k]);
            ext[k] = FALSE;
            if (!en[k])
                continue;
            any_en = TRUE;
            gboolean latch = u[k].latch && *u[k].latch;
            PmsPipeOut o1 = sim_pipe_eval(&u[k].cfg, u[k].n, run->cpl, latch);
            /* the pipeline is pure: with the latch it was given back (no edge
             * detector, or the condition as latched) the steady cycles are
             * the first one's */
            PmsPipeOut o2 = o1.latch == latch ? o1 : sim_pipe_eval(&u[k].cfg, u[k].n, run->cpl, o1.latch);
            if (s->trace) { /* only spans show the stage outputs */
                o1s[k] = o1;
                o2s[k] = o2;
            }
            /* The steady state: the latch equals the (constant) condition. */
            f[k] = first[k] ? o1.inc : o2.inc;
            r[k] = o2.inc;
            latch_after[k] = o2.latch;
            kc[k] = overflow_cycle(*u[k].ctr, u[k].mask, f[k], r[k]);
            pmi_en[k] = unit_pmi(s, &u[k]);
            ext[k] = unit_ext(s, &u[k]);
        }
        /* the one interrupting counter of a steady run takes the whole
         * segment; otherwise the segment ends at the first PMI */
        guint n_int = 0, pk = 0;
        for (guint k = 0; k < nu; k++)
            if (en[k] && pmi_en[k])
                n_int++, pk = k;
        gboolean counted = steady && n_int == 1;
        for (guint k = 0; k < nu; k++)
            if (en[k] && pmi_en[k] && kc[k] < K && !counted)
                K = kc[k];
        if (!any_en) {
            if (s->trace)
                for (guint k = 0; k < nu; k++)
                    emit_trace(s, run, &u[k], s->cycle, K, NULL, FALSE, *u[k].ctr, s->ops->status(s, &u[k]), 0, 0,
                               FALSE);
            s->cycle += K;
            rem -= K;
            continue;
        }
        guint64 pmi_total0 = s->pmi_total;
        if (s->trace)
            for (guint k = 0; k < nu; k++) {
                latch0[k] = u[k].latch && *u[k].latch;
                status0[k] = s->ops->status(s, &u[k]);
            }
        gboolean pmi = FALSE;
        for (guint k = 0; k < nu; k++) {
            if (!en[k])
                continue;
            if (kc[k] <= K) {
                s->ops->overflow(s, &u[k]);
                pmi |= kc[k] == K && pmi_en[k] && !counted;
            }
            ctr0[k] = *u[k].ctr;
            /* mod 2^64 arithmetic is exact mod 2^W since 2^W divides 2^64 */
            *u[k].ctr = (*u[k].ctr + f[k] + (K - 1) * r[k]) & u[k].mask;
            if (u[k].latch)
                *u[k].latch = latch_after[k];
            first[k] = FALSE;
        }
        segment_ext(s, u, nu, ext, ctr0, f, r, s->cycle, K);
        if (counted && kc[pk] <= K)
            segment_pmis(s, &u[pk], ctr0[pk], f[pk], r[pk], s->cycle, K);
        s->cycle += K;
        rem -= K;
        if (pmi) {
            gboolean en_before[SIM_MAX_UNITS], int_before[SIM_MAX_UNITS];
            for (guint k = 0; k < nu; k++)
                en_before[k] = unit_enabled(s, &u[k]), int_before[k] = unit_pmi(s, &u[k]);
            raise_pmi(s, s->cycle - 1);
            steady = TRUE;
            for (guint k = 0; k < nu; k++)
                steady &= en_before[k] == unit_enabled(s, &u[k]) && int_before[k] == unit_pmi(s, &u[k]);
        }
        if (s->trace)
            trace_segment(s, run, u, nu, en, o1s, o2s, latch0, status0, ctr0, f, r, kc, K, s->pmi_total - pmi_total0,
                          counted ? pk : G_MAXUINT);
    }
}

gboolean pms_sim_run(PmsSim *s, const PmsSimRun *run, GError **error)
{
    if (!validate(s, run, error))
        return FALSE;
    SimOcc occ[SIM_MAX_UNITS];
    Unit u[SIM_MAX_UNITS];
    guint nu = s->ops->units(s, run, occ, u);
    if (s->engine == PMS_SIM_REFERENCE || (s->trace && !s->trace_spans) || (s->ops->per_cycle && s->ops->per_cycle(s)))
        run_reference(s, run, u, nu);
    else
        run_fast(s, run, u, nu);
    /* A device action due at the cycle after the run (a delayed freeze) takes
     * effect now, at the end of the run's last cycle: a write made between
     * runs comes after it and is not undone by it. */
    device_events(s);
    return TRUE;
}
