/* pmusim — vectors/ tests: the parser on good and bad text (file:line in every
 * error), the directory loader, the built-in set, and the runner counting
 * passes and failures against a fake encoder. */
#include <CUnit/CUnit.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cu_tap.h"
#include "vectors.h"

static PmsVectorSet *parse_ok(const char *text)
{
    PmsVectorSet *set = pms_vector_set_new();
    GError *err = NULL;
    gboolean ok = pms_vector_set_parse(set, PMS_VECTOR_ENCODE, text, strlen(text), "t.enc", "tst", &err);
    if (!ok)
        g_printerr("# unexpected error: %s\n", err->message);
    CU_ASSERT_TRUE(ok);
    g_clear_error(&err);
    return set;
}

/* Parse text that must fail; return the message (caller frees). */
static char *parse_bad(const char *text)
{
    g_autoptr(PmsVectorSet) set = pms_vector_set_new();
    GError *err = NULL;
    gboolean ok = pms_vector_set_parse(set, PMS_VECTOR_ENCODE, text, strlen(text), "bad.enc", "tst", &err);
    CU_ASSERT_FALSE(ok);
    CU_ASSERT_EQUAL(pms_vector_set_count(set), 0); /* nothing half-added */
    if (!err)
        return g_strdup("");
    CU_ASSERT_TRUE(g_error_matches(err, PMS_VECTOR_ERROR, PMS_VECTOR_ERROR_PARSE));
    char *msg = g_strdup(err->message);
    g_error_free(err);
    return msg;
}

static void test_parse_good(void)
{
    g_autoptr(PmsVectorSet) set =
        parse_ok("# comment\n"
                 "\n"
                 "\"wsm::INST_RETIRED:X87\" PFM_SUCCESS 0x5302c0 src json:x.json:INST_RETIRED.X87\n"
                 "  \"wsm::OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM\"\tPFM_SUCCESS 0x5301b7,0x2001 "
                 "fstr \"wsm::A:k=1\" src sdm:18-26\n"
                 "\"a\\x41\\\\\\\"\\t\\r\" 3*\"ab\" \"z\" PFM_ERR_ATTR - src class: libpfm4 convention   \n"
                 "\"\" PFM_ERR_NOTFOUND - src empty\n"
                 "\"x\" BACKEND_CRASH - src libpfm4 4.13 bug\n");
    CU_ASSERT_EQUAL_FATAL(pms_vector_set_count(set), 5);
    const PmsVector *v = pms_vector_set_nth(set, 0);
    CU_ASSERT_STRING_EQUAL(v->event, "wsm::INST_RETIRED:X87");
    CU_ASSERT_EQUAL(v->line, 3);
    CU_ASSERT_STRING_EQUAL(v->ret, "PFM_SUCCESS");
    CU_ASSERT_EQUAL(v->n_codes, 1);
    CU_ASSERT_EQUAL(v->codes[0], 0x5302c0);
    CU_ASSERT_PTR_NULL(v->fstr);
    CU_ASSERT_STRING_EQUAL(v->source, "json:x.json:INST_RETIRED.X87");
    CU_ASSERT_STRING_EQUAL(v->pmu, "tst");

    v = pms_vector_set_nth(set, 1);
    CU_ASSERT_EQUAL(v->line, 4);
    CU_ASSERT_EQUAL(v->n_codes, 2);
    CU_ASSERT_EQUAL(v->codes[1], 0x2001);
    CU_ASSERT_STRING_EQUAL(v->fstr, "wsm::A:k=1");

    v = pms_vector_set_nth(set, 2);
    CU_ASSERT_EQUAL(v->event_len, 6 + 6 + 1);
    CU_ASSERT_EQUAL(memcmp(v->event,
                           "aA\\\"\t\rababab"
                           "z",
                           13),
                    0);
    CU_ASSERT_EQUAL(v->n_codes, 0);
    CU_ASSERT_STRING_EQUAL(v->source, "class: libpfm4 convention"); /* trailing blanks trimmed */

    v = pms_vector_set_nth(set, 3);
    CU_ASSERT_EQUAL(v->event_len, 0);
    CU_ASSERT_STRING_EQUAL(pms_vector_set_nth(set, 4)->ret, "BACKEND_CRASH");
}

