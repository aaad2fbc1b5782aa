#include "cu_tap.h"

#include <gio/gio.h>
#include <glib.h>
#include <glib/gstdio.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>

static unsigned tap_index;
static unsigned tap_total;
static int test_failed;

static void on_test_start(const CU_pTest test, const CU_pSuite suite)
{
    (void)test;
    (void)suite;
    test_failed = 0;
}

static void on_test_complete(const CU_pTest test, const CU_pSuite suite, const CU_pFailureRecord failures)
{
    tap_index++;
    if (failures == NULL) {
        printf("ok %u - %s: %s\n", tap_index, suite->pName, test->pName);
        return;
    }
    printf("not ok %u - %s: %s\n", tap_index, suite->pName, test->pName);
    for (CU_pFailureRecord f = failures; f != NULL; f = f->pNext)
        printf("# %s:%u: %s\n", f->strFileName ? f->strFileName : "?", f->uiLineNumber,
               f->strCondition ? f->strCondition : "");
}

static void on_suite_init_failure(const CU_pSuite suite)
{
    tap_index++;
    printf("not ok %u - %s: suite initialisation failed\n", tap_index, suite->pName);
}

int pms_cu_start(int argc, char **argv, int need, const char *usage)
{
    if (argc < need + 1) {
        fprintf(stderr, "usage: %s %s\n", argc ? argv[0] : "test", usage);
        return 2;
    }
    return CU_initialize_registry() == CUE_SUCCESS ? 0 : 1;
}

int pms_cu_tap_run(void)
{
    CU_pTestRegistry reg = CU_get_registry();
    /* The suites feed stdin to pmusim and backend processes; one that exits
     * before reading it all (a refused request, a closed pipe: what some
     * tests check) must give the writer EPIPE, not kill the whole suite with
     * SIGPIPE, which on a loaded machine happened in one run of the CI. */
    signal(SIGPIPE, SIG_IGN);
    tap_total = 0;
    for (CU_pSuite s = reg->pSuite; s != NULL; s = s->pNext)
        tap_total += s->uiNumberOfTests;
    printf("1..%u\n", tap_total);
    CU_set_test_start_handler(on_test_start);
    CU_set_test_complete_handler(on_test_complete);
    CU_set_suite_init_failure_handler(on_suite_init_failure);
    CU_run_all_tests();
    unsigned failed = CU_get_number_of_tests_failed() + CU_get_number_of_suites_failed();
    unsigned run = CU_get_number_of_tests_run();
    /* A suite that failed to initialise skips its tests: report them as failures so the
     * plan line still adds up and nothing is skipped silently. */
    while (tap_index < tap_total) {
        tap_index++;
        printf("not ok %u - test not run\n", tap_index);
        failed++;
    }
    printf("# %u run, %u failed\n", run, failed);
    CU_cleanup_registry();
    return failed == 0 ? 0 : 1;
}

char *pms_cu_strip_gcov(const char *err)
{
    g_auto(GStrv) lines = g_strsplit(err ? err : "", "\n", -1);
    GString *keep = g_string_new(NULL);
    for (guint i = 0; lines[i]; i++) {
        if (g_str_has_prefix(lines[i], "profiling:") || g_str_has_prefix(lines[i], "libgcov profiling error:"))
            continue;
        g_string_append(keep, lines[i]);
        if (lines[i + 1])
            g_string_append_c(keep, '\n');
    }
    return g_string_free(keep, FALSE);
}

PmsCuRun pms_cu_run(const char *const *argv, const char *input, gsize len)
{
    PmsCuRun r = { -1, NULL, NULL };
    g_autoptr(GError) err = NULL;
    GSubprocessFlags flags =
        G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE | (input ? G_SUBPROCESS_FLAGS_STDIN_PIPE : 0);
    g_autoptr(GSubprocess) p = g_subprocess_newv(argv, flags, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    g_autoptr(GBytes) in = input ? g_bytes_new(input, len) : NULL;
    g_autoptr(GBytes) out = NULL, errb = NULL;
    CU_ASSERT_FATAL(g_subprocess_communicate(p, in, NULL, &out, &errb, &err));
    gsize n;
    const char *d = g_bytes_get_data(out, &n);
    r.out = g_strndup(d ? d : "", n);
    d = g_bytes_get_data(errb, &n);
    g_autofree char *e = g_strndup(d ? d : "", n);
    r.err = pms_cu_strip_gcov(e);
    if (g_subprocess_get_if_exited(p))
        r.status = g_subprocess_get_exit_status(p);
    return r;
}

PmsCuRun pms_cu_run_words(const char *program, const char *words)
{
    g_auto(GStrv) v = g_strsplit_set(words ? words : "", " ", -1);
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    g_ptr_array_add(argv, (gpointer)program);
    for (char **w = v; *w; w++)
        if (**w)
            g_ptr_array_add(argv, *w);
    g_ptr_array_add(argv, NULL);
    return pms_cu_run((const char *const *)argv->pdata, NULL, 0);
}

void pms_cu_run_clear(PmsCuRun *r)
{
    g_clear_pointer(&r->out, g_free);
    g_clear_pointer(&r->err, g_free);
}

void pms_cu_remove_scratch(const char *dir)
{
    GDir *d = dir ? g_dir_open(dir, 0, NULL) : NULL;
    for (const char *n; d && (n = g_dir_read_name(d));) {
        g_autofree char *p = g_build_filename(dir, n, NULL);
        g_remove(p);
    }
    if (d)
        g_dir_close(d);
    if (dir)
        g_rmdir(dir);
}
