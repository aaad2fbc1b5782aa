/* pmusim models — the set of models a command works with: the built-in ones
 * (compiled images in the library's GResource, see models/meson.build) plus any
 * user files given with --model, which replace a built-in of the same name. */
#include <string.h>
#include <gio/gio.h>
#include "model.h"
#include "model_priv.h"
#include "model_image.h"
#include "pmusim-models-resource.h"

#define PMS_MODELS_RESOURCE_DIR "/org/pmusim/models"

struct PmsModelSet {
    GPtrArray *models; /* PmsModel*, owned, in built-in order then added */
    GHashTable *by_name; /* model name (case-insensitive) -> PmsModel* */
    GHashTable *files;   /* upper-cased name -> path, of models added from files */
};

static PmsModelSet *
set_new(void)
{
    PmsModelSet *s = g_new0(PmsModelSet, 1);
    s->models = g_ptr_array_new_with_free_func((GDestroyNotify)pms_model_free);
    s->by_name = pms_ci_index_new();
    s->files = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    return s;
}

static gint
cmp_str(gconstpointer a, gconstpointer b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

PmsModelSet *
pms_model_set_new_builtin(GError **error)
{
    GResource *res = pms_models_get_resource();
    g_autoptr(GError) e = NULL;
    g_auto(GStrv) names = g_resource_enumerate_children(res, PMS_MODELS_RESOURCE_DIR,
                                                        G_RESOURCE_LOOKUP_FLAGS_NONE, &e);
    if (!names) {
        g_set_error(error, PMS_MODEL_ERROR, PMS_MODEL_ERROR_NOTFOUND,
                    "built-in models missing from the library: %s", e->message);
        return NULL;
    }
    /* Resource enumeration order is unspecified: sort for a stable order. */
    qsort(names, g_strv_length(names), sizeof *names, cmp_str);
    g_autoptr(PmsModelSet) set = set_new();
    for (guint i = 0; names[i]; i++) {
        if (!g_str_has_suffix(names[i], ".pmi"))
            continue;
        g_autofree char *path = g_strconcat(PMS_MODELS_RESOURCE_DIR "/", names[i], NULL);
        /* Uncompressed resources are returned in place: no copy, and the
         * model's strings may point into them (model_image_read.c). */
        g_autoptr(GBytes) bytes = g_resource_lookup_data(res, path, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
        if (!bytes)
            return NULL;
        g_autofree char *name = g_strconcat("builtin:", names[i], NULL);
        PmsModel *m = pms_model_image_read(bytes, name, error);
        if (!m)
            return NULL;
        g_ptr_array_add(set->models, m);
        g_hash_table_replace(set->by_name, m->name, m);
    }
    return g_steal_pointer(&set);
}

PmsModelSet *
pms_model_set_new_empty(void)
{
    return set_new();
}

void
pms_model_set_add_model(PmsModelSet *set, PmsModel *m)
{
    for (guint i = 0; i < set->models->len; i++) {
        PmsModel *old = g_ptr_array_index(set->models, i);
        if (g_ascii_strcasecmp(old->name, m->name) == 0) {
            /* Replace in place so the order stays stable. */
            g_hash_table_remove(set->by_name, old->name);
            pms_model_free(old);
            set->models->pdata[i] = m;
            g_hash_table_replace(set->by_name, m->name, m);
            return;
        }
    }
    g_ptr_array_add(set->models, m);
    g_hash_table_replace(set->by_name, m->name, m);
}

gboolean
pms_model_set_add_file(PmsModelSet *set, const char *path, GError **error)
{
    PmsModel *m = pms_model_load_file(path, error);
    if (!m)
        return FALSE;
    /* A file replaces a built-in model; a second file of the same name
     * would replace the first silently. */
    char *key = g_ascii_strup(m->name, -1);
    const char *prev = g_hash_table_lookup(set->files, key);
    if (prev) {
        g_set_error(error, PMS_MODEL_ERROR, PMS_MODEL_ERROR_CONFLICT,
                    "%s:%u: model %s was already loaded from %s: two --model files with one name",
                    path, m->source_line, m->name, prev);
        g_free(key);
        pms_model_free(m);
        return FALSE;
    }
    g_hash_table_insert(set->files, key, g_strdup(path));
    pms_model_set_add_model(set, m);
    return TRUE;
}

const PmsModel *
pms_model_set_get(const PmsModelSet *set, const char *name)
{
    return name ? g_hash_table_lookup(set->by_name, name) : NULL;
}

guint
pms_model_set_count(const PmsModelSet *set)
{
    return set->models->len;
}

const PmsModel *
pms_model_set_nth(const PmsModelSet *set, guint i)
{
    return i < set->models->len ? g_ptr_array_index(set->models, i) : NULL;
}

void
pms_model_set_free(PmsModelSet *set)
{
    if (!set)
        return;
    g_hash_table_unref(set->by_name);
    g_hash_table_unref(set->files);
    g_ptr_array_unref(set->models);
    g_free(set);
}
