/* The Montecito device (sim/dev_ia64.c) on models/montecito.pmu.  Registers
 * are programmed by writes in their spaces (pms_sim_write_at), written by
 * hand from reference/montecito/registers.md §1-3: PMC4-15 = plm 3:0, oi 5,
 * pm 6, es 15:8, umask 19:16, thres 22:20, ism 25:24 (10b unless a test
 * says otherwise), all 26;
 * PMC0 = fr bit 0, overflow bit n for PMDn; PMDn 47 bits.  Every expected
 * value is derived in the comment above it and checked on both engines. */
#include "fixtures.h"
#include "sim_ia64.h"

#include <string.h>

#define M_PLM(p) ((guint64)(p))
#define M_OI ((guint64)1 << 5)
#define M_THRES(t) ((guint64)(t) << 20)
#define M_ISM2 ((guint64)2 << 24)
#define M_ALL ((guint64)1 << 26)
#define M_PMC(es, um, bits) ((guint64)(es) << 8 | (guint64)(um) << 16 | M_ISM2 | (bits))
#define M_FR ((guint64)1)
#define W47 (((guint64)1 << 47) - 1)

enum { NOPS = 0x50, BUS_ALL = 0x87 }; /* NOPS_RETIRED 0x50 (max_inc 6), BUS_ALL_* 0x87 */

static const PmsSimEngine engines[] = { PMS_SIM_REFERENCE, PMS_SIM_FAST };

static void wr(PmsSim *s, PmsRegSpace sp, guint32 n, guint64 v)
{
    GError *e = NULL;
    gboolean ok = pms_sim_write_at(s, sp, n, v, &e);
    if (!ok) {
        fprintf(stderr, "# %s\n", e->message);
        g_error_free(e);
    }
    CU_ASSERT_TRUE_FATAL(ok);
}

static guint64 rd(PmsSim *s, PmsRegSpace sp, guint32 n)
{
    guint64 v = 0xdead;
    CU_ASSERT_TRUE(pms_sim_read_at(s, sp, n, &v, NULL));
    return v;
}

#define PMC(s, n, v) wr(s, PMS_SPACE_PMC, n, v)
#define PMD(s, n, v) wr(s, PMS_SPACE_PMD, n, v)
#define RPMC(s, n) rd(s, PMS_SPACE_PMC, n)
#define RPMD(s, n) (rd(s, PMS_SPACE_PMD, n) & W47)

/* `cycles` cycles of signal (code, umask) n0 times on thread 0 / n1 on thread 1. */
static void run(PmsSim *s, guint64 cycles, guint code, guint um, guint64 n0, guint64 n1, guint8 cpl0, guint8 cpl1)
{
    fx_run(s, cycles, PMS_SIGNAL_KEY(code, um), n0, n1, cpl0, cpl1);
}

static guint n_pmis(PmsSim *s, guint64 *first)
{
    guint n;
    const guint64 *p = pms_sim_pmis(s, &n);
    if (first)
        *first = n ? p[0] : G_MAXUINT64;
    return n;
}

static PmsSim *mont(PmsSimEngine e)
{
    return fx_sim(fx_model("montecito"), e);
}

#define M_EV ((guint64)1 << 4)

/* ev (bit 4; IA64 Table 7-4, semantics.md §11.3): one external notification
 * per overflow of the counter, whatever oi.  PMD4 (ev, no oi) preloaded
 * 2^47 - 2 sees 2^32 - 1 per cycle for 2^20 cycles: the sum 2^47 - 2 +
 * 2^20 (2^32 - 1) = 2^47 + 2^52 - 2^20 - 2 = 2^47 +
 * 2^5 = 33 * 2^47 - 2^20 - 2, so it carries floor(sum / 2^47) = 32 times:
 * the first in cycle 0 (2^47 - 2 + 2^32 - 1 carries at once, leaving 2^32 -
 * 3), the next in cycle j = ceil((2^47 - (2^32 - 3)) / (2^32 - 1)).  PMD5 counts the same without ev: none.  With
 * ev_notify = none (a part without the capability) PMD4 gives none either.
 * Both engines, so the fast one's arithmetic meets the reference's steps. */
static void test_ev_notifications(void)
{
    const guint64 inc = 0xffffffffull, cycles = 1u << 20;
    guint64 second = ((((guint64)1 << 47) - (inc - 2)) + inc - 1) / inc;
    for (guint e = 0; e < G_N_ELEMENTS(engines); e++) {
        g_autoptr(PmsSim) s = mont(engines[e]);
        PMC(s, 4, M_PMC(NOPS, 0, M_PLM(8) | M_EV));
        PMC(s, 5, M_PMC(NOPS, 0, M_PLM(8)));
        PMD(s, 4, W47 - 1);
        PMD(s, 5, W47 - 1);
        run(s, cycles, NOPS, 0, inc, 0, 3, 3);
        guint n;
        guint64 total;
        const guint64 *c = pms_sim_ext_notifications(s, &n, &total);
        CU_ASSERT_EQUAL(total, 32);
        CU_ASSERT_EQUAL(n, 32);
        CU_ASSERT_EQUAL(c[0], 0);
        CU_ASSERT_EQUAL(c[1], second);
        CU_ASSERT_EQUAL(n_pmis(s, NULL), 0);
        CU_ASSERT_EQUAL(RPMC(s, 0), 0);
        CU_ASSERT_EQUAL(RPMD(s, 4), RPMD(s, 5));
    }
    /* over PMS_SIM_EXT_LISTED: the first 64 cycles kept, every one counted */
    g_autoptr(PmsSim) f = mont(PMS_SIM_FAST);
    PMC(f, 4, M_PMC(NOPS, 0, M_PLM(8) | M_EV));
    run(f, (guint64)1 << 30, NOPS, 0, inc, 0, 3, 3);
    guint n;
    guint64 total;
    pms_sim_ext_notifications(f, &n, &total);
    /* 2^30 (2^32 - 1) / 2^47 = 2^15 - 2^30 / 2^47: 32767 whole carries */
    CU_ASSERT_EQUAL(total, 32767);
    CU_ASSERT_EQUAL(n, PMS_SIM_EXT_LISTED);
    /* ev_notify = none */
    PmsModel *m = fx_model_with("montecito", "ev_notify", "none");
    PmsSim *x = fx_sim(m, PMS_SIM_FAST);
    PMC(x, 4, M_PMC(NOPS, 0, M_PLM(8) | M_EV));
    PMD(x, 4, W47);
    run(x, 4, NOPS, 0, 1, 0, 3, 3);
    pms_sim_ext_notifications(x, &n, &total);
    CU_ASSERT_EQUAL(total, 0);
    CU_ASSERT_EQUAL(RPMD(x, 4), 3);
    pms_sim_free(x);
    pms_model_free(m);
}

/* Reset values from the model: PMC0 = 0, PMC4 = 0x2000000 (ism = 10b), PMDs
 * 0; the device is found for arch ia64. */
static void test_reset(void)
{
    g_autoptr(PmsSim) s = mont(PMS_SIM_FAST);
    CU_ASSERT_EQUAL(RPMC(s, 0), 0);
    CU_ASSERT_EQUAL(RPMC(s, 4), 0x2000000);
    CU_ASSERT_EQUAL(RPMC(s, 38), 0xdb6);
    CU_ASSERT_EQUAL(RPMD(s, 15), 0);
    /* the MSR space is empty on montecito */
    GError *e = NULL;
    guint64 v;
    CU_ASSERT_FALSE(pms_sim_read(s, 4, &v, &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "MSR 0x4: no such register on montecito"));
    g_clear_error(&e);
    CU_ASSERT_FALSE(pms_sim_read_at(s, PMS_SPACE_PMD, 37, &v, &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "#GP: read of PMD 37: no such register on montecito"));
    g_clear_error(&e);
}

/* 47-bit wrap, oi = 0 (registers.md 1, option overflow_without_oi = wrap):
 * PMD4 = 2^47 - 3, NOPS_RETIRED twice a cycle: 2^47 - 1 after cycle 0, then
 * 2^47 + 1 = 1 (mod 2^47) after cycle 1.  No PMC0 bit, no fr, no PMI; the
 * counter keeps counting (cycle 2: 3).  With overflow_without_oi = status,
 * PMC0 bit 4 is set, still without fr or a PMI. */
static void test_wrap_without_oi(void)
{
    for (guint opt = 0; opt < 2; opt++) {
        PmsModel *m = fx_model_with("montecito", "overflow_without_oi", opt ? "status" : "wrap");
        for (guint e = 0; e < 2; e++) {
            PmsSim *s = fx_sim(m, engines[e]);
            PMC(s, 4, M_PMC(NOPS, 0, M_PLM(0xf)));
            PMD(s, 4, W47 - 2);
            run(s, 2, NOPS, 0, 2, 0, 3, 3);
            CU_ASSERT_EQUAL(RPMD(s, 4), 1);
            CU_ASSERT_EQUAL(RPMC(s, 0), opt ? (guint64)1 << 4 : 0);
            run(s, 1, NOPS, 0, 2, 0, 3, 3);
            CU_ASSERT_EQUAL(RPMD(s, 4), 3);
            CU_ASSERT_EQUAL(n_pmis(s, NULL), 0);
            pms_sim_free(s);
        }
        pms_model_free(m);
    }
}

/* Reads of bits 63:47 (registers.md 2, option pmd_read_upper): 2^46 reads
 * 0xffffc00000000000 sign-extended, 0x400000000000 with zero; 2^46 - 1 reads
 * as written either way.  Writes of bits 63:47 are ignored (model ignored
 * mask): writing 0xffff800000000005 stores 5. */
static void test_pmd_upper(void)
{
    for (guint opt = 0; opt < 2; opt++) {
        PmsModel *m = fx_model_with("montecito", "pmd_read_upper", opt ? "zero" : "sign_extend");
        PmsSim *s = fx_sim(m, PMS_SIM_FAST);
        PMD(s, 6, (guint64)1 << 46);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 6), opt ? 0x400000000000ull : 0xffffc00000000000ull);
        PMD(s, 6, ((guint64)1 << 46) - 1);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 6), 0x3fffffffffffull);
        PMD(s, 6, 0xffff800000000005ull);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 6), 5);
        pms_sim_free(s);
        pms_model_free(m);
    }
}

/* Overflow with oi (registers.md 1): PMD5 = 2^47 - 4 with oi, PMD4 = 0
 * without, both NOPS_RETIRED once a cycle for 10 cycles.  PMD5 reaches
 * 2^47 - 1 after cycle 2 and carries in cycle 3: PMC0 = fr | bit 5 = 0x21,
 * one PMI at cycle 3.  Both counters count in cycle 3 and nothing counts
 * from cycle 4: PMD5 = 0, PMD4 = 4.  Software clears fr and keeps bit 5
 * (PMC0 = 0x20, sticky bits are software's): 3 more cycles give PMD5 = 3,
 * PMD4 = 7, no new PMI, PMC0 still 0x20. */
