/* Scenarios: a deterministic clock, then register reads.  Every expected value
 * is derived by hand in the comment beside it.  Each scenario runs on both
 * engines. */
#include "fixtures.h"

#include <string.h>

static const guint32 INST = PMS_SIGNAL_KEY(0xc0, 0x00); /* INST_RETIRED.ANY_P in nhm.pmu */
static const guint32 CLK = PMS_SIGNAL_KEY(0x3c, 0x00);  /* CPU_CLK_UNHALTED.THREAD_P */

#define BOTH(fn)                                                                                                       \
    static void fn##_ref(void)                                                                                         \
    {                                                                                                                  \
        fn(PMS_SIM_REFERENCE);                                                                                         \
    }                                                                                                                  \
    static void fn##_fast(void)                                                                                        \
    {                                                                                                                  \
        fn(PMS_SIM_FAST);                                                                                              \
    }

static void basic_count(PmsSimEngine eng)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), eng);
    fx_write(s, A_EVTSEL0, EVTSEL(0xc0, 0x00, EV_USR | EV_OS | EV_EN));
    fx_run(s, 10, INST, 3, 7, 3, 3);
    /* 10 cycles x 3 of thread 0 (thread 1 not counted without t) = 30 */
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 30);
    CU_ASSERT_EQUAL(pms_sim_cycle(s), 10);
    /* another signal (other umask, other code) does not count */
    fx_run(s, 10, PMS_SIGNAL_KEY(0xc0, 0x02), 3, 0, 3, 3);
    fx_run(s, 10, PMS_SIGNAL_KEY(0xc4, 0x01), 3, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 30);
}
BOTH(basic_count)

static void privilege(PmsSimEngine eng)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), eng);
    const guint64 modes[4] = { EV_USR, EV_OS, EV_USR | EV_OS, 0 };
    for (guint i = 0; i < 4; i++)
        fx_write(s, A_EVTSEL0 + i, EVTSEL(0xc0, 0x00, EV_EN | modes[i]));
    fx_run(s, 5, INST, 2, 0, 3, 3);              /* user: 5 x 2 = 10 */
    fx_run(s, 4, INST, 2, 0, 0, 0);              /* kernel: 4 x 2 = 8 */
    fx_run(s, 3, INST, 2, 0, 1, 1);              /* CPL 1 counts as user: 3 x 2 = 6 */
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 0), 16); /* usr: 10 + 6 */
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 1), 8);  /* os */
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 2), 24); /* both */
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 3), 0);  /* neither */
}
BOTH(privilege)

/* A3: usr-only stall cycles (c=1, inv) with n = 0 throughout: post gate counts
 * only the 5 user cycles; the pre gate zeroes n in the 4 kernel cycles, where
 * 0 < 1 holds too, so it counts all 9. */
static void cpl_gate_option(PmsSimEngine eng)
{
    PmsModel *pre = fx_model_with("nhm", "cpl_gate", "pre");
    PmsModel *post = fx_model_with("nhm", "cpl_gate", "post");
    guint64 want[2] = { 9, 5 };
    PmsModel *ms[2] = { pre, post };
    for (guint k = 0; k < 2; k++) {
        g_autoptr(PmsSim) s = fx_sim(ms[k], eng);
        fx_write(s, A_EVTSEL0, EVTSEL(0xc0, 0x00, EV_EN | EV_USR | EV_INV | EV_CMASK(1)));
        fx_run(s, 5, INST, 0, 0, 3, 3);
        fx_run(s, 4, INST, 0, 0, 0, 0);
        CU_ASSERT_EQUAL(fx_read(s, A_PMC0), want[k]);
    }
    pms_model_free(pre);
    pms_model_free(post);
}
BOTH(cpl_gate_option)

