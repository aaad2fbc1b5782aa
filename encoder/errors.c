/* pmusim encoder — error domain, libpfm4 class names, messages with a column. */
#include <stdarg.h>
#include <string.h>
#include "enc_internal.h"

G_DEFINE_QUARK(pms - encode - error - quark, pms_encode_error)

const char *pms_encode_error_name(int code)
{
    /* Same names as libpfm4's PFM_ERR_* so the batch protocol can print them. */
    switch (code) {
    case 0:
        return "PFM_SUCCESS";
    case PMS_ERR_NOTFOUND:
        return "PFM_ERR_NOTFOUND";
    case PMS_ERR_UMASK:
        return "PFM_ERR_UMASK";
    case PMS_ERR_ATTR:
        return "PFM_ERR_ATTR";
    case PMS_ERR_ATTR_VAL:
        return "PFM_ERR_ATTR_VAL";
    case PMS_ERR_ATTR_SET:
        return "PFM_ERR_ATTR_SET";
    case PMS_ERR_INVAL:
        return "PFM_ERR_INVAL";
    case PMS_ERR_NOTSUPP:
        return "PFM_ERR_NOTSUPP";
    case PMS_ERR_FEATCOMB:
        return "PFM_ERR_FEATCOMB";
    case PMS_ERR_TOOSMALL:
        return "PFM_ERR_TOOSMALL";
    case PMS_ERR_TOOMANY:
        return "PFM_ERR_TOOMANY";
    default:
        return "PFM_ERR_INVAL";
    }
}

_Thread_local PmsEncQuiet pms_enc_quiet;

gboolean pms_enc_fail_fmt(GError **error, PmsEncodeError code, guint col, const char *fmt, ...)
{
    if (pms_enc_no_message(error, code, col))
        return FALSE;
    pms_enc_quiet.formatted++;
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    if (col)
        g_set_error(error, PMS_ENCODE_ERROR, code, "column %u: %s", col, msg);
    else
        g_set_error_literal(error, PMS_ENCODE_ERROR, code, msg);
    return FALSE;
}

/* Messages echo user bytes; keep them short and plain ASCII so a hostile
 * string (10 kB, control bytes, invalid UTF-8) cannot flood or corrupt them. */
#define QUOTE_BYTES 40

void pms_enc_quote(GString *s, const char *p, gsize len)
{
    gsize n = MIN(len, QUOTE_BYTES);
    for (gsize i = 0; i < n; i++) {
        guchar c = (guchar)p[i];
        if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'')
            g_string_append_c(s, (char)c);
        else
            g_string_append_printf(s, "\\x%02x", c);
    }
    if (len > n)
        g_string_append_printf(s, "...(%" G_GSIZE_FORMAT " bytes)", len);
}

const char *pms_enc_quote_buf(char *buf, const char *p, gsize len)
{
    /* 40 bytes at 4 each + the length suffix fits PMS_ENC_QUOTE_MAX. */
    gsize o = 0, n = MIN(len, QUOTE_BYTES);
    for (gsize i = 0; i < n; i++) {
        guchar c = (guchar)p[i];
        if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'')
            buf[o++] = (char)c;
        else
            o += (gsize)g_snprintf(buf + o, PMS_ENC_QUOTE_MAX - o, "\\x%02x", c);
    }
    if (len > n)
        o += (gsize)g_snprintf(buf + o, PMS_ENC_QUOTE_MAX - o, "...(%" G_GSIZE_FORMAT " bytes)", len);
    buf[o] = '\0';
    return buf;
}

gboolean pms_enc_name(char *buf, const char *p, gsize len)
{
    if (len >= PMS_ENC_NAME_MAX)
        return FALSE;
    memcpy(buf, p, len);
    buf[len] = '\0';
    return TRUE;
}

