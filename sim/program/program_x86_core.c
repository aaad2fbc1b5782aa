/* pmusim — the x86 core program step: an event on a counter, codes[] to
 * register writes (SDM Vol. 3B 18.2).
 *
 *   general counter k:  codes[0] -> IA32_PERFEVTSELk, whole register;
 *   fixed-only event on FIXED_CTRk: codes[0]'s usr/os/any/int/en fields
 *       become counter k's EN/ANY/PMI bits of IA32_FIXED_CTR_CTRL (SDM 18-7:
 *       EN bit 0 = CPL 0, bit 1 = CPL > 0), only those bits;
 *   codes[1] -> the event's extra register (MSR_OFFCORE_RSP_n,
 *       MSR_PEBS_LD_LAT: the model's `extra` key), whole register;
 *   the counter's enable bit in IA32_PERF_GLOBAL_CTRL (bit k, 32+k), when
 *       the PMU has one (perfmon v1 counts on the local enable alone).
 *   a metrics event's field (flags = metrics, Icelake's TOPDOWN_M:RETIRING
 *       ...: unit mask bit 7, field umask & 0x7f of IA32_PERF_METRICS) is
 *       placed on the event's fixed counter (3: the slots it is a fraction
 *       of) and also sets GLOBAL_CTRL's perf_metrics bit (48), so that the
 *       register counts (docs/semantics.md §8c).
 * Register and field positions are resolved once per model (model_cache.h).
 * Not done here: several events at once (the caller composes the masked
 * writes), PEBS_ENABLE, LBR. */
#include <string.h>
#include "prog_internal.h"
#include "model_cache.h"

typedef struct {
    guint n_gp, n_fixed;
    const PmsRegister **evtsel, **pmc, **fixed_ctr; /* by counter index */
    const PmsRegister *fixed_ctrl, *global_ctrl;
    guint64 *gc_gp, *gc_fixed, *st_gp, *st_fixed;  /* enable / status bits */
    SimField *fx_en, *fx_any, *fx_pmi;             /* FIXED_CTR_CTRL, by counter */
    SimField ev_usr, ev_os, ev_any, ev_int, ev_en; /* PERFEVTSEL fields of codes[0] */
    guint64 ev_not_fixed;                          /* edge, pc, inv, cmask: no fixed-counter bit */
    SimField ev_umask;                             /* codes[0]'s unit mask: a metric's field */
    const PmsRegister *metrics;                    /* IA32_PERF_METRICS, NULL without */
    SimField metric[8];                            /* its fields by index (umask & 0x7f) */
    guint64 gc_metrics;                            /* GLOBAL_CTRL.EN_PERF_METRICS */
    const PmsRegister **extra;                     /* by event index */
    char *missing;                                 /* a field it needs and the model lacks */
    guint64 gp_sw;                                 /* counters software has (skl option smt = on: PMC0-3) */
    guint64 ev_in_txcp, txcp_gp;                   /* PERFEVTSEL's IN_TXCP bit; the counters whose register takes it */
} X86Prog;

static void prog_free(gpointer p)
{
    X86Prog *x = p;
    g_free(x->evtsel);
    g_free(x->pmc);
    g_free(x->fixed_ctr);
    g_free(x->gc_gp);
    g_free(x->gc_fixed);
    g_free(x->st_gp);
    g_free(x->st_fixed);
    g_free(x->fx_en);
    g_free(x->fx_any);
    g_free(x->fx_pmi);
    g_free(x->extra);
    g_free(x->missing);
    g_free(x);
}

/* A field by name; when the register exists and lacks it, what is missing
 * is kept (x->missing) and the step refuses the model. */
static SimField need(X86Prog *x, const PmsRegister *r, const char *const *names, guint idx, guint stride,
                     const char *what)
{
    SimField f = sim_resolve(r, names, idx, stride);
    if (!f.present && !x->missing) {
        const char *pct = strstr(what, "%u");
        g_autofree char *w = pct ? g_strdup_printf("%.*s%u", (int)(pct - what), what, idx) : g_strdup(what);
        prog_need(&x->missing, r, f, w);
    }
    return f;
}

