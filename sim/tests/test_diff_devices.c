/* Differential suite for every device beyond the x86 core (which test_diff.c
 * covers in depth): on the test-only uncore and Xeon 7500 models and on
 * montecito (registers in the PMC/PMD/IBR/DBR spaces, its options drawn at
 * random per case), seeded
 * random scenarios — register writes of random writable bits, counters
 * preloaded near the top, runs of 1..300 cycles with random occurrences of
 * the model's own signals (every box of the unit; on montecito also line
 * states, each thread's PSR.up / PSR.pp and instruction set, thread 0's EAR
 * events and branches, and the monitor PMCs) — must
 * leave every
 * register and every PMI cycle identical on the reference and the fast
 * engine after every step.  Nothing here is device-specific: it reads the
 * model. */
#include "fixtures.h"
#include "sim_ia64.h"
#include "model_ia64.h"

#include <string.h>

enum { N_CASES = 600, N_OPS = 30 };

static guint64 rand64(GRand *r)
{
    return ((guint64)g_rand_int(r) << 32) | g_rand_int(r);
}

/* A signal of the model: a random event with one of its unit masks (or none). */
static guint32 rand_signal(GRand *r, const PmsModel *m)
{
    const PmsEvent *ev = &m->events[g_rand_int_range(r, 0, (gint32)m->n_events)];
    guint64 um = ev->n_umasks ? ev->umasks[g_rand_int_range(r, 0, (gint32)ev->n_umasks)].value : 0;
    return PMS_SIGNAL_KEY(ev->code & 0xff, um & 0xff);
}

/* Event selects: the model's event codes and umasks, enable mostly on,
 * small thresholds, the other writable bits at random. */
static guint64 rand_evtsel(GRand *r, const PmsModel *m, const PmsRegister *reg)
{
    guint32 sig = rand_signal(r, m);
    guint64 v = rand64(r) & reg->writable & ~(guint64)0xffff & ~((guint64)0xff << 24);
    v |= sig >> 8 | (guint64)(sig & 0xff) << 8;
    static const guint thr[] = { 0, 0, 1, 2, 3 };
    v |= (guint64)thr[g_rand_int_range(r, 0, G_N_ELEMENTS(thr))] << 24;
    if (g_rand_int_range(r, 0, 5))
        v |= (guint64)1 << 22; /* en (bit 22 on both the uncore and the C-Box) */
    return v & reg->writable;
}

static void same(PmsSim *a, PmsSim *b, const PmsModel *m, guint c, guint op)
{
    /* every register of every space (the Itanium's PMC/PMD/IBR/DBR too) */
    for (guint i = 0; i < m->n_regs; i++) {
        const PmsRegister *reg = &m->regs[i];
        guint64 va = 0, vb = 0;
        gboolean ra = pms_sim_read_at(a, reg->space, reg->address, &va, NULL),
                 rb = pms_sim_read_at(b, reg->space, reg->address, &vb, NULL);
        if (ra != rb || va != vb) {
            fprintf(stderr, "# %s case %u op %u: %s ref 0x%" G_GINT64_MODIFIER "x fast 0x%" G_GINT64_MODIFIER "x\n",
                    m->name, c, op, reg->name, va, vb);
            CU_FAIL("engines disagree on a register");
            return;
        }
    }
    guint na, nb;
    const guint64 *pa = pms_sim_pmis(a, &na), *pb = pms_sim_pmis(b, &nb);
    CU_ASSERT_EQUAL(na, nb);
    CU_ASSERT(na != nb || na == 0 || memcmp(pa, pb, na * sizeof *pa) == 0);
    /* external notifications (Itanium ev): the same cycles and total */
    guint64 ta, tb;
    pa = pms_sim_ext_notifications(a, &na, &ta);
    pb = pms_sim_ext_notifications(b, &nb, &tb);
    CU_ASSERT_EQUAL(ta, tb);
    CU_ASSERT_EQUAL(na, nb);
    CU_ASSERT(na != nb || na == 0 || memcmp(pa, pb, na * sizeof *pa) == 0);
    CU_ASSERT_EQUAL(pms_sim_cycle(a), pms_sim_cycle(b));
}

