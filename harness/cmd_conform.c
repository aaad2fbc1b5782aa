/* pmusim conform — run the golden vectors against one encoder backend and
 * report per PMU.  Every selected vector is run and ends passed or failed;
 * an expectations file (vectors/expected/<backend>.txt by default, --expect,
 * --strict for none) turns the failures it lists into expected failures
 * (known differences).  Exit status: 0 when every failure is expected, 1 on
 * any other failure, on an expected failure that passes, on an entry that
 * matches nothing (stale), or when nothing ran; 2 on a usage error or an
 * expectations file that cannot be read or parsed. */
#include "backend.h"
#include "cli_common.h"
#include "commands.h"
#include "conform_sim.h"
#include "field_diff.h"
#include "out_file.h"
#include "spool.h"
#include "vectors.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Failure lines printed without --max-failures or --verbose: the groups by
 * cause come first, so the lines are examples, not the whole story. */
#define DEFAULT_MAX_FAILURES 50

/* What the runner's callbacks need: the backend for encoding vectors, the
 * simulation runner (same backend) for sim vectors. */
typedef struct {
    PmsBackend *backend;
    PmsConformSim *sim;
    const PmsModelSet *models; /* the field layouts a failure is told with */
    gint64 last_shown;         /* the progress line's last redraw (monotonic us) */
    gboolean progress;         /* stderr is a terminal: show it */
    gboolean shown;            /* a progress line is on the screen */
    struct Tally *tally;       /* the outcomes as the reports need them */
    gboolean check_sim;        /* sim vectors run: each is checked as it is parsed */
} RunCtx;

static void show_progress(guint done, guint total, const char *pmu, gpointer user_data)
{
    RunCtx *ctx = user_data;
    gint64 now = g_get_monotonic_time();
    if (done < total && now - ctx->last_shown < G_USEC_PER_SEC / 10)
        return;
    ctx->last_shown = now;
    ctx->shown = TRUE;
    fprintf(stderr, "\r\033[Kconform: %u/%u vectors (%s)", done, total, pmu);
    fflush(stderr);
}

static char *explain_codes(const PmsVector *v, const PmsVectorAnswer *a, char **cause, gpointer user_data)
{
    RunCtx *ctx = user_data;
    if (!a) {
        /* a simulation vector: the fields its codes got wrong, if any */
        *cause = pms_conform_sim_take_cause(ctx->sim);
        return NULL;
    }
    return pms_conform_explain(v, a, cause, (gpointer)ctx->models);
}

static gboolean run_sim(const PmsVector *v, char **message, gpointer user_data)
{
    RunCtx *ctx = user_data;
    return pms_conform_sim_run(v, message, ctx->sim);
}

static void backend_encode(const char *event, gsize len, PmsVectorAnswer *out, gpointer user_data)
{
    PmsBackend *b = ((RunCtx *)user_data)->backend;
    PmsBackendResult r;
    memset(&r, 0, sizeof r);
    (void)len; /* the vector format refuses NUL, so the C string is the whole event */
    pms_backend_encode(b, event, &r);
    g_strlcpy(out->ret, r.ret, sizeof out->ret);
    out->n_codes = MIN(r.n_codes, PMS_VECTOR_MAX_CODES);
    for (guint i = 0; i < out->n_codes; i++)
        out->codes[i] = r.codes[i];
    out->fstr = g_steal_pointer(&r.fstr);
    pms_backend_result_clear(&r);
}

/* The failed column, 8 wide: red on a terminal when not 0 (NO_COLOR). */
static char *failed_cell(gboolean colour, guint n)
{
    g_autofree char *cell = g_strdup_printf("%8u", n);
    return pms_cli_paint(colour && n, "1;31", cell);
}

/* What the reports need of one PMU, gathered as its vectors run (issue 21:
 * the vectors stream, nothing else of them is kept; the text of --junit and
 * --write-expect goes to spools, under the PMU's index). */
typedef struct {
    char *pmu;
    guint idx;                       /* its place in Tally.pmus: its key in the spools */
    guint n[2], passed[2], known[2]; /* per kind: vectors, passed, expected failures */
    double secs[2];
    /* --write-expect: every vector failed -> a pmu entry, else one a vector */
    guint vectors, failed;
    const char *first_reason; /* the first failure's entry, if any (owned by the expectations) */
    char *first_cause;
    /* --junit: outcomes per JUnit class */
    guint jn[4];
} PmuTally;

static void pmu_tally_free(gpointer p)
{
    PmuTally *t = p;
    g_free(t->pmu);
    g_free(t->first_cause);
    g_free(t);
}

/* Failures of one cause: the same PMU and the same cause (the differing
 * fields, the pair of error classes, ...), its first failure the example. */
typedef struct {
    char *pmu, *cause;
    guint count, seq;
    char *example;
} Group;

static void group_free(gpointer p)
{
    Group *g = p;
    g_free(g->pmu);
    g_free(g->cause);
    g_free(g->example);
    g_free(g);
}

/* The judged outcomes as the reports need them: counts, the failures by
 * cause, the failure lines printed (at most max), the stale ones; --tap
 * printed as the outcomes come, --junit's test cases and --write-expect's
 * entries spooled (a temporary file beside the report, unlinked: memory does
 * not grow with them) until the totals their heads need are known. */
typedef struct Tally {
    PmsExpectJudge *judge;
    guint passed, failed, xfail, stale;
    GPtrArray *pmus; /* PmuTally*, in order of first appearance */
    GHashTable *pmu_index;
    GPtrArray *groups; /* Group*, in order of first failure */
    GHashTable *group_index;
    guint max;
    GPtrArray *fail_lines;  /* char*: the first max failure messages */
    GPtrArray *stale_lines; /* char*: "file:line: \"event\" passes, but REASON" */
    FILE *tap;              /* --tap: stdout */
    guint tap_n;
    PmsSpool *junit, *expect; /* NULL: not asked for */
    guint jtot[4];
} Tally;

static void tally_add(Tally *t, const PmsVectorOutcome *o);

/* A stream's callbacks: a sim vector's stimulus parsed (a malformed one or
 * an unknown event stops the run with file:line), each outcome tallied, and
 * the parsed stimulus dropped with its vector. */
static gboolean check_vector(const PmsVector *v, gpointer user_data, GError **error)
{
    RunCtx *ctx = user_data;
    return !ctx->check_sim || pms_conform_sim_check_one(ctx->sim, v, error);
}