static void test_oi_freeze_resume(void)
{
    for (guint e = 0; e < 2; e++) {
        g_autoptr(PmsSim) s = mont(engines[e]);
        PMC(s, 4, M_PMC(NOPS, 0, M_PLM(0x8)));
        PMC(s, 5, M_PMC(NOPS, 0, M_PLM(0x8) | M_OI));
        PMD(s, 5, W47 - 3);
        run(s, 10, NOPS, 0, 1, 0, 3, 3);
        guint64 at;
        CU_ASSERT_EQUAL(n_pmis(s, &at), 1);
        CU_ASSERT_EQUAL(at, 3);
        CU_ASSERT_EQUAL(RPMC(s, 0), 0x21);
        CU_ASSERT_EQUAL(RPMD(s, 5), 0);
        CU_ASSERT_EQUAL(RPMD(s, 4), 4);
        PMC(s, 0, 0x20);
        run(s, 3, NOPS, 0, 1, 0, 3, 3);
        CU_ASSERT_EQUAL(RPMD(s, 5), 3);
        CU_ASSERT_EQUAL(RPMD(s, 4), 7);
        CU_ASSERT_EQUAL(RPMC(s, 0), 0x20);
        CU_ASSERT_EQUAL(n_pmis(s, NULL), 1);
        /* software may set fr itself: nothing counts, no PMI */
        PMC(s, 0, M_FR);
        run(s, 5, NOPS, 0, 1, 0, 3, 3);
        CU_ASSERT_EQUAL(RPMD(s, 4), 7);
        CU_ASSERT_EQUAL(n_pmis(s, NULL), 1);
    }
}

/* Several counters in one cycle (registers.md 1: several overflow bits in
 * one cycle, one PMU interrupt): PMD4, PMD6 and PMD15 = 2^47 - 2 with oi
 * carry together in cycle 1: PMC0 = 1 | 1<<4 | 1<<6 | 1<<15 = 0x8051 and
 * one PMI at 1.  PMD7 = 2^47 - 3 with oi would carry in cycle 2, but fr
 * stops it at 2^47 - 1 with no bit of its own.  A second overflow after
 * resuming (fr cleared, PMD4 = 2^47 - 1) gives a second PMI in the first
 * cycle counted. */
static void test_many_one_pmi(void)
{
    for (guint e = 0; e < 2; e++) {
        g_autoptr(PmsSim) s = mont(engines[e]);
        static const guint ctr[] = { 4, 6, 15 };
        for (guint i = 0; i < G_N_ELEMENTS(ctr); i++) {
            PMC(s, ctr[i], M_PMC(NOPS, 0, M_PLM(0xf) | M_OI));
            PMD(s, ctr[i], W47 - 1);
        }
        PMC(s, 7, M_PMC(NOPS, 0, M_PLM(0xf) | M_OI));
        PMD(s, 7, W47 - 2);
        run(s, 6, NOPS, 0, 1, 0, 0, 0);
        guint64 at;
        CU_ASSERT_EQUAL(n_pmis(s, &at), 1);
        CU_ASSERT_EQUAL(at, 1);
        CU_ASSERT_EQUAL(RPMC(s, 0), 0x8051);
        CU_ASSERT_EQUAL(RPMD(s, 4), 0);
        CU_ASSERT_EQUAL(RPMD(s, 15), 0);
        CU_ASSERT_EQUAL(RPMD(s, 7), W47);
        /* resume at cycle 6: PMD7 carries in cycle 6 */
        PMC(s, 0, 0);
        run(s, 4, NOPS, 0, 1, 0, 0, 0);
        guint n;
        const guint64 *p = pms_sim_pmis(s, &n);
        CU_ASSERT_EQUAL_FATAL(n, 2);
        CU_ASSERT_EQUAL(p[1], 6);
        CU_ASSERT_EQUAL(RPMC(s, 0), 0x81);
        CU_ASSERT_EQUAL(RPMD(s, 4), 1);
    }
}

/* Privilege filter (registers.md 3: plm bit k counts at privilege level k):
 * four cycles at CPL 0, 1, 2, 3 with 1, 2, 4, 8 occurrences.  plm 0x1 -> 1,
 * 0x2 -> 2, 0x4 -> 4, 0x8 -> 8, 0x9 (levels 0 and 3, libpfm's k+u) -> 9,
 * 0xf -> 15, 0 -> 0 (counts nothing). */
static void test_plm(void)
{
    static const struct {
        guint plm;
        guint64 want;
    } c[] = {
        { 0x1, 1 }, { 0x2, 2 }, { 0x4, 4 }, { 0x8, 8 }, { 0x9, 9 }, { 0xf, 15 }, { 0x0, 0 },
    };
    for (guint e = 0; e < 2; e++) {
        g_autoptr(PmsSim) s = mont(engines[e]);
        for (guint i = 0; i < G_N_ELEMENTS(c); i++)
            PMC(s, 4 + i, M_PMC(NOPS, 0, M_PLM(c[i].plm)));
        for (guint8 cpl = 0; cpl < 4; cpl++)
            run(s, 1, NOPS, 0, (guint64)1 << cpl, 0, cpl, cpl);
        for (guint i = 0; i < G_N_ELEMENTS(c); i++)
            CU_ASSERT_EQUAL(RPMD(s, 4 + i), c[i].want);
    }
}

/* Threshold (libpfm_montecito(3): thres n adds 1 only when the event occurs
 * more than n times in a cycle; option thres_compare = ge reads "at least
 * n").  NOPS_RETIRED (max_inc 6) occurs 0,1,...,6 and then 9 times (a count
 * beyond max_inc: the device does not enforce it) in 8 cycles, on PMC4..11
 * with thres 0..7:
 *   thres 0: every occurrence, 0+1+...+6+9 = 30 (both readings);
 *   gt: cycles with n > t: t=1..5 -> 6,5,4,3,2 (t = 5 = max_inc - 1 is the
 *       highest useful threshold: only n = 6 and the 9); t=6 -> 1 (the 9
 *       alone: at max_inc nothing legal passes); t=7 -> 1;
 *   ge: cycles with n >= t: t=1..7 -> 7,6,5,4,3,2,1. */
static void test_threshold(void)
{
    static const guint64 want_gt[8] = { 30, 6, 5, 4, 3, 2, 1, 1 };
    static const guint64 want_ge[8] = { 30, 7, 6, 5, 4, 3, 2, 1 };
    static const guint64 seq[] = { 0, 1, 2, 3, 4, 5, 6, 9 };
    for (guint opt = 0; opt < 2; opt++) {
        PmsModel *m = fx_model_with("montecito", "thres_compare", opt ? "ge" : "gt");
        for (guint e = 0; e < 2; e++) {
            PmsSim *s = fx_sim(m, engines[e]);
            for (guint t = 0; t < 8; t++)
                PMC(s, 4 + t, M_PMC(NOPS, 0, M_PLM(0x8) | M_THRES(t)));
            fx_run_seq(s, PMS_SIGNAL_KEY(NOPS, 0), seq, G_N_ELEMENTS(seq), 3);
            for (guint t = 0; t < 8; t++)
                CU_ASSERT_EQUAL(RPMD(s, 4 + t), opt ? want_ge[t] : want_gt[t]);
            pms_sim_free(s);
        }
        pms_model_free(m);
    }
}

/* Signals: es.umask, the 4-bit umask matched exactly.  BUS_ALL_ANY
 * (0x87.0x3) with BUS_ALL_IO-like 0x87.0x1 (1/cycle), 0x87.0x2 (2/cycle)
 * and 0x87.0x3 (4/cycle) present for 3 cycles: umask 3 counts 12, umask 1
 * counts 3, umask 0 counts nothing. */
static void test_umask_exact(void)
{
    for (guint e = 0; e < 2; e++) {
        g_autoptr(PmsSim) s = mont(engines[e]);
        PMC(s, 4, M_PMC(BUS_ALL, 3, M_PLM(0xf)));
        PMC(s, 5, M_PMC(BUS_ALL, 1, M_PLM(0xf)));
        PMC(s, 6, M_PMC(BUS_ALL, 0, M_PLM(0xf)));
        PmsSimCount c[3] = { { PMS_SIGNAL_KEY(BUS_ALL, 1), 0, 1, 0 },
                             { PMS_SIGNAL_KEY(BUS_ALL, 2), 0, 2, 0 },
                             { PMS_SIGNAL_KEY(BUS_ALL, 3), 0, 4, 0 } };
        PmsSimRun r = { 3, { 3, 3 }, c, 3, NULL, 0, NULL, 0 };
        CU_ASSERT_TRUE(pms_sim_run(s, &r, NULL));
        CU_ASSERT_EQUAL(RPMD(s, 4), 12);
        CU_ASSERT_EQUAL(RPMD(s, 5), 3);
        CU_ASSERT_EQUAL(RPMD(s, 6), 0);
    }
}

/* Threads (registers.md 3: all = 1 counts both hardware threads; semantics
 * reference 8.6; option all_on_pmc8_15): thread 0 at CPL 3 with 1, thread 1
 * at CPL 0 with 2 occurrences, for 5 cycles.  plm 0xf: all = 0 -> 5 (own
 * thread); all = 1 on PMC4 -> 15; all = 1 on PMC8 -> 5 (own) or 15 (both).
 * plm 0x8 with all on PMC5: each thread filtered at its own CPL -> 5. */
static void test_all_threads(void)
{
    for (guint opt = 0; opt < 2; opt++) {
        PmsModel *m = fx_model_with("montecito", "all_on_pmc8_15", opt ? "both" : "own");
        for (guint e = 0; e < 2; e++) {
            PmsSim *s = fx_sim(m, engines[e]);
            PMC(s, 4, M_PMC(NOPS, 0, M_PLM(0xf) | M_ALL));
            PMC(s, 5, M_PMC(NOPS, 0, M_PLM(0x8) | M_ALL));
            PMC(s, 6, M_PMC(NOPS, 0, M_PLM(0xf)));
            PMC(s, 8, M_PMC(NOPS, 0, M_PLM(0xf) | M_ALL));
            run(s, 5, NOPS, 0, 1, 2, 3, 0);
            CU_ASSERT_EQUAL(RPMD(s, 4), 15);
            CU_ASSERT_EQUAL(RPMD(s, 5), 5);
            CU_ASSERT_EQUAL(RPMD(s, 6), 5);
            CU_ASSERT_EQUAL(RPMD(s, 8), opt ? 15 : 5);
            pms_sim_free(s);
        }
        pms_model_free(m);
    }
}

/* Reserved bits (model writable/ignored masks from registers.md 1-12): PMC4
 * bit 31 is reserved -> #GP naming PMC4, register unchanged; bits 7 and 23
 * are ignored -> accepted, read 0; PMC0 bits 3:1 and 63:16 are ignored; PMC1
 * ignores everything and reads 0; PMC37 bit 14 is reserved; IBR1 bits 62:60
 * are ignored, DBR1 has none reserved; PMC 16 does not exist. */
