/* pmusim — forked encoder worker.
 *
 * Parent and child talk over a socketpair with length-prefixed messages
 * (send() with MSG_NOSIGNAL, so a dead child is an error return, never a
 * SIGPIPE).  Request: u32 length + bytes.  Answer: RET, COUNT, codes, FSTR,
 * REGS, each string as u32 length + bytes.  Every read from the child has a
 * deadline, so a hung encoder is killed instead of hanging the run. */
#include "worker.h"
#include "protocol.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define NO_STRING 0xffffffffu
#define MAX_STRING (64u * 1024 * 1024)

struct PmsWorker {
    PmsWorkerInitFn init;
    PmsWorkerServeFn serve;
    void *ctx;
    guint timeout_ms;
    pid_t pid; /* 0 when no child runs */
    int fd;    /* parent end, -1 when no child runs */
};

/* ---- byte transport ---------------------------------------------------- */

static gboolean write_all(int fd, const void *buf, gsize len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return FALSE;
        p += n;
        len -= (gsize)n;
    }
    return TRUE;
}

/* deadline < 0: wait forever (the child waiting for its next request). */
static gboolean read_all(int fd, void *buf, gsize len, gint64 deadline)
{
    char *p = buf;
    while (len > 0) {
        if (deadline >= 0) {
            gint64 left = (deadline - g_get_monotonic_time()) / 1000;
            if (left <= 0)
                return FALSE;
            struct pollfd pfd = { .fd = fd, .events = POLLIN };
            int r = poll(&pfd, 1, (int)MIN(left, G_MAXINT));
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                return FALSE;
        }
        ssize_t n = read(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return FALSE;
        p += n;
        len -= (gsize)n;
    }
    return TRUE;
}

static gboolean write_u32(int fd, guint32 v)
{
    return write_all(fd, &v, sizeof v);
}

static gboolean write_str(int fd, const char *s)
{
    if (s == NULL)
        return write_u32(fd, NO_STRING);
    gsize len = strlen(s);
    return write_u32(fd, (guint32)len) && write_all(fd, s, len);
}

/* A string of at most MAX_STRING bytes, or NULL (*ok tells failures apart). */
static char *read_str(int fd, gint64 deadline, gboolean *ok)
{
    guint32 len;
    *ok = read_all(fd, &len, sizeof len, deadline);
    if (!*ok || len == NO_STRING)
        return NULL;
    if (len > MAX_STRING) {
        *ok = FALSE;
        return NULL;
    }
    char *s = g_malloc(len + 1);
    *ok = read_all(fd, s, len, deadline);
    s[len] = '\0';
    if (!*ok || memchr(s, '\0', len) != NULL) {
        *ok = FALSE;
        g_free(s);
        return NULL;
    }
    return s;
}

/* ---- child ----------------------------------------------------------- */

G_GNUC_NORETURN static void child_main(PmsWorker *w, int fd)
{
    /* Die silently from a fault (sanitizer runtimes install their own fault
     * handlers; the parent only needs to see the socket close). */
    int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
    for (gsize i = 0; i < G_N_ELEMENTS(fatal); i++)
        signal(fatal[i], SIG_DFL);
    /* Drop inherited descriptors (pipes of other backends) so that their
     * programs see EOF when the parent closes its ends. */
    for (int other = 3; other < 1024; other++)
        if (other != fd)
            close(other);
    char *message = NULL;
    gboolean ok = w->init ? w->init(w->ctx, &message) : TRUE;
    write_u32(fd, ok ? 0 : 1);
    write_str(fd, ok ? "" : (message ? message : "initialisation failed"));
    if (!ok)
        _exit(1);
    for (;;) {
        gboolean rd;
        char *line = read_str(fd, -1, &rd);
        if (!rd || line == NULL)
            _exit(0);
        PmsBackendResult r = { 0 };
        w->serve(w->ctx, line, &r);
        guint32 n = MIN(r.n_codes, PMS_BACKEND_MAX_CODES);
        if (!write_str(fd, r.ret) || !write_u32(fd, n) || !write_all(fd, r.codes, n * sizeof r.codes[0]) ||
            !write_str(fd, r.fstr) || !write_str(fd, r.regs))
            _exit(0);
        pms_backend_result_clear(&r);
        g_free(line);
    }
}

/* ---- parent ---------------------------------------------------------- */

static void worker_stop(PmsWorker *w, gboolean force)
{
    if (w->fd >= 0)
        close(w->fd);
    w->fd = -1;
    if (w->pid > 0) {
        if (force)
            kill(w->pid, SIGKILL);
        /* Closing the socket makes a healthy child exit; give it a moment. */
        for (int i = 0; i < 200; i++) {
            if (waitpid(w->pid, NULL, WNOHANG) != 0)
                goto reaped;
            g_usleep(1000);
        }
        kill(w->pid, SIGKILL);
        waitpid(w->pid, NULL, 0);
    }
reaped:
    w->pid = 0;
}

static gboolean worker_start(PmsWorker *w, GError **error)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno), "socketpair: %s", g_strerror(errno));
        return FALSE;
    }
    fflush(NULL); /* do not let the child inherit (and later flush) our stdio buffers */
    pid_t pid = fork();
    if (pid < 0) {
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno), "fork: %s", g_strerror(errno));
        close(sv[0]);
        close(sv[1]);
        return FALSE;
    }
    if (pid == 0) {
        close(sv[0]);
        child_main(w, sv[1]);
    }
    close(sv[1]);
    w->pid = pid;
    w->fd = sv[0];
    gint64 deadline = g_get_monotonic_time() + (gint64)w->timeout_ms * 1000;
    guint32 status;
    gboolean ok;
    if (!read_all(w->fd, &status, sizeof status, deadline)) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "worker died or hung while starting");
        worker_stop(w, TRUE);
        return FALSE;
    }
    g_autofree char *msg = read_str(w->fd, deadline, &ok);
    if (!ok || status != 0) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s", msg && *msg ? msg : "worker failed to start");
        worker_stop(w, TRUE);
        return FALSE;
    }
    return TRUE;
}

