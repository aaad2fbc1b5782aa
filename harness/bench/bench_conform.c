/* pmusim bench conform — speed of the conformance runner (issue 10, "Scale";
 * issue 21): the built-in suite run whole with the builtin backend (goal:
 * under 2 s); a synthetic corpus of 10^6 encoding vectors (every built-in
 * .enc file repeated until there are enough, each copy parsed as a file of
 * its own) streamed (goal: under 10 s, peak memory under 100 MB, measured in
 * a process of its own); the same corpus size on disk through `pmusim
 * conform` with --tap, --junit and --write-expect (goal: the same bound: the
 * reports are written as the vectors run; bench_conform_reports.c); and the
 * mutants of every sim vector on one worker and on one per core (goal: a speed-up of 3/4 of the workers, and the same
 * report).  Prints figures and PASS/MISS; the exit status says only whether
 * the bench could run. */
#include "backend.h"
#include "bench.h"
#include "cli_common.h"
#include "conform_sim.h"
#include "vectors.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#define GOAL_SUITE_S 2.0
#define GOAL_SYNTH_S 10.0
/* issue 21: the corpus streams, so its memory does not grow with it */
#define GOAL_SYNTH_MB 100.0

typedef struct {
    PmsBackend *backend;
    PmsConformSim *sim;
} Ctx;

static void encode_cb(const char *event, gsize len, PmsVectorAnswer *out, gpointer data)
{
    Ctx *c = data;
    PmsBackendResult r;
    memset(&r, 0, sizeof r);
    (void)len;
    pms_backend_encode(c->backend, event, &r);
    g_strlcpy(out->ret, r.ret, sizeof out->ret);
    out->n_codes = MIN(r.n_codes, PMS_VECTOR_MAX_CODES);
    for (guint i = 0; i < out->n_codes; i++)
        out->codes[i] = r.codes[i];
    out->fstr = g_steal_pointer(&r.fstr);
    pms_backend_result_clear(&r);
}

static gboolean sim_cb(const PmsVector *v, char **message, gpointer data)
{
    return pms_conform_sim_run(v, message, ((Ctx *)data)->sim);
}

static double now_s(void)
{
    return (double)g_get_monotonic_time() / 1e6;
}

/* the mutants on every core: at least 3/4 of a perfect speed-up */
#define GOAL_MUTANT_EFFICIENCY 0.75

static double median(GArray *a)
{
    g_array_sort(a, pms_bench_cmp_double);
    return a->len ? g_array_index(a, double, a->len / 2) : 0;
}

static gboolean same_mutants(const PmsMutantReport *a, const PmsMutantReport *b)
{
    if (a->mutants != b->mutants || a->caught != b->caught || a->caught_gp != b->caught_gp ||
        a->unobservable != b->unobservable || a->missed != b->missed || a->equivalent != b->equivalent ||
        a->lbr_mutants != b->lbr_mutants || a->lbr_caught != b->lbr_caught || a->survivors->len != b->survivors->len ||
        a->baseline->len != b->baseline->len || a->lbr_missed->len != b->lbr_missed->len)
        return FALSE;
    for (guint i = 0; i < a->survivors->len; i++) {
        const PmsMutant *x = &g_array_index(a->survivors, PmsMutant, i),
                        *y = &g_array_index(b->survivors, PmsMutant, i);
        if (x->vector != y->vector || x->event != y->event || x->code != y->code || x->bit != y->bit ||
            x->fate != y->fate)
            return FALSE;
    }
    return TRUE;
}

/* `conform --mutants`: one worker against one per core, alternated, the
 * median of `runs` each. */
static void mutants_bench(Ctx *c, const PmsVectorSet *suite, guint runs)
{
    guint workers = pms_conform_jobs_default();
    g_autoptr(GArray) t1 = g_array_new(FALSE, FALSE, sizeof(double));
    g_autoptr(GArray) tn = g_array_new(FALSE, FALSE, sizeof(double));
    gboolean same = TRUE;
    guint mutants = 0, lbr = 0;
    for (guint r = 0; r < runs; r++) {
        double a0 = now_s();
        g_autoptr(PmsMutantReport) one = pms_conform_mutants(c->sim, suite, NULL, 1);
        double a1 = now_s();
        g_autoptr(PmsMutantReport) all = pms_conform_mutants(c->sim, suite, NULL, workers);
        double a2 = now_s();
        g_array_append_val(t1, (double){ a1 - a0 });
        g_array_append_val(tn, (double){ a2 - a1 });
        same = same && same_mutants(one, all);
        mutants = one->mutants;
        lbr = one->lbr_mutants;
    }
    double m1 = median(t1), mn = median(tn);
    double ratio = m1 / MAX(mn, 1e-9), goal = MAX(1.0, GOAL_MUTANT_EFFICIENCY * workers);
    printf("mutants: %u (and %u of LBR_SELECT), 1 worker %.3f s, %u workers %.3f s (medians of %u, alternated): "
           "speed-up %.2fx %s (goal >= "
           "%.2fx, 3/4 of the workers); the same report: %s\n",
           mutants, lbr, m1, workers, mn, runs, ratio,
           workers < 2         ? "(one core: nothing to gain)"
               : ratio >= goal ? "PASS"
                               : "MISS",
           goal, same ? "yes" : "NO");
}

