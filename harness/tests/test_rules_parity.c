/* harness tests: one rule path.  The encoder answers plain strings (and
 * modifiers on them) from rule results it keeps per model (its plain-result
 * cache); --rules-only turns those off so every string takes the rules.
 * The two must give the same answers: every `pmusim list --names` string of
 * every built-in model and the modifier, raw unit mask and repeat samples
 * `pmusim diff` uses go through `pmusim encode --batch` with and without
 * --rules-only (and with a non-default --plm, which the cache never
 * serves), and the answers must be byte for byte the same.  The corpus goes
 * in twice, so its second half is answered from the builtin backend's memo
 * of answers, which --rules-only also turns off.
 *
 * Run by meson as: test_rules_parity PMUSIM */
#include "cu_tap.h"
#include "diff_strings.h"

#include <gio/gio.h>
#include <stdio.h>
#include <string.h>

static const char *pmusim_path;

/* pmusim's output for these args and input, with --rules-only or not. */
static char *run(gboolean rules_only, const char *plm, GBytes *input)
{
    g_autoptr(GSubprocessLauncher) l = g_subprocess_launcher_new(
        G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
    /* the suite may run under meson's rulesonly setup, whose variable is
     * --rules-only for every pmusim (harness/main.c) */
    g_subprocess_launcher_unsetenv(l, "PMUSIM_RULES_ONLY");
    const char *argv[7] = { pmusim_path, "encode", "--batch" };
    guint n_args = 3;
    if (rules_only)
        argv[n_args++] = "--rules-only";
    if (plm) {
        argv[n_args++] = "--plm";
        argv[n_args++] = plm;
    }
    g_autoptr(GError) err = NULL;
    g_autoptr(GSubprocess) p = g_subprocess_launcher_spawnv(l, argv, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    g_autoptr(GBytes) out = NULL;
    g_autoptr(GBytes) errb = NULL;
    CU_ASSERT_FATAL(g_subprocess_communicate(p, input, NULL, &out, &errb, &err));
    CU_ASSERT(g_subprocess_get_if_exited(p) && g_subprocess_get_exit_status(p) == 0);
    gsize n;
    const char *d = g_bytes_get_data(out, &n);
    return g_strndup(d ? d : "", d ? n : 0);
}

/* text's lines, as g_strsplit(text, "\n", -1) gives them, found with strchr:
 * g_strsplit finds each with strstr, whose ASan interceptor measures the
 * whole rest of the text every time (minutes over these megabytes). */
static GStrv split_lines(const char *text)
{
    GPtrArray *lines = g_ptr_array_new();
    const char *p = text;
    for (const char *nl; (nl = strchr(p, '\n')) != NULL; p = nl + 1)
        g_ptr_array_add(lines, g_strndup(p, nl - p));
    g_ptr_array_add(lines, g_strdup(p));
    g_ptr_array_add(lines, NULL);
    return (GStrv)g_ptr_array_free(lines, FALSE);
}

/* Report the first few lines that differ; TRUE when none does. */
static gboolean same_answers(const char *a, const char *b, const char *what)
{
    g_auto(GStrv) la = split_lines(a);
    g_auto(GStrv) lb = split_lines(b);
    guint na = g_strv_length(la), nb = g_strv_length(lb), shown = 0;
    if (na != nb)
        fprintf(stderr, "# %s: %u answer lines with prepared results, %u on the rule path\n", what, na, nb);
    for (guint i = 0; i < MIN(na, nb) && shown < 5; i++)
        if (strcmp(la[i], lb[i]) != 0) {
            fprintf(stderr, "# %s:\n#   prepared:  %s\n#   rule path: %s\n", what, la[i], lb[i]);
            shown++;
        }
    return na == nb && shown == 0;
}

static void test_corpus(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModelSet) set = pms_model_set_new_builtin(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    g_autoptr(GPtrArray) strs = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < pms_model_set_count(set); i++) {
        const PmsModel *m = pms_model_set_nth(set, i);
        pms_strings_names(m, strs);
        pms_strings_modifiers(m, strs);
        pms_strings_raw(m, strs);
        pms_strings_repeats(m, strs);
    }
    /* twice: the second time the builtin backend answers from its memo of
     * answers (backend_builtin.c), which the rule path's run does not use */
    GString *in = g_string_new(NULL);
    for (guint twice = 0; twice < 2; twice++)
        for (guint i = 0; i < strs->len; i++)
            g_string_append_printf(in, "%s\n", (const char *)strs->pdata[i]);
    g_autoptr(GBytes) input = g_string_free_to_bytes(in);
    g_autofree char *fast = run(FALSE, NULL, input);
    g_autofree char *rules = run(TRUE, NULL, input);
    CU_ASSERT(same_answers(fast, rules, "default privilege"));
    /* every string answered, and most of the names encode */
    guint ok = 0, lines = 0;
    for (const char *p = fast; (p = strchr(p, '\n')) != NULL; p++)
        lines++;
    /* bounded (g_strstr_len): ASan's strstr would measure the rest of the
     * text at every answer */
    const char *end = fast + strlen(fast);
    for (const char *p = fast; (p = g_strstr_len(p, end - p, "\tPFM_SUCCESS\t")) != NULL; p++)
        ok++;
    CU_ASSERT_EQUAL(lines, 2 * strs->len);
    CU_ASSERT(ok > strs->len);
    fprintf(stderr, "# %u strings, %u encoded\n", strs->len, ok);

    g_autofree char *fast3 = run(FALSE, "3", input);
    g_autofree char *rules3 = run(TRUE, "3", input);
    CU_ASSERT(same_answers(fast3, rules3, "--plm 3"));
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PMUSIM\n", argv[0]);
        return 2;
    }
    pmusim_path = argv[1];
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("rules-parity", NULL, NULL);
    CU_add_test(s, "prepared results and the rule path: the same answers", test_corpus);
    return pms_cu_tap_run();
}
