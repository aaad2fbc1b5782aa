/* The Xeon 7500 uncore device on the test-only model
 * models/tests/tinynhmex.pmu (U-Box, S-Box summaries, C-Boxes 0, 2 and 4;
 * the PMU name stands for C-Box 2).  Register values are written from the
 * register table (reference: 75UG Tables 2-10..2-14, Linux uncore_nhmex.c
 * for the U-Box bits); every expected value is derived by hand in the
 * comment above it and checked on both engines. */
#include <string.h>
#include "fixtures.h"

enum {
    U_CTL = 0xc00,
    U_STATUS = 0xc01,
    U_OVF = 0xc02,
    S0_SUM = 0xc43,
    S1_SUM = 0xcc3,
    C0 = 0xd00,
    C2 = 0xd40,
    C4 = 0xd20, /* box bases */
};
#define BOX_CTL(b) (b)
#define BOX_STATUS(b) ((b) + 1)
#define BOX_OVF(b) ((b) + 2)
#define EVT_SEL(b, k) ((b) + 0x10 + 2 * (k))
#define CTR(b, k) ((b) + 0x11 + 2 * (k))
#define X_EDGE (1u << 18)
#define X_PMI (1u << 20)
#define X_EN (1u << 22)
#define X_INV (1u << 23)
#define X_THR(t) ((guint64)(t) << 24)
#define U_PMI_CORE(c) ((guint64)(c) << 1)
#define U_EN_ALL ((guint64)1 << 28)
#define U_RST_ALL ((guint64)1 << 29)
#define U_FRZ_ALL ((guint64)1 << 31)
#define LLC_ALL PMS_SIGNAL_KEY(0x14, 0x07)
#define LLC_SHARED PMS_SIGNAL_KEY(0x14, 0x01)

static guint64 rd(PmsSim *s, guint32 a)
{
    guint64 v = 0xdead;
    CU_ASSERT_TRUE(pms_sim_read(s, a, &v, NULL));
    return v;
}

