/* The program step (include/pmusim/program.h): placement, codes -> writes, partial
 * writes applied through the device.  Expected registers are written from the
 * SDM layout (Fig 18-6, 18-7, 18-10), never from another run. */
#include <stdio.h>
#include <string.h>
#include "fixtures.h"
#include "sim_internal.h"
#include "prog_internal.h"

static const PmsRegWrite *find(const PmsRegWrite *w, guint n, guint32 addr)
{
    for (guint i = 0; i < n; i++)
        if (w[i].address == addr)
            return &w[i];
    return NULL;
}

/* A general counter: the whole PERFEVTSEL, the extra register, one GLOBAL_CTRL bit. */
static void test_general(void)
{
    const PmsModel *m = fx_model("nhm");
    const PmsEvent *oc = pms_model_event(m, "OFFCORE_RESPONSE_0");
    CU_ASSERT_PTR_NOT_NULL_FATAL(oc);
    PmsPlacement pl;
    g_autoptr(GError) err = NULL;
    CU_ASSERT_TRUE_FATAL(pms_program_place(m, oc, PMS_UMASK_SET_EMPTY, &pl, &err));
    CU_ASSERT_FALSE(pl.fixed);
    CU_ASSERT_EQUAL(pl.counter, 2); /* Intel's JSON: PMC2 only on NHM */
    guint64 codes[2] = { EVTSEL(0xb7, 0x01, EV_USR | EV_EN), 0x4001 };
    PmsRegWrite w[PMS_PROGRAM_MAX_WRITES];
    guint n = 0;
    CU_ASSERT_TRUE_FATAL(pms_program_writes(&pl, codes, 2, w, &n, &err));
    CU_ASSERT_EQUAL_FATAL(n, 3);
    const PmsRegWrite *es = find(w, n, A_EVTSEL0 + 2), *rsp = find(w, n, 0x1a6), *gc = find(w, n, A_GCTRL);
    CU_ASSERT_FATAL(es && rsp && gc);
    CU_ASSERT_EQUAL(es->value, codes[0]);
    CU_ASSERT_EQUAL(es->mask, G_MAXUINT64);
    CU_ASSERT_EQUAL(rsp->value, 0x4001);
    CU_ASSERT_EQUAL(gc->mask, 0x4);
    CU_ASSERT_EQUAL(gc->value, 0x4);
    CU_ASSERT_PTR_EQUAL(gc->reg, pms_model_reg_by_addr(m, A_GCTRL));
    /* three codes: nothing to put the third in */
    guint64 three[3] = { codes[0], codes[1], 1 };
    CU_ASSERT_FALSE(pms_program_writes(&pl, three, 3, w, &n, &err));
    CU_ASSERT(g_error_matches(err, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CODES));
    g_clear_error(&err);
    /* a counter the event may not use */
    CU_ASSERT_FALSE(pms_program_place_on(m, oc, 0, FALSE, &pl, &err));
    CU_ASSERT(g_error_matches(err, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_COUNTER));
}

/* A fixed-only event: only its four bits of FIXED_CTR_CTRL, and a partial
 * write keeps the other counters' bits when applied. */