static void take_outcome(const PmsVectorOutcome *o, gpointer user_data)
{
    tally_add(((RunCtx *)user_data)->tally, o);
}

static void release_vector(const PmsVector *v, gpointer user_data)
{
    pms_conform_sim_forget(((RunCtx *)user_data)->sim, v);
}

/* The vectors: a directory's, or the built-in ones (every kind's files: a
 * malformed one fails whatever --kind says, as a loaded set did). */
static gboolean stream_source(PmsVectorStream *st, const char *dir, GError **error)
{
    return dir ? pms_vector_stream_dir(st, dir, error) : pms_vector_stream_builtin(st, ~0u, error);
}

static Tally *tally_new(const PmsExpectations *e, guint max)
{
    Tally *t = g_new0(Tally, 1);
    t->judge = pms_expect_judge_new(e);
    t->pmus = g_ptr_array_new_with_free_func(pmu_tally_free);
    t->pmu_index = g_hash_table_new(g_str_hash, g_str_equal);
    t->groups = g_ptr_array_new_with_free_func(group_free);
    t->group_index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    t->max = max;
    t->fail_lines = g_ptr_array_new_with_free_func(g_free);
    t->stale_lines = g_ptr_array_new_with_free_func(g_free);
    return t;
}

/* The reports' spools, beside the files they become (an unwritable place
 * fails here, before anything runs, not after the whole run). */
static gboolean tally_spool(PmsSpool **spool, const char *option, const char *path)
{
    if (!path)
        return TRUE;
    g_autofree char *dir = pms_out_file_scratch_dir(path);
    g_autoptr(GError) err = NULL;
    *spool = pms_spool_new(dir, &err);
    if (!*spool)
        fprintf(stderr, "pmusim: conform: %s %s: %s\n", option, path, err->message);
    return *spool != NULL;
}

static void tally_free(Tally *t)
{
    if (!t)
        return;
    pms_expect_judge_free(t->judge);
    g_ptr_array_unref(t->pmus);
    g_hash_table_destroy(t->pmu_index);
    g_ptr_array_unref(t->groups);
    g_hash_table_destroy(t->group_index);
    g_ptr_array_unref(t->fail_lines);
    g_ptr_array_unref(t->stale_lines);
    pms_spool_free(t->junit);
    pms_spool_free(t->expect);
    g_free(t);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Tally, tally_free)

/* One row per PMU and kind (encode, sim), in the report's PMU order. */
/* failed: failures the expectations do not excuse (stale ones included);
 * known: expected failures. */
static void print_table(FILE *out, const PmsVectorReport *r, const Tally *x, const PmsExpectations *e,
                        const char *backend, const char *kinds)
{
    fprintf(out, "conform: backend %s, kind %s, expectations %s\n", backend, kinds,
            e ? pms_expectations_file(e) : "none");
    gboolean colour = pms_cli_colour(out);
    /* the PMU column as wide as the longest name (nhmex_cbox0 is 11) */
    int w = 10;
    for (guint i = 0; i < x->pmus->len; i++)
        w = MAX(w, (int)strlen(((const PmuTally *)g_ptr_array_index(x->pmus, i))->pmu));
    fprintf(out, "%-*s %-7s %8s %8s %8s %8s %8s\n", w, "PMU", "kind", "vectors", "passed", "failed", "known", "time");
    for (guint i = 0; i < x->pmus->len; i++) {
        const PmuTally *s = g_ptr_array_index(x->pmus, i);
        for (guint k = PMS_VECTOR_ENCODE; k <= PMS_VECTOR_SIM; k++) {
            guint n = s->n[k];
            if (n) {
                g_autofree char *failed = failed_cell(colour, n - s->passed[k] - s->known[k]);
                fprintf(out, "%-*s %-7s %8u %8u %s %8u %7.2fs\n", w, s->pmu, pms_vector_kind_name(k), n, s->passed[k],
                        failed, s->known[k], s->secs[k]);
            }
        }
    }
    g_autofree char *failed = failed_cell(colour, x->failed + x->stale);
    fprintf(out, "%-*s %-7s %8u %8u %s %8u %7.2fs\n", w, "total", "", r->vectors, x->passed, failed, x->xfail,
            r->seconds);
}

static double share(guint part, guint whole)
{
    return whole ? 100.0 * part / whole : 100.0;
}

static const char *mutant_where(const PmsMutant *mu, char *buf, gsize len)
{
    const PmsSimVector *sv = pms_vector_sim(mu->vector);
    if (mu->code == PMS_MUTANT_CODE_PEBS_ENABLE) {
        g_snprintf(buf, len, "%s:%u %s IA32_PEBS_ENABLE bit %u", mu->vector->file, mu->vector->line, sv->name, mu->bit);
        return buf;
    }
    g_snprintf(buf, len, "%s:%u %s event %u codes[%u] bit %u", mu->vector->file, mu->vector->line, sv->name, mu->event,
               mu->code, mu->bit);
    return buf;
}

/* The mutant report: per PMU the share caught over all mutants and over the
 * observable ones; every survivor listed, missed ones first, then the
 * unobservable ones grouped by reason. */
