/* The pure pipeline and every i/e/c combination through a real counter.
 * Expected values are derived by hand in the comments from semantics.md §1
 * (SDM 18-4: cmask/inv/edge; A1: inv ignored at c = 0; A2: edge at c = 0
 * acts on n > 0; A4: the latch starts at 0 after the evtsel write). */
#include "fixtures.h"

static PmsPipeCfg cfg0(void)
{
    PmsPipeCfg c = { 0 };
    c.usr = c.os = TRUE;
    c.n_threads = 1;
    return c;
}

static void test_pipe_stages(void)
{
    guint64 n[2] = { 3, 4 };
    guint8 cpl[2] = { 3, 0 };
    PmsPipeCfg c = cfg0();
    PmsPipeOut o = pms_sim_pipe(&c, n, cpl, FALSE);
    CU_ASSERT_EQUAL(o.n, 3);
    CU_ASSERT_EQUAL(o.inc, 3); /* c = 0: add n */
    CU_ASSERT_TRUE(o.cond);
    c.cmask = 3;
    o = pms_sim_pipe(&c, n, cpl, FALSE);
    CU_ASSERT_EQUAL(o.inc, 1); /* 3 >= 3 */
    c.cmask = 4;
    o = pms_sim_pipe(&c, n, cpl, FALSE);
    CU_ASSERT_EQUAL(o.inc, 0); /* 3 < 4 */
    c.inv = TRUE;
    o = pms_sim_pipe(&c, n, cpl, FALSE);
    CU_ASSERT_EQUAL(o.inc, 1); /* inv: 3 < 4 */
    c.edge = TRUE;
    o = pms_sim_pipe(&c, n, cpl, TRUE);
    CU_ASSERT_EQUAL(o.inc, 0); /* condition already true: no rising edge */
    CU_ASSERT_TRUE(o.latch);
    o = pms_sim_pipe(&c, n, cpl, FALSE);
    CU_ASSERT_EQUAL(o.inc, 1);
    CU_ASSERT_TRUE(o.edge);
    /* post gate: usr only at CPL 3 counts; os only does not */
    c = cfg0();
    c.os = FALSE;
    CU_ASSERT_EQUAL(pms_sim_pipe(&c, n, cpl, FALSE).inc, 3);
    c.os = TRUE;
    c.usr = FALSE;
    CU_ASSERT_EQUAL(pms_sim_pipe(&c, n, cpl, FALSE).inc, 0);
    /* any-thread on SMT: thread 1 is at CPL 0 and os=0 -> only thread 0's 3 */
    c = cfg0();
    c.os = FALSE;
    c.any = c.smt = TRUE;
    c.n_threads = 2;
    CU_ASSERT_EQUAL(pms_sim_pipe(&c, n, cpl, FALSE).inc, 3);
    c.os = TRUE;
    CU_ASSERT_EQUAL(pms_sim_pipe(&c, n, cpl, FALSE).inc, 7); /* SUM 3 + 4 */
    c.combine_or = TRUE;
    CU_ASSERT_EQUAL(pms_sim_pipe(&c, n, cpl, FALSE).inc, 1); /* OR */
    c.smt = FALSE;                                           /* AnyThread ignored without SMT (glm) */
    c.combine_or = FALSE;
    CU_ASSERT_EQUAL(pms_sim_pipe(&c, n, cpl, FALSE).inc, 3);
}

/* n = 3, 0, 1, 2 on four consecutive cycles (the one-line example). */
static const guint64 seq[4] = { 3, 0, 1, 2 };

typedef struct {
    guint c;
    gboolean i, e;
    guint64 expect;
    const char *why;
} Combo;

static const Combo combos[] = {
    { 0, 0, 0, 6, "c=0: 3+0+1+2" },
    { 0, 1, 0, 6, "c=0: inv ignored (A1)" },
    { 0, 0, 1, 2, "c=0,e: cond n>0 = 1,0,1,1; rises at cycles 0 and 2 (A2)" },
    { 0, 1, 1, 2, "c=0,i,e: inv ignored, as above" },
    { 1, 0, 0, 3, "c=1: n>=1 = 1,0,1,1" },
    { 1, 1, 0, 1, "c=1,i: n<1 = 0,1,0,0" },
    { 1, 0, 1, 2, "c=1,e: 1,0,1,1 rises at 0 and 2" },
    { 1, 1, 1, 1, "c=1,i,e: 0,1,0,0 rises at 1" },
    { 2, 0, 0, 2, "c=2: n>=2 = 1,0,0,1" },
    { 2, 1, 0, 2, "c=2,i: n<2 = 0,1,1,0" },
    { 2, 0, 1, 2, "c=2,e: 1,0,0,1 rises at 0 and 3" },
    { 2, 1, 1, 1, "c=2,i,e: 0,1,1,0 rises at 1" },
    { 255, 0, 0, 0, "c=255: never n>=255" },
    { 255, 1, 0, 4, "c=255,i: always n<255" },
    { 255, 0, 1, 0, "c=255,e: never true, no edge" },
    { 255, 1, 1, 1, "c=255,i,e: true from cycle 0, latch 0 after the write: one edge (A4)" },
};

