/* sim/tests — a field's position only from the model: remove each field of
 * each layout of a model in turn and check that the simulator (pms_sim_new)
 * and the program step refuse exactly the variants the lint reports a field
 * of (models/field_need.c), naming register and field, and that a variant
 * the lint finds no such field for still simulates.  So the lint rejects what
 * the simulator would, and nothing falls back to a position the model did
 * not give. */
#include <string.h>
#include "fixtures.h"
#include "program.h"

static const char *const NEEDS = "which the simulator reads by name";

/* The model text without line `skip` (0-based). */
static char *without_line(char **lines, guint skip)
{
    GString *t = g_string_new(NULL);
    for (guint i = 0; lines[i]; i++)
        if (i != skip)
            g_string_append_printf(t, "%s\n", lines[i]);
    return g_string_free(t, FALSE);
}

/* The program step's answer for the PMU's first event on its own counter:
 * FALSE only when it refuses the model for a field. */
static gboolean program_accepts(const PmsModel *m, char **why)
{
    for (guint e = 0; e < m->n_events; e++) {
        PmsPlacement pl;
        if (!pms_program_place(m, &m->events[e], PMS_UMASK_SET_EMPTY, &pl, NULL))
            continue;
        guint64 codes[2] = { m->events[e].code, 0 };
        PmsRegWrite w[PMS_PROGRAM_MAX_WRITES];
        guint n;
        g_autoptr(GError) err = NULL;
        if (pms_program_writes(&pl, codes, 1, w, &n, &err) ||
            !g_error_matches(err, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_MODEL))
            return TRUE;
        *why = g_strdup(err->message);
        return FALSE;
    }
    return TRUE;
}

/* One PMU (a model, or a view of a file of several): what the lint says of
 * its fields against what the simulator and the program step do. */
static void check_pmu(const PmsModel *m, const char *field, guint line, guint *refused)
{
    g_autoptr(GPtrArray) p = g_ptr_array_new_with_free_func(g_free);
    pms_model_lint(m, p);
    const char *reported = NULL;
    for (guint i = 0; i < p->len && !reported; i++)
        if (strstr(p->pdata[i], NEEDS))
            reported = p->pdata[i];
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsSim) s = pms_sim_new(m, &err);
    gboolean field_refusal = !s && g_error_matches(err, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL) &&
        (strstr(err->message, "has no field") || strstr(err->message, "has no layout") ||
         strstr(err->message, "no field '"));
    g_autofree char *why = NULL;
    gboolean prog_ok = program_accepts(m, &why);
    if (field_refusal || !prog_ok) {
        (*refused)++;
        /* refused for the field: named, and reported by the lint at the model's line */
        const char *msg = field_refusal ? err->message : why;
        g_autofree char *stem = g_strndup(field, strcspn(field, "0123456789"));
        if (!reported || !strstr(msg, stem) || !strstr(msg, "register"))
            fprintf(stderr, "# %s without '%s' (line %u): refused (%s), lint: %s\n", m->name, field, line, msg,
                    reported ? reported : "nothing");
        CU_ASSERT_PTR_NOT_NULL(reported);
        CU_ASSERT_PTR_NOT_NULL(strstr(msg, stem));
        if (reported) {
            g_autofree char *at = g_strdup_printf("%s:%u: ", m->source, m->source_line);
            CU_ASSERT_TRUE(g_str_has_prefix(reported, at));
        }
    } else if (reported) {
        fprintf(stderr, "# %s without '%s' (line %u): lint says '%s' but the simulator %s\n", m->name, field, line,
                reported, s ? "accepts the model" : err->message);
        CU_FAIL("the lint reports a field the simulator does without");
    }
}

static void check_file(const char *path, guint expect_refusals_at_least)
{
    g_autofree char *text = NULL;
    CU_ASSERT_TRUE_FATAL(g_file_get_contents(path, &text, NULL, NULL));
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    g_autofree char *base = g_path_get_basename(path);
    gboolean in_layout = FALSE;
    guint variants = 0, refused = 0;
    for (guint i = 0; lines[i]; i++) {
        const char *l = lines[i];
        if (l[0] == '[') {
            in_layout = g_str_has_prefix(l, "[layout ");
            continue;
        }
        const char *eq = strchr(l, '=');
        if (!in_layout || l[0] == '#' || !eq)
            continue;
        g_autofree char *field = g_strstrip(g_strndup(l, (gsize)(eq - l)));
        g_autofree char *variant = without_line(lines, i);
        g_autoptr(PmsModel) m = pms_model_load_data(variant, strlen(variant), base, NULL);
        if (!m)
            continue; /* the loader refuses it (a modifier naming the field ...) */
        variants++;
        check_pmu(m, field, i + 1, &refused);
        for (guint k = 0; k < m->n_instances; k++) {
            PmsModel *v = pms_model_view_new(m, k);
            if (v)
                check_pmu(v, field, i + 1, &refused);
            pms_model_free(v);
        }
    }
    fprintf(stderr, "# %s: %u variants without a layout field, %u refused for it\n", base, variants, refused);
    CU_ASSERT_TRUE(variants > 0);
    CU_ASSERT_TRUE(refused >= expect_refusals_at_least);
}

