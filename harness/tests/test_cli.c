/* CLI tests: one consistent command line (short options, --pmu, --version,
 * help texts, exit statuses) and what list, decode and encode print for
 * people and programs (issue 9).
 *
 * Run by meson as: test_cli PMUSIM */
#include "cu_tap.h"

#include <gio/gio.h>
#include <stdio.h>
#include <string.h>

static const char *pmusim_path;

typedef struct {
    int status; /* exit status, or -1 when killed by a signal */
    char *out;
    char *err;
} Run;

static void run_clear(Run *r)
{
    g_free(r->out);
    g_free(r->err);
}

/* Run pmusim with args (NULL-terminated) under the environment variable
 * env ("NAME=VALUE", or NULL) and empty stdin. */
static Run run_env(const char *env, ...)
{
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    g_ptr_array_add(argv, (gpointer)pmusim_path);
    va_list ap;
    va_start(ap, env);
    for (const char *a; (a = va_arg(ap, const char *)) != NULL;)
        g_ptr_array_add(argv, (gpointer)a);
    va_end(ap);
    g_ptr_array_add(argv, NULL);
    g_autoptr(GSubprocessLauncher) l = g_subprocess_launcher_new(
        G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
    if (env) {
        g_auto(GStrv) kv = g_strsplit(env, "=", 2);
        g_subprocess_launcher_setenv(l, kv[0], kv[1], TRUE);
    }
    g_autoptr(GError) err = NULL;
    g_autoptr(GSubprocess) p = g_subprocess_launcher_spawnv(l, (const char *const *)argv->pdata, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    Run r = { -1, NULL, NULL };
    g_autofree char *errs = NULL;
    CU_ASSERT_FATAL(g_subprocess_communicate_utf8(p, "", NULL, &r.out, &errs, &err));
    if (g_subprocess_get_if_exited(p))
        r.status = g_subprocess_get_exit_status(p);
    r.err = pms_cu_strip_gcov(errs ? errs : "");
    if (!r.out)
        r.out = g_strdup("");
    return r;
}

#define run_cli(...) run_env(NULL, __VA_ARGS__)

static guint count_lines(const char *s)
{
    guint n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* ---- D: one consistent CLI -------------------------------------------- */

static void test_version(void)
{
    const char *forms[] = { "--version", "-V" };
    for (gsize i = 0; i < G_N_ELEMENTS(forms); i++) {
        Run r = run_cli(forms[i], NULL);
        CU_ASSERT_EQUAL(r.status, 0);
        CU_ASSERT_TRUE(g_regex_match_simple("^pmusim [0-9]+\\.[0-9]+\\.[0-9]+\n$", r.out, 0, 0));
        CU_ASSERT_STRING_EQUAL(r.err, "");
        run_clear(&r);
    }
    Run r = run_cli("--versio", NULL); /* not a command: usage error, one line */
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
    run_clear(&r);
}

static void test_help_locale(void)
{
    /* under a UTF-8 locale GLib's help says [OPTION…], not [OPTION?] */
    Run r = run_env("LC_ALL=C.UTF-8", "decode", "--help", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "[OPTION\xe2\x80\xa6]"));
    CU_ASSERT_PTR_NULL(strstr(r.out, "[OPTION?]"));
    run_clear(&r);
}

/* Option arguments are UTF-8 whatever the locale (issue 20 item 13: in a
 * Latin-1 locale GOption converted the UTF-8 bytes of 'é' to 'Ã©', and in
 * the C locale it refused them as "Invalid byte sequence in conversion
 * input"): the message names the PMU with the bytes given. */
static void test_utf8_arguments(void)
{
    static const char *const locales[] = { "LC_ALL=C", "LC_ALL=C.UTF-8" };
    for (guint i = 0; i < G_N_ELEMENTS(locales); i++) {
        Run r =
            run_env(locales[i], "sim", "--pmu", "ws\xc3\xa9", "-e", "INST_RETIRED:ANY_P", "--occurrences", "1", NULL);
        CU_ASSERT_EQUAL(r.status, 2);
        CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "unknown PMU 'ws\xc3\xa9'"));
        CU_ASSERT_PTR_NULL(strstr(r.err, "\xc3\x83"));
        CU_ASSERT_PTR_NULL(strstr(r.err, "Invalid byte sequence"));
        run_clear(&r);
    }
}