static void test_reserved(void)
{
    g_autoptr(PmsSim) s = mont(PMS_SIM_FAST);
    GError *e = NULL;
    guint64 v0 = M_PMC(NOPS, 0, M_PLM(0x8));
    PMC(s, 4, v0);
    CU_ASSERT_FALSE(pms_sim_write_at(s, PMS_SPACE_PMC, 4, v0 | ((guint64)1 << 31), &e));
    CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_GP));
    CU_ASSERT_TRUE(e && strstr(e->message, "#GP: write 0x82005008 to PMC4: reserved bits set: 0x80000000"));
    g_clear_error(&e);
    CU_ASSERT_EQUAL(RPMC(s, 4), v0);
    PMC(s, 4, v0 | 0x800080);
    CU_ASSERT_EQUAL(RPMC(s, 4), v0);
    PMC(s, 0, 0xffff00000000000eull);
    CU_ASSERT_EQUAL(RPMC(s, 0), 0);
    PMC(s, 1, G_MAXUINT64);
    CU_ASSERT_EQUAL(RPMC(s, 1), 0);
    CU_ASSERT_FALSE(pms_sim_write_at(s, PMS_SPACE_PMC, 37, (guint64)1 << 14, &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "PMC37: reserved bits set: 0x4000"));
    g_clear_error(&e);
    wr(s, PMS_SPACE_IBR, 1, 0xf0000000000000ffull);
    CU_ASSERT_EQUAL(rd(s, PMS_SPACE_IBR, 1), 0x80000000000000ffull);
    wr(s, PMS_SPACE_DBR, 1, G_MAXUINT64);
    CU_ASSERT_EQUAL(rd(s, PMS_SPACE_DBR, 1), 0xcfffffffffffffffull);
    CU_ASSERT_FALSE(pms_sim_write_at(s, PMS_SPACE_PMC, 16, 0, &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "#GP: write 0x0 to PMC 16: no such register on montecito"));
    g_clear_error(&e);
    /* a preload that does not fit 47 bits is refused; one that does is taken */
    CU_ASSERT_FALSE(pms_sim_set_counter_at(s, PMS_SPACE_PMD, 4, (guint64)1 << 47, &e));
    g_clear_error(&e);
    CU_ASSERT_TRUE(pms_sim_set_counter_at(s, PMS_SPACE_PMD, 4, W47, NULL));
    CU_ASSERT_FALSE(pms_sim_set_counter_at(s, PMS_SPACE_PMC, 4, 0, &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "PMC 4 is not a counter of montecito"));
    g_clear_error(&e);
}

/* Model options are checked when the instance is made. */
static void test_bad_option(void)
{
    PmsModel *m = fx_model_with("montecito", "thres_compare", "gte");
    GError *e = NULL;
    CU_ASSERT_PTR_NULL(pms_sim_new(m, &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "option thres_compare = 'gte': expected gt or ge"));
    g_clear_error(&e);
    pms_model_free(m);
}

/* pms_sim_apply writes each register in its own space (PMC4 and PMD4 share
 * the number 4), partial writes included. */
static void test_apply_spaces(void)
{
    const PmsModel *m = fx_model("montecito");
    g_autoptr(PmsSim) s = mont(PMS_SIM_FAST);
    const PmsRegister *c4 = pms_model_reg_at(m, PMS_SPACE_PMC, 4), *d4 = pms_model_reg_at(m, PMS_SPACE_PMD, 4);
    PmsRegWrite w[3] = {
        { c4->name, 4, M_PMC(NOPS, 0, M_PLM(0x8)), G_MAXUINT64, c4 },
        { d4->name, 4, 100, G_MAXUINT64, d4 },
        { c4->name, 4, M_OI, M_OI, c4 }, /* set oi, keep the rest */
    };
    CU_ASSERT_TRUE(pms_sim_apply(s, w, 3, NULL));
    CU_ASSERT_EQUAL(RPMC(s, 4), M_PMC(NOPS, 0, M_PLM(0x8) | M_OI));
    CU_ASSERT_EQUAL(RPMD(s, 4), 100);
}

/* Long runs on the fast engine: PMD4 = 0 with oi, 3 per cycle: the carry
 * comes in the cycle where 3(k+1) >= 2^47 first holds, k = ceil(2^47/3) - 1
 * = 46912496118442; the reference engine is not run on 2^45 cycles. */
static void test_long_run(void)
{
    g_autoptr(PmsSim) s = mont(PMS_SIM_FAST);
    PMC(s, 4, M_PMC(NOPS, 0, M_PLM(0x8) | M_OI));
    run(s, (guint64)1 << 48, NOPS, 0, 3, 0, 3, 3);
    guint64 at;
    CU_ASSERT_EQUAL(n_pmis(s, &at), 1);
    CU_ASSERT_EQUAL(at, 46912496118442ull);
    /* 3 * 46912496118443 - 2^47 = 1 */
    CU_ASSERT_EQUAL(RPMD(s, 4), 1);
    CU_ASSERT_EQUAL(RPMC(s, 0), 0x11);
}

/* A stimulus file on both engines: registers by name in the PMC and PMD
 * spaces (sim/tests/data/montecito-freeze.stim); the mesi=, dear= and br=
 * example of docs/stimulus-format.md (sim/tests/data/montecito-ear.stim). */
