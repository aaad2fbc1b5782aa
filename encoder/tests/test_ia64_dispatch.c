/* Montecito dispatch (encoder/ia64_dispatch.c) on the built-in montecito
 * model.
 *
 * Every expected register value is derived by hand beside its assertion from
 * the layouts of registers.md (never recorded from a run):
 *   counting PMC (§3): plm 3:0, es 15:8, umask 19:16, thres 22:20, ism 25:24
 *     (always 2: 0x2000000), MESI 27-30;  PMCV() below builds it;
 *   PMC32/34 (§4): mask 40:0, b 48, f 49, i 50, m 51, inv 56, ig_ad 57;
 *     PMC32 reset 0x030f01ffffffffff, PMC34 reset 0x000f01ffffffffff;
 *   PMC33/35: match 40:0;  PMC36 (§5): reset 0xfffffff0, chN_ig_opcm bit N;
 *   PMC37 (§6): plm 3:0, pm 4, umask 12:5, ct 13 (1 cache, 0 TLB);
 *   PMC38 (§8): 0xdb6, ig_ibrpk at 1 + 3k, fine 13;
 *   PMC39 (§9): plm 3:0, pm 6, ds 7, tm 9:8, ptm 11:10, ppm 13:12, brt 15:14;
 *   PMC40 (§7): reset 0x2000000 (ism 2), plm 3:0, pm 6, mode 8:7, umask 19:16;
 *   PMC41 (§10): reset 0x2078fefefefe, cfg_dtagN at 3 + 8N (3 in every 0xfe
 *     byte), ena_dbrpN at 45 + N; iod_tab I,O,D: -:3 D:2 O:3 OD:0 I:1 ID:0 IO:1 IOD:0;
 *   PMC42 (§11): plm 3:0, pm 6, mode 10:8 (4), delay 18:11;
 *   debug pair odd register (§12): plm << 56 | ones from bit p to 55 for 2^p.
 * Event facts (code, umask, counters, group/set, qualifiers) are the model's,
 * i.e. the reference events.tsv. */
#include "cu_tap.h"
#include "encoder.h"
#include "ia64_dispatch.h"

#include <stdio.h>
#include <string.h>

#define PMCV(es, umask, plm) ((guint64)(plm) | (guint64)(es) << 8 | (guint64)(umask) << 16 | 0x2000000ull)
#define UK 0x9u /* PLM0 | PLM3 */
#define U 0x8u
#define K 0x1u

static PmsModelSet *models;
static const PmsModel *mont;

static const PmsEvent *ev(const char *name)
{
    const PmsEvent *e = pms_model_event(mont, name);
    if (!e)
        fprintf(stderr, "# no event %s\n", name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    return e;
}

typedef struct {
    PmsIa64DispatchRequest req;
    PmsIa64DispatchEvent evs[16];
} Req;

static void req_init(Req *r, guint plm)
{
    memset(r, 0, sizeof *r);
    r->req.model = mont;
    r->req.plm = plm;
    r->req.events = r->evs;
}

/* Add an event with its counting value built by hand: es = the event's
 * code, umask = its umask (0 for EAR events), plm. */
static PmsIa64DispatchEvent *add(Req *r, const char *name, guint plm)
{
    const PmsEvent *e = ev(name);
    PmsIa64DispatchEvent *d = &r->evs[r->req.n_events++];
    d->event = e;
    d->pmc = PMCV(e->code, pms_ia64_facts(e)->ear ? 0 : e->base_umask, plm);
    return d;
}

/* Invariants of every result, from the model and registers.md, not from a
 * run: each write is a whole register of the model that software may write
 * (no bit outside writable | ignored: the simulator would #GP), each
 * register is written once, the writes ascend (PMCs, IBRs, DBRs), and the
 * kernel's PMC32/38/41 check (registers.md §4) passes: not (no ena_dbrp set,
 * PMC32.ig_ad = 0 and PMC38 enabling IBRP0 or IBRP1, bits 2:1 or 5:4 equal
 * to 00 or 10). */
static void check_invariants(const PmsIa64DispatchResult *res)
{
    static const guint rank[] = { [PMS_SPACE_PMC] = 0, [PMS_SPACE_IBR] = 1, [PMS_SPACE_DBR] = 2 };
    for (guint i = 0; i < res->n_writes; i++) {
        const PmsRegWrite *w = &res->writes[i];
        CU_ASSERT_PTR_NOT_NULL_FATAL(w->reg);
        CU_ASSERT_TRUE(w->reg->space == PMS_SPACE_PMC || w->reg->space == PMS_SPACE_IBR ||
                       w->reg->space == PMS_SPACE_DBR);
        CU_ASSERT_EQUAL(w->mask, G_MAXUINT64);
        CU_ASSERT_EQUAL(w->address, w->reg->address);
        CU_ASSERT_STRING_EQUAL(w->name, w->reg->name);
        CU_ASSERT_FALSE(w->reg->readonly);
        if (w->value & ~(w->reg->writable | w->reg->ignored))
            fprintf(stderr, "# %s=0x%" G_GINT64_MODIFIER "x sets bits outside 0x%" G_GINT64_MODIFIER "x\n", w->name,
                    w->value, w->reg->writable | w->reg->ignored);
        CU_ASSERT_EQUAL(w->value & ~(w->reg->writable | w->reg->ignored), 0);
        if (i > 0) {
            const PmsRegWrite *p = &res->writes[i - 1];
            guint rp = rank[p->reg->space], rw = rank[w->reg->space];
            CU_ASSERT_TRUE(rp < rw || (rp == rw && p->address < w->address));
        }
    }
    guint64 p32, p38, p41;
    if (pms_ia64_dispatch_written(res, PMS_SPACE_PMC, 32, &p32) &&
        pms_ia64_dispatch_written(res, PMS_SPACE_PMC, 38, &p38)) {
        gboolean no_ena = !pms_ia64_dispatch_written(res, PMS_SPACE_PMC, 41, &p41) || !(p41 >> 45 & 0xf);
        gboolean ig_ad0 = !(p32 >> 57 & 1);
        guint f0 = (p38 >> 1) & 3, f1 = (p38 >> 4) & 3;
        gboolean ibrp01 = f0 == 0 || f0 == 2 || f1 == 0 || f1 == 2;
        CU_ASSERT_FALSE(no_ena && ig_ad0 && ibrp01);
    }
}

static gboolean run(Req *r, PmsIa64DispatchResult *res)
{
    g_autoptr(GError) err = NULL;
    gboolean ok = pms_ia64_dispatch(&r->req, res, &err);
    if (!ok)
        fprintf(stderr, "# dispatch failed: %s: %s\n", pms_ia64_dispatch_error_name(err->code), err->message);
    else
        check_invariants(res);
    return ok;
}

static void expect_error(Req *r, PmsIa64DispatchError code)
{
    PmsIa64DispatchResult res;
    g_autoptr(GError) err = NULL;
    gboolean ok = pms_ia64_dispatch(&r->req, &res, &err);
    if (ok || !g_error_matches(err, PMS_IA64_DISPATCH_ERROR, (gint)code))
        fprintf(stderr, "# want %s, got %s (%s)\n", pms_ia64_dispatch_error_name(code),
                ok ? "success" : pms_ia64_dispatch_error_name(err->code), ok ? "" : err->message);
    CU_ASSERT_FALSE(ok);
    CU_ASSERT_TRUE(err && g_error_matches(err, PMS_IA64_DISPATCH_ERROR, (gint)code));
}

static guint64 val(const PmsIa64DispatchResult *res, PmsRegSpace space, guint num)
{
    guint64 v = 0;
    if (!pms_ia64_dispatch_written(res, space, num, &v)) {
        fprintf(stderr, "# %s%u not written\n", pms_reg_space_name(space), num);
        CU_FAIL("register not written");
        return 0xdeadbeefull;
    }
    return v;
}

#define PMC(res, n) val((res), PMS_SPACE_PMC, (n))
#define WRITTEN(res, n) pms_ia64_dispatch_written((res), PMS_SPACE_PMC, (n), NULL)

/* Every event on a distinct counter it may use, and its value there. */
static void check_placement(const Req *r, const PmsIa64DispatchResult *res)
{
    guint used = 0;
    for (guint e = 0; e < r->req.n_events; e++) {
        guint c = res->counter[e];
        CU_ASSERT_TRUE(c >= 4 && c <= 15);
        CU_ASSERT_TRUE(r->evs[e].event->counters >> c & 1);
        CU_ASSERT_FALSE(used >> c & 1);
        used |= 1u << c;
        CU_ASSERT_EQUAL(PMC(res, c), r->evs[e].pmc);
    }
}

static void test_one_event(void)
{
    Req r;
    req_init(&r, UK);
    add(&r, "CPU_OP_CYCLES_ALL", UK);
    PmsIa64DispatchResult res;
    CU_ASSERT_FATAL(run(&r, &res));
    /* the lowest counter, PMC4 = 0x9 | 0x12 << 8 | ism 2 = 0x2001209; nothing else */
    CU_ASSERT_EQUAL(res.counter[0], 4);
    CU_ASSERT_EQUAL(res.n_writes, 1);
    CU_ASSERT_EQUAL(PMC(&res, 4), 0x2001209ull);
    CU_ASSERT_STRING_EQUAL(res.writes[0].name, "PMC4");
    CU_ASSERT_EQUAL(res.writes[0].mask, G_MAXUINT64);
    CU_ASSERT_EQUAL(res.writes[0].reg->space, PMS_SPACE_PMC);
    /* nothing else programmed: EAR method 3, ETB method 4 */
    CU_ASSERT_EQUAL(res.methods.iear, 3);
    CU_ASSERT_EQUAL(res.methods.dear, 3);
    CU_ASSERT_EQUAL(res.methods.etb, 4);
    CU_ASSERT_FALSE(res.irange_used || res.drange_used);
}

static void test_assign_restricted(void)
{
    Req r;
    req_init(&r, UK);
    add(&r, "CPU_OP_CYCLES_HALTED", UK); /* counters 0x400: PMC10 only */
    add(&r, "BUS_ALL_ANY", UK);          /* 0x3f0: PMC4-9 */
    PmsIa64DispatchResult res;
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(res.counter[0], 10);
    CU_ASSERT_TRUE(res.counter[1] >= 4 && res.counter[1] <= 9);
    check_placement(&r, &res);
    /* BUS_ALL_ANY: es 0x87, umask 3 -> 0x2038709 */
    CU_ASSERT_EQUAL(r.evs[1].pmc, 0x2038709ull);
}

/* Six any-counter events first, then a BUS event (PMC4-9 only): a first fit
 * in input order puts the six on PMC4-9 and finds no counter for BUS_ALL_ANY.
 * A placement exists (the six elsewhere); the matching finds it. */
static void test_assign_matching(void)
{
    Req r;
    req_init(&r, UK);
    for (int i = 0; i < 6; i++)
        add(&r, "CPU_OP_CYCLES_ALL", UK);
    add(&r, "BUS_ALL_ANY", UK);
    PmsIa64DispatchResult res;
    CU_ASSERT_FATAL(run(&r, &res));
    check_placement(&r, &res);
    CU_ASSERT_TRUE(res.counter[6] >= 4 && res.counter[6] <= 9);

    /* Twelve events with one placement only: six BUS events need PMC4-9,
     * CPU_OP_CYCLES_HALTED PMC10, so the five any-counter events given first
     * must take PMC11-15. */
    req_init(&r, UK);
    for (int i = 0; i < 5; i++)
        add(&r, "CPU_OP_CYCLES_ALL", UK);
    add(&r, "CPU_OP_CYCLES_HALTED", UK);
    for (int i = 0; i < 6; i++)
        add(&r, "BUS_ALL_ANY", UK);
    CU_ASSERT_FATAL(run(&r, &res));
    check_placement(&r, &res);
    for (int i = 0; i < 5; i++)
        CU_ASSERT_TRUE(res.counter[i] >= 11);
    CU_ASSERT_EQUAL(res.counter[5], 10);
    for (int i = 6; i < 12; i++)
        CU_ASSERT_TRUE(res.counter[i] <= 9);
    CU_ASSERT_EQUAL(res.n_writes, 12);

    /* seven events for PMC4-9: none */
    req_init(&r, UK);
    for (int i = 0; i < 7; i++)
        add(&r, "BUS_ALL_ANY", UK);
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_NOASSIGN);
    /* two for PMC10 */
    req_init(&r, UK);
    add(&r, "CPU_OP_CYCLES_HALTED", UK);
    add(&r, "CPU_OP_CYCLES_HALTED", UK);
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_NOASSIGN);
    /* thirteen events: more than the 12 counters */
    req_init(&r, UK);
    for (int i = 0; i < 13; i++)
        add(&r, "CPU_OP_CYCLES_ALL", UK);
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_TOOMANY);
}

