/* pmusim — batch protocol framing: formatting answers and checking a foreign
 * backend's answers.  A strict parser on purpose: anything that is not exactly
 * an answer to the line we sent is treated as a crash of that backend, so one
 * confused program cannot shift every later answer by a line. */
#include "protocol.h"

#include <string.h>

/* "00" .. "ff": two digits a step (a line's codes and register values are
 * a fifth of its formatting when written a nibble at a time) */
static const char hex_pairs[513] = "000102030405060708090a0b0c0d0e0f"
                                   "101112131415161718191a1b1c1d1e1f"
                                   "202122232425262728292a2b2c2d2e2f"
                                   "303132333435363738393a3b3c3d3e3f"
                                   "404142434445464748494a4b4c4d4e4f"
                                   "505152535455565758595a5b5c5d5e5f"
                                   "606162636465666768696a6b6c6d6e6f"
                                   "707172737475767778797a7b7c7d7e7f"
                                   "808182838485868788898a8b8c8d8e8f"
                                   "909192939495969798999a9b9c9d9e9f"
                                   "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"
                                   "b0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
                                   "c0c1c2c3c4c5c6c7c8c9cacbcccdcecf"
                                   "d0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
                                   "e0e1e2e3e4e5e6e7e8e9eaebecedeeef"
                                   "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