static void test_parse_long_and_bytes(void)
{
    g_autoptr(PmsVectorSet) set = parse_ok("\"wsm::\" 10240*\"A\" PFM_ERR_NOTFOUND - src long\n"
                                           "\"\\xff\\xfe\\xc3\\x28\" PFM_ERR_NOTFOUND - src utf8\n");
    const PmsVector *v = pms_vector_set_nth(set, 0);
    CU_ASSERT_EQUAL(v->event_len, 5 + 10240);
    CU_ASSERT_EQUAL(strlen(v->event), 5 + 10240);
    CU_ASSERT_EQUAL((guchar)v->event[5 + 10239], 'A');
    v = pms_vector_set_nth(set, 1);
    CU_ASSERT_EQUAL(v->event_len, 4);
    CU_ASSERT_EQUAL((guchar)v->event[0], 0xff);
    CU_ASSERT_EQUAL((guchar)v->event[3], 0x28);
    g_autofree char *esc = pms_vector_escape(v->event, v->event_len, 0);
    CU_ASSERT_STRING_EQUAL(esc, "\\xff\\xfe\\xc3(");
}

typedef struct {
    const char *text;
    const char *want; /* prefix "bad.enc:LINE: column COL:" and a word of the message */
    const char *word;
} BadCase;

static void test_parse_bad(void)
{
    static const BadCase cases[] = {
        { "\"a\" PFM_SUCCESS 0x1\n", "bad.enc:1: column 20:", "src" },
        { "#c\n\"a\" PFM_SUCCESS 0x1 src\n", "bad.enc:2:", "empty source" },
        { "\"a\" PFM_OOPS - src x\n", "bad.enc:1: column 5:", "RET" },
        { "\"a\" PFM_SUCCESS - src x\n", "bad.enc:1: column 17:", "at least one code" },
        { "\"a\" PFM_ERR_ATTR 0x1 src x\n", "bad.enc:1: column 18:", "no codes" },
        { "\"a\" PFM_SUCCESS 12 src x\n", "bad.enc:1: column 17:", "0x" },
        { "\"a\" PFM_SUCCESS 0xzz src x\n", "bad.enc:1: column 17:", "hex" },
        { "\"a PFM_SUCCESS 0x1 src x\n", "bad.enc:1:", "unterminated" },
        { "\"a\\q\" PFM_ERR_ATTR - src x\n", "bad.enc:1:", "unknown escape" },
        { "\"a\\x4\" PFM_ERR_ATTR - src x\n", "bad.enc:1:", "two hex digits" },
        { "\"a\\x00\" PFM_ERR_ATTR - src x\n", "bad.enc:1:", "NUL" },
        { "\"a\\x0a\" PFM_ERR_ATTR - src x\n", "bad.enc:1:", "line based" },
        { "3\"a\" PFM_ERR_ATTR - src x\n", "bad.enc:1: column 1:", "repeat count" },
        { "0*\"a\" PFM_ERR_ATTR - src x\n", "bad.enc:1: column 1:", "1.." },
        { "2000000*\"ab\" PFM_ERR_ATTR - src x\n", "bad.enc:1:", "repeat count" },
        { "1048576*\"ab\" PFM_ERR_ATTR - src x\n", "bad.enc:1:", "longer than" },
        { "PFM_SUCCESS 0x1 src x\n", "bad.enc:1: column 1:", "event string" },
        { "\"a\" PFM_ERR_ATTR - fstr \"x\" src x\n", "bad.enc:1: column 20:", "no fstr" },
        { "\"a\" PFM_SUCCESS 0x1 fstr src x\n", "bad.enc:1:", "fstr" },
        { "\"a\" PFM_SUCCESS 0x1,0x2,0x3,0x4,0x5,0x6,0x7,0x8,0x9 src x\n", "bad.enc:1:", "more than" },
        { "\"ok\" PFM_ERR_ATTR - src x\n\n\"a\" PFM_SUCCESS\n", "bad.enc:3:", "CODES" },
        /* issue 20: a BOM is named as one */
        { "\xef\xbb\xbf\"a\" PFM_ERR_ATTR - src x\n", "bad.enc:1: column 1:", "UTF-8 byte-order mark" },
        { "\"a\" PFM_ERR_ATTR - src x\n\"b\x00\" PFM_ERR_ATTR - src x\n", "bad.enc:2:", "NUL byte" },
    };
    for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
        /* The last case carries an embedded NUL: pass its real length. */
        g_autoptr(PmsVectorSet) set = pms_vector_set_new();
        GError *err = NULL;
        gsize len = strlen(cases[i].text);
        if (i == G_N_ELEMENTS(cases) - 1)
            len = sizeof("\"a\" PFM_ERR_ATTR - src x\n\"b\x00\" PFM_ERR_ATTR - src x\n") - 1;
        gboolean ok = pms_vector_set_parse(set, PMS_VECTOR_ENCODE, cases[i].text, len, "bad.enc", "tst", &err);
        CU_ASSERT_FALSE(ok);
        CU_ASSERT_EQUAL(pms_vector_set_count(set), 0);
        if (!err)
            continue;
        gboolean good = g_str_has_prefix(err->message, cases[i].want) && strstr(err->message, cases[i].word);
        if (!good)
            g_printerr("# case %zu: got '%s', want '%s...%s'\n", i, err->message, cases[i].want, cases[i].word);
        CU_ASSERT_TRUE(good);
        g_error_free(err);
    }
    g_autofree char *m = parse_bad("\"a\" PFM_SUCCESS 0x1 src ok\n\"b\" PFM_SUCCESS src\n");
    CU_ASSERT_TRUE(g_str_has_prefix(m, "bad.enc:2:"));
}

