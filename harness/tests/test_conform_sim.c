/* harness tests: `pmusim conform` with simulation vectors — a vector that
 * passes, a deliberately wrong one that fails with file:line, a malformed
 * stimulus stopping everything before a run, and the mutant count on a tiny
 * case whose figures are derived by hand below.
 *
 * Run by meson as: test_conform_sim PMUSIM */
#include "cu_tap.h"

#include <dlfcn.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

static const char *pmusim_path;

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

/* DIR/wsm/a.sim holding `text`; returns DIR. */
static char *tree(const char *text)
{
    char *dir = g_dir_make_tmp("pms-conform-sim-XXXXXX", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    g_autofree char *sub = g_build_filename(dir, "wsm", NULL);
    CU_ASSERT_EQUAL(g_mkdir(sub, 0700), 0);
    g_autofree char *f = g_build_filename(sub, "a.sim", NULL);
    CU_ASSERT_TRUE(g_file_set_contents(f, text, -1, NULL));
    return dir;
}

static void untree(const char *dir)
{
    g_autofree char *f = g_build_filename(dir, "wsm", "a.sim", NULL);
    g_autofree char *sub = g_build_filename(dir, "wsm", NULL);
    g_remove(f);
    g_rmdir(sub);
    g_rmdir(dir);
}

/* n = 2,0,3 at CPL 3: c=1 counts cycles with n >= 1 -> 2; c=0 adds n -> 5. */
#define TINY(pmc0, pmc1)                                                                                               \
    "vector c1\n"                                                                                                      \
    "event 0 \"wsm::INST_RETIRED:ANY_P:c=1\"\n"                                                                        \
    "event 1 \"wsm::INST_RETIRED:ANY_P\"\n"                                                                            \
    "src semantics.md §3: c=1 -> 2 cycles, c=0 -> 5\n"                                                                \
    "run 1 INST_RETIRED.ANY_P=2\n"                                                                                     \
    "run 1 INST_RETIRED.ANY_P=0\n"                                                                                     \
    "run 1 INST_RETIRED.ANY_P=3\n"                                                                                     \
    "read IA32_PMC0 " pmc0 "\n"                                                                                        \
    "read IA32_PMC1 " pmc1 "\n"                                                                                        \
    "expect-pmi none\n"                                                                                                \
    "end\n"

static void test_pass_and_fail(void)
{
    g_autofree char *ok_dir = tree(TINY("2", "5"));
    const char *args[] = { "conform", "--vectors", ok_dir, "--kind", "sim", NULL };
    Run r = run_cli(args);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "wsm        sim            1        1        0"));
    run_clear(&r);
    untree(ok_dir);

    g_autofree char *bad_dir = tree(TINY("2", "6"));
    const char *args2[] = { "conform", "--vectors", bad_dir, "--kind", "sim", NULL };
    r = run_cli(args2);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "wsm        sim            1        0        1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "vector 'c1'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "wsm/a.sim:9: cycle 3: read IA32_PMC1 (0xc2) = 0x5 (5), expected 0x6 (6)"));
    run_clear(&r);
    untree(bad_dir);
}

static void test_bad_files_stop_before_running(void)
{
    /* A stimulus record naming an unknown register: file:line, exit 1, no table. */
    g_autofree char *dir = tree("vector a\nevent 0 \"wsm::INST_RETIRED:ANY_P\"\nsrc s\nread NO_SUCH_REG 1\nend\n");
    const char *args[] = { "conform", "--vectors", dir, NULL };
    Run r = run_cli(args);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "wsm/a.sim:4:"));
    CU_ASSERT_PTR_NULL(strstr(r.out, "PMU"));
    run_clear(&r);
    untree(dir);

    g_autofree char *dir2 = tree("vector a\nevent 0 \"wsm::NO_SUCH_EVENT\"\nsrc s\nread IA32_PMC0 1\nend\n");
    const char *args2[] = { "conform", "--vectors", dir2, "--kind", "sim", NULL };
    r = run_cli(args2);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "wsm/a.sim:2:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "NO_SUCH_EVENT"));
    run_clear(&r);
    untree(dir2);

    g_autofree char *dir3 = tree("vector a\n");
    const char *args3[] = { "conform", "--vectors", dir3, "--mutants", NULL };
    r = run_cli(args3);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "wsm/a.sim:1:"));
    run_clear(&r);
    untree(dir3);
}

/* The tiny case by hand.  Each event has one code (evtsel); 2 x 64 mutants.
 * Bits 32..63 are reserved in IA32_PERFEVTSELx (writable 0xffffffff): 64 #GP.
 * Event 0 (c=1, count 2): event/umask bits 0-15 lose the signal (16); usr off
 * -> 0; en off -> 0; inv on -> n<1 = 1; any cmask bit -> c=0 (5) or c>=3 (1 or
 * 0): 8.  Caught 27.  Survive: os (no CPL-0 cycle), edge (rising edges of
 * n>=1 are cycles 0 and 2: still 2), int (no overflow), any (thread 1 idle):
 * missed 4; pc: unobservable 1.
 * Event 1 (c=0, count 5): bits 0-15, usr, edge (2 edges), en, cmask (c>=1:
 * 2, 2, 1 or 0): 27 caught; os, int, any missed (3); pc and inv (c=0)
 * unobservable (2).
 * Total 128, caught 118 (64 #GP), unobservable 3, missed 7:
 * 92.19% of all, 118/125 = 94.40% of the observable ones (< 95: exit 1), and
 * 54/61 = 88.52% of the observable ones that are not #GP. */