static void print_mutants(FILE *out, const PmsMutantReport *r, const char *backend)
{
    fprintf(out,
            "mutants: backend %s; one bit of codes[0]/codes[1] (and of IA32_PEBS_ENABLE where a vector has "
            "`pebs`) flipped at a time, bits 0..63\n",
            backend);
    if (r->equivalent)
        fprintf(out,
                "not counted: %u flips that program the same register contents (bits the written register "
                "ignores, model key 'ignored'; bits no register holds, a fixed-only event's codes[0] beyond "
                "FIXED_CTR_CTRL's fields)\n",
                r->equivalent);
    /* caught%: over every mutant; excl.unobs%: over the observable ones (the
     * goal); by-count%: the observable ones the simulator accepted, i.e. the
     * share decided by a wrong count rather than by a #GP. */
    fprintf(out, "%-8s %7s %8s %8s %6s %7s %7s %8s %10s %10s\n", "PMU", "vectors", "mutants", "caught", "(#GP)",
            "unobs", "missed", "caught%", "excl.unobs%", "by-count%");
    for (guint i = 0; i < r->pmus->len; i++) {
        const PmsMutantPmu *p = g_ptr_array_index(r->pmus, i);
        fprintf(out, "%-8s %7u %8u %8u %6u %7u %7u %7.2f%% %9.2f%% %9.2f%%\n", p->pmu, p->vectors, p->mutants,
                p->caught, p->caught_gp, p->unobservable, p->missed, share(p->caught, p->mutants),
                share(p->caught, p->mutants - p->unobservable),
                share(p->caught - p->caught_gp, p->mutants - p->unobservable - p->caught_gp));
    }
    fprintf(out, "%-8s %7s %8u %8u %6u %7u %7u %7.2f%% %9.2f%% %9.2f%%\n", "total", "", r->mutants, r->caught,
            r->caught_gp, r->unobservable, r->missed, share(r->caught, r->mutants),
            share(r->caught, r->mutants - r->unobservable),
            share(r->caught - r->caught_gp, r->mutants - r->unobservable - r->caught_gp));
    char buf[512];
    if (r->baseline->len) {
        fprintf(out, "\nvectors failing without a mutation (their mutants not judged: %u):\n", r->baseline->len);
        for (guint i = 0; i < r->baseline->len; i++)
            fprintf(out, "  %s\n", (const char *)g_ptr_array_index(r->baseline, i));
    }
    fprintf(out, "\nsurvivors, missed (each a missing vector): %u\n", r->missed);
    for (guint i = 0; i < r->survivors->len; i++) {
        const PmsMutant *mu = &g_array_index(r->survivors, PmsMutant, i);
        if (mu->fate == PMS_MUTANT_MISSED)
            fprintf(out, "  %s\n", mutant_where(mu, buf, sizeof buf));
    }
    fprintf(out, "\nsurvivors, unobservable by design (no stimulus can tell them apart): %u\n", r->unobservable);
    g_autoptr(GPtrArray) reasons = g_ptr_array_new();
    for (guint i = 0; i < r->survivors->len; i++) {
        const PmsMutant *mu = &g_array_index(r->survivors, PmsMutant, i);
        if (mu->fate == PMS_MUTANT_UNOBSERVABLE && !g_ptr_array_find(reasons, mu->why, NULL))
            g_ptr_array_add(reasons, (gpointer)mu->why);
    }
    for (guint k = 0; k < reasons->len; k++) {
        const char *why = g_ptr_array_index(reasons, k);
        guint n = 0;
        for (guint i = 0; i < r->survivors->len; i++)
            n += g_array_index(r->survivors, PmsMutant, i).why == why;
        fprintf(out, "  %u: %s\n", n, why);
        for (guint i = 0; i < r->survivors->len; i++) {
            const PmsMutant *mu = &g_array_index(r->survivors, PmsMutant, i);
            if (mu->why == why)
                fprintf(out, "    %s\n", mutant_where(mu, buf, sizeof buf));
        }
    }
    /* the LBR configuration's register, flipped bit by bit in the vectors with an lbr record */
    fprintf(out,
            "\nLBR_SELECT mutants: %u, caught %u (%.2f%%; %.2f%% of the observable); unobservable %u (the "
            "LBR does the same with every branch class and ring: semantics.md A13 and 8b); missed %u\n",
            r->lbr_mutants, r->lbr_caught, share(r->lbr_caught, r->lbr_mutants),
            share(r->lbr_caught, r->lbr_mutants - r->lbr_unobservable), r->lbr_unobservable, r->lbr_missed->len);
    for (guint i = 0; i < r->lbr_missed->len; i++)
        fprintf(out, "  %s\n", (const char *)g_ptr_array_index(r->lbr_missed, i));
}

static gint group_cmp(gconstpointer a, gconstpointer b)
{
    const Group *ga = *(Group *const *)a, *gb = *(Group *const *)b;
    if (ga->count != gb->count)
        return ga->count > gb->count ? -1 : 1;
    /* equal counts: the one seen first first (g_ptr_array_sort is not stable) */
    return ga->seq < gb->seq ? -1 : ga->seq > gb->seq;
}

/* A failure (no entry excuses it) into its group. */
static void group_add(Tally *t, const PmsVectorOutcome *o)
{
    const char *cause = o->cause ? o->cause : "failed";
    char *key = g_strdup_printf("%s\n%s", o->vector->pmu, cause);
    Group *g = g_hash_table_lookup(t->group_index, key);
    if (!g) {
        g = g_new0(Group, 1);
        g->pmu = g_strdup(o->vector->pmu);
        g->cause = g_strdup(cause);
        g->example = g_strdup(o->message);
        g->seq = t->groups->len;
        g_ptr_array_add(t->groups, g);
        g_hash_table_insert(t->group_index, key, g);
    } else {
        g_free(key);
    }
    g->count++;
}

/* The failures grouped by cause, largest group first, each with its count
 * and one example: the bug behind hundreds of failures on one line. */
static void print_groups(FILE *out, Tally *x)
{
    if (!x->groups->len)
        return;
    g_ptr_array_sort(x->groups, group_cmp);
    g_autofree char *head = pms_cli_paint(pms_cli_colour(out), "1;31", "failures by cause");
    fprintf(out, "\n%s (%u group(s), largest first):\n", head, x->groups->len);
    for (guint i = 0; i < x->groups->len; i++) {
        const Group *g = g_ptr_array_index(x->groups, i);
        fprintf(out, "  %u x %s: %s\n    e.g. %s\n", g->count, g->pmu, g->cause, g->example);
    }
}

/* The first x->max failure lines (G_MAXUINT: all); the rest are counted,
 * and are in the TAP and JUnit reports. */
static void print_failures(FILE *out, const Tally *x, const GPtrArray *unmatched)
{
    if (x->failed) {
        fprintf(out, "\nfailures (%u):\n", x->failed);
        for (guint i = 0; i < x->fail_lines->len; i++)
            fprintf(out, "  %s\n", (const char *)g_ptr_array_index(x->fail_lines, i));
        if (x->failed > x->max)
            fprintf(out,
                    "  ... and %u more (--verbose or --max-failures N to print them; --tap and --junit list all)\n",
                    x->failed - x->max);
    }
    if (x->stale || unmatched->len) {
        fprintf(out, "\nstale expectations (%u): known differences that no longer happen\n", x->stale + unmatched->len);
        for (guint i = 0; i < x->stale_lines->len; i++)
            fprintf(out, "  %s\n", (const char *)g_ptr_array_index(x->stale_lines, i));
        for (guint i = 0; i < unmatched->len; i++)
            fprintf(out, "  %s\n", (const char *)g_ptr_array_index(unmatched, i));
    }
    if (x->xfail)
        fprintf(out, "\nknown differences: %u expected failure(s), each listed with its reason in the expectations\n",
                x->xfail);
}

