/* harness tests: `pmusim conform` with expectations (known differences):
 * an expected failure passes the run, a new failure, a stale entry and an
 * entry that matches nothing fail it, a malformed or unreadable file is a
 * usage error naming file:line; TAP TODO and JUnit skipped/error; the shipped
 * libpfm4 expectations parse, and with libpfm4 installed the run exits 0.
 *
 * Run by meson as: test_expect PMUSIM FAKE_BACKEND */
#include <dlfcn.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/Basic.h>

#include "cu_tap.h"
#include "vectors.h"

int pms_cu_tap_run(void);

static const char *pmusim_path;
static const char *fake_path;
static char *dir; /* DIR/zz/a.enc */

typedef PmsCuRun Run;

static void run_clear(Run *r)
{
    pms_cu_run_clear(r);
}

static Run run_cli(const char *const *args)
{
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    g_ptr_array_add(argv, (gpointer)pmusim_path);
    for (guint i = 0; args[i]; i++)
        g_ptr_array_add(argv, (gpointer)args[i]);
    g_ptr_array_add(argv, NULL);
    return pms_cu_run((const char *const *)argv->pdata, NULL, 0);
}

/* Three vectors: "crash" (builtin: NOTFOUND, fake backend: a crash), one the
 * builtin encoder passes, one whose expectation is wrong on purpose. */
static const char vectors_text[] = "\"crash\" PFM_SUCCESS 0x1 src test\n"
                                   "\"wsm::INST_RETIRED:0xff:k\" PFM_SUCCESS 0x52ffc0 src SDM 18.2.1 layout\n"
                                   "\"wsm::INST_RETIRED:ANY_P\" PFM_SUCCESS 0x1 src wrong on purpose\n";

static char *expect_file(const char *name, const char *text)
{
    char *path = g_build_filename(dir, name, NULL);
    CU_ASSERT_FATAL(g_file_set_contents(path, text, -1, NULL));
    return path;
}

static char *vec_dir(void)
{
    return g_build_filename(dir, "v", NULL);
}

static const char known_text[] =
    "# the two failures, with reasons\n"
    "zz/a.enc \"crash\" not a PMU string\n"
    "zz/a.enc \"wsm::INST_RETIRED\" 1*\":ANY_P\" docs/libpfm4-differences.md, nothing: wrong on purpose\n";

static void test_known(void)
{
    g_autofree char *v = vec_dir();
    g_autofree char *e = expect_file("known.txt", known_text);
    g_autofree char *junit = g_build_filename(dir, "known.xml", NULL);
    /* without expectations: two failures */
    const char *a0[] = { "conform", "--vectors", v, NULL };
    Run r = run_cli(a0);
    CU_ASSERT_EQUAL(r.status, 1);
    run_clear(&r);
    /* with them: only known differences fail, the run passes */
    const char *a1[] = { "conform", "--vectors", v, "--expect", e, "--tap", "--junit", junit, NULL };
    r = run_cli(a1);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "# TODO known difference: "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "known.txt:3: docs/libpfm4-differences.md, nothing: wrong on purpose"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "ok 2 - zz zz/a.enc \"wsm::INST_RETIRED:0xff:k\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "known"));
    run_clear(&r);
    g_autofree char *xml = NULL;
    CU_ASSERT_FATAL(g_file_get_contents(junit, &xml, NULL, NULL));
    CU_ASSERT_PTR_NOT_NULL(strstr(xml, "skipped=\"2\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(xml, "<skipped message=\"known difference: "));
    CU_ASSERT_PTR_NULL(strstr(xml, "<failure"));
    /* stable names: file and event string, no line number */
    CU_ASSERT_PTR_NOT_NULL(strstr(xml, "name=\"zz/a.enc &quot;wsm::INST_RETIRED:ANY_P&quot;\""));
    /* restricted to a PMU: its vectors only; an unknown PMU is a usage error */
    const char *a4[] = { "conform", "--vectors", v, "--expect", e, "zz", NULL };
    r = run_cli(a4);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "total                     3"));
    run_clear(&r);
    const char *a5[] = { "conform", "--vectors", v, "yy", NULL };
    r = run_cli(a5);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "no vectors for PMU 'yy'"));
    run_clear(&r);
    /* --strict ignores them */
    const char *a2[] = { "conform", "--vectors", v, "--strict", NULL };
    r = run_cli(a2);
    CU_ASSERT_EQUAL(r.status, 1);
    run_clear(&r);
    /* a pmu entry covers every failing vector of the PMU */
    g_autofree char *p = expect_file("pmu.txt", "pmu zz no such PMU in this backend\n");
    const char *a3[] = { "conform", "--vectors", v, "--expect", p, NULL };
    r = run_cli(a3);
    CU_ASSERT_EQUAL(r.status, 0);
    run_clear(&r);
}