static void test_mutants_tiny(void)
{
    g_autofree char *dir = tree(TINY("2", "5"));
    const char *args[] = { "conform", "--vectors", dir, "--mutants", NULL };
    Run r = run_cli(args);
    CU_ASSERT_EQUAL(r.status, 1);
    if (!strstr(r.out, "wsm            1      128      118     64       3       7   92.19%     94.40%     88.52%"))
        g_printerr("# %s\n", r.out);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(r.out, "wsm            1      128      118     64       3       7   92.19%     94.40%     88.52%"));
    const char *missed[] = { "c1 event 0 codes[0] bit 17\n", "c1 event 0 codes[0] bit 18\n",
                             "c1 event 0 codes[0] bit 20\n", "c1 event 0 codes[0] bit 21\n",
                             "c1 event 1 codes[0] bit 17\n", "c1 event 1 codes[0] bit 20\n",
                             "c1 event 1 codes[0] bit 21\n" };
    for (guint i = 0; i < G_N_ELEMENTS(missed); i++)
        CU_ASSERT_PTR_NOT_NULL(strstr(r.out, missed[i]));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "c1 event 1 codes[0] bit 23\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "2: PC (pin control)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "94.40% of the observable mutants caught (goal 95.00%)"));
    run_clear(&r);

    /* With a lower goal the same run passes. */
    const char *args2[] = { "conform", "--vectors", dir, "--mutants", "--goal", "90", NULL };
    r = run_cli(args2);
    CU_ASSERT_EQUAL(r.status, 0);
    run_clear(&r);
    untree(dir);
}

/* conform --mutants PMU...: only the named PMUs' vectors are mutated; a PMU
 * without vectors is a usage error, as for a plain run. */
static void test_mutants_of_named_pmus(void)
{
    const char *args[] = { "conform", "--mutants", "nhm_unc", NULL };
    Run r = run_cli(args);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\nnhm_unc "));
    CU_ASSERT_PTR_NULL(strstr(r.out, "\nwsm_unc "));
    CU_ASSERT_PTR_NULL(strstr(r.out, "\nglm "));
    CU_ASSERT_PTR_NULL(strstr(r.out, "\nmontecito "));
    run_clear(&r);

    g_autofree char *dir = tree(TINY("2", "5"));
    const char *args2[] = { "conform", "--vectors", dir, "--mutants", "glm", NULL };
    r = run_cli(args2);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "no vectors for PMU 'glm'"));
    run_clear(&r);
    untree(dir);
}

/* conform --mutants on several workers (issue 21): each vector's mutants are
 * a job, merged in vector order, so the report of every built-in vector is
 * byte for byte the single worker's; --jobs 0 is a usage error. */
static void test_mutants_jobs_same_report(void)
{
    const char *one[] = { "conform", "--mutants", "--jobs", "1", NULL };
    Run r1 = run_cli(one);
    const char *four[] = { "conform", "--mutants", "-j", "4", NULL };
    Run r4 = run_cli(four);
    CU_ASSERT_EQUAL(r1.status, 0);
    CU_ASSERT_EQUAL(r4.status, r1.status);
    CU_ASSERT_PTR_NOT_NULL(strstr(r1.out, "\nsurvivors, missed"));
    CU_ASSERT_STRING_EQUAL(r4.out, r1.out);
    run_clear(&r1);
    run_clear(&r4);

    const char *zero[] = { "conform", "--mutants", "--jobs", "0", NULL };
    Run r0 = run_cli(zero);
    CU_ASSERT_EQUAL(r0.status, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r0.err, "--jobs 0: expected a number of workers 1 or more"));
    run_clear(&r0);
}

/* libpfm4 4.13 adds the snoop default to L2_HIT on glm (docs/libpfm4-differences.md):
 * through the simulator that is a wrong count or a #GP, not only a different number. */
static void test_libpfm4_wrong_bits_count_wrong(void)
{
    /* --strict: the shipped expectations list these as known differences */
    const char *args[] = { "conform", "--kind", "sim", "--backend", "libpfm4", "--strict", NULL };
    Run r = run_cli(args);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "vector 'ev_offcore_response_0' (vectors/glm/events.sim"));
    run_clear(&r);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s PMUSIM\n", argv[0]);
        return 2;
    }
    pmusim_path = argv[1];
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("conform sim", NULL, NULL);
    CU_add_test(s, "a passing vector and a wrong one", test_pass_and_fail);
    CU_add_test(s, "bad files stop before anything runs", test_bad_files_stop_before_running);
    CU_add_test(s, "mutant counts on a tiny case", test_mutants_tiny);
    CU_add_test(s, "mutants of the named PMUs only", test_mutants_of_named_pmus);
    CU_add_test(s, "mutants on 1 and 4 workers: the same report", test_mutants_jobs_same_report);
    void *pfm = dlopen("libpfm.so.4", RTLD_NOW | RTLD_LOCAL);
    if (pfm) {
        dlclose(pfm);
        CU_add_test(s, "libpfm4 codes run through the simulator", test_libpfm4_wrong_bits_count_wrong);
    }
    return pms_cu_tap_run();
}
