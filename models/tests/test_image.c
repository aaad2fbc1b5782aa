/* models/tests — compiled model images (models/model_image.h).
 *
 * The built-in models are loaded from images compiled at build time; this
 * checks that each one equals, field by field and lookup by lookup, the model
 * the text loader makes of the same .pmu file, and that damaged images
 * (truncated, wrong magic, offsets and counts out of bounds, any word
 * overwritten) give a GError and never a crash (run it under ASan).
 *
 * argv[1] = models/tests/tiny.pmu, argv[2] = the models/ source directory. */
#include <string.h>
#include <CUnit/CUnit.h>
#include "cu_tap.h"
#include "model.h"
#include "model_image.h"
#include "model_priv.h"

static const char *tiny_path;
static const char *models_dir;
static const char *const builtin_names[] = { "glm",         "icl",         "montecito",   "nhm",         "nhm_ex",
                                             "nhm_unc",     "nhmex_cbox0", "nhmex_cbox1", "nhmex_cbox2", "nhmex_cbox3",
                                             "nhmex_cbox4", "nhmex_cbox5", "nhmex_cbox6", "nhmex_cbox7", "skl",
                                             "wsm",         "wsm_dp",      "wsm_unc" };

/* ---- deep equality ---- */

static guint mismatches;

static void differ(const char *where, const char *what)
{
    if (mismatches++ < 20)
        fprintf(stderr, "# %s: %s differs\n", where, what);
}