PmsWorker *pms_worker_new(PmsWorkerInitFn init, PmsWorkerServeFn serve, void *ctx, guint timeout_ms, GError **error)
{
    PmsWorker *w = g_new0(PmsWorker, 1);
    w->init = init;
    w->serve = serve;
    w->ctx = ctx;
    w->timeout_ms = timeout_ms;
    w->fd = -1;
    if (!worker_start(w, error)) {
        g_free(w);
        return NULL;
    }
    return w;
}

void pms_worker_encode(PmsWorker *w, const char *line, PmsBackendResult *out)
{
    pms_result_set_ret(out, "BACKEND_CRASH");
    if (w->fd < 0 && !worker_start(w, NULL))
        return; /* cannot restart: every line is answered as a crash */
    gint64 deadline = g_get_monotonic_time() + (gint64)w->timeout_ms * 1000;
    gboolean ok = write_str(w->fd, line);
    g_autofree char *ret = ok ? read_str(w->fd, deadline, &ok) : NULL;
    guint32 n = 0;
    ok = ok && ret != NULL && read_all(w->fd, &n, sizeof n, deadline) && n <= PMS_BACKEND_MAX_CODES;
    guint64 codes[PMS_BACKEND_MAX_CODES];
    ok = ok && read_all(w->fd, codes, n * sizeof codes[0], deadline);
    g_autofree char *fstr = ok ? read_str(w->fd, deadline, &ok) : NULL;
    g_autofree char *regs = ok ? read_str(w->fd, deadline, &ok) : NULL;
    if (!ok || strlen(ret) >= sizeof out->ret) {
        worker_stop(w, TRUE); /* dead, hung or confused: the next line gets a fresh child */
        return;
    }
    pms_result_set_ret(out, ret);
    out->n_codes = n;
    memcpy(out->codes, codes, n * sizeof codes[0]);
    g_free(out->fstr);
    out->fstr = g_strdup(fstr ? fstr : "");
    out->regs = g_steal_pointer(&regs);
}

void pms_worker_free(PmsWorker *w)
{
    if (w == NULL)
        return;
    worker_stop(w, FALSE);
    g_free(w);
}