static void test_groups(void)
{
    Req r;
    PmsIa64DispatchResult res;
    /* L1D: one event must be on PMC5.  Five BUS events (PMC4-9) and an L1D
     * event: the BUS events take 4, 6, 7, 8, 9 and the L1D event PMC5. */
    req_init(&r, UK);
    for (int i = 0; i < 5; i++)
        add(&r, "BUS_ALL_ANY", UK);
    add(&r, "L1D_READS_SET0", UK);
    CU_ASSERT_FATAL(run(&r, &res));
    check_placement(&r, &res);
    CU_ASSERT_EQUAL(res.counter[5], 5);
    /* L1D_READS_SET0: es 0xc2 -> 0x200c209 */
    CU_ASSERT_EQUAL(PMC(&res, 5), 0x200c209ull);
    /* Six BUS events and an L1D event: PMC5 cannot be freed. */
    add(&r, "BUS_ALL_ANY", UK);
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_NOASSIGN);
    /* Two L1D events of set 0, one first: either may take PMC5. */
    req_init(&r, UK);
    add(&r, "L1D_READS_SET0", UK);
    add(&r, "DATA_REFERENCES_SET0", UK);
    CU_ASSERT_FATAL(run(&r, &res));
    check_placement(&r, &res);
    CU_ASSERT_TRUE(res.counter[0] == 5 || res.counter[1] == 5);
    /* L1D sets 0 and 1 together: EVTSET */
    add(&r, "L1D_READ_MISSES_ALL", UK);
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_EVTSET);
    /* L2D set 0 (L2D_OZQ_CANCELS1_ANY) and set 1 (L2D_BYPASS_L2_DATA1): EVTSET */
    req_init(&r, UK);
    add(&r, "L2D_OZQ_CANCELS1_ANY", UK);
    add(&r, "L2D_BYPASS_L2_DATA1", UK);
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_EVTSET);
    /* L2D set 8 and set 0 are different sets (libpfm's decoder folds them) */
    req_init(&r, UK);
    add(&r, "L2D_OZQ_CANCELS1_ANY", UK);
    add(&r, "L2D_FILL_MESI_STATE_E", UK);
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_EVTSET);
    /* L2D one set: fine; L1D and L2D events together: fine */
    req_init(&r, UK);
    add(&r, "L2D_BYPASS_L2_DATA1", UK);
    add(&r, "L2D_BYPASS_L2_DATA2", UK);
    add(&r, "L1D_READS_SET0", UK);
    CU_ASSERT_FATAL(run(&r, &res));
    check_placement(&r, &res);
    CU_ASSERT_EQUAL(res.counter[2], 5);
    /* one L2D_OZQ_CANCELS0/1 event per measurement */
    req_init(&r, UK);
    add(&r, "L2D_OZQ_CANCELS1_ANY", UK);
    add(&r, "L2D_OZQ_CANCELS0_ACQ", UK);
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_INVAL);
}

