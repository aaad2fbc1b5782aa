/* sim/tests — perfmon v5 top-down in the x86 core device (sim/topdown.c):
 * fixed counter 3 counts the stimulus's slots, IA32_PERF_METRICS reads their
 * level-1 fractions.  Test model sim/tests/data/icl-td.pmu (glm with fixed
 * counter 3 and PERF_METRICS as CONTRACT names them).  Every expected value
 * is derived in its comment from docs/semantics.md §8c (T1-T5): a cycle has
 * 5 slots; field = the category's share of the slots times 255. */
#include <string.h>
#include "fixtures.h"
#include "program.h"

enum {
    A_FIXED3 = 0x30c,
    A_METRICS = 0x329,
};
#define EN3_ALL 0x3000ull       /* FIXED_CTR_CTRL en3 = 11b: every ring */
#define EN3_USR 0x2000ull       /* en3 = 10b: CPL > 0 */
#define GC_FC3 (1ull << 35)     /* GLOBAL_CTRL: fixed counter 3 */
#define GC_METRICS (1ull << 48) /* GLOBAL_CTRL: EN_PERF_METRICS */
#define ST_METRICS (1ull << 48) /* GLOBAL_STATUS: PERF_METRICS_OVF */
#define PM(r, b, f, k) ((guint64)(r) | (guint64)(b) << 8 | (guint64)(f) << 16 | (guint64)(k) << 24)

static void slots(PmsSim *s, const char *v)
{
    GError *e = NULL;
    gboolean ok = pms_sim_set_input(s, "slots", v, &e);
    if (!ok)
        fprintf(stderr, "# slots=%s: %s\n", v, e->message), g_error_free(e);
    CU_ASSERT_TRUE_FATAL(ok);
}

/* FC3 on in every ring, both global enables */
static PmsSim *td_sim(const PmsModel *m, PmsSimEngine engine)
{
    PmsSim *s = fx_sim(m, engine);
    fx_write(s, A_FIXED_CTRL, EN3_ALL);
    fx_write(s, A_GCTRL, GC_FC3 | GC_METRICS);
    return s;
}

/* 100 cycles of 2 retiring, 1 bad-spec, 1 front-end, 1 back-end slot:
 * FC3 = 500; retiring 2/5 of 255 = 102, the others 1/5 = 51 each. */
static void phase_a(PmsSim *s)
{
    slots(s, "retiring:2,bad_spec:1,fe_bound:1,be_bound:1");
    fx_run(s, 100, 0, 0, 0, 3, 3);
}

static void test_td_counts(void)
{
    for (int eng = 0; eng < 2; eng++) {
        g_autoptr(PmsSim) s = td_sim(fx_model("icl_td"), eng ? PMS_SIM_FAST : PMS_SIM_REFERENCE);
        phase_a(s);
        CU_ASSERT_EQUAL(fx_read(s, A_FIXED3), 500);
        CU_ASSERT_EQUAL(fx_read(s, A_METRICS), PM(102, 51, 51, 51));
        /* then 100 front-end-bound cycles: 1000 slots, retiring 200, bad 100,
         * fe 600, be 100: x255/1000 = 51, 25.5, 153, 25.5; sum255 gives the
         * one unit left to the first of the two equal remainders (bad_spec) */
        slots(s, "fe_bound:5");
        fx_run(s, 100, 0, 0, 0, 3, 3);
        CU_ASSERT_EQUAL(fx_read(s, A_FIXED3), 1000);
        CU_ASSERT_EQUAL(fx_read(s, A_METRICS), PM(51, 26, 153, 25));
        CU_ASSERT_EQUAL(fx_read(s, A_STATUS) & (ST_METRICS | (1ull << 35)), 0);
    }
}

/* T2's alternatives on the second phase above: floor 51,25,153,25 (sum 254);
 * nearest (half up) 51,26,153,26 (sum 256). */