static void any_thread(PmsSimEngine eng)
{
    PmsModel *m = fx_model_with("nhm", "anythread_combine", "clock-or");
    g_autoptr(PmsSim) s = fx_sim(m, eng);
    fx_write(s, A_EVTSEL0, EVTSEL(0xc0, 0x00, EV_EN | EV_USR));              /* own thread */
    fx_write(s, A_EVTSEL0 + 1, EVTSEL(0xc0, 0x00, EV_EN | EV_USR | EV_ANY)); /* t */
    fx_write(s, A_EVTSEL0 + 2, EVTSEL(0x3c, 0x00, EV_EN | EV_USR | EV_ANY)); /* clock, t */
    fx_write(s, A_EVTSEL0 + 3, EVTSEL(0xc0, 0x00, EV_EN | EV_USR | EV_ANY | EV_CMASK(4)));
    PmsSimCount c[4] = { { INST, 0, 2, 0 }, { INST, 1, 3, 0 }, { CLK, 0, 1, 0 }, { CLK, 1, 1, 0 } };
    PmsSimRun r = { 10, { 3, 3 }, c, 4, NULL, 0, NULL, 0 };
    CU_ASSERT_TRUE_FATAL(pms_sim_run(s, &r, NULL));
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 20);     /* 10 x 2 */
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 1), 50); /* 10 x (2 + 3): SUM (A6) */
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 2), 10); /* clocks OR: 10 x 1 (A6) */
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 3), 10); /* 2 + 3 = 5 >= 4: combined before threshold */
    /* thread 1 in the kernel: its occurrences fail usr and drop out (SDM p.645) */
    r.cpl[1] = 0;
    CU_ASSERT_TRUE_FATAL(pms_sim_run(s, &r, NULL));
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 1), 70); /* + 10 x 2 */
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 3), 10); /* 2 < 4 */
    pms_sim_free(g_steal_pointer(&s));
    pms_model_free(m);
    /* option sum: clocks add up too: 10 x 2 */
    m = fx_model_with("nhm", "anythread_combine", "sum");
    s = fx_sim(m, eng);
    fx_write(s, A_EVTSEL0 + 2, EVTSEL(0x3c, 0x00, EV_EN | EV_USR | EV_ANY));
    fx_run(s, 10, CLK, 1, 1, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 2), 20);
    pms_sim_free(g_steal_pointer(&s));
    pms_model_free(m);
    /* glm has no SMT: t is ignored (SDM 18.7 p.664), own thread only */
    s = fx_sim(fx_model("glm"), eng);
    fx_write(s, A_EVTSEL0, EVTSEL(0xc0, 0x00, EV_EN | EV_USR | EV_ANY));
    fx_run(s, 10, PMS_SIGNAL_KEY(0xc0, 0x00), 2, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 20);
}
BOTH(any_thread)

static void wrap_and_int(PmsSimEngine eng)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), eng);
    /* PMC0 without INT, PMC1 with INT; both preloaded with -5 = 2^48 - 5 */
    fx_write(s, A_EVTSEL0, EVTSEL(0xc0, 0x00, EV_EN | EV_USR));
    fx_write(s, A_EVTSEL0 + 1, EVTSEL(0xc0, 0x00, EV_EN | EV_USR | EV_INT));
    fx_write(s, A_PMC0, (guint64)-5);
    fx_write(s, A_PMC0 + 1, (guint64)-5);
    fx_run(s, 10, INST, 1, 0, 3, 3);
    /* 2^48 - 5 + 10 wraps to 5; the carry happens in cycle 4 (values after
     * cycles 0..4: -4, -3, -2, -1, 0) */
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 5);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 1), 5);
    CU_ASSERT_EQUAL(fx_read(s, A_STATUS), 0x3); /* status always, INT or not */
    guint n;
    const guint64 *p = pms_sim_pmis(s, &n);
    CU_ASSERT_EQUAL_FATAL(n, 1); /* only PMC1 asks for a PMI */
    CU_ASSERT_EQUAL(p[0], 4);
    /* c = 0 with n = 7 per cycle from 2^48 - 3: passes zero and lands on 4 in
     * one cycle, still one overflow; PMC1: 5 + 7 = 12, no overflow */
    fx_write(s, A_OVF, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_STATUS), 0);
    fx_write(s, A_PMC0, (guint64)-3);
    fx_run(s, 1, INST, 7, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 4);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 1), 12);
    CU_ASSERT_EQUAL(fx_read(s, A_STATUS), 0x1);
    pms_sim_pmis(s, &n);
    CU_ASSERT_EQUAL(n, 1); /* PMC0 has no INT */
}