/* This process's peak resident memory so far, MB. */
static double peak_rss_mb(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss / 1024.0 : 0;
}

/* The synthetic corpus: the built-in .enc files parsed and run again and
 * again, streamed (each vector parsed, run and dropped), until n vectors ran. */
static int synth_run(Ctx *c, guint n, const char *where)
{
    PmsVectorOps ops = { .encode = encode_cb, .user_data = c };
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsVectorStream) st = pms_vector_stream_new(1u << PMS_VECTOR_ENCODE, NULL, &ops);
    double s0 = now_s();
    guint passes = 0;
    gboolean ok = TRUE;
    for (; ok;) {
        g_autoptr(PmsVectorReport) sofar = pms_vector_stream_report(st);
        if (sofar->vectors >= n)
            break;
        ok = pms_vector_stream_builtin(st, 1u << PMS_VECTOR_ENCODE, &err);
        passes++;
    }
    double s1 = now_s();
    if (!ok) {
        fprintf(stderr, "pmusim: bench conform: %s\n", err->message);
        return 1;
    }
    g_autoptr(PmsVectorReport) r = pms_vector_stream_report(st);
    double mb = peak_rss_mb();
    printf("synthetic corpus: %u encoding vectors (%u passed), the built-in .enc files %u times, streamed: parsed "
           "and run in %.3f s, %.3g vectors/s %s (goal 10^6 in < %.0f s); peak RSS %.1f MB %s (goal < %.0f MB, %s; "
           "at most %u vector(s) alive)\n",
           r->vectors, r->passed, passes, s1 - s0, r->vectors / MAX(s1 - s0, 1e-9),
           (s1 - s0) * 1e6 / r->vectors < GOAL_SYNTH_S ? "PASS" : "MISS", GOAL_SYNTH_S, mb,
           mb < GOAL_SYNTH_MB ? "PASS" : "MISS", GOAL_SYNTH_MB, where, pms_vector_stream_peak_live(st));
    return 0;
}

/* The synthetic corpus in a child `pmusim bench conform --synthetic-only`
 * (this binary, by the path /proc/self/exe names), so that the peak memory
 * printed is the corpus's alone; in this process when the binary is not
 * pmusim (under valgrind). */
static int synth_child(Ctx *c, guint n)
{
    g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
    g_autofree char *base = self ? g_path_get_basename(self) : NULL;
    if (!base || !g_str_has_prefix(base, "pmusim"))
        return synth_run(c, n, "this process, with the suite");
    g_autofree char *count = g_strdup_printf("%u", n);
    const char *argv[] = { self, "bench", "conform", "--synthetic-only", "--vectors", count, NULL };
    /* through the helper: a child of this process would start from its size */
    double mb = 0, cpu = 0;
    int wait = 0;
    if (!pms_bench_run_measured(argv, NULL, NULL, &mb, &wait, &cpu) || !WIFEXITED(wait) || WEXITSTATUS(wait) != 0) {
        fprintf(stderr, "pmusim: bench conform: the synthetic corpus's process failed\n");
        return 1;
    }
    return 0;
}

