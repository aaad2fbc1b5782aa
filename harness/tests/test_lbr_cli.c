/* lbr-cli: the LBR through the CLI as a subprocess: `encode --lbr` (register
 * values derived by hand from the SDM below), `explain --lbr` (its words),
 * `sim` with `branch=` stimuli (the ring after the counts, the table's lbr
 * lines), and the errors (exit status, file:line).
 *
 * Run by meson as: test_lbr_cli PMUSIM SRCDIR.  Hand derivations: MSR_LBR_SELECT
 * bits (SDM Table 17-11) CPL_EQ_0 0, CPL_NEQ_0 1, JCC 2, NEAR_REL_CALL 3,
 * NEAR_IND_CALL 4, NEAR_RET 5, NEAR_IND_JMP 6, NEAR_REL_JMP 7, FAR_BRANCH 8,
 * a set bit suppresses; IA32_DEBUGCTL (SDM Fig 17-11) LBR 0,
 * FREEZE_LBRS_ON_PMI 11; FROM_IP (LBR format 000011b) bit 63 = mispredicted,
 * 62:48 the sign extension of 47:0; EN_CALLSTACK 9 (Table 17-13, glm). */
#include "cu_tap.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

static const char *pmusim_path;
static const char *srcdir;

static PmsCuRun run(const char *words)
{
    return pms_cu_run_words(pmusim_path, words);
}

/* "  NAME 0xADDR = 0xVALUE" of NAME in out, or NULL. */
static char *reg_value(const char *out, const char *name)
{
    const char *p = out ? strstr(out, name) : NULL;
    const char *eq = p ? strstr(p, " = ") : NULL;
    if (!eq)
        return NULL;
    eq += 3;
    return g_strndup(eq, strcspn(eq, " \n"));
}

static void expect_regs(const char *args, const char *sel, const char *dbg)
{
    PmsCuRun r = run(args);
    g_autofree char *s = reg_value(r.out, "MSR_LBR_SELECT");
    g_autofree char *d = reg_value(r.out, "IA32_DEBUGCTL");
    if (r.status != 0 || g_strcmp0(s, sel) || g_strcmp0(d, dbg))
        fprintf(stderr, "# %s: exit %d, LBR_SELECT %s (expected %s), DEBUGCTL %s (expected %s); stderr %s\n", args,
                r.status, s ? s : "-", sel, d ? d : "-", dbg, r.err ? r.err : "");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_STRING_EQUAL(s ? s : "", sel);
    CU_ASSERT_STRING_EQUAL(d ? d : "", dbg);
    pms_cu_run_clear(&r);
}

static void test_encode(void)
{
    /* lbr_used alone: capture everything at every ring, DEBUGCTL.LBR */
    expect_regs("encode --pmu nhm --lbr", "0x0", "0x1");
    /* user level only: CPL_EQ_0 (bit 0); JCC bit 2, FAR_BRANCH bit 8; freeze bit 11 */
    expect_regs("encode --pmu wsm --lbr --lbr-plm 3 --lbr-filter jcc,far_branch --lbr-freeze", "0x105", "0x801");
    /* kernel only: CPL_NEQ_0 (bit 1); the same on glm's layout */
    expect_regs("encode --pmu glm --lbr --lbr-plm 0", "0x2", "0x1");
    expect_regs("encode --pmu nhm_ex --lbr --lbr-plm k,u", "0x0", "0x1");
    /* lbr_plm 0 means the default: --plm's mask (3: user only) */
    expect_regs("encode --pmu wsm_dp --lbr --plm 3", "0x1", "0x1");
    /* every filter flag alone: bits 2..8 */
    static const char *const flags[] = { "jcc",          "near_rel_call", "near_ind_call", "near_ret",
                                         "near_ind_jmp", "near_rel_jmp",  "far_branch" };
    for (guint i = 0; i < G_N_ELEMENTS(flags); i++) {
        g_autofree char *args = g_strdup_printf("encode --pmu nhm --lbr --lbr-filter %s", flags[i]);
        g_autofree char *want = g_strdup_printf("0x%x", 1u << (2 + i));
        expect_regs(args, want, "0x1");
    }
    /* call-stack mode, the SDM's configuration (17.9 p.17-30): JCC, NEAR_IND_JMP,
     * NEAR_REL_JMP, FAR_BRANCH, EN_CALLSTACK = 0x3c4, user only +1 */
    expect_regs("encode --pmu glm --lbr --lbr-plm 3 --lbr-filter jcc,near_ind_jmp,near_rel_jmp,far_branch "
                "--lbr-callstack",
                "0x3c5", "0x1");
    /* with an event: both printed, exit 0 */
    PmsCuRun r = run("encode --pmu nhm --lbr INST_RETIRED:ANY_P");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(r.out && strstr(r.out, "IA32_PERFEVTSEL0"));
    CU_ASSERT_TRUE(r.out && strstr(r.out, "MSR_LBR_SELECT"));
    pms_cu_run_clear(&r);
}