static void wrap_and_int_checked(PmsSimEngine eng)
{
    wrap_and_int(eng);
}
BOTH(wrap_and_int_checked)

static void freeze_legacy(PmsSimEngine eng)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), eng);
    fx_write(s, A_DEBUGCTL, (1u << 12) | (1u << 11) | 1u); /* FREEZE_PERFMON, FREEZE_LBRS, LBR */
    fx_write(s, A_EVTSEL0, EVTSEL(0xc0, 0x00, EV_EN | EV_USR | EV_INT));
    fx_write(s, A_EVTSEL0 + 1, EVTSEL(0xc0, 0x00, EV_EN | EV_USR));
    fx_write(s, A_PMC0, (guint64)-5);
    fx_run(s, 100, INST, 1, 0, 3, 3);
    /* overflow in cycle 4 (see wrap_and_int); A8: the freeze clears
     * GLOBAL_CTRL in that cycle, after cycle 4 counted: PMC0 = 0, PMC1 = 5 */
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 0);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 1), 5);
    CU_ASSERT_EQUAL(fx_read(s, A_GCTRL), 0);
    CU_ASSERT_EQUAL(fx_read(s, A_DEBUGCTL), (1u << 12) | (1u << 11)); /* LBR cleared */
    CU_ASSERT_EQUAL(fx_read(s, A_STATUS), 1);
    guint n;
    const guint64 *p = pms_sim_pmis(s, &n);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(p[0], 4);
    /* software re-enables: counting resumes */
    fx_write(s, A_GCTRL, 0x3);
    fx_run(s, 10, INST, 1, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 10);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 1), 15);
}
BOTH(freeze_legacy)

static void freeze_v4(PmsSimEngine eng)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("glm"), eng);
    guint32 sig = PMS_SIGNAL_KEY(0xc0, 0x00);
    fx_write(s, A_DEBUGCTL, (1u << 12) | (1u << 11) | 1u);
    fx_write(s, A_FIXED_CTRL, 0xb); /* fixed0: EN=3, PMI */
    fx_write(s, A_GCTRL, 0x100000001ull);
    fx_write(s, A_EVTSEL0, EVTSEL(0xc0, 0x00, EV_EN | EV_USR));
    fx_write(s, A_FIXED0, (1ull << 48) - 2 * 1000);
    /* 2 per cycle: fixed0 reaches 2^48 after 1000 cycles -> carry in cycle 999 */
    fx_run(s, 5000, sig, 2, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED0), 0);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 2000); /* cycles 0..999 */
    /* v4: GLOBAL_CTRL untouched, status = Ovf_FixedCtr0 | LBR_Frz | CTR_Frz */
    CU_ASSERT_EQUAL(fx_read(s, A_GCTRL), 0x100000001ull);
    CU_ASSERT_EQUAL(fx_read(s, A_STATUS), (1ull << 32) | (1ull << 58) | (1ull << 59));
    CU_ASSERT_EQUAL(fx_read(s, A_DEBUGCTL) & 1, 1); /* v4 leaves DEBUGCTL.LBR */
    guint n;
    const guint64 *p = pms_sim_pmis(s, &n);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(p[0], 999);
    /* unfreeze by STATUS_RESET bit 59: counting restarts at once */
    fx_write(s, A_OVF, (1ull << 59) | (1ull << 32));
    fx_run(s, 10, sig, 2, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED0), 20);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 2020);
    CU_ASSERT_EQUAL(fx_read(s, A_STATUS), 1ull << 58);
}
BOTH(freeze_v4)

/* pmi_skid = 3: the PMI is recorded 3 cycles after the carry, while the
 * freeze still stops counting in the carry cycle (A8). */
static void skid(PmsSimEngine eng)
{
    PmsModel *m = fx_model_with("nhm", "pmi_skid", "3");
    g_autoptr(PmsSim) s = fx_sim(m, eng);
    fx_write(s, A_DEBUGCTL, 1u << 12);
    fx_write(s, A_EVTSEL0, EVTSEL(0xc0, 0x00, EV_EN | EV_USR | EV_INT));
    fx_write(s, A_EVTSEL0 + 1, EVTSEL(0xc0, 0x00, EV_EN | EV_USR));
    fx_write(s, A_PMC0, (guint64)-5);
    fx_run(s, 20, INST, 1, 0, 3, 3);
    guint n;
    const guint64 *p = pms_sim_pmis(s, &n);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(p[0], 4 + 3);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 1), 5); /* frozen after cycle 4 */
    pms_sim_free(g_steal_pointer(&s));
    pms_model_free(m);
}
BOTH(skid)

