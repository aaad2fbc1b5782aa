/* stimcli tests (issue 20): `pmusim sim` on hostile and repeated stimulus
 * input, run as a subprocess with a deadline and its peak memory measured:
 * /dev/zero and NUL-only lines refused at once with memory flat, a piped
 * stimulus read once, boxes the model does not have, repeated keys, negative
 * expectations, 64 branches on a line, the count of a sign-extending PMD,
 * and the reference engine's size limit.
 *
 * Run by meson as: test_stimcli PMUSIM. */
#include "cu_tap.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *pmusim_path;
static char *tmpdir;

typedef struct {
    int status; /* exit status; -1 killed by a signal; -2 killed at the deadline */
    GString *out, *err;
    long maxrss_kb; /* the child's peak resident set */
    double secs;
} Run;

static void run_clear(Run *r)
{
    g_string_free(r->out, TRUE);
    g_string_free(r->err, TRUE);
}

/* pmusim with args (NULL-terminated), stdin_text on its standard input (NULL:
 * none), killed after `timeout` seconds. */
static Run run_in(const char *stdin_text, double timeout, const char *const *args)
{
    Run r = { -1, g_string_new(NULL), g_string_new(NULL), 0, 0 };
    int in[2], out[2], err[2];
    CU_ASSERT_FATAL(pipe(in) == 0 && pipe(out) == 0 && pipe(err) == 0);
    GPtrArray *argv = g_ptr_array_new();
    g_ptr_array_add(argv, (gpointer)pmusim_path);
    for (guint i = 0; args[i]; i++)
        g_ptr_array_add(argv, (gpointer)args[i]);
    g_ptr_array_add(argv, NULL);
    gint64 t0 = g_get_monotonic_time();
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        close(in[1]);
        close(out[0]);
        close(err[0]);
        execv(pmusim_path, (char **)argv->pdata);
        _exit(127);
    }
    g_ptr_array_free(argv, TRUE);
    close(in[0]);
    close(out[1]);
    close(err[1]);
    if (stdin_text) {
        /* small texts: the pipe holds them */
        gsize n = strlen(stdin_text);
        CU_ASSERT_EQUAL(write(in[1], stdin_text, n), (ssize_t)n);
    }
    close(in[1]);
    struct pollfd pfd[2] = { { out[0], POLLIN, 0 }, { err[0], POLLIN, 0 } };
    GString *dst[2] = { r.out, r.err };
    gint64 deadline = t0 + (gint64)(timeout * G_USEC_PER_SEC);
    gboolean killed = FALSE;
    while (pfd[0].fd >= 0 || pfd[1].fd >= 0) {
        gint64 left = (deadline - g_get_monotonic_time()) / 1000;
        if (left <= 0) {
            kill(pid, SIGKILL);
            killed = TRUE;
            break;
        }
        int k = poll(pfd, 2, (int)MIN(left, 1000));
        if (k < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; i++) {
            if (pfd[i].fd < 0 || !(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char buf[65536];
            ssize_t n = read(pfd[i].fd, buf, sizeof buf);
            if (n > 0 && dst[i]->len < (1u << 20))
                g_string_append_len(dst[i], buf, n);
            else if (n <= 0) {
                close(pfd[i].fd);
                pfd[i].fd = -1;
            }
        }
    }
    for (int i = 0; i < 2; i++)
        if (pfd[i].fd >= 0)
            close(pfd[i].fd);
    int st;
    struct rusage ru;
    while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR)
        ;
    r.secs = (double)(g_get_monotonic_time() - t0) / G_USEC_PER_SEC;
    r.maxrss_kb = ru.ru_maxrss;
    r.status = killed ? -2 : WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

static Run run_args(const char *stdin_text, const char *const *args)
{
    return run_in(stdin_text, 60, args);
}

/* A stimulus file in the scratch directory. */
static char *stim_file(const char *name, const char *text)
{
    char *path = g_build_filename(tmpdir, name, NULL);
    CU_ASSERT_FATAL(g_file_set_contents(path, text, -1, NULL));
    return path;
}

/* status and a piece of stderr (NULL: any), reported when they differ */
static void expect(const Run *r, int status, const char *err_has, const char *what)
{
    gboolean ok = r->status == status && (!err_has || strstr(r->err->str, err_has));
    if (!ok)
        fprintf(stderr, "# %s: status %d (want %d), stderr '%s' (want '%s')\n", what, r->status, status, r->err->str,
                err_has ? err_has : "-");
    CU_ASSERT_EQUAL(r->status, status);
    if (err_has)
        CU_ASSERT_PTR_NOT_NULL(strstr(r->err->str, err_has));
}

/* A stimulus's error for one model and event: exit status and message. */
static void expect_stim(const char *pmu, const char *event, const char *text, int status, const char *err_has)
{
    g_autofree char *path = stim_file("t.stim", text);
    const char *args[] = { "sim", "--pmu", pmu, "-e", event, "--stim", path, NULL };
    Run r = run_args(NULL, args);
    g_autofree char *want = err_has ? g_strdup_printf("%s:%s", path, err_has) : NULL;
    expect(&r, status, want, text);
    run_clear(&r);
}

/* Item 2, 3: /dev/zero, on every path that reads a stimulus, is refused at
 * its first byte: exit 2, file:line:column, in well under the deadline and
 * in a few megabytes (it grew to gigabytes, then read as end of input). */
static void test_dev_zero(void)
{
    const char *cases[][9] = {
        { "sim", "--pmu", "wsm", "--stim", "/dev/zero", NULL },
        { "sim", "--pmu", "wsm", "-e", "wsm::INST_RETIRED:ANY_P", "--engine", "fast", "--stim", "/dev/zero" },
        { "sim", "--pmu", "wsm", "-e", "wsm::INST_RETIRED:ANY_P", "--stim", "/dev/zero", NULL },
        { "sim", "--stim", "/dev/zero", NULL }, /* the pmu line searched for */
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        const char *args[10] = { 0 };
        memcpy(args, cases[i], sizeof cases[i]);
        Run r = run_in(NULL, 20, args);
        expect(&r, 2, "pmusim: /dev/zero:1: column 1: a NUL byte in the text", "/dev/zero");
        if (r.maxrss_kb > 256 * 1024)
            fprintf(stderr, "# /dev/zero case %u: %ld KB resident\n", i, r.maxrss_kb);
        CU_ASSERT_TRUE(r.maxrss_kb <= 256 * 1024);
        CU_ASSERT_TRUE(r.secs < 10);
        run_clear(&r);
    }
    /* a line of NUL bytes only after good lines: named, both engines */
    g_autofree char *path = stim_file("nul-line.stim", "pmu wsm\nrun 1 INST_RETIRED.ANY_P=1\n");
    FILE *f = fopen(path, "ab");
    CU_ASSERT_FATAL(f != NULL);
    fwrite("\0\0\0\0\nread IA32_PMC0 1\n", 1, 20, f);
    fclose(f);
    for (int fast = 0; fast < 2; fast++) {
        const char *args[] = { "sim",  "-e", "wsm::INST_RETIRED:ANY_P", "--stim", path, fast ? "--engine" : NULL,
                               "fast", NULL };
        Run r = run_args(NULL, args);
        g_autofree char *want = g_strdup_printf("%s:3: column 1: a NUL byte", path);
        expect(&r, 2, want, "a NUL-only line");
        run_clear(&r);
    }
}

/* Item 4: a stimulus piped in without -e/--pmu: the pmu line and the run
 * read one stream, so every line runs and the failing read is reported
 * (it printed "0 cycles", exit 0: the sniffing ate the first buffer). */
static void test_piped(void)
{
    const char *text = "pmu wsm\nrun 5 INST_RETIRED.ANY_P=1\nread IA32_PMC0 99\n";
    const char *a1[] = { "sim", "--stim", "/dev/stdin", NULL };
    Run r = run_args(text, a1);
    expect(&r, 1, "pmusim: /dev/stdin:3: cycle 5: read IA32_PMC0 (0xc1) = 0x0 (0), expected 0x63 (99)", "piped");
    run_clear(&r);
    const char *a2[] = { "sim", "--stim", "-", NULL };
    r = run_args(text, a2);
    expect(&r, 1, "pmusim: /dev/stdin:3: cycle 5: read IA32_PMC0", "--stim -");
    run_clear(&r);
    /* programmed by the stimulus itself: all five cycles counted */
    const char *prog = "# piped\npmu wsm\nwrite IA32_PERFEVTSEL0 0x4301c0\nwrite IA32_PERF_GLOBAL_CTRL 1\n"
                       "run 5 INST_RETIRED.ANY_P=1\nread IA32_PMC0 5\n";
    r = run_args(prog, a2);
    expect(&r, 0, NULL, "piped, programmed");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out->str, "# /dev/stdin on wsm, fast engine: 5 cycles"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out->str, "IA32_PMC0 count=5 overflow=0"));
    run_clear(&r);
    /* with -e: the counter counted the piped run */
    const char *a3[] = { "sim", "-e", "wsm::INST_RETIRED:ANY_P", "--stim", "-", NULL };
    r = run_args(text, a3);
    expect(&r, 1, "pmusim: /dev/stdin:3: cycle 5: read IA32_PMC0 (0xc1) = 0x5 (5), expected 0x63 (99)", "-e, --stim -");
    run_clear(&r);
}