static void expect_fail(const char *args, int status, const char *in_err)
{
    PmsCuRun r = run(args);
    gboolean ok = r.status == status && r.err && strstr(r.err, in_err);
    if (!ok)
        fprintf(stderr, "# %s: exit %d (expected %d), stderr '%s' (expected to contain '%s')\n", args, r.status, status,
                r.err ? r.err : "", in_err);
    CU_ASSERT_TRUE(ok);
    pms_cu_run_clear(&r);
}

static void test_encode_errors(void)
{
    /* libpfm_nehalem(3): PFM_PLM1 or PFM_PLM2 is rejected */
    expect_fail("encode --pmu nhm --lbr --lbr-plm 1", 1, "PFM_ERR_ATTR_VAL");
    expect_fail("encode --pmu glm --lbr --lbr-plm 2,3", 1, "PLM1 and PLM2 are refused");
    /* ... also when it comes from the default mask */
    expect_fail("encode --pmu nhm --lbr --plm 1,3", 1, "(the default)");
    expect_fail("encode --pmu nhm --lbr --lbr-filter jcc,bogus", 2, "LBR filter 'bogus': expected one of jcc");
    /* issue 20 item 19: an empty list is refused like an empty item */
    expect_fail("encode --pmu nhm --lbr --lbr-filter=", 2, "--lbr-filter: LBR filter: empty list: expected one of jcc");
    expect_fail("explain --pmu nhm --lbr --lbr-filter=", 2, "LBR filter: empty list");
    expect_fail("encode --pmu nhm --lbr --lbr-filter jcc,,far_branch", 2, "LBR filter '': expected one of jcc");
    expect_fail("encode --pmu nhm --lbr --lbr-plm 4", 2, "--lbr-plm: LBR privilege level '4'");
    expect_fail("encode --lbr", 2, "expected --pmu");
    expect_fail("encode --pmu nhm --lbr-plm 3 INST_RETIRED:ANY_P", 2, "go with --lbr");
    expect_fail("encode --pmu nhm --lbr --format json", 2, "human format");
    expect_fail("encode --pmu nhm_unc --lbr", 1, "has no LBR");
    expect_fail("encode --pmu nhm --lbr --lbr-callstack", 1, "call-stack mode: model nhm has none");
    expect_fail("explain --pmu glm --lbr-callstack", 2, "go with --lbr");
    expect_fail("explain --lbr", 2, "expected --pmu");
}

static void test_explain(void)
{
    PmsCuRun r = run("explain --pmu nhm --lbr --lbr-plm 3 --lbr-filter near_rel_jmp --lbr-freeze");
    CU_ASSERT_EQUAL(r.status, 0);
    const char *want[] = { "MSR_LBR_SELECT (0x1c8) = 0x81",
                           "cpl_eq_0=1 near_rel_jmp=1",
                           "rings 1-3 only",
                           "ring of 16 FROM/TO entries",
                           "Filtered out: near relative calls and near relative jumps.",
                           "near relative calls are dropped by near_rel_jmp although their own bit is clear",
                           "the processor clears IA32_DEBUGCTL.LBR" };
    for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
        if (!r.out || !strstr(r.out, want[i]))
            fprintf(stderr, "# explain: missing '%s' in:\n%s\n", want[i], r.out ? r.out : "");
        CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, want[i]) : NULL);
    }
    pms_cu_run_clear(&r);
    /* glm: 32 entries, the SNB rule (no A13 sentence), the v4 freeze */
    r = run("explain --pmu glm --lbr --lbr-filter near_rel_jmp --lbr-freeze");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, "ring of 32") : NULL);
    CU_ASSERT_PTR_NULL(r.out ? strstr(r.out, "Nehalem/Westmere rule") : "x");
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, "LBR_Frz") : NULL);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, "Recorded: conditional branches, near relative calls") : NULL);
    pms_cu_run_clear(&r);
    /* call-stack mode in words */
    r = run(
        "explain --pmu glm --lbr --lbr-plm 3 --lbr-filter jcc,near_ind_jmp,near_rel_jmp,far_branch --lbr-callstack");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, "en_callstack=1") : NULL);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out,
                                          "a near return at rings 1-3 is not recorded but flushes the newest "
                                          "entry")
                                 : NULL);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, "This is the SDM's call-stack configuration") : NULL);
    pms_cu_run_clear(&r);
    /* an event and the LBR together */
    r = run("explain --lbr nhm::INST_RETIRED:ANY_P");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, "What the LBR captures") : NULL);
    pms_cu_run_clear(&r);
}

