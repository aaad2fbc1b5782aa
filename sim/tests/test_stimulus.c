/* Stimulus: the text format, the builder API, execution checks and every
 * class of bad input (each error names source:line and what was expected). */
#include "fixtures.h"
#include "sim_input.h"

#include <glib/gstdio.h>
#include <unistd.h>

#include <string.h>

static PmsStim *parse(const char *model, const char *text, GError **e)
{
    return pms_stim_parse(fx_model(model), text, -1, "t.stim", e);
}

static gboolean exec_text(const char *model, const char *text, GError **e)
{
    g_autoptr(PmsStim) st = parse(model, text, e);
    if (!st)
        return FALSE;
    g_autoptr(PmsSim) s = fx_sim(fx_model(model), PMS_SIM_FAST);
    return pms_stim_execute(st, s, e);
}

/* A stimulus file run as it is read (pms_stim_run_file): 300,000 one-cycle
 * runs of INST_RETIRED.ANY_P (0xc0.0x00) at i % 4 on PMC0 (usr|os|en, GLOBAL_CTRL
 * bit 0 set by the file): the count is sum(i % 4) = 300000 / 4 * 6 =
 * 450000 and a read in the file checks it; the records are dropped as they
 * run (only the not-yet-executed ones are held).  A bad line far down names
 * its line, after the lines above it ran; an expect-pmi at the end is
 * checked after the last record. */
static void test_run_file_streaming(void)
{
    g_autofree char *path = NULL;
    int fd = g_file_open_tmp("pmusim-stream-XXXXXX.stim", &path, NULL);
    CU_ASSERT_FATAL(fd >= 0);
    GString *t = g_string_new("pmu wsm\nwrite 0x186 0x4300c0\nwrite 0x38f 1\n");
    for (guint i = 0; i < 300000; i++)
        g_string_append_printf(t, "run 1 0xc0.0x00=%u\n", i % 4);
    g_string_append(t, "read 0xc1 450000\nexpect-pmi none\n");
    CU_ASSERT_TRUE(g_file_set_contents(path, t->str, (gssize)t->len, NULL));
    close(fd);
    PmsSim *s = fx_sim(fx_model("wsm"), PMS_SIM_FAST);
    GError *e = NULL;
    CU_ASSERT_TRUE(pms_stim_run_file(fx_model("wsm"), path, s, &e));
    if (e)
        fprintf(stderr, "# %s\n", e->message), g_clear_error(&e);
    CU_ASSERT_EQUAL(pms_sim_cycle(s), 300000);
    pms_sim_free(s);
    /* a bad record at line 200004: the 200,000 runs above it ran */
    g_string_truncate(t, 0);
    g_string_append(t, "pmu wsm\nwrite 0x186 0x4300c0\nwrite 0x38f 1\n");
    for (guint i = 0; i < 200000; i++)
        g_string_append(t, "run 1 0xc0.0x00=1\n");
    g_string_append(t, "run -5 0xc0.0x00=1\n");
    CU_ASSERT_TRUE(g_file_set_contents(path, t->str, (gssize)t->len, NULL));
    s = fx_sim(fx_model("wsm"), PMS_SIM_FAST);
    CU_ASSERT_FALSE(pms_stim_run_file(fx_model("wsm"), path, s, &e));
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    g_autofree char *want = g_strdup_printf("%s:200004:", path);
    CU_ASSERT_TRUE(g_str_has_prefix(e->message, want));
    CU_ASSERT_EQUAL(pms_sim_cycle(s), 200000);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 200000);
    g_clear_error(&e);
    pms_sim_free(s);
    /* a missing file names itself */
    s = fx_sim(fx_model("wsm"), PMS_SIM_FAST);
    CU_ASSERT_FALSE(pms_stim_run_file(fx_model("wsm"), "/nonexistent/x.stim", s, &e));
    CU_ASSERT_TRUE(e && g_str_has_prefix(e->message, "/nonexistent/x.stim: "));
    g_clear_error(&e);
    pms_sim_free(s);
    g_unlink(path);
    g_string_free(t, TRUE);
}

static void test_file_scenario(void)
{
    for (int eng = 0; eng < 2; eng++) {
        GError *e = NULL;
        g_autoptr(PmsStim) st = pms_stim_load_file(fx_model("nhm"), PMS_SRCDIR "/sim/tests/data/nhm-freeze.stim", &e);
        if (!st)
            fprintf(stderr, "# %s\n", e->message);
        CU_ASSERT_PTR_NOT_NULL_FATAL(st);
        g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), eng ? PMS_SIM_FAST : PMS_SIM_REFERENCE);
        gboolean ok = pms_stim_execute(st, s, &e);
        if (!ok)
            fprintf(stderr, "# %s\n", e->message);
        CU_ASSERT_TRUE(ok);
        CU_ASSERT_EQUAL(pms_stim_end_cycle(st), 210); /* 10 idle + 200 */
        /* records: 4 writes, idle run, run, 4 reads */
        CU_ASSERT_EQUAL(pms_stim_n_records(st), 10);
        PmsStimRecord r;
        pms_stim_record(st, 4, &r);
        CU_ASSERT_EQUAL(r.kind, PMS_STIM_RUN);
        CU_ASSERT_EQUAL(r.cycle, 0);
        CU_ASSERT_EQUAL(r.run->cycles, 10);
        pms_stim_record(st, 5, &r);
        CU_ASSERT_EQUAL(r.line, 12);
        CU_ASSERT_EQUAL(r.cycle, 10);
        CU_ASSERT_EQUAL(r.run->n_counts, 1);
        CU_ASSERT_EQUAL(r.run->counts[0].signal, PMS_SIGNAL_KEY(0xc0, 0x00));
        pms_stim_record(st, 6, &r);
        CU_ASSERT_EQUAL(r.kind, PMS_STIM_READ);
        CU_ASSERT_TRUE(r.check);
        CU_ASSERT_EQUAL(r.address, 0xc1);
    }
}