static void test_qualifiers(void)
{
    Req r;
    PmsIa64DispatchResult res;
    /* FE_BUBBLE_ALL has no qualifier: a code range is refused ... */
    req_init(&r, U);
    PmsIa64DispatchEvent *d = add(&r, "FE_BUBBLE_ALL", U);
    r.req.irange.used = TRUE;
    r.req.irange.n_ranges = 1;
    r.req.irange.ranges[0] = (PmsIa64Range){ 0x4000, 0x8000, 0 };
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_FEATCOMB);
    /* ... unless the no-qualifier-check flag is set */
    d->flags = PMS_IA64_EVT_NO_QUALCHECK;
    CU_ASSERT_TRUE(run(&r, &res));
    /* data range: CPU_OP_CYCLES_ALL lacks darr */
    req_init(&r, U);
    d = add(&r, "CPU_OP_CYCLES_ALL", U);
    r.req.drange.used = TRUE;
    r.req.drange.n_ranges = 1;
    r.req.drange.ranges[0] = (PmsIa64Range){ 0x1000, 0x2000, 0 };
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_FEATCOMB);
    d->flags = PMS_IA64_EVT_NO_QUALCHECK;
    CU_ASSERT_TRUE(run(&r, &res));
    /* opcode matching: CPU_OP_CYCLES_ALL lacks opcm (either matcher) */
    req_init(&r, UK);
    d = add(&r, "CPU_OP_CYCLES_ALL", UK);
    r.req.opcm2.used = TRUE;
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_FEATCOMB);
    d->flags = PMS_IA64_EVT_NO_QUALCHECK;
    CU_ASSERT_TRUE(run(&r, &res));
    /* with a range every event counts at the default plm: 0x9 vs 0x8 */
    req_init(&r, U);
    add(&r, "IA64_INST_RETIRED_THIS", UK);
    r.req.irange.used = TRUE;
    r.req.irange.n_ranges = 1;
    r.req.irange.ranges[0] = (PmsIa64Range){ 0x4000, 0x8000, 0 };
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_FEATCOMB);
    /* the order: a counter error (EVTSET) comes before a range error (IRRALIGN) */
    req_init(&r, U);
    add(&r, "L1D_READS_SET0", U);
    add(&r, "L1D_READ_MISSES_ALL", U);
    r.req.irange.used = TRUE;
    r.req.irange.n_ranges = 1;
    r.req.irange.ranges[0] = (PmsIa64Range){ 0x4001, 0x8000, 0 };
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_EVTSET);
    r.req.n_events = 1;
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_IRRALIGN);
}

static void test_inval(void)
{
    Req r;
    req_init(&r, 0); /* no default plm */
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_INVAL);
    req_init(&r, 0x10);
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_INVAL);
    /* the counting value selects another event */
    req_init(&r, UK);
    PmsIa64DispatchEvent *d = add(&r, "CPU_OP_CYCLES_ALL", UK);
    d->pmc = PMCV(0x13, 0, UK);
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_INVAL);
    /* ... or another umask: BUS_ALL_ANY has umask 3 */
    req_init(&r, UK);
    d = add(&r, "BUS_ALL_ANY", UK);
    d->pmc = PMCV(0x87, 0x2, UK);
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_INVAL);
    /* an EAR event's counter has umask 0 (DATA_EAR_TLB_ALL's 0xe goes to PMC40) */
    req_init(&r, UK);
    d = add(&r, "DATA_EAR_TLB_ALL", UK);
    d->pmc = PMCV(0xc8, 0xe, UK);
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_INVAL);
    /* threshold: IA64_INST_RETIRED_THIS max_inc 6 -> 5 fits (thres field 22:20) */
    req_init(&r, UK);
    d = add(&r, "IA64_INST_RETIRED_THIS", UK);
    d->thres = 5;
    PmsIa64DispatchResult res;
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 4), PMCV(0x08, 0, UK) | 5ull << 20);
    d->thres = 6; /* not below max_inc */
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_INVAL);
    d->thres = 0; /* the value's own threshold is checked too */
    d->pmc = PMCV(0x08, 0, UK) | 6ull << 20;
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_INVAL);
    d->pmc = PMCV(0x08, 0, UK) | 2ull << 20; /* the value's 2 and the parameter's 3 disagree */
    d->thres = 3;
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_INVAL);
    d->thres = 2; /* agree */
    CU_ASSERT_TRUE(run(&r, &res));
    /* opcode matcher values have 41 bits */
    req_init(&r, UK);
    r.req.opcm1.used = TRUE;
    r.req.opcm1.match = 1ull << 41;
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_INVAL);
    /* an EAR configuration without a mode */
    req_init(&r, UK);
    r.req.dear.used = TRUE;
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_INVAL);
    /* I-EAR has no ALAT mode */
    req_init(&r, UK);
    r.req.iear.used = TRUE;
    r.req.iear.mode = PMS_IA64_EAR_MODE_ALAT;
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_INVAL);
    /* I-EAR TLB mode: 7-bit umask */
    r.req.iear.mode = PMS_IA64_EAR_MODE_TLB;
    r.req.iear.umask = 0x80;
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_INVAL);
    /* D-EAR umask: 4 bits */
    req_init(&r, UK);
    r.req.dear.used = TRUE;
    r.req.dear.mode = PMS_IA64_EAR_MODE_CACHE;
    r.req.dear.umask = 0x10;
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_INVAL);
    /* ETB: ds = 1 reserved; fields 0..3 */
    req_init(&r, UK);
    r.req.etb.used = TRUE;
    r.req.etb.ds = 1;
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_INVAL);
    r.req.etb.ds = 0;
    r.req.etb.brt = 4;
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_INVAL);
    /* IP-EAR delay: 8 bits */
    req_init(&r, UK);
    r.req.ipear.used = TRUE;
    r.req.ipear.delay = 256;
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_INVAL);
    /* not an ia64 model */
    req_init(&r, UK);
    r.req.model = pms_model_set_get(models, "wsm");
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_INVAL);
}