static void test_sim_kind_reserved(void)
{
    g_autoptr(PmsVectorSet) set = pms_vector_set_new();
    GError *err = NULL;
    CU_ASSERT_FALSE(pms_vector_set_parse(set, PMS_VECTOR_SIM, "x", 1, "a.sim", "glm", &err));
    CU_ASSERT_PTR_NOT_NULL(err);
    g_clear_error(&err);
    PmsVectorKind k;
    CU_ASSERT_TRUE(pms_vector_kind_for_name("glm/events.enc", &k));
    CU_ASSERT_EQUAL(k, PMS_VECTOR_ENCODE);
    CU_ASSERT_TRUE(pms_vector_kind_for_name("glm/pipe.sim", &k));
    CU_ASSERT_EQUAL(k, PMS_VECTOR_SIM);
    CU_ASSERT_FALSE(pms_vector_kind_for_name("meson.build", &k));
}

/* A fake encoder: answers from a table, "" -> unknown. */
static void fake_encode(const char *event, gsize len, PmsVectorAnswer *out, gpointer ud)
{
    guint *calls = ud;
    (*calls)++;
    if (strcmp(event, "p::GOOD") == 0) {
        g_strlcpy(out->ret, "PFM_SUCCESS", sizeof out->ret);
        out->n_codes = 2;
        out->codes[0] = 0x5300c0;
        out->codes[1] = 0x10;
        out->fstr = g_strdup("p::GOOD:k=1");
    } else if (strcmp(event, "p::ONECODE") == 0) {
        g_strlcpy(out->ret, "PFM_SUCCESS", sizeof out->ret);
        out->n_codes = 1;
        out->codes[0] = 0x5300c0;
        out->fstr = g_strdup("");
    } else {
        g_strlcpy(out->ret, "PFM_ERR_NOTFOUND", sizeof out->ret);
        out->fstr = g_strdup("");
    }
}

