/* pmusim — JSON string escaping for the CLI's --format=json outputs. */
#include "json_out.h"

void pms_json_str(GString *out, const char *s)
{
    g_autofree char *valid = g_utf8_make_valid(s ? s : "", -1);
    g_string_append_c(out, '"');
    for (const unsigned char *p = (const unsigned char *)valid; *p; p++) {
        if (*p == '"' || *p == '\\')
            g_string_append_printf(out, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            g_string_append_printf(out, "\\u%04x", *p);
        else
            g_string_append_c(out, (char)*p);
    }
    g_string_append_c(out, '"');
}

void pms_json_hex(GString *out, guint64 v)
{
    g_string_append_printf(out, "\"0x%" G_GINT64_MODIFIER "x\"", v);
}
