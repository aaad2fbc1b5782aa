/* pebs-cli: PEBS through the command line (issue 8): encode --pebs
 * [--ld-lat N], explain --pebs, sim --pebs with a stimulus's DS area, and the
 * errors of each.  Run by meson as: test_pebs_cli PMUSIM.
 *
 * Expected register values come from the SDM's layout as docs/semantics.md
 * §5 quotes it (IA32_PEBS_ENABLE bits 0-3 PEBS_EN_PMCn, 32-35 LL_EN_PMCn;
 * MSR_PEBS_LD_LAT 15:0 the threshold), the records from a hand derivation
 * given beside each stimulus; none were recorded from a run. */
#include "cu_tap.h"

#include <glib/gstdio.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>

static const char *pmusim_path;

typedef PmsCuRun Run;

static Run run(const char *words)
{
    return pms_cu_run_words(pmusim_path, words);
}

static gboolean has(const char *text, const char *what)
{
    gboolean ok = text && strstr(text, what) != NULL;
    if (!ok)
        fprintf(stderr, "# expected '%s' in:\n%s\n", what, text ? text : "(null)");
    return ok;
}

/* A stimulus in a temporary file; g_free the path and unlink it. */
static char *stim_file(const char *text)
{
    char *path = NULL;
    int fd = g_file_open_tmp("pebs-XXXXXX.stim", &path, NULL);
    if (fd < 0)
        return NULL;
    close(fd);
    if (!g_file_set_contents(path, text, -1, NULL)) {
        g_unlink(path);
        g_free(path);
        return NULL;
    }
    return path;
}