static void test_runner_counts(void)
{
    g_autoptr(PmsVectorSet) set = pms_vector_set_new();
    const char *a = "\"p::GOOD\" PFM_SUCCESS 0x5300c0,0x10 fstr \"p::GOOD:k=1\" src s1\n" /* pass */
                    "\"p::GOOD\" PFM_SUCCESS 0x5300c0,0x11 src s2\n"                      /* codes differ */
                    "\"p::GOOD\" PFM_SUCCESS 0x5300c0,0x10 fstr \"p::GOOD:k=0\" src s3\n" /* fstr differs */
                    "\"p::NOPE\" PFM_ERR_NOTFOUND - src s4\n";                            /* pass */
    const char *b = "\"p::ONECODE\" PFM_SUCCESS 0x5300c0,0x0 src s5\n"                    /* count differs */
                    "\"q::NOPE\" PFM_ERR_UMASK - src s6\n";                               /* class differs */
    GError *err = NULL;
    CU_ASSERT_TRUE_FATAL(pms_vector_set_parse(set, PMS_VECTOR_ENCODE, a, strlen(a), "pa/x.enc", "pa", &err));
    CU_ASSERT_TRUE_FATAL(pms_vector_set_parse(set, PMS_VECTOR_ENCODE, b, strlen(b), "pb/y.enc", "pb", &err));
    guint calls = 0;
    PmsVectorOps ops = { .encode = fake_encode, .user_data = &calls };
    g_autoptr(PmsVectorReport) r = pms_vectors_run(set, 1u << PMS_VECTOR_ENCODE, &ops);
    CU_ASSERT_EQUAL(calls, 6);
    CU_ASSERT_EQUAL(r->vectors, 6);
    CU_ASSERT_EQUAL(r->passed, 2);
    CU_ASSERT_EQUAL(r->failed, 4);
    CU_ASSERT_EQUAL_FATAL(r->pmus->len, 2);
    PmsVectorPmuSummary *pa = g_ptr_array_index(r->pmus, 0);
    PmsVectorPmuSummary *pb = g_ptr_array_index(r->pmus, 1);
    CU_ASSERT_STRING_EQUAL(pa->pmu, "pa");
    CU_ASSERT_EQUAL(pa->vectors, 4);
    CU_ASSERT_EQUAL(pa->passed, 2);
    CU_ASSERT_EQUAL(pa->failed, 2);
    CU_ASSERT_EQUAL(pb->failed, 2);

    PmsVectorOutcome *o = g_ptr_array_index(r->outcomes, 1);
    CU_ASSERT_FALSE(o->passed);
    CU_ASSERT_STRING_EQUAL(o->message,
                           "pa/x.enc:2: \"p::GOOD\": expected PFM_SUCCESS 0x5300c0,0x11, got "
                           "PFM_SUCCESS 0x5300c0,0x10 (source: s2)");
    o = g_ptr_array_index(r->outcomes, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(o->message, "expected fstr \"p::GOOD:k=0\", got \"p::GOOD:k=1\""));
    o = g_ptr_array_index(r->outcomes, 5);
    CU_ASSERT_STRING_EQUAL(o->message,
                           "pb/y.enc:2: \"q::NOPE\": expected PFM_ERR_UMASK -, got "
                           "PFM_ERR_NOTFOUND - (source: s6)");

    /* The sim kind selects nothing here: zero vectors, zero calls. */
    calls = 0;
    g_autoptr(PmsVectorReport) r2 = pms_vectors_run(set, 1u << PMS_VECTOR_SIM, &ops);
    CU_ASSERT_EQUAL(r2->vectors, 0);
    CU_ASSERT_EQUAL(calls, 0);
}

