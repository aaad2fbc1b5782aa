/* models/tests — loader, lookups, options, model set and lint.
 *
 * The test-only model tiny.pmu (path passed as argv[1]) provides the facts the
 * lookups are checked against; malformed variants are built in memory from
 * small snippets so each failure names the exact line it should. */
#include <string.h>
#include <glib/gstdio.h>
#include <CUnit/CUnit.h>
#include "cu_tap.h"
#include "model.h"
#include "family.h"

static const char *tiny_path;

/* A minimal valid header used by the snippets below. */
#define HDR "[pmu]\nname = t\narch = x86_core\ngp_counters = 2\nfixed_counters = 1\n"
/* A header for models the lint must find clean: a counter width and the
 * one counter's event-select register. */
#define HDR1 "[pmu]\nname = t\narch = x86_core\ngp_counters = 1\ngp_width = 48\nfixed_counters = 1\n"
/* Every field the x86 core's simulator reads of an event select (the lint
 * reports a missing one, field_need.c). */
#define EVTSEL_FIELDS                                                                                                  \
    "event = 7:0\numask = 15:8\nusr = 16\nos = 17\nedge = 18\nint = 20\nen = 22\ninv = 23\ncmask = 31:24\n"
#define CLEAN                                                                                                          \
    HDR1 "[layout cl_sel]\n" EVTSEL_FIELDS "[register CL_SEL0]\naddress = 0x186\nkind = evtsel\nlayout = cl_sel\n"

static PmsModel *load_text(const char *text, GError **error)
{
    return pms_model_load_data(text, strlen(text), "snippet.pmu", error);
}

/* Loading `text` must fail, and the message must contain every needle. */
static void expect_error(const char *text, int code, const char *const *needles)
{
    g_autoptr(GError) err = NULL;
    PmsModel *m = load_text(text, &err);
    if (m)
        fprintf(stderr, "# unexpectedly loaded: %s\n", text);
    CU_ASSERT_PTR_NULL(m);
    pms_model_free(m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    if (!g_error_matches(err, PMS_MODEL_ERROR, code))
        fprintf(stderr, "# '%s': code %d, expected %d\n", err->message, err->code, code);
    CU_ASSERT_TRUE(g_error_matches(err, PMS_MODEL_ERROR, code));
    for (guint i = 0; needles[i]; i++) {
        gboolean found = strstr(err->message, needles[i]) != NULL;
        if (!found)
            fprintf(stderr, "# message '%s' lacks '%s'\n", err->message, needles[i]);
        CU_ASSERT_TRUE(found);
    }
}

#define EXPECT_ERROR(text, code, ...) expect_error(text, code, (const char *const[]){ __VA_ARGS__, NULL })

/* ---- good input ---- */

static void test_tiny_header(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModel) m = pms_model_load_file(tiny_path, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_STRING_EQUAL(m->name, "tiny");
    CU_ASSERT_PTR_EQUAL(m->family, pms_family_by_name("x86_core"));
    CU_ASSERT_EQUAL(m->version, 3);
    CU_ASSERT_TRUE(m->smt);
    CU_ASSERT_EQUAL(m->n_gp, 2);
    CU_ASSERT_EQUAL(m->gp_width, 48);
    CU_ASSERT_EQUAL(m->n_fixed, 1);
    CU_ASSERT_TRUE(m->edge_needs_cmask);
    CU_ASSERT_STRING_EQUAL(m->offcore_style, "nhm");
    CU_ASSERT_STRING_EQUAL(m->source, tiny_path);
    CU_ASSERT_EQUAL(m->n_events, 7);
}

static void test_tiny_lookups(void)
{
    g_autoptr(PmsModel) m = pms_model_load_file(tiny_path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);

    const PmsEvent *e = pms_model_event(m, "inst_retired");
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_PTR_EQUAL(e, pms_model_event(m, "INST_RETIRED"));
    CU_ASSERT_PTR_NULL(pms_model_event(m, "NO_SUCH"));
    CU_ASSERT_EQUAL(e->code, 0xc0);
    CU_ASSERT_EQUAL(e->fixed, 0x1);
    CU_ASSERT_EQUAL(e->counters, 0x3); /* default: every generic counter */
    CU_ASSERT_EQUAL(e->flags, PMS_EVENT_PEBS);
    CU_ASSERT_EQUAL(e->match, PMS_MATCH_EXACT);
    CU_ASSERT_STRING_EQUAL(e->desc, "instructions retired");
    const PmsUmask *u = pms_event_umask(e, "any_p");
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    CU_ASSERT_EQUAL(u->flags, PMS_UMASK_DEFAULT);
    CU_ASSERT_EQUAL(u->cmask, -1);
    CU_ASSERT_PTR_NULL(pms_event_umask(e, "ANY"));

    e = pms_model_event(m, "UOPS");
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_EQUAL(e->n_umasks, 3);
    CU_ASSERT_EQUAL(e->n_groups, 1);
    CU_ASSERT_TRUE(e->groups[0].required);
    CU_ASSERT_FALSE(e->groups[0].exclusive);
    u = pms_event_umask(e, "STALL");
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    CU_ASSERT_EQUAL(u->value, 0x01);
    CU_ASSERT_EQUAL(u->cmask, 1);
    CU_ASSERT_EQUAL(u->inv, 1);
    CU_ASSERT_EQUAL(u->edge, -1);
    CU_ASSERT_EQUAL(u->any, -1);
    CU_ASSERT_EQUAL(u->flags, PMS_UMASK_EXCL);
    CU_ASSERT_STRING_EQUAL(u->equiv, "A:c=1:i=1");
    CU_ASSERT_STRING_EQUAL(pms_event_umask(e, "A")->desc, "first kind of uop");
    CU_ASSERT_PTR_EQUAL(pms_event_default_umask(e), pms_event_umask(e, "A"));

    e = pms_model_event(m, "MODE");
    CU_ASSERT_TRUE(e->groups[0].exclusive);

    e = pms_model_event(m, "CYCLES");
    CU_ASSERT_EQUAL(e->counters, 0x1);
    CU_ASSERT_PTR_NULL(pms_event_default_umask(e)); /* no unit mask at all */
    CU_ASSERT_EQUAL(e->n_umasks, 0);

    e = pms_model_event(m, "LD_LAT");
    CU_ASSERT_EQUAL(e->base_umask, 0);
    CU_ASSERT_EQUAL(pms_event_umask(e, "ABOVE")->flags, PMS_UMASK_DEFAULT | PMS_UMASK_LDLAT);
    CU_ASSERT_EQUAL(e->flags, PMS_EVENT_LDLAT | PMS_EVENT_PEBS);
    CU_ASSERT_STRING_EQUAL(e->extra_reg, "MSR_PEBS_LD_LAT");

    e = pms_model_event(m, "offcore_response_0");
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_EQUAL(e->flags, PMS_EVENT_OFFCORE);
    CU_ASSERT_EQUAL(e->n_groups, 2);
    CU_ASSERT_STRING_EQUAL(e->groups[0].name, "request");
    CU_ASSERT_STRING_EQUAL(e->groups[1].name, "response");
    u = pms_event_umask(e, "ANY_RESPONSE");
    CU_ASSERT_EQUAL(u->value, 0xff00);
    CU_ASSERT_EQUAL(u->group, 1);
    CU_ASSERT_EQUAL(u->flags, PMS_UMASK_DEFAULT | PMS_UMASK_OVERRIDE);
    CU_ASSERT_EQUAL(pms_event_umask(e, "DMND_RFO")->group, 0);

    e = pms_model_event(m, "INSTRUCTIONS_RETIRED");
    CU_ASSERT_STRING_EQUAL(e->equiv, "INST_RETIRED:ANY_P");
    CU_ASSERT_EQUAL(e->flags, PMS_EVENT_DUP);
}

static void test_tiny_registers(void)
{
    g_autoptr(PmsModel) m = pms_model_load_file(tiny_path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const PmsRegister *r = pms_model_reg_by_addr(m, 0x187);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_STRING_EQUAL(r->name, "IA32_PERFEVTSEL1");
    CU_ASSERT_EQUAL(r->kind, PMS_REG_EVTSEL);
    CU_ASSERT_EQUAL(r->index, 1);
    CU_ASSERT_EQUAL(r->width, 64);
    CU_ASSERT_EQUAL(r->writable, 0xffffffff);
    CU_ASSERT_PTR_EQUAL(r->layout, pms_model_layout(m, "EVTSEL"));
    CU_ASSERT_PTR_EQUAL(r, pms_model_reg_by_name(m, "ia32_perfevtsel1"));
    CU_ASSERT_PTR_EQUAL(r, pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 1));
    CU_ASSERT_PTR_NULL(pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 2));
    CU_ASSERT_PTR_NULL(pms_model_reg_by_addr(m, 0x188));
    CU_ASSERT_PTR_NULL(pms_model_reg_by_name(m, "IA32_PERFEVTSEL2"));

    r = pms_model_reg_by_name(m, "IA32_PERF_GLOBAL_STATUS");
    CU_ASSERT_TRUE(r->readonly);
    CU_ASSERT_EQUAL(r->writable, G_MAXUINT64); /* default */
    CU_ASSERT_PTR_EQUAL(r->layout, pms_model_layout(m, "global_status"));
    r = pms_model_reg_by_name(m, "IA32_PMC1");
    CU_ASSERT_PTR_NULL(r->layout); /* a register without fields */
    CU_ASSERT_EQUAL(r->width, 48);
    CU_ASSERT_EQUAL(r->reset, 0);
    CU_ASSERT_EQUAL(pms_model_reg_by_name(m, "IA32_FIXED_CTR0")->reset, 0x5);
}