void pms_append_umask_names(GString *s, const PmsEvent *ev, PmsUmaskSet mask)
{
    guint n = 0;
    for (guint i = 0; i < ev->n_umasks && i < PMS_ENC_MAX_UMASKS; i++) {
        if (!pms_uset_has(mask, i))
            continue;
        if (n == 8) {
            g_string_append(s, ", ...");
            break;
        }
        g_string_append_printf(s, "%s%s", n++ ? ", " : "", ev->umasks[i].name);
    }
}

gboolean pms_rules_supported(const PmsResolved *r, GError **error)
{
    if (!r->pe->unsupported)
        return TRUE;
    pms_enc_fail(error, PMS_ERR_NOTSUPP, r->tok->ev_off + 1,
                 "event %s has more unit masks or groups than the encoder handles", r->event->name);
    return FALSE;
}

gboolean pms_rules_uncore_plm(const PmsResolved *r, GError **error)
{
    if (r->plm == PMS_PLM_DEFAULT)
        return TRUE;
    pms_enc_fail(error, PMS_ERR_INVAL, 0,
                 "privilege mask 0x%x refused for uncore PMU %s: uncore events count at all privilege levels "
                 "(no privilege filter) and need PLM0|PLM3 (0x9)",
                 r->plm, r->model->name);
    return FALSE;
}

gboolean pms_rules_evtsel_mods(const PmsResolved *r, PmsRuleOut *out, GError **error)
{
    const PmsPrepared *p = r->prep;
    pms_zero_mod_vals(out->mod_val);
    for (guint32 ms = r->mod_set; ms; ms &= ms - 1) {
        guint j = pms_lsb(ms);
        const PmsModifier *mod = p->mods[j].mod;
        if (!pms_mod_in_range(mod, r->mod_val[j])) {
            pms_enc_mod_range_fail(error, PMS_ERR_ATTR_VAL, r, j, mod);
            return FALSE;
        }
        if (!p->mods[j].in_evtsel || !p->mods[j].field) {
            pms_enc_fail(error, PMS_ERR_NOTSUPP, r->mod_col[j], "modifier '%s' has no field in the event select of %s",
                         mod->name, r->model->name);
            return FALSE;
        }
        out->mod_val[j] = r->mod_val[j];
    }
    return TRUE;
}

void pms_rules_out_single(const PmsResolved *r, PmsRuleOut *out, PmsUmaskSet sel, guint64 code)
{
    out->selected = sel;
    out->printed = sel;
    /* every modifier printed; the template's digits are all 0 */
    pms_rule_out_print(r->pe, out, r->mod_set, r->mod_set ? r->pe->allowed_mods : 0);
    out->n_codes = 1;
    out->codes[0] = code;
}

guint pms_umask_col(const PmsResolved *r, PmsUmaskSet set, gboolean last)
{
    guint col = 0;
    while (!pms_uset_empty(set)) {
        guint c = r->umask_col[pms_uset_pop(&set)];
        if (!col || (last ? c > col : c < col))
            col = c;
    }
    return col;
}

const char *pms_umask_at_col(const PmsResolved *r, PmsUmaskSet set, guint col)
{
    while (!pms_uset_empty(set)) {
        guint i = pms_uset_pop(&set);
        if (r->umask_col[i] == col)
            return r->event->umasks[i].name;
    }
    return "?";
}

void pms_enc_mod_range_fail_fmt(GError **error, PmsEncodeError code, const PmsResolved *r, guint j,
                                const PmsModifier *mod)
{
    guint col = r->mod_vcol[j];
    if (pms_enc_no_message(error, code, col))
        return;
    const char *v = col > 0 && col <= r->tok->len ? r->tok->str + col - 1 : "";
    if (*v == '-') {
        char q[PMS_ENC_QUOTE_MAX];
        pms_enc_fail(error, code, col,
                     "value '%s' for modifier '%s' is negative: expected %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT,
                     pms_enc_quote_buf(q, v, strcspn(v, ":")), mod->name, mod->min, mod->max);
        return;
    }
    pms_enc_fail(error, code, col,
                 "value %" G_GUINT64_FORMAT " for modifier '%s' out of range %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT,
                 r->mod_val[j], mod->name, mod->min, mod->max);
}
