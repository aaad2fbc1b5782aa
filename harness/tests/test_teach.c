/* teach tests: the teaching outputs of `pmusim sim` and `pmusim explain`
 * (the stage columns of the table, --explain sentences, VCD stage signals,
 * the SVG timing diagram and the HTML page), run as subprocesses.
 *
 * Run by meson as: test_teach PMUSIM [SRCDIR].  Every expected value is
 * derived by hand from docs/semantics.md beside its assertion, never
 * recorded from a run. */
#include "cu_tap.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

static const char *pmusim_path;
static const char *srcdir;
static char *tmpdir;

typedef struct {
    int status;
    char *out, *err;
} Run;

static void run_clear(Run *r)
{
    g_free(r->out);
    g_free(r->err);
}

static Run run_argv(const char *const *args)
{
    GPtrArray *argv = g_ptr_array_new();
    g_ptr_array_add(argv, (gpointer)pmusim_path);
    for (guint i = 0; args[i]; i++)
        g_ptr_array_add(argv, (gpointer)args[i]);
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
    if (r.status != 0)
        fprintf(stderr, "# %s: exit %d: %s\n", args[0], r.status, r.err);
    return r;
}

#define RUN(...) run_argv((const char *const[]){ __VA_ARGS__, NULL })

static char *write_tmp(const char *name, const char *text)
{
    char *path = g_build_filename(tmpdir, name, NULL);
    CU_ASSERT_FATAL(g_file_set_contents(path, text, -1, NULL));
    return path;
}

/* The whitespace-separated cells of the table line starting with `cycle`
 * (right-aligned: the line's first cell), NULL when there is none. */
static char **table_row(const char *out, const char *cycle)
{
    g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        char **cells = g_strsplit_set(g_strstrip(lines[i]), " ", -1);
        /* drop the empty cells between runs of spaces */
        guint k = 0;
        for (guint j = 0; cells[j]; j++) {
            if (*cells[j])
                cells[k++] = cells[j];
            else
                g_free(cells[j]);
        }
        cells[k] = NULL;
        if (k && strcmp(cells[0], cycle) == 0)
            return cells;
        g_strfreev(cells);
    }
    return NULL;
}

static void expect_row(const char *out, const char *cycle, const char *want)
{
    g_auto(GStrv) cells = table_row(out, cycle);
    g_autofree char *got = cells ? g_strjoinv(" ", cells) : g_strdup("<no row>");
    if (strcmp(got, want) != 0)
        fprintf(stderr, "# row %s: got '%s', want '%s'\n", cycle, got, want);
    CU_ASSERT_STRING_EQUAL(got, want);
}

/* wsm (SMT) 'INST_RETIRED:ANY_P:u:c=2' on n = 3,3,3 at CPL 0,3,0: usr counts
 * at CPL 1-3 (SDM 18-4); the own thread's gate applies to the increment
 * after the threshold (A3 post), so n = 3 >= 2 in every cycle and only
 * cycle 1 (CPL 3) adds 1.  Thread 1 is idle at the same CPL
 * (--occurrences, docs/sim-cli.md). */
