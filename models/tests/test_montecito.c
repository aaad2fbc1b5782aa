/* models/tests — the Itanium 2 9000 (Montecito) model.
 *
 * The built-in montecito model against values typed by hand from
 * reference/montecito/events.tsv (the line of each is cited) and
 * registers.md, and its compiled image equal to its text.  The format's
 * Itanium facts on a small model: test_ia64.c.
 *
 * argv[1] = models/montecito.pmu */
#include <string.h>
#include <CUnit/CUnit.h>
#include "cu_tap.h"
#include "model.h"
#include "model_ia64.h"
#include "model_image.h"
#include "model_priv.h"

static const char *montecito_path;
static PmsModelSet *set;
static const PmsModel *mont;

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

/* ---- the built-in model ---- */

static void test_header_and_counts(void)
{
    CU_ASSERT_PTR_EQUAL(mont->family, pms_family_by_name("ia64"));
    CU_ASSERT_EQUAL(mont->n_gp, 12);
    CU_ASSERT_EQUAL(mont->counter_base, 4);
    CU_ASSERT_EQUAL(mont->gp_width, 47);
    CU_ASSERT_EQUAL(mont->n_fixed, 0);
    CU_ASSERT_EQUAL(pms_model_counters_mask(mont), 0xfff0);
    CU_ASSERT_PTR_NOT_NULL(pms_model_priv(mont)->image);
    /* every row of events.tsv: nothing left out */
    CU_ASSERT_EQUAL(mont->n_events, 637);
    guint umasks = 0, named = 0, l1d = 0, l2d = 0, opcm = 0, iarr = 0, darr = 0, mesi = 0, etb = 0;
    guint type[5] = { 0 }, iear = 0, dear = 0, dups = 0;
    for (guint i = 0; i < mont->n_events; i++) {
        const PmsEvent *e = &mont->events[i];
        umasks += e->base_umask != 0;
        named += e->n_umasks;
        l1d += pms_ia64_facts(e)->cache_group == PMS_IA64_GROUP_L1D;
        l2d += pms_ia64_facts(e)->cache_group == PMS_IA64_GROUP_L2D;
        opcm += (pms_ia64_facts(e)->qualifiers & PMS_IA64_QUAL_OPCM) != 0;
        iarr += (pms_ia64_facts(e)->qualifiers & PMS_IA64_QUAL_IARR) != 0;
        darr += (pms_ia64_facts(e)->qualifiers & PMS_IA64_QUAL_DARR) != 0;
        mesi += pms_ia64_facts(e)->mesi;
        etb += pms_ia64_facts(e)->etb;
        type[pms_ia64_facts(e)->ev_type]++;
        iear += pms_ia64_facts(e)->ear == PMS_IA64_EAR_I;
        dear += pms_ia64_facts(e)->ear == PMS_IA64_EAR_D;
        dups += (e->flags & PMS_EVENT_DUP) != 0;
        CU_ASSERT_TRUE(pms_ia64_facts(e)->max_inc >= 1 && pms_ia64_facts(e)->max_inc <= 7);
    }
    /* the totals of reference/montecito/README.md */
    CU_ASSERT_EQUAL(l1d, 30);
    CU_ASSERT_EQUAL(l2d, 62);
    CU_ASSERT_EQUAL(type[PMS_IA64_TYPE_NONE], 0);
    CU_ASSERT_EQUAL(type[PMS_IA64_TYPE_ACTIVE], 284);
    CU_ASSERT_EQUAL(type[PMS_IA64_TYPE_FLOATING], 186);
    CU_ASSERT_EQUAL(type[PMS_IA64_TYPE_SELF_FLOATING], 99);
    CU_ASSERT_EQUAL(type[PMS_IA64_TYPE_CAUSAL], 68);
    CU_ASSERT_EQUAL(opcm, 212);
    CU_ASSERT_EQUAL(iarr, 322);
    CU_ASSERT_EQUAL(darr, 139);
    CU_ASSERT_EQUAL(mesi, 23);
    CU_ASSERT_EQUAL(etb, 2);
    CU_ASSERT_EQUAL(iear, 17);
    CU_ASSERT_EQUAL(dear, 19);
    /* one libpfm umask per event, no named unit masks */
    CU_ASSERT_EQUAL(named, 0);
    CU_ASSERT_EQUAL(umasks, 486);
    CU_ASSERT_EQUAL(dups, 2);
    g_autoptr(GPtrArray) p = g_ptr_array_new_with_free_func(g_free);
    CU_ASSERT_TRUE(pms_model_lint(mont, p));
    for (guint i = 0; i < p->len; i++)
        fprintf(stderr, "# %s\n", (char *)p->pdata[i]);
}

