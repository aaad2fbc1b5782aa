/* pmusim — speed of the two engines on the same run-length stimulus, and the
 * fast engine on the 2^47-cycle preload-to-overflow experiment.  Library code:
 * returns figures, prints nothing (`pmusim bench sim` formats them). */
#include "sim.h"

enum { BENCH_RECORDS = 4096 };

/* Set the first of the candidate fields (a name list: the x86 core's
 * "cmask", the Xeon 7500's "threshold") r's layout has to x in *v; FALSE
 * with an error naming register and field when it has none (the bench
 * programs by name, never by an architectural position). */
static gboolean put(const PmsModel *m, const PmsRegister *r, guint64 *v, const char *const *names, guint64 x,
                    GError **error)
{
    for (guint i = 0; names[i]; i++) {
        const PmsField *f = pms_register_field(r, names[i]);
        if (f) {
            *v = pms_field_set(f, *v, x);
            return TRUE;
        }
    }
    g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "model %s: register %s has no field '%s' (bench sim)",
                m->name, r->name, names[0]);
    return FALSE;
}

#define NAMES(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* Program two general counters (one with cmask/edge) and, when present, the
 * fixed counters; the same on every instance. */
static gboolean program(PmsSim *s, GError **error)
{
    const PmsModel *m = pms_sim_model(s);
    const PmsRegister *ev = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    const PmsRegister *fc = pms_model_reg_by_kind(m, PMS_REG_FIXED_CTRL, 0);
    if (!ev) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "model %s: no PERFEVTSEL0", m->name);
        return FALSE;
    }
    /* c0.00 usr en (usr where the counter selects rings: not an uncore's);
     * and the same with cmask 2 and edge */
    guint64 ev0 = 0, ev1;
    if (!put(m, ev, &ev0, NAMES("event"), 0xc0, error) || !put(m, ev, &ev0, NAMES("en"), 1, error) ||
        (pms_register_field(ev, "usr") && !put(m, ev, &ev0, NAMES("usr"), 1, error)))
        return FALSE;
    ev1 = ev0;
    if (!put(m, ev, &ev1, NAMES("edge"), 1, error) || !put(m, ev, &ev1, NAMES("cmask", "threshold"), 2, error))
        return FALSE;
    const PmsRegister *ev_1 = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 1);
    if (!pms_sim_write(s, ev->address, ev0, error) ||
        (m->n_gp > 1 && ev_1 && !pms_sim_write(s, ev_1->address, ev1, error)))
        return FALSE;
    /* every fixed counter at all rings: EN = 3 (SDM 18-7) */
    guint64 f = 0;
    for (guint i = 0; fc && i < m->n_fixed; i++) {
        /* en<i>, or an uncore's one counter's en (one bit: 3 is 1 there) */
        g_autofree char *en = g_strdup_printf("en%u", i);
        if (!put(m, fc, &f, NAMES(en, i ? NULL : "en"), 3, error))
            return FALSE;
    }
    if (fc && !pms_sim_write(s, fc->address, f, error))
        return FALSE;
    /* a box with its own counter enables (the Xeon 7500 C-Box's
     * GLOBAL_CTL: a field ctr_en<k> per counter, or one ctr_en of a bit
     * per counter): the two counters programmed above */
    const PmsRegister *bc = pms_model_reg_by_kind(m, PMS_REG_BOX_CTRL, 0);
    const PmsField *all_en = bc ? pms_register_field(bc, "ctr_en") : NULL;
    guint64 b = 0;
    for (guint i = 0; bc && i < MIN(m->n_gp, 2); i++) {
        g_autofree char *en = g_strdup_printf("ctr_en%u", i);
        const PmsField *bf = pms_register_field(bc, en);
        if (bf)
            b = pms_field_set(bf, b, 1);
        else if (all_en && i < all_en->width)
            b = pms_field_set(all_en, b, pms_field_get(all_en, b) | (G_GUINT64_CONSTANT(1) << i));
    }
    if (b && !pms_sim_write(s, bc->address, b, error))
        return FALSE;
    /* the enables of the counters programmed above: the bench measures counting */
    const PmsRegister *gc = pms_model_reg_by_kind(m, PMS_REG_GLOBAL_CTRL, 0);
    /* none of the box's own: another unit's that enables every box (the
     * Xeon 7500 U-Box's, for a C-Box) */
    for (guint i = 0; !gc && i < m->n_regs; i++)
        if (m->regs[i].kind == PMS_REG_GLOBAL_CTRL)
            gc = &m->regs[i];
    if (!gc)
        return TRUE;
    guint64 g = pms_sim_enable_bits(m, MIN(m->n_gp, 2), fc != NULL);
    /* a PMI reaches a core only through the routing field where the global
     * control has one (the Nehalem uncore's pmi_core, the Xeon 7500 U-Box's
     * pmi_core_sel): core 0 */
    static const char *const route[] = { "pmi_core", "pmi_core_sel" };
    const PmsField *all = pms_register_field(gc, "en_all"); /* the U-Box's enable of every box */
    if (all)
        g = pms_field_set(all, g, 1);
    for (guint i = 0; i < G_N_ELEMENTS(route); i++) {
        const PmsField *rf = pms_register_field(gc, route[i]);
        if (rf)
            g = pms_field_set(rf, g, 1);
    }
    return pms_sim_write(s, gc->address, g, error);
}

