/* pmusim models — the set of models a command works with: the built-in ones
 * (compiled images embedded in the library, see models/meson.build) plus any
 * user files given with --model, which replace a built-in of the same name. */
#include <string.h>
#include "model.h"
#include "model_priv.h"
#include "model_image.h"
#include "embedded.h"

#define PMS_MODELS_RESOURCE_DIR "/org/pmusim/models"

/* A built-in model is read from its image on first use (get or nth): a
 * command that names one PMU reads one image, not sixteen.  Its entry holds
 * the image until then; the name comes from the image's file name, which
 * models/meson.build derives from the model's own name (checked on read). */
typedef struct {
    char *name;        /* the model's name (built-in: the image's stem) */
    GBytes *image;     /* built-in, not yet read; NULL once read or from a file */
    PmsModel *model;   /* NULL until read */
    gsize read;        /* g_once: the image has been read (or there is none) */
} Entry;

struct PmsModelSet {
    GPtrArray *entries; /* Entry*, owned, in built-in order then added */
    GHashTable *by_name; /* model name (case-insensitive) -> Entry* */
    GHashTable *files;   /* upper-cased name -> path, of models added from files */
    gboolean no_encoder_cache;   /* pms_model_set_set_encoder_cache(set, FALSE) */
};

static void
entry_free(gpointer p)
{
    Entry *e = p;
    if (e->image)
        g_bytes_unref(e->image);
    if (e->model)
        pms_model_free(e->model);
    g_free(e->name);
    g_free(e);
}

static PmsModelSet *
set_new(void)
{
    PmsModelSet *s = g_new0(PmsModelSet, 1);
    s->entries = g_ptr_array_new_with_free_func(entry_free);
    s->by_name = pms_ci_index_new();
    s->files = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    return s;
}

/* The entry's model, read from its image the first time.  A built-in image
 * that does not read is a defect of the build (the test suite reads every
 * one): reported once on stderr, and the model is then absent. */
static void
entry_read(Entry *e)
{
    if (e->model || !e->image)
        return;
    g_autoptr(GError) err = NULL;
    g_autofree char *source = g_strconcat("builtin:", e->name, ".pmi", NULL);
    PmsModel *m = pms_model_image_read(e->image, source, &err);
    if (m && g_ascii_strcasecmp(m->name, e->name) != 0) {
        g_set_error(&err, PMS_MODEL_ERROR, PMS_MODEL_ERROR_CONFLICT,
                    "%s holds model '%s', not '%s'", source, m->name, e->name);
        g_clear_pointer(&m, pms_model_free);
    }
    if (!m)
        g_printerr("pmusim: built-in model %s does not load: %s\n", e->name, err->message);
    /* Embedded files are returned in place and the model's strings
     * may point into them (model_image_read.c): keep the bytes alive. */
    e->model = m;
    if (!m)
        g_clear_pointer(&e->image, g_bytes_unref);
}

/* Once per entry: threads sharing a set may ask for the same built-in model
 * at the same time (a set is read-only once made, model.h). */
static PmsModel *
entry_model(Entry *e)
{
    if (g_once_init_enter(&e->read)) {
        entry_read(e);
        g_once_init_leave(&e->read, 1);
    }
    return e->model;
}

static gint
cmp_str(gconstpointer a, gconstpointer b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

PmsModelSet *
pms_model_set_new_builtin(GError **error)
{
    g_autoptr(GError) e = NULL;
    g_auto(GStrv) names = pms_embedded_children(&pms_models_embedded, PMS_MODELS_RESOURCE_DIR, &e);
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
        GBytes *bytes = pms_embedded_lookup(&pms_models_embedded, path, error);
        if (!bytes)
            return NULL;
        Entry *en = g_new0(Entry, 1);
        en->name = g_strndup(names[i], strlen(names[i]) - strlen(".pmi"));
        en->image = bytes;
        g_ptr_array_add(set->entries, en);
        g_hash_table_replace(set->by_name, en->name, en);
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
    Entry *en = g_hash_table_lookup(set->by_name, m->name);
    if (en) {
        /* Replace in place so the order stays stable. */
        g_hash_table_remove(set->by_name, en->name);
        if (en->model)
            pms_model_free(en->model);
        g_clear_pointer(&en->image, g_bytes_unref);
        g_free(en->name);
    } else {
        en = g_new0(Entry, 1);
        g_ptr_array_add(set->entries, en);
    }
    en->name = g_strdup(m->name);
    en->model = m;
    g_hash_table_replace(set->by_name, en->name, en);
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
    Entry *en = name ? g_hash_table_lookup(set->by_name, name) : NULL;
    return en ? entry_model(en) : NULL;
}

guint
pms_model_set_count(const PmsModelSet *set)
{
    return set->entries->len;
}

const PmsModel *
pms_model_set_nth(const PmsModelSet *set, guint i)
{
    return i < set->entries->len ? entry_model(g_ptr_array_index(set->entries, i)) : NULL;
}

const char *
pms_model_set_nth_name(const PmsModelSet *set, guint i)
{
    return i < set->entries->len ? ((const Entry *)g_ptr_array_index(set->entries, i))->name : NULL;
}

void
pms_model_set_set_encoder_cache(PmsModelSet *set, gboolean on)
{
    set->no_encoder_cache = !on;
}

gboolean
pms_model_set_get_encoder_cache(const PmsModelSet *set)
{
    return !set->no_encoder_cache;
}

void
pms_model_set_free(PmsModelSet *set)
{
    if (!set)
        return;
    g_hash_table_unref(set->by_name);
    g_hash_table_unref(set->files);
    g_ptr_array_unref(set->entries);
    g_free(set);
}