char *pms_proto_put_hex(char *d, guint64 v)
{
    /* nibbles below the highest set one (v | 1: "0x0" for zero) */
    guint n = (67 - (guint)__builtin_clzll(v | 1)) / 4;
    d[0] = '0';
    d[1] = 'x';
    char *end = d + 2 + n, *p = end;
    for (; v >= 0x100; v >>= 8) {
        p -= 2;
        memcpy(p, hex_pairs + 2 * (v & 0xff), 2);
    }
    if (v >= 0x10)
        memcpy(p - 2, hex_pairs + 2 * v, 2);
    else
        p[-1] = hex_pairs[2 * v + 1];
    return end;
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

/* The RETs a foreign backend may answer: libpfm4's error names (4.13's
 * pfm_strerror table) and BACKEND_CRASH from a backend that drives another. */
static gboolean known_ret(const char *s)
{
    static const char *const names[] = {
        "PFM_SUCCESS",      "PFM_ERR_NOTSUPP", "PFM_ERR_INVAL",    "PFM_ERR_NOINIT", "PFM_ERR_NOTFOUND",
        "PFM_ERR_FEATCOMB", "PFM_ERR_UMASK",   "PFM_ERR_NOMEM",    "PFM_ERR_ATTR",   "PFM_ERR_ATTR_VAL",
        "PFM_ERR_ATTR_SET", "PFM_ERR_TOOMANY", "PFM_ERR_TOOSMALL", "BACKEND_CRASH",
    };
    for (gsize i = 0; i < G_N_ELEMENTS(names); i++)
        if (strcmp(s, names[i]) == 0)
            return TRUE;
    return FALSE;
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

G_DEFINE_QUARK(pms - proto - error - quark, pms_proto_error)
#define BAD(...) (g_set_error(error, pms_proto_error_quark(), 0, __VA_ARGS__), FALSE)

/* REGS: NAME=0xVALUE pairs, comma separated; NAME spelled as a model's
 * register name (letters, digits, '_', '-', '.'), VALUE as a CODES item.
 * The simulator reads them back by name: a pair without '=' or with a value
 * in another form would be dropped or misread there. */
static gboolean regs_ok(const char *regs, GError **error)
{
    if (!regs[0])
        return TRUE; /* no pairs: the same as no REGS field */
    g_auto(GStrv) pairs = g_strsplit(regs, ",", 0);
    for (guint i = 0; pairs[i]; i++) {
        const char *eq = strchr(pairs[i], '=');
        gsize n = eq ? (gsize)(eq - pairs[i]) : 0;
        gboolean name_ok = n > 0;
        for (gsize k = 0; k < n; k++)
            name_ok = name_ok && (g_ascii_isalnum(pairs[i][k]) || strchr("_-.", pairs[i][k]));
        guint64 v;
        if (!name_ok || !parse_code(eq + 1, &v))
            return BAD("REGS item %u '%.40s' is not NAME=0xVALUE (a register name, '=', 0x + lowercase hex without "
                       "leading zeros)",
                       i + 1, pairs[i]);
    }
    return TRUE;
}

gboolean pms_proto_check_answer(const char *line, const char *answer, PmsBackendResult *r, GError **error)
{
    gsize ll = strlen(line);
    /* The EVENT field may itself contain TABs: match it as a prefix. */
    if (strncmp(answer, line, ll) != 0 || answer[ll] != '\t')
        return BAD("the answer does not start with the request line and a TAB");
    /* Past the echo every byte is ours to judge: a CR (a CRLF line end) or
     * another control character, DEL (0x7f) included, would end up in FSTR
     * or REGS (and in a terminal or a JSON report from there). */
    for (const char *p = answer + ll + 1; *p; p++)
        if (((guchar)*p < 0x20 && *p != '\t') || (guchar)*p == 0x7f)
            return BAD("control character 0x%02x after the EVENT field%s", (guchar)*p,
                       *p == '\r' ? " (a CRLF line end?)" : "");
    g_auto(GStrv) f = g_strsplit(answer + ll + 1, "\t", 0);
    guint nf = g_strv_length(f);
    if (nf != 4 && nf != 5)
        return BAD("%u fields after EVENT, expected RET, COUNT, CODES, FSTR and an optional REGS", nf);
    if (!known_ret(f[0]))
        return BAD("unknown RET '%.40s': expected PFM_SUCCESS, a libpfm4 error name or BACKEND_CRASH", f[0]);
    gboolean success = strcmp(f[0], "PFM_SUCCESS") == 0;
    guint64 count;
    if (!g_ascii_string_to_unsigned(f[1], 10, 0, PMS_BACKEND_MAX_CODES, &count, NULL))
        return BAD("COUNT '%.40s' is not a number from 0 to %d", f[1], PMS_BACKEND_MAX_CODES);
    if (success && count == 0)
        return BAD("PFM_SUCCESS with COUNT 0: a success carries at least one code");
    if (!success && (count != 0 || f[2][0] || f[3][0]))
        return BAD("%s carries codes or an FSTR: an error has COUNT 0 and empty CODES and FSTR", f[0]);
    guint64 codes[PMS_BACKEND_MAX_CODES];
    if (count == 0) {
        if (f[2][0])
            return BAD("CODES given with COUNT 0");
    } else {
        g_auto(GStrv) c = g_strsplit(f[2], ",", 0);
        if (g_strv_length(c) != count)
            return BAD("COUNT %u but %u values in CODES", (guint)count, g_strv_length(c));
        for (guint i = 0; i < count; i++)
            if (!parse_code(c[i], &codes[i]))
                return BAD("code '%.40s' is not 0x + lowercase hex without leading zeros", c[i]);
    }
    if (nf == 5 && !regs_ok(f[4], error))
        return FALSE;
    pms_result_set_ret(r, f[0]);
    r->n_codes = (guint)count;
    memcpy(r->codes, codes, count * sizeof codes[0]);
    g_free(r->fstr);
    r->fstr = g_strdup(f[3]);
    if (nf == 5)
        r->regs = g_strdup(f[4]);
    return TRUE;
}

gboolean pms_proto_parse_answer(const char *line, const char *answer, PmsBackendResult *r)
{
    return pms_proto_check_answer(line, answer, r, NULL);
}

gboolean pms_result_same_codes(const PmsBackendResult *a, const PmsBackendResult *b)
{
    if (strcmp(a->ret, b->ret) != 0 || a->n_codes != b->n_codes)
        return FALSE;
    return memcmp(a->codes, b->codes, a->n_codes * sizeof a->codes[0]) == 0;
}
