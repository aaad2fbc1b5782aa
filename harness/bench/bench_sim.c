/* pmusim bench sim — speed of the simulator's two engines on the same
 * run-length stimulus (pms_sim_bench, sim/sim_bench.c), and the fast engine
 * on a 2^47-cycle preload-to-overflow run, against the goals:
 * fast >= 100x reference, 2^47 constant cycles in < 1 ms; and (issue 21)
 * several interrupting counters and PEBS armed over 2^60+ cycles in time
 * independent of the run's length.  Prints figures and PASS/MISS; the exit
 * status says only whether the bench could run. */
#include "bench.h"
#include "cli_common.h"
#include "cli_family.h"
#include "sim.h"
#include "stimulus.h"
#include "pebs.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GOAL_RATIO 100.0
#define GOAL_BIG_SECONDS 1e-3

/* A stimulus file read and run as it is read (pms_stim_run_file, the fast
 * engine): n one-cycle runs (--stim-records, default 10^6) written to a
 * temporary file, timed whole; the goal is 10^7 records in under 10 s, so at
 * least 10^6 a second.  Its memory is bounded by construction (tests check it). */
#define STIM_RECORDS 1000000
#define GOAL_STIM_RECS_PER_S 1e6

/* A temporary stimulus file open for writing (its path in *path), or NULL
 * with the message printed. */
static FILE *tmp_stim(char **path)
{
    g_autoptr(GError) err = NULL;
    int fd = g_file_open_tmp("pmusim-bench-XXXXXX.stim", path, &err);
    if (fd < 0) {
        fprintf(stderr, "pmusim: bench sim: %s\n", err->message);
        return NULL;
    }
    return fdopen(fd, "w");
}

static int stim_file_bench(const PmsModelSet *models, const char *pmu, guint n)
{
    const PmsModel *m = pms_model_set_get(models, pmu && pms_model_set_get(models, pmu) ? pmu : "wsm");
    if (!m || !(pms_cli_family(m)->flags & PMS_CLI_SIM_BENCH))
        return 0;
    g_autofree char *path = NULL;
    g_autoptr(GError) err = NULL;
    FILE *f = tmp_stim(&path);
    if (!f)
        return 1;
    fprintf(f, "pmu %s\n", m->name);
    for (guint i = 0; i < n; i++)
        fprintf(f, "run 1 0x3c.0x00=%u\n", i % 4);
    gboolean ok = fclose(f) == 0;
    PmsSim *sim = ok ? pms_sim_new(m, &err) : NULL;
    gint64 t0 = g_get_monotonic_time();
    ok = sim && pms_stim_run_file(m, path, sim, &err);
    double s = (double)(g_get_monotonic_time() - t0) / 1e6;
    pms_sim_free(sim);
    g_unlink(path);
    if (!ok) {
        fprintf(stderr, "pmusim: bench sim: stimulus file: %s\n", err ? err->message : "write failed");
        return 1;
    }
    double rate = n / MAX(s, 1e-6);
    printf("stimulus file on %s: %u records read and run in %.3f s: %.3g records/s (10^7 in %.1f s) %s\n", m->name, n,
           s, rate, 1e7 / rate, rate >= GOAL_STIM_RECS_PER_S ? "PASS" : "MISS");
    return 0;
}

/* Issue 21: the stimulus path (pms_stim_run_file, the fast engine) on
 * realistic records against a plain reader of the same file, measured here
 * in the same run: each line read, split at blanks, every number (a token's
 * value after '=', or the token) through strtoull and summed.  Realistic as
 * docs/tutorial and vectors/ write them: a run length of 1..50 cycles, cpl=
 * now and then, two signal=count tokens (4-5 tokens), on a simulator whose
 * stimulus programs two general counters and the fixed ones first.  Goal:
 * the stimulus path at most 3x the reader. */
#define GOAL_STIM_FLOOR_RATIO 3.0

/* The signal `name` where the model has it (a record as a user writes it),
 * else its CODE.UMASK. */
static const char *signal_text(const PmsModel *m, const char *name, const char *code)
{
    guint32 key;
    return pms_stim_signal_key(m, name, &key, NULL) ? name : code;
}

/* field := x in *v when r has it */
static void put_field(const PmsRegister *r, guint64 *v, const char *name, guint64 x)
{
    const PmsField *f = r ? pms_register_field(r, name) : NULL;
    if (f)
        *v = pms_field_set(f, *v, x);
}

