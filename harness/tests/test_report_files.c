/* The report files written as they go (harness/report/spool.c, out_file.c;
 * issue 21): a spool gives each stream back in order however the appends
 * interleave and leaves no file in its directory; an output file appears
 * whole at commit and never otherwise -- not after an abort, not after a
 * write error (a file size limit), not when SIGTERM or SIGINT arrives while
 * it is being written (the temporary file is removed, the process still
 * dies of the signal), and a file that was there is left as it was. */
#include "cu_tap.h"
#include "out_file.h"
#include "spool.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static char *dir;

/* The names in dir, sorted, joined by spaces ("" when empty). */
static char *listing(void)
{
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    g_autoptr(GPtrArray) names = g_ptr_array_new();
    const char *n;
    while (d && (n = g_dir_read_name(d)))
        g_ptr_array_add(names, (gpointer)n);
    g_ptr_array_sort(names, (GCompareFunc)g_strcmp0);
    g_ptr_array_add(names, NULL);
    return g_strjoinv(" ", (char **)names->pdata);
}

static void clear_dir(void)
{
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    const char *n;
    while (d && (n = g_dir_read_name(d))) {
        g_autofree char *p = g_build_filename(dir, n, NULL);
        g_unlink(p);
    }
}

static char *slurp(const char *path)
{
    char *text = NULL;
    return g_file_get_contents(path, &text, NULL, NULL) ? text : NULL;
}

static void test_spool_streams(void)
{
    clear_dir();
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsSpool) s = pms_spool_new(dir, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    g_autofree char *names = listing();
    CU_ASSERT_STRING_EQUAL(names, ""); /* unlinked at once */
    /* streams 0 and 2 interleaved, a run of appends, a long one */
    pms_spool_append(s, 0, "a1 ", 3);
    pms_spool_printf(s, 2, "c%d ", 1);
    pms_spool_printf(s, 0, "a%d ", 2);
    pms_spool_printf(s, 0, "a%d ", 3);
    g_autofree char *big = g_strnfill(200000, 'x');
    pms_spool_append(s, 2, big, strlen(big));
    pms_spool_append(s, 0, "a4", 2);
    CU_ASSERT_EQUAL(pms_spool_size(s, 0), 11);
    CU_ASSERT_EQUAL(pms_spool_size(s, 1), 0);
    CU_ASSERT_EQUAL(pms_spool_size(s, 2), 3 + 200000);
    CU_ASSERT_EQUAL(pms_spool_size(s, 7), 0);
    g_autofree char *path = g_build_filename(dir, "copy", NULL);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_TRUE(pms_spool_copy(s, 0, f, "copy", &err));
    CU_ASSERT_TRUE(pms_spool_copy(s, 1, f, "copy", &err));
    fputs("|", f);
    CU_ASSERT_TRUE(pms_spool_copy(s, 2, f, "copy", &err));
    fclose(f);
    g_autofree char *got = slurp(path);
    g_autofree char *want = g_strconcat("a1 a2 a3 a4|c1 ", big, NULL);
    CU_ASSERT_STRING_EQUAL(got, want);
    /* a directory that takes no file: an error naming it */
    g_autoptr(GError) e2 = NULL;
    CU_ASSERT_PTR_NULL(pms_spool_new("/nonexistent-dir", &e2));
    CU_ASSERT_TRUE(e2 && strstr(e2->message, "/nonexistent-dir"));
}

