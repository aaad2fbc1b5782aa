/* simcli tests: `pmusim sim`, `pmusim explain`, `pmusim bench sim` run as
 * subprocesses, and pms_sim_program (harness/util/sim_setup.c) called directly.
 *
 * Run by meson as: test_simcli PMUSIM.  Every expected count is derived by
 * hand from docs/semantics.md §3 beside its assertion, never from a run. */
#include "cu_tap.h"
#include "sim_setup.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

static const char *pmusim_path;
static char *tmpdir;

typedef struct {
    int status; /* exit status, -1 when killed by a signal */
    char *out, *err;
} Run;

static void run_clear(Run *r)
{
    g_free(r->out);
    g_free(r->err);
}

/* Run pmusim with args (NULL-terminated). */
static Run run_cli(const char *first, ...)
{
    GPtrArray *argv = g_ptr_array_new();
    g_ptr_array_add(argv, (gpointer)pmusim_path);
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a != NULL; a = va_arg(ap, const char *))
        g_ptr_array_add(argv, (gpointer)a);
    va_end(ap);
    g_ptr_array_add(argv, NULL);
    Run r = { -1, NULL, NULL };
    g_autoptr(GError) err = NULL;
    g_autoptr(GSubprocess) p = g_subprocess_newv((const char *const *)argv->pdata,
                                                 G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &err);
    g_ptr_array_free(argv, TRUE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_FATAL(g_subprocess_communicate_utf8(p, NULL, NULL, &r.out, &r.err, &err));
    if (g_subprocess_get_if_exited(p))
        r.status = g_subprocess_get_exit_status(p);
    return r;
}

/* The last line of the output (without '\n'); the output must end with '\n'. */
static char *last_line(const char *out)
{
    gsize n = strlen(out);
    if (n == 0 || out[n - 1] != '\n')
        return g_strdup("<no final newline>");
    const char *end = out + n - 1, *start = end;
    while (start > out && start[-1] != '\n')
        start--;
    return g_strndup(start, (gsize)(end - start));
}

/* One experiment; asserts exit 0 and the exact last line. */
static void expect_count(const char *event, const char *occ, const char *cpl, const char *preload, const char *want)
{
    Run r = cpl && preload ? run_cli("sim", "-e", event, "--occurrences", occ, "--cpl", cpl, "--preload", preload, NULL)
        : cpl              ? run_cli("sim", "-e", event, "--occurrences", occ, "--cpl", cpl, NULL)
        : preload          ? run_cli("sim", "-e", event, "--occurrences", occ, "--preload", preload, NULL)
                           : run_cli("sim", "-e", event, "--occurrences", occ, NULL);
    g_autofree char *last = last_line(r.out);
    if (r.status != 0 || strcmp(last, want) != 0)
        fprintf(stderr, "# %s --occurrences %s: status %d, last line '%s', want '%s'; stderr: %s\n", event, occ,
                r.status, last, want, r.err);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_STRING_EQUAL(last, want);
    run_clear(&r);
}

/* semantics.md §3: cmask 0 adds n; cmask c: cond = n >= c (inv: n < c), inc
 * 1 per qualifying cycle; e: inc = cond & !latch, latch starts 0 after the
 * PERFEVTSEL write (A4). */
static void test_threshold_edge(void)
{
    /* n = 3,0,1,2; c=0: 3+0+1+2 = 6 */
    expect_count("glm::INST_RETIRED:ANY_P", "3,0,1,2", NULL, NULL, "count=6 overflow=0");
    /* c=2: n>=2 at cycles 0 (3) and 3 (2) -> 2 */
    expect_count("glm::INST_RETIRED:ANY_P:c=2", "3,0,1,2", NULL, NULL, "count=2 overflow=0");
    /* c=2 i: n<2 at cycles 1 (0) and 2 (1) -> 2 */
    expect_count("glm::INST_RETIRED:ANY_P:c=2:i", "3,0,1,2", NULL, NULL, "count=2 overflow=0");
    /* c=2 e: cond 1,0,0,1, latch from 0 -> rising at cycles 0 and 3 -> 2 */
    expect_count("glm::INST_RETIRED:ANY_P:c=2:e", "3,0,1,2", NULL, NULL, "count=2 overflow=0");
    /* c=2 i e: cond 0,1,1,0 -> one rising edge (cycle 1) -> 1 */
    expect_count("glm::INST_RETIRED:ANY_P:c=2:i:e", "3,0,1,2", NULL, NULL, "count=1 overflow=0");
    /* c=0 i: INV ignored without a threshold (A1) -> 6 as c=0 */
    expect_count("glm::INST_RETIRED:ANY_P:i", "3,0,1,2", NULL, NULL, "count=6 overflow=0");
    /* c=1 e on a run 1,1,0,1,1: cond 1,1,0,1,1 -> rising at 0 and 3 -> 2 */
    expect_count("nhm::INST_RETIRED:ANY_P:c=1:e", "1,1,0,1,1", NULL, NULL, "count=2 overflow=0");
    /* c=255 (the field's maximum): n>=255 at 255 and 300, not 254 -> 2 */
    expect_count("glm::INST_RETIRED:ANY_P:c=255", "255,254,300", NULL, NULL, "count=2 overflow=0");
    /* the --pmu form of the same experiment */
    Run r = run_cli("sim", "--pmu", "glm", "-e", "INST_RETIRED:ANY_P:c=2", "--occurrences", "3,0,1,2", NULL);
    g_autofree char *last = last_line(r.out);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_STRING_EQUAL(last, "count=2 overflow=0");
    run_clear(&r);
}

/* SDM 18-4: usr counts at CPL 1..3, os at CPL 0; the filter gates the
 * increment (A3 post). */
static void test_privilege(void)
{
    /* n = 1,2,4 at CPL 3,0,3: usr -> 1+4 = 5; os -> 2; both -> 7 */
    expect_count("wsm::INST_RETIRED:ANY_P:u", "1,2,4", "3,0,3", NULL, "count=5 overflow=0");
    expect_count("wsm::INST_RETIRED:ANY_P:k", "1,2,4", "3,0,3", NULL, "count=2 overflow=0");
    expect_count("wsm::INST_RETIRED:ANY_P", "1,2,4", "3,0,3", NULL, "count=7 overflow=0");
    /* CPL 1 and 2 are user rings too: u -> 1+2 = 3 */
    expect_count("nhm::INST_RETIRED:ANY_P:u", "1,2", "1,2", NULL, "count=3 overflow=0");
}

/* §4: the carry out of bit 47 wraps the counter and sets its status bit. */
static void test_overflow(void)
{
    /* 2^48 - 1 + 1 = 2^48 -> 0, overflow */
    expect_count("glm::INST_RETIRED:ANY_P", "1", NULL, "0xFFFFFFFFFFFF", "count=0 overflow=1");
    /* 2^48 - 2 + 3 -> 1, overflow */
    expect_count("nhm::INST_RETIRED:ANY_P", "3", NULL, "281474976710654", "count=1 overflow=1");
    /* 2^48 - 3 + 2 = 2^48 - 1: no carry yet */
    expect_count("wsm::INST_RETIRED:ANY_P", "2", NULL, "0xFFFFFFFFFFFD", "count=281474976710655 overflow=0");
    /* the PMI cycle shows in the table (int=1 from the encoder): cycle 1 */
    Run r =
        run_cli("sim", "-e", "glm::INST_RETIRED:ANY_P", "--occurrences", "0,1,0", "--preload", "0xFFFFFFFFFFFF", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "PMI at 1\n"));
    run_clear(&r);
}