/* Registers of every space: by name (PMC4 and PMD4 are two registers of
 * montecito) and by SPACE:NUMBER; a plain number stays an MSR address. */
static void test_register_spaces(void)
{
    GError *e = NULL;
    const char *t = "pmu montecito\n"
                    "write PMC4 0x2000008\n"
                    "write PMD4 5\n"
                    "read pmd:4 5\n"
                    "write pmc:0 0\n"
                    "write IBR1 0\n"
                    "read dbr:3\n"
                    "read msr:0x186\n"
                    "read 0x186\n";
    g_autoptr(PmsStim) st = parse("montecito", t, &e);
    if (!st)
        fprintf(stderr, "# %s\n", e->message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    static const struct {
        PmsRegSpace sp;
        guint32 n;
    } want[] = {
        { PMS_SPACE_PMC, 4 }, { PMS_SPACE_PMD, 4 }, { PMS_SPACE_PMD, 4 },     { PMS_SPACE_PMC, 0 },
        { PMS_SPACE_IBR, 1 }, { PMS_SPACE_DBR, 3 }, { PMS_SPACE_MSR, 0x186 }, { PMS_SPACE_MSR, 0x186 },
    };
    CU_ASSERT_EQUAL_FATAL(pms_stim_n_records(st), G_N_ELEMENTS(want));
    for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
        PmsStimRecord r;
        pms_stim_record(st, i, &r);
        CU_ASSERT_EQUAL(r.space, want[i].sp);
        CU_ASSERT_EQUAL(r.address, want[i].n);
    }
    /* an unknown space is named */
    CU_ASSERT_PTR_NULL(parse("montecito", "read pmx:4\n", &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "t.stim:1: register 'pmx:4': unknown register space 'pmx'"));
    g_clear_error(&e);
    /* x86 models keep reading plain numbers as MSRs, names as before */
    g_autoptr(PmsStim) x = parse("nhm", "write IA32_PERFEVTSEL0 0\nread 0xc1 0\n", &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    PmsStimRecord r;
    pms_stim_record(x, 1, &r);
    CU_ASSERT_EQUAL(r.space, PMS_SPACE_MSR);
    CU_ASSERT_EQUAL(r.address, 0xc1);
}

static void test_text_features(void)
{
    GError *e = NULL;
    /* both threads, CPL lists, offcore and load tokens, value forms, a read
     * without a check, register by address */
    const char *t2 =
        "write IA32_PERFEVTSEL0 0x6100c0       # en|any|usr, c0.00\n"
        "write IA32_PERFEVTSEL1 0x4101b7       # OFFCORE_RESPONSE_0, en|usr\n"
        "write MSR_OFFCORE_RSP_0 0x4001\n"
        "write IA32_PERFEVTSEL2 0x41100b       # load latency, en|usr\n"
        "write MSR_PEBS_LD_LAT 2^4-6           # = 10\n"
        "write IA32_PERFEVTSEL3 0x4100c0\n"
        "write IA32_PMC3 2^32+5                # legacy: EAX = 5\n"
        "run 3 cpl=3,0 0xc0.0x00=2,5 offcore=DMND_DATA_RD/LOCAL_DRAM*2 offcore=1/0x100@1 load=11*3 load=10 load=50@1\n"
        "read IA32_PMC0 6                      # thread 1 at CPL 0 fails usr: 3 x 2\n"
        "run 2 cpl=3 0xc0.0x00=2,5             # cpl=3 applies to both threads\n"
        "read IA32_PMC0 20                     # + 2 x 7\n"
        "read IA32_PMC1 6                      # 3 x 2 (thread 0's DMND_DATA_RD/LOCAL_DRAM)\n"
        "read IA32_PMC2 9                      # 3 x 3 loads above 10 on thread 0\n"
        "read IA32_PMC3 15                     # 5 + 5 x 2\n"
        "read 0x38e\n"
        "@5 read IA32_PMC3 15                  # @ the current cycle is fine\n"
        "expect-pmi none\n";
    g_autoptr(PmsStim) st = parse("nhm", t2, &e);
    if (!st)
        fprintf(stderr, "# %s\n", e->message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), PMS_SIM_REFERENCE);
    gboolean ok = pms_stim_execute(st, s, &e);
    if (!ok)
        fprintf(stderr, "# %s\n", e->message);
    CU_ASSERT_TRUE(ok);
    g_clear_error(&e);
}

static void test_api(void)
{
    g_autoptr(PmsStim) st = pms_stim_new(fx_model("glm"));
    pms_stim_add_write(st, A_EVTSEL0, EVTSEL(0xc0, 0x00, EV_EN | EV_USR | EV_INT));
    pms_stim_add_write(st, A_APMC0, (1ull << 48) - 7);
    PmsSimCount c = { PMS_SIGNAL_KEY(0xc0, 0x00), 0, 1, 0 };
    PmsSimRun r = { 100, { 3, 3 }, &c, 1, NULL, 0, NULL, 0 };
    pms_stim_add_run(st, &r);
    pms_stim_add_read(st, A_PMC0, TRUE, 93); /* 2^48 - 7 + 100 */
    guint64 pmi = 6;                         /* the 7th cycle carries */
    pms_stim_expect_pmis(st, &pmi, 1);
    g_autoptr(PmsSim) s = fx_sim(fx_model("glm"), PMS_SIM_FAST);
    CU_ASSERT_TRUE(pms_stim_execute(st, s, NULL));
    /* the same with a wrong expectation fails, naming what was seen */
    g_autoptr(PmsStim) st2 = pms_stim_new(fx_model("glm"));
    pms_stim_add_read(st2, A_PMC0, TRUE, 94);
    GError *e = NULL;
    CU_ASSERT_FALSE(pms_stim_execute(st2, s, &e));
    CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_MISMATCH));
    CU_ASSERT_PTR_NOT_NULL(e ? strstr(e->message, "IA32_PMC0") : NULL);
    g_clear_error(&e);
}

