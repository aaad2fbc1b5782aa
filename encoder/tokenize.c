/* pmusim encoder — tokenizer: syntax only, no model.
 *
 *   [PMU::]EVENT[:ATTR]...      ATTR = NAME | NAME=VALUE
 *
 * As libpfm4 does, '.' separates attributes like ':' (perf-style
 * "INST_RETIRED.ANY_P"), and a space or tab anywhere makes the whole string
 * malformed (PFM_ERR_INVAL).  Empty attributes ("EV:", "EV::u") are kept as
 * empty tokens: the resolver reports them as unknown attributes, which is
 * libpfm4's class for them. */
#include <string.h>
#include "enc_internal.h"

static gboolean
is_sep(char c)
{
    return c == ':' || c == '.';
}

gboolean
pms_tokenize(const char *str, PmsTokens *t, GError **error)
{
    t->str = str;
    t->has_pmu = FALSE;
    t->pmu_len = 0;
    t->n_attrs = 0;
    t->too_many = FALSE;

    /* libc's vectorised scans beat a byte loop here */
    gsize len = strlen(str);
    t->len = len;
    if (len > G_MAXINT / 2) {
        pms_enc_fail(error, PMS_ERR_INVAL, 0, "event string too long (%" G_GSIZE_FORMAT " bytes)", len);
        return FALSE;
    }
    const char *bad = strpbrk(str, " \t,");
    if (bad) {
        pms_enc_fail(error, PMS_ERR_INVAL, (guint)(bad - str) + 1,
                     *bad == ',' ? "',' separates events; encode one event per string"
                                 : "blank inside the event string (write PMU::EVENT:UMASK:mod=val without spaces)");
        return FALSE;
    }
    const char *dcp = strstr(str, "::");
    gsize pos, dc = dcp ? (gsize)(dcp - str) : G_MAXSIZE;

    /* "pmu::" is the first "::"; anything before it is the PMU name. */
    pos = 0;
    if (dc != G_MAXSIZE) {
        t->has_pmu = TRUE;
        t->pmu_len = (guint)dc;
        pos = dc + 2;
    }
    /* Event name: up to the first separator.  After "pmu::" a further ':' is
     * part of nothing valid; libpfm4 then fails to find the event. */
    gsize ev = pos;
    while (pos < len && !is_sep(str[pos]))
        pos++;
    t->ev_off = (guint)ev;
    t->ev_len = (guint)(pos - ev);

    while (pos < len) {
        pos++;                      /* the separator */
        gsize start = pos;
        gint eq = -1;
        while (pos < len && !is_sep(str[pos])) {
            if (str[pos] == '=' && eq < 0)
                eq = (gint)(pos - start);
            pos++;
        }
        if (t->n_attrs == PMS_ENC_MAX_ATTRS + 1) {
            t->too_many = TRUE;     /* counted, not stored: the resolver stops at the 65th */
            continue;
        }
        PmsTok *a = &t->attrs[t->n_attrs++];
        a->off = (guint)start;
        a->len = (guint)(pos - start);
        a->eq = eq;
        if (t->n_attrs > PMS_ENC_MAX_ATTRS)
            t->too_many = TRUE;
    }
    return TRUE;
}