static void test_table_stages(void)
{
    Run r =
        RUN("sim", "--pmu", "wsm", "-e", "wsm::INST_RETIRED:ANY_P:u:c=2", "--occurrences", "3,3,3", "--cpl", "0,3,0");
    CU_ASSERT_EQUAL(r.status, 0);
    expect_row(r.out, "cycle", "cycle occ occ1 cpl gate n thr cond latch edge inc counter ovf status pmi en why");
    expect_row(r.out, "0", "0 3 0 0/0 0/0 3 1 1 - - 0 0x0000_0000_0000 0 0x0000000000000000 0 1 -");
    expect_row(r.out, "1", "1 3 0 3/3 1/1 3 1 1 - - 1 0x0000_0000_0001 0 0x0000000000000000 0 1 -");
    expect_row(r.out, "2", "2 3 0 0/0 0/0 3 1 1 - - 0 0x0000_0000_0001 0 0x0000000000000000 0 1 -");
    CU_ASSERT_TRUE(g_str_has_suffix(r.out, "\ncount=1 overflow=0\n"));
    run_clear(&r);

    /* glm (no SMT) c=2 e on 3,3,0,2, preload 2^48 - 2: cond 1,1,0,1; the latch
     * starts clear (A4): edges at cycles 0 and 3; the second carries out of
     * bit 47 (2^48 - 1 + 1) and wraps to 0, status bit 0, PMI (int=1) */
    r = RUN("sim", "-e", "glm::INST_RETIRED:ANY_P:c=2:e", "--occurrences", "3,3,0,2", "--preload", "0xfffffffffffe");
    CU_ASSERT_EQUAL(r.status, 0);
    expect_row(r.out, "cycle", "cycle occ cpl gate n thr cond latch edge inc counter ovf status pmi en why");
    expect_row(r.out, "0", "0 3 3 1 3 1 1 0 1 1 0xffff_ffff_ffff 0 0x0000000000000000 0 1 -");
    expect_row(r.out, "1", "1 3 3 1 3 1 1 1 0 0 0xffff_ffff_ffff 0 0x0000000000000000 0 1 -");
    expect_row(r.out, "2", "2 0 3 1 0 0 0 1 0 0 0xffff_ffff_ffff 0 0x0000000000000000 0 1 -");
    expect_row(r.out, "3", "3 2 3 1 2 1 1 0 1 1 0x0000_0000_0000 1 0x0000000000000001 1 1 -");
    CU_ASSERT_TRUE(g_str_has_suffix(r.out, "\ncount=0 overflow=1\n"));
    run_clear(&r);

    /* c=2 i: thr is the comparison n >= 2, cond its inverse (SDM 18-4) */
    r = RUN("sim", "-e", "glm::INST_RETIRED:ANY_P:c=2:i", "--occurrences", "3,1");
    expect_row(r.out, "0", "0 3 3 1 3 1 0 - - 0 0x0000_0000_0000 0 0x0000000000000000 0 1 -");
    expect_row(r.out, "1", "1 1 3 1 1 0 1 - - 1 0x0000_0000_0001 0 0x0000000000000000 0 1 -");
    run_clear(&r);
}

/* Freeze on PMI on glm (perfmon v4): FREEZE_PERFMON_ON_PMI (DEBUGCTL bit
 * 12) sets CTR_Frz (GLOBAL_STATUS bit 59) in the overflow cycle (A8,
 * SDM 18-11): preload 2^48 - 1, one instruction in cycle 0 carries (status
 * bit 0, PMI), cycles 1-2 do not count: en 0, why frozen, the counter stays
 * 0.  Then GLOBAL_CTRL cleared by a write: why global-off (SDM 18-7). */
static void test_table_off_reasons(void)
{
    g_autofree char *stim = write_tmp("frz.stim",
                                      "pmu glm\n"
                                      "write IA32_DEBUGCTL 0x1000\n"
                                      "run 3 INST_RETIRED.ANY_P=1\n"
                                      "write IA32_PERF_GLOBAL_STATUS_RESET 0x0800000000000001\n"
                                      "write IA32_PERF_GLOBAL_CTRL 0\n"
                                      "run 1 INST_RETIRED.ANY_P=1\n");
    Run r = RUN("sim", "-e", "glm::INST_RETIRED:ANY_P", "--stim", stim, "--preload", "0xffffffffffff", "--explain");
    CU_ASSERT_EQUAL(r.status, 0);
    expect_row(r.out, "0", "0 1 3 1 1 1 1 - - 1 0x0000_0000_0000 1 0x0800000000000001 1 1 -");
    expect_row(r.out, "1", "1 1 3 - - - - - - - 0x0000_0000_0000 0 0x0800000000000001 0 0 frozen");
    expect_row(r.out, "2", "2 1 3 - - - - - - - 0x0000_0000_0000 0 0x0800000000000001 0 0 frozen");
    expect_row(r.out, "3", "3 1 3 - - - - - - - 0x0000_0000_0000 0 0x0000000000000000 0 0 global-off");
    /* the sentences: one per span of alike cycles; cycles 1-2 are one */
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
                                  "\ncycle 0: n=1 (c=0: no threshold, adds n): +1 \u2192 0x0000_0000_0000; "
                                  "a carry out of bit 47: the counter wraps and sets its overflow bit in "
                                  "IA32_PERF_GLOBAL_STATUS; a PMI is raised.\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\ncycles 1-2 (2 cycles): not counting: counting is frozen"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\ncycle 3: not counting: the global control does not enable it"));
    CU_ASSERT_TRUE(g_str_has_suffix(r.out, "\ncount=0 overflow=0\n"));
    run_clear(&r);
}

