/* pmusim — vectors/ tests for simulation vector files (.sim): the block
 * parser on good and bad text (every error names file:line), stimulus file
 * references through the directory loader, and the built-in set. */
#include <CUnit/CUnit.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cu_tap.h"
#include "vectors.h"

static const char GOOD[] = "# a comment\n"
                           "\n"
                           "vector first\n"
                           "event 0 \"wsm::INST_RETIRED:ANY_P:c=1\"\n"
                           "event 2 \"wsm::\" 2*\"A\"   # trailing comment\n"
                           "src line one\n"
                           "src line two\n"
                           "run 3 INST_RETIRED.ANY_P=1\n"
                           "read IA32_PMC0 3\n"
                           "end\n"
                           "vector second\n"
                           "event 1 \"wsm::INST_RETIRED:ANY_P\"\n"
                           "src pmi only\n"
                           "@4 run 1\n"
                           "expect-pmi none\n"
                           "end\n";

/* An lbr record: its configuration, parsed */
static void test_parse_lbr(void)
{
    static const char text[] = "vector l\nevent 0 \"nhm::INST_RETIRED:ANY_P\"\nlbr plm=3 filter=jcc,far_branch freeze\n"
                               "src s\nread MSR_LASTBRANCH_TOS 0\nend\n";
    g_autoptr(PmsVectorSet) set = pms_vector_set_new();
    g_autoptr(GError) err = NULL;
    CU_ASSERT_TRUE_FATAL(pms_vector_set_parse(set, PMS_VECTOR_SIM, text, strlen(text), "l.sim", "nhm", &err));
    const PmsSimVector *sv = pms_vector_sim(pms_vector_set_nth(set, 0));
    CU_ASSERT_TRUE(sv->has_lbr);
    CU_ASSERT_EQUAL(sv->lbr_line, 3);
    CU_ASSERT_EQUAL(sv->lbr.plm, PMS_PLM3);
    CU_ASSERT_EQUAL(sv->lbr.filter, PMS_LBR_JCC | PMS_LBR_FAR_BRANCH);
    CU_ASSERT_TRUE(sv->lbr.freeze_on_pmi);
    CU_ASSERT_TRUE(sv->lbr.used);
    CU_ASSERT_FALSE(sv->lbr.callstack);
    /* the word callstack: LBR_SELECT.EN_CALLSTACK (glm) */
    static const char cs[] = "vector c\nevent 0 \"glm::INST_RETIRED:ANY_P\"\nlbr callstack\n"
                             "src s\nread MSR_LASTBRANCH_TOS 0\nend\n";
    g_autoptr(PmsVectorSet) set2 = pms_vector_set_new();
    CU_ASSERT_TRUE_FATAL(pms_vector_set_parse(set2, PMS_VECTOR_SIM, cs, strlen(cs), "c.sim", "glm", &err));
    CU_ASSERT_TRUE(pms_vector_sim(pms_vector_set_nth(set2, 0))->lbr.callstack);
}