static void test_fields(void)
{
    g_autoptr(PmsModel) m = pms_model_load_file(tiny_path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const PmsLayout *l = pms_model_layout(m, "evtsel");
    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    CU_ASSERT_PTR_NULL(pms_model_layout(m, "nope"));
    const PmsField *cmask = pms_layout_field(l, "cmask");
    const PmsField *usr = pms_layout_field(l, "USR");
    CU_ASSERT_PTR_NOT_NULL_FATAL(cmask);
    CU_ASSERT_PTR_NOT_NULL_FATAL(usr);
    CU_ASSERT_PTR_NULL(pms_layout_field(l, "nope"));
    CU_ASSERT_PTR_NULL(pms_layout_field(NULL, "usr"));
    /* by register: its layout's field; NULL for no register or no such field */
    const PmsRegister *es = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(es);
    CU_ASSERT_PTR_EQUAL(pms_register_field(es, "cmask"), pms_layout_field(es->layout, "cmask"));
    CU_ASSERT_PTR_NOT_NULL(pms_register_field(es, "cmask"));
    CU_ASSERT_PTR_NULL(pms_register_field(es, "nope"));
    CU_ASSERT_PTR_NULL(pms_register_field(NULL, "cmask"));
    CU_ASSERT_EQUAL(cmask->shift, 24);
    CU_ASSERT_EQUAL(cmask->width, 8);
    CU_ASSERT_EQUAL(usr->shift, 16);
    CU_ASSERT_EQUAL(usr->width, 1);
    /* value 0x1ff is truncated to the field; other bits are kept */
    guint64 v = pms_field_set(cmask, 0xffULL, 0x1ff);
    CU_ASSERT_EQUAL(v, 0xff0000ffULL);
    CU_ASSERT_EQUAL(pms_field_get(cmask, v), 0xff);
    v = pms_field_set(usr, v, 1);
    CU_ASSERT_EQUAL(v, 0xff0100ffULL);
    CU_ASSERT_EQUAL(pms_field_set(cmask, v, 0), 0x000100ffULL);
    PmsField full = { .name = "all", .shift = 0, .width = 64 };
    CU_ASSERT_EQUAL(pms_field_get(&full, G_MAXUINT64), G_MAXUINT64);
    CU_ASSERT_EQUAL(pms_field_set(&full, 0, 0x1234), 0x1234);
}

static void test_modifiers_and_options(void)
{
    g_autoptr(PmsModel) m = pms_model_load_file(tiny_path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->n_mods, 7);
    const char *order[] = { "k", "u", "e", "i", "c", "t", "ldlat" };
    for (guint i = 0; i < 7; i++)
        CU_ASSERT_STRING_EQUAL(m->mods[i].name, order[i]);
    const PmsModifier *c = pms_model_modifier(m, "C");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(c->type, PMS_MOD_INT);
    CU_ASSERT_EQUAL(c->max, 255);
    CU_ASSERT_STRING_EQUAL(c->reg_kind, "evtsel");
    CU_ASSERT_STRING_EQUAL(c->field, "cmask");
    const PmsModifier *ld = pms_model_modifier(m, "ldlat");
    CU_ASSERT_EQUAL(ld->min, 3);
    CU_ASSERT_EQUAL(ld->max, 65535);
    CU_ASSERT_STRING_EQUAL(ld->reg_kind, "pebs_ld_lat");
    const PmsModifier *k = pms_model_modifier(m, "k");
    CU_ASSERT_EQUAL(k->type, PMS_MOD_BOOL);
    CU_ASSERT_EQUAL(k->max, 1);
    CU_ASSERT_STRING_EQUAL(k->desc, "count at privilege level 0");
    CU_ASSERT_PTR_NULL(pms_model_modifier(m, "x"));

    CU_ASSERT_STRING_EQUAL(pms_model_option(m, "cpl_gate", "x"), "post");
    CU_ASSERT_STRING_EQUAL(pms_model_option(m, "anythread_combine", NULL), "sum");
    CU_ASSERT_STRING_EQUAL(pms_model_option(m, "missing", "fallback"), "fallback");
    CU_ASSERT_PTR_NULL(pms_model_option(m, "missing", NULL));
}

static void test_enum_names(void)
{
    PmsRegKind k;
    CU_ASSERT_TRUE(pms_reg_kind_from_name("OFFCORE_RSP", &k));
    CU_ASSERT_EQUAL(k, PMS_REG_OFFCORE_RSP);
    CU_ASSERT_STRING_EQUAL(pms_reg_kind_name(PMS_REG_GLOBAL_INUSE), "global_inuse");
    CU_ASSERT_FALSE(pms_reg_kind_from_name("bogus", &k));
    CU_ASSERT_PTR_NULL(pms_reg_kind_name((PmsRegKind)999));
    for (guint i = 0; i <= PMS_REG_OTHER; i++) {
        CU_ASSERT_TRUE(pms_reg_kind_from_name(pms_reg_kind_name((PmsRegKind)i), &k));
        CU_ASSERT_EQUAL(k, i);
    }
}

/* The family registry's model layer: every family by position and by name,
 * the names for messages, and a layer table's consistency check (an entry
 * naming no family, a family twice, a family without an entry). */
/* A family's per-event facts table (family.h PmsEventFact) as the loader,
 * the image and the lint rely on it: each key once and not a generic key,
 * its 32-bit member inside the struct, words where the kind needs them, a
 * default the image reader accepts. */
static void check_event_facts(const PmsFamily *f)
{
    static const char *const generic[] = { "code",  "base_umask", "counters", "fixed", "flags",    "extra",
                                           "match", "desc",       "group",    "equiv", "modifiers" };
    const PmsEventFacts *ef = f->event_facts;
    CU_ASSERT_TRUE(ef->n_keys > 0 && ef->size >= 4 * ef->n_keys);
    for (guint k = 0; k < ef->n_keys; k++) {
        const PmsEventFact *x = &ef->keys[k];
        gboolean ok = x->key && x->offset + 4 <= ef->size && x->offset % 4 == 0;
        for (guint j = 0; ok && j < k; j++)
            ok = strcmp(ef->keys[j].key, x->key) != 0 && ef->keys[j].offset != x->offset;
        for (guint j = 0; ok && j < G_N_ELEMENTS(generic); j++)
            ok = strcmp(generic[j], x->key) != 0;
        if (x->kind == PMS_FACT_UINT)
            ok = ok && x->min <= x->max;
        if (x->kind == PMS_FACT_WORD)
            ok = ok && x->words && x->dflt < x->n_words;
        if (x->kind == PMS_FACT_FLAGS)
            ok = ok && x->words && x->n_words <= 32 && (x->n_words == 32 || x->dflt >> x->n_words == 0);
        if (x->kind == PMS_FACT_BOOL)
            ok = ok && x->dflt <= 1;
        if (!ok)
            fprintf(stderr, "# family %s: event fact %u (%s) is malformed\n", f->name, k, x->key ? x->key : "?");
        CU_ASSERT_TRUE(ok);
    }
}

static void test_families(void)
{
    CU_ASSERT_EQUAL(pms_family_count(), 6);
    for (guint i = 0; i < pms_family_count(); i++) {
        const PmsFamily *f = pms_family_nth(i);
        CU_ASSERT_PTR_EQUAL(pms_family_by_name(f->name), f);
        CU_ASSERT_PTR_NOT_NULL(f->desc);
        if (f->event_facts)
            check_event_facts(f);
    }
    CU_ASSERT_PTR_NOT_NULL(pms_family_by_name("ia64")->event_facts);
    CU_ASSERT_PTR_NULL(pms_family_by_name("x86_core")->event_facts);
    CU_ASSERT_PTR_NULL(pms_family_nth(pms_family_count()));
    CU_ASSERT_PTR_NULL(pms_family_by_name("x86"));
    CU_ASSERT_PTR_NULL(pms_family_by_name(NULL));
    CU_ASSERT_STRING_EQUAL(pms_family_names(), "x86_core, x86_uncore, nhmex_cbox, ia64, toy or amd64");

    static const int a = 1, b = 2;
    static const PmsFamilyEntry good[] = { { "x86_core", &a }, { "x86_uncore", &a }, { "nhmex_cbox", &a },
                                           { "ia64", &b },     { "toy", &a },        { "amd64", &a } };
    PmsFamilyTable t = PMS_FAMILY_TABLE("test", good);
    g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
    CU_ASSERT_TRUE(pms_family_table_check(&t, problems));
    CU_ASSERT_PTR_EQUAL(pms_family_table_get(&t, pms_family_by_name("ia64")), &b);
    CU_ASSERT_PTR_EQUAL(pms_family_table_get(&t, pms_family_by_name("x86_core")), &a);
    static const PmsFamily stranger = { .name = "stranger", .desc = "not registered" };
    CU_ASSERT_PTR_NULL(pms_family_table_get(&t, &stranger));
    CU_ASSERT_PTR_NULL(pms_family_table_get(&t, NULL));

    static const PmsFamilyEntry bad[] = { { "x86_core", &a }, { "x86", &a }, { "x86_core", &b }, { "ia64", NULL } };
    PmsFamilyTable u = PMS_FAMILY_TABLE("test", bad);
    CU_ASSERT_FALSE(pms_family_table_check(&u, problems));
    g_autoptr(GString) all = g_string_new(NULL);
    for (guint i = 0; i < problems->len; i++)
        g_string_append_printf(all, "%s\n", (const char *)problems->pdata[i]);
    CU_ASSERT_PTR_NOT_NULL(strstr(all->str, "test layer: entry 1 names family 'x86', which is not registered"));
    CU_ASSERT_PTR_NOT_NULL(strstr(all->str, "test layer: family x86_core registered twice (entries 0 and 2)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(all->str, "test layer: family ia64 has no ops"));
    CU_ASSERT_PTR_NOT_NULL(strstr(all->str, "test layer: no entry for family x86_uncore"));
    CU_ASSERT_PTR_NOT_NULL(strstr(all->str, "test layer: no entry for family nhmex_cbox"));
    /* the first entry of a family wins */
    CU_ASSERT_PTR_EQUAL(pms_family_table_get(&u, pms_family_by_name("x86_core")), &a);

    /* an unknown arch names every family */
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModel) m = pms_model_load_data("[pmu]\nname = x\narch = z80\n", 26, "z.pmu", &err);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT_TRUE(err &&
                   strstr(err->message, "expected x86_core, x86_uncore, nhmex_cbox, ia64, toy or amd64, got 'z80'"));
}

static void test_minimal_and_defaults(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModel) m = load_text("# comment\n\n" HDR "offcore_style = none\n"
                                      "[event E]\ncode = 0x10\nflags = fixed_only, dup\n"
                                      "[event F]\ncode = 16\ngroup.a = optional exclusive\ngroup = optional\n"
                                      "umask.X = 0x1 group=a\numask.Y = 0x2\n",
                                      &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_PTR_NULL(m->offcore_style);
    CU_ASSERT_FALSE(m->smt);
    CU_ASSERT_EQUAL(m->version, 0);
    const PmsEvent *e = pms_model_event(m, "E");
    CU_ASSERT_EQUAL(e->flags, PMS_EVENT_FIXED_ONLY | PMS_EVENT_DUP);
    CU_ASSERT_EQUAL(e->source_line, 9);
    e = pms_model_event(m, "F");
    CU_ASSERT_EQUAL(e->code, 16);
    CU_ASSERT_EQUAL(e->n_groups, 2);
    CU_ASSERT_TRUE(e->groups[0].exclusive);
    CU_ASSERT_FALSE(e->groups[0].required);
    CU_ASSERT_FALSE(e->groups[1].required);
    CU_ASSERT_EQUAL(pms_event_umask(e, "Y")->group, 1);
    CU_ASSERT_EQUAL(pms_event_umask(e, "Y")->source_line, 17);
}

/* ---- malformed input: every message names file:line and the key ---- */

static void test_syntax_errors(void)
{
    EXPECT_ERROR("", PMS_MODEL_ERROR_KEY, "snippet.pmu:1:", "[pmu]");
    EXPECT_ERROR("name = x\n", PMS_MODEL_ERROR_PARSE, "snippet.pmu:1:", "before the first");
    EXPECT_ERROR(HDR "just words\n", PMS_MODEL_ERROR_PARSE, "snippet.pmu:6:", "just words");
    EXPECT_ERROR(HDR "[event X\n", PMS_MODEL_ERROR_PARSE, "snippet.pmu:6:", "malformed group");
    EXPECT_ERROR(HDR "[]\n", PMS_MODEL_ERROR_PARSE, "snippet.pmu:6:");
    EXPECT_ERROR(HDR "[a]b]\n", PMS_MODEL_ERROR_PARSE, "snippet.pmu:6:");
    EXPECT_ERROR(HDR "[event A]\ncode = 1\n\n[event A]\ncode = 2\n", PMS_MODEL_ERROR_PARSE, "snippet.pmu:9:", "line 6");
    EXPECT_ERROR(HDR "name = again\n", PMS_MODEL_ERROR_PARSE, "snippet.pmu:6:", "'name'", "line 2");
    EXPECT_ERROR(HDR "bad[key] = 1\n", PMS_MODEL_ERROR_PARSE, "snippet.pmu:6:", "bad[key]");
    EXPECT_ERROR(HDR "desc = caf\xc3\n", PMS_MODEL_ERROR_PARSE, "snippet.pmu:6:", "UTF-8");
    static const char nul[] = HDR "desc = a\0b\n";
    g_autoptr(GError) err = NULL;
    CU_ASSERT_PTR_NULL(pms_model_load_data(nul, sizeof nul - 1, "nul.pmu", &err));
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err->message, "nul.pmu:6:"));
    g_clear_error(&err);
    CU_ASSERT_PTR_NULL(pms_model_load_file("/nonexistent/x.pmu", &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_MODEL_ERROR, PMS_MODEL_ERROR_NOTFOUND));
    CU_ASSERT_PTR_NOT_NULL(strstr(err->message, "/nonexistent/x.pmu"));
    g_clear_error(&err);
    /* issue 10: a byte-order mark is named, not an invisible bad character;
     * a device is not read without end */
    EXPECT_ERROR("\xef\xbb\xbf" HDR, PMS_MODEL_ERROR_PARSE, "snippet.pmu:1:", "UTF-8 byte-order mark (bytes EF BB BF)");
    CU_ASSERT_PTR_NULL(pms_model_load_file("/dev/zero", &err));
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err->message, "/dev/zero: larger than 67108864 bytes"));
}

/* issue 10: names and equiv values cannot carry the protocol's or the
 * syntax's separators (a TAB in equiv added fields to an answer line). */