/* Events whose own signal is not a plain code.umask. */
static void test_own_signals(void)
{
    /* offcore: each cycle's transactions match RSP_0's request and response
     * bits -> 2+0+5 = 7 (semantics.md §5) */
    expect_count("nhm::OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM", "2,0,5", NULL, NULL, "count=7 overflow=0");
    expect_count("glm::OFFCORE_RESPONSE_0:DMND_DATA_RD:L2_HIT", "2,0,5", NULL, NULL, "count=7 overflow=0");
    /* load latency: loads above the threshold count -> 7 */
    expect_count("wsm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=10", "2,0,5", NULL, NULL, "count=7 overflow=0");
    /* fixed-only event on FIXED_CTR2, usr only: CPL 3,0,3 -> 2 (SDM 18-7 EN bit 1) */
    expect_count("glm::UNHALTED_REFERENCE_CYCLES:u", "1,1,1", "3,0,3", NULL, "count=2 overflow=0");
    Run r = run_cli("sim", "-e", "glm::UNHALTED_REFERENCE_CYCLES", "--occurrences", "1", NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "IA32_FIXED_CTR2"));
    run_clear(&r);
}

static void expect_fail(int status, const char *needle, Run r)
{
    if (r.status != status || !strstr(r.err, needle) || strchr(r.err, '\n') != r.err + strlen(r.err) - 1 ||
        r.out[0] != '\0')
        fprintf(stderr, "# status %d (want %d), stderr '%s' (want one line with '%s'), stdout '%.80s'\n", r.status,
                status, r.err, needle, r.out);
    CU_ASSERT_EQUAL(r.status, status);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, needle));
    /* one line on stderr, nothing on stdout */
    CU_ASSERT_PTR_EQUAL(strchr(r.err, '\n'), r.err + strlen(r.err) - 1);
    CU_ASSERT_STRING_EQUAL(r.out, "");
    run_clear(&r);
}

static void test_bad_options(void)
{
    const char *e = "glm::INST_RETIRED:ANY_P";
    expect_fail(2, "--cpl: 2 values for 3", run_cli("sim", "-e", e, "--occurrences", "1,2,3", "--cpl", "3,0", NULL));
    expect_fail(2, "--cpl: item 2 '4'", run_cli("sim", "-e", e, "--occurrences", "1,2", "--cpl", "3,4", NULL));
    expect_fail(2, "--occurrences: item 2 'x'", run_cli("sim", "-e", e, "--occurrences", "1,x", NULL));
    expect_fail(2, "--occurrences: item 1 '4294967296'", run_cli("sim", "-e", e, "--occurrences", "4294967296", NULL));
    expect_fail(2, "--occurrences: item 2 ''", run_cli("sim", "-e", e, "--occurrences", "1,", NULL));
    expect_fail(2, "--preload 0x1000000000000: expected a value below 2^48",
                run_cli("sim", "-e", e, "--occurrences", "1", "--preload", "0x1000000000000", NULL));
    expect_fail(2, "--preload '12ab'", run_cli("sim", "-e", e, "--occurrences", "1", "--preload", "12ab", NULL));
    expect_fail(2, "--format 'xml'", run_cli("sim", "-e", e, "--occurrences", "1", "-f", "xml", NULL));
    expect_fail(2, "--engine 'slow'", run_cli("sim", "-e", e, "--occurrences", "1", "--engine", "slow", NULL));
    expect_fail(2, "--format vcd: needs the per-cycle trace",
                run_cli("sim", "-e", e, "--occurrences", "1", "--engine", "fast", "-f", "vcd", NULL));
    expect_fail(2, "exactly one of --stim FILE and --occurrences", run_cli("sim", "-e", e, NULL));
    expect_fail(2, "names no PMU", run_cli("sim", "-e", "INST_RETIRED:ANY_P", "--occurrences", "1", NULL));
    expect_fail(2, "names another PMU", run_cli("sim", "--pmu", "nhm", "-e", e, "--occurrences", "1", NULL));
    expect_fail(2, "expected -e EVENT", run_cli("sim", "--occurrences", "1", NULL));
    expect_fail(2, "more than --max-cycles 3",
                run_cli("sim", "-e", e, "--occurrences", "1,1,1,1", "--max-cycles", "3", "-f", "csv", NULL));
    expect_fail(
        2, "more than --max-cycles 3",
        run_cli("sim", "-e", e, "--occurrences", "1,1,1,1", "--max-cycles", "3", "--engine", "reference", NULL));
    expect_fail(2, "--max-steps: expected a positive number of steps",
                run_cli("sim", "-e", e, "--occurrences", "1", "--max-steps", "0", NULL));
    expect_fail(1, "NO_SUCH_EVENT", run_cli("sim", "-e", "glm::NO_SUCH_EVENT", "--occurrences", "1", NULL));
    expect_fail(1, "column", run_cli("sim", "-e", "glm::INST_RETIRED:ANY_P:c=256", "--occurrences", "1", NULL));
    expect_fail(2, "expected one EVENT", run_cli("explain", NULL));
    expect_fail(1, "NO_SUCH_EVENT", run_cli("explain", "glm::NO_SUCH_EVENT", NULL));
}

static char *write_tmp(const char *name, const char *text)
{
    char *path = g_build_filename(tmpdir, name, NULL);
    CU_ASSERT_FATAL(g_file_set_contents(path, text, -1, NULL));
    return path;
}

/* Issue 21: two interrupting counters over 2^63 - 1 cycles (the issue's
 * command) finish, their PMIs counted: both count 2^32 - 1 a cycle from
 * 2^48 - 100, so each wraps floor((2^48 - 100 + (2^63 - 1)(2^32 - 1)) / 2^48)
 * = 2^47 - 2^15 = 140737488322560 times, in the same cycles.  Distinct rates
 * that are not powers of two whose union repeats only after more carries
 * than the bound (2^32 - 1 and 2^32 - 3: 2^33 a period) are walked: over
 * --max-steps, exit 1 with one line naming the option. */