static void test_stale(void)
{
    g_autofree char *v = vec_dir();
    /* a listed vector that passes: stale, the run fails */
    g_autofree char *text = g_strconcat(known_text, "zz/a.enc \"wsm::INST_RETIRED:0xff:k\" it used to fail\n", NULL);
    g_autofree char *e = expect_file("stale.txt", text);
    g_autofree char *junit = g_build_filename(dir, "stale.xml", NULL);
    const char *a1[] = { "conform", "--vectors", v, "--expect", e, "--junit", junit, NULL };
    Run r = run_cli(a1);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "stale expectations (1)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "stale.txt:4: it used to fail"));
    run_clear(&r);
    g_autofree char *xml = NULL;
    CU_ASSERT_FATAL(g_file_get_contents(junit, &xml, NULL, NULL));
    CU_ASSERT_PTR_NOT_NULL(strstr(xml, "<failure type=\"stale expectation\""));
    /* an entry that matches no vector: stale too */
    g_autofree char *text2 = g_strconcat(known_text, "zz/a.enc \"zz::GONE\" removed vector\n", NULL);
    g_autofree char *e2 = expect_file("gone.txt", text2);
    const char *a2[] = { "conform", "--vectors", v, "--expect", e2, "--tap", NULL };
    r = run_cli(a2);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "1..4\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "not ok 4 - stale expectation "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "gone.txt:4: no vector zz/a.enc \"zz::GONE\""));
    run_clear(&r);
    /* a pmu entry none of whose vectors fails */
    g_autofree char *e3 = expect_file("pmu2.txt",
                                      "zz/a.enc \"crash\" r\nzz/a.enc \"wsm::INST_RETIRED:ANY_P\" r\n"
                                      "pmu zz stale: everything else passes\n");
    const char *a3[] = { "conform", "--vectors", v, "--expect", e3, NULL };
    r = run_cli(a3);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pmu2.txt:3: no vector of PMU zz failed"));
    run_clear(&r);
    /* an unknown failure with expectations: fails */
    g_autofree char *e4 = expect_file("one.txt", "zz/a.enc \"crash\" r\n");
    const char *a4[] = { "conform", "--vectors", v, "--expect", e4, NULL };
    r = run_cli(a4);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "failures (1)"));
    run_clear(&r);
}

/* issue 20 item 19: TAP keeps the text: a quote in a failure's message, a
 * stale entry's reason and a TODO reason stays a quote (YAML's doubled quote
 * inside the single-quoted message). */
