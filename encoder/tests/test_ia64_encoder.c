/* encoder/tests — the Itanium 2 9000 (Montecito) encoder rules
 * (encoder/rules_ia64.c), its program step (sim/program/program_ia64.c), decode and
 * the queries (encoder/ia64_query.h, not installed), on the built-in montecito model.
 * Expected values are typed from reference/montecito/registers.md §3, §6,
 * §7 and events.tsv (docs/montecito.md), never printed by the encoder. */
#include <stdio.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include "cu_tap.h"
#include "encoder.h"
#include "ia64_query.h"
#include "program.h"
#include "vectors.h"

static PmsModelSet *set;
static const PmsModel *mont;

/* PMC4-15 layout (registers.md §3) */
#define PLM(p) ((guint64)(p))
#define OI (1u << 5)
#define ES(c) ((guint64)(c) << 8)
#define UM(u) ((guint64)(u) << 16)
#define THR(t) ((guint64)(t) << 20)
#define ISM2 (2u << 24)
#define MESI(m) ((guint64)(m) << 27)

static int suite_init(void)
{
    set = pms_model_set_new_builtin(NULL);
    mont = set ? pms_model_set_get(set, "montecito") : NULL;
    return mont ? 0 : 1;
}

static int suite_clean(void)
{
    pms_model_set_free(set);
    return 0;
}

static void ok2(const char *s, guint plm, guint64 c0, guint n, guint64 c1, const char *fstr)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsEncoding) e = pms_encode_plm(set, s, plm, &err);
    if (!e)
        fprintf(stderr, "# %s: %s\n", s, err->message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    if (e->codes[0] != c0 || e->n_codes != n || (n > 1 && e->codes[1] != c1))
        fprintf(stderr, "# %s: 0x%" G_GINT64_MODIFIER "x (%u codes), expected 0x%" G_GINT64_MODIFIER "x\n", s,
                e->codes[0], e->n_codes, c0);
    CU_ASSERT_EQUAL(e->codes[0], c0);
    CU_ASSERT_EQUAL(e->n_codes, n);
    if (n > 1)
        CU_ASSERT_EQUAL(e->codes[1], c1);
    if (fstr) {
        if (strcmp(e->fstr, fstr) != 0)
            fprintf(stderr, "# %s: fstr %s, expected %s\n", s, e->fstr, fstr);
        CU_ASSERT_STRING_EQUAL(e->fstr, fstr);
    }
}

static void ok1(const char *s, guint64 c0, const char *fstr)
{
    ok2(s, PMS_PLM_DEFAULT, c0, 1, 0, fstr);
}

static void bad(const char *s, PmsEncodeError code, guint col, const char *needle)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsEncoding) e = pms_encode(set, s, &err);
    CU_ASSERT_PTR_NULL(e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    if (err->code != (gint)code)
        fprintf(stderr, "# %s: %s, expected %s\n", s, pms_encode_error_name(err->code), pms_encode_error_name(code));
    CU_ASSERT_EQUAL(err->code, (gint)code);
    g_autofree char *prefix = g_strdup_printf("column %u: ", col);
    if (!g_str_has_prefix(err->message, prefix))
        fprintf(stderr, "# %s: '%s', expected column %u\n", s, err->message, col);
    CU_ASSERT_TRUE(g_str_has_prefix(err->message, prefix));
    if (needle && !strstr(err->message, needle))
        fprintf(stderr, "# %s: '%s' lacks '%s'\n", s, err->message, needle);
    if (needle)
        CU_ASSERT_PTR_NOT_NULL(strstr(err->message, needle));
}

