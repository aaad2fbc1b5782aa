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
 * `pmi_skid` cycles later, with its cause (the units that raised it, a bit
 * each).  Returns whether one was recorded. */
static gboolean raise_pmi(PmsSim *s, guint64 cycle, guint64 cause, const SimUnit *u, guint nu)
{
    if (!s->ops->pmi(s, cycle))
        return FALSE;
    sim_note_units(s, u, nu);
    sim_pmi_record(s, cycle + s->pmi_skid, cause);
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

/* One cycle as the reference engine runs it; returns whether a PMI was
 * raised (*assists: the units whose PEBS assist ran, one bit each). */
static gboolean ref_cycle(PmsSim *s, const PmsSimRun *run, Unit *u, guint nu, guint64 *assists)
{
    PmsPipeOut out[SIM_MAX_UNITS];
    gboolean en[SIM_MAX_UNITS], ovf[SIM_MAX_UNITS], latch_before[SIM_MAX_UNITS], assist[SIM_MAX_UNITS];
    gboolean pmi = FALSE;
    guint64 cause = 0; /* the units that raise it */
    *assists = 0;
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
            if (unit_pmi(s, &u[k]))
                pmi = TRUE, cause |= (guint64)1 << k;
            if (unit_ext(s, &u[k]))
                sim_ext_record(s, s->cycle);
        }
        *u[k].ctr = sum & u[k].mask;
        /* PEBS (dev_x86_core.c): arming at the wrap, the assist on the next event */
        if (s->ops->after_count) {
            guint a = s->ops->after_count(s, &u[k], out[k].inc, ovf[k], run);
            assist[k] = (a & SIM_AFTER_ASSIST) != 0;
            if (a & SIM_AFTER_PMI)
                pmi = TRUE, cause |= (guint64)1 << k;
            *assists |= (guint64)assist[k] << k;
        }
    }
    /* One PMI however many counters overflowed (SDM 18-39); A8: freeze now. */
    gboolean raised = pmi;
    if (pmi)
        pmi = raise_pmi(s, s->cycle, cause, u, nu);
    if (s->trace) {
        for (guint k = 0; k < nu; k++)
            emit_trace(s, run, &u[k], s->cycle, 1, en[k] ? &out[k] : NULL, latch_before[k], *u[k].ctr,
                       s->ops->status(s, &u[k]), ovf[k], pmi, assist[k]);
    }
    s->cycle++;
    return raised;
}