static void test_stim_file(void)
{
    static const char *const files[] = { "montecito-freeze.stim", "montecito-ear.stim" };
    for (guint e = 0; e < 2 * G_N_ELEMENTS(files); e++) {
        GError *err = NULL;
        g_autofree char *path = g_strdup_printf("%s/sim/tests/data/%s", PMS_SRCDIR, files[e / 2]);
        g_autoptr(PmsStim) st = pms_stim_load_file(fx_model("montecito"), path, &err);
        if (!st)
            fprintf(stderr, "# %s\n", err->message);
        CU_ASSERT_PTR_NOT_NULL_FATAL(st);
        g_autoptr(PmsSim) s = mont(engines[e % 2]);
        gboolean ok = pms_stim_execute(st, s, &err);
        if (!ok)
            fprintf(stderr, "# %s\n", err->message);
        CU_ASSERT_TRUE(ok);
    }
    /* a failing read names the register with its space */
    GError *err = NULL;
    g_autoptr(PmsStim) st = pms_stim_parse(fx_model("montecito"), "read pmd:4 5\n", -1, "t.stim", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    g_autoptr(PmsSim) s = mont(PMS_SIM_FAST);
    CU_ASSERT_FALSE(pms_stim_execute(st, s, &err));
    CU_ASSERT_TRUE(err && strstr(err->message, "t.stim:1: cycle 0: read PMD4 (pmd 4) = 0x0 (0), expected 0x5 (5)"));
    g_clear_error(&err);
}

/* Code-range restriction (registers.md 4, 8, 12; semantics.md §11).  IBR0 =
 * 0x4000, IBR1 = mask of a 4 KB block (56 bits of ones above bit 11):
 * IBRP0 matches [0x4000, 0x5000).  PMC38 = 0xdb6 & ~ig_ibrp0 enables it;
 * PMC32 = 0x000f01ffffffffff (ig_ad = 0, inv = 0), as libpfm writes them.
 * IA64_INST_RETIRED (0x08.0) occurs 2 per cycle, NOPS_RETIRED (0x50, iarr)
 * 1 per cycle, BUS_ALL_SELF (0x87.2, no iarr) 1 per cycle, in three runs of
 * 10 cycles: ip = 0x4ff0 (inside), ip = 0x5000 (outside), no ip.
 *   PMC4 0x08 umask 0 (channel 0): 20 inside only -> 20;
 *   PMC5 0x08 umask 1 (channel 1, ig_ibrp1 = 1, not constraining) -> 60;
 *   PMC6 NOPS_RETIRED (iarr, channel 0) -> 10;
 *   PMC7 BUS_ALL_SELF (no iarr: not constrained) -> 30.
 * With inv (PMC32 bit 56) channel 0 passes the outside address: PMC4 20
 * (0x5000 only: no ip matches nothing, inverted or not), PMC6 10.  With
 * ig_ad = 1 nothing is constrained: PMC4 60, PMC6 30. */
static void test_code_range_coarse(void)
{
    static const struct {
        guint64 pmc32;
        guint64 want4, want6;
    } c[] = {
        { 0x000f01ffffffffffull, 20, 10 },
        { 0x010f01ffffffffffull, 20, 10 },
        { 0x020f01ffffffffffull, 60, 30 },
    };
    static const guint64 ips[3] = { 0x4ff0, 0x5000, 0 };
    for (guint k = 0; k < G_N_ELEMENTS(c); k++)
        for (guint e = 0; e < 2; e++) {
            g_autoptr(PmsSim) s = mont(engines[e]);
            wr(s, PMS_SPACE_IBR, 0, 0x4000);
            wr(s, PMS_SPACE_IBR, 1, 0x00fffffffffff000ull);
            PMC(s, 38, 0xdb6 & ~(guint64)0x2);
            PMC(s, 32, c[k].pmc32);
            PMC(s, 4, M_PMC(0x08, 0, M_PLM(0xf)));
            PMC(s, 5, M_PMC(0x08, 1, M_PLM(0xf)));
            PMC(s, 6, M_PMC(NOPS, 0, M_PLM(0xf)));
            PMC(s, 7, M_PMC(BUS_ALL, 2, M_PLM(0xf)));
            for (guint r = 0; r < 3; r++) {
                pms_sim_set_ip(s, 0, r < 2, ips[r]);
                PmsSimCount cnt[3] = { { PMS_SIGNAL_KEY(0x08, 0), 0, 2, 0 },
                                       { PMS_SIGNAL_KEY(NOPS, 0), 0, 1, 0 },
                                       { PMS_SIGNAL_KEY(BUS_ALL, 2), 0, 1, 0 } };
                PmsSimRun run = { 10, { 3, 3 }, cnt, 3, NULL, 0, NULL, 0 };
                CU_ASSERT_TRUE(pms_sim_run(s, &run, NULL));
            }
            CU_ASSERT_EQUAL(RPMD(s, 4), c[k].want4);
            CU_ASSERT_EQUAL(RPMD(s, 5), 60);
            CU_ASSERT_EQUAL(RPMD(s, 6), c[k].want6);
            CU_ASSERT_EQUAL(RPMD(s, 7), 30);
        }
}

/* Address bits 63:56 have no mask bit and are always compared (registers.md
 * 12): IBR1 mask 0 (every maskable bit ignored) with IBR0 = 0 still rejects
 * 0x0100000000000000 and passes 0x00ffffffffffff00; address bits 3:0 are
 * never compared (IBR0 = 0x400f matches 0x4000 with a full mask). */
static void test_code_range_top_bits(void)
{
    for (guint e = 0; e < 2; e++) {
        g_autoptr(PmsSim) s = mont(engines[e]);
        PMC(s, 38, 0xdb6 & ~(guint64)0x2);
        PMC(s, 32, 0x000f01ffffffffffull);
        PMC(s, 4, M_PMC(0x08, 0, M_PLM(0xf)));
        static const struct {
            guint64 addr, mask, ip;
            guint64 want;
        } c[] = {
            { 0, 0, 0x0100000000000000ull, 0 },
            { 0, 0, 0x00ffffffffffff00ull, 1 },
            { 0x400f, 0x00ffffffffffffffull, 0x4000, 1 },
            { 0x4000, 0x00ffffffffffffffull, 0x4010, 0 },
        };
        guint64 total = 0;
        for (guint k = 0; k < G_N_ELEMENTS(c); k++) {
            wr(s, PMS_SPACE_IBR, 0, c[k].addr);
            wr(s, PMS_SPACE_IBR, 1, c[k].mask);
            pms_sim_set_ip(s, 0, TRUE, c[k].ip);
            run(s, 1, 0x08, 0, 1, 0, 3, 3);
            total += c[k].want;
            CU_ASSERT_EQUAL(RPMD(s, 4), total);
        }
    }
}

/* Fine mode (registers.md 8, PMC38.fine): range 0 from IBRP0 (lower, IBR0 =
 * 0x12340020) to IBRP2 (upper, IBR4 = 0x12340070), inclusive bundles, the
 * odd registers 0x00000000ffff0000 (page bits 31:16, libpfm's fine mask).
 * PMC38 = 0xdb6 & ~(ig_ibrp0 | ig_ibrp2) | fine.  One retired instruction
 * per cycle at 0x12340010 (below), 0x12340020, 0x12340070 (both bounds),
 * 0x12340080 (above), 0x12350020 (other page) and without ip: PMC4 (0x08.0,
 * channel 0) counts 2; PMC5 (0x08.2, channel 2: an upper bound, not
 * constraining) counts 6. */
static void test_code_range_fine(void)
{
    for (guint e = 0; e < 2; e++) {
        g_autoptr(PmsSim) s = mont(engines[e]);
        wr(s, PMS_SPACE_IBR, 0, 0x12340020);
        wr(s, PMS_SPACE_IBR, 1, 0x00000000ffff0000ull);
        wr(s, PMS_SPACE_IBR, 4, 0x12340070);
        wr(s, PMS_SPACE_IBR, 5, 0x00000000ffff0000ull);
        PMC(s, 38, (0xdb6 & ~(guint64)0x82) | ((guint64)1 << 13));
        PMC(s, 32, 0x000f01ffffffffffull);
        PMC(s, 4, M_PMC(0x08, 0, M_PLM(0xf)));
        PMC(s, 5, M_PMC(0x08, 2, M_PLM(0xf)));
        static const guint64 ips[] = { 0x12340010, 0x12340020, 0x12340070, 0x12340080, 0x12350020 };
        for (guint k = 0; k <= G_N_ELEMENTS(ips); k++) {
            pms_sim_set_ip(s, 0, k < G_N_ELEMENTS(ips), k < G_N_ELEMENTS(ips) ? ips[k] : 0);
            run(s, 1, 0x08, 0, 1, 0, 3, 3);
        }
        CU_ASSERT_EQUAL(RPMD(s, 4), 2);
        CU_ASSERT_EQUAL(RPMD(s, 5), 6);
    }
}

/* The stimulus's ip= token holds for its run only: the same ranges as the
 * coarse test, written by name (IBR0, IBR1, PMC38, PMC32). */
static void test_code_range_stim(void)
{
    const char *t = "pmu montecito\n"
                    "write IBR0 0x4000\n"
                    "write IBR1 0x00fffffffffff000\n"
                    "write PMC38 0xdb4\n"
                    "write PMC32 0x000f01ffffffffff\n"
                    "write PMC4 0x200080f             # es 0x08, umask 0, plm 0xf\n"
                    "run 5 IA64_INST_RETIRED=1 ip=0x4100\n"
                    "run 5 IA64_INST_RETIRED=1\n"
                    "run 5 IA64_INST_RETIRED=1,1 ip=-,0x4100  # own thread: none\n"
                    "read PMD4 5\n";
    for (guint e = 0; e < 2; e++) {
        GError *err = NULL;
        g_autoptr(PmsStim) st = pms_stim_parse(fx_model("montecito"), t, -1, "t.stim", &err);
        if (!st)
            fprintf(stderr, "# %s\n", err->message);
        CU_ASSERT_PTR_NOT_NULL_FATAL(st);
        g_autoptr(PmsSim) s = mont(engines[e]);
        gboolean ok = pms_stim_execute(st, s, &err);
        if (!ok)
            fprintf(stderr, "# %s\n", err->message);
        CU_ASSERT_TRUE(ok);
    }
    GError *err = NULL;
    CU_ASSERT_PTR_NULL(pms_stim_parse(fx_model("montecito"), "run 1 ip=0x1,0x2,0x3\n", -1, "t.stim", &err));
    CU_ASSERT_TRUE(err && strstr(err->message, "t.stim:1: ip: expected 1..2 comma-separated addresses"));
    g_clear_error(&err);
}

/* Opcode matching (registers.md 4, 5; semantics reference 8.8).  A pattern
 * matcher compares the major opcode (bits 40:37, mask bits 0 there, 1
 * elsewhere: 0x01fffffffff) with 8 (match 0x10000000000) in M and I slots
 * only (bits 51, 50); ig_ad = 1 keeps code ranges off: 0x020c001fffffffff
 * in PMC32 (0x000c001fffffffff in PMC34).  The other matcher keeps its
 * match-everything reset value.  Seven runs of 10 cycles, IA64_INST_RETIRED
 * 2 per cycle, NOPS_RETIRED (opcm) and FP_OPS_RETIRED (iarr, no opcm) 1 per
 * cycle, with the instruction
 *   m:8<<37|0x123 (match), i:8<<37 (match), f:8<<37 (slot off), b:8<<37
 *   (slot off), m:9<<37 (bit 37 compared: no), m:8<<37|0x1fffffffff (only
 *   ignored bits differ: match), none (the matcher is not match-everything:
 *   no)
 * so the pattern passes 30 cycles of 70.
 *   (a) pattern in PMC32/33: channels 0 and 2 (0x08.0, 0x08.2) 2 * 30 = 60,
 *       channels 1 and 3 2 * 70 = 140, NOPS (channel 0) 30, FP_OPS 70;
 *   (b) pattern in PMC34/35: channels 1 and 3 60, channels 0 and 2 140,
 *       NOPS 70, FP_OPS 70;
 *   (c) as (a) with PMC36 = 0xfffffff5 (ch0_ig_opcm, ch2_ig_opcm): every
 *       channel 140, NOPS 70, FP_OPS 70. */
static void test_opcode_match(void)
{
    static const guint64 all0 = 0x030f01ffffffffffull, all1 = 0x000f01ffffffffffull;
    static const struct {
        guint64 pmc32, pmc33, pmc34, pmc35, pmc36;
        guint64 want[6];
    } c[] = {
        { 0x020c001fffffffffull, 0x10000000000ull, all1, 0, 0xfffffff0, { 60, 140, 60, 140, 30, 70 } },
        { all0, 0, 0x000c001fffffffffull, 0x10000000000ull, 0xfffffff0, { 140, 60, 140, 60, 70, 70 } },
        { 0x020c001fffffffffull, 0x10000000000ull, all1, 0, 0xfffffff5, { 140, 140, 140, 140, 70, 70 } },
    };
    static const struct {
        gboolean valid;
        PmsSimSlot slot;
        guint64 op;
    } in[7] = {
        { TRUE, PMS_SIM_SLOT_M, 0x10000000123ull },
        { TRUE, PMS_SIM_SLOT_I, 0x10000000000ull },
        { TRUE, PMS_SIM_SLOT_F, 0x10000000000ull },
        { TRUE, PMS_SIM_SLOT_B, 0x10000000000ull },
        { TRUE, PMS_SIM_SLOT_M, 0x12000000000ull },
        { TRUE, PMS_SIM_SLOT_M, 0x11fffffffffull },
        { FALSE, PMS_SIM_SLOT_M, 0 },
    };
    for (guint k = 0; k < G_N_ELEMENTS(c); k++)
        for (guint e = 0; e < 2; e++) {
            g_autoptr(PmsSim) s = mont(engines[e]);
            PMC(s, 32, c[k].pmc32);
            PMC(s, 33, c[k].pmc33);
            PMC(s, 34, c[k].pmc34);
            PMC(s, 35, c[k].pmc35);
            PMC(s, 36, c[k].pmc36);
            for (guint ch = 0; ch < 4; ch++)
                PMC(s, 4 + ch, M_PMC(0x08, ch, M_PLM(0xf)));
            PMC(s, 8, M_PMC(NOPS, 0, M_PLM(0xf)));
            PMC(s, 9, M_PMC(0x09, 0, M_PLM(0xf)));
            for (guint r = 0; r < G_N_ELEMENTS(in); r++) {
                pms_sim_set_insn(s, 0, in[r].valid, in[r].slot, in[r].op);
                PmsSimCount cnt[3] = { { PMS_SIGNAL_KEY(0x08, 0), 0, 2, 0 },
                                       { PMS_SIGNAL_KEY(NOPS, 0), 0, 1, 0 },
                                       { PMS_SIGNAL_KEY(0x09, 0), 0, 1, 0 } };
                PmsSimRun run = { 10, { 3, 3 }, cnt, 3, NULL, 0, NULL, 0 };
                CU_ASSERT_TRUE(pms_sim_run(s, &run, NULL));
            }
            for (guint i = 0; i < 6; i++)
                CU_ASSERT_EQUAL(RPMD(s, 4 + i), c[k].want[i]);
        }
}

/* Opcode matching and code ranges on one channel: IBRP0 = [0x4000, 0x5000)
 * as in the coarse test (PMC32.ig_ad = 0) and matcher 1 with the pattern of
 * test_opcode_match: IA64_INST_RETIRED (channel 0) counts only occurrences
 * inside the range AND matching: m:8<<37 at 0x4100 (1), m:8<<37 at 0x5000
 * (0), f:8<<37 at 0x4100 (0) -> 1. */
static void test_opcode_and_code_range(void)
{
    for (guint e = 0; e < 2; e++) {
        g_autoptr(PmsSim) s = mont(engines[e]);
        wr(s, PMS_SPACE_IBR, 0, 0x4000);
        wr(s, PMS_SPACE_IBR, 1, 0x00fffffffffff000ull);
        PMC(s, 38, 0xdb6 & ~(guint64)0x2);
        PMC(s, 32, 0x000c001fffffffffull);
        PMC(s, 33, 0x10000000000ull);
        PMC(s, 4, M_PMC(0x08, 0, M_PLM(0xf)));
        static const struct {
            guint64 ip;
            PmsSimSlot slot;
        } c[] = { { 0x4100, PMS_SIM_SLOT_M }, { 0x5000, PMS_SIM_SLOT_M }, { 0x4100, PMS_SIM_SLOT_F } };
        for (guint k = 0; k < G_N_ELEMENTS(c); k++) {
            pms_sim_set_ip(s, 0, TRUE, c[k].ip);
            pms_sim_set_insn(s, 0, TRUE, c[k].slot, 0x10000000000ull);
            run(s, 1, 0x08, 0, 1, 0, 3, 3);
        }
        CU_ASSERT_EQUAL(RPMD(s, 4), 1);
    }
}

/* Data-range restriction (registers.md 10, 12).  DBRP0 covers the 4 KB block
 * [0x700000001000, 0x700000002000) (DBR1 = 0x00fffffffffff000), DBRP1 the
 * 256-byte block [0x20000, 0x20100) (DBR3 = 0x00ffffffffffff00).
 * DATA_REFERENCES_SET0 (0xc3, darr) and NOPS_RETIRED (no darr) occur once in
 * each of eight 1-cycle runs with the data address
 *   0x700000001000 (first byte), 0x700000001fff (last byte), 0x700000000fff
 *   (one below), 0x700000002000 (one above), 0x20080 (in pair 1), 0x20100
 *   (one above pair 1), 0x0100700000001000 (bit 56 differs: no mask bit
 *   covers it), none.
 * PMC41:
 *   0x6078fefef6f6 (libpfm's D-only tag 2 on pairs 0 and 1, ena_dbrp0/1):
 *     the cover is the union -> 3 (first, last, pair 1);
 *   0x78fefef6f6 (the same tags, ena_dbrp0/1 = 0): nothing constrains -> 8;
 *   0x2078fefefefe (reset: tags 3) -> 8;
 *   0x2078fefefeee (cfg_dtag0 = 1, ena_dbrp0): iod (1 is the I-side tag)
 *     -> 8; active (1 != 3) -> pair 0 alone: 2.
 * NOPS_RETIRED always 8. */
static void test_data_range(void)
{
    static const struct {
        guint64 pmc41;
        gboolean active;
        guint64 want;
    } c[] = {
        { 0x6078fefef6f6ull, FALSE, 3 }, { 0x6078fefef6f6ull, TRUE, 3 },  { 0x78fefef6f6ull, FALSE, 8 },
        { 0x2078fefefefeull, FALSE, 8 }, { 0x2078fefefeeeull, FALSE, 8 }, { 0x2078fefefeeeull, TRUE, 2 },
    };
    static const guint64 addrs[] = { 0x700000001000ull, 0x700000001fffull, 0x700000000fffull,    0x700000002000ull,
                                     0x20080,           0x20100,           0x0100700000001000ull };
    for (guint k = 0; k < G_N_ELEMENTS(c); k++)
        for (guint e = 0; e < 2; e++) {
            PmsModel *m = fx_model_with("montecito", "pmc41_dtag", c[k].active ? "active" : "iod");
            CU_ASSERT_PTR_NOT_NULL_FATAL(m);
            PmsSim *s = fx_sim(m, engines[e]);
            wr(s, PMS_SPACE_DBR, 0, 0x700000001000ull);
            wr(s, PMS_SPACE_DBR, 1, 0x00fffffffffff000ull);
            wr(s, PMS_SPACE_DBR, 2, 0x20000);
            wr(s, PMS_SPACE_DBR, 3, 0x00ffffffffffff00ull);
            PMC(s, 41, c[k].pmc41);
            PMC(s, 4, M_PMC(0xc3, 0, M_PLM(0xf)));
            PMC(s, 5, M_PMC(NOPS, 0, M_PLM(0xf)));
            for (guint r = 0; r <= G_N_ELEMENTS(addrs); r++) {
                pms_sim_set_daddr(s, 0, r < G_N_ELEMENTS(addrs), r < G_N_ELEMENTS(addrs) ? addrs[r] : 0);
                PmsSimCount cnt[2] = { { PMS_SIGNAL_KEY(0xc3, 0), 0, 1, 0 }, { PMS_SIGNAL_KEY(NOPS, 0), 0, 1, 0 } };
                PmsSimRun run = { 1, { 3, 3 }, cnt, 2, NULL, 0, NULL, 0 };
                CU_ASSERT_TRUE(pms_sim_run(s, &run, NULL));
            }
            CU_ASSERT_EQUAL(RPMD(s, 4), c[k].want);
            CU_ASSERT_EQUAL(RPMD(s, 5), 8);
            pms_sim_free(s);
            pms_model_free(m);
        }
    /* a bad option value is named */
    PmsModel *m = fx_model_with("montecito", "pmc41_dtag", "both");
    GError *e = NULL;
    CU_ASSERT_PTR_NULL(pms_sim_new(m, &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "option pmc41_dtag = 'both': expected iod or active"));
    g_clear_error(&e);
    pms_model_free(m);
}

/* Address bits 63:56 have no mask bit (registers.md 12): DBR0 =
 * 0x0100000000000000 with mask 0 (DBR1 = 0: no maskable bit compared)
 * covers [2^56, 2^57): 0x0100000000000000 and 0x01ffffffffffffff count,
 * 0x00ffffffffffffff and 0x0200000000000000 do not.  With a full mask
 * (0x00ffffffffffffff) every address bit is compared, bits 3:0 too:
 * DBR0 = 0x4003 covers 0x4003 only, not 0x4000. */
static void test_data_range_top_bits(void)
{
    for (guint e = 0; e < 2; e++) {
        g_autoptr(PmsSim) s = mont(engines[e]);
        PMC(s, 41, 0x2078fefefef6ull); /* cfg_dtag0 = 2, ena_dbrp0 */
        PMC(s, 4, M_PMC(0xc3, 0, M_PLM(0xf)));
        static const struct {
            guint64 addr, mask, a;
            guint64 want;
        } c[] = {
            { 0x0100000000000000ull, 0, 0x0100000000000000ull, 1 },
            { 0x0100000000000000ull, 0, 0x01ffffffffffffffull, 1 },
            { 0x0100000000000000ull, 0, 0x00ffffffffffffffull, 0 },
            { 0x0100000000000000ull, 0, 0x0200000000000000ull, 0 },
            { 0x4003, 0x00ffffffffffffffull, 0x4003, 1 },
            { 0x4003, 0x00ffffffffffffffull, 0x4000, 0 },
        };
        guint64 total = 0;
        for (guint k = 0; k < G_N_ELEMENTS(c); k++) {
            wr(s, PMS_SPACE_DBR, 0, c[k].addr);
            wr(s, PMS_SPACE_DBR, 1, c[k].mask);
            pms_sim_set_daddr(s, 0, TRUE, c[k].a);
            run(s, 1, 0xc3, 0, 1, 0, 3, 3);
            total += c[k].want;
            CU_ASSERT_EQUAL(RPMD(s, 4), total);
        }
    }
}

/* insn= and daddr= in a stimulus, for their run only.  Matcher 1 = the
 * pattern of test_opcode_match (M/I slots, major opcode 8), DBRP0 = the
 * 4 KB block at 0x700000001000 with the D-only tag (PMC41 0x2078fefefef6).
 * PMC4 counts IA64_INST_RETIRED (opcm): 5 (m:8) + 0 (f:8) + 0 (no insn) =
 * 5.  PMC5 counts DATA_REFERENCES_SET0 (opcm and darr): 5 (inside, m:8) + 0
 * (one above) + 0 (inside, no insn) + 0 (thread 1's address only) = 5. */
static void test_insn_daddr_stim(void)
{
    const char *t = "pmu montecito\n"
                    "write PMC32 0x020c001fffffffff\n"
                    "write PMC33 0x10000000000\n"
                    "write DBR0 0x700000001000\n"
                    "write DBR1 0x00fffffffffff000\n"
                    "write PMC41 0x2078fefefef6\n"
                    "write PMC4 0x200080f              # es 0x08, umask 0, plm 0xf\n"
                    "write PMC5 0x200c30f              # es 0xc3, plm 0xf\n"
                    "run 5 IA64_INST_RETIRED=1 insn=m:0x10000000000\n"
                    "run 5 IA64_INST_RETIRED=1 insn=F:0x10000000000\n"
                    "run 5 IA64_INST_RETIRED=1\n"
                    "run 5 DATA_REFERENCES_SET0=1 daddr=0x700000001800 insn=m:0x10000000000\n"
                    "run 5 DATA_REFERENCES_SET0=1 daddr=0x700000002000 insn=m:0x10000000000\n"
                    "run 5 DATA_REFERENCES_SET0=1 daddr=0x700000001800\n"
                    "run 5 DATA_REFERENCES_SET0=1 daddr=-,0x700000001800 insn=m:0x10000000000,-\n"
                    "read PMD4 5\n"
                    "read PMD5 5\n";
    for (guint e = 0; e < 2; e++) {
        GError *err = NULL;
        g_autoptr(PmsStim) st = pms_stim_parse(fx_model("montecito"), t, -1, "t.stim", &err);
        if (!st)
            fprintf(stderr, "# %s\n", err->message);
        CU_ASSERT_PTR_NOT_NULL_FATAL(st);
        g_autoptr(PmsSim) s = mont(engines[e]);
        gboolean ok = pms_stim_execute(st, s, &err);
        if (!ok)
            fprintf(stderr, "# %s\n", err->message);
        CU_ASSERT_TRUE(ok);
    }
    static const struct {
        const char *text, *msg;
    } bad[] = {
        { "\nrun 1 insn=x:1\n",
          "t.stim:2: insn: 'x:1' for thread 0: expected SLOT:OPCODE with SLOT m, i, f or b, or '-'" },
        { "run 1 insn=m\n", "t.stim:1: insn: 'm' for thread 0: expected SLOT:OPCODE" },
        { "run 1 insn=-,mi:1\n", "t.stim:1: insn: 'mi:1' for thread 1: expected SLOT:OPCODE" },
        { "run 1 insn=m:0x20000000000\n",
          "t.stim:1: insn: opcode '0x20000000000' for thread 0: expected a 41-bit number" },
        { "run 1 insn=m:1,m:2,m:3\n", "t.stim:1: insn: expected 1..2 comma-separated SLOT:OPCODE" },
        { "run 1 daddr=1,2,3\n", "t.stim:1: daddr: expected 1..2 comma-separated addresses" },
        { "run 1 daddr=0x1g\n", "t.stim:1: daddr: '0x1g' for thread 0: expected a 64-bit address or '-'" },
    };
    for (guint k = 0; k < G_N_ELEMENTS(bad); k++) {
        GError *err = NULL;
        CU_ASSERT_PTR_NULL(pms_stim_parse(fx_model("montecito"), bad[k].text, -1, "t.stim", &err));
        if (!err || !strstr(err->message, bad[k].msg))
            fprintf(stderr, "# got '%s', expected '%s'\n", err ? err->message : "(none)", bad[k].msg);
        CU_ASSERT_TRUE(err && strstr(err->message, bad[k].msg));
        g_clear_error(&err);
    }
}

/* The program step (sim/program/program_ia64.c) places NOPS_RETIRED (counters
 * 0xfff0) on counter 4 and writes codes[0] to PMC4 through pms_sim_apply,
 * in the PMC space; its counter is PMD4, its overflow bit PMC0 bit 4.
 * codes[0] is written by hand here (plm 0x8, oi), not by the encoder. */
static void test_program_step(void)
{
    const PmsModel *m = fx_model("montecito");
    const PmsEvent *ev = pms_model_event(m, "NOPS_RETIRED");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
    guint64 code = M_PMC(NOPS, 0, M_PLM(0x8) | M_OI);
    for (guint e = 0; e < 2; e++) {
        g_autoptr(PmsSim) s = mont(engines[e]);
        GError *err = NULL;
        gboolean ok = pms_sim_program(s, m, ev, 4, &code, 1, &err);
        if (!ok)
            fprintf(stderr, "# %s\n", err->message);
        CU_ASSERT_TRUE_FATAL(ok);
        CU_ASSERT_EQUAL(RPMC(s, 4), code);
        PMD(s, 4, W47);
        run(s, 2, NOPS, 0, 1, 0, 3, 3);
        CU_ASSERT_EQUAL(RPMD(s, 4), 0);
        CU_ASSERT_EQUAL(RPMC(s, 0), 0x11);
        CU_ASSERT_EQUAL(pms_sim_status_bit(m, 4, FALSE), (guint64)1 << 4);
    }
}

/* ---- MESI, EARs, ETB / IP-EAR ------------------------------------------------ */

#define M_MESI(i, s_, e_, m_) ((guint64)(i) << 27 | (guint64)(s_) << 28 | (guint64)(e_) << 29 | (guint64)(m_) << 30)
enum { L3_INSERTS = 0xda }; /* a mesi event (events.tsv mesi_umask = yes), umask 0 */

/* One cycle: signal (code, 0) once on each thread, with line states st0 /
 * st1 (-1: none), CPL 3. */
static void mesi_cycle(PmsSim *s, guint code, gint st0, gint st1)
{
    pms_sim_set_mesi(s, 0, st0 >= 0, st0 >= 0 ? (PmsSimMesi)st0 : PMS_SIM_MESI_I);
    pms_sim_set_mesi(s, 1, st1 >= 0, st1 >= 0 ? (PmsSimMesi)st1 : PMS_SIM_MESI_I);
    run(s, 1, code, 0, 1, 1, 3, 3);
}

/* registers.md 3: bits 27-30 qualify the 23 mesi events by line state.
 * PMC4 = L3_INSERTS with S only: states I, S, E, M, none -> counts S and
 * the stateless one = 2.  PMC5 = S|M: S, M, none = 3.  PMC6 = no bit:
 * mesi_zero = none counts only the stateless occurrence (1); mesi_zero =
 * all counts all 5.  PMC7 = L3_INSERTS S-only with all = 1: thread 1's
 * states run I, S, E, M, none as thread 0's reversed (none, M, E, S, I):
 * thread 0 gives S + none = 2, thread 1 gives S (cycle 4) + none (cycle 1)
 * = 2: 4.  PMC8 = NOPS_RETIRED (no mesi flag) with only the I bit counts
 * all 5 whatever the state. */
static void test_mesi(void)
{
    for (guint z = 0; z < 2; z++)
        for (guint e = 0; e < 2; e++) {
            PmsModel *m = fx_model_with("montecito", "mesi_zero", z ? "all" : "none");
            PmsSim *s = fx_sim(m, engines[e]);
            PMC(s, 4, M_PMC(L3_INSERTS, 0, M_PLM(8) | M_MESI(0, 1, 0, 0)));
            PMC(s, 5, M_PMC(L3_INSERTS, 0, M_PLM(8) | M_MESI(0, 1, 0, 1)));
            PMC(s, 6, M_PMC(L3_INSERTS, 0, M_PLM(8)));
            PMC(s, 7, M_PMC(L3_INSERTS, 0, M_PLM(8) | M_ALL | M_MESI(0, 1, 0, 0)));
            static const gint st[5] = { PMS_SIM_MESI_I, PMS_SIM_MESI_S, PMS_SIM_MESI_E, PMS_SIM_MESI_M, -1 };
            for (guint c = 0; c < 5; c++)
                mesi_cycle(s, L3_INSERTS, st[c], st[4 - c]);
            PMC(s, 8, M_PMC(NOPS, 0, M_PLM(8) | M_MESI(1, 0, 0, 0)));
            for (guint c = 0; c < 5; c++)
                mesi_cycle(s, NOPS, st[c], st[4 - c]);
            CU_ASSERT_EQUAL(RPMD(s, 4), 2);
            CU_ASSERT_EQUAL(RPMD(s, 5), 3);
            CU_ASSERT_EQUAL(RPMD(s, 6), z ? 5 : 1);
            CU_ASSERT_EQUAL(RPMD(s, 7), 4);
            CU_ASSERT_EQUAL(RPMD(s, 8), 5);
            /* the state set through the API holds until changed, reset clears it */
            pms_sim_set_mesi(s, 0, TRUE, PMS_SIM_MESI_M);
            run(s, 3, L3_INSERTS, 0, 1, 0, 3, 3);
            CU_ASSERT_EQUAL(RPMD(s, 4), 2);
            CU_ASSERT_EQUAL(RPMD(s, 5), 6);
            pms_sim_reset(s);
            PMC(s, 4, M_PMC(L3_INSERTS, 0, M_PLM(8) | M_MESI(0, 1, 0, 0)));
            run(s, 2, L3_INSERTS, 0, 1, 0, 3, 3);
            CU_ASSERT_EQUAL(RPMD(s, 4), 2);
            pms_sim_free(s);
            pms_model_free(m);
        }
}

static void dear(PmsSim *s, guint64 daddr, guint64 ip, guint slot, guint32 lat, PmsSimTlb tlb, gboolean alat,
                 guint8 cpl)
{
    PmsSimDearEvent ev = { daddr, ip, slot, lat, tlb, alat };
    pms_sim_set_dear(s, &ev);
    run(s, 1, NOPS, 0, 0, 0, cpl, cpl);
    pms_sim_set_dear(s, NULL);
}

/* D-EAR (registers.md 7).  PMC40 = plm 8, mode 0, umask 2: latency >= 16
 * (DATA_EAR_CACHE_LAT16).  Latency 15: nothing (PMD36.vl stays 0).  16 at
 * 0x6000 from IP 0x4000010 slot 1: PMD32 = 0x6000; PMD33 = 16 | stat 1 <<
 * 14 = 0x4010; PMD36 = 0x4000000 | bn (IP bit 4) << 2 | vl << 3 | 1 =
 * 0x400000d.  At CPL 0 (plm 8): nothing.  Latency 9000 > 8191: 9000 & 0x1fff
 * = 808 = 0x328, ov (bit 13): PMD33 = 0x4000 | 0x2000 | 0x328 = 0x6328.
 * fr set: nothing.  TLB mode (mode 1 = bit 7) umask 4 (VHPT): an L2 hit is
 * not captured, a VHPT hit at 0x9000 is, stat 2: PMD33 = 0x8000, latency 0.
 * ALAT mode (2): a non-ALAT access not, an ALAT miss yes: stat 1.  Umask
 * 0xb in cache mode captures nothing. */
static void test_dear(void)
{
    for (guint e = 0; e < 2; e++) {
        g_autoptr(PmsSim) s = mont(engines[e]);
        PMC(s, 40, M_ISM2 | 2 << 16 | 8);
        dear(s, 0x5000, 0x4000000, 0, 15, PMS_SIM_TLB_L1, FALSE, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 36), 0);
        dear(s, 0x6000, 0x4000010, 1, 16, PMS_SIM_TLB_L1, FALSE, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 32), 0x6000);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 33), 0x4010);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 36), 0x400000d);
        dear(s, 0x7000, 0x4000020, 0, 100, PMS_SIM_TLB_L1, FALSE, 0);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 32), 0x6000);
        dear(s, 0x7000, 0x4000020, 2, 9000, PMS_SIM_TLB_L1, FALSE, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 32), 0x7000);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 33), 0x6328);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 36), 0x400002a);
        PMC(s, 0, M_FR);
        dear(s, 0x8000, 0x4000020, 0, 100, PMS_SIM_TLB_L1, FALSE, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 32), 0x7000);
        PMC(s, 0, 0);
        PMC(s, 40, M_ISM2 | 4 << 16 | 1 << 7 | 8);
        dear(s, 0x8000, 0x4000020, 0, 100, PMS_SIM_TLB_L2, FALSE, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 32), 0x7000);
        dear(s, 0x9000, 0x4000020, 0, 100, PMS_SIM_TLB_VHPT, FALSE, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 32), 0x9000);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 33), 0x8000);
        PMC(s, 40, M_ISM2 | 2 << 7 | 8);
        dear(s, 0xa000, 0x4000020, 0, 100, PMS_SIM_TLB_FAULT, FALSE, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 32), 0x9000);
        dear(s, 0xb000, 0x4000020, 0, 1, PMS_SIM_TLB_L1, TRUE, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 32), 0xb000);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 33), 0x4000);
        PMC(s, 40, M_ISM2 | 0xb << 16 | 8);
        dear(s, 0xc000, 0x4000020, 0, 60000, PMS_SIM_TLB_L1, FALSE, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 32), 0xb000);
    }
    /* ear_capture = first: the capture holds until software clears PMD36.vl */
    for (guint e = 0; e < 2; e++) {
        PmsModel *m = fx_model_with("montecito", "ear_capture", "first");
        PmsSim *s = fx_sim(m, engines[e]);
        PMC(s, 40, M_ISM2 | 8);
        dear(s, 0x6000, 0x4000000, 0, 4, PMS_SIM_TLB_L1, FALSE, 3);
        dear(s, 0x7000, 0x4000000, 0, 4, PMS_SIM_TLB_L1, FALSE, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 32), 0x6000);
        PMD(s, 36, 0);
        dear(s, 0x7000, 0x4000000, 0, 4, PMS_SIM_TLB_L1, FALSE, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 32), 0x7000);
        pms_sim_free(s);
        pms_model_free(m);
    }
}