/* --explain on the issue's example: cycles 0 and 2 are filtered (CPL 0,
 * usr only, A3 post), cycle 1 adds 1. */
static void test_explain_sentences(void)
{
    Run r = RUN("sim", "--pmu", "wsm", "-e", "INST_RETIRED:ANY_P:u:c=2", "--occurrences", "3,3,3", "--cpl", "0,3,0",
                "--explain");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
                                  "\ncycle 0: n=3 \u2265 c=2 but CPL 0 is filtered by usr-only (u): nothing "
                                  "added, counter 0x0000_0000_0000.\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\ncycle 1: n=3 \u2265 c=2: +1 \u2192 0x0000_0000_0001.\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\ncycle 2: n=3 \u2265 c=2 but CPL 0 is filtered by usr-only (u)"));
    CU_ASSERT_TRUE(g_str_has_suffix(r.out, "\ncount=1 overflow=0\n"));
    run_clear(&r);
    /* a run of alike cycles is one sentence: c=0 on 1,1,1,1 adds 1 each cycle */
    r = RUN("sim", "-e", "glm::INST_RETIRED:ANY_P", "--occurrences", "1,1,1,1", "--explain");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
                                  "\ncycles 0-3 (4 cycles): n=1 (c=0: no threshold, adds n): +1 each cycle "
                                  "\u2192 0x0000_0000_0004 after cycle 3.\n"));
    run_clear(&r);
    /* --explain belongs to the table */
    r = RUN("sim", "-e", "glm::INST_RETIRED:ANY_P", "--occurrences", "1", "--explain", "-f", "csv");
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--explain"));
    run_clear(&r);
}

/* explain --occurrences: the rules, then the worked example with its
 * sentences; the answer (count=) stays the last line.  The example is the
 * issue's: only cycle 1 (CPL 3) counts -> 1. */
static void test_explain_worked_example(void)
{
    Run r = RUN("explain", "wsm::INST_RETIRED:ANY_P:u:c=2", "--occurrences", "3,3,3", "--cpl", "0,3,0");
    CU_ASSERT_EQUAL(r.status, 0);
    const char *rules = strstr(r.out, "\nIn short: ");
    const char *example = strstr(r.out,
                                 "\nWorked example (pmusim sim -e 'wsm::INST_RETIRED:ANY_P:u:c=2' "
                                 "--occurrences 3,3,3 --cpl 0,3,0 --explain):\n");
    CU_ASSERT_PTR_NOT_NULL(rules);
    CU_ASSERT_PTR_NOT_NULL(example);
    CU_ASSERT_TRUE(rules && example && rules < example);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\ncycle 1: n=3 \u2265 c=2: +1 \u2192 0x0000_0000_0001.\n"));
    expect_row(r.out, "1", "1 3 0 3/3 1/1 3 1 1 - - 1 0x0000_0000_0001 0 0x0000000000000000 0 1 -");
    CU_ASSERT_TRUE(g_str_has_suffix(r.out, "\ncount=1 overflow=0\n"));
    run_clear(&r);
    /* without --occurrences: the rules only */
    r = RUN("explain", "wsm::INST_RETIRED:ANY_P:u:c=2");
    CU_ASSERT_PTR_NULL(strstr(r.out, "Worked example"));
    run_clear(&r);
    r = RUN("explain", "wsm::INST_RETIRED:ANY_P", "--cpl", "0");
    CU_ASSERT_EQUAL(r.status, 2);
    run_clear(&r);
    r = RUN("explain", "wsm::INST_RETIRED:ANY_P", "--occurrences", "1,x");
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_STRING_EQUAL(r.out, "");
    run_clear(&r);
}