static X86Prog *prog_build(const PmsModel *m)
{
    X86Prog *x = g_new0(X86Prog, 1);
    x->n_gp = m->n_gp;
    x->n_fixed = m->n_fixed;
    x->evtsel = g_new0(const PmsRegister *, m->n_gp + 1);
    x->pmc = g_new0(const PmsRegister *, m->n_gp + 1);
    x->gc_gp = g_new0(guint64, m->n_gp + 1);
    x->st_gp = g_new0(guint64, m->n_gp + 1);
    x->fixed_ctr = g_new0(const PmsRegister *, m->n_fixed + 1);
    x->gc_fixed = g_new0(guint64, m->n_fixed + 1);
    x->st_fixed = g_new0(guint64, m->n_fixed + 1);
    x->fx_en = g_new0(SimField, m->n_fixed + 1);
    x->fx_any = g_new0(SimField, m->n_fixed + 1);
    x->fx_pmi = g_new0(SimField, m->n_fixed + 1);
    x->extra = g_new0(const PmsRegister *, m->n_events + 1);
    x->fixed_ctrl = pms_model_reg_by_kind(m, PMS_REG_FIXED_CTRL, 0);
    x->global_ctrl = pms_model_reg_by_kind(m, PMS_REG_GLOBAL_CTRL, 0);
    const PmsRegister *gs = pms_model_reg_by_kind(m, PMS_REG_GLOBAL_STATUS, 0);
    /* the device's names (sim/dev_x86_core.c, models/field_need.c) */
    static const char *const g_pmc[] = { "pmc%u", "en_pmc%u", "ctr%u", NULL };
    static const char *const g_fix[] = { "fixed%u", "fixed_ctr%u", "en_fixed%u", "fc%u", NULL };
    static const char *const s_pmc[] = { "ovf_pmc%u", "pmc%u", NULL };
    static const char *const s_fix[] = { "ovf_fixed%u", "ovf_fixed_ctr%u", "fixed%u", "fixed_ctr%u", NULL };
    for (guint i = 0; i < m->n_gp; i++) {
        x->evtsel[i] = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, i);
        x->pmc[i] = pms_model_reg_by_kind(m, PMS_REG_PMC, i);
        if (!x->pmc[i])
            x->pmc[i] = pms_model_reg_by_kind(m, PMS_REG_A_PMC, i);
        /* SDM 18-7 / 18-10: PMCi's bit, by name */
        x->gc_gp[i] = sim_fbit(need(x, x->global_ctrl, g_pmc, i, 0, "pmc%u"));
        x->st_gp[i] = sim_fbit(need(x, gs, s_pmc, i, 0, "ovf_pmc%u"));
    }
    static const char *const f_en[] = { "en%u", NULL }, *const f_any[] = { "any%u", "anythread%u", NULL };
    static const char *const f_pmi[] = { "pmi%u", NULL };
    for (guint i = 0; i < m->n_fixed; i++) {
        x->fixed_ctr[i] = pms_model_reg_by_kind(m, PMS_REG_FIXED_CTR, i);
        /* SDM 18-7 / 18-10: FIXED_CTRi's bit; its control bits (any optional) */
        x->gc_fixed[i] = sim_fbit(need(x, x->global_ctrl, g_fix, i, 0, "fixed%u"));
        x->st_fixed[i] = sim_fbit(need(x, gs, s_fix, i, 0, "ovf_fixed%u"));
        x->fx_en[i] = need(x, x->fixed_ctrl, f_en, i, 4, "en%u");
        x->fx_any[i] = sim_resolve(x->fixed_ctrl, f_any, i, 4);
        x->fx_pmi[i] = need(x, x->fixed_ctrl, f_pmi, i, 4, "pmi%u");
    }
    const PmsRegister *es = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    static const char *const n_usr[] = { "usr", NULL }, *const n_os[] = { "os", NULL };
    static const char *const n_any[] = { "any", "anythread", NULL }, *const n_int[] = { "int", NULL };
    static const char *const n_en[] = { "en", NULL };
    /* SDM Fig 18-6's fields of codes[0], by name (any optional) */
    x->ev_usr = need(x, es, n_usr, 0, 0, "usr");
    x->ev_os = need(x, es, n_os, 0, 0, "os");
    x->ev_int = need(x, es, n_int, 0, 0, "int");
    x->ev_any = sim_resolve(es, n_any, 0, 0);
    x->ev_en = need(x, es, n_en, 0, 0, "en");
    static const char *const n_edge[] = { "edge", NULL }, *const n_pc[] = { "pc", NULL };
    static const char *const n_inv[] = { "inv", NULL }, *const n_cmask[] = { "cmask", NULL };
    x->ev_not_fixed = sim_fbit(need(x, es, n_edge, 0, 0, "edge")) | sim_fbit(sim_resolve(es, n_pc, 0, 0)) |
        sim_fbit(need(x, es, n_inv, 0, 0, "inv")) | sim_fbit(need(x, es, n_cmask, 0, 0, "cmask"));
    static const char *const n_umask[] = { "umask", NULL };
    x->ev_umask = need(x, es, n_umask, 0, 0, "umask");
    /* perfmon v5: PERF_METRICS' fields in register order, and the enable */
    x->metrics = pms_model_reg_by_kind(m, PMS_REG_PERF_METRICS, 0);
    if (x->metrics) {
        static const char *const n_fld[][2] = {
            { "retiring", NULL }, { "bad_spec", NULL }, { "fe_bound", NULL }, { "be_bound", NULL }
        };
        for (guint k = 0; k < G_N_ELEMENTS(n_fld); k++)
            x->metric[k] = need(x, x->metrics, n_fld[k], 0, 0, n_fld[k][0]);
        static const char *const n_pm[] = { "perf_metrics", "en_perf_metrics", NULL };
        x->gc_metrics = sim_fbit(need(x, x->global_ctrl, n_pm, 0, 0, "perf_metrics"));
    }
    /* skl (docs/semantics.md §8d): with Hyper-Threading on (option smt, the
     * device's too) software has PMC0-3 only; IN_TXCP is writable on the
     * PERFEVTSELs whose writable mask has it (PERFEVTSEL2, SDM 18.11.5.1) */
    guint n_sw = strcmp(pms_model_option(m, "smt", "off"), "off") ? MIN(m->n_gp, 4u) : m->n_gp;
    x->gp_sw = n_sw < 64 ? ((guint64)1 << n_sw) - 1 : G_MAXUINT64;
    static const char *const n_txcp[] = { "in_txcp", NULL };
    x->ev_in_txcp = sim_fbit(sim_resolve(es, n_txcp, 0, 0));
    for (guint i = 0; i < m->n_gp && i < 64; i++)
        if (x->evtsel[i] && (x->evtsel[i]->writable & x->ev_in_txcp))
            x->txcp_gp |= (guint64)1 << i;
    for (guint e = 0; e < m->n_events; e++)
        if (m->events[e].extra_reg)
            x->extra[e] = pms_model_reg_by_name(m, m->events[e].extra_reg);
    return x;
}