static void test_closed_form(void)
{
    g_autofree char *two = write_tmp("two.stim",
                                     "pmu wsm\n"
                                     "write IA32_FIXED_CTR_CTRL 0xb\n"
                                     "write IA32_PERFEVTSEL0 0x53010e\n"
                                     "write IA32_FIXED_CTR0 0xffffffffff9c\n"
                                     "write IA32_PMC0 0xffffffffff9c\n"
                                     "run 9223372036854775807 INST_RETIRED.ANY_P=4294967295 "
                                     "UOPS_ISSUED.ANY=4294967295\n");
    Run r = run_cli("sim", "-e", "wsm::INST_RETIRED:ANY_P", "-e", "wsm::UOPS_ISSUED:ANY", "--engine", "fast", "--stim",
                    two, "--max-steps", "100", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "PMI at 0 [IA32_PMC0+IA32_FIXED_CTR0], 65536 [IA32_PMC0+IA32_FIXED_CTR0], "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "(140737488322560 PMIs in all)"));
    run_clear(&r);
    /* rates 3 and 5 (not powers of two) over 2^62 cycles from 0: the
     * union of their wraps repeats every 2^48 cycles (7 PMIs, both at
     * its end), counted over one period within a bound of 100 steps.
     * The table lists the first 16 and the last 16, each with the
     * counters that raised it, and the 114656 between as a count (the
     * cycles checked by brute force: cycle c wraps a counter at r a cycle
     * when floor(r (c + 1) / 2^48) grows) */
    g_autofree char *mixed = write_tmp("mixed.stim", "run 2^62 INST_RETIRED.ANY_P=3 UOPS_ISSUED.ANY=5\n");
    r = run_cli("sim", "-e", "wsm::INST_RETIRED:ANY_P", "-e", "wsm::UOPS_ISSUED:ANY", "--engine", "fast", "--stim",
                mixed, "--max-steps", "100", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
                                  "PMI at 56294995342131 [IA32_PMC0], 93824992236885 [IA32_FIXED_CTR0], "
                                  "112589990684262 [IA32_PMC0], "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "281474976710655 [IA32_PMC0+IA32_FIXED_CTR0], "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
                                  "656774945658197 [IA32_FIXED_CTR0], ... 114656 more ..., "
                                  "4611066773478624460 [IA32_PMC0], "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
                                  ", 4611629723432045772 [IA32_PMC0], 4611686018427387903 "
                                  "[IA32_PMC0+IA32_FIXED_CTR0] (114688 PMIs in all)\n"));
    run_clear(&r);
    /* one of them through json: each listed PMI's cause, the last 64 with
     * theirs (cycles beyond 2^53 are strings); 5 wraps a period: 5 * 2^14 */
    r = run_cli("sim", "-e", "wsm::UOPS_ISSUED:ANY", "--engine", "fast", "--stim", mixed, "-f", "json", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(r.out, "\"pmi_total\": 81920,\n  \"pmi_causes\": [[\"IA32_PMC0\"], [\"IA32_PMC0\"], "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"pmi_last\": [\"4608139433720833638\", \"4608195728716175769\", "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"4611686018427387903\"],\n  \"pmi_last_causes\": [[\"IA32_PMC0\"], "));
    run_clear(&r);
    /* the svg diagram: the same list under its legend (up to 16 PMIs it
     * shows only their count, as before) */
    r = run_cli("sim", "-e", "wsm::UOPS_ISSUED:ANY", "--engine", "fast", "--stim", mixed, "-f", "svg", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "<g class=\"said\">\n<text class=\"desc\" x=\"4.0\" y=\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, ">PMI at 56294995342131 [IA32_PMC0], 112589990684262 [IA32_PMC0], "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "(81920 PMIs in all)</text>"));
    run_clear(&r);
    /* the stimulus alone (no -e): the same list */
    g_autofree char *alone = write_tmp("alone.stim",
                                       "pmu wsm\n"
                                       "write IA32_PERFEVTSEL0 0x5300c0\n"
                                       "write IA32_PERFEVTSEL1 0x53010e\n"
                                       "write IA32_PERF_GLOBAL_CTRL 0x3\n"
                                       "run 2^62 0xc0.0x00=3 UOPS_ISSUED.ANY=5\n");
    r = run_cli("sim", "--stim", alone, "--max-steps", "100", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "PMI at 56294995342131 [IA32_PMC1], 93824992236885 [IA32_PMC0], "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "... 114656 more ..., "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "4611686018427387903 [IA32_PMC0+IA32_PMC1] (114688 PMIs in all)\n"));
    run_clear(&r);
    g_autofree char *walked = write_tmp("walked.stim",
                                        "pmu wsm\n"
                                        "write IA32_PERFEVTSEL0 0x5300c0\n"
                                        "write IA32_PERFEVTSEL1 0x53010e\n"
                                        "write IA32_PMC0 0xffffff\n"
                                        "write IA32_PMC1 0xffffff\n"
                                        "write IA32_PERF_GLOBAL_CTRL 0x3\n"
                                        "run 2^40 0xc0.0x00=4294967295 UOPS_ISSUED.ANY=4294967293\n");
    expect_fail(1, "over --max-steps 1000: raise --max-steps",
                run_cli("sim", "--stim", walked, "--max-steps", "1000", NULL));
    expect_fail(1, "over --max-steps 1000: raise --max-steps",
                run_cli("sim", "-e", "wsm::INST_RETIRED:ANY_P", "--stim", walked, "--engine", "fast", "--max-steps",
                        "1000", NULL));
    /* PEBS armed over 2^28 cycles, drawn as spans (14.6 s cycle by cycle
     * before the closed form): preload -3, reset -4, 1 a cycle, INT from the
     * encoding's programming: an assist (and its PMI) in cycles 3 + 5j,
     * j <= (2^28 - 4) / 5, so 53687091 of them; the 5-record buffer fills */
    g_autofree char *pebs = write_tmp("pebs.stim",
                                      "pmu nhm\n"
                                      "ds base=0x1000 max=0x1400 threshold=0x1160 reset0=-4\n"
                                      "write IA32_PMC0 -3\n"
                                      "run 2^28 INST_RETIRED.ANY_P=1 ip=0x400a10\n");
    r = run_cli("sim", "--pebs", "-e", "nhm::INST_RETIRED:ANY_P", "--stim", pebs, "--engine", "fast", "--max-steps",
                "1000", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "(53687091 PMIs in all)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "# PEBS: 5 records; DS index 0x1370"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "count=281474976710654 overflow=0"));
    run_clear(&r);
    /* with the default bound it finishes: the answer of the engine before
     * the closed form, which stepped from PMI to PMI (13 s) */
    r = run_cli("sim", "--stim", walked, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "(33532670 PMIs in all)"));
    run_clear(&r);
}

/* A stimulus file: cycles 0-1 n=3, 2 n=0, idle 3-4 (n=0), 5-6 n=2 at CPL 0.
 * c=2 (usr+os): n>=2 at 0,1,5,6 -> 4. */
static const char stim_text[] = "pmu glm\n"
                                "run 2 INST_RETIRED.ANY_P=3\n"
                                "run 1 INST_RETIRED.ANY_P=0\n"
                                "@5 run 2 INST_RETIRED.ANY_P=2 cpl=0\n"
                                "read IA32_PMC0 4\n";

static void test_stim_and_output(void)
{
    g_autofree char *stim = write_tmp("ok.stim", stim_text);
    Run r = run_cli("sim", "-e", "glm::INST_RETIRED:ANY_P:c=2", "--stim", stim, NULL);
    g_autofree char *last = last_line(r.out);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_STRING_EQUAL(last, "count=4 overflow=0");
    run_clear(&r);

    /* csv to a file: header + 7 rows of 18 columns (glm has one thread);
     * stdout keeps the answer */
    g_autofree char *csv = g_build_filename(tmpdir, "t.csv", NULL);
    r = run_cli("sim", "-e", "glm::INST_RETIRED:ANY_P:c=2", "--stim", stim, "-f", "csv", "-o", csv, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_STRING_EQUAL(r.out, "count=4 overflow=0\n");
    run_clear(&r);
    g_autofree char *text = NULL;
    CU_ASSERT_FATAL(g_file_get_contents(csv, &text, NULL, NULL));
    g_auto(GStrv) rows = g_strsplit(text, "\n", -1);
    CU_ASSERT_EQUAL(g_strv_length(rows), 9); /* 8 lines + "" after the last '\n' */
    CU_ASSERT_STRING_EQUAL(rows[0],
                           "cycle,enabled,n,cond,edge,inc,counter,overflow,status,pmi,first,cycles,occ0,"
                           "cpl0,gate0,thr,latch,why");
    for (guint i = 1; i < 8; i++) {
        g_auto(GStrv) cols = g_strsplit(rows[i], ",", -1);
        CU_ASSERT_EQUAL(g_strv_length(cols), 18);
    }
    /* cycle 5: n=2 >= 2 -> thr and cond 1, inc 1, counter 3 (after 2 at
     * cycles 0,1); no e: edge and latch empty; CPL 0 passes the gate (the
     * string counts k and u) */
    CU_ASSERT_STRING_EQUAL(rows[6], "5,1,2,1,,1,3,0,0x0,0,5,1,2,0,1,1,,");

    /* a failing read: exit 1, file:line, the old output file untouched */
    g_autofree char *bad = write_tmp("bad.stim", "pmu glm\nrun 2 INST_RETIRED.ANY_P=3\nread IA32_PMC0 5\n");
    r = run_cli("sim", "-e", "glm::INST_RETIRED:ANY_P:c=2", "--stim", bad, "-f", "csv", "-o", csv, NULL);
    g_autofree char *where = g_strdup_printf("%s:3:", bad);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, where));
    CU_ASSERT_STRING_EQUAL(r.out, "");
    run_clear(&r);
    g_autofree char *again = NULL;
    CU_ASSERT_FATAL(g_file_get_contents(csv, &again, NULL, NULL));
    CU_ASSERT_STRING_EQUAL(again, text);
    /* malformed stimulus: no file created */
    g_autofree char *junk = write_tmp("junk.stim", "run 2 bogus\n");
    g_autofree char *none = g_build_filename(tmpdir, "none.vcd", NULL);
    r = run_cli("sim", "-e", "glm::INST_RETIRED:ANY_P", "--stim", junk, "-f", "vcd", "-o", none, NULL);
    g_autofree char *where2 = g_strdup_printf("%s:1:", junk);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, where2));
    CU_ASSERT_FALSE(g_file_test(none, G_FILE_TEST_EXISTS));
    run_clear(&r);
    /* a stimulus that does not exist */
    r = run_cli("sim", "-e", "glm::INST_RETIRED:ANY_P", "--stim", "/nonexistent/x.stim", NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "/nonexistent/x.stim"));
    run_clear(&r);
}

