/* harness tests: batch protocol framing, the cmd: and libpfm4 backends' crash
 * isolation, perf output forms through the CLI and CLI usage errors.
 *
 * Run by meson as: test_harness PMUSIM FAKE_BACKEND
 * (the built CLI and the misbehaving test backend, tests/fake_backend.c). */
#include "cu_tap.h"
#include "protocol.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *pmusim_path;
static const char *fake_path;

typedef struct {
    int status; /* exit status, or -1 when killed by a signal */
    GBytes *out;
    char *err;
} Run;

static void run_clear(Run *r)
{
    g_bytes_unref(r->out);
    g_free(r->err);
}

/* Run pmusim with args (NULL-terminated) and the given stdin bytes. */
static Run run_cli(const char *input, gsize input_len, ...)
{
    GPtrArray *argv = g_ptr_array_new();
    g_ptr_array_add(argv, (gpointer)pmusim_path);
    va_list ap;
    va_start(ap, input_len);
    for (const char *a; (a = va_arg(ap, const char *)) != NULL;)
        g_ptr_array_add(argv, (gpointer)a);
    va_end(ap);
    g_ptr_array_add(argv, NULL);
    Run r = { -1, NULL, NULL };
    g_autoptr(GError) err = NULL;
    g_autoptr(GSubprocess) p = g_subprocess_newv(
        (const char *const *)argv->pdata,
        G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &err);
    g_ptr_array_free(argv, TRUE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    g_autoptr(GBytes) in = g_bytes_new(input ? input : "", input ? input_len : 0);
    g_autoptr(GBytes) errb = NULL;
    CU_ASSERT_FATAL(g_subprocess_communicate(p, in, NULL, &r.out, &errb, &err));
    if (g_subprocess_get_if_exited(p))
        r.status = g_subprocess_get_exit_status(p);
    gsize n;
    const char *e = g_bytes_get_data(errb, &n);
    g_autofree char *all = g_strndup(e ? e : "", e ? n : 0);
    r.err = pms_cu_strip_gcov(all);
    return r;
}

/* Output lines (without their '\n'); the output must end with '\n'. */
static GPtrArray *out_lines(const Run *r)
{
    gsize n;
    const char *d = g_bytes_get_data(r->out, &n);
    GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
    CU_ASSERT(n == 0 || d[n - 1] == '\n');
    for (gsize start = 0, i = 0; i < n; i++)
        if (d[i] == '\n') {
            g_ptr_array_add(lines, g_strndup(d + start, i - start));
            start = i + 1;
        }
    return lines;
}

static guint count_lines(const char *s)
{
    guint n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* ---- protocol unit tests ------------------------------------------- */

static void test_format(void)
{
    PmsBackendResult r = { 0 };
    pms_result_set_ret(&r, "PFM_SUCCESS");
    r.n_codes = 2;
    r.codes[0] = 0x5300c0;
    r.codes[1] = 0;
    g_free(r.fstr);
    r.fstr = g_strdup("x::Y");
    r.regs = g_strdup("A=0x1");
    GString *s = g_string_new(NULL);
    pms_proto_format(s, "in\tput", 6, &r);
    CU_ASSERT_STRING_EQUAL(s->str, "in\tput\tPFM_SUCCESS\t2\t0x5300c0,0x0\tx::Y\tA=0x1\n");
    pms_result_set_ret(&r, "PFM_ERR_UMASK");
    g_string_truncate(s, 0);
    pms_proto_format(s, "", 0, &r);
    CU_ASSERT_STRING_EQUAL(s->str, "\tPFM_ERR_UMASK\t0\t\t\n");
    g_string_free(s, TRUE);
    pms_backend_result_clear(&r);
}

static void test_parse_answer(void)
{
    PmsBackendResult r = { 0 };
    CU_ASSERT_TRUE(pms_proto_parse_answer("a:b", "a:b\tPFM_SUCCESS\t2\t0x10,0x0\tp::A:B", &r));
    CU_ASSERT_STRING_EQUAL(r.ret, "PFM_SUCCESS");
    CU_ASSERT_EQUAL(r.n_codes, 2);
    CU_ASSERT_EQUAL(r.codes[0], 0x10);
    CU_ASSERT_STRING_EQUAL(r.fstr, "p::A:B");
    CU_ASSERT_PTR_NULL(r.regs);
    pms_backend_result_clear(&r);
    CU_ASSERT_TRUE(pms_proto_parse_answer("t\tt", "t\tt\tPFM_ERR_INVAL\t0\t\t", &r));
    CU_ASSERT_STRING_EQUAL(r.ret, "PFM_ERR_INVAL");
    pms_backend_result_clear(&r);
    CU_ASSERT_TRUE(pms_proto_parse_answer("x", "x\tPFM_SUCCESS\t1\t0x1\tf\tR=0x1", &r));
    CU_ASSERT_STRING_EQUAL(r.regs, "R=0x1");
    pms_backend_result_clear(&r);
    const char *bad[] = {
        "y\tPFM_SUCCESS\t1\t0x1\tf",       /* answers another line */
        "x\tPFM_SUCCESS\t2\t0x1\tf",       /* COUNT does not match CODES */
        "x\tPFM_SUCCESS\t1\t0X1\tf",       /* upper-case prefix */
        "x\tPFM_SUCCESS\t1\t0xA\tf",       /* upper-case digit */
        "x\tPFM_SUCCESS\t1\t0x01\tf",      /* leading zero */
        "x\tPFM_SUCCESS\t1\t1\tf",         /* no 0x */
        "x\tPFM_SUCCESS\t1\t0x1",          /* four fields */
        "x\tPFM_SUCCESS\t1\t0x1\tf\tr\tz", /* seven fields */
        "x\tpfm_success\t0\t\t",           /* RET not a name */
        "x\tPFM_SUCCESS\t0\t0x1\t",        /* codes with COUNT 0 */
        "x\tPFM_SUCCESS\t99\t0x1\t",       /* COUNT out of range */
        "x",
        "",
    };
    for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
        CU_ASSERT_FALSE(pms_proto_parse_answer("x", bad[i], &r));
        pms_backend_result_clear(&r);
    }
    /* issue 10: answers that were accepted, each with its reason */
    const struct {
        const char *answer, *why;
    } violations[] = {
        { "x\tWHATEVER\t0\t\t", "unknown RET 'WHATEVER'" },
        { "x\tPFM_SUCCESS\t0\t\tf", "PFM_SUCCESS with COUNT 0" },
        { "x\tPFM_ERR_UMASK\t1\t0x1\t", "PFM_ERR_UMASK carries codes" },
        { "x\tPFM_ERR_UMASK\t0\t\tp::X", "PFM_ERR_UMASK carries codes or an FSTR" },
        { "x\tPFM_SUCCESS\t1\t0x1\tf\r", "control character 0x0d" },
        { "x\tPFM_SUCCESS\t1\t0x1\tf\tR=0x1\r", "(a CRLF line end?)" },
        /* issue 20 item 15: DEL is a control character too; REGS has one form */
        { "x\tPFM_SUCCESS\t1\t0x1\tf\x7f", "control character 0x7f" },
        { "x\tPFM_SUCCESS\t1\t0x1\tf\tR=0x1\x7f", "control character 0x7f" },
        { "x\tPFM_SUCCESS\t1\t0x1\tf\tR", "REGS item 1 'R' is not NAME=0xVALUE" },
        { "x\tPFM_SUCCESS\t1\t0x1\tf\tR=1", "REGS item 1 'R=1'" },
        { "x\tPFM_SUCCESS\t1\t0x1\tf\t=0x1", "REGS item 1 '=0x1'" },
        { "x\tPFM_SUCCESS\t1\t0x1\tf\tA=0x1,B=0x0F", "REGS item 2 'B=0x0F'" },
        { "x\tPFM_SUCCESS\t1\t0x1\tf\tA=0x1,,B=0x2", "REGS item 2 ''" },
        { "x\tPFM_SUCCESS\t1\t0x1\tf\tA=0x1,", "REGS item 2 ''" },
        { "x\tPFM_SUCCESS\t1\t0x1\tf\tA B=0x1", "REGS item 1 'A B=0x1'" },
        { "x\tPFM_SUCCESS\t1\t0x1\tf\tA=0x1=0x2", "REGS item 1" },
        { "x\tPFM_SUCCESS\t1\t0x1\tf\tA=0x12345678901234567", "REGS item 1" },
    };
    for (gsize i = 0; i < G_N_ELEMENTS(violations); i++) {
        g_autoptr(GError) err = NULL;
        CU_ASSERT_FALSE(pms_proto_check_answer("x", violations[i].answer, &r, &err));
        CU_ASSERT_PTR_NOT_NULL_FATAL(err);
        if (!strstr(err->message, violations[i].why))
            fprintf(stderr, "# violation %zu: '%s'\n", i, err->message);
        CU_ASSERT_PTR_NOT_NULL(strstr(err->message, violations[i].why));
        pms_backend_result_clear(&r);
    }
    /* REGS as pmusim's own backend writes them, model register names with
     * '_', '-' and '.'; a DEL inside the request line is the request's */
    CU_ASSERT_TRUE(
        pms_proto_parse_answer("x\x7f", "x\x7f\tPFM_SUCCESS\t2\t0x1,0x0\tf\tIA32_PERFEVTSEL0=0x5301c0,C3.X-Y=0x0", &r));
    CU_ASSERT_STRING_EQUAL(r.regs, "IA32_PERFEVTSEL0=0x5301c0,C3.X-Y=0x0");
    pms_backend_result_clear(&r);
    /* an empty REGS field lists no pairs: the same as none */
    CU_ASSERT_TRUE(pms_proto_parse_answer("x", "x\tPFM_SUCCESS\t1\t0x1\tf\t", &r));
    pms_backend_result_clear(&r);
    /* a CR inside the request line is the request's own byte */
    CU_ASSERT_TRUE(pms_proto_parse_answer("x\r", "x\r\tPFM_ERR_INVAL\t0\t\t", &r));
    pms_backend_result_clear(&r);
    /* a cmd: backend may itself drive one that crashed */
    CU_ASSERT_TRUE(pms_proto_parse_answer("x", "x\tBACKEND_CRASH\t0\t\t", &r));
    pms_backend_result_clear(&r);
}

/* ---- batch framing through the CLI -------------------------------- */

static void test_batch_framing(void)
{
    /* empty line, invalid UTF-8, a NUL byte, CR, TAB, 10 kB, and a last
     * line without newline */
    GString *big = g_string_new("glm::INST_RETIRED");
    for (int i = 0; i < 1700; i++)
        g_string_append(big, ":ANY_P");
    /* want: 'S' PFM_SUCCESS, 'I' PFM_ERR_INVAL with no codes, 'N' an error */
    const struct {
        const char *text;
        gsize len;
        char want;
    } in_lines[] = {
        { "glm::INST_RETIRED:ANY_P", 23, 'S' },
        { "", 0, 'N' },
        { "glm::\xff\xfe\xc3(:u", 11, 'N' },
        { "glm::INST\0RETIRED", 17, 'I' },
        { "glm::INST_RETIRED:ANY_P\r", 24, 'N' },
        { "a\tb", 3, 'N' },
        /* a NUL and the next line's '\n' in one 16-byte block: the NUL is
         * this line's only; past the first block; in the last bytes */
        { "x\0y", 3, 'I' },
        { "glm::INST_RETIRED:ANY_P", 23, 'S' },
        { "glm::INST_RETIRED:ANY_P:\0u", 26, 'I' },
        { "glm::INST_RETIRED:ANY_P:u:k=1\0", 30, 'I' },
        { big->str, big->len, 0 },
        { "nhm::INST_RETIRED:ANY_P", 23, 'S' },
    };
    GString *in = g_string_new(NULL);
    for (gsize i = 0; i < G_N_ELEMENTS(in_lines); i++) {
        g_string_append_len(in, in_lines[i].text, (gssize)in_lines[i].len);
        if (i + 1 < G_N_ELEMENTS(in_lines))
            g_string_append_c(in, '\n'); /* the last line has none */
    }
    Run r = run_cli(in->str, in->len, "encode", "--batch", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    if (r.err[0])
        fprintf(stderr, "# batch framing: unexpected stderr: %s\n", r.err);
    CU_ASSERT_STRING_EQUAL(r.err, "");
    gsize n;
    const char *out = g_bytes_get_data(r.out, &n);
    CU_ASSERT_FATAL(n > 0 && out[n - 1] == '\n');
    /* One answer per input line, in order, each starting with its line byte
     * for byte, then a TAB and 4 or 5 more TAB-separated fields. */
    const char *p = out, *end = out + n;
    for (gsize i = 0; i < G_N_ELEMENTS(in_lines); i++) {
        const char *nl = memchr(p, '\n', (gsize)(end - p));
        CU_ASSERT_PTR_NOT_NULL_FATAL(nl);
        CU_ASSERT_FATAL((gsize)(nl - p) > in_lines[i].len);
        CU_ASSERT(memcmp(p, in_lines[i].text, in_lines[i].len) == 0);
        CU_ASSERT_EQUAL(p[in_lines[i].len], '\t');
        g_autofree char *rest = g_strndup(p + in_lines[i].len + 1, (gsize)(nl - p) - in_lines[i].len - 1);
        g_auto(GStrv) f = g_strsplit(rest, "\t", -1);
        CU_ASSERT(g_strv_length(f) == 4 || g_strv_length(f) == 5);
        CU_ASSERT(g_str_has_prefix(f[0], "PFM_"));
        if (in_lines[i].want == 'S')
            CU_ASSERT_STRING_EQUAL(f[0], "PFM_SUCCESS");
        if (in_lines[i].want == 'I') /* an embedded NUL: not an event string */
            CU_ASSERT_STRING_EQUAL(rest, "PFM_ERR_INVAL\t0\t\t");
        if (in_lines[i].want == 'N')
            CU_ASSERT_STRING_NOT_EQUAL(f[0], "PFM_SUCCESS");
        p = nl + 1;
    }
    CU_ASSERT_PTR_EQUAL(p, end); /* nothing answered twice */
    g_string_free(in, TRUE);
    g_string_free(big, TRUE);
    run_clear(&r);
}

/* The last line, without its '\n', holding a NUL: PFM_ERR_INVAL; the
 * line before it is not touched by it. */
static void test_batch_nul_last_line(void)
{
    static const char in[] = "glm::INST_RETIRED:ANY_P\nglm::INST_RETIRED:ANY_P\0";
    Run r = run_cli(in, sizeof in - 1, "encode", "--batch", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    gsize n;
    const char *out = g_bytes_get_data(r.out, &n);
    static const char want_tail[] = "glm::INST_RETIRED:ANY_P\0\tPFM_ERR_INVAL\t0\t\t\n";
    CU_ASSERT_FATAL(n > sizeof want_tail);
    CU_ASSERT(g_str_has_prefix(out, "glm::INST_RETIRED:ANY_P\tPFM_SUCCESS\t"));
    CU_ASSERT(memcmp(out + n - (sizeof want_tail - 1), want_tail, sizeof want_tail - 1) == 0);
    run_clear(&r);
}

static void test_batch_known_values(void)
{
    /* INST_RETIRED.ANY_P is event 0xc0 umask 0x00 (Intel SDM / event JSON);
     * default privilege USR|OS (bits 16, 17) plus INT (20) and EN (22):
     * 0xc0 | 0x10000 | 0x20000 | 0x100000 | 0x400000 = 0x5300c0. */
    const char *in = "glm::INST_RETIRED:ANY_P\n";
    Run r = run_cli(in, strlen(in), "encode", "--batch", NULL);
    g_autoptr(GPtrArray) lines = out_lines(&r);
    CU_ASSERT_EQUAL_FATAL(lines->len, 1);
    CU_ASSERT_TRUE(g_str_has_prefix(lines->pdata[0], "glm::INST_RETIRED:ANY_P\tPFM_SUCCESS\t1\t0x5300c0\t"));
    run_clear(&r);
}

/* Pipe `big` bytes of 'a' and then "\nglm::INST_RETIRED:ANY_P\n" through
 * `encode --batch` (within 60 s); the exit status, the output's length and
 * last bytes, whether its first `big` bytes are the 'a's, and the largest
 * resident set (kB). */
typedef struct {
    int status; /* -1: killed or not ended */
    gsize got;
    gboolean echo_ok;
    char tail[256];
    long maxrss;
} Stream;

static Stream stream_batch(gsize big)
{
    const char *after = "\nglm::INST_RETIRED:ANY_P\n";
    Stream s = { -1, 0, TRUE, { 0 }, 0 };
    int in[2], out[2];
    CU_ASSERT_FATAL(pipe(in) == 0 && pipe(out) == 0);
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execl(pmusim_path, pmusim_path, "encode", "--batch", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
    static char chunk[1 << 16];
    memset(chunk, 'a', sizeof chunk);
    gsize sent = 0, total = big + strlen(after), tail_len = 0;
    gboolean ended = FALSE;
    gint64 deadline = g_get_monotonic_time() + 60 * G_USEC_PER_SEC;
    while (!ended && g_get_monotonic_time() < deadline) {
        struct pollfd pfd[2] = { { .fd = out[0], .events = POLLIN }, { .fd = in[1], .events = POLLOUT } };
        if (poll(pfd, sent < total ? 2 : 1, 1000) < 0)
            continue;
        if (sent < total && (pfd[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
            const char *src = sent < big ? chunk : after + (sent - big);
            gsize n = sent < big ? MIN(sizeof chunk, big - sent) : total - sent;
            ssize_t w = write(in[1], src, n);
            if (w > 0)
                sent += (gsize)w;
            else if (w < 0 && errno != EAGAIN && errno != EINTR)
                break;
            if (sent == total)
                close(in[1]);
        }
        if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            char buf[1 << 16];
            ssize_t n = read(out[0], buf, sizeof buf);
            ended = n <= 0;
            if (ended)
                break;
            /* the echo: the line's 'a's, nothing cut out of it */
            for (gsize i = 0; i < (gsize)n && s.got + i < big; i++)
                s.echo_ok = s.echo_ok && buf[i] == 'a';
            s.got += (gsize)n;
            gsize keep = MIN((gsize)n, sizeof s.tail - 1);
            if (tail_len + keep > sizeof s.tail - 1) {
                gsize drop = tail_len + keep - (sizeof s.tail - 1);
                memmove(s.tail, s.tail + drop, tail_len - drop);
                tail_len -= drop;
            }
            memcpy(s.tail + tail_len, buf + n - keep, keep);
            tail_len += keep;
            s.tail[tail_len] = '\0';
        }
    }
    if (sent < total)
        close(in[1]);
    close(out[0]);
    if (!ended) {
        fprintf(stderr, "# a %zu-byte line: no end of output in 60 s\n", big);
        kill(pid, SIGKILL);
    }
    int st = 0;
    struct rusage ru;
    CU_ASSERT_EQUAL_FATAL(wait4(pid, &st, 0, &ru), pid);
    if (WIFEXITED(st) && sent == total)
        s.status = WEXITSTATUS(st);
    s.maxrss = ru.ru_maxrss;
    return s;
}

/* issue 20 item 17: a request line of 256 MiB streams through encode --batch
 * in flat memory (the cap is 16 MiB): answered PFM_ERR_INVAL with the whole
 * line echoed, the next line encoded; within a deadline. */
static void test_batch_long_line_memory(void)
{
    const gsize big = (gsize)256 << 20;
    /* the program's own size (sanitizer builds included): a short line */
    Stream base = stream_batch(0);
    CU_ASSERT_EQUAL(base.status, 0);
    Stream s = stream_batch(big);
    CU_ASSERT_EQUAL(s.status, 0);
    CU_ASSERT(s.echo_ok);
    CU_ASSERT(s.got > big);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(s.tail, "aaaa\tPFM_ERR_INVAL\t0\t\t\nglm::INST_RETIRED:ANY_P\tPFM_SUCCESS\t1\t0x5300c0\t"));
    /* kB: the 16 MiB buffer (and what an allocator keeps of its growth),
     * not the 256 MiB line */
    if (s.maxrss - base.maxrss >= 128 * 1024)
        fprintf(stderr, "# a 256 MiB line: maximum resident set %ld kB, %ld kB for a short one\n", s.maxrss,
                base.maxrss);
    CU_ASSERT(s.maxrss - base.maxrss < 128 * 1024);
}

/* ---- cmd: backend -------------------------------------------------- */

static void test_cmd_backend_crash_restart(void)
{
    const char *in = "a\ncrash\nb\nc\nhang\nd\ngarbage\ne\nexit\nf";
    g_autofree char *spec = g_strdup_printf("cmd:'%s'", fake_path);
    /* 2 s: long enough that a loaded machine does not time out the lines that
     * answer (500 ms did, once, in a CI run beside other builds) */
    Run r = run_cli(in, strlen(in), "encode", "--batch", "--backend", spec, "--timeout", "2000", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autoptr(GPtrArray) lines = out_lines(&r);
    /* one answer per line, in order; N restarts at 1 after every crash */
    const char *want[] = {
        "a\tPFM_SUCCESS\t1\t0x1\tfake::a", "crash\tBACKEND_CRASH\t0\t\t",     "b\tPFM_SUCCESS\t1\t0x1\tfake::b",
        "c\tPFM_SUCCESS\t1\t0x2\tfake::c", "hang\tBACKEND_CRASH\t0\t\t",      "d\tPFM_SUCCESS\t1\t0x1\tfake::d",
        "garbage\tBACKEND_CRASH\t0\t\t",   "e\tPFM_SUCCESS\t1\t0x1\tfake::e", "exit\tBACKEND_CRASH\t0\t\t",
        "f\tPFM_SUCCESS\t1\t0x1\tfake::f",
    };
    CU_ASSERT_EQUAL_FATAL(lines->len, G_N_ELEMENTS(want));
    for (gsize i = 0; i < G_N_ELEMENTS(want); i++)
        CU_ASSERT_STRING_EQUAL(lines->pdata[i], want[i]);
    /* stderr says why, one line per crash (issue 10) */
    CU_ASSERT_EQUAL(count_lines(r.err), 4);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, ": line 2: BACKEND_CRASH: killed by signal 11"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, ": line 5: BACKEND_CRASH: timed out after 2000 ms waiting for the answer"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, ": line 7: BACKEND_CRASH: protocol violation: "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, ": line 9: BACKEND_CRASH: exited with status 0 without answering"));
    run_clear(&r);
    /* a CRLF answer is a violation, not an FSTR ending in CR */
    r = run_cli("crlf\nz\n", 7, "encode", "--batch", "--backend", spec, NULL);
    g_autoptr(GPtrArray) crlf = out_lines(&r);
    CU_ASSERT_EQUAL_FATAL(crlf->len, 2);
    CU_ASSERT_STRING_EQUAL(crlf->pdata[0], "crlf\tBACKEND_CRASH\t0\t\t");
    CU_ASSERT_STRING_EQUAL(crlf->pdata[1], "z\tPFM_SUCCESS\t1\t0x1\tfake::z");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "control character 0x0d"));
    run_clear(&r);
}

/* issue 10: writing a line is under the same deadline as reading its answer.
 * A program that never reads, and one that echoes as it reads (cat: its full
 * stdout would block it while we wrote), each given a line over the pipe
 * size. */
static void test_cmd_backend_write_deadline(void)
{
    GString *in = g_string_new("wsm::");
    for (int i = 0; i < 200000; i++)
        g_string_append_c(in, 'A');
    g_string_append_c(in, '\n');
    const char *const specs[] = { "cmd:sleep 100", "cmd:cat" };
    const char *const why[] = { "timed out after 500 ms writing the line", "protocol violation" };
    for (gsize i = 0; i < G_N_ELEMENTS(specs); i++) {
        gint64 t0 = g_get_monotonic_time();
        Run r = run_cli(in->str, in->len, "encode", "--batch", "--backend", specs[i], "--timeout", "500", NULL);
        CU_ASSERT(g_get_monotonic_time() - t0 < 5 * G_USEC_PER_SEC);
        CU_ASSERT_EQUAL(r.status, 0);
        g_autoptr(GPtrArray) lines = out_lines(&r);
        CU_ASSERT_EQUAL_FATAL(lines->len, 1);
        CU_ASSERT_TRUE(g_str_has_suffix(lines->pdata[0], "AAA\tBACKEND_CRASH\t0\t\t"));
        CU_ASSERT_PTR_NOT_NULL(strstr(r.err, why[i]));
        run_clear(&r);
    }
    g_string_free(in, TRUE);
}

/* issue 10: a program that answers one line and exits is restarted before
 * the next line; it used to lose about half of them to a waitpid race. */
static void test_cmd_backend_oneshot(void)
{
    GString *in = g_string_new(NULL);
    for (int i = 0; i < 20; i++)
        g_string_append_printf(in, "line%d\n", i);
    g_autofree char *spec = g_strdup_printf("cmd:'%s' --oneshot", fake_path);
    Run r = run_cli(in->str, in->len, "encode", "--batch", "--backend", spec, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autoptr(GPtrArray) lines = out_lines(&r);
    CU_ASSERT_EQUAL_FATAL(lines->len, 20);
    for (guint i = 0; i < 20; i++) {
        g_autofree char *want = g_strdup_printf("line%u\tPFM_ERR_NOTFOUND\t0\t\t", i);
        CU_ASSERT_STRING_EQUAL(lines->pdata[i], want);
    }
    CU_ASSERT_STRING_EQUAL(r.err, "");
    run_clear(&r);
    g_string_free(in, TRUE);
}

static void test_cmd_backend_roundtrip(void)
{
    /* pmusim's own batch mode as a cmd: backend gives what builtin gives */
    const char *in = "glm::INST_RETIRED:ANY_P:c=1:i\nwsm::NO_SUCH_EVENT\n\nnhm::INST_RETIRED:ANY_P:u\n";
    g_autofree char *spec = g_strdup_printf("cmd:'%s' encode --batch", pmusim_path);
    Run direct = run_cli(in, strlen(in), "encode", "--batch", NULL);
    Run via = run_cli(in, strlen(in), "encode", "--batch", "--backend", spec, NULL);
    CU_ASSERT_EQUAL(via.status, 0);
    CU_ASSERT_TRUE(g_bytes_equal(direct.out, via.out));
    run_clear(&direct);
    run_clear(&via);
}

/* A pid of the file (one per line) that still runs; 0 when none.  A zombie
 * (killed, waiting for its new parent to reap it) counts as gone. */
static int alive_pid(const char *pidfile)
{
    g_autofree char *text = NULL;
    if (!g_file_get_contents(pidfile, &text, NULL, NULL))
        return 0;
    g_auto(GStrv) pids = g_strsplit(text, "\n", 0);
    for (guint i = 0; pids[i]; i++) {
        int pid = atoi(pids[i]);
        if (pid <= 0)
            continue;
        g_autofree char *statf = g_strdup_printf("/proc/%d/stat", pid);
        g_autofree char *stat = NULL;
        if (!g_file_get_contents(statf, &stat, NULL, NULL))
            continue; /* gone */
        const char *paren = strrchr(stat, ')');
        if (paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X'))
            continue;
        return pid;
    }
    return 0;
}

/* issue 20 item 7: a cmd: backend's children die with it, on a timeout and
 * when the run ends (the program runs in a process group of its own). */
static void test_cmd_backend_children(void)
{
    g_autofree char *dir = g_dir_make_tmp("pmusim-children-XXXXXX", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    const struct {
        const char *name, *script, *input, *answer;
    } cases[] = {
        /* two children, then waits for them: the line times out (2 s: a
         * loaded machine still starts the script and its children first) */
        { "hang",
          "sleep 30 </dev/null >/dev/null 2>&1 &\necho $! >>\"$1\"\n"
          "sleep 31 </dev/null >/dev/null 2>&1 &\necho $! >>\"$1\"\nwait\n",
          "x\n", "x\tBACKEND_CRASH\t0\t\t\n" },
        /* answers every line and exits at the end of its input, its child
         * still running */
        { "leave",
          "sleep 30 </dev/null >/dev/null 2>&1 &\necho $! >>\"$1\"\n"
          "while read -r l; do printf '%s\\tPFM_ERR_NOTFOUND\\t0\\t\\t\\n' \"$l\"; done\n",
          "x\n", "x\tPFM_ERR_NOTFOUND\t0\t\t\n" },
    };
    for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *script = g_build_filename(dir, cases[i].name, NULL);
        g_autofree char *pidfile = g_strdup_printf("%s.pids", script);
        CU_ASSERT_FATAL(g_file_set_contents(script, cases[i].script, -1, NULL));
        g_autofree char *spec = g_strdup_printf("cmd:sh '%s' '%s'", script, pidfile);
        Run r = run_cli(cases[i].input, strlen(cases[i].input), "encode", "--batch", "--backend", spec, "--timeout",
                        "2000", NULL);
        CU_ASSERT_EQUAL(r.status, 0);
        gsize n;
        const char *out = g_bytes_get_data(r.out, &n);
        CU_ASSERT(n == strlen(cases[i].answer) && memcmp(out, cases[i].answer, n) == 0);
        /* the children were started (the file names them) and are gone
         * soon after pmusim ended */
        CU_ASSERT(g_file_test(pidfile, G_FILE_TEST_EXISTS));
        int left = 0;
        for (int tries = 0; tries < 100 && (left = alive_pid(pidfile)) != 0; tries++)
            g_usleep(20000);
        if (left)
            fprintf(stderr, "# %s: the backend's child %d outlived pmusim\n", cases[i].name, left);
        CU_ASSERT_EQUAL(left, 0);
        for (int pid; (pid = alive_pid(pidfile)) != 0;)
            kill(pid, SIGKILL); /* clean up after a failure */
        g_unlink(pidfile);
        g_unlink(script);
        run_clear(&r);
    }
    g_rmdir(dir);
}

static void test_cmd_backend_missing(void)
{
    Run r = run_cli("x\n", 2, "encode", "--batch", "--backend", "cmd:/nonexistent/backend", NULL);
    CU_ASSERT_NOT_EQUAL(r.status, 0);
    CU_ASSERT_EQUAL(g_bytes_get_size(r.out), 0);
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "/nonexistent/backend"));
    run_clear(&r);
}

/* ---- libpfm4 backend (only when libpfm.so.4 is installed) ---------- */

static void test_libpfm4_backend(void)
{
    /* libpfm4 4.13 dies with SIGSEGV on 65 or more unit masks: that line is
     * BACKEND_CRASH and the lines around it are answered normally. */
    GString *in = g_string_new("glm::INST_RETIRED:ANY_P\n");
    g_string_append(in, "glm::INST_RETIRED");
    for (int i = 0; i < 65; i++)
        g_string_append(in, ":ANY_P");
    g_string_append(in, "\nwsm::INST_RETIRED:ANY_P:u\nnhm::NO_SUCH_EVENT");
    Run r = run_cli(in->str, in->len, "encode", "--batch", "--backend", "libpfm4", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autoptr(GPtrArray) lines = out_lines(&r);
    CU_ASSERT_EQUAL_FATAL(lines->len, 4);
    CU_ASSERT_STRING_EQUAL(
        lines->pdata[0],
        "glm::INST_RETIRED:ANY_P\tPFM_SUCCESS\t1\t0x5300c0\tglm::INST_RETIRED:ANY_P:k=1:u=1:e=0:i=0:c=0");
    CU_ASSERT_TRUE(g_str_has_suffix(lines->pdata[1], ":ANY_P\tBACKEND_CRASH\t0\t\t"));
    /* Westmere's INST_RETIRED.ANY_P is event 0xc0 umask 0x01 (Intel's
     * WestmereEP-SP event list); USR only: | 0x10000 | INT | EN */
    CU_ASSERT_TRUE(g_str_has_prefix(lines->pdata[2], "wsm::INST_RETIRED:ANY_P:u\tPFM_SUCCESS\t1\t0x5101c0\t"));
    CU_ASSERT_STRING_EQUAL(lines->pdata[3], "nhm::NO_SUCH_EVENT\tPFM_ERR_NOTFOUND\t0\t\t");
    g_string_free(in, TRUE);
    run_clear(&r);
}

static void test_libpfm4_absent(void)
{
    Run r = run_cli("glm::INST_RETIRED:ANY_P\n", 24, "encode", "--batch", "--backend", "libpfm4", NULL);
    CU_ASSERT_NOT_EQUAL(r.status, 0);
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "libpfm.so.4"));
    run_clear(&r);
}