static void iear(PmsSim *s, guint64 ip, guint32 lat, PmsSimTlb tlb, gboolean rab)
{
    PmsSimIearEvent ev = { ip, lat, tlb, rab };
    pms_sim_set_iear(s, &ev);
    run(s, 1, NOPS, 0, 0, 0, 3, 3);
    pms_sim_set_iear(s, NULL);
}

/* I-EAR (registers.md 6).  PMC37 = ct 1 (bit 13), umask 0xfc (>= 16,
 * L1I_EAR_CACHE_LAT16) << 5, plm 8 = 0x3f88.  Latency 15: nothing; 16 at
 * 0x8030: PMD34 = 0x8020 | stat 1 = 0x8021, PMD35 = 16; latency 5000 >
 * 4095: 5000 & 0xfff = 904 = 0x388 | ov 0x1000 = 0x1388.  Umask 0 (RAB):
 * a RAB hit, stat 3.  Umask 0x40 (LAT0): latency 0.  ct bits 13:12 = 01
 * (0x1000): nothing.  TLB mode (ct 00) umask 0x4 (FAULT): a VHPT hit no, a
 * fault yes, stat 3, PMD35 = 0. */
static void test_iear(void)
{
    for (guint e = 0; e < 2; e++) {
        g_autoptr(PmsSim) s = mont(engines[e]);
        PMC(s, 37, 0x2000 | 0xfc << 5 | 8);
        iear(s, 0x8030, 15, PMS_SIM_TLB_L1, FALSE);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 34), 0);
        iear(s, 0x8030, 16, PMS_SIM_TLB_L1, FALSE);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 34), 0x8021);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 35), 16);
        iear(s, 0x9000, 5000, PMS_SIM_TLB_L1, FALSE);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 34), 0x9001);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 35), 0x1388);
        PMC(s, 37, 0x2000 | 8);
        iear(s, 0xa000, 100, PMS_SIM_TLB_L1, FALSE);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 34), 0x9001);
        iear(s, 0xa000, 2, PMS_SIM_TLB_L1, TRUE);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 34), 0xa003);
        PMC(s, 37, 0x2000 | 0x40 << 5 | 8);
        iear(s, 0xb000, 0, PMS_SIM_TLB_L1, FALSE);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 34), 0xb001);
        PMC(s, 37, 0x1000 | 0x7f << 5 | 8);
        iear(s, 0xc000, 100, PMS_SIM_TLB_FAULT, FALSE);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 34), 0xb001);
        PMC(s, 37, 0x4 << 5 | 8);
        iear(s, 0xc000, 100, PMS_SIM_TLB_VHPT, FALSE);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 34), 0xb001);
        iear(s, 0xd000, 100, PMS_SIM_TLB_FAULT, FALSE);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 34), 0xd003);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 35), 0);
    }
}