static void test_counting_pmc(void)
{
    /* NOPS_RETIRED: es 0x50, umask 0, max_incr 6 */
    ok1("montecito::NOPS_RETIRED", PLM(9) | ES(0x50) | ISM2, "montecito::NOPS_RETIRED:k=1:u=1:thres=0:oi=0");
    ok1("montecito::NOPS_RETIRED:u", PLM(8) | ES(0x50) | ISM2, "montecito::NOPS_RETIRED:k=0:u=1:thres=0:oi=0");
    ok1("montecito::NOPS_RETIRED:k", PLM(1) | ES(0x50) | ISM2, "montecito::NOPS_RETIRED:k=1:u=0:thres=0:oi=0");
    ok1("montecito::nops_retired:K:u:thres=5:oi", PLM(9) | OI | ES(0x50) | THR(5) | ISM2,
        "montecito::NOPS_RETIRED:k=1:u=1:thres=5:oi=1");
    ok1("montecito::NOPS_RETIRED:k=0", ES(0x50) | ISM2, "montecito::NOPS_RETIRED:k=0:u=0:thres=0:oi=0");
    /* ALAT_CAPACITY_MISS_ALL: es 0x58 umask 3 */
    ok1("montecito::ALAT_CAPACITY_MISS_ALL:thres=1", PLM(9) | ES(0x58) | UM(3) | THR(1) | ISM2, NULL);
    /* an alias prints the event it stands for */
    ok1("montecito::IA64_INST_RETIRED", PLM(9) | ES(0x08) | ISM2,
        "montecito::IA64_INST_RETIRED_THIS:k=1:u=1:thres=0:oi=0");
    ok1("montecito::BRANCH_EVENT", PLM(9) | ES(0x11) | ISM2, "montecito::ETB_EVENT:k=1:u=1:thres=0:oi=0");
    /* MESI: none named means all four; named ones only */
    ok1("montecito::L3_INSERTS", PLM(9) | ES(0xda) | ISM2 | MESI(0xf),
        "montecito::L3_INSERTS:k=1:u=1:thres=0:oi=0:mesi_i=1:mesi_s=1:mesi_e=1:mesi_m=1");
    ok1("montecito::L3_INSERTS:mesi_m:mesi_i", PLM(9) | ES(0xda) | ISM2 | MESI(0x9),
        "montecito::L3_INSERTS:k=1:u=1:thres=0:oi=0:mesi_i=1:mesi_s=0:mesi_e=0:mesi_m=1");
    ok1("montecito::L3_READS_ALL_HIT:mesi_e", PLM(9) | ES(0xdd) | UM(0xd) | ISM2 | MESI(0x4), NULL);
    ok1("montecito::L3_INSERTS:mesi_i=0", PLM(9) | ES(0xda) | ISM2, NULL); /* named, off: none set */
}

static void test_default_plm(void)
{
    /* the default mask goes in whole, PLM1 and PLM2 included */
    ok2("montecito::NOPS_RETIRED", PMS_PLM1 | PMS_PLM2, ES(0x50) | ISM2 | PLM(6), 1, 0,
        "montecito::NOPS_RETIRED:k=0:u=0:thres=0:oi=0");
    ok2("montecito::NOPS_RETIRED", 0xf, ES(0x50) | ISM2 | PLM(0xf), 1, 0, NULL);
    ok2("montecito::NOPS_RETIRED", PMS_PLM3, ES(0x50) | ISM2 | PLM(8), 1, 0, NULL);
    /* naming k or u replaces it */
    ok2("montecito::NOPS_RETIRED:k", 0xf, ES(0x50) | ISM2 | PLM(1), 1, 0, NULL);
    /* the EAR register takes the counter's privilege mask */
    ok2("montecito::DATA_EAR_TLB_ALL", PMS_PLM1, ES(0xc8) | ISM2 | PLM(2), 2, 2 | 1u << 7 | 0xe << 16 | 2u << 24, NULL);
}

static void test_ear(void)
{
    /* D-EAR (PMC40, registers.md §7): plm, mode 8:7, umask 19:16, ism 2; counter umask 0 */
    ok2("montecito::DATA_EAR_CACHE_LAT4", PMS_PLM_DEFAULT, PLM(9) | ES(0xc8) | ISM2, 2,
        9 | 0u << 7 | 0x0 << 16 | 2u << 24, "montecito::DATA_EAR_CACHE_LAT4:k=1:u=1:thres=0:oi=0");
    ok2("montecito::DATA_EAR_CACHE_LAT1024:u", PMS_PLM_DEFAULT, PLM(8) | ES(0xc8) | ISM2, 2, 8 | 0x8 << 16 | 2u << 24,
        NULL);
    ok2("montecito::DATA_EAR_TLB_ALL", PMS_PLM_DEFAULT, PLM(9) | ES(0xc8) | ISM2, 2, 9 | 1u << 7 | 0xe << 16 | 2u << 24,
        NULL);
    ok2("montecito::DATA_EAR_ALAT", PMS_PLM_DEFAULT, PLM(9) | ES(0xc8) | ISM2, 2, 9 | 2u << 7 | 2u << 24, NULL);
    /* I-EAR (PMC37, §6): plm, umask 12:5, ct 13 = 1 cache / 0 TLB */
    ok2("montecito::L1I_EAR_CACHE_LAT4:k", PMS_PLM_DEFAULT, PLM(1) | ES(0x43) | ISM2, 2, 1 | 0xff << 5 | 1u << 13,
        NULL);
    ok2("montecito::L1I_EAR_TLB_ALL", PMS_PLM_DEFAULT, PLM(9) | ES(0x43) | ISM2, 2, 9 | 0x7 << 5, NULL);
}

