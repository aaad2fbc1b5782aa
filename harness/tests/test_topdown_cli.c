/* topdown-cli: Icelake's top-down metrics through the CLI as a subprocess
 * (docs/semantics.md §8c): `encode` of TOPDOWN_M (fixed counter 3 and
 * GLOBAL_CTRL bits 35 and 48), `sim` with slots= stimuli (the metric's line:
 * field, fraction, slots as Linux decodes them), `explain`'s words, and the
 * stimulus's slots= errors (file:line, exit 1).  On the test model
 * sim/tests/data/icl-td.pmu (glm with FIXED_CTR3 and IA32_PERF_METRICS).
 *
 * Run by meson as: test_topdown_cli PMUSIM SRCDIR.  Hand derivations:
 * IA32_FIXED_CTR_CTRL counter 3's field bits 15:12 (EN 13:12: 11b every ring,
 * ANY 14, PMI 15) = 0xb000 for usr+os+int; GLOBAL_CTRL bit 35 (32 + 3) and
 * bit 48 (EN_PERF_METRICS) = 0x1000800000000. */
#include "cu_tap.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

static const char *pmusim_path;
static const char *srcdir;

static PmsCuRun run(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
static PmsCuRun run(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *words = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    return pms_cu_run_words(pmusim_path, words);
}

static gboolean has(const char *out, const char *what)
{
    gboolean ok = out && strstr(out, what);
    if (!ok)
        fprintf(stderr, "# expected '%s' in:\n%s\n", what, out ? out : "(nothing)");
    return ok;
}

static void test_encode(void)
{
    PmsCuRun r = run("encode -m %s/sim/tests/data/icl-td.pmu icl_td::TOPDOWN_M:RETIRING", srcdir);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(has(r.out, "IA32_FIXED_CTR_CTRL  0x38d = 0xb000"));
    CU_ASSERT_TRUE(has(r.out, "IA32_PERF_GLOBAL_CTRL 0x38f = 0x1000800000000"));
    pms_cu_run_clear(&r);
    /* SLOTS is fixed counter 3 alone: no bit 48 */
    r = run("encode -m %s/sim/tests/data/icl-td.pmu icl_td::TOPDOWN_M:SLOTS", srcdir);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(has(r.out, "IA32_PERF_GLOBAL_CTRL 0x38f = 0x800000000 "));
    pms_cu_run_clear(&r);
}

/* After the stimulus: FIXED_CTR3 = 1000 slots; front-end bound 0x66 = 102,
 * 1000 x 102 / 255 = 400 slots (exact here: 400 of the 1000 were). */
static void test_sim(void)
{
    for (int fast = 0; fast < 2; fast++) {
        PmsCuRun r = run("sim -m %s/sim/tests/data/icl-td.pmu -e icl_td::TOPDOWN_M:FRONTEND_BOUND --stim "
                         "%s/sim/tests/data/icl-topdown.stim%s",
                         srcdir, srcdir, fast ? " --engine fast" : "");
        if (r.status != 0)
            fprintf(stderr, "# exit %d: %s\n", r.status, r.err ? r.err : "");
        CU_ASSERT_EQUAL(r.status, 0);
        CU_ASSERT_TRUE(has(r.out,
                           "# metric: IA32_PERF_METRICS bits 23:16 = 102 (40.0 % of the slots) = 400 of "
                           "1000 slots (slots * 102 / 255, rounded down)\n"));
        CU_ASSERT_TRUE(r.out && g_str_has_suffix(r.out, "count=1000 overflow=0\n"));
        pms_cu_run_clear(&r);
    }
    /* retiring: 51 = 1/5; 1000 x 51 / 255 = 200 */
    PmsCuRun r = run("sim -m %s/sim/tests/data/icl-td.pmu -e icl_td::TOPDOWN_M:RETIRING --stim "
                     "%s/sim/tests/data/icl-topdown.stim --engine fast",
                     srcdir, srcdir);
    CU_ASSERT_TRUE(has(r.out, "bits 7:0 = 51 (20.0 % of the slots) = 200 of 1000 slots"));
    pms_cu_run_clear(&r);
    /* SLOTS alone leaves GLOBAL_CTRL bit 48 clear: PERF_METRICS stands
     * still (T4 freeze) and the stimulus's first read of it fails */
    r = run("sim -m %s/sim/tests/data/icl-td.pmu -e icl_td::TOPDOWN_M:SLOTS --stim %s/sim/tests/data/icl-topdown.stim",
            srcdir, srcdir);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_TRUE(has(r.err,
                       "icl-topdown.stim:10: cycle 100: read IA32_PERF_METRICS (0x329) = 0x0 (0), expected "
                       "0xcc0033"));
    CU_ASSERT_PTR_NULL(r.out ? strstr(r.out, "metric") : NULL);
    pms_cu_run_clear(&r);
}

static void test_explain(void)
{
    PmsCuRun r = run("explain -m %s/sim/tests/data/icl-td.pmu icl_td::TOPDOWN_M:BAD_SPEC", srcdir);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(has(r.out, "field: IA32_PERF_METRICS bits 15:8: the share of the slots fixed counter 3"));
    CU_ASSERT_TRUE(has(r.out, "write FIXED_CTR3 = 0 first, then IA32_PERF_METRICS = 0"));
    CU_ASSERT_TRUE(has(r.out, "In short: reads which share of the slots went to bad speculation"));
    pms_cu_run_clear(&r);
}

static void test_stim_errors(void)
{
    g_autofree char *dir = g_dir_make_tmp("pmusim-td-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "bad.stim", NULL);
    CU_ASSERT_TRUE_FATAL(g_file_set_contents(path, "pmu icl_td\nrun 3 slots=retiring:1,fe_bound:3\n", -1, NULL));
    PmsCuRun r = run("sim -m %s/sim/tests/data/icl-td.pmu -e icl_td::TOPDOWN_M:RETIRING --stim %s", srcdir, path);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_TRUE(has(r.err, "bad.stim:2: slots: the categories add up to 4; a cycle of icl_td has 5 slots"));
    pms_cu_run_clear(&r);
    CU_ASSERT_TRUE_FATAL(g_file_set_contents(path, "pmu icl_td\nrun 3 slots=retiring:5 slots=retiring:5\n", -1, NULL));
    r = run("sim -m %s/sim/tests/data/icl-td.pmu -e icl_td::TOPDOWN_M:RETIRING --stim %s", srcdir, path);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_TRUE(has(r.err, "bad.stim:2: slots: given twice in one run"));
    pms_cu_run_clear(&r);
    g_unlink(path);
    g_rmdir(dir);
}

int main(int argc, char **argv)
{
    int st = pms_cu_start(argc, argv, 2, "PMUSIM SRCDIR");
    if (st)
        return st;
    pmusim_path = argv[1];
    srcdir = argv[2];
    CU_pSuite s = CU_add_suite("topdown-cli", NULL, NULL);
    CU_add_test(s, "encode TOPDOWN_M: FIXED_CTR3, GLOBAL_CTRL bits 35 and 48", test_encode);
    CU_add_test(s, "sim: the metric's line before the answer", test_sim);
    CU_add_test(s, "explain: the fractions and the reset rule", test_explain);
    CU_add_test(s, "stimulus slots= errors name file:line", test_stim_errors);
    return pms_cu_tap_run();
}