/* Item 6: UNITn/ naming a box the model does not have is refused with the
 * boxes it has (it was accepted and its occurrences dropped). */
static void test_boxes(void)
{
    expect_stim("nhmex_cbox3", "LLC_MISSES:ALL", "pmu nhmex_cbox3\nrun 3 cbox8/LLC_MISSES.ALL=3\n", 1,
                "2: 'cbox8/': model nhmex_cbox3 has no box cbox8: its boxes are cbox0..cbox7");
    expect_stim("nhmex_cbox3", "LLC_MISSES:ALL", "run 3 cbox1023/LLC_MISSES.ALL=3\n", 1,
                "1: 'cbox1023/': model nhmex_cbox3 has no box cbox1023: its boxes are cbox0..cbox7");
    /* the model's own box named as cbox3: its counter counts 3 x 3 */
    expect_stim("nhmex_cbox3", "LLC_MISSES:ALL", "run 3 cbox3/LLC_MISSES.ALL=3\nread C3_MSR_PMON_CTR0 9\n", 0, NULL);
}

/* Item 9: the count of a 47-bit PMD preloaded to 2^46 - 1 after two
 * occurrences is 2^46 + 1 = 70368744177665, the counter's value, not the
 * sign-extended read 0xffffc00000000001 = 18446673704965373953. */