static PmsSim *nx(const char *delay, const char *invert, PmsSimEngine e, PmsModel **own)
{
    PmsModel *m = fx_model_with("tinynhmex", "pmi_freeze_delay", delay);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    pms_model_set_option(m, "invert", invert);
    *own = m;
    PmsSim *s = fx_sim(m, e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    return s;
}

/* One cycle per entry: n occurrences of LLC_MISSES.SHARED in box `box`
 * (0: the PMU's own, C-Box 2; n + 1: C-Box n). */
static void run_seq(PmsSim *s, const guint64 *n, guint len, guint box)
{
    for (guint i = 0; i < len; i++) {
        PmsSimCount c = { LLC_SHARED, 0, n[i], box };
        PmsSimRun r = { 1, { 0, 0 }, &c, 1, NULL, 0, NULL, 0 };
        CU_ASSERT_TRUE(pms_sim_run(s, &r, NULL));
    }
}

/* Three enables (75UG 2.1.1, Table 2-13): EVT_SEL.en, the box's ctr_en[k],
 * the U-Box's en_all.  n = 3,0,1,2 per cycle: with all three set, counter 1
 * of C-Box 2 adds 6; with any one missing, 0.  A signal of C-Box 0 does not
 * reach C-Box 2, and reaches C-Box 0 through `box`. */
static void test_enables(void)
{
    static const guint64 n[] = { 3, 0, 1, 2 };
    for (int e = 0; e < 2; e++)
        for (guint miss = 0; miss < 4; miss++) {
            PmsModel *m;
            PmsSim *s = nx("0", "documented", e ? PMS_SIM_FAST : PMS_SIM_REFERENCE, &m);
            CU_ASSERT_TRUE(pms_sim_write(s, EVT_SEL(C2, 1), 0x0114 | (miss == 0 ? 0 : X_EN), NULL));
            CU_ASSERT_TRUE(pms_sim_write(s, BOX_CTL(C2), miss == 1 ? 0x3d : 0x3f, NULL));
            CU_ASSERT_TRUE(pms_sim_write(s, EVT_SEL(C0, 0), 0x0114 | X_EN, NULL));
            CU_ASSERT_TRUE(pms_sim_write(s, BOX_CTL(C0), 0x1, NULL));
            CU_ASSERT_TRUE(pms_sim_write(s, U_CTL, miss == 2 ? 0 : U_EN_ALL, NULL));
            run_seq(s, n, 4, 0);
            run_seq(s, n, 4, 1); /* C-Box 0's signal */
            CU_ASSERT_EQUAL(rd(s, CTR(C2, 1)), miss == 3 ? 6 : 0);
            CU_ASSERT_EQUAL(rd(s, CTR(C0, 0)), miss == 2 ? 0 : 6);
            pms_sim_free(s);
            pms_model_free(m);
        }
}

/* Threshold, invert, edge in series on a multi-increment event, n =
 * 3,0,1,2: t=2 counts n >= 2: 1,0,0,1 = 2; t=2 i (documented, n < 2):
 * 0,1,1,0 = 2; t=2 i (literal, n > 2): 1,0,0,0 = 1; t=2 e: rising edges of
 * 1,0,0,1 = 2; t=2 i e (documented): rising edges of 0,1,1,0 = 1; t=0 adds
 * n = 6, with i too (A1). */
static void test_threshold_invert_edge(void)
{
    static const guint64 n[] = { 3, 0, 1, 2 };
    static const struct {
        guint64 bits;
        const char *invert;
        guint64 want;
    } cases[] = {
        { X_THR(2), "documented", 2 },
        { X_THR(2) | X_INV, "documented", 2 },
        { X_THR(2) | X_INV, "literal", 1 },
        { X_THR(2) | X_EDGE, "documented", 2 },
        { X_THR(2) | X_INV | X_EDGE, "documented", 1 },
        { 0, "documented", 6 },
        { X_INV, "literal", 6 },
    };
    for (int e = 0; e < 2; e++)
        for (guint k = 0; k < G_N_ELEMENTS(cases); k++) {
            PmsModel *m;
            PmsSim *s = nx("0", cases[k].invert, e ? PMS_SIM_FAST : PMS_SIM_REFERENCE, &m);
            CU_ASSERT_TRUE(pms_sim_write(s, EVT_SEL(C2, 0), 0x0114 | X_EN | cases[k].bits, NULL));
            CU_ASSERT_TRUE(pms_sim_write(s, BOX_CTL(C2), 0x1, NULL));
            CU_ASSERT_TRUE(pms_sim_write(s, U_CTL, U_EN_ALL, NULL));
            run_seq(s, n, 4, 0);
            CU_ASSERT_EQUAL(rd(s, CTR(C2, 0)), cases[k].want);
            pms_sim_free(s);
            pms_model_free(m);
        }
}

/* Overflow summaries (75UG p.2-3, p.2-47): C-Box 2 is S-Box 0's upper pair
 * (ov_c_r, bit 0), C-Box 0 its lower pair (ov_c_l, bit 2), C-Box 4 S-Box
 * 1's lower pair; the U-Box status shows ov_s0 (bit 2) / ov_s1 (bit 3).
 * Each counter is preloaded 2^48 - 1 and sees one event.  Clearing C-Box
 * 2's leaf clears S0.ov_c_r but not ov_s0 while C-Box 0's leaf holds it;
 * clearing C-Box 0's too clears ov_s0. */
static void test_summaries(void)
{
    for (int e = 0; e < 2; e++) {
        PmsModel *m;
        PmsSim *s = nx("0", "documented", e ? PMS_SIM_FAST : PMS_SIM_REFERENCE, &m);
        const guint32 bases[3] = { C0, C2, C4 };
        for (guint i = 0; i < 3; i++) {
            CU_ASSERT_TRUE(pms_sim_write(s, EVT_SEL(bases[i], 3), 0x0114 | X_EN, NULL));
            CU_ASSERT_TRUE(pms_sim_write(s, BOX_CTL(bases[i]), 0x8, NULL));
            CU_ASSERT_TRUE(pms_sim_write(s, CTR(bases[i], 3), ((guint64)1 << 48) - 1, NULL));
        }
        CU_ASSERT_TRUE(pms_sim_write(s, U_CTL, U_EN_ALL, NULL));
        PmsSimCount c[3] = { { LLC_SHARED, 0, 1, 1 }, { LLC_SHARED, 0, 1, 0 }, { LLC_SHARED, 0, 1, 5 } };
        PmsSimRun r = { 1, { 0, 0 }, c, 3, NULL, 0, NULL, 0 };
        CU_ASSERT_TRUE(pms_sim_run(s, &r, NULL));
        CU_ASSERT_EQUAL(rd(s, CTR(C2, 3)), 0);
        CU_ASSERT_EQUAL(rd(s, BOX_STATUS(C0)), 0x8);
        CU_ASSERT_EQUAL(rd(s, BOX_STATUS(C2)), 0x8);
        CU_ASSERT_EQUAL(rd(s, BOX_STATUS(C4)), 0x8);
        CU_ASSERT_EQUAL(rd(s, S0_SUM), 0x5);
        CU_ASSERT_EQUAL(rd(s, S1_SUM), 0x4);
        CU_ASSERT_EQUAL(rd(s, U_STATUS), 0xc);
        CU_ASSERT_TRUE(pms_sim_write(s, BOX_OVF(C2), 0x8, NULL));
        CU_ASSERT_EQUAL(rd(s, BOX_STATUS(C2)), 0);
        CU_ASSERT_EQUAL(rd(s, S0_SUM), 0x4);
        CU_ASSERT_EQUAL(rd(s, U_STATUS), 0xc);
        CU_ASSERT_TRUE(pms_sim_write(s, BOX_OVF(C0), 0x8, NULL));
        CU_ASSERT_EQUAL(rd(s, S0_SUM), 0);
        CU_ASSERT_EQUAL(rd(s, U_STATUS), 0x8);
        CU_ASSERT_EQUAL(rd(s, BOX_OVF(C0)), 0); /* a command: reads 0 */
        CU_ASSERT_TRUE(pms_sim_write(s, U_OVF, 0x8, NULL));
        CU_ASSERT_EQUAL(rd(s, U_STATUS), 0);
        guint np;
        pms_sim_pmis(s, &np);
        CU_ASSERT_EQUAL(np, 0); /* no pmi_en */
        pms_sim_free(s);
        pms_model_free(m);
    }
}

/* The precise-count experiment (75UG 2.1.2e, p.2-15): counter 0 of C-Box 2
 * preloaded 2^48 - 10 with pmi_en, counter 1 from 0, both counting 3 per
 * cycle, frz_all and pmi_core_sel = core 0.  After 4 cycles 12 >= 10
 * events: the carry out of bit 47 in cycle 3 (PMI recorded there),
 * counter 0 wrapped to 2.  Delay 0: en_all is clear from cycle 4 on: the
 * counters stay at 2 and 12.  Delay 5: they count through cycle 8 (9
 * cycles, 27 events): 17 and 27 - wrapped and still counting in between.
 * The same with the run fed in pieces of one cycle. */
static void test_precise_count_freeze(void)
{
    static const struct {
        const char *delay;
        guint64 c0, c1;
    } cases[] = { { "0", 2, 12 }, { "5", 17, 27 } };
    for (int e = 0; e < 2; e++)
        for (guint k = 0; k < G_N_ELEMENTS(cases); k++)
            for (int pieces = 0; pieces < 2; pieces++) {
                PmsModel *m;
                PmsSim *s = nx(cases[k].delay, "documented", e ? PMS_SIM_FAST : PMS_SIM_REFERENCE, &m);
                CU_ASSERT_TRUE(pms_sim_write(s, EVT_SEL(C2, 0), 0x0114 | X_EN | X_PMI, NULL));
                CU_ASSERT_TRUE(pms_sim_write(s, EVT_SEL(C2, 1), 0x0114 | X_EN, NULL));
                CU_ASSERT_TRUE(pms_sim_write(s, CTR(C2, 0), ((guint64)1 << 48) - 10, NULL));
                CU_ASSERT_TRUE(pms_sim_write(s, BOX_CTL(C2), 0x3, NULL));
                CU_ASSERT_TRUE(pms_sim_write(s, U_CTL, U_EN_ALL | U_FRZ_ALL | U_PMI_CORE(1), NULL));
                PmsSimCount c = { LLC_SHARED, 0, 3, 0 };
                PmsSimRun r = { pieces ? 1 : 20, { 0, 0 }, &c, 1, NULL, 0, NULL, 0 };
                for (int i = 0; i < (pieces ? 20 : 1); i++)
                    CU_ASSERT_TRUE(pms_sim_run(s, &r, NULL));
                CU_ASSERT_EQUAL(rd(s, CTR(C2, 0)), cases[k].c0);
                CU_ASSERT_EQUAL(rd(s, CTR(C2, 1)), cases[k].c1);
                CU_ASSERT_EQUAL(rd(s, U_CTL), U_FRZ_ALL | U_PMI_CORE(1)); /* en_all cleared */
                CU_ASSERT_EQUAL(rd(s, BOX_STATUS(C2)), 0x1);
                guint np;
                const guint64 *p = pms_sim_pmis(s, &np);
                CU_ASSERT_EQUAL_FATAL(np, 1);
                CU_ASSERT_EQUAL(p[0], 3);
                pms_sim_free(s);
                pms_model_free(m);
            }
}

/* A freeze never outlives its cycle into a write (issue 20 item 5): counter 0
 * of C-Box 2 preloaded 2^48-1 with pmi_en, frz_all set; one event in the
 * first cycle carries (cycle 0).  Delay d clears en_all at the end of cycle
 * d: after a first run of 1 + d cycles (the counter wraps to 0 and adds d)
 * U_CTL reads frz_all | pmi_core_sel, en_all 0.  Software clears the
 * overflow and writes en_all again before the next run; that run of 2
 * cycles counts 2 (no freeze is left pending to undo the re-enable): the
 * counter reads d + 2, as the x86 core in the same sequence. */
static void test_freeze_before_rewrite(void)
{
    static const struct {
        const char *delay;
        guint64 d;
    } cases[] = { { "0", 0 }, { "2", 2 } };
    for (int e = 0; e < 2; e++)
        for (guint k = 0; k < G_N_ELEMENTS(cases); k++) {
            PmsModel *m;
            PmsSim *s = nx(cases[k].delay, "documented", e ? PMS_SIM_FAST : PMS_SIM_REFERENCE, &m);
            guint64 on = U_EN_ALL | U_FRZ_ALL | U_PMI_CORE(1);
            CU_ASSERT_TRUE(pms_sim_write(s, U_CTL, on, NULL));
            CU_ASSERT_TRUE(pms_sim_write(s, BOX_CTL(C2), 0x1, NULL));
            CU_ASSERT_TRUE(pms_sim_write(s, EVT_SEL(C2, 0), 0x0114 | X_EN | X_PMI, NULL));
            CU_ASSERT_TRUE(pms_sim_write(s, CTR(C2, 0), ((guint64)1 << 48) - 1, NULL));
            PmsSimCount c = { LLC_SHARED, 0, 1, 0 };
            PmsSimRun r = { 1 + cases[k].d, { 0, 0 }, &c, 1, NULL, 0, NULL, 0 };
            CU_ASSERT_TRUE(pms_sim_run(s, &r, NULL));
            CU_ASSERT_EQUAL(rd(s, U_CTL), U_FRZ_ALL | U_PMI_CORE(1));
            CU_ASSERT_EQUAL(rd(s, CTR(C2, 0)), cases[k].d);
            CU_ASSERT_TRUE(pms_sim_write(s, BOX_OVF(C2), 0x1, NULL));
            CU_ASSERT_TRUE(pms_sim_write(s, U_CTL, on, NULL));
            r.cycles = 2;
            CU_ASSERT_TRUE(pms_sim_run(s, &r, NULL));
            CU_ASSERT_EQUAL(rd(s, CTR(C2, 0)), cases[k].d + 2);
            CU_ASSERT_EQUAL(rd(s, U_CTL), on);
            pms_sim_free(s);
            pms_model_free(m);
        }
}

/* Register behaviour: EVT_SEL 62:61 reserved (#GP), bit 16 ignored (no
 * #GP, reads 0); 48-bit counters; rst_all clears every counter. */
static void test_registers(void)
{
    PmsModel *m;
    PmsSim *s = nx("0", "documented", PMS_SIM_FAST, &m);
    g_autoptr(GError) err = NULL;
    CU_ASSERT_FALSE(pms_sim_write(s, EVT_SEL(C2, 0), 0x0114 | ((guint64)1 << 61), &err));
    CU_ASSERT(g_error_matches(err, PMS_SIM_ERROR, PMS_SIM_ERROR_GP));
    CU_ASSERT_TRUE(err && strstr(err->message, "C2_MSR_PMON_EVT_SEL0"));
    g_clear_error(&err);
    CU_ASSERT_TRUE(pms_sim_write(s, EVT_SEL(C2, 0), 0x0114 | (1u << 16) | ((guint64)1 << 63), NULL));
    CU_ASSERT_EQUAL(rd(s, EVT_SEL(C2, 0)), 0x0114);
    CU_ASSERT_FALSE(pms_sim_write(s, CTR(C4, 5), (guint64)1 << 48, &err));
    g_clear_error(&err);
    CU_ASSERT_FALSE(pms_sim_write(s, S0_SUM, 1, &err)); /* read-only */
    g_clear_error(&err);
    CU_ASSERT_TRUE(pms_sim_write(s, CTR(C4, 5), 77, NULL));
    CU_ASSERT_TRUE(pms_sim_write(s, CTR(C0, 0), 5, NULL));
    CU_ASSERT_TRUE(pms_sim_write(s, U_CTL, U_RST_ALL, NULL));
    CU_ASSERT_EQUAL(rd(s, CTR(C4, 5)), 0);
    CU_ASSERT_EQUAL(rd(s, CTR(C0, 0)), 0);
    pms_sim_free(s);
    pms_model_free(m);
}

/* The program step puts an event on the PMU's own C-Box (2): its EVT_SEL,
 * its ctr_en bit, and en_all. */
static void test_program(void)
{
    const PmsModel *m = fx_model("tinynhmex");
    const PmsEvent *ev = pms_model_event(m, "LLC_MISSES");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
    PmsPlacement pl;
    CU_ASSERT_TRUE_FATAL(pms_program_place(m, ev, PMS_UMASK_SET_EMPTY, &pl, NULL));
    CU_ASSERT_EQUAL(pl.counter, 0);
    guint64 code = 0x0714 | X_EN | X_THR(2) | X_INV;
    PmsRegWrite w[PMS_PROGRAM_MAX_WRITES];
    guint n = 0;
    CU_ASSERT_TRUE_FATAL(pms_program_writes(&pl, &code, 1, w, &n, NULL));
    CU_ASSERT_EQUAL_FATAL(n, 3);
    CU_ASSERT_EQUAL(w[0].address, EVT_SEL(C2, 0));
    CU_ASSERT_EQUAL(w[0].value, code);
    CU_ASSERT_EQUAL(w[1].address, BOX_CTL(C2));
    CU_ASSERT_EQUAL(w[1].mask, 0x1);
    CU_ASSERT_EQUAL(w[2].address, U_CTL);
    CU_ASSERT_EQUAL(w[2].value, U_EN_ALL);
    CU_ASSERT_EQUAL(pms_program_counter_reg(&pl)->address, CTR(C2, 0));
    CU_ASSERT_EQUAL(pms_program_status_reg(&pl)->address, BOX_STATUS(C2));
    CU_ASSERT_EQUAL(pms_program_status_bit(&pl), 0x1);
    /* programmed and run: the one-line experiment, t=2 i on 3,0,1,2 -> 2 */
    PmsSim *s = fx_sim(m, PMS_SIM_FAST);
    CU_ASSERT_TRUE(pms_sim_apply(s, w, n, NULL));
    static const guint64 occ[] = { 3, 0, 1, 2 };
    for (guint i = 0; i < 4; i++) {
        PmsSimCount c = { LLC_ALL, 0, occ[i], 0 };
        PmsSimRun r = { 1, { 0, 0 }, &c, 1, NULL, 0, NULL, 0 };
        CU_ASSERT_TRUE(pms_sim_run(s, &r, NULL));
    }
    CU_ASSERT_EQUAL(rd(s, CTR(C2, 0)), 2);
    pms_sim_free(s);
}

void register_nhmex_tests(void)
{
    CU_pSuite s = CU_add_suite("nhmex", NULL, NULL);
    CU_add_test(s, "three enables: EVT_SEL.en, box ctr_en, U-Box en_all; signals per box", test_enables);
    CU_add_test(s, "threshold, invert (documented and literal), edge in series", test_threshold_invert_edge);
    CU_add_test(s, "overflow summaries up to the U-Box, cleared from the leaf", test_summaries);
    CU_add_test(s, "precise count: preload 2^48-N, pmi_en, frz_all, freeze delay", test_precise_count_freeze);
    CU_add_test(s, "freeze with delay 0 and 2 done by the end of its cycle: a re-enable holds",
                test_freeze_before_rewrite);
    CU_add_test(s, "reserved #GP, ignored bits read 0, rst_all", test_registers);
    CU_add_test(s, "program step on the PMU's own C-Box", test_program);
}