/* The test name a report shows for one vector, stable when lines move:
 * "pmu/topic.enc \"event\"" (a sim vector: its name). */
static char *vector_title(const PmsVector *v)
{
    g_autofree char *file = pms_vector_expect_file(v);
    const PmsSimVector *sv = pms_vector_sim(v);
    g_autofree char *ev = sv ? g_strdup(sv->name) : pms_vector_escape(v->event, v->event_len, 80);
    return g_strdup_printf(sv ? "%s %s" : "%s \"%s\"", file, ev);
}

/* Text on one line without TAP's '#' (a directive would start there). */
static char *tap_text(const char *s)
{
    char *t = g_utf8_make_valid(s, -1);
    return g_strdelimit(t, "#\n", '_');
}

/* s as a YAML scalar for a TAP diagnostic block, its text kept whole: single
 * quoted with a quote doubled (YAML's one escape there), or, when s holds a
 * control character that form cannot carry, double quoted with escapes. */
static char *yaml_scalar(const char *s)
{
    g_autofree char *t = g_utf8_make_valid(s, -1);
    gboolean ctrl = FALSE;
    for (const char *p = t; *p; p++)
        ctrl = ctrl || (guchar)*p < 0x20 || *p == 0x7f;
    GString *out = g_string_new(ctrl ? "\"" : "'");
    for (const char *p = t; *p; p++) {
        if (!ctrl) {
            if (*p == '\'')
                g_string_append_c(out, '\'');
            g_string_append_c(out, *p);
        } else if (*p == '"' || *p == '\\')
            g_string_append_printf(out, "\\%c", *p);
        else if (*p == '\n')
            g_string_append(out, "\\n");
        else if (*p == '\t')
            g_string_append(out, "\\t");
        else if ((guchar)*p < 0x20 || *p == 0x7f)
            g_string_append_printf(out, "\\x%02x", (guchar)*p);
        else
            g_string_append_c(out, *p);
    }
    g_string_append_c(out, ctrl ? '"' : '\'');
    return g_string_free(out, FALSE);
}

/* TAP as the vectors run, on stdout: the plan comes last (TAP allows it
 * there), when the count is known, so that nothing is held until the end; a
 * run that stops has no plan, and says why on a "Bail out!" line.  Expected
 * failures are TAP TODO tests ("not ok ... # TODO known difference:
 * REASON"); a stale one is a plain failure, and so is each stale entry that
 * matched no vector (numbered after the vectors). */
static void tap_add(Tally *t, const PmsVectorOutcome *o, PmsVerdict vd, const char *reason)
{
    FILE *s = t->tap;
    g_autofree char *title = vector_title(o->vector);
    /* '#' starts a TAP directive: keep it out of the description. */
    g_strdelimit(title, "#", '_');
    fprintf(s, "%s %u - %s %s", vd == PMS_VERDICT_PASS ? "ok" : "not ok", ++t->tap_n, o->vector->pmu, title);
    if (vd == PMS_VERDICT_XFAIL) {
        g_autofree char *why = tap_text(reason);
        fprintf(s, " # TODO known difference: %s\n", why);
    } else if (vd == PMS_VERDICT_STALE) {
        g_autofree char *text = g_strdup_printf(
            "passes, but the expectations list it as a known difference (stale entry, remove it): %s", reason);
        g_autofree char *msg = yaml_scalar(text);
        fprintf(s, "\n  ---\n  message: %s\n  ...\n", msg);
    } else {
        fputs("\n", s);
    }
    if (vd == PMS_VERDICT_FAIL) {
        g_autofree char *msg = yaml_scalar(o->message);
        fprintf(s, "  ---\n  message: %s\n  ...\n", msg);
    }
}

/* The end of the TAP stream: the stale entries that matched no vector, then the plan. */
static void tap_finish(const PmsVectorReport *r, const GPtrArray *unmatched)
{
    for (guint i = 0; i < unmatched->len; i++) {
        g_autofree char *msg = tap_text(g_ptr_array_index(unmatched, i));
        printf("not ok %u - stale expectation %s\n", r->vectors + i + 1, msg);
    }
    printf("1..%u\n", r->vectors + unmatched->len);
}

/* A run stopped after its TAP began: why, for the TAP reader (the plan is
 * missing too). */
static void tap_bail_out(const Tally *t, const char *why)
{
    if (!t || !t->tap)
        return;
    g_autofree char *text = tap_text(why);
    printf("Bail out! %s\n", text);
}

static char *xml(const char *text)
{
    g_autofree char *valid = g_utf8_make_valid(text, -1);
    return g_markup_escape_text(valid, -1);
}

/* JUnit XML, one testsuite per PMU.  The test cases are spooled as they
 * come; the file is written at the end through a temporary file renamed onto
 * it (out_file.h), so a failed or interrupted run never leaves half a report. */
/* An outcome's JUnit class: a crash unexpected is an <error>, an expected
 * failure (crash or not) <skipped> with its reason, a stale one a <failure>. */
typedef enum { J_PASS, J_FAIL, J_ERROR, J_SKIP } JKind;

static JKind junit_kind(gboolean crashed, PmsVerdict vd)
{
    switch (vd) {
    case PMS_VERDICT_PASS:
        return J_PASS;
    case PMS_VERDICT_XFAIL:
        return J_SKIP;
    case PMS_VERDICT_STALE:
        return J_FAIL;
    default:
        return crashed ? J_ERROR : J_FAIL;
    }
}

/* JUnit XML, one testsuite per PMU (and one "expectations" suite for stale
 * entries that matched no vector).  Test names are stable: the vector file
 * and the event string (or sim vector name), no line number. */
/* An entry's reason without the "FILE:LINE: " the judge puts before it. */
static const char *bare_reason(const char *r)
{
    const char *p = strstr(r, ": ");
    /* FILE:LINE: -- skip it only when a line number ends the prefix */
    if (p && p > r && g_ascii_isdigit(p[-1]))
        return p + 2;
    return r;
}

/* --write-expect: a failing vector's entry, by file and string, spooled
 * under its PMU.  A known difference keeps its reason; a new one gets a TODO
 * with its first failure, for the maintainer to replace with the evidence. */