/* A small VCD reader: declarations, $enddefinitions, then time stamps that
 * strictly increase and value changes of declared ids, each no wider than
 * its $var.  Returns the final value of the variable named `want`. */
static gboolean vcd_check(const char *text, const char *want, guint64 *final_value)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    g_autoptr(GHashTable) width = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_autofree char *want_id = NULL;
    gboolean defs_done = FALSE, have_time = FALSE, timescale = FALSE, scope = FALSE, in_dump = FALSE;
    guint64 t = 0;
    *final_value = G_MAXUINT64;
    for (guint i = 0; lines[i]; i++) {
        const char *l = lines[i];
        if (!*l)
            continue;
        if (g_str_has_prefix(l, "$comment") || g_str_has_prefix(l, "$version")) {
            if (!g_str_has_suffix(l, "$end"))
                return FALSE;
            continue;
        }
        if (!defs_done) {
            g_auto(GStrv) tok = g_strsplit(l, " ", -1);
            if (strcmp(tok[0], "$timescale") == 0)
                timescale = TRUE;
            else if (strcmp(tok[0], "$scope") == 0)
                scope = TRUE;
            else if (strcmp(tok[0], "$var") == 0) {
                if (g_strv_length(tok) != 6 || strcmp(tok[5], "$end") != 0 || strcmp(tok[1], "wire") != 0)
                    return FALSE;
                guint64 w;
                if (!g_ascii_string_to_unsigned(tok[2], 10, 1, 64, &w, NULL))
                    return FALSE;
                g_hash_table_insert(width, g_strdup(tok[3]), GUINT_TO_POINTER((guint)w));
                if (strcmp(tok[4], want) == 0)
                    want_id = g_strdup(tok[3]);
            } else if (strcmp(l, "$enddefinitions $end") == 0)
                defs_done = TRUE;
            else if (strcmp(l, "$upscope $end") != 0)
                return FALSE;
            continue;
        }
        if (l[0] == '#') {
            guint64 nt;
            if (!g_ascii_string_to_unsigned(l + 1, 10, 0, G_MAXUINT64, &nt, NULL) || (have_time && nt <= t))
                return FALSE;
            t = nt;
            have_time = TRUE;
            continue;
        }
        if (strcmp(l, "$dumpvars") == 0 && !in_dump) {
            in_dump = TRUE;
            continue;
        }
        if (strcmp(l, "$end") == 0 && in_dump) {
            in_dump = FALSE;
            continue;
        }
        if (!have_time)
            return FALSE;
        guint64 v = 0;
        const char *id;
        guint bits;
        if (l[0] == 'b') {
            const char *sp = strchr(l, ' ');
            if (!sp)
                return FALSE;
            bits = (guint)(sp - l - 1);
            for (const char *p = l + 1; p < sp; p++) {
                if (*p != '0' && *p != '1')
                    return FALSE;
                v = v << 1 | (guint64)(*p - '0');
            }
            id = sp + 1;
        } else if (l[0] == '0' || l[0] == '1') {
            v = (guint64)(l[0] - '0');
            bits = 1;
            id = l + 1;
        } else {
            return FALSE;
        }
        gpointer w = g_hash_table_lookup(width, id);
        if (!w || bits == 0 || bits > GPOINTER_TO_UINT(w) || (bits == 1 && l[0] != 'b' && GPOINTER_TO_UINT(w) != 1))
            return FALSE;
        if (want_id && strcmp(id, want_id) == 0)
            *final_value = v;
    }
    return defs_done && timescale && scope && have_time && want_id != NULL && !in_dump;
}

static void test_vcd_json(void)
{
    /* c=2 e on 3,0,1,2 (as above): counter 1 after cycle 0, 2 after cycle 3 */
    Run r = run_cli("sim", "-e", "glm::INST_RETIRED:ANY_P:c=2:e", "--occurrences", "3,0,1,2", "-f", "vcd", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    guint64 v;
    CU_ASSERT_TRUE(vcd_check(r.out, "counter", &v));
    CU_ASSERT_EQUAL(v, 2);
    CU_ASSERT_TRUE(vcd_check(r.out, "cond", &v));
    CU_ASSERT_EQUAL(v, 1); /* n=2 >= 2 in the last cycle */
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "$var wire 48 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\n#4\n")); /* closes the last cycle */
    /* the checker rejects what it should: times going back */
    g_autofree char *broken = g_strconcat(r.out, "#2\n", NULL);
    CU_ASSERT_FALSE(vcd_check(broken, "counter", &v));
    run_clear(&r);

    r = run_cli("sim", "-e", "glm::INST_RETIRED:ANY_P", "--occurrences", "1", "--preload", "0xFFFFFFFFFFFF", "-f",
                "json", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"count\": 0,\n  \"overflow\": 1,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"pmis\": [0]"));
    CU_ASSERT_TRUE(g_str_has_suffix(r.out, "}\n"));
    run_clear(&r);

    /* the fast engine gives the reference's answer (c=2 e on 3,0,1,2 -> 2, as above) without rows */
    r = run_cli("sim", "-e", "glm::INST_RETIRED:ANY_P:c=2:e", "--occurrences", "3,0,1,2", "--engine", "fast", NULL);
    g_autofree char *fast_last = last_line(r.out);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_STRING_EQUAL(fast_last, "count=2 overflow=0");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "one row per span"));
    run_clear(&r);
    /* --max-cycles bounds per-cycle output only: a 2^47-cycle run in the
     * table, json and svg formats is drawn from the fast engine's spans
     * (cycle 0, then 1..2^47-1) without --engine; the count 2^47 */
    g_autofree char *long_stim = write_tmp("long.stim", "pmu wsm\nrun 2^47 INST_RETIRED.ANY_P=1\n");
    r = run_cli("sim", "-e", "wsm::INST_RETIRED:ANY_P", "--stim", long_stim, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\n                          0      1 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\n          1-140737488355327      1 "));
    CU_ASSERT_TRUE(g_str_has_suffix(r.out, "count=140737488355328 overflow=0\n"));
    run_clear(&r);
    r = run_cli("sim", "-e", "wsm::INST_RETIRED:ANY_P", "--stim", long_stim, "-f", "json", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "{\"cycle\": 140737488355327, \"first\": 1, \"cycles\": 140737488355327, "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"count\": 140737488355328,"));
    run_clear(&r);
    /* several -e in json: one object per counter */
    r = run_cli("sim", "--pmu", "wsm", "-e", "INST_RETIRED:ANY_P", "-e", "UOPS_ISSUED:ANY", "--occurrences", "1,2",
                "-f", "json", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(g_str_has_prefix(r.out, "{\"events\": [\n{\n  \"pmu\": \"wsm\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"counter\": \"IA32_FIXED_CTR0\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"counter\": \"IA32_PMC0\""));
    CU_ASSERT_TRUE(g_str_has_suffix(r.out, "}\n]}\n"));
    run_clear(&r);
    /* 2^47 cycles through a stimulus, fast engine */
    g_autofree char *big = write_tmp("big.stim", "pmu nhm\nrun 2^47 INST_RETIRED.ANY_P=1\n");
    r = run_cli("sim", "-e", "nhm::INST_RETIRED:ANY_P", "--stim", big, "--engine", "fast", "--preload",
                "0x800000000000", NULL);
    g_autofree char *last = last_line(r.out);
    /* 2^47 + 2^47 = 2^48 -> 0 with overflow */
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_STRING_EQUAL(last, "count=0 overflow=1");
    run_clear(&r);
}