static void run_reference(PmsSim *s, const PmsSimRun *run, Unit *u, guint nu)
{
    guint64 assists;
    for (guint64 c = 0; c < run->cycles; c++)
        ref_cycle(s, run, u, nu, &assists);
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

/* The PMIs of a steady segment.  The device's PMI action changes nothing in
 * a steady run (the last PMI changed no unit's enabled or interrupt state),
 * so every carry of an interrupting unit is a PMI and the PMI cycles are
 * the union of the units' carry cycles.  After its first cycle (increment f)
 * a unit adds r each cycle and runs on from the wrapped value (nothing
 * reloads it), so with b its value after the first cycle (mod M = 2^W) it
 * carries in the segment's (j+1)-th cycle, j >= 1, exactly when
 * (b + j*r) mod M < r (0 < r < M; in every cycle when r >= M, in none when
 * r = 0).  That depends on j*r mod M only: with r = q 2^s (q odd) a unit's
 * carries repeat every M / 2^s cycles, q of them in each period.  When r is
 * a power of two (q = 1) they are the arithmetic progression
 * j = o (mod M/r); two progressions whose steps are powers of two are
 * nested or disjoint, so the union of the progressions is the disjoint
 * union of the ones no other contains: counted with no inclusion-exclusion.
 * Other rates carry at intervals of floor(M/r) or ceil(M/r), not a
 * progression (and units with identical (M, r, b) carry in identical
 * cycles: one of them stands for all).  Their carries that no progression
 * holds are counted by walking them, a step each: over the segment, or,
 * when that is more, over one period P of the union (the largest of the
 * units' periods: all are powers of two, so every unit's carries repeat
 * after P), and a segment of F*P + R cycles holds F times the period's
 * carries and those of its first R cycles.  So the work is at most one
 * period's carries, whatever the segment's length (rates 3 and 5 on 48-bit
 * counters: 8 steps).  When those units all share one width and one rate
 * (any values), no walk at all: count_same_rate counts them by floor sums
 * (a rate of 2^32 - 1 carries 2^32 - 1 times a period).  The first PMIs are found by merging the units'
 * carries forward, the last ones by walking each unit's carries back from
 * the segment's end; a PMI's cause is every interrupting unit that carries
 * in its cycle. */
typedef struct {
    guint64 mask, r, b;
    gboolean ap;     /* j = o (mod step), j >= 1 */
    guint64 step, o; /* o in [0, step) */
    gboolean dead;   /* empty, or inside another set */
    guint unit;      /* its cause bit */
    guint64 bits;    /* a live set's cause bits: its unit's and its identical sets' */
} TailSet;

typedef struct {
    TailSet set[SIM_MAX_UNITS];
    guint n;
    guint64 first; /* the interrupting units that carry in the segment's first cycle (cause bits) */
} PmiPlan;

/* What a segment's PMIs are: how many in all (the first cycle's included),
 * the first n_head and the last n_tail of them (j, cause), in order, and
 * the last one's j (0: the first cycle). */
typedef struct {
    guint64 *head, *head_cause, *tail, *tail_cause;
    guint n_head, n_tail;
    guint64 total, last;
} PmiCount;

typedef unsigned __int128 U128;

static U128 set_m(const TailSet *t)
{
    return (U128)t->mask + 1;
}

/* Members j in [1, L] of j = o (mod step): the first (G_MAXUINT64: none), how many. */
static guint64 ap_first(const TailSet *t, guint64 L)
{
    guint64 first = t->o ? t->o : t->step;
    return first > L ? G_MAXUINT64 : first;
}

static guint64 ap_count(const TailSet *t, guint64 L)
{
    guint64 first = ap_first(t, L);
    return first == G_MAXUINT64 ? 0 : (L - first) / t->step + 1;
}

/* The carries of set t in cycles j = 1..L. */
static guint64 set_count(const TailSet *t, guint64 L)
{
    if (t->r == 0 || L == 0)
        return 0;
    if (t->ap)
        return ap_count(t, L);
    return (guint64)(((U128)t->b + (U128)L * t->r) / set_m(t));
}

/* Does progression t (its step a power of two) hold j >= 1? */
static gboolean ap_has(const TailSet *t, guint64 j)
{
    return t->r != 0 && (j & (t->step - 1)) == t->o;
}

/* The cause of PMI j >= 1, met while walking the live sets: at[a] is live
 * set a's carry at hand (j when it carries in j).  A dead set is a
 * duplicate (its bit in its live twin's) or a progression inside a live
 * one, tested. */
static guint64 cause_at(const PmiPlan *pl, guint64 j, const guint64 *at)
{
    guint64 c = 0;
    for (guint a = 0; a < pl->n; a++) {
        const TailSet *t = &pl->set[a];
        if (!t->dead)
            c |= at[a] == j ? t->bits : 0;
        else if (t->ap && ap_has(t, j))
            c |= (guint64)1 << t->unit;
    }
    return c;
}

static void tail_set(TailSet *t, const Unit *u, guint unit, guint64 ctr0, guint64 f, guint64 r)
{
    *t = (TailSet){ u->mask, r, (ctr0 + f) & u->mask, TRUE, 1, 0, r == 0, unit, (guint64)1 << unit };
    if (r == 0 || (u->mask != G_MAXUINT64 && r > u->mask))
        return; /* never, or every cycle: step 1 */
    if (u->mask == G_MAXUINT64 || (r & (r - 1)) != 0) {
        t->ap = FALSE;
        return;
    }
    t->step = (u->mask + 1) / r;
    t->o = (t->step - (t->b / r) % t->step) % t->step;
}

/* A steady segment's interrupting units as distinct carry sets. */
static void pmi_plan(PmiPlan *pl, const Unit *u, guint nu, const gboolean *en, const gboolean *pmi_en, const guint64 *f,
                     const guint64 *r, const guint64 *kc)
{
    pl->n = 0;
    pl->first = 0;
    for (guint k = 0; k < nu; k++) {
        if (!en[k] || !pmi_en[k])
            continue;
        if (kc[k] == 1)
            pl->first |= (guint64)1 << k;
        tail_set(&pl->set[pl->n++], &u[k], k, *u[k].ctr, f[k], r[k]);
    }
    for (guint a = 0; a < pl->n; a++) {
        TailSet *x = &pl->set[a];
        for (guint c = 0; c < pl->n && !x->dead; c++) {
            const TailSet *y = &pl->set[c];
            if (c == a || y->dead)
                continue;
            if (x->ap && y->ap)
                x->dead = y->step <= x->step && x->o % y->step == y->o && (y->step < x->step || x->o != y->o || c < a);
            else if (!x->ap && !y->ap && x->mask == y->mask && x->r == y->r && x->b == y->b && c < a)
                x->dead = TRUE, pl->set[c].bits |= x->bits; /* y, the first of the identical ones, lives */
        }
    }
}

/* The next member after j of a set whose value after cycle j is *v. */
static guint64 set_next(const TailSet *t, guint64 j, guint64 *v)
{
    guint64 k = overflow_cycle(*v, t->mask, t->r, t->r);
    *v = (*v + k * t->r) & t->mask;
    return k > G_MAXUINT64 - j ? G_MAXUINT64 : j + k;
}

/* The first carry of live set t after cycle j (a carry of t, or 0; *v:
 * its value after cycle j), G_MAXUINT64 past L. */
static guint64 set_after(const TailSet *t, guint64 j, guint64 *v, guint64 L)
{
    U128 nx;
    if (t->r == 0)
        return G_MAXUINT64;
    if (t->ap)
        nx = j ? (U128)j + t->step : ap_first(t, L);
    else
        nx = set_next(t, j, v);
    return nx > L ? G_MAXUINT64 : (guint64)nx;
}

/* The last carry of set t in 1..L, 0 when none; *v its value after it. */
static guint64 set_last(const TailSet *t, guint64 L, guint64 *v)
{
    guint64 count = set_count(t, L);
    if (count == 0)
        return 0;
    if (t->ap)
        return ap_first(t, L) + (count - 1) * t->step;
    /* the count-th carry: the first j with b + j*r >= count*M */
    U128 need = (U128)count * set_m(t) - t->b;
    guint64 j = (guint64)((need + t->r - 1) / t->r);
    *v = (guint64)(((U128)t->b + (U128)j * t->r) % set_m(t));
    return j;
}

/* The carry of set t before its carry j (value *v after it), 0 when none
 * is left in 1..j-1.  Back one cycle the value is v + M - r (v < r: it
 * carried); each cycle further back takes r off until it is below r, where
 * the carry before was. */
static guint64 set_before(const TailSet *t, guint64 j, guint64 *v)
{
    if (t->ap)
        return j > t->step ? j - t->step : 0;
    U128 w = (U128)*v + set_m(t) - t->r;
    U128 d = w / t->r;
    if ((U128)j < d + 2)
        return 0;
    *v = (guint64)(w % t->r);
    return j - 1 - (guint64)d;
}

/* The first `room` PMIs of the segment (j = 0..L), merged forward. */
static void pmi_head(const PmiPlan *pl, guint64 L, guint room, PmiCount *pc)
{
    guint64 next[SIM_MAX_UNITS], val[SIM_MAX_UNITS];
    pc->n_head = 0;
    if (room && pl->first) {
        pc->head[0] = 0;
        pc->head_cause[pc->n_head++] = pl->first;
    }
    for (guint a = 0; a < pl->n; a++) {
        val[a] = pl->set[a].b;
        next[a] = pl->set[a].dead ? G_MAXUINT64 : set_after(&pl->set[a], 0, &val[a], L);
    }
    while (pc->n_head < room) {
        guint64 j = G_MAXUINT64;
        for (guint a = 0; a < pl->n; a++)
            j = MIN(j, next[a]);
        if (j == G_MAXUINT64)
            break;
        pc->head[pc->n_head] = j;
        pc->head_cause[pc->n_head++] = cause_at(pl, j, next);
        for (guint a = 0; a < pl->n; a++)
            if (next[a] == j)
                next[a] = set_after(&pl->set[a], j, &val[a], L);
    }
}

/* The last PMS_SIM_PMI_TAIL PMIs of the segment, merged back from its end. */
static void pmi_tail(const PmiPlan *pl, guint64 L, PmiCount *pc)
{
    guint64 cur[SIM_MAX_UNITS], val[SIM_MAX_UNITS];
    guint n = 0;
    for (guint a = 0; a < pl->n; a++)
        cur[a] = pl->set[a].dead ? 0 : set_last(&pl->set[a], L, &val[a]);
    while (n < PMS_SIM_PMI_TAIL) {
        guint64 j = 0;
        for (guint a = 0; a < pl->n; a++)
            j = MAX(j, cur[a]);
        if (j == 0) {
            if (pl->first) {
                pc->tail[n] = 0;
                pc->tail_cause[n++] = pl->first;
            }
            break;
        }
        pc->tail[n] = j;
        pc->tail_cause[n++] = cause_at(pl, j, cur);
        for (guint a = 0; a < pl->n; a++)
            if (cur[a] == j)
                cur[a] = set_before(&pl->set[a], j, &val[a]);
    }
    for (guint i = 0; i < n / 2; i++) {
        guint64 x = pc->tail[i], y = pc->tail_cause[i];
        pc->tail[i] = pc->tail[n - 1 - i], pc->tail_cause[i] = pc->tail_cause[n - 1 - i];
        pc->tail[n - 1 - i] = x, pc->tail_cause[n - 1 - i] = y;
    }
    pc->n_tail = n;
}

/* The carries in 1..L of the live sets that are not progressions and that
 * no live progression holds, walked (see above); *within: those in 1..R. */
static guint64 walk_others(const PmiPlan *pl, guint64 L, guint64 R, guint64 *within)
{
    guint64 next[SIM_MAX_UNITS], val[SIM_MAX_UNITS], n = 0;
    *within = 0;
    for (guint a = 0; a < pl->n; a++) {
        const TailSet *t = &pl->set[a];
        val[a] = t->b;
        next[a] = t->dead || t->ap ? G_MAXUINT64 : set_after(t, 0, &val[a], L);
    }
    for (;;) {
        guint64 j = G_MAXUINT64;
        for (guint a = 0; a < pl->n; a++)
            j = MIN(j, next[a]);
        if (j == G_MAXUINT64)
            return n;
        gboolean held = FALSE;
        for (guint a = 0; a < pl->n && !held; a++)
            held = pl->set[a].ap && !pl->set[a].dead && ap_has(&pl->set[a], j);
        n += !held;
        *within += !held && j <= R;
        for (guint a = 0; a < pl->n; a++)
            if (next[a] == j)
                next[a] = set_after(&pl->set[a], j, &val[a], L);
    }
}

/* sum of floor((a*i + b) / m) for i = 0..n-1, mod 2^128: the callers take
 * differences of these sums, which fit 64 bits.  Euclid's reduction on
 * (m, a): O(log m) rounds.  n < 2^64, a, b < m <= 2^64 after the first
 * reductions keep a*n + b below 2^128. */
static U128 floor_sum(U128 n, U128 m, U128 a, U128 b)
{
    U128 sum = 0;
    for (;;) {
        if (a >= m) {
            sum += (n * (n - 1) / 2) * (a / m);
            a %= m;
        }
        if (b >= m) {
            sum += n * (b / m);
            b %= m;
        }
        U128 y = a * n + b;
        if (y < m)
            return sum;
        n = y / m;
        b = y % m;
        U128 t = m;
        m = a;
        a = t;
    }
}

/* How many i in [0, n) have (A + i*R) mod M in [lo, hi) (A, R < M; lo <=
 * hi <= M).  y mod M < x exactly when floor(y/M) - floor((y + M - x)/M) + 1
 * is 1 (it is 0 otherwise), so each bound is a difference of two floor sums. */
static guint64 count_in(U128 A, U128 R, guint64 n, U128 M, U128 lo, U128 hi)
{
    U128 below_hi = floor_sum(n, M, R, A) - floor_sum(n, M, R, A + M - hi);
    U128 below_lo = floor_sum(n, M, R, A) - floor_sum(n, M, R, A + M - lo);
    return (guint64)(below_hi - below_lo);
}

/* The carries in 1..L of live sets that are not progressions, when they all
 * share one counter width and one rate r (their values differ): set a
 * carries in cycle j exactly when y = j*r mod M lies in the arc of r
 * residues from (M - b_a) mod M (its value b_a + y is then below r).  The
 * union of their carries is the j whose y lies in the union of the arcs:
 * counted per merged arc with floor sums, then less the cycles a live
 * progression holds (those it counts itself; its members j = first +
 * i*step have y = first*r + i*step*r mod M).  No walk: the work is a few
 * Euclid reductions however many carries there are.  FALSE when the sets
 * do not share one width and rate (their coincidences are then not one
 * arc's count). */
static gboolean count_same_rate(const PmiPlan *pl, guint64 L, guint64 *count)
{
    const TailSet *one = NULL;
    U128 lo[2 * SIM_MAX_UNITS], hi[2 * SIM_MAX_UNITS];
    guint n = 0;
    for (guint a = 0; a < pl->n; a++) {
        const TailSet *t = &pl->set[a];
        if (t->dead || t->ap)
            continue;
        if (one && (t->mask != one->mask || t->r != one->r))
            return FALSE;
        one = t;
        U128 M = set_m(t), s = (M - t->b) % M;
        lo[n] = s, hi[n++] = MIN(s + t->r, M);
        if (s + t->r > M) /* around the circle: its rest from 0 */
            lo[n] = 0, hi[n++] = s + t->r - M;
    }
    if (!one)
        return FALSE;
    /* sort by start (a few arcs), then merge those that touch */
    for (guint i = 1; i < n; i++)
        for (guint k = i; k > 0 && lo[k] < lo[k - 1]; k--) {
            U128 x = lo[k], y = hi[k];
            lo[k] = lo[k - 1], hi[k] = hi[k - 1];
            lo[k - 1] = x, hi[k - 1] = y;
        }
    guint m = 0;
    for (guint i = 0; i < n; i++) {
        if (m && lo[i] <= hi[m - 1])
            hi[m - 1] = MAX(hi[m - 1], hi[i]);
        else
            lo[m] = lo[i], hi[m++] = hi[i];
    }
    U128 M = set_m(one), r = one->r;
    guint64 total = 0;
    for (guint i = 0; i < m; i++)
        total += count_in(r % M, r % M, L, M, lo[i], hi[i]); /* j = i + 1: y = r + i*r */
    for (guint a = 0; a < pl->n; a++) {
        const TailSet *t = &pl->set[a];
        guint64 first = t->dead || !t->ap ? G_MAXUINT64 : ap_first(t, L);
        if (first == G_MAXUINT64)
            continue;
        guint64 members = ap_count(t, L);
        for (guint i = 0; i < m; i++)
            total -= count_in((U128)first * r % M, (U128)t->step * r % M, members, M, lo[i], hi[i]);
    }
    *count = total;
    return TRUE;
}

static guint64 sat_add(guint64 a, guint64 b)
{
    return a > G_MAXUINT64 - b ? G_MAXUINT64 : a + b;
}

/* The PMIs of a steady segment of K cycles, nothing changed yet; FALSE when
 * counting them would take more than `budget` steps (*used: the steps). */
static gboolean pmi_count(const PmiPlan *pl, guint64 K, guint room, PmiCount *pc, guint64 budget, guint64 *used)
{
    guint64 L = K - 1, total = 0, direct = 0, per_period = 0, P = 1;
    guint live = 0, others = 0;
    gboolean periodic = TRUE;
    *used = 0;
    for (guint a = 0; a < pl->n; a++) {
        const TailSet *t = &pl->set[a];
        if (t->dead)
            continue;
        live++;
        if (t->ap) {
            total += ap_count(t, L); /* disjoint */
            P = MAX(P, t->step);
            continue;
        }
        others++;
        direct = sat_add(direct, set_count(t, L));
        if (t->mask == G_MAXUINT64)
            periodic = FALSE; /* a period of 2^64 */
        else
            P = MAX(P, (t->mask + 1) >> __builtin_ctzll(t->r));
    }
    guint64 same_rate;
    if (others && live == 1) {
        total = direct; /* one set alone: from its sum */
    } else if (others && count_same_rate(pl, L, &same_rate)) {
        total += same_rate;
    } else if (others) {
        /* every non-progression set's period divides P: its carries per P */
        for (guint a = 0; periodic && a < pl->n; a++) {
            const TailSet *t = &pl->set[a];
            if (!t->dead && !t->ap)
                per_period = sat_add(per_period, (guint64)(((U128)P * t->r) / set_m(t)));
        }
        gboolean fold = periodic && per_period < direct;
        *used = fold ? per_period : direct;
        if (*used > budget)
            return FALSE;
        guint64 within;
        if (fold) {
            guint64 full = walk_others(pl, P, L % P, &within);
            total += (L / P) * full + within;
        } else
            total += walk_others(pl, L, L, &within);
    }
    pc->total = total + (pl->first != 0);
    pc->n_head = pc->n_tail = 0;
    pc->last = 0;
    if (!pc->total)
        return TRUE;
    pmi_head(pl, L, room, pc);
    pmi_tail(pl, L, pc);
    pc->last = pc->tail[pc->n_tail - 1];
    return TRUE;
}

/* Record a counted segment's PMIs from cycle c0: the device's action once,
 * for the last PMI. */
static void pmi_apply(PmsSim *s, PmiCount *pc, guint64 c0, const SimUnit *u, guint nu)
{
    if (pc->total == 0)
        return;
    if (!s->ops->pmi(s, c0 + pc->last))
        return;
    sim_note_units(s, u, nu);
    for (guint i = 0; i < pc->n_head; i++)
        pc->head[i] += c0 + s->pmi_skid;
    for (guint i = 0; i < pc->n_tail; i++)
        pc->tail[i] += c0 + s->pmi_skid;
    sim_pmi_record_many(s, pc->head, pc->head_cause, pc->n_head, pc->tail, pc->tail_cause, pc->n_tail, pc->total);
}

/* The trace of a fast-engine segment of K cycles that ended at s->cycle:
 * per unit its first cycle (o1) and the K - 1 steady ones (o2), with the
 * counter after each part and the carries and PMIs in it.  PMIs: at the
 * segment's last cycle, or (counted) at the carries of the interrupting
 * units, one of them in the first cycle when `pmi_first`. */
static void trace_segment(PmsSim *s, const PmsSimRun *run, const Unit *u, guint nu, const gboolean *en,
                          const PmsPipeOut *o1, const PmsPipeOut *o2, const gboolean *latch0, const guint64 *status0,
                          const guint64 *ctr0, const guint64 *f, const guint64 *r, const guint64 *kc, guint64 K,
                          guint64 pmis, gboolean pmi_first)
{
    guint64 c0 = s->cycle - K;
    guint64 pmis_first = K == 1 ? pmis : pmi_first && pmis ? 1 : 0;
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

static gboolean run_fast(PmsSim *s, const PmsSimRun *run, Unit *u, guint nu, GError **error)
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
    guint64 rem = run->cycles, steps = 0;
    while (rem > 0) {
        if (s->max_steps && ++steps > s->max_steps) {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_BOUND,
                        "cycle %" G_GUINT64_FORMAT ": a run of %" G_GUINT64_FORMAT
                        " cycles needs more than %" G_GUINT64_FORMAT
                        " steps (the fast engine steps PMI by PMI where it cannot count them in closed form); "
                        "stopped %" G_GUINT64_FORMAT " cycles before its end",
                        s->cycle, run->cycles, s->max_steps, rem);
            return FALSE;
        }
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
        /* the interrupting counters of a steady run take the whole segment
         * when their PMIs can be counted (segment_pmis); otherwise the
         * segment ends at the first PMI */
        PmiPlan plan;
        gboolean counted = steady;
        if (counted)
            pmi_plan(&plan, u, nu, en, pmi_en, f, r, kc);
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
        /* a counted segment's PMIs, before anything changes: walking them may
         * pass the work bound */
        PmiCount pc = { 0 };
        g_autofree guint64 *at = NULL;
        if (counted) {
            guint room = sim_pmi_room(s);
            pc.head = at = g_new(guint64, 2 * (room + PMS_SIM_PMI_TAIL));
            pc.head_cause = pc.head + room;
            pc.tail = pc.head_cause + room;
            pc.tail_cause = pc.tail + PMS_SIM_PMI_TAIL;
            guint64 used, budget = s->max_steps ? s->max_steps - MIN(steps, s->max_steps) : G_MAXUINT64;
            if (!pmi_count(&plan, K, room, &pc, budget, &used)) {
                g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_BOUND,
                            "cycle %" G_GUINT64_FORMAT ": a run of %" G_GUINT64_FORMAT
                            " cycles needs more than %" G_GUINT64_FORMAT
                            " steps (the fast engine walks the carries of interrupting counters at distinct rates "
                            "that are not powers of two, over the run or over one period of their union, "
                            "whichever is shorter)",
                            s->cycle, run->cycles, s->max_steps);
                return FALSE;
            }
            steps += used;
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
        if (counted)
            pmi_apply(s, &pc, s->cycle, u, nu);
        s->cycle += K;
        rem -= K;
        if (pmi) {
            gboolean en_before[SIM_MAX_UNITS], int_before[SIM_MAX_UNITS];
            for (guint k = 0; k < nu; k++)
                en_before[k] = unit_enabled(s, &u[k]), int_before[k] = unit_pmi(s, &u[k]);
            guint64 cause = 0; /* the interrupting units that carried in the last cycle */
            for (guint k = 0; k < nu; k++)
                if (en[k] && pmi_en[k] && kc[k] == K)
                    cause |= (guint64)1 << k;
            raise_pmi(s, s->cycle - 1, cause, u, nu);
            steady = TRUE;
            for (guint k = 0; k < nu; k++)
                steady &= en_before[k] == unit_enabled(s, &u[k]) && int_before[k] == unit_pmi(s, &u[k]);
        }
        if (s->trace)
            trace_segment(s, run, u, nu, en, o1s, o2s, latch0, status0, ctr0, f, r, kc, K, s->pmi_total - pmi_total0,
                          counted && plan.first != 0);
    }
    return TRUE;
}

