/* An example encoder backend for pmusim's batch protocol, in C with nothing
 * but libc (POSIX):
 *
 *   pmusim conform --backend 'cmd:build/examples/backend build/harness/pmusim'
 *
 * What this is: a protocol skeleton.  The protocol side (reading requests as
 * bytes, echoing each one exactly, formatting the answer, flushing, surviving
 * a dead encoder) is done here as docs/encoder-protocol.md asks; the encoding
 * itself is three functions below, marked YOUR ENCODER GOES HERE: setup()
 * (once, before the first request), encode() (each request) and finish()
 * (at the end of input).  Replace their bodies with your encoder.
 *
 * As shipped, encode() does not encode anything itself: it asks pmusim's own
 * builtin encoder, a `pmusim encode --batch` child process, and takes its
 * answer apart into fields.  That is why this example passes every built-in
 * vector (the meson tests example-backend-c*): what it proves is the
 * protocol handling, not an encoder.  Usage:
 *
 *   backend [PMUSIM [ENCODE-OPTION...]]
 *
 * PMUSIM (default: `pmusim` on PATH) is run with `encode --batch` and the
 * ENCODE-OPTIONs (e.g. `--model my.pmu`) after it.
 *
 * Rules this file keeps, each one a way a first backend goes wrong:
 * - A request is bytes with a length, not a C string: getline() keeps every
 *   byte but the final '\n' (a TAB, a CR, invalid UTF-8); a last line
 *   without '\n' is still a request.  (pmusim itself never sends a line
 *   holding a NUL byte: it answers those PFM_ERR_INVAL itself.)
 * - The answer starts with the request exactly as read, then a TAB.  The
 *   request may itself contain TABs, so a reader never splits an answer on
 *   TAB from the left without knowing the request: it removes the request
 *   and its TAB and splits the rest (RET, COUNT, CODES, FSTR, optional
 *   REGS: none may contain a TAB).  relay_fields() does exactly that.
 * - Every answer is on stdout before the backend waits for the next request
 *   (pmusim sends one line and waits for its answer): fflush() after each.
 * - Nothing but answers on stdout; diagnostics go to stderr. */
/* getline, fdopen, fork: POSIX.1-2008 (also when built alone with -std=c11) */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CODES 8

/* One encoding.  ret, fstr and regs are NUL-terminated (none may hold a
 * TAB or another control byte); regs is "" when there are none. */
typedef struct {
    char ret[32]; /* "PFM_SUCCESS" or a libpfm4 error name */
    unsigned n_codes;
    uint64_t codes[MAX_CODES];
    char *fstr; /* malloc'd or NULL (empty) */
    char *regs; /* malloc'd or NULL (empty) */
} Answer;

static void answer_set(Answer *a, const char *ret)
{
    free(a->fstr);
    free(a->regs);
    memset(a, 0, sizeof *a);
    snprintf(a->ret, sizeof a->ret, "%s", ret);
}

/* Write the answer line for `request` (len bytes, without its '\n') and
 * flush it: pmusim waits for it before sending the next request. */