static void test_fields_test_models(void)
{
    /* tiny's [perf] terms and modifiers name most event-select fields: the
     * loader already refuses a variant without one of those */
    check_file(PMS_SRCDIR "/models/tests/tiny.pmu", 3);
    check_file(PMS_SRCDIR "/models/tests/tinyunc.pmu", 5);
    check_file(PMS_SRCDIR "/models/tests/tinynhmex.pmu", 5);
    check_file(PMS_SRCDIR "/models/tests/toy.pmu", 6);
    check_file(PMS_SRCDIR "/models/tests/tinyamd.pmu", 12);
    /* perfmon v5 top-down: PERF_METRICS and the bit 48 fields (sim/topdown.c) */
    check_file(PMS_SRCDIR "/sim/tests/data/icl-td.pmu", 25);
    /* skl's LBR_INFO and MSR_PEBS_FRONTEND fields (and FROM_IP without mispred) */
    check_file(PMS_SRCDIR "/sim/tests/data/skl-test.pmu", 10);
}

static void test_fields_builtin_models(void)
{
    check_file(PMS_SRCDIR "/models/wsm.pmu", 10);
    check_file(PMS_SRCDIR "/models/glm.pmu", 10);
    check_file(PMS_SRCDIR "/models/icl.pmu", 10); /* with FIXED_CTR3 and IA32_PERF_METRICS */
    check_file(PMS_SRCDIR "/models/nhm_unc.pmu", 10);
    check_file(PMS_SRCDIR "/models/nhmex.pmu", 10);
    check_file(PMS_SRCDIR "/models/montecito.pmu", 10);
}

/* One case spelled out: GLOBAL_CTRL without its counter bits. */
static void test_fields_named(void)
{
    g_autofree char *text = NULL;
    CU_ASSERT_TRUE_FATAL(g_file_get_contents(PMS_SRCDIR "/models/tests/tiny.pmu", &text, NULL, NULL));
    /* tiny's GLOBAL_STATUS layout gives pmc = 1:0; without it, no PMC0 overflow bit */
    g_autofree char *cut = g_strdup(text);
    char *at = strstr(cut, "\npmc = 1:0\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    memmove(at, at + strlen("\npmc = 1:0"), strlen(at + strlen("\npmc = 1:0")) + 1);
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModel) m = pms_model_load_data(cut, strlen(cut), "tiny.pmu", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m); /* the loader still accepts it */
    g_autoptr(PmsSim) s = pms_sim_new(m, &err);
    CU_ASSERT_PTR_NULL(s);
    CU_ASSERT_TRUE(g_error_matches(err, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL));
    CU_ASSERT_PTR_NOT_NULL(err ? strstr(err->message, "IA32_PERF_GLOBAL_STATUS") : NULL);
    CU_ASSERT_PTR_NOT_NULL(err ? strstr(err->message, "'ovf_pmc0'") : NULL);
    g_autoptr(GPtrArray) p = g_ptr_array_new_with_free_func(g_free);
    CU_ASSERT_FALSE(pms_model_lint(m, p));
    gboolean found = FALSE;
    for (guint i = 0; i < p->len; i++)
        found |= g_str_has_prefix(p->pdata[i],
                                  "tiny.pmu:4: register IA32_PERF_GLOBAL_STATUS: layout "
                                  "'global_status' has no field 'ovf_pmc0'");
    CU_ASSERT_TRUE(found);
}

void register_fields_tests(void)
{
    CU_pSuite s = CU_add_suite("sim fields", NULL, NULL);
    CU_add_test(s, "fields: a model without a required field is refused and linted (test models)",
                test_fields_test_models);
    CU_add_test(s, "fields: every layout field of the built-in models, removed", test_fields_builtin_models);
    CU_add_test(s, "fields: named register and field", test_fields_named);
}