/* ---- PEBS armed, fast engine ------------------------------------------------ */

static gboolean over_bound(PmsSim *s, const PmsSimRun *run, guint64 steps, guint64 rem, GError **error)
{
    if (!s->max_steps || steps <= s->max_steps)
        return FALSE;
    g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_BOUND,
                "cycle %" G_GUINT64_FORMAT ": a run of %" G_GUINT64_FORMAT
                " cycles with PEBS armed needs more than %" G_GUINT64_FORMAT
                " steps (the fast engine steps event by event where PEBS periods do not repeat alone: several PEBS "
                "counters, other counters wrapping between assists); stopped %" G_GUINT64_FORMAT
                " cycles before its end",
                s->cycle, run->cycles, s->max_steps, rem);
    return TRUE;
}

/* A run with PEBS on (dev_x86_core.c: the wrap arms, the next counted cycle
 * assists) in the fast engine.  The cycles where something happens (an
 * overflow, an assist, a device action) run one by one as the reference
 * engine runs them; the cycles between are jumped.  After an assist of the
 * one PEBS counter, its next periods (from the reset value to the wrap, then
 * the assist: P cycles) repeat the same way as long as no other counter
 * wraps, no device action falls due and the buffer treats them alike
 * (pebs_uniform: every one writes below the threshold, or past it, or none
 * writes); those n periods are one step (pebs_repeat), the PMIs they raise
 * an arithmetic progression.  So a long run takes time independent of its
 * length once the buffer fills or stops mattering; work beyond that (several
 * PEBS counters, counters wrapping between assists) is bounded by the work
 * bound. */
