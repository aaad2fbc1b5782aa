/* models/tests — the model format's Itanium (arch ia64) facts on a small
 * model: parsed, refused by the loader when inconsistent (an accepted model
 * never makes the encoder or the simulator fail later), and reported by the
 * lint when a model reached memory another way (models/model_ia64.c). */
#include <string.h>
#include <CUnit/CUnit.h>
#include "cu_tap.h"
#include "model.h"
#include "model_ia64.h"

#define MINI                                                                                                           \
    "[pmu]\nname = mini\narch = ia64\ngp_counters = 2\ncounter_base = 4\ngp_width = 47\n"                              \
    "[layout c]\nplm = 3:0\noi = 5\nall = 6\nes = 15:8\numask = 19:16\nthres = 22:20\nmesi_i = 27\n"                   \
    "[layout e]\nplm = 3:0\nmode = 5:4\numask = 19:16\n"                                                               \
    "[register PMC4]\nspace = pmc\naddress = 4\nkind = ia64_pmc\nindex = 4\nlayout = c\n"                              \
    "[register PMC5]\nspace = pmc\naddress = 5\nkind = ia64_pmc\nindex = 5\nlayout = c\n"                              \
    "[register PMD4]\nspace = pmd\naddress = 4\nkind = ia64_pmd\nindex = 4\nwidth = 47\n"                              \
    "[register PMD5]\nspace = pmd\naddress = 5\nkind = ia64_pmd\nindex = 5\nwidth = 47\n"                              \
    "[register PMC40]\nspace = pmc\naddress = 40\nkind = ia64_pmc\nindex = 40\nlayout = e\n"                           \
    "[modifier mesi_i]\ntype = bool\nregister = ia64_pmc\nfield = mesi_i\n"

#define EV_A                                                                                                           \
    "[event A]\ncode = 1\ncounters = 0x30\nmax_inc = 2\ntype = active\nqualifiers = opcm darr\nmodifiers = none\n"
#define EV_D                                                                                                           \
    "[event D]\ncode = 0xc8\nbase_umask = 0xe\nmax_inc = 1\ntype = floating\near = dear\near_mode = tlb\n"             \
    "extra = PMC40\nmodifiers = none\n"
#define EV_L "[event L]\ncode = 2\nmax_inc = 1\ntype = causal\ncache_group = l2d\ncache_set = 3\nmodifiers = none\n"
#define EV_M "[event M]\ncode = 3\nmax_inc = 1\ntype = self_floating\nmesi = true\n"

static PmsModel *load(const char *text, GError **err)
{
    return pms_model_load_data(text, strlen(text), "mini.pmu", err);
}

static void test_mini_facts(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModel) m = load(MINI EV_A EV_D EV_L EV_M, &err);
    if (!m)
        fprintf(stderr, "# %s\n", err->message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const PmsEvent *a = pms_model_event(m, "A"), *d = pms_model_event(m, "D");
    const PmsEvent *l = pms_model_event(m, "L"), *mm = pms_model_event(m, "M");
    CU_ASSERT_EQUAL(pms_ia64_facts(a)->qualifiers, PMS_IA64_QUAL_OPCM | PMS_IA64_QUAL_DARR);
    CU_ASSERT_EQUAL(pms_ia64_facts(a)->cache_set, -1);
    CU_ASSERT_EQUAL(pms_ia64_facts(a)->ear, PMS_IA64_EAR_NONE);
    CU_ASSERT_EQUAL(pms_ia64_facts(d)->ear, PMS_IA64_EAR_D);
    CU_ASSERT_EQUAL(pms_ia64_facts(d)->ear_mode, PMS_IA64_EAR_MODE_TLB);
    CU_ASSERT_EQUAL(pms_ia64_facts(l)->cache_group, PMS_IA64_GROUP_L2D);
    CU_ASSERT_EQUAL(pms_ia64_facts(l)->cache_set, 3);
    CU_ASSERT_EQUAL(l->counters, 0x30); /* default: every counter, over counter numbers */
    CU_ASSERT_EQUAL(pms_ia64_facts(mm)->ev_type, PMS_IA64_TYPE_SELF_FLOATING);
    CU_ASSERT_TRUE(pms_ia64_facts(mm)->mesi);
    CU_ASSERT_EQUAL(mm->modifiers, G_MAXUINT32);
    g_autoptr(GPtrArray) p = g_ptr_array_new_with_free_func(g_free);
    CU_ASSERT_TRUE(pms_model_lint(m, p));
    for (guint i = 0; i < p->len; i++)
        fprintf(stderr, "# %s\n", (char *)p->pdata[i]);
    CU_ASSERT_STRING_EQUAL(pms_ia64_event_type_name(PMS_IA64_TYPE_SELF_FLOATING), "self_floating");
    CU_ASSERT_STRING_EQUAL(pms_ia64_ear_mode_name(PMS_IA64_EAR_MODE_ALAT), "alat");
    CU_ASSERT_STRING_EQUAL(pms_ia64_cache_group_name(PMS_IA64_GROUP_L1D), "l1d");
    CU_ASSERT_STRING_EQUAL(pms_ia64_ear_name(PMS_IA64_EAR_I), "iear");
    CU_ASSERT_PTR_NULL(pms_ia64_ear_name((PmsIa64Ear)7));
}