static gpointer prog_make(const PmsModel *m)
{
    return prog_build(m);
}

static const X86Prog *prog_get(const PmsModel *m)
{
    return pms_model_cache(m, PMS_MODEL_CACHE_PROGRAM, prog_make, prog_free);
}

/* A metrics event with a metric unit mask selected (bit 7 of its value):
 * its field's index (umask & 0x7f). */
static gboolean metric_selected(const PmsEvent *ev, PmsUmaskSet umask_mask, guint *field)
{
    if (!(ev->flags & PMS_EVENT_METRICS))
        return FALSE;
    for (PmsUmaskSet u = umask_mask; !pms_uset_empty(u);) {
        guint i = pms_uset_pop(&u);
        if (i < ev->n_umasks && (ev->umasks[i].value & 0x80)) {
            if (field)
                *field = (guint)(ev->umasks[i].value & 0x7f);
            return TRUE;
        }
    }
    return FALSE;
}

/* Where an event may go: a metric is read through the event's fixed
 * counter (the slots), never a general one, whatever its unit mask's own
 * fixed mask says (the metric itself counts on no counter). */
static void x86_allowed(const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask, guint64 *gp, guint32 *fixed)
{
    prog_place_allowed(m, ev, umask_mask, gp, fixed);
    if (metric_selected(ev, umask_mask, NULL)) {
        *gp = 0;
        *fixed = ev->fixed & (m->n_fixed < 32 ? ((1u << m->n_fixed) - 1) : ~0u);
    }
}