static void expect_add(PmsSpool *spool, PmuTally *p, const PmsVectorOutcome *oc, const char *reason)
{
    p->vectors++;
    if (oc->passed)
        return;
    p->failed++;
    p->first_reason = p->first_reason ? p->first_reason : reason;
    if (!p->first_cause && oc->cause)
        p->first_cause = g_strdup(oc->cause);
    const PmsVector *v = oc->vector;
    const PmsSimVector *sv = pms_vector_sim(v);
    g_autofree char *file = pms_vector_expect_file(v);
    g_autofree char *key =
        sv ? pms_vector_escape(sv->name, strlen(sv->name), 0) : pms_vector_escape(v->event, v->event_len, 0);
    g_autofree char *todo = NULL;
    if (!reason) {
        g_autofree char *cause = g_strdup(oc->cause ? oc->cause : "failed");
        g_strdelimit(cause, "\n", ' ');
        todo = g_strdup_printf("TODO: why? (%s)", cause);
    }
    pms_spool_printf(spool, p->idx, "%s \"%s\" %s\n", file, key, reason ? bare_reason(reason) : todo);
}

/* --write-expect: the run's failures as an expectations file
 * (docs/vectors-format.md, 'Expectations'): a PMU all of whose vectors
 * failed as one `pmu` entry, every other failing vector by file and
 * string.  Stale entries (vectors that pass now) are left out. */
static gboolean write_expect(const char *path, const Tally *x, const char *backend, GError **error)
{
    PmsOutFile *of = pms_out_file_begin(path, error);
    if (!of)
        return FALSE;
    FILE *o = pms_out_file_stream(of);
    fprintf(o,
            "# Known differences of backend %s, written by `pmusim conform --write-expect` from a "
            "run:\n# every vector that failed.  Replace each TODO with the evidence (format: "
            "docs/vectors-format.md, 'Expectations').\n\n",
            backend);
    guint entries = 0;
    for (guint i = 0; i < x->pmus->len; i++) {
        const PmuTally *s = g_ptr_array_index(x->pmus, i);
        if (s->failed == 0)
            continue;
        if (s->failed == s->vectors && s->vectors > 1) {
            fprintf(o, "pmu %s %s\n", s->pmu,
                    s->first_reason ? bare_reason(s->first_reason) : "TODO: every vector of it fails");
            entries++;
            continue;
        }
        if (!pms_spool_copy(x->expect, s->idx, o, path, error)) {
            pms_out_file_abort(of);
            return FALSE;
        }
        entries += s->failed;
    }
    if (entries == 0)
        fputs("# (nothing failed)\n", o);
    return pms_out_file_commit(of, error);
}

/* --junit: one vector's testcase, in its PMU's suite. */
static void junit_add(Tally *t, PmuTally *p, const PmsVectorOutcome *o, PmsVerdict vd, const char *reason)
{
    JKind jk = junit_kind(o->crashed, vd);
    p->jn[jk]++;
    t->jtot[jk]++;
    PmsSpool *s = t->junit;
    guint key = p->idx;
    g_autofree char *pmu = xml(p->pmu);
    g_autofree char *title = vector_title(o->vector);
    g_autofree char *name = xml(title);
    g_autofree char *kind = xml(pms_vector_kind_name(o->vector->kind));
    pms_spool_printf(s, key, "    <testcase classname=\"conform.%s.%s\" name=\"%s\" time=\"%.6f\"", pmu, kind, name,
                     o->seconds);
    if (jk == J_PASS) {
        pms_spool_append(s, key, "/>\n", 3);
        return;
    }
    g_autofree char *msg = xml(o->message ? o->message : "");
    g_autofree char *why = xml(reason ? reason : "");
    if (jk == J_SKIP)
        pms_spool_printf(s, key, ">\n      <skipped message=\"known difference: %s\">%s</skipped>\n", why, msg);
    else if (jk == J_ERROR)
        pms_spool_printf(s, key, ">\n      <error type=\"BACKEND_CRASH\" message=\"%s\">%s</error>\n", msg, msg);
    else if (vd == PMS_VERDICT_STALE)
        pms_spool_printf(s, key,
                         ">\n      <failure type=\"stale expectation\" message=\"passes, but the "
                         "expectations list it: %s\"/>\n",
                         why);
    else
        pms_spool_printf(s, key, ">\n      <failure message=\"%s\">%s</failure>\n", msg, msg);
    pms_spool_printf(s, key, "    </testcase>\n");
}

/* The JUnit report: the head with the run's totals, then each PMU's suite,
 * its head with the PMU's totals and its test cases copied from the spool. */
static gboolean write_junit(const char *path, const PmsVectorReport *r, const Tally *x, const GPtrArray *unmatched,
                            const char *backend, GError **error)
{
    PmsOutFile *of = pms_out_file_begin(path, error);
    if (!of)
        return FALSE;
    FILE *s = pms_out_file_stream(of);
    g_autofree char *b = xml(backend);
    fprintf(s,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites name=\"pmusim conform %s\" tests=\"%u\" failures=\"%u\" errors=\"%u\" "
            "skipped=\"%u\" time=\"%.6f\">\n",
            b, r->vectors + unmatched->len, x->jtot[J_FAIL] + unmatched->len, x->jtot[J_ERROR], x->jtot[J_SKIP],
            r->seconds);
    for (guint p = 0; p < x->pmus->len; p++) {
        const PmuTally *t = g_ptr_array_index(x->pmus, p);
        const PmsVectorPmuSummary *sum = g_ptr_array_index(r->pmus, p);
        g_autofree char *pmu = xml(t->pmu);
        fprintf(s,
                "  <testsuite name=\"%s\" tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\" "
                "time=\"%.6f\">\n",
                pmu, sum->vectors, t->jn[J_FAIL], t->jn[J_ERROR], t->jn[J_SKIP], sum->seconds);
        if (!pms_spool_copy(x->junit, t->idx, s, path, error)) {
            pms_out_file_abort(of);
            return FALSE;
        }
        fputs("  </testsuite>\n", s);
    }
    if (unmatched->len) {
        fprintf(s,
                "  <testsuite name=\"expectations\" tests=\"%u\" failures=\"%u\" errors=\"0\" "
                "skipped=\"0\" time=\"0\">\n",
                unmatched->len, unmatched->len);
        for (guint i = 0; i < unmatched->len; i++) {
            g_autofree char *msg = xml(g_ptr_array_index(unmatched, i));
            fprintf(s,
                    "    <testcase classname=\"conform.expectations\" name=\"%s\" time=\"0\">\n"
                    "      <failure type=\"stale expectation\" message=\"%s\"/>\n    </testcase>\n",
                    msg, msg);
        }
        fputs("  </testsuite>\n", s);
    }
    fputs("</testsuites>\n", s);
    return pms_out_file_commit(of, error);
}

