/* Differential suite: the reference engine (one pipeline call per cycle) and
 * the fast engine (closed form per run) must agree on every register, every
 * edge latch and every PMI cycle after every record of thousands of seeded
 * random scenarios.  Preloads sit near the top of the counters so overflows,
 * PMIs and both freeze flavours happen inside runs; run lengths mix single
 * cycles (edges) with long runs (closed form across the overflow cycle). */
#include "fixtures.h"

#include <string.h>

enum { N_CASES = 4000, N_OPS = 24 };

static const guint8 codes[] = { 0xc0, 0x3c, 0x99, 0xb7, 0xbb, 0x0b, 0x00 };
static const guint8 umasks[] = { 0x00, 0x01, 0x02, 0x03, 0x10 };

static guint64 pick_u(GRand *r, const guint8 *a, guint n)
{
    return a[g_rand_int_range(r, 0, (gint32)n)];
}

static guint64 rand_evtsel(GRand *r)
{
    static const guint cm[] = { 0, 0, 0, 1, 2, 3, 255, 5 };
    guint64 v = EVTSEL(pick_u(r, codes, G_N_ELEMENTS(codes)), pick_u(r, umasks, G_N_ELEMENTS(umasks)), 0);
    if (g_rand_int_range(r, 0, 4))
        v |= EV_USR;
    if (g_rand_int_range(r, 0, 3) == 0)
        v |= EV_OS;
    if (g_rand_int_range(r, 0, 3) == 0)
        v |= EV_E;
    if (g_rand_int_range(r, 0, 3) == 0)
        v |= EV_INV;
    if (g_rand_int_range(r, 0, 2))
        v |= EV_INT;
    if (g_rand_int_range(r, 0, 3) == 0)
        v |= EV_ANY;
    if (g_rand_int_range(r, 0, 10))
        v |= EV_EN;
    return v | EV_CMASK(cm[g_rand_int_range(r, 0, G_N_ELEMENTS(cm))]);
}

static guint64 rand64(GRand *r)
{
    return ((guint64)g_rand_int(r) << 32) | g_rand_int(r);
}

static guint64 near_top(GRand *r, guint64 mask)
{
    return (mask + 1 - (guint64)g_rand_int_range(r, 1, 400)) & mask;
}

/* One random register write; the same on both instances, same outcome. */
static void rand_write(GRand *r, const PmsModel *m, PmsSim *a, PmsSim *b)
{
    const PmsRegister *reg = &m->regs[g_rand_int_range(r, 0, (gint32)m->n_regs)];
    /* half of the writes re-arm a counter near its overflow */
    for (guint tries = 0; g_rand_boolean(r) && tries < 16; tries++) {
        reg = &m->regs[g_rand_int_range(r, 0, (gint32)m->n_regs)];
        if (reg->kind == PMS_REG_PMC || reg->kind == PMS_REG_FIXED_CTR)
            break;
    }
    guint64 v;
    guint64 cmask = ((guint64)1 << m->gp_width) - 1;
    switch (reg->kind) {
    case PMS_REG_EVTSEL:
        v = rand_evtsel(r);
        break;
    case PMS_REG_PMC:
        v = g_rand_int_range(r, 0, 4) ? (guint64)-g_rand_int_range(r, 1, 400) : g_rand_int(r);
        break;
    case PMS_REG_A_PMC:
    case PMS_REG_FIXED_CTR:
        v = near_top(r, cmask);
        break;
    case PMS_REG_DEBUGCTL:
        v = (guint64)g_rand_int_range(r, 0, 8) & 0x7;
        v = (v & 1) | ((v >> 1) << 11);
        break;
    case PMS_REG_PEBS_LD_LAT:
        v = (guint64)g_rand_int_range(r, 0, 20);
        break;
    default:
        v = ((guint64)g_rand_int(r) << 32 | g_rand_int(r)) & reg->writable;
        if (g_rand_int_range(r, 0, 8) == 0)
            v = reg->writable; /* all enables / clear everything */
        break;
    }
    if (g_rand_int_range(r, 0, 50) == 0)
        v |= (guint64)1 << g_rand_int_range(r, 0, 64); /* maybe a #GP */
    GError *ea = NULL, *eb = NULL;
    gboolean oka = pms_sim_write(a, reg->address, v, &ea);
    gboolean okb = pms_sim_write(b, reg->address, v, &eb);
    CU_ASSERT_EQUAL(oka, okb);
    if (ea && eb)
        CU_ASSERT_STRING_EQUAL(ea->message, eb->message);
    g_clear_error(&ea);
    g_clear_error(&eb);
}