static void branches(PmsSim *s, const PmsSimBranch *b, guint n, guint8 cpl)
{
    pms_sim_set_branches(s, b, n);
    run(s, 1, NOPS, 0, 0, 0, cpl, cpl);
    pms_sim_set_branches(s, NULL, 0);
}

/* ETB (registers.md 9).  PMC39 = tm 3, ptm 3, ppm 3, brt 0 (all, option
 * etb_brt = code), plm 8 = 0x3f08.  A taken branch 0x4010 slot 2 -> 0x5000
 * with the target mispredicted: PMD48 = 0x4010 | 2 << 2 | mp 2 | s 1 =
 * 0x401b, PMD49 = 0x5000 | mp = 0x5002; a not-taken one at 0x4100: PMD50 =
 * 0x4100 | 3 << 2 | s = 0x410d; PMD38 = 3.  At CPL 0: nothing.  tm = 2
 * (taken only, 0x3e08): a not-taken branch is dropped.  brt = 2 (returns,
 * 0xbf08): an IP-relative branch dropped, a return (0x6000 -> 0x7000)
 * recorded in PMD51/52.  Then 7 more taken returns (14 entries) from ebi 5
 * wrap: ebi = 19 & 15 = 3, full (bit 5): PMD38 = 0x23; PMD50 (entry 2) is
 * the 7th return's target.  fr stops the ETB.  PMD39 stays 0. */