/* `write` records: PMC0 counts the first signal, PMC1 the second (user and
 * kernel), every fixed counter at all rings, every global enable. */
static void write_program(FILE *f, const PmsModel *m, const char *const *sig)
{
    for (guint i = 0; i < 2 && i < m->n_gp; i++) {
        const PmsRegister *ev = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, i);
        guint64 v = 0;
        guint32 key = 0;
        (void)pms_stim_signal_key(m, sig[i], &key, NULL);
        put_field(ev, &v, "event", key >> 8);
        put_field(ev, &v, "umask", key & 0xff);
        put_field(ev, &v, "usr", 1);
        put_field(ev, &v, "os", 1);
        put_field(ev, &v, "en", 1);
        if (ev)
            fprintf(f, "write %s 0x%" G_GINT64_MODIFIER "x\n", ev->name, v);
    }
    const PmsRegister *fc = pms_model_reg_by_kind(m, PMS_REG_FIXED_CTRL, 0);
    guint64 v = 0;
    for (guint i = 0; fc && i < m->n_fixed; i++) {
        char en[16];
        g_snprintf(en, sizeof en, "en%u", i);
        put_field(fc, &v, en, 3);
    }
    if (fc)
        fprintf(f, "write %s 0x%" G_GINT64_MODIFIER "x\n", fc->name, v);
    /* the global enables of the counters programmed (not every writable
     * bit: skl with smt = on refuses PMC4-7's) */
    const PmsRegister *gc = pms_model_reg_by_kind(m, PMS_REG_GLOBAL_CTRL, 0);
    if (gc)
        fprintf(f, "write %s 0x%" G_GINT64_MODIFIER "x\n", gc->name, pms_sim_enable_bits(m, 2, fc != NULL));
}

static gboolean write_realistic(FILE *f, const PmsModel *m, guint n)
{
    const char *inst = signal_text(m, "INST_RETIRED.ANY_P", "0xc0.0x00");
    const char *uops = signal_text(m, "UOPS_ISSUED.ANY", "0x0e.0x01");
    fprintf(f, "pmu %s\n", m->name);
    write_program(f, m, (const char *const[]){ inst, uops });
    guint32 x = 4711; /* a fixed sequence: the same file every time */
    for (guint i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        guint len = 1 + (x >> 8) % 50, a = (x >> 16) % 5, b = (x >> 20) % 5;
        switch (i % 4) {
        case 0:
            fprintf(f, "run %u cpl=3 %s=%u %s=%u\n", len, inst, a, uops, b);
            break;
        case 1:
            fprintf(f, "run %u %s=%u 0x3c.0x00=1\n", len, inst, a);
            break;
        case 2:
            fprintf(f, "run %u cpl=0 %s=%u %s=%u\n", len, inst, a, uops, b);
            break;
        default:
            fprintf(f, "run %u %s=%u %s=%u\n", len, inst, a, uops, b);
            break;
        }
    }
    return fclose(f) == 0;
}

/* This thread's CPU seconds: on a shared machine the time another process
 * takes the core is neither side's. */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The plain reader: CPU seconds, the sum in *sum (printed, so it is computed). */