/* One outcome judged and kept as the reports need it. */
static void tally_add(Tally *t, const PmsVectorOutcome *o)
{
    const PmsVector *v = o->vector;
    const char *reason = NULL;
    PmsVerdict vd = pms_expect_judge_one(t->judge, v, o->passed, &reason);
    PmuTally *p = g_hash_table_lookup(t->pmu_index, v->pmu);
    if (!p) {
        p = g_new0(PmuTally, 1);
        p->pmu = g_strdup(v->pmu);
        p->idx = t->pmus->len;
        g_ptr_array_add(t->pmus, p);
        g_hash_table_insert(t->pmu_index, p->pmu, p);
    }
    p->n[v->kind]++;
    p->passed[v->kind] += vd == PMS_VERDICT_PASS;
    p->known[v->kind] += vd == PMS_VERDICT_XFAIL;
    p->secs[v->kind] += o->seconds;
    switch (vd) {
    case PMS_VERDICT_PASS:
        t->passed++;
        break;
    case PMS_VERDICT_XFAIL:
        t->xfail++;
        break;
    case PMS_VERDICT_STALE: {
        t->stale++;
        g_autofree char *ev = pms_vector_escape(v->event, v->event_len, 80);
        g_ptr_array_add(t->stale_lines, g_strdup_printf("%s:%u: \"%s\" passes, but %s", v->file, v->line, ev, reason));
        break;
    }
    default:
        t->failed++;
        group_add(t, o);
        if (t->fail_lines->len < t->max)
            g_ptr_array_add(t->fail_lines, g_strdup(o->message));
        break;
    }
    if (t->tap)
        tap_add(t, o, vd, reason);
    if (t->junit)
        junit_add(t, p, o, vd, reason);
    if (t->expect)
        expect_add(t->expect, p, o, reason);
}

