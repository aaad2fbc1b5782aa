/* pmusim — an output file written whole or not at all (out_file.h). */
#include "out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct PmsOutFile {
    char *path;
    char *tmp; /* the temporary file, NULL when written in place */
    FILE *f;
    gboolean existed; /* the path was a file: its replacement is synced first, as g_file_set_contents does */
    int slot;         /* in pending[], -1 when none */
};

/* The temporary files alive, for the signal handler: it may only read them
 * (and call async-signal-safe functions), so the paths are set before the
 * handlers are installed and cleared after they are restored. */
#define MAX_PENDING 8
static char *volatile pending[MAX_PENDING];
static guint n_pending;
static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction saved[G_N_ELEMENTS(fatal_signals)];

static void on_fatal_signal(int sig)
{
    for (guint i = 0; i < MAX_PENDING; i++) {
        char *p = pending[i];
        if (p)
            unlink(p);
    }
    /* SA_RESETHAND restored the default action: die of the signal as we
     * would have without the handler (delivered when this returns) */
    raise(sig);
}

static void handlers_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (guint i = 0; i < G_N_ELEMENTS(fatal_signals); i++) {
        sigaction(fatal_signals[i], NULL, &saved[i]);
        /* a signal ignored (nohup) stays ignored */
        if (saved[i].sa_handler != SIG_IGN)
            sigaction(fatal_signals[i], &sa, NULL);
    }
}

static void handlers_restore(void)
{
    for (guint i = 0; i < G_N_ELEMENTS(fatal_signals); i++)
        sigaction(fatal_signals[i], &saved[i], NULL);
}

static int pending_add(char *path)
{
    for (int i = 0; i < MAX_PENDING; i++) {
        if (!pending[i]) {
            pending[i] = path;
            if (n_pending++ == 0)
                handlers_install();
            return i;
        }
    }
    return -1;
}

static void pending_remove(int slot)
{
    if (slot < 0)
        return;
    pending[slot] = NULL;
    if (--n_pending == 0)
        handlers_restore();
}

/* Written through a temporary file: path is missing or a regular file. */
static gboolean by_rename(const char *path, gboolean *existed)
{
    GStatBuf st;
    if (g_stat(path, &st) != 0)
        return TRUE;
    *existed = S_ISREG(st.st_mode);
    return S_ISREG(st.st_mode);
}

char *pms_out_file_scratch_dir(const char *path)
{
    gboolean existed = FALSE;
    if (strcmp(path, "-") != 0 && by_rename(path, &existed))
        return g_path_get_dirname(path);
    return g_strdup(g_get_tmp_dir());
}

static gboolean set_errno_error(GError **error, int e, const char *what)
{
    g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", what, g_strerror(e));
    return FALSE;
}

PmsOutFile *pms_out_file_begin(const char *path, GError **error)
{
    PmsOutFile *o = g_new0(PmsOutFile, 1);
    o->path = g_strdup(path);
    o->slot = -1;
    if (strcmp(path, "-") == 0) {
        o->f = stdout; /* "-" is standard output, as everywhere a file is named */
        return o;
    }
    if (!by_rename(path, &o->existed)) {
        o->f = fopen(path, "w");
        if (!o->f) {
            set_errno_error(error, errno, path);
            pms_out_file_abort(o);
            return NULL;
        }
        return o;
    }
    char *tmp = g_strdup_printf("%s.XXXXXX", path);
    /* 0666 less the umask, as a file the shell would make */
    int fd = g_mkstemp_full(tmp, O_RDWR | O_CLOEXEC, 0666);
    if (fd < 0) {
        set_errno_error(error, errno, path); /* the user's name, not the random one */
        g_free(tmp);
        pms_out_file_abort(o);
        return NULL;
    }
    o->tmp = tmp;
    o->slot = pending_add(o->tmp);
    o->f = fdopen(fd, "w");
    if (!o->f) {
        set_errno_error(error, errno, o->tmp);
        close(fd);
        pms_out_file_abort(o);
        return NULL;
    }
    return o;
}

FILE *pms_out_file_stream(PmsOutFile *o)
{
    return o->f;
}

static void out_file_free(PmsOutFile *o)
{
    pending_remove(o->slot); /* before the path it points to is freed */
    g_free(o->tmp);
    g_free(o->path);
    g_free(o);
}

void pms_out_file_abort(PmsOutFile *o)
{
    if (!o)
        return;
    if (o->f && o->f != stdout)
        fclose(o->f);
    if (o->tmp)
        g_unlink(o->tmp);
    out_file_free(o);
}

gboolean pms_out_file_commit(PmsOutFile *o, GError **error)
{
    errno = 0;
    gboolean ok = fflush(o->f) == 0 && !ferror(o->f);
    int e = errno;
    if (o->f == stdout) {
        out_file_free(o);
        return ok || set_errno_error(error, e ? e : EIO, "standard output");
    }
    if (ok && o->tmp && o->existed && fsync(fileno(o->f)) != 0) {
        ok = FALSE;
        e = errno;
    }
    if (fclose(o->f) != 0 && ok) {
        ok = FALSE;
        e = errno;
    }
    o->f = NULL;
    if (ok && o->tmp && g_rename(o->tmp, o->path) != 0) {
        ok = FALSE;
        e = errno;
    }
    if (!ok) {
        set_errno_error(error, e ? e : EIO, o->path);
        pms_out_file_abort(o);
        return FALSE;
    }
    out_file_free(o); /* renamed: nothing to remove */
    return TRUE;
}