static double reader_floor(const char *path, guint64 *sum)
{
    double t0 = cpu_seconds();
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *line = NULL;
    size_t cap = 0;
    guint64 s = 0;
    while (getline(&line, &cap, f) >= 0) {
        char *save = NULL;
        for (char *tok = strtok_r(line, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
            char *eq = strchr(tok, '=');
            s += strtoull(eq ? eq + 1 : tok, NULL, 10);
        }
    }
    free(line);
    fclose(f);
    *sum = s;
    return cpu_seconds() - t0;
}

/* The stimulus path: CPU seconds, -1 with the message printed. */
static double stim_path(const PmsModel *m, const char *path)
{
    g_autoptr(GError) err = NULL;
    PmsSim *sim = pms_sim_new(m, &err);
    double t0 = cpu_seconds();
    gboolean ok = sim && pms_stim_run_file(m, path, sim, &err);
    double s = cpu_seconds() - t0;
    pms_sim_free(sim);
    if (!ok) {
        fprintf(stderr, "pmusim: bench sim: realistic stimulus: %s\n", err ? err->message : "?");
        return -1;
    }
    return s;
}

enum { STIM_ROUNDS_MAX = 101 };

static int stim_floor_bench(const PmsModelSet *models, const char *pmu, guint n, guint rounds)
{
    const PmsModel *m = pms_model_set_get(models, pmu && pms_model_set_get(models, pmu) ? pmu : "wsm");
    if (!m || !(pms_cli_family(m)->flags & PMS_CLI_SIM_BENCH))
        return 0;
    g_autofree char *path = NULL;
    FILE *f = tmp_stim(&path);
    if (!f)
        return 1;
    if (!write_realistic(f, m, n)) {
        fprintf(stderr, "pmusim: bench sim: writing %s failed\n", path);
        g_unlink(path);
        return 1;
    }
    /* alternated, medians: a shared machine's noise hits both alike */
    double rd[STIM_ROUNDS_MAX], st[STIM_ROUNDS_MAX];
    guint64 sum = 0;
    for (guint i = 0; i < rounds; i++) {
        rd[i] = reader_floor(path, &sum);
        st[i] = rd[i] < 0 ? -1 : stim_path(m, path);
        if (st[i] < 0) {
            if (rd[i] < 0)
                fprintf(stderr, "pmusim: bench sim: %s: cannot read it back\n", path);
            g_unlink(path);
            return 1;
        }
    }
    g_unlink(path);
    qsort(rd, rounds, sizeof rd[0], pms_bench_cmp_double);
    qsort(st, rounds, sizeof st[0], pms_bench_cmp_double);
    double r = rd[rounds / 2], s = st[rounds / 2], ratio = s / MAX(r, 1e-9);
    printf("realistic stimulus on %s (4-5 tokens a record, CPU time, medians of %u): %u records in %.3f s, %.3g "
           "records/s, "
           "%.0f ns a record; plain reader %.3f s, %.0f ns a record (sum %" G_GUINT64_FORMAT "); %.2fx the reader "
           "(goal <= %.0fx) %s\n",
           m->name, rounds, n, s, n / MAX(s, 1e-9), s * 1e9 / n, r, r * 1e9 / n, sum, ratio, GOAL_STIM_FLOOR_RATIO,
           ratio <= GOAL_STIM_FLOOR_RATIO ? "PASS" : "MISS");
    return 0;
}

/* The teaching issue's goal: a 2^47-cycle run drawn (svg, html, json,
 * table) in well under a second.  Timed as whole `pmusim sim` processes
 * (this binary, /proc/self/exe), so it includes start-up and model load. */
#define GOAL_DIAGRAM_SECONDS 1.0

static int diagram_bench(void)
{
    g_autofree char *path = NULL;
    FILE *f = tmp_stim(&path);
    if (!f)
        return 1;
    fprintf(f, "pmu wsm\nrun 2^47 INST_RETIRED.ANY_P=1\n");
    if (fclose(f) != 0) {
        g_unlink(path);
        return 1;
    }
    static const char *const formats[] = { "table", "json", "svg", "html" };
    int status = 0;
    /* this binary; under valgrind /proc/self/exe is the tool, not pmusim */
    g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
    g_autofree char *base = self ? g_path_get_basename(self) : NULL;
    if (!base || !g_str_has_prefix(base, "pmusim")) {
        printf("2^47-cycle run: skipped (this process is %s, not pmusim: run under another program)\n",
               self ? self : "unknown");
        g_unlink(path);
        return 0;
    }
    printf("2^47-cycle run, whole `pmusim sim` processes:");
    for (guint i = 0; i < G_N_ELEMENTS(formats); i++) {
        const char *argv[] = { self, "sim",       "-e", "wsm::INST_RETIRED:ANY_P", "--stim", path, "-f", formats[i],
                               "-o", "/dev/null", NULL };
        gint wait = 0;
        g_autoptr(GError) e = NULL;
        gint64 t0 = g_get_monotonic_time();
        gboolean ok = g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                   NULL, NULL, NULL, NULL, &wait, &e) &&
            g_spawn_check_wait_status(wait, NULL);
        double s = (double)(g_get_monotonic_time() - t0) / 1e6;
        if (!ok) {
            printf("\n");
            fprintf(stderr, "pmusim: bench sim: sim -f %s of a 2^47-cycle run failed\n", formats[i]);
            status = 1;
            break;
        }
        printf(" %s %.1f ms %s%s", formats[i], s * 1e3, s < GOAL_DIAGRAM_SECONDS ? "PASS" : "MISS",
               i + 1 < G_N_ELEMENTS(formats) ? ";" : "\n");
    }
    g_unlink(path);
    return status;
}

