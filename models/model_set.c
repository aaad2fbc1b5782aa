/* pmusim models — the set of models a command works with: the built-in ones
 * (compiled images embedded in the library, see models/meson.build) plus any
 * user files given with --model, which replace a built-in of the same name.
 * A file of several PMUs ([pmu] instances) gives the set one name per PMU. */
#include <string.h>
#include "model.h"
#include "model_priv.h"
#include "model_image.h"
#include "embedded.h"

#define PMS_MODELS_RESOURCE_DIR "/org/pmusim/models"

/* A model file or built-in image provides one PMU, or one per instance of
 * a unit (model.h, pms_model_view_new): its source is read once, on the
 * first use of any of its PMUs (get or nth), and its PMUs' entries share
 * it.  A command that names one PMU reads one image, not sixteen. */
typedef struct {
    char *name;      /* for messages: the image's stem or the model's name */
    GBytes *image;   /* built-in, not yet read; NULL once read or from a file */
    PmsModel *model; /* NULL until read */
    gsize read;      /* g_once: the image has been read (or there is none) */
} Source;

/* One PMU name.  Its name comes from the image without reading it
 * (pms_model_image_names), and is checked against the model when read. */
typedef struct {
    char *name;      /* the PMU's name */
    Source *src;     /* owned by the set */
    gint view;       /* which of src's instances; -1: src's model itself */
    PmsModel *model; /* NULL until read; a view is the entry's own */
    gsize read;      /* g_once: model made (or there is none) */
} Entry;

struct PmsModelSet {
    GPtrArray *entries;        /* Entry*, owned, in built-in order then added */
    GPtrArray *sources;        /* Source*, owned */
    GHashTable *by_name;       /* model name (case-insensitive) -> Entry* */
    GHashTable *files;         /* upper-cased name -> path, of models added from files */
    gboolean no_encoder_cache; /* pms_model_set_set_encoder_cache(set, FALSE) */
};

static void entry_clear_model(Entry *e)
{
    if (e->view >= 0 && e->model)
        pms_model_free(e->model);
    e->model = NULL;
}

static void entry_free(gpointer p)
{
    Entry *e = p;
    entry_clear_model(e);
    g_free(e->name);
    g_free(e);
}

static void source_free(gpointer p)
{
    Source *s = p;
    if (s->image)
        g_bytes_unref(s->image);
    pms_model_free(s->model);
    g_free(s->name);
    g_free(s);
}

static PmsModelSet *set_new(void)
{
    PmsModelSet *s = g_new0(PmsModelSet, 1);
    s->entries = g_ptr_array_new_with_free_func(entry_free);
    s->sources = g_ptr_array_new_with_free_func(source_free);
    s->by_name = pms_ci_index_new();
    s->files = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    return s;
}

/* The source's model, read from its image the first time.  A built-in
 * image that does not read is a defect of the build (the test suite reads
 * every one): reported once on stderr, and its PMUs are then absent. */
static PmsModel *source_model(Source *s)
{
    if (g_once_init_enter(&s->read)) {
        if (!s->model && s->image) {
            g_autoptr(GError) err = NULL;
            g_autofree char *source = g_strconcat("builtin:", s->name, ".pmi", NULL);
            s->model = pms_model_image_read(s->image, source, &err);
            if (!s->model)
                g_printerr("pmusim: built-in model %s does not load: %s\n", s->name, err->message);
            /* Embedded files are returned in place and the model's strings
             * may point into them (model_image_read.c): the model keeps the
             * bytes alive. */
            g_clear_pointer(&s->image, g_bytes_unref);
        }
        g_once_init_leave(&s->read, 1);
    }
    return s->model;
}

/* Once per entry: threads sharing a set may ask for the same built-in model
 * at the same time (a set is read-only once made, model.h). */
static PmsModel *entry_model(Entry *e)
{
    if (g_once_init_enter(&e->read)) {
        PmsModel *m = source_model(e->src);
        if (m && e->view >= 0)
            m = pms_model_view_new(m, (guint)e->view);
        if (m && g_ascii_strcasecmp(m->name, e->name) != 0) {
            g_printerr("pmusim: built-in model %s does not load: builtin:%s.pmi holds model '%s'\n", e->name,
                       e->src->name, m->name);
            if (e->view >= 0)
                pms_model_free(m);
            m = NULL;
        }
        e->model = m;
        g_once_init_leave(&e->read, 1);
    }
    return e->model;
}

/* Name `name` for PMU `view` of `src` (-1: its model): a new entry, or in
 * place of the entry of that name so the order stays stable.  The model is
 * made now when the source is read. */