/* The text of a VCD's time step #t (up to the next time stamp). */
static char *vcd_step(const char *vcd, guint64 t)
{
    g_autofree char *stamp = g_strdup_printf("\n#%" G_GUINT64_FORMAT "\n", t);
    const char *p = strstr(vcd, stamp);
    if (!p)
        return g_strdup("");
    p += strlen(stamp);
    const char *e = strstr(p, "\n#");
    return e ? g_strndup(p, (gsize)(e - p + 1)) : g_strdup(p);
}

/* VCD: the clock, CPL and the stage signals.  The issue's example: cycle 1
 * runs at CPL 3 (cpl0 = 0b11), the gate passes and the increment is 1;
 * cycle 2 back at CPL 0.  clk toggles every cycle: 0, 1, 0. */
static void test_vcd_stages(void)
{
    Run r = RUN("sim", "--pmu", "wsm", "-e", "INST_RETIRED:ANY_P:u:c=2", "--occurrences", "3,3,3", "--cpl", "0,3,0",
                "-f", "vcd");
    CU_ASSERT_EQUAL(r.status, 0);
    const char *decl[] = { "$var wire 1 k clk $end",    "$var wire 2 l cpl0 $end",  "$var wire 2 m cpl1 $end",
                           "$var wire 32 a occ0 $end",  "$var wire 32 b occ1 $end", "$var wire 1 g gate0 $end",
                           "$var wire 1 t thr $end",    "$var wire 1 q latch $end", "$var wire 5 w off_why $end",
                           "one time unit is one cycle" };
    for (guint i = 0; i < G_N_ELEMENTS(decl); i++)
        CU_ASSERT_PTR_NOT_NULL(strstr(r.out, decl[i]));
    g_autofree char *s1 = vcd_step(r.out, 1), *s2 = vcd_step(r.out, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(s1, "1k\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s1, "b11 l\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s1, "1g\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s1, "b1 i\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s2, "0k\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s2, "b0 l\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s2, "0g\n"));
    run_clear(&r);
    /* no second thread on glm: no occ1/cpl1/gate1 */
    r = RUN("sim", "-e", "glm::INST_RETIRED:ANY_P", "--occurrences", "1", "-f", "vcd");
    CU_ASSERT_PTR_NULL(strstr(r.out, " occ1 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, " occ0 "));
    run_clear(&r);
}

/* ---- the timing diagram ---------------------------------------------------
 * Layout (harness/report/trace_svg.c, docs/sim-cli.md): span i's column starts at
 * x = 140 + the widths before it, 110 for a single cycle; a waveform is high
 * (data-hi) where its stage is 1. */
typedef struct {
    guint svg, waves, spans;
    GString *hatched;     /* "stage@x;" of the not-evaluated (hatched) cells */
    GString *inc;         /* "x:text;" of the inc row */
    GHashTable *wave_pts; /* stage -> points */
    GHashTable *wave_hi;  /* stage -> high y */
    GString *ctr;         /* "x:text;" of the counter row */
    GString *marks;       /* "class@x;" of the ovf/pmi markers */
    char *cur_class;
    double cur_x;
} SvgScan;

static void svg_start(GMarkupParseContext *ctx, const char *el, const char **names, const char **vals, gpointer data,
                      GError **err)
{
    SvgScan *sc = data;
    const char *cls = NULL, *stage = NULL, *pts = NULL, *hi = NULL, *x = NULL, *spans = NULL;
    for (guint i = 0; names[i]; i++) {
        if (!strcmp(names[i], "class"))
            cls = vals[i];
        else if (!strcmp(names[i], "data-stage"))
            stage = vals[i];
        else if (!strcmp(names[i], "points"))
            pts = vals[i];
        else if (!strcmp(names[i], "data-hi"))
            hi = vals[i];
        else if (!strcmp(names[i], "x"))
            x = vals[i];
        else if (!strcmp(names[i], "data-spans"))
            spans = vals[i];
    }
    if (!strcmp(el, "svg")) {
        sc->svg++;
        sc->spans = spans ? (guint)g_ascii_strtoull(spans, NULL, 10) : 0;
    }
    if (!strcmp(el, "polyline") && cls && !strcmp(cls, "wave") && stage && pts && hi) {
        /* a stage broken by not-evaluated spans has several pieces */
        const char *had = g_hash_table_lookup(sc->wave_pts, stage);
        if (!had)
            sc->waves++;
        g_hash_table_insert(sc->wave_pts, g_strdup(stage), had ? g_strdup_printf("%s | %s", had, pts) : g_strdup(pts));
        g_hash_table_insert(sc->wave_hi, g_strdup(stage), g_strdup(hi));
    }
    if (!strcmp(el, "rect") && cls && !strcmp(cls, "x") && stage && x)
        g_string_append_printf(sc->hatched, "%s@%.0f;", stage, g_ascii_strtod(x, NULL));
    g_free(sc->cur_class);
    sc->cur_class = !strcmp(el, "text") && cls ? g_strdup(cls) : NULL;
    sc->cur_x = x ? g_ascii_strtod(x, NULL) : 0;
}

static void svg_text(GMarkupParseContext *ctx, const char *text, gsize len, gpointer data, GError **err)
{
    SvgScan *sc = data;
    if (!sc->cur_class)
        return;
    if (!strcmp(sc->cur_class, "ctr"))
        g_string_append_printf(sc->ctr, "%.0f:%.*s;", sc->cur_x, (int)len, text);
    if (!strcmp(sc->cur_class, "inc"))
        g_string_append_printf(sc->inc, "%.0f:%.*s;", sc->cur_x, (int)len, text);
    if (!strcmp(sc->cur_class, "ovf") || !strcmp(sc->cur_class, "pmi"))
        g_string_append_printf(sc->marks, "%s@%.0f;", sc->cur_class, sc->cur_x);
}

static void svg_end(GMarkupParseContext *ctx, const char *el, gpointer data, GError **err)
{
    SvgScan *sc = data;
    g_free(sc->cur_class);
    sc->cur_class = NULL;
}

/* Parse an SVG document (skipping an XML declaration) with GMarkup. */
static gboolean svg_scan(const char *doc, SvgScan *sc)
{
    const char *p = strstr(doc, "<svg");
    const char *e = p ? strstr(p, "</svg>") : NULL;
    if (!p || !e)
        return FALSE;
    GMarkupParser parser = { svg_start, svg_end, svg_text, NULL, NULL };
    memset(sc, 0, sizeof *sc);
    sc->wave_pts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    sc->wave_hi = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    sc->ctr = g_string_new(NULL);
    sc->marks = g_string_new(NULL);
    sc->hatched = g_string_new(NULL);
    sc->inc = g_string_new(NULL);
    GMarkupParseContext *ctx = g_markup_parse_context_new(&parser, 0, sc, NULL);
    g_autoptr(GError) err = NULL;
    gboolean ok =
        g_markup_parse_context_parse(ctx, p, (gssize)(e + 6 - p), &err) && g_markup_parse_context_end_parse(ctx, &err);
    if (!ok)
        fprintf(stderr, "# svg: %s\n", err->message);
    g_markup_parse_context_free(ctx);
    return ok;
}

static void svg_scan_clear(SvgScan *sc)
{
    g_hash_table_unref(sc->wave_pts);
    g_hash_table_unref(sc->wave_hi);
    g_string_free(sc->ctr, TRUE);
    g_string_free(sc->marks, TRUE);
    g_string_free(sc->hatched, TRUE);
    g_string_free(sc->inc, TRUE);
    g_free(sc->cur_class);
}

/* The stage's value at x: its polyline's level over x (1 when at data-hi). */
static int wave_at(const SvgScan *sc, const char *stage, double x)
{
    const char *pts = g_hash_table_lookup(sc->wave_pts, stage);
    const char *hi = g_hash_table_lookup(sc->wave_hi, stage);
    if (!pts || !hi)
        return -1;
    g_auto(GStrv) p = g_strsplit(pts, " ", -1);
    for (guint i = 0; p[i] && p[i + 1]; i++) {
        if (!strcmp(p[i], "|") || !strcmp(p[i + 1], "|"))
            continue; /* the gap between two pieces */
        double x0 = g_ascii_strtod(p[i], NULL), x1 = g_ascii_strtod(p[i + 1], NULL);
        double y0 = g_ascii_strtod(strchr(p[i], ',') + 1, NULL), y1 = g_ascii_strtod(strchr(p[i + 1], ',') + 1, NULL);
        if (x0 <= x && x < x1 && y0 == y1)
            return y0 == g_ascii_strtod(hi, NULL);
    }
    return -1;
}

/* glm 'INST_RETIRED:ANY_P:c=2:e' on 3,3,0,2 from 2^48 - 2 (as in the table
 * test, semantics.md §3/§4, A4): thr = cond 1,1,0,1; latch before 0,1,1,0;
 * edge = inc 1,0,0,1; gate and en 1 throughout; the counter 2^48 - 1 from
 * cycle 0 to 2, then wraps to 0 in cycle 3 with a carry and a PMI.  Four
 * single-cycle spans: centres at x = 195, 305, 415, 525. */
static void test_svg(void)
{
    Run r = RUN("sim", "-e", "glm::INST_RETIRED:ANY_P:c=2:e", "--occurrences", "3,3,0,2", "--preload", "0xfffffffffffe",
                "-f", "svg");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(g_str_has_prefix(r.out, "<?xml"));
    SvgScan sc;
    CU_ASSERT_FATAL(svg_scan(r.out, &sc));
    CU_ASSERT_EQUAL(sc.svg, 1);
    CU_ASSERT_EQUAL(sc.spans, 4);
    const char *stages[] = { "gate", "thr", "cond", "latch", "edge", "en" };
    CU_ASSERT_EQUAL(sc.waves, G_N_ELEMENTS(stages)); /* one waveform per stage; inc is a value row */
    const int want[][4] = { { 1, 1, 1, 1 }, { 1, 1, 0, 1 }, { 1, 1, 0, 1 },
                            { 0, 1, 1, 0 }, { 1, 0, 0, 1 }, { 1, 1, 1, 1 } };
    const double cx[4] = { 195, 305, 415, 525 };
    for (guint s = 0; s < G_N_ELEMENTS(stages); s++)
        for (guint c = 0; c < 4; c++) {
            int got = wave_at(&sc, stages[s], cx[c]);
            if (got != want[s][c])
                fprintf(stderr, "# %s at cycle %u: %d, want %d\n", stages[s], c, got, want[s][c]);
            CU_ASSERT_EQUAL(got, want[s][c]);
        }
    CU_ASSERT_STRING_EQUAL(sc.ctr->str,
                           "195:0xffff_ffff_ffff;305:0xffff_ffff_ffff;415:0xffff_ffff_ffff;"
                           "525:0x0000_0000_0000;");
    CU_ASSERT_STRING_EQUAL(sc.marks->str, "ovf@525;pmi@525;");
    CU_ASSERT_STRING_EQUAL(sc.inc->str, "195:+1;305:+0;415:+0;525:+1;");
    CU_ASSERT_STRING_EQUAL(sc.hatched->str, ""); /* every cycle counted: every stage evaluated */
    /* the threshold drawn on the occurrence row, named as the PMU spells it */
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, ">c=2</text>"));
    svg_scan_clear(&sc);
    CU_ASSERT_PTR_NULL(strstr(r.out, "href"));
    run_clear(&r);

    /* 2^47 cycles from 2^47 (fast engine): cycle 0, then one span of
     * 2^47 - 1 cycles ending in the carry 2^47 + 2^47 = 2^48 and its PMI
     * (its speed is `pmusim bench sim`'s, not a timed test) */
    g_autofree char *big = write_tmp("big.stim", "pmu nhm\nrun 2^47 INST_RETIRED.ANY_P=1\n");
    r = RUN("sim", "-e", "nhm::INST_RETIRED:ANY_P", "--stim", big, "--engine", "fast", "--preload", "0x800000000000",
            "-f", "svg");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_FATAL(svg_scan(r.out, &sc));
    CU_ASSERT_EQUAL(sc.spans, 2);
    CU_ASSERT_EQUAL(sc.waves, 4);                                      /* gate thr cond en: no e, so no latch or edge */
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, ">1\u2013140737488355327<")); /* the span's first and last cycle */
    CU_ASSERT_STRING_EQUAL(sc.marks->str, "ovf@335;pmi@335;");         /* the second column: 250 + 170 / 2 */
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "(140737488355327 cycles)"));
    svg_scan_clear(&sc);
    run_clear(&r);
}