static gboolean run_pebs(PmsSim *s, const PmsSimRun *run, Unit *u, guint nu, GError **error)
{
    guint64 rem = run->cycles, steps = 0;
    while (rem > 0) {
        if (over_bound(s, run, ++steps, rem, error))
            return FALSE;
        guint64 next = device_events(s);
        guint64 K = MIN(rem, next - s->cycle);
        /* d: the first cycle (from now) where something happens */
        guint64 d = K, f[SIM_MAX_UNITS], r[SIM_MAX_UNITS];
        gboolean en[SIM_MAX_UNITS], latch1[SIM_MAX_UNITS];
        PmsPipeOut o1s[SIM_MAX_UNITS], o2s[SIM_MAX_UNITS]; /* spans (pms_sim_set_trace_spans) */
        for (guint k = 0; k < nu; k++) {
            en[k] = unit_enabled(s, &u[k]);
            if (!en[k])
                continue;
            PmsPipeOut o1 = pms_sim_pipe(&u[k].cfg, u[k].n, run->cpl, u[k].latch && *u[k].latch);
            PmsPipeOut o2 = pms_sim_pipe(&u[k].cfg, u[k].n, run->cpl, o1.latch);
            f[k] = o1.inc, r[k] = o2.inc, latch1[k] = o1.latch;
            o1s[k] = o1, o2s[k] = o2;
            d = MIN(d, overflow_cycle(*u[k].ctr, u[k].mask, f[k], r[k]) - 1);
            if (s->ops->pebs_state(s, &u[k]) == SIM_PEBS_ARMED && (f[k] || r[k]))
                d = MIN(d, f[k] ? 0 : 1);
        }
        if (d > 0) {
            for (guint k = 0; k < nu; k++) {
                if (!en[k]) {
                    if (s->trace)
                        emit_trace(s, run, &u[k], s->cycle, d, NULL, FALSE, *u[k].ctr, s->ops->status(s, &u[k]), 0, 0,
                                   FALSE);
                    continue;
                }
                guint64 ctr0 = *u[k].ctr;
                gboolean latch0 = u[k].latch && *u[k].latch;
                *u[k].ctr = (*u[k].ctr + f[k] + (d - 1) * r[k]) & u[k].mask;
                if (u[k].latch)
                    *u[k].latch = latch1[k]; /* the steady latch after one cycle */
                if (s->trace) {
                    /* its first cycle, then the steady ones (as trace_segment) */
                    guint64 st = s->ops->status(s, &u[k]);
                    emit_trace(s, run, &u[k], s->cycle, 1, &o1s[k], latch0, (ctr0 + f[k]) & u[k].mask, st, 0, 0, FALSE);
                    if (d > 1)
                        emit_trace(s, run, &u[k], s->cycle + 1, d - 1, &o2s[k], latch1[k], *u[k].ctr, st, 0, 0, FALSE);
                }
            }
            s->cycle += d;
            rem -= d;
            continue;
        }
        gboolean en_before[SIM_MAX_UNITS], int_before[SIM_MAX_UNITS];
        for (guint k = 0; k < nu; k++)
            en_before[k] = unit_enabled(s, &u[k]), int_before[k] = unit_pmi(s, &u[k]);
        guint64 assists;
        gboolean pmi = ref_cycle(s, run, u, nu, &assists);
        rem--;
        /* the one PEBS counter just assisted: repeat its period? */
        guint n_pebs = 0, pk = 0;
        for (guint k = 0; k < nu; k++)
            if (unit_enabled(s, &u[k]) && s->ops->pebs_state(s, &u[k]) != SIM_PEBS_OFF)
                n_pebs++, pk = k;
        if (rem == 0 || n_pebs != 1 || !(assists >> pk & 1))
            continue;
        gboolean steady = TRUE; /* its PMI (if any) changed no unit's enable or INT */
        for (guint k = 0; k < nu; k++)
            steady &= en_before[k] == unit_enabled(s, &u[k]) && int_before[k] == unit_pmi(s, &u[k]);
        if (!steady)
            continue;
        /* every latch is steady after a cycle: the rates from now on */
        for (guint k = 0; k < nu; k++)
            if ((en[k] = unit_enabled(s, &u[k]))) {
                o2s[k] = pms_sim_pipe(&u[k].cfg, u[k].n, run->cpl, u[k].latch && *u[k].latch);
                r[k] = o2s[k].inc;
            }
        if (r[pk] == 0)
            continue;
        guint64 P = overflow_cycle(*u[pk].ctr, u[pk].mask, r[pk], r[pk]) + 1;
        guint64 n = rem / P;
        if (s->ops->next_event)
            n = MIN(n, (s->ops->next_event(s) - s->cycle) / P);
        for (guint k = 0; k < nu; k++)
            if (en[k] && k != pk)
                n = MIN(n, (overflow_cycle(*u[k].ctr, u[k].mask, r[k], r[k]) - 1) / P);
        gboolean upmi = FALSE;
        if (n)
            n = s->ops->pebs_uniform(s, &u[pk], n, &upmi);
        if (n == 0 || upmi != pmi)
            continue;
        /* n periods: the j-th assist (j = 0..n-1) in cycle first + j * P */
        guint64 first = s->cycle - 1 + P;
        for (guint k = 0; k < nu; k++)
            if (en[k] && k != pk)
                *u[k].ctr = (*u[k].ctr + n * P * r[k]) & u[k].mask; /* mod 2^64 is exact mod 2^W */
        s->ops->pebs_repeat(s, &u[pk], first, P, n, run);
        if (upmi && s->ops->pmi(s, first + (n - 1) * P)) {
            /* each raised by the PEBS counter's assist: the first and last ones kept */
            sim_note_units(s, u, nu);
            guint64 head[PMS_SIM_PMI_TAIL], tail[PMS_SIM_PMI_TAIL], cause[PMS_SIM_PMI_TAIL];
            guint64 at0 = first + s->pmi_skid, nt = MIN(n, PMS_SIM_PMI_TAIL);
            for (guint64 j = 0, room = sim_pmi_room(s); j < MIN(n, room); j += PMS_SIM_PMI_TAIL) {
                guint c = (guint)MIN(PMS_SIM_PMI_TAIL, MIN(n, room) - j);
                for (guint i = 0; i < c; i++)
                    head[i] = at0 + (j + i) * P, cause[i] = (guint64)1 << pk;
                sim_pmi_record_many(s, head, cause, c, NULL, NULL, 0, 0);
            }
            for (guint i = 0; i < nt; i++)
                tail[i] = at0 + (n - nt + i) * P, cause[i] = (guint64)1 << pk;
            sim_pmi_record_many(s, NULL, NULL, 0, tail, cause, (guint)nt, n);
        }
        if (s->trace)
            /* one span of the n periods per counter: its wraps, the PMIs, the assists */
            for (guint k = 0; k < nu; k++)
                emit_trace(s, run, &u[k], s->cycle, n * P, en[k] ? &o2s[k] : NULL, u[k].latch && *u[k].latch, *u[k].ctr,
                           s->ops->status(s, &u[k]), k == pk ? n : 0, upmi ? n : 0, k == pk);
        s->cycle += n * P;
        rem -= n * P;
    }
    return TRUE;
}