/* Issue 21's closed form: the fast engine's time on one run of identical
 * cycles must not grow with the run's length.  Each workload runs a short
 * (2^30 cycles) and a long run (2^62, PEBS 2^60) on a fresh programming of
 * the same instance, alternated, 11 rounds, medians; PASS when the long one
 * takes at most twice the short one's time. */
#define CF_ROUNDS 11
#define GOAL_CF_RATIO 2.0

typedef struct {
    const char *what;
    const char *pmu;
    guint64 rate[2]; /* occurrences a cycle of PMC0's and PMC1's signals (0: PMC1 off) */
    gboolean pebs;   /* PEBS on PMC0 (INT), a 5-record buffer, reset value -4 */
    guint lg_short, lg_long;
    guint64 preload[2]; /* PMC0's and PMC1's values before the run (0 0: both 2^48 - 3) */
} CfWorkload;

static const CfWorkload cf_workloads[] = {
    { "2 interrupting counters, equal rates 2^32-1 (issue 21)",
      "wsm",
      { G_MAXUINT32, G_MAXUINT32 },
      FALSE,
      30,
      62,
      { 0, 0 } },
    { "2 interrupting counters, rates 2^31 and 2^29",
      "wsm",
      { (guint64)1 << 31, (guint64)1 << 29 },
      FALSE,
      30,
      62,
      { 0, 0 } },
    /* rates that are not powers of two: counted over one period of their
     * union (3 and 5: 2^48 cycles, 8 wraps).  The short run must list the
     * first 4096 PMIs too (a cost paid once per instance, not per cycle):
     * 3 and 5 raise only 7 PMIs in 2^48 cycles (they meet once), so it is
     * 2^58 (7168 PMIs); 3 2^28 and 5 2^28 repeat every 2^20 cycles, 7168
     * PMIs in 2^30 */
    { "2 interrupting counters, rates 3 and 5", "wsm", { 3, 5 }, FALSE, 58, 62, { 0, 0 } },
    { "2 interrupting counters, rates 3*2^28 and 5*2^28",
      "wsm",
      { (guint64)3 << 28, (guint64)5 << 28 },
      FALSE,
      30,
      62,
      { 0, 0 } },
    { "PEBS armed, INT, buffer filling, reset -4", "nhm", { 1, 0 }, TRUE, 30, 60, { 0, 0 } },
    /* one rate far from a power of two on counters that do not carry
     * together: 2^32 - 1 carries a period of 2^48 cycles, so no fold helps;
     * their carries are counted by floor sums over arcs of values */
    { "2 interrupting counters, equal rates 2^32-1, preloads 0 and 2^47",
      "wsm",
      { G_MAXUINT32, G_MAXUINT32 },
      FALSE,
      30,
      62,
      { 0, (guint64)1 << 47 } },
    { "2 interrupting counters, rates 2^32-1 and 2^31",
      "wsm",
      { G_MAXUINT32, (guint64)1 << 31 },
      FALSE,
      30,
      62,
      { 0, 0 } },
};

/* Program w on sim (after a reset) and run 2^lg cycles; the seconds taken. */
static double cf_once(PmsSim *sim, const CfWorkload *w, guint lg, guint64 *pmis, GError **err)
{
    gint64 t0 = g_get_monotonic_time();
    pms_sim_reset(sim);
    guint64 top = (guint64)1 << 48;
    gboolean ok = TRUE;
    if (w->pebs) {
        PmsPebsDs ds = { 0x1000, 0x1000, 0x1400, 0x1160, { top - 4 } };
        ok = pms_sim_set_pebs_ds(sim, &ds, err) && pms_sim_write(sim, 0x3f1, 0x1, err);
    }
    /* IA32_PERFEVTSEL0/1: event 0x10/0x11 umask 1, USR, INT, EN */
    ok = ok && pms_sim_write(sim, 0x186, 0x510110, err) && (!w->rate[1] || pms_sim_write(sim, 0x187, 0x510111, err)) &&
        pms_sim_write(sim, 0x38f, w->rate[1] ? 0x3 : 0x1, err) &&
        pms_sim_set_counter(sim, 0xc1, w->preload[0] || w->preload[1] ? w->preload[0] : top - 3, err) &&
        pms_sim_set_counter(sim, 0xc2, w->preload[0] || w->preload[1] ? w->preload[1] : top - 3, err);
    PmsSimCount c[2] = { { PMS_SIGNAL_KEY(0x10, 0x01), 0, w->rate[0], 0 },
                         { PMS_SIGNAL_KEY(0x11, 0x01), 0, w->rate[1], 0 } };
    PmsSimRun run = { (guint64)1 << lg, { 3, 3 }, c, w->rate[1] ? 2 : 1, NULL, 0, NULL, 0 };
    ok = ok && pms_sim_run(sim, &run, err);
    *pmis = pms_sim_pmi_total(sim);
    return ok ? (double)(g_get_monotonic_time() - t0) / 1e6 : -1;
}

