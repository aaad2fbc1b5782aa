/* pmusim — reading a stimulus file (stim_read.h): lines in bounded chunks
 * with read(2), so a line is handed out as soon as it arrives from a pipe,
 * and the whole text up to a size.  Every limit is checked before the
 * buffer grows. */
#include "stim_read.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK (64u * 1024)

static gboolean open_fd(const char *path, int *fd, GError **error)
{
    do
        *fd = open(path, O_RDONLY);
    while (*fd < 0 && errno == EINTR);
    if (*fd < 0) {
        int e = errno;
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS, "%s: %s", path, g_strerror(e));
        return FALSE;
    }
    return TRUE;
}

/* read(2) retried on EINTR: bytes read, 0 at the end, -1 on an error. */
static gssize read_some(int fd, char *buf, gsize n)
{
    gssize k;
    do
        k = read(fd, buf, n);
    while (k < 0 && errno == EINTR);
    return k;
}

PmsStimReader *pms_stim_reader_open(const char *path, GError **error)
{
    g_return_val_if_fail(path != NULL, NULL);
    int fd;
    if (!open_fd(path, &fd, error))
        return NULL;
    PmsStimReader *r = g_new0(PmsStimReader, 1);
    r->fd = fd;
    r->own_fd = TRUE;
    r->path = g_strdup(path);
    r->cap = CHUNK;
    r->buf = g_malloc(r->cap);
    return r;
}

void pms_stim_reader_free(PmsStimReader *r)
{
    if (!r)
        return;
    if (r->own_fd)
        close(r->fd);
    g_free(r->buf);
    g_free(r->path);
    g_free(r);
}

static gboolean nul_error(PmsStimReader *r, const char *start, const char *nul, GError **error)
{
    g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_INPUT, "%s:%u: column %u: a NUL byte in the text", r->path,
                r->line + 1, (guint)(nul - start) + 1);
    return FALSE;
}

static gboolean too_long(PmsStimReader *r, GError **error)
{
    g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_INPUT,
                "%s:%u: a line longer than 16 MiB (%u bytes), the most a stimulus line holds", r->path, r->line + 1,
                PMS_STIM_LINE_MAX);
    return FALSE;
}

/* Room after the current line's bytes: they move to the front, and a full
 * buffer doubles, never past a line's limit and one byte more. */
static gboolean make_room(PmsStimReader *r, GError **error)
{
    if (r->pos) {
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->len -= r->pos;
        r->pos = 0;
    }
    if (r->len < r->cap)
        return TRUE;
    if (r->cap > PMS_STIM_LINE_MAX)
        return too_long(r, error);
    gsize cap = MIN(r->cap * 2, (gsize)PMS_STIM_LINE_MAX + 1);
    char *b = g_try_realloc(r->buf, cap);
    if (!b) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS,
                    "%s:%u: out of memory for a line of %" G_GSIZE_FORMAT " bytes", r->path, r->line + 1, cap);
        return FALSE;
    }
    r->buf = b;
    r->cap = cap;
    return TRUE;
}

gboolean stim_reader_next(PmsStimReader *r, char **line, GError **error)
{
    *line = NULL;
    if (r->again) {
        r->again = FALSE;
        *line = r->last;
        return TRUE;
    }
    for (;;) {
        char *start = r->buf + r->pos, *from = start + r->checked, *end = r->buf + r->len;
        char *nl = memchr(from, '\n', (gsize)(end - from));
        char *stop = nl ? nl : end;
        char *nul = memchr(from, 0, (gsize)(stop - from));
        if (nul)
            return nul_error(r, start, nul, error);
        gsize n = (gsize)(stop - start);
        if (n > PMS_STIM_LINE_MAX)
            return too_long(r, error);
        if (nl || (r->eof && n)) {
            if (!nl && r->len == r->cap && !make_room(r, error)) /* room for the NUL after the last line */
                return FALSE;
            start = r->buf + r->pos;
            start[n] = 0;
            r->pos += n + (nl ? 1 : 0);
            r->checked = 0;
            r->line++;
            r->last = *line = start;
            return TRUE;
        }
        if (r->eof)
            return TRUE; /* the end: *line NULL */
        r->checked = n;
        if (!make_room(r, error))
            return FALSE;
        gssize k = read_some(r->fd, r->buf + r->len, r->cap - r->len);
        if (k < 0) {
            int e = errno;
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS, "%s:%u: read error: %s", r->path, r->line + 1,
                        g_strerror(e));
            return FALSE;
        }
        if (k == 0)
            r->eof = TRUE;
        r->len += (gsize)k;
    }
}

gboolean stim_read_whole(const char *path, gsize max, char **text, gsize *len, GError **error)
{
    int fd;
    if (!open_fd(path, &fd, error))
        return FALSE;
    struct stat sb;
    gboolean too_big = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && (guint64)sb.st_size > max;
    char *buf = NULL;
    gsize n = 0, cap = 0;
    guint line = 1;
    gsize bol = 0; /* where line `line` starts in buf */
    gboolean ok = FALSE;
    while (!too_big) {
        if (cap - n < CHUNK + 1) {
            /* never more than the limit and one chunk: the read that passes
             * the limit is the last */
            gsize want = MIN(MAX(cap * 2, n + CHUNK + 1), max + CHUNK + 1);
            char *b = g_try_realloc(buf, want);
            if (!b) {
                g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS,
                            "%s: out of memory after %" G_GSIZE_FORMAT " bytes", path, n);
                break;
            }
            buf = b;
            cap = want;
        }
        gssize k = read_some(fd, buf + n, CHUNK);
        if (k < 0) {
            int e = errno;
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS, "%s: %s", path, g_strerror(e));
            break;
        }
        if (k == 0) {
            ok = TRUE;
            break;
        }
        const char *nul = memchr(buf + n, 0, (gsize)k);
        if (nul) {
            for (const char *q = buf + bol; q < nul; q++)
                if (*q == '\n') {
                    line++;
                    bol = (gsize)(q - buf) + 1;
                }
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_INPUT, "%s:%u: column %u: a NUL byte in the text", path,
                        line, (guint)((gsize)(nul - buf) - bol) + 1);
            break;
        }
        n += (gsize)k;
        too_big = n > max;
    }
    close(fd);
    if (too_big)
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_INPUT,
                    "%s: larger than %" G_GSIZE_FORMAT " bytes (%" G_GSIZE_FORMAT
                    " MiB), the most a stimulus read whole may hold (the reference engine reads it whole for its "
                    "per-cycle trace): the fast engine runs a stimulus of any length as it reads it (pmusim sim "
                    "--engine fast)",
                    path, max, max >> 20);
    if (!ok) {
        g_free(buf);
        return FALSE;
    }
    if (!buf)
        buf = g_malloc(1);
    buf[n] = 0;
    *text = buf;
    *len = n;
    return TRUE;
}
