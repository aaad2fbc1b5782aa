/* `pmusim ranges` as a subprocess: the range vectors
 * (vectors/montecito/ranges.txt, format in docs/ia64-range.md), exact
 * output, error lines and exit statuses, bad numbers, --help.
 *
 * Run by meson as: test_ranges_cli PMUSIM VECTORS_FILE.  Expected outputs
 * are hand-derived (the vector file's src column, and the comments here). */
#include "cu_tap.h"

#include <gio/gio.h>
#include <stdio.h>
#include <string.h>

static const char *pmusim_path;
static const char *vectors_path;

typedef PmsCuRun Run;

static void run_clear(Run *r)
{
    pms_cu_run_clear(r);
}

/* pmusim ranges ARGS... (argv NULL-terminated, without "pmusim ranges") */
static Run run_v(char **args)
{
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    g_ptr_array_add(argv, (gpointer)pmusim_path);
    g_ptr_array_add(argv, (gpointer) "ranges");
    for (char **a = args; *a; a++)
        g_ptr_array_add(argv, *a);
    g_ptr_array_add(argv, NULL);
    return pms_cu_run((const char *const *)argv->pdata, NULL, 0);
}

static Run run_line(const char *args)
{
    g_auto(GStrv) v = g_strsplit_set(args, " ", -1);
    /* drop empty tokens from repeated spaces */
    GPtrArray *a = g_ptr_array_new();
    for (char **p = v; *p; p++)
        if (**p)
            g_ptr_array_add(a, *p);
    g_ptr_array_add(a, NULL);
    Run r = run_v((char **)a->pdata);
    g_ptr_array_free(a, TRUE);
    return r;
}

/* Expect exit 2, nothing on stdout and exactly one stderr line starting with
 * "pmusim: ranges: " + prefix. */
static void expect_fail(const char *args, const char *prefix)
{
    Run r = run_line(args);
    g_autofree char *want = g_strconcat("pmusim: ranges: ", prefix, NULL);
    gboolean one_line = r.err && strchr(r.err, '\n') == r.err + strlen(r.err) - 1;
    if (r.status != 2 || !g_str_has_prefix(r.err, want) || !one_line || r.out[0])
        fprintf(stderr, "# ranges %s: status %d, stderr '%s', want prefix '%s'\n", args, r.status, r.err, want);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_TRUE(g_str_has_prefix(r.err, want));
    CU_ASSERT_TRUE(one_line);
    CU_ASSERT_STRING_EQUAL(r.out, "");
    run_clear(&r);
}

static guint n_vectors, n_vector_errors;

/* Every vector of the file: NAME | ARGS | EXPECT | src: ... */
static void test_vectors(void)
{
    g_autofree char *text = NULL;
    g_autoptr(GError) err = NULL;
    CU_ASSERT_TRUE_FATAL(g_file_get_contents(vectors_path, &text, NULL, &err));
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        char *line = g_strstrip(lines[i]);
        if (!*line || *line == '#')
            continue;
        g_auto(GStrv) f = g_strsplit(line, "|", -1);
        if (g_strv_length(f) != 4 || !g_str_has_prefix(g_strstrip(f[3]), "src:")) {
            fprintf(stderr, "# %s:%u: expected NAME | ARGS | EXPECT | src: ...\n", vectors_path, i + 1);
            CU_FAIL("malformed vector line");
            continue;
        }
        const char *name = g_strstrip(f[0]), *args = g_strstrip(f[1]), *expect = g_strstrip(f[2]);
        n_vectors++;
        Run r = run_line(args);
        if (g_str_has_prefix(expect, "error ")) {
            n_vector_errors++;
            g_autofree char *want = g_strdup_printf("pmusim: ranges: %s: ", expect + 6);
            gboolean ok = r.status == 2 && g_str_has_prefix(r.err, want) && r.out[0] == '\0' &&
                strchr(r.err, '\n') == r.err + strlen(r.err) - 1;
            if (!ok)
                fprintf(stderr, "# vector %s: status %d, stderr '%s', want '%s...'\n", name, r.status, r.err, want);
            CU_ASSERT_TRUE(ok);
        } else {
            /* the output lines joined with "; " */
            g_autofree char *got = g_strdup(r.out);
            g_strchomp(got);
            g_auto(GStrv) outl = g_strsplit(got, "\n", -1);
            g_autofree char *joined = g_strjoinv("; ", outl);
            gboolean ok = r.status == 0 && strcmp(joined, expect) == 0 && r.err[0] == '\0';
            if (!ok)
                fprintf(stderr, "# vector %s: status %d\n#   got  %s\n#   want %s\n#   stderr %s\n", name, r.status,
                        joined, expect, r.err);
            CU_ASSERT_TRUE(ok);
        }
        run_clear(&r);
    }
    fprintf(stderr, "# %u range vectors (%u errors)\n", n_vectors, n_vector_errors);
    CU_ASSERT_TRUE(n_vectors >= 40);
}