static void test_explain(void)
{
    Run r = run_cli("explain", "--pmu", "glm", "INST_RETIRED:ANY_P:c=2:e", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    /* every evtsel field of the layout, by name, with the encoder's value */
    const char *fields[] = { "event", "umask", "usr", "os", "edge", "pc", "int", "any", "en", "inv", "cmask" };
    for (gsize i = 0; i < G_N_ELEMENTS(fields); i++) {
        g_autofree char *needle = g_strdup_printf("\n  %-12s bits", fields[i]);
        CU_ASSERT_PTR_NOT_NULL(strstr(r.out, needle));
    }
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "cmask        bits 31:24 = 0x2\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
                                  "In short: counts cycles in which at least 2 occurrences of "
                                  "INST_RETIRED.ANY_P happen, at CPL 0 and CPL>0; edge: counts only the "
                                  "first cycle of each such run.\n"));
    run_clear(&r);
    r = run_cli("explain", "glm::INST_RETIRED:ANY_P:i:u", NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "inv=1 is ignored because cmask=0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
                                  "In short: adds, every cycle, the number of occurrences of "
                                  "INST_RETIRED.ANY_P, at CPL>0 only.\n"));
    run_clear(&r);
    r = run_cli("explain", "nhm::UOPS_EXECUTED:PORT0:c=1:i:e:t", NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
                                  "no occurrence of UOPS_EXECUTED.PORT0 happens, at CPL 0 and "
                                  "CPL>0, on both threads together; edge"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "(n < 1)"));
    run_clear(&r);
    /* a fixed-only event: no threshold stage */
    r = run_cli("explain", "glm::UNHALTED_REFERENCE_CYCLES:u", NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "counter: fixed counter 2"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "threshold: none"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
                                  "In short: adds, every cycle, the number of occurrences of "
                                  "UNHALTED_REFERENCE_CYCLES, at CPL>0 only.\n"));
    run_clear(&r);
    r = run_cli("explain", "nhm::OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM", NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "MSR_OFFCORE_RSP_0 (0x1a6) = 0x4001\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "request bits (DMND_DATA_RD)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "response bits (LOCAL_DRAM)"));
    run_clear(&r);
}

static void test_bench_smoke(void)
{
    /* not a speed test: the bench runs and reports both goals */
    Run r = run_cli("bench", "sim", "--pmu", "glm", "--seconds", "0.01", "--stim-records", "500", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\nglm "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "goals:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "stimulus file on glm: 500 records read and run"));
    /* issue 21: the realistic records against the reader floor, with the ratio and its goal */
    CU_ASSERT_PTR_NOT_NULL(
        strstr(r.out, "realistic stimulus on glm (4-5 tokens a record, CPU time, medians of 3): 500 records"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "x the reader (goal <= 3x) "));
    run_clear(&r);
    /* 0 leaves the stimulus-file bench out (valgrind-check: 10^6 records took minutes) */
    r = run_cli("bench", "sim", "--pmu", "glm", "--seconds", "0.01", "--stim-records", "0", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "goals:"));
    CU_ASSERT_PTR_NULL(strstr(r.out, "stimulus file"));
    CU_ASSERT_PTR_NULL(strstr(r.out, "realistic stimulus"));
    run_clear(&r);
    /* skl (smt = on hides PMC4-7): the bench enables only counters that exist, so every part runs */
    r = run_cli("bench", "sim", "--pmu", "skl", "--seconds", "0.01", "--stim-records", "500", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\nskl "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "realistic stimulus on skl"));
    CU_ASSERT_PTR_NULL(r.err ? strstr(r.err, "#GP") : NULL);
    run_clear(&r);
    expect_fail(2, "--seconds", run_cli("bench", "sim", "--seconds", "-1", NULL));
    expect_fail(2, "--stim-records", run_cli("bench", "sim", "--stim-records", "-1", NULL));
    expect_fail(2, "--stim-rounds", run_cli("bench", "sim", "--stim-rounds", "0", NULL));
}

/* `pmusim sim --pmu PMU -e STRING --occurrences ... [--cpl ...] [--preload V]`
 * on the Nehalem/Westmere uncore; asserts exit 0 and the final line. */
static void expect_unc(const char *pmu, const char *event, const char *occ, const char *cpl, const char *preload,
                       const char *want)
{
    const char *argv[14] = { "sim", "--pmu", pmu, "-e", event, "--occurrences", occ, NULL };
    guint n = 7;
    if (cpl) {
        argv[n++] = "--cpl";
        argv[n++] = cpl;
    }
    if (preload) {
        argv[n++] = "--preload";
        argv[n++] = preload;
    }
    argv[n] = NULL;
    Run r = run_cli(argv[0], argv[1], argv[2], argv[3], argv[4], argv[5], argv[6], argv[7], argv[8], argv[9], argv[10],
                    NULL);
    g_autofree char *last = last_line(r.out);
    if (r.status != 0 || strcmp(last, want) != 0)
        fprintf(stderr, "# --pmu %s -e %s --occurrences %s: status %d, last line '%s', want '%s'; stderr: %s\n", pmu,
                event, occ, r.status, last, want, r.err);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_STRING_EQUAL(last, want);
    run_clear(&r);
}

/* The uncore (docs/semantics.md §9): the §3 pipeline (cmask, inv, edge) with
 * no privilege filter, 48-bit counters, and the fixed counter adding 1 per
 * enabled cycle.  Each expectation is derived by hand beside it. */