static void test_signal_names(void)
{
    guint32 k;
    GError *e = NULL;
    CU_ASSERT_TRUE(pms_stim_signal_key(fx_model("nhm"), "0xb1.0x3f", &k, NULL));
    CU_ASSERT_EQUAL(k, PMS_SIGNAL_KEY(0xb1, 0x3f));
    CU_ASSERT_TRUE(pms_stim_signal_key(fx_model("glm"), "INST_RETIRED:ANY_P", &k, NULL));
    CU_ASSERT_EQUAL(k, PMS_SIGNAL_KEY(0xc0, 0x00));
    CU_ASSERT_TRUE(pms_stim_signal_key(fx_model("wsm"), "inst_retired.x87", &k, NULL));
    CU_ASSERT_EQUAL(k, PMS_SIGNAL_KEY(0xc0, 0x02));
    CU_ASSERT_TRUE(pms_stim_signal_key(fx_model("wsm"), "INST_RETIRED", &k, NULL)); /* default ANY */
    CU_ASSERT_EQUAL(k, PMS_SIGNAL_KEY(0xc0, 0x01));
    CU_ASSERT_TRUE(pms_stim_signal_key(fx_model("tiny"), "LD_LAT", &k, NULL)); /* no umasks: base */
    CU_ASSERT_EQUAL(k, PMS_SIGNAL_KEY(0x0b, 0x10));
    CU_ASSERT_TRUE(pms_stim_signal_key(fx_model("tiny"), "OFFCORE_RESPONSE_0", &k, NULL));
    CU_ASSERT_EQUAL(k, PMS_SIGNAL_KEY(0xb7, 0x01));
    const char *bad[][2] = {
        { "NO_SUCH_EVENT", "unknown signal" },          { "0x1ffff.0x1", "16 bits" },
        { "INST_RETIRED.NOPE", "no unit mask 'NOPE'" }, { "OFFCORE_RESPONSE_0.DMND_RFO", "offcore=" },
        { "UOPS_EXECUTED", "needs a unit mask" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        CU_ASSERT_FALSE(pms_stim_signal_key(fx_model(i >= 3 ? (i == 3 ? "tiny" : "nhm") : "nhm"), bad[i][0], &k, &e));
        if (e && !strstr(e->message, bad[i][1]))
            fprintf(stderr, "# %s: %s\n", bad[i][0], e->message);
        CU_ASSERT_PTR_NOT_NULL(e ? strstr(e->message, bad[i][1]) : NULL);
        g_clear_error(&e);
    }
}

/* Bad input: each must fail with source:line and the expectation. */
static void test_bad_inputs(void)
{
    static const char *cases[][3] = {
        { "nhm", "run 0", "t.stim:1: run: expected a number of cycles >= 1" },
        { "nhm", "run x", "t.stim:1: run: expected a number of cycles" },
        { "nhm", "\n\nrun 5 bogus", "t.stim:3: run: expected NAME=VALUE, got 'bogus'" },
        { "nhm", "run 5 NOPE=1", "t.stim:1: unknown signal 'NOPE'" },
        { "nhm", "run 5 0xc0.0x00=1,2,3", "t.stim:1: 0xc0.0x00: expected 1..2 comma-separated values" },
        { "glm", "run 5 0xc0.0x00=1,2", "t.stim:1: 0xc0.0x00: expected 1..1" },
        { "nhm", "run 5 0xc0.0x00=4294967296", "t.stim:1: 0xc0.0x00: value '4294967296' for thread 0" },
        { "nhm", "run 5 cpl=4", "t.stim:1: cpl: value '4'" },
        { "nhm", "run 5 offcore=1", "t.stim:1: offcore: expected REQUEST/RESPONSE" },
        { "nhm", "run 5 offcore=NOPE/1", "t.stim:1: offcore: 'NOPE' is neither" },
        { "nhm", "run 5 offcore=1/1@2", "t.stim:1: offcore: thread '@2'" },
        { "nhm", "run 5 offcore=1/1*x", "t.stim:1: offcore: count '*x'" },
        { "nhm", "run 5 load=abc", "t.stim:1: load: expected LATENCY" },
        { "nhm", "run 10\n@5 run 1", "t.stim:2: cycles out of order: @5 but the stimulus is already at cycle 10" },
        { "nhm", "@x run 1", "t.stim:1: expected @CYCLE, got '@x'" },
        { "nhm", "@3", "t.stim:1: expected a record" },
        { "nhm", "write IA32_PMC0", "t.stim:1: write: expected REGISTER VALUE" },
        { "nhm", "read", "t.stim:1: read: expected REGISTER [EXPECTED]" },
        { "nhm", "write NOPE 1", "t.stim:1: unknown register 'NOPE'" },
        { "nhm", "write IA32_PMC0 0x1ffffffffffffffff", "t.stim:1: write: value '0x1ffffffffffffffff'" },
        { "nhm", "write IA32_PMC0 2^64", "t.stim:1: write: value '2^64'" },
        { "nhm", "write IA32_PMC0 2^3-9", "t.stim:1: write: value" },
        { "nhm", "write IA32_PMC0 --1", "t.stim:1: write: value" },
        { "nhm", "expect-pmi", "t.stim:1: expect-pmi: expected CYCLE... or none" },
        { "nhm", "expect-pmi 5 3", "t.stim:1: expect-pmi: cycles out of order" },
        { "nhm", "expect-pmi x", "t.stim:1: expect-pmi: 'x'" },
        { "nhm", "pmu glm", "t.stim:1: pmu: this stimulus is for 'glm', the model is 'nhm'" },
        { "nhm", "frobnicate", "t.stim:1: unknown record 'frobnicate'" },
        { "nhm", "run 2^63", "t.stim:1: run: the stimulus would exceed 2^63 cycles" },
        /* issue 10 */
        { "nhm", "run -5", "t.stim:1: run: a cycle count cannot be negative, got '-5'" },
        { "nhm", "@-5 run 1", "t.stim:1: @CYCLE: a cycle cannot be negative, got '@-5'" },
        { "nhm", "pmu nhm nhm", "t.stim:1: pmu: extra word 'nhm' after the name 'nhm': expected one name" },
        { "nhm", "pmu", "t.stim:1: pmu: expected the model's name (nhm)" },
        { "nhm", "run 5 offcore=/", "t.stim:1: offcore: empty request or response" },
        { "nhm", "run 5 offcore=1/", "t.stim:1: offcore: empty request or response" },
        { "nhm", "run 5 offcore=1++2/1", "t.stim:1: offcore: empty name in '1++2'" },
        { "nhm", "run 5 inflight=1", "t.stim:1: inflight: model nhm has no offcore OUTSTANDING unit mask" },
        { "nhm", "\xef\xbb\xbfrun 1", "t.stim:1: the file starts with a UTF-8 byte-order mark (bytes EF BB BF)" },
        { "nhm", "run 0x", "t.stim:1: run: expected a number of cycles" },
        { "nhm", "run 08x", "t.stim:1: run: expected a number of cycles" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        GError *e = NULL;
        PmsStim *st = parse(cases[i][0], cases[i][1], &e);
        if (st)
            fprintf(stderr, "# case %u parsed: %s\n", i, cases[i][1]);
        CU_ASSERT_PTR_NULL(st);
        CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS));
        if (e && !g_str_has_prefix(e->message, cases[i][2]))
            fprintf(stderr, "# case %u: got '%s'\n", i, e->message);
        CU_ASSERT_TRUE(e && g_str_has_prefix(e->message, cases[i][2]));
        g_clear_error(&e);
        pms_stim_free(st);
    }
    GError *e = NULL;
    CU_ASSERT_PTR_NULL(pms_stim_parse(fx_model("nhm"), "run 1\0x", 7, "nul.stim", &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "NUL"));
    g_clear_error(&e);
    CU_ASSERT_PTR_NULL(pms_stim_load_file(fx_model("nhm"), PMS_SRCDIR "/sim/tests/data/missing.stim", &e));
    CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS));
    g_clear_error(&e);
    /* issue 10: a device is not read without end; issue 20: its first NUL
     * byte refuses it, before 64 MiB are read */
    CU_ASSERT_PTR_NULL(pms_stim_load_file(fx_model("nhm"), "/dev/zero", &e));
    CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_INPUT));
    CU_ASSERT_TRUE(e && strstr(e->message, "/dev/zero:1: column 1: a NUL byte"));
    g_clear_error(&e);
}