/* The lowest of those counters (a metric: its fixed counter, gp being none). */
static gboolean x86_place(const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask, PmsPlacement *pl)
{
    guint64 gp;
    guint32 fx;
    x86_allowed(m, ev, umask_mask, &gp, &fx);
    return prog_place_lowest_of(m, ev, gp, fx, pl);
}

/* The writes, and what each is made of (ProgOps.writes_src; src may be NULL). */
#ifdef __GNUC__
__attribute__((always_inline))
#endif
static inline gboolean
x86_writes_src(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsRegWrite *w, guint *n, guint8 *src,
               GError **error)
{
    const PmsModel *m = pl->model;
    const X86Prog *x = prog_get(m);
    if (!prog_model_ok(m, x->missing, error))
        return FALSE;
    guint k = pl->counter;
    const PmsRegister *extra = x->extra[pl->event - m->events];
    if (n_codes > 2 || (n_codes == 2 && !extra)) {
        g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CODES,
                    "%s: event %s has no extra register for codes[%u] = 0x%" G_GINT64_MODIFIER "x", m->name,
                    pl->event->name, n_codes == 2 ? 1 : 2, codes[n_codes == 2 ? 1 : 2]);
        return FALSE;
    }
    if (pl->fixed) {
        if (!x->fixed_ctrl || k >= x->n_fixed) {
            g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_COUNTER, "%s: no fixed counter %u to program",
                        m->name, k);
            return FALSE;
        }
        guint64 c = codes[0], set = 0;
        if (sim_fget(x->ev_en, c))
            set = sim_fset(x->fx_en[k], 0, (sim_fget(x->ev_os, c) ? 1u : 0u) | (sim_fget(x->ev_usr, c) ? 2u : 0u));
        if (sim_fget(x->ev_any, c) && m->smt)
            set |= sim_fbit(x->fx_any[k]);
        if (sim_fget(x->ev_int, c))
            set |= sim_fbit(x->fx_pmi[k]);
        prog_put_write_src(w, n, src, PMS_PROGRAM_SRC_OTHER, x->fixed_ctrl, set,
                           sim_fbit(x->fx_en[k]) | sim_fbit(x->fx_any[k]) | sim_fbit(x->fx_pmi[k]));
    } else {
        if (k >= x->n_gp || !x->evtsel[k] || !(x->gp_sw & ((guint64)1 << k))) {
            g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_COUNTER, "%s: no general counter %u to program",
                        m->name, k);
            return FALSE;
        }
        prog_put_write_src(w, n, src, 0, x->evtsel[k], codes[0], G_MAXUINT64);
    }
    if (n_codes == 2)
        prog_put_write_src(w, n, src, 1, extra, codes[1], G_MAXUINT64);
    if (x->global_ctrl) {
        guint64 b = pl->fixed ? x->gc_fixed[k] : x->gc_gp[k];
        /* a metric: PERF_METRICS counts only with EN_PERF_METRICS */
        gboolean metric = pl->fixed && (pl->event->flags & PMS_EVENT_METRICS);
        if (metric && (sim_fget(x->ev_umask, codes[0]) & 0x80))
            b |= x->gc_metrics;
        prog_put_write_src(w, n, src, metric ? PMS_PROGRAM_SRC_OTHER : PMS_PROGRAM_SRC_NONE, x->global_ctrl, b, b);
    }
    return TRUE;
}

static gboolean x86_writes(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsRegWrite *w, guint *n,
                           GError **error)
{
    return x86_writes_src(pl, codes, n_codes, w, n, NULL, error);
}