static void test_td_rounding(void)
{
    static const struct {
        const char *opt;
        guint64 want;
    } c[] = { { "floor", PM(51, 25, 153, 25) }, { "nearest", PM(51, 26, 153, 26) }, { "sum255", PM(51, 26, 153, 25) } };
    for (guint i = 0; i < G_N_ELEMENTS(c); i++) {
        g_autoptr(PmsModel) m = fx_model_with("icl_td", "perf_metrics_rounding", c[i].opt);
        g_autoptr(PmsSim) s = td_sim(m, PMS_SIM_FAST);
        phase_a(s);
        slots(s, "fe_bound:5");
        fx_run(s, 100, 0, 0, 0, 3, 3);
        CU_ASSERT_EQUAL(fx_read(s, A_METRICS), c[i].want);
    }
}

/* The reset rule (T5): FC3 then PERF_METRICS, both 0, starts afresh: 10
 * back-end cycles read 0xff back-end.  The other order leaves the zero
 * fractions weighing as the 500 slots FC3 held at the PERF_METRICS write:
 * 50 / (500 + 50) x 255 = 23.18 -> 23. */
static void test_td_reset_order(void)
{
    g_autoptr(PmsSim) s = td_sim(fx_model("icl_td"), PMS_SIM_FAST);
    phase_a(s);
    fx_write(s, A_FIXED3, 0);
    fx_write(s, A_METRICS, 0);
    slots(s, "be_bound:5");
    fx_run(s, 10, 0, 0, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED3), 50);
    CU_ASSERT_EQUAL(fx_read(s, A_METRICS), PM(0, 0, 0, 255));

    g_autoptr(PmsSim) r = td_sim(fx_model("icl_td"), PMS_SIM_FAST);
    phase_a(r);
    fx_write(r, A_METRICS, 0);
    fx_write(r, A_FIXED3, 0);
    slots(r, "be_bound:5");
    fx_run(r, 10, 0, 0, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(r, A_FIXED3), 50);
    CU_ASSERT_EQUAL(fx_read(r, A_METRICS), PM(0, 0, 0, 23));

    /* option reset: any PERF_METRICS write drops the history, so the order
     * no longer matters: 0xff back-end again */
    g_autoptr(PmsModel) m = fx_model_with("icl_td", "perf_metrics_write", "reset");
    g_autoptr(PmsSim) q = td_sim(m, PMS_SIM_FAST);
    phase_a(q);
    fx_write(q, A_METRICS, 0);
    fx_write(q, A_FIXED3, 0);
    slots(q, "be_bound:5");
    fx_run(q, 10, 0, 0, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(q, A_METRICS), PM(0, 0, 0, 255));
}

/* A saved (FC3, PERF_METRICS) pair restored FC3 first reads back as written;
 * 500 more retiring slots then weigh as much as the 500 restored:
 * retiring (102 + 255) / 2 = 178.5, the others 25.5: floor 178,25,25,25 = 253,
 * two units to the largest remainders (all .5: retiring, bad_spec first). */
static void test_td_restore(void)
{
    g_autoptr(PmsSim) s = td_sim(fx_model("icl_td"), PMS_SIM_FAST);
    fx_write(s, A_FIXED3, 500);
    fx_write(s, A_METRICS, PM(102, 51, 51, 51));
    CU_ASSERT_EQUAL(fx_read(s, A_METRICS), PM(102, 51, 51, 51));
    slots(s, "retiring:5");
    fx_run(s, 100, 0, 0, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED3), 1000);
    CU_ASSERT_EQUAL(fx_read(s, A_METRICS), PM(179, 26, 25, 25));
}

/* T4: EN_PERF_METRICS = 0 with FC3 on.  After phase A, 100 front-end
 * cycles with bit 48 clear: FC3 1000; freeze keeps the phase-A fractions,
 * zero reads 0, count reads the second phase's 51,26,153,25. */
