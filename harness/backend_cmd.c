/* pmusim — the cmd:PROGRAM backend: any program that speaks the batch
 * protocol on stdin/stdout.  Lines go one at a time; each answer is checked
 * against the line sent.  A program that exits, hangs past the timeout or
 * answers something else costs that line (BACKEND_CRASH) and is restarted. */
#include "backend_impl.h"
#include "protocol.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ANSWER (64u * 1024 * 1024)

typedef struct {
    char **argv;
    guint timeout_ms;
    GPid pid;       /* 0: not running */
    int in_fd;      /* its stdin */
    int out_fd;     /* its stdout */
    GString *buf;   /* bytes read but not consumed yet */
} Cmd;

static void cmd_stop(Cmd *c, gboolean force)
{
    if (c->in_fd >= 0)
        close(c->in_fd);
    if (c->out_fd >= 0)
        close(c->out_fd);
    c->in_fd = c->out_fd = -1;
    g_string_truncate(c->buf, 0);
    if (c->pid > 0) {
        if (force)
            kill(c->pid, SIGKILL);
        /* On a normal close the program sees EOF and should exit promptly. */
        int i;
        for (i = 0; i < 500 && waitpid(c->pid, NULL, WNOHANG) == 0; i++)
            g_usleep(1000);
        if (i == 500) {
            kill(c->pid, SIGKILL);
            waitpid(c->pid, NULL, 0);
        }
        g_spawn_close_pid(c->pid);
    }
    c->pid = 0;
}

static gboolean cmd_start(Cmd *c, GError **error)
{
    GPid pid;
    int in_fd, out_fd;
    if (!g_spawn_async_with_pipes(NULL, c->argv, NULL,
                                  G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                  &pid, &in_fd, &out_fd, NULL, error))
        return FALSE;
    c->pid = pid;
    c->in_fd = in_fd;
    c->out_fd = out_fd;
    return TRUE;
}

static gboolean write_all(int fd, const char *p, gsize len)
{
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return FALSE; /* EPIPE: SIGPIPE is ignored by the CLI */
        p += n;
        len -= (gsize)n;
    }
    return TRUE;
}

/* Read one '\n'-terminated answer (returned without it) before the deadline;
 * NULL on timeout, end of file or an answer that cannot be text. */
static char *read_line(Cmd *c, gint64 deadline)
{
    for (;;) {
        char *nl = memchr(c->buf->str, '\n', c->buf->len);
        if (nl) {
            /* An answer with a NUL byte cannot be an echo of our line. */
            if (memchr(c->buf->str, '\0', (gsize)(nl - c->buf->str)) != NULL)
                return NULL;
            char *line = g_strndup(c->buf->str, (gsize)(nl - c->buf->str));
            g_string_erase(c->buf, 0, nl - c->buf->str + 1);
            return line;
        }
        if (c->buf->len > MAX_ANSWER)
            return NULL;
        gint64 left = (deadline - g_get_monotonic_time()) / 1000;
        if (left <= 0)
            return NULL;
        struct pollfd pfd = { .fd = c->out_fd, .events = POLLIN };
        int r = poll(&pfd, 1, (int)MIN(left, G_MAXINT));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return NULL;
        char chunk[4096];
        ssize_t n = read(c->out_fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return NULL; /* the program exited */
        g_string_append_len(c->buf, chunk, n);
    }
}

static void cmd_encode(void *priv, const char *line, PmsBackendResult *out)
{
    Cmd *c = priv;
    pms_result_set_ret(out, "BACKEND_CRASH");
    /* A program that exited on its own after its last answer is restarted
     * before this line rather than costing it. */
    if (c->pid != 0 && waitpid(c->pid, NULL, WNOHANG) == c->pid) {
        g_spawn_close_pid(c->pid);
        c->pid = 0;
        cmd_stop(c, FALSE);
    }
    if (c->pid == 0 && !cmd_start(c, NULL))
        return;
    gint64 deadline = g_get_monotonic_time() + (gint64)c->timeout_ms * 1000;
    gsize len = strlen(line);
    g_autofree char *answer = NULL;
    if (write_all(c->in_fd, line, len) && write_all(c->in_fd, "\n", 1))
        answer = read_line(c, deadline);
    if (answer == NULL || !pms_proto_parse_answer(line, answer, out)) {
        pms_result_set_ret(out, "BACKEND_CRASH");
        cmd_stop(c, TRUE);
    }
}

static void cmd_close(void *priv)
{
    Cmd *c = priv;
    cmd_stop(c, FALSE);
    g_strfreev(c->argv);
    g_string_free(c->buf, TRUE);
    g_free(c);
}

static const PmsBackendOps cmd_ops = { cmd_encode, cmd_close, NULL };

void *pms_backend_cmd_new(const char *program, guint timeout_ms, const PmsBackendOps **ops,
                          GError **error)
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
    c->timeout_ms = timeout_ms;
    c->in_fd = c->out_fd = -1;
    c->buf = g_string_new(NULL);
    if (!cmd_start(c, &err)) {
        g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED, "backend cmd:%s: %s", program,
                    err->message);
        cmd_close(c);
        return NULL;
    }
    *ops = &cmd_ops;
    return c;
}