static char *write_stim(const char *text)
{
    g_autofree char *dir = g_dir_make_tmp("lbr-cli-XXXXXX", NULL);
    char *path = g_build_filename(dir, "t.stim", NULL);
    g_file_set_contents(path, text, -1, NULL);
    return path;
}

static void remove_stim(char *path)
{
    g_autofree char *dir = g_path_get_dirname(path);
    g_remove(path);
    g_rmdir(dir);
    g_free(path);
}

static void test_sim_ring(void)
{
    /* jcc mispredicted at CPL 3, a far branch at CPL 0 (kernel address: its
     * bit 47 fills 62:48), a near return filtered (NEAR_RET, bit 5) */
    char *path =
        write_stim("pmu nhm\n"
                   "write MSR_LBR_SELECT 0x20\n"
                   "write IA32_DEBUGCTL 1\n"
                   "run 1 cpl=3 branch=0x401000:0x401020:jcc:mp branch=0xffffffff81000000:0x401000:far_branch:cpl0\n"
                   "run 2 branch=0x1:0x2:near_ret\n"
                   "read MSR_LASTBRANCH_TOS 2\n"
                   "read MSR_LASTBRANCH_1_FROM_IP 0x8000000000401000\n"
                   "read MSR_LASTBRANCH_2_FROM_IP 0x7fffffff81000000\n"
                   "read MSR_LASTBRANCH_2_TO_IP 0x401000\n");
    g_autofree char *args = g_strdup_printf("sim -s %s", path);
    PmsCuRun r = run(args);
    CU_ASSERT_EQUAL(r.status, 0);
    const char *want[] = { "IA32_FIXED_CTR2 count=0 overflow=0\nlbr tos=2 entries=16",
                           "lbr[2] age=0 from=0xffffffff81000000 to=0x401000 mispred=0",
                           "lbr[1] age=1 from=0x401000 to=0x401020 mispred=1" };
    for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
        if (!r.out || !strstr(r.out, want[i]))
            fprintf(stderr, "# sim: missing '%s' in:\n%s\n", want[i], r.out ? r.out : "");
        CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, want[i]) : NULL);
    }
    pms_cu_run_clear(&r);
    /* with an event: the table's lbr lines, the --explain sentence, the ring last */
    g_free(args);
    args = g_strdup_printf("sim -e nhm::INST_RETIRED:ANY_P -s %s --explain", path);
    r = run(args);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, "      lbr: the LBR recorded 2 of the 2 branches") : NULL);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out,
                                          "lbr: the LBR recorded 0 of the 1 branch (MSR_LBR_SELECT "
                                          "filtered 1), MSR_LASTBRANCH_TOS now 2")
                                 : NULL);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, "cycle 0: the LBR recorded 2 of the 2 branches") : NULL);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, "count=0 overflow=0\nlbr tos=2") : NULL);
    pms_cu_run_clear(&r);
    /* json: an lbr member in the records of cycles with branches */
    g_free(args);
    args = g_strdup_printf("sim -e nhm::INST_RETIRED:ANY_P -s %s -f json", path);
    r = run(args);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out,
                                          "\"pmi\": 0, \"lbr\": {\"offered\": 2, \"recorded\": 2, "
                                          "\"recording\": true, \"tos\": 2}}")
                                 : NULL);
    CU_ASSERT_PTR_NULL(r.out ? strstr(r.out, "lbr tos=") : "x"); /* the document stays JSON */
    pms_cu_run_clear(&r);
    remove_stim(path);
    /* glm: the cycle count of TO_IP 63:48 (3 clocks since RESET) */
    path = write_stim("pmu glm\nwrite IA32_DEBUGCTL 1\n@3 run 1 branch=0xffffffff81000000:0x401000:far_branch\n");
    g_free(args);
    args = g_strdup_printf("sim -s %s", path);
    r = run(args);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out,
                                          "lbr[1] age=0 from=0xffffffff81000000 to=0x401000 mispred=0 cycles=3 "
                                          "MSR_LASTBRANCH_1_FROM_IP=0x7fffffff81000000 "
                                          "MSR_LASTBRANCH_1_TO_IP=0x0003000000401000")
                                 : NULL);
    pms_cu_run_clear(&r);
    remove_stim(path);
    /* glm call-stack mode: a call, then its return pops it (--explain counts the pop) */
    path = write_stim("pmu glm\nwrite MSR_LBR_SELECT 0x3c4\nwrite IA32_DEBUGCTL 1\n"
                      "run 1 branch=0x401000:0x402000:near_rel_call branch=0x402000:0x402100:near_rel_call\n"
                      "run 1 branch=0x402f00:0x402005:near_ret\n"
                      "read MSR_LASTBRANCH_TOS 1\nread MSR_LASTBRANCH_2_FROM_IP 0\n"
                      "read MSR_LASTBRANCH_1_FROM_IP 0x401000\n");
    g_free(args);
    args = g_strdup_printf("sim -e glm::INST_RETIRED:ANY_P -s %s --explain", path);
    r = run(args);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out,
                                          "the LBR recorded 0 of the 1 branch (MSR_LBR_SELECT filtered 0), "
                                          "MSR_LASTBRANCH_TOS now 1; call-stack mode: 1 near return popped "
                                          "an entry each")
                                 : NULL);
    if (r.status)
        fprintf(stderr, "# sim callstack: %s\n%s\n", r.out ? r.out : "", r.err ? r.err : "");
    pms_cu_run_clear(&r);
    g_free(args);
    args = g_strdup_printf("sim -e glm::INST_RETIRED:ANY_P -s %s -f json", path);
    r = run(args);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out,
                                          "\"lbr\": {\"offered\": 1, \"recorded\": 0, \"recording\": true, "
                                          "\"tos\": 1, \"popped\": 1}}")
                                 : NULL);
    pms_cu_run_clear(&r);
    remove_stim(path);
    /* no branches: the output has no lbr line (outputs of older stimuli unchanged) */
    r = run("sim --pmu nhm -e INST_RETIRED:ANY_P --occurrences 1,2");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NULL(r.out ? strstr(r.out, "lbr") : "x");
    pms_cu_run_clear(&r);
}