static void test_etb(void)
{
    for (guint e = 0; e < 2; e++) {
        g_autoptr(PmsSim) s = mont(engines[e]);
        PMC(s, 39, 0x3f08);
        PmsSimBranch b[2] = { { 0x4010, 0x5000, 2, TRUE, TRUE, FALSE, PMS_SIM_BR_REL },
                              { 0x4100, 0x4110, 0, FALSE, FALSE, FALSE, PMS_SIM_BR_REL } };
        branches(s, b, 2, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 48), 0x401b);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 49), 0x5002);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 50), 0x410d);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 38), 3);
        branches(s, b, 2, 0);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 38), 3);
        PMC(s, 39, 0x3e08);
        branches(s, &b[1], 1, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 38), 3);
        PMC(s, 39, 0xbf08);
        PmsSimBranch r = { 0x6000, 0x7000, 0, TRUE, FALSE, FALSE, PMS_SIM_BR_RET };
        PmsSimBranch two[2] = { b[0], r };
        branches(s, two, 2, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 38), 5);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 51), 0x6001);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 52), 0x7000);
        for (guint k = 1; k <= 7; k++) {
            r.to = 0x7000 + 0x10 * k;
            branches(s, &r, 1, 3);
        }
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 38), 0x23);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 50), 0x7070);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 39), 0);
        PMC(s, 0, M_FR);
        branches(s, &r, 1, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 38), 0x23);
    }
    /* etb_brt = man: brt 0 records nothing */
    for (guint e = 0; e < 2; e++) {
        PmsModel *m = fx_model_with("montecito", "etb_brt", "man");
        PmsSim *s = fx_sim(m, engines[e]);
        PMC(s, 39, 0x3f08);
        PmsSimBranch b = { 0x4010, 0x5000, 0, TRUE, FALSE, FALSE, PMS_SIM_BR_REL };
        branches(s, &b, 1, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 38), 0);
        PMC(s, 39, 0x7f08); /* brt 1: IP-relative */
        branches(s, &b, 1, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 38), 2);
        pms_sim_free(s);
        pms_model_free(m);
    }
}

/* IP-EAR (registers.md 11).  PMC42 = mode 4 (bits 10:8), delay 5 (bits
 * 18:11), plm 8 = 0x2c08.  A 20-cycle run at IP 0x4000030: PMD48 =
 * 0x400003 | (20 & 15) << 60 = 0x4000000000400003, PMD39 entry 0 (bits
 * 3:0) = 20 >> 4 = 1.  A 100-cycle run saturates at 63: PMD49 = 0xf <<
 * 60 | 0x400004, PMD39 bits 11:8 = 3.  PMD4 counts NOPS with oi, preloaded
 * to 2^47 - 1: it overflows in cycle 120 (the run's first); the PMI sets fr.
 * Runs starting at 121..125 (<= 120 + 5) still capture, from 126 not.  A
 * software fr freezes at once.  The ETB does not record in IP-EAR mode. */
static void test_ipear(void)
{
    for (guint e = 0; e < 2; e++) {
        g_autoptr(PmsSim) s = mont(engines[e]);
        PMC(s, 42, 0x2c08);
        PMC(s, 39, 0x3f08);
        pms_sim_set_ip(s, 0, TRUE, 0x4000030);
        run(s, 20, NOPS, 0, 0, 0, 3, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 48), 0x4000000000400003ull);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 39), 1);
        pms_sim_set_ip(s, 0, TRUE, 0x4000040);
        run(s, 100, NOPS, 0, 0, 0, 3, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 49), 0xf000000000400004ull);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 39), 0x301);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 38), 2);
        PMC(s, 4, M_PMC(NOPS, 0, M_PLM(8) | M_OI));
        PMD(s, 4, W47);
        run(s, 1, NOPS, 0, 1, 0, 3, 3); /* cycle 120: overflow, PMI, fr */
        CU_ASSERT_EQUAL(RPMC(s, 0), 0x11);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 38), 3);
        for (guint c = 121; c <= 127; c++)
            run(s, 1, NOPS, 0, 0, 0, 3, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 38), 8); /* 3 + cycles 121..125 */
        PmsSimBranch b = { 0x4010, 0x5000, 0, TRUE, FALSE, FALSE, PMS_SIM_BR_REL };
        PMC(s, 0, 0);
        branches(s, &b, 1, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 38), 9); /* the IP, not the branch */
        PMC(s, 0, M_FR);
        run(s, 1, NOPS, 0, 0, 0, 3, 3);
        CU_ASSERT_EQUAL(rd(s, PMS_SPACE_PMD, 38), 9);
    }
}

/* The tokens: mesi=, dear=, iear=, br= in a stimulus, and their errors
 * with file:line. */