/* issue 10: numbers with a leading 0 are decimal (the format says decimal or
 * 0x); inflight= where the model has OUTSTANDING. */
static void test_decimal_numbers(void)
{
    GError *e = NULL;
    g_autoptr(PmsStim) st = parse("nhm", "write IA32_PMC0 010\nrun 010\n@020 run 0010", &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    CU_ASSERT_EQUAL(pms_stim_end_cycle(st), 30);
    PmsStimRecord r;
    pms_stim_record(st, 0, &r);
    CU_ASSERT_EQUAL(r.value, 10);
    g_autoptr(PmsStim) hex = parse("nhm", "run 0X10 0xc0.0x00=0x01", &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(hex);
    CU_ASSERT_EQUAL(pms_stim_end_cycle(hex), 16);
    g_autoptr(PmsStim) infl = parse("glm", "run 5 inflight=DMND_DATA_RD", &e);
    CU_ASSERT_PTR_NOT_NULL(infl);
    g_clear_error(&e);
}

/* issue 10: a PMI mismatch over many cycles is a bounded message: the first
 * differing cycles and how many there are. */
static void test_pmi_mismatch_bounded(void)
{
    GString *t = g_string_new("run 3");
    for (guint c = 0; c < 100000; c++)
        g_string_append_printf(t, c % 50 ? " %u" : "\nexpect-pmi %u", c);
    GError *e = NULL;
    CU_ASSERT_FALSE(exec_text("nhm", t->str, &e));
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT(strlen(e->message) < 200);
    CU_ASSERT_STRING_EQUAL(e->message,
                           "t.stim:2001: 0 PMIs, expected 100000; they differ from PMI 1 on: "
                           "cycles none, expected 0 1 2 3 4 5 6 7 ... (99992 more)");
    g_clear_error(&e);
    g_string_free(t, TRUE);
}

/* Execution errors: #GP, failed read, PMI mismatch, each with the line. */
static void test_exec_errors(void)
{
    GError *e = NULL;
    CU_ASSERT_FALSE(exec_text("nhm", "# x\nwrite IA32_PERF_GLOBAL_STATUS 1", &e));
    CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_GP));
    CU_ASSERT_TRUE(e && g_str_has_prefix(e->message, "t.stim:2: #GP"));
    g_clear_error(&e);
    CU_ASSERT_FALSE(exec_text("nhm", "write 0x4c1 1", &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "no such register"));
    g_clear_error(&e);
    CU_ASSERT_FALSE(exec_text("nhm", "run 3\nread IA32_PMC0 1", &e));
    CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_MISMATCH));
    CU_ASSERT_TRUE(
        e && g_str_has_prefix(e->message, "t.stim:2: cycle 3: read IA32_PMC0 (0xc1) = 0x0 (0), expected 0x1 (1)"));
    g_clear_error(&e);
    CU_ASSERT_FALSE(exec_text("nhm", "run 3\nexpect-pmi 2", &e));
    CU_ASSERT_TRUE(e && g_str_has_prefix(e->message, "t.stim:2: PMIs at cycles none, expected 2"));
    g_clear_error(&e);
    CU_ASSERT_FALSE(exec_text("nhm",
                              "write IA32_PERFEVTSEL0 0x5100c0\nwrite IA32_PMC0 -1\n"
                              "run 3 0xc0.0x00=1\nexpect-pmi none",
                              &e));
    CU_ASSERT_TRUE(e && g_str_has_prefix(e->message, "t.stim:4: PMIs at cycles 0, expected none"));
    g_clear_error(&e);
    /* an expected #GP: taken (register unchanged, execution goes on) ... */
    CU_ASSERT_TRUE(exec_text("nhm",
                             "write IA32_PERFEVTSEL0 0x4100c0\nwrite IA32_PERFEVTSEL0 0x10000004100c0 gp\n"
                             "read IA32_PERFEVTSEL0 0x4100c0",
                             &e));
    g_clear_error(&e);
    /* ... or not: a write that succeeds is an error naming the line */
    CU_ASSERT_FALSE(exec_text("nhm", "run 1\nwrite IA32_PERFEVTSEL0 0x4100c0 gp", &e));
    CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_MISMATCH));
    CU_ASSERT_TRUE(
        e &&
        g_str_has_prefix(e->message, "t.stim:2: write 0x4100c0 to IA32_PERFEVTSEL0 (0x186) succeeded, expected #GP"));
    g_clear_error(&e);
    /* another box's signal: cbox0/ in a stimulus of tinynhmex (C-Box 2) reaches C-Box 0 only */
    CU_ASSERT_TRUE(exec_text("tinynhmex",
                             "write C0_MSR_PMON_EVT_SEL0 0x400114\nwrite C0_MSR_PMON_GLOBAL_CTL 1\n"
                             "write C2_MSR_PMON_EVT_SEL0 0x400114\nwrite C2_MSR_PMON_GLOBAL_CTL 1\n"
                             "write U_MSR_PMON_GLOBAL_CTL 0x10000000\n"
                             "run 3 cbox0/LLC_MISSES.SHARED=2 0x14.0x01=1\n"
                             "read C0_MSR_PMON_CTR0 6\nread C2_MSR_PMON_CTR0 3",
                             &e));
    g_clear_error(&e);
    CU_ASSERT_PTR_NULL(parse("tinynhmex", "run 1 sbox0/0x14.0x01=1", &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "t.stim:1: 'sbox0/': expected the model's unit and an instance (cboxN"));
    g_clear_error(&e);
    CU_ASSERT_PTR_NULL(parse("nhm", "run 1 cbox1/0xc0.0x00=1", &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "the model has no unit"));
    g_clear_error(&e);
    CU_ASSERT_PTR_NULL(parse("tinynhmex", "run 1 cbox2/0x14.0x01=x", &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "t.stim:1:"));
    g_clear_error(&e);
    /* only the word gp may follow a write's value */
    CU_ASSERT_PTR_NULL(parse("nhm", "write IA32_PMC0 1 GPX", &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "t.stim:1: write: expected REGISTER VALUE [gp]"));
    g_clear_error(&e);
}