static void diff_model(const char *name, guint *pmis_seen)
{
    GRand *r = g_rand_new_with_seed(20261123);
    for (guint c = 0; c < fx_cases(N_CASES); c++) {
        char delay[8];
        g_snprintf(delay, sizeof delay, "%d", g_rand_int_range(r, 0, 4));
        PmsModel *m = fx_model_with(name, "pmi_freeze_delay", delay);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        pms_model_set_option(m, "invert", g_rand_boolean(r) ? "documented" : "literal");
        PmsSim *a = fx_sim(m, PMS_SIM_REFERENCE), *b = fx_sim(m, PMS_SIM_FAST);
        /* a start that counts: every enable on (rst_all off), every event
         * select programmed, so the random steps below reach overflows */
        for (guint i = 0; i < m->n_regs; i++) {
            const PmsRegister *reg = &m->regs[i];
            guint64 v;
            if (reg->kind == PMS_REG_GLOBAL_CTRL || reg->kind == PMS_REG_BOX_CTRL)
                v = reg->writable & ~((guint64)1 << 29) & (g_rand_boolean(r) ? G_MAXUINT64 : ~((guint64)1 << 31));
            else if (reg->kind == PMS_REG_EVTSEL)
                v = rand_evtsel(r, m, reg) | (reg->writable & ((guint64)1 << 20));
            else
                continue;
            CU_ASSERT_EQUAL(pms_sim_write(a, reg->address, v, NULL), pms_sim_write(b, reg->address, v, NULL));
        }
        for (guint op = 0; op < N_OPS; op++) {
            const PmsRegister *reg = &m->regs[g_rand_int_range(r, 0, (gint32)m->n_regs)];
            guint k = (guint)g_rand_int_range(r, 0, 10);
            if (k < 3 && reg->kind == PMS_REG_PMC) {
                guint64 mask = ((guint64)1 << 48) - 1;
                guint64 v = (mask + 1 - (guint64)g_rand_int_range(r, 1, 400)) & mask;
                CU_ASSERT_EQUAL(pms_sim_set_counter(a, reg->address, v, NULL),
                                pms_sim_set_counter(b, reg->address, v, NULL));
            } else if (k < 6) {
                guint64 v = reg->kind == PMS_REG_EVTSEL ? rand_evtsel(r, m, reg) : rand64(r) & reg->writable;
                if (reg->kind == PMS_REG_GLOBAL_CTRL && g_rand_int_range(r, 0, 4))
                    /* enables mostly on: EN_PCk/EN_FC0 (uncore), en_all (U-Box); rst_all off */
                    v = (reg->writable & ~((guint64)1 << 29) & rand64(r)) |
                        (reg->writable & (0x1000000ffull | ((guint64)1 << 28)));
                gboolean wa = pms_sim_write(a, reg->address, v, NULL), wb = pms_sim_write(b, reg->address, v, NULL);
                CU_ASSERT_EQUAL(wa, wb);
            } else {
                PmsSimCount cnt[4];
                guint n = (guint)g_rand_int_range(r, 1, 5);
                for (guint i = 0; i < n; i++)
                    cnt[i] = (PmsSimCount){ rand_signal(r, m), 0, (guint64)g_rand_int_range(r, 0, 5),
                                            m->unit && g_rand_boolean(r) ? (guint)g_rand_int_range(r, 1, 6) : 0 };
                guint64 len = g_rand_boolean(r) ? 1 : (guint64)g_rand_int_range(r, 2, 300);
                PmsSimRun run = { len, { 0, 0 }, cnt, n, NULL, 0, NULL, 0 };
                CU_ASSERT_TRUE(pms_sim_run(a, &run, NULL));
                CU_ASSERT_TRUE(pms_sim_run(b, &run, NULL));
            }
            same(a, b, m, c, op);
        }
        guint np;
        pms_sim_pmis(a, &np);
        *pmis_seen += np;
        pms_sim_free(a);
        pms_sim_free(b);
        pms_model_free(m);
    }
    g_rand_free(r);
}