static void set_name(PmsModelSet *set, const char *name, Source *src, gint view)
{
    Entry *en = g_hash_table_lookup(set->by_name, name);
    if (en) {
        g_hash_table_remove(set->by_name, en->name);
        entry_clear_model(en);
        g_free(en->name);
    } else {
        en = g_new0(Entry, 1);
        g_ptr_array_add(set->entries, en);
    }
    en->name = g_strdup(name);
    en->src = src;
    en->view = view;
    if (src->model) {
        en->model = view >= 0 ? pms_model_view_new(src->model, (guint)view) : src->model;
        en->read = 1;
    }
    g_hash_table_replace(set->by_name, en->name, en);
}

static gint cmp_str(gconstpointer a, gconstpointer b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

PmsModelSet *pms_model_set_new_builtin(GError **error)
{
    g_autoptr(GError) e = NULL;
    g_auto(GStrv) names = pms_embedded_children(&pms_models_embedded, PMS_MODELS_RESOURCE_DIR, &e);
    if (!names) {
        g_set_error(error, PMS_MODEL_ERROR, PMS_MODEL_ERROR_NOTFOUND, "built-in models missing from the library: %s",
                    e->message);
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
        Source *src = g_new0(Source, 1);
        src->name = g_strndup(names[i], strlen(names[i]) - strlen(".pmi"));
        src->image = bytes;
        g_ptr_array_add(set->sources, src);
        /* A damaged image names its stem, and says so when first used. */
        gboolean views = FALSE;
        g_auto(GStrv) pmus = pms_model_image_names(bytes, names[i], &views, NULL);
        if (!pmus || !views)
            set_name(set, src->name, src, -1);
        else
            for (guint v = 0; pmus[v]; v++)
                set_name(set, pmus[v], src, (gint)v);
    }
    return g_steal_pointer(&set);
}

PmsModelSet *pms_model_set_new_empty(void)
{
    return set_new();
}

/* The PMU names m provides: its own, or one per instance. */
static GStrv model_names(const PmsModel *m)
{
    GPtrArray *names = g_ptr_array_new();
    if (!m->n_instances)
        g_ptr_array_add(names, g_strdup(m->name));
    for (guint i = 0; i < m->n_instances; i++)
        g_ptr_array_add(names, pms_model_view_name(m, i));
    g_ptr_array_add(names, NULL);
    return (GStrv)g_ptr_array_free(names, FALSE);
}

void pms_model_set_add_model(PmsModelSet *set, PmsModel *m)
{
    Source *src = g_new0(Source, 1);
    src->name = g_strdup(m->name);
    src->model = m;
    src->read = 1;
    g_ptr_array_add(set->sources, src);
    if (!m->n_instances)
        set_name(set, m->name, src, -1);
    for (guint i = 0; i < m->n_instances; i++) {
        g_autofree char *name = pms_model_view_name(m, i);
        set_name(set, name, src, (gint)i);
    }
}

gboolean pms_model_set_add_file(PmsModelSet *set, const char *path, GError **error)
{
    PmsModel *m = pms_model_load_file(path, error);
    if (!m)
        return FALSE;
    /* A file replaces a built-in model; a second file of the same name
     * would replace the first silently. */
    g_auto(GStrv) names = model_names(m);
    for (guint i = 0; names[i]; i++) {
        g_autofree char *key = g_ascii_strup(names[i], -1);
        const char *prev = g_hash_table_lookup(set->files, key);
        if (prev) {
            g_set_error(error, PMS_MODEL_ERROR, PMS_MODEL_ERROR_CONFLICT,
                        "%s:%u: model %s was already loaded from %s: two --model files with one name", path,
                        m->source_line, names[i], prev);
            pms_model_free(m);
            return FALSE;
        }
    }
    for (guint i = 0; names[i]; i++)
        g_hash_table_insert(set->files, g_ascii_strup(names[i], -1), g_strdup(path));
    pms_model_set_add_model(set, m);
    return TRUE;
}

const PmsModel *pms_model_set_get(const PmsModelSet *set, const char *name)
{
    Entry *en = name ? g_hash_table_lookup(set->by_name, name) : NULL;
    return en ? entry_model(en) : NULL;
}

guint pms_model_set_count(const PmsModelSet *set)
{
    return set->entries->len;
}

const PmsModel *pms_model_set_nth(const PmsModelSet *set, guint i)
{
    return i < set->entries->len ? entry_model(g_ptr_array_index(set->entries, i)) : NULL;
}

const char *pms_model_set_nth_name(const PmsModelSet *set, guint i)
{
    return i < set->entries->len ? ((const Entry *)g_ptr_array_index(set->entries, i))->name : NULL;
}

void pms_model_set_set_encoder_cache(PmsModelSet *set, gboolean on)
{
    set->no_encoder_cache = !on;
}

gboolean pms_model_set_get_encoder_cache(const PmsModelSet *set)
{
    return !set->no_encoder_cache;
}

void pms_model_set_free(PmsModelSet *set)
{
    if (!set)
        return;
    g_hash_table_unref(set->by_name);
    g_hash_table_unref(set->files);
    g_ptr_array_unref(set->entries);
    g_ptr_array_unref(set->sources);
    g_free(set);
}
