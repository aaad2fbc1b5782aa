/* pmusim bench encode — encodings per second and model-load time of the
 * builtin encoder against another backend, on the same strings in one run.
 *
 * libpfm4 is measured in-process (no per-line pipe, which would measure our
 * framing rather than libpfm4), inside a forked child so that the library is
 * loaded fresh for its load time and a crash cannot take the benchmark down.
 * The two encoders take turns in short slices (builtin in this process, then
 * libpfm4 in the child, and again) so that a machine whose speed drifts
 * during the run (other load, frequency changes) slows both alike: their
 * ratio stays comparable from run to run.
 * Other backends (cmd:PROGRAM) are measured through the batch protocol. */
#include "bench.h"
#include "cli_common.h"
#include "cli_family.h"
#include "diff_strings.h"
#include "encoder.h"
#include "backend.h"
#include "pfm_abi.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
    double load_ms;  /* median */
    double ready_ms; /* builtin: load plus the encoder's first-use preparation of every compared model */
    double extra_ms; /* libpfm4: dlopen part of load_ms */
    guint64 encodings;
    double seconds;
    guint ok; /* strings encoded successfully (one pass) */
    char mode[64];
    char error[256];
} BenchResult;

static double now_s(void)
{
    return (double)g_get_monotonic_time() / 1e6;
}

/* Load time of every model: median of several loads. */
static gboolean builtin_load(char **model_files, const GPtrArray *compared, BenchResult *r)
{
    double loads[9], readies[9];
    guint n = 0;
    for (; n < G_N_ELEMENTS(loads); n++) {
        double t0 = now_s();
        g_autoptr(PmsModelSet) set = pms_cli_load_models(model_files);
        loads[n] = (now_s() - t0) * 1e3;
        if (set == NULL)
            return FALSE;
        /* The encoder prepares its tables for a model on the first encoding
         * that names it: one encoding per compared model makes them ready
         * (the other built-in models are loaded, never prepared). */
        for (guint i = 0; i < compared->len; i++) {
            const PmsModel *m = pms_model_set_get(set, ((const PmsModel *)g_ptr_array_index(compared, i))->name);
            if (!m || m->n_events == 0)
                continue;
            g_autofree char *s = g_strdup_printf("%s::%s", m->name, m->events[0].name);
            pms_encoding_free(pms_encode(set, s, NULL));
        }
        readies[n] = (now_s() - t0) * 1e3;
    }
    qsort(loads, n, sizeof loads[0], pms_bench_cmp_double);
    qsort(readies, n, sizeof readies[0], pms_bench_cmp_double);
    r->load_ms = loads[n / 2];
    r->ready_ms = readies[n / 2];
    g_strlcpy(r->mode, "in-process", sizeof r->mode);
    return TRUE;
}

/* Builtin encodings for at least `seconds` (whole passes over the strings);
 * the result of each is freed. */
static void builtin_slice(const PmsModelSet *models, GPtrArray *strs, double seconds, BenchResult *r)
{
    double t0 = now_s(), t;
    do {
        for (guint i = 0; i < strs->len; i++) {
            PmsEncoding *enc = pms_encode(models, strs->pdata[i], NULL);
            if (enc)
                pms_encoding_free(enc);
        }
        r->encodings += strs->len;
    } while ((t = now_s() - t0) < seconds);
    r->seconds += t;
}

/* One libpfm4 encoding, codes and fstr included, freed as libpfm4 allocated
 * them.  The timed loop calls this rather than pms_pfm_encode, whose extra
 * g_strdup of the fstr (for the protocol) is not libpfm4's work. */
static int pfm_encode_once(const PmsPfmLib *lib, const char *str)
{
    char *fstr = NULL;
    PmsPfmEncodeArg arg = { .codes = NULL, .fstr = &fstr, .size = sizeof arg };
    int ret = lib->encode(str, PMS_PFM_PLM0 | PMS_PFM_PLM3, PMS_PFM_OS_NONE, &arg);
    free(arg.codes);
    free(fstr);
    return ret;
}