/* The loader refuses `text` with a message holding every needle. */
static void expect_refused(const char *text, const char *const *needles)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModel) m = load(text, &err);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    gboolean all = TRUE;
    for (guint i = 0; needles[i]; i++)
        all = all && strstr(err->message, needles[i]) != NULL;
    if (!all)
        fprintf(stderr, "# loader said: %s\n", err->message);
    CU_ASSERT_TRUE(all);
}

#define REFUSED(text, ...) expect_refused(text, (const char *const[]){ __VA_ARGS__, NULL })

static void test_loader_refuses(void)
{
    /* malformed words */
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = sleepy\n", "key 'type'", "self_floating");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = active\ncache_group = l3\n", "key 'cache_group'");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = active\ncache_group = l2d\ncache_set = 16\n",
            "key 'cache_set'");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = active\near = xear\n", "key 'ear'");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = active\nqualifiers = opcm none\n", "key 'qualifiers'");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = active\nqualifiers = brr\n", "unknown qualifier 'brr'");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = active\netb = yes\n", "key 'etb'");
    /* inconsistent facts, named with the event's line */
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 0\ntype = active\nmodifiers = none\n", "mini.pmu:55:", "key 'max_inc'",
            "got 0");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 9\ntype = active\nmodifiers = none\n", "max_inc 9");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = active\ncounters = 0xfff0\nmodifiers = none\n",
            "counters 0xfff0", "outside 4..5");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = active\ncounters = 0x8\nmodifiers = none\n", "outside 4..5");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = active\ncache_set = 2\nmodifiers = none\n",
            "cache_set 2 without a cache_group");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = active\ncache_group = l1d\nmodifiers = none\n",
            "cache_group l1d without a cache_set");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = active\near_mode = tlb\nmodifiers = none\n",
            "ear_mode tlb without an ear kind");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = active\near = dear\nextra = PMC40\nmodifiers = none\n",
            "ear dear without an ear_mode");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = active\ncode_range = prefetch\nmodifiers = none\n",
            "code_range = prefetch without the iarr qualifier");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = active\ncode_range = ibrp1\nmodifiers = none\n",
            "key 'code_range'", "ibrp0, prefetch, dual, not_ibrp1");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = active\near = iear\near_mode = alat\nextra = PMC40\n"
                 "modifiers = none\n",
            "no alat mode");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = active\near = dear\near_mode = tlb\nmodifiers = none\n",
            "needs extra");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = active\nextra = PMC40\nmodifiers = none\n",
            "not an EAR event");
    REFUSED(MINI "[event X]\ncode = 1\nbase_umask = 0x10\nmax_inc = 1\ntype = active\nmodifiers = none\n",
            "umask 0x10 does not fit the 4-bit umask field");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = active\n", "takes modifier mesi_i", "mesi is not true");
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\ntype = active\numask.U = 1 default\nmodifiers = none\n",
            "base_umask, not umask.* keys");
    /* Itanium facts on another family: keys it does not have (the list
     * names its own), and counter_base there */
    REFUSED(
        "[pmu]\nname = x\narch = x86_core\ngp_counters = 1\n[event E]\ncode = 1\nmax_inc = 2\n",
        "key 'max_inc': unknown key; expected one of: code, base_umask, counters, fixed, flags, extra, match, desc, "
        "group, equiv, modifiers (or umask.U");
    REFUSED("[pmu]\nname = x\narch = toy\ngp_counters = 1\n[event E]\ncode = 1\near = dear\n",
            "key 'ear': unknown key");
    /* an ia64 model lists the family's keys */
    REFUSED(MINI "[event X]\ncode = 1\nmax_inc = 1\nthres = 2\n",
            "modifiers, max_inc, cache_group, cache_set, type, qualifiers, ear, ear_mode, etb, mesi, code_range (or");
    REFUSED("[pmu]\nname = x\narch = x86_core\ngp_counters = 1\ncounter_base = 4\n", "counter_base 4 on a non-ia64");
}

/* The lint reports each inconsistency the loader refuses, for a model that
 * reached memory another way (an image, a program), and the missing facts
 * the loader lets through (a placeholder model such as the encoder's encu). */
static void expect_lint(PmsModel *m, const char *needle)
{
    g_autoptr(GPtrArray) p = g_ptr_array_new_with_free_func(g_free);
    CU_ASSERT_FALSE(pms_model_lint(m, p));
    gboolean found = FALSE;
    for (guint i = 0; i < p->len && !found; i++)
        found = strstr(p->pdata[i], needle) != NULL && g_str_has_prefix(p->pdata[i], "mini.pmu:");
    if (!found) {
        fprintf(stderr, "# wanted: %s\n", needle);
        for (guint i = 0; i < p->len; i++)
            fprintf(stderr, "# lint said: %s\n", (char *)p->pdata[i]);
    }
    CU_ASSERT_TRUE(found);
}