gboolean pms_sim_run(PmsSim *s, const PmsSimRun *run, GError **error)
{
    if (!validate(s, run, error))
        return FALSE;
    SimOcc occ[SIM_MAX_UNITS];
    Unit u[SIM_MAX_UNITS];
    guint nu = s->ops->units(s, run, occ, u);
    gboolean pebs = s->ops->per_cycle && s->ops->per_cycle(s);
    const char *why = s->engine == PMS_SIM_REFERENCE ? "the reference engine"
        : s->trace && !s->trace_spans                ? "a per-cycle trace"
                                                     : NULL;
    if (why && s->max_steps && run->cycles > s->max_steps) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_BOUND,
                    "cycle %" G_GUINT64_FORMAT ": a run of %" G_GUINT64_FORMAT
                    " cycles stepped cycle by cycle (%s) needs more than %" G_GUINT64_FORMAT " steps",
                    s->cycle, run->cycles, why, s->max_steps);
        return FALSE;
    }
    if (why)
        run_reference(s, run, u, nu);
    else if (pebs ? !run_pebs(s, run, u, nu, error) : !run_fast(s, run, u, nu, error))
        return FALSE;
    /* A device action due at the cycle after the run (a delayed freeze) takes
     * effect now, at the end of the run's last cycle: a write made between
     * runs comes after it and is not undone by it. */
    device_events(s);
    return TRUE;
}