static int closed_form_bench(const PmsModelSet *models)
{
    printf("closed form (fast engine, one run of identical cycles; medians of %d, alternated):\n", CF_ROUNDS);
    for (guint i = 0; i < G_N_ELEMENTS(cf_workloads); i++) {
        const CfWorkload *w = &cf_workloads[i];
        const PmsModel *m = pms_model_set_get(models, w->pmu);
        g_autoptr(GError) err = NULL;
        g_autoptr(PmsSim) sim = m ? pms_sim_new(m, &err) : NULL;
        if (!sim) {
            printf("  %s: skipped (no %s model)\n", w->what, w->pmu);
            continue;
        }
        pms_sim_set_engine(sim, PMS_SIM_FAST);
        pms_sim_set_max_steps(sim, 100000000);
        double ts[CF_ROUNDS], tl[CF_ROUNDS];
        guint64 ps = 0, pl = 0;
        for (guint r = 0; r < CF_ROUNDS; r++) {
            ts[r] = cf_once(sim, w, w->lg_short, &ps, &err);
            tl[r] = ts[r] < 0 ? -1 : cf_once(sim, w, w->lg_long, &pl, &err);
            if (tl[r] < 0) {
                fprintf(stderr, "pmusim: bench sim: %s: %s\n", w->what, err->message);
                return 1;
            }
        }
        qsort(ts, CF_ROUNDS, sizeof ts[0], pms_bench_cmp_double);
        qsort(tl, CF_ROUNDS, sizeof tl[0], pms_bench_cmp_double);
        double a = ts[CF_ROUNDS / 2], b = tl[CF_ROUNDS / 2], ratio = b / MAX(a, 1e-9);
        printf("  %s on %s: 2^%u cycles %.1f us (%" G_GUINT64_FORMAT " PMIs), 2^%u cycles %.1f us (%" G_GUINT64_FORMAT
               " PMIs): ratio %.2f %s\n",
               w->what, w->pmu, w->lg_short, a * 1e6, ps, w->lg_long, b * 1e6, pl, ratio,
               ratio <= GOAL_CF_RATIO ? "PASS" : "MISS");
    }
    printf("goal: time independent of the run's length (long / short <= %.0f)\n", GOAL_CF_RATIO);
    return 0;
}