static void test_stim_errors(void)
{
    static const struct {
        const char *rec, *msg;
    } bad[] = {
        { "run 1 branch=1:2", "t.stim:1: branch: expected FROM:TO:TYPE[:mp][:abort][:cplN], got '1:2'" },
        { "run 1 branch=1:2:call", "t.stim:1: branch: type 'call': expected one of jcc, near_rel_call" },
        { "run 1 branch=x:2:jcc", "t.stim:1: branch: branch address 'x': expected a 64-bit number" },
        { "run 1 branch=1:0x:jcc", "t.stim:1: branch: target address '0x'" },
        { "run 1 branch=1:2:jcc:cpl4", "t.stim:1: branch: flag 'cpl4': expected mp, abort or one of cpl0" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autofree char *text = g_strdup_printf("%s\n", bad[i].rec);
        char *path = write_stim(text);
        g_autofree char *args = g_strdup_printf("sim --pmu wsm -s %s", path);
        PmsCuRun r = run(args);
        gboolean ok = r.status == 1 && r.err && strstr(r.err, bad[i].msg);
        if (!ok)
            fprintf(stderr, "# %s: exit %d, stderr '%s', expected '%s'\n", bad[i].rec, r.status, r.err ? r.err : "",
                    bad[i].msg);
        CU_ASSERT_TRUE(ok);
        pms_cu_run_clear(&r);
        remove_stim(path);
    }
}

/* conform --mutants on one hand-made LBR vector (wsm, A13 rule): LBR_SELECT =
 * NEAR_REL_JMP (bit 7) from `lbr filter=near_rel_jmp`; the stimulus has one
 * jcc at CPL 3 only.  Flips: bit 1 (CPL_NEQ_0) and bit 2 (JCC) drop it:
 * caught 2; bit 3 (NEAR_REL_CALL) changes nothing any branch could show, as
 * NEAR_REL_JMP already drops near relative calls: unobservable 1; bits 0, 4,
 * 5, 6, 7, 8 would need a branch the stimulus lacks: missed 6.  9 mutants,
 * 2/8 = 25.00% of the observable ones: below the goal, exit 1. */
static void test_lbr_mutants(void)
{
    g_autofree char *dir = g_dir_make_tmp("lbr-mut-XXXXXX", NULL);
    g_autofree char *sub = g_build_filename(dir, "wsm", NULL);
    g_mkdir(sub, 0700);
    g_autofree char *f = g_build_filename(sub, "l.sim", NULL);
    g_file_set_contents(f,
                        "vector l\nevent 0 \"wsm::INST_RETIRED:ANY_P\"\nlbr filter=near_rel_jmp\n"
                        "src by hand in test_lbr_cli.c\nrun 1 cpl=3 branch=0x1000:0x2000:jcc\n"
                        "read MSR_LASTBRANCH_TOS 1\nend\n",
                        -1, NULL);
    g_autofree char *args = g_strdup_printf("conform --vectors %s --mutants", dir);
    PmsCuRun r = run(args);
    CU_ASSERT_EQUAL(r.status, 1);
    const char *line = "LBR_SELECT mutants: 9, caught 2 (22.22%; 25.00% of the observable); unobservable 1";
    if (!r.out || !strstr(r.out, line))
        fprintf(stderr, "# conform --mutants: missing '%s' in:\n%s\n%s\n", line, r.out ? r.out : "",
                r.err ? r.err : "");
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, line) : NULL);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, "missed 6\n") : NULL);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, "vector 'l' (wsm): MSR_LBR_SELECT bit 0 (cpl_eq_0)") : NULL);
    CU_ASSERT_PTR_NOT_NULL(r.err ? strstr(r.err, "25.00% of the observable LBR_SELECT mutants") : NULL);
    pms_cu_run_clear(&r);
    /* the vector itself passes */
    g_free(args);
    args = g_strdup_printf("conform --vectors %s", dir);
    r = run(args);
    CU_ASSERT_EQUAL(r.status, 0);
    pms_cu_run_clear(&r);
    g_remove(f);
    g_rmdir(sub);
    g_rmdir(dir);
}