static void test_errors(void)
{
    bad("montecito::NOPS_RETIRED:thres=6", PMS_ERR_ATTR_VAL, 31, "below its max_inc");
    bad("montecito::NOPS_RETIRED:thres=8", PMS_ERR_ATTR_VAL, 31, NULL);
    bad("montecito::L3_INSERTS:mesi_s:thres=1", PMS_ERR_ATTR_VAL, 36, NULL);
    bad("montecito::NOPS_RETIRED:mesi_i", PMS_ERR_ATTR, 25, "does not apply");
    bad("montecito::NOPS_RETIRED:all", PMS_ERR_ATTR, 25, NULL);
    bad("montecito::NOPS_RETIRED:thres", PMS_ERR_ATTR_VAL, 25, NULL);
    bad("montecito::NOPS_RETIRED:thres=1:thres=2", PMS_ERR_ATTR_SET, 33, NULL);
    bad("montecito::NOPE", PMS_ERR_NOTFOUND, 12, NULL);
    bad("montecito::NOPS_RETIRED:ALL", PMS_ERR_ATTR, 25, NULL);
    /* the first bad value in string order */
    bad("montecito::NOPS_RETIRED:oi=1:thres=7", PMS_ERR_ATTR_VAL, 36, NULL);
}

static void test_program_step(void)
{
    g_autoptr(PmsEncoding) e = pms_encode(set, "montecito::NOPS_RETIRED:thres=2", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_EQUAL(e->place.counter, 4);
    CU_ASSERT_FALSE(e->place.fixed);
    CU_ASSERT_EQUAL_FATAL(e->n_writes, 1);
    CU_ASSERT_EQUAL(e->writes[0].reg->space, PMS_SPACE_PMC);
    CU_ASSERT_EQUAL(e->writes[0].address, 4);
    CU_ASSERT_EQUAL(e->writes[0].value, e->codes[0]);
    CU_ASSERT_EQUAL(e->writes[0].mask, G_MAXUINT64);
    const PmsRegister *ctr = pms_program_counter_reg(&e->place);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ctr);
    CU_ASSERT_EQUAL(ctr->space, PMS_SPACE_PMD);
    CU_ASSERT_EQUAL(ctr->address, 4);
    const PmsRegister *st = pms_program_status_reg(&e->place);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    CU_ASSERT_EQUAL(st->space, PMS_SPACE_PMC);
    CU_ASSERT_EQUAL(st->address, 0);
    CU_ASSERT_EQUAL(pms_program_status_bit(&e->place), 1u << 4);

    /* EAR: the counter, then PMC40 */
    g_autoptr(PmsEncoding) d = pms_encode(set, "montecito::DATA_EAR_TLB_ALL", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL_FATAL(d->n_writes, 2);
    CU_ASSERT_EQUAL(d->writes[0].address, 4);
    CU_ASSERT_EQUAL(d->writes[1].reg->space, PMS_SPACE_PMC);
    CU_ASSERT_EQUAL(d->writes[1].address, 40);
    CU_ASSERT_EQUAL(d->writes[1].value, d->codes[1]);
    g_autoptr(PmsEncoding) i = pms_encode(set, "montecito::L1I_EAR_CACHE_LAT8", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(i);
    CU_ASSERT_EQUAL_FATAL(i->n_writes, 2);
    CU_ASSERT_EQUAL(i->writes[1].address, 37);

    /* counters masks over PMC numbers: PMC10 only, PMC4-9 */
    g_autoptr(PmsEncoding) h = pms_encode(set, "montecito::CPU_OP_CYCLES_HALTED", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    CU_ASSERT_EQUAL(h->place.counter, 10);
    CU_ASSERT_EQUAL(h->writes[0].address, 10);
    CU_ASSERT_EQUAL(pms_program_status_bit(&h->place), 1u << 10);
    CU_ASSERT_EQUAL(pms_program_counter_reg(&h->place)->address, 10);

    /* a chosen counter */
    const PmsEvent *bus = pms_model_event(mont, "BUS_ALL_SELF");
    CU_ASSERT_PTR_NOT_NULL_FATAL(bus);
    PmsPlacement pl;
    g_autoptr(GError) err = NULL;
    CU_ASSERT_TRUE(pms_program_place_on(mont, bus, 9, FALSE, &pl, NULL));
    CU_ASSERT_FALSE(pms_program_place_on(mont, bus, 10, FALSE, &pl, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_COUNTER));
    g_clear_error(&err);
    CU_ASSERT_FALSE(pms_program_place_on(mont, bus, 3, FALSE, &pl, NULL)); /* PMC3 is no counter */
    CU_ASSERT_FALSE(pms_program_place_on(mont, bus, 0, TRUE, &pl, NULL));
    CU_ASSERT_TRUE(pms_program_place_on(mont, bus, 7, FALSE, &pl, NULL));
    guint64 codes[2] = { 0x2001234, 0 };
    PmsRegWrite w[PMS_PROGRAM_MAX_WRITES];
    guint n = 0;
    CU_ASSERT_TRUE(pms_program_writes(&pl, codes, 1, w, &n, NULL));
    CU_ASSERT_EQUAL(n, 1);
    CU_ASSERT_EQUAL(w[0].address, 7);
    /* two codes for an event without an EAR register */
    CU_ASSERT_FALSE(pms_program_writes(&pl, codes, 2, w, &n, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CODES));
}

static void dec_is(guint64 v, gboolean has_extra, guint64 x, const char *want)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *s = pms_decode(mont, v, has_extra, x, &err);
    if ((want && !s) || (!want && s) || (want && strcmp(s, want) != 0))
        fprintf(stderr, "# decode 0x%" G_GINT64_MODIFIER "x: %s, expected %s\n", v, s ? s : err->message,
                want ? want : "an error");
    if (!want) {
        CU_ASSERT_PTR_NULL(s);
        return;
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_STRING_EQUAL(s, want);
}

static void test_decode(void)
{
    dec_is(PLM(8) | ES(0x50) | THR(5) | ISM2, FALSE, 0, "montecito::NOPS_RETIRED:k=0:u=1:thres=5:oi=0");
    dec_is(PLM(9) | OI | ES(0xda) | ISM2 | MESI(2), FALSE, 0,
           "montecito::L3_INSERTS:k=1:u=1:thres=0:oi=1:mesi_i=0:mesi_s=1:mesi_e=0:mesi_m=0");
    dec_is(PLM(9) | ES(0xc8) | ISM2, TRUE, 9 | 1u << 7 | 0xe << 16 | 2u << 24,
           "montecito::DATA_EAR_TLB_ALL:k=1:u=1:thres=0:oi=0");
    /* without the PMC40 value: the counting event itself, not an EAR event */
    dec_is(PLM(9) | ES(0xc8) | ISM2, FALSE, 0, "montecito::DATA_EAR_EVENTS:k=1:u=1:thres=0:oi=0");
    dec_is(PLM(9) | ES(0xc8) | ISM2, TRUE, 0x12345, NULL);     /* no EAR configuration encodes so */
    dec_is(PLM(9) | ES(0x50) | THR(6) | ISM2, FALSE, 0, NULL); /* thres beyond max_inc */
    dec_is(PLM(9) | ES(0x50), FALSE, 0, NULL);                 /* ism 0 */
    /* PLM1/PLM2 are the default mask's */
    dec_is(PLM(6) | ES(0x50) | ISM2, FALSE, 0, "montecito::NOPS_RETIRED:k=0:u=0:thres=0:oi=0");

    /* every event, alone and with modifiers: decode(encode(s)) is its fstr */
    static const char *const mods[] = { "", ":u:thres=0:oi", ":k" };
    guint n = 0;
    for (guint i = 0; i < mont->n_events; i++) {
        const PmsEvent *ev = &mont->events[i];
        for (guint k = 0; k < G_N_ELEMENTS(mods); k++) {
            g_autofree char *s = g_strdup_printf("montecito::%s%s", ev->name, mods[k]);
            g_autoptr(PmsEncoding) e = pms_encode(set, s, NULL);
            CU_ASSERT_PTR_NOT_NULL_FATAL(e);
            g_autofree char *d = pms_decode(mont, e->codes[0], e->n_codes > 1, e->codes[1], NULL);
            CU_ASSERT_PTR_NOT_NULL_FATAL(d);
            /* aliases and events of one encoding decode to the first name: same codes */
            g_autoptr(PmsEncoding) e2 = pms_encode(set, d, NULL);
            CU_ASSERT_PTR_NOT_NULL_FATAL(e2);
            CU_ASSERT_EQUAL(e2->codes[0], e->codes[0]);
            CU_ASSERT_EQUAL(e2->n_codes, e->n_codes);
            CU_ASSERT_EQUAL(e2->codes[1], e->codes[1]);
            if (strcmp(d, e->fstr) == 0)
                n++;
        }
    }
    CU_ASSERT_TRUE(n > 3 * 550);
}

/* The query API answers from the model's facts; values typed from
 * reference/montecito/events.tsv. */
static void test_query(void)
{
    g_autoptr(GError) err = NULL;
    const PmsEvent *nops = pms_ia64_event(mont, "nops_retired", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(nops);
    CU_ASSERT_EQUAL(pms_ia64_max_inc(nops), 6);
    CU_ASSERT_FALSE(pms_ia64_is_ear(nops));
    CU_ASSERT_TRUE(pms_ia64_support_opcm(nops));
    CU_ASSERT_TRUE(pms_ia64_support_iarr(nops));
    CU_ASSERT_FALSE(pms_ia64_support_darr(nops));
    CU_ASSERT_EQUAL(pms_ia64_type(nops), PMS_IA64_TYPE_ACTIVE);
    CU_ASSERT_EQUAL(pms_ia64_group(nops), PMS_IA64_GROUP_NONE);
    CU_ASSERT_EQUAL(pms_ia64_set(nops), -1);
    PmsIa64EarMode mode = PMS_IA64_EAR_MODE_NONE;
    CU_ASSERT_FALSE(pms_ia64_ear_mode(nops, &mode, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_IA64_QUERY_ERROR, PMS_IA64_QUERY_ERROR_INVAL));
    g_clear_error(&err);

    const PmsEvent *d = pms_ia64_event(mont, "DATA_EAR_TLB_ALL", NULL);
    CU_ASSERT_TRUE(pms_ia64_is_ear(d) && pms_ia64_is_dear(d) && pms_ia64_is_dear_tlb(d) && pms_ia64_is_tlb(d));
    CU_ASSERT_FALSE(pms_ia64_is_iear(d) || pms_ia64_is_dear_cache(d) || pms_ia64_is_dear_alat(d) ||
                    pms_ia64_is_cache(d));
    CU_ASSERT_EQUAL(pms_ia64_umask(d), 0xe);
    CU_ASSERT_TRUE(pms_ia64_ear_mode(d, &mode, NULL));
    CU_ASSERT_EQUAL(mode, PMS_IA64_EAR_MODE_TLB);
    const PmsEvent *a = pms_ia64_event(mont, "DATA_EAR_ALAT", NULL);
    CU_ASSERT_TRUE(pms_ia64_is_dear_alat(a) && pms_ia64_is_alat(a));
    const PmsEvent *ic = pms_ia64_event(mont, "L1I_EAR_CACHE_LAT4", NULL);
    CU_ASSERT_TRUE(pms_ia64_is_iear(ic) && pms_ia64_is_iear_cache(ic) && pms_ia64_is_cache(ic));
    CU_ASSERT_FALSE(pms_ia64_is_iear_tlb(ic));
    CU_ASSERT_EQUAL(pms_ia64_umask(ic), 0xff);
    CU_ASSERT_TRUE(pms_ia64_is_iear_tlb(pms_ia64_event(mont, "L1I_EAR_TLB_ALL", NULL)));
    CU_ASSERT_TRUE(pms_ia64_is_etb(pms_ia64_event(mont, "ETB_EVENT", NULL)));
    CU_ASSERT_TRUE(pms_ia64_is_etb(pms_ia64_event(mont, "BRANCH_EVENT", NULL)));
    const PmsEvent *fill = pms_ia64_event(mont, "L2D_FILL_MESI_STATE_M", NULL);
    CU_ASSERT_EQUAL(pms_ia64_group(fill), PMS_IA64_GROUP_L2D);
    CU_ASSERT_EQUAL(pms_ia64_set(fill), 8);
    CU_ASSERT_EQUAL(pms_ia64_type(fill), PMS_IA64_TYPE_FLOATING);
    CU_ASSERT_EQUAL(pms_ia64_max_inc(pms_ia64_event(mont, "L2D_INSERT_HITS", NULL)), 4);

    CU_ASSERT_PTR_NULL(pms_ia64_event(mont, "NOPE", &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_IA64_QUERY_ERROR, PMS_IA64_QUERY_ERROR_NOTFOUND));
    g_clear_error(&err);
    CU_ASSERT_PTR_NULL(pms_ia64_event(pms_model_set_get(set, "wsm"), "INST_RETIRED", &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_IA64_QUERY_ERROR, PMS_IA64_QUERY_ERROR_INVAL));
    CU_ASSERT_FALSE(pms_ia64_is_ear(NULL));

    /* the counts of reference/montecito/README.md, through the API */
    guint iear = 0, dear = 0, etb = 0, opcm = 0, iarr = 0, darr = 0;
    for (guint i = 0; i < mont->n_events; i++) {
        const PmsEvent *ev = &mont->events[i];
        iear += pms_ia64_is_iear(ev);
        dear += pms_ia64_is_dear(ev);
        etb += pms_ia64_is_etb(ev);
        opcm += pms_ia64_support_opcm(ev);
        iarr += pms_ia64_support_iarr(ev);
        darr += pms_ia64_support_darr(ev);
    }
    CU_ASSERT_EQUAL(iear, 17);
    CU_ASSERT_EQUAL(dear, 19);
    CU_ASSERT_EQUAL(etb, 2);
    CU_ASSERT_EQUAL(opcm, 212);
    CU_ASSERT_EQUAL(iarr, 322);
    CU_ASSERT_EQUAL(darr, 139);
}

/* The montecito error vectors name their column in src; the vector format
 * compares the class only, so the column is checked here. */
static void test_vector_columns(void)
{
    g_autoptr(PmsVectorSet) vs = pms_vector_set_new();
    CU_ASSERT_TRUE_FATAL(pms_vector_set_load_builtin(vs, NULL));
    guint checked = 0, total = 0;
    for (guint i = 0; i < pms_vector_set_count(vs); i++) {
        const PmsVector *v = pms_vector_set_nth(vs, i);
        if (v->kind != PMS_VECTOR_ENCODE || strcmp(v->pmu, "montecito") != 0)
            continue;
        total++;
        if (strcmp(v->ret, "PFM_SUCCESS") == 0)
            continue;
        const char *c = strstr(v->source, "column ");
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        guint col = (guint)g_ascii_strtoull(c + strlen("column "), NULL, 10);
        g_autoptr(GError) e = NULL;
        g_autoptr(PmsEncoding) enc = pms_encode(set, v->event, &e);
        CU_ASSERT_PTR_NULL(enc);
        CU_ASSERT_PTR_NOT_NULL_FATAL(e);
        CU_ASSERT_STRING_EQUAL(pms_encode_error_name(e->code), v->ret);
        g_autofree char *prefix = g_strdup_printf("column %u: ", col);
        if (col && !g_str_has_prefix(e->message, prefix))
            fprintf(stderr, "# %s:%u: %.60s: '%s', expected column %u\n", v->file, v->line, v->event, e->message, col);
        CU_ASSERT_TRUE(!col || g_str_has_prefix(e->message, prefix));
        checked++;
    }
    CU_ASSERT_TRUE(checked >= 637 + 30);
    CU_ASSERT_TRUE(total >= 2 * 637 + 637);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("ia64 encoder", suite_init, suite_clean);
    CU_add_test(s, "counting PMC fields", test_counting_pmc);
    CU_add_test(s, "default privilege mask", test_default_plm);
    CU_add_test(s, "EAR events: PMC37/PMC40 as codes[1]", test_ear);
    CU_add_test(s, "errors and columns", test_errors);
    CU_add_test(s, "program step: PMCn, EAR register, PMDn, PMC0 bit n", test_program_step);
    CU_add_test(s, "decode", test_decode);
    CU_add_test(s, "query API", test_query);
    CU_add_test(s, "vector error columns", test_vector_columns);
    return pms_cu_tap_run();
}