static void test_fixed_partial(void)
{
    const PmsModel *m = fx_model("nhm");
    const PmsEvent *ref = pms_model_event(m, "UNHALTED_REFERENCE_CYCLES");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ref);
    PmsPlacement pl;
    CU_ASSERT_TRUE_FATAL(pms_program_place(m, ref, PMS_UMASK_SET_EMPTY, &pl, NULL));
    CU_ASSERT_TRUE(pl.fixed);
    CU_ASSERT_EQUAL(pl.counter, 2);
    /* usr only, INT: FIXED_CTR2's EN = 10b (CPL > 0), PMI; SDM 18-7 */
    guint64 code = EVTSEL(0x00, 0x03, EV_USR | EV_INT | EV_EN);
    PmsRegWrite w[PMS_PROGRAM_MAX_WRITES];
    guint n = 0;
    CU_ASSERT_TRUE_FATAL(pms_program_writes(&pl, &code, 1, w, &n, NULL));
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(w[0].address, A_FIXED_CTRL);
    CU_ASSERT_EQUAL(w[0].mask, 0xf00);
    CU_ASSERT_EQUAL(w[0].value, 0xa00);
    CU_ASSERT_EQUAL(w[1].address, A_GCTRL);
    CU_ASSERT_EQUAL(w[1].value, (guint64)1 << 34);
    PmsSim *sim = fx_sim(m, PMS_SIM_FAST);
    CU_ASSERT_TRUE(pms_sim_write(sim, A_FIXED_CTRL, 0x3, NULL)); /* FIXED_CTR0 at all rings */
    CU_ASSERT_TRUE(pms_sim_apply(sim, w, n, NULL));
    guint64 v = 0;
    CU_ASSERT_TRUE(pms_sim_read(sim, A_FIXED_CTRL, &v, NULL));
    CU_ASSERT_EQUAL(v, 0xa03);
    CU_ASSERT_TRUE(pms_sim_read(sim, A_GCTRL, &v, NULL));
    CU_ASSERT_EQUAL(v, 0xf | (guint64)1 << 34); /* A25: GP enables set at reset */
    pms_sim_free(sim);
}

/* glm CPU_CLK_UNHALTED:CORE may use FIXED_CTR1 only (its unit mask has no
 * general counter): placed there, it counts core cycles there. */
static void test_fixed_umask(void)
{
    const PmsModel *m = fx_model("glm");
    const PmsEvent *clk = pms_model_event(m, "CPU_CLK_UNHALTED");
    CU_ASSERT_PTR_NOT_NULL_FATAL(clk);
    guint core = 0;
    for (guint i = 0; i < clk->n_umasks; i++)
        if (strcmp(clk->umasks[i].name, "CORE") == 0)
            core = i;
    PmsPlacement pl;
    CU_ASSERT_TRUE_FATAL(pms_program_place(m, clk, pms_uset_bit(core), &pl, NULL));
    CU_ASSERT_TRUE(pl.fixed);
    CU_ASSERT_EQUAL(pl.counter, 1);
    const PmsRegister *ctr = pms_program_counter_reg(&pl);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ctr);
    CU_ASSERT_EQUAL(ctr->address, A_FIXED0 + 1);
    CU_ASSERT_EQUAL(pms_program_status_bit(&pl), (guint64)1 << 33);
    guint64 code = EVTSEL(0x00, 0x02, EV_USR | EV_OS | EV_EN);
    PmsRegWrite w[PMS_PROGRAM_MAX_WRITES];
    guint n = 0;
    CU_ASSERT_TRUE_FATAL(pms_program_writes(&pl, &code, 1, w, &n, NULL));
    PmsSim *sim = fx_sim(m, PMS_SIM_REFERENCE);
    CU_ASSERT_TRUE(pms_sim_apply(sim, w, n, NULL));
    PmsSimCount c = { PMS_SIGNAL_KEY(0x3c, 0x00), 0, 1, 0 };
    PmsSimRun run = { 5, { 3, 3 }, &c, 1, NULL, 0, NULL, 0 };
    CU_ASSERT_TRUE(pms_sim_run(sim, &run, NULL));
    guint64 v = 0;
    CU_ASSERT_TRUE(pms_sim_read(sim, A_FIXED0 + 1, &v, NULL));
    CU_ASSERT_EQUAL(v, 5);
    pms_sim_free(sim);
}

/* No program step and no device for a family the layers' tables do not
 * list (every registered family has both): typed errors. */
static void test_unsupported_arch(void)
{
    g_autoptr(PmsModel) m = fx_model_with("nhm", "cpl_gate", "post");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    static const PmsFamily stranger = { .name = "stranger", .desc = "no layer lists it" };
    m->family = &stranger;
    PmsPlacement pl;
    g_autoptr(GError) err = NULL;
    CU_ASSERT_FALSE(pms_program_place(m, &m->events[0], PMS_UMASK_SET_EMPTY, &pl, &err));
    CU_ASSERT(g_error_matches(err, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_NOTSUPP));
    g_clear_error(&err);
    CU_ASSERT_PTR_NULL(pms_sim_new(m, &err));
    CU_ASSERT(g_error_matches(err, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL));
}