/* HTML: the SVG inline, the registers as bit fields (cmask = 2 in bits
 * 31:24, e in bit 18), the sentences for the hover, nothing fetched. */
static void test_html(void)
{
    Run r = RUN("sim", "-e", "glm::INST_RETIRED:ANY_P:c=2:e", "--occurrences", "3,3,0,2", "-f", "html");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(g_str_has_prefix(r.out, "<!DOCTYPE html>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "<table class=\"bits\">"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "title=\"bits 31:24\">cmask<br/>0x2</td>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "title=\"bits 18:18\">edge<br/>0x1</td>"));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(r.out, "<li data-i=\"0\">cycle 0: n=3 \u2265 c=2, rising edge (the latch was clear): +1 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "<script>"));
    CU_ASSERT_PTR_NULL(strstr(r.out, " src="));
    CU_ASSERT_PTR_NULL(strstr(r.out, "<link"));
    CU_ASSERT_PTR_NULL(strstr(r.out, "@import"));
    SvgScan sc;
    CU_ASSERT_FATAL(svg_scan(r.out, &sc));
    CU_ASSERT_EQUAL(sc.waves, 6);
    svg_scan_clear(&sc);
    /* the sentences are visible, not only hover titles */
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "<ol class=\"said\">\n<li data-i=\"0\">cycle 0: n=3"));
    run_clear(&r);
}