/* issue 20: the reader of pms_stim_run_file and its two-step form.  A pipe
 * (read end named /dev/fd/N) is read once: the pmu line is found and the
 * run reads it again, line numbers right; limits and NUL bytes are checked
 * as the reader reaches them, never read as the end of the input. */
static void test_reader(void)
{
    const PmsModel *m = fx_model("wsm");
    int fds[2];
    CU_ASSERT_FATAL(pipe(fds) == 0);
    const char *text = "# piped\n\npmu wsm   # the model\nwrite 0x186 0x4301c0\nwrite 0x38f 1\n"
                       "run 5 INST_RETIRED.ANY_P=1\nread 0xc1 6\n";
    CU_ASSERT_EQUAL(write(fds[1], text, strlen(text)), (ssize_t)strlen(text));
    close(fds[1]);
    g_autofree char *dev = g_strdup_printf("/dev/fd/%d", fds[0]);
    GError *e = NULL;
    PmsStimReader *r = pms_stim_reader_open(dev, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    char *name = NULL;
    CU_ASSERT_TRUE(pms_stim_reader_pmu(r, &name, &e));
    CU_ASSERT_STRING_EQUAL(name, "wsm");
    g_free(name);
    PmsSim *s = fx_sim(m, PMS_SIM_FAST);
    CU_ASSERT_FALSE(pms_stim_reader_run(r, m, s, &e));
    g_autofree char *want = g_strdup_printf("%s:7: cycle 5: read IA32_PMC0 (0xc1) = 0x5 (5), expected 0x6", dev);
    CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_MISMATCH) && g_str_has_prefix(e->message, want));
    g_clear_error(&e);
    pms_sim_free(s);
    pms_stim_reader_free(r);
    close(fds[0]);
    /* no record at all: no name, no error; a first record that is not pmu: none */
    r = pms_stim_reader_open("/dev/null", &e);
    CU_ASSERT_TRUE(pms_stim_reader_pmu(r, &name, &e) && !name && !e);
    pms_stim_reader_free(r);
    /* /dev/zero: the search stops at the first byte */
    r = pms_stim_reader_open("/dev/zero", &e);
    CU_ASSERT_FALSE(pms_stim_reader_pmu(r, &name, &e));
    CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_INPUT));
    CU_ASSERT_TRUE(e && strcmp(e->message, "/dev/zero:1: column 1: a NUL byte in the text") == 0);
    g_clear_error(&e);
    pms_stim_reader_free(r);
    s = fx_sim(m, PMS_SIM_FAST);
    CU_ASSERT_FALSE(pms_stim_run_file(m, "/dev/zero", s, &e));
    CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_INPUT));
    g_clear_error(&e);
    pms_sim_free(s);
    /* a line of exactly 16 MiB is read (the last line, without its '\n',
     * too); one byte more is refused naming the limit */
    g_autofree char *path = NULL;
    int fd = g_file_open_tmp("pmusim-line-XXXXXX.stim", &path, NULL);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    for (guint extra = 0; extra < 2; extra++) {
        for (guint nl = 0; nl < 2; nl++) {
            GString *t = g_string_new("run 1 INST_RETIRED.ANY_P=1\n#");
            g_string_set_size(t, t->len + 16 * 1024 * 1024 - 1 + extra);
            memset(t->str + 28, 'x', 16 * 1024 * 1024 - 1 + extra);
            if (nl)
                g_string_append(t, "\nrun 1\n");
            CU_ASSERT_TRUE(g_file_set_contents(path, t->str, (gssize)t->len, NULL));
            g_string_free(t, TRUE);
            s = fx_sim(m, PMS_SIM_FAST);
            gboolean ok = pms_stim_run_file(m, path, s, &e);
            CU_ASSERT_EQUAL(ok, !extra);
            if (extra) {
                g_autofree char *w = g_strdup_printf("%s:2: a line longer than 16 MiB (16777216 bytes)", path);
                CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_INPUT) &&
                               g_str_has_prefix(e->message, w));
            } else {
                CU_ASSERT_EQUAL(pms_sim_cycle(s), nl ? 2 : 1);
            }
            g_clear_error(&e);
            pms_sim_free(s);
        }
    }
    g_unlink(path);
}