static void test_td_disabled(void)
{
    static const struct {
        const char *opt;
        guint64 want;
    } c[] = { { "freeze", PM(102, 51, 51, 51) }, { "zero", 0 }, { "count", PM(51, 26, 153, 25) } };
    for (guint i = 0; i < G_N_ELEMENTS(c); i++) {
        g_autoptr(PmsModel) m = fx_model_with("icl_td", "perf_metrics_disabled", c[i].opt);
        g_autoptr(PmsSim) s = td_sim(m, PMS_SIM_FAST);
        phase_a(s);
        fx_write(s, A_GCTRL, GC_FC3);
        slots(s, "fe_bound:5");
        fx_run(s, 100, 0, 0, 0, 3, 3);
        CU_ASSERT_EQUAL(fx_read(s, A_FIXED3), 1000);
        CU_ASSERT_EQUAL(fx_read(s, A_METRICS), c[i].want);
        /* bit 48 set again: freeze counts on from where it stood */
        if (i == 0) {
            fx_write(s, A_GCTRL, GC_FC3 | GC_METRICS);
            fx_run(s, 100, 0, 0, 0, 3, 3);
            /* 500 + 500 fe slots: retiring 200/1000, bad 100, fe 600, be 100 */
            CU_ASSERT_EQUAL(fx_read(s, A_METRICS), PM(51, 26, 153, 25));
        }
    }
}

/* FC3's own gate: en3 = 10b counts at CPL > 0 only, and so do the metrics:
 * 10 cycles at CPL 0 add nothing, 10 at CPL 3 add 50 slots.  Without
 * GLOBAL_CTRL bit 35 FC3 and the metrics stand still. */
static void test_td_gate(void)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("icl_td"), PMS_SIM_REFERENCE);
    fx_write(s, A_FIXED_CTRL, EN3_USR);
    fx_write(s, A_GCTRL, GC_FC3 | GC_METRICS);
    slots(s, "retiring:5");
    fx_run(s, 10, 0, 0, 0, 0, 0);
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED3), 0);
    CU_ASSERT_EQUAL(fx_read(s, A_METRICS), 0);
    slots(s, "fe_bound:5");
    fx_run(s, 10, 0, 0, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED3), 50);
    CU_ASSERT_EQUAL(fx_read(s, A_METRICS), PM(0, 0, 255, 0));
    fx_write(s, A_GCTRL, GC_METRICS);
    slots(s, "retiring:5");
    fx_run(s, 10, 0, 0, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED3), 50);
    CU_ASSERT_EQUAL(fx_read(s, A_METRICS), PM(0, 0, 255, 0));
    /* the other fixed counters keep their bits: FC0..2 stay off */
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED0), 0);
}

/* T3 with perf_metrics_width = 10: the slot total carries at 1024.  204
 * cycles (1020 slots) leave bit 48 clear; one more (1025) sets it, and FC3
 * (48 bits) does not overflow.  GLOBAL_STATUS_RESET bit 48 clears it. */
static void test_td_overflow(void)
{
    g_autoptr(PmsModel) m = fx_model_with("icl_td", "perf_metrics_width", "10");
    for (int eng = 0; eng < 2; eng++) {
        g_autoptr(PmsSim) s = td_sim(m, eng ? PMS_SIM_FAST : PMS_SIM_REFERENCE);
        slots(s, "retiring:4,be_bound:1");
        fx_run(s, 204, 0, 0, 0, 3, 3);
        CU_ASSERT_EQUAL(fx_read(s, A_STATUS) & ST_METRICS, 0);
        fx_run(s, 1, 0, 0, 0, 3, 3);
        CU_ASSERT_EQUAL(fx_read(s, A_STATUS) & (ST_METRICS | (1ull << 35)), ST_METRICS);
        /* the fractions stay exact: 4/5 and 1/5 of 255 */
        CU_ASSERT_EQUAL(fx_read(s, A_METRICS), PM(204, 0, 0, 51));
        fx_write(s, A_OVF, ST_METRICS);
        CU_ASSERT_EQUAL(fx_read(s, A_STATUS) & ST_METRICS, 0);
    }
}