static void global_enable(PmsSimEngine eng)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), eng);
    fx_write(s, A_EVTSEL0, EVTSEL(0xc0, 0x00, EV_EN | EV_USR));
    fx_write(s, A_FIXED_CTRL, 0x3);
    fx_write(s, A_GCTRL, 0);
    fx_run(s, 10, INST, 1, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 0); /* global enable off */
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED0), 0);
    fx_write(s, A_GCTRL, 0x100000000ull); /* fixed0 only */
    fx_run(s, 10, INST, 1, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 0);
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED0), 10); /* fixed0 counts INST_RETIRED.ANY_P (c0.00) */
    fx_write(s, A_GCTRL, 0x1);
    fx_write(s, A_EVTSEL0, EVTSEL(0xc0, 0x00, EV_USR)); /* local enable off */
    fx_run(s, 10, INST, 1, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 0);
}
BOTH(global_enable)

static void fixed_counters(PmsSimEngine eng)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), eng);
    const guint32 REF = PMS_SIGNAL_KEY(0x00, 0x03);
    /* fixed0 EN=3 (all rings); fixed1 EN=1 (CPL 0 only) with PMI; fixed2 EN=2 (user) */
    fx_write(s, A_FIXED_CTRL, 0x3 | (0x9 << 4) | (0x2 << 8));
    fx_write(s, A_GCTRL, 0x700000000ull);
    fx_write(s, A_FIXED0 + 1, (1ull << 48) - 3);
    PmsSimCount c[3] = { { INST, 0, 4, 0 }, { CLK, 0, 1, 0 }, { REF, 0, 1, 0 } };
    PmsSimRun r = { 6, { 3, 3 }, c, 3, NULL, 0, NULL, 0 };
    CU_ASSERT_TRUE_FATAL(pms_sim_run(s, &r, NULL));
    r.cpl[0] = 0;
    CU_ASSERT_TRUE_FATAL(pms_sim_run(s, &r, NULL));
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED0), 48);    /* 12 cycles x 4 */
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED0 + 1), 3); /* 6 kernel cycles from -3: wraps in cycle 6+2 = 8 */
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED0 + 2), 6); /* 6 user cycles */
    CU_ASSERT_EQUAL(fx_read(s, A_STATUS), 1ull << 33);
    guint n;
    const guint64 *p = pms_sim_pmis(s, &n);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(p[0], 8);
    /* fixed AnyThread: fixed0 sums both threads */
    fx_write(s, A_FIXED_CTRL, 0x3 | 0x4);
    fx_write(s, A_FIXED0, 0);
    PmsSimCount c2[2] = { { INST, 0, 4, 0 }, { INST, 1, 5, 0 } };
    PmsSimRun r2 = { 2, { 3, 3 }, c2, 2, NULL, 0, NULL, 0 };
    CU_ASSERT_TRUE_FATAL(pms_sim_run(s, &r2, NULL));
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED0), 18);
}
BOTH(fixed_counters)

static void simultaneous_overflow(PmsSimEngine eng)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), eng);
    for (guint i = 0; i < 2; i++) {
        fx_write(s, A_EVTSEL0 + i, EVTSEL(0xc0, 0x00, EV_EN | EV_USR | EV_INT));
        fx_write(s, A_PMC0 + i, (guint64)-10);
    }
    fx_write(s, A_FIXED_CTRL, 0xa); /* fixed0 user + PMI */
    fx_write(s, A_GCTRL, 0x100000003ull);
    fx_write(s, A_FIXED0, (1ull << 48) - 10);
    fx_run(s, 20, INST, 1, 0, 3, 3);
    /* all three carry in cycle 9: three status bits, one PMI (SDM 18-39) */
    CU_ASSERT_EQUAL(fx_read(s, A_STATUS), 0x100000003ull);
    guint n;
    const guint64 *p = pms_sim_pmis(s, &n);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(p[0], 9);
}
BOTH(simultaneous_overflow)