/* ---- list, diff, decode, perf output through the CLI ---------------- */

/* A temporary file (name from template) holding text; its path, or a
 * failed assertion. */
static char *temp_file(const char *template, const char *text)
{
    char *path = NULL;
    int fd = g_file_open_tmp(template, &path, NULL);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    CU_ASSERT_FATAL(g_file_set_contents(path, text, -1, NULL));
    return path;
}

static char *out_text(const Run *r)
{
    gsize n;
    const char *d = g_bytes_get_data(r->out, &n);
    return g_strndup(d, n);
}

static void test_list_names(void)
{
    Run r = run_cli(NULL, 0, "list", "--names", "glm", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *text = out_text(&r);
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    guint n = 0;
    g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
    for (char **l = lines; *l && **l; l++, n++) {
        CU_ASSERT_TRUE(g_str_has_prefix(*l, "glm::"));
        CU_ASSERT_TRUE(g_hash_table_add(seen, *l)); /* each name once */
    }
    CU_ASSERT(n > 30);
    CU_ASSERT_TRUE(g_hash_table_contains(seen, "glm::INST_RETIRED:ANY_P"));
    CU_ASSERT_FALSE(g_hash_table_contains(seen, "glm::INST_RETIRED")); /* it has unit masks */
    run_clear(&r);
    r = run_cli(NULL, 0, "list", "nosuchpmu", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_EQUAL(g_bytes_get_size(r.out), 0);
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
    run_clear(&r);
}

/* Itanium: the table of every event's facts, one event in full. */
static void test_list_montecito(void)
{
    Run r = run_cli(NULL, 0, "list", "montecito", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *text = out_text(&r);
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    guint rows = 0;
    for (char **l = lines; *l; l++)
        rows += g_str_has_prefix(*l, "    ") && strstr(*l, " PMC") != NULL;
    CU_ASSERT_EQUAL(rows, 637); /* one row per event */
    /* events.tsv line 425: L2D set 8, floating; line 203: PMC10 only, max 7, causal */
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "L2D_VICTIMB_FULL_THIS"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, " L2D/8 "));
    CU_ASSERT_TRUE(g_regex_match_simple("CPU_OP_CYCLES_HALTED +0x18 +0x0 +7 PMC10 +- +causal ", text, 0, 0));
    CU_ASSERT_TRUE(
        g_regex_match_simple("L1I_EAR_CACHE_LAT4 +0x43 +0xff +1 PMC4-15 +- +floating +-i- +I cache ", text, 0, 0));
    run_clear(&r);
    r = run_cli(NULL, 0, "list", "montecito", "DATA_EAR_ALAT", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *one = out_text(&r);
    CU_ASSERT_TRUE(g_str_has_prefix(one, "montecito::DATA_EAR_ALAT\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(one, "data (D-EAR), alat mode"));
    CU_ASSERT_PTR_NOT_NULL(strstr(one, "(in PMC40;"));
    CU_ASSERT_PTR_NULL(strstr(one, "ALAT_CAPACITY_MISS_ALL")); /* that event only */
    run_clear(&r);
    r = run_cli(NULL, 0, "list", "montecito::L3_READS_ALL_HIT", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *mesi = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(mesi, "MESI        yes"));
    CU_ASSERT_PTR_NOT_NULL(strstr(mesi, "mesi_m"));
    run_clear(&r);
    r = run_cli(NULL, 0, "list", "montecito", "NO_SUCH_EVENT", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
    run_clear(&r);
    r = run_cli(NULL, 0, "lint", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *lint = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(lint, " 0 problems"));
    run_clear(&r);
}

/* An event string with bytes that are not text: the error line shows them
 * as \xHH, never raw (they would garble a terminal or a CI log). */
static void test_encode_error_printable(void)
{
    Run r = run_cli(NULL, 0, "encode", "wsm::\xff\x01INST", NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "'wsm::\\xff\\x01INST'"));
    CU_ASSERT_PTR_NULL(strchr(r.err, '\xff'));
    CU_ASSERT_PTR_NULL(strchr(r.err, '\x01'));
    run_clear(&r);
}

/* Several -e: one timing diagram per counter in one document (issue 11):
 * the SVG is well-formed XML with an outer <svg> holding one <svg> per
 * counter placed one below the other; the HTML holds both diagrams, each
 * with its own hover script; the answer lines still end stdout. */
static void svg_count(GMarkupParseContext *c, const char *name, const char **an, const char **av, gpointer data,
                      GError **e)
{
    (void)c, (void)an, (void)av, (void)e;
    if (strcmp(name, "svg") == 0)
        (*(guint *)data)++;
}

static void test_set_diagrams(void)
{
    g_autofree char *dir = g_dir_make_tmp("pmusim-setsvg-XXXXXX", NULL);
    g_autofree char *svg = g_build_filename(dir, "s.svg", NULL), *html = g_build_filename(dir, "s.html", NULL);
    Run r = run_cli(NULL, 0, "sim", "--pmu", "wsm", "-e", "INST_RETIRED:ANY_P", "-e", "UOPS_ISSUED:ANY",
                    "--occurrences", "1,2", "--format", "svg", "-o", svg, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *out = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "IA32_PMC0 count=3 overflow=0\n"));
    run_clear(&r);
    g_autofree char *text = NULL;
    CU_ASSERT_FATAL(g_file_get_contents(svg, &text, NULL, NULL));
    guint n_svg = 0;
    GMarkupParser parser = { svg_count, NULL, NULL, NULL, NULL };
    GMarkupParseContext *ctx = g_markup_parse_context_new(&parser, 0, &n_svg, NULL);
    const char *body = strstr(text, "<svg");
    CU_ASSERT_TRUE(body && g_markup_parse_context_parse(ctx, body, -1, NULL) &&
                   g_markup_parse_context_end_parse(ctx, NULL));
    g_markup_parse_context_free(ctx);
    CU_ASSERT_EQUAL(n_svg, 3); /* the outer one and one per counter */
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "<svg x=\"0\" y=\"0\""));
    r = run_cli(NULL, 0, "sim", "--pmu", "wsm", "-e", "INST_RETIRED:ANY_P", "-e", "UOPS_ISSUED:ANY", "--occurrences",
                "1,2", "--format", "html", "-o", html, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    run_clear(&r);
    g_autofree char *page = NULL;
    CU_ASSERT_FATAL(g_file_get_contents(html, &page, NULL, NULL));
    guint scripts = 0, svgs = 0;
    for (const char *p = page; (p = strstr(p, "<script>")); p++)
        scripts++;
    for (const char *p = page; (p = strstr(p, "<svg")); p++)
        svgs++;
    CU_ASSERT_EQUAL(scripts, 2);
    CU_ASSERT_EQUAL(svgs, 2);
    CU_ASSERT_TRUE(strstr(page, "INST_RETIRED") && strstr(page, "UOPS_ISSUED"));
    g_unlink(svg);
    g_unlink(html);
    g_rmdir(dir);
}

/* `bench conform` runs the built-in suite, a synthetic corpus (the .enc
 * files parsed again until there are N) and the mutants on 1 and on every
 * worker: every vector passes, the mutant reports agree; the figures are
 * the bench's business, not a test's. */
static void test_bench_conform(void)
{
    Run r = run_cli(NULL, 0, "bench", "conform", "--vectors", "20000", "--runs", "1", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *out = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "built-in suite: "));
    CU_ASSERT_TRUE(g_regex_match_simple("synthetic corpus: (\\d+) encoding vectors \\(\\1 passed\\)", out, 0, 0));
    CU_ASSERT_TRUE(g_regex_match_simple("built-in suite: (\\d+) vectors \\(\\1 passed\\)", out, 0, 0));
    /* the corpus streams (issue 21): its own process's peak memory with the
     * goal, and one vector alive at a time */
    CU_ASSERT_TRUE(g_regex_match_simple("peak RSS [0-9.]+ MB (PASS|MISS) \\(goal < 100 MB, a process of its own; "
                                        "at most 1 vector\\(s\\) alive\\)",
                                        out, 0, 0));
    /* the mutants on one worker and on one per core: the ratio, its goal,
     * and the same report */
    CU_ASSERT_TRUE(g_regex_match_simple(
        "mutants: [0-9]+ \\(and [0-9]+ of LBR_SELECT\\), 1 worker [0-9.]+ s, [0-9]+ workers [0-9.]+ s \\(medians of 1, "
        "alternated\\): speed-up [0-9.]+x .*; the same report: yes\n",
        out, 0, 0));
    run_clear(&r);
    /* --runs 0 leaves the mutants out (valgrind-check) */
    r = run_cli(NULL, 0, "bench", "conform", "--vectors", "1000", "--runs", "0", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_free(out);
    out = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "synthetic corpus: "));
    CU_ASSERT_PTR_NULL(strstr(out, "mutants:"));
    run_clear(&r);
}