/* The help's example stimulus (sim/tests/data/nhm-lbr.stim: its reads and
 * expect-pmi hold), with and without -e. */
static void test_example(void)
{
    g_autofree char *stim = g_build_filename(srcdir, "sim", "tests", "data", "nhm-lbr.stim", NULL);
    g_autofree char *a1 = g_strdup_printf("sim -s %s", stim);
    g_autofree char *a2 = g_strdup_printf("sim -e nhm::INST_RETIRED:ANY_P -s %s --explain", stim);
    PmsCuRun r = run(a1);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, "lbr tos=2 entries=16") : NULL);
    pms_cu_run_clear(&r);
    r = run(a2);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out,
                                          "the LBR is not recording (IA32_DEBUGCTL.LBR clear or frozen): "
                                          "1 branch lost")
                                 : NULL);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, "lbr[1] age=1 from=0x401000 to=0x401080 mispred=1") : NULL);
    pms_cu_run_clear(&r);
    /* several -e: the ring after every counter's line */
    g_autofree char *a3 = g_strdup_printf("sim --pmu nhm -e INST_RETIRED:ANY_P -e UOPS_ISSUED:ANY -s %s", stim);
    r = run(a3);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, "IA32_PMC0 count=0 overflow=1\nlbr tos=2 entries=16") : NULL);
    pms_cu_run_clear(&r);
    r = run("sim --help");
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, "nhm-lbr.stim") : NULL);
    pms_cu_run_clear(&r);
}

static void test_help(void)
{
    PmsCuRun r = run("encode --help");
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, "pmusim encode --pmu nhm --lbr") : NULL);
    pms_cu_run_clear(&r);
    r = run("explain --help");
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, "pmusim explain --pmu nhm --lbr") : NULL);
    pms_cu_run_clear(&r);
}

int main(int argc, char **argv)
{
    int st = pms_cu_start(argc, argv, 2, "PMUSIM SRCDIR");
    if (st)
        return st;
    pmusim_path = argv[1];
    srcdir = argv[2];
    CU_pSuite s = CU_add_suite("lbr-cli", NULL, NULL);
    CU_add_test(s, "encode --lbr: LBR_SELECT and DEBUGCTL by the SDM", test_encode);
    CU_add_test(s, "encode --lbr: PLM1/PLM2, bad lists, no LBR", test_encode_errors);
    CU_add_test(s, "explain --lbr in words", test_explain);
    CU_add_test(s, "sim: the ring after the counts, table lines", test_sim_ring);
    CU_add_test(s, "stimulus branch= errors name file:line", test_stim_errors);
    CU_add_test(s, "help examples", test_help);
    CU_add_test(s, "the help's example stimulus", test_example);
    CU_add_test(s, "conform --mutants: the LBR_SELECT mutants of a vector", test_lbr_mutants);
    return pms_cu_tap_run();
}