static gboolean x86_metric(const PmsPlacement *pl, guint64 code0, const PmsRegister **reg, guint *shift, guint *width)
{
    const X86Prog *x = prog_get(pl->model);
    guint64 um = sim_fget(x->ev_umask, code0);
    if (!(pl->event->flags & PMS_EVENT_METRICS) || !(um & 0x80) || !x->metrics ||
        (um & 0x7f) >= G_N_ELEMENTS(x->metric))
        return FALSE;
    SimField f = x->metric[um & 0x7f];
    if (!f.present)
        return FALSE;
    *reg = x->metrics;
    *shift = f.shift;
    *width = f.width;
    return TRUE;
}

static const PmsRegister *x86_counter_reg(const PmsPlacement *pl)
{
    const X86Prog *x = prog_get(pl->model);
    if (pl->fixed)
        return pl->counter < x->n_fixed ? x->fixed_ctr[pl->counter] : NULL;
    return pl->counter < x->n_gp ? x->pmc[pl->counter] : NULL;
}

static guint64 x86_status_bit(const PmsPlacement *pl)
{
    const X86Prog *x = prog_get(pl->model);
    if (pl->fixed)
        return pl->counter < x->n_fixed ? x->st_fixed[pl->counter] : 0;
    return pl->counter < x->n_gp ? x->st_gp[pl->counter] : 0;
}

static const PmsRegister *x86_status_reg(const PmsPlacement *pl)
{
    return pms_model_reg_by_kind(pl->model, PMS_REG_GLOBAL_STATUS, 0);
}

/* For a set: the counters pms_program_place chooses from, except that an
 * event that may also use a general counter takes a fixed one only when the
 * fixed counter counts what codes[0] asks for.  FIXED_CTR_CTRL has EN, ANY
 * and PMI per counter and nothing else (SDM 18-7), so codes[0] with edge,
 * pc, inv or cmask set needs a general counter; and the fixed counter counts
 * its own event whatever the umask field says, so an event with unit masks
 * programmed with a raw one (no named unit mask selected) does too. */
static guint64 x86_gp_allowed(const PmsModel *m, const guint64 *codes, guint n_codes)
{
    const X86Prog *x = prog_get(m);
    guint64 gp = x->gp_sw;
    if (n_codes && (codes[0] & x->ev_in_txcp))
        gp &= x->txcp_gp;
    return gp;
}

/* What x86_gp_allowed reads of the codes: codes[0]'s IN_TXCP bit. */
static guint64 x86_gp_code_bits(const PmsModel *m)
{
    return prog_get(m)->ev_in_txcp;
}

static gboolean x86_place_on(const PmsModel *m, const PmsEvent *ev, guint counter, gboolean fixed, GError **error)
{
    const X86Prog *x = prog_get(m);
    if (!fixed && counter < 64 && counter < m->n_gp && !(x->gp_sw & ((guint64)1 << counter))) {
        g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_COUNTER,
                    "%s: general counter %u does not exist with option smt = on", m->name, counter);
        return FALSE;
    }
    return prog_place_on_counters(m, ev, counter, fixed, error);
}

static void x86_set_counters(const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask, const guint64 *codes,
                             guint n_codes, guint64 *gp, guint32 *fixed)
{
    x86_allowed(m, ev, umask_mask, gp, fixed);
    if (!*gp)
        return; /* fixed-only: the fixed counter or nothing */
    *gp &= x86_gp_allowed(m, codes, n_codes);
    if (!*gp) {
        *fixed = 0; /* codes no general counter takes (IN_TXCP) do not move to a fixed one */
        return;
    }
    const X86Prog *x = prog_get(m);
    if ((n_codes && (codes[0] & x->ev_not_fixed)) || (ev->n_umasks && pms_uset_empty(umask_mask)))
        *fixed = 0;
}

const ProgOps prog_x86_core_ops = {
    .set_counters = x86_set_counters,
    .place_on = x86_place_on,
    .place = x86_place,
    .writes = x86_writes,
    .counter_reg = x86_counter_reg,
    .status_bit = x86_status_bit,
    .status_reg = x86_status_reg,
    .metric = x86_metric,
    .gp_allowed = x86_gp_allowed,
    .gp_code_bits = x86_gp_code_bits,
    .writes_src = x86_writes_src,
};