static void test_commit_and_abort(void)
{
    clear_dir();
    g_autofree char *path = g_build_filename(dir, "r.xml", NULL);
    g_autoptr(GError) err = NULL;
    PmsOutFile *o = pms_out_file_begin(path, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    fputs("whole", pms_out_file_stream(o));
    CU_ASSERT_FALSE(g_file_test(path, G_FILE_TEST_EXISTS)); /* not before the commit */
    CU_ASSERT_TRUE(pms_out_file_commit(o, &err));
    g_autofree char *got = slurp(path);
    CU_ASSERT_STRING_EQUAL(got, "whole");
    g_autofree char *names = listing();
    CU_ASSERT_STRING_EQUAL(names, "r.xml");
    /* an abort leaves the old file as it was, and nothing else */
    o = pms_out_file_begin(path, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    fputs("partial", pms_out_file_stream(o));
    fflush(pms_out_file_stream(o));
    pms_out_file_abort(o);
    g_autofree char *again = slurp(path);
    CU_ASSERT_STRING_EQUAL(again, "whole");
    g_autofree char *names2 = listing();
    CU_ASSERT_STRING_EQUAL(names2, "r.xml");
    /* the scratch directory: beside a file, the temporary one for "-" and a device */
    g_autofree char *sd = pms_out_file_scratch_dir(path);
    CU_ASSERT_STRING_EQUAL(sd, dir);
    g_autofree char *sd2 = pms_out_file_scratch_dir("/dev/null");
    CU_ASSERT_STRING_EQUAL(sd2, g_get_tmp_dir());
    /* a device is written in place: /dev/full fails at the commit */
    o = pms_out_file_begin("/dev/full", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    fputs("lost", pms_out_file_stream(o));
    CU_ASSERT_FALSE(pms_out_file_commit(o, &err));
    CU_ASSERT_TRUE(err && strstr(err->message, "/dev/full"));
}

/* In a child: begin path, write, then `how`: 's' SIGTERM, 'i' SIGINT while
 * the file is open; 'f' a write beyond a file size limit, then commit. */
static int child_status(const char *path, char how)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (how == 'f') {
            signal(SIGXFSZ, SIG_IGN); /* the write fails with EFBIG instead */
            struct rlimit rl = { 4096, 4096 };
            setrlimit(RLIMIT_FSIZE, &rl);
        }
        PmsOutFile *o = pms_out_file_begin(path, NULL);
        if (!o)
            _exit(3);
        FILE *f = pms_out_file_stream(o);
        for (int i = 0; i < 2000; i++)
            fputs("<testcase name=\"x\"/>\n", f);
        fflush(f);
        if (how == 's')
            raise(SIGTERM);
        if (how == 'i')
            raise(SIGINT);
        _exit(pms_out_file_commit(o, NULL) ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

static void test_signal_and_write_error(void)
{
    clear_dir();
    g_autofree char *path = g_build_filename(dir, "r.xml", NULL);
    /* no file before: none after */
    int st = child_status(path, 's');
    CU_ASSERT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
    g_autofree char *n1 = listing();
    CU_ASSERT_STRING_EQUAL(n1, "");
    st = child_status(path, 'i');
    CU_ASSERT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT);
    g_autofree char *n2 = listing();
    CU_ASSERT_STRING_EQUAL(n2, "");
    st = child_status(path, 'f');
    CU_ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 1);
    g_autofree char *n3 = listing();
    CU_ASSERT_STRING_EQUAL(n3, "");
    /* an old file is kept as it was, whatever stops the new one */
    CU_ASSERT_FATAL(g_file_set_contents(path, "old", -1, NULL));
    st = child_status(path, 's');
    CU_ASSERT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
    st = child_status(path, 'f');
    CU_ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 1);
    g_autofree char *old = slurp(path);
    CU_ASSERT_STRING_EQUAL(old, "old");
    g_autofree char *n4 = listing();
    CU_ASSERT_STRING_EQUAL(n4, "r.xml");
    /* and the handlers are gone once no file is pending: SIGTERM's default action */
    struct sigaction sa;
    sigaction(SIGTERM, NULL, &sa);
    CU_ASSERT_TRUE(sa.sa_handler == SIG_DFL);
}

int main(void)
{
    g_log_set_always_fatal(G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING); /* a misuse of glib fails the test */
    dir = g_dir_make_tmp("pms-report-files-XXXXXX", NULL);
    if (!dir)
        return 1;
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("report_files", NULL, NULL);
    CU_add_test(s, "a spool gives each stream back in order, no file left", test_spool_streams);
    CU_add_test(s, "an output file appears at commit only; abort keeps the old one", test_commit_and_abort);
    CU_add_test(s, "SIGTERM, SIGINT or a write error: no file, no temporary file", test_signal_and_write_error);
    int rc = pms_cu_tap_run();
    clear_dir();
    g_rmdir(dir);
    return rc;
}
