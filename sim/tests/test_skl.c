/* sim/tests — the Skylake facilities of the x86 core device, on the
 * test-only model sim/tests/data/skl-test.pmu (glm's registers plus the
 * names agreed for skl: PERFEVTSEL bits 32/33, 8 counters and the smt
 * option, MSR_LBR_INFO_n, MSR_PEBS_FRONTEND).  Each scenario is a stimulus
 * with checked reads, run on both engines; every expected value is derived
 * in the comment beside it from the documented semantics (SDM-2016
 * 18.11.5.1, 17.12, 18.13.1.4; docs/semantics.md §8d), never from the
 * simulator's output. */
#include <string.h>
#include "fixtures.h"
#include "program.h"

static PmsModel *skl(const char *key, const char *value)
{
    GError *e = NULL;
    PmsModel *m = pms_model_load_file(PMS_SRCDIR "/sim/tests/data/skl-test.pmu", &e);
    if (!m)
        fprintf(stderr, "# skl-test.pmu: %s\n", e->message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    if (key)
        pms_model_set_option(m, key, value);
    return m;
}

/* The stimulus on a fresh instance of m with each engine: TRUE when every
 * read matched (*msg: the first failure). */
static gboolean run_both(const PmsModel *m, const char *text)
{
    gboolean ok = TRUE;
    for (guint eng = 0; eng < 2; eng++) {
        g_autoptr(GError) err = NULL;
        g_autoptr(PmsStim) st = pms_stim_parse(m, text, -1, "t.stim", &err);
        if (!st) {
            fprintf(stderr, "# parse: %s\n", err->message);
            return FALSE;
        }
        g_autoptr(PmsSim) s = fx_sim(m, eng ? PMS_SIM_FAST : PMS_SIM_REFERENCE);
        if (!pms_stim_execute(st, s, &err)) {
            fprintf(stderr, "# %s engine: %s\n", eng ? "fast" : "reference", err->message);
            ok = FALSE;
        }
    }
    return ok;
}

/* IN_TX (bit 32): counts only inside a region, committed or aborted. */
static void test_in_tx(void)
{
    g_autoptr(PmsModel) m = skl(NULL, NULL);
    CU_ASSERT_TRUE(run_both(m,
                            "write IA32_PERFEVTSEL0 0x1004300c0\n" /* INST_RETIRED.ANY_P, usr os en, in_tx */
                            "run 10 0xc0.0x00=1\n"                 /* outside: nothing */
                            "read IA32_PMC0 0\n"
                            "run 5 0xc0.0x00=1 tx=begin\n" /* 5 inside */
                            "read IA32_PMC0 5\n"
                            "run 3 0xc0.0x00=2 tx=commit\n" /* outside again */
                            "read IA32_PMC0 5\n"
                            "run 4 0xc0.0x00=1 tx=begin\n" /* +4 */
                            "run 2 0xc0.0x00=1 tx=abort\n" /* aborted: IN_TX keeps the 4, outside now */
                            "read IA32_PMC0 9\n"
                            "run 2 0xc0.0x00=1 tx=begin tx=begin\n" /* nested: +2 */
                            "run 2 0xc0.0x00=1 tx=commit\n"         /* still in the outer region: +2 */
                            "run 2 0xc0.0x00=1 tx=commit\n"         /* outside */
                            "read IA32_PMC0 13\n"));
}

/* IN_TXCP (bit 33, PERFEVTSEL2 only): an abort restores the value at the
 * outermost begin; commits keep their counts; counting outside goes on. */
static void test_in_txcp(void)
{
    g_autoptr(PmsModel) m = skl(NULL, NULL);
    CU_ASSERT_TRUE(run_both(m,
                            "write IA32_PERFEVTSEL2 0x2004300c0\n"
                            "run 10 0xc0.0x00=1\n" /* counts outside too: 10 */
                            "read IA32_PMC2 10\n"
                            "run 5 0xc0.0x00=1 tx=begin\n"
                            "run 1 tx=commit\n" /* committed: kept, 15 */
                            "read IA32_PMC2 15\n"
                            "run 4 0xc0.0x00=1 tx=begin\n" /* 19 inside ... */
                            "read IA32_PMC2 19\n"
                            "run 1 tx=abort\n" /* ... rolled back to the begin's 15 */
                            "read IA32_PMC2 15\n"
                            "run 2 0xc0.0x00=1 tx=begin\n"  /* outermost begin at 15: 17 */
                            "run 2 0xc0.0x00=1 tx=begin\n"  /* nested: 19 */
                            "run 2 0xc0.0x00=1 tx=commit\n" /* inner commit: still inside, 21 */
                            "read IA32_PMC2 21\n"
                            "run 1 0xc0.0x00=1 tx=abort\n" /* abort: back to 15, then this outside cycle: 16 */
                            "read IA32_PMC2 16\n"
                            "run 1 tx=abort tx=commit\n" /* outside any region: no effect */
                            "read IA32_PMC2 16\n"));
}

/* An overflow inside an aborted region: the counter and its GLOBAL_STATUS
 * bit roll back (txcp_status = rollback); the PMI raised stays recorded. */
static void test_txcp_overflow(void)
{
    static const char *const text =
        "write IA32_PERFEVTSEL2 0x2005300c0\n" /* + int (bit 20) */
        "write IA32_A_PMC2 2^48-3\n"
        "run 5 0xc0.0x00=1 tx=begin\n" /* cycles 0-4: wraps in cycle 2 (3 increments), PMI in cycle 2 */
        "read IA32_PERF_GLOBAL_STATUS 0x4\n"
        "read IA32_PMC2 2\n"
        "run 1 tx=abort\n" /* back to 2^48-3 */
        "read IA32_PMC2 2^48-3\n"
        "read IA32_PERF_GLOBAL_STATUS %s\n"
        "expect-pmi 2\n";
    g_autoptr(PmsModel) m = skl(NULL, NULL);
    g_autofree char *rb = g_strdup_printf(text, "0");
    CU_ASSERT_TRUE(run_both(m, rb));
    g_autoptr(PmsModel) keep = skl("txcp_status", "keep");
    g_autofree char *kp = g_strdup_printf(text, "0x4");
    CU_ASSERT_TRUE(run_both(keep, kp));
    /* a bit already set at the begin is not the region's: it stays */
    CU_ASSERT_TRUE(run_both(m,
                            "write IA32_PERFEVTSEL2 0x2004300c0\n"
                            "write IA32_PERF_GLOBAL_STATUS_SET 0x4\n"
                            "run 1 tx=begin 0xc0.0x00=1\n"
                            "run 1 tx=abort\n"
                            "read IA32_PMC2 0\n"
                            "read IA32_PERF_GLOBAL_STATUS 0x4\n"));
}

/* Bit 33 is writable on PERFEVTSEL2 only: elsewhere a reserved-bit #GP
 * (the model's writable masks); bit 32 everywhere. */
static void test_txcp_gp(void)
{
    g_autoptr(PmsModel) m = skl(NULL, NULL);
    CU_ASSERT_TRUE(run_both(m,
                            "write IA32_PERFEVTSEL0 0x200430000 gp\n"
                            "write IA32_PERFEVTSEL3 0x200430000 gp\n"
                            "read IA32_PERFEVTSEL0 0\n"
                            "write IA32_PERFEVTSEL2 0x300430000\n"
                            "write IA32_PERFEVTSEL1 0x100430000\n"
                            "read IA32_PERFEVTSEL2 0x300430000\n"));
}

/* glm has no in_tx / in_txcp: tx= tokens change nothing. */
static void test_tx_glm_unchanged(void)
{
    CU_ASSERT_TRUE(run_both(fx_model("glm"),
                            "write IA32_PERFEVTSEL0 0x4300c0\n"
                            "run 3 0xc0.0x00=1 tx=begin\n"
                            "run 3 0xc0.0x00=1 tx=abort\n"
                            "read IA32_PMC0 6\n"
                            "write IA32_PERFEVTSEL0 0x1004300c0 gp\n"));
}

/* smt = on (default): PMC4-7 and their global bits do not exist (#GP);
 * GLOBAL_CTRL's RESET value enables PMC0-3 only (A25).  smt = off: 8. */
static void test_smt(void)
{
    g_autoptr(PmsModel) on = skl(NULL, NULL);
    CU_ASSERT_TRUE(run_both(on,
                            "read IA32_PERF_GLOBAL_CTRL 0xf\n"
                            "write IA32_PERFEVTSEL4 0x4300c0 gp\n"
                            "write IA32_PMC7 1 gp\n"
                            "write IA32_A_PMC5 1 gp\n"
                            "write IA32_PERF_GLOBAL_CTRL 0x10 gp\n"
                            "write IA32_PERF_GLOBAL_STATUS_RESET 0x80 gp\n"
                            "write IA32_PERF_GLOBAL_STATUS_SET 0x20 gp\n"
                            "write IA32_PERF_GLOBAL_CTRL 0x70000000f\n"
                            "read IA32_PERF_GLOBAL_CTRL 0x70000000f\n"));
    g_autoptr(PmsModel) off = skl("smt", "off");
    CU_ASSERT_TRUE(run_both(off,
                            "read IA32_PERF_GLOBAL_CTRL 0xff\n"
                            "write IA32_PERFEVTSEL7 0x4300c0\n"
                            "run 4 0xc0.0x00=2\n"
                            "read IA32_PMC7 8\n"
                            "write IA32_PERF_GLOBAL_STATUS_SET 0x80\n"
                            "read IA32_PERF_GLOBAL_STATUS 0x80\n"));
    /* the preload API refuses them too */
    g_autoptr(PmsSim) s = fx_sim(on, PMS_SIM_REFERENCE);
    g_autoptr(GError) err = NULL;
    CU_ASSERT_FALSE(pms_sim_set_counter(s, 0xc5, 5, &err));
}

/* A model without the option (icl: 8 counters per thread, facts item 1)
 * keeps every counter: PERFEVTSEL7 takes a write, GLOBAL_CTRL's RESET value
 * enables all eight (A25). */
static void test_smt_absent(void)
{
    CU_ASSERT_TRUE(run_both(fx_model("icl"),
                            "read IA32_PERF_GLOBAL_CTRL 0xff\n"
                            "write IA32_PERFEVTSEL7 0x4300c0\n"
                            "run 2 0xc0.0x00=3\n"
                            "read IA32_PMC7 6\n"));
}

/* LBR_INFO: mispred 63, in-TSX 62, abort 61, cycles since the previous
 * entry 15:0 (saturating); TOS starts at 0, so the first entry is 1. */
static void test_lbr_info(void)
{
    g_autoptr(PmsModel) m = skl(NULL, NULL);
    CU_ASSERT_TRUE(
        run_both(m,
                 "write IA32_DEBUGCTL 1\n"
                 "run 1 branch=0x1000:0x2000:jcc:mp\n" /* cycle 0, 0 clocks since RESET: mispred only */
                 "read MSR_LBR_INFO_1 0x8000000000000000\n"
                 "@10 run 1 tx=begin branch=0x1100:0x1200:jcc\n" /* inside a region, 10 clocks later */
                 "read MSR_LBR_INFO_2 0x400000000000000a\n"
                 "@20 run 1 tx=abort branch=0x1300:0x1400:near_ind_jmp:abort\n" /* the abort record: 61 and 62 */
                 "read MSR_LBR_INFO_3 0x600000000000000a\n"
                 "@70000 run 1 branch=0x1500:0x1600:jcc\n" /* 69980 clocks: saturates at 0xffff */
                 "read MSR_LBR_INFO_4 0xffff\n"
                 "read MSR_LASTBRANCH_TOS 4\n"
                 "read MSR_LASTBRANCH_1_FROM_IP 0x8000000000001000\n"));
}

/* FRONTEND_RETIRED (0xC6/0x01) by MSR_PEBS_FRONTEND's sub-event (Table
 * 18-58) and IDQ bubble length/width (Table 18-59). */
static void test_frontend(void)
{
    g_autoptr(PmsModel) m = skl(NULL, NULL);
    CU_ASSERT_TRUE(run_both(m,
                            "write IA32_PERFEVTSEL0 0x4301c6\n"
                            "write MSR_PEBS_FRONTEND 0x12\n"                 /* L1I_MISS */
                            "run 10 fe=l1i_miss fe=dsb_miss:x2 fe=l2_miss\n" /* 1 per cycle has an L1I miss: 10 */
                            "read IA32_PMC0 10\n"
                            "write MSR_PEBS_FRONTEND 0x11\n"     /* DSB_MISS */
                            "run 5 fe=l1i_miss fe=dsb_miss:x2\n" /* 2 per cycle: +10 = 20 */
                            "read IA32_PMC0 20\n"
                            "write MSR_PEBS_FRONTEND 0x400806\n"               /* LATENCY_GE_8: length 8, width 4 */
                            "run 3 fe=len8 fe=len7 fe=len9:width2 fe=len100\n" /* len8 and len100 (width 4): +6 = 26 */
                            "read IA32_PMC0 26\n"
                            "write MSR_PEBS_FRONTEND 0x100206\n"            /* LATENCY_GE_2_BUBBLES_GE_1 */
                            "run 1 fe=len2:width1 fe=len1 fe=len9:width2\n" /* the first and the third: +2 = 28 */
                            "read IA32_PMC0 28\n"
                            "write MSR_PEBS_FRONTEND 0x2\n" /* no sub-event: nothing */
                            "run 4 fe=l1i_miss:dsb_miss:any_dsb_miss:l2_miss:itlb_miss:stlb_miss:len9\n"
                            "read IA32_PMC0 28\n"
                            "write MSR_PEBS_FRONTEND 0x800000 gp\n" /* bit 23: reserved */
                            "write IA32_PERFEVTSEL1 0x4300c0\n"     /* another event sees no fe= */
                            "write MSR_PEBS_FRONTEND 0x15\n"
                            "run 2 fe=stlb_miss:x3\n" /* STLB_MISS: +6 = 34 */
                            "read IA32_PMC0 34\n"
                            "read IA32_PMC1 0\n"));
}

/* The new run tokens' errors name the token and what was expected. */
static void test_token_errors(void)
{
    g_autoptr(PmsModel) m = skl(NULL, NULL);
    static const struct {
        const char *text, *msg;
    } bad[] = {
        { "run 1 tx=start", "t.stim:1: tx: 'start': expected begin, commit or abort" },
        { "run 1 fe=l3_miss", "t.stim:1: fe: 'l3_miss': expected any_dsb_miss" },
        { "run 1 fe=len0", "t.stim:1: fe: 'len0': expected" },
        { "run 1 fe=len4:width5", "t.stim:1: fe: 'width5': expected" },
        { "run 1 fe=width2", "t.stim:1: fe: 'width2': width without len" },
        { "run 1 branch=1:2:jcc:abrt", "t.stim:1: branch: flag 'abrt': expected mp, abort or one of" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(GError) err = NULL;
        g_autoptr(PmsStim) st = pms_stim_parse(m, bad[i].text, -1, "t.stim", &err);
        CU_ASSERT_PTR_NULL(st);
        if (!err || !g_str_has_prefix(err->message, bad[i].msg))
            fprintf(stderr, "# %s: %s\n", bad[i].text, err ? err->message : "accepted");
        CU_ASSERT_TRUE(err && g_str_has_prefix(err->message, bad[i].msg));
    }
}

/* The program step: an IN_TXCP event goes to the counter whose PERFEVTSEL
 * takes bit 33 (PERFEVTSEL2, the model's writable masks); with smt = on
 * sets and explicit placements use PMC0-3 only. */
static void test_program_skl(void)
{
    g_autoptr(PmsModel) m = skl(NULL, NULL);
    const PmsEvent *ev = pms_model_event(m, "INST_RETIRED");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
    guint64 plain = 0x4300c0, txcp = 0x2004300c0, tx = 0x1004300c0;
    PmsPlacement pl;
    CU_ASSERT_TRUE(pms_program_place_codes(m, ev, PMS_UMASK_SET_EMPTY, &plain, 1, &pl, NULL));
    CU_ASSERT_EQUAL(pl.counter, 0);
    CU_ASSERT_TRUE(pms_program_place_codes(m, ev, PMS_UMASK_SET_EMPTY, &txcp, 1, &pl, NULL));
    CU_ASSERT_FALSE(pl.fixed);
    CU_ASSERT_EQUAL(pl.counter, 2);
    CU_ASSERT_TRUE(pms_program_place_codes(m, ev, PMS_UMASK_SET_EMPTY, &tx, 1, &pl, NULL));
    CU_ASSERT_EQUAL(pl.counter, 0);
    /* the same from the event's placement found once (the encoder's kept
     * results): IN_TXCP still moves it to PERFEVTSEL2 */
    PmsPlacement first, from;
    gboolean first_ok = pms_program_place(m, ev, PMS_UMASK_SET_EMPTY, &first, NULL);
    const guint64 *codes[] = { &plain, &txcp, &tx };
    for (guint i = 0; i < G_N_ELEMENTS(codes); i++) {
        CU_ASSERT_TRUE(pms_program_place_codes(m, ev, PMS_UMASK_SET_EMPTY, codes[i], 1, &pl, NULL));
        CU_ASSERT_TRUE(
            pms_program_place_codes_from(&first, first_ok, m, ev, PMS_UMASK_SET_EMPTY, codes[i], 1, &from, NULL));
        CU_ASSERT_EQUAL(from.counter, pl.counter);
        CU_ASSERT_EQUAL(from.fixed, pl.fixed);
    }
    /* its writes program PERFEVTSEL2 and GLOBAL_CTRL bit 2 */
    PmsRegWrite w[PMS_PROGRAM_MAX_WRITES];
    guint n = 0;
    CU_ASSERT_TRUE(pms_program_place_codes(m, ev, PMS_UMASK_SET_EMPTY, &txcp, 1, &pl, NULL));
    CU_ASSERT_TRUE_FATAL(pms_program_writes(&pl, &txcp, 1, w, &n, NULL));
    CU_ASSERT_EQUAL(w[0].address, 0x188);
    CU_ASSERT_EQUAL(w[0].value, txcp);
    /* smt = on: counter 4 is not there; off: it is */
    g_autoptr(GError) err = NULL;
    CU_ASSERT_FALSE(pms_program_place_on(m, ev, 4, FALSE, &pl, &err));
    CU_ASSERT_PTR_NOT_NULL(err ? strstr(err->message, "smt = on") : NULL);
    g_autoptr(PmsModel) off = skl("smt", "off");
    CU_ASSERT_TRUE(pms_program_place_on(off, pms_model_event(off, "INST_RETIRED"), 4, FALSE, &pl, NULL));
    /* five INST_RETIRED on general counters (cmask keeps them off the fixed
     * counter): 4 counters with smt = on, so no placement; 8 without */
    guint64 c = 0x14300c0;
    PmsSetEvent set[5];
    for (guint i = 0; i < 5; i++)
        set[i] = (PmsSetEvent){ ev, PMS_UMASK_SET_EMPTY, &c, 1, NULL, FALSE };
    PmsPlacement place[5];
    CU_ASSERT_FALSE(pms_program_place_set(m, set, 5, place, NULL));
    for (guint i = 0; i < 5; i++)
        set[i].event = pms_model_event(off, "INST_RETIRED");
    CU_ASSERT_TRUE(pms_program_place_set(off, set, 5, place, NULL));
    /* two IN_TXCP events cannot both have counter 2 */
    guint64 cp = 0x2004300c0;
    PmsSetEvent two[2] = { { ev, PMS_UMASK_SET_EMPTY, &cp, 1, NULL, FALSE },
                           { ev, PMS_UMASK_SET_EMPTY, &cp, 1, NULL, FALSE } };
    CU_ASSERT_FALSE(pms_program_place_set(m, two, 2, place, NULL));
    CU_ASSERT_TRUE(pms_program_place_set(m, two, 1, place, NULL));
    CU_ASSERT_EQUAL(place[0].counter, 2);
}

void register_skl_tests(void)
{
    CU_pSuite s = CU_add_suite("sim skl", NULL, NULL);
    CU_add_test(s, "skl: IN_TX counts inside transactional regions only", test_in_tx);
    CU_add_test(s, "skl: IN_TXCP rolls back an aborted region, keeps committed ones", test_in_txcp);
    CU_add_test(s, "skl: IN_TXCP overflow in an aborted region: status rolled back (option keep)", test_txcp_overflow);
    CU_add_test(s, "skl: IN_TXCP on PERFEVTSEL2 only (#GP elsewhere)", test_txcp_gp);
    CU_add_test(s, "skl: glm without TSX fields ignores tx=", test_tx_glm_unchanged);
    CU_add_test(s, "skl: option smt: counters 4-7 #GP when on", test_smt);
    CU_add_test(s, "skl: option smt absent (icl): all 8 counters", test_smt_absent);
    CU_add_test(s, "skl: LBR_INFO mispred, in-TSX, abort, cycles", test_lbr_info);
    CU_add_test(s, "skl: FRONTEND_RETIRED by MSR_PEBS_FRONTEND", test_frontend);
    CU_add_test(s, "skl: tx=, fe= and branch abort token errors", test_token_errors);
    CU_add_test(s, "skl: program step: IN_TXCP on PERFEVTSEL2, smt = on PMC0-3", test_program_skl);
}