typedef struct {
    guint tsv_line; /* line of reference/montecito/events.tsv */
    const char *name;
    guint code, umask, max_inc;
    guint64 counters;
    PmsIa64CacheGroup group;
    gint set;
    PmsIa64EventType type;
    guint quals;
    gboolean mesi;
    PmsIa64Ear ear;
    PmsIa64EarMode mode;
    gboolean etb;
    const char *equiv; /* alias_of */
    const char *extra; /* where the umask goes for EAR events */
} Spot;

#define O PMS_IA64_QUAL_OPCM
#define I PMS_IA64_QUAL_IARR
#define D PMS_IA64_QUAL_DARR
#define ACT PMS_IA64_TYPE_ACTIVE
#define FLO PMS_IA64_TYPE_FLOATING
#define CAU PMS_IA64_TYPE_CAUSAL
#define SFL PMS_IA64_TYPE_SELF_FLOATING
#define NOG PMS_IA64_GROUP_NONE
#define NOE PMS_IA64_EAR_NONE, PMS_IA64_EAR_MODE_NONE

/* Typed from events.tsv: columns event_code, umask, max_incr, counters_mask,
 * group, set, type, opcm/iarr/darr, mesi_umask, ear, ear_mode, etb, alias_of. */
static const Spot spots[] = {
    { 2, "ALAT_CAPACITY_MISS_ALL", 0x58, 0x3, 2, 0xfff0, NOG, -1, ACT, O | I | D, FALSE, NOE, FALSE, NULL, NULL },
    { 24, "BE_L1D_FPU_BUBBLE_ALL", 0xca, 0x0, 1, 0xfff0, PMS_IA64_GROUP_L1D, 2, ACT, 0, FALSE, NOE, FALSE, NULL, NULL },
    { 109, "BUS_ALL_ANY", 0x87, 0x3, 1, 0x03f0, NOG, -1, SFL, 0, FALSE, NOE, FALSE, NULL, NULL },
    { 203, "CPU_OP_CYCLES_HALTED", 0x18, 0x0, 7, 0x0400, NOG, -1, CAU, 0, FALSE, NOE, FALSE, NULL, NULL },
    { 206, "DATA_EAR_ALAT", 0xc8, 0x0, 1, 0xfff0, NOG, -1, FLO, O | I | D, FALSE, PMS_IA64_EAR_D,
      PMS_IA64_EAR_MODE_ALAT, FALSE, NULL, "PMC40" },
    { 219, "DATA_EAR_TLB_ALL", 0xc8, 0xe, 1, 0xfff0, NOG, -1, FLO, O | I | D, FALSE, PMS_IA64_EAR_D,
      PMS_IA64_EAR_MODE_TLB, FALSE, NULL, "PMC40" },
    { 227, "DATA_REFERENCES_SET1", 0xc5, 0x0, 4, 0xfff0, PMS_IA64_GROUP_L1D, 1, ACT, O | I | D, FALSE, NOE, FALSE, NULL,
      NULL },
    { 250, "ER_REJECT_ALL_L1_REQ", 0xbc, 0x0, 1, 0x03f0, NOG, -1, CAU, 0, FALSE, NOE, FALSE, NULL, NULL },
    { 253, "ETB_EVENT", 0x11, 0x0, 1, 0xfff0, NOG, -1, ACT, O | I, FALSE, NOE, TRUE, NULL, NULL },
    { 329, "L1I_EAR_CACHE_LAT4", 0x43, 0xff, 1, 0xfff0, NOG, -1, FLO, I, FALSE, PMS_IA64_EAR_I, PMS_IA64_EAR_MODE_CACHE,
      FALSE, NULL, "PMC37" },
    { 334, "L1I_EAR_TLB_ALL", 0x43, 0x7, 1, 0xfff0, NOG, -1, FLO, I, FALSE, PMS_IA64_EAR_I, PMS_IA64_EAR_MODE_TLB,
      FALSE, NULL, "PMC37" },
    { 419, "L2D_OZQ_FULL_THIS", 0xbc, 0x0, 1, 0xfff0, PMS_IA64_GROUP_L2D, 5, FLO, 0, FALSE, NOE, FALSE, NULL, NULL },
    { 425, "L2D_VICTIMB_FULL_THIS", 0xf3, 0x0, 1, 0xfff0, PMS_IA64_GROUP_L2D, 8, FLO, 0, FALSE, NOE, FALSE, NULL,
      NULL },
    { 480, "L3_READS_ALL_HIT", 0xdd, 0xd, 1, 0xfff0, NOG, -1, FLO, O | I | D, TRUE, NOE, FALSE, NULL, NULL },
    { 507, "NOPS_RETIRED", 0x50, 0x0, 6, 0xfff0, NOG, -1, ACT, O | I, FALSE, NOE, FALSE, NULL, NULL },
    { 637, "IA64_INST_RETIRED", 0x08, 0x0, 6, 0xfff0, NOG, -1, ACT, O | I, FALSE, NOE, FALSE, "IA64_INST_RETIRED_THIS",
      NULL },
    { 638, "BRANCH_EVENT", 0x11, 0x0, 1, 0xfff0, NOG, -1, ACT, O | I, FALSE, NOE, TRUE, "ETB_EVENT", NULL },
};
#undef O
#undef I
#undef D
#undef ACT
#undef FLO
#undef CAU
#undef SFL
#undef NOG
#undef NOE