static void test_uncore_one_liners(void)
{
    /* n = 3,0,1,2, c=2 i: n<2 in cycles 1 (0) and 2 (1) -> 2 */
    expect_unc("nhm_unc", "nhm_unc::UNC_LLC_MISS:ANY:c=2:i", "3,0,1,2", NULL, NULL, "count=2 overflow=0");
    /* c=0 adds n: 3+0+1+2 = 6 */
    expect_unc("nhm_unc", "nhm_unc::UNC_LLC_MISS:ANY", "3,0,1,2", NULL, NULL, "count=6 overflow=0");
    /* c=2: n>=2 in cycles 0 and 3 -> 2 */
    expect_unc("wsm_unc", "wsm_unc::UNC_LLC_MISS:ANY:c=2", "3,0,1,2", NULL, NULL, "count=2 overflow=0");
    /* c=2 e: cond T,F,F,T, latch clear after the evtsel write (A4) -> rising at 0 and 3 -> 2 */
    expect_unc("nhm_unc", "nhm_unc::UNC_LLC_MISS:ANY:c=2:e", "3,0,1,2", NULL, NULL, "count=2 overflow=0");
    /* c=2 i e: cond F,T,T,F -> one rising edge (cycle 1) -> 1 */
    expect_unc("wsm_unc", "wsm_unc::UNC_LLC_MISS:ANY:c=2:i:e", "3,0,1,2", NULL, NULL, "count=1 overflow=0");
    /* e without c is accepted on the uncore (edge_needs_cmask = false); A2:
     * the condition is n>0: T,T,F,T,T -> rising at 0 and 3 -> 2 */
    expect_unc("wsm_unc", "wsm_unc::UNC_QHL_OCCUPANCY:LOCAL:e", "1,1,0,1,1", NULL, NULL, "count=2 overflow=0");
    /* i without c is ignored (A1): adds n, 3+0+1+2 = 6 */
    expect_unc("nhm_unc", "nhm_unc::UNC_QHL_OCCUPANCY:LOCAL:i", "3,0,1,2", NULL, NULL, "count=6 overflow=0");
    /* c=255 (the field's maximum): n>=255 for 255 and 300, not 254 -> 2 */
    expect_unc("nhm_unc", "nhm_unc::UNC_QHL_OCCUPANCY:LOCAL:c=255", "255,254,300", NULL, NULL, "count=2 overflow=0");
    /* no privilege filter: n = 1,2,4,8 at CPL 0,3,0,1 all count -> 15 */
    expect_unc("wsm_unc", "wsm_unc::UNC_QHL_OCCUPANCY:LOCAL", "1,2,4,8", "0,3,0,1", NULL, "count=15 overflow=0");
    expect_unc("nhm_unc", "nhm_unc::UNC_LLC_MISS:READ:c=2", "1,2,4,8", "0,0,0,0", NULL, "count=3 overflow=0");
    /* o (OCC_CTR_RST) resets an accumulator the stimulus does not have: 4+0+6 = 10 */
    expect_unc("wsm_unc", "wsm_unc::UNC_QHL_OCCUPANCY:LOCAL:o", "4,0,6", NULL, NULL, "count=10 overflow=0");
    /* 48 bits: 2^48-1 + 1 = 2^48 -> 0, carry out of bit 47 */
    expect_unc("nhm_unc", "nhm_unc::UNC_LLC_MISS:READ", "1", NULL, "0xFFFFFFFFFFFF", "count=0 overflow=1");
    /* 2^48-3 + 2 = 2^48-1 (no carry), + 3 = 2^48+2 -> 2, overflow */
    expect_unc("wsm_unc", "wsm_unc::UNC_LLC_MISS:READ", "2,3", NULL, "281474976710653", "count=2 overflow=1");
    /* 2^48-3 + 2 = 2^48-1: no carry yet */
    expect_unc("nhm_unc", "nhm_unc::UNC_LLC_MISS:READ", "2", NULL, "0xFFFFFFFFFFFD",
               "count=281474976710655 overflow=0");
    /* UNC_CLK_UNHALTED: the fixed counter adds 1 per enabled cycle (U-clocks),
     * whatever the occurrences say: 4 cycles -> 4 */
    expect_unc("nhm_unc", "nhm_unc::UNC_CLK_UNHALTED", "0,0,5,0", NULL, NULL, "count=4 overflow=0");
    expect_unc("wsm_unc", "wsm_unc::UNC_CLK_UNHALTED", "9", "0", NULL, "count=1 overflow=0");
    /* 2^48-2 +1 +1 -> 0 (carry in cycle 1) +1 -> 1, overflow */
    expect_unc("wsm_unc", "wsm_unc::UNC_CLK_UNHALTED", "0,0,0", NULL, "0xFFFFFFFFFFFE", "count=1 overflow=1");
    /* the fixed counter is named in the table's header */
    Run r = run_cli("sim", "--pmu", "nhm_unc", "-e", "UNC_CLK_UNHALTED", "--occurrences", "1", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "MSR_UNCORE_FIXED_CTR0"));
    run_clear(&r);
    /* u and k do not exist on the uncore: the encoder refuses them, exit 1 */
    r = run_cli("sim", "--pmu", "nhm_unc", "-e", "nhm_unc::UNC_LLC_MISS:READ:u", "--occurrences", "1", NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    run_clear(&r);
}

/* Reserved bits are a #GP, register unchanged (semantics.md §9 'OVF_CTRL',
 * A10), per the SDM's uncore figures: PERFEVTSEL Fig 18-28 (16, 19, 21 and
 * 63:32 reserved), GLOBAL_CTRL Fig 18-25 (7:0, 32, 51:48, 63 defined),
 * STATUS Fig 18-26 (read-only), OVF_CTRL Fig 18-27 (7:0, 32, 61, 63),
 * FIXED_CTR_CTRL Fig 18-29 (0, 2), 48-bit counters (p.18-42).  The stimulus
 * format has no record for a write that must fail, so these are here. */
static void test_uncore_gp(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModelSet) set = pms_model_set_new_builtin(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    const char *pmus[] = { "nhm_unc", "wsm_unc" };
    static const struct {
        guint32 addr;
        guint64 good, bad;
    } cases[] = {
        { 0x3c0, 0x500423, (guint64)1 << 16 },   /* no USR */
        { 0x3c0, 0x500423, (guint64)1 << 19 },   /* no PC */
        { 0x3c0, 0x500423, (guint64)1 << 21 },   /* no ANY */
        { 0x3c7, 0xffd60423, (guint64)1 << 32 }, /* every field set, o included; 63:32 */
        { 0x391, 0x800f0001000000ff, (guint64)1 << 8 },
        { 0x391, 0x800f0001000000ff, (guint64)1 << 52 },
        { 0x391, 0x800f0001000000ff, (guint64)1 << 62 },
        { 0x393, 0, (guint64)1 << 62 },
        { 0x393, 0, (guint64)1 << 33 },
        { 0x394, 0xffffffffffff, (guint64)1 << 48 },
        { 0x395, 0x5, 0x2 },
        { 0x395, 0x5, 0x8 },
        { 0x3b0, 0xffffffffffff, (guint64)1 << 48 },
        { 0x3b7, 0x123456789abc, (guint64)1 << 63 },
    };
    for (guint p = 0; p < G_N_ELEMENTS(pmus); p++) {
        const PmsModel *m = pms_model_set_get(set, pmus[p]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        g_autoptr(PmsSim) sim = pms_sim_new(m, &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
            guint64 v = 0, want = cases[i].good;
            CU_ASSERT_TRUE(pms_sim_write(sim, cases[i].addr, cases[i].good, NULL));
            /* OCC_CTR_RST reads 0 (Fig 18-28); OVF_CTRL reads 0 (A22) */
            if (cases[i].addr >= 0x3c0)
                want &= ~((guint64)1 << 17);
            CU_ASSERT_TRUE(pms_sim_read(sim, cases[i].addr, &v, NULL));
            CU_ASSERT_EQUAL(v, want);
            GError *e = NULL;
            gboolean ok = pms_sim_write(sim, cases[i].addr, cases[i].good | cases[i].bad, &e);
            if (ok || !g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_GP))
                fprintf(stderr, "# %s: write 0x%" G_GINT64_MODIFIER "x to 0x%x: expected #GP\n", pmus[p],
                        cases[i].good | cases[i].bad, cases[i].addr);
            CU_ASSERT_FALSE(ok);
            CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_GP));
            g_clear_error(&e);
            /* the register keeps its value */
            CU_ASSERT_TRUE(pms_sim_read(sim, cases[i].addr, &v, NULL));
            CU_ASSERT_EQUAL(v, want);
        }
        /* GLOBAL_STATUS is read-only: any write, even 0 */
        GError *e = NULL;
        CU_ASSERT_FALSE(pms_sim_write(sim, 0x392, 0, &e));
        CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_GP));
        g_clear_error(&e);
    }
}

