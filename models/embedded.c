/* pmusim — files built into the library (embedded.h). */
#include "embedded.h"

#include <stdlib.h>
#include <string.h>

static int cmp_path(const void *key, const void *f)
{
    return strcmp(key, ((const PmsEmbeddedFile *)f)->path);
}

GBytes *pms_embedded_lookup(const PmsEmbedded *e, const char *path, GError **error)
{
    const PmsEmbeddedFile *f = bsearch(path, e->files, e->n_files, sizeof *e->files, cmp_path);
    if (!f) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "no built-in file %s", path);
        return NULL;
    }
    return g_bytes_new_static(f->data, f->size);
}

char **pms_embedded_children(const PmsEmbedded *e, const char *dir, GError **error)
{
    gsize dlen = strlen(dir);
    g_autofree char *prefix = dlen && dir[dlen - 1] == '/' ? g_strdup(dir) : g_strconcat(dir, "/", NULL);
    gsize plen = strlen(prefix);
    GPtrArray *names = g_ptr_array_new();
    for (guint i = 0; i < e->n_files; i++) {
        const char *p = e->files[i].path;
        if (strncmp(p, prefix, plen) != 0)
            continue;
        const char *rest = p + plen, *slash = strchr(rest, '/');
        /* a folder's files are adjacent (sorted paths): name it once */
        gsize n = slash ? (gsize)(slash - rest) + 1 : strlen(rest);
        const char *last = names->len ? g_ptr_array_index(names, names->len - 1) : NULL;
        if (last && strlen(last) == n && strncmp(last, rest, n) == 0)
            continue;
        g_ptr_array_add(names, g_strndup(rest, n));
    }
    if (names->len == 0) {
        g_ptr_array_free(names, TRUE);
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "no built-in folder %s", dir);
        return NULL;
    }
    g_ptr_array_add(names, NULL);
    return (char **)g_ptr_array_free(names, FALSE);
}