static void test_spot_checks(void)
{
    const guint32 plain = 0xf; /* k u thres oi: the first four modifiers */
    for (guint i = 0; i < G_N_ELEMENTS(spots); i++) {
        const Spot *s = &spots[i];
        const PmsEvent *e = pms_model_event(mont, s->name);
        if (!e)
            fprintf(stderr, "# events.tsv:%u: %s missing\n", s->tsv_line, s->name);
        CU_ASSERT_PTR_NOT_NULL_FATAL(e);
        guint before = CU_get_number_of_failures();
        CU_ASSERT_EQUAL(e->code, s->code);
        CU_ASSERT_EQUAL(e->base_umask, s->umask);
        CU_ASSERT_EQUAL(pms_ia64_facts(e)->max_inc, s->max_inc);
        CU_ASSERT_EQUAL(e->counters, s->counters);
        CU_ASSERT_EQUAL(pms_ia64_facts(e)->cache_group, s->group);
        CU_ASSERT_EQUAL(pms_ia64_facts(e)->cache_set, s->set);
        CU_ASSERT_EQUAL(pms_ia64_facts(e)->ev_type, s->type);
        CU_ASSERT_EQUAL(pms_ia64_facts(e)->qualifiers, s->quals);
        CU_ASSERT_EQUAL(pms_ia64_facts(e)->mesi, s->mesi);
        CU_ASSERT_EQUAL(pms_ia64_facts(e)->ear, s->ear);
        CU_ASSERT_EQUAL(pms_ia64_facts(e)->ear_mode, s->mode);
        CU_ASSERT_EQUAL(pms_ia64_facts(e)->etb, s->etb);
        CU_ASSERT_EQUAL(e->n_umasks, 0);
        CU_ASSERT_STRING_EQUAL(e->equiv ? e->equiv : "", s->equiv ? s->equiv : "");
        CU_ASSERT_STRING_EQUAL(e->extra_reg ? e->extra_reg : "", s->extra ? s->extra : "");
        /* MESI events take every modifier, the others not the MESI ones */
        CU_ASSERT_EQUAL(e->modifiers, s->mesi ? G_MAXUINT32 : plain);
        if (CU_get_number_of_failures() != before)
            fprintf(stderr, "# events.tsv:%u: %s differs\n", s->tsv_line, s->name);
    }
    /* L2D_OZQ_FULL_THIS repeats ER_REJECT_ALL_L1_REQ's code and umask (lines 250, 419) */
    CU_ASSERT_TRUE(pms_model_event(mont, "L2D_OZQ_FULL_THIS")->flags & PMS_EVENT_DUP);
    CU_ASSERT_TRUE(pms_model_event(mont, "IA64_TAGGED_INST_RETIRED_IBRP0_PMC32_33")->flags & PMS_EVENT_DUP);
    /* the IBR pair of each event's code range (range-restriction.md §6): 3
     * prefetch events, 4 dual fetch events, the 2 CPU_OP_CYCLES (code 0x12) */
    guint per[4] = { 0 };
    for (guint i = 0; i < mont->n_events; i++)
        per[pms_ia64_facts(&mont->events[i])->code_range]++;
    CU_ASSERT_EQUAL(per[PMS_IA64_CODE_RANGE_PREFETCH], 3);
    CU_ASSERT_EQUAL(per[PMS_IA64_CODE_RANGE_DUAL], 4);
    CU_ASSERT_EQUAL(per[PMS_IA64_CODE_RANGE_NOT_IBRP1], 2);
    CU_ASSERT_EQUAL(pms_ia64_facts(pms_model_event(mont, "L2I_PREFETCHES"))->code_range, PMS_IA64_CODE_RANGE_PREFETCH);
    CU_ASSERT_EQUAL(pms_ia64_facts(pms_model_event(mont, "L1I_FILLS"))->code_range, PMS_IA64_CODE_RANGE_DUAL);
    CU_ASSERT_EQUAL(pms_ia64_facts(pms_model_event(mont, "CPU_OP_CYCLES_QUAL"))->code_range,
                    PMS_IA64_CODE_RANGE_NOT_IBRP1);
    CU_ASSERT_EQUAL(pms_ia64_facts(pms_model_event(mont, "NOPS_RETIRED"))->code_range, PMS_IA64_CODE_RANGE_IBRP0);
}