static void test_iear(void)
{
    Req r;
    PmsIa64DispatchResult res;
    /* method 1, cache: L1I_EAR_CACHE_LAT4 (umask 0xff).  Counter: es 0x43,
     * umask 0 -> 0x2004309.  PMC37 = plm 9 | 0xff << 5 (0x1fe0) | ct 1 << 13
     * (0x2000) = 0x3fe9 */
    req_init(&r, UK);
    add(&r, "L1I_EAR_CACHE_LAT4", UK);
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(r.evs[0].pmc, 0x2004309ull);
    CU_ASSERT_EQUAL(PMC(&res, 37), 0x3fe9ull);
    CU_ASSERT_EQUAL(res.methods.iear, 1);
    CU_ASSERT_FALSE(WRITTEN(&res, 40));
    /* method 1, TLB: L1I_EAR_TLB_ALL (umask 7): 0x9 | 7 << 5 (0xe0), ct 0 = 0xe9 */
    req_init(&r, UK);
    add(&r, "L1I_EAR_TLB_ALL", UK);
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 37), 0xe9ull);
    /* method 1 takes the default plm, not the event's (issue 20 item 18;
     * libpfm_montecito(3): privilege is a detail of the parameters, plm 0 =
     * the default): default 8, the event counting at plm 1 -> PMC37 =
     * 0x8 | 0xe0 = 0xe8 (the event's plm would give 0xe1) */
    req_init(&r, U);
    add(&r, "L1I_EAR_TLB_ALL", K);
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 4), 0x2004301ull);
    CU_ASSERT_EQUAL(PMC(&res, 37), 0xe8ull);
    CU_ASSERT_EQUAL(res.methods.iear, 1);
    req_init(&r, UK);
    add(&r, "L1I_EAR_TLB_ALL", UK);
    /* method 2: the event and the parameters (cache, umask 3, plm 8):
     * 0x8 | 3 << 5 (0x60) | 0x2000 = 0x2068 */
    r.req.iear = (PmsIa64EarCfg){ TRUE, PMS_IA64_EAR_MODE_CACHE, U, 0x3 };
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 37), 0x2068ull);
    CU_ASSERT_EQUAL(res.methods.iear, 2);
    /* method 4: no event, TLB umask 4, plm 0 -> default 8, system-wide (pm 4):
     * 0x8 | 0x10 | 4 << 5 (0x80) = 0x98 */
    req_init(&r, U);
    r.req.system_wide = TRUE;
    r.req.iear = (PmsIa64EarCfg){ TRUE, PMS_IA64_EAR_MODE_TLB, 0, 0x4 };
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 37), 0x98ull);
    CU_ASSERT_EQUAL(res.methods.iear, 4);
    CU_ASSERT_EQUAL(res.n_writes, 1);
    /* method 3: none */
    req_init(&r, U);
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(res.n_writes, 0);
    CU_ASSERT_EQUAL(res.methods.iear, 3);
    /* two I-EAR events wanting different configurations */
    req_init(&r, UK);
    add(&r, "L1I_EAR_TLB_ALL", UK);
    add(&r, "L1I_EAR_CACHE_LAT4", UK);
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_EVTINCOMP);
    /* ... unless the parameters decide (method 2) */
    r.req.iear = (PmsIa64EarCfg){ TRUE, PMS_IA64_EAR_MODE_CACHE, 0, 0xff };
    CU_ASSERT_TRUE(run(&r, &res));
}

static void test_dear(void)
{
    Req r;
    PmsIa64DispatchResult res;
    /* method 1, cache: DATA_EAR_CACHE_LAT1024 (umask 8).  Counter es 0xc8
     * umask 0 = 0x200c809.  PMC40 = ism 2 (0x2000000) | plm 9 | mode 0 |
     * 8 << 16 = 0x2080009.  No PMC39 (cache mode goes with the ETB). */
    req_init(&r, UK);
    add(&r, "DATA_EAR_CACHE_LAT1024", UK);
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, res.counter[0]), 0x200c809ull);
    CU_ASSERT_EQUAL(PMC(&res, 40), 0x2080009ull);
    CU_ASSERT_EQUAL(res.methods.dear, 1);
    CU_ASSERT_FALSE(WRITTEN(&res, 39));
    /* method 1, TLB: DATA_EAR_TLB_ALL (umask 0xe): mode 1 << 7 (0x80):
     * 0x2000000 | 0x9 | 0x80 | 0xe0000 = 0x20e0089; PMC39 = 0 written */
    req_init(&r, UK);
    add(&r, "DATA_EAR_TLB_ALL", UK);
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 40), 0x20e0089ull);
    CU_ASSERT_EQUAL(PMC(&res, 39), 0);
    /* method 1 at the default plm 1, the event counting at plm 8:
     * 0x2000000 | 0x1 | 0x80 | 0xe0000 = 0x20e0081 */
    req_init(&r, K);
    add(&r, "DATA_EAR_TLB_ALL", U);
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 40), 0x20e0081ull);
    CU_ASSERT_EQUAL(res.methods.dear, 1);
    /* ALAT: DATA_EAR_ALAT (umask 0): mode 2 << 7 (0x100): 0x2000109 */
    req_init(&r, UK);
    add(&r, "DATA_EAR_ALAT", UK);
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 40), 0x2000109ull);
    CU_ASSERT_EQUAL(PMC(&res, 39), 0);
    /* method 2: event + parameters (cache, umask 4, plm 1): 0x2000000 | 1 | 0x40000 */
    r.req.dear = (PmsIa64EarCfg){ TRUE, PMS_IA64_EAR_MODE_CACHE, 1, 0x4 };
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 40), 0x2040001ull);
    CU_ASSERT_EQUAL(res.methods.dear, 2);
    CU_ASSERT_FALSE(WRITTEN(&res, 39));
    /* method 4: TLB, umask 2, default plm 8, pm (bit 6): 0x2000000 | 8 | 0x40 | 0x80 | 0x20000 */
    req_init(&r, U);
    r.req.system_wide = TRUE;
    r.req.dear = (PmsIa64EarCfg){ TRUE, PMS_IA64_EAR_MODE_TLB, 0, 0x2 };
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 40), 0x20200c8ull);
    CU_ASSERT_EQUAL(res.methods.dear, 4);
    CU_ASSERT_EQUAL(PMC(&res, 39), 0);
    /* two D-EAR events with different umasks */
    req_init(&r, UK);
    add(&r, "DATA_EAR_CACHE_LAT1024", UK);
    add(&r, "DATA_EAR_CACHE_LAT4", UK);
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_EVTINCOMP);
    /* D-EAR TLB and the ETB */
    req_init(&r, UK);
    add(&r, "DATA_EAR_TLB_ALL", UK);
    add(&r, "ETB_EVENT", UK);
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_EVTINCOMP);
    req_init(&r, UK);
    r.req.dear = (PmsIa64EarCfg){ TRUE, PMS_IA64_EAR_MODE_ALAT, 0, 0 };
    r.req.etb = (PmsIa64EtbCfg){ .used = TRUE, .tm = 3, .ptm = 3, .ppm = 3 };
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_EVTINCOMP);
    /* D-EAR cache and the ETB together: fine */
    req_init(&r, UK);
    add(&r, "DATA_EAR_CACHE_LAT1024", UK);
    add(&r, "ETB_EVENT", UK);
    CU_ASSERT_TRUE(run(&r, &res));
}

static void test_etb(void)
{
    Req r;
    PmsIa64DispatchResult res;
    /* method 1: ETB_EVENT (es 0x11 -> 0x2001109) alone: every branch,
     * tm = ptm = ppm = 3, brt = 0, the default plm:
     * 0x9 | 3 << 8 | 3 << 10 | 3 << 12 = 0x3f09 */
    req_init(&r, UK);
    add(&r, "ETB_EVENT", UK);
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 4), 0x2001109ull);
    CU_ASSERT_EQUAL(PMC(&res, 39), 0x3f09ull);
    CU_ASSERT_EQUAL(res.methods.etb, 1);
    /* method 1 takes the default plm (8), not the event's (0xa):
     * 0x8 | 0x3f00 = 0x3f08 */
    req_init(&r, U);
    add(&r, "ETB_EVENT", 0xa);
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 4), 0x200110aull);
    CU_ASSERT_EQUAL(PMC(&res, 39), 0x3f08ull);
    /* BRANCH_EVENT is the same event (alias) */
    req_init(&r, UK);
    add(&r, "BRANCH_EVENT", UK);
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 39), 0x3f09ull);
    /* method 2: tm 2, ptm 1, ppm 3, brt 1, plm 8:
     * 0x8 | 0x200 | 0x400 | 0x3000 | 0x4000 = 0x7608 */
    req_init(&r, UK);
    add(&r, "ETB_EVENT", UK);
    r.req.etb = (PmsIa64EtbCfg){ .used = TRUE, .plm = U, .tm = 2, .ptm = 1, .ppm = 3, .brt = 1 };
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 39), 0x7608ull);
    CU_ASSERT_EQUAL(res.methods.etb, 2);
    /* method 3: free running, tm 1, ptm 2, ppm 1, brt 2, plm 0 -> default 9,
     * pm: 0x9 | 0x40 | 0x100 | 0x800 | 0x1000 | 0x8000 = 0x9949 */
    req_init(&r, UK);
    r.req.system_wide = TRUE;
    r.req.etb = (PmsIa64EtbCfg){ .used = TRUE, .tm = 1, .ptm = 2, .ppm = 1, .brt = 2 };
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 39), 0x9949ull);
    CU_ASSERT_EQUAL(res.methods.etb, 3);
    /* method 4: nothing */
    req_init(&r, UK);
    add(&r, "CPU_OP_CYCLES_ALL", UK);
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_FALSE(WRITTEN(&res, 39));
    CU_ASSERT_EQUAL(res.methods.etb, 4);
}

