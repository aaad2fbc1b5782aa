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
    int status;    /* exit status, or -1 when killed by a signal */
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
    Run r = run_cli("--versio", NULL);   /* not a command: usage error, one line */
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
    return pms_cu_tap_run();
}