static void test_registers(void)
{
    guint per_space[5] = { 0 };
    for (guint i = 0; i < mont->n_regs; i++) {
        const PmsRegister *r = &mont->regs[i];
        per_space[r->space]++;
        /* every Itanium register: index = its number, found by space and number */
        CU_ASSERT_EQUAL(r->index, r->address);
        CU_ASSERT_PTR_EQUAL(pms_model_reg_at(mont, r->space, r->address), r);
        CU_ASSERT_PTR_NULL(r->unit);
    }
    CU_ASSERT_EQUAL(per_space[PMS_SPACE_MSR], 0);
    CU_ASSERT_EQUAL(per_space[PMS_SPACE_PMC], 27); /* PMC0-15, PMC32-42 */
    CU_ASSERT_EQUAL(per_space[PMS_SPACE_PMD], 35); /* PMD4-15, 32-36, 38-39, 48-63 */
    CU_ASSERT_EQUAL(per_space[PMS_SPACE_IBR], 8);
    CU_ASSERT_EQUAL(per_space[PMS_SPACE_DBR], 8);

    /* PMC4 and PMD4 share the number 4 */
    const PmsRegister *pmc4 = pms_model_reg_at(mont, PMS_SPACE_PMC, 4);
    const PmsRegister *pmd4 = pms_model_reg_at(mont, PMS_SPACE_PMD, 4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pmc4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pmd4);
    CU_ASSERT_STRING_EQUAL(pmc4->name, "PMC4");
    CU_ASSERT_STRING_EQUAL(pmd4->name, "PMD4");
    CU_ASSERT_PTR_NULL(pms_model_reg_by_addr(mont, 4)); /* not an MSR */
    for (guint n = 4; n <= 15; n++) {
        const PmsRegister *c = pms_model_reg_by_kind(mont, PMS_REG_IA64_PMC, n);
        const PmsRegister *d = pms_model_reg_by_kind(mont, PMS_REG_IA64_PMD, n);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        CU_ASSERT_EQUAL(c->space, PMS_SPACE_PMC);
        CU_ASSERT_EQUAL(c->address, n);
        CU_ASSERT_EQUAL(d->space, PMS_SPACE_PMD);
        CU_ASSERT_EQUAL(d->width, 47);
        /* from [pmu] gp_width alone: bits above the width are ignored on write */
        CU_ASSERT_EQUAL(d->writable, (G_GUINT64_CONSTANT(1) << 47) - 1);
        CU_ASSERT_EQUAL(d->ignored, ~((G_GUINT64_CONSTANT(1) << 47) - 1));
        /* registers.md 3: ES 15:8, umask 19:16, thres 22:20, MESI 27-30 */
        CU_ASSERT_EQUAL(pms_layout_field(c->layout, "es")->shift, 8);
        CU_ASSERT_EQUAL(pms_layout_field(c->layout, "es")->width, 8);
        CU_ASSERT_EQUAL(pms_layout_field(c->layout, "umask")->shift, 16);
        CU_ASSERT_EQUAL(pms_layout_field(c->layout, "umask")->width, 4);
        CU_ASSERT_EQUAL(pms_layout_field(c->layout, "thres")->shift, 20);
        CU_ASSERT_EQUAL(pms_layout_field(c->layout, "thres")->width, 3);
        CU_ASSERT_EQUAL(pms_layout_field(c->layout, "ism")->shift, 24);
        CU_ASSERT_EQUAL(pms_layout_field(c->layout, "mesi_i")->shift, 27);
        CU_ASSERT_EQUAL(pms_layout_field(c->layout, "mesi_m")->shift, 30);
        CU_ASSERT_EQUAL(c->reset, 0x2000000);
        /* the kernel's user mask 0x7c7fff7f plus ism; bits 7 and 23 ignored */
        CU_ASSERT_EQUAL(c->writable, 0x7f7fff7f);
        CU_ASSERT_EQUAL(c->ignored, 0x00800080);
        CU_ASSERT_EQUAL(d->writable, G_GUINT64_CONSTANT(0x7fffffffffff));
    }
    CU_ASSERT_PTR_NULL(pms_model_reg_by_kind(mont, PMS_REG_IA64_PMD, 3));
    CU_ASSERT_PTR_NULL(pms_model_reg_at(mont, PMS_SPACE_PMD, 37)); /* the kernel's table: no PMD37 */
    CU_ASSERT_PTR_NULL(pms_model_reg_at(mont, PMS_SPACE_PMC, 16));

    const PmsRegister *pmc0 = pms_model_reg_by_kind(mont, PMS_REG_IA64_PMC, 0);
    CU_ASSERT_EQUAL(pms_layout_field(pmc0->layout, "fr")->shift, 0);
    CU_ASSERT_EQUAL(pms_layout_field(pmc0->layout, "ovfl")->shift, 4);
    CU_ASSERT_EQUAL(pms_layout_field(pmc0->layout, "ovfl")->width, 12);
    /* registers.md: reset values and masks (kernel tables) */
    struct {
        guint n;
        guint64 reset, writable;
        const char *field;
        guint shift;
    } pmcs[] = {
        { 32, G_GUINT64_CONSTANT(0x030f01ffffffffff), G_GUINT64_CONSTANT(0x030f01ffffffffff), "ig_ad", 57 },
        { 34, G_GUINT64_CONSTANT(0x000f01ffffffffff), G_GUINT64_CONSTANT(0x000f01ffffffffff), "m", 51 },
        { 33, 0, G_GUINT64_CONSTANT(0x1ffffffffff), "match", 0 },
        { 36, 0xfffffff0, 0xffffffff, "ch3_ig_opcm", 3 },
        { 37, 0, 0x3fff, "ct", 13 },
        { 38, 0xdb6, 0x2db6, "fine", 13 },
        { 39, 0, 0xffcf, "brt", 14 },
        { 40, 0x2000000, 0x30f01cf, "mode", 7 },
        { 41, G_GUINT64_CONSTANT(0x2078fefefefe), G_GUINT64_CONSTANT(0x1e078fefefefe), "ena_dbrp3", 48 },
        { 42, 0, 0x7ff4f, "delay", 11 },
    };
    for (guint i = 0; i < G_N_ELEMENTS(pmcs); i++) {
        const PmsRegister *r = pms_model_reg_at(mont, PMS_SPACE_PMC, pmcs[i].n);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CU_ASSERT_EQUAL(r->reset, pmcs[i].reset);
        CU_ASSERT_EQUAL(r->writable, pmcs[i].writable);
        const PmsField *f = pms_layout_field(r->layout, pmcs[i].field);
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        CU_ASSERT_EQUAL(f->shift, pmcs[i].shift);
    }
    /* EAR umask fields: PMC37 12:5, PMC40 19:16 */
    const PmsField *iu = pms_layout_field(pms_model_reg_by_name(mont, "PMC37")->layout, "umask");
    CU_ASSERT_EQUAL(iu->shift, 5);
    CU_ASSERT_EQUAL(iu->width, 8);
    CU_ASSERT_EQUAL(pms_layout_field(pms_model_reg_by_name(mont, "PMC40")->layout, "umask")->shift, 16);
    /* debug registers: odd ones hold mask 55:0 and plm 59:56 */
    const PmsRegister *ibr1 = pms_model_reg_by_kind(mont, PMS_REG_IA64_IBR, 1);
    const PmsRegister *dbr7 = pms_model_reg_at(mont, PMS_SPACE_DBR, 7);
    CU_ASSERT_EQUAL(ibr1->space, PMS_SPACE_IBR);
    CU_ASSERT_EQUAL(pms_layout_field(ibr1->layout, "plm")->shift, 56);
    CU_ASSERT_EQUAL(pms_layout_field(ibr1->layout, "x")->shift, 63);
    CU_ASSERT_EQUAL(pms_layout_field(dbr7->layout, "w")->shift, 62);
    CU_ASSERT_EQUAL(pms_layout_field(dbr7->layout, "mask")->width, 56);
    CU_ASSERT_EQUAL(pms_model_reg_at(mont, PMS_SPACE_IBR, 0)->kind, PMS_REG_IA64_IBR);
    CU_ASSERT_EQUAL(pms_model_reg_at(mont, PMS_SPACE_DBR, 0)->kind, PMS_REG_IA64_DBR);
}