/* The nhm freeze stimulus (sim/tests/data/nhm-freeze.stim) reprograms
 * PERFEVTSEL0 to 0x5100c0 (usr only; the encoding wrote 0x5300c0) and sets
 * DEBUGCTL.Freeze_PerfMon_On_PMI (0x1000); the PMI of cycle 59 clears
 * GLOBAL_CTRL.  The page shows what the registers held, and the diagram
 * draws the stages of the frozen cycles 60-209 as not evaluated. */
static void test_html_register_panel(void)
{
    g_autofree char *stim = g_build_filename(srcdir, "sim", "tests", "data", "nhm-freeze.stim", NULL);
    Run r = RUN("sim", "-e", "nhm::INST_RETIRED:ANY_P", "--stim", stim, "-f", "html");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "<h2>Registers in effect</h2>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "<h3>cycle 0: IA32_PERFEVTSEL0 = 0x5100c0</h3>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "<h3>cycle 0: IA32_DEBUGCTL = 0x1000</h3>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "<h3>cycle 59: IA32_PERF_GLOBAL_CTRL = 0x0</h3>"));
    /* the changed field is marked: os (bit 17) went from 1 to 0 */
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "class=\"field chg\" title=\"bits 17:17\">os<br/>0x0</td>"));
    /* the sentence of the frozen span names the register that turned it off */
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "IA32_PERF_GLOBAL_CTRL changed from 0xf to 0x0 in cycle 59"));
    SvgScan sc;
    CU_ASSERT_FATAL(svg_scan(r.out, &sc));
    /* spans 0-9, 10-58, 59, 60-209: the last starts at x = 140 + 170 + 170 + 110 = 590 */
    CU_ASSERT_EQUAL(sc.spans, 4);
    CU_ASSERT_STRING_EQUAL(sc.hatched->str, "gate@591;thr@591;cond@591;");
    const char *stages[] = { "gate", "thr", "cond" };
    for (guint i = 0; i < G_N_ELEMENTS(stages); i++) {
        CU_ASSERT_EQUAL(wave_at(&sc, stages[i], 675), -1); /* no level at all in the frozen span */
        CU_ASSERT_EQUAL(wave_at(&sc, stages[i], 535), 1);  /* cycle 59 counted */
    }
    CU_ASSERT_EQUAL(wave_at(&sc, "en", 675), 0); /* the enable is known: off */
    svg_scan_clear(&sc);
    run_clear(&r);
}