static void test_pmd_count(void)
{
    const char *a[] = { "sim", "-e",        "montecito::NOPS_RETIRED", "--occurrences",
                        "1,1", "--preload", "0x3fffffffffff",          NULL };
    Run r = run_args(NULL, a);
    expect(&r, 0, NULL, "montecito count");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out->str, "\ncount=70368744177665 overflow=0\n"));
    run_clear(&r);
    const char *j[] = { "sim",  "-e",        "montecito::NOPS_RETIRED", "--occurrences",
                        "1,1",  "--preload", "0x3fffffffffff",          "-f",
                        "json", NULL };
    r = run_args(NULL, j);
    expect(&r, 0, NULL, "montecito json");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out->str, "\"count\": 70368744177665,"));
    run_clear(&r);
    /* a number beyond 2^53 in JSON is a string: 2^56 cycles */
    g_autofree char *path = stim_file("long.stim", "run 0x100000000000000\n");
    const char *c[] = {
        "sim", "-e", "wsm::INST_RETIRED:ANY_P", "--engine", "fast", "-f", "json", "--stim", path, NULL
    };
    r = run_args(NULL, c);
    expect(&r, 0, NULL, "json cycles");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out->str, "\"cycles\": \"72057594037927936\","));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out->str, "\"count\": 0,"));
    run_clear(&r);
}

/* Item 10: one rule, every key of one value refuses a second one in a run;
 * the PEBS lines' fields too. */