static void test_name_separators(void)
{
    EXPECT_ERROR(HDR "[event E]\ncode = 1\nequiv = INST_RETIRED:ANY_P\tc=1\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:8:", "key 'equiv'", "expected an event string");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\nequiv = A::B\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:8:", "key 'equiv'");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\nequiv = A:c=x\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:8:", "key 'equiv'");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\nequiv = A.B\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:8:", "key 'equiv'");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\numask.A = 1 default equiv=B,C\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:8:", "equiv 'B,C'");
    EXPECT_ERROR(HDR "[event E.F]\ncode = 1\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:6:", "bad event name 'E.F'");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\numask.A.B = 1 default\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:8:", "bad unit mask name 'A.B'");
    EXPECT_ERROR(HDR "[modifier c=1]\ntype = int\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:6:", "bad modifier name 'c=1'");
    EXPECT_ERROR(HDR "[modifier a.b]\ntype = int\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:6:", "bad modifier name 'a.b'");
}

static void test_header_errors(void)
{
    EXPECT_ERROR("[pmu]\narch = x86_core\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:1:", "'name'");
    EXPECT_ERROR("[pmu]\nname = a b\narch = x86_core\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:2:", "'name'");
    EXPECT_ERROR("[pmu]\nname = a\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:1:", "'arch'");
    EXPECT_ERROR("[pmu]\nname = a\narch = arm\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:3:", "key 'arch'", "x86_core");
    EXPECT_ERROR(HDR "version = -1\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:6:", "key 'version'", "number");
    EXPECT_ERROR("[pmu]\nname = t\narch = x86_core\ngp_counters = 0x\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:4:", "key 'gp_counters'");
    EXPECT_ERROR("[pmu]\nname = t\narch = x86_core\ngp_counters = 65\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:4:", "<= 64");
    EXPECT_ERROR(HDR "smt = yes\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:6:", "key 'smt'", "true or false");
    EXPECT_ERROR(HDR "offcore_style = x\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:6:", "offcore_style");
    EXPECT_ERROR(HDR "colour = red\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:6:", "key 'colour'", "unknown key");
    EXPECT_ERROR(HDR "[widget w]\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:6:", "[widget w]", "unknown group");
    EXPECT_ERROR(HDR "[event ]\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:6:", "unknown group");
}

/* Registers identified by (space, address) and by (unit, instance, kind,
 * index): PMC4 and PMD4 share a number; C-Box 0 and 1 share kinds. */
static void test_register_identity(void)
{
    static const char text[] =
        "[pmu]\nname = ids\narch = x86_uncore\nunit = cbox\ninstance = 1\ngp_counters = 1\ngp_width = 48\n"
        "[register PMC4]\naddress = 4\nkind = ia64_pmc\nindex = 4\nspace = pmc\n"
        "[register PMD4]\naddress = 4\nkind = ia64_pmd\nindex = 4\nspace = pmd\n"
        "[register C0_EVT_SEL0]\naddress = 0xd10\nkind = evtsel\nunit = cbox\ninstance = 0\n"
        "[register C1_EVT_SEL0]\naddress = 0xd90\nkind = evtsel\nunit = cbox\ninstance = 1\n"
        "[register U_GLOBAL_CTL]\naddress = 0xc00\nkind = global_ctrl\nunit = ubox\n";
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModel) m = load_text(text, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_STRING_EQUAL(m->unit, "cbox");
    CU_ASSERT_EQUAL(m->instance, 1);
    const PmsRegister *pmc4 = pms_model_reg_at(m, PMS_SPACE_PMC, 4), *pmd4 = pms_model_reg_at(m, PMS_SPACE_PMD, 4);
    CU_ASSERT_FATAL(pmc4 && pmd4);
    CU_ASSERT_STRING_EQUAL(pmc4->name, "PMC4");
    CU_ASSERT_STRING_EQUAL(pmd4->name, "PMD4");
    CU_ASSERT_PTR_NULL(pms_model_reg_by_addr(m, 4)); /* not an MSR */
    CU_ASSERT_PTR_EQUAL(pms_model_reg_at(m, PMS_SPACE_MSR, 0xd90), pms_model_reg_by_addr(m, 0xd90));
    /* the model's own instance: C-Box 1 */
    const PmsRegister *own = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(own);
    CU_ASSERT_STRING_EQUAL(own->name, "C1_EVT_SEL0");
    const PmsRegister *c0 = pms_model_reg_in_unit(m, "cbox", 0, PMS_REG_EVTSEL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c0);
    CU_ASSERT_STRING_EQUAL(c0->name, "C0_EVT_SEL0");
    CU_ASSERT_PTR_NOT_NULL(pms_model_reg_in_unit(m, "ubox", 0, PMS_REG_GLOBAL_CTRL, 0));
    CU_ASSERT_PTR_NULL(pms_model_reg_by_kind(m, PMS_REG_GLOBAL_CTRL, 0)); /* the U-Box's, not C-Box 1's */
    CU_ASSERT_STRING_EQUAL(pms_reg_space_name(PMS_SPACE_DBR), "dbr");
    /* a bad space names the file, line and key */
    static const char bad[] = "[pmu]\nname = b\narch = ia64\n[register X]\naddress = 1\nkind = ia64_pmc\nspace = pmq\n";
    CU_ASSERT_PTR_NULL(load_text(bad, &err));
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err->message, "snippet.pmu:7"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err->message, "expected msr, pmc, pmd, ibr or dbr"));
}

static void test_layout_register_errors(void)
{
    EXPECT_ERROR(HDR "[layout l]\nf = 8:9\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:7:", "key 'f'", "HI:LO");
    EXPECT_ERROR(HDR "[layout l]\nf = 64\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:7:", "key 'f'");
    EXPECT_ERROR(HDR "[layout l]\nf = 1:2:3\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:7:");
    EXPECT_ERROR(HDR "[layout l]\nf = 1\nF = 2\n", PMS_MODEL_ERROR_CONFLICT, "snippet.pmu:8:", "twice");
    EXPECT_ERROR(HDR "[layout l]\nf = 1\n[layout L]\ng = 2\n", PMS_MODEL_ERROR_CONFLICT, "snippet.pmu:8:", "layout l");
    EXPECT_ERROR(HDR "[register R]\nkind = pmc\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:6:", "'address'");
    EXPECT_ERROR(HDR "[register R]\naddress = 0x100000000\nkind = pmc\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:7:", "key 'address'");
    EXPECT_ERROR(HDR "[register R]\naddress = 1\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:6:", "'kind'");
    EXPECT_ERROR(HDR "[register R]\naddress = 1\nkind = pmcx\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:8:", "pmcx");
    EXPECT_ERROR(HDR "[register R]\naddress = 1\nkind = pmc\nwidth = 0\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:9:", "key 'width'");
    EXPECT_ERROR(HDR "[register R]\naddress = 1\nkind = pmc\nlayout = none\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:9:", "key 'layout'", "[layout none]");
    EXPECT_ERROR(HDR "[register R]\naddress = 1\nkind = pmc\nspeed = 3\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:9:", "key 'speed'");
    EXPECT_ERROR(HDR "[register R]\naddress = 1\nkind = pmc\n[register r]\naddress = 2\nkind = pmc\n",
                 PMS_MODEL_ERROR_CONFLICT, "snippet.pmu:9:", "twice");
    EXPECT_ERROR(HDR "[register R:1]\naddress = 1\nkind = pmc\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:6:");
    /* a counter's width is [pmu] gp_width / fixed_width; a register giving
     * another would be an edit the simulator ignores */
    EXPECT_ERROR(HDR "gp_width = 48\n[register R]\naddress = 1\nkind = pmc\nwidth = 40\n", PMS_MODEL_ERROR_CONFLICT,
                 "snippet.pmu:10:", "key 'width'", "gp_width = 48");
    EXPECT_ERROR(HDR "gp_width = 48\n[register R]\naddress = 1\nkind = a_pmc\nwidth = 32\n", PMS_MODEL_ERROR_CONFLICT,
                 "snippet.pmu:10:", "gp_width = 48");
    EXPECT_ERROR(HDR "fixed_width = 40\n[register R]\naddress = 1\nkind = fixed_ctr\nwidth = 48\n",
                 PMS_MODEL_ERROR_CONFLICT, "snippet.pmu:10:", "fixed_width = 40");
}

/* The counter registers' width: taken from [pmu] when not given, accepted
 * when it agrees; other registers keep their own (64 by default). */
static void test_counter_width(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModel) m = load_text(HDR "gp_width = 40\nfixed_width = 36\n"
                                          "[register P]\naddress = 1\nkind = pmc\n"
                                          "[register Q]\naddress = 2\nkind = pmc\nindex = 1\nwidth = 40\n"
                                          "[register F]\naddress = 3\nkind = fixed_ctr\n"
                                          "[register S]\naddress = 4\nkind = evtsel\n",
                                      &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(pms_model_reg_by_name(m, "P")->width, 40);
    CU_ASSERT_EQUAL(pms_model_reg_by_name(m, "Q")->width, 40);
    CU_ASSERT_EQUAL(pms_model_reg_by_name(m, "F")->width, 36);
    CU_ASSERT_EQUAL(pms_model_reg_by_name(m, "S")->width, 64);
    /* writable bits follow the width (one place to edit: gp_width), unless given */
    CU_ASSERT_EQUAL(pms_model_reg_by_name(m, "P")->writable, (G_GUINT64_CONSTANT(1) << 40) - 1);
    CU_ASSERT_EQUAL(pms_model_reg_by_name(m, "F")->writable, (G_GUINT64_CONSTANT(1) << 36) - 1);
    CU_ASSERT_EQUAL(pms_model_reg_by_name(m, "F")->ignored, 0); /* x86: bits above are reserved */
    CU_ASSERT_EQUAL(pms_model_reg_by_name(m, "S")->writable, G_MAXUINT64);
    g_autoptr(PmsModel) w =
        load_text(HDR "gp_width = 40\n[register P]\naddress = 1\nkind = pmc\nwritable = 0xff\n", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL(pms_model_reg_by_name(w, "P")->writable, 0xff);
}

/* Every problem of a file in one run (issue 18), each at its own line and in
 * file order; a problem in a kind later kinds name (a register) stops there,
 * one in options or events does not. */
static void test_all_problems_one_run(void)
{
    g_autoptr(GError) err = NULL;
    PmsModel *m = load_text(CLEAN "[options]\ncpl_gate = postt\npmi_freez_delay = 3\n"
                                  "[event A]\ncode = 0x3c\nbogus = 1\n"
                                  "[event B]\ncode = 0x3d\n"
                                  "[event C]\ncode = 0xzz\n",
                            &err);
    CU_ASSERT_PTR_NULL(m);
    pms_model_free(m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    g_auto(GStrv) lines = g_strsplit(err->message, "\n", -1);
    CU_ASSERT_EQUAL_FATAL(g_strv_length(lines), 4);
    CU_ASSERT_PTR_NOT_NULL(strstr(lines[0], "key 'cpl_gate'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(lines[1], "pmi_freez_delay"));
    CU_ASSERT_PTR_NOT_NULL(strstr(lines[2], "[event A]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(lines[3], "[event C]"));
    for (guint i = 0; i < 4; i++) /* each names its own line */
        CU_ASSERT_TRUE(g_str_has_prefix(lines[i], "snippet.pmu:"));
    CU_ASSERT_STRING_NOT_EQUAL(strchr(lines[0], ':'), strchr(lines[1], ':'));

    /* a bad register stops before the events, which name registers */
    g_clear_error(&err);
    m = load_text(CLEAN "[register R1]\naddress = 0x1\nkind = nonsense\n"
                        "[register R2]\naddress = 0x2\nkind = evtsel\nwidth = 0\n"
                        "[event A]\ncode = 0x3c\nbogus = 1\n",
                  &err);
    CU_ASSERT_PTR_NULL(m);
    pms_model_free(m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    g_auto(GStrv) two = g_strsplit(err->message, "\n", -1);
    CU_ASSERT_EQUAL(g_strv_length(two), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err->message, "[register R1]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err->message, "[register R2]"));
    CU_ASSERT_PTR_NULL(strstr(err->message, "[event A]"));
}

static void test_modifier_errors(void)
{
    EXPECT_ERROR(HDR "[modifier m]\nregister = evtsel\nfield = f\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:6:", "'type'");
    EXPECT_ERROR(HDR "[modifier m]\ntype = float\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:7:", "key 'type'");
    EXPECT_ERROR(HDR "[modifier m]\ntype = int\nregister = evtsel\nfield = f\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:6:", "'range'");
    EXPECT_ERROR(HDR "[modifier m]\ntype = int\nrange = 5:1\nregister = evtsel\nfield = f\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:8:", "key 'range'");
    EXPECT_ERROR(HDR "[modifier m]\ntype = bool\nrange = 0:2\nregister = evtsel\nfield = f\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:8:", "key 'range'");
    EXPECT_ERROR(HDR "[modifier m]\ntype = bool\nfield = f\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:6:", "'register'");
    EXPECT_ERROR(HDR "[modifier m]\ntype = bool\nregister = cpu\nfield = f\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:8:", "key 'register'");
    EXPECT_ERROR(HDR "[modifier m]\ntype = bool\nregister = evtsel\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:6:", "'field'");
    EXPECT_ERROR(HDR "[modifier m]\ntype = bool\nregister = evtsel\nfield = f\n"
                     "[modifier M]\ntype = bool\nregister = evtsel\nfield = f\n",
                 PMS_MODEL_ERROR_CONFLICT, "snippet.pmu:10:", "twice");
}

static void test_event_errors(void)
{
    EXPECT_ERROR(HDR "[event E]\nbase_umask = 1\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:6:", "'code'");
    EXPECT_ERROR(HDR "[event E:X]\ncode = 1\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:6:", "E:X");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\n[event e]\ncode = 2\n", PMS_MODEL_ERROR_CONFLICT, "snippet.pmu:8:", "twice");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\nflags = fast\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:8:", "key 'flags'",
                 "fast");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\nmatch = fuzzy\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:8:", "key 'match'");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\nwhatever = 1\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:8:", "key 'whatever'");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\numask. = 1\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:8:");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\numask.A = one\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:8:", "key 'umask.A'",
                 "VALUE");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\numask.A = 1 deflaut\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:8:", "deflaut");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\numask.A = 1 c=256\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:8:", "c=256");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\numask.A = 1 i=2\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:8:", "i=2");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\numask.A = 1 group=zz\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:8:", "group 'zz'");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\numask.A = 1\numask.a = 2\n", PMS_MODEL_ERROR_CONFLICT,
                 "snippet.pmu:9:", "twice");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\ngroup.g = required always\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:8:", "always");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\ngroup.g = required\ngroup.G = optional\n", PMS_MODEL_ERROR_CONFLICT,
                 "snippet.pmu:9:", "twice");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\ngroup.a:b = required\n", PMS_MODEL_ERROR_PARSE, "snippet.pmu:8:");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\ngroup.a/b = required\n", PMS_MODEL_ERROR_PARSE, "snippet.pmu:8:");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\ndesc.B = text\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:8:", "no unit mask B");
    EXPECT_ERROR(HDR "[event E]\ncode = 0x1ffffffff\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:7:", "key 'code'");
}