static void test_tap_text(void)
{
    g_autofree char *v = g_build_filename(dir, "q", NULL);
    g_autofree char *zz = g_build_filename(v, "zz", NULL);
    g_autofree char *f = g_build_filename(zz, "a.enc", NULL);
    CU_ASSERT_FATAL(g_mkdir_with_parents(zz, 0755) == 0);
    CU_ASSERT_FATAL(g_file_set_contents(f,
                                        "\"crash\" PFM_SUCCESS 0x1 src test\n"
                                        "\"wsm::INST_RETIRED:0xff:k\" PFM_SUCCESS 0x52ffc0 src SDM 18.2.1 layout\n"
                                        "\"wsm::INST'RETIRED\" PFM_SUCCESS 0x1 src it's a quote\n",
                                        -1, NULL));
    g_autofree char *e = expect_file("quotes.txt",
                                     "zz/a.enc \"crash\" it's no PMU string\n"
                                     "zz/a.enc \"wsm::INST_RETIRED:0xff:k\" Bob's stale entry\n");
    const char *a[] = { "conform", "--vectors", v, "--expect", e, "--tap", NULL };
    Run r = run_cli(a);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "quotes.txt:1: it's no PMU string\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "(stale entry, remove it): "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "quotes.txt:2: Bob''s stale entry'\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "a.enc:3: \"wsm::INST''RETIRED\": expected PFM_SUCCESS 0x1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "(source: it''s a quote)'\n"));
    if (!strstr(r.out, "(source: it''s a quote)'\n"))
        fprintf(stderr, "# TAP:\n%s", r.out);
    run_clear(&r);
}

static void test_bad_file(void)
{
    g_autofree char *v = vec_dir();
    static const struct {
        const char *text, *needle;
    } cases[] = {
        { "# ok\nzz/a.enc \"crash\"\n", ":2: column 17: expected a reason" },
        { "zz/a.enc crash r\n", ":1: column 10: expected the event string" },
        { "zz/a.txt \"crash\" r\n", ":1: column 1: expected 'pmu NAME REASON'" },
        { "pmu\n", ":1: column 4: expected a PMU name" },
        { "pmu zz r\npmu zz r\n", ":2: column 1: PMU zz is listed at line 1" },
        { "zz/a.enc \"crash\" r\nzz/a.enc \"cr\" \"ash\" again\n",
          ":2: column 1: the same vector is listed at line 1" },
        { "zz/a.enc \"\\q\" r\n", ":1:" },
        /* a PMU without vectors: a typo would silently expect nothing */
        { "pmu zz r\npmu zzz r\n", ":2: no vector of PMU 'zzz' exists (the vectors are of zz)" },
        { "zq/a.enc \"crash\" r\n", ":1: no vector of PMU 'zq' exists" },
        /* issue 20 item 19: a BOM is named as one, as the model and
         * stimulus readers name it */
        { "\xef\xbb\xbfzz/a.enc \"crash\" r\n", ":1: column 1: the file starts with a UTF-8 byte-order mark" },
        { "\xef\xbb\xbfpmu zz r\n", ":1: column 1: the file starts with a UTF-8 byte-order mark" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *e = expect_file("bad.txt", cases[i].text);
        const char *a[] = { "conform", "--vectors", v, "--expect", e, NULL };
        Run r = run_cli(a);
        CU_ASSERT_EQUAL(r.status, 2);
        g_autofree char *want = g_strconcat(e, cases[i].needle, NULL);
        if (!strstr(r.err, want))
            fprintf(stderr, "# case %u: stderr '%s', expected '%s'\n", i, r.err, want);
        CU_ASSERT_PTR_NOT_NULL(strstr(r.err, want));
        run_clear(&r);
    }
    g_autofree char *missing = g_build_filename(dir, "missing.txt", NULL);
    const char *a[] = { "conform", "--vectors", v, "--expect", missing, NULL };
    Run r = run_cli(a);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "missing.txt"));
    run_clear(&r);
    const char *b[] = { "conform", "--strict", "--expect", missing, NULL };
    r = run_cli(b);
    CU_ASSERT_EQUAL(r.status, 2);
    run_clear(&r);
}