static void test_repeats(void)
{
    const char *ia64[][2] = {
        { "ip=0x10 ip=0x20", "ip" },
        { "insn=m:1 insn=i:2", "insn" },
        { "daddr=0x10 daddr=0x20", "daddr" },
        { "mesi=S mesi=M", "mesi" },
        { "psr=up psr=pp", "psr" },
        { "isa=ia64 isa=ia32", "isa" },
        { "fetch=demand fetch=prefetch", "fetch" },
        { "dear=1:2:3 dear=4:5:6", "dear" },
        { "iear=1:2 iear=3:4", "iear" },
        { "cpl=3 cpl=0", "cpl" },
        { "dse=1 dse=2", "dse" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(ia64); i++) {
        g_autofree char *text = g_strdup_printf("run 1 NOPS_RETIRED=1 %s\n", ia64[i][0]);
        g_autofree char *err = g_strdup_printf("1: %s: given twice in one run", ia64[i][1]);
        expect_stim("montecito", "NOPS_RETIRED", text, 1, err);
    }
    /* x86: the same keys, the same rule */
    expect_stim("wsm", "INST_RETIRED:ANY_P", "run 1 INST_RETIRED.ANY_P=1 ip=1 daddr=2 ip=3\n", 1,
                "1: ip: given twice in one run");
    expect_stim("nhm", "INST_RETIRED:ANY_P", "ds base=0x1000 max=0x2000 base=0x1100\n", 1, "1: ds: base given twice");
    expect_stim("nhm", "INST_RETIRED:ANY_P", "ds base=0x1000 max=0x2000 reset0=-1 reset0=-2\n", 1,
                "1: ds: reset0 given twice");
    expect_stim("nhm", "INST_RETIRED:ANY_P", "regs rax=1 rbx=2 RAX=3\n", 1, "1: regs: RAX given twice");
    expect_stim("nhm", "INST_RETIRED:ANY_P", "expect-pebs 0 index=1 index=2\n", 1, "1: expect-pebs: index given twice");
    expect_stim("nhm", "INST_RETIRED:ANY_P", "expect-record 0 rax=1 rax=2\n", 1, "1: expect-record: rax given twice");
    /* lists repeat; a signal twice adds: 1 + 2 in each of 2 cycles */
    expect_stim("wsm", "INST_RETIRED:ANY_P",
                "run 2 INST_RETIRED.ANY_P=1 INST_RETIRED.ANY_P=2 load=5 load=6\nread IA32_PMC0 6\n", 0, NULL);
}

/* Item 11: expect-pmi, expect-ext and expect-pebs take no negative number
 * (they read -1 as 2^64-1). */
static void test_negative(void)
{
    expect_stim("wsm", "INST_RETIRED:ANY_P", "run 1\nexpect-pmi -1\n", 1,
                "2: expect-pmi: a cycle cannot be negative, got '-1'");
    expect_stim("wsm", "INST_RETIRED:ANY_P", "run 1\nexpect-pmi 0 -1\n", 1,
                "2: expect-pmi: a cycle cannot be negative, got '-1'");
    expect_stim("montecito", "NOPS_RETIRED", "run 1\nexpect-ext -1\n", 1,
                "2: expect-ext: a cycle cannot be negative, got '-1'");
    expect_stim("nhm", "INST_RETIRED:ANY_P", "run 1\nexpect-pebs -1\n", 1,
                "2: expect-pebs: a count cannot be negative, got '-1'");
    expect_stim("nhm", "INST_RETIRED:ANY_P", "run 1\nexpect-record -1 rax=1\n", 1,
                "2: expect-record: a record index cannot be negative, got '-1'");
}

/* Item 12: a run holds 64 branches, as the docs say: the line takes them
 * (it took 62: 64 fields a line), the 65th is refused by the branch limit. */
static void test_branch_fields(void)
{
    for (guint n = 64; n <= 65; n++) {
        GString *x86 = g_string_new("write IA32_DEBUGCTL 1\nrun 1 INST_RETIRED.ANY_P=1");
        GString *ia64 = g_string_new("run 1 NOPS_RETIRED=1");
        for (guint i = 0; i < n; i++) {
            g_string_append_printf(x86, " branch=0x%x:0x%x:jcc", 0x1000 + 16 * i, 0x2000 + 16 * i);
            g_string_append_printf(ia64, " br=0x%x:0x%x", 0x4000 + 16 * i, 0x5000 + 16 * i);
        }
        g_string_append_c(x86, '\n');
        g_string_append_c(ia64, '\n');
        if (n == 64) {
            g_autofree char *path = stim_file("b64.stim", x86->str);
            const char *a[] = { "sim", "-e", "nhm::INST_RETIRED:ANY_P", "--stim", path, NULL };
            Run r = run_args(NULL, a);
            expect(&r, 0, NULL, "64 branch=");
            CU_ASSERT_PTR_NOT_NULL(strstr(r.out->str, "the LBR recorded 64 of the 64 branches"));
            run_clear(&r);
            expect_stim("montecito", "NOPS_RETIRED", ia64->str, 0, NULL);
        } else {
            expect_stim("nhm", "INST_RETIRED:ANY_P", x86->str, 1, "2: branch: at most 64 branches per run");
            expect_stim("montecito", "NOPS_RETIRED", ia64->str, 1, "1: br: at most 64 branches per run");
        }
        g_string_free(x86, TRUE);
        g_string_free(ia64, TRUE);
    }
    /* the line's own limit, 256 fields */
    GString *t = g_string_new("run 1");
    for (guint i = 0; i < 254; i++)
        g_string_append(t, " INST_RETIRED.ANY_P=0");
    g_string_append(t, "\n");
    expect_stim("wsm", "INST_RETIRED:ANY_P", t->str, 0, NULL);
    g_string_insert(t, 5, " INST_RETIRED.ANY_P=0");
    expect_stim("wsm", "INST_RETIRED:ANY_P", t->str, 1, "1: too many fields on one line (at most 256)");
    g_string_free(t, TRUE);
}

/* Item 16: a stimulus over 64 MiB for the reference engine (which reads it
 * whole) is refused naming the limit and --engine fast (it said "not a
 * text file this command reads").  A sparse file: its size is refused
 * before a byte is read. */
static void test_size_limit(void)
{
    g_autofree char *path = g_build_filename(tmpdir, "big.stim", NULL);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_FATAL(ftruncate(fd, (off_t)270 << 20) == 0);
    close(fd);
    const char *a[] = { "sim", "-e", "wsm::INST_RETIRED:ANY_P", "--stim", path, NULL };
    Run r = run_in(NULL, 20, a);
    g_autofree char *want = g_strdup_printf("pmusim: %s: larger than 67108864 bytes (64 MiB)", path);
    expect(&r, 2, want, "270 MB");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err->str, "(pmusim sim --engine fast)"));
    CU_ASSERT_PTR_NULL(strstr(r.err->str, "not a text file"));
    CU_ASSERT_TRUE(r.maxrss_kb <= 256 * 1024);
    run_clear(&r);
    g_remove(path);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PMUSIM\n", argv[0]);
        return 2;
    }
    pmusim_path = argv[1];
    tmpdir = g_dir_make_tmp("stimcli-XXXXXX", NULL);
    if (!tmpdir)
        return 1;
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("stimcli", NULL, NULL);
    CU_add_test(s, "/dev/zero and NUL lines: refused at once, memory flat (items 2, 3)", test_dev_zero);
    CU_add_test(s, "a piped stimulus is read once (item 4)", test_piped);
    CU_add_test(s, "UNITn/ beyond the model's boxes (item 6)", test_boxes);
    CU_add_test(s, "the count of a sign-extending PMD; JSON beyond 2^53 (item 9)", test_pmd_count);
    CU_add_test(s, "repeated keys: one rule (item 10)", test_repeats);
    CU_add_test(s, "negative expectations (item 11)", test_negative);
    CU_add_test(s, "64 branches on a line; the field limit (item 12)", test_branch_fields);
    CU_add_test(s, "the reference engine's size limit (item 16)", test_size_limit);
    int status = pms_cu_tap_run();
    pms_cu_remove_scratch(tmpdir);
    g_free(tmpdir);
    return status;
}