static void run_combos(PmsSimEngine engine)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), engine);
    guint32 sig = PMS_SIGNAL_KEY(0xc0, 0x01);
    for (guint k = 0; k < G_N_ELEMENTS(combos); k++) {
        const Combo *c = &combos[k];
        fx_write(s, A_EVTSEL0,
                 EVTSEL(0xc0, 0x01, EV_USR | EV_OS | EV_EN | (c->i ? EV_INV : 0) | (c->e ? EV_E : 0) | EV_CMASK(c->c)));
        fx_write(s, A_PMC0, 0);
        fx_run_seq(s, sig, seq, 4, 3);
        guint64 got = fx_read(s, A_PMC0);
        if (got != c->expect)
            fprintf(stderr, "# c=%u i=%d e=%d: got %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT " (%s)\n", c->c,
                    c->i, c->e, got, c->expect, c->why);
        CU_ASSERT_EQUAL(got, c->expect);
    }
}

static void test_combos_reference(void)
{
    run_combos(PMS_SIM_REFERENCE);
}
static void test_combos_fast(void)
{
    run_combos(PMS_SIM_FAST);
}

static void test_edge_latch_lifetime(void)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), PMS_SIM_REFERENCE);
    guint32 sig = PMS_SIGNAL_KEY(0xc0, 0x01);
    guint64 ev = EVTSEL(0xc0, 0x01, EV_USR | EV_EN | EV_E | EV_CMASK(1));
    fx_write(s, A_EVTSEL0, ev);
    fx_run(s, 5, sig, 1, 0, 3, 3); /* one rising edge at cycle 0 */
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 1);
    CU_ASSERT_TRUE(pms_sim_edge_latch(s, 0));
    /* A4: GLOBAL_CTRL off and on keeps the latch: no new edge */
    fx_write(s, A_GCTRL, 0);
    fx_run(s, 3, sig, 1, 0, 3, 3);
    fx_write(s, A_GCTRL, 0xf);
    fx_run(s, 3, sig, 1, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 1);
    /* A4: latch unchanged on disabled cycles: n drops to 0 while disabled */
    fx_write(s, A_GCTRL, 0);
    fx_run(s, 3, sig, 0, 0, 3, 3);
    fx_write(s, A_GCTRL, 0xf);
    fx_run(s, 3, sig, 1, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 1);
    /* A4: rewriting the evtsel resets the latch: the true condition is a new edge */
    fx_write(s, A_EVTSEL0, ev);
    fx_run(s, 3, sig, 1, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 2);
    CU_ASSERT_FALSE(pms_sim_edge_latch(s, 99));
}

/* The intermediate stages a trace shows (semantics.md §1, A3): any-thread
 * on an SMT part filters each thread by its own CPL, then sums; own-thread
 * counting (cpl_gate post) compares the unfiltered n and gates the
 * increment; thr is the comparison before invert. */
static void test_pipe_intermediate(void)
{
    guint64 n[2] = { 3, 4 };
    guint8 cpl[2] = { 0, 3 };
    PmsPipeCfg c = cfg0();
    c.os = FALSE;
    c.smt = TRUE;
    c.n_threads = 2;
    c.any = TRUE;
    c.cmask = 2;
    PmsPipeOut o = pms_sim_pipe(&c, n, cpl, FALSE);
    /* usr only: thread 0 at CPL 0 fails, thread 1 at CPL 3 passes: n = 0 + 4 = 4 >= 2 */
    CU_ASSERT_FALSE(o.gate[0]);
    CU_ASSERT_TRUE(o.gate[1]);
    CU_ASSERT_TRUE(o.gate_pre);
    CU_ASSERT_TRUE(o.combined);
    CU_ASSERT_EQUAL(o.n, 4);
    CU_ASSERT_TRUE(o.thr);
    CU_ASSERT_TRUE(o.cond);
    CU_ASSERT_EQUAL(o.inc, 1);
    CU_ASSERT_FALSE(o.blocked);
    /* own thread: n = 3 unfiltered, 3 >= 2, increment 1 before the gate, CPL 0 blocks it */
    c.any = FALSE;
    o = pms_sim_pipe(&c, n, cpl, FALSE);
    CU_ASSERT_FALSE(o.gate_pre);
    CU_ASSERT_FALSE(o.combined);
    CU_ASSERT_EQUAL(o.n, 3);
    CU_ASSERT_TRUE(o.thr);
    CU_ASSERT_EQUAL(o.inc_pre, 1);
    CU_ASSERT_TRUE(o.blocked);
    CU_ASSERT_EQUAL(o.inc, 0);
    /* inv at CPL 3: thr (3 >= 2) stays true, the condition (3 < 2) is false: nothing to block */
    c.inv = TRUE;
    cpl[0] = 3;
    o = pms_sim_pipe(&c, n, cpl, FALSE);
    CU_ASSERT_TRUE(o.thr);
    CU_ASSERT_FALSE(o.cond);
    CU_ASSERT_EQUAL(o.inc, 0);
    CU_ASSERT_FALSE(o.blocked);
}