/* Every command's --help: its options, its exit statuses, its examples. */
static const char *const helps[][2] = {
    { "encode", NULL },  { "decode", NULL },   { "list", NULL },      { "lint", NULL },
    { "conform", NULL }, { "diff", NULL },     { "sim", NULL },       { "explain", NULL },
    { "ranges", NULL },  { "dispatch", NULL }, { "bench", "encode" }, { "bench", "sim" },
};

static void test_short_options(void)
{
    /* a short option means the same long option in every command */
    g_autoptr(GHashTable) meaning = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_autoptr(GRegex) opt = g_regex_new("^  -(.), --([a-z-]+)", G_REGEX_MULTILINE, 0, NULL);
    for (gsize i = 0; i < G_N_ELEMENTS(helps); i++) {
        Run r = helps[i][1] ? run_cli(helps[i][0], helps[i][1], "--help", NULL) : run_cli(helps[i][0], "--help", NULL);
        CU_ASSERT_EQUAL(r.status, 0);
        g_autoptr(GMatchInfo) mi = NULL;
        for (g_regex_match(opt, r.out, 0, &mi); g_match_info_matches(mi); g_match_info_next(mi, NULL)) {
            g_autofree char *s = g_match_info_fetch(mi, 1), *l = g_match_info_fetch(mi, 2);
            if (strcmp(s, "h") == 0)
                continue;
            const char *before = g_hash_table_lookup(meaning, s);
            if (before && strcmp(before, l) != 0)
                fprintf(stderr, "# %s: -%s is --%s, elsewhere --%s\n", helps[i][0], s, l, before);
            CU_ASSERT(before == NULL || strcmp(before, l) == 0);
            if (!before)
                g_hash_table_insert(meaning, g_strdup(s), g_strdup(l));
        }
        /* every help states the exit statuses and gives an example */
        CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\nExit status: 0 "));
        CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Examples:\n  pmusim "));
        /* --pmu wherever an event string is taken, always as -p */
        if (strcmp(helps[i][0], "encode") == 0 || strcmp(helps[i][0], "explain") == 0 ||
            strcmp(helps[i][0], "sim") == 0 || strcmp(helps[i][0], "ranges") == 0 ||
            strcmp(helps[i][0], "dispatch") == 0) {
            if (!strstr(r.out, "  -p, --pmu=PMU"))
                fprintf(stderr, "# %s: no -p, --pmu\n", helps[i][0]);
            CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "  -p, --pmu=PMU"));
        }
        run_clear(&r);
    }
}