/* --freeze sets the family's freeze-on-PMI fields (PmsCliFamily.freeze):
 * on the C-Box the U-Box's frz_all and pmi_core_sel, so the wrap in cycle 1
 * (2^48 - 2 + 1 + 1) raises a PMI and clears en_all: cycles 2 and 3 do not
 * count (count 0).  Without it the counter goes on (count 2) and no PMI is
 * raised.  Montecito has no such control to set. */
static void test_freeze_option(void)
{
    Run r = RUN("sim", "--pmu", "nhmex_cbox0", "-e", "LLC_MISSES:ALL:pmi", "--occurrences", "1,1,1,1", "--preload",
                "0xfffffffffffe", "--freeze");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(g_str_has_suffix(r.out, "PMI at 1\ncount=0 overflow=1\n"));
    run_clear(&r);
    /* --explain names the control and the field that froze it */
    r = RUN("sim", "--pmu", "nhmex_cbox0", "-e", "LLC_MISSES:ALL:pmi", "--occurrences", "1,1,1,1", "--preload",
            "0xfffffffffffe", "--freeze", "--explain");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "cycles 2-3 (2 cycles): not counting: "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
                                  "(U_MSR_PMON_GLOBAL_CTL changed from 0x90000002 to 0x80000002 in cycle 1; "
                                  "with U_MSR_PMON_GLOBAL_CTL.frz_all = 1 a PMI freezes counting)"));
    run_clear(&r);
    r = RUN("sim", "--pmu", "nhmex_cbox0", "-e", "LLC_MISSES:ALL:pmi", "--occurrences", "1,1,1,1", "--preload",
            "0xfffffffffffe");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(g_str_has_suffix(r.out, "PMI at no cycle\ncount=2 overflow=1\n"));
    run_clear(&r);
    /* x86 core: DEBUGCTL.freeze_perfmon_on_pmi: the v3 freeze clears GLOBAL_CTRL */
    r = RUN("sim", "--pmu", "nhm", "-e", "INST_RETIRED:ANY_P", "--occurrences", "1,1,1,1", "--preload",
            "0xfffffffffffe", "--freeze");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(g_str_has_suffix(r.out, "count=0 overflow=1\n"));
    run_clear(&r);
    /* explain names the bit a PMI needs to freeze, and what it then does */
    r = RUN("explain", "nhm::INST_RETIRED:ANY_P");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
                                  "freeze: the PMI stops every counter only when "
                                  "IA32_DEBUGCTL.freeze_perfmon_on_pmi (bit 12) is set: the PMI clears "
                                  "IA32_PERF_GLOBAL_CTRL (v3)"));
    run_clear(&r);
    r = RUN("sim", "--pmu", "montecito", "-e", "NOPS_RETIRED:oi", "--occurrences", "1", "--freeze");
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--freeze: montecito has no freeze-on-PMI control to set"));
    run_clear(&r);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_teach PMUSIM [SRCDIR]\n");
        return 2;
    }
    pmusim_path = argv[1];
    srcdir = argc > 2 ? argv[2] : ".";
    tmpdir = g_dir_make_tmp("teach-XXXXXX", NULL);
    if (!tmpdir)
        return 1;
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("teach", NULL, NULL);
    CU_add_test(s, "table: the stage columns", test_table_stages);
    CU_add_test(s, "table: why a counter is off", test_table_off_reasons);
    CU_add_test(s, "--explain sentences", test_explain_sentences);
    CU_add_test(s, "explain --occurrences: the worked example", test_explain_worked_example);
    CU_add_test(s, "vcd: clock, CPL and stage signals", test_vcd_stages);
    CU_add_test(s, "svg: one waveform per stage, values at known x", test_svg);
    CU_add_test(s, "html: registers, sentences, standalone", test_html);
    CU_add_test(s, "html: the registers in effect, frozen stages not evaluated", test_html_register_panel);
    CU_add_test(s, "--freeze: the family's freeze-on-PMI control", test_freeze_option);
    int status = pms_cu_tap_run();
    pms_cu_remove_scratch(tmpdir);
    g_free(tmpdir);
    return status;
}