typedef struct {
    guint n;
    PmsSimTrace rec[8];
} Spans;

static void on_span(const PmsSimTrace *t, gpointer data)
{
    Spans *sp = data;
    if (!t->fixed && t->index == 0 && sp->n < G_N_ELEMENTS(sp->rec))
        sp->rec[sp->n++] = *t;
}

/* pms_sim_set_trace_spans: the fast engine reports a run as its first cycle
 * and the rest.  PMC0 (48 bits, no int) preloaded 2^48 - 3 counts n = 1 for
 * 2^47 cycles: cycle 0 -> 2^48 - 2, no carry; cycles 1 .. 2^47 - 1 carry
 * once (at cycle 2) and end at 2^48 - 3 + 2^47 - 2^48 = 2^47 - 3. */
static void test_trace_spans(void)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), PMS_SIM_FAST);
    guint32 sig = PMS_SIGNAL_KEY(0xc0, 0x01);
    fx_write(s, A_EVTSEL0, EVTSEL(0xc0, 0x01, EV_USR | EV_OS | EV_EN));
    CU_ASSERT_TRUE(pms_sim_set_counter(s, A_PMC0, ((guint64)1 << 48) - 3, NULL));
    Spans sp = { 0 };
    pms_sim_set_trace(s, on_span, &sp);
    pms_sim_set_trace_spans(s, TRUE);
    guint64 big = (guint64)1 << 47;
    fx_run(s, big, sig, 1, 0, 3, 3);
    CU_ASSERT_EQUAL_FATAL(sp.n, 2);
    CU_ASSERT_EQUAL(sp.rec[0].cycle, 0);
    CU_ASSERT_EQUAL(sp.rec[0].cycles, 1);
    CU_ASSERT_EQUAL(sp.rec[0].value, ((guint64)1 << 48) - 2);
    CU_ASSERT_EQUAL(sp.rec[0].carries, 0);
    CU_ASSERT_EQUAL(sp.rec[0].inc, 1);
    CU_ASSERT_EQUAL(sp.rec[1].cycle, big - 1);
    CU_ASSERT_EQUAL(sp.rec[1].cycles, big - 1);
    CU_ASSERT_EQUAL(sp.rec[1].value, big - 3);
    CU_ASSERT_EQUAL(sp.rec[1].carries, 1);
    CU_ASSERT_TRUE(sp.rec[1].overflow);
    CU_ASSERT_EQUAL(sp.rec[1].pmis, 0);
    CU_ASSERT_EQUAL(sp.rec[1].occ[0], 1);
    CU_ASSERT_EQUAL(sp.rec[1].mask, ((guint64)1 << 48) - 1);
    /* GLOBAL_CTRL off: one disabled span whose reason is the global control */
    sp.n = 0;
    fx_write(s, A_GCTRL, 0);
    fx_run(s, 5, sig, 1, 0, 3, 3);
    CU_ASSERT_EQUAL_FATAL(sp.n, 1);
    CU_ASSERT_FALSE(sp.rec[0].enabled);
    CU_ASSERT_EQUAL(sp.rec[0].cycles, 5);
    CU_ASSERT_EQUAL(sp.rec[0].off, PMS_SIM_OFF_GLOBAL);
    pms_sim_set_trace(s, NULL, NULL);
}

void register_pipe_tests(void)
{
    CU_pSuite s = CU_add_suite("sim pipeline", NULL, NULL);
    CU_add_test(s, "pure pipeline stages", test_pipe_stages);
    CU_add_test(s, "intermediate stages", test_pipe_intermediate);
    CU_add_test(s, "fast engine trace spans", test_trace_spans);
    CU_add_test(s, "every c/i/e combination, c in 0,1,2,255 (reference)", test_combos_reference);
    CU_add_test(s, "every c/i/e combination, c in 0,1,2,255 (fast)", test_combos_fast);
    CU_add_test(s, "edge latch lifetime (A4)", test_edge_latch_lifetime);
}