/* MSR_OFFCORE_RSP_0/1 values and the counts PMC0/PMC1 (programmed for the
 * two offcore events) must reach over the run r. */
typedef struct {
    guint64 rsp0, rsp1, c0, c1;
} OffcoreCase;

static void offcore_cases(PmsSim *s, const PmsSimRun *r, const OffcoreCase *cases, guint n)
{
    for (guint k = 0; k < n; k++) {
        fx_write(s, A_RSP0, cases[k].rsp0);
        fx_write(s, A_RSP1, cases[k].rsp1);
        fx_write(s, A_PMC0, 0);
        fx_write(s, A_PMC0 + 1, 0);
        CU_ASSERT_TRUE_FATAL(pms_sim_run(s, r, NULL));
        if (fx_read(s, A_PMC0) != cases[k].c0 || fx_read(s, A_PMC0 + 1) != cases[k].c1)
            fprintf(stderr, "# offcore case %u: %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n", k, fx_read(s, A_PMC0),
                    fx_read(s, A_PMC0 + 1));
        CU_ASSERT_EQUAL(fx_read(s, A_PMC0), cases[k].c0);
        CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 1), cases[k].c1);
    }
}

static void offcore_nhm(PmsSimEngine eng)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("wsm"), eng);
    fx_write(s, A_EVTSEL0, EVTSEL(0xb7, 0x01, EV_EN | EV_USR));     /* RSP_0 */
    fx_write(s, A_EVTSEL0 + 1, EVTSEL(0xbb, 0x01, EV_EN | EV_USR)); /* wsm: RSP_1 */
    /* transactions: DMND_DATA_RD (bit 0) served from LOCAL_DRAM-class bit 14, x2;
     * DMND_RFO (bit 1) with response bit 8, x3 */
    PmsSimOffcore t[2] = { { 0, 0x1, 0x4000, FALSE, 2 }, { 0, 0x2, 0x100, FALSE, 3 } };
    PmsSimRun r = { 10, { 3, 3 }, NULL, 0, t, 2, NULL, 0 };
    const OffcoreCase cases[] = {
        { 0x4001, 0x0102, 20, 30 }, /* each selects exactly one class */
        { 0x4003, 0x4103, 20, 50 }, /* RSP_0 response bit 14 only: first; RSP_1 both */
        { 0x4002, 0x0001, 0, 0 },   /* request and response each match a different transaction */
        { 0x00ff, 0xff00, 0, 0 },   /* a zero field counts nothing */
    };
    offcore_cases(s, &r, cases, G_N_ELEMENTS(cases));
}
BOTH(offcore_nhm)

static void offcore_glm(PmsSimEngine eng)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("glm"), eng);
    fx_write(s, A_EVTSEL0, EVTSEL(0xb7, 0x01, EV_EN | EV_USR));
    fx_write(s, A_EVTSEL0 + 1, EVTSEL(0xb7, 0x02, EV_EN | EV_USR));
    /* DEMAND_DATA_RD (bit 0) hitting L2 (bit 18) x1; DEMAND_RFO (bit 1) missing
     * with HITM_OTHER_CORE (bit 36) x2; 5 DEMAND_DATA_RD in flight */
    PmsSimOffcore t[3] = { { 0, 0x1, 1ull << 18, FALSE, 1 }, { 0, 0x2, 1ull << 36, FALSE, 2 }, { 0, 0x1, 0, TRUE, 5 } };
    PmsSimRun r = { 4, { 3, 3 }, NULL, 0, t, 3, NULL, 0 };
    const OffcoreCase cases[] = {
        { 0x1 | (1ull << 16), 0x2 | (1ull << 18), 4, 0 },     /* ANY_RESPONSE; RFO + L2_HIT: no */
        { 0x8000 | (1ull << 16), 0x3 | (1ull << 36), 12, 8 }, /* ANY_REQUEST matches both */
        { 0x1 | (1ull << 38), 0x1 | (1ull << 33), 20, 0 },    /* OUTSTANDING: 5 in flight per cycle */
        { 0x3 | (1ull << 18) | (1ull << 36), 0, 12, 0 },      /* mixed groups OR-ed (A19); RSP_1 empty */
    };
    offcore_cases(s, &r, cases, G_N_ELEMENTS(cases));
}
BOTH(offcore_glm)