/* Exact output of one request.  [0x1003, 0x2005) on the data side (see
 * test_ia64_range.c test_data_unaligned): three DBR pairs, soff 3. */
static void test_output(void)
{
    Run r = run_line("--data 0x1003-0x2005");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_STRING_EQUAL(r.out,
                           "dbr0=0x1000\n"
                           "dbr1=0x8fffffffffff000\n"
                           "dbr2=0x2000\n"
                           "dbr3=0x8fffffffffffffc\n"
                           "dbr4=0x2004\n"
                           "dbr5=0x8ffffffffffffff\n"
                           "pmc41=0xe078fef6f6f6\n"
                           "range 0 soff=0x3 eoff=0x0\n"
                           "fine=no\n");
    CU_ASSERT_STRING_EQUAL(r.err, "");
    run_clear(&r);
}

/* Each error condition's line names it (exit 2). */
static void test_errors(void)
{
    expect_fail("--code 0x18-0x40", "PFMLIB_ERR_IRRALIGN: range 0: start 0x18 is not a multiple of 16");
    expect_fail("--code 0x10-0x48", "PFMLIB_ERR_IRRALIGN: range 0: end 0x48 is not a multiple of 16");
    expect_fail("--code 0x40-0x40", "PFMLIB_ERR_IRRINVAL: range 0: start 0x40 is not below end 0x40");
    expect_fail("--data 0x1000-0x2000 0x41-0x40", "PFMLIB_ERR_DRRINVAL: range 1: start 0x41");
    expect_fail("--code 0x0-0x100000000000010", "PFMLIB_ERR_IRRTOOBIG:");
    expect_fail("--code --no-fine 0x0-0x10 0x100-0x110", "PFMLIB_ERR_IRRTOOMANY:");
    expect_fail("--data 1-0xffffffffffffffff", "PFMLIB_ERR_DRRTOOMANY:");
    expect_fail("--data 1-2 3-4 5-6 7-8 9-10", "PFMLIB_ERR_DRRTOOMANY: 5 data ranges: at most 4");
    expect_fail("--code -e FE_BUBBLE_ALL 0x0-0x10", "PFMLIB_ERR_FEATCOMB: event FE_BUBBLE_ALL does not support code");
    expect_fail("--data --inv 0x0-0x10", "PFMLIB_ERR_FEATCOMB:");
}

/* Bad numbers and usage: one stderr line, exit 2. */
static void test_usage(void)
{
    expect_fail("--data 0x1g-0x20", "START '0x1g': expected a decimal or 0x-hex number");
    expect_fail("--data 0x10-zz", "END 'zz': expected a decimal or 0x-hex number");
    expect_fail("--data 0x10-0x10000000000000000", "END '0x10000000000000000'");
    expect_fail("--data 0x10", "range '0x10': expected START-END");
    expect_fail("--data 1-2-3", "range '1-2-3': expected START-END");
    expect_fail("--data -- -5-6", "range '-5-6': expected START-END");
    expect_fail("0x10-0x20", "give exactly one of --code and --data");
    expect_fail("--code --data 0x10-0x20", "give exactly one of --code and --data");
    expect_fail("--code", "expected at least one START-END");
    expect_fail("--code -e NO_SUCH_EVENT 0x0-0x10", "unknown montecito event 'NO_SUCH_EVENT'");
    Run r = run_line("--data --plm 5 0x0-0x10");
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--plm"));
    run_clear(&r);
    r = run_line("--data --bogus 0x0-0x10");
    CU_ASSERT_EQUAL(r.status, 2);
    run_clear(&r);
}

static void test_help(void)
{
    Run r = run_line("--help");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "--code|--data START-END..."));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "--no-fine"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Examples:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pmusim ranges --data 0x1003-0x2005"));
    run_clear(&r);
    /* the command table lists it */
    GPtrArray *argv = g_ptr_array_new();
    g_ptr_array_add(argv, (gpointer)pmusim_path);
    g_ptr_array_add(argv, (gpointer) "--help");
    g_ptr_array_add(argv, NULL);
    g_autoptr(GSubprocess) p =
        g_subprocess_newv((const char *const *)argv->pdata, G_SUBPROCESS_FLAGS_STDOUT_PIPE, NULL);
    g_ptr_array_free(argv, TRUE);
    g_autofree char *out = NULL;
    CU_ASSERT_FATAL(p && g_subprocess_communicate_utf8(p, NULL, NULL, &out, NULL, NULL));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  ranges "));
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_ranges_cli PMUSIM VECTORS_FILE\n");
        return 2;
    }
    pmusim_path = argv[1];
    vectors_path = argv[2];
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("ranges_cli", NULL, NULL);
    CU_add_test(s, "vectors", test_vectors);
    CU_add_test(s, "output", test_output);
    CU_add_test(s, "errors", test_errors);
    CU_add_test(s, "usage", test_usage);
    CU_add_test(s, "help", test_help);
    return pms_cu_tap_run();
}