int pms_bench_sim(int argc, char **argv)
{
    double seconds = 0.5;
    gint max_run = 1000;
    gint stim_records = STIM_RECORDS;
    gint stim_rounds = 3;
    g_autofree char *pmu = NULL;
    g_auto(GStrv) model_files = NULL;
    const GOptionEntry entries[] = {
        { "seconds", 0, 0, G_OPTION_ARG_DOUBLE, &seconds, "Minimum time per engine (default 0.5)", "S" },
        { "pmu", 'p', 0, G_OPTION_ARG_STRING, &pmu, "Model to simulate (default: every x86 core model)", "PMU" },
        { "max-run", 0, 0, G_OPTION_ARG_INT, &max_run, "Longest run of identical cycles (default 1000)", "N" },
        { "stim-records", 0, 0, G_OPTION_ARG_INT, &stim_records,
          "Records of the stimulus-file benches (default 1000000; 0: leave them out)", "N" },
        { "stim-rounds", 0, 0, G_OPTION_ARG_INT, &stim_rounds,
          "Rounds of the realistic stimulus and its plain reader, alternated (default 3; medians)", "N" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    g_autoptr(GOptionContext) ctx =
        pms_cli_context("", "Cycles and records per second of the fast and reference engines on the same stimulus.",
                        entries, &model_files);
    pms_cli_help(ctx,
                 "0 the benchmark ran (whatever PASS/MISS says); 1 a simulation failed; 2 usage error, "
                 "unknown PMU or a model file that does not load.",
                 "  pmusim bench sim\n"
                 "  pmusim bench sim --pmu wsm --seconds 2\n"
                 "  pmusim bench sim --pmu glm --seconds 0.1 --stim-records 0\n");
    if (!pms_cli_parse(ctx, &argc, &argv))
        return PMS_EXIT_USAGE;
    if (argc > 1) {
        fprintf(stderr, "pmusim: bench sim: unexpected argument '%s'\n", argv[1]);
        return PMS_EXIT_USAGE;
    }
    if (!(seconds > 0 && seconds <= 3600)) {
        fprintf(stderr, "pmusim: --seconds: expected a time above 0 and at most 3600\n");
        return PMS_EXIT_USAGE;
    }
    if (max_run < 1) {
        fprintf(stderr, "pmusim: --max-run: expected a positive number of cycles\n");
        return PMS_EXIT_USAGE;
    }
    if (stim_records < 0) {
        fprintf(stderr, "pmusim: --stim-records: expected a number of records, 0 or more\n");
        return PMS_EXIT_USAGE;
    }
    if (stim_rounds < 1 || stim_rounds > STIM_ROUNDS_MAX) {
        fprintf(stderr, "pmusim: --stim-rounds: expected 1..%d rounds\n", STIM_ROUNDS_MAX);
        return PMS_EXIT_USAGE;
    }
    g_autoptr(PmsModelSet) models = pms_cli_load_models(model_files);
    if (!models)
        return PMS_EXIT_USAGE;
    if (pmu && !pms_cli_model(models, pmu))
        return PMS_EXIT_USAGE;
    int status = 0;
    printf("%-8s %14s %14s %14s %14s %9s %4s %12s %4s\n", "pmu", "ref cyc/s", "ref rec/s", "fast cyc/s", "fast rec/s",
           "ratio", "", "2^47 cycles", "");
    for (guint i = 0; i < pms_model_set_count(models); i++) {
        const PmsModel *m = pms_model_set_nth(models, i);
        if (pmu ? g_ascii_strcasecmp(m->name, pmu) != 0 : !(pms_cli_family(m)->flags & PMS_CLI_SIM_BENCH))
            continue;
        PmsSimBench b = { 0 };
        g_autoptr(GError) err = NULL;
        if (!pms_sim_bench(m, seconds, (guint)max_run, &b, &err)) {
            fprintf(stderr, "pmusim: bench sim: %s: %s\n", m->name, err->message);
            status = 1;
            continue;
        }
        gboolean big_ok = b.big_run_overflowed && b.big_run_seconds < GOAL_BIG_SECONDS;
        printf("%-8s %14.4g %14.4g %14.4g %14.4g %8.1fx %4s %9.3f ms %4s%s\n", m->name, b.ref_cycles_per_s,
               b.ref_records_per_s, b.fast_cycles_per_s, b.fast_records_per_s, b.ratio,
               b.ratio >= GOAL_RATIO ? "PASS" : "MISS", b.big_run_seconds * 1e3, big_ok ? "PASS" : "MISS",
               b.big_run_overflowed ? "" : " (no PMI in the last cycle)");
    }
    printf("goals: fast >= %.0fx reference cycles/s (run lengths 1..%d); 2^47 constant cycles to overflow < %.0f ms\n",
           GOAL_RATIO, max_run, GOAL_BIG_SECONDS * 1e3);
    if ((!pmu || pms_model_set_get(models, "wsm") == pms_model_set_get(models, pmu)) && closed_form_bench(models) != 0)
        status = 1;
    if (stim_records > 0 && stim_file_bench(models, pmu, (guint)stim_records) != 0)
        status = 1;
    if (stim_records > 0 && stim_floor_bench(models, pmu, (guint)stim_records, (guint)stim_rounds) != 0)
        status = 1;
    if ((!pmu || pms_model_set_get(models, "wsm") == pms_model_set_get(models, pmu)) && !model_files &&
        diagram_bench() != 0)
        status = 1;
    return status;
}