static void test_runner_no_encoder_fails(void)
{
    g_autoptr(PmsVectorSet) set = parse_ok("\"x\" PFM_ERR_NOTFOUND - src s\n");
    PmsVectorOps ops = { 0 };
    g_autoptr(PmsVectorReport) r = pms_vectors_run(set, 1u << PMS_VECTOR_ENCODE, &ops);
    CU_ASSERT_EQUAL(r->failed, 1); /* never skipped */
}

static void test_load_dir(void)
{
    g_autofree char *dir = g_dir_make_tmp("pmsvec-XXXXXX", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    g_autofree char *sub = g_build_filename(dir, "zz", NULL);
    g_mkdir(sub, 0700);
    g_autofree char *f1 = g_build_filename(sub, "a.enc", NULL);
    g_autofree char *f2 = g_build_filename(sub, "README", NULL);
    g_autofree char *f3 = g_build_filename(sub, "b.enc", NULL);
    CU_ASSERT_TRUE(g_file_set_contents(f1, "\"zz::A\" PFM_ERR_NOTFOUND - src s\n", -1, NULL));
    CU_ASSERT_TRUE(g_file_set_contents(f2, "not a vector file", -1, NULL));
    CU_ASSERT_TRUE(g_file_set_contents(f3, "\"zz::B\" PFM_ERR_NOTFOUND - src s\n\"oops\n", -1, NULL));

    g_autoptr(PmsVectorSet) set = pms_vector_set_new();
    GError *err = NULL;
    CU_ASSERT_FALSE(pms_vector_set_load_dir(set, dir, &err));
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    g_autofree char *want = g_strdup_printf("%s:2:", f3);
    CU_ASSERT_TRUE(g_str_has_prefix(err->message, want));
    g_clear_error(&err);

    CU_ASSERT_TRUE(g_file_set_contents(f3, "\"zz::B\" PFM_ERR_NOTFOUND - src s\n", -1, NULL));
    g_autoptr(PmsVectorSet) set2 = pms_vector_set_new();
    CU_ASSERT_TRUE(pms_vector_set_load_dir(set2, dir, &err));
    CU_ASSERT_EQUAL_FATAL(pms_vector_set_count(set2), 2);
    CU_ASSERT_STRING_EQUAL(pms_vector_set_nth(set2, 0)->pmu, "zz");
    CU_ASSERT_STRING_EQUAL(pms_vector_set_nth(set2, 1)->event, "zz::B");

    g_autoptr(PmsVectorSet) set3 = pms_vector_set_new();
    /* Files directly in the given directory go under its base name. */
    CU_ASSERT_TRUE(pms_vector_set_load_dir(set3, sub, &err));
    CU_ASSERT_EQUAL_FATAL(pms_vector_set_count(set3), 2);
    CU_ASSERT_STRING_EQUAL(pms_vector_set_nth(set3, 0)->pmu, "zz");
    g_clear_error(&err);
    g_autofree char *nowhere = g_build_filename(dir, "missing", NULL);
    CU_ASSERT_FALSE(pms_vector_set_load_dir(set3, nowhere, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_VECTOR_ERROR, PMS_VECTOR_ERROR_IO));
    g_clear_error(&err);
    g_autofree char *empty = g_build_filename(dir, "empty", NULL);
    g_mkdir(empty, 0700);
    CU_ASSERT_FALSE(pms_vector_set_load_dir(set3, empty, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_VECTOR_ERROR, PMS_VECTOR_ERROR_EMPTY));
    g_clear_error(&err);

    g_remove(f1);
    g_remove(f2);
    g_remove(f3);
    g_rmdir(sub);
    g_rmdir(empty);
    g_rmdir(dir);
}

static void test_builtin_parses(void)
{
    g_autoptr(PmsVectorSet) set = pms_vector_set_new();
    GError *err = NULL;
    gboolean ok = pms_vector_set_load_builtin(set, &err);
    if (!ok)
        g_printerr("# %s\n", err->message);
    CU_ASSERT_TRUE_FATAL(ok);
    CU_ASSERT_TRUE(pms_vector_set_count(set) > 0);
    guint unc[2] = { 0, 0 }, unc_sdm = 0;
    for (guint i = 0; i < pms_vector_set_count(set); i++) {
        const PmsVector *v = pms_vector_set_nth(set, i);
        CU_ASSERT_TRUE(g_str_has_prefix(v->file, "vectors/"));
        CU_ASSERT_TRUE(v->source[0] != '\0');
        gboolean n = strcmp(v->pmu, "nhm_unc") == 0, w = strcmp(v->pmu, "wsm_unc") == 0;
        /* the uncore's simulation vectors (events.sim, scenarios.sim) are
         * checked by test_sim_vectors and pmusim conform --kind sim */
        if ((!n && !w) || v->kind == PMS_VECTOR_SIM)
            continue;
        CU_ASSERT_EQUAL(v->kind, PMS_VECTOR_ENCODE);
        unc[w]++;
        /* every successful uncore vector rests on the SDM (a table, or the
         * derivation of the fixed counter's pseudo event) */
        if (strcmp(v->ret, "PFM_SUCCESS") == 0) {
            CU_ASSERT_TRUE(g_str_has_prefix(v->source, "sdm:Table 19-") || g_str_has_prefix(v->source, "derived:"));
            CU_ASSERT_EQUAL(v->n_codes, 1);
            CU_ASSERT_EQUAL(v->codes[0] & 0x500000, 0x500000); /* EN | INT */
            unc_sdm++;
        }
    }
    /* the uncore sets: every event, unit mask, modifier and invalid string */
    CU_ASSERT_TRUE(unc[0] >= 300);
    CU_ASSERT_TRUE(unc[1] >= 300);
    CU_ASSERT_TRUE(unc_sdm >= 400);
}

/* The Xeon 7500 C-Box folders (scripts/gen-nhmex-vectors.py): every event
 * and unit mask of likwid's table, the modifiers, the invalid strings; each
 * expectation from the table and Table 2-13, never from pmusim. */
static void test_builtin_nhmex(void)
{
    g_autoptr(PmsVectorSet) set = pms_vector_set_new();
    g_autoptr(GError) err = NULL;
    CU_ASSERT_TRUE_FATAL(pms_vector_set_load_builtin(set, &err));
    for (guint n = 0; n < 8; n++) {
        g_autofree char *pmu = g_strdup_printf("nhmex_cbox%u", n);
        guint per_file[4] = { 0 }, ok = 0;
        static const char *const files[4] = { "events.enc", "umasks.enc", "modifiers.enc", "invalid.enc" };
        for (guint i = 0; i < pms_vector_set_count(set); i++) {
            const PmsVector *v = pms_vector_set_nth(set, i);
            if (strcmp(v->pmu, pmu) != 0 || v->kind == PMS_VECTOR_SIM)
                continue; /* the simulation vectors (events.sim, scenarios.sim) are test_sim_vectors.c's */
            for (guint f = 0; f < 4; f++)
                per_file[f] += g_str_has_suffix(v->file, files[f]);
            if (strcmp(v->ret, "PFM_SUCCESS") == 0) {
                ok++;
                CU_ASSERT_EQUAL(v->n_codes, 1);
                CU_ASSERT_TRUE(v->codes[0] & (1u << 22)); /* en */
                CU_ASSERT_FALSE(v->codes[0] & 0x2b0000);  /* ig bits 16, 17, 19, 21 */
                CU_ASSERT_PTR_NOT_NULL(v->fstr);
                CU_ASSERT_TRUE(strstr(v->source, "likwid:") != NULL && strstr(v->source, "Table 2-13") != NULL);
            } else {
                CU_ASSERT_PTR_NOT_NULL(strstr(v->source, "column "));
            }
        }
        CU_ASSERT_EQUAL(per_file[0], 34);  /* events */
        CU_ASSERT_EQUAL(per_file[1], 117); /* unit masks */
        CU_ASSERT_TRUE(per_file[2] >= 60);
        CU_ASSERT_TRUE(per_file[3] >= 40);
        CU_ASSERT_EQUAL(ok,
                        15 + 117 + 2 * 28 +
                            3); /* events without unit masks, unit masks, modifiers on two events, combinations */
    }
}

/* The Montecito folder (scripts/gen-montecito-vectors.py): every event alone,
 * the threshold edges of every event, privilege and oi, MESI, invalid
 * strings; each expectation from events.tsv and registers.md, never from
 * pmusim. */
static void test_builtin_montecito(void)
{
    g_autoptr(PmsVectorSet) set = pms_vector_set_new();
    g_autoptr(GError) err = NULL;
    CU_ASSERT_TRUE_FATAL(pms_vector_set_load_builtin(set, &err));
    static const char *const files[5] = { "events.enc", "thresholds.enc", "privilege.enc", "mesi.enc", "invalid.enc" };
    guint per_file[5] = { 0 }, ok = 0, ear = 0;
    for (guint i = 0; i < pms_vector_set_count(set); i++) {
        const PmsVector *v = pms_vector_set_nth(set, i);
        if (strcmp(v->pmu, "montecito") != 0 || v->kind == PMS_VECTOR_SIM) /* .sim: test_sim_vectors.c */
            continue;
        CU_ASSERT_EQUAL(v->kind, PMS_VECTOR_ENCODE);
        for (guint f = 0; f < 5; f++)
            per_file[f] += g_str_has_suffix(v->file, files[f]);
        if (strcmp(v->ret, "PFM_SUCCESS") != 0) {
            CU_ASSERT_PTR_NOT_NULL(strstr(v->source, "column "));
            continue;
        }
        ok++;
        CU_ASSERT_TRUE(v->n_codes == 1 || v->n_codes == 2);
        ear += v->n_codes == 2;
        CU_ASSERT_EQUAL(v->codes[0] & 0x3000000, 0x2000000); /* ism = 2 */
        CU_ASSERT_EQUAL(v->codes[0] & 0x48000c0, 0);         /* pm, ig, all, bit 23 */
        CU_ASSERT_PTR_NOT_NULL(v->fstr);
        CU_ASSERT_TRUE(g_str_has_prefix(v->source, "tsv:montecito/events.tsv:"));
        CU_ASSERT_PTR_NOT_NULL(strstr(v->source, "registers.md"));
    }
    CU_ASSERT_EQUAL(per_file[0], 637);
    CU_ASSERT_EQUAL(per_file[1], 2 * 637 + 9);
    CU_ASSERT_TRUE(per_file[2] >= 150);
    CU_ASSERT_EQUAL(per_file[3], 23 * 8 + 6);
    CU_ASSERT_TRUE(per_file[4] >= 10);
    CU_ASSERT_TRUE(ok >= 637 * 2 + 150);
    CU_ASSERT_TRUE(ear >= 3 * 36); /* every EAR event alone and at its threshold edge */
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("vectors", NULL, NULL);
    CU_add_test(s, "parse good", test_parse_good);
    CU_add_test(s, "parse long strings and raw bytes", test_parse_long_and_bytes);
    CU_add_test(s, "parse errors name file:line", test_parse_bad);
    CU_add_test(s, "sim kind reserved", test_sim_kind_reserved);
    CU_add_test(s, "runner counts per PMU", test_runner_counts);
    CU_add_test(s, "runner without encoder fails", test_runner_no_encoder_fails);
    CU_add_test(s, "load dir", test_load_dir);
    CU_add_test(s, "builtin set parses", test_builtin_parses);
    CU_add_test(s, "builtin Xeon 7500 C-Box vectors", test_builtin_nhmex);
    CU_add_test(s, "builtin Montecito vectors", test_builtin_montecito);
    return pms_cu_tap_run();
}