static void test_diff_uncore(void)
{
    guint pmis = 0;
    diff_model("tinyunc", &pmis);
    printf("# tinyunc differential: %u cases, %u PMIs\n", fx_cases(N_CASES), pmis);
    CU_ASSERT(pmis > 50 * fx_cases(N_CASES) / N_CASES); /* the scenarios do reach overflow and PMI */
}

static void test_diff_nhmex(void)
{
    guint pmis = 0;
    diff_model("tinynhmex", &pmis);
    printf("# tinynhmex differential: %u cases, %u PMIs\n", fx_cases(N_CASES), pmis);
    CU_ASSERT(pmis > 50 * fx_cases(N_CASES) / N_CASES);
}

/* ---- Itanium (montecito): registers by space, fields by name ------------- */

static guint64 fset(const PmsRegister *reg, const char *name, guint64 v, guint64 x)
{
    const PmsField *f = pms_register_field(reg, name);
    return f ? pms_field_set(f, v, x) : v;
}

/* A counting PMC: random writable bits, then es/umask of one of the case's
 * events, plm mostly non-zero, oi half the time, small thresholds. */
static guint64 rand_ia64_pmc(GRand *r, const PmsRegister *reg, const guint32 *pool, guint npool)
{
    guint32 sig = pool[g_rand_int_range(r, 0, (gint32)npool)];
    guint64 v = rand64(r) & reg->writable;
    v = fset(reg, "es", v, sig >> 8);
    v = fset(reg, "umask", v, sig & 0xf);
    static const guint thr[] = { 0, 0, 0, 1, 2, 3, 5, 7 };
    v = fset(reg, "thres", v, thr[g_rand_int_range(r, 0, G_N_ELEMENTS(thr))]);
    /* ism mostly 10b (IA-64 only, what software writes), else at random;
     * pm stays random (the runs' PSR bits vary) */
    if (g_rand_int_range(r, 0, 8))
        v = fset(reg, "ism", v, 2);
    if (g_rand_int_range(r, 0, 5))
        for (guint k = 0; k < 4; k++)
            if (g_rand_boolean(r) || k == 3) {
                char nm[8];
                g_snprintf(nm, sizeof nm, "plm%u", k);
                v = fset(reg, nm, v, 1);
            }
    return v & reg->writable;
}

/* An opcode matcher's mask register (PMC32/34): the mask from a pool (all
 * ones: match everything; the major opcode 40:37 compared; every bit
 * compared; a random half), the slot enables mostly all on. */
static guint64 rand_opcm_mask(GRand *r, const PmsRegister *reg, guint64 v)
{
    static const guint64 masks[] = { 0x1ffffffffffull, 0x01fffffffffull, 0, 0x1ffffffff00ull };
    guint64 mk = g_rand_int_range(r, 0, 5) < 4 ? masks[g_rand_int_range(r, 0, G_N_ELEMENTS(masks))] : rand64(r);
    v = fset(reg, "mask", v, mk);
    static const char *const slots[] = { "m", "i", "f", "b" };
    for (guint k = 0; k < 4; k++)
        v = fset(reg, slots[k], v, g_rand_int_range(r, 0, 4) != 0);
    return v & reg->writable;
}

/* PMC41: the reset value (its reserved ones kept) with random cfg_dtagk and
 * ena_dbrpk. */
static guint64 rand_pmc41(GRand *r, const PmsRegister *reg)
{
    guint64 v = reg->reset;
    for (guint k = 0; k < 4; k++) {
        char nm[16];
        g_snprintf(nm, sizeof nm, "cfg_dtag%u", k);
        v = fset(reg, nm, v, (guint64)g_rand_int_range(r, 0, 4));
        g_snprintf(nm, sizeof nm, "ena_dbrp%u", k);
        v = fset(reg, nm, v, g_rand_boolean(r));
    }
    return v;
}

/* A DBR mask (odd register): blocks of 8 KB, 4 KB, 256 bytes, one byte, all
 * 56 bits ignored. */
