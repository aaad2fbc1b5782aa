/* pmusim — the cmd:PROGRAM backend: any program that speaks the batch
 * protocol on stdin/stdout.  Lines go one at a time; each answer is checked
 * against the line sent.  A program that exits, hangs past the timeout (in
 * writing the line or reading its answer) or answers something else costs
 * that line (BACKEND_CRASH, with the reason on stderr) and is restarted. */
#include "backend_impl.h"
#include "protocol.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ANSWER (64u * 1024 * 1024)
/* A broken backend under `conform` would otherwise print a reason per vector. */
#define MAX_REASONS 20

typedef struct {
    char *program; /* as given after "cmd:", for messages */
    char **argv;
    guint timeout_ms;
    GPid pid;      /* 0: not running */
    pid_t pgid;    /* its process group (= its first pid) while members may live; 0: none */
    int in_fd;     /* its stdin, non-blocking */
    int out_fd;    /* its stdout */
    GString *buf;  /* bytes read but not consumed yet */
    gsize scanned; /* leading bytes of buf known to hold no '\n' */
    guint64 lines; /* lines sent so far (for messages) */
    guint reasons; /* BACKEND_CRASH reasons printed */
} Cmd;

/* How one line's exchange ended. */
typedef enum {
    EX_ANSWER, /* a complete line came back */
    EX_UNREAD, /* the program was gone before it read the line: restart, resend */
    EX_FAILED, /* anything else; the reason says what */
} Exchange;

/* Stop the program and everything it started: it runs as the leader of its
 * own process group (cmd_start), so a shell's children (`sh -c 'sleep 20;
 * true'`) go with it instead of outliving the run.  c->pgid stays set after
 * the leader is reaped (exit_reason, cmd_encode) until the group is killed. */
static void cmd_stop(Cmd *c, gboolean force)
{
    if (c->in_fd >= 0)
        close(c->in_fd);
    if (c->out_fd >= 0)
        close(c->out_fd);
    c->in_fd = c->out_fd = -1;
    g_string_truncate(c->buf, 0);
    c->scanned = 0;
    if (c->pid > 0) {
        if (force)
            kill(-c->pid, SIGKILL);
        /* On a normal close the program sees EOF and should exit promptly. */
        int i;
        for (i = 0; i < 500 && waitpid(c->pid, NULL, WNOHANG) == 0; i++)
            g_usleep(1000);
        if (i == 500) {
            kill(-c->pid, SIGKILL);
            waitpid(c->pid, NULL, 0);
        }
        g_spawn_close_pid(c->pid);
    }
    c->pid = 0;
    /* What the program left running in its group: the group id is not reused
     * while a member lives, so this reaches only the program's own
     * descendants (those that did not move to a group of their own). */
    if (c->pgid > 0)
        kill(-c->pgid, SIGKILL);
    c->pgid = 0;
}

/* In the child between fork and exec: a process group of its own. */
static void child_own_group(gpointer data)
{
    (void)data;
    setpgid(0, 0);
}

static gboolean cmd_start(Cmd *c, GError **error)
{
    GPid pid;
    int in_fd, out_fd;
    if (!g_spawn_async_with_pipes(NULL, c->argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD, child_own_group,
                                  NULL, &pid, &in_fd, &out_fd, NULL, error))
        return FALSE;
    c->pid = pid;
    c->pgid = pid; /* the child made its group before exec, which the spawn waited for */
    c->in_fd = in_fd;
    c->out_fd = out_fd;
    /* Writes must not block: a program that does not read would hang us
     * past any deadline once the pipe is full. */
    fcntl(in_fd, F_SETFL, fcntl(in_fd, F_GETFL) | O_NONBLOCK);
    return TRUE;
}