static guint64 rand_cycles(GRand *r)
{
    switch (g_rand_int_range(r, 0, 8)) {
    case 0:
    case 1:
    case 2:
        return 1;
    case 3:
    case 4:
        return (guint64)g_rand_int_range(r, 2, 8);
    case 5:
    case 6:
        return (guint64)g_rand_int_range(r, 8, 120);
    default:
        return (guint64)g_rand_int_range(r, 120, 1500);
    }
}

static void rand_run(GRand *r, const PmsModel *m, guint threads, PmsSim *a, PmsSim *b)
{
    PmsSimCount c[12];
    PmsSimOffcore o[4];
    PmsSimLoad l[3];
    PmsSimRun run = { rand_cycles(r), { 3, 3 }, c, 0, o, 0, l, 0 };
    for (guint t = 0; t < threads; t++)
        run.cpl[t] = (guint8)(g_rand_int_range(r, 0, 3) == 0 ? 0 : g_rand_int_range(r, 1, 4));
    guint nc = (guint)g_rand_int_range(r, 0, 12);
    for (guint k = 0; k < nc; k++) {
        guint64 big = g_rand_int_range(r, 0, 10) == 0;
        guint32 sig = PMS_SIGNAL_KEY(pick_u(r, codes, G_N_ELEMENTS(codes)), pick_u(r, umasks, G_N_ELEMENTS(umasks)));
        guint64 ev;
        /* half of the signals are the ones a programmed counter selects */
        if (g_rand_boolean(r) && pms_sim_read(a, 0x186 + (guint)g_rand_int_range(r, 0, (gint32)m->n_gp), &ev, NULL))
            sig = PMS_SIGNAL_KEY(ev & 0xff, (ev >> 8) & 0xff);
        c[run.n_counts++] =
            (PmsSimCount){ sig, (guint)g_rand_int_range(r, 0, (gint32)threads),
                           big ? (guint64)g_rand_int_range(r, 200, 300) : (guint64)g_rand_int_range(r, 0, 5), 0 };
    }
    guint no = (guint)g_rand_int_range(r, 0, 4);
    for (guint k = 0; k < no; k++)
        o[run.n_offcore++] =
            (PmsSimOffcore){ (guint)g_rand_int_range(r, 0, (gint32)threads), (guint64)1 << g_rand_int_range(r, 0, 16),
                             (guint64)1 << g_rand_int_range(r, 8, 38), g_rand_int_range(r, 0, 4) == 0,
                             (guint64)g_rand_int_range(r, 1, 4) };
    guint nl = (guint)g_rand_int_range(r, 0, 3);
    for (guint k = 0; k < nl; k++)
        l[run.n_loads++] = (PmsSimLoad){ (guint)g_rand_int_range(r, 0, (gint32)threads),
                                         (guint32)g_rand_int_range(r, 0, 24), (guint64)g_rand_int_range(r, 1, 3) };
    CU_ASSERT_TRUE(pms_sim_run(a, &run, NULL));
    CU_ASSERT_TRUE(pms_sim_run(b, &run, NULL));
}

/* Compare everything observable; report the first difference once. */
static gboolean same(const PmsModel *m, PmsSim *a, PmsSim *b, guint seed, guint op)
{
    for (guint i = 0; i < m->n_regs; i++) {
        guint64 va = 0, vb = 0;
        pms_sim_read(a, m->regs[i].address, &va, NULL);
        pms_sim_read(b, m->regs[i].address, &vb, NULL);
        if (va != vb) {
            fprintf(stderr,
                    "# %s seed %u op %u: %s reference 0x%" G_GINT64_MODIFIER "x fast 0x%" G_GINT64_MODIFIER "x\n",
                    m->name, seed, op, m->regs[i].name, va, vb);
            return FALSE;
        }
    }
    for (guint i = 0; i < m->n_gp; i++)
        if (pms_sim_edge_latch(a, i) != pms_sim_edge_latch(b, i)) {
            fprintf(stderr, "# %s seed %u op %u: edge latch %u differs\n", m->name, seed, op, i);
            return FALSE;
        }
    guint na, nb;
    const guint64 *pa = pms_sim_pmis(a, &na), *pb = pms_sim_pmis(b, &nb);
    if (na != nb || (na && memcmp(pa, pb, na * sizeof *pa)) || pms_sim_cycle(a) != pms_sim_cycle(b)) {
        fprintf(stderr, "# %s seed %u op %u: PMIs %u vs %u (last %" G_GUINT64_FORMAT " vs %" G_GUINT64_FORMAT ")\n",
                m->name, seed, op, na, nb, na ? pa[na - 1] : 0, nb ? pb[nb - 1] : 0);
        return FALSE;
    }
    return TRUE;
}