static guint64 rand_dbr_mask(GRand *r)
{
    static const guint64 masks[] = { 0x00ffffffffffe000ull, 0x00fffffffffff000ull, 0x00ffffffffffff00ull,
                                     0x00ffffffffffffffull, 0 };
    return masks[g_rand_int_range(r, 0, G_N_ELEMENTS(masks))];
}

/* The monitors' configuration registers: PMC37 (I-EAR), PMC39 (ETB), PMC40
 * (D-EAR), PMC42 (IP-EAR). */
static gboolean is_monitor(const PmsRegister *reg)
{
    return reg->space == PMS_SPACE_PMC &&
        (reg->address == 37 || reg->address == 39 || reg->address == 40 || reg->address == 42);
}

/* A monitor's configuration: random writable bits, plm mostly with CPL 3
 * and 0, and most of the time a documented setting (PMC37: a cache umask of
 * the L1I_EAR_CACHE_* events or TLB mode; PMC39: ds = 0; PMC40: umask
 * 0..0xb, mode 0..2; PMC42: mode 4, delay 0..7). */
static guint64 rand_monitor(GRand *r, const PmsRegister *reg)
{
    guint64 v = rand64(r) & reg->writable;
    if (g_rand_int_range(r, 0, 5))
        v = fset(reg, "plm", v, 0x9 | (rand64(r) & 0x6));
    gboolean doc = g_rand_int_range(r, 0, 5) != 0;
    static const guint64 um[] = { 0x40, 0xff, 0xfe, 0xfc, 0xf8, 0xf0, 0xe0, 0xc0, 0x80, 0 };
    switch (reg->address) {
    case 37:
        if (doc && g_rand_boolean(r))
            v = (v & ~(guint64)0x3fe0) | 0x2000 | um[g_rand_int_range(r, 0, G_N_ELEMENTS(um))] << 5;
        else if (doc)
            v = (v & ~(guint64)0x3fe0) | (guint64)g_rand_int_range(r, 0, 8) << 5;
        break;
    case 39:
        if (doc)
            v = fset(reg, "ds", v, 0);
        break;
    case 40:
        if (doc) {
            v = fset(reg, "umask", v, (guint64)g_rand_int_range(r, 0, 12));
            v = fset(reg, "mode", v, (guint64)g_rand_int_range(r, 0, 3));
        }
        break;
    case 42:
        if (doc) {
            v = fset(reg, "mode", v, 4);
            v = fset(reg, "delay", v, (guint64)g_rand_int_range(r, 0, 8));
        }
        break;
    }
    return v & reg->writable;
}

static gboolean ia64_counter(const PmsModel *m, const PmsRegister *reg)
{
    return reg->address >= m->counter_base && reg->address < m->counter_base + m->n_gp;
}