#define EQ_NUM(where, a, b, field)                                                                                     \
    do {                                                                                                               \
        if ((a)->field != (b)->field)                                                                                  \
            differ(where, #field);                                                                                     \
    } while (0)
#define EQ_STR(where, a, b, field)                                                                                     \
    do {                                                                                                               \
        if (g_strcmp0((a)->field, (b)->field) != 0)                                                                    \
            differ(where, #field);                                                                                     \
    } while (0)

static void eq_options(const PmsModel *a, const PmsModel *b)
{
    g_auto(GStrv) ka = pms_model_option_keys(a);
    g_auto(GStrv) kb = pms_model_option_keys(b);
    if (g_strv_length(ka) != g_strv_length(kb))
        differ(a->name, "number of options");
    for (guint i = 0; ka[i]; i++)
        if (g_strcmp0(pms_model_option(a, ka[i], NULL), pms_model_option(b, ka[i], NULL)) != 0)
            differ(a->name, ka[i]);
}

/* [perf]: the parsed section, term by term */
static void eq_perf(const PmsModel *a, const PmsModel *b)
{
    const PmsPerf *x = pms_model_perf(a), *y = pms_model_perf(b);
    const char *w = a->name;
    EQ_STR(w, x, y, pmu);
    EQ_STR(w, x, y, none);
    EQ_STR(w, x, y, tool);
    EQ_STR(w, x, y, no_priv);
    EQ_NUM(w, x, y, raw_r);
    EQ_NUM(w, x, y, raw_mask);
    EQ_NUM(w, x, y, owned);
    EQ_NUM(w, x, y, n_terms);
    EQ_NUM(w, x, y, source_line);
    for (guint i = 0; i < x->n_terms && i < y->n_terms; i++) {
        const PmsPerfTerm *s = &x->terms[i], *t = &y->terms[i];
        EQ_NUM(w, s, t, kind);
        EQ_STR(w, s, t, name);
        EQ_STR(w, s, t, target);
        EQ_NUM(w, s, t, print);
        EQ_NUM(w, s, t, always);
        EQ_STR(w, s, t, text);
    }
}

static void eq_layouts(const PmsModel *a, const PmsModel *b)
{
    for (guint i = 0; i < a->n_layouts; i++) {
        const PmsLayout *x = &a->layouts[i], *y = &b->layouts[i];
        EQ_STR(x->name, x, y, name);
        EQ_NUM(x->name, x, y, source_line);
        EQ_NUM(x->name, x, y, n_fields);
        for (guint j = 0; j < MIN(x->n_fields, y->n_fields); j++) {
            EQ_STR(x->name, &x->fields[j], &y->fields[j], name);
            EQ_NUM(x->name, &x->fields[j], &y->fields[j], shift);
            EQ_NUM(x->name, &x->fields[j], &y->fields[j], width);
            if (pms_layout_field(y, x->fields[j].name) != &y->fields[j])
                differ(x->name, "field lookup");
        }
        if (pms_model_layout(b, x->name) != y)
            differ(x->name, "layout lookup");
    }
}

static void eq_registers(const PmsModel *a, const PmsModel *b)
{
    for (guint i = 0; i < a->n_regs; i++) {
        const PmsRegister *x = &a->regs[i], *y = &b->regs[i];
        EQ_STR(x->name, x, y, name);
        EQ_NUM(x->name, x, y, address);
        EQ_NUM(x->name, x, y, kind);
        EQ_NUM(x->name, x, y, index);
        EQ_NUM(x->name, x, y, width);
        EQ_NUM(x->name, x, y, writable);
        EQ_NUM(x->name, x, y, ignored);
        EQ_NUM(x->name, x, y, reset);
        EQ_NUM(x->name, x, y, readonly);
        EQ_NUM(x->name, x, y, space);
        EQ_STR(x->name, x, y, unit);
        EQ_NUM(x->name, x, y, instance);
        EQ_NUM(x->name, x, y, source_line);
        if ((x->layout ? x->layout - a->layouts : -1) != (y->layout ? y->layout - b->layouts : -1))
            differ(x->name, "layout");
        if (pms_model_reg_by_name(b, x->name) != y)
            differ(x->name, "register lookup by name");
        /* by number in its own space (Itanium's PMC4 and PMD4 share 4) */
        const PmsRegister *ra = pms_model_reg_at(a, x->space, x->address),
                          *rb = pms_model_reg_at(b, x->space, x->address);
        if (!ra || !rb || ra - a->regs != rb - b->regs)
            differ(x->name, "register lookup by address");
    }
}

static void eq_modifiers(const PmsModel *a, const PmsModel *b)
{
    for (guint i = 0; i < a->n_mods; i++) {
        const PmsModifier *x = &a->mods[i], *y = &b->mods[i];
        EQ_STR(x->name, x, y, name);
        EQ_NUM(x->name, x, y, type);
        EQ_NUM(x->name, x, y, min);
        EQ_NUM(x->name, x, y, max);
        EQ_STR(x->name, x, y, reg_kind);
        EQ_STR(x->name, x, y, field);
        EQ_STR(x->name, x, y, desc);
        EQ_NUM(x->name, x, y, source_line);
        if (pms_model_modifier(b, x->name) != y)
            differ(x->name, "modifier lookup");
    }
}

static void eq_event(const PmsModel *b, const PmsEvent *x, const PmsEvent *y)
{
    const char *w = x->name;
    EQ_STR(w, x, y, name);
    EQ_NUM(w, x, y, code);
    EQ_NUM(w, x, y, base_umask);
    EQ_NUM(w, x, y, counters);
    EQ_NUM(w, x, y, fixed);
    EQ_NUM(w, x, y, flags);
    EQ_STR(w, x, y, extra_reg);
    EQ_NUM(w, x, y, match);
    EQ_STR(w, x, y, desc);
    EQ_NUM(w, x, y, source_line);
    EQ_STR(w, x, y, equiv);
    EQ_NUM(w, x, y, modifiers);
    /* the family's facts (family.h PmsEventFacts), key by key */
    const PmsEventFacts *ef = b->family->event_facts;
    if (!x->facts != !y->facts || !y->facts != !ef)
        differ(w, "facts");
    for (guint k = 0; ef && x->facts && y->facts && k < ef->n_keys; k++)
        if (pms_fact_get(x->facts, &ef->keys[k]) != pms_fact_get(y->facts, &ef->keys[k]))
            differ(w, ef->keys[k].key);
    EQ_NUM(w, x, y, n_groups);
    EQ_NUM(w, x, y, n_umasks);
    for (guint j = 0; j < MIN(x->n_groups, y->n_groups); j++) {
        EQ_STR(w, &x->groups[j], &y->groups[j], name);
        EQ_NUM(w, &x->groups[j], &y->groups[j], required);
        EQ_NUM(w, &x->groups[j], &y->groups[j], exclusive);
    }
    for (guint j = 0; j < MIN(x->n_umasks, y->n_umasks); j++) {
        const PmsUmask *u = &x->umasks[j], *v = &y->umasks[j];
        g_autofree char *uw = g_strconcat(w, ":", u->name, NULL);
        EQ_STR(uw, u, v, name);
        EQ_NUM(uw, u, v, value);
        EQ_NUM(uw, u, v, flags);
        EQ_NUM(uw, u, v, group);
        EQ_NUM(uw, u, v, cmask);
        EQ_NUM(uw, u, v, inv);
        EQ_NUM(uw, u, v, edge);
        EQ_NUM(uw, u, v, any);
        EQ_STR(uw, u, v, desc);
        EQ_NUM(uw, u, v, source_line);
        EQ_STR(uw, u, v, equiv);
        EQ_NUM(uw, u, v, code);
        EQ_NUM(uw, u, v, counters);
        EQ_NUM(uw, u, v, fixed);
        g_autofree char *lower = g_ascii_strdown(u->name, -1);
        if (pms_event_umask(y, lower) != v)
            differ(uw, "unit mask lookup (case-insensitive)");
    }
    g_autofree char *lower = g_ascii_strdown(x->name, -1);
    if (pms_model_event(b, lower) != y)
        differ(w, "event lookup (case-insensitive)");
}

/* Every member of every struct, and every index, of two models. */
static void expect_equal_models(const PmsModel *a, const PmsModel *b)
{
    guint before = mismatches;
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    const char *w = a->name;
    EQ_STR(w, a, b, name);
    EQ_STR(w, a, b, desc);
    EQ_STR(w, a, b, source);
    EQ_NUM(w, a, b, family);
    EQ_NUM(w, a, b, version);
    EQ_NUM(w, a, b, smt);
    EQ_NUM(w, a, b, n_gp);
    EQ_NUM(w, a, b, gp_width);
    EQ_NUM(w, a, b, n_fixed);
    EQ_NUM(w, a, b, fixed_width);
    EQ_NUM(w, a, b, counter_base);
    EQ_NUM(w, a, b, edge_needs_cmask);
    EQ_STR(w, a, b, offcore_style);
    EQ_STR(w, a, b, unit);
    EQ_NUM(w, a, b, instance);
    EQ_NUM(w, a, b, source_line);
    EQ_STR(w, a, b, name_pattern);
    EQ_STR(w, a, b, desc_pattern);
    EQ_NUM(w, a, b, n_instances);
    for (guint i = 0; i < MIN(a->n_instances, b->n_instances); i++)
        if (a->instances[i] != b->instances[i])
            differ(w, "instances");
    EQ_NUM(w, a, b, n_layouts);
    EQ_NUM(w, a, b, n_regs);
    EQ_NUM(w, a, b, n_mods);
    EQ_NUM(w, a, b, n_events);
    CU_ASSERT_EQUAL_FATAL(mismatches, before); /* the counts bound the loops below */
    eq_options(a, b);
    eq_perf(a, b);
    eq_layouts(a, b);
    eq_registers(a, b);
    eq_modifiers(a, b);
    for (guint i = 0; i < a->n_events; i++)
        eq_event(b, &a->events[i], &b->events[i]);
    /* every name and address found in both (the indexes are private) */
    for (guint i = 0; i < a->n_regs; i++) {
        if (pms_model_reg_by_name(b, a->regs[i].name) != &b->regs[i])
            differ(w, "register name lookup");
        if (pms_model_reg_at(a, a->regs[i].space, a->regs[i].address) - a->regs !=
            pms_model_reg_at(b, b->regs[i].space, b->regs[i].address) - b->regs)
            differ(w, "register address lookup");
    }
    for (guint i = 0; i < a->n_mods; i++)
        if (pms_model_modifier(b, a->mods[i].name) != &b->mods[i])
            differ(w, "modifier lookup");
    for (guint i = 0; i < a->n_layouts; i++)
        if (pms_model_layout(b, a->layouts[i].name) != &b->layouts[i])
            differ(w, "layout lookup");
    CU_ASSERT_EQUAL(mismatches, before);
}

static PmsModel *load_text_as(const char *path, const char *source)
{
    g_autofree char *text = NULL;
    gsize len = 0;
    if (!g_file_get_contents(path, &text, &len, NULL))
        return NULL;
    return pms_model_load_data(text, len, source, NULL);
}

/* ---- tests ---- */

static void test_builtins_equal_text(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModelSet) set = pms_model_set_new_builtin(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    CU_ASSERT_EQUAL(pms_model_set_count(set), G_N_ELEMENTS(builtin_names));
    for (guint i = 0; i < G_N_ELEMENTS(builtin_names); i++) {
        /* the C-Boxes are the PMUs of one file, nhmex.pmu ([pmu] instances) */
        const char *file = g_str_has_prefix(builtin_names[i], "nhmex_cbox") ? "nhmex" : builtin_names[i];
        g_autofree char *path = g_strdup_printf("%s/%s.pmu", models_dir, file);
        g_autofree char *source = g_strdup_printf("builtin:%s.pmu", file);
        g_autoptr(PmsModel) whole = load_text_as(path, source);
        CU_ASSERT_PTR_NOT_NULL_FATAL(whole);
        g_autoptr(PmsModel) text =
            whole->n_instances ? pms_model_view_by_name(whole, builtin_names[i]) : g_steal_pointer(&whole);
        const PmsModel *img = pms_model_set_get(set, builtin_names[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        CU_ASSERT_PTR_NOT_NULL_FATAL(img);
        const PmsModelPriv *pi = pms_model_priv(img), *pt = pms_model_priv(text);
        CU_ASSERT_PTR_NOT_NULL(pms_model_priv(pi->base ? pi->base : img)->image); /* really the compiled image */
        CU_ASSERT_PTR_NULL(pms_model_priv(pt->base ? pt->base : text)->image);
        expect_equal_models(text, img);
        /* lint of the image reports what lint of the text reports */
        g_autoptr(GPtrArray) pa = g_ptr_array_new_with_free_func(g_free);
        g_autoptr(GPtrArray) pb = g_ptr_array_new_with_free_func(g_free);
        CU_ASSERT_EQUAL(pms_model_lint(text, pa), pms_model_lint(img, pb));
        CU_ASSERT_EQUAL(pa->len, pb->len);
    }
}

/* tiny.pmu has options, a register without layout, umask overrides and forced
 * modifiers the built-ins may lack; a header-only model has no arrays at all. */
static void test_round_trip(void)
{
    g_autoptr(PmsModel) tiny = pms_model_load_file(tiny_path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tiny);
    g_autoptr(GBytes) image = pms_model_image_write(tiny);
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModel) back = pms_model_image_read(image, "tiny.pmi", &err);
    CU_ASSERT_PTR_NULL(err);
    expect_equal_models(tiny, back);
    /* the image is deterministic: writing the copy gives the same bytes */
    g_autoptr(GBytes) again = pms_model_image_write(back);
    CU_ASSERT_TRUE(g_bytes_equal(image, again));

    const char *bare = "[pmu]\nname = bare\narch = ia64\n";
    g_autoptr(PmsModel) b = pms_model_load_data(bare, strlen(bare), "bare.pmu", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    g_autoptr(GBytes) bi = pms_model_image_write(b);
    g_autoptr(PmsModel) bb = pms_model_image_read(bi, "bare.pmi", NULL);
    expect_equal_models(b, bb);
    CU_ASSERT_PTR_EQUAL(bb->family, pms_family_by_name("ia64"));
    CU_ASSERT_PTR_NULL(pms_model_event(bb, "X"));
}

static GBytes *good_image; /* glm, written from the text */

/* A model of several PMUs: its instances and patterns survive the image, and
 * the names are read from the image alone. */
static void test_instances_round_trip(void)
{
    const char *text = "[pmu]\nname = multi\narch = nhmex_cbox\ngp_counters = 1\ngp_width = 48\n"
                       "instances = box:2,5\nname_pattern = m_box%u\ndesc_pattern = box %u\n"
                       "[register B2]\naddress = 0x10\nkind = evtsel\nunit = box\ninstance = 2\n"
                       "[register B5]\naddress = 0x20\nkind = evtsel\nunit = box\ninstance = 5\n";
    g_autoptr(PmsModel) m = pms_model_load_data(text, strlen(text), "multi.pmu", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    g_autoptr(GBytes) image = pms_model_image_write(m);
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModel) back = pms_model_image_read(image, "multi.pmi", &err);
    CU_ASSERT_PTR_NULL(err);
    expect_equal_models(m, back);
    g_autoptr(PmsModel) v = pms_model_view_new(back, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_STRING_EQUAL(v->name, "m_box5");
    CU_ASSERT_STRING_EQUAL(v->desc, "box 5");
    CU_ASSERT_EQUAL(pms_model_reg_by_kind(v, PMS_REG_EVTSEL, 0)->address, 0x20);
    gboolean views = FALSE;
    g_auto(GStrv) names = pms_model_image_names(image, "multi.pmi", &views, NULL);
    CU_ASSERT_TRUE(views);
    CU_ASSERT_PTR_NOT_NULL_FATAL(names);
    CU_ASSERT_EQUAL_FATAL(g_strv_length(names), 2);
    CU_ASSERT_STRING_EQUAL(names[0], "m_box2");
    CU_ASSERT_STRING_EQUAL(names[1], "m_box5");
    g_auto(GStrv) one = pms_model_image_names(good_image, "glm.pmi", &views, NULL);
    CU_ASSERT_FALSE(views);
    CU_ASSERT_PTR_NOT_NULL_FATAL(one);
    CU_ASSERT_EQUAL(g_strv_length(one), 1);
    CU_ASSERT_STRING_EQUAL(one[0], "glm");
    /* one instance is still a view, named by the pattern */
    g_autofree char *single = g_strdup(text);
    memcpy(strstr(single, "box:2,5"), "box:5  ", 7);
    g_autoptr(PmsModel) sm = pms_model_load_data(single, strlen(single), "single.pmu", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sm);
    g_autoptr(GBytes) simage = pms_model_image_write(sm);
    g_auto(GStrv) sname = pms_model_image_names(simage, "single.pmi", &views, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sname);
    CU_ASSERT_TRUE(views);
    CU_ASSERT_EQUAL(g_strv_length(sname), 1);
    CU_ASSERT_STRING_EQUAL(sname[0], "m_box5");
    /* a damaged image gives no names */
    g_autoptr(GBytes) cut = g_bytes_new_from_bytes(image, 0, PMS_IMAGE_HEADER_LEN + 4);
    CU_ASSERT_PTR_NULL(pms_model_image_names(cut, "cut.pmi", NULL, &err));
    CU_ASSERT_PTR_NOT_NULL(err);
}

/* ---- damaged images ---- */


static void put32(guint8 *b, gsize at, guint32 v)
{
    for (guint i = 0; i < 4; i++)
        b[at + i] = (guint8)(v >> (8 * i));
}

static guint32 get32(const guint8 *b, gsize at)
{
    return (guint32)b[at] | (guint32)b[at + 1] << 8 | (guint32)b[at + 2] << 16 | (guint32)b[at + 3] << 24;
}

/* Header word i after the magic (model_image.h order). */
#define HDR(i) (PMS_IMAGE_MAGIC_LEN + 4 * (i))

static guint8 *copy_image(gsize *len)
{
    return g_memdup2(g_bytes_get_data(good_image, len), g_bytes_get_size(good_image));
}

/* Reading `data` must fail with a message naming the image and `needle`. */
static void expect_damaged(guint8 *data, gsize len, const char *needle)
{
    g_autoptr(GBytes) bytes = g_bytes_new_take(data, len);
    g_autoptr(GError) err = NULL;
    PmsModel *m = pms_model_image_read(bytes, "glm.pmi", &err);
    CU_ASSERT_PTR_NULL(m);
    pms_model_free(m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    CU_ASSERT_TRUE(g_error_matches(err, PMS_MODEL_ERROR, PMS_MODEL_ERROR_PARSE));
    gboolean ok = strstr(err->message, "glm.pmi: damaged model image at byte") && strstr(err->message, needle);
    if (!ok)
        fprintf(stderr, "# message '%s' lacks '%s'\n", err->message, needle);
    CU_ASSERT_TRUE(ok);
}

static void test_damaged_header(void)
{
    gsize len;
    guint8 *d;
    expect_damaged(g_malloc0(1), 0, "shorter than the header");
    d = copy_image(&len);
    expect_damaged(d, PMS_IMAGE_HEADER_LEN - 1, "shorter than the header");
    d = copy_image(&len);
    d[0] ^= 0x20;
    expect_damaged(d, len, "bad magic");
    d = copy_image(&len);
    put32(d, HDR(H_VERSION), PMS_IMAGE_VERSION + 1);
    expect_damaged(d, len, "version");
    d = copy_image(&len);
    expect_damaged(d, len - 1, "size in the header differs"); /* truncated by one byte */
    d = copy_image(&len);
    put32(d, HDR(H_STR_LEN), (guint32)len);
    expect_damaged(d, len, "out of bounds");
    d = copy_image(&len);
    put32(d, HDR(H_BODY_OFF), (guint32)len + 1);
    expect_damaged(d, len, "out of bounds");
    d = copy_image(&len);
    put32(d, HDR(H_STR_OFF), 3);
    expect_damaged(d, len, "out of bounds");
    d = copy_image(&len);
    put32(d, HDR(H_STR_LEN), get32(d, HDR(H_STR_LEN)) - 1); /* last string loses its NUL */
    expect_damaged(d, len, "not NUL-terminated");
    /* counts that would allocate gigabytes are refused before allocating */
    for (guint i = H_OPTIONS; i <= H_INSTANCES; i++) {
        d = copy_image(&len);
        put32(d, HDR(i), G_MAXUINT32 - 1);
        expect_damaged(d, len, "exceeds the body");
    }
}

static void test_damaged_body(void)
{
    gsize len;
    guint8 *d = copy_image(&len);
    guint32 body = get32(d, HDR(H_BODY_OFF)), strlen_ = get32(d, HDR(H_STR_LEN));
    g_free(d);

    /* the model's name is the body's first word: a string offset */
    d = copy_image(&len);
    put32(d, body, strlen_);
    expect_damaged(d, len, "string offset out of bounds");
    /* the family (by name) follows name, desc and source */
    d = copy_image(&len);
    put32(d, body + 12, 99);
    expect_damaged(d, len, "unknown family");
    /* the body cut short, with the header's sizes agreeing */
    d = copy_image(&len);
    put32(d, HDR(H_SIZE), (guint32)len - 8);
    put32(d, HDR(H_BODY_LEN), get32(d, HDR(H_BODY_LEN)) - 8);
    expect_damaged(d, len - 8, "truncated");
    /* one more event than the body holds */
    d = copy_image(&len);
    put32(d, HDR(H_EVENTS), get32(d, HDR(H_EVENTS)) + 1);
    expect_damaged(d, len, "truncated");
    /* fewer umasks in the events than the header declares */
    d = copy_image(&len);
    put32(d, HDR(H_UMASKS), get32(d, HDR(H_UMASKS)) + 1);
    expect_damaged(d, len, "fewer fields, unit masks or groups");
    /* more umasks in the events than the header declares */
    d = copy_image(&len);
    put32(d, HDR(H_UMASKS), get32(d, HDR(H_UMASKS)) - 1);
    expect_damaged(d, len, "more unit masks than the header declares");
    d = copy_image(&len);
    put32(d, HDR(H_FIELDS), get32(d, HDR(H_FIELDS)) - 1);
    expect_damaged(d, len, "more fields than the header declares");
    d = copy_image(&len);
    put32(d, HDR(H_GROUPS), get32(d, HDR(H_GROUPS)) - 1);
    expect_damaged(d, len, "more groups than the header declares");
    /* trailing bytes after the model */
    d = copy_image(&len);
    d = g_realloc(d, len + 4);
    memset(d + len, 0, 4);
    put32(d, HDR(H_SIZE), (guint32)len + 4);
    put32(d, HDR(H_BODY_LEN), get32(d, HDR(H_BODY_LEN)) + 4);
    expect_damaged(d, len + 4, "bytes left after the model");
}

/* Overwrite each word of the body in turn with values a damaged file could
 * hold: the reader must either reject the image or return a model whose
 * indexes and references stay inside it (ASan checks the rest). */
static void test_damaged_every_word(void)
{
    static const guint32 values[] = { G_MAXUINT32, G_MAXUINT32 - 1, 0x10000, 64, 65 };
    gsize len;
    guint8 *orig = copy_image(&len);
    guint32 body = get32(orig, HDR(H_BODY_OFF));
    guint rejected = 0, tried = 0;
    for (gsize at = body; at + 4 <= len; at += 4)
        for (guint v = 0; v < G_N_ELEMENTS(values); v++) {
            if (get32(orig, at) == values[v])
                continue;
            guint8 *d = g_memdup2(orig, len);
            put32(d, at, values[v]);
            g_autoptr(GBytes) bytes = g_bytes_new_take(d, len);
            g_autoptr(GError) err = NULL;
            g_autoptr(PmsModel) m = pms_model_image_read(bytes, "glm.pmi", &err);
            tried++;
            CU_ASSERT((m == NULL) != (err == NULL));
            if (!m) {
                rejected++;
                continue;
            }
            /* Accepted: walk what the lint and the lookups walk. */
            g_autoptr(GPtrArray) p = g_ptr_array_new_with_free_func(g_free);
            pms_model_lint(m, p);
            for (guint i = 0; i < m->n_events; i++)
                for (guint j = 0; j < m->events[i].n_umasks; j++)
                    CU_ASSERT(m->events[i].umasks[j].group < m->events[i].n_groups);
        }
    g_free(orig);
    fprintf(stderr, "# %u damaged images, %u rejected\n", tried, rejected);
    CU_ASSERT_TRUE(rejected > tried / 10);
}

/* A family's per-event facts (family.h PmsEventFacts): written and read by
 * its table, each value checked against its key's range or words (the
 * default passes too), an event of another family with none. */
#define FACTS_MODEL                                                                                                    \
    "[pmu]\nname = f\narch = ia64\ngp_counters = 2\ncounter_base = 4\ngp_width = 47\n"                                 \
    "[layout c]\nplm = 3:0\nes = 15:8\numask = 19:16\nthres = 22:20\n"                                                 \
    "[register PMC4]\nspace = pmc\naddress = 4\nkind = ia64_pmc\nindex = 4\nlayout = c\n"                              \
    "[register PMC5]\nspace = pmc\naddress = 5\nkind = ia64_pmc\nindex = 5\nlayout = c\n"                              \
    "[event L]\ncode = 2\nmax_inc = 6\ntype = causal\ncache_group = l2d\ncache_set = 3\nqualifiers = opcm darr\n"      \
    "[event M]\ncode = 3\nmax_inc = 1\ntype = floating\n"

/* The byte offset of the first run of these 32-bit words in the image. */
static gsize find_words(const guint8 *d, gsize len, const guint32 *w, guint n)
{
    for (gsize at = 0; at + 4 * n <= len; at++) {
        guint i = 0;
        while (i < n && get32(d, at + 4 * i) == w[i])
            i++;
        if (i == n)
            return at;
    }
    return 0;
}

static void test_family_facts(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModel) text = pms_model_load_data(FACTS_MODEL, strlen(FACTS_MODEL), "f.pmu", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    g_autoptr(GBytes) image = pms_model_image_write(text);
    g_autoptr(PmsModel) back = pms_model_image_read(image, "f.pmi", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(back);
    expect_equal_models(text, back);
    const PmsEventFacts *ef = back->family->event_facts;
    CU_ASSERT_PTR_NOT_NULL_FATAL(ef);
    CU_ASSERT_PTR_NOT_NULL_FATAL(back->events[0].facts);
    CU_ASSERT_EQUAL(pms_fact_get(back->events[0].facts, &ef->keys[2]), 3);           /* cache_set */
    CU_ASSERT_EQUAL(pms_fact_get(back->events[1].facts, &ef->keys[2]), G_MAXUINT32); /* none: -1 */
    /* no facts in another family's events */
    g_autoptr(PmsModel) tiny = pms_model_load_file(tiny_path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tiny);
    CU_ASSERT_PTR_NULL(tiny->family->event_facts);
    for (guint i = 0; i < tiny->n_events; i++)
        CU_ASSERT_PTR_NULL(tiny->events[i].facts);

    /* event L's facts in the table's order: max_inc, cache_group, cache_set, type, qualifiers */
    static const guint32 l_facts[] = { 6, 2, 3, 3, 5 };
    gsize len;
    const guint8 *orig = g_bytes_get_data(image, &len);
    gsize at = find_words(orig, len, l_facts, G_N_ELEMENTS(l_facts));
    CU_ASSERT_FATAL(at > 0);
    static const struct {
        guint word;
        guint32 value;
        const char *problem; /* NULL: accepted */
    } cases[] = {
        { 0, 0, NULL },   /* max_inc: its default (not given) */
        { 0, 255, NULL }, /* the loader's bound; the family's check says more */
        { 0, 256, "event fact max_inc: value 256 out of range" },
        { 1, 3, "event fact cache_group: value 3 out of range" },
        { 2, 15, NULL },
        { 2, G_MAXUINT32, NULL }, /* cache_set: its default (none) */
        { 2, 16, "event fact cache_set: value 16 out of range" },
        { 3, 0, NULL }, /* type: its default, which no word spells */
        { 3, 5, "event fact type: value 5 out of range" },
        { 4, 7, NULL },
        { 4, 8, "event fact qualifiers: value 8 out of range" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        guint8 *d = g_memdup2(orig, len);
        put32(d, at + 4 * cases[i].word, cases[i].value);
        g_autoptr(GBytes) bytes = g_bytes_new_take(d, len);
        g_autoptr(GError) e = NULL;
        g_autoptr(PmsModel) m = pms_model_image_read(bytes, "f.pmi", &e);
        if (!cases[i].problem) {
            CU_ASSERT_PTR_NOT_NULL(m);
            if (m)
                CU_ASSERT_EQUAL(pms_fact_get(m->events[0].facts, &ef->keys[cases[i].word]), cases[i].value);
            continue;
        }
        CU_ASSERT_PTR_NULL(m);
        gboolean ok = e && strstr(e->message, cases[i].problem);
        if (!ok)
            fprintf(stderr, "# case %u: %s, wanted '%s'\n", i, e ? e->message : "accepted", cases[i].problem);
        CU_ASSERT_TRUE(ok);
    }
    /* every word overwritten: rejected, or a model the lint can walk */
    static const guint32 values[] = { G_MAXUINT32, 0x10000, 16, 5, 0 };
    guint32 body = get32(orig, HDR(H_BODY_OFF));
    for (gsize w = body; w + 4 <= len; w += 4)
        for (guint v = 0; v < G_N_ELEMENTS(values); v++) {
            guint8 *d = g_memdup2(orig, len);
            put32(d, w, values[v]);
            g_autoptr(GBytes) bytes = g_bytes_new_take(d, len);
            g_autoptr(GError) e = NULL;
            g_autoptr(PmsModel) m = pms_model_image_read(bytes, "f.pmi", &e);
            CU_ASSERT((m == NULL) != (e == NULL));
            g_autoptr(GPtrArray) p = g_ptr_array_new_with_free_func(g_free);
            if (m)
                pms_model_lint(m, p);
        }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s TINY.pmu MODELS-DIR\n", argv[0]);
        return 2;
    }
    tiny_path = argv[1];
    models_dir = argv[2];
    g_autofree char *glm_path = g_strdup_printf("%s/glm.pmu", models_dir);
    g_autoptr(PmsModel) glm = load_text_as(glm_path, "builtin:glm.pmu");
    if (!glm) {
        fprintf(stderr, "cannot load %s\n", glm_path);
        return 2;
    }
    good_image = pms_model_image_write(glm);
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("image", NULL, NULL);
    CU_add_test(s, "built-in images equal their .pmu text", test_builtins_equal_text);
    CU_add_test(s, "write then read gives the same model", test_round_trip);
    CU_add_test(s, "a model of several PMUs: instances and names", test_instances_round_trip);
    CU_add_test(s, "a family's event facts, by its table", test_family_facts);
    s = CU_add_suite("damaged image", NULL, NULL);
    CU_add_test(s, "header", test_damaged_header);
    CU_add_test(s, "body", test_damaged_body);
    CU_add_test(s, "every word overwritten", test_damaged_every_word);
    int rc = pms_cu_tap_run();
    g_bytes_unref(good_image);
    return rc;
}
