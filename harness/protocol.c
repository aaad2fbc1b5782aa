/* pmusim — batch protocol framing: formatting answers and checking a foreign
 * backend's answers.  A strict parser on purpose: anything that is not exactly
 * an answer to the line we sent is treated as a crash of that backend, so one
 * confused program cannot shift every later answer by a line. */
#include "protocol.h"

#include <string.h>

char *pms_proto_put_hex(char *d, guint64 v)
{
    static const char digits[] = "0123456789abcdef";
    /* nibbles below the highest set one (v | 1: "0x0" for zero) */
    guint n = (67 - (guint)__builtin_clzll(v | 1)) / 4;
    d[0] = '0';
    d[1] = 'x';
    for (guint i = n; i > 0; i--, v >>= 4)
        d[1 + i] = digits[v & 15];
    return d + 2 + n;
}

void pms_proto_format_codes(GString *out, const guint64 *codes, guint n)
{
    char buf[PMS_BACKEND_MAX_CODES * (PMS_PROTO_HEX_MAX + 1)];
    char *d = buf;
    for (guint i = 0; i < MIN(n, PMS_BACKEND_MAX_CODES); i++) {
        if (i)
            *d++ = ',';
        d = pms_proto_put_hex(d, codes[i]);
    }
    g_string_append_len(out, buf, d - buf);
}

void pms_proto_format(GString *out, const char *line, gsize len, const PmsBackendResult *r)
{
    g_string_append_len(out, line, (gssize)len);
    g_string_append_c(out, '\t');
    g_string_append(out, r->ret);
    char count[16];
    g_string_append_len(out, count, g_snprintf(count, sizeof count, "\t%u\t", r->n_codes));
    pms_proto_format_codes(out, r->codes, r->n_codes);
    g_string_append_c(out, '\t');
    if (r->fstr)
        g_string_append(out, r->fstr);
    if (r->regs && r->regs[0]) {
        g_string_append_c(out, '\t');
        g_string_append(out, r->regs);
    }
    g_string_append_c(out, '\n');
}

void pms_backend_result_clear(PmsBackendResult *r)
{
    g_free(r->fstr);
    g_free(r->regs);
    memset(r, 0, sizeof *r);
}

void pms_result_set_ret(PmsBackendResult *r, const char *ret)
{
    g_strlcpy(r->ret, ret, sizeof r->ret);
    r->n_codes = 0;
    g_free(r->fstr);
    r->fstr = g_strdup("");
    g_free(r->regs);
    r->regs = NULL;
}

static gboolean valid_ret(const char *s)
{
    if (!*s || strlen(s) >= sizeof ((PmsBackendResult *)0)->ret)
        return FALSE;
    for (; *s; s++)
        if (!g_ascii_isupper(*s) && !g_ascii_isdigit(*s) && *s != '_')
            return FALSE;
    return TRUE;
}

/* "0x" + lowercase hex, no leading zeros (a lone "0x0" allowed). */
static gboolean parse_code(const char *s, guint64 *v)
{
    if (s[0] != '0' || s[1] != 'x' || !s[2] || strlen(s + 2) > 16)
        return FALSE;
    if (s[2] == '0' && s[3])
        return FALSE;
    for (const char *p = s + 2; *p; p++)
        if (!g_ascii_isdigit(*p) && !(*p >= 'a' && *p <= 'f'))
            return FALSE;
    *v = g_ascii_strtoull(s + 2, NULL, 16);
    return TRUE;
}

gboolean pms_proto_parse_answer(const char *line, const char *answer, PmsBackendResult *r)
{
    gsize ll = strlen(line);
    /* The EVENT field may itself contain TABs: match it as a prefix. */
    if (strncmp(answer, line, ll) != 0 || answer[ll] != '\t')
        return FALSE;
    g_auto(GStrv) f = g_strsplit(answer + ll + 1, "\t", 0);
    guint nf = g_strv_length(f);
    if (nf != 4 && nf != 5)
        return FALSE;
    if (!valid_ret(f[0]))
        return FALSE;
    guint64 count;
    if (!g_ascii_string_to_unsigned(f[1], 10, 0, PMS_BACKEND_MAX_CODES, &count, NULL))
        return FALSE;
    guint64 codes[PMS_BACKEND_MAX_CODES];
    if (count == 0) {
        if (f[2][0])
            return FALSE;
    } else {
        g_auto(GStrv) c = g_strsplit(f[2], ",", 0);
        if (g_strv_length(c) != count)
            return FALSE;
        for (guint i = 0; i < count; i++)
            if (!parse_code(c[i], &codes[i]))
                return FALSE;
    }
    pms_result_set_ret(r, f[0]);
    r->n_codes = (guint)count;
    memcpy(r->codes, codes, count * sizeof codes[0]);
    g_free(r->fstr);
    r->fstr = g_strdup(f[3]);
    if (nf == 5)
        r->regs = g_strdup(f[4]);
    return TRUE;
}

gboolean pms_result_same_codes(const PmsBackendResult *a, const PmsBackendResult *b)
{
    if (strcmp(a->ret, b->ret) != 0 || a->n_codes != b->n_codes)
        return FALSE;
    return memcmp(a->codes, b->codes, a->n_codes * sizeof a->codes[0]) == 0;
}
