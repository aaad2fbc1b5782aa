/* pmusim — files built into the library (scripts/embed-resources.py writes
 * the tables from GResource-format manifests).  Used where GResource would
 * be: lookup by path and listing a folder, without linking gio (whose
 * loading cost every pmusim process about 0.9 ms). */
#pragma once

#include <glib.h>

typedef struct {
    const char *path; /* "/org/pmusim/models/glm.pmi" */
    const char *data; /* NUL-terminated (not counted in size), 8-byte aligned */
    gsize size;
} PmsEmbeddedFile;

typedef struct {
    const PmsEmbeddedFile *files; /* sorted by path */
    guint n_files;
} PmsEmbedded;

/* The bundles the library embeds (generated sources). */
G_GNUC_INTERNAL extern const PmsEmbedded pms_models_embedded;
G_GNUC_INTERNAL extern const PmsEmbedded pms_vectors_embedded;
G_GNUC_INTERNAL extern const PmsEmbedded pms_expected_embedded;

/* The file at path, its bytes in place (static); NULL with G_FILE_ERROR_NOENT
 * when the bundle has none. */
G_GNUC_INTERNAL GBytes *pms_embedded_lookup(const PmsEmbedded *e, const char *path, GError **error);
/* The names in folder dir (with or without its trailing '/'): files by
 * name, sub-folders as "name/", each once, in path order; NULL with
 * G_FILE_ERROR_NOENT when nothing lies under dir. */
G_GNUC_INTERNAL char **pms_embedded_children(const PmsEmbedded *e, const char *dir, GError **error);