/* The Xeon 7500 C-Box program step (75UG Tables 2-10, 2-13; SDM Vol. 3C
 * Table 35-15 for C-Box 3's MSRs: GLOBAL_CTL 0xdc0, GLOBAL_STATUS 0xdc1,
 * EVT_SEL2 0xdd4, CTR2 0xdd5; U_MSR_PMON_GLOBAL_CTL 0xc00 with en_all at bit
 * 28, Linux uncore_nhmex.c): the whole event select, the counter's ctr_en bit
 * in the box's GLOBAL_CTL, en_all; its overflow bit in the box's status. */
static void test_nhmex_cbox(void)
{
    const PmsModel *m = fx_model("nhmex_cbox3");
    const PmsEvent *ev = pms_model_event(m, "LLC_MISSES");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
    PmsPlacement pl;
    g_autoptr(GError) err = NULL;
    CU_ASSERT_TRUE_FATAL(pms_program_place_on(m, ev, 2, FALSE, &pl, &err));
    guint64 code = 0x14 | 0x7 << 8 | 1u << 22; /* event 0x14, umask ALL, en */
    PmsRegWrite w[PMS_PROGRAM_MAX_WRITES];
    guint n = 0;
    CU_ASSERT_TRUE_FATAL(pms_program_writes(&pl, &code, 1, w, &n, &err));
    CU_ASSERT_EQUAL_FATAL(n, 3);
    const PmsRegWrite *es = find(w, n, 0xdd4), *box = find(w, n, 0xdc0), *u = find(w, n, 0xc00);
    CU_ASSERT_FATAL(es && box && u);
    CU_ASSERT_EQUAL(es->value, code);
    CU_ASSERT_EQUAL(es->mask, G_MAXUINT64);
    CU_ASSERT_EQUAL(box->value, 0x4);
    CU_ASSERT_EQUAL(box->mask, 0x4);
    CU_ASSERT_EQUAL(u->value, 1ull << 28);
    CU_ASSERT_EQUAL(u->mask, 1ull << 28);
    const PmsRegister *ctr = pms_program_counter_reg(&pl), *st = pms_program_status_reg(&pl);
    CU_ASSERT_FATAL(ctr && st);
    CU_ASSERT_EQUAL(ctr->address, 0xdd5);
    CU_ASSERT_EQUAL(st->address, 0xdc1);
    CU_ASSERT_EQUAL(pms_program_status_bit(&pl), 0x4);
    /* a C-Box event has no extra register */
    guint64 two[2] = { code, 1 };
    CU_ASSERT_FALSE(pms_program_writes(&pl, two, 2, w, &n, &err));
    CU_ASSERT(g_error_matches(err, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CODES));
    g_clear_error(&err);
    /* nor fixed counters: a placement on one programs, reads and flags nothing */
    PmsPlacement fixed = pl;
    fixed.fixed = TRUE;
    fixed.counter = 0;
    CU_ASSERT_FALSE(pms_program_writes(&fixed, &code, 1, w, &n, &err));
    CU_ASSERT(g_error_matches(err, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_COUNTER));
    CU_ASSERT_PTR_NULL(pms_program_counter_reg(&fixed));
    CU_ASSERT_EQUAL(pms_program_status_bit(&fixed), 0);
}

/* ---- sets (pms_program_place_set, pms_program_set_writes) ---------------- */