static void test_pmu_option(void)
{
    Run a = run_cli("encode", "wsm::INST_RETIRED:ANY_P:u", NULL);
    Run b = run_cli("encode", "-p", "wsm", "INST_RETIRED:ANY_P:u", NULL);
    CU_ASSERT_EQUAL(b.status, 0);
    CU_ASSERT_STRING_EQUAL(a.out, b.out);
    run_clear(&a);
    run_clear(&b);
    /* another PMU in the string than --pmu: a usage error */
    Run r = run_cli("encode", "--pmu", "wsm", "glm::INST_RETIRED:ANY_P", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
    run_clear(&r);
    /* batch lines are whole event strings (the protocol) */
    r = run_cli("encode", "--batch", "--pmu", "wsm", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
    run_clear(&r);
    a = run_cli("ranges", "--code", "-e", "IA64_TAGGED_INST_RETIRED_IBRP0_PMC32_33", "0x10010-0x10030", NULL);
    b = run_cli("ranges", "--code", "-p", "montecito", "-e", "montecito::IA64_TAGGED_INST_RETIRED_IBRP0_PMC32_33",
                "0x10010-0x10030", NULL);
    CU_ASSERT_EQUAL(b.status, 0);
    CU_ASSERT_STRING_EQUAL(a.out, b.out);
    run_clear(&a);
    run_clear(&b);
    r = run_cli("ranges", "--code", "-p", "wsm", "0x10010-0x10030", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
    run_clear(&r);
    r = run_cli("dispatch", "-p", "montecito", "-e", "CPU_OP_CYCLES_ALL", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "counter CPU_OP_CYCLES_ALL=PMC"));
    run_clear(&r);
}

static void test_explain_error_class(void)
{
    /* the same line as encode's: 'STRING': PFM_ERR_class: message */
    Run e = run_cli("encode", "wsm::NO_SUCH_EVENT", NULL);
    Run x = run_cli("explain", "wsm::NO_SUCH_EVENT", NULL);
    CU_ASSERT_EQUAL(x.status, 1);
    CU_ASSERT_EQUAL(count_lines(x.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(x.err, "'wsm::NO_SUCH_EVENT': PFM_ERR_NOTFOUND: "));
    CU_ASSERT_STRING_EQUAL(e.err, x.err);
    run_clear(&e);
    run_clear(&x);
    x = run_cli("explain", "wsm::INST_RETIRED:ANY_P:c=256", NULL);
    CU_ASSERT_EQUAL(x.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(x.err, ": PFM_ERR_ATTR_VAL: "));
    run_clear(&x);
}

/* skl's new bits in words (docs/semantics.md §8d): IN_TXCP on counter 2,
 * IN_TX, MSR_PEBS_FRONTEND's sub-event and IDQ bubbles */
static void test_explain_skl(void)
{
    Run x = run_cli("explain", "skl::INST_RETIRED:ANY_P:intxcp", NULL);
    CU_ASSERT_EQUAL(x.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(x.out, "counter: general counter 2,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(x.out, "in_txcp=1: at a transaction abort the counter returns"));
    run_clear(&x);
    x = run_cli("explain", "skl::INST_RETIRED:ANY_P:intx", NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(x.out, "counter: general counter 0,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(x.out, "in_tx=1: counts only in cycles inside a transactional region"));
    run_clear(&x);
    x = run_cli("explain", "skl::FRONTEND_RETIRED:IDQ_2_BUBBLES:fe_thres=3", NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(x.out,
                                  "MSR_PEBS_FRONTEND = 0x200306: retired instructions delivered after at "
                                  "least 3 cycles with at least 2 of the 4 issue slots empty"));
    run_clear(&x);
    x = run_cli("explain", "skl::FRONTEND_RETIRED:STLB_MISS", NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(x.out, "MSR_PEBS_FRONTEND = 0x15: retired instructions that had an STLB miss"));
    run_clear(&x);
    x = run_cli("explain", "glm::INST_RETIRED:ANY_P", NULL);
    CU_ASSERT_PTR_NULL(strstr(x.out, "transactions:"));
    CU_ASSERT_PTR_NULL(strstr(x.out, "front end:"));
    run_clear(&x);
}

/* ---- A: list ------------------------------------------------------------ */

static void test_list_names_encode(void)
{
    /* every printed string encodes as printed (the load-latency unit mask
     * gets the smallest threshold it takes) */
    Run r = run_cli("list", "--names", NULL);
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    g_auto(GStrv) names = g_strsplit(r.out, "\n", -1);
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    g_ptr_array_add(argv, (gpointer)pmusim_path);
    g_ptr_array_add(argv, (gpointer) "encode");
    for (char **n = names; *n && **n; n++)
        g_ptr_array_add(argv, *n);
    CU_ASSERT(argv->len > 3000);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\nwsm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=3\n"));
    g_ptr_array_add(argv, NULL);
    g_autoptr(GError) err = NULL;
    g_autoptr(GSubprocess) p = g_subprocess_newv(
        (const char *const *)argv->pdata, G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    g_autofree char *errs = NULL;
    CU_ASSERT_FATAL(g_subprocess_communicate_utf8(p, NULL, NULL, NULL, &errs, &err));
    g_autofree char *errs_clean = pms_cu_strip_gcov(errs ? errs : "");
    if (*errs_clean)
        fprintf(stderr, "# %s", errs_clean);
    CU_ASSERT_STRING_EQUAL(errs_clean, "");
    CU_ASSERT_TRUE(g_subprocess_get_if_exited(p) && g_subprocess_get_exit_status(p) == 0);
    run_clear(&r);
    /* one event without a default unit mask: its unit masks, each encodable */
    r = run_cli("list", "--names", "wsm", "MEM_INST_RETIRED", "INST_RETIRED", NULL);
    CU_ASSERT_STRING_EQUAL(r.out,
                           "wsm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=3\n"
                           "wsm::MEM_INST_RETIRED:LOADS\nwsm::MEM_INST_RETIRED:STORES\nwsm::INST_RETIRED\n");
    run_clear(&r);
}

static void test_list_grep(void)
{
    Run a = run_cli("list", "wsm", "--grep", "cache", NULL);
    Run b = run_cli("list", "wsm", "-g", "CaChE", NULL);
    CU_ASSERT_EQUAL(a.status, 0);
    CU_ASSERT_STRING_EQUAL(a.out, b.out); /* any case */
    CU_ASSERT_PTR_NOT_NULL(strstr(a.out, "\n    LONGEST_LAT_CACHE "));
    CU_ASSERT_PTR_NOT_NULL(strstr(a.out, "\n    CACHE_LOCK_CYCLES "));
    CU_ASSERT_PTR_NULL(strstr(a.out, "INST_RETIRED"));
    run_clear(&a);
    run_clear(&b);
    /* --names and every PMU */
    a = run_cli("list", "--names", "--grep", "longest_lat", NULL);
    CU_ASSERT_EQUAL(a.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(a.out, "wsm::LONGEST_LAT_CACHE:MISS\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(a.out, "nhm::"));
    CU_ASSERT_PTR_NULL(strstr(a.out, "INST_RETIRED"));
    run_clear(&a);
    /* descriptions too: the C-Box models carry them */
    a = run_cli("list", "nhmex_cbox0", "--names", "--grep", "victim", NULL);
    CU_ASSERT_EQUAL(a.status, 0);
    CU_ASSERT(count_lines(a.out) > 0);
    run_clear(&a);
    /* nothing matched: exit 1, nothing printed (as grep) */
    a = run_cli("list", "wsm", "--grep", "no such text", NULL);
    CU_ASSERT_EQUAL(a.status, 1);
    CU_ASSERT_STRING_EQUAL(a.out, "");
    run_clear(&a);
}

/* `list PMU EVENT` says as much as the full listing, in its words: the
 * facts line (counters 0-3, fixed counter 0 by index, PEBS), each unit mask
 * with its alias and description (issue 18). */
static void test_list_one_event(void)
{
    Run r = run_cli("list", "wsm", "INST_RETIRED", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(
        g_str_has_prefix(r.out, "wsm::INST_RETIRED\n  facts       code 0xc0  counters 0-3  fixed 0  PEBS\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\n  counters    0-3 (mask 0xf)\n  fixed       0 (mask 0x1)\n"));
    CU_ASSERT_TRUE(g_regex_match_simple("\n  :ANY +0x1 +default = ANY_P +Instructions retired \\(Programmable "
                                        "counter and Precise Event\\)\n",
                                        r.out, 0, 0));
    CU_ASSERT_TRUE(g_regex_match_simple("\n  :TOTAL_CYCLES +0x1 += ANY_P:c=16:i=1 ", r.out, 0, 0));
    run_clear(&r);
    /* an event's own description right under its name */
    r = run_cli("list", "icl", "TOPDOWN_M", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(g_regex_match_simple("^icl::TOPDOWN_M\n  [A-Z][^\n]+\n  facts       code 0x00  counters -  fixed 3",
                                        r.out, 0, 0));
    run_clear(&r);
}

static void test_list_details(void)
{
    Run r = run_cli("list", "wsm", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    /* modifiers with their ranges */
    CU_ASSERT_TRUE(g_regex_match_simple("\n    c +0\\.\\.255 +counter mask", r.out, 0, 0));
    CU_ASSERT_TRUE(g_regex_match_simple("\n    ldlat +3\\.\\.65535 ", r.out, 0, 0));
    /* INST_RETIRED: event 0xc0, any generic counter and fixed counter 0, PEBS;
     * TOTAL_CYCLES is the alias ANY_P with c=16 i=1 */
    CU_ASSERT_TRUE(g_regex_match_simple("\n    INST_RETIRED +code 0xc0  counters 0-3  fixed 0  PEBS\n", r.out, 0, 0));
    CU_ASSERT_TRUE(g_regex_match_simple("\n      :TOTAL_CYCLES +0x1 += ANY_P:c=16:i=1( [^\n]*)?\n", r.out, 0, 0));
    CU_ASSERT_TRUE(g_regex_match_simple("\n      :ANY +0x1 +default = ANY_P( [^\n]*)?\n", r.out, 0, 0));
    CU_ASSERT_TRUE(
        g_regex_match_simple("\n      :LATENCY_ABOVE_THRESHOLD +0x10 +needs ldlat( [^\n]*)?\n", r.out, 0, 0));
    /* each unit mask with Intel's description (its event JSON, models/LICENSE.intel-perfmon) */
    CU_ASSERT_TRUE(g_regex_match_simple("\n      :ANY +0x1 +default = ANY_P +Instructions retired \\(Programmable "
                                        "counter and Precise Event\\)\n",
                                        r.out, 0, 0));
    CU_ASSERT_TRUE(g_regex_match_simple("\n    OFFCORE_RESPONSE_0 +code 0xb7  counters 0-3  umask 0x01  extra "
                                        "MSR_OFFCORE_RSP_0\n",
                                        r.out, 0, 0));
    CU_ASSERT_FALSE(g_regex_match_simple(" \n", r.out, 0, 0)); /* no trailing blanks */
    run_clear(&r);
    r = run_cli("list", "--format=json", "wsm", "INST_RETIRED", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(g_str_has_prefix(r.out, "[\n  {\"name\": \"wsm\", "));
    CU_ASSERT_TRUE(g_str_has_suffix(r.out, "]}\n]\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "{\"name\": \"c\", \"type\": \"int\", \"min\": 0, \"max\": 255}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "{\"name\": \"INST_RETIRED\", \"code\": 192, "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"pebs\": true"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
                                  "{\"name\": \"TOTAL_CYCLES\", \"value\": \"0x1\", \"default\": false, "
                                  "\"exclusive\": false, \"needs_ldlat\": false, \"group\": null, \"forced\": "
                                  "{\"c\": 16, \"i\": 1}, \"alias_of\": \"ANY_P:c=16:i=1\""));
    CU_ASSERT_PTR_NULL(strstr(r.out, "UOPS_ISSUED")); /* that event only */
    run_clear(&r);
    r = run_cli("list", "--format=xml", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
    run_clear(&r);
}

/* ---- B: decode says what is missing ------------------------------------ */

static void test_decode_says_what_is_missing(void)
{
    /* event 0xb7 umask 0x01 is OFFCORE_RESPONSE_0: its request and response
     * bits are in MSR_OFFCORE_RSP_0, not in the event select */
    Run r = run_cli("decode", "wsm", "0x5301b7", NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_STRING_EQUAL(r.out, "");
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "wsm::OFFCORE_RESPONSE_0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "MSR_OFFCORE_RSP_0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "EXTRA"));
    run_clear(&r);
    /* MEM_INST_RETIRED umask 0x10 is the load-latency unit mask: its threshold */
    r = run_cli("decode", "wsm", "0x53100b", NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "LATENCY_ABOVE_THRESHOLD"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "MSR_PEBS_LD_LAT"));
    run_clear(&r);
    /* an EXTRA the event takes, outside the range of the modifier writing it
     * (ldlat >= 3): that is the problem, not "takes no extra" */
    r = run_cli("decode", "wsm", "0x53100b", "2", NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "threshold = 2 in MSR_PEBS_LD_LAT, outside 3..65535"));
    CU_ASSERT_PTR_NULL(strstr(r.err, "takes no extra"));
    run_clear(&r);
    /* an EXTRA for an event that takes none */
    r = run_cli("decode", "wsm", "0x5301c0", "5", NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "wsm::INST_RETIRED:ANY_P"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "takes no extra register value"));
    run_clear(&r);
    /* bit 32 of IA32_PERFEVTSEL0 is reserved on Westmere (writable 0xffffffff) */
    r = run_cli("decode", "wsm", "0x1005301c0", NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "bits 0x100000000"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "IA32_PERFEVTSEL0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "#GP"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "without them it is wsm::INST_RETIRED:ANY_P:"));
    run_clear(&r);
    /* EN (22) clear, PC (19) set: the string cannot carry them, the lines after it do */
    r = run_cli("decode", "wsm", "0x1b01c0", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(g_str_has_prefix(r.out, "wsm::INST_RETIRED:ANY_P:k=1:u=1:e=0:i=0:c=0:t=0\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
                                  "\n  en=0 in IA32_PERFEVTSEL0 (the string encodes en=1): the counter is "
                                  "disabled"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\n  pc=1 in IA32_PERFEVTSEL0"));
    CU_ASSERT_PTR_NULL(strstr(r.out, "int=")); /* INT as the string encodes it */
    run_clear(&r);
    /* INT (20) clear on the uncore */
    r = run_cli("decode", "nhm_unc", "0x400309", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
                                  "\n  int=0 in MSR_UNCORE_PERFEVTSEL0 (the string encodes int=1): an "
                                  "overflow raises no PMI\n"));
    run_clear(&r);
    /* bits the C-Box event select ignores (16, 19 of 0x9fffffff002b0000):
     * not compared, named on a line of their own */
    r = run_cli("decode", "nhmex_cbox0", "0x490714", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(g_str_has_prefix(r.out, "nhmex_cbox0::LLC_MISSES:ALL:e=0:i=0:t=0:pmi=0\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\n  bits 0x90000 in C0_MSR_PMON_EVT_SEL0 are ignored"));
    run_clear(&r);
    /* its PMI enable (bit 20) is the pmi modifier: compared, in the string */
    r = run_cli("decode", "nhmex_cbox0", "0x500714", NULL);
    CU_ASSERT_STRING_EQUAL(r.out, "nhmex_cbox0::LLC_MISSES:ALL:e=0:i=0:t=0:pmi=1\n");
    run_clear(&r);
    /* EN and INT as encoded: the one line, as before */
    r = run_cli("decode", "wsm", "0x5301c0", NULL);
    CU_ASSERT_STRING_EQUAL(r.out, "wsm::INST_RETIRED:ANY_P:k=1:u=1:e=0:i=0:c=0:t=0\n");
    run_clear(&r);
}

/* ---- did you mean: the closest known name to a misspelt one ------------- */

static void expect_hint(const char *cmd, const char *a1, const char *a2, int status, const char *hint)
{
    Run r = run_cli(cmd, a1, a2, NULL);
    if (r.status != status || !strstr(r.err, hint))
        printf("# pmusim %s %s %s: status %d, stderr %s# want '%s'\n", cmd, a1, a2 ? a2 : "", r.status, r.err, hint);
    CU_ASSERT_EQUAL(r.status, status);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, hint));
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
    run_clear(&r);
}

static void test_did_you_mean(void)
{
    /* the unknown part of an event string, each kind */
    expect_hint("encode", "wsm::INST_RETIRD:ANY_P", NULL, 1, "(did you mean 'wsm::INST_RETIRED'?)");
    expect_hint("encode", "wsm::INST_RETIRED:ANYP", NULL, 1, "(did you mean 'ANY_P' for 'ANYP'?)");
    expect_hint("encode", "wsm::INST_RETIRED:ANY_P:cc=1", NULL, 1, "(did you mean 'c' for 'cc'?)");
    expect_hint("encode", "wsmm::INST_RETIRED", NULL, 1, "(did you mean 'wsm::INST_RETIRED'?)");
    expect_hint("explain", "glm::INST_RETIRD", NULL, 1, "did you mean 'glm::INST_RETIRED'?");
    /* commands, PMUs and events named on the command line */
    expect_hint("lst", NULL, NULL, 2, "did you mean 'list'?");
    expect_hint("list", "wsmm", NULL, 2, "did you mean wsm?");
    expect_hint("list", "wsm", "INST_RETIRD", 2, "did you mean INST_RETIRED?");
    /* nothing close: no guess */
    Run r = run_cli("encode", "wsm::ZZZZZ", NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NULL(strstr(r.err, "did you mean"));
    run_clear(&r);
}

/* ---- conventions: help CMD, a --grep miss, refused combinations -------- */

static void test_conventions(void)
{
    Run r = run_cli("help", "conform", NULL); /* the command's own help */
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pmusim conform [OPTION"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Examples:"));
    run_clear(&r);
    r = run_cli("help", "lst", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "did you mean 'list'?"));
    run_clear(&r);
    r = run_cli("list", "--grep", "no_such_thing_anywhere", NULL); /* exit 1 as grep, one line says why */
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_STRING_EQUAL(r.out, "");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--grep 'no_such_thing_anywhere' matched no event"));
    run_clear(&r);
    /* the mutant report is no list of test cases: --tap/--junit refused, not ignored */
    r = run_cli("conform", "--mutants", "--tap", "nhm_unc", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--junit and --tap do not apply"));
    run_clear(&r);
    /* --junit -: the report on stdout (not a file named '-'), the table on stderr */
    r = run_cli("conform", "--junit", "-", "nhm_unc", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(g_str_has_prefix(r.out, "<?xml"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "</testsuites>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "nhm_unc"));
    CU_ASSERT_FALSE(g_file_test("-", G_FILE_TEST_EXISTS));
    run_clear(&r);
    r = run_cli("conform", "--junit", "-", "--tap", "nhm_unc", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    run_clear(&r);
    /* --timeout 0 used to mean the default 10 s silently */
    r = run_cli("diff", "--backend", "builtin", "--backend", "builtin", "--timeout", "0", "nhm_unc", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--timeout 0: expected a positive number"));
    run_clear(&r);
}

/* ---- C: encode forms that must not change what is counted -------------- */

static void test_perf_refusals(void)
{
    /* perf's cpu/.../ without :u or :k counts at both levels: no string says "neither" */
    Run r = run_cli("encode", "--format=perf", "wsm::INST_RETIRED:ANY_P:u=0:k=0", NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_STRING_EQUAL(r.out, "");
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "k=0 and u=0"));
    run_clear(&r);
    /* the uncore's OCC_CTR_RST has no perf term */
    r = run_cli("encode", "--format=perf", "nhm_unc::UNC_LLC_MISS:ANY:o", NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_STRING_EQUAL(r.out, "");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "o=1"));
    run_clear(&r);
    /* the Nehalem uncore is perf's "uncore" PMU, not cpu: event 0x09 umask
     * 0x03 (SDM Table 19-18), cmask 2 at bit 24, inv bit 23 */
    r = run_cli("encode", "--format=perf", "nhm_unc::UNC_LLC_MISS:ANY:c=2:i", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\n  uncore/event=0x09,umask=0x03,cmask=2,inv/\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\n  uncore/config=0x2800309/\n"));
    CU_ASSERT_PTR_NULL(strstr(r.out, "cpu/"));
    run_clear(&r);
    /* one privilege level is fine, and the other strings still print */
    r = run_cli("encode", "--format=perf", "wsm::INST_RETIRED:ANY_P:k", "wsm::INST_RETIRED:ANY_P:u=0:k=0", NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "cpu/event=0xc0,umask=0x01/k\n"));
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
    run_clear(&r);
}

static void test_encode_json(void)
{
    /* OFFCORE_RESPONSE_0 is event 0xb7 umask 0x01 with its request and
     * response bits in MSR_OFFCORE_RSP_0 (0x1a6) */
    Run r = run_cli("encode", "--format=json", "wsm::OFFCORE_RESPONSE_0:ANY_DATA:LOCAL_DRAM", "wsm::NO_SUCH",
                    "wsm::\"q\"\x01", NULL);
    CU_ASSERT_EQUAL(r.status, 1); /* two of them are errors */
    CU_ASSERT_TRUE(g_str_has_prefix(r.out, "[\n  {\"event\": \"wsm::OFFCORE_RESPONSE_0:ANY_DATA:LOCAL_DRAM\", "));
    CU_ASSERT_TRUE(g_str_has_suffix(r.out, "}\n]\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"codes\": [\"0x5301b7\", \"0x2033\"]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
                                  "{\"register\": \"MSR_OFFCORE_RSP_0\", \"address\": 422, "
                                  "\"value\": \"0x2033\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"event\": 183, \"umask\": 1, \"usr\": 1, \"os\": 1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
                                  "{\"event\": \"wsm::NO_SUCH\", \"error\": \"PFM_ERR_NOTFOUND\", "
                                  "\"message\": \"column 6: "));
    /* quotes and control characters escaped */
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "{\"event\": \"wsm::\\\"q\\\"\\u0001\", \"error\": "));
    CU_ASSERT_EQUAL(count_lines(r.err), 2);
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
    CU_pSuite s = CU_add_suite("cli", NULL, NULL);
    CU_add_test(s, "--version and -V", test_version);
    CU_add_test(s, "help in the user's locale", test_help_locale);
    CU_add_test(s, "option arguments are UTF-8 in any locale", test_utf8_arguments);
    CU_add_test(s, "short options, exit statuses and examples in every --help", test_short_options);
    CU_add_test(s, "--pmu wherever an event string is taken", test_pmu_option);
    CU_add_test(s, "explain errors carry the PFM_ERR_ class", test_explain_error_class);
    CU_add_test(s, "list --names: every string encodes", test_list_names_encode);
    CU_add_test(s, "list --grep", test_list_grep);
    CU_add_test(s, "list: counters, PEBS, aliases, ranges; --format=json", test_list_details);
    CU_add_test(s, "list PMU EVENT: the full listing's facts", test_list_one_event);
    CU_add_test(s, "decode: missing EXTRA, reserved bits, EN/INT/PC", test_decode_says_what_is_missing);
    CU_add_test(s, "encode --format=perf refuses what perf cannot count the same", test_perf_refusals);
    CU_add_test(s, "encode --format=json", test_encode_json);
    CU_add_test(s, "did you mean: commands, PMUs, events, unit masks, modifiers", test_did_you_mean);
    CU_add_test(s, "help CMD, --grep miss, --mutants with --tap, --timeout 0", test_conventions);
    CU_add_test(s, "explain: skl's IN_TX, IN_TXCP and MSR_PEBS_FRONTEND in words", test_explain_skl);
    return pms_cu_tap_run();
}
