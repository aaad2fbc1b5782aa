/* pmusim bench conform, the reports' part (issue 21): `pmusim conform` on a
 * corpus of n encoding vectors written to disk (the built-in .enc vectors,
 * each PMU's written again and again into files of its folder; every tenth
 * one with its codes changed, so that about a tenth of them fail) with
 * --tap (stdout into a file), --junit FILE and --write-expect FILE: the
 * child's peak memory (goal: under 100 MB, as without the reports) and its
 * time, and whether each report came out whole. */
#include "bench.h"
#include "cli_common.h"
#include "vectors.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define GOAL_REPORTS_MB 100.0

/* bytes as a vector file's quoted string: every byte outside printable
 * ASCII, and the quote and backslash, as \xHH */
static void put_quoted(FILE *f, const char *s, gsize len)
{
    fputc('"', f);
    for (gsize i = 0; i < len; i++) {
        guchar c = (guchar)s[i];
        if (c < 0x20 || c > 0x7e || c == '"' || c == '\\')
            fprintf(f, "\\x%02x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void put_vector(FILE *f, const PmsVector *v, gboolean wrong)
{
    put_quoted(f, v->event, v->event_len);
    fprintf(f, " %s ", v->ret);
    if (!v->n_codes)
        fputc('-', f);
    for (guint i = 0; i < v->n_codes; i++)
        fprintf(f, "%s%#" G_GINT64_MODIFIER "x", i ? "," : "", v->codes[i] ^ (wrong && i == 0 ? 1 : 0));
    if (v->fstr) {
        fputs(" fstr ", f);
        put_quoted(f, v->fstr, strlen(v->fstr));
    }
    fprintf(f, " src %s\n", v->source);
}

/* The corpus under top: top/<pmu>/copyK.enc; the count written. */
static guint write_corpus(const char *top, guint n, guint *failing, GError **error)
{
    g_autoptr(PmsVectorSet) set = pms_vector_set_new();
    if (!pms_vector_set_load_builtin_kinds(set, 1u << PMS_VECTOR_ENCODE, error))
        return 0;
    guint count = pms_vector_set_count(set);
    if (!count)
        return 0;
    guint copies = (n + count - 1) / count, written = 0;
    *failing = 0;
    for (guint i = 0; i < count;) {
        /* one PMU's vectors: i..j-1 (the set keeps a folder's together) */
        const char *pmu = pms_vector_set_nth(set, i)->pmu;
        guint j = i;
        while (j < count && strcmp(pms_vector_set_nth(set, j)->pmu, pmu) == 0)
            j++;
        g_autofree char *dir = g_build_filename(top, pmu, NULL);
        g_mkdir_with_parents(dir, 0755);
        for (guint k = 0; k < copies; k++) {
            g_autofree char *name = g_strdup_printf("%s/copy%u.enc", dir, k);
            FILE *f = fopen(name, "w");
            if (!f) {
                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno), "%s: %s", name, g_strerror(errno));
                return 0;
            }
            for (guint x = i; x < j; x++) {
                const PmsVector *v = pms_vector_set_nth(set, x);
                gboolean wrong = (x - i) % 10 == 9;
                put_vector(f, v, wrong);
                *failing += wrong && v->n_codes;
            }
            written += j - i;
            if (fclose(f) != 0) {
                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno), "%s: %s", name, g_strerror(errno));
                return 0;
            }
        }
        i = j;
    }
    return written;
}

static gboolean ends_with(const char *path, const char *tail)
{
    gsize t = strlen(tail);
    FILE *f = fopen(path, "rb");
    if (!f)
        return FALSE;
    char buf[64] = { 0 };
    gboolean ok = t < sizeof buf && fseek(f, -(long)t, SEEK_END) == 0 && fread(buf, 1, t, f) == t;
    fclose(f);
    return ok && memcmp(buf, tail, t) == 0;
}

static void remove_tree(const char *path)
{
    g_autoptr(GDir) d = g_dir_open(path, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d))) {
        g_autofree char *p = g_build_filename(path, name, NULL);
        if (g_file_test(p, G_FILE_TEST_IS_DIR))
            remove_tree(p);
        else
            g_unlink(p);
    }
    g_rmdir(path);
}

/* A child's own peak memory: a child's ru_maxrss starts from its parent's
 * resident size at the fork (Linux keeps the larger across exec), so a child
 * of the bench (the suite loaded) would show the bench's size.  The command
 * is run by a helper, a fresh pmusim that loads nothing, which forks it and
 * writes "KB STATUS CPU" (peak RSS, wait status, user+system seconds) into
 * the result file. */
int pms_bench_measured_helper(char **cmd, const char *result, const char *out, const char *err)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if ((out && !freopen(out, "w", stdout)) || (err && !freopen(err, "w", stderr)))
            _exit(127);
        execv(cmd[0], cmd);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
        return 1;
    double cpu = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    g_autofree char *line = g_strdup_printf("%ld %d %.6f\n", (long)ru.ru_maxrss, status, cpu);
    return g_file_set_contents(result, line, -1, NULL) ? 0 : 1;
}