/* pms_sim_program called directly, as the conformance runner does. */
/* Several -e: one run, one column per counter, each counter's last line
 * prefixed by its name (docs/sets.md).  wsm INST_RETIRED:ANY_P goes on
 * FIXED_CTR0 (fixed counters first), UOPS_ISSUED:ANY on PMC0; both preloaded
 * 2^48 - 2 and fed 1 then 2 occurrences: 2^48 - 1 after cycle 0, both carry
 * out in cycle 1 (value 1): two status bits (PMC0 bit 0, FIXED_CTR0 bit 32,
 * SDM Fig 18-9) and one PMI in cycle 1 (SDM 18.2: one interrupt however
 * many counters overflow). */
static void test_set_sim(void)
{
    Run r = run_cli("sim", "--pmu", "wsm", "-e", "INST_RETIRED:ANY_P", "-e", "UOPS_ISSUED:ANY", "--occurrences", "1,2",
                    "--preload", "0xfffffffffffe", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
                                  "# 2 cycles; IA32_PERF_GLOBAL_STATUS 0x100000001; PMI at 1\n"
                                  "IA32_FIXED_CTR0 count=1 overflow=1\nIA32_PMC0 count=1 overflow=1\n"));
    CU_ASSERT(g_str_has_suffix(r.out, "IA32_PMC0 count=1 overflow=1\n"));
    run_clear(&r);
    /* nhm: the L1D events may use PMC0-1 only; UOPS_ISSUED goes to PMC2 and
     * counts 3 + 4; the L1D events count their own 3 + 4 */
    r = run_cli("sim", "--pmu", "nhm", "-e", "UOPS_ISSUED:ANY", "-e", "L1D:REPL", "-e", "L1D:M_REPL", "--occurrences",
                "3,4", "--engine", "fast", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT(g_str_has_suffix(r.out,
                               "PMI at no cycle\nIA32_PMC2 count=7 overflow=0\nIA32_PMC0 count=7 overflow=0\n"
                               "IA32_PMC1 count=7 overflow=0\n"));
    run_clear(&r);
    /* no placement: exit 1 naming the conflict */
    r = run_cli("sim", "--pmu", "nhm", "-e", "L1D:REPL", "-e", "L1D:M_REPL", "-e", "L1D:M_EVICT", "--occurrences", "1",
                NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_STRING_EQUAL(r.err,
                           "pmusim: sim: 3 events may use only IA32_PMC0, IA32_PMC1 (2 counters): nhm::L1D:REPL, "
                           "nhm::L1D:M_REPL, nhm::L1D:M_EVICT\n");
    CU_ASSERT_STRING_EQUAL(r.out, "");
    run_clear(&r);
    /* the per-counter formats take one event */
    r = run_cli("sim", "--pmu", "wsm", "-e", "INST_RETIRED:ANY_P", "-e", "UOPS_ISSUED:ANY", "--occurrences", "1", "-f",
                "csv", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    run_clear(&r);
    /* a set is one PMU's */
    r = run_cli("sim", "-e", "wsm::INST_RETIRED:ANY_P", "-e", "glm::INST_RETIRED:ANY_P", "--occurrences", "1", NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    run_clear(&r);
}

static void test_program_api(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModelSet) set = pms_model_set_new_builtin(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    const PmsModel *nhm = pms_model_set_get(set, "nhm");
    CU_ASSERT_PTR_NOT_NULL_FATAL(nhm);
    g_autoptr(PmsSim) sim = pms_sim_new(nhm, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    const PmsEvent *ir = pms_model_event(nhm, "INST_RETIRED");
    const PmsEvent *oc = pms_model_event(nhm, "OFFCORE_RESPONSE_0");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(oc);
    guint64 codes[2] = { 0x4100c0, 0 }, v = 0; /* en | usr, INST_RETIRED.ANY_P */
    const PmsRegister *gc = pms_model_reg_by_kind(nhm, PMS_REG_GLOBAL_CTRL, 0);
    const PmsRegister *es1 = pms_model_reg_by_kind(nhm, PMS_REG_EVTSEL, 1);
    CU_ASSERT_FATAL(gc && es1);
    CU_ASSERT_TRUE(pms_sim_write(sim, gc->address, 0, NULL));
    CU_ASSERT_TRUE(pms_sim_program(sim, nhm, ir, 1, codes, 1, &err));
    CU_ASSERT_TRUE(pms_sim_read(sim, es1->address, &v, NULL));
    CU_ASSERT_EQUAL(v, 0x4100c0);
    CU_ASSERT_TRUE(pms_sim_read(sim, gc->address, &v, NULL));
    CU_ASSERT_EQUAL(v, 0x2); /* SDM 18-7: bit 1 enables PMC1, nothing else */
    /* codes[1] of an event without an extra register */
    codes[1] = 1;
    CU_ASSERT_FALSE(pms_sim_program(sim, nhm, ir, 0, codes, 2, &err));
    CU_ASSERT_TRUE(err && strstr(err->message, "no extra register"));
    g_clear_error(&err);
    /* a counter the PMU lacks */
    CU_ASSERT_FALSE(pms_sim_program(sim, nhm, ir, 7, codes, 1, &err));
    g_clear_error(&err);
    /* a reserved bit in codes[0]: the simulator's #GP, naming the register */
    guint64 wide[1] = { (guint64)1 << 40 | 0x4100c0 };
    CU_ASSERT_FALSE(pms_sim_program(sim, nhm, ir, 0, wide, 1, &err));
    CU_ASSERT_TRUE(err && strstr(err->message, "IA32_PERFEVTSEL0"));
    g_clear_error(&err);
    /* offcore: codes[1] lands in MSR_OFFCORE_RSP_0 */
    guint counter;
    gboolean fixed;
    CU_ASSERT_TRUE(pms_sim_event_counter(nhm, oc, PMS_UMASK_SET_EMPTY, &counter, &fixed));
    CU_ASSERT_FALSE(fixed);
    guint64 occ[2] = { 0x5301b7, 0x4001 };
    CU_ASSERT_TRUE(pms_sim_program(sim, nhm, oc, counter, occ, 2, &err));
    const PmsRegister *rsp = pms_model_reg_by_name(nhm, "MSR_OFFCORE_RSP_0");
    CU_ASSERT_FATAL(rsp != NULL);
    CU_ASSERT_TRUE(pms_sim_read(sim, rsp->address, &v, NULL));
    CU_ASSERT_EQUAL(v, 0x4001);
    /* event strings: prefix added, kept, or refused */
    g_autofree char *a = pms_sim_qualify_event("glm", "X:Y", NULL);
    g_autofree char *b = pms_sim_qualify_event(NULL, "glm::X", NULL);
    g_autofree char *c = pms_sim_qualify_event("nhm", "glm::X", NULL);
    CU_ASSERT_STRING_EQUAL(a, "glm::X:Y");
    CU_ASSERT_STRING_EQUAL(b, "glm::X");
    CU_ASSERT_PTR_NULL(c);
}

/* The Xeon 7500 C-Box one-line experiments (issue: `pmusim sim --pmu
 * nhmex_cbox3 -e nhmex_cbox3::LLC_MISSES:ALL:t=2:i --occurrences 3,0,1,2`),
 * each expectation derived by hand from the register table and
 * docs/semantics.md §10 (threshold, then invert: n < t, then edge). */
static void test_cbox_one_liners(void)
{
    /* t=2 i: n < 2 in cycles 1 (0) and 2 (1) -> 2 */
    expect_unc("nhmex_cbox3", "nhmex_cbox3::LLC_MISSES:ALL:t=2:i", "3,0,1,2", NULL, NULL, "count=2 overflow=0");
    /* no threshold: adds n, a C-Box counter takes several per cycle: 3+0+1+2 = 6 */
    expect_unc("nhmex_cbox0", "nhmex_cbox0::LLC_MISSES:ALL", "3,0,1,2", NULL, NULL, "count=6 overflow=0");
    /* t=2: n >= 2 in cycles 0 and 3 -> 2 */
    expect_unc("nhmex_cbox7", "nhmex_cbox7::LLC_MISSES:SHARED:t=2", "3,0,1,2", NULL, NULL, "count=2 overflow=0");
    /* t=2 e: edge after the threshold: T,F,F,T -> rising at 0 and 3 -> 2 */
    expect_unc("nhmex_cbox5", "nhmex_cbox5::LLC_MISSES:ALL:t=2:e", "3,0,1,2", NULL, NULL, "count=2 overflow=0");
    /* t=2 i e: F,T,T,F -> one rising edge -> 1 */
    expect_unc("nhmex_cbox1", "nhmex_cbox1::LLC_MISSES:ALL:t=2:i:e", "3,0,1,2", NULL, NULL, "count=1 overflow=0");
    /* t=0 i: invert ignored without a threshold (A1): 6 */
    expect_unc("nhmex_cbox2", "nhmex_cbox2::LLC_MISSES:ALL:i", "3,0,1,2", NULL, NULL, "count=6 overflow=0");
    /* no privilege filter: CPL 0 and 3 alike: 1+2+4 = 7 */
    expect_unc("nhmex_cbox4", "nhmex_cbox4::LLC_MISSES:ALL", "1,2,4", "0,3,0", NULL, "count=7 overflow=0");
    /* 48 bits: 2^48-3 + 2 + 3 -> 2, carry out of bit 47 */
    expect_unc("nhmex_cbox6", "nhmex_cbox6::LLC_MISSES:ALL", "2,3", NULL, "281474976710653", "count=2 overflow=1");
    /* pmi sets pmi_en; no core routed, no frz_all: counting goes on: 2^48-1 + 3 -> 2 */
    expect_unc("nhmex_cbox3", "nhmex_cbox3::LLC_MISSES:ALL:pmi", "1,2", NULL, "0xFFFFFFFFFFFF", "count=2 overflow=1");
}

/* Montecito end to end: the builtin encoder's codes, the program step's
 * writes in the PMC space, the device (semantics.md §11), the counter read
 * from PMD4 and the overflow bit from PMC0. */
static void test_montecito_one_liners(void)
{
    /* thres 0 adds n: 3+0+1+2 = 6 */
    expect_count("montecito::NOPS_RETIRED", "3,0,1,2", NULL, NULL, "count=6 overflow=0");
    /* thres=2 (gt, the model's default): n > 2 in cycles 0 (3) and 4 (6) -> 2 */
    expect_count("montecito::NOPS_RETIRED:thres=2", "3,0,1,2,6", NULL, NULL, "count=2 overflow=0");
    /* u: plm 0x8, CPL 3 only: 1+4 = 5; k: plm 0x1, CPL 0 only: 2 */
    expect_count("montecito::NOPS_RETIRED:u", "1,2,4", "3,0,3", NULL, "count=5 overflow=0");
    expect_count("montecito::NOPS_RETIRED:k", "1,2,4", "3,0,3", NULL, "count=2 overflow=0");
    /* thres=5 (max_inc 6 - 1, the largest accepted), gt: n > 5 in the two 6s; n = 5 at the edge does not */
    expect_count("montecito::NOPS_RETIRED:thres=5", "6,5,6,4", NULL, NULL, "count=2 overflow=0");
    /* threshold after privilege: u:thres=3, CPL 0,3,3,3: the CPL-3 cycles with n > 3 (6, 4) -> 2 */
    expect_count("montecito::NOPS_RETIRED:u:thres=3", "6,6,4,3", "0,3,3,3", NULL, "count=2 overflow=0");
    /* one occurrence count per CPL 0..3: neither k nor u is the default PLM0|PLM3 (docs/montecito.md):
     * CPL 0 and 3 count, 1 and 2 do not: 1+5 = 6; k:u the same; k=0 alone is plm 0: nothing */
    expect_count("montecito::NOPS_RETIRED", "1,2,4,5", "0,1,2,3", NULL, "count=6 overflow=0");
    expect_count("montecito::NOPS_RETIRED:k:u", "1,2,4,5", "0,1,2,3", NULL, "count=6 overflow=0");
    expect_count("montecito::NOPS_RETIRED:k=0", "1,2,4,5", "0,1,2,3", NULL, "count=0 overflow=0");
    /* oi: 2^47-2 + 1 + 1 carries in cycle 1 (PMC0 bit 4 and fr), frozen after: 0 */
    expect_count("montecito::NOPS_RETIRED:oi", "1,1,1,1", NULL, "0x7ffffffffffe", "count=0 overflow=1");
    /* without oi the counter wraps and counts on, no PMC0 bit: 2^47-2 + 4 -> 2 */
    expect_count("montecito::NOPS_RETIRED", "1,1,1,1", NULL, "0x7ffffffffffe", "count=2 overflow=0");
    Run r = run_cli("sim", "-e", "montecito::NOPS_RETIRED:oi", "--occurrences", "1,1,1,1", "--preload",
                    "0x7ffffffffffe", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "PMC0 0x11; PMI at 1\n"));
    run_clear(&r);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_simcli PMUSIM\n");
        return 2;
    }
    pmusim_path = argv[1];
    tmpdir = g_dir_make_tmp("simcli-XXXXXX", NULL);
    if (!tmpdir)
        return 1;
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("simcli", NULL, NULL);
    CU_add_test(s, "threshold_edge", test_threshold_edge);
    CU_add_test(s, "privilege", test_privilege);
    CU_add_test(s, "overflow", test_overflow);
    CU_add_test(s, "own_signals", test_own_signals);
    CU_add_test(s, "bad_options", test_bad_options);
    CU_add_test(s, "set: several -e counted together, one PMI for two overflows", test_set_sim);
    CU_add_test(s, "stim_and_output", test_stim_and_output);
    CU_add_test(s, "vcd_json", test_vcd_json);
    CU_add_test(s, "explain", test_explain);
    CU_add_test(s, "bench_smoke", test_bench_smoke);
    CU_add_test(s, "program_api", test_program_api);
    CU_add_test(s, "uncore_one_liners", test_uncore_one_liners);
    CU_add_test(s, "uncore_gp", test_uncore_gp);
    CU_add_test(s, "cbox_one_liners", test_cbox_one_liners);
    CU_add_test(s, "montecito_one_liners", test_montecito_one_liners);
    CU_add_test(s, "closed_form", test_closed_form);
    int status = pms_cu_tap_run();
    /* remove the scratch directory (only files this test wrote) */
    pms_cu_remove_scratch(tmpdir);
    g_free(tmpdir);
    return status;
}