/* ---- model set ---- */

/* The per-event modifier list and the group_excl flag (the uncore models). */
static void test_event_modifiers_key(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModel) m =
        load_text(HDR1 "[layout l]\n" EVTSEL_FIELDS "[register S]\naddress = 1\nkind = evtsel\nlayout = l\n"
                       "[modifier e]\ntype = bool\nregister = evtsel\nfield = edge\n"
                       "[modifier c]\ntype = int\nrange = 0:255\nregister = evtsel\nfield = cmask\n"
                       "[event ALL]\ncode = 1\n[event NONE]\ncode = 2\nmodifiers = none\n"
                       "[event SOME]\ncode = 3\nmodifiers = C\n"
                       "[event G]\ncode = 4\nflags = group_excl\ngroup.a = required\ngroup.b = required\n"
                       "umask.X = 0x1 group=a default\numask.Y = 0x2 group=b default\n",
                  &err);
    if (!m)
        fprintf(stderr, "# %s\n", err->message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(pms_model_event(m, "ALL")->modifiers, G_MAXUINT32);
    CU_ASSERT_EQUAL(pms_model_event(m, "NONE")->modifiers, 0);
    CU_ASSERT_EQUAL(pms_model_event(m, "SOME")->modifiers, 1u << 1);
    CU_ASSERT_EQUAL(pms_model_event(m, "G")->flags, PMS_EVENT_GROUP_EXCL);
    g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
    CU_ASSERT_TRUE(pms_model_lint(m, problems));

    EXPECT_ERROR(HDR "[event E]\ncode = 1\nmodifiers = u\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:8:", "key 'modifiers'",
                 "no modifier 'u'");
    EXPECT_ERROR(
        HDR "[modifier e]\ntype = bool\nregister = evtsel\nfield = edge\n[event E]\ncode = 1\nmodifiers = none e\n",
        PMS_MODEL_ERROR_KEY, "key 'modifiers'", "'none' alone");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\nmodifiers = \n", PMS_MODEL_ERROR_KEY, "key 'modifiers'");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\nflags = grp_excl\n", PMS_MODEL_ERROR_KEY, "group_excl");
}

