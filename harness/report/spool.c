/* pmusim — a spool: several streams of text in one anonymous temporary file
 * (spool.h). */
#include "spool.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdarg.h>
#include <unistd.h>

typedef struct {
    guint64 off, len;
} Piece;

struct PmsSpool {
    FILE *f;
    guint64 size;   /* bytes appended so far: the next piece's offset */
    GPtrArray *key; /* GArray of Piece, by key (NULL: none yet) */
    guint last;     /* the key of the latest append */
    int err;        /* the first write error's errno, 0 if none */
};

static void pieces_free(gpointer p)
{
    if (p) /* a key below the highest never written */
        g_array_unref(p);
}

PmsSpool *pms_spool_new(const char *dir, GError **error)
{
    g_autofree char *tmpl = g_build_filename(dir, ".pmusim-spool-XXXXXX", NULL);
    int fd = g_mkstemp(tmpl);
    if (fd < 0) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", dir, g_strerror(e));
        return NULL;
    }
    /* unlinked at once: a run killed in any way leaves no file behind */
    g_unlink(tmpl);
    PmsSpool *s = g_new0(PmsSpool, 1);
    s->f = fdopen(fd, "w+");
    if (!s->f) {
        int e = errno;
        close(fd);
        g_free(s);
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", dir, g_strerror(e));
        return NULL;
    }
    s->key = g_ptr_array_new_with_free_func(pieces_free);
    s->last = G_MAXUINT;
    return s;
}

void pms_spool_free(PmsSpool *s)
{
    if (!s)
        return;
    fclose(s->f);
    g_ptr_array_unref(s->key);
    g_free(s);
}

/* Account n more bytes of key just written at s->size. */
static void grow(PmsSpool *s, guint key, gsize n)
{
    if (key >= s->key->len)
        g_ptr_array_set_size(s->key, key + 1);
    GArray *pieces = g_ptr_array_index(s->key, key);
    if (!pieces) {
        pieces = g_array_new(FALSE, FALSE, sizeof(Piece));
        g_ptr_array_index(s->key, key) = pieces;
    }
    if (s->last == key && pieces->len)
        g_array_index(pieces, Piece, pieces->len - 1).len += n;
    else
        g_array_append_val(pieces, ((Piece){ s->size, n }));
    s->last = key;
    s->size += n;
}

void pms_spool_append(PmsSpool *s, guint key, const char *text, gsize len)
{
    if (s->err)
        return;
    if (fwrite(text, 1, len, s->f) != len) {
        s->err = errno ? errno : EIO;
        return;
    }
    grow(s, key, len);
}

void pms_spool_printf(PmsSpool *s, guint key, const char *fmt, ...)
{
    if (s->err)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(s->f, fmt, ap);
    va_end(ap);
    if (n < 0) {
        s->err = errno ? errno : EIO;
        return;
    }
    grow(s, key, (gsize)n);
}

guint64 pms_spool_size(const PmsSpool *s, guint key)
{
    GArray *pieces = key < s->key->len ? g_ptr_array_index(s->key, key) : NULL;
    guint64 n = 0;
    for (guint i = 0; pieces && i < pieces->len; i++)
        n += g_array_index(pieces, Piece, i).len;
    return n;
}

gboolean pms_spool_copy(PmsSpool *s, guint key, FILE *out, const char *out_name, GError **error)
{
    if (!s->err && fflush(s->f) != 0)
        s->err = errno ? errno : EIO;
    if (s->err) {
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(s->err), "its temporary file: %s", g_strerror(s->err));
        return FALSE;
    }
    GArray *pieces = key < s->key->len ? g_ptr_array_index(s->key, key) : NULL;
    char buf[1 << 16];
    for (guint i = 0; pieces && i < pieces->len; i++) {
        Piece p = g_array_index(pieces, Piece, i);
        while (p.len) {
            ssize_t got = pread(fileno(s->f), buf, MIN(p.len, sizeof buf), (off_t)p.off);
            if (got <= 0) {
                int e = got < 0 ? errno : EIO;
                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "its temporary file: %s", g_strerror(e));
                return FALSE;
            }
            if (fwrite(buf, 1, (size_t)got, out) != (size_t)got) {
                int e = errno ? errno : EIO;
                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", out_name, g_strerror(e));
                return FALSE;
            }
            p.off += (guint64)got;
            p.len -= (guint64)got;
        }
    }
    return TRUE;
}