static void load_latency(PmsSimEngine eng)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), eng);
    fx_write(s, A_EVTSEL0, EVTSEL(0x0b, 0x10, EV_EN | EV_USR));
    fx_write(s, A_LDLAT, 10);
    PmsSimLoad l[3] = { { 0, 10, 4 }, { 0, 11, 2 }, { 0, 300, 1 } };
    PmsSimRun r = { 5, { 3, 3 }, NULL, 0, NULL, 0, l, 3 };
    CU_ASSERT_TRUE_FATAL(pms_sim_run(s, &r, NULL));
    /* latency > 10: 2 + 1 per cycle x 5 (latency 10 is not above, SDM 18-39) */
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 15);
    fx_write(s, A_LDLAT, 299);
    CU_ASSERT_TRUE_FATAL(pms_sim_run(s, &r, NULL));
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 20);
}
BOTH(load_latency)

static void umask_selection(PmsSimEngine eng)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), eng);
    /* nhm INST_RETIRED (c0) is match=exact; a raw code absent from the model
     * (0x99) uses BITS: every signal whose umask lies inside the evtsel umask */
    fx_write(s, A_EVTSEL0, EVTSEL(0x99, 0x03, EV_EN | EV_USR));
    fx_write(s, A_EVTSEL0 + 1, EVTSEL(0xc0, 0x03, EV_EN | EV_USR));
    fx_write(s, A_EVTSEL0 + 2, EVTSEL(0x99, 0x00, EV_EN | EV_USR));
    PmsSimCount c[7] = { { PMS_SIGNAL_KEY(0x99, 1), 0, 1, 0 },  { PMS_SIGNAL_KEY(0x99, 2), 0, 2, 0 },
                         { PMS_SIGNAL_KEY(0x99, 4), 0, 4, 0 },  { PMS_SIGNAL_KEY(0x99, 0), 0, 8, 0 },
                         { PMS_SIGNAL_KEY(0xc0, 1), 0, 16, 0 }, { PMS_SIGNAL_KEY(0xc0, 2), 0, 32, 0 },
                         { PMS_SIGNAL_KEY(0xc0, 3), 0, 64, 0 } };
    PmsSimRun r = { 1, { 3, 3 }, c, 7, NULL, 0, NULL, 0 };
    CU_ASSERT_TRUE_FATAL(pms_sim_run(s, &r, NULL));
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 3);      /* 0x99: umask 1 + 2, not 4, not 0 */
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 1), 64); /* exact: only c0.03 */
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 2), 8);  /* umask 0 selects only the umask-0 signal */
}
BOTH(umask_selection)

static void bad_runs(void)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("glm"), PMS_SIM_FAST);
    PmsSimCount c = { INST, 1, 1, 0 }; /* glm has one thread */
    PmsSimRun r = { 1, { 3, 3 }, &c, 1, NULL, 0, NULL, 0 };
    GError *e = NULL;
    CU_ASSERT_FALSE(pms_sim_run(s, &r, &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "thread"));
    g_clear_error(&e);
    c.thread = 0;
    c.count = 1ull << 32;
    CU_ASSERT_FALSE(pms_sim_run(s, &r, &e));
    g_clear_error(&e);
    c.count = 1;
    r.cpl[0] = 4;
    CU_ASSERT_FALSE(pms_sim_run(s, &r, &e));
    g_clear_error(&e);
    r.cpl[0] = 3;
    r.cycles = 0;
    CU_ASSERT_FALSE(pms_sim_run(s, &r, &e));
    g_clear_error(&e);
    PmsSimOffcore o = { 1, 1, 1, FALSE, 1 };
    PmsSimRun r2 = { 1, { 3, 3 }, NULL, 0, &o, 1, NULL, 0 };
    CU_ASSERT_FALSE(pms_sim_run(s, &r2, &e));
    g_clear_error(&e);
    PmsSimLoad l = { 1, 5, 1 };
    PmsSimRun r3 = { 1, { 3, 3 }, NULL, 0, NULL, 0, &l, 1 };
    CU_ASSERT_FALSE(pms_sim_run(s, &r3, &e));
    g_clear_error(&e);
    CU_ASSERT_EQUAL(pms_sim_cycle(s), 0); /* nothing ran */
}