int pms_bench_run_measured(const char *const *cmd, const char *out, const char *err, double *mb, int *status,
                           double *cpu)
{
    g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
    g_autofree char *result = NULL;
    int fd = g_file_open_tmp("pms-bench-rss-XXXXXX", &result, NULL);
    if (!self || fd < 0)
        return FALSE;
    close(fd);
    g_autoptr(GPtrArray) a = g_ptr_array_new();
    const char *head[] = { self, "bench", "conform", "--measured-run", result };
    for (guint i = 0; i < G_N_ELEMENTS(head); i++)
        g_ptr_array_add(a, (gpointer)head[i]);
    if (out) {
        g_ptr_array_add(a, "--measured-stdout");
        g_ptr_array_add(a, (gpointer)out);
    }
    if (err) {
        g_ptr_array_add(a, "--measured-stderr");
        g_ptr_array_add(a, (gpointer)err);
    }
    g_ptr_array_add(a, "--");
    for (guint i = 0; cmd[i]; i++)
        g_ptr_array_add(a, (gpointer)cmd[i]);
    g_ptr_array_add(a, NULL);
    fflush(stdout);
    gint wait = 0;
    g_autofree char *text = NULL;
    gboolean ok = g_spawn_sync(NULL, (char **)a->pdata, NULL, G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL, NULL, NULL,
                               &wait, NULL) &&
        g_spawn_check_wait_status(wait, NULL) && g_file_get_contents(result, &text, NULL, NULL);
    g_unlink(result);
    long kb = 0;
    ok = ok && sscanf(text, "%ld %d %lf", &kb, status, cpu) == 3;
    *mb = kb / 1024.0;
    return ok;
}

int pms_bench_conform_reports(guint n, const char *keep)
{
    g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
    g_autofree char *base = self ? g_path_get_basename(self) : NULL;
    if (!base || !g_str_has_prefix(base, "pmusim")) {
        printf("reports: not measured (this binary is not pmusim: the run is a pmusim process of its own)\n");
        return 0;
    }
    g_autoptr(GError) err = NULL;
    g_autofree char *top = keep ? g_strdup(keep) : g_dir_make_tmp("pms-bench-reports-XXXXXX", &err);
    if (!top || (keep && g_mkdir_with_parents(keep, 0755) != 0)) {
        fprintf(stderr, "pmusim: bench conform: a folder for the corpus: %s\n", err ? err->message : g_strerror(errno));
        return 1;
    }
    g_autofree char *vec = g_build_filename(top, "vectors", NULL);
    g_autofree char *out = g_build_filename(top, "reports", NULL);
    g_mkdir_with_parents(out, 0755);
    guint failing = 0;
    guint written = write_corpus(vec, n, &failing, &err);
    if (!written) {
        fprintf(stderr, "pmusim: bench conform: the corpus: %s\n", err ? err->message : "no vector");
        if (!keep)
            remove_tree(top);
        return 1;
    }
    g_autofree char *junit = g_build_filename(out, "r.xml", NULL);
    g_autofree char *expect = g_build_filename(out, "known.txt", NULL);
    g_autofree char *tap = g_build_filename(out, "r.tap", NULL);
    g_autofree char *table = g_build_filename(out, "table.txt", NULL);
    const char *const argv[] = { self,       "conform", "--vectors", vec,   "--kind",         "encode",
                                 "--strict", "--tap",   "--junit",   junit, "--write-expect", expect,
                                 NULL };
    printf("reports: pmusim conform --vectors DIR --kind encode --strict --tap --junit FILE --write-expect FILE "
           "(TAP into a file)%s%s\n",
           keep ? ", in " : "", keep ? keep : "");
    fflush(stdout);
    double t0 = (double)g_get_monotonic_time() / 1e6, mb = 0, cpu = 0;
    int status = 0;
    gboolean waited = pms_bench_run_measured(argv, tap, table, &mb, &status, &cpu);
    double secs = (double)g_get_monotonic_time() / 1e6 - t0;
    /* a tenth of the vectors fail: exit 1 is the run working */
    gboolean ran = waited && WIFEXITED(status) && WEXITSTATUS(status) == (failing ? 1 : 0);
    g_autofree char *plan = g_strdup_printf("\n1..%u\n", written);
    gboolean whole = ran && ends_with(junit, "</testsuites>\n") && ends_with(tap, plan) &&
        g_file_test(expect, G_FILE_TEST_IS_REGULAR);
    printf("reports: %u encoding vectors (%u failing), their TAP, JUnit and expectations written as they run: %.3f "
           "s (CPU %.3f s); peak RSS %.1f MB %s (goal < %.0f MB, a process of its own); reports whole: %s\n",
           written, failing, secs, cpu, mb, ran && mb < GOAL_REPORTS_MB ? "PASS" : "MISS", GOAL_REPORTS_MB,
           whole ? "yes" : "NO");
    if (!keep)
        remove_tree(top);
    return ran ? 0 : 1;
}