#define LINT_AFTER(stmt, needle)                                                                                       \
    do {                                                                                                               \
        g_autoptr(PmsModel) m = load(MINI EV_A EV_D EV_L EV_M, NULL);                                                  \
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);                                                                               \
        PmsEvent *A = (PmsEvent *)pms_model_event(m, "A"), *D = (PmsEvent *)pms_model_event(m, "D");                   \
        /* the facts are read-only to their users; the test changes them */                                            \
        PmsIa64EventFacts *FA = (PmsIa64EventFacts *)A->facts, *FD = (PmsIa64EventFacts *)D->facts;                    \
        (void)A;                                                                                                       \
        (void)D;                                                                                                       \
        (void)FA;                                                                                                      \
        (void)FD;                                                                                                      \
        stmt;                                                                                                          \
        expect_lint(m, needle);                                                                                        \
    } while (0)

/* Loaded, and linted with a problem holding the needle. */
static void accepted_linted(const char *text, const char *needle)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModel) m = load(text, &err);
    if (!m)
        fprintf(stderr, "# loader said: %s\n", err->message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    expect_lint(m, needle);
}

static void test_lint_catches(void)
{
    /* missing facts: the loader accepts them, the lint does not */
    accepted_linted(MINI "[event X]\ncode = 1\ntype = active\nmodifiers = none\n",
                    "mini.pmu:53: event X: max_inc is 0 or missing");
    accepted_linted(MINI "[event X]\ncode = 1\nmax_inc = 1\nmodifiers = none\n", "event X: type missing");
    accepted_linted("[pmu]\nname = m\narch = ia64\ngp_counters = 1\ncounter_base = 4\ngp_width = 47\n",
                    "mini.pmu:1: counter 4 has no configuration register (kind ia64_pmc, index 4)");

    LINT_AFTER(FA->max_inc = 0, "event A: max_inc is 0");
    LINT_AFTER(FA->max_inc = 12, "event A: max_inc 12 is above 8");
    LINT_AFTER(A->counters = 0xfff0, "event A: counters 0xfff0 names counters outside 4..5");
    LINT_AFTER(A->counters = 0x3, "outside 4..5");
    LINT_AFTER(A->counters = 0, "event A can use no counter");
    LINT_AFTER(FA->ev_type = PMS_IA64_TYPE_NONE, "event A: type missing");
    LINT_AFTER(FA->cache_set = 4, "event A: cache_set 4 without a cache_group");
    LINT_AFTER(FA->cache_group = PMS_IA64_GROUP_L1D, "event A: cache_group l1d without a cache_set");
    LINT_AFTER(FA->ear_mode = PMS_IA64_EAR_MODE_CACHE, "event A: ear_mode cache without an ear kind");
    LINT_AFTER(FD->ear_mode = PMS_IA64_EAR_MODE_NONE, "event D: ear dear without an ear_mode");
    LINT_AFTER((FD->ear = PMS_IA64_EAR_I, FD->ear_mode = PMS_IA64_EAR_MODE_ALAT),
               "event D: the instruction EAR has no alat");
    LINT_AFTER(FD->etb = TRUE, "event D: both an EAR event and an ETB event");
    LINT_AFTER(FA->code_range = PMS_IA64_CODE_RANGE_DUAL, "event A: code_range = dual without the iarr qualifier");
    LINT_AFTER(D->base_umask = 0x1f, "event D: umask 0x1f does not fit the 4-bit umask field of PMC40");
    LINT_AFTER(A->base_umask = 0x10, "umask 0x10 does not fit the 4-bit umask field of the counting PMC");
    LINT_AFTER(A->modifiers = 1, "event A takes modifier mesi_i (a MESI qualifier) but mesi is not true");
    LINT_AFTER(m->counter_base = 5, "counter 6 has no configuration register");
    LINT_AFTER(m->regs[3].width = 48, "counter 5: register PMD5 is 48 bits wide");
    LINT_AFTER(m->family = pms_family_by_name("x86_uncore"), "event A: per-event facts on a x86_uncore model");
    /* two EAR events differing in mode only are not duplicates; same mode are */
    g_autoptr(PmsModel) m =
        load(MINI EV_D "[event D2]\ncode = 0xc8\nbase_umask = 0xe\nmax_inc = 1\n"
                       "type = floating\near = dear\near_mode = cache\nextra = PMC40\nmodifiers = none\n"
                       "[event D3]\ncode = 0xc8\nbase_umask = 0xe\nmax_inc = 1\n"
                       "type = floating\near = dear\near_mode = cache\nextra = PMC40\nmodifiers = none\n",
             NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    expect_lint(m, "D3 has the same encoding as D2");
    g_autoptr(GPtrArray) p = g_ptr_array_new_with_free_func(g_free);
    pms_model_lint(m, p);
    CU_ASSERT_EQUAL(p->len, 1);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite f = CU_add_suite("itanium facts", NULL, NULL);
    CU_add_test(f, "a consistent model", test_mini_facts);
    CU_add_test(f, "the loader refuses inconsistent facts", test_loader_refuses);
    CU_add_test(f, "the lint catches each inconsistency", test_lint_catches);
    return pms_cu_tap_run();
}