/* The preload-to-overflow experiment: 2^47 cycles of constant stimulus in
 * closed form.  A_PMC0 = 2^48 - 2^47, one per cycle: carry in cycle 2^47 - 1. */
static void huge_run(void)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("glm"), PMS_SIM_FAST);
    fx_write(s, A_EVTSEL0, EVTSEL(0xc0, 0x00, EV_EN | EV_USR | EV_INT));
    fx_write(s, A_APMC0, (1ull << 48) - (1ull << 47));
    gint64 t0 = g_get_monotonic_time();
    fx_run(s, 1ull << 47, PMS_SIGNAL_KEY(0xc0, 0x00), 1, 0, 3, 3);
    gint64 dt = g_get_monotonic_time() - t0;
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 0);
    guint n;
    const guint64 *p = pms_sim_pmis(s, &n);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(p[0], (1ull << 47) - 1);
    printf("# 2^47 cycles in %" G_GINT64_FORMAT " us\n", dt);
}

static void on_trace(const PmsSimTrace *t, gpointer data)
{
    g_array_append_val((GArray *)data, *t);
}

static void trace_records(void)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("glm"), PMS_SIM_FAST); /* a trace forces per-cycle */
    g_autoptr(GArray) rows = g_array_new(FALSE, FALSE, sizeof(PmsSimTrace));
    fx_write(s, A_EVTSEL0, EVTSEL(0xc0, 0x00, EV_EN | EV_USR | EV_INT | EV_CMASK(2)));
    fx_write(s, A_APMC0, (1ull << 48) - 2);
    pms_sim_set_trace(s, on_trace, rows);
    static const guint64 n[4] = { 3, 0, 1, 2 };
    fx_run_seq(s, PMS_SIGNAL_KEY(0xc0, 0x00), n, 4, 3);
    pms_sim_set_trace(s, NULL, NULL);
    /* 4 GP + 3 fixed counters per cycle */
    CU_ASSERT_EQUAL_FATAL(rows->len, 4 * 7);
    /* PMC0, c=2: cond 1,0,0,1 -> values 2^48-1, -1, -1, 0 (carry, PMI in cycle 3) */
    const guint64 want_val[4] = { (1ull << 48) - 1, (1ull << 48) - 1, (1ull << 48) - 1, 0 };
    for (guint c = 0; c < 4; c++) {
        const PmsSimTrace *t = &g_array_index(rows, PmsSimTrace, c * 7);
        CU_ASSERT_EQUAL(t->cycle, c);
        CU_ASSERT_FALSE(t->fixed);
        CU_ASSERT_EQUAL(t->index, 0);
        CU_ASSERT_TRUE(t->enabled);
        CU_ASSERT_EQUAL(t->n, n[c]);
        CU_ASSERT_EQUAL(t->cond, n[c] >= 2);
        CU_ASSERT_EQUAL(t->inc, n[c] >= 2 ? 1u : 0u);
        CU_ASSERT_EQUAL(t->value, want_val[c]);
        CU_ASSERT_EQUAL(t->overflow, c == 3);
        CU_ASSERT_EQUAL(t->pmi, c == 3);
        CU_ASSERT_EQUAL(t->status, c == 3 ? 1u : 0u);
        const PmsSimTrace *f = &g_array_index(rows, PmsSimTrace, c * 7 + 4);
        CU_ASSERT_TRUE(f->fixed);
        CU_ASSERT_FALSE(f->enabled);
    }
}