static void test_encode(void)
{
    /* PMC0 (the lowest counter INST_RETIRED may use): PEBS_EN_PMC0 = bit 0 */
    Run r = run("encode --pebs nhm::INST_RETIRED:ANY_P");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(has(r.out, "  PEBS on IA32_PMC0:\n  IA32_PEBS_ENABLE     0x3f1 = 0x1  (bits 0x1 only)\n"));
    pms_cu_run_clear(&r);
    /* load latency: PEBS_EN_PMC0 | LL_EN_PMC0 = bits 0 and 32; threshold 16 = 0x10 */
    r = run("encode --pebs --ld-lat 16 wsm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(has(r.out, "IA32_PEBS_ENABLE     0x3f1 = 0x100000001  (bits 0x100000001 only)\n"));
    CU_ASSERT_TRUE(has(r.out, "MSR_PEBS_LD_LAT      0x3f6 = 0x10\n"));
    CU_ASSERT_TRUE(has(r.out, ":ldlat=16\n"));
    pms_cu_run_clear(&r);
    /* the threshold written in the string works the same */
    r = run("encode --pebs nhm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=4");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(has(r.out, "MSR_PEBS_LD_LAT      0x3f6 = 0x4\n"));
    pms_cu_run_clear(&r);
    /* GLM: PEBS_ENABLE has bit 0 only, and every event may use it (semantics.md §5.1) */
    r = run("encode --pebs glm::UOPS_ISSUED:ANY");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(has(r.out, "IA32_PEBS_ENABLE     0x3f1 = 0x1  (bits 0x1 only)\n"));
    CU_ASSERT_TRUE(has(r.out, "note: UOPS_ISSUED is not a precise event"));
    pms_cu_run_clear(&r);
    /* INV/CMASK on a PEBS event: accepted with a note (semantics.md §1.5 conflict) */
    r = run("encode --pebs nhm::INST_RETIRED:ANY_P:c=1");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(has(r.out, "note: INV or CMASK with PEBS"));
    pms_cu_run_clear(&r);
}

/* --set --pebs: each PEBS event on a general counter PEBS samples (never a
 * fixed one: INST_RETIRED.ANY_P would take FIXED_CTR0 without PEBS), one
 * IA32_PEBS_ENABLE with every counter's bits: PEBS_EN_PMC0-2 = 0x7, and
 * LL_EN_PMC2 = bit 34 for the load-latency event on PMC2 (SDM Fig 18-21). */
static void test_encode_set(void)
{
    Run r = run("encode --set --pebs --pmu nhm INST_RETIRED:ANY_P BR_INST_RETIRED:ALL_BRANCHES "
                "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=16");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(has(r.out, "  IA32_PMC0        nhm::INST_RETIRED:ANY_P:"));
    CU_ASSERT_TRUE(has(r.out, "  IA32_PMC2        nhm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:"));
    CU_ASSERT_TRUE(has(r.out,
                       "  PEBS on IA32_PMC0, IA32_PMC1, IA32_PMC2:\n"
                       "  IA32_PEBS_ENABLE     0x3f1 = 0x400000007  (bits 0x400000007 only)\n"));
    CU_ASSERT_TRUE(has(r.out, "  MSR_PEBS_LD_LAT      0x3f6 = 0x10\n"));
    CU_ASSERT_TRUE(r.out && strstr(r.out, "IA32_FIXED_CTR0") == NULL);
    pms_cu_run_clear(&r);
    /* without --pebs the same first event goes on its fixed counter */
    r = run("encode --set --pmu nhm INST_RETIRED:ANY_P BR_INST_RETIRED:ALL_BRANCHES");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(has(r.out, "  IA32_FIXED_CTR0  nhm::INST_RETIRED:ANY_P:"));
    pms_cu_run_clear(&r);
}

static void test_encode_errors(void)
{
    static const struct {
        const char *words;
        int status;
        const char *err;
    } cases[] = {
        /* ld_lat's range is the model's ldlat modifier's (3..65535, semantics.md A12) */
        { "encode --pebs --ld-lat 2 nhm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD", 1, "out of range 3..65535" },
        { "encode --pebs --ld-lat 65536 nhm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD", 1, "out of range 3..65535" },
        { "encode --pebs --ld-lat x nhm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD", 2, "--ld-lat 'x': expected" },
        { "encode --ld-lat 16 nhm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD", 2, "give --pebs too" },
        { "encode --pebs nhm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD", 1, "needs the load-latency threshold" },
        { "encode --pebs --ld-lat 16 nhm::INST_RETIRED:ANY_P", 1, "applies only to the load-latency event" },
        /* SDM 18-37: no AnyThread, no edge; SDM 18-39: the ldlat event takes no INV/CMASK */
        { "encode --pebs nhm::INST_RETIRED:ANY_P:e:c=1", 1, "PFM_ERR_FEATCOMB" },
        { "encode --pebs nhm::INST_RETIRED:ANY_P:t", 1, "neither AnyThread (t) nor edge (e)" },
        { "encode --pebs nhm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=8:c=1", 1, "neither INV (i) nor CMASK" },
        { "encode --pebs nhm::UOPS_ISSUED:ANY", 1, "is not a PEBS event of nhm" },
        { "encode --pebs nhm_unc::UNC_LLC_MISS:ANY", 1, "no IA32_PEBS_ENABLE" },
        { "encode --pebs --batch", 2, "--pebs prints the registers of each EVENT" },
        { "encode --set --pebs --ld-lat 16 nhm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD", 2, "threshold as :ldlat=N" },
        /* a set: the refused event named, no register printed */
        { "encode --set --pebs nhm::INST_RETIRED:ANY_P nhm::UOPS_ISSUED:ANY", 1,
          "'nhm::UOPS_ISSUED:ANY': --pebs: PFM_ERR_NOTSUPP" },
        /* GLM: PEBS on PMC0 only (SDM 18.7.1), so two PEBS events conflict */
        { "encode --set --pebs glm::INST_RETIRED:ANY_P glm::BR_INST_RETIRED:ALL_BRANCHES", 1,
          "glm::INST_RETIRED:ANY_P and glm::BR_INST_RETIRED:ALL_BRANCHES both need IA32_PMC0" },
        /* five PEBS events on NHM's four PEBS counters */
        { "encode --set --pebs --pmu nhm INST_RETIRED:ANY_P BR_INST_RETIRED:ALL_BRANCHES BR_MISP_RETIRED:NEAR_CALL "
          "MEM_LOAD_RETIRED:L1D_HIT MEM_LOAD_RETIRED:L2_HIT",
          1, "5 events may use only IA32_PMC0, IA32_PMC1, IA32_PMC2, IA32_PMC3" },
        { "sim --pebs --pmu nhm --stim /nonexistent", 2, "give -e" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        Run r = run(cases[i].words);
        if (r.status != cases[i].status)
            fprintf(stderr, "# %s: exit %d, expected %d\n", cases[i].words, r.status, cases[i].status);
        CU_ASSERT_EQUAL(r.status, cases[i].status);
        CU_ASSERT_TRUE(has(r.err, cases[i].err));
        /* a refused PEBS configuration prints no registers */
        CU_ASSERT_TRUE(r.out == NULL || strstr(r.out, "IA32_PEBS_ENABLE") == NULL);
        pms_cu_run_clear(&r);
    }
}

static void test_explain(void)
{
    Run r = run("explain --pebs --ld-lat 16 nhm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(has(r.out, "IA32_PEBS_ENABLE (0x3f1) = 0x100000001"));
    CU_ASSERT_TRUE(has(r.out, "What PEBS captures"));
    CU_ASSERT_TRUE(has(r.out, "only loads slower than 16 core cycles count"));
    CU_ASSERT_TRUE(has(r.out, "OvfBuf (IA32_PERF_GLOBAL_STATUS bit 62)"));
    /* nhm (perfmon v3) has no GLOBAL_STATUS_SET */
    CU_ASSERT_PTR_NULL(strstr(r.out, "GLOBAL_STATUS_SET"));
    pms_cu_run_clear(&r);
    r = run("explain --pebs nhm::UOPS_ISSUED:ANY");
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_TRUE(has(r.err, "not a PEBS event"));
    pms_cu_run_clear(&r);
}

/* Hand derivation (semantics.md §5.2 and the choices in docs/semantics.md
 * §8a): PMC0 from 2^48-3 counting 1 per cycle wraps in cycle 2 (armed),
 * the assist in cycle 3 writes record 0 at 0x1000 and reloads 2^48-4; the
 * wrap in cycle 7 arms, the assist in cycle 8 writes record 1 at 0x10b0;
 * the index 0x1160 reaches the threshold: OvfBuf, PMI 8.  INT (libpfm4's
 * default) makes each assist a PMI too: PMIs 3 and 8. */
static void test_sim(void)
{
    g_autofree char *path = stim_file("pmu nhm\n"
                                      "ds base=0x1000 max=0x1400 threshold=0x1160 reset0=-4\n"
                                      "regs rflags=0x246 rbx=0x2\n"
                                      "write IA32_PMC0 -3\n"
                                      "run 9 INST_RETIRED.ANY_P=1 ip=0x400a10\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(path);
    g_autofree char *words = g_strdup_printf("sim --pebs -e nhm::INST_RETIRED:ANY_P --stim %s", path);
    Run r = run(words);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(has(r.out, "PMI at 3, 8\n"));
    CU_ASSERT_TRUE(has(r.out, "# PEBS: 2 records; DS index 0x1160 (base 0x1000, threshold 0x1160, maximum 0x1400)\n"));
    CU_ASSERT_TRUE(has(r.out, "# PEBS record 0: cycle 3 PMC0 at 0x1000: rflags=0x246 rip=0x400a10 rbx=0x2 status=0x1"));
    CU_ASSERT_TRUE(has(r.out, "# PEBS record 1: cycle 8 PMC0 at 0x10b0:"));
    CU_ASSERT_TRUE(has(r.out, "PEBS assist: record written, counter reloaded"));
    pms_cu_run_clear(&r);
    /* --explain: the teaching sentence of the assist */
    g_free(words);
    words = g_strdup_printf("sim --pebs -e nhm::INST_RETIRED:ANY_P --stim %s --explain", path);
    r = run(words);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(has(r.out, "cycle 3: n=1"));
    CU_ASSERT_TRUE(has(r.out, "the armed PEBS assist runs"));
    pms_cu_run_clear(&r);
    /* json: the assist's cycle carries "pebs_assist" (and the reload: 2^48-4) */
    g_free(words);
    words = g_strdup_printf("sim --pebs -e nhm::INST_RETIRED:ANY_P --stim %s -f json", path);
    r = run(words);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(has(r.out,
                       "\"enabled\": true, \"n\": 1, \"thr\": 1, \"cond\": 1, \"latch\": null, \"edge\": null, "
                       "\"inc\": 1, \"counter\": 281474976710652, \"overflow\": 0, \"status\": \"0x0\", \"pmi\": 1, "
                       "\"pebs_assist\": true}"));
    CU_ASSERT_TRUE(has(r.out, "{\"cycle\": 3, \"occ\": [1, 0], \"cpl\": [3, 3], \"gate\": [1, 1], "));
    /* and the records and DS index at the end, as the table's "# PEBS" lines */
    CU_ASSERT_TRUE(has(r.out, "\"pebs\": {\"records\": 2, \"ds\": {\"index\": \"0x1160\", \"base\": \"0x1000\", "));
    CU_ASSERT_TRUE(has(r.out, "{\"cycle\": 8, \"counter\": 0, \"address\": \"0x10b0\", \"fields\": {"));
    pms_cu_run_clear(&r);
    /* a set with --pebs: INST_RETIRED.ANY_P on PMC0 (not FIXED_CTR0, which
     * PEBS cannot sample), the same records; BR_INST_RETIRED on PMC1 */
    g_free(words);
    words =
        g_strdup_printf("sim --pebs -e nhm::INST_RETIRED:ANY_P -e nhm::BR_INST_RETIRED:ALL_BRANCHES --stim %s", path);
    r = run(words);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(has(r.out, "IA32_PMC1 count=0 overflow=0\n"));
    CU_ASSERT_TRUE(has(r.out, "# PEBS: 2 records; DS index 0x1160"));
    CU_ASSERT_TRUE(has(r.out, "# PEBS record 1: cycle 8 PMC0 at 0x10b0:"));
    pms_cu_run_clear(&r);
    /* the same stimulus without --pebs: no assist, the counter counts on */
    g_free(words);
    words = g_strdup_printf("sim -e nhm::INST_RETIRED:ANY_P --stim %s", path);
    r = run(words);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(has(r.out, "# PEBS: 0 records; DS index 0x1000"));
    CU_ASSERT_TRUE(has(r.out, "count=6 overflow=1\n"));
    pms_cu_run_clear(&r);
    g_unlink(path);
}

static void test_stim_errors(void)
{
    static const struct {
        const char *text;
        const char *err;
    } cases[] = {
        { "pmu nhm\nds base=0x1000\n", ":2: ds: expected base=ADDRESS and max=ADDRESS" },
        { "pmu nhm\nds base=0x1000 max=0x2000 reset4=1\n",
          ":2: ds: unknown field 'reset4': expected base, index, max, "
          "threshold or reset0..reset3" },
        { "pmu nhm\nds base=0x1000 max=0x900\n", ":2: DS area: the absolute maximum is below the buffer base" },
        { "pmu nhm\nds base=0x1000 max=0x2000 threshold=0x3000\n", "interrupt threshold lies outside" },
        { "pmu nhm\nregs rzz=1\n", ":2: regs: unknown register 'rzz'" },
        { "pmu nhm\nregs rax=banana\n", ":2: regs: rax: value 'banana': expected a number" },
        { "pmu nhm\nexpect-record 0 foo=1\n", ":2: expect-record: unknown field 'foo'" },
        { "pmu nhm\nexpect-record 0\n", ":2: expect-record: expected INDEX NAME=VALUE" },
        { "pmu nhm\nexpect-pebs 1\n", ":2: cycle 0: 0 PEBS records, DS index 0x0; expected 1" },
        { "pmu nhm\nexpect-record 0 rip=1\n", ":2: cycle 0: PEBS record 0 expected, 0 written" },
        { "pmu nhm\nrun 1 dse=zz\n", ":2: dse: 'zz': expected a number" },
        { "pmu nhm_unc\nds base=0x1000 max=0x2000\n", "model nhm_unc: no PEBS records modelled (no IA32_PEBS_ENABLE" },
        /* glm's record (format 3) has no status field: the message lists its fields */
        { "pmu glm\nexpect-record 0 status=1\n",
          ":2: expect-record: unknown field 'status': expected counter, cycle, "
          "address or a field of PEBS record format 3 (rflags, rip, rax" },
        { "pmu glm\nexpect-record 0 applicable=1\n", ":2: cycle 0: PEBS record 0 expected, 0 written" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *path = stim_file(cases[i].text);
        CU_ASSERT_PTR_NOT_NULL_FATAL(path);
        g_autofree char *words = g_strdup_printf("sim --stim %s", path);
        Run r = run(words);
        CU_ASSERT_EQUAL(r.status, 1);
        CU_ASSERT_TRUE(has(r.err, cases[i].err));
        pms_cu_run_clear(&r);
        g_unlink(path);
    }
}

/* glm, record format 3 (SDM Table 18-20; docs/semantics.md §8a), the
 * stimulus of sim/tests/data/glm-pebs.stim: one load per cycle from 2^48-3
 * wraps in cycle 2 (armed), the assist in cycle 3 writes record 0 at 0x2000
 * (0xC8 bytes) and reloads 2^48-4; the wrap in cycle 7 arms, the assist in
 * cycle 8 writes record 1 at 0x20c8 and the index 0x2190 reaches the
 * threshold: OvfBuf, PMI 8 (INT: PMI 3 too).  applicable = PMC0's status
 * bit, dla the run's daddr, rip and eventing_ip its ip, tsc the cycle. */
static void test_sim_glm(void)
{
    g_autofree char *path = stim_file("pmu glm\n"
                                      "ds base=0x2000 max=0x2400 threshold=0x2190 reset0=-4\n"
                                      "regs rflags=0x246 rax=0x1\n"
                                      "write IA32_PMC0 -3\n"
                                      "run 9 MEM_UOPS_RETIRED.ALL_LOADS=1 ip=0x400b20 daddr=0x7f00\n"
                                      "expect-record 1 cycle=8 address=0x20c8 tsc=8 applicable=1\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(path);
    g_autofree char *words = g_strdup_printf("sim --pebs -e glm::MEM_UOPS_RETIRED:ALL_LOADS --stim %s", path);
    Run r = run(words);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(has(r.out, "PMI at 3, 8\n"));
    CU_ASSERT_TRUE(has(r.out, "# PEBS: 2 records; DS index 0x2190 (base 0x2000, threshold 0x2190, maximum 0x2400)\n"));
    CU_ASSERT_TRUE(has(r.out,
                       "# PEBS record 0: cycle 3 PMC0 at 0x2000: rflags=0x246 rip=0x400b20 rax=0x1 applicable=0x1 "
                       "dla=0x7f00 rsvd_a0=0x0 rsvd_a8=0x0 eventing_ip=0x400b20 rsvd_b8=0x0 tsc=0x3\n"));
    CU_ASSERT_TRUE(has(r.out, "# PEBS record 1: cycle 8 PMC0 at 0x20c8:"));
    pms_cu_run_clear(&r);
    /* a wrong expectation names the field, the value and the line (wrap in
     * cycle 0 from 2^48-1, the assist in cycle 1: tsc 1, dla 0x7f00) */
    g_autofree char *bad = stim_file("pmu glm\n"
                                     "ds base=0x2000 max=0x2400 reset0=-4\n"
                                     "write IA32_PMC0 -1\n"
                                     "run 2 MEM_UOPS_RETIRED.ALL_LOADS=1 daddr=0x7f00\n"
                                     "expect-record 0 tsc=1 dla=0x7f40\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
    g_free(words);
    words = g_strdup_printf("sim --pebs -e glm::MEM_UOPS_RETIRED:ALL_LOADS --stim %s", bad);
    r = run(words);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_TRUE(has(r.err, ":5: PEBS record 0: dla = 0x7f00 (32512), expected 0x7f40 (32576)"));
    pms_cu_run_clear(&r);
    /* explain: the format 3 fields */
    r = run("explain --pebs glm::CPU_CLK_UNHALTED:CORE_P");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(has(r.out, "The record (format 3, 200 bytes) holds rflags, rip, rax"));
    CU_ASSERT_TRUE(has(r.out, "applicable, dla, rsvd_a0, rsvd_a8, eventing_ip, rsvd_b8, tsc."));
    CU_ASSERT_TRUE(has(r.out, "through IA32_PERF_GLOBAL_STATUS_SET (0x391) arms PEBS as a wrap does."));
    pms_cu_run_clear(&r);
    g_unlink(path);
    g_unlink(bad);
}

/* Vector files with `pebs N`: a malformed line names file:line; a wrong
 * expectation fails the vector with the stimulus's own message. */
static void test_vectors(void)
{
    static const struct {
        const char *text;
        int status;
        const char *err;
    } cases[] = {
        { "vector v\nevent 0 \"nhm::INST_RETIRED:ANY_P\"\npebs 5\nsrc x\nread IA32_PMC0 0\nend\n", 1,
          "pebs.sim:3: column 6: pebs: counter '5': expected the counter of an `event N` line above" },
        { "vector v\nevent 0 \"nhm::UOPS_ISSUED:ANY\"\npebs 0\nsrc x\nread IA32_PMC0 0\nend\n", 1,
          "programming PEBS: UOPS_ISSUED is not a PEBS event of nhm" },
        /* PEBS_ENABLE bit 0 (SDM Fig 18-21): 0x2 is wrong */
        { "vector v\nevent 0 \"nhm::INST_RETIRED:ANY_P\"\npebs 0\nsrc x\nread IA32_PEBS_ENABLE 0x2\nend\n", 1,
          "read IA32_PEBS_ENABLE (0x3f1) = 0x1 (1), expected 0x2 (2)" },
        { "vector v\nevent 0 \"nhm::INST_RETIRED:ANY_P\"\npebs 0\nsrc x\nread IA32_PEBS_ENABLE 0x1\nend\n", 0, "" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *dir = g_dir_make_tmp("pebs-vectors-XXXXXX", NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
        g_autofree char *sub = g_build_filename(dir, "nhm", NULL);
        g_autofree char *file = g_build_filename(sub, "pebs.sim", NULL);
        CU_ASSERT_EQUAL(g_mkdir(sub, 0700), 0);
        CU_ASSERT_TRUE(g_file_set_contents(file, cases[i].text, -1, NULL));
        g_autofree char *words = g_strdup_printf("conform --kind sim --vectors %s", dir);
        Run r = run(words);
        CU_ASSERT_EQUAL(r.status, cases[i].status);
        CU_ASSERT_TRUE(has(cases[i].status ? (r.err && *r.err ? r.err : r.out) : r.out, cases[i].err));
        if (r.status != cases[i].status)
            fprintf(stderr, "# case %u: exit %d\n%s%s", i, r.status, r.out ? r.out : "", r.err ? r.err : "");
        pms_cu_run_clear(&r);
        g_unlink(file);
        g_rmdir(sub);
        g_rmdir(dir);
    }
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
    CU_pSuite s = CU_add_suite("pebs-cli", NULL, NULL);
    CU_add_test(s, "encode --pebs [--ld-lat N]: IA32_PEBS_ENABLE, MSR_PEBS_LD_LAT", test_encode);
    CU_add_test(s, "encode --set --pebs: PEBS counters only, one PEBS_ENABLE", test_encode_set);
    CU_add_test(s, "encode --pebs: refused thresholds, events, modifiers, PMUs", test_encode_errors);
    CU_add_test(s, "explain --pebs: registers and what PEBS captures", test_explain);
    CU_add_test(s, "sim --pebs: records, DS index, OvfBuf PMI, assists in the trace", test_sim);
    CU_add_test(s, "stimulus PEBS records: errors name file:line", test_stim_errors);
    CU_add_test(s, "vector files: pebs N, its errors and a wrong expectation", test_vectors);
    CU_add_test(s, "sim --pebs on glm: record format 3, a wrong field, explain", test_sim_glm);
    return pms_cu_tap_run();
}