static void test_ipear(void)
{
    Req r;
    PmsIa64DispatchResult res;
    /* delay 0x20, plm 0 -> default 8: 0x8 | mode 4 << 8 (0x400) | 0x20 << 11 (0x10000) */
    req_init(&r, U);
    r.req.ipear = (PmsIa64IpearCfg){ TRUE, 0, 0x20 };
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 42), 0x10408ull);
    CU_ASSERT_EQUAL(res.n_writes, 1);
    /* plm 1, delay 255, pm: 0x1 | 0x40 | 0x400 | 0xff << 11 (0x7f800) = 0x7fc41 */
    r.req.system_wide = TRUE;
    r.req.ipear = (PmsIa64IpearCfg){ TRUE, 1, 255 };
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 42), 0x7fc41ull);
    /* not with the ETB: parameters or the event */
    req_init(&r, U);
    r.req.ipear = (PmsIa64IpearCfg){ TRUE, 0, 1 };
    r.req.etb = (PmsIa64EtbCfg){ .used = TRUE, .tm = 3 };
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_FEATCOMB);
    r.req.etb.used = FALSE;
    add(&r, "ETB_EVENT", U);
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_FEATCOMB);
}

static void test_opcm(void)
{
    Req r;
    PmsIa64DispatchResult res;
    /* matcher 1, M slot only, mask 0xff, match 0x100000abc, no code range:
     * PMC32 = mask 0xff | m (bit 51: 0x8000000000000) | ig_ad (bit 57:
     * 0x200000000000000), inv 0, b = f = i = 0 -> 0x02080000000000ff;
     * PMC33 = 0x100000abc; PMC36 = 0xfffffff0 (every channel follows its matcher) */
    req_init(&r, UK);
    add(&r, "IA64_INST_RETIRED_THIS", UK);
    r.req.opcm1 = (PmsIa64OpcmCfg){ .used = TRUE, .m = TRUE, .match = 0x100000abcull, .mask = 0xff };
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 32), 0x02080000000000ffull);
    CU_ASSERT_EQUAL(PMC(&res, 33), 0x100000abcull);
    CU_ASSERT_EQUAL(PMC(&res, 36), 0xfffffff0ull);
    CU_ASSERT_FALSE(WRITTEN(&res, 34) || WRITTEN(&res, 35) || WRITTEN(&res, 41));
    /* the other slots, one at a time: i bit 50, f bit 49, b bit 48 */
    static const struct {
        gboolean m, i, f, b;
        guint64 bits;
    } slots[] = {
        { FALSE, TRUE, FALSE, FALSE, 0x4000000000000ull },
        { FALSE, FALSE, TRUE, FALSE, 0x2000000000000ull },
        { FALSE, FALSE, FALSE, TRUE, 0x1000000000000ull },
        { TRUE, TRUE, TRUE, TRUE, 0xf000000000000ull },
    };
    for (gsize k = 0; k < G_N_ELEMENTS(slots); k++) {
        r.req.opcm1 = (PmsIa64OpcmCfg){ TRUE, slots[k].m, slots[k].i, slots[k].f, slots[k].b, 0x5, 0x1ffffffff00ull };
        CU_ASSERT_FATAL(run(&r, &res));
        CU_ASSERT_EQUAL(PMC(&res, 32), 0x0200000000000000ull | slots[k].bits | 0x1ffffffff00ull);
        CU_ASSERT_EQUAL(PMC(&res, 33), 0x5);
        /* matcher 2: PMC34 = mask | slots (no inv / ig_ad), PMC35 = match */
        r.req.opcm1.used = FALSE;
        r.req.opcm2 = (PmsIa64OpcmCfg){ TRUE, slots[k].m, slots[k].i, slots[k].f, slots[k].b, 0x1234, 0x3 };
        CU_ASSERT_FATAL(run(&r, &res));
        CU_ASSERT_EQUAL(PMC(&res, 34), slots[k].bits | 0x3);
        CU_ASSERT_EQUAL(PMC(&res, 35), 0x1234);
        CU_ASSERT_EQUAL(PMC(&res, 36), 0xfffffff0ull);
        CU_ASSERT_FALSE(WRITTEN(&res, 32) || WRITTEN(&res, 33));
        r.req.opcm2.used = FALSE;
    }
}

/* The range facts come from the model's events (case-insensitive names, as
 * every lookup): the retired family by code 0x08 with its pair, iarr/darr
 * from the qualifiers. */
static void test_range_event_of(void)
{
    const char *names[] = { "ia64_tagged_inst_retired_ibrp3_pmc34_35", "IA64_INST_RETIRED", "FE_BUBBLE_ALL",
                            "NOPS_RETIRED", "DATA_REFERENCES_SET0" };
    PmsIa64RangeEvent e[G_N_ELEMENTS(names)];
    for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
        const PmsEvent *ev = pms_model_event(mont, names[i]);
        CU_ASSERT_FATAL(ev != NULL);
        e[i] = pms_ia64_range_event_of(ev);
    }
    CU_ASSERT_TRUE(e[0].retired && e[0].retired_ibrp == 3 && e[0].iarr);
    CU_ASSERT_TRUE(e[1].retired && e[1].retired_ibrp == 0);
    CU_ASSERT_FALSE(e[2].iarr || e[2].darr || e[2].retired);
    CU_ASSERT_TRUE(e[3].iarr && !e[3].darr && !e[3].retired);
    CU_ASSERT_TRUE(e[4].darr && !e[4].retired);
    CU_ASSERT_PTR_NULL(pms_model_event(mont, "NO_SUCH_EVENT"));
}

/* The range module's own result for the same request (for cross-checks). */
static void range_alone(PmsIa64RangeSide side, guint plm, guint flags, guint64 s, guint64 e, const char *event,
                        PmsIa64RangeResult *res)
{
    const PmsEvent *ev = pms_model_event(mont, event);
    CU_ASSERT_FATAL(ev != NULL);
    PmsIa64RangeEvent rev = pms_ia64_range_event_of(ev);
    PmsIa64RangeRequest rq = { .side = side, .flags = flags, .plm = plm, .n_ranges = 1, .n_events = 1, .events = &rev };
    rq.ranges[0] = (PmsIa64Range){ s, e, 0 };
    CU_ASSERT_FATAL(pms_ia64_range_compute(&rq, res, NULL));
}