static void diff_ia64(const char *name, guint *pmis_seen, guint *captures /* [4] */)
{
    static const char *const opt[][3] = {
        { "thres_compare", "gt", "ge" },
        { "overflow_without_oi", "wrap", "status" },
        { "pmd_read_upper", "sign_extend", "zero" },
        { "all_on_pmc8_15", "own", "both" },
        { "pmc41_dtag", "iod", "active" },
        { "mesi_zero", "none", "all" },
        { "ear_capture", "last", "first" },
        { "etb_brt", "code", "man" },
        { "ism_bits", "mask", "enable" },
        { "ev_notify", "overflow", "none" },
    };
    GRand *r = g_rand_new_with_seed(20261124);
    for (guint c = 0; c < fx_cases(N_CASES); c++) {
        PmsModel *m = fx_model_with(name, opt[0][0], opt[0][1 + g_rand_int_range(r, 0, 2)]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        for (guint o = 1; o < G_N_ELEMENTS(opt); o++)
            pms_model_set_option(m, opt[o][0], opt[o][1 + g_rand_int_range(r, 0, 2)]);
        PmsSim *a = fx_sim(m, PMS_SIM_REFERENCE), *b = fx_sim(m, PMS_SIM_FAST);
        /* the case's signals: a few of the model's events (code.umask) */
        guint32 pool[6];
        for (guint i = 0; i < G_N_ELEMENTS(pool); i++) {
            const PmsEvent *ev = &m->events[g_rand_int_range(r, 0, (gint32)m->n_events)];
            pool[i] = PMS_SIGNAL_KEY(ev->code & 0xff, ev->base_umask & 0xf);
        }
        /* an event with the MESI qualifiers (the model's mesi flag) */
        for (guint tries = 0; tries < 1000; tries++) {
            const PmsEvent *ev = &m->events[g_rand_int_range(r, 0, (gint32)m->n_events)];
            if (pms_ia64_facts(ev)->mesi) {
                pool[2] = PMS_SIGNAL_KEY(ev->code & 0xff, ev->base_umask & 0xf);
                break;
            }
        }
        /* the retired-instruction family, which code ranges tag per channel */
        pool[0] = PMS_SIGNAL_KEY(0x08, 0);
        pool[1] = PMS_SIGNAL_KEY(0x08, g_rand_int_range(r, 0, 4));
        /* a few code addresses for the IBRs and the runs' instruction addresses */
        guint64 apool[3];
        for (guint i = 0; i < G_N_ELEMENTS(apool); i++)
            apool[i] = rand64(r) & (g_rand_boolean(r) ? 0x00ffffffffff0000ull : 0xffffffffffff0000ull);
        /* a few opcodes for the matchers and the runs' instructions, a few
         * data addresses for the DBRs and the runs' data addresses */
        guint64 opool[3], dpool[3];
        for (guint i = 0; i < G_N_ELEMENTS(opool); i++) {
            opool[i] = rand64(r) & (((guint64)1 << 41) - 1);
            dpool[i] = rand64(r) & (g_rand_boolean(r) ? 0x00ffffffffffe000ull : 0xffffffffffffe000ull);
        }
        /* a start that counts: every counting PMC programmed; in half the
         * cases code ranges on (PMC32.ig_ad = 0, random PMC38 pair enables
         * and fine bit, IBR pairs from the address pool); independently, in
         * half the cases opcode matchers and data ranges on (matchers with
         * masks from a pool and random slot enables, match values from the
         * opcode pool, random PMC36 channel bits; random PMC41 tags and
         * enables, DBR pairs from the data pool) */
        gboolean ranges = g_rand_boolean(r), quals = g_rand_boolean(r);
        for (guint i = 0; i < m->n_regs; i++) {
            const PmsRegister *reg = &m->regs[i];
            guint64 v;
            if (reg->space == PMS_SPACE_PMC && ia64_counter(m, reg))
                v = rand_ia64_pmc(r, reg, pool, G_N_ELEMENTS(pool));
            else if ((ranges || quals) && reg->space == PMS_SPACE_PMC && (reg->address == 32 || reg->address == 34)) {
                v = reg->reset;
                if (ranges && reg->address == 32)
                    v = fset(reg, "inv", fset(reg, "ig_ad", v, 0), g_rand_boolean(r));
                if (quals)
                    v = rand_opcm_mask(r, reg, v);
            } else if (quals && reg->space == PMS_SPACE_PMC && (reg->address == 33 || reg->address == 35))
                v = opool[g_rand_int_range(r, 0, G_N_ELEMENTS(opool))];
            else if (quals && reg->space == PMS_SPACE_PMC && reg->address == 36)
                v = reg->reset | (guint64)g_rand_int_range(r, 0, 16);
            else if (quals && reg->space == PMS_SPACE_PMC && reg->address == 41)
                v = rand_pmc41(r, reg);
            else if (quals && reg->space == PMS_SPACE_DBR && reg->address % 2 == 0)
                v = dpool[g_rand_int_range(r, 0, G_N_ELEMENTS(dpool))] + (guint64)g_rand_int_range(r, 0, 0x2000);
            else if (quals && reg->space == PMS_SPACE_DBR)
                v = rand_dbr_mask(r);
            else if (ranges && reg->space == PMS_SPACE_PMC && reg->address == 38)
                v = reg->reset ^ (rand64(r) & 0x2492);
            else if (ranges && reg->space == PMS_SPACE_IBR && reg->address % 2 == 0)
                v = apool[g_rand_int_range(r, 0, G_N_ELEMENTS(apool))] + (guint64)g_rand_int_range(r, 0, 0x10000);
            else if (ranges && reg->space == PMS_SPACE_IBR)
                v = g_rand_boolean(r) ? 0x00fffffffffff000ull : 0x00000000ffff0000ull;
            else if (is_monitor(reg))
                v = rand_monitor(r, reg); /* the EARs, the ETB, the IP-EAR */
            else
                continue;
            CU_ASSERT_EQUAL(pms_sim_write_at(a, reg->space, reg->address, v, NULL),
                            pms_sim_write_at(b, reg->space, reg->address, v, NULL));
        }
        for (guint op = 0; op < N_OPS; op++) {
            const PmsRegister *reg = &m->regs[g_rand_int_range(r, 0, (gint32)m->n_regs)];
            guint k = (guint)g_rand_int_range(r, 0, 10);
            gboolean counter = ia64_counter(m, reg);
            if (k < 3 && reg->space == PMS_SPACE_PMD && counter) {
                guint64 mask = ((guint64)1 << reg->width) - 1;
                guint64 v = (mask + 1 - (guint64)g_rand_int_range(r, 1, 400)) & mask;
                CU_ASSERT_EQUAL(pms_sim_set_counter_at(a, reg->space, reg->address, v, NULL),
                                pms_sim_set_counter_at(b, reg->space, reg->address, v, NULL));
            } else if (k < 6) {
                guint64 v;
                if (reg->space == PMS_SPACE_PMC && counter)
                    v = rand_ia64_pmc(r, reg, pool, G_N_ELEMENTS(pool));
                else if (reg->space == PMS_SPACE_PMC && reg->address == 0)
                    /* PMC0: fr mostly cleared (resume), overflow bits at random */
                    v = fset(reg, "fr", rand64(r), g_rand_int_range(r, 0, 4) == 0);
                else if (reg->space == PMS_SPACE_IBR && reg->address % 2 == 0)
                    v = apool[g_rand_int_range(r, 0, G_N_ELEMENTS(apool))] + (guint64)g_rand_int_range(r, 0, 0x10000);
                else if (reg->space == PMS_SPACE_IBR) {
                    static const guint64 masks[] = { 0x00fffffffffff000ull, 0x00000000ffff0000ull, 0,
                                                     0x00ffffffffffffffull, 0x00ffffffffff0000ull };
                    v = masks[g_rand_int_range(r, 0, G_N_ELEMENTS(masks))] | (rand64(r) & 0x8f00000000000000ull);
                } else if (reg->space == PMS_SPACE_DBR && reg->address % 2 == 0)
                    v = dpool[g_rand_int_range(r, 0, G_N_ELEMENTS(dpool))] + (guint64)g_rand_int_range(r, 0, 0x2000);
                else if (reg->space == PMS_SPACE_DBR)
                    v = rand_dbr_mask(r) | (rand64(r) & 0xcf00000000000000ull);
                else if (reg->space == PMS_SPACE_PMC && (reg->address == 32 || reg->address == 34) && g_rand_boolean(r))
                    v = rand_opcm_mask(r, reg, rand64(r) & reg->writable);
                else if (reg->space == PMS_SPACE_PMC && (reg->address == 33 || reg->address == 35) && g_rand_boolean(r))
                    v = opool[g_rand_int_range(r, 0, G_N_ELEMENTS(opool))];
                else if (reg->space == PMS_SPACE_PMC && reg->address == 41 && g_rand_boolean(r))
                    v = rand_pmc41(r, reg);
                else if (is_monitor(reg) && g_rand_boolean(r))
                    v = rand_monitor(r, reg);
                else
                    v = rand64(r) & (g_rand_int_range(r, 0, 8) ? reg->writable : G_MAXUINT64); /* some #GP */
                gboolean wa = pms_sim_write_at(a, reg->space, reg->address, v, NULL),
                         wb = pms_sim_write_at(b, reg->space, reg->address, v, NULL);
                CU_ASSERT_EQUAL(wa, wb);
            } else {
                PmsSimCount cnt[6];
                guint n = (guint)g_rand_int_range(r, 1, 7);
                for (guint i = 0; i < n; i++)
                    cnt[i] = (PmsSimCount){ pool[g_rand_int_range(r, 0, G_N_ELEMENTS(pool))],
                                            (guint)g_rand_int_range(r, 0, 2), (guint64)g_rand_int_range(r, 0, 9), 0 };
                guint64 len = g_rand_boolean(r) ? 1 : (guint64)g_rand_int_range(r, 2, 300);
                PmsSimRun run = { len,  { (guint8)g_rand_int_range(r, 0, 4), (guint8)g_rand_int_range(r, 0, 4) },
                                  cnt,  n,
                                  NULL, 0,
                                  NULL, 0 };
                for (guint t = 0; t < 2; t++) {
                    gboolean valid = g_rand_int_range(r, 0, 4) != 0;
                    guint64 ip =
                        apool[g_rand_int_range(r, 0, G_N_ELEMENTS(apool))] + (guint64)g_rand_int_range(r, 0, 0x20000);
                    pms_sim_set_ip(a, t, valid, ip);
                    pms_sim_set_ip(b, t, valid, ip);
                    /* the instruction: a pool opcode, sometimes one bit off */
                    valid = g_rand_int_range(r, 0, 4) != 0;
                    PmsSimSlot slot = (PmsSimSlot)g_rand_int_range(r, 0, 4);
                    guint64 opc = opool[g_rand_int_range(r, 0, G_N_ELEMENTS(opool))] ^
                        (g_rand_boolean(r) ? (guint64)1 << g_rand_int_range(r, 0, 41) : 0);
                    pms_sim_set_insn(a, t, valid, slot, opc);
                    pms_sim_set_insn(b, t, valid, slot, opc);
                    valid = g_rand_int_range(r, 0, 4) != 0;
                    guint64 da =
                        dpool[g_rand_int_range(r, 0, G_N_ELEMENTS(dpool))] + (guint64)g_rand_int_range(r, 0, 0x4000);
                    pms_sim_set_daddr(a, t, valid, da);
                    pms_sim_set_daddr(b, t, valid, da);
                }
                for (guint t = 0; t < 2; t++) {
                    gboolean valid = g_rand_int_range(r, 0, 4) != 0;
                    PmsSimMesi st = (PmsSimMesi)g_rand_int_range(r, 0, 4);
                    pms_sim_set_mesi(a, t, valid, st);
                    pms_sim_set_mesi(b, t, valid, st);
                    /* PSR.up / .pp mostly both set, else any; the
                     * instruction set mostly IA-64 */
                    guint psr =
                        g_rand_int_range(r, 0, 8) ? PMS_SIM_PSR_UP | PMS_SIM_PSR_PP : (guint)g_rand_int_range(r, 0, 4);
                    PmsSimIsa isa = g_rand_int_range(r, 0, 8) ? PMS_SIM_ISA_IA64 : PMS_SIM_ISA_IA32;
                    pms_sim_set_psr(a, t, psr);
                    pms_sim_set_psr(b, t, psr);
                    pms_sim_set_isa(a, t, isa);
                    pms_sim_set_isa(b, t, isa);
                }
                /* thread 0's monitor events: a data access, a fetch miss,
                 * up to 4 branches, addresses from the pools */
                static const guint32 lats[] = { 0, 3, 4, 8, 15, 16, 100, 300, 1024, 4095, 4096, 8191, 9000 };
                PmsSimDearEvent de = { dpool[g_rand_int_range(r, 0, 3)] + (guint64)g_rand_int_range(r, 0, 0x4000),
                                       apool[g_rand_int_range(r, 0, 3)] + (guint64)g_rand_int_range(r, 0, 0x20000),
                                       (guint)g_rand_int_range(r, 0, 3),
                                       lats[g_rand_int_range(r, 0, 13)],
                                       (PmsSimTlb)g_rand_int_range(r, 0, 4),
                                       g_rand_boolean(r) };
                PmsSimIearEvent ie = { apool[g_rand_int_range(r, 0, 3)] + (guint64)g_rand_int_range(r, 0, 0x20000),
                                       lats[g_rand_int_range(r, 0, 13)], (PmsSimTlb)g_rand_int_range(r, 0, 4),
                                       g_rand_int_range(r, 0, 4) == 0 };
                gboolean dv = g_rand_boolean(r), iv = g_rand_boolean(r);
                pms_sim_set_dear(a, dv ? &de : NULL);
                pms_sim_set_dear(b, dv ? &de : NULL);
                pms_sim_set_iear(a, iv ? &ie : NULL);
                pms_sim_set_iear(b, iv ? &ie : NULL);
                PmsSimBranch br[4];
                guint nb = (guint)g_rand_int_range(r, 0, 5);
                for (guint i = 0; i < nb; i++)
                    br[i] = (PmsSimBranch){ apool[g_rand_int_range(r, 0, 3)] + (guint64)g_rand_int_range(r, 0, 0x20000),
                                            apool[g_rand_int_range(r, 0, 3)] + (guint64)g_rand_int_range(r, 0, 0x20000),
                                            (guint)g_rand_int_range(r, 0, 3),
                                            g_rand_boolean(r),
                                            g_rand_boolean(r),
                                            g_rand_boolean(r),
                                            (PmsSimBrType)g_rand_int_range(r, 0, 3) };
                pms_sim_set_branches(a, br, nb);
                pms_sim_set_branches(b, br, nb);
                CU_ASSERT_TRUE(pms_sim_run(a, &run, NULL));
                CU_ASSERT_TRUE(pms_sim_run(b, &run, NULL));
            }
            same(a, b, m, c, op);
        }
        guint np;
        pms_sim_pmis(a, &np);
        *pmis_seen += np;
        guint64 next;
        pms_sim_ext_notifications(a, &np, &next);
        captures[3] += next;
        /* cases ending with a D-EAR capture (PMD36.vl), an I-EAR capture
         * (PMD34.stat), ETB / IP-EAR entries (PMD38) */
        static const guint pmd[3] = { 36, 34, 38 };
        static const guint64 bit[3] = { 8, 3, 0x2f };
        for (guint i = 0; i < 3; i++) {
            guint64 v = 0;
            pms_sim_read_at(a, PMS_SPACE_PMD, pmd[i], &v, NULL);
            captures[i] += (v & bit[i]) != 0;
        }
        pms_sim_free(a);
        pms_sim_free(b);
        pms_model_free(m);
    }
    g_rand_free(r);
}

static void test_diff_ia64(void)
{
    guint pmis = 0, cap[4] = { 0 };
    diff_ia64("montecito", &pmis, cap);
    printf("# montecito differential: %u cases, %u PMIs; ending with a D-EAR capture %u, I-EAR %u, ETB/IP-EAR "
           "entries %u; external notifications %u\n",
           fx_cases(N_CASES), pmis, cap[0], cap[1], cap[2], cap[3]);
    guint share = fx_cases(N_CASES), all = N_CASES; /* the thresholds scale with the cases run */
    CU_ASSERT(pmis > 40 * share / all);
    CU_ASSERT(cap[0] > 50 * share / all && cap[1] > 50 * share / all && cap[2] > 50 * share / all &&
              cap[3] > 10 * share / all);
}

void register_diff_device_tests(void)
{
    CU_pSuite s = CU_add_suite("diff-devices", NULL, NULL);
    CU_add_test(s, "x86 uncore: reference and fast engines agree", test_diff_uncore);
    CU_add_test(s, "Xeon 7500 uncore: reference and fast engines agree", test_diff_nhmex);
    CU_add_test(s, "Montecito: reference and fast engines agree", test_diff_ia64);
}