static void test_ear_stim(void)
{
    const PmsModel *m = fx_model("montecito");
    static const char text[] =
        "pmu montecito\n"
        "write PMC4 0x1200da08\n"  /* L3_INSERTS, S only, plm 8 */
        "write pmc:40 0x2000008\n" /* D-EAR cache >= 4 */
        "write pmc:37 0x3fe8\n"    /* I-EAR cache >= 4 */
        "write pmc:39 0x3f08\n"    /* ETB: everything */
        "run 4 L3_INSERTS=1 mesi=S dear=0x6000:0x4000010:12:s1 iear=0x8000:20 br=0x4000:0x5000:mpt "
        "br=0x4100:0:nt\n"
        "run 2 L3_INSERTS=1 mesi=m dear=0x7000:0x4000000:3\n"
        "run 1 L3_INSERTS=1\n"
        "read PMD4 5\n"
        "read pmd:32 0x6000\nread pmd:33 0x400c\nread pmd:36 0x400000d\n"
        "read pmd:34 0x8001\nread pmd:35 20\n"
        "read pmd:38 3\nread pmd:48 0x4003\nread pmd:49 0x5002\nread pmd:50 0x410d\n";
    for (guint e = 0; e < 2; e++) {
        GError *err = NULL;
        g_autoptr(PmsStim) st = pms_stim_parse(m, text, -1, "ear.stim", &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(st);
        g_autoptr(PmsSim) s = mont(engines[e]);
        gboolean ok = pms_stim_execute(st, s, &err);
        if (!ok)
            fprintf(stderr, "# %s\n", err->message);
        CU_ASSERT_TRUE(ok);
        g_clear_error(&err);
    }
    static const struct {
        const char *text, *msg;
    } bad[] = {
        { "run 1\nrun 1 mesi=X\n", "t.stim:2: mesi: 'X' for thread 0: expected I, S, E, M or '-'" },
        { "run 1 mesi=S,S,S\n", "t.stim:1: mesi: expected 1..2 comma-separated states" },
        { "run 1 dear=1:2\n", "t.stim:1: dear: expected DADDR:IP:LATENCY[:FLAG...], got '1:2'" },
        { "run 1 dear=1:2:x\n", "t.stim:1: dear: latency 'x': expected a number of cycles below 2^32" },
        { "run 1 dear=1:2:3:l2:vhpt\n", "t.stim:1: dear: at most one of l2, vhpt, fault" },
        { "run 1 dear=1:2:3 dear=1:2:3\n", "t.stim:1: dear: given twice in one run" },
        { "run 1 iear=q:2\n", "t.stim:1: iear: instruction address 'q': expected a 64-bit number" },
        { "run 1 iear=1:2:alat\n", "t.stim:1: iear: unknown flag 'alat': expected l2, vhpt, fault, rab" },
        { "\n\nrun 1 br=1:2:zz\n",
          "t.stim:3: br: unknown flag 'zz': expected nt, mpt, mpp, rel, ret, ind, s0, s1, s2" },
        { "run 1 br=1\n", "t.stim:1: br: expected FROM:TO[:FLAG...], got '1'" },
        { "run 1 br=1:2:ret:ind\n", "t.stim:1: br: at most one of rel, ret, ind" },
    };
    for (guint k = 0; k < G_N_ELEMENTS(bad); k++) {
        GError *err = NULL;
        PmsStim *st = pms_stim_parse(m, bad[k].text, -1, "t.stim", &err);
        CU_ASSERT_PTR_NULL(st);
        gboolean hit = err && strstr(err->message, bad[k].msg);
        if (!hit)
            fprintf(stderr, "# case %u: %s\n", k, err ? err->message : "(no error)");
        CU_ASSERT_TRUE(hit);
        g_clear_error(&err);
        pms_stim_free(st);
    }
}

#define M_PM ((guint64)1 << 6)
#define M_PMC_ISM(es, ism, bits) ((guint64)(es) << 8 | (guint64)(ism) << 24 | (bits))

/* One run of NOPS_RETIRED (n0 / n1 per cycle, CPL 3) with each thread's PSR
 * bits and instruction set. */
static void gated_run(PmsSim *s, guint64 cycles, guint64 n0, guint64 n1, guint psr0, guint psr1, PmsSimIsa isa0,
                      PmsSimIsa isa1)
{
    pms_sim_set_psr(s, 0, psr0);
    pms_sim_set_psr(s, 1, psr1);
    pms_sim_set_isa(s, 0, isa0);
    pms_sim_set_isa(s, 1, isa1);
    run(s, cycles, NOPS, 0, n0, n1, 3, 3);
}

/* pm and ism (registers.md 3; semantics reference 8.4: pm = 0 counters are
 * gated by PSR.up, pm = 1 by PSR.pp).  NOPS_RETIRED, plm 8, one occurrence
 * per cycle:
 *   PMC4 pm 0, all, ism 10; PMC5 pm 1, ism 10; PMC8 ism 00; PMC9 ism 01;
 *   PMC10 ism 11 (PMC8-10 pm 0).
 * Runs of 1, 2, 4, 8, 16 cycles on thread 0 with PSR up+pp, up, pp, none,
 * and up+pp executing IA-32; then thread 1 only for 32 cycles with PSR.pp
 * only, 64 with PSR.up only, 128 with up+pp executing IA-32 (thread 0 up+pp,
 * IA-64, nothing to count).
 *   PMC4: 1 + 2 (up set, IA-64) + 64 (thread 1, all, up set) = 67.
 *   PMC5: 1 + 4 (pp set) = 5.
 *   ism_bits = mask: PMC8 (00, both) 1 + 2 + 16 = 19; PMC9 (01, IA-32 only)
 *   16; PMC10 (11, none) 0.  ism_bits = enable: PMC8 (00, none) 0; PMC9
 *   (01, IA-32 only) 16; PMC10 (11, both) 19.
 * After pms_sim_reset the PSR is up+pp and the set IA-64 again: 3 cycles
 * on PMC5 count 3. */
static void test_pm_ism(void)
{
    const guint UPPP = PMS_SIM_PSR_UP | PMS_SIM_PSR_PP, UP = PMS_SIM_PSR_UP, PP = PMS_SIM_PSR_PP;
    const PmsSimIsa I64 = PMS_SIM_ISA_IA64, I32 = PMS_SIM_ISA_IA32;
    for (guint o = 0; o < 2; o++)
        for (guint e = 0; e < 2; e++) {
            PmsModel *m = fx_model_with("montecito", "ism_bits", o ? "enable" : "mask");
            PmsSim *s = fx_sim(m, engines[e]);
            PMC(s, 4, M_PMC_ISM(NOPS, 2, M_PLM(8) | M_ALL));
            PMC(s, 5, M_PMC_ISM(NOPS, 2, M_PLM(8) | M_PM));
            PMC(s, 8, M_PMC_ISM(NOPS, 0, M_PLM(8)));
            PMC(s, 9, M_PMC_ISM(NOPS, 1, M_PLM(8)));
            PMC(s, 10, M_PMC_ISM(NOPS, 3, M_PLM(8)));
            gated_run(s, 1, 1, 0, UPPP, UPPP, I64, I64);
            gated_run(s, 2, 1, 0, UP, UPPP, I64, I64);
            gated_run(s, 4, 1, 0, PP, UPPP, I64, I64);
            gated_run(s, 8, 1, 0, 0, UPPP, I64, I64);
            gated_run(s, 16, 1, 0, UPPP, UPPP, I32, I64);
            gated_run(s, 32, 0, 1, UPPP, PP, I64, I64);
            gated_run(s, 64, 0, 1, UPPP, UP, I64, I64);
            gated_run(s, 128, 0, 1, UPPP, UPPP, I64, I32);
            CU_ASSERT_EQUAL(RPMD(s, 4), 67);
            CU_ASSERT_EQUAL(RPMD(s, 5), 5);
            CU_ASSERT_EQUAL(RPMD(s, 8), o ? 0 : 19);
            CU_ASSERT_EQUAL(RPMD(s, 9), 16);
            CU_ASSERT_EQUAL(RPMD(s, 10), o ? 19 : 0);
            pms_sim_reset(s);
            PMC(s, 5, M_PMC_ISM(NOPS, 2, M_PLM(8) | M_PM));
            run(s, 3, NOPS, 0, 1, 0, 3, 3);
            CU_ASSERT_EQUAL(RPMD(s, 5), 3);
            pms_sim_free(s);
            pms_model_free(m);
        }
}

/* pms_sim_set_input with the stimulus's text: PMC5 (pm 1: gated by
 * PSR.pp) counts nothing under psr "up", again under "up,pp" read per
 * thread (thread 0 up), and counts once psr is back at its default (NULL);
 * the typed setter and the key agree; the messages are the stimulus's. */
static void test_set_input(void)
{
    g_autoptr(PmsSim) s = mont(PMS_SIM_FAST);
    GError *e = NULL;
    PMC(s, 5, 0x2005048);
    CU_ASSERT_TRUE(pms_sim_set_input(s, "psr", "up", &e));
    run(s, 4, NOPS, 0, 1, 0, 3, 3);
    CU_ASSERT_EQUAL(RPMD(s, 5), 0);
    CU_ASSERT_TRUE(pms_sim_set_input(s, "psr", NULL, &e));
    run(s, 4, NOPS, 0, 1, 0, 3, 3);
    CU_ASSERT_EQUAL(RPMD(s, 5), 4);
    pms_sim_set_psr(s, 0, PMS_SIM_PSR_UP);
    run(s, 4, NOPS, 0, 1, 0, 3, 3);
    CU_ASSERT_EQUAL(RPMD(s, 5), 4);
    CU_ASSERT_FALSE(pms_sim_set_input(s, "psr", "sideways", &e));
    CU_ASSERT_TRUE(e && strcmp(e->message, "psr: 'sideways' for thread 0: expected up, pp, up+pp or none") == 0);
    g_clear_error(&e);
    CU_ASSERT_FALSE(pms_sim_set_input(s, "dear", "1:2", &e));
    CU_ASSERT_TRUE(e && strcmp(e->message, "dear: expected DADDR:IP:LATENCY[:FLAG...], got '1:2'") == 0);
    g_clear_error(&e);
    /* the x86 core's keys: checked, then ignored */
    CU_ASSERT_TRUE(pms_sim_set_input(s, "branch", "1:2:jcc", &e));
    CU_ASSERT_TRUE(pms_sim_set_input(s, "dse", "7", &e));
    pms_sim_reset(s); /* every input back to its default: PSR up+pp */
    PMC(s, 5, 0x2005048);
    run(s, 2, NOPS, 0, 1, 0, 3, 3);
    CU_ASSERT_EQUAL(RPMD(s, 5), 2);
}

/* psr= and isa= in a stimulus: per run, per thread, threads not listed take
 * the last value, runs without them up+pp and IA-64.  PMC4 NOPS_RETIRED
 * plm 8 pm 0 ism 10 = 0x2005008; PMC5 the same with pm = 0x2005048; PMC6
 * with all = 0x6005008.  Runs (thread 0 once per cycle, thread 1 too from
 * the 32-cycle run):
 *   1 psr=up: PMC4, PMC6 +1; 2 psr=pp: PMC5 +2; 4 psr=none, 8 isa=ia32:
 *   nothing; 16 (defaults): all +16; 32 psr=none,up: PMC6 +32 (thread 1);
 *   64 psr=NONE (both threads): nothing; 128 isa=ia64,ia32: +128 each
 *   (thread 0; PMC6's thread 1 is IA-32).
 *   PMD4 = 1 + 16 + 128 = 145, PMD5 = 2 + 16 + 128 = 146, PMD6 = 1 + 16 +
 *   32 + 128 = 177. */
static void test_psr_isa_stim(void)
{
    const PmsModel *m = fx_model("montecito");
    static const char text[] = "pmu montecito\n"
                               "write PMC4 0x2005008\nwrite PMC5 0x2005048\nwrite PMC6 0x6005008\n"
                               "run 1 NOPS_RETIRED=1 psr=up\n"
                               "run 2 NOPS_RETIRED=1 psr=pp\n"
                               "run 4 NOPS_RETIRED=1 psr=none\n"
                               "run 8 NOPS_RETIRED=1 isa=ia32\n"
                               "run 16 NOPS_RETIRED=1\n"
                               "run 32 NOPS_RETIRED=1,1 psr=none,up\n"
                               "run 64 NOPS_RETIRED=1,1 psr=NONE\n"
                               "run 128 NOPS_RETIRED=1,1 isa=ia64,IA32\n"
                               "read PMD4 145\nread PMD5 146\nread PMD6 177\n";
    for (guint e = 0; e < 2; e++) {
        GError *err = NULL;
        g_autoptr(PmsStim) st = pms_stim_parse(m, text, -1, "psr.stim", &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(st);
        g_autoptr(PmsSim) s = mont(engines[e]);
        gboolean ok = pms_stim_execute(st, s, &err);
        if (!ok)
            fprintf(stderr, "# %s\n", err->message);
        CU_ASSERT_TRUE(ok);
        g_clear_error(&err);
    }
    static const struct {
        const char *text, *msg;
    } bad[] = {
        { "run 1 psr=user\n", "t.stim:1: psr: 'user' for thread 0: expected up, pp, up+pp or none" },
        { "run 1\nrun 1 psr=up,ppp\n", "t.stim:2: psr: 'ppp' for thread 1: expected up, pp, up+pp or none" },
        { "run 1 psr=up,up,up\n", "t.stim:1: psr: expected 1..2 comma-separated values (one per thread)" },
        { "run 1 isa=x86\n", "t.stim:1: isa: 'x86' for thread 0: expected ia64 or ia32" },
        { "\nrun 1 isa=ia64 isa=ia32\n", "t.stim:2: isa: given twice in one run" },
        { "run 1 psr=up psr=pp\n", "t.stim:1: psr: given twice in one run" },
    };
    for (guint k = 0; k < G_N_ELEMENTS(bad); k++) {
        GError *err = NULL;
        PmsStim *st = pms_stim_parse(m, bad[k].text, -1, "t.stim", &err);
        CU_ASSERT_PTR_NULL(st);
        gboolean hit = err && strstr(err->message, bad[k].msg);
        if (!hit)
            fprintf(stderr, "# case %u: %s\n", k, err ? err->message : "(no error)");
        CU_ASSERT_TRUE(hit);
        g_clear_error(&err);
        pms_stim_free(st);
    }
}

void register_ia64_tests(void)
{
    CU_pSuite s = CU_add_suite("ia64", NULL, NULL);
    CU_add_test(s, "reset values, spaces", test_reset);
    CU_add_test(s, "ev: an external notification per overflow", test_ev_notifications);
    CU_add_test(s, "47-bit wrap without oi (wrap | status)", test_wrap_without_oi);
    CU_add_test(s, "PMD bits 63:47 (sign_extend | zero)", test_pmd_upper);
    CU_add_test(s, "oi: PMC0 bit and fr, freeze, resume by clearing fr", test_oi_freeze_resume);
    CU_add_test(s, "several overflows in one cycle, one PMI", test_many_one_pmi);
    CU_add_test(s, "privilege filter per plm bit", test_plm);
    CU_add_test(s, "threshold gt vs ge at the max_inc edges", test_threshold);
    CU_add_test(s, "umask matched exactly", test_umask_exact);
    CU_add_test(s, "all: both threads (all_on_pmc8_15)", test_all_threads);
    CU_add_test(s, "reserved and ignored bits", test_reserved);
    CU_add_test(s, "bad model option", test_bad_option);
    CU_add_test(s, "apply writes each register in its space", test_apply_spaces);
    CU_add_test(s, "fast engine: overflow after 2^46.4 cycles", test_long_run);
    CU_add_test(s, "stimulus file, PMC/PMD by name", test_stim_file);
    CU_add_test(s, "program step writes land in the PMC space", test_program_step);
    CU_add_test(s, "code range, coarse: channels, iarr, inv, ig_ad", test_code_range_coarse);
    CU_add_test(s, "code range: bits 63:56 and 3:0", test_code_range_top_bits);
    CU_add_test(s, "code range, fine mode: inclusive bounds in one page", test_code_range_fine);
    CU_add_test(s, "code range from a stimulus: ip= per run", test_code_range_stim);
    CU_add_test(s, "opcode matching: slots, mask bits, channels, PMC36, non-opcm events", test_opcode_match);
    CU_add_test(s, "opcode matching AND code range on channel 0", test_opcode_and_code_range);
    CU_add_test(s, "data range: cover edges, union of pairs, PMC41 enables and tags", test_data_range);
    CU_add_test(s, "data range: bits 63:56 and full-mask byte granularity", test_data_range_top_bits);
    CU_add_test(s, "insn= and daddr= in a stimulus, errors with file:line", test_insn_daddr_stim);
    CU_add_test(s, "MESI qualifiers: state bits, mesi_zero, all, non-mesi events", test_mesi);
    CU_add_test(s, "D-EAR: cache latency, TLB, ALAT modes, plm, fr, ear_capture", test_dear);
    CU_add_test(s, "I-EAR: cache thresholds, RAB, ct = 01, TLB mode", test_iear);
    CU_add_test(s, "ETB: filters, source/target entries, ring wrap, etb_brt", test_etb);
    CU_add_test(s, "IP-EAR: entries, cycle bits, delay after the PMI", test_ipear);
    CU_add_test(s, "mesi=, dear=, iear=, br= in a stimulus, errors with file:line", test_ear_stim);
    CU_add_test(s, "pm: PSR.up / PSR.pp gate; ism: instruction-set mask (ism_bits)", test_pm_ism);
    CU_add_test(s, "psr= and isa= in a stimulus, errors with file:line", test_psr_isa_stim);
    CU_add_test(s, "pms_sim_set_input: the stimulus's keys through the API", test_set_input);
}