static void test_ranges(void)
{
    Req r;
    PmsIa64DispatchResult res;
    PmsIa64RangeResult alone;
    /* Code range [0x4000a0, 0x400200) in one 64 KB page: fine mode.  lower =
     * 0x4000a0 (already a multiple of 32), upper = 0x400200 - 16 = 0x4001f0 (an
     * odd bundle); both pairs' odd register = 8 << 56 | bits 55:16
     * = 0x08ffffffffff0000; pairs 0 (lower) and 2 (upper).  PMC38 = 0xdb6
     * without ig_ibrp0 (bit 1) and ig_ibrp2 (bit 7), with fine (bit 13) =
     * 0x2d34.  PMC41: channel 0 tagged I (lower pair 0): cfg_dtag0 = 1 ->
     * byte 0 0xee, ena_dbrp0 = 1 (already) -> 0x2078fefefeee.  PMC32 =
     * 0x000f01ffffffffff (ig_ad 0: the range is honoured). */
    req_init(&r, U);
    add(&r, "IA64_INST_RETIRED_THIS", U);
    r.req.irange.used = TRUE;
    r.req.irange.n_ranges = 1;
    r.req.irange.ranges[0] = (PmsIa64Range){ 0x4000a0, 0x400200, 0 };
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(val(&res, PMS_SPACE_IBR, 0), 0x4000a0ull);
    CU_ASSERT_EQUAL(val(&res, PMS_SPACE_IBR, 1), 0x08ffffffffff0000ull);
    CU_ASSERT_EQUAL(val(&res, PMS_SPACE_IBR, 4), 0x4001f0ull);
    CU_ASSERT_EQUAL(val(&res, PMS_SPACE_IBR, 5), 0x08ffffffffff0000ull);
    CU_ASSERT_EQUAL(PMC(&res, 38), 0x2d34ull);
    CU_ASSERT_EQUAL(PMC(&res, 41), 0x2078fefefeeeull);
    CU_ASSERT_EQUAL(PMC(&res, 32), 0x000f01ffffffffffull);
    CU_ASSERT_FALSE(WRITTEN(&res, 33));
    CU_ASSERT_TRUE(res.irange_used && res.irange.fine);
    CU_ASSERT_EQUAL(res.irange.soff[0], 0);
    CU_ASSERT_EQUAL(res.irange.eoff[0], 0);
    /* the same as the range module alone */
    range_alone(PMS_IA64_RANGE_CODE, U, 0, 0x4000a0, 0x400200, "IA64_INST_RETIRED_THIS", &alone);
    CU_ASSERT_EQUAL(PMC(&res, 41), alone.pmc41);
    CU_ASSERT_EQUAL(PMC(&res, 38), alone.pmc38);
    CU_ASSERT_EQUAL(PMC(&res, 32), alone.pmc32);
    /* writes ascending: PMC4, PMC32, PMC38, PMC41, IBR0, IBR1, IBR4, IBR5 */
    static const char *const order[] = { "PMC4", "PMC32", "PMC38", "PMC41", "IBR0", "IBR1", "IBR4", "IBR5" };
    CU_ASSERT_EQUAL_FATAL(res.n_writes, G_N_ELEMENTS(order));
    for (gsize i = 0; i < G_N_ELEMENTS(order); i++)
        CU_ASSERT_STRING_EQUAL(res.writes[i].name, order[i]);
    /* inverted: PMC32.inv (bit 56) -> 0x010f01ffffffffff */
    r.req.irange.flags = PMS_IA64_RANGE_INV;
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 32), 0x010f01ffffffffffull);

    /* Data range [0x1000, 0x2000): one 4 KB block on DBR pair 0: DBR0 =
     * 0x1000, DBR1 = 8 << 56 | bits 55:12 = 0x08fffffffffff000.  PMC41:
     * channel 0 D: cfg_dtag0 = 2 -> byte 0 0xf6 -> 0x2078fefefef6.  No
     * PMC32/PMC38. */
    req_init(&r, U);
    add(&r, "L1D_READS_SET0", U);
    r.req.drange.used = TRUE;
    r.req.drange.n_ranges = 1;
    r.req.drange.ranges[0] = (PmsIa64Range){ 0x1000, 0x2000, 0 };
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(val(&res, PMS_SPACE_DBR, 0), 0x1000ull);
    CU_ASSERT_EQUAL(val(&res, PMS_SPACE_DBR, 1), 0x08fffffffffff000ull);
    CU_ASSERT_EQUAL(PMC(&res, 41), 0x2078fefefef6ull);
    CU_ASSERT_FALSE(WRITTEN(&res, 32) || WRITTEN(&res, 38));
    range_alone(PMS_IA64_RANGE_DATA, U, 0, 0x1000, 0x2000, "L1D_READS_SET0", &alone);
    CU_ASSERT_EQUAL(PMC(&res, 41), alone.pmc41);
    /* with opcode matcher 1 (channels 0 and 2): channel 0 is D+O -> cfg_dtag0
     * = 0 -> byte 0 0xe6 -> 0x2078fefefee6 */
    r.req.opcm1 = (PmsIa64OpcmCfg){ .used = TRUE, .m = TRUE, .i = TRUE, .match = 0, .mask = 0x1ffffffffffull };
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 41), 0x2078fefefee6ull);
    /* ... PMC32 without a code range: ig_ad 1, slots m, i (bits 51, 50) */
    CU_ASSERT_EQUAL(PMC(&res, 32), 0x020c01ffffffffffull);
    /* with opcode matcher 2 instead (channels 1 and 3): channel 0 stays D = 2 */
    r.req.opcm1.used = FALSE;
    r.req.opcm2 = (PmsIa64OpcmCfg){ .used = TRUE, .b = TRUE, .mask = 0x1ffffffffffull };
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 41), 0x2078fefefef6ull);

    /* Code (fine, pair 0) + data (pair 0) + matcher 1: channel 0 is I+O+D ->
     * cfg_dtag0 = 0 -> 0x2078fefefee6; PMC32 = matcher 1 with ig_ad = 0:
     * mask 0x1f | slots m (bit 51) = 0x000800000000001f */
    req_init(&r, U);
    add(&r, "L1D_READS_SET0", U);
    r.req.irange.used = TRUE;
    r.req.irange.n_ranges = 1;
    r.req.irange.ranges[0] = (PmsIa64Range){ 0x4000a0, 0x400200, 0 };
    r.req.drange.used = TRUE;
    r.req.drange.n_ranges = 1;
    r.req.drange.ranges[0] = (PmsIa64Range){ 0x1000, 0x2000, 0 };
    r.req.opcm1 = (PmsIa64OpcmCfg){ .used = TRUE, .m = TRUE, .match = 0x7, .mask = 0x1f };
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 41), 0x2078fefefee6ull);
    CU_ASSERT_EQUAL(PMC(&res, 32), 0x000800000000001full);
    CU_ASSERT_EQUAL(PMC(&res, 33), 0x7);
    CU_ASSERT_EQUAL(val(&res, PMS_SPACE_IBR, 0), 0x4000a0ull);
    CU_ASSERT_EQUAL(val(&res, PMS_SPACE_DBR, 0), 0x1000ull);
    CU_ASSERT_TRUE(res.irange_used && res.drange_used);

    /* Coarse code [0x4000, 0x8000) (no fine): one 16 KB block on IBR pair 0:
     * IBR1 = 8 << 56 | bits 55:14 = 0x08ffffffffffc000; PMC38 = 0xdb6 without
     * bit 1 = 0xdb4; PMC41 channel 0 I -> 0x2078fefefeee */
    req_init(&r, U);
    add(&r, "IA64_INST_RETIRED_THIS", U);
    r.req.irange = (PmsIa64DispatchRange){ .used = TRUE, .flags = PMS_IA64_RANGE_NO_FINE, .n_ranges = 1 };
    r.req.irange.ranges[0] = (PmsIa64Range){ 0x4000, 0x8000, 0 };
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(val(&res, PMS_SPACE_IBR, 0), 0x4000ull);
    CU_ASSERT_EQUAL(val(&res, PMS_SPACE_IBR, 1), 0x08ffffffffffc000ull);
    CU_ASSERT_EQUAL(PMC(&res, 38), 0xdb4ull);
    CU_ASSERT_EQUAL(PMC(&res, 41), 0x2078fefefeeeull);
    CU_ASSERT_FALSE(res.irange.fine);

    /* Coarse, retired events only, with the four tagged events (umask k =
     * IBR pair k): [0x1010, 0x1070) (no fine).  last 0x106f, x = 0x7f, k = 6,
     * c = 0x1040; L = R = 0x30 = 32 + 16, so four pairs cover it exactly,
     * ascending: 0x1010 (16 B), 0x1020 (32 B), 0x1040 (32 B), 0x1060 (16 B).
     * Odd: 16 B -> 8 << 56 | bits 55:4 = 0x08fffffffffffff0, 32 B ->
     * 0x08ffffffffffffe0.  PMC38 = 0xdb6 without bits 1, 4, 7, 10 = 0x924.
     * PMC41: four channels I -> cfg_dtag 1 (bytes 0xee), ena_dbrp0-3 ->
     * 0x1e078eeeeeeee (registers.md §10's example). */
    req_init(&r, U);
    add(&r, "IA64_TAGGED_INST_RETIRED_IBRP0_PMC32_33", U);
    add(&r, "IA64_TAGGED_INST_RETIRED_IBRP1_PMC34_35", U);
    add(&r, "IA64_TAGGED_INST_RETIRED_IBRP2_PMC32_33", U);
    add(&r, "IA64_TAGGED_INST_RETIRED_IBRP3_PMC34_35", U);
    r.req.irange = (PmsIa64DispatchRange){ .used = TRUE, .flags = PMS_IA64_RANGE_NO_FINE, .n_ranges = 1 };
    r.req.irange.ranges[0] = (PmsIa64Range){ 0x1010, 0x1070, 0 };
    CU_ASSERT_FATAL(run(&r, &res));
    static const guint64 want_ibr[8] = { 0x1010, 0x08fffffffffffff0ull, 0x1020, 0x08ffffffffffffe0ull,
                                         0x1040, 0x08ffffffffffffe0ull, 0x1060, 0x08fffffffffffff0ull };
    for (guint i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(val(&res, PMS_SPACE_IBR, i), want_ibr[i]);
    CU_ASSERT_EQUAL(PMC(&res, 38), 0x924ull);
    CU_ASSERT_EQUAL(PMC(&res, 41), 0x1e078eeeeeeeeull);
    CU_ASSERT_EQUAL(PMC(&res, 32), 0x000f01ffffffffffull);
    CU_ASSERT_EQUAL(res.irange.soff[0], 0);
    CU_ASSERT_EQUAL(res.irange.eoff[0], 0);
    /* the tagged events count umask k on the counter: PMC4..7 = 0x2000808 | k << 16 */
    for (guint k = 0; k < 4; k++)
        CU_ASSERT_EQUAL(PMC(&res, res.counter[k]), 0x2000808ull | (guint64)k << 16);
    /* with matcher 2 (channels 1 and 3): I+O is still 1, nothing changes in PMC41 */
    r.req.opcm2 =
        (PmsIa64OpcmCfg){ .used = TRUE, .m = TRUE, .i = TRUE, .f = TRUE, .b = TRUE, .mask = 0x1ffffffffffull };
    CU_ASSERT_FATAL(run(&r, &res));
    CU_ASSERT_EQUAL(PMC(&res, 41), 0x1e078eeeeeeeeull);
    /* PMC34 = mask all ones, all slots = 0xf01ffffffffff (the reset value) */
    CU_ASSERT_EQUAL(PMC(&res, 34), 0xf01ffffffffffull);

    /* range errors keep their names */
    req_init(&r, U);
    add(&r, "IA64_INST_RETIRED_THIS", U);
    r.req.irange = (PmsIa64DispatchRange){ .used = TRUE, .flags = PMS_IA64_RANGE_NO_FINE, .n_ranges = 1 };
    r.req.irange.ranges[0] = (PmsIa64Range){ 0x4008, 0x8000, 0 };
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_IRRALIGN);
    r.req.irange.ranges[0] = (PmsIa64Range){ 0x8000, 0x4000, 0 };
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_IRRINVAL);
    r.req.irange.used = FALSE;
    r.req.drange = (PmsIa64DispatchRange){ .used = TRUE, .n_ranges = 1 };
    r.req.drange.ranges[0] = (PmsIa64Range){ 0x2000, 0x2000, 0 };
    r.evs[0].flags = PMS_IA64_EVT_NO_QUALCHECK; /* IA64_INST_RETIRED_THIS lacks darr */
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_DRRINVAL);
    /* code errors before data errors */
    r.req.irange = (PmsIa64DispatchRange){ .used = TRUE, .n_ranges = 1 };
    r.req.irange.ranges[0] = (PmsIa64Range){ 0x4001, 0x8000, 0 };
    expect_error(&r, PMS_IA64_DISPATCH_ERROR_IRRALIGN);
}