static guint total_pmis, total_cases;

static void diff_model(const PmsModel *m, guint first_seed, guint n_cases)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    guint failures = 0;
    for (guint seed = first_seed; seed < first_seed + n_cases && failures < 3; seed++) {
        g_autoptr(GRand) r = g_rand_new_with_seed(seed);
        g_autoptr(PmsSim) a = fx_sim(m, PMS_SIM_REFERENCE);
        g_autoptr(PmsSim) b = fx_sim(m, PMS_SIM_FAST);
        guint threads = pms_sim_threads(a);
        /* start programmed: every counter configured and near overflow,
         * globally enabled, then a few random writes */
        for (guint i = 0; i < m->n_regs; i++) {
            const PmsRegister *reg = &m->regs[i];
            guint64 v = 0;
            if (reg->kind == PMS_REG_EVTSEL)
                v = rand_evtsel(r);
            else if (reg->kind == PMS_REG_PMC || reg->kind == PMS_REG_FIXED_CTR)
                v = near_top(r, ((guint64)1 << m->gp_width) - 1);
            else if (reg->kind == PMS_REG_FIXED_CTRL || reg->kind == PMS_REG_GLOBAL_CTRL)
                v = (((guint64)g_rand_int(r) << 32) | g_rand_int(r) | 0x700000000full) & reg->writable;
            else
                continue;
            if (reg->kind == PMS_REG_PMC)
                v &= 0xffffffffu; /* legacy write: the low half sign-extends */
            CU_ASSERT_TRUE(pms_sim_write(a, reg->address, v, NULL));
            CU_ASSERT_TRUE(pms_sim_write(b, reg->address, v, NULL));
        }
        for (guint k = 0; k < 3; k++)
            rand_write(r, m, a, b);
        for (guint op = 0; op < N_OPS; op++) {
            if (g_rand_int_range(r, 0, 3) == 0)
                rand_write(r, m, a, b);
            else
                rand_run(r, m, threads, a, b);
            if (!same(m, a, b, seed, op)) {
                failures++;
                CU_FAIL("reference and fast engines differ");
                break;
            }
        }
        guint n;
        pms_sim_pmis(a, &n);
        total_pmis += n;
        if (g_getenv("DIFF_DEBUG") && seed < first_seed + 10) {
            guint64 st = 0, gc = 0, e0 = 0, dbg = 0;
            pms_sim_read(a, 0x38e, &st, NULL);
            pms_sim_read(a, 0x38f, &gc, NULL);
            pms_sim_read(a, 0x186, &e0, NULL);
            pms_sim_read(a, 0x1d9, &dbg, NULL);
            fprintf(stderr,
                    "# seed %u pmis %u status %" G_GINT64_MODIFIER "x gctrl %" G_GINT64_MODIFIER
                    "x evtsel0 %" G_GINT64_MODIFIER "x dbg %" G_GINT64_MODIFIER "x cycle %" G_GUINT64_FORMAT "\n",
                    seed, n, st, gc, e0, dbg, pms_sim_cycle(a));
        }
        total_cases++;
    }
}

static void diff_nhm(void)
{
    diff_model(fx_model("nhm"), 1, fx_cases(N_CASES / 4));
}
static void diff_glm(void)
{
    diff_model(fx_model("glm"), 100001, fx_cases(N_CASES / 4));
}
static void diff_wsm(void)
{
    diff_model(fx_model("wsm"), 200001, fx_cases(N_CASES / 8));
}
static void diff_tiny(void)
{
    diff_model(fx_model("tiny"), 300001, fx_cases(N_CASES / 8));
}