int pms_cmd_conform(int argc, char **argv)
{
    g_auto(GStrv) model_files = NULL;
    g_autofree char *backend_spec = NULL;
    g_autofree char *junit = NULL;
    g_autofree char *kind = NULL;
    g_autofree char *vectors_dir = NULL;
    g_autofree char *expect_file = NULL;
    g_autofree char *write_expect_file = NULL;
    gboolean strict = FALSE;
    gboolean tap = FALSE;
    gboolean mutants = FALSE;
    gboolean verbose = FALSE;
    gint max_failures = -1;
    gint timeout_ms = PMS_CLI_TIMEOUT_UNSET;
    double goal = 95.0;
    gint jobs = G_MININT; /* unset: one worker per core */
    const GOptionEntry entries[] = {
        { "mutants", 0, 0, G_OPTION_ARG_NONE, &mutants,
          "Flip each bit of each code of every sim vector, one at a time, and report the share caught", NULL },
        { "goal", 0, 0, G_OPTION_ARG_DOUBLE, &goal,
          "With --mutants: exit 1 when less than PCT of the observable mutants are caught (default 95)", "PCT" },
        { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs,
          "With --mutants: run them on N workers (default: one per core); the report is the same with any N", "N" },
        { "backend", 'B', 0, G_OPTION_ARG_STRING, &backend_spec,
          "Encoder backend: builtin (default), libpfm4 or cmd:PROGRAM", "B" },
        { "timeout", 0, 0, G_OPTION_ARG_INT, &timeout_ms,
          "Milliseconds a backend process may spend on one line (default 10000)", "MS" },
        { "junit", 0, 0, G_OPTION_ARG_FILENAME, &junit,
          "Also write a JUnit XML report to FILE (- for stdout: the table goes to stderr)", "FILE" },
        { "tap", 0, 0, G_OPTION_ARG_NONE, &tap,
          "Print TAP on stdout as the vectors run, the plan last (the table goes to stderr)", NULL },
        { "kind", 0, 0, G_OPTION_ARG_STRING, &kind, "Run one kind of vector only: encode or sim", "KIND" },
        { "vectors", 0, 0, G_OPTION_ARG_FILENAME, &vectors_dir,
          "Read vectors from DIR (DIR/<pmu>/*.enc, *.sim) instead of the built-in set", "DIR" },
        { "expect", 0, 0, G_OPTION_ARG_FILENAME, &expect_file,
          "Known differences of the backend (default with the built-in vectors: the backend's shipped "
          "vectors/expected/BACKEND.txt, if any)",
          "FILE" },
        { "strict", 0, 0, G_OPTION_ARG_NONE, &strict, "Use no expectations: every failure fails", NULL },
        { "write-expect", 0, 0, G_OPTION_ARG_FILENAME, &write_expect_file,
          "Write the run's failures as an expectations file (known ones keep their reason, new ones a TODO; - is "
          "stdout)",
          "FILE" },
        { "max-failures", 0, 0, G_OPTION_ARG_INT, &max_failures,
          "Print at most N failure lines after the failures grouped by cause (default " G_STRINGIFY(
              DEFAULT_MAX_FAILURES) ")",
          "N" },
        { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, "Print every failure line", NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    g_autoptr(GOptionContext) ctx =
        pms_cli_context("[PMU...]",
                        "Run the golden vectors against an encoder backend; print a per-PMU table\n"
                        "(kind, vectors, passed, failed, known), the failures grouped by cause (PMU and\n"
                        "the fields that differ, or the error classes), largest first, and the failure\n"
                        "lines, each naming the fields that differ.  Simulation vectors\n"
                        "program the simulator with the backend's codes.  --mutants instead flips each\n"
                        "code bit of every sim vector (of the PMUs named) and reports how many are caught.\n"
                        "A failure the expectations list (--expect FILE; by default the backend's shipped\n"
                        "file, vectors/expected/libpfm4.txt for libpfm4; --strict: none) is a known\n"
                        "difference: it does not fail the run, but a listed vector that passes, or an\n"
                        "entry that matches nothing, does (stale entry).  Format: docs/vectors-format.md.",
                        entries, &model_files);
    pms_cli_help(ctx,
                 "0 no failure but known ones; 1 a failure (or nothing ran); 2 a usage error, a model "
                 "file that does not load or an expectations file that cannot be read or parsed.",
                 "  pmusim conform\n"
                 "  pmusim conform --backend libpfm4 --kind encode\n"
                 "  pmusim conform wsm nhm_unc\n"
                 "  pmusim conform --backend libpfm4 --strict --junit report.xml\n"
                 "  pmusim conform --backend cmd:./my-encoder --expect my-known-differences.txt\n"
                 "  pmusim conform --backend cmd:./my-encoder --strict --write-expect my-known-differences.txt\n"
                 "  pmusim conform --mutants\n");
    if (!pms_cli_parse(ctx, &argc, &argv))
        return PMS_EXIT_USAGE;
    if (!pms_cli_timeout_check(&timeout_ms))
        return PMS_EXIT_USAGE;
    if (max_failures < -1) {
        fprintf(stderr, "pmusim: conform: --max-failures %d: expected a count 0 or more\n", max_failures);
        return PMS_EXIT_USAGE;
    }
    if (jobs != G_MININT && jobs < 1) {
        fprintf(stderr, "pmusim: conform: --jobs %d: expected a number of workers 1 or more\n", jobs);
        return PMS_EXIT_USAGE;
    }
    if (!(goal >= 0 && goal <= 100)) {
        /* a goal above 100% fails every run only after all the mutants ran */
        fprintf(stderr, "pmusim: conform: --goal %g: expected a percentage 0..100\n", goal);
        return PMS_EXIT_USAGE;
    }
    /* PMU...: only the vectors reported under those PMUs (checked below) */
    const char *const *pmus = argc > 1 ? (const char *const *)argv + 1 : NULL;
    guint kinds = (1u << PMS_VECTOR_ENCODE) | (1u << PMS_VECTOR_SIM);
    const char *kinds_name = "encode+sim";
    if (kind) {
        if (strcmp(kind, "encode") == 0)
            kinds = 1u << PMS_VECTOR_ENCODE;
        else if (strcmp(kind, "sim") == 0)
            kinds = 1u << PMS_VECTOR_SIM;
        else {
            fprintf(stderr, "pmusim: conform: --kind '%s': expected encode or sim\n", kind);
            return PMS_EXIT_USAGE;
        }
        kinds_name = kind;
    }

    if (strict && expect_file) {
        fprintf(stderr, "pmusim: conform: --strict and --expect exclude each other\n");
        return PMS_EXIT_USAGE;
    }
    if (mutants && (junit || tap)) {
        /* the mutant report is a table of shares, not a list of test cases */
        fprintf(stderr, "pmusim: conform: --mutants prints its own report: --junit and --tap do not apply\n");
        return PMS_EXIT_USAGE;
    }
    if (mutants && kind && strcmp(kind, "sim") != 0) {
        fprintf(stderr, "pmusim: conform: --mutants runs the sim vectors: --kind %s does not apply\n", kind);
        return PMS_EXIT_USAGE;
    }
    if (!pms_cli_output_path_ok("--junit", junit) || !pms_cli_output_path_ok("--write-expect", write_expect_file))
        return PMS_EXIT_USAGE;
    if (mutants && write_expect_file) {
        fprintf(stderr, "pmusim: conform: --mutants prints its own report: --write-expect does not apply\n");
        return PMS_EXIT_USAGE;
    }
    /* --junit - is stdout: the table moves to stderr, as with --tap */
    gboolean junit_stdout = junit && strcmp(junit, "-") == 0;
    if (junit_stdout && tap) {
        fprintf(stderr, "pmusim: conform: --junit - and --tap both write stdout: give --junit a FILE\n");
        return PMS_EXIT_USAGE;
    }
    if (write_expect_file && strcmp(write_expect_file, "-") == 0 && (tap || junit_stdout)) {
        fprintf(stderr, "pmusim: conform: --write-expect - and %s both write stdout: give one a FILE\n",
                tap ? "--tap" : "--junit -");
        return PMS_EXIT_USAGE;
    }

    g_autoptr(GError) err = NULL;
    /* --mutants runs over the whole set of sim vectors; a plain run streams
     * its vectors (issue 21): each is parsed, run and reported, then freed */
    g_autoptr(PmsVectorSet) set = NULL;
    if (mutants) {
        set = pms_vector_set_new();
        gboolean loaded =
            vectors_dir ? pms_vector_set_load_dir(set, vectors_dir, &err) : pms_vector_set_load_builtin(set, &err);
        if (!loaded) {
            fprintf(stderr, "pmusim: conform: %s\n", err->message);
            return 1;
        }
        for (guint i = 0; pmus && pmus[i]; i++) {
            gboolean found = FALSE;
            for (guint k = 0; k < pms_vector_set_count(set) && !found; k++)
                found = strcmp(pms_vector_set_nth(set, k)->pmu, pmus[i]) == 0;
            if (!found) {
                fprintf(stderr, "pmusim: conform: no vectors for PMU '%s'\n", pmus[i]);
                return PMS_EXIT_USAGE;
            }
        }
    }
    g_autoptr(PmsModelSet) models = pms_cli_load_models(model_files);
    if (models == NULL)
        return PMS_EXIT_USAGE;
    const char *spec = backend_spec ? backend_spec : "builtin";
    /* the expectations: read and checked before anything runs (a streamed
     * run checks their PMUs when it has seen every vector) */
    g_autoptr(PmsExpectations) expect = NULL;
    if (expect_file) {
        g_autofree char *text = NULL;
        gsize len = 0;
        /* bounded: --expect /dev/zero is refused, not read without end */
        if (!pms_read_text_file(expect_file, PMS_TEXT_FILE_MAX, &text, &len, &err)) {
            fprintf(stderr, "pmusim: conform: --expect: %s\n", err->message);
            return PMS_EXIT_USAGE;
        }
        expect = pms_expectations_parse(text, len, expect_file, &err);
        /* an entry of a PMU without vectors (a typo) would expect nothing, silently */
        if (expect && set && !pms_expectations_check_pmus(expect, set, &err))
            g_clear_pointer(&expect, pms_expectations_free);
    } else if (!strict && !vectors_dir && !mutants) {
        expect = pms_expectations_builtin(spec, &err);
    }
    if (err) {
        fprintf(stderr, "pmusim: conform: %s\n", err->message);
        return PMS_EXIT_USAGE;
    }
    PmsBackend *backend = pms_backend_open_full(spec, models, (guint)timeout_ms, &err);
    if (backend == NULL) {
        fprintf(stderr, "pmusim: conform: backend '%s': %s\n", spec, err->message);
        /* a --backend that names no backend is a usage error; one that
         * cannot be started is a failure */
        return g_error_matches(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE) ? PMS_EXIT_USAGE : 1;
    }
    g_autoptr(PmsConformSim) sim = pms_conform_sim_new(backend, models);
    if (mutants) {
        /* A malformed stimulus or unknown event stops everything before a run. */
        if (!pms_conform_sim_check(sim, set, &err)) {
            fprintf(stderr, "pmusim: conform: %s\n", err->message);
            pms_backend_close(backend);
            return 1;
        }
        g_autoptr(PmsMutantReport) mr =
            pms_conform_mutants(sim, set, pmus, jobs > 0 ? (guint)jobs : pms_conform_jobs_default());
        pms_backend_close(backend);
        print_mutants(stdout, mr, spec);
        if (mr->mutants == 0 && mr->lbr_mutants == 0) {
            fprintf(stderr, "pmusim: conform: --mutants: no simulation vector to mutate\n");
            return 1;
        }
        /* The goal is judged on the mutants a vector could catch at all; the
         * share over every mutant is printed beside it, and each unobservable
         * one is listed with its reason.  The LBR_SELECT mutants have the
         * same goal, judged on their own. */
        double got = share(mr->caught, mr->mutants - mr->unobservable);
        double lbr = share(mr->lbr_caught, mr->lbr_mutants - mr->lbr_unobservable);
        if (mr->baseline->len || got < goal || lbr < goal) {
            fprintf(stderr,
                    "pmusim: conform: --mutants: %.2f%% of the observable mutants caught (goal %.2f%%), "
                    "%.2f%% of the observable LBR_SELECT mutants, %u vector(s) failing unmutated\n",
                    got, goal, lbr, mr->baseline->len);
            return 1;
        }
        return 0;
    }
    guint max = verbose ? G_MAXUINT : max_failures >= 0 ? (guint)max_failures : DEFAULT_MAX_FAILURES;
    g_autoptr(Tally) tally = tally_new(expect, max);
    if (!tally_spool(&tally->junit, "--junit", junit) ||
        !tally_spool(&tally->expect, "--write-expect", write_expect_file)) {
        pms_backend_close(backend);
        return 1;
    }
    RunCtx run_ctx = { backend, sim, models, 0, FALSE, FALSE, tally, (kinds & (1u << PMS_VECTOR_SIM)) != 0 };
    /* a progress line on a terminal (stderr), redrawn at most ten times a
     * second, erased before the report; never in a pipe or a CI log */
    run_ctx.progress = isatty(STDERR_FILENO) && !getenv("PMUSIM_NO_PROGRESS");
    PmsVectorOps ops = { .encode = backend_encode,
                         .sim = run_sim,
                         .user_data = &run_ctx,
                         .explain = explain_codes,
                         .progress = run_ctx.progress ? show_progress : NULL,
                         .check = check_vector,
                         .outcome = take_outcome,
                         .release = release_vector };
    g_autoptr(PmsVectorStream) stream = pms_vector_stream_new(kinds, pmus, &ops);
    gboolean ok = TRUE;
    if (tap) {
        tally->tap = stdout;
        fputs("TAP version 13\n", stdout);
    }
    if (run_ctx.progress) {
        /* the progress line's total: the vectors counted (parsed, not run) first */
        g_autoptr(PmsVectorStream) count = pms_vector_stream_new(kinds, pmus, NULL);
        ok = stream_source(count, vectors_dir, &err);
        g_autoptr(PmsVectorReport) counted = pms_vector_stream_report(count);
        pms_vector_stream_set_total(stream, counted->vectors);
    }
    ok = ok && stream_source(stream, vectors_dir, &err);
    pms_backend_close(backend);
    if (run_ctx.shown)
        fputs("\r\033[K", stderr); /* erase the progress line */
    if (!ok) {
        /* a malformed file, stimulus or event: no report, no table */
        fprintf(stderr, "pmusim: conform: %s\n", err->message);
        tap_bail_out(tally, err->message);
        return 1;
    }
    const char *const *seen = pms_vector_stream_pmus(stream);
    for (guint i = 0; pmus && pmus[i]; i++) {
        if (!g_strv_contains(seen, pmus[i])) {
            fprintf(stderr, "pmusim: conform: no vectors for PMU '%s'\n", pmus[i]);
            tap_bail_out(tally, "no vectors for a PMU named");
            return PMS_EXIT_USAGE;
        }
    }
    /* an entry of a PMU without vectors (a typo) would expect nothing, silently */
    if (expect_file && !pms_expectations_check_pmu_names(expect, seen, &err)) {
        fprintf(stderr, "pmusim: conform: %s\n", err->message);
        tap_bail_out(tally, err->message);
        return PMS_EXIT_USAGE;
    }
    g_autoptr(PmsVectorReport) report = pms_vector_stream_report(stream);
    g_autoptr(GPtrArray) unmatched = pms_expect_judge_unmatched(tally->judge, kinds);

    /* a report on stdout (--tap, --junit -, --write-expect -) moves the table to stderr */
    gboolean expect_stdout = write_expect_file && strcmp(write_expect_file, "-") == 0;
    FILE *table_out = tap || junit_stdout || expect_stdout ? stderr : stdout;
    if (tap)
        tap_finish(report, unmatched);
    print_table(table_out, report, tally, expect, spec, kinds_name);
    print_groups(table_out, tally);
    print_failures(table_out, tally, unmatched);
    if (junit && !write_junit(junit, report, tally, unmatched, spec, &err)) {
        fprintf(stderr, "pmusim: conform: --junit %s: %s\n", junit, err->message);
        return 1;
    }
    if (write_expect_file && !write_expect(write_expect_file, tally, spec, &err)) {
        fprintf(stderr, "pmusim: conform: --write-expect %s: %s\n", write_expect_file, err->message);
        return 1;
    }
    if (report->vectors == 0) {
        fprintf(stderr, "pmusim: conform: no vector of kind %s to run\n", kinds_name);
        return 1;
    }
    return tally->failed || tally->stale || unmatched->len ? 1 : 0;
}