/* ---- property: the placement is found whenever one exists ---- */

/* An independent reference: dynamic programming over (event, counters used,
 * an L1D event already on PMC5): is there a placement of events e.. on
 * unused allowed counters such that, when any event is L1D, one L1D event is
 * on PMC5?  memo: 0 unknown, 1 no, 2 yes. */
typedef struct {
    guint n;
    guint64 allowed[12];
    gboolean l1d[12];
    gboolean any_l1d;
    guint8 memo[13][1u << 16][2];
} Ref;

static gboolean ref_can(Ref *f, guint e, guint used, guint on5)
{
    if (e == f->n)
        return !f->any_l1d || on5;
    guint8 *m = &f->memo[e][used][on5];
    if (*m)
        return *m == 2;
    gboolean ok = FALSE;
    for (guint c = 4; c <= 15 && !ok; c++)
        if ((f->allowed[e] >> c & 1) && !(used >> c & 1))
            ok = ref_can(f, e + 1, used | 1u << c, on5 || (f->l1d[e] && c == 5));
    *m = ok ? 2 : 1;
    return ok;
}

static void test_placement_property(void)
{
    /* Events: copies of CPU_OP_CYCLES_ALL (no group) and L1D_READS_SET0 (L1D
     * set 0) whose counter masks are replaced by random subsets of PMC4-15,
     * so that the matching meets far more shapes than the model's three
     * masks.  Each success is checked (distinct allowed counters, an L1D
     * event on PMC5); each NOASSIGN must be confirmed by the reference. */
    enum { N = 3000 };
    const PmsEvent *plain = ev("CPU_OP_CYCLES_ALL"), *l1d = ev("L1D_READS_SET0");
    static PmsEvent copies[12];
    Ref *f = g_new(Ref, 1);
    GRand *g = g_rand_new_with_seed(20261123);
    guint n_ok = 0, n_none = 0, n_greedy_fails = 0;
    for (int t = 0; t < N; t++) {
        Req r;
        req_init(&r, UK);
        memset(f, 0, sizeof *f);
        guint n = (guint)g_rand_int_range(g, 1, 13);
        gdouble density = g_rand_double_range(g, 0.1, 0.9);
        for (guint e = 0; e < n; e++) {
            gboolean is_l1d = g_rand_int_range(g, 0, 5) == 0;
            copies[e] = *(is_l1d ? l1d : plain);
            guint64 mask = 0;
            while (!mask)
                for (guint c = 4; c <= 15; c++)
                    if (g_rand_double(g) < density)
                        mask |= 1ull << c;
            copies[e].counters = mask;
            PmsIa64DispatchEvent *d = &r.evs[r.req.n_events++];
            d->event = &copies[e];
            d->pmc = PMCV(copies[e].code, 0, UK);
            f->allowed[e] = mask;
            f->l1d[e] = is_l1d;
            f->any_l1d |= is_l1d;
        }
        f->n = n;
        gboolean exists = ref_can(f, 0, 0, 0);
        /* first fit in input order (the lowest free allowed counter) */
        guint used = 0;
        gboolean greedy = TRUE;
        for (guint e = 0; e < n && greedy; e++) {
            guint64 free_ok = f->allowed[e] & ~(guint64)used;
            if (free_ok)
                used |= 1u << g_bit_nth_lsf(free_ok, -1);
            else
                greedy = FALSE;
        }
        n_greedy_fails += exists && !greedy;
        PmsIa64DispatchResult res;
        g_autoptr(GError) err = NULL;
        gboolean ok = pms_ia64_dispatch(&r.req, &res, &err);
        if (ok != exists) {
            fprintf(stderr, "# case %d: dispatch %s, reference %s\n", t, ok ? "placed" : err->message,
                    exists ? "placeable" : "not placeable");
            CU_FAIL("dispatch and the reference disagree");
            break;
        }
        if (!ok) {
            CU_ASSERT_TRUE(g_error_matches(err, PMS_IA64_DISPATCH_ERROR, PMS_IA64_DISPATCH_ERROR_NOASSIGN));
            n_none++;
            continue;
        }
        n_ok++;
        check_placement(&r, &res);
        if (f->any_l1d) {
            gboolean on5 = FALSE;
            for (guint e = 0; e < n; e++)
                on5 |= f->l1d[e] && res.counter[e] == 5;
            CU_ASSERT_TRUE(on5);
        }
    }
    fprintf(stderr, "# placement property: %u placed (%u of them where a first fit fails), %u without placement\n",
            n_ok, n_greedy_fails, n_none);
    CU_ASSERT_TRUE(n_ok > N / 4 && n_none > N / 10 && n_greedy_fails > N / 20);
    g_rand_free(g);
    g_free(f);
}