static int put_answer(FILE *out, const char *request, size_t len, const Answer *a)
{
    fwrite(request, 1, len, out); /* the echo: every byte, TABs and all */
    fprintf(out, "\t%s\t%u\t", a->ret, a->n_codes);
    for (unsigned i = 0; i < a->n_codes; i++)
        fprintf(out, "%s0x%" PRIx64, i ? "," : "", a->codes[i]); /* lowercase, 0x0 for zero */
    fprintf(out, "\t%s", a->fstr ? a->fstr : "");
    if (a->regs && a->regs[0])
        fprintf(out, "\t%s", a->regs);
    fputc('\n', out);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

static int relay_setup(int argc, char **argv);
static Answer relay_ask(const char *event, size_t len);
static void relay_close(void);

/* ------------------------------------------------------------------------
 * YOUR ENCODER GOES HERE: setup(), encode() and finish().  As shipped they
 * start, ask and close pmusim's builtin encoder (the relay, below).
 *
 * setup() is called once with the command line, before the first request:
 * load your encoder there.  If it cannot run, print one line on stderr and
 * return -1 (the backend exits 1).
 *
 * encode() takes one event string (len bytes as read, without the '\n';
 * event[len] is a NUL for convenience) and returns an Answer: PFM_SUCCESS
 * with at least one code and the FSTR, or a libpfm4 error name with no codes
 * and no FSTR.  fstr and regs are malloc'd (the caller frees them) or NULL.
 * E.g.
 *
 *     Answer a = { 0 };
 *     int ret = my_encode(event, a.codes, &a.n_codes, &a.fstr);
 *     snprintf(a.ret, sizeof a.ret, "%s", ret == 0 ? "PFM_SUCCESS" : my_error_name(ret));
 *     return a;
 *
 * A crash ends the backend: pmusim answers that line BACKEND_CRASH and
 * starts the backend afresh for the next one.
 *
 * finish() is called at the end of input.
 * ------------------------------------------------------------------------ */
static int setup(int argc, char **argv)
{
    return relay_setup(argc, argv);
}

static Answer encode(const char *event, size_t len)
{
    return relay_ask(event, len);
}

static void finish(void)
{
    relay_close();
}

/* The relay: a `pmusim encode --batch` child kept running, asked one line
 * at a time. */
static char **relay_argv;
static pid_t relay_pid;
static FILE *relay_in, *relay_out; /* its stdin, its stdout */

static int relay_start(void)
{
    /* to: its stdin; from: its stdout; ex: closed by a successful exec, or
     * given errno when exec fails, so that a missing PMUSIM is noticed here */
    int to[2], from[2], ex[2];
    if (pipe(to) < 0 || pipe(from) < 0 || pipe(ex) < 0)
        return -1;
    fcntl(ex[1], F_SETFD, FD_CLOEXEC);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        close(ex[0]);
        signal(SIGPIPE, SIG_DFL);
        execvp(relay_argv[0], relay_argv);
        int e = errno;
        (void)!write(ex[1], &e, sizeof e);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    close(ex[1]);
    int e;
    ssize_t n;
    while ((n = read(ex[0], &e, sizeof e)) < 0 && errno == EINTR)
        ;
    close(ex[0]);
    if (n > 0) {
        close(to[1]);
        close(from[0]);
        waitpid(pid, NULL, 0);
        errno = e;
        return -1;
    }
    relay_pid = pid;
    relay_in = fdopen(to[1], "w");
    relay_out = fdopen(from[0], "r");
    return relay_in && relay_out ? 0 : -1;
}

static void relay_stop(int force)
{
    if (relay_pid == 0)
        return;
    fclose(relay_in);
    fclose(relay_out);
    if (force)
        kill(relay_pid, SIGKILL);
    waitpid(relay_pid, NULL, 0);
    relay_pid = 0;
}

/* At the end: close its stdin, let it exit. */
static void relay_close(void)
{
    relay_stop(0);
    free(relay_argv);
    relay_argv = NULL;
}

/* argv: [PMUSIM [ENCODE-OPTION...]]; PMUSIM is run as `PMUSIM encode --batch
 * ENCODE-OPTION...`.  A backend that cannot run says so once, at the start. */
static int relay_setup(int argc, char **argv)
{
    static char pmusim[] = "pmusim", encode_arg[] = "encode", batch_arg[] = "--batch";
    static char *dfl[] = { pmusim, NULL };
    char **prog = argc > 1 ? argv + 1 : dfl;
    int nprog = argc > 1 ? argc - 1 : 1;
    char **args = calloc((size_t)nprog + 3, sizeof *args);
    if (args == NULL)
        return -1;
    args[0] = prog[0];
    args[1] = encode_arg;
    args[2] = batch_arg;
    for (int i = 1; i < nprog; i++)
        args[i + 2] = prog[i];
    relay_argv = args;
    if (relay_start() < 0) {
        fprintf(stderr, "backend: cannot start %s: %s\n", relay_argv[0], strerror(errno));
        return -1;
    }
    return 0;
}

/* The Answer in `answer` (alen bytes, one line from a batch-protocol
 * encoder, '\n' included) to `request` (len bytes); -1 when it is not an
 * answer to that request. */
static int relay_fields(const char *request, size_t len, char *answer, size_t alen, Answer *a)
{
    if (alen < len + 2 || answer[alen - 1] != '\n' || memcmp(answer, request, len) != 0 || answer[len] != '\t')
        return -1;
    answer[alen - 1] = '\0';
    /* after the echo no field contains a TAB: split the rest on TAB */
    char *f[6];
    unsigned nf = 0;
    for (char *p = answer + len + 1; nf < 6; nf++) {
        f[nf] = p;
        p = strchr(p, '\t');
        if (p == NULL) {
            nf++;
            break;
        }
        *p++ = '\0';
    }
    if ((nf != 4 && nf != 5) || strlen(f[0]) >= sizeof a->ret)
        return -1;
    answer_set(a, f[0]);
    char *end;
    unsigned long count = strtoul(f[1], &end, 10);
    if (*end || count > MAX_CODES)
        return -1;
    char *c = f[2];
    for (a->n_codes = 0; a->n_codes < count; a->n_codes++) {
        errno = 0;
        a->codes[a->n_codes] = strtoull(c, &end, 16);
        if (errno || end == c || (*end != ',' && *end != '\0'))
            return -1;
        c = *end ? end + 1 : end;
    }
    if (*c)
        return -1;
    a->fstr = strdup(f[3]);
    a->regs = strdup(nf == 5 ? f[4] : "");
    return 0;
}

static Answer relay_ask(const char *event, size_t len)
{
    Answer a = { 0 };
    if (relay_pid == 0 && relay_start() < 0) {
        fprintf(stderr, "backend: cannot start %s: %s\n", relay_argv[0], strerror(errno));
        exit(1);
    }
    char *answer = NULL;
    size_t cap = 0;
    ssize_t alen = -1;
    /* a child that died makes the write fail (EPIPE: SIGPIPE is ignored) or
     * the read end at end of file */
    if (fwrite(event, 1, len, relay_in) == len && fputc('\n', relay_in) != EOF && fflush(relay_in) == 0)
        alen = getline(&answer, &cap, relay_out);
    if (alen < 0 || relay_fields(event, len, answer, (size_t)alen, &a) < 0) {
        /* The encoder behind us died or answered something else: this line
         * is BACKEND_CRASH, the next one gets a fresh encoder. */
        fprintf(stderr, "backend: the encoder %s; answering BACKEND_CRASH\n",
                alen < 0 ? "died" : "answered another line");
        relay_stop(1);
        answer_set(&a, "BACKEND_CRASH");
    }
    free(answer);
    return a;
}

int main(int argc, char **argv)
{
    /* a dead child or reader shows as a failed write, not our death */
    signal(SIGPIPE, SIG_IGN);
    if (setup(argc, argv) < 0)
        return 1;

    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int status = 0;
    while ((n = getline(&line, &cap, stdin)) >= 0) {
        size_t len = (size_t)n;
        if (len > 0 && line[len - 1] == '\n')
            line[--len] = '\0'; /* only the final newline goes */
        Answer a = encode(line, len);
        int bad = put_answer(stdout, line, len, &a);
        answer_set(&a, "");
        if (bad) {
            status = 1; /* nobody reads our answers any more */
            break;
        }
    }
    if (ferror(stdin))
        status = 1;
    free(line);
    finish();
    return status;
}