/* The uncore models: registers by the names the simulator device reads. */
static void test_builtin_uncore(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModelSet) set = pms_model_set_new_builtin(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    const char *names[] = { "nhm_unc", "wsm_unc" };
    const guint n_events[] = { 42, 52 };
    for (guint i = 0; i < 2; i++) {
        const PmsModel *m = pms_model_set_get(set, names[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        CU_ASSERT_PTR_EQUAL(m->family, pms_family_by_name("x86_uncore"));
        CU_ASSERT_EQUAL(m->n_events, n_events[i]);
        CU_ASSERT_EQUAL(m->n_gp, 8);
        CU_ASSERT_EQUAL(m->n_fixed, 1);
        CU_ASSERT_FALSE(m->smt);
        CU_ASSERT_PTR_NULL(pms_model_modifier(m, "u"));
        CU_ASSERT_PTR_NULL(pms_model_modifier(m, "k"));
        CU_ASSERT_STRING_EQUAL(m->mods[3].name, "o");
        const PmsRegister *r = pms_model_reg_by_name(m, "MSR_UNCORE_PERFEVTSEL7");
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CU_ASSERT_EQUAL(r->address, 0x3c7);
        CU_ASSERT_EQUAL(r->kind, PMS_REG_EVTSEL);
        CU_ASSERT_EQUAL(r->index, 7);
        CU_ASSERT_EQUAL(r->writable, 0xffd6ffff);
        CU_ASSERT_EQUAL(pms_layout_field(r->layout, "occ_ctr_rst")->shift, 17);
        r = pms_model_reg_by_addr(m, 0x391);
        CU_ASSERT_STRING_EQUAL(r->name, "MSR_UNCORE_PERF_GLOBAL_CTRL");
        CU_ASSERT_EQUAL(r->writable, G_GUINT64_CONSTANT(0x800f0001000000ff));
        CU_ASSERT_EQUAL(pms_layout_field(r->layout, "pmi_core")->shift, 48);
        CU_ASSERT_EQUAL(pms_model_reg_by_addr(m, 0x393)->writable, G_GUINT64_CONSTANT(0xa0000001000000ff));
        CU_ASSERT_STRING_EQUAL(pms_model_reg_by_addr(m, 0x393)->layout->name, "unc_global_status");
        CU_ASSERT_TRUE(pms_model_reg_by_addr(m, 0x392)->readonly);
        CU_ASSERT_EQUAL(pms_model_reg_by_kind(m, PMS_REG_FIXED_CTR, 0)->address, 0x394);
        CU_ASSERT_EQUAL(pms_model_reg_by_kind(m, PMS_REG_FIXED_CTRL, 0)->writable, 0x5);
        CU_ASSERT_EQUAL(pms_model_reg_by_kind(m, PMS_REG_MATCH, 0)->writable, G_GUINT64_CONSTANT(0xe000fffffffffff8));
        CU_ASSERT_EQUAL(pms_model_reg_by_kind(m, PMS_REG_PMC, 3)->address, 0x3b3);
        const PmsEvent *clk = pms_model_event(m, "UNC_CLK_UNHALTED");
        CU_ASSERT_EQUAL(clk->code, 0xff);
        CU_ASSERT_EQUAL(clk->counters, 0);
        CU_ASSERT_EQUAL(clk->fixed, 1);
        CU_ASSERT_EQUAL(clk->modifiers, 0);
        CU_ASSERT_EQUAL(pms_model_event(m, "UNC_QHL_CYCLES_NOT_EMPTY")->modifiers, 0);
        CU_ASSERT_EQUAL(pms_model_event(m, "UNC_LLC_MISS")->counters, 0xff);
        const PmsEvent *w = pms_model_event(m, "UNC_QMC_WRITES");
        CU_ASSERT_TRUE(w->flags & PMS_EVENT_GROUP_EXCL);
        CU_ASSERT_EQUAL(w->n_groups, 2);
        CU_ASSERT_TRUE(pms_event_umask(w, "FULL_ANY")->flags & PMS_UMASK_EXCL);
        CU_ASSERT_EQUAL(pms_event_default_umask(w)->value, 0x07);
    }
}

static void test_builtin_set(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModelSet) set = pms_model_set_new_builtin(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    const char *names[] = {
        "amd64_fam17h_zen2", "glm",         "icl",         "montecito",   "nhm",         "nhm_ex",      "nhm_unc",
        "nhmex_cbox0",       "nhmex_cbox1", "nhmex_cbox2", "nhmex_cbox3", "nhmex_cbox4", "nhmex_cbox5", "nhmex_cbox6",
        "nhmex_cbox7",       "skl",         "wsm",         "wsm_dp",      "wsm_unc"
    };
    CU_ASSERT_EQUAL(pms_model_set_count(set), G_N_ELEMENTS(names));
    for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
        const PmsModel *m = pms_model_set_nth(set, i);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        CU_ASSERT_STRING_EQUAL(m->name, names[i]);
        CU_ASSERT_PTR_EQUAL(pms_model_set_get(set, names[i]), m);
        CU_ASSERT_TRUE(g_str_has_prefix(m->source, "builtin:"));
        CU_ASSERT_TRUE(m->n_events > 30);
    }
    CU_ASSERT_PTR_NULL(pms_model_set_nth(set, 99));
    CU_ASSERT_PTR_NULL(pms_model_set_get(set, "itanium"));
    CU_ASSERT_PTR_NULL(pms_model_set_get(set, NULL));
    CU_ASSERT_PTR_EQUAL(pms_model_set_get(set, "GLM"), pms_model_set_nth(set, 1));

    /* facts every built-in x86 core model must carry */
    const PmsModel *glm = pms_model_set_get(set, "glm");
    CU_ASSERT_EQUAL(glm->version, 4);
    CU_ASSERT_FALSE(glm->smt);
    CU_ASSERT_PTR_NULL(pms_model_modifier(glm, "t"));
    CU_ASSERT_PTR_NULL(pms_model_modifier(glm, "ldlat"));
    CU_ASSERT_PTR_NOT_NULL(pms_model_reg_by_addr(glm, 0x4c1));
    CU_ASSERT_EQUAL(pms_model_reg_by_addr(glm, 0x391)->kind, PMS_REG_GLOBAL_STATUS_SET);
    CU_ASSERT_EQUAL(pms_model_reg_by_addr(glm, 0x392)->kind, PMS_REG_GLOBAL_INUSE);
    CU_ASSERT_PTR_NULL(pms_model_reg_by_addr(glm, 0x3f6));
    const PmsEvent *oc = pms_model_event(glm, "OFFCORE_RESPONSE_1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(oc);
    CU_ASSERT_EQUAL(oc->code, 0xb7);
    CU_ASSERT_EQUAL(oc->base_umask, 0x02);
    CU_ASSERT_STRING_EQUAL(oc->extra_reg, "MSR_OFFCORE_RSP_1");
    const PmsUmask *any = pms_event_umask(oc, "ANY_RESPONSE");
    CU_ASSERT_PTR_NOT_NULL_FATAL(any);
    CU_ASSERT_EQUAL(any->value, 0x10000);
    CU_ASSERT_EQUAL(any->flags & (PMS_UMASK_DEFAULT | PMS_UMASK_OVERRIDE), PMS_UMASK_DEFAULT | PMS_UMASK_OVERRIDE);

    const PmsModel *nhm = pms_model_set_get(set, "nhm");
    CU_ASSERT_PTR_NULL(pms_model_reg_by_addr(nhm, 0x1a7));
    CU_ASSERT_EQUAL(pms_model_reg_by_addr(nhm, 0x390)->kind, PMS_REG_GLOBAL_OVF_CTRL);
    const char *order[] = { "k", "u", "e", "i", "c", "t", "ldlat" };
    CU_ASSERT_EQUAL_FATAL(nhm->n_mods, 7);
    for (guint i = 0; i < 7; i++)
        CU_ASSERT_STRING_EQUAL(nhm->mods[i].name, order[i]);
    const PmsEvent *ld = pms_model_event(nhm, "MEM_INST_RETIRED");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ld);
    CU_ASSERT_TRUE(ld->flags & PMS_EVENT_LDLAT);
    CU_ASSERT_TRUE(pms_event_umask(ld, "LATENCY_ABOVE_THRESHOLD")->flags & PMS_UMASK_LDLAT);
    CU_ASSERT_FALSE(pms_event_umask(ld, "LOADS")->flags & PMS_UMASK_LDLAT);
    CU_ASSERT_STRING_EQUAL(ld->extra_reg, "MSR_PEBS_LD_LAT");
    CU_ASSERT_EQUAL(pms_model_modifier(nhm, "ldlat")->min, 3);

    const PmsModel *wsm = pms_model_set_get(set, "wsm");
    const PmsEvent *oc1 = pms_model_event(wsm, "OFFCORE_RESPONSE_1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(oc1);
    CU_ASSERT_EQUAL(oc1->code, 0xbb);
    const PmsUmask *stall = pms_event_umask(pms_model_event(wsm, "UOPS_RETIRED"), "STALL_CYCLES");
    CU_ASSERT_PTR_NOT_NULL_FATAL(stall);
    CU_ASSERT_EQUAL(stall->cmask, 1);
    CU_ASSERT_EQUAL(stall->inv, 1);
}

static void test_set_add_file(void)
{
    g_autoptr(PmsModelSet) set = pms_model_set_new_builtin(NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    guint n = pms_model_set_count(set);
    CU_ASSERT_TRUE(pms_model_set_add_file(set, tiny_path, NULL));
    CU_ASSERT_EQUAL(pms_model_set_count(set), n + 1);
    CU_ASSERT_STRING_EQUAL(pms_model_set_nth(set, n)->name, "tiny");

    /* a variant named like a built-in replaces it in place */
    g_autofree char *dir = g_dir_make_tmp("pmusim-models-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "glm-variant.pmu", NULL);
    CU_ASSERT_TRUE_FATAL(g_file_set_contents(path, "[pmu]\nname = glm\narch = x86_core\ngp_counters = 8\n", -1, NULL));
    CU_ASSERT_TRUE(pms_model_set_add_file(set, path, NULL));
    CU_ASSERT_EQUAL(pms_model_set_count(set), n + 1);
    const PmsModel *glm = pms_model_set_get(set, "glm");
    CU_ASSERT_EQUAL(glm->n_gp, 8);
    CU_ASSERT_PTR_EQUAL(pms_model_set_nth(set, 1), glm); /* in place: after amd64_fam17h_zen2, by name */
    CU_ASSERT_STRING_EQUAL(glm->source, path);

    /* a bad file leaves the set as it was */
    CU_ASSERT_TRUE_FATAL(g_file_set_contents(path, "[pmu]\nname = glm\n", -1, NULL));
    g_autoptr(GError) err = NULL;
    CU_ASSERT_FALSE(pms_model_set_add_file(set, path, &err));
    CU_ASSERT_PTR_NOT_NULL(err);
    CU_ASSERT_EQUAL(pms_model_set_get(set, "glm")->n_gp, 8);
    g_clear_error(&err);
    /* issue 10: a second file of the same name is refused, not last-wins */
    CU_ASSERT_FALSE(pms_model_set_add_file(set, tiny_path, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_MODEL_ERROR, PMS_MODEL_ERROR_CONFLICT));
    CU_ASSERT_TRUE(err && strstr(err->message, "model tiny was already loaded from"));
    CU_ASSERT_EQUAL(pms_model_set_count(set), n + 1);
    g_unlink(path);
    g_rmdir(dir);
}

/* ---- lint ---- */

static void test_lint_builtin_clean(void)
{
    g_autoptr(PmsModelSet) set = pms_model_set_new_builtin(NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    for (guint i = 0; i < pms_model_set_count(set); i++) {
        g_autoptr(GPtrArray) p = g_ptr_array_new_with_free_func(g_free);
        gboolean clean = pms_model_lint(pms_model_set_nth(set, i), p);
        for (guint j = 0; j < p->len; j++)
            fprintf(stderr, "# %s\n", (char *)p->pdata[j]);
        CU_ASSERT_TRUE(clean);
        CU_ASSERT_EQUAL(p->len, 0);
    }
    g_autoptr(PmsModel) tiny = pms_model_load_file(tiny_path, NULL);
    g_autoptr(GPtrArray) p = g_ptr_array_new_with_free_func(g_free);
    CU_ASSERT_TRUE(pms_model_lint(tiny, p));
}

/* The lint must report `text` with a problem containing every needle. */
static void expect_lint(const char *text, const char *const *needles)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModel) m = load_text(text, &err);
    if (!m)
        fprintf(stderr, "# load failed: %s\n", err->message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    g_autoptr(GPtrArray) p = g_ptr_array_new_with_free_func(g_free);
    CU_ASSERT_FALSE(pms_model_lint(m, p));
    gboolean found = FALSE;
    for (guint i = 0; i < p->len && !found; i++) {
        gboolean all = TRUE;
        for (guint j = 0; needles[j]; j++)
            all = all && strstr(p->pdata[i], needles[j]) != NULL;
        found = all;
    }
    if (!found)
        for (guint i = 0; i < p->len; i++)
            fprintf(stderr, "# lint said: %s\n", (char *)p->pdata[i]);
    CU_ASSERT_TRUE(found);
}

#define EXPECT_LINT(text, ...) expect_lint(text, (const char *const[]){ __VA_ARGS__, NULL })

#define EVTSEL                                                                                                         \
    "[layout evtsel]\nevent = 7:0\numask = 15:8\ncmask = 31:24\n"                                                      \
    "[register SEL0]\naddress = 0x186\nkind = evtsel\nlayout = evtsel\n"

static void test_lint_problems(void)
{
    EXPECT_LINT(HDR "[layout l]\na = 7:0\nb = 7\n", "snippet.pmu:6:", "a and b overlap");
    EXPECT_LINT(HDR "[layout l]\n", "snippet.pmu:6:", "no fields");
    EXPECT_LINT(HDR "[register A]\naddress = 1\nkind = pmc\n[register B]\naddress = 1\nkind = pmc\nindex = 1\n",
                "snippet.pmu:9:", "address 0x1");
    EXPECT_LINT(HDR "[register A]\naddress = 1\nkind = pmc\n[register B]\naddress = 2\nkind = pmc\n",
                "snippet.pmu:9:", "index 0");
    EXPECT_LINT(HDR "[register A]\naddress = 1\nkind = pmc\nreadonly = true\nwritable = 0xf\n", "read-only");
    EXPECT_LINT(HDR "[register A]\naddress = 1\nkind = pmc\nwritable = 0xf\nreset = 0x10\n", "resets");
    EXPECT_LINT(HDR "[layout l]\nf = 40:32\n[register A]\naddress = 1\nkind = pmc\nwidth = 32\nlayout = l\n",
                "snippet.pmu:8:", "field f");
    EXPECT_LINT(HDR "[modifier c]\ntype = int\nrange = 0:255\nregister = evtsel\nfield = cmask\n",
                "snippet.pmu:6:", "no register of kind evtsel");
    EXPECT_LINT(HDR EVTSEL "[modifier t]\ntype = bool\nregister = evtsel\nfield = any\n",
                "snippet.pmu:14:", "field any");
    EXPECT_LINT(HDR EVTSEL "[modifier c]\ntype = int\nrange = 0:256\nregister = evtsel\nfield = cmask\n",
                "maximum 256");
    EXPECT_LINT(HDR "[event E]\ncode = 1\ncounters = 0x4\n", "snippet.pmu:6:", "beyond the 2 generic");
    EXPECT_LINT(HDR "[event E]\ncode = 1\nfixed = 0x2\n", "beyond the 1 fixed");
    EXPECT_LINT(HDR "[event E]\ncode = 1\ncounters = 0\n", "no counter");
    EXPECT_LINT(HDR "[event E]\ncode = 0x100\n", "wider than 8 bits");
    EXPECT_LINT(HDR "[event E]\ncode = 1\nflags = group_excl\numask.A = 0x1 default\n",
                "snippet.pmu:6:", "group_excl on an event with fewer than two");
    EXPECT_LINT(HDR "[event E]\ncode = 1\numask.A = 0x100 default\n", "snippet.pmu:8:", "A value 0x100");
    EXPECT_LINT(HDR "[event E]\ncode = 1\nextra = NOPE\n", "extra register NOPE");
    EXPECT_LINT(HDR "[event E]\ncode = 1\nflags = offcore\n", "offcore event without");
    EXPECT_LINT(HDR "[register X]\naddress = 0x1a6\nkind = offcore_rsp\nwritable = 0xffff\n"
                    "[event E]\ncode = 1\nflags = offcore\nextra = X\numask.A = 0x10000 default\n",
                "snippet.pmu:14:", "bits 0x10000 that X does not implement");
    EXPECT_LINT(HDR "[event E]\ncode = 1\nflags = ldlat\n", "no ldlat modifier");
    EXPECT_LINT(HDR "[event E]\ncode = 1\numask.A = 1 default ldlat\n", "snippet.pmu:8:", "A is marked ldlat");
    EXPECT_LINT(HDR "[event E]\ncode = 1\ngroup.g = required\numask.A = 1 default\n", "group g has no member");
    EXPECT_LINT(HDR "[event E]\ncode = 1\numask.A = 1\n", "one unit mask, which is not the default");
    EXPECT_LINT(HDR "[event E]\ncode = 1\ngroup = required exclusive\numask.A = 1 default\numask.B = 2 default\n",
                "2 defaults");
    EXPECT_LINT(HDR "[event E]\ncode = 1\numask.A = 1 default\numask.B = 1\n",
                "snippet.pmu:9:", "E:B has the same encoding as E:A");
    EXPECT_LINT(HDR "[event E]\ncode = 1\numask.A = 1 default\n[event F]\ncode = 1\nbase_umask = 1\n",
                "snippet.pmu:9:", "F has the same encoding as E:A");
    EXPECT_LINT(HDR "[event E]\ncode = 1\n[event F]\ncode = 1\n", "F has the same encoding as E");
    /* issue 10: what loads but other commands refuse */
    EXPECT_LINT("[pmu]\nname = t\narch = x86_core\n", "snippet.pmu:1:", "has no registers");
    EXPECT_LINT("[pmu]\nname = t\narch = x86_core\n", "snippet.pmu:1:", "has no events");
    EXPECT_LINT("[pmu]\nname = t\narch = x86_core\ngp_counters = 1\ngp_width = 0\n", "gp_width 0: expected 1..63");
    EXPECT_LINT("[pmu]\nname = t\narch = x86_core\ngp_counters = 1\ngp_width = 64\n", "gp_width 64: expected 1..63");
    EXPECT_LINT(HDR EVTSEL, "snippet.pmu:1:", "gp_counters 2 but no event-select register (kind evtsel) of index 1");
    EXPECT_LINT(HDR EVTSEL "[register SEL5]\naddress = 0x18b\nkind = evtsel\nindex = 5\nlayout = evtsel\n",
                "snippet.pmu:14:", "register SEL5: event-select index 5, but there are 2 counters");
    EXPECT_LINT(HDR EVTSEL "[modifier c]\ntype = int\nrange = 10:255\nregister = evtsel\nfield = cmask\n",
                "snippet.pmu:14:", "range 10:255 excludes 0");
    EXPECT_LINT(HDR "[event E]\ncode = 1\numask.A = 1 default equiv=B:C\n",
                "snippet.pmu:8:", "equiv 'B:C' names B, neither a unit mask of E nor a modifier");
    EXPECT_LINT(HDR "[event E]\ncode = 1\nequiv = F:X\n", "snippet.pmu:6:", "equiv names the unknown event F");
    EXPECT_LINT(HDR "[event E]\ncode = 1\nequiv = E:q=1\n", "snippet.pmu:6:", "names the unknown modifier q");
    {
        GString *t = g_string_new(HDR EVTSEL);
        for (guint i = 0; i < 17; i++)
            g_string_append_printf(t, "[modifier m%u]\ntype = bool\nregister = evtsel\nfield = umask\n", i);
        EXPECT_LINT(t->str, "17 modifiers: the encoder takes at most 16");
        g_string_assign(t, HDR "[event E]\ncode = 1\ngroup = optional\n");
        for (guint i = 0; i < 129; i++)
            g_string_append_printf(t, "umask.U%u = %u\n", i, i);
        EXPECT_LINT(t->str, "snippet.pmu:6:", "event E: 129 unit masks: the encoder takes at most 128");
        g_string_assign(t, HDR "[event E]\ncode = 1\n");
        for (guint i = 0; i < 8; i++)
            g_string_append_printf(t, "group.g%u = optional\numask.U%u = %u group=g%u\n", i, i, i, i);
        EXPECT_LINT(t->str, "event E: 8 unit-mask groups: the encoder takes at most 7");
        g_string_free(t, TRUE);
    }
    /* the same kind and index twice in one unit instance */
    EXPECT_LINT(HDR "[register A]\naddress = 1\nkind = pmc\nunit = cbox\ninstance = 2\n"
                    "[register B]\naddress = 2\nkind = pmc\nunit = cbox\ninstance = 2\n",
                "snippet.pmu:11:", "B repeats kind pmc index 0 of A");
}

/* Registers of different unit instances (or address spaces) may share a kind
 * and index (or a number): not a lint problem. */
static void test_lint_units_and_spaces(void)
{
    g_autoptr(PmsModel) m =
        load_text(CLEAN "[event E]\ncode = 1\n"
                        "[register C0_CTR0]\naddress = 0xd11\nkind = pmc\nunit = cbox\ninstance = 0\n"
                        "[register C1_CTR0]\naddress = 0xd91\nkind = pmc\nunit = cbox\ninstance = 1\n"
                        "[register U_CTR]\naddress = 0xc11\nkind = pmc\nunit = ubox\n"
                        "[register OWN_CTR]\naddress = 0xc1\nkind = pmc\n"
                        "[register PMC4]\naddress = 4\nkind = ia64_pmc\nspace = pmc\n"
                        "[register PMD4]\naddress = 4\nkind = ia64_pmd\nspace = pmd\n",
                  NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    g_autoptr(GPtrArray) p = g_ptr_array_new_with_free_func(g_free);
    CU_ASSERT_TRUE(pms_model_lint(m, p));
    for (guint i = 0; i < p->len; i++)
        fprintf(stderr, "# %s\n", (char *)p->pdata[i]);
}

/* The Xeon 7500 C-Box models: one file per C-Box, each holding the whole
 * uncore; lookups by kind find the model's own box. */
static void test_builtin_nhmex(void)
{
    g_autoptr(PmsModelSet) set = pms_model_set_new_builtin(NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    static const guint32 base[8] = { 0xd00, 0xd80, 0xd40, 0xdc0, 0xd20, 0xda0, 0xd60, 0xde0 };
    for (guint n = 0; n < 8; n++) {
        g_autofree char *name = g_strdup_printf("nhmex_cbox%u", n);
        const PmsModel *m = pms_model_set_get(set, name);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        CU_ASSERT_PTR_EQUAL(m->family, pms_family_by_name("nhmex_cbox"));
        CU_ASSERT_STRING_EQUAL(m->unit, "cbox");
        CU_ASSERT_EQUAL(m->instance, n);
        CU_ASSERT_EQUAL(m->n_gp, 6);
        CU_ASSERT_EQUAL(m->gp_width, 48);
        CU_ASSERT_EQUAL(m->n_fixed, 0);
        CU_ASSERT_FALSE(m->smt);
        CU_ASSERT_EQUAL(m->n_regs, 5 + 2 + 8 * 15);
        CU_ASSERT_EQUAL(m->n_events, 34);
        CU_ASSERT_STRING_EQUAL(pms_model_option(m, "pmi_freeze_delay", "?"), "0");
        CU_ASSERT_STRING_EQUAL(pms_model_option(m, "invert", "?"), "documented");
        /* the own box's registers by kind and index */
        const PmsRegister *bc = pms_model_reg_by_kind(m, PMS_REG_BOX_CTRL, 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(bc);
        CU_ASSERT_EQUAL(bc->address, base[n]);
        CU_ASSERT_EQUAL(bc->writable, 0x3f);
        CU_ASSERT_PTR_NOT_NULL(pms_layout_field(bc->layout, "ctr_en"));
        const PmsRegister *bs = pms_model_reg_by_kind(m, PMS_REG_BOX_STATUS, 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(bs);
        CU_ASSERT_EQUAL(bs->address, base[n] + 1);
        CU_ASSERT_TRUE(bs->readonly);
        CU_ASSERT_EQUAL(pms_model_reg_by_kind(m, PMS_REG_BOX_OVF_CTRL, 0)->address, base[n] + 2);
        for (guint k = 0; k < 6; k++) {
            const PmsRegister *sel = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, k);
            const PmsRegister *ctr = pms_model_reg_by_kind(m, PMS_REG_PMC, k);
            CU_ASSERT_PTR_NOT_NULL_FATAL(sel);
            CU_ASSERT_PTR_NOT_NULL_FATAL(ctr);
            CU_ASSERT_EQUAL(sel->address, base[n] + 0x10 + 2 * k);
            CU_ASSERT_EQUAL(ctr->address, base[n] + 0x11 + 2 * k);
            CU_ASSERT_EQUAL(sel->writable, 0xffd4ffff);
            CU_ASSERT_EQUAL(sel->ignored, G_GUINT64_CONSTANT(0x9fffffff002b0000));
            CU_ASSERT_EQUAL(ctr->width, 48);
            CU_ASSERT_EQUAL(ctr->instance, n);
            CU_ASSERT_PTR_EQUAL(pms_model_reg_by_addr(m, sel->address), sel);
        }
        CU_ASSERT_PTR_NULL(pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 6));
        /* the other boxes by unit instance; the U-Box by its own unit */
        CU_ASSERT_EQUAL(pms_model_reg_in_unit(m, "cbox", (n + 1) % 8, PMS_REG_EVTSEL, 0)->address,
                        base[(n + 1) % 8] + 0x10);
        const PmsRegister *gc = pms_model_reg_in_unit(m, "ubox", 0, PMS_REG_GLOBAL_CTRL, 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(gc);
        CU_ASSERT_EQUAL(gc->address, 0xc00);
        CU_ASSERT_EQUAL(gc->writable, 0xb000001f);
        const PmsField *en_all = pms_layout_field(gc->layout, "en_all");
        CU_ASSERT_PTR_NOT_NULL_FATAL(en_all);
        CU_ASSERT_EQUAL(en_all->shift, 28);
        CU_ASSERT_PTR_NULL(pms_model_reg_by_kind(m, PMS_REG_GLOBAL_CTRL, 0)); /* not the C-Box's */
        CU_ASSERT_EQUAL(pms_model_reg_in_unit(m, "ubox", 0, PMS_REG_EVTSEL, 0)->address, 0xc10);
        CU_ASSERT_EQUAL(pms_model_reg_in_unit(m, "ubox", 0, PMS_REG_PMC, 0)->address, 0xc11);
        CU_ASSERT_EQUAL(pms_model_reg_in_unit(m, "sbox", 0, PMS_REG_BOX_STATUS, 0)->address, 0xc43);
        CU_ASSERT_EQUAL(pms_model_reg_in_unit(m, "sbox", 1, PMS_REG_BOX_STATUS, 0)->address, 0xcc3);
        /* the evtsel fields the encoder and the simulator read by name */
        const PmsLayout *l = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0)->layout;
        CU_ASSERT_EQUAL(pms_layout_field(l, "threshold")->shift, 24);
        CU_ASSERT_EQUAL(pms_layout_field(l, "threshold")->width, 8);
        CU_ASSERT_EQUAL(pms_layout_field(l, "pmi_en")->shift, 20);
        CU_ASSERT_EQUAL(pms_layout_field(l, "inv")->shift, 23);
        /* modifiers e i t pmi, no privilege filter */
        const char *order[] = { "e", "i", "t", "pmi" };
        CU_ASSERT_EQUAL_FATAL(m->n_mods, 4);
        for (guint i = 0; i < 4; i++)
            CU_ASSERT_STRING_EQUAL(m->mods[i].name, order[i]);
        CU_ASSERT_EQUAL(pms_model_modifier(m, "t")->max, 255);
        CU_ASSERT_PTR_NULL(pms_model_modifier(m, "u"));
        /* events: likwid's codes, no default unit mask, the flagged duplicate */
        const PmsEvent *miss = pms_model_event(m, "LLC_MISSES");
        CU_ASSERT_PTR_NOT_NULL_FATAL(miss);
        CU_ASSERT_EQUAL(miss->code, 0x14);
        CU_ASSERT_EQUAL(miss->counters, 0x3f);
        CU_ASSERT_EQUAL(pms_event_umask(miss, "ALL")->value, 0x07);
        CU_ASSERT_PTR_NULL(pms_event_default_umask(miss));
        CU_ASSERT_TRUE(miss->n_groups == 0 || miss->groups[0].required);
        CU_ASSERT_EQUAL(pms_event_umask(pms_model_event(m, "LLC_VICTIMS"), "ALL")->value, 0x1f);
        const PmsEvent *wins = pms_model_event(m, "ARB_WINS"), *losses = pms_model_event(m, "ARB_LOSSES");
        CU_ASSERT_PTR_NOT_NULL_FATAL(wins);
        CU_ASSERT_PTR_NOT_NULL_FATAL(losses);
        CU_ASSERT_EQUAL(wins->code, losses->code);
        CU_ASSERT_TRUE(wins->flags & PMS_EVENT_DUP);
        CU_ASSERT_FALSE(losses->flags & PMS_EVENT_DUP);
        CU_ASSERT_EQUAL(pms_model_event(m, "TRANS_IPQ")->n_umasks, 0);
        CU_ASSERT_PTR_NULL(pms_model_event(m, "CACHE_CHAR_QUAL")); /* GAP row: no code */
        CU_ASSERT_PTR_NULL(pms_model_event(m, "SPL_DEAD"));        /* WSM-EX only */
        g_autoptr(GPtrArray) p = g_ptr_array_new_with_free_func(g_free);
        CU_ASSERT_TRUE(pms_model_lint(m, p));
    }
}

static void test_lint_exemptions(void)
{
    /* forced modifiers, aliases and declared duplicates are distinct encodings */
    g_autoptr(PmsModel) m =
        load_text(CLEAN "[event E]\ncode = 1\numask.A = 1 default\numask.B = 1 c=1\numask.C = 1 equiv=A\n"
                        "umask.D = 1 dup\n[event F]\ncode = 1\nbase_umask = 1\nflags = dup\n"
                        "[event G]\ncode = 1\nbase_umask = 1\nequiv = E:A\n",
                  NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    g_autoptr(GPtrArray) p = g_ptr_array_new_with_free_func(g_free);
    CU_ASSERT_TRUE(pms_model_lint(m, p));
    for (guint i = 0; i < p->len; i++)
        fprintf(stderr, "# %s\n", (char *)p->pdata[i]);
}

/* ---- a file of several PMUs ([pmu] instances) ---- */

/* Lines 1-9 the header (instances line 7, name_pattern 8, desc_pattern 9),
 * then the registers of box instances 1, 3 and 4 and one event. */
static char *multi_text(const char *instances, const char *name_pattern, const char *desc_pattern)
{
    return g_strdup_printf("[pmu]\nname = multi\ndesc = three boxes\narch = nhmex_cbox\ngp_counters = 1\n"
                           "gp_width = 48\n%s\n%s\n%s\n"
                           "[layout sel]\nevent = 7:0\n"
                           "[layout uctl]\npmi_core_sel = 4:1\nen_all = 28\nrst_all = 29\nfrz_all = 31\n"
                           "[register B1_SEL0]\naddress = 0x10\nkind = evtsel\nlayout = sel\nunit = box\ninstance = 1\n"
                           "[register B3_SEL0]\naddress = 0x20\nkind = evtsel\nlayout = sel\nunit = box\ninstance = 3\n"
                           "[register B4_SEL0]\naddress = 0x30\nkind = evtsel\nlayout = sel\nunit = box\ninstance = 4\n"
                           "[register U_CTL]\naddress = 0x40\nkind = global_ctrl\nunit = ubox\nlayout = uctl\n"
                           "[event E]\ncode = 1\n",
                           instances, name_pattern, desc_pattern);
}

#define MULTI_OK multi_text("instances = box:1,3..4", "name_pattern = multi_box%u", "desc_pattern = box %u of 100%%")

static void test_instances(void)
{
    g_autofree char *text = MULTI_OK;
    g_autoptr(GError) err = NULL;
    PmsModel *m = load_text(text, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_STRING_EQUAL(m->name, "multi");
    CU_ASSERT_STRING_EQUAL(m->unit, "box");
    CU_ASSERT_EQUAL(m->instance, 1); /* the first */
    CU_ASSERT_EQUAL_FATAL(m->n_instances, 3);
    CU_ASSERT_EQUAL(m->instances[0], 1);
    CU_ASSERT_EQUAL(m->instances[1], 3);
    CU_ASSERT_EQUAL(m->instances[2], 4);
    g_autofree char *n2 = pms_model_view_name(m, 2);
    CU_ASSERT_STRING_EQUAL(n2, "multi_box4");
    CU_ASSERT_PTR_NULL(pms_model_view_name(m, 3));
    CU_ASSERT_PTR_NULL(pms_model_view_new(m, 3));

    /* a view: its own name, description and instance; every fact shared */
    PmsModel *v = pms_model_view_new(m, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_STRING_EQUAL(v->name, "multi_box3");
    CU_ASSERT_STRING_EQUAL(v->desc, "box 3 of 100%");
    CU_ASSERT_STRING_EQUAL(v->unit, "box");
    CU_ASSERT_EQUAL(v->instance, 3);
    CU_ASSERT_EQUAL(v->n_instances, 0); /* a view is one PMU */
    CU_ASSERT_PTR_EQUAL(v->events, m->events);
    CU_ASSERT_PTR_EQUAL(v->regs, m->regs);
    CU_ASSERT_STRING_EQUAL(v->source, "snippet.pmu");
    CU_ASSERT_EQUAL(pms_model_reg_by_kind(v, PMS_REG_EVTSEL, 0)->address, 0x20);
    CU_ASSERT_EQUAL(pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0)->address, 0x10);
    PmsModel *w = pms_model_view_by_name(m, "MULTI_BOX4");
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL(pms_model_reg_by_kind(w, PMS_REG_EVTSEL, 0)->address, 0x30);
    CU_ASSERT_PTR_NULL(pms_model_view_by_name(m, "multi_box2"));
    CU_ASSERT_PTR_NULL(pms_model_view_by_name(m, "multi"));
    g_autoptr(GPtrArray) p = g_ptr_array_new_with_free_func(g_free);
    CU_ASSERT_TRUE(pms_model_lint(v, p));
    CU_ASSERT_TRUE(pms_model_lint(m, p));
    /* the model outlives its views, whichever is freed first (ASan) */
    pms_model_free(m);
    CU_ASSERT_EQUAL(pms_model_event(v, "E")->code, 1);
    pms_model_free(v);
    CU_ASSERT_STRING_EQUAL(w->desc, "box 4 of 100%");
    pms_model_free(w);

    /* a set names each PMU, in the declared order, and not the file's name */
    g_autoptr(PmsModelSet) set = pms_model_set_new_empty();
    pms_model_set_add_model(set, load_text(text, NULL));
    CU_ASSERT_EQUAL_FATAL(pms_model_set_count(set), 3);
    CU_ASSERT_STRING_EQUAL(pms_model_set_nth_name(set, 0), "multi_box1");
    CU_ASSERT_STRING_EQUAL(pms_model_set_nth_name(set, 1), "multi_box3");
    CU_ASSERT_STRING_EQUAL(pms_model_set_nth(set, 2)->name, "multi_box4");
    const PmsModel *b3 = pms_model_set_get(set, "multi_box3");
    CU_ASSERT_PTR_NOT_NULL_FATAL(b3);
    CU_ASSERT_STRING_EQUAL(b3->unit, "box");
    CU_ASSERT_EQUAL(b3->instance, 3);
    CU_ASSERT_PTR_EQUAL(b3->events, pms_model_set_get(set, "multi_box4")->events);
    CU_ASSERT_PTR_NULL(pms_model_set_get(set, "multi"));

    /* a file of several PMUs replaces each of them, and a second file with
     * one of its names is refused */
    g_autofree char *dir = g_dir_make_tmp("pmusim-models-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "multi.pmu", NULL);
    g_autofree char *two = multi_text("instances = box:3", "name_pattern = multi_box%u", "#");
    CU_ASSERT_TRUE_FATAL(g_file_set_contents(path, two, -1, NULL));
    CU_ASSERT_TRUE(pms_model_set_add_file(set, path, NULL));
    CU_ASSERT_EQUAL(pms_model_set_count(set), 3);
    CU_ASSERT_STRING_EQUAL(pms_model_set_get(set, "multi_box3")->source, path);
    CU_ASSERT_STRING_EQUAL(pms_model_set_get(set, "multi_box3")->desc, "three boxes"); /* [pmu] desc */
    CU_ASSERT_STRING_EQUAL(pms_model_set_get(set, "multi_box4")->source, "snippet.pmu");
    CU_ASSERT_FALSE(pms_model_set_add_file(set, path, &err));
    CU_ASSERT_TRUE(err && strstr(err->message, "model multi_box3 was already loaded from") != NULL);
    g_unlink(path);
    g_rmdir(dir);
}

/* Each malformed instances, name_pattern or desc_pattern key is refused
 * with its line. */
static void test_instances_errors(void)
{
    static const struct {
        const char *inst, *name, *desc, *needle1, *needle2;
    } cases[] = {
        { "instances = box:3..1", "name_pattern = b%u", "#", "snippet.pmu:7: [pmu] key 'instances'", "runs backwards" },
        { "instances = box:1,3,1", "name_pattern = b%u", "#", "snippet.pmu:7:", "instance 1 named twice" },
        { "instances = box", "name_pattern = b%u", "#", "snippet.pmu:7:", "expected UNIT:LIST" },
        { "instances = :1", "name_pattern = b%u", "#", "snippet.pmu:7:", "expected UNIT:LIST" },
        { "instances = box:x", "name_pattern = b%u", "#", "snippet.pmu:7:", "expected N or N..M" },
        { "instances = box:1..", "name_pattern = b%u", "#", "snippet.pmu:7:", "expected N or N..M" },
        { "instances = box:1024", "name_pattern = b%u", "#", "snippet.pmu:7:", "expected N or N..M" },
        { "instances = box:0..99", "name_pattern = b%u", "#", "snippet.pmu:7:", "more than 64 instances" },
        { "instances = box:", "name_pattern = b%u", "#", "snippet.pmu:7:", "no instance listed" },
        { "instances = xbox:1", "name_pattern = b%u", "#", "snippet.pmu:7:", "no register of unit 'xbox'" },
        { "instances = box:1..3", "name_pattern = b%u", "#", "snippet.pmu:7:", "no register of box instance 2" },
        { "instances = box:1", "name_pattern = multi", "#", "snippet.pmu:8: [pmu] key 'name_pattern'", "%u" },
        { "instances = box:1", "name_pattern = m:%u", "#", "snippet.pmu:8:", "expected a name" },
        { "instances = box:1", "name_pattern = m%d", "#", "snippet.pmu:8:", "expected a name" },
        { "instances = box:1", "#", "#", "snippet.pmu:1: [pmu]", "missing key 'name_pattern'" },
        { "instances = box:1", "name_pattern = b%u", "desc_pattern = 5%s", "snippet.pmu:9: [pmu] key 'desc_pattern'",
          "no other %" },
        { "#", "name_pattern = b%u", "#", "snippet.pmu:8:", "only with 'instances'" },
        { "#", "#", "desc_pattern = x", "snippet.pmu:9:", "only with 'instances'" },
        { "instances = box:1", "name_pattern = b%u", "unit = box",
          "snippet.pmu:7:", "leave out 'unit' and 'instance'" },
        { "instances = box:1", "name_pattern = b%u", "instance = 1", "snippet.pmu:7:", "leave out 'unit'" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *text = multi_text(cases[i].inst, cases[i].name, cases[i].desc);
        EXPECT_ERROR(text, PMS_MODEL_ERROR_KEY, cases[i].needle1, cases[i].needle2);
    }
    /* the lint of the file's model checks each instance's event selects */
    g_autofree char *two = multi_text("instances = box:1,3..4", "name_pattern = b%u", "#");
    char *gp = strstr(two, "gp_counters = 1");
    gp[strlen("gp_counters = ")] = '2';
    EXPECT_LINT(two,
                "snippet.pmu:1: box instance 3: gp_counters 2 but no event-select register (kind evtsel) of index 1");
    EXPECT_LINT(two, "snippet.pmu:1: box instance 4: gp_counters 2");
}

/* The Xeon 7500 boxes the device holds (issue 20 item 1: a C-Box at
 * instance 8 passed and crashed the simulator; one at 100 was silently
 * missing from it): C-Boxes 0..7, S-Boxes 0 and 1.  The loader refuses a
 * PMU or a register of any other, naming the box and the register's line.
 * Lines: 6-7 `instances` and name_pattern (or unit and instance), registers
 * C_A 10, C_B 16, S_SUM 22. */
static char *cbox_text(const char *instances, guint a, guint b, guint sbox)
{
    return g_strdup_printf("[pmu]\nname = cb\narch = nhmex_cbox\ngp_counters = 1\ngp_width = 48\n%s\n"
                           "[layout sel]\nevent = 7:0\n"
                           "[register C_A]\naddress = 0x10\nkind = evtsel\nlayout = sel\nunit = cbox\ninstance = %u\n"
                           "[register C_B]\naddress = 0x20\nkind = evtsel\nlayout = sel\nunit = cbox\ninstance = %u\n"
                           "[register S_SUM]\naddress = 0x30\nkind = box_status\nunit = sbox\ninstance = %u\n"
                           "[event E]\ncode = 1\n",
                           instances, a, b, sbox);
}

static void test_nhmex_boxes(void)
{
    g_autofree char *ok = cbox_text("instances = cbox:0,7\nname_pattern = cb%u", 0, 7, 1);
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModel) m = load_text(ok, &err);
    CU_ASSERT_PTR_NOT_NULL(m);
    static const struct {
        const char *inst;
        guint a, b, sbox;
        const char *needle1, *needle2;
    } cases[] = {
        { "instances = cbox:0,8\nname_pattern = cb%u", 0, 8, 1, "snippet.pmu:1: [pmu]: instances names C-Box 8",
          "C-Boxes 0..7" },
        { "instances = cbox:0,100\nname_pattern = cb%u", 0, 100, 1, "snippet.pmu:1:", "C-Box 100" },
        { "instances = cbox:0\nname_pattern = cb%u", 0, 8, 1,
          "snippet.pmu:1:", "register C_B (line 16) belongs to C-Box 8" },
        { "instances = cbox:0\nname_pattern = cb%u", 0, 1023, 0, "snippet.pmu:1:", "C-Box 1023" },
        { "instances = cbox:0,7\nname_pattern = cb%u", 0, 7, 2,
          "snippet.pmu:1:", "register S_SUM (line 22) belongs to S-Box 2" },
        { "unit = cbox\ninstance = 9", 0, 9, 0, "snippet.pmu:1:", "instance names C-Box 9" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *text = cbox_text(cases[i].inst, cases[i].a, cases[i].b, cases[i].sbox);
        EXPECT_ERROR(text, PMS_MODEL_ERROR_CONFLICT, cases[i].needle1, cases[i].needle2);
    }
}

/* The LBR ring (issue 20 item 8: `tos = 0` on wsm passed the lint, and three
 * branches then showed two entries, one of them "age=15"): a TOS field
 * must index every FROM_IP entry (2^width >= entries), and the entries run
 * 0..N-1 without a gap; the loader names the field's key line or the
 * register's.  Lines: 6 [layout lbr_tos], 7 tos, 8 [register TOS], then six
 * lines per FROM_IP register from 12 on. */
static char *lbr_text(const char *tos, const guint *idx, guint n)
{
    GString *t = g_string_new(HDR "[layout lbr_tos]\n");
    g_string_append_printf(t, "tos = %s\n[register TOS]\naddress = 0x1c9\nkind = lbr_tos\nlayout = lbr_tos\n", tos);
    for (guint i = 0; i < n; i++)
        g_string_append_printf(t, "[register FROM%u]\naddress = 0x%x\nkind = lbr_from\nindex = %u\n\n\n", idx[i],
                               0x680 + idx[i], idx[i]);
    return g_string_free(t, FALSE);
}

static void test_lbr_ring(void)
{
    static const guint five[] = { 0, 1, 2, 3, 4 }, gap[] = { 0, 1, 3 };
    g_autoptr(GError) err = NULL;
    g_autofree char *fits = lbr_text("2:0", five, 5);
    g_autoptr(PmsModel) m = load_text(fits, &err);
    CU_ASSERT_PTR_NOT_NULL(m);
    g_autofree char *four = lbr_text("1:0", five, 4);
    g_autoptr(PmsModel) m4 = load_text(four, NULL);
    CU_ASSERT_PTR_NOT_NULL(m4); /* 2 bits index 4 entries */
    g_autofree char *narrow = lbr_text("1:0", five, 5);
    EXPECT_ERROR(narrow, PMS_MODEL_ERROR_CONFLICT,
                 "snippet.pmu:7: [layout lbr_tos] key 'tos':", "2 bits wide: it cannot index the 5 LBR entries");
    g_autofree char *zero = lbr_text("0", five, 3);
    EXPECT_ERROR(zero, PMS_MODEL_ERROR_CONFLICT, "snippet.pmu:7:", "1 bit wide: it cannot index the 3 LBR entries");
    g_autofree char *holed = lbr_text("3:0", gap, 3);
    EXPECT_ERROR(holed, PMS_MODEL_ERROR_CONFLICT, "snippet.pmu:24: register FROM3: LBR entry 3, but entry 2 has no");
}

/* An x86 register of a kind a unit has one of, at another index than 0:
 * nothing reads it (issue 20: GLOBAL_CTRL of index 8 made the model
 * silently count as perfmon v1). */
static void test_single_kinds(void)
{
    EXPECT_ERROR(HDR "[register GC]\naddress = 0x38f\nkind = global_ctrl\nindex = 8\n", PMS_MODEL_ERROR_CONFLICT,
                 "snippet.pmu:1: [pmu]: register GC (line 6): index 8, but a unit has one register of kind "
                 "global_ctrl, index 0");
}

/* A text value is one line (issue 20 item 14: `desc = a\\nb` loaded as two
 * lines and broke `list`, one line per PMU): the key-file escapes \\n, \\r
 * and \\t are refused with the key's line; \\s (a space) stays. */
static void test_one_line_texts(void)
{
    EXPECT_ERROR(HDR "desc = two\\nlines\n", PMS_MODEL_ERROR_KEY, "snippet.pmu:6: [pmu] key 'desc':",
                 "desc must be one line of text: the escape \\n makes a control character (0x0a)");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\ndesc = a\\tb\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:8: [event E] key 'desc':", "the escape \\t");
    EXPECT_ERROR(HDR "[event E]\ncode = 1\numask.U = 0x1\ndesc.U = a\\rb\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:9:", "desc.U must be one line", "\\r");
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModel) m = load_text(HDR "desc = one\\sline\n", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_STRING_EQUAL(m->desc, "one line");
}

/* [perf]: perf's syntax, checked against the event-select layout */
static void test_perf_section(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModel) m = load_text(CLEAN "[perf]\npmu = cpu\nraw = r\nraw_mask = 0xff\n"
                                            "term.event = event hex2 always\n",
                                      &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const PmsPerf *p = pms_model_perf(m);
    CU_ASSERT_STRING_EQUAL(p->pmu, "cpu");
    CU_ASSERT_TRUE(p->raw_r);
    CU_ASSERT_EQUAL(p->raw_mask, 0xff);
    CU_ASSERT_EQUAL_FATAL(p->n_terms, 1);
    CU_ASSERT_EQUAL(p->terms[0].kind, PMS_PERF_TERM);
    CU_ASSERT_STRING_EQUAL(p->terms[0].name, "event");
    CU_ASSERT_EQUAL(p->terms[0].print, PMS_PERF_HEX2);
    CU_ASSERT_TRUE(p->terms[0].always);
    /* no section: no perf form */
    g_autoptr(PmsModel) n = load_text(CLEAN, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(n);
    CU_ASSERT_PTR_NULL(pms_model_perf(n)->pmu);
    EXPECT_ERROR(CLEAN "[perf]\npmu = cpu\nterm.thresh = threshold hex2\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:23: [perf] key 'term.thresh': no field threshold in the event-select layout cl_sel");
    EXPECT_ERROR(CLEAN "[perf]\npmu = cpu\nterm.event = event octal\n", PMS_MODEL_ERROR_KEY,
                 "snippet.pmu:23: [perf] key 'term.event': expected term.NAME = FIELD hex|hex2|dec|flag");
    EXPECT_ERROR(CLEAN "[perf]\npmu = cpu\nowned = pmi_en\n", PMS_MODEL_ERROR_KEY, "key 'owned': no field pmi_en");
    EXPECT_ERROR(CLEAN "[perf]\npmu = cpu\nextra.MSR_X = ldlat dec\n", PMS_MODEL_ERROR_KEY,
                 "key 'extra.MSR_X': no register MSR_X");
    EXPECT_ERROR(CLEAN "[perf]\npmu = cpu\nflavour = hot\n", PMS_MODEL_ERROR_KEY, "key 'flavour': unknown key");
    EXPECT_ERROR(CLEAN "[perf]\ntool = perfmon\n", PMS_MODEL_ERROR_KEY, "key 'none': expected pmu");
    EXPECT_ERROR(CLEAN "[perf]\npmu = cpu/x\n", PMS_MODEL_ERROR_KEY, "key 'pmu': expected perf's PMU name");
    /* the lint: a term outside the raw mask */
    g_autoptr(PmsModel) l =
        load_text(CLEAN "[perf]\npmu = cpu\nraw_mask = 0xf\nterm.event = event hex2 always\n", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
    pms_model_lint(l, problems);
    gboolean found = FALSE;
    for (guint i = 0; i < problems->len; i++)
        found |=
            strcmp(problems->pdata[i], "snippet.pmu:21: [perf]: term event's field event lies outside raw_mask") == 0;
    CU_ASSERT_TRUE(found);
}

/* The option tables (model_options.c): every default a WORD or UINT option
 * names is one the option takes, keys are unique within a family, and the
 * common pmi_skid is every family's. */
static void test_option_tables(void)
{
    for (guint f = 0; f < pms_family_count(); f++) {
        const PmsFamily *fam = pms_family_nth(f);
        g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
        const PmsModelOption *o;
        CU_ASSERT_PTR_NOT_NULL(pms_family_option(fam, "pmi_skid"));
        for (guint i = 0; (o = pms_family_option_nth(fam, i)); i++) {
            CU_ASSERT_FALSE(g_hash_table_contains(seen, o->key));
            g_hash_table_add(seen, (gpointer)o->key);
            CU_ASSERT_PTR_NOT_NULL(o->desc);
            if (o->kind != PMS_OPTION_SIGNAL)
                CU_ASSERT_TRUE(pms_model_option_valid(o, o->dflt));
        }
    }
    const PmsModelOption *inv = pms_family_option(pms_family_by_name("nhmex_cbox"), "invert");
    CU_ASSERT_PTR_NOT_NULL_FATAL(inv);
    CU_ASSERT_TRUE(pms_model_option_valid(inv, "Literal"));
    CU_ASSERT_FALSE(pms_model_option_valid(inv, "literl"));
    g_autofree char *allowed = pms_model_option_allowed(inv);
    CU_ASSERT_STRING_EQUAL(allowed, "documented or literal");
    CU_ASSERT_PTR_NULL(pms_family_option(pms_family_by_name("x86_core"), "invert"));
    const char *cands[] = { "pmi_skid", "pmi_freeze_delay", "invert" };
    CU_ASSERT_STRING_EQUAL(pms_suggest("pmi_freez_delay", cands, 3), "pmi_freeze_delay");
    CU_ASSERT_PTR_NULL(pms_suggest("qwertyuiop", cands, 3));
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s TINY.pmu\n", argv[0]);
        return 2;
    }
    tiny_path = argv[1];
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("loader", NULL, NULL);
    CU_add_test(s, "tiny header", test_tiny_header);
    CU_add_test(s, "tiny lookups", test_tiny_lookups);
    CU_add_test(s, "tiny registers", test_tiny_registers);
    CU_add_test(s, "field get/set", test_fields);
    CU_add_test(s, "modifiers and options", test_modifiers_and_options);
    CU_add_test(s, "enum names", test_enum_names);
    CU_add_test(s, "family registry", test_families);
    CU_add_test(s, "minimal file and defaults", test_minimal_and_defaults);
    s = CU_add_suite("malformed", NULL, NULL);
    CU_add_test(s, "syntax", test_syntax_errors);
    CU_add_test(s, "header", test_header_errors);
    CU_add_test(s, "names and equiv values without separators", test_name_separators);
    CU_add_test(s, "layouts and registers", test_layout_register_errors);
    CU_add_test(s, "register spaces and unit instances", test_register_identity);
    CU_add_test(s, "counter widths from [pmu]", test_counter_width);
    CU_add_test(s, "modifiers", test_modifier_errors);
    CU_add_test(s, "events", test_event_errors);
    s = CU_add_suite("model set", NULL, NULL);
    CU_add_test(s, "built-in models", test_builtin_set);
    CU_add_test(s, "built-in uncore models", test_builtin_uncore);
    CU_add_test(s, "per-event modifiers and group_excl", test_event_modifiers_key);
    CU_add_test(s, "--model FILE", test_set_add_file);
    CU_add_test(s, "every problem of a file in one run", test_all_problems_one_run);
    CU_add_test(s, "Xeon 7500 C-Box models", test_builtin_nhmex);
    CU_add_test(s, "a file of several PMUs", test_instances);
    CU_add_test(s, "instances, name_pattern, desc_pattern errors", test_instances_errors);
    CU_add_test(s, "Xeon 7500: boxes beyond the device's refused", test_nhmex_boxes);
    CU_add_test(s, "LBR: a TOS field that cannot index the ring, a gap in the entries", test_lbr_ring);
    CU_add_test(s, "x86: one register of a singular kind, index 0", test_single_kinds);
    CU_add_test(s, "a desc is one line: \\n, \\r, \\t refused", test_one_line_texts);
    s = CU_add_suite("lint", NULL, NULL);
    CU_add_test(s, "built-in models are clean", test_lint_builtin_clean);
    CU_add_test(s, "each problem is flagged", test_lint_problems);
    CU_add_test(s, "aliases and forced modifiers are not duplicates", test_lint_exemptions);
    CU_add_test(s, "unit instances and spaces are not duplicates", test_lint_units_and_spaces);
    CU_add_test(s, "[perf]: perf's syntax, checked", test_perf_section);
    CU_add_test(s, "[options]: the families' option tables", test_option_tables);
    return pms_cu_tap_run();
}