static void test_parse_good(void)
{
    g_autoptr(PmsVectorSet) set = pms_vector_set_new();
    g_autoptr(GError) err = NULL;
    gboolean ok = pms_vector_set_parse(set, PMS_VECTOR_SIM, GOOD, strlen(GOOD), "t.sim", "wsm", &err);
    if (!ok)
        g_printerr("# %s\n", err->message);
    CU_ASSERT_TRUE_FATAL(ok);
    CU_ASSERT_EQUAL_FATAL(pms_vector_set_count(set), 2);
    const PmsVector *v = pms_vector_set_nth(set, 0);
    CU_ASSERT_EQUAL(v->kind, PMS_VECTOR_SIM);
    CU_ASSERT_EQUAL(v->line, 3);
    CU_ASSERT_STRING_EQUAL(v->pmu, "wsm");
    CU_ASSERT_STRING_EQUAL(v->event, "wsm::INST_RETIRED:ANY_P:c=1");
    CU_ASSERT_STRING_EQUAL(v->source, "line one line two");
    const PmsSimVector *sv = pms_vector_sim(v);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sv);
    CU_ASSERT_STRING_EQUAL(sv->name, "first");
    CU_ASSERT_EQUAL(sv->n_events, 2);
    CU_ASSERT_EQUAL(sv->events[1].counter, 2);
    CU_ASSERT_STRING_EQUAL(sv->events[1].event, "wsm::AA");
    CU_ASSERT_EQUAL(sv->events[1].line, 5);
    /* The stimulus text keeps the file's line numbers: line 8 is the run. */
    g_auto(GStrv) lines = g_strsplit(sv->stim, "\n", -1);
    CU_ASSERT_FATAL(g_strv_length(lines) >= 9);
    CU_ASSERT_STRING_EQUAL(lines[7], "run 3 INST_RETIRED.ANY_P=1");
    CU_ASSERT_STRING_EQUAL(lines[8], "read IA32_PMC0 3");
    CU_ASSERT_STRING_EQUAL(lines[3], "");
    const PmsSimVector *sv2 = pms_vector_sim(pms_vector_set_nth(set, 1));
    CU_ASSERT_STRING_EQUAL(sv2->name, "second");
    CU_ASSERT_PTR_NOT_NULL(strstr(sv2->stim, "@4 run 1"));
    CU_ASSERT_PTR_NULL(pms_vector_sim(NULL));
}