static void test_modifiers(void)
{
    static const char *const order[] = { "k", "u", "thres", "oi", "mesi_i", "mesi_s", "mesi_e", "mesi_m" };
    CU_ASSERT_EQUAL_FATAL(mont->n_mods, G_N_ELEMENTS(order));
    const PmsRegister *pmc4 = pms_model_reg_by_kind(mont, PMS_REG_IA64_PMC, 4);
    for (guint i = 0; i < G_N_ELEMENTS(order); i++) {
        CU_ASSERT_STRING_EQUAL(mont->mods[i].name, order[i]);
        CU_ASSERT_STRING_EQUAL(mont->mods[i].reg_kind, "ia64_pmc");
        CU_ASSERT_PTR_NOT_NULL(pms_layout_field(pmc4->layout, mont->mods[i].field));
    }
    const PmsModifier *t = pms_model_modifier(mont, "thres");
    CU_ASSERT_EQUAL(t->type, PMS_MOD_INT);
    CU_ASSERT_EQUAL(t->min, 0);
    CU_ASSERT_EQUAL(t->max, 7);
    CU_ASSERT_STRING_EQUAL(pms_model_modifier(mont, "k")->field, "plm0");
    CU_ASSERT_STRING_EQUAL(pms_model_modifier(mont, "u")->field, "plm3");
    CU_ASSERT_STRING_EQUAL(pms_model_option(mont, "pmd_read_upper", ""), "sign_extend");
}

