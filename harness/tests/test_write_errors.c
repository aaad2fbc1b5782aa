/* Output lost is never a success: every command, its --help and --version,
 * with stdout on /dev/full, exit non-zero with one stderr line saying the
 * write failed; a reader that closed the pipe before the first write gets
 * the conventional SIGPIPE death.  (Before, most commands ignored the
 * failed writes and exited 0: a green CI step with no report.)
 *
 * Run by meson as: test_write_errors PMUSIM SRCDIR. */
#include "cu_tap.h"

#include <gio/gio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static const char *pmusim_path, *srcdir;

/* Each command with arguments that succeed and print on stdout. */
static const char *const commands[] = {
    "--version",
    "--help",
    "help",
    "encode wsm::INST_RETIRED:ANY_P",
    "encode --help",
    "decode wsm 0x5301c0",
    "list",
    "list wsm INST_RETIRED",
    "lint",
    "explain wsm::INST_RETIRED:ANY_P:c=2",
    "ranges --data 0x1003-0x2005",
    "dispatch -e NOPS_RETIRED",
    "diff --backend builtin --backend builtin nhm_unc",
    "bench encode --backend builtin --seconds 0.01 nhm_unc",
    "conform --kind encode --tap nhm_unc",
    "conform nhm_unc",
    "sim --pmu wsm -e INST_RETIRED:ANY_P --occurrences 1,2",
    "sim --pmu wsm -e INST_RETIRED:ANY_P --occurrences 1,2 --format json",
};

static GSubprocess *spawn(const char *words, int stdout_fd, const char *stdout_path, GError **error)
{
    g_auto(GStrv) argv = g_strsplit(words, " ", -1);
    g_autoptr(GPtrArray) a = g_ptr_array_new();
    g_ptr_array_add(a, (gpointer)pmusim_path);
    for (guint i = 0; argv[i]; i++)
        g_ptr_array_add(a, argv[i]);
    g_ptr_array_add(a, NULL);
    g_autoptr(GSubprocessLauncher) l = g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDERR_PIPE);
    g_subprocess_launcher_set_cwd(l, srcdir);
    if (stdout_path)
        g_subprocess_launcher_set_stdout_file_path(l, stdout_path);
    else
        g_subprocess_launcher_take_stdout_fd(l, stdout_fd);
    return g_subprocess_launcher_spawnv(l, (const char *const *)a->pdata, error);
}

static void test_dev_full(void)
{
    for (guint i = 0; i < G_N_ELEMENTS(commands); i++) {
        g_autoptr(GError) err = NULL;
        g_autoptr(GSubprocess) p = spawn(commands[i], -1, "/dev/full", &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        g_autofree char *errtext = NULL;
        CU_ASSERT_TRUE(g_subprocess_communicate_utf8(p, NULL, NULL, NULL, &errtext, &err));
        gboolean exited = g_subprocess_get_if_exited(p);
        int status = exited ? g_subprocess_get_exit_status(p) : -1;
        gboolean said = errtext && strstr(errtext, "error writing standard output") != NULL;
        if (!exited || status == 0 || !said)
            printf("# pmusim %s > /dev/full: exited %d status %d, stderr: %s\n", commands[i], exited, status,
                   errtext ? errtext : "");
        CU_ASSERT_TRUE(exited);
        CU_ASSERT_NOT_EQUAL(status, 0);
        CU_ASSERT_TRUE(said);
    }
}

static void test_closed_pipe(void)
{
    int fds[2];
    CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
    close(fds[0]); /* no reader: the first write fails with EPIPE */
    g_autoptr(GError) err = NULL;
    g_autoptr(GSubprocess) p = spawn("list", fds[1], NULL, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    g_autofree char *errtext = NULL;
    CU_ASSERT_TRUE(g_subprocess_communicate_utf8(p, NULL, NULL, NULL, &errtext, &err));
    CU_ASSERT_TRUE(g_subprocess_get_if_signaled(p));
    if (g_subprocess_get_if_signaled(p))
        CU_ASSERT_EQUAL(g_subprocess_get_term_sig(p), SIGPIPE);
    g_autofree char *own = pms_cu_strip_gcov(errtext ? errtext : "");
    CU_ASSERT_STRING_EQUAL(own, ""); /* silent, as `| head` expects */
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_write_errors PMUSIM SRCDIR\n");
        return 2;
    }
    pmusim_path = g_canonicalize_filename(argv[1], NULL); /* the runs start in SRCDIR */
    srcdir = argv[2];
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("write_errors", NULL, NULL);
    CU_add_test(s, "every command on /dev/full exits non-zero and says so", test_dev_full);
    CU_add_test(s, "a closed pipe: SIGPIPE death, silently", test_closed_pipe);
    return pms_cu_tap_run();
}