static gboolean write_all(int fd, const void *buf, gsize len)
{
    gsize done = 0;
    while (done < len) {
        ssize_t w = write(fd, (const char *)buf + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return FALSE;
        done += (gsize)w;
    }
    return TRUE;
}

static gboolean read_all(int fd, void *buf, gsize len)
{
    gsize got = 0;
    while (got < len) {
        ssize_t n = read(fd, (char *)buf + got, len - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return FALSE;
        got += (gsize)n;
    }
    return TRUE;
}

/* What the child reports after each slice. */
typedef struct {
    guint64 encodings;
    double seconds;
} Slice;

/* In the child: load libpfm4 fresh and time it, report; then (serve) one
 * warm-up pass counting successes, reported too, and slices of encoding on
 * request: a slice length on `cmd`, a Slice back on `res`, until 0. */
G_GNUC_NORETURN static void libpfm4_child(int cmd, int res, GPtrArray *strs, gboolean serve)
{
    BenchResult r = { 0 };
    g_autoptr(GError) err = NULL;
    PmsPfmLib lib;
    double t0 = now_s();
    if (!pms_pfm_open(&lib, &err)) {
        g_strlcpy(r.error, err->message, sizeof r.error);
    } else {
        double t1 = now_s();
        int ret = lib.initialize();
        double t2 = now_s();
        r.extra_ms = (t1 - t0) * 1e3;
        r.load_ms = (t2 - t0) * 1e3;
        if (ret != 0)
            g_snprintf(r.error, sizeof r.error, "pfm_initialize failed: %s", pms_pfm_ret_name(ret));
    }
    if (!r.error[0] && serve)
        for (guint i = 0; i < strs->len; i++)
            r.ok += pfm_encode_once(&lib, strs->pdata[i]) == 0;
    if (!write_all(res, &r, sizeof r) || r.error[0] || !serve)
        _exit(0);
    double seconds;
    while (read_all(cmd, &seconds, sizeof seconds) && seconds > 0) {
        Slice sl = { 0, 0 };
        double s0 = now_s(), t;
        do {
            for (guint i = 0; i < strs->len; i++)
                pfm_encode_once(&lib, strs->pdata[i]);
            sl.encodings += strs->len;
        } while ((t = now_s() - s0) < seconds);
        sl.seconds = t;
        if (!write_all(res, &sl, sizeof sl))
            break;
    }
    _exit(0);
}

typedef struct {
    pid_t pid;
    int cmd, res; /* parent's ends */
} Child;

static gboolean child_start(GPtrArray *strs, gboolean serve, Child *c, BenchResult *r)
{
    int cmd[2], res[2];
    c->pid = -1;
    if (pipe(cmd) != 0)
        return FALSE;
    if (pipe(res) != 0) {
        close(cmd[0]);
        close(cmd[1]);
        return FALSE;
    }
    fflush(NULL);
    c->pid = fork();
    if (c->pid < 0) {
        close(cmd[0]);
        close(cmd[1]);
        close(res[0]);
        close(res[1]);
        return FALSE;
    }
    if (c->pid == 0) {
        close(cmd[1]);
        close(res[0]);
        libpfm4_child(cmd[0], res[1], strs, serve);
    }
    close(cmd[0]);
    close(res[1]);
    c->cmd = cmd[1];
    c->res = res[0];
    if (!read_all(c->res, r, sizeof *r)) {
        g_strlcpy(r->error, "libpfm4 benchmark child died", sizeof r->error);
        return FALSE;
    }
    return r->error[0] == '\0';
}

static void child_stop(Child *c)
{
    double stop = 0;
    write_all(c->cmd, &stop, sizeof stop);
    close(c->cmd);
    close(c->res);
    waitpid(c->pid, NULL, 0);
}

/* Load time of libpfm4: median of several fresh children. */
static gboolean libpfm4_load(GPtrArray *strs, BenchResult *r)
{
    double loads[5], dl[5];
    for (guint i = 0; i < G_N_ELEMENTS(loads); i++) {
        BenchResult one = { 0 };
        Child c;
        gboolean ok = child_start(strs, FALSE, &c, &one);
        if (c.pid > 0) {
            close(c.cmd);
            close(c.res);
            waitpid(c.pid, NULL, 0);
        }
        if (!ok) {
            g_strlcpy(r->error, one.error[0] ? one.error : "cannot start the libpfm4 child", sizeof r->error);
            return FALSE;
        }
        loads[i] = one.load_ms;
        dl[i] = one.extra_ms;
    }
    qsort(loads, G_N_ELEMENTS(loads), sizeof loads[0], pms_bench_cmp_double);
    qsort(dl, G_N_ELEMENTS(dl), sizeof dl[0], pms_bench_cmp_double);
    r->load_ms = loads[2];
    r->extra_ms = dl[2];
    return TRUE;
}

/* Builtin and libpfm4 in alternating slices until each has encoded for at
 * least `seconds`.  rules_only: the builtin encoder without its kept
 * results (--rules-only), every string on the rule path. */
static gboolean bench_interleaved(char **model_files, GPtrArray *strs, double seconds, gboolean rules_only,
                                  BenchResult *rb, BenchResult *ro)
{
    const double slice = 0.05;
    if (!libpfm4_load(strs, ro))
        return FALSE;
    g_autoptr(PmsModelSet) models = pms_cli_load_models(model_files);
    if (models == NULL)
        return FALSE;
    if (rules_only)
        pms_model_set_set_encoder_cache(models, FALSE);
    for (guint i = 0; i < strs->len; i++) {
        g_autoptr(PmsEncoding) enc = pms_encode(models, strs->pdata[i], NULL);
        rb->ok += enc != NULL;
    }
    /* Both on the CPU this process runs on (the child inherits it): on a
     * machine whose CPUs are not equally fast or equally busy, each encoder
     * would otherwise get a different one. */
    cpu_set_t saved, one;
    gboolean pinned = FALSE;
    int cpu = sched_getcpu();
    if (cpu >= 0 && sched_getaffinity(0, sizeof saved, &saved) == 0) {
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        pinned = sched_setaffinity(0, sizeof one, &one) == 0;
    }
    BenchResult first = { 0 };
    Child c;
    if (!child_start(strs, TRUE, &c, &first)) {
        g_strlcpy(ro->error, first.error, sizeof ro->error);
        if (c.pid > 0)
            child_stop(&c);
        if (pinned)
            sched_setaffinity(0, sizeof saved, &saved);
        return FALSE;
    }
    ro->ok = first.ok;
    gboolean ok = TRUE;
    while (ok && (rb->seconds < seconds || ro->seconds < seconds)) {
        builtin_slice(models, strs, slice, rb);
        Slice sl;
        ok = write_all(c.cmd, &slice, sizeof slice) && read_all(c.res, &sl, sizeof sl);
        ro->encodings += sl.encodings;
        ro->seconds += sl.seconds;
    }
    child_stop(&c);
    if (pinned)
        sched_setaffinity(0, sizeof saved, &saved);
    if (!ok)
        g_strlcpy(ro->error, "libpfm4 benchmark child died", sizeof ro->error);
    g_strlcpy(ro->mode, "in-process (forked child)", sizeof ro->mode);
    return ok;
}

static gboolean bench_backend(const char *spec, const PmsModelSet *models, GPtrArray *strs, double seconds,
                              BenchResult *r)
{
    g_autoptr(GError) err = NULL;
    double t0 = now_s();
    PmsBackend *b = pms_backend_open(spec, models, &err);
    r->load_ms = (now_s() - t0) * 1e3;
    if (b == NULL) {
        g_strlcpy(r->error, err->message, sizeof r->error);
        return FALSE;
    }
    PmsBackendResult res;
    for (guint i = 0; i < strs->len; i++) {
        pms_backend_encode(b, strs->pdata[i], &res);
        r->ok += strcmp(res.ret, "PFM_SUCCESS") == 0;
        pms_backend_result_clear(&res);
    }
    double s0 = now_s(), t;
    do {
        for (guint i = 0; i < strs->len; i++) {
            pms_backend_encode(b, strs->pdata[i], &res);
            pms_backend_result_clear(&res);
        }
        r->encodings += strs->len;
    } while ((t = now_s() - s0) < seconds);
    r->seconds = t;
    g_strlcpy(r->mode, "batch protocol, one line at a time", sizeof r->mode);
    pms_backend_close(b);
    return TRUE;
}

static void print_row(const char *name, const BenchResult *r, guint n_strings)
{
    printf("%-12s %-36s %10.3f %12.0f %6u/%u\n", name, r->mode, r->load_ms, (double)r->encodings / r->seconds, r->ok,
           n_strings);
}

int pms_bench_encode(int argc, char **argv)
{
    g_autofree char *backend = NULL;
    g_auto(GStrv) model_files = NULL;
    double seconds = 1.0;
    const GOptionEntry entries[] = {
        { "backend", 'B', 0, G_OPTION_ARG_STRING, &backend,
          "Backend to compare with builtin: libpfm4 (default) or cmd:PROGRAM", "B" },
        { "seconds", 0, 0, G_OPTION_ARG_DOUBLE, &seconds, "Minimum time each encoder spends encoding (default 1.0)",
          "S" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    g_autoptr(GOptionContext) ctx =
        pms_cli_context("[PMU...]",
                        "Encodings per second and model-load time, builtin against another backend,\n"
                        "on the same strings (every event and unit mask plus a modifier sample).",
                        entries, &model_files);
    pms_cli_help(ctx,
                 "0 the benchmark ran; 1 a backend failed; 2 usage error, unknown PMU or a model file that "
                 "does not load.",
                 "  pmusim bench encode\n"
                 "  pmusim bench encode --seconds 3 glm wsm\n");
    if (!pms_cli_parse(ctx, &argc, &argv))
        return PMS_EXIT_USAGE;
    if (!(seconds > 0 && seconds <= 3600)) {
        fprintf(stderr, "pmusim: --seconds: expected a duration in (0, 3600]\n");
        return PMS_EXIT_USAGE;
    }
    const char *other = backend ? backend : "libpfm4";
    g_autoptr(PmsModelSet) models = pms_cli_load_models(model_files);
    if (models == NULL)
        return PMS_EXIT_USAGE;
    g_autoptr(GPtrArray) strs = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) selected = pms_cli_models_named(models, argc, argv);
    if (selected == NULL)
        return PMS_EXIT_USAGE;
    /* Without PMU names, only the PMUs the other backend knows are compared:
     * a PMU it answers PFM_ERR_NOTFOUND for (libpfm4 has no Xeon 7500 C-Box
     * and no Montecito) would time that backend's lookup failures, not its
     * encoder.  Named PMUs are always taken. */
    if (argc <= 1) {
        g_autoptr(GError) perr = NULL;
        PmsBackend *probe = pms_backend_open(other, models, &perr);
        g_autoptr(GString) skipped = g_string_new(NULL);
        for (guint i = 0; probe && i < selected->len;) {
            const PmsModel *m = g_ptr_array_index(selected, i);
            g_autofree char *str = m->n_events ? g_strdup_printf("%s::%s", m->name, m->events[0].name) : NULL;
            PmsBackendResult res = { 0 };
            if (str)
                pms_backend_encode(probe, str, &res);
            gboolean unknown = str && strcmp(res.ret, "PFM_ERR_NOTFOUND") == 0;
            pms_backend_result_clear(&res);
            if (unknown) {
                g_string_append_printf(skipped, " %s", m->name);
                g_ptr_array_remove_index(selected, i);
            } else {
                i++;
            }
        }
        if (probe)
            pms_backend_close(probe);
        if (skipped->len)
            printf("bench encode: left out, unknown to %s:%s\n", other, skipped->str);
    }
    g_autoptr(GString) pmus = g_string_new(NULL);
    for (guint i = 0; i < selected->len; i++) {
        const PmsModel *m = g_ptr_array_index(selected, i);
        pms_strings_names(m, strs);
        pms_strings_modifiers(m, strs);
        g_string_append_printf(pmus, " %s", m->name);
    }
    printf("bench encode: %u strings from%s; at least %.1f s of encoding per backend\n", strs->len, pmus->str, seconds);
    printf("%-12s %-36s %10s %12s %s\n", "backend", "mode", "load (ms)", "enc/s", "ok/strings");

    BenchResult rb = { 0 }, ro = { 0 };
    if (!builtin_load(model_files, selected, &rb))
        return 1;
    gboolean ok;
    if (strcmp(other, "libpfm4") == 0) {
        ok = bench_interleaved(model_files, strs, seconds, FALSE, &rb, &ro);
    } else {
        for (guint i = 0; i < strs->len; i++) {
            g_autoptr(PmsEncoding) enc = pms_encode(models, strs->pdata[i], NULL);
            rb.ok += enc != NULL;
        }
        builtin_slice(models, strs, seconds, &rb);
        ok = bench_backend(other, models, strs, seconds, &ro);
    }
    if (rb.seconds > 0)
        print_row("builtin", &rb, strs->len);
    if (!ok) {
        fprintf(stderr, "pmusim: bench: %s\n", ro.error[0] ? ro.error : "backend failed");
        return 1;
    }
    print_row(other, &ro, strs->len);
    if (strcmp(other, "libpfm4") == 0)
        printf("  libpfm4 load = dlopen %.3f ms + pfm_initialize %.3f ms (medians of 5 fresh processes)\n", ro.extra_ms,
               ro.load_ms - ro.extra_ms);
    printf("  builtin load = all models from the built-in resources (median of 9); with the encoder's\n"
           "  first-use preparation of every compared model: %.3f ms\n",
           rb.ready_ms);
    double ratio = ((double)rb.encodings / rb.seconds) / ((double)ro.encodings / ro.seconds);
    /* The goal compares loading every model with pfm_initialize alone. */
    double other_load = strcmp(other, "libpfm4") == 0 ? ro.load_ms - ro.extra_ms : ro.load_ms;
    printf("ratio builtin/%s: %.1fx encodings per second\n", other, ratio);
    printf("load: builtin %.3f ms vs %s %.3f ms: %.1fx (%s)\n", rb.load_ms,
           strcmp(other, "libpfm4") == 0 ? "pfm_initialize" : other, other_load, other_load / rb.load_ms,
           rb.load_ms < other_load ? "builtin faster" : "builtin slower");
    printf("load + preparation: builtin %.3f ms vs %.3f ms: %.1fx\n", rb.ready_ms, other_load,
           other_load / rb.ready_ms);
    if (strcmp(other, "libpfm4") != 0)
        return 0;

    /* The builtin encoder answers strings from results it keeps per event
     * and unit mask, with modifiers patched on; each sample again with
     * those off (--rules-only), where every string takes the rule path.
     * The modifier sample alone; the uncore PMUs alone (their family's
     * PMS_CLI_ENC_BENCH_UNCORE), where libpfm4's encoder is lighter. */
    g_autoptr(GPtrArray) mods = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) uncore = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GString) uncore_pmus = g_string_new(NULL);
    for (guint i = 0; i < selected->len; i++) {
        const PmsModel *m = g_ptr_array_index(selected, i);
        pms_strings_modifiers(m, mods);
        if (pms_cli_family(m)->flags & PMS_CLI_ENC_BENCH_UNCORE) {
            pms_strings_names(m, uncore);
            pms_strings_modifiers(m, uncore);
            g_string_append_printf(uncore_pmus, "%s%s", uncore_pmus->len ? " " : "", m->name);
        }
    }
    g_autofree char *uncore_name = g_strdup_printf("uncore (%s)", uncore_pmus->str);
    /* issue 21's goals: each sample >= 30x, on the rule path >= 20x */
    const struct {
        const char *name;
        GPtrArray *strs;
        gboolean rules_only;
        double goal;
    } samples[] = {
        { "whole set", strs, FALSE, 30 },       { "whole set, rule path", strs, TRUE, 20 },
        { "modifier sample", mods, FALSE, 30 }, { "modifier sample, rule path", mods, TRUE, 20 },
        { uncore_name, uncore, FALSE, 30 },     { "uncore, rule path", uncore, TRUE, 20 },
    };
    printf("samples, in process, builtin and %s in alternating slices; the rule path: the kept results off\n"
           "(--rules-only), every string through its rule set:\n",
           other);
    printf("  %-34s %8s %14s %14s %8s %6s\n", "sample", "strings", "builtin enc/s", "libpfm4 enc/s", "ratio", "goal");
    for (guint k = 0; k < G_N_ELEMENTS(samples); k++) {
        if (samples[k].strs->len == 0)
            continue;
        BenchResult sb = { 0 }, so = { 0 };
        if (!bench_interleaved(model_files, samples[k].strs, seconds, samples[k].rules_only, &sb, &so)) {
            fprintf(stderr, "pmusim: bench: %s\n", so.error[0] ? so.error : "backend failed");
            return 1;
        }
        double bs = sb.encodings / sb.seconds, os = so.encodings / so.seconds;
        printf("  %-34s %8u %14.0f %14.0f %7.1fx %3s%2.0fx %s\n", samples[k].name, samples[k].strs->len, bs, os,
               bs / os, ">=", samples[k].goal, bs / os >= samples[k].goal ? "PASS" : "MISS");
    }
    return 0;
}