static PmsSetEvent set_ev(const PmsModel *m, const char *name, const guint64 *codes, guint n_codes)
{
    const PmsEvent *ev = pms_model_event(m, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
    /* the default unit mask (first one flagged default), else none */
    PmsUmaskSet um = PMS_UMASK_SET_EMPTY;
    for (guint i = 0; i < ev->n_umasks; i++)
        if (ev->umasks[i].flags & PMS_UMASK_DEFAULT) {
            um = pms_uset_bit(i);
            break;
        }
    return (PmsSetEvent){ ev, um, codes, n_codes, NULL, FALSE };
}

/* nhm: L1D and L1D_ALL_REF may use PMC0-1 only (model counters=0x3, Intel's
 * JSON), UOPS_ISSUED any of PMC0-3.  First fit in the order given puts
 * UOPS_ISSUED on PMC0, L1D on PMC1 and finds nothing for L1D_ALL_REF; the
 * matching puts UOPS_ISSUED on PMC2 (PMC0 and PMC1 are each the only room
 * left for one of the two restricted events). */
static void test_set_matching(void)
{
    const PmsModel *m = fx_model("nhm");
    guint64 c0 = EVTSEL(0x0e, 0x01, EV_USR | EV_OS | EV_INT | EV_EN), c1 = EVTSEL(0x51, 0x02, EV_USR | EV_EN),
            c2 = EVTSEL(0x43, 0x01, EV_OS | EV_EN);
    PmsSetEvent evs[3] = { set_ev(m, "UOPS_ISSUED", &c0, 1), set_ev(m, "L1D", &c1, 1),
                           set_ev(m, "L1D_ALL_REF", &c2, 1) };
    evs[1].umask_mask = pms_uset_bit(1); /* M_REPL */
    PmsPlacement pl[3];
    g_autoptr(GError) err = NULL;
    CU_ASSERT_TRUE_FATAL(pms_program_place_set(m, evs, 3, pl, &err));
    CU_ASSERT(!pl[0].fixed && pl[0].counter == 2);
    CU_ASSERT(!pl[1].fixed && pl[1].counter == 0);
    CU_ASSERT(!pl[2].fixed && pl[2].counter == 1);
    guint nw = 0;
    g_autofree PmsRegWrite *w = pms_program_set_writes(m, evs, pl, 3, &nw, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    /* PERFEVTSEL0-2 whole, GLOBAL_CTRL = bits 0-2 (SDM 18-7), last */
    CU_ASSERT_EQUAL_FATAL(nw, 4);
    CU_ASSERT(w[0].address == A_EVTSEL0 && w[0].value == c1 && w[0].mask == G_MAXUINT64);
    CU_ASSERT(w[1].address == A_EVTSEL0 + 1 && w[1].value == c2);
    CU_ASSERT(w[2].address == A_EVTSEL0 + 2 && w[2].value == c0);
    CU_ASSERT(w[3].address == A_GCTRL && w[3].value == 0x7 && w[3].mask == G_MAXUINT64);
    /* a third PMC0-1 event: three events, two counters */
    guint64 c3 = EVTSEL(0x40, 0x0f, EV_USR | EV_EN);
    PmsSetEvent bad[4] = { evs[0], evs[1], evs[2], set_ev(m, "L1D_CACHE_LD", &c3, 1) };
    PmsPlacement pl4[4];
    CU_ASSERT_FALSE(pms_program_place_set(m, bad, 4, pl4, &err));
    CU_ASSERT(g_error_matches(err, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CONFLICT));
    CU_ASSERT_STRING_EQUAL(err->message,
                           "3 events may use only IA32_PMC0, IA32_PMC1 (2 counters): L1D, L1D_ALL_REF, L1D_CACHE_LD");
}

/* wsm: fixed counters first for the events that may use them, unless codes[0]
 * has a bit FIXED_CTR_CTRL cannot hold (c=1 here); the fixed-only
 * UNHALTED_REFERENCE_CYCLES twice is a conflict on FIXED_CTR2. */
static void test_set_fixed(void)
{
    const PmsModel *m = fx_model("wsm");
    guint64 ir = EVTSEL(0xc0, 0x00, EV_USR | EV_OS | EV_INT | EV_EN), cyc = EVTSEL(0x3c, 0x00, EV_USR | EV_EN),
            ref = EVTSEL(0x00, 0x03, EV_OS | EV_INT | EV_EN), irc = EVTSEL(0xc0, 0x00, EV_USR | EV_EN | EV_CMASK(1));
    PmsSetEvent evs[4] = { set_ev(m, "INSTRUCTION_RETIRED", &irc, 1), set_ev(m, "INSTRUCTION_RETIRED", &ir, 1),
                           set_ev(m, "UNHALTED_CORE_CYCLES", &cyc, 1),
                           set_ev(m, "UNHALTED_REFERENCE_CYCLES", &ref, 1) };
    PmsPlacement pl[4];
    g_autoptr(GError) err = NULL;
    CU_ASSERT_TRUE_FATAL(pms_program_place_set(m, evs, 4, pl, &err));
    CU_ASSERT(!pl[0].fixed && pl[0].counter == 0);
    CU_ASSERT(pl[1].fixed && pl[1].counter == 0);
    CU_ASSERT(pl[2].fixed && pl[2].counter == 1);
    CU_ASSERT(pl[3].fixed && pl[3].counter == 2);
    guint nw = 0;
    g_autofree PmsRegWrite *w = pms_program_set_writes(m, evs, pl, 4, &nw, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    /* SDM 18-7: FIXED_CTR0 EN=11 PMI (0xb), FIXED_CTR1 EN=10 (0x2 << 4),
     * FIXED_CTR2 EN=01 PMI (0x9 << 8); GLOBAL_CTRL PMC0 + FIXED 32-34 */
    CU_ASSERT_EQUAL_FATAL(nw, 3);
    CU_ASSERT(w[0].address == A_EVTSEL0 && w[0].value == irc);
    CU_ASSERT(w[1].address == A_FIXED_CTRL && w[1].value == 0x92b && w[1].mask == G_MAXUINT64);
    CU_ASSERT(w[2].address == A_GCTRL && w[2].value == 0x700000001ull);
    PmsSetEvent two[2] = { evs[3], evs[3] };
    CU_ASSERT_FALSE(pms_program_place_set(m, two, 2, pl, &err));
    CU_ASSERT_STRING_EQUAL(err->message,
                           "UNHALTED_REFERENCE_CYCLES and UNHALTED_REFERENCE_CYCLES both need IA32_FIXED_CTR2");
}

/* One MSR_OFFCORE_RSP_0: shared by equal values, a conflict otherwise. */
static void test_set_extra(void)
{
    const PmsModel *m = fx_model("wsm");
    guint64 a[2] = { EVTSEL(0xb7, 0x01, EV_USR | EV_EN), 0x2001 }, b[2] = { EVTSEL(0xb7, 0x01, EV_OS | EV_EN), 0x2001 },
            c[2] = { EVTSEL(0xb7, 0x01, EV_OS | EV_EN), 0x4001 };
    PmsSetEvent evs[3] = { set_ev(m, "OFFCORE_RESPONSE_0", a, 2), set_ev(m, "OFFCORE_RESPONSE_0", b, 2),
                           set_ev(m, "OFFCORE_RESPONSE_0", c, 2) };
    evs[0].name = "A";
    evs[1].name = "B";
    evs[2].name = "C";
    PmsPlacement pl[3];
    g_autoptr(GError) err = NULL;
    CU_ASSERT_TRUE_FATAL(pms_program_place_set(m, evs, 2, pl, &err));
    guint nw = 0;
    g_autofree PmsRegWrite *w = pms_program_set_writes(m, evs, pl, 2, &nw, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL_FATAL(nw, 4); /* EVTSEL0, EVTSEL1, RSP_0 once, GLOBAL_CTRL */
    CU_ASSERT(w[2].address == A_RSP0 && w[2].value == 0x2001);
    CU_ASSERT(w[3].address == A_GCTRL && w[3].value == 0x3);
    CU_ASSERT_FALSE(pms_program_place_set(m, evs, 3, pl, &err));
    CU_ASSERT(g_error_matches(err, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CONFLICT));
    CU_ASSERT_STRING_EQUAL(err->message,
                           "A and C both need MSR_OFFCORE_RSP_0, with different values (0x2001 and 0x4001)");
}

/* PEBS in a set (pebs): general counters with an IA32_PEBS_ENABLE pebs_en
 * bit only (SDM 18-37 / 18.7.1: PMC0-3 on wsm, PMC0 on glm), never a fixed
 * counter, even for an event a fixed counter counts (INST_RETIRED.ANY_P). */
static void test_set_pebs(void)
{
    const PmsModel *w = fx_model("wsm");
    CU_ASSERT_EQUAL(pms_model_pebs_counters(w), 0xf);
    CU_ASSERT_EQUAL(pms_model_pebs_format(w), 1); /* PEBS_REC_FMT of the Core i7 record */
    guint64 ir = EVTSEL(0xc0, 0x01, EV_USR | EV_OS | EV_EN), br = EVTSEL(0xc4, 0x00, EV_USR | EV_EN);
    PmsSetEvent evs[5] = { set_ev(w, "INST_RETIRED", &ir, 1), set_ev(w, "BR_INST_RETIRED", &br, 1) };
    PmsPlacement pl[5];
    g_autoptr(GError) err = NULL;
    CU_ASSERT_TRUE_FATAL(pms_program_place_set(w, evs, 2, pl, &err));
    CU_ASSERT(pl[0].fixed && pl[0].counter == 0); /* without PEBS: FIXED_CTR0 */
    evs[0].pebs = evs[1].pebs = TRUE;
    CU_ASSERT_TRUE_FATAL(pms_program_place_set(w, evs, 2, pl, &err));
    CU_ASSERT(!pl[0].fixed && pl[0].counter == 0);
    CU_ASSERT(!pl[1].fixed && pl[1].counter == 1);
    /* five PEBS events, four PEBS counters */
    for (guint i = 2; i < 5; i++)
        evs[i] = evs[1];
    CU_ASSERT_FALSE(pms_program_place_set(w, evs, 5, pl, &err));
    CU_ASSERT(g_error_matches(err, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CONFLICT));
    CU_ASSERT_PTR_NOT_NULL(strstr(err->message, "5 events may use only IA32_PMC0, IA32_PMC1, IA32_PMC2, IA32_PMC3"));
    g_clear_error(&err);

    const PmsModel *g = fx_model("glm");
    CU_ASSERT_EQUAL(pms_model_pebs_counters(g), 0x1);
    CU_ASSERT_EQUAL(pms_model_pebs_format(g), 3); /* 0011b, SDM Table 18-20 */
    guint64 gir = EVTSEL(0xc0, 0x00, EV_USR | EV_EN), gbr = EVTSEL(0xc4, 0x00, EV_USR | EV_EN);
    PmsSetEvent ge[2] = { set_ev(g, "INST_RETIRED", &gir, 1), set_ev(g, "BR_INST_RETIRED", &gbr, 1) };
    ge[0].pebs = ge[1].pebs = TRUE;
    CU_ASSERT_FALSE(pms_program_place_set(g, ge, 2, pl, &err));
    CU_ASSERT_TRUE(err && strstr(err->message, "INST_RETIRED and BR_INST_RETIRED both need IA32_PMC0"));
    g_clear_error(&err);
    /* one PEBS event and one without: the other goes elsewhere */
    ge[1].pebs = FALSE;
    ge[0].pebs = FALSE;
    ge[1].pebs = TRUE;
    CU_ASSERT_TRUE_FATAL(pms_program_place_set(g, ge, 2, pl, &err));
    CU_ASSERT(!pl[1].fixed && pl[1].counter == 0);
    CU_ASSERT(pl[0].fixed || pl[0].counter != 0);

    /* no PEBS on the uncore */
    const PmsModel *u = fx_model("nhm_unc");
    CU_ASSERT_EQUAL(pms_model_pebs_counters(u), 0);
    CU_ASSERT_EQUAL(pms_model_pebs_format(u), 0); /* no IA32_PERF_CAPABILITIES */
    PmsSetEvent ue = { &u->events[0], PMS_UMASK_SET_EMPTY, &gir, 1, NULL, TRUE };
    CU_ASSERT_FALSE(pms_program_place_set(u, &ue, 1, pl, &err));
    CU_ASSERT_TRUE(err && strstr(err->message, "which nhm_unc does not have"));
}

static void test_set_unsupported(void)
{
    const PmsModel *m = fx_model("montecito");
    guint64 c = 0;
    PmsSetEvent e = { &m->events[0], PMS_UMASK_SET_EMPTY, &c, 1, NULL, FALSE };
    PmsPlacement pl;
    g_autoptr(GError) err = NULL;
    CU_ASSERT_FALSE(pms_program_place_set(m, &e, 1, &pl, &err));
    CU_ASSERT(g_error_matches(err, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_NOTSUPP));
    g_clear_error(&err);
    CU_ASSERT_FALSE(pms_program_place_set(fx_model("wsm"), &e, 0, &pl, &err));
    CU_ASSERT(g_error_matches(err, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CONFLICT));
}

/* What the writes and the placement read of the codes
 * (pms_program_writes_src, pms_program_place_code_bits), on every event of
 * the x86 models: other codes on the same placement give the writes src
 * says (a code under the write's mask, or the same value), and codes that
 * agree on the placement's bits are placed alike.  Codes drawn from a fixed
 * seed. */
static void test_writes_src(void)
{
    static const char *const models[] = { "nhm", "wsm", "glm", "skl", "icl", "nhm_unc", "wsm_unc", "montecito" };
    GRand *rnd = g_rand_new_with_seed(21);
    guint checked = 0, patched = 0;
    for (guint mi = 0; mi < G_N_ELEMENTS(models); mi++) {
        const PmsModel *m = fx_model(models[mi]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        guint64 bits = pms_program_place_code_bits(m);
        for (guint e = 0; e < m->n_events; e++) {
            const PmsEvent *ev = &m->events[e];
            PmsUmaskSet um =
                ev->n_umasks ? pms_uset_bit(g_rand_int_range(rnd, 0, (gint32)ev->n_umasks)) : PMS_UMASK_SET_EMPTY;
            guint nc = ev->extra_reg ? 2 : 1;
            guint64 a[2], b[2];
            for (guint i = 0; i < 2; i++) {
                a[i] = ((guint64)g_rand_int(rnd) << 32 | g_rand_int(rnd)) & ~bits;
                b[i] = ((guint64)g_rand_int(rnd) << 32 | g_rand_int(rnd)) & ~bits;
            }
            PmsPlacement pa, pb;
            if (!pms_program_place_codes(m, ev, um, a, nc, &pa, NULL))
                continue;
            CU_ASSERT_TRUE_FATAL(pms_program_place_codes(m, ev, um, b, nc, &pb, NULL));
            CU_ASSERT_EQUAL(pa.counter, pb.counter);
            CU_ASSERT_EQUAL(pa.fixed, pb.fixed);
            PmsRegWrite wa[PMS_PROGRAM_MAX_WRITES], wb[PMS_PROGRAM_MAX_WRITES];
            guint8 src[PMS_PROGRAM_MAX_WRITES];
            guint na, nb;
            gboolean ok = pms_program_writes_src(&pa, a, nc, wa, &na, src, NULL);
            CU_ASSERT_EQUAL(ok, pms_program_writes(&pa, b, nc, wb, &nb, NULL));
            if (!ok)
                continue;
            CU_ASSERT_EQUAL_FATAL(na, nb);
            for (guint j = 0; j < na; j++) {
                CU_ASSERT_PTR_EQUAL(wa[j].reg, wb[j].reg);
                if (src[j] == PMS_PROGRAM_SRC_OTHER)
                    continue;
                CU_ASSERT_EQUAL(wa[j].mask, wb[j].mask);
                patched++;
                guint64 want = src[j] == PMS_PROGRAM_SRC_NONE ? wa[j].value : b[src[j]] & wb[j].mask;
                CU_ASSERT_TRUE(src[j] == PMS_PROGRAM_SRC_NONE || src[j] < nc);
                CU_ASSERT_EQUAL(wb[j].value, want);
                if (wb[j].value != want)
                    fprintf(stderr, "# %s::%s write %u (%s): src %u\n", m->name, ev->name, j, wb[j].name, src[j]);
            }
            checked++;
        }
    }
    g_rand_free(rnd);
    fprintf(stderr, "# %u placements, %u writes from the codes or none\n", checked, patched);
    CU_ASSERT_TRUE(checked > 1000); /* montecito's included, all SRC_OTHER */
    CU_ASSERT_TRUE(patched > 800);

    /* by hand: nhm's offcore event on PMC2 is its PERFEVTSEL (codes[0]),
     * its MSR_OFFCORE_RSP (codes[1]) and a GLOBAL_CTRL bit of its own; a
     * fixed-only event's FIXED_CTR_CTRL bits are made from codes[0]'s */
    const PmsModel *m = fx_model("nhm");
    PmsPlacement pl;
    CU_ASSERT_TRUE_FATAL(
        pms_program_place(m, pms_model_event(m, "OFFCORE_RESPONSE_0"), PMS_UMASK_SET_EMPTY, &pl, NULL));
    guint64 codes[2] = { EVTSEL(0xb7, 0x01, EV_USR | EV_EN), 0x4001 };
    PmsRegWrite w[PMS_PROGRAM_MAX_WRITES];
    guint8 src[PMS_PROGRAM_MAX_WRITES];
    guint n;
    CU_ASSERT_TRUE_FATAL(pms_program_writes_src(&pl, codes, 2, w, &n, src, NULL));
    CU_ASSERT_EQUAL_FATAL(n, 3);
    CU_ASSERT_EQUAL(src[0], 0);
    CU_ASSERT_EQUAL(src[1], 1);
    CU_ASSERT_EQUAL(src[2], PMS_PROGRAM_SRC_NONE);
    CU_ASSERT_TRUE_FATAL(
        pms_program_place(m, pms_model_event(m, "UNHALTED_REFERENCE_CYCLES"), PMS_UMASK_SET_EMPTY, &pl, NULL));
    CU_ASSERT_TRUE_FATAL(pms_program_writes_src(&pl, codes, 1, w, &n, src, NULL));
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(src[0], PMS_PROGRAM_SRC_OTHER);
    CU_ASSERT_EQUAL(src[1], PMS_PROGRAM_SRC_NONE);
    /* skl: IN_TXCP (bit 33) moves an event to PERFEVTSEL2; nhm has no bit that moves one */
    CU_ASSERT_EQUAL(pms_program_place_code_bits(fx_model("skl")), G_GUINT64_CONSTANT(1) << 33);
    CU_ASSERT_EQUAL(pms_program_place_code_bits(m), 0);
}

/* The program and simulator layers of the family registry list every
 * family once (family.h). */
static void test_family_tables(void)
{
    g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
    CU_ASSERT_TRUE(prog_table_check(problems));
    CU_ASSERT_TRUE(sim_device_table_check(problems));
    for (guint i = 0; i < problems->len; i++)
        fprintf(stderr, "# %s\n", (const char *)problems->pdata[i]);
}

void register_program_tests(void)
{
    CU_pSuite s = CU_add_suite("program", NULL, NULL);
    CU_add_test(s, "family tables: program step and device", test_family_tables);
    CU_add_test(s, "general counter: evtsel, extra register, one GLOBAL_CTRL bit", test_general);
    CU_add_test(s, "what the writes and the placement read of the codes", test_writes_src);
    CU_add_test(s, "fixed-only event: partial FIXED_CTR_CTRL write composes", test_fixed_partial);
    CU_add_test(s, "fixed-only unit mask placed on its fixed counter and counts there", test_fixed_umask);
    CU_add_test(s, "architecture without a device: typed errors", test_unsupported_arch);
    CU_add_test(s, "Xeon 7500 C-Box: event select, box ctr_en, U-Box en_all; no extra or fixed", test_nhmex_cbox);
    CU_add_test(s, "set: matching where first fit fails; three events on two counters", test_set_matching);
    CU_add_test(s, "set: fixed counters first, composed FIXED_CTR_CTRL and GLOBAL_CTRL", test_set_fixed);
    CU_add_test(s, "set: one extra register shared by equal values, else a conflict", test_set_extra);
    CU_add_test(s, "set: PEBS events on the counters PEBS samples only", test_set_pebs);
    CU_add_test(s, "set: no set placement on montecito; an empty set", test_set_unsupported);
}