/* A backend that crashes on a vector: JUnit <error>, or <skipped> when known. */
static void test_crash(void)
{
    g_autofree char *v = vec_dir();
    g_autofree char *backend = g_strconcat("cmd:", fake_path, NULL);
    g_autofree char *junit = g_build_filename(dir, "crash.xml", NULL);
    const char *a1[] = { "conform", "--vectors", v, "--backend", backend, "--junit", junit, NULL };
    Run r = run_cli(a1);
    CU_ASSERT_EQUAL(r.status, 1);
    run_clear(&r);
    g_autofree char *xml = NULL;
    CU_ASSERT_FATAL(g_file_get_contents(junit, &xml, NULL, NULL));
    CU_ASSERT_PTR_NOT_NULL(strstr(xml, "<error type=\"BACKEND_CRASH\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(xml, "errors=\"1\""));
    g_autofree char *e = expect_file("crash.txt", "pmu zz the fake backend answers nonsense\n");
    const char *a2[] = { "conform", "--vectors", v, "--backend", backend, "--expect", e, "--junit", junit, NULL };
    r = run_cli(a2);
    CU_ASSERT_EQUAL(r.status, 0);
    run_clear(&r);
    g_free(xml);
    xml = NULL;
    CU_ASSERT_FATAL(g_file_get_contents(junit, &xml, NULL, NULL));
    CU_ASSERT_PTR_NULL(strstr(xml, "<error"));
    CU_ASSERT_PTR_NOT_NULL(strstr(xml, "skipped=\"3\""));
}

/* The shipped expectations: they parse, name only built-in vectors, and with
 * libpfm4 installed `conform --backend libpfm4` passes with them. */
static void test_shipped(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsExpectations) e = pms_expectations_builtin("libpfm4", &err);
    CU_ASSERT_PTR_NULL(err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_TRUE(pms_expectations_count(e) > 200);
    CU_ASSERT_PTR_NULL(pms_expectations_builtin("builtin", &err));
    CU_ASSERT_PTR_NULL(err);
    /* an empty file: no expectation, the builtin run passes (a file of our
     * own: /dev/null is not always the empty character device) */
    g_autofree char *empty = expect_file("empty.txt", "");
    const char *a[] = { "conform", "--kind", "encode", "--expect", empty, NULL };
    Run r = run_cli(a);
    CU_ASSERT_EQUAL(r.status, 0);
    run_clear(&r);
    void *h = dlopen("libpfm.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        printf("# libpfm.so.4 not installed: the libpfm4 run is skipped\n");
        return;
    }
    dlclose(h);
    const char *b[] = { "conform", "--backend", "libpfm4", NULL };
    r = run_cli(b);
    if (r.status != 0)
        fprintf(stderr, "# conform --backend libpfm4: %s\n", r.out);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "expectations vectors/expected/libpfm4.txt"));
    run_clear(&r);
    /* one PMU: the other PMUs' entries are not stale */
    const char *d[] = { "conform", "--backend", "libpfm4", "glm", "montecito", NULL };
    r = run_cli(d);
    CU_ASSERT_EQUAL(r.status, 0);
    run_clear(&r);
    const char *c[] = { "conform", "--backend", "libpfm4", "--strict", "--kind", "encode", NULL };
    r = run_cli(c);
    CU_ASSERT_EQUAL(r.status, 1);
    run_clear(&r);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s PMUSIM FAKE_BACKEND\n", argv[0]);
        return 2;
    }
    pmusim_path = argv[1];
    fake_path = argv[2];
    dir = g_dir_make_tmp("pms-expect-XXXXXX", NULL);
    g_autofree char *zz = g_build_filename(dir, "v", "zz", NULL);
    g_mkdir_with_parents(zz, 0700);
    g_autofree char *vf = g_build_filename(zz, "a.enc", NULL);
    g_file_set_contents(vf, vectors_text, -1, NULL);

    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("conform expectations", NULL, NULL);
    CU_add_test(s, "known differences pass the run", test_known);
    CU_add_test(s, "stale entries and new failures fail it", test_stale);
    CU_add_test(s, "TAP keeps quotes: YAML doubled quotes, TODO reasons as written", test_tap_text);
    CU_add_test(s, "malformed or unreadable file: exit 2, file:line", test_bad_file);
    CU_add_test(s, "a crash is a JUnit error unless known", test_crash);
    CU_add_test(s, "shipped libpfm4 expectations", test_shipped);
    int rc = pms_cu_tap_run();
    g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", dir);
    (void)!system(cmd);
    g_free(dir);
    return rc;
}