/* `sim --stim FILE` without -e: the stimulus programs the registers itself
 * (issue 9).  wsm (SDM Fig 18-6 layout): PERFEVTSEL0 = INST_RETIRED.ANY_P
 * (0xc0, umask 0x01) | usr | os | en = 0x4301c0; PERFEVTSEL1 =
 * UOPS_ISSUED.ANY (0x0e, 0x01) | usr | os | int | en = 0x53010e; PMC1
 * preloaded 2^48 - 2; GLOBAL_CTRL = 3.  Three cycles of 2 and 1: PMC0 = 6;
 * PMC1 reaches 2^48 - 1, carries in cycle 1 (PMI then; v3 without the
 * DEBUGCTL freeze bit goes on counting) and ends at 1 with its
 * GLOBAL_STATUS bit set.  The model comes from the file's pmu line. */
static void test_sim_stim_without_event(void)
{
    static const char stim[] = "pmu wsm\nwrite IA32_PERFEVTSEL0 0x4301c0\nwrite IA32_PERFEVTSEL1 0x53010e\n"
                               "write IA32_PMC1 0xfffffffffffe\nwrite IA32_PERF_GLOBAL_CTRL 3\n"
                               "run 3 INST_RETIRED.ANY_P=2 UOPS_ISSUED.ANY=1\n";
    g_autofree char *path = temp_file("pmusim-raw-XXXXXX.stim", stim);
    Run r = run_cli(NULL, 0, "sim", "--stim", path, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *out = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "3 cycles; PMI at 1\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nIA32_PMC0 count=6 overflow=0\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nIA32_PMC1 count=1 overflow=1\n"));
    run_clear(&r);
    /* another model than the file's: its pmu line refuses it (exit 1) */
    r = run_cli(NULL, 0, "sim", "--pmu", "nhm", "--stim", path, NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    run_clear(&r);
    /* no trace without an event */
    r = run_cli(NULL, 0, "sim", "--stim", path, "--format", "csv", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    run_clear(&r);
    g_unlink(path);
}

/* An output that is not a regular file (a FIFO here; /dev/null in real use)
 * is written in place: the atomic replace of a regular file would rename a
 * temporary file over it, and as root that turns /dev/null into a file. */
static void test_output_special_file(void)
{
    g_autofree char *dir = g_dir_make_tmp("pmusim-fifo-XXXXXX", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    g_autofree char *fifo = g_build_filename(dir, "out", NULL);
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
    const char *cat_argv[] = { "cat", fifo, NULL };
    g_autoptr(GSubprocess) cat = g_subprocess_newv(cat_argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cat);
    Run r = run_cli(NULL, 0, "sim", "--pmu", "wsm", "-e", "wsm::INST_RETIRED:ANY_P", "--occurrences", "1,2", "--format",
                    "csv", "-o", fifo, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *got = NULL;
    CU_ASSERT_TRUE(g_subprocess_communicate_utf8(cat, NULL, NULL, &got, NULL, NULL));
    CU_ASSERT_TRUE(got && strstr(got, "cycle"));
    GStatBuf st;
    CU_ASSERT_EQUAL(g_stat(fifo, &st), 0);
    CU_ASSERT_TRUE(S_ISFIFO(st.st_mode));
    run_clear(&r);
    g_unlink(fifo);
    g_rmdir(dir);
}

/* lint reports what the simulator would refuse, in the simulator's words:
 * a fixed counter wider than it holds is a problem. */
static void test_lint_simulator(void)
{
    /* a whole model (a register, a layout, an event), so that the width is
     * its one problem */
    static const char model[] =
        "[pmu]\nname = whatif\narch = x86_core\ngp_counters = 1\ngp_width = 48\n"
        "fixed_counters = 1\nfixed_width = 64\n"
        "[layout evtsel]\nevent = 7:0\numask = 15:8\nusr = 16\nos = 17\nedge = 18\nint = 20\nen = 22\n"
        "inv = 23\ncmask = 31:24\n"
        "[register PERFEVTSEL0]\naddress = 0x186\nkind = evtsel\nindex = 0\nlayout = evtsel\n"
        "[register PMC0]\naddress = 0xc1\nkind = pmc\nindex = 0\nwidth = 48\n"
        "[event E]\ncode = 0x3c\n";
    g_autofree char *path = temp_file("pmusim-lint-XXXXXX.pmu", model);
    Run r = run_cli(NULL, 0, "lint", "--model", path, "whatif", NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    g_autofree char *text = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "the simulator refuses the model"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "1 fixed of width 64"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "1 problem\n"));
    run_clear(&r);
    g_unlink(path);
}

/* An [options] key no simulator reads, or a value it does not take, is
 * refused when the model loads, at the option's own line (not [pmu]'s), with
 * the closest key or the allowed values: a what-if typo never passes. */
static void test_lint_option_typo(void)
{
    static const char head[] = "[pmu]\nname = whatif\narch = nhmex_cbox\ngp_counters = 6\ngp_width = 48\n"
                               "[options]\ninvert = documented\n";
    static const struct {
        const char *line, *want;
    } cases[] = {
        { "pmi_freez_delay = 3",
          ":8: [options] key 'pmi_freez_delay': unknown option (did you mean "
          "'pmi_freeze_delay'?)" },
        { "pmi_freeze_delay = soon", ":8: [options] key 'pmi_freeze_delay': expected 0..1048576, got 'soon'" },
        { "cpl_gate = post", ":8: [options] key 'cpl_gate': unknown option" }, /* another family's */
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *model = g_strdup_printf("%s%s\n", head, cases[i].line);
        g_autofree char *path = temp_file("pmusim-opt-XXXXXX.pmu", model);
        Run r = run_cli(NULL, 0, "lint", "--model", path, NULL);
        CU_ASSERT_EQUAL(r.status, 1);
        const char *etext = r.err ? r.err : "";
        g_autofree char *want = g_strconcat(path, cases[i].want, NULL);
        if (!strstr(etext, want))
            printf("# want %s\n# got %s", want, etext);
        CU_ASSERT_PTR_NOT_NULL(strstr(etext, want));
        run_clear(&r);
        g_unlink(path);
    }
}

/* Every problem of a model file in one lint run, a line each with its own
 * FILE:LINE, each line led by "pmusim: " (issue 18: three typos, one run). */
static void test_lint_all_problems(void)
{
    static const char model[] = "[pmu]\nname = whatif\narch = nhmex_cbox\ngp_counters = 6\ngp_width = 48\n"
                                "[options]\ninvert = documentd\npmi_freez_delay = 3\npmi_skid = soon\n";
    g_autofree char *path = temp_file("pmusim-all-XXXXXX.pmu", model);
    Run r = run_cli(NULL, 0, "lint", "--model", path, NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    const char *etext = r.err ? r.err : "";
    static const char *const want[] = { ":7: [options] key 'invert'", ":8: [options] key 'pmi_freez_delay'",
                                        ":9: [options] key 'pmi_skid'" };
    for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
        g_autofree char *line = g_strconcat("pmusim: ", path, want[i], NULL);
        if (!strstr(etext, line))
            printf("# want %s\n# got %s", line, etext);
        CU_ASSERT_PTR_NOT_NULL(strstr(etext, line));
    }
    run_clear(&r);
    g_unlink(path);
}

/* sim --compare FILE: the same experiment on the built-in model and on a
 * variant; the header names what the variant changes, both outputs follow,
 * then the lines that differ; exit 1 when they differ, 0 when not, 2 for a
 * file that does not load or an option it does not take (issue 18). */
static void test_sim_compare(void)
{
    /* wsm with 40-bit counters: 2^40-8 + 10 wraps to 2 with a PMI; the shipped wsm.pmu (meson sets PMS_SOURCE_ROOT) */
    g_autofree char *src =
        g_build_filename(g_getenv("PMS_SOURCE_ROOT") ? g_getenv("PMS_SOURCE_ROOT") : ".", "models", "wsm.pmu", NULL);
    g_autofree char *text = NULL;
    if (!g_file_get_contents(src, &text, NULL, NULL)) {
        printf("# no %s (PMS_SOURCE_ROOT unset?)\n", src);
        CU_FAIL_FATAL("wsm.pmu");
    }
    g_autoptr(GString) variant = g_string_new(text);
    CU_ASSERT_FATAL(g_string_replace(variant, "\ngp_width = 48\n", "\ngp_width = 40\n", 1) == 1);
    g_autofree char *path = temp_file("pmusim-cmp-XXXXXX.pmu", variant->str);
    Run r = run_cli(NULL, 0, "sim", "--pmu", "wsm", "-e", "INST_RETIRED:ANY_P", "--occurrences", "5,5", "--preload",
                    "0xfffffffff8", "--compare", path, NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    g_autofree char *out = out_text(&r);
    static const char *const want[] = { "  B changes [pmu] gp_width = 40 (built-in 48)\n",
                                        "== A: built-in (exit 0) ==\n",
                                        "count=1099511627778 overflow=0\n",
                                        "count=2 overflow=1\n",
                                        "== A and B differ: 6 lines of output ==\n",
                                        "  A: count=1099511627778 overflow=0\n  B: count=2 overflow=1\n" };
    for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
        if (!strstr(out, want[i]))
            printf("# want %s# got %s\n", want[i], out);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, want[i]));
    }
    CU_ASSERT_PTR_NULL(strstr(out, "[register IA32_PMC0]")); /* follows from gp_width: not restated */
    run_clear(&r);

    r = run_cli(NULL, 0, "sim", "--pmu", "wsm", "-e", "INST_RETIRED:ANY_P", "--occurrences", "5", "--compare", src,
                NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_free(out);
    out = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "B changes nothing the comparison looks at"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "== A and B print the same ==\n"));
    run_clear(&r);

    r = run_cli(NULL, 0, "sim", "--pmu", "wsm", "-e", "INST_RETIRED:ANY_P", "--occurrences", "5", "--compare",
                "/nonexistent.pmu", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_TRUE(r.err && strstr(r.err, "/nonexistent.pmu"));
    run_clear(&r);
    r = run_cli(NULL, 0, "sim", "--pmu", "wsm", "-e", "INST_RETIRED:ANY_P", "--occurrences", "5", "--compare", path,
                "-f", "svg", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_TRUE(r.err && strstr(r.err, "--compare does not take -f svg"));
    run_clear(&r);
    g_unlink(path);
}

/* list PMU --options: every option of the family with the model's value,
 * the default, the allowed values and the meaning; a value the file sets
 * shows in VALUE, not in DEFAULT. */
static void test_list_options(void)
{
    Run r = run_cli(NULL, 0, "list", "nhmex_cbox0", "--options", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *text = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "nhmex_cbox0: [options] of the nhmex_cbox family\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "OPTION            VALUE       DEFAULT     ALLOWED                CHOOSES\n"));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(text, "\npmi_skid          0           0           0..1048576             cycles between"));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(text, "\npmi_freeze_delay  0           0           0..1048576             uncore clocks"));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(text, "\ninvert            documented  documented  documented or literal  the threshold test"));
    CU_ASSERT_PTR_NULL(strstr(text, "cpl_gate")); /* another family's */
    run_clear(&r);

    static const char model[] = "[pmu]\nname = whatif\narch = x86_core\ngp_counters = 1\ngp_width = 48\n"
                                "[options]\ncpl_gate = pre\n"
                                "[layout evtsel]\nevent = 7:0\numask = 15:8\nusr = 16\nos = 17\nen = 22\n"
                                "[register PERFEVTSEL0]\naddress = 0x186\nkind = evtsel\nindex = 0\nlayout = evtsel\n"
                                "[register PMC0]\naddress = 0xc1\nkind = pmc\nindex = 0\nwidth = 48\n"
                                "[event E]\ncode = 0x3c\n";
    g_autofree char *path = temp_file("pmusim-listopt-XXXXXX.pmu", model);
    r = run_cli(NULL, 0, "list", "--model", path, "whatif", "--options", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *t2 = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(t2, "\ncpl_gate "));
    CU_ASSERT_TRUE(
        g_regex_match_simple("^cpl_gate +pre +post +post or pre +where USR/OS gate", t2, G_REGEX_MULTILINE, 0));
    CU_ASSERT_TRUE(g_regex_match_simple("^global_ctrl_reset +gp +gp +gp or zero ", t2, G_REGEX_MULTILINE, 0));
    run_clear(&r);
    g_unlink(path);
    /* no PMU, or an event: a usage error */
    r = run_cli(NULL, 0, "list", "--options", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    run_clear(&r);
    r = run_cli(NULL, 0, "list", "wsm", "INST_RETIRED", "--options", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    run_clear(&r);
}

static void test_diff_self(void)
{
    /* builtin against itself through the protocol: no difference, and the
     * summary names the PMU */
    g_autofree char *spec = g_strdup_printf("cmd:'%s' encode --batch", pmusim_path);
    Run r = run_cli(NULL, 0, "diff", "--backend", "builtin", "--backend", spec, "wsm", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *text = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\nwsm "));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, ": 0 differences\n"));
    run_clear(&r);
    /* against the misbehaving backend: every string differs (it answers a
     * made-up code), and the run still completes */
    g_autofree char *fake = g_strdup_printf("cmd:'%s'", fake_path);
    r = run_cli(NULL, 0, "diff", "--backend", "builtin", "--backend", fake, "glm", NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    g_autofree char *t2 = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(t2, "\nglm "));
    CU_ASSERT_PTR_NULL(strstr(t2, ": 0 differences"));
    /* the generated strings carry raw unit masks: widths, spellings, offcore */
    CU_ASSERT_PTR_NOT_NULL(strstr(t2, "\nglm::INST_RETIRED:0x100 ["));
    CU_ASSERT_PTR_NOT_NULL(strstr(t2, "\nglm::INST_RETIRED:0xff= ["));
    CU_ASSERT_PTR_NOT_NULL(strstr(t2, ":0x3fffffffff ["));
    run_clear(&r);
}

static void test_decode_and_perf(void)
{
    /* 0x5300c0 on glm: event 0xc0 umask 0x00 with USR, OS, INT, EN */
    Run r = run_cli(NULL, 0, "decode", "glm", "0x5300c0", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *text = out_text(&r);
    CU_ASSERT_TRUE(g_str_has_prefix(text, "glm::INST_RETIRED:ANY_P:"));
    run_clear(&r);
    /* no unit mask of INST_RETIRED is 0xf0: a raw unit mask */
    r = run_cli(NULL, 0, "decode", "wsm", "0x53f0c0", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *raw = out_text(&r);
    CU_ASSERT_STRING_EQUAL(raw, "wsm::INST_RETIRED:0xf0:k=1:u=1:e=0:i=0:c=0:t=0\n");
    run_clear(&r);
    r = run_cli(NULL, 0, "encode", "--format=perf", "glm::INST_RETIRED:ANY_P:c=1:i:u", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *perf = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(perf, "cpu/event=0xc0,umask=0x00,cmask=1,inv/u\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(perf, "r18000c0:u\n"));
    run_clear(&r);
    /* human form: the event-select register with its fields by name */
    r = run_cli(NULL, 0, "encode", "glm::INST_RETIRED:ANY_P", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *human = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(human, "0x5300c0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(human, "PERFEVTSEL"));
    run_clear(&r);
    r = run_cli(NULL, 0, "encode", "glm::NO_SUCH_EVENT", NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
    run_clear(&r);
}

/* ---- the uncore PMUs and --plm ---------------------------------------- */

static void test_uncore_and_plm(void)
{
    /* UNC_LLC_MISS.ANY is 09H/03H (SDM Table 19-18) with EN (22) and INT (20) */
    Run r = run_cli(NULL, 0, "decode", "nhm_unc", "0x500309", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *dec = out_text(&r);
    CU_ASSERT_STRING_EQUAL(dec, "nhm_unc::UNC_LLC_MISS:ANY:e=0:i=0:c=0:o=0\n");
    run_clear(&r);
    r = run_cli(NULL, 0, "list", "nhm_unc", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *list = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(list, "UNC_QMC_WRITES"));
    CU_ASSERT_PTR_NOT_NULL(strstr(list, "PARTIAL_ANY"));
    run_clear(&r);
    r = run_cli(NULL, 0, "explain", "nhm_unc::UNC_LLC_MISS:ANY", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *ex = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(ex, "all privilege levels"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ex, "MSR_UNCORE_PERFEVTSEL0 (0x3c0) = 0x500309"));
    run_clear(&r);
    r = run_cli(NULL, 0, "explain", "wsm_unc::UNC_CLK_UNHALTED", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *clk = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(clk, "uncore clock"));
    run_clear(&r);

    /* --plm: PLM3 alone is user level only: USR (16) without OS (17) */
    r = run_cli(NULL, 0, "encode", "--plm=3", "glm::INST_RETIRED:ANY_P", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *u = out_text(&r);
    CU_ASSERT_TRUE(g_str_has_prefix(u, "glm::INST_RETIRED:ANY_P:k=0:u=1:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(u, "0x5100c0"));
    run_clear(&r);
    const char *in = "glm::INST_RETIRED:ANY_P\nnhm_unc::UNC_LLC_MISS\n";
    r = run_cli(in, strlen(in), "encode", "--batch", "--plm=0", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autoptr(GPtrArray) lines = out_lines(&r);
    CU_ASSERT_EQUAL_FATAL(lines->len, 2);
    CU_ASSERT_TRUE(g_str_has_prefix(lines->pdata[0], "glm::INST_RETIRED:ANY_P\tPFM_SUCCESS\t1\t0x5200c0\t"));
    CU_ASSERT_STRING_EQUAL(lines->pdata[1], "nhm_unc::UNC_LLC_MISS\tPFM_ERR_INVAL\t0\t\t");
    run_clear(&r);
    r = run_cli(NULL, 0, "encode", "--plm=0,3", "nhm_unc::UNC_LLC_MISS", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    run_clear(&r);
    r = run_cli(NULL, 0, "encode", "--plm=3", "nhm_unc::UNC_LLC_MISS", NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "PLM0|PLM3"));
    run_clear(&r);
    const char *const bad[][4] = {
        { "encode", "--plm=4", "glm::INST_RETIRED", NULL },
        { "encode", "--plm=", "glm::INST_RETIRED", NULL },
        { "encode", "--plm=0,,3", "glm::INST_RETIRED", NULL },
        { "encode", "--plm=user", "glm::INST_RETIRED", NULL },
    };
    for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
        r = run_cli(NULL, 0, bad[i][0], bad[i][1], bad[i][2], bad[i][3], NULL);
        CU_ASSERT_EQUAL(r.status, 2);
        CU_ASSERT_EQUAL(count_lines(r.err), 1);
        CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--plm"));
        run_clear(&r);
    }
    /* every --help ends with examples */
    const char *const helps[][3] = {
        { "encode", "--help" },  { "decode", "--help" }, { "list", "--help" },    { "lint", "--help" },
        { "conform", "--help" }, { "diff", "--help" },   { "explain", "--help" }, { "bench", "encode", "--help" },
    };
    for (gsize i = 0; i < G_N_ELEMENTS(helps); i++) {
        r = run_cli(NULL, 0, helps[i][0], helps[i][1], helps[i][2], NULL);
        CU_ASSERT_EQUAL(r.status, 0);
        g_autofree char *h = out_text(&r);
        if (!strstr(h, "Examples:\n  pmusim "))
            fprintf(stderr, "# %s %s: no examples\n", helps[i][0], helps[i][1]);
        CU_ASSERT_PTR_NOT_NULL(strstr(h, "Examples:\n  pmusim "));
        run_clear(&r);
    }
    r = run_cli("x\n", 2, "encode", "--batch", "--backend", "cmd:/bin/cat", "--plm=3", NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "builtin backend only"));
    run_clear(&r);
}

/* The Xeon 7500 C-Box PMUs through the CLI: values by hand from
 * C_MSR_PMON_EVT_SEL (Intel 323535-001 Table 2-13), LLC_MISSES 0x14, ALL 0x07. */
static void test_nhmex_cli(void)
{
    Run r = run_cli(NULL, 0, "decode", "nhmex_cbox3", "0x2c00714", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *dec = out_text(&r);
    CU_ASSERT_STRING_EQUAL(dec, "nhmex_cbox3::LLC_MISSES:ALL:e=0:i=1:t=2:pmi=0\n");
    run_clear(&r);
    r = run_cli(NULL, 0, "explain", "nhmex_cbox3::LLC_MISSES:ALL:t=2:i", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *ex = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(ex, "C3_MSR_PMON_EVT_SEL0 (0xdd0) = 0x2c00714"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ex, "no privilege or thread filter"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ex, "qualifies when n < 2"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ex, "C3_MSR_PMON_GLOBAL_CTL.ctr_en bit 0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ex, "U_MSR_PMON_GLOBAL_CTL.en_all"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ex, "In short: counts cycles in which fewer than 2 occurrences"));
    run_clear(&r);
    r = run_cli(NULL, 0, "encode", "--format=perf", "nhmex_cbox3::LLC_MISSES:ALL:t=2:i:e:pmi", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *perf = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(perf, "uncore_cbox_3/event=0x14,umask=0x07,thresh=2,inv,edge/\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(perf, "uncore_cbox_3/config=0x2840714/\n"));
    run_clear(&r);
    r = run_cli("nhmex_cbox0::TRANS_IPQ:u\nnhmex_cbox0::TRANS_IPQ:t=255\n", 54, "encode", "--batch", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *batch = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(batch, "nhmex_cbox0::TRANS_IPQ:u\tPFM_ERR_ATTR\t0\t"));
    CU_ASSERT_PTR_NOT_NULL(strstr(batch,
                                  "nhmex_cbox0::TRANS_IPQ:t=255\tPFM_SUCCESS\t1\t0xff40001b\t"
                                  "nhmex_cbox0::TRANS_IPQ:e=0:i=0:t=255:pmi=0"));
    run_clear(&r);
    r = run_cli(NULL, 0, "list", "nhmex_cbox7", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *list = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(list, "stands for unit cbox instance 7"));
    CU_ASSERT_PTR_NOT_NULL(strstr(list, "    pmi    bool"));
    run_clear(&r);
}

/* Montecito through the CLI: values by hand from registers.md §3 (PMC4-15)
 * and §7 (PMC40); NOPS_RETIRED es 0x50, max_incr 6 (events.tsv). */
static void test_montecito_cli(void)
{
    Run r = run_cli(NULL, 0, "decode", "montecito", "0x2305008", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *dec = out_text(&r);
    CU_ASSERT_STRING_EQUAL(dec, "montecito::NOPS_RETIRED:k=0:u=1:thres=3:oi=0\n");
    run_clear(&r);
    r = run_cli(NULL, 0, "decode", "montecito", "0x200c808", "0x20e0088", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *dec2 = out_text(&r);
    CU_ASSERT_STRING_EQUAL(dec2, "montecito::DATA_EAR_TLB_ALL:k=0:u=1:thres=0:oi=0\n");
    run_clear(&r);
    r = run_cli(NULL, 0, "explain", "montecito::NOPS_RETIRED:thres=3:u", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *ex = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(ex, "PMC4 (0x4) = 0x2305008"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ex, "occurs more than 3 times in it"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ex, "thres_compare = gt"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ex, "plm=0x8: occurrences count at privilege level 3"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ex,
                                  "gate: pm=0: a user monitor, counting a thread's occurrences only while its "
                                  "PSR.up is set; ism=2: IA-64 instructions only count"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ex, "In short: counts cycles in which NOPS_RETIRED occurs more than 3 times"));
    run_clear(&r);
    r = run_cli(NULL, 0, "encode", "--format=perf", "montecito::DATA_EAR_TLB_ALL:u", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *perf = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(perf, "no perf syntax"));
    CU_ASSERT_PTR_NOT_NULL(strstr(perf, "perfmon: PMC4=0x200c808 PMC40=0x20e0088\n"));
    run_clear(&r);
    r = run_cli("montecito::NOPS_RETIRED:thres=6\n", 32, "encode", "--batch", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    g_autofree char *batch = out_text(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(batch, "montecito::NOPS_RETIRED:thres=6\tPFM_ERR_ATTR_VAL\t0\t"));
    run_clear(&r);
}

/* ---- CLI usage ------------------------------------------------------ */

static void test_usage_errors(void)
{
    Run r = run_cli(NULL, 0, "--help", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    gsize n;
    const char *out = g_bytes_get_data(r.out, &n);
    g_autofree char *help = g_strndup(out, n);
    const char *cmds[] = { "encode", "decode", "list", "diff", "bench" };
    for (gsize i = 0; i < G_N_ELEMENTS(cmds); i++)
        CU_ASSERT_PTR_NOT_NULL(strstr(help, cmds[i]));
    run_clear(&r);

    const char *const bad[][4] = {
        { "frobnicate", NULL },
        { "encode", "--no-such-option", NULL },
        { "encode", "--batch", "--timeout", "soon" },
        { "conform", "--timeout", "-5", NULL },
        { "conform", "--timeout", "soon", NULL },
        { "encode", "--format=xml", "x", NULL },
        { "diff", "--backend", "builtin", NULL },
        { "bench", "nothing", NULL },
        { "decode", "glm", "0xzz", NULL },
    };
    for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
        r = run_cli(NULL, 0, bad[i][0], bad[i][1], bad[i][2], bad[i][3], NULL);
        CU_ASSERT_EQUAL(r.status, 2);
        CU_ASSERT_EQUAL(count_lines(r.err), 1);
        CU_ASSERT_EQUAL(g_bytes_get_size(r.out), 0);
        run_clear(&r);
    }
    r = run_cli(NULL, 0, "encode", "--batch", "--backend", "nonsense", NULL);
    CU_ASSERT_NOT_EQUAL(r.status, 0);
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
    run_clear(&r);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s PMUSIM FAKE_BACKEND\n", argv[0]);
        return 2;
    }
    pmusim_path = argv[1];
    fake_path = argv[2];
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite proto = CU_add_suite("protocol", NULL, NULL);
    CU_add_test(proto, "format answers", test_format);
    CU_add_test(proto, "parse foreign answers strictly", test_parse_answer);
    CU_pSuite cli = CU_add_suite("cli", NULL, NULL);
    CU_add_test(cli, "batch framing: empty, invalid UTF-8, NUL, 10 kB, no final newline", test_batch_framing);
    CU_add_test(cli, "batch: a NUL in the last line, which has no newline", test_batch_nul_last_line);
    CU_add_test(cli, "batch known values", test_batch_known_values);
    CU_add_test(cli, "batch: a 256 MiB request line in flat memory, answered PFM_ERR_INVAL",
                test_batch_long_line_memory);
    CU_add_test(cli, "cmd backend: crash, hang, garbage, exit -> BACKEND_CRASH + restart",
                test_cmd_backend_crash_restart);
    CU_add_test(cli, "cmd backend: pmusim round trip", test_cmd_backend_roundtrip);
    CU_add_test(cli, "cmd backend: writing a line has the deadline too", test_cmd_backend_write_deadline);
    CU_add_test(cli, "cmd backend: one line per process, every line answered", test_cmd_backend_oneshot);
    CU_add_test(cli, "cmd backend: missing program", test_cmd_backend_missing);
    CU_add_test(cli, "cmd backend: its children end with it (timeout, end of run)", test_cmd_backend_children);
    CU_add_test(cli, "usage errors exit 2 with one line", test_usage_errors);
    CU_add_test(cli, "list --names", test_list_names);
    CU_add_test(cli, "list montecito: facts table, one event", test_list_montecito);
    CU_add_test(cli, "lint: what the simulator refuses", test_lint_simulator);
    CU_add_test(cli, "lint: an option typo at its line", test_lint_option_typo);
    CU_add_test(cli, "lint: every problem of a file in one run", test_lint_all_problems);
    CU_add_test(cli, "sim --compare: built-in and variant side by side", test_sim_compare);
    CU_add_test(cli, "list PMU --options", test_list_options);
    CU_add_test(cli, "encode: an event string's non-text bytes are shown as \\xHH", test_encode_error_printable);
    CU_add_test(cli, "several -e: one timing diagram per counter (svg, html)", test_set_diagrams);
    CU_add_test(cli, "bench conform: every vector of the suite and of a synthetic corpus passes", test_bench_conform);
    CU_add_test(cli, "sim --stim without -e: the stimulus programs the registers", test_sim_stim_without_event);
    CU_add_test(cli, "an output that is a FIFO or device is written in place, not replaced", test_output_special_file);
    CU_add_test(cli, "diff: self agreement, misbehaving backend", test_diff_self);
    CU_add_test(cli, "decode, human and perf output", test_decode_and_perf);
    CU_add_test(cli, "uncore PMUs: decode, list, explain; --plm", test_uncore_and_plm);
    CU_add_test(cli, "Xeon 7500 C-Box: decode, explain, perf, batch, list", test_nhmex_cli);
    CU_add_test(cli, "Montecito: decode, explain, perf, batch", test_montecito_cli);
    /* A skipped test still shows in the TAP stream, marked SKIP. */
    void *pfm = dlopen("libpfm.so.4", RTLD_NOW | RTLD_LOCAL);
    if (pfm) {
        dlclose(pfm);
        CU_add_test(cli, "libpfm4 backend: 65 unit masks crash one line only", test_libpfm4_backend);
    } else {
        CU_add_test(cli, "libpfm4 backend absent: clear error # SKIP libpfm.so.4 not installed", test_libpfm4_absent);
    }
    return pms_cu_tap_run();
}