static void diff_options(void)
{
    PmsModel *pre = fx_model_with("nhm", "cpl_gate", "pre");
    PmsModel *orc = fx_model_with("nhm", "anythread_combine", "clock-or");
    PmsModel *zero = fx_model_with("wsm", "global_ctrl_reset", "zero");
    PmsModel *skid = fx_model_with("glm", "pmi_skid", "2");
    diff_model(pre, 400001, fx_cases(N_CASES / 12));
    diff_model(orc, 500001, fx_cases(N_CASES / 12));
    diff_model(zero, 600001, fx_cases(N_CASES / 12));
    diff_model(skid, 700001, fx_cases(N_CASES / 12));
    pms_model_free(pre);
    pms_model_free(orc);
    pms_model_free(zero);
    pms_model_free(skid);
    printf("# differential: %u cases, %u PMIs compared\n", total_cases, total_pmis);
    CU_ASSERT_TRUE(2 * total_pmis > total_cases); /* the suite really exercises overflow and PMIs */
}

/* Long runs cannot go through the reference engine, so the fast engine is
 * checked against itself: a run of N identical cycles must equal the same
 * stimulus split at a random cycle into two runs (edge latch, overflow
 * cycle and freeze carried across the split), for N up to 2^40. */
static void split_invariance(void)
{
    const char *names[] = { "nhm", "glm", "wsm_dp", "nhm_ex" };
    guint checked = 0;
    for (guint seed = 900001; seed < 900001 + 1000; seed++) {
        g_autoptr(GRand) r = g_rand_new_with_seed(seed);
        const PmsModel *m = fx_model(names[seed % G_N_ELEMENTS(names)]);
        g_autoptr(PmsSim) a = fx_sim(m, PMS_SIM_FAST);
        g_autoptr(PmsSim) b = fx_sim(m, PMS_SIM_FAST);
        guint64 gmask = ((guint64)1 << m->gp_width) - 1;
        guint64 n_cycles = ((guint64)1 << g_rand_int_range(r, 4, 40)) + (guint64)g_rand_int_range(r, 0, 1000);
        for (guint i = 0; i < m->n_regs; i++) {
            const PmsRegister *reg = &m->regs[i];
            guint64 v = 0;
            gboolean counter = FALSE;
            if (reg->kind == PMS_REG_EVTSEL)
                v = rand_evtsel(r);
            else if (reg->kind == PMS_REG_PMC || reg->kind == PMS_REG_FIXED_CTR)
                counter = TRUE, v = (gmask + 1 - (rand64(r) % (n_cycles * 3 + 1))) & gmask;
            else if (reg->kind == PMS_REG_FIXED_CTRL || reg->kind == PMS_REG_GLOBAL_CTRL)
                v = (rand64(r) | 0x700000000full) & reg->writable;
            else if (reg->kind == PMS_REG_DEBUGCTL)
                v = g_rand_boolean(r) ? (1u << 12) : 0;
            else
                continue;
            if (counter) {
                CU_ASSERT_TRUE(pms_sim_set_counter(a, reg->address, v, NULL));
                CU_ASSERT_TRUE(pms_sim_set_counter(b, reg->address, v, NULL));
            } else {
                CU_ASSERT_TRUE(pms_sim_write(a, reg->address, v, NULL));
                CU_ASSERT_TRUE(pms_sim_write(b, reg->address, v, NULL));
            }
        }
        PmsSimCount c[6];
        guint nc = 0;
        for (guint i = 0; i < m->n_gp && nc < 4; i++) {
            guint64 ev;
            pms_sim_read(a, 0x186 + i, &ev, NULL);
            c[nc++] = (PmsSimCount){ PMS_SIGNAL_KEY(ev & 0xff, (ev >> 8) & 0xff),
                                     (guint)g_rand_int_range(r, 0, (gint32)pms_sim_threads(a)),
                                     (guint64)g_rand_int_range(r, 0, 4), 0 };
        }
        c[nc++] = (PmsSimCount){ PMS_SIGNAL_KEY(0xc0, 0x00), 0, (guint64)g_rand_int_range(r, 0, 4), 0 };
        c[nc++] = (PmsSimCount){ PMS_SIGNAL_KEY(0x3c, 0x00), 0, 1, 0 };
        PmsSimRun run = {
            n_cycles, { (guint8)g_rand_int_range(r, 0, 4), (guint8)g_rand_int_range(r, 0, 4) }, c, nc, NULL, 0, NULL, 0
        };
        CU_ASSERT_TRUE(pms_sim_run(a, &run, NULL));
        guint64 cut = 1 + rand64(r) % (n_cycles - 1);
        run.cycles = cut;
        CU_ASSERT_TRUE(pms_sim_run(b, &run, NULL));
        run.cycles = n_cycles - cut;
        CU_ASSERT_TRUE(pms_sim_run(b, &run, NULL));
        if (!same(m, a, b, seed, 0)) {
            CU_FAIL("a split run differs from the whole run");
            break;
        }
        guint n;
        pms_sim_pmis(a, &n);
        checked += n;
    }
    printf("# split invariance: 1000 long runs, %u PMIs\n", checked);
    CU_ASSERT_TRUE(checked > 100);
}