static double time_engine(PmsSim *s, const PmsSimRun *runs, double min_seconds, guint64 *cycles, guint64 *records,
                          GError **error)
{
    gint64 t0 = g_get_monotonic_time(), dt;
    *cycles = *records = 0;
    do {
        pms_sim_reset(s);
        if (!program(s, error))
            return -1;
        for (guint i = 0; i < BENCH_RECORDS; i++) {
            if (!pms_sim_run(s, &runs[i], error))
                return -1;
            *cycles += runs[i].cycles;
        }
        *records += BENCH_RECORDS;
        dt = g_get_monotonic_time() - t0;
    } while (dt < (gint64)(min_seconds * 1e6));
    return (double)dt / 1e6;
}

gboolean pms_sim_bench(const PmsModel *m, double min_seconds, guint max_run, PmsSimBench *out, GError **error)
{
    if (max_run == 0)
        max_run = 1;
    g_autoptr(PmsSim) ref = pms_sim_new(m, error);
    if (!ref)
        return FALSE;
    g_autoptr(PmsSim) fast = pms_sim_new(m, error);
    if (!fast)
        return FALSE;
    pms_sim_set_engine(ref, PMS_SIM_REFERENCE);
    pms_sim_set_engine(fast, PMS_SIM_FAST);
    /* run lengths 1..max_run, occurrences 0..3, the signal the counters select
     * plus the fixed counters' clocks; a fixed seed: the same stimulus for both */
    g_autoptr(GRand) r = g_rand_new_with_seed(4711);
    PmsSimCount *counts = g_new0(PmsSimCount, 2 * BENCH_RECORDS);
    PmsSimRun *runs = g_new0(PmsSimRun, BENCH_RECORDS);
    for (guint i = 0; i < BENCH_RECORDS; i++) {
        counts[2 * i] = (PmsSimCount){ PMS_SIGNAL_KEY(0xc0, 0x00), 0, (guint64)g_rand_int_range(r, 0, 4), 0 };
        counts[2 * i + 1] = (PmsSimCount){ PMS_SIGNAL_KEY(0x3c, 0x00), 0, 1, 0 };
        runs[i] = (PmsSimRun){ (guint64)g_rand_int_range(r, 1, (gint32)MIN(max_run, (guint)G_MAXINT32 - 1) + 1),
                               { 3, 3 },
                               &counts[2 * i],
                               2,
                               NULL,
                               0,
                               NULL,
                               0 };
    }
    guint64 rc, rr, fc, fr;
    double rt = time_engine(ref, runs, min_seconds, &rc, &rr, error);
    double ft = rt < 0 ? -1 : time_engine(fast, runs, min_seconds, &fc, &fr, error);
    g_free(runs);
    g_free(counts);
    if (ft < 0)
        return FALSE;
    out->ref_cycles_per_s = (double)rc / rt;
    out->ref_records_per_s = (double)rr / rt;
    out->fast_cycles_per_s = (double)fc / ft;
    out->fast_records_per_s = (double)fr / ft;
    out->ratio = out->fast_cycles_per_s / out->ref_cycles_per_s;

    /* 2^47 cycles, one event per cycle, counter 0 preloaded 2^48 - 2^47 with
     * INT: it overflows in the last cycle. */
    pms_sim_reset(fast);
    if (!program(fast, error))
        return FALSE;
    const PmsRegister *ev0 = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    const PmsRegister *pmc0 = pms_model_reg_by_kind(m, PMS_REG_PMC, 0);
    guint64 sel;
    if (!pmc0 || !pms_sim_read(fast, ev0->address, &sel, error) ||
        !put(m, ev0, &sel, NAMES("int", "pmi_en"), 1, error) || !pms_sim_write(fast, ev0->address, sel, error) ||
        !pms_sim_set_counter(fast, pmc0->address,
                             ((G_GUINT64_CONSTANT(1) << m->gp_width) - (G_GUINT64_CONSTANT(1) << 47)), error))
        return FALSE;
    PmsSimCount one = { PMS_SIGNAL_KEY(0xc0, 0x00), 0, 1, 0 };
    PmsSimRun big = { (guint64)1 << 47, { 3, 3 }, &one, 1, NULL, 0, NULL, 0 };
    gint64 t0 = g_get_monotonic_time();
    if (!pms_sim_run(fast, &big, error))
        return FALSE;
    out->big_run_seconds = (double)(g_get_monotonic_time() - t0) / 1e6;
    out->big_run_cycles = big.cycles;
    guint n_pmis;
    const guint64 *pmis = pms_sim_pmis(fast, &n_pmis);
    out->big_run_overflowed = n_pmis == 1 && pmis[0] == big.cycles - 1;
    return TRUE;
}