/* The compiled image equals the text, fact by fact. */
static void test_image_equals_text(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModel) text = pms_model_load_file(montecito_path, &err);
    if (!text)
        fprintf(stderr, "# %s\n", err->message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    g_autoptr(GBytes) image = pms_model_image_write(text);
    g_autoptr(PmsModel) back = pms_model_image_read(image, "montecito.pmi", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(back);
    const PmsModel *models[] = { back, mont };
    for (guint k = 0; k < 2; k++) {
        const PmsModel *b = models[k];
        CU_ASSERT_EQUAL_FATAL(b->n_events, text->n_events);
        CU_ASSERT_EQUAL_FATAL(b->n_regs, text->n_regs);
        CU_ASSERT_EQUAL(b->counter_base, text->counter_base);
        guint bad = 0;
        for (guint i = 0; i < text->n_events; i++) {
            const PmsEvent *x = &text->events[i], *y = &b->events[i];
            bad += strcmp(x->name, y->name) != 0 || x->code != y->code || x->base_umask != y->base_umask ||
                x->counters != y->counters || pms_ia64_facts(x)->max_inc != pms_ia64_facts(y)->max_inc ||
                pms_ia64_facts(x)->cache_group != pms_ia64_facts(y)->cache_group ||
                pms_ia64_facts(x)->cache_set != pms_ia64_facts(y)->cache_set ||
                pms_ia64_facts(x)->ev_type != pms_ia64_facts(y)->ev_type ||
                pms_ia64_facts(x)->qualifiers != pms_ia64_facts(y)->qualifiers ||
                pms_ia64_facts(x)->ear != pms_ia64_facts(y)->ear ||
                pms_ia64_facts(x)->ear_mode != pms_ia64_facts(y)->ear_mode ||
                pms_ia64_facts(x)->etb != pms_ia64_facts(y)->etb ||
                pms_ia64_facts(x)->mesi != pms_ia64_facts(y)->mesi ||
                pms_ia64_facts(x)->code_range != pms_ia64_facts(y)->code_range || x->modifiers != y->modifiers ||
                x->flags != y->flags || g_strcmp0(x->equiv, y->equiv) != 0 ||
                g_strcmp0(x->extra_reg, y->extra_reg) != 0;
        }
        for (guint i = 0; i < text->n_regs; i++) {
            const PmsRegister *x = &text->regs[i], *y = &b->regs[i];
            bad += strcmp(x->name, y->name) != 0 || x->space != y->space || x->address != y->address ||
                x->kind != y->kind || x->index != y->index || x->width != y->width || x->writable != y->writable ||
                x->ignored != y->ignored || x->reset != y->reset || pms_model_reg_at(b, x->space, x->address) != y;
        }
        CU_ASSERT_EQUAL(bad, 0);
    }
    /* a format version that carries the Itanium facts (5: code_range; 6 added instances) */
    gsize len;
    const guint8 *data = g_bytes_get_data(image, &len);
    CU_ASSERT_EQUAL(data[PMS_IMAGE_MAGIC_LEN], PMS_IMAGE_VERSION);
    CU_ASSERT_TRUE(PMS_IMAGE_VERSION >= 5);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s MONTECITO.pmu\n", argv[0]);
        return 2;
    }
    montecito_path = argv[1];
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("montecito", suite_init, suite_clean);
    CU_add_test(s, "header and counts (637 events, README totals)", test_header_and_counts);
    CU_add_test(s, "spot checks against events.tsv", test_spot_checks);
    CU_add_test(s, "registers by space, number and kind", test_registers);
    CU_add_test(s, "modifiers", test_modifiers);
    CU_add_test(s, "image equals text", test_image_equals_text);
    return pms_cu_tap_run();
}
