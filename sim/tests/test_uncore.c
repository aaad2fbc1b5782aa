/* The x86 uncore device on the test-only model models/tests/tinyunc.pmu.
 * Register values are written from the SDM's uncore figures (Vol. 3B
 * 18.8.2: Fig 18-25 GLOBAL_CTRL, 18-26 STATUS, 18-27 OVF_CTRL, 18-28
 * PERFEVTSEL, 18-29 fixed control); every expected count is derived by hand
 * in the comment above it, and checked on both engines. */
#include "fixtures.h"

enum {
    U_GCTRL = 0x391,
    U_STATUS = 0x392,
    U_OVF = 0x393,
    U_FIXED = 0x394,
    U_FIXED_CTRL = 0x395,
    U_PMC0 = 0x3b0,
    U_EVTSEL0 = 0x3c0,
};
#define U_OCC (1u << 17)
#define U_E (1u << 18)
#define U_INT (1u << 20)
#define U_EN (1u << 22)
#define U_INV (1u << 23)
#define U_CMASK(c) ((guint64)(c) << 24)
#define GC_PC(n) ((guint64)1 << (n))
#define GC_FC0 ((guint64)1 << 32)
#define GC_PMI_CORE(n) ((guint64)1 << (48 + (n)))
#define GC_FRZ ((guint64)1 << 63)
#define ST_PMI ((guint64)1 << 61)
#define ST_CHG ((guint64)1 << 63)
#define W48 (((guint64)1 << 48) - 1)

static guint64 rd(PmsSim *s, guint32 a)
{
    guint64 v = 0xdead;
    CU_ASSERT_TRUE(pms_sim_read(s, a, &v, NULL));
    return v;
}

/* One cycle per entry: n occurrences of UNC_LLC_MISS.READ (0x09.0x01) at CPL cpl. */
static void run_seq(PmsSim *s, const guint64 *n, guint len, guint8 cpl)
{
    for (guint i = 0; i < len; i++) {
        PmsSimCount c = { PMS_SIGNAL_KEY(0x09, 0x01), 0, n[i], 0 };
        PmsSimRun r = { 1, { cpl, cpl }, &c, 1, NULL, 0, NULL, 0 };
        CU_ASSERT_TRUE(pms_sim_run(s, &r, NULL));
    }
}