/* After end of file: how the program ended, waiting up to 100 ms for it. */
static char *exit_reason(Cmd *c)
{
    int status;
    for (int i = 0; i < 100; i++) {
        pid_t r = waitpid(c->pid, &status, WNOHANG);
        if (r == c->pid) {
            g_spawn_close_pid(c->pid);
            c->pid = 0;
            if (WIFSIGNALED(status))
                return g_strdup_printf("killed by signal %d (%s)", WTERMSIG(status), g_strsignal(WTERMSIG(status)));
            return g_strdup_printf("exited with status %d", WEXITSTATUS(status));
        }
        if (r < 0)
            break;
        g_usleep(1000);
    }
    return g_strdup("closed its output");
}

/* Move what the program wrote into c->buf; FALSE on end of file or error. */
static gboolean drain(Cmd *c)
{
    char chunk[65536];
    for (;;) {
        ssize_t n = read(c->out_fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return FALSE;
        g_string_append_len(c->buf, chunk, n);
        return TRUE;
    }
}

/* Bytes still in the pipe to the program (it did not read them). */
static int unread(Cmd *c)
{
    int n = 0;
    if (ioctl(c->in_fd, FIONREAD, &n) < 0)
        return 0;
    return n;
}

/* Send `line` and its '\n', then read one answer line into *answer (without
 * the '\n'), all before the deadline.  While writing, the program's output is
 * read too: a program that echoes a long line as it reads it would otherwise
 * block on its full stdout while we block on its full stdin. */
static Exchange exchange(Cmd *c, const char *line, gint64 deadline, char **answer, char **why)
{
    g_autoptr(GString) req = g_string_new(line);
    g_string_append_c(req, '\n');
    gsize sent = 0;
    for (;;) {
        /* only the bytes not searched yet: a 64 MiB answer arriving in
         * 4 KiB reads must not cost a search of the whole buffer per read */
        char *nl = memchr(c->buf->str + c->scanned, '\n', c->buf->len - c->scanned);
        c->scanned = nl ? 0 : c->buf->len;
        if (nl && sent == req->len) {
            /* An answer with a NUL byte cannot be an echo of our line. */
            if (memchr(c->buf->str, '\0', (gsize)(nl - c->buf->str)) != NULL) {
                *why = g_strdup("the answer contains a NUL byte");
                return EX_FAILED;
            }
            *answer = g_strndup(c->buf->str, (gsize)(nl - c->buf->str));
            g_string_erase(c->buf, 0, nl - c->buf->str + 1);
            return EX_ANSWER;
        }
        if (nl) {
            *why = g_strdup("it answered before it had the whole line");
            return EX_FAILED;
        }
        if (c->buf->len > MAX_ANSWER) {
            *why = g_strdup_printf("an answer line longer than %u MiB", MAX_ANSWER >> 20);
            return EX_FAILED;
        }
        gint64 left = (deadline - g_get_monotonic_time()) / 1000;
        if (left <= 0) {
            if (sent < req->len)
                *why = g_strdup_printf("timed out after %u ms writing the line (%" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
                                       " bytes written): the program does"
                                       " not read its input",
                                       c->timeout_ms, sent, req->len);
            else
                *why = g_strdup_printf("timed out after %u ms waiting for the answer", c->timeout_ms);
            return EX_FAILED;
        }
        struct pollfd pfd[2] = { { .fd = c->out_fd, .events = POLLIN }, { .fd = c->in_fd, .events = POLLOUT } };
        int r = poll(pfd, sent < req->len ? 2 : 1, (int)MIN(left, G_MAXINT));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            *why = g_strdup_printf("poll: %s", g_strerror(errno));
            return EX_FAILED;
        }
        if (r == 0)
            continue; /* the deadline check above reports it */
        if (sent < req->len && (pfd[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
            ssize_t n = write(c->in_fd, req->str + sent, req->len - sent);
            if (n < 0 && errno != EINTR && errno != EAGAIN) {
                /* EPIPE (SIGPIPE is ignored by the CLI): nobody reads any more. */
                if (sent == 0 && c->buf->len == 0)
                    return EX_UNREAD;
                *why = g_strdup_printf("it stopped reading: %s", g_strerror(errno));
                return EX_FAILED;
            }
            if (n > 0)
                sent += (gsize)n;
        }
        if (pfd[0].revents & (POLLIN | POLLERR | POLLHUP)) {
            if (!drain(c)) {
                /* Our whole line still in the pipe: it ended after its last
                 * answer, before this line, as a one-shot program does. */
                if (c->buf->len == 0 && sent == req->len && (gsize)unread(c) >= req->len)
                    return EX_UNREAD;
                if (c->buf->len == 0 && sent == 0)
                    return EX_UNREAD;
                g_autofree char *how = exit_reason(c);
                *why = c->buf->len ? g_strdup_printf("%s in the middle of an answer line", how)
                                   : g_strdup_printf("%s without answering", how);
                return EX_FAILED;
            }
        }
    }
}

static void cmd_encode(void *priv, const char *line, PmsBackendResult *out)
{
    Cmd *c = priv;
    c->lines++;
    g_autofree char *why = NULL;
    /* A program that ended after its last answer is restarted and given the
     * line again, once: it never saw it. */
    for (int attempt = 0; attempt < 2 && why == NULL; attempt++) {
        pms_result_set_ret(out, "BACKEND_CRASH");
        if (c->pid != 0 && waitpid(c->pid, NULL, WNOHANG) == c->pid) {
            g_spawn_close_pid(c->pid);
            c->pid = 0;
            cmd_stop(c, FALSE);
        }
        g_autoptr(GError) err = NULL;
        if (c->pid == 0 && !cmd_start(c, &err)) {
            why = g_strdup_printf("cannot restart it: %s", err->message);
            break;
        }
        gint64 deadline = g_get_monotonic_time() + (gint64)c->timeout_ms * 1000;
        g_autofree char *answer = NULL;
        switch (exchange(c, line, deadline, &answer, &why)) {
        case EX_ANSWER:
            if (pms_proto_check_answer(line, answer, out, &err))
                return;
            why = g_strdup_printf("protocol violation: %s", err->message);
            break;
        case EX_UNREAD:
            cmd_stop(c, TRUE);
            if (attempt == 1)
                why = g_strdup("it ended twice without reading the line");
            break;
        case EX_FAILED:
            break;
        }
    }
    pms_result_set_ret(out, "BACKEND_CRASH");
    cmd_stop(c, TRUE);
    if (c->reasons < MAX_REASONS)
        g_printerr("pmusim: backend cmd:%s: line %" G_GUINT64_FORMAT ": BACKEND_CRASH: %s\n", c->program, c->lines,
                   why);
    else if (c->reasons == MAX_REASONS)
        g_printerr("pmusim: backend cmd:%s: further BACKEND_CRASH reasons not shown\n", c->program);
    c->reasons++;
}

static void cmd_close(void *priv)
{
    Cmd *c = priv;
    cmd_stop(c, FALSE);
    g_strfreev(c->argv);
    g_free(c->program);
    g_string_free(c->buf, TRUE);
    g_free(c);
}

static const PmsBackendOps cmd_ops = { cmd_encode, cmd_close, NULL };

void *pms_backend_cmd_new(const char *program, guint timeout_ms, const PmsBackendOps **ops, GError **error)
{
    char **argv = NULL;
    g_autoptr(GError) err = NULL;
    if (!g_shell_parse_argv(program, NULL, &argv, &err)) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "backend cmd:%s: cannot parse the command line: %s", program, err->message);
        return NULL;
    }
    Cmd *c = g_new0(Cmd, 1);
    c->argv = argv;
    c->program = g_strdup(program);
    c->timeout_ms = timeout_ms;
    c->in_fd = c->out_fd = -1;
    c->buf = g_string_new(NULL);
    if (!cmd_start(c, &err)) {
        g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED, "backend cmd:%s: %s", program, err->message);
        cmd_close(c);
        return NULL;
    }
    *ops = &cmd_ops;
    return c;
}