static void bench_smoke(void)
{
    const guint lens[2] = { 64, 1024 };
    for (guint i = 0; i < 2; i++) {
        PmsSimBench b;
        GError *e = NULL;
        gboolean ok = pms_sim_bench(fx_model("glm"), 0.02, lens[i], &b, &e);
        if (!ok)
            fprintf(stderr, "# %s\n", e->message);
        CU_ASSERT_TRUE_FATAL(ok);
        printf("# bench glm, runs of 1..%u cycles: reference %.3g cycles/s %.3g records/s; fast %.3g cycles/s "
               "%.3g records/s; ratio %.1f; 2^47 cycles in %.1f us\n",
               lens[i], b.ref_cycles_per_s, b.ref_records_per_s, b.fast_cycles_per_s, b.fast_records_per_s, b.ratio,
               b.big_run_seconds * 1e6);
        CU_ASSERT_TRUE(b.ref_cycles_per_s > 0 && b.fast_cycles_per_s > 0);
        CU_ASSERT_TRUE(b.big_run_overflowed);
        CU_ASSERT_EQUAL(b.big_run_cycles, 1ull << 47);
    }
    /* max_run 0 means runs of one cycle: both engines then run the same
     * number of records as cycles */
    PmsSimBench b;
    g_autoptr(GError) e = NULL;
    CU_ASSERT_TRUE_FATAL(pms_sim_bench(fx_model("glm"), 0.01, 0, &b, &e));
    CU_ASSERT_DOUBLE_EQUAL(b.ref_cycles_per_s, b.ref_records_per_s, b.ref_records_per_s * 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(b.fast_cycles_per_s, b.fast_records_per_s, b.fast_records_per_s * 1e-9);
    /* every sim-bench model counts and overflows: the uncores' global
     * enables and PMI routing, the Xeon 7500 C-Box's ctr_en bits and its
     * U-Box's en_all and pmi_core_sel (without them its counters stood
     * still and the 2^47-cycle run raised no PMI) */
    static const char *const others[] = {
        "nhm_unc", "wsm_unc", "nhmex_cbox0", "nhmex_cbox7", "skl", "amd64_fam17h_zen2"
    };
    for (guint i = 0; i < G_N_ELEMENTS(others); i++) {
        const PmsModel *m = fx_model(others[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        PmsSimBench o;
        g_autoptr(GError) oe = NULL;
        gboolean ok = pms_sim_bench(m, 0.01, 64, &o, &oe);
        if (!ok)
            fprintf(stderr, "# bench %s: %s\n", others[i], oe->message);
        CU_ASSERT_TRUE(ok);
        if (ok && !o.big_run_overflowed)
            fprintf(stderr, "# bench %s: no PMI in the 2^47-cycle run's last cycle\n", others[i]);
        CU_ASSERT_TRUE(ok && o.big_run_overflowed);
    }
    /* the bench programs IA32_PERFEVTSEL0: a model without one is refused */
    CU_ASSERT_FALSE(pms_sim_bench(fx_model("montecito"), 0.01, 64, &b, &e));
    CU_ASSERT(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL));
}

void register_scenario_tests(void)
{
    CU_pSuite s = CU_add_suite("sim scenarios", NULL, NULL);
#define ADD(fn, what)                                                                                                  \
    CU_add_test(s, what " (reference)", fn##_ref);                                                                     \
    CU_add_test(s, what " (fast)", fn##_fast);
    ADD(basic_count, "count one signal, not its neighbours")
    ADD(privilege, "usr/os privilege filter")
    ADD(cpl_gate_option, "CPL gate post/pre option (A3)")
    ADD(any_thread, "both threads with and without t (A6)")
    ADD(wrap_and_int_checked, "48-bit wrap, overflow with and without INT")
    ADD(freeze_legacy, "legacy freeze on PMI (v3)")
    ADD(freeze_v4, "streamlined freeze on PMI (v4)")
    ADD(global_enable, "global and local enable gating")
    ADD(skid, "PMI skid option: status and freeze at overflow")
    ADD(fixed_counters, "fixed counters: EN rings, PMI, AnyThread")
    ADD(simultaneous_overflow, "simultaneous overflows raise one PMI")
    ADD(offcore_nhm, "offcore request/response matching (wsm)")
    ADD(offcore_glm, "offcore matching (glm)")
    ADD(load_latency, "load latency above threshold")
    ADD(umask_selection, "unit-mask selection BITS vs EXACT")
    CU_add_test(s, "bad runs are rejected", bad_runs);
    CU_add_test(s, "2^47 cycles to overflow (fast)", huge_run);
    CU_add_test(s, "trace callback", trace_records);
    CU_add_test(s, "bench runs both engines", bench_smoke);
}