static PmsSim *uncore(PmsSimEngine e)
{
    const PmsModel *m = fx_model("tinyunc");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    PmsSim *s = fx_sim(m, e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    return s;
}

/* Counting needs EN and EN_PCk; no privilege filter: CPL 0 and 3 count
 * alike.  n = 3,0,1,2: c=0 adds n (6); c=2 adds 1 where n >= 2 (2); c=2 i
 * adds 1 where n < 2 (2); c=1 e adds 1 per rising edge of n >= 1 (2). */
static void test_counting(void)
{
    static const guint64 n[] = { 3, 0, 1, 2 };
    static const struct {
        guint64 bits;
        guint64 want;
    } cases[] = {
        { 0, 6 },
        { U_CMASK(2), 2 },
        { U_CMASK(2) | U_INV, 2 },
        { U_CMASK(1) | U_E, 2 },
    };
    for (int e = 0; e < 2; e++)
        for (guint k = 0; k < G_N_ELEMENTS(cases); k++)
            for (guint8 cpl = 0; cpl <= 3; cpl += 3) {
                PmsSim *s = uncore(e ? PMS_SIM_FAST : PMS_SIM_REFERENCE);
                CU_ASSERT_TRUE(pms_sim_write(s, U_EVTSEL0, EVTSEL(0x09, 0x03, U_EN | cases[k].bits), NULL));
                /* GLOBAL_CTRL resets to 0: nothing counts yet */
                run_seq(s, n, 4, cpl);
                CU_ASSERT_EQUAL(rd(s, U_PMC0), 0);
                CU_ASSERT_TRUE(pms_sim_write(s, U_GCTRL, GC_PC(0), NULL));
                run_seq(s, n, 4, cpl);
                CU_ASSERT_EQUAL(rd(s, U_PMC0), cases[k].want);
                pms_sim_free(s);
            }
}

/* 48-bit wrap: preload 2^48 - 2 and count 3: 1, OVF_PC0 and CHG set; no PMI
 * bit, so no OVF_PMI and no PMI.  OVF_CTRL clears by writing 1 and reads 0. */
static void test_wrap_status(void)
{
    for (int e = 0; e < 2; e++) {
        PmsSim *s = uncore(e ? PMS_SIM_FAST : PMS_SIM_REFERENCE);
        CU_ASSERT_TRUE(pms_sim_write(s, U_EVTSEL0, EVTSEL(0x09, 0x01, U_EN), NULL));
        CU_ASSERT_TRUE(pms_sim_write(s, U_GCTRL, GC_PC(0), NULL));
        CU_ASSERT_TRUE(pms_sim_write(s, U_PMC0, W48 - 1, NULL)); /* full-width write */
        static const guint64 n[] = { 1, 2 };
        run_seq(s, n, 2, 0);
        CU_ASSERT_EQUAL(rd(s, U_PMC0), 1);
        CU_ASSERT_EQUAL(rd(s, U_STATUS), GC_PC(0) | ST_CHG);
        guint np;
        pms_sim_pmis(s, &np);
        CU_ASSERT_EQUAL(np, 0);
        CU_ASSERT_TRUE(pms_sim_write(s, U_OVF, GC_PC(0), NULL));
        CU_ASSERT_EQUAL(rd(s, U_STATUS), ST_CHG);
        CU_ASSERT_EQUAL(rd(s, U_OVF), 0);
        CU_ASSERT_TRUE(pms_sim_write(s, U_OVF, ST_CHG, NULL));
        CU_ASSERT_EQUAL(rd(s, U_STATUS), 0);
        pms_sim_free(s);
    }
}

/* PMI with PMI_FRZ routed to core 0: PMC0 (INT) preloaded 2^48 - 5, PMC1
 * and the fixed counter from 0, one event per cycle for 10 cycles.  The 5th
 * event (cycle 4) carries PMC0 out of bit 47: OVF_PC0, OVF_PMI, CHG; the
 * freeze clears EN_PC0, EN_PC1 and EN_FC0 in that cycle, so PMC0 stays 0,
 * PMC1 and the fixed counter (one U-clock per cycle) stay at 5, and the PMI
 * is recorded at cycle 4.  The routing and PMI_FRZ bits stay set. */
static void test_pmi_freeze(void)
{
    for (int e = 0; e < 2; e++) {
        PmsSim *s = uncore(e ? PMS_SIM_FAST : PMS_SIM_REFERENCE);
        CU_ASSERT_TRUE(pms_sim_write(s, U_EVTSEL0, EVTSEL(0x09, 0x01, U_EN | U_INT), NULL));
        CU_ASSERT_TRUE(pms_sim_write(s, U_EVTSEL0 + 1, EVTSEL(0x09, 0x01, U_EN), NULL));
        CU_ASSERT_TRUE(pms_sim_write(s, U_FIXED_CTRL, 0x1, NULL));
        CU_ASSERT_TRUE(pms_sim_set_counter(s, U_PMC0, W48 - 4, NULL));
        CU_ASSERT_TRUE(pms_sim_write(s, U_GCTRL, GC_PC(0) | GC_PC(1) | GC_FC0 | GC_PMI_CORE(0) | GC_FRZ, NULL));
        PmsSimCount c = { PMS_SIGNAL_KEY(0x09, 0x01), 0, 1, 0 };
        PmsSimRun r = { 10, { 0, 0 }, &c, 1, NULL, 0, NULL, 0 };
        CU_ASSERT_TRUE(pms_sim_run(s, &r, NULL));
        CU_ASSERT_EQUAL(rd(s, U_PMC0), 0);
        CU_ASSERT_EQUAL(rd(s, U_PMC0 + 1), 5);
        CU_ASSERT_EQUAL(rd(s, U_FIXED), 5);
        CU_ASSERT_EQUAL(rd(s, U_STATUS), GC_PC(0) | ST_PMI | ST_CHG);
        CU_ASSERT_EQUAL(rd(s, U_GCTRL), GC_PMI_CORE(0) | GC_FRZ);
        guint np;
        const guint64 *p = pms_sim_pmis(s, &np);
        CU_ASSERT_EQUAL_FATAL(np, 1);
        CU_ASSERT_EQUAL(p[0], 4);
        pms_sim_free(s);
    }
}

/* Not routed to any core (EN_PMI_COREn = 0): OVF_PMI is still set (a counter
 * overflowed and requested an interrupt), no PMI is recorded; without
 * PMI_FRZ the counters keep counting: PMC0 wraps to 0 at the 5th event and
 * reaches 5 after 10. */
static void test_pmi_unrouted(void)
{
    for (int e = 0; e < 2; e++) {
        PmsSim *s = uncore(e ? PMS_SIM_FAST : PMS_SIM_REFERENCE);
        CU_ASSERT_TRUE(pms_sim_write(s, U_EVTSEL0, EVTSEL(0x09, 0x01, U_EN | U_INT), NULL));
        CU_ASSERT_TRUE(pms_sim_set_counter(s, U_PMC0, W48 - 4, NULL));
        CU_ASSERT_TRUE(pms_sim_write(s, U_GCTRL, GC_PC(0), NULL));
        PmsSimCount c = { PMS_SIGNAL_KEY(0x09, 0x01), 0, 1, 0 };
        PmsSimRun r = { 10, { 0, 0 }, &c, 1, NULL, 0, NULL, 0 };
        CU_ASSERT_TRUE(pms_sim_run(s, &r, NULL));
        CU_ASSERT_EQUAL(rd(s, U_PMC0), 5);
        CU_ASSERT_EQUAL(rd(s, U_STATUS), GC_PC(0) | ST_PMI | ST_CHG);
        guint np;
        pms_sim_pmis(s, &np);
        CU_ASSERT_EQUAL(np, 0);
        pms_sim_free(s);
    }
}

/* #GP on reserved bits (A10), read-only status, OCC_CTR_RST reads 0. */
static void test_registers(void)
{
    PmsSim *s = uncore(PMS_SIM_FAST);
    g_autoptr(GError) err = NULL;
    CU_ASSERT_FALSE(pms_sim_write(s, U_EVTSEL0, EVTSEL(0x09, 0x01, U_EN | (1u << 16)), &err)); /* no USR bit */
    CU_ASSERT(g_error_matches(err, PMS_SIM_ERROR, PMS_SIM_ERROR_GP));
    g_clear_error(&err);
    CU_ASSERT_FALSE(pms_sim_write(s, U_PMC0, (guint64)1 << 48, &err));
    CU_ASSERT(g_error_matches(err, PMS_SIM_ERROR, PMS_SIM_ERROR_GP));
    g_clear_error(&err);
    CU_ASSERT_FALSE(pms_sim_write(s, U_STATUS, 1, &err));
    CU_ASSERT(g_error_matches(err, PMS_SIM_ERROR, PMS_SIM_ERROR_GP));
    g_clear_error(&err);
    CU_ASSERT_FALSE(pms_sim_write(s, U_FIXED_CTRL, 0x2, &err));
    g_clear_error(&err);
    CU_ASSERT_TRUE(pms_sim_write(s, U_EVTSEL0, EVTSEL(0x09, 0x01, U_EN | U_OCC), NULL));
    CU_ASSERT_EQUAL(rd(s, U_EVTSEL0), EVTSEL(0x09, 0x01, U_EN));
    pms_sim_free(s);
}

/* The program step: UNC_LLC_MISS on PMC0 with EN_PC0; the fixed-only
 * UNC_CLK_UNHALTED on the fixed counter's EN/PMI bits with EN_FC0. */
static void test_program(void)
{
    const PmsModel *m = fx_model("tinyunc");
    const PmsEvent *miss = pms_model_event(m, "UNC_LLC_MISS"), *clk = pms_model_event(m, "UNC_CLK_UNHALTED");
    CU_ASSERT_FATAL(miss && clk);
    PmsPlacement pl;
    PmsRegWrite w[PMS_PROGRAM_MAX_WRITES];
    guint n = 0;
    CU_ASSERT_TRUE_FATAL(pms_program_place(m, clk, PMS_UMASK_SET_EMPTY, &pl, NULL));
    CU_ASSERT_TRUE(pl.fixed);
    guint64 code = EVTSEL(0xff, 0, U_EN | U_INT);
    CU_ASSERT_TRUE_FATAL(pms_program_writes(&pl, &code, 1, w, &n, NULL));
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(w[0].address, U_FIXED_CTRL);
    CU_ASSERT_EQUAL(w[0].value, 0x5);
    CU_ASSERT_EQUAL(w[1].address, U_GCTRL);
    CU_ASSERT_EQUAL(w[1].value, GC_FC0);
    CU_ASSERT_EQUAL(pms_program_status_bit(&pl), (guint64)1 << 32);
    CU_ASSERT_TRUE_FATAL(pms_program_place(m, miss, PMS_UMASK_SET_EMPTY, &pl, NULL));
    CU_ASSERT_FALSE(pl.fixed);
    CU_ASSERT_EQUAL(pl.counter, 0);
    code = EVTSEL(0x09, 0x03, U_EN | U_INT);
    CU_ASSERT_TRUE_FATAL(pms_program_writes(&pl, &code, 1, w, &n, NULL));
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(w[0].address, U_EVTSEL0);
    CU_ASSERT_EQUAL(w[0].value, code);
    CU_ASSERT_EQUAL(w[1].value, GC_PC(0));
    guint64 two[2] = { code, 1 };
    g_autoptr(GError) err = NULL;
    CU_ASSERT_FALSE(pms_program_writes(&pl, two, 2, w, &n, &err));
    CU_ASSERT(g_error_matches(err, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CODES));
}

void register_uncore_tests(void)
{
    CU_pSuite s = CU_add_suite("uncore", NULL, NULL);
    CU_add_test(s, "counting: EN and EN_PCk, no privilege filter, cmask/inv/edge", test_counting);
    CU_add_test(s, "48-bit wrap, OVF_PC0 and CHG, OVF_CTRL write-1-to-clear", test_wrap_status);
    CU_add_test(s, "PMI routed to core 0 with PMI_FRZ: freeze in the overflow cycle", test_pmi_freeze);
    CU_add_test(s, "PMI not routed: OVF_PMI set, no PMI, counting goes on", test_pmi_unrouted);
    CU_add_test(s, "reserved bits #GP, read-only status, OCC_CTR_RST reads 0", test_registers);
    CU_add_test(s, "program step: general and fixed counter writes", test_program);
}