/* A stimulus's text run both ways on wsm (PMC0 on INST_RETIRED.ANY_P
 * 0xc0.0x01, PMC1 on 0x3c.0x01, usr|os|en, both global enables, written
 * first): parsed whole (pms_stim_parse, copied runs) and streamed from a
 * file (pms_stim_run_file, runs executed from the parser's scratch).  Both
 * must agree; PMC0 and PMC1 (the whole text's) in *c0, *c1; FALSE with the message in *msg
 * (g_free) when either fails, the two messages compared (the file's name
 * stands for t.stim). */
static gboolean both_ways(const char *body, guint64 *c0, guint64 *c1, char **msg)
{
    g_autofree char *text =
        g_strconcat("write IA32_PERFEVTSEL0 0x4301c0\nwrite IA32_PERFEVTSEL1 0x43013c\nwrite IA32_PERF_GLOBAL_CTRL 3\n",
                    body, NULL);
    const PmsModel *m = fx_model("wsm");
    GError *e = NULL, *fe = NULL;
    *msg = NULL;
    g_autoptr(PmsSim) s = fx_sim(m, PMS_SIM_FAST);
    g_autoptr(PmsStim) st = pms_stim_parse(m, text, -1, "t.stim", &e);
    gboolean ok = st && pms_stim_execute(st, s, &e);
    g_autofree char *path = NULL;
    int fd = g_file_open_tmp("pmusim-tok-XXXXXX.stim", &path, NULL);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    CU_ASSERT_TRUE(g_file_set_contents(path, text, -1, NULL));
    g_autoptr(PmsSim) fs = fx_sim(m, PMS_SIM_FAST);
    gboolean fok = pms_stim_run_file(m, path, fs, &fe);
    g_unlink(path);
    CU_ASSERT_EQUAL(ok, fok);
    guint64 a = 0, b = 0, fa = 0, fb = 0;
    CU_ASSERT_TRUE(pms_sim_read(s, 0xc1, &a, NULL) && pms_sim_read(s, 0xc2, &b, NULL));
    CU_ASSERT_TRUE(pms_sim_read(fs, 0xc1, &fa, NULL) && pms_sim_read(fs, 0xc2, &fb, NULL));
    /* a streamed file runs the lines above an error: the counters agree when both ran it all */
    CU_ASSERT_TRUE(!ok || (a == fa && b == fb));
    *c0 = a;
    *c1 = b;
    if (e || fe) {
        CU_ASSERT_TRUE_FATAL(e && fe);
        const char *rest = g_str_has_prefix(fe->message, path) ? fe->message + strlen(path) : "";
        if (!g_str_has_prefix(e->message, "t.stim") || strcmp(e->message + 6, rest) != 0)
            fprintf(stderr, "# both ways: '%s' vs '%s'\n", e->message, fe->message);
        CU_ASSERT_TRUE(g_str_has_prefix(e->message, "t.stim") && strcmp(e->message + 6, rest) == 0);
        *msg = g_strdup(e->message);
    }
    g_clear_error(&e);
    g_clear_error(&fe);
    return ok;
}

/* issue 21: the in-place tokenizer and the run keys resolved once.  Blanks
 * of every kind, comments glued to a field, CRLF; thread lists with an
 * empty value; keys that share their length and both end words (the same
 * hash: only the bytes tell them apart); a key seen again after an error
 * elsewhere; more distinct keys than the cache holds; a field of 1 MiB. */