/* Each bad text must fail, add nothing, and name "bad.sim:LINE:". */
static void expect_bad(const char *text, const char *where, const char *what)
{
    g_autoptr(PmsVectorSet) set = pms_vector_set_new();
    g_autoptr(GError) err = NULL;
    gboolean ok = pms_vector_set_parse(set, PMS_VECTOR_SIM, text, strlen(text), "bad.sim", "wsm", &err);
    CU_ASSERT_FALSE(ok);
    CU_ASSERT_EQUAL(pms_vector_set_count(set), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    CU_ASSERT_TRUE(g_error_matches(err, PMS_VECTOR_ERROR, PMS_VECTOR_ERROR_PARSE));
    if (!g_str_has_prefix(err->message, where) || !strstr(err->message, what))
        g_printerr("# expected '%s' ... '%s', got: %s\n", where, what, err->message);
    CU_ASSERT_TRUE(g_str_has_prefix(err->message, where));
    CU_ASSERT_PTR_NOT_NULL(strstr(err->message, what));
}

#define HEAD "vector a\nevent 0 \"wsm::INST_RETIRED:ANY_P\"\nsrc s\n"

static void test_parse_bad(void)
{
    expect_bad("run 1\n", "bad.sim:1:", "outside a vector: expected 'vector NAME'");
    expect_bad(HEAD "read IA32_PMC0 1\n", "bad.sim:1:", "no 'end'");
    expect_bad(HEAD "bogus 1\nend\n", "bad.sim:4: column 1:", "unknown record 'bogus'");
    expect_bad(HEAD "read IA32_PMC0 1\nvector b\n", "bad.sim:5:", "expected 'end' of vector 'a' (line 1)");
    expect_bad("vector a\nsrc s\nread IA32_PMC0 1\nend\n", "bad.sim:4:", "has no event");
    expect_bad("vector a\nevent 0 \"wsm::X\"\nread IA32_PMC0 1\nend\n", "bad.sim:4:", "has no 'src'");
    expect_bad(HEAD "run 5\nread IA32_PMC0\nend\n", "bad.sim:6:", "checks nothing");
    expect_bad(HEAD "event 0 \"wsm::X\"\nend\n", "bad.sim:4: column 7:", "counter 0 is already programmed at line 2");
    expect_bad("vector a\nevent x \"wsm::X\"\n", "bad.sim:2: column 7:", "expected a counter index 0..63");
    expect_bad("vector a\nevent 64 \"wsm::X\"\n", "bad.sim:2:", "expected a counter index 0..63");
    expect_bad("vector a\nevent 0 wsm::X\n", "bad.sim:2:", "expected the event string as a quoted string");
    expect_bad("vector a\nevent 0 \"wsm::X\" junk\n", "bad.sim:2:", "unexpected text after the event string");
    expect_bad("vector a\nevent 0 \"wsm::X\n", "bad.sim:2:", "unterminated string");
    expect_bad("vector a\nsrc\n", "bad.sim:2:", "src: empty");
    expect_bad("vector\n", "bad.sim:1:", "vector: expected a name");
    expect_bad("vector a b\n", "bad.sim:1:", "expected one word as its name");
    expect_bad(HEAD "expect-pmi none\nend\nvector a\n", "bad.sim:6: column 8:", "already defined at line 1");
    expect_bad(HEAD "stimulus ../x.stim\n", "bad.sim:4:", "same folder");
    expect_bad(HEAD "stimulus a.stim\nstimulus b.stim\n", "bad.sim:5: column 1:", "already at line 4");
    expect_bad(HEAD "expect-pmi none\nend junk\n", "bad.sim:5:", "unexpected text after 'end'");
    /* the lbr record: its words, its lists, once per vector */
    expect_bad(HEAD "lbr x\n",
               "bad.sim:4: column 5:", "lbr: unknown word 'x': expected plm=LEVELS, filter=NAMES, freeze or callstack");
    expect_bad(HEAD "lbr plm=5\n", "bad.sim:4: column 5:", "LBR privilege level '5'");
    expect_bad(HEAD "lbr filter=jcc,bogus\n", "bad.sim:4: column 5:", "LBR filter 'bogus'");
    expect_bad(HEAD "lbr\nlbr freeze\n", "bad.sim:5:", "one LBR configuration (already at line 4)");
    static const char nul[] = "vector a\n\0\n";
    g_autoptr(PmsVectorSet) set = pms_vector_set_new();
    g_autoptr(GError) err = NULL;
    CU_ASSERT_FALSE(pms_vector_set_parse(set, PMS_VECTOR_SIM, nul, sizeof nul - 1, "bad.sim", "wsm", &err));
    CU_ASSERT_TRUE(err && g_str_has_prefix(err->message, "bad.sim:2:"));
}

static char *write_tree(const char *sim_text, const char *stim_name, const char *stim_text)
{
    GError *err = NULL;
    char *dir = g_dir_make_tmp("pms-simvec-XXXXXX", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    g_autofree char *sub = g_build_filename(dir, "wsm", NULL);
    CU_ASSERT_EQUAL(g_mkdir(sub, 0700), 0);
    g_autofree char *simf = g_build_filename(sub, "a.sim", NULL);
    CU_ASSERT_TRUE(g_file_set_contents(simf, sim_text, -1, NULL));
    if (stim_name) {
        g_autofree char *stimf = g_build_filename(sub, stim_name, NULL);
        CU_ASSERT_TRUE(g_file_set_contents(stimf, stim_text, -1, NULL));
    }
    return dir;
}

static void remove_tree(const char *dir)
{
    g_autofree char *sub = g_build_filename(dir, "wsm", NULL);
    const char *names[] = { "a.sim", "x.stim" };
    for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
        g_autofree char *f = g_build_filename(sub, names[i], NULL);
        g_remove(f);
    }
    g_rmdir(sub);
    g_rmdir(dir);
}

static void test_stimulus_reference(void)
{
    /* The check lives in the stimulus file: accepted once it is read. */
    g_autofree char *dir = write_tree(HEAD "stimulus x.stim\nend\n", "x.stim", "run 2\nread IA32_PMC0 0\n");
    g_autoptr(PmsVectorSet) set = pms_vector_set_new();
    g_autoptr(GError) err = NULL;
    CU_ASSERT_TRUE_FATAL(pms_vector_set_load_dir(set, dir, &err));
    CU_ASSERT_EQUAL_FATAL(pms_vector_set_count(set), 1);
    const PmsSimVector *sv = pms_vector_sim(pms_vector_set_nth(set, 0));
    CU_ASSERT_STRING_EQUAL(sv->stim_ref, "x.stim");
    CU_ASSERT_STRING_EQUAL(sv->stim_ref_text, "run 2\nread IA32_PMC0 0\n");
    CU_ASSERT_TRUE(g_str_has_suffix(sv->stim_ref_path, "wsm/x.stim"));
    remove_tree(dir);

    /* A missing file names the vector file's line; nothing is added. */
    g_autofree char *dir2 = write_tree(HEAD "stimulus nope.stim\nend\n", NULL, NULL);
    g_autoptr(PmsVectorSet) set2 = pms_vector_set_new();
    g_autoptr(GError) err2 = NULL;
    CU_ASSERT_FALSE(pms_vector_set_load_dir(set2, dir2, &err2));
    CU_ASSERT_EQUAL(pms_vector_set_count(set2), 0);
    CU_ASSERT_TRUE(err2 && strstr(err2->message, "a.sim:4: stimulus 'nope.stim'"));
    remove_tree(dir2);

    /* A referenced file without any check, and none inline: checks nothing. */
    g_autofree char *dir3 = write_tree(HEAD "stimulus x.stim\nend\n", "x.stim", "run 2\n");
    g_autoptr(PmsVectorSet) set3 = pms_vector_set_new();
    g_autoptr(GError) err3 = NULL;
    CU_ASSERT_FALSE(pms_vector_set_load_dir(set3, dir3, &err3));
    CU_ASSERT_TRUE(err3 && strstr(err3->message, "a.sim:1: vector 'a' checks nothing"));
    remove_tree(dir3);
}

static void test_builtin_has_sim_vectors(void)
{
    g_autoptr(PmsVectorSet) set = pms_vector_set_new();
    g_autoptr(GError) err = NULL;
    CU_ASSERT_TRUE_FATAL(pms_vector_set_load_builtin(set, &err));
    const char *pmus[] = { "glm",         "wsm",         "wsm_dp",      "nhm",         "nhm_ex",      "nhm_unc",
                           "wsm_unc",     "nhmex_cbox0", "nhmex_cbox1", "nhmex_cbox2", "nhmex_cbox3", "nhmex_cbox4",
                           "nhmex_cbox5", "nhmex_cbox6", "nhmex_cbox7", "montecito" };
    for (guint p = 0; p < G_N_ELEMENTS(pmus); p++) {
        guint n = 0, with_ref = 0;
        for (guint i = 0; i < pms_vector_set_count(set); i++) {
            const PmsVector *v = pms_vector_set_nth(set, i);
            if (v->kind == PMS_VECTOR_SIM && strcmp(v->pmu, pmus[p]) == 0) {
                n++;
                with_ref += pms_vector_sim(v)->stim_ref_text != NULL;
                CU_ASSERT_TRUE(v->source && v->source[0]);
            }
        }
        /* One generated vector per event (34 on glm and on each C-Box, 42 on nhm_unc, 52 on wsm_unc,
         * 90+ on the others, 637 on montecito) plus scenarios (none yet for C-Boxes other than 3). */
        CU_ASSERT_TRUE(n >= 34);
        if (strcmp(pmus[p], "nhmex_cbox3") == 0)
            CU_ASSERT_TRUE(n >= 39);
        if (strcmp(pmus[p], "montecito") == 0)
            CU_ASSERT_TRUE(n >= 637 + 8); /* every one of its 637 events, 8 scenarios */
        if (strcmp(pmus[p], "nhm_ex") == 0)
            CU_ASSERT_TRUE(with_ref >= 1);
    }
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("sim vectors", NULL, NULL);
    CU_add_test(s, "parse a good file", test_parse_good);
    CU_add_test(s, "the lbr record", test_parse_lbr);
    CU_add_test(s, "bad files name file:line", test_parse_bad);
    CU_add_test(s, "stimulus file references", test_stimulus_reference);
    CU_add_test(s, "built-in set has sim vectors for every PMU", test_builtin_has_sim_vectors);
    return pms_cu_tap_run();
}