int pms_bench_conform(int argc, char **argv)
{
    gint n_synth = 1000000;
    gboolean synth_only = FALSE;
    g_autofree char *reports_dir = NULL;
    g_autofree char *measured = NULL, *measured_out = NULL, *measured_err = NULL;
    gint runs = 3;
    g_auto(GStrv) model_files = NULL;
    const GOptionEntry entries[] = {
        { "vectors", 0, 0, G_OPTION_ARG_INT, &n_synth, "Size of the synthetic corpus (default 1000000)", "N" },
        { "runs", 0, 0, G_OPTION_ARG_INT, &runs,
          "Runs of the mutants on 1 worker and on one per core, alternated (default 3; medians; 0 leaves them out)",
          "N" },
        { "reports-dir", 0, 0, G_OPTION_ARG_FILENAME, &reports_dir,
          "Write the reports' corpus and its reports under DIR and keep them (default: a temporary folder)", "DIR" },
        /* the helper that runs a command for its own peak memory (bench_conform_reports.c) */
        { "measured-run", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &measured, NULL, NULL },
        { "measured-stdout", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &measured_out, NULL, NULL },
        { "measured-stderr", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &measured_err, NULL, NULL },
        /* the child that runs the corpus alone, for its own peak memory */
        { "synthetic-only", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &synth_only, NULL, NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    g_autoptr(GOptionContext) ctx =
        pms_cli_context("",
                        "Vectors per second of the conformance runner: the built-in suite (goal < 2 s), a\n"
                        "synthetic corpus of encoding vectors streamed (the built-in .enc files repeated; goal: 10^6\n"
                        "in < 10 s and under 100 MB, in a process of its own), as many vectors on disk through\n"
                        "`pmusim conform --tap --junit FILE --write-expect FILE` (goal: under 100 MB too), and the\n"
                        "mutants on 1 worker and on one per core (goal: a speed-up of 3/4 of the workers, the same\n"
                        "report).",
                        entries, &model_files);
    pms_cli_help(ctx,
                 "0 the benchmark ran (whatever PASS/MISS says); 1 it could not run; 2 usage error or a "
                 "model file that does not load.",
                 "  pmusim bench conform\n"
                 "  pmusim bench conform --vectors 100000\n"
                 "  pmusim bench conform --runs 11\n");
    if (!pms_cli_parse(ctx, &argc, &argv))
        return PMS_EXIT_USAGE;
    if (measured) {
        /* before anything is loaded: the helper stays small */
        int first = argc > 1 && strcmp(argv[1], "--") == 0 ? 2 : 1;
        if (argc <= first)
            return PMS_EXIT_USAGE;
        return pms_bench_measured_helper(argv + first, measured, measured_out, measured_err);
    }
    if (argc > 1 || n_synth < 1 || runs < 0) {
        fprintf(stderr, "pmusim: bench conform: %s\n",
                argc > 1          ? "unexpected argument"
                    : n_synth < 1 ? "--vectors: expected N >= 1"
                                  : "--runs: expected N >= 0");
        return PMS_EXIT_USAGE;
    }
    g_autoptr(PmsModelSet) models = pms_cli_load_models(model_files);
    if (!models)
        return PMS_EXIT_USAGE;
    g_autoptr(GError) err = NULL;
    Ctx c = { pms_backend_open("builtin", models, &err), NULL };
    if (!c.backend) {
        fprintf(stderr, "pmusim: bench conform: %s\n", err->message);
        return 1;
    }
    c.sim = pms_conform_sim_new(c.backend, models);
    PmsVectorOps ops = { .encode = encode_cb, .sim = sim_cb, .user_data = &c };
    int status = 0;
    if (synth_only) {
        status = synth_run(&c, (guint)n_synth, "a process of its own");
        pms_conform_sim_free(c.sim);
        pms_backend_close(c.backend);
        return status;
    }

    /* the built-in suite: load, then every vector (encode and sim) */
    double t0 = now_s();
    g_autoptr(PmsVectorSet) suite = pms_vector_set_new();
    gboolean ok = pms_vector_set_load_builtin(suite, &err) && pms_conform_sim_check(c.sim, suite, &err);
    double t1 = now_s();
    g_autoptr(PmsVectorReport) rs = ok ? pms_vectors_run(suite, ~0u, &ops) : NULL;
    double t2 = now_s();
    if (!ok) {
        fprintf(stderr, "pmusim: bench conform: %s\n", err->message);
        status = 1;
    } else {
        printf("built-in suite: %u vectors (%u passed): load %.3f s, run %.3f s, %.3g vectors/s; whole %.3f s %s "
               "(goal < %.0f s)\n",
               rs->vectors, rs->passed, t1 - t0, t2 - t1, rs->vectors / MAX(t2 - t1, 1e-9), t2 - t0,
               t2 - t0 < GOAL_SUITE_S ? "PASS" : "MISS", GOAL_SUITE_S);
    }

    /* the synthetic corpus, in a process of its own so that its peak
     * memory is its own (not the suite's) */
    if (!status)
        status = synth_child(&c, (guint)n_synth);
    /* the same size through the CLI with its three reports */
    if (!status)
        status = pms_bench_conform_reports((guint)n_synth, reports_dir);
    /* --runs 0: not the mutants (valgrind-check: six full runs under memcheck) */
    if (!status && runs > 0)
        mutants_bench(&c, suite, (guint)runs);
    pms_conform_sim_free(c.sim);
    pms_backend_close(c.backend);
    return status;
}
