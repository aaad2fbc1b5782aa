/* pmusim models — line scan of a key file (see keyscan.h for why). */
#include <string.h>
#include "keyscan.h"
#include "model.h"

static gboolean scan_fail(GError **error, const char *source, guint line, const char *fmt, ...) G_GNUC_PRINTF(4, 5);

static gboolean scan_fail(GError **error, const char *source, guint line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(error, PMS_MODEL_ERROR, PMS_MODEL_ERROR_PARSE, "%s:%u: %s", source, line, msg);
    return FALSE;
}

/* Keys are restricted to a plain alphabet: GKeyFile would read "a[x]" as a
 * localized key and a typo there should not pass unnoticed. */
static gboolean key_name_ok(const char *k)
{
    if (!*k)
        return FALSE;
    for (const char *p = k; *p; p++)
        if (!g_ascii_isalnum(*p) && *p != '_' && *p != '.' && *p != '-')
            return FALSE;
    return TRUE;
}

gboolean pms_keyscan_run(PmsKeyScan *scan, const char *data, gsize len, const char *source, GError **error)
{
    memset(scan, 0, sizeof *scan);
    scan->source = g_strdup(source);
    scan->group_lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    scan->key_lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

    const char *end = data + len;
    const char *bad = NULL;
    if (!g_utf8_validate(data, (gssize)len, &bad)) {
        guint line = 1;
        for (const char *p = data; p < bad; p++)
            line += *p == '\n';
        if (bad < end && *bad == '\0')
            return scan_fail(error, source, line, "NUL byte in the text");
        return scan_fail(error, source, line, "invalid UTF-8");
    }

    g_autofree char *group = NULL;
    guint line = 0;
    for (const char *p = data; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end;
        g_autofree char *text = g_strndup(p, (gsize)(eol - p));
        p = nl ? nl + 1 : end;
        line++;
        g_strstrip(text);
        if (!*text || text[0] == '#')
            continue;
        if (text[0] == '[') {
            size_t n = strlen(text);
            if (text[n - 1] != ']' || n < 3 || strpbrk(text + 1, "[]") != text + n - 1)
                return scan_fail(error, source, line, "malformed group header '%s': expected [name]", text);
            g_free(group);
            group = g_strndup(text + 1, n - 2);
            /* GKeyFile refuses these without a line number; say where */
            for (const char *q = group; *q; q++)
                if (g_ascii_iscntrl(*q))
                    return scan_fail(error, source, line,
                                     "malformed group header '%s': control character 0x%02x in the name", text,
                                     (guint)(guchar)*q);
            gpointer prev;
            if (g_hash_table_lookup_extended(scan->group_lines, group, NULL, &prev))
                return scan_fail(error, source, line, "group [%s] repeats the one at line %u", group,
                                 GPOINTER_TO_UINT(prev));
            g_hash_table_insert(scan->group_lines, g_strdup(group), GUINT_TO_POINTER(line));
            continue;
        }
        char *eq = strchr(text, '=');
        if (!eq)
            return scan_fail(error, source, line, "expected 'key = value', '[group]' or '# comment', got '%s'", text);
        if (!group)
            return scan_fail(error, source, line, "key before the first [group]");
        *eq = '\0';
        g_strstrip(text);
        if (!key_name_ok(text))
            return scan_fail(error, source, line, "[%s] bad key name '%s': expected letters, digits, '_', '.', '-'",
                             group, text);
        char *id = g_strconcat(group, "\n", text, NULL);
        gpointer prev;
        if (g_hash_table_lookup_extended(scan->key_lines, id, NULL, &prev)) {
            g_free(id);
            return scan_fail(error, source, line, "[%s] key '%s' repeats the one at line %u", group, text,
                             GPOINTER_TO_UINT(prev));
        }
        g_hash_table_insert(scan->key_lines, id, GUINT_TO_POINTER(line));
    }
    return TRUE;
}

void pms_keyscan_clear(PmsKeyScan *scan)
{
    g_clear_pointer(&scan->source, g_free);
    g_clear_pointer(&scan->group_lines, g_hash_table_unref);
    g_clear_pointer(&scan->key_lines, g_hash_table_unref);
}

guint pms_keyscan_group_line(const PmsKeyScan *scan, const char *group)
{
    return GPOINTER_TO_UINT(g_hash_table_lookup(scan->group_lines, group));
}

guint pms_keyscan_key_line(const PmsKeyScan *scan, const char *group, const char *key)
{
    g_autofree char *id = g_strconcat(group, "\n", key, NULL);
    guint line = GPOINTER_TO_UINT(g_hash_table_lookup(scan->key_lines, id));
    return line ? line : pms_keyscan_group_line(scan, group);
}
