/* pmusim — where vector files come from: the files embedded in the
 * library (vectors/<pmu>/<topic>.enc as committed) or a user directory with
 * the same layout (--vectors DIR). */
#include "vector_internal.h"
#include "model.h"
#include "embedded.h"

#include <string.h>

#define RES_ROOT "/org/pmusim/vectors"

static gint cmp_str(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names so reports come out in the same order everywhere. */
static void sort_strv(char **v)
{
    if (v)
        qsort(v, g_strv_length(v), sizeof(char *), (int (*)(const void *, const void *))cmp_str);
}

/* Stimulus files referenced by sim vectors live next to them: in the
 * resource folder of the PMU, or in the same directory on disk. */
static char *fetch_resource(const char *name, char **path, gpointer user_data, GError **error)
{
    const char *dir = user_data;
    g_autofree char *res_path = g_strconcat(dir, name, NULL);
    g_autoptr(GBytes) bytes = pms_embedded_lookup(&pms_vectors_embedded, res_path, error);
    if (!bytes)
        return NULL;
    *path = g_strdup_printf("vectors%s", res_path + strlen(RES_ROOT));
    gsize len = 0;
    const char *data = g_bytes_get_data(bytes, &len);
    return g_strndup(data, len);
}

static char *fetch_file(const char *name, char **path, gpointer user_data, GError **error)
{
    const char *dir = user_data;
    *path = g_build_filename(dir, name, NULL);
    char *text = NULL;
    gsize len = 0;
    /* bounded like every text file pmusim reads (a FIFO or a device named
     * as a stimulus is refused, not read without end) */
    if (!pms_read_text_file(*path, PMS_TEXT_FILE_MAX, &text, &len, error))
        return NULL;
    return text;
}

/* Parse one file into a scratch set, read the stimulus files its sim vectors
 * reference, and only then add its vectors: a file with an error adds none. */
static gboolean parse_and_add(PmsVectorKind kind, const char *data, gsize len, const char *name, const char *pmu,
                              PmsVecFetchFunc fetch, const char *dir, gpointer user_data, GError **error)
{
    PmsVectorSet *set = user_data;
    g_autoptr(PmsVectorSet) scratch = pms_vector_set_new();
    if (!pms_vector_set_parse(scratch, kind, data, len, name, pmu, error))
        return FALSE;
    if (kind == PMS_VECTOR_SIM && !pms_vector_sim_resolve(scratch, fetch, (gpointer)dir, error))
        return FALSE;
    pms_vector_set_take(set, scratch);
    return TRUE;
}

gboolean pms_vector_set_load_builtin(PmsVectorSet *set, GError **error)
{
    return pms_vector_set_load_builtin_kinds(set, ~0u, error);
}

gboolean pms_vector_set_load_builtin_kinds(PmsVectorSet *set, guint kinds_mask, GError **error)
{
    return pms_vector_each_builtin_file(kinds_mask, parse_and_add, set, error);
}

gboolean pms_vector_each_builtin_file(guint kinds_mask, PmsVecFileFunc fn, gpointer user_data, GError **error)
{
    const PmsEmbedded *res = &pms_vectors_embedded;
    g_auto(GStrv) pmus = pms_embedded_children(res, RES_ROOT, error);
    if (!pmus)
        return FALSE;
    sort_strv(pmus);
    for (guint i = 0; pmus[i]; i++) {
        if (!g_str_has_suffix(pmus[i], "/"))
            continue;
        g_autofree char *pmu = g_strndup(pmus[i], strlen(pmus[i]) - 1);
        g_autofree char *dir = g_strdup_printf(RES_ROOT "/%s", pmus[i]);
        g_auto(GStrv) files = pms_embedded_children(res, dir, error);
        if (!files)
            return FALSE;
        sort_strv(files);
        for (guint j = 0; files[j]; j++) {
            PmsVectorKind kind;
            if (!pms_vector_kind_for_name(files[j], &kind) || !(kinds_mask & (1u << kind)))
                continue;
            g_autofree char *path = g_strconcat(dir, files[j], NULL);
            g_autoptr(GBytes) bytes = pms_embedded_lookup(res, path, error);
            if (!bytes)
                return FALSE;
            gsize len = 0;
            const char *data = g_bytes_get_data(bytes, &len);
            g_autofree char *name = g_strdup_printf("vectors/%s/%s", pmu, files[j]);
            if (!fn(kind, data, len, name, pmu, fetch_resource, dir, user_data, error))
                return FALSE;
        }
    }
    return TRUE;
}

static gboolean load_file(const char *path, const char *pmu, PmsVectorKind kind, PmsVecFileFunc fn, gpointer user_data,
                          GError **error)
{
    g_autofree char *data = NULL;
    gsize len = 0;
    GError *local = NULL;
    if (!pms_read_text_file(path, PMS_TEXT_FILE_MAX, &data, &len, &local)) {
        g_set_error(error, PMS_VECTOR_ERROR, PMS_VECTOR_ERROR_IO, "%s", local->message);
        g_error_free(local);
        return FALSE;
    }
    g_autofree char *dir = g_path_get_dirname(path);
    return fn(kind, data, len, path, pmu, fetch_file, dir, user_data, error);
}

/* Sorted entries of one directory. */
static GStrv list_dir(const char *dir, GError **error)
{
    GError *local = NULL;
    g_autoptr(GDir) d = g_dir_open(dir, 0, &local);
    if (!d) {
        g_set_error(error, PMS_VECTOR_ERROR, PMS_VECTOR_ERROR_IO, "%s: %s", dir, local->message);
        g_error_free(local);
        return NULL;
    }
    g_autoptr(GPtrArray) names = g_ptr_array_new();
    const char *name;
    while ((name = g_dir_read_name(d)))
        g_ptr_array_add(names, g_strdup(name));
    g_ptr_array_add(names, NULL);
    GStrv v = (GStrv)g_ptr_array_free(g_steal_pointer(&names), FALSE);
    sort_strv(v);
    return v;
}

gboolean pms_vector_set_load_dir(PmsVectorSet *set, const char *dir, GError **error)
{
    return pms_vector_each_dir_file(dir, parse_and_add, set, error);
}

gboolean pms_vector_each_dir_file(const char *dir, PmsVecFileFunc fn, gpointer user_data, GError **error)
{
    g_auto(GStrv) top = list_dir(dir, error);
    if (!top)
        return FALSE;
    guint files_seen = 0;
    g_autofree char *own = g_path_get_basename(dir);
    for (guint i = 0; top[i]; i++) {
        g_autofree char *path = g_build_filename(dir, top[i], NULL);
        PmsVectorKind kind;
        if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
            g_auto(GStrv) sub = list_dir(path, error);
            if (!sub)
                return FALSE;
            for (guint j = 0; sub[j]; j++) {
                if (!pms_vector_kind_for_name(sub[j], &kind))
                    continue;
                g_autofree char *fpath = g_build_filename(path, sub[j], NULL);
                files_seen++;
                if (!load_file(fpath, top[i], kind, fn, user_data, error))
                    return FALSE;
            }
        } else if (pms_vector_kind_for_name(top[i], &kind)) {
            files_seen++;
            if (!load_file(path, own, kind, fn, user_data, error))
                return FALSE;
        }
    }
    if (files_seen == 0) {
        g_set_error(error, PMS_VECTOR_ERROR, PMS_VECTOR_ERROR_EMPTY,
                    "%s: no vector file (*.enc, *.sim) in it or in its PMU folders", dir);
        return FALSE;
    }
    return TRUE;
}
