/* pmusim models — a line scan of a key file done before GKeyFile parses it.
 *
 * GKeyFile silently merges repeated groups and keeps only the last of repeated
 * keys, and it does not tell where a group or key was.  The scan records the
 * line of every group and key (for messages that name file:line), rejects
 * duplicates and lines GKeyFile would misread, and checks the text is UTF-8.
 * Private to models/. */
#pragma once
#include <glib.h>

typedef struct {
    char *source;            /* file name used in messages */
    GHashTable *group_lines; /* group name -> line */
    GHashTable *key_lines;   /* "group\nkey" -> line */
} PmsKeyScan;

/* Scan `data`; on a problem set error (PMS_MODEL_ERROR_PARSE) and return FALSE. */
gboolean pms_keyscan_run(PmsKeyScan *scan, const char *data, gsize len, const char *source, GError **error);
void pms_keyscan_clear(PmsKeyScan *scan);
guint pms_keyscan_group_line(const PmsKeyScan *scan, const char *group);
/* The key's own line, or its group's line when the key is absent. */
guint pms_keyscan_key_line(const PmsKeyScan *scan, const char *group, const char *key);