static void test_tokenizer_edges(void)
{
    guint64 c0, c1;
    char *msg;
    /* blanks, empty fields, tabs, trailing blanks, CRLF, a comment glued on */
    CU_ASSERT_TRUE(both_ways("run 2 0xc0.0x01=1 0x3c.0x01=2\n"
                             "  run\t2   0xc0.0x01=1\t\t0x3c.0x01=2   \n"
                             "run 2 0xc0.0x01=1 0x3c.0x01=2\r\n"
                             "\t\r\n"
                             "   \n"
                             "run 2 0xc0.0x01=1 0x3c.0x01=2#no blank before the comment\n"
                             "run 2 0xc0.0x01=1#0x3c.0x01=2\n"
                             "# a whole line\n"
                             "\r\n"
                             "run 2 0xc0.0x01=1 0x3c.0x01=2 \t\r",
                             &c0, &c1, &msg));
    CU_ASSERT_EQUAL(c0, 12); /* six runs of 2 cycles, one without its 0x3c.0x01 (commented out) */
    CU_ASSERT_EQUAL(c1, 20);
    g_free(msg);
    /* thread lists: an empty value names its thread; too many values */
    static const char *bad[][2] = {
        { "run 1 0xc0.0x01=1,", "t.stim:4: 0xc0.0x01: value '' for thread 1: expected a number 0..4294967295" },
        { "run 1 0xc0.0x01=,1", "t.stim:4: 0xc0.0x01: value '' for thread 0: expected a number 0..4294967295" },
        { "run 1 0xc0.0x01=1,,2",
          "t.stim:4: 0xc0.0x01: expected 1..2 comma-separated values (one per thread), got "
          "'1,,2'" },
        { "run 1 0xc0.0x01=1,x", "t.stim:4: 0xc0.0x01: value 'x' for thread 1: expected a number 0..4294967295" },
        { "run 1 0xc0.0x01=", "t.stim:4: run: expected NAME=VALUE, got '0xc0.0x01='" },
        { "run 1 =1", "t.stim:4: run: expected NAME=VALUE, got '=1'" },
        { "run 1 cpl=0,", "t.stim:4: cpl: value '' for thread 1: expected a number 0..3" },
        { "run 1 cpl=,", "t.stim:4: cpl: value '' for thread 0: expected a number 0..3" },
        /* the key seen on a line before, its value bad now: the name is still the message's */
        { "run 1 0xc0.0x01=1\nrun 1 0xc0.0x01=18446744073709551616",
          "t.stim:5: 0xc0.0x01: value '18446744073709551616' for thread 0" },
        { "run 1 0xc0.0x01=1\nrun 1 0xc0.0x01=4294967296", "t.stim:5: 0xc0.0x01: value '4294967296' for thread 0" },
        /* a NUL byte: line and column */
        { "run 1\nrun 1 0xc0.0x01=1\0x", "t.stim:5: column 18: a NUL byte in the text" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        if (strchr(bad[i][0], '=') && strstr(bad[i][1], "NUL")) {
            /* with its NUL: the text's length says where it ends */
            const char *t = bad[i][0];
            gsize n = strlen(t) + 2; /* the NUL and the 'x' after it */
            GError *e = NULL;
            GString *g = g_string_new("pmu wsm\nrun 1\nrun 1\n");
            g_string_append_len(g, t, (gssize)n);
            CU_ASSERT_PTR_NULL(pms_stim_parse(fx_model("wsm"), g->str, (gssize)g->len, "t.stim", &e));
            CU_ASSERT_TRUE(e && strcmp(e->message, bad[i][1]) == 0);
            if (e && strcmp(e->message, bad[i][1]) != 0)
                fprintf(stderr, "# NUL: got '%s'\n", e->message);
            g_clear_error(&e);
            g_autofree char *path = NULL;
            int fd = g_file_open_tmp("pmusim-nul-XXXXXX.stim", &path, NULL);
            CU_ASSERT_FATAL(fd >= 0);
            close(fd);
            CU_ASSERT_TRUE(g_file_set_contents(path, g->str, (gssize)g->len, NULL));
            g_autoptr(PmsSim) s = fx_sim(fx_model("wsm"), PMS_SIM_FAST);
            CU_ASSERT_FALSE(pms_stim_run_file(fx_model("wsm"), path, s, &e));
            g_autofree char *want = g_strdup_printf("%s%s", path, bad[i][1] + 6);
            CU_ASSERT_TRUE(e && strcmp(e->message, want) == 0);
            g_clear_error(&e);
            g_unlink(path);
            g_string_free(g, TRUE);
            continue;
        }
        msg = NULL;
        CU_ASSERT_FALSE(both_ways(bad[i][0], &c0, &c1, &msg));
        if (!msg || !g_str_has_prefix(msg, bad[i][1]))
            fprintf(stderr, "# case %u: got '%s'\n", i, msg ? msg : "(none)");
        CU_ASSERT_TRUE(msg && g_str_has_prefix(msg, bad[i][1]));
        g_free(msg);
    }
    /* two keys of one length and the same first and last 8 bytes: one hash,
     * two signals (0xc0.0x01 and 0x3c.0x01, leading zeros) */
    GString *t = g_string_new(NULL);
    for (guint i = 0; i < 100; i++)
        g_string_append(t, "run 1 0x000000c0.0x00000001=1 0x0000003c.0x00000001=2\n");
    CU_ASSERT_TRUE(both_ways(t->str, &c0, &c1, &msg));
    CU_ASSERT_EQUAL(c0, 100);
    CU_ASSERT_EQUAL(c1, 200);
    g_free(msg);
    /* 5,000 distinct keys, more than the cache keeps (4,096): those past it
     * are resolved each time, and still counted */
    g_string_truncate(t, 0);
    for (guint line = 0; line < 25; line++) {
        g_string_append(t, "run 1");
        for (guint k = 0; k < 200; k++)
            g_string_append_printf(t, " 0x%x.0x02=1", 0x1000 + line * 200 + k);
        g_string_append(t, "\n");
    }
    for (guint i = 0; i < 3; i++)
        g_string_append(t, "run 1 0x3c.0x01=1 0x1001.0x02=1 0xc0.0x01=2 0x2387.0x02=1\n");
    CU_ASSERT_TRUE(both_ways(t->str, &c0, &c1, &msg));
    CU_ASSERT_EQUAL(c0, 6);
    CU_ASSERT_EQUAL(c1, 3);
    g_free(msg);
    /* a field of 1 MiB: its key is hashed and refused whole */
    g_string_truncate(t, 0);
    g_string_append(t, "run 1 ");
    for (guint i = 0; i < 1024 * 1024; i++)
        g_string_append_c(t, "AB"[i % 2]);
    g_string_append(t, "=1");
    CU_ASSERT_FALSE(both_ways(t->str, &c0, &c1, &msg));
    CU_ASSERT_TRUE(msg && g_str_has_prefix(msg, "t.stim:4: unknown signal 'ABABAB"));
    g_free(msg);
    g_string_free(t, TRUE);
    /* the record keyword: runs, another record, runs again; a word that
     * starts like the last one is not it */
    CU_ASSERT_TRUE(
        both_ways("run 1 0xc0.0x01=1\nread IA32_PMC0 1\nrun 1 0xc0.0x01=1\nread IA32_PMC0 2", &c0, &c1, &msg));
    CU_ASSERT_EQUAL(c0, 2);
    g_free(msg);
    CU_ASSERT_FALSE(both_ways("run 1\nrunx 1", &c0, &c1, &msg));
    CU_ASSERT_TRUE(msg && g_str_has_prefix(msg, "t.stim:5: unknown record 'runx': expected run, write"));
    g_free(msg);
    CU_ASSERT_FALSE(both_ways("run 1\nru 1", &c0, &c1, &msg));
    CU_ASSERT_TRUE(msg && g_str_has_prefix(msg, "t.stim:5: unknown record 'ru': expected run, write"));
    g_free(msg);
}

/* sim_parse_u64 (issue 21: a hand loop, as g_ascii_strtoull took them):
 * decimal or 0x hex, digits only, within 64 bits; sim_parse_u64_n reads n
 * bytes without a NUL. */
static void test_parse_u64(void)
{
    static const struct {
        const char *s;
        gboolean ok;
        guint64 v;
    } cases[] = {
        { "0", TRUE, 0 },
        { "007", TRUE, 7 },
        { "18446744073709551615", TRUE, G_MAXUINT64 },
        { "18446744073709551616", FALSE, 0 },
        { "99999999999999999999", FALSE, 0 },
        { "0xffffffffffffffff", TRUE, G_MAXUINT64 },
        { "0XFFFFFFFFFFFFFFFF", TRUE, G_MAXUINT64 },
        { "0x00000000000000000001", TRUE, 1 },
        { "0x10000000000000000", FALSE, 0 },
        { "0X1f", TRUE, 31 },
        { "0x", FALSE, 0 },
        { "0xg", FALSE, 0 },
        { "0x0x1", FALSE, 0 },
        { "", FALSE, 0 },
        { "+1", FALSE, 0 },
        { "-1", FALSE, 0 },
        { " 1", FALSE, 0 },
        { "1 ", FALSE, 0 },
        { "1a", FALSE, 0 },
        { "12", TRUE, 12 },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        guint64 v = 4711;
        gboolean ok = sim_parse_u64(cases[i].s, &v);
        if (ok != cases[i].ok)
            fprintf(stderr, "# '%s': %d\n", cases[i].s, ok);
        CU_ASSERT_EQUAL(ok, cases[i].ok);
        CU_ASSERT_EQUAL(v, cases[i].ok ? cases[i].v : 4711); /* untouched on failure */
    }
    guint64 v = 0;
    CU_ASSERT_TRUE(sim_parse_u64_n("12,34", 2, &v) && v == 12);
    CU_ASSERT_TRUE(sim_parse_u64_n("0x1f,", 4, &v) && v == 31);
    CU_ASSERT_FALSE(sim_parse_u64_n("0x1f,", 2, &v));
    CU_ASSERT_FALSE(sim_parse_u64_n(",1", 0, &v));
    CU_ASSERT_FALSE(sim_parse_u64(NULL, &v));
}

void register_stimulus_tests(void)
{
    CU_pSuite s = CU_add_suite("sim stimulus", NULL, NULL);
    CU_add_test(s, "file scenario: preload, PMI cycle, frozen counters", test_file_scenario);
    CU_add_test(s, "text features: threads, CPL, offcore, loads, values", test_text_features);
    CU_add_test(s, "registers of every space: names and SPACE:NUMBER", test_register_spaces);
    CU_add_test(s, "builder API", test_api);
    CU_add_test(s, "signal names", test_signal_names);
    CU_add_test(s, "bad inputs name file:line", test_bad_inputs);
    CU_add_test(s, "execution errors name the line", test_exec_errors);
    CU_add_test(s, "numbers with a leading 0 are decimal; inflight on glm", test_decimal_numbers);
    CU_add_test(s, "a PMI mismatch over many cycles is bounded", test_pmi_mismatch_bounded);
    CU_add_test(s, "a stimulus file run as it is read", test_run_file_streaming);
    CU_add_test(s, "the reader: a pipe read once, its limits and NUL bytes (issue 20)", test_reader);
    CU_add_test(s, "the tokenizer's edges and the run keys resolved once (issue 21)", test_tokenizer_edges);
    CU_add_test(s, "numbers: digits only, within 64 bits (issue 21)", test_parse_u64);
}