/* Cross-check with the Montecito encoder (encoder/rules_ia64.c, written
 * independently from the same layouts): every event's string
 * montecito::NAME at the default plm u+k.  Its codes[0] must dispatch alone
 * without error on a counter of the event's mask, equal the counting value
 * this module builds for a bare name, and, for an EAR event, its codes[1]
 * (the EAR register as "method 1" programs it) must equal the dispatch's
 * PMC37/PMC40. */
static void test_encoder_agrees(void)
{
    guint n = 0, n_ear = 0;
    for (guint i = 0; i < mont->n_events; i++) {
        const PmsEvent *e = &mont->events[i];
        g_autofree char *str = g_strdup_printf("montecito::%s", e->name);
        g_autoptr(GError) err = NULL;
        g_autoptr(PmsEncoding) enc = pms_encode(models, str, &err);
        if (!enc) {
            fprintf(stderr, "# %s: %s\n", str, err->message);
            CU_FAIL("the encoder refuses an event of the model");
            continue;
        }
        Req r;
        req_init(&r, UK);
        r.evs[0].event = enc->event;
        r.evs[0].pmc = enc->codes[0];
        r.req.n_events = 1;
        PmsIa64DispatchResult res;
        if (!run(&r, &res)) {
            fprintf(stderr, "# %s: codes[0] 0x%" G_GINT64_MODIFIER "x refused\n", str, enc->codes[0]);
            CU_FAIL("dispatch refuses the encoder's value");
            continue;
        }
        guint64 mine = 0;
        CU_ASSERT_TRUE(pms_ia64_dispatch_default_pmc(mont, enc->event, UK, &mine, NULL));
        if (mine != enc->codes[0])
            fprintf(stderr, "# %s: default value 0x%" G_GINT64_MODIFIER "x, encoder 0x%" G_GINT64_MODIFIER "x\n", str,
                    mine, enc->codes[0]);
        CU_ASSERT_EQUAL(mine, enc->codes[0]);
        CU_ASSERT_EQUAL(PMC(&res, res.counter[0]), enc->codes[0]);
        if (pms_ia64_facts(enc->event)->ear != PMS_IA64_EAR_NONE) {
            guint num = pms_ia64_facts(enc->event)->ear == PMS_IA64_EAR_I ? 37 : 40;
            CU_ASSERT_EQUAL_FATAL(enc->n_codes, 2);
            CU_ASSERT_EQUAL(PMC(&res, num), enc->codes[1]);
            CU_ASSERT_EQUAL(res.methods.iear, num == 37 ? 1u : 3u);
            CU_ASSERT_EQUAL(res.methods.dear, num == 40 ? 1u : 3u);
            n_ear++;
        }
        n++;
    }
    fprintf(stderr, "# encoder cross-check: %u events, %u EAR events\n", n, n_ear);
    CU_ASSERT_EQUAL(n, mont->n_events);
    CU_ASSERT_EQUAL(n_ear, 36); /* 17 I-EAR + 19 D-EAR (the reference README) */
}

static void test_default_pmc(void)
{
    guint64 v = 0;
    /* L3_INSERTS (es 0xda, MESI): 0x9 | 0xda00 | ism 2 | MESI 27-30 (0x78000000) */
    CU_ASSERT_TRUE(pms_ia64_dispatch_default_pmc(mont, ev("L3_INSERTS"), UK, &v, NULL));
    CU_ASSERT_EQUAL(v, 0x7a00da09ull);
    /* an EAR event: umask 0 on the counter (DATA_EAR_TLB_ALL has umask 0xe) */
    CU_ASSERT_TRUE(pms_ia64_dispatch_default_pmc(mont, ev("DATA_EAR_TLB_ALL"), UK, &v, NULL));
    CU_ASSERT_EQUAL(v, 0x200c809ull);
    /* BUS_ALL_ANY: umask 3 */
    CU_ASSERT_TRUE(pms_ia64_dispatch_default_pmc(mont, ev("BUS_ALL_ANY"), U, &v, NULL));
    CU_ASSERT_EQUAL(v, 0x2038708ull);
}

static void test_error_names(void)
{
    CU_ASSERT_STRING_EQUAL(pms_ia64_dispatch_error_name(PMS_IA64_DISPATCH_ERROR_NOASSIGN), "PFMLIB_ERR_NOASSIGN");
    CU_ASSERT_STRING_EQUAL(pms_ia64_dispatch_error_name(PMS_IA64_DISPATCH_ERROR_EVTSET), "PFMLIB_ERR_EVTSET");
    CU_ASSERT_STRING_EQUAL(pms_ia64_dispatch_error_name(PMS_IA64_DISPATCH_ERROR_EVTINCOMP), "PFMLIB_ERR_EVTINCOMP");
    CU_ASSERT_STRING_EQUAL(pms_ia64_dispatch_error_name(PMS_IA64_DISPATCH_ERROR_DRRTOOMANY), "PFMLIB_ERR_DRRTOOMANY");
    CU_ASSERT_STRING_EQUAL(pms_ia64_dispatch_error_name(999), "PFMLIB_ERR_INVAL");
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    GError *err = NULL;
    models = pms_model_set_new_builtin(&err);
    if (!models) {
        fprintf(stderr, "models: %s\n", err->message);
        return 1;
    }
    mont = pms_model_set_get(models, "montecito");
    if (!mont) {
        fprintf(stderr, "no montecito model\n");
        return 1;
    }
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("ia64_dispatch", NULL, NULL);
    CU_add_test(s, "one_event", test_one_event);
    CU_add_test(s, "range_event_of", test_range_event_of);
    CU_add_test(s, "assign_restricted", test_assign_restricted);
    CU_add_test(s, "assign_matching", test_assign_matching);
    CU_add_test(s, "groups", test_groups);
    CU_add_test(s, "placement_property", test_placement_property);
    CU_add_test(s, "qualifiers", test_qualifiers);
    CU_add_test(s, "inval", test_inval);
    CU_add_test(s, "iear", test_iear);
    CU_add_test(s, "dear", test_dear);
    CU_add_test(s, "etb", test_etb);
    CU_add_test(s, "ipear", test_ipear);
    CU_add_test(s, "opcm", test_opcm);
    CU_add_test(s, "ranges", test_ranges);
    CU_add_test(s, "default_pmc", test_default_pmc);
    CU_add_test(s, "encoder_agrees", test_encoder_agrees);
    CU_add_test(s, "error_names", test_error_names);
    int rc = pms_cu_tap_run();
    pms_model_set_free(models);
    return rc;
}