/* Many PMIs without a freeze (issue 10): INST_RETIRED.ANY_P (0xc0) with
 * INT on PMC0 of wsm, GLOBAL_CTRL enabling it, no freeze bit in DEBUGCTL:
 * every carry raises a PMI and changes nothing else, so the fast engine
 * counts them from one segment's sum.  2^32 - 1 occurrences a cycle from 0
 * carry out of bit 47 once per ceil(2^48 / (2^32 - 1)) = 65537 cycles
 * (65536 (2^32 - 1) = 2^48 - 65536 < 2^48), so 2^22 cycles give
 * floor(2^22 (2^32 - 1) / 2^48) = 63 PMIs, the first in cycle 65536; the
 * reference engine, stepping every cycle, must record the same cycles.  A
 * run of 2^63 - 1 cycles: floor((2^63 - 1)(2^32 - 1) / 2^48) PMIs, counted,
 * the first PMS_SIM_PMI_LISTED listed, and the run takes no longer than
 * one segment. */
static void many_pmis(void)
{
    const guint64 n = 0xffffffffull;
    PmsSim *e[2];
    for (guint i = 0; i < 2; i++) {
        e[i] = fx_sim(fx_model("wsm"), i ? PMS_SIM_FAST : PMS_SIM_REFERENCE);
        fx_write(e[i], A_EVTSEL0, EVTSEL(0xc0, 0x00, EV_USR | EV_OS | EV_INT | EV_EN));
        fx_write(e[i], A_GCTRL, 1);
        fx_run(e[i], (guint64)1 << 22, PMS_SIGNAL_KEY(0xc0, 0x00), n, 0, 3, 3);
    }
    guint na, nb;
    const guint64 *pa = pms_sim_pmis(e[0], &na), *pb = pms_sim_pmis(e[1], &nb);
    CU_ASSERT_EQUAL(pms_sim_pmi_total(e[0]), 63);
    CU_ASSERT_EQUAL(pms_sim_pmi_total(e[1]), 63);
    CU_ASSERT_EQUAL_FATAL(na, 63);
    CU_ASSERT_EQUAL_FATAL(nb, 63);
    CU_ASSERT_EQUAL(pa[0], 65536);
    CU_ASSERT_EQUAL(memcmp(pa, pb, na * sizeof *pa), 0);
    CU_ASSERT_EQUAL(fx_read(e[0], A_PMC0), fx_read(e[1], A_PMC0));
    pms_sim_free(e[0]);
    pms_sim_free(e[1]);
    PmsSim *f = fx_sim(fx_model("wsm"), PMS_SIM_FAST);
    fx_write(f, A_EVTSEL0, EVTSEL(0xc0, 0x00, EV_USR | EV_OS | EV_INT | EV_EN));
    fx_write(f, A_GCTRL, 1);
    const guint64 cycles = G_MAXINT64;
    fx_run(f, cycles, PMS_SIGNAL_KEY(0xc0, 0x00), n, 0, 3, 3);
    unsigned __int128 sum = (unsigned __int128)cycles * n;
    CU_ASSERT_EQUAL(pms_sim_pmi_total(f), (guint64)(sum >> 48));
    pms_sim_pmis(f, &na);
    CU_ASSERT_EQUAL(na, PMS_SIM_PMI_LISTED);
    CU_ASSERT_EQUAL(fx_read(f, A_PMC0), (guint64)(sum & (((unsigned __int128)1 << 48) - 1)));
    pms_sim_free(f);
}

void register_diff_tests(void)
{
    CU_pSuite s = CU_add_suite("sim differential", NULL, NULL);
    CU_add_test(s, "reference == fast (nhm)", diff_nhm);
    CU_add_test(s, "fast: 2^47 PMIs without a freeze in bounded work and memory", many_pmis);
    CU_add_test(s, "reference == fast (glm)", diff_glm);
    CU_add_test(s, "reference == fast (wsm)", diff_wsm);
    CU_add_test(s, "reference == fast (tiny)", diff_tiny);
    CU_add_test(s, "reference == fast (options: pre gate, clock-or, zero reset, skid)", diff_options);
    CU_add_test(s, "fast: a long run equals the run split in two (N up to 2^40)", split_invariance);
}