/* The run key's errors (docs/stimulus-format.md). */
static void test_td_key_errors(void)
{
    g_autoptr(PmsSim) s = td_sim(fx_model("icl_td"), PMS_SIM_FAST);
    static const struct {
        const char *v, *msg;
    } bad[] = {
        { "retiring:2,be_bound:2", "add up to 4" },
        { "retiring:3,retiring:2", "given twice" },
        { "frontend:5", "expected CATEGORY:N" },
        { "retiring:x", "expected a number of slots 0..5" },
        { "retiring:6", "expected a number of slots 0..5" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(GError) e = NULL;
        CU_ASSERT_FALSE(pms_sim_set_input(s, "slots", bad[i].v, &e));
        CU_ASSERT_PTR_NOT_NULL(e);
        if (e && !strstr(e->message, bad[i].msg))
            fprintf(stderr, "# slots=%s: %s\n", bad[i].v, e->message);
        CU_ASSERT_PTR_NOT_NULL(e ? strstr(e->message, bad[i].msg) : NULL);
    }
    /* slots_width = 4 makes a 4-slot cycle whole */
    g_autoptr(PmsModel) m = fx_model_with("icl_td", "slots_width", "4");
    g_autoptr(PmsSim) w = td_sim(m, PMS_SIM_FAST);
    slots(w, "retiring:2,be_bound:2");
    fx_run(w, 10, 0, 0, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(w, A_FIXED3), 40);
    CU_ASSERT_EQUAL(fx_read(w, A_METRICS), PM(128, 0, 0, 127));
}

/* A model without fixed counter 3 cannot have PERF_METRICS. */
static void test_td_model_refused(void)
{
    g_autofree char *text = NULL;
    CU_ASSERT_TRUE_FATAL(g_file_get_contents(PMS_SRCDIR "/sim/tests/data/icl-td.pmu", &text, NULL, NULL));
    g_autoptr(GString) t = g_string_new(text);
    g_string_replace(t, "fixed_counters = 4", "fixed_counters = 3", 1);
    g_string_replace(t, "[register IA32_FIXED_CTR3]", "[register IA32_FIXED_CTR3_GONE]\nkind = pmc\n", 1);
    g_autoptr(GError) e = NULL;
    g_autoptr(PmsModel) m = pms_model_load_data(t->str, t->len, "icl-td.pmu", &e);
    if (!m)
        return; /* the loader refusing it is as good */
    g_autoptr(PmsSim) s = pms_sim_new(m, &e);
    CU_ASSERT_PTR_NULL(s);
}

/* The program step for TOPDOWN_M (flags = metrics): a metric unit mask
 * (RETIRING 0x80 ... BACKEND_BOUND 0x83) is placed on fixed counter 3 although
 * its own fixed mask is 0, and programs GLOBAL_CTRL bits 35 and 48; its
 * reading is PERF_METRICS bits 8k+7:8k for k = umask & 0x7f.  SLOTS is fixed
 * counter 3 alone: bit 35, no metric. */
static void test_td_program(void)
{
    const PmsModel *m = fx_model("icl_td");
    const PmsEvent *ev = pms_model_event(m, "TOPDOWN_M");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
    static const struct {
        const char *um;
        guint64 code0, gc;
        gboolean metric;
        guint shift;
    } c[] = {
        { "SLOTS", 0x530400, GC_FC3, FALSE, 0 },
        { "RETIRING", 0x538000, GC_FC3 | GC_METRICS, TRUE, 0 },
        { "BAD_SPEC", 0x538100, GC_FC3 | GC_METRICS, TRUE, 8 },
        { "FRONTEND_BOUND", 0x538200, GC_FC3 | GC_METRICS, TRUE, 16 },
        { "BACKEND_BOUND", 0x518300, GC_FC3 | GC_METRICS, TRUE, 24 },
    };
    for (guint i = 0; i < G_N_ELEMENTS(c); i++) {
        PmsUmaskSet umask_mask = PMS_UMASK_SET_EMPTY;
        for (guint u = 0; u < ev->n_umasks; u++)
            if (strcmp(ev->umasks[u].name, c[i].um) == 0)
                umask_mask = pms_uset_bit(u);
        CU_ASSERT_FALSE_FATAL(pms_uset_empty(umask_mask));
        PmsPlacement pl;
        g_autoptr(GError) e = NULL;
        CU_ASSERT_TRUE_FATAL(pms_program_place(m, ev, umask_mask, &pl, &e));
        CU_ASSERT_TRUE(pl.fixed);
        CU_ASSERT_EQUAL(pl.counter, 3);
        PmsRegWrite w[PMS_PROGRAM_MAX_WRITES];
        guint n = 0;
        CU_ASSERT_TRUE_FATAL(pms_program_writes(&pl, &c[i].code0, 1, w, &n, &e));
        guint64 fc = 0, gc = 0;
        for (guint k = 0; k < n; k++) {
            if (w[k].address == A_FIXED_CTRL)
                fc = w[k].value;
            if (w[k].address == A_GCTRL)
                gc = w[k].value;
        }
        /* usr+os: en3 = 11b; usr only: 10b; int: pmi3 */
        CU_ASSERT_EQUAL(fc, (c[i].code0 & 0x20000 ? 0x3000 : 0x2000) | 0x8000);
        CU_ASSERT_EQUAL(gc, c[i].gc);
        const PmsRegister *r = NULL;
        guint shift = 99, width = 0;
        CU_ASSERT_EQUAL(pms_program_metric(&pl, c[i].code0, &r, &shift, &width), c[i].metric);
        if (c[i].metric) {
            CU_ASSERT_EQUAL(r ? r->address : 0, A_METRICS);
            CU_ASSERT_EQUAL(shift, c[i].shift);
            CU_ASSERT_EQUAL(width, 8);
        }
    }
    /* an event without the flag has no metric, whatever its umask */
    const PmsEvent *td = pms_model_event(m, "TOPDOWN");
    PmsPlacement pl = { m, td, 3, TRUE };
    const PmsRegister *r;
    guint shift, width;
    CU_ASSERT_FALSE(pms_program_metric(&pl, 0x538000, &r, &shift, &width));
}

/* On models/icl.pmu the fixed counters' signals come from the unit masks
 * that may use them (no default unit mask): FIXED_CTR3 counts TOPDOWN.SLOTS
 * (0x00/0x04) as a signal too, FIXED_CTR2 CPU_CLK_UNHALTED.REF_TSC
 * (0x00/0x03), not the core cycles 0x3c/0x00 of its event's code. */
static void test_td_icl_fixed_signals(void)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("icl"), PMS_SIM_FAST);
    fx_write(s, A_FIXED_CTRL, EN3_ALL | 0x300); /* FIXED_CTR2 and 3, every ring */
    fx_write(s, A_GCTRL, GC_FC3 | (1ull << 34));
    fx_run(s, 10, PMS_SIGNAL_KEY(0x00, 0x04), 5, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED3), 50);
    fx_run(s, 10, PMS_SIGNAL_KEY(0x3c, 0x00), 1, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED0 + 2), 0);
    fx_run(s, 10, PMS_SIGNAL_KEY(0x00, 0x03), 1, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED0 + 2), 10);
    /* and the slots of slots= on the real model: 10 cycles, 5 slots each */
    slots(s, "retiring:5");
    fx_run(s, 10, 0, 0, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED3), 100);
}

void register_topdown_tests(void)
{
    CU_pSuite s = CU_add_suite("topdown", NULL, NULL);
    CU_add_test(s, "FC3 counts the slots, PERF_METRICS their fractions", test_td_counts);
    CU_add_test(s, "rounding options", test_td_rounding);
    CU_add_test(s, "reset: FC3 first, then PERF_METRICS", test_td_reset_order);
    CU_add_test(s, "restoring a saved pair", test_td_restore);
    CU_add_test(s, "EN_PERF_METRICS = 0", test_td_disabled);
    CU_add_test(s, "FC3's enable and CPL gate", test_td_gate);
    CU_add_test(s, "PERF_METRICS_OVF", test_td_overflow);
    CU_add_test(s, "slots= errors", test_td_key_errors);
    CU_add_test(s, "PERF_METRICS without FC3 refused", test_td_model_refused);
    CU_add_test(s, "program step: TOPDOWN_M on fixed counter 3", test_td_program);
    CU_add_test(s, "icl: the fixed counters' signals from their unit masks", test_td_icl_fixed_signals);
}
