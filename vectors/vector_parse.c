/* pmusim — parser of encoding vector files (docs/vectors-format.md).
 *
 * One vector per line:
 *     STRING RET CODES [fstr STRING] src SOURCE...
 * STRING is one or more pieces, each a double-quoted string with C-like
 * escapes, optionally preceded by a repeat count "N*", concatenated.  The
 * format has to carry arbitrary bytes and 10 kB strings in a file that stays
 * readable and diffable, which neither GKeyFile nor GScanner (no \xHH, no
 * repetition) can do, hence this small line lexer. */
#include "vector_internal.h"

#include <string.h>

struct PmsVectorSet {
    GPtrArray *vectors; /* PmsVector* */
};

G_DEFINE_QUARK(pms - vector - error - quark, pms_vector_error)

void pms_vector_free_one(gpointer p)
{
    PmsVector *v = p;
    if (!v)
        return;
    g_free(v->pmu);
    g_free(v->file);
    g_free(v->event);
    g_free(v->ret);
    g_free(v->fstr);
    g_free(v->source);
    if (v->payload && v->payload_free)
        v->payload_free(v->payload);
    g_free(v);
}

PmsVectorSet *pms_vector_set_new(void)
{
    PmsVectorSet *set = g_new0(PmsVectorSet, 1);
    set->vectors = g_ptr_array_new_with_free_func(pms_vector_free_one);
    return set;
}

void pms_vector_set_free(PmsVectorSet *set)
{
    if (!set)
        return;
    g_ptr_array_unref(set->vectors);
    g_free(set);
}

void pms_vector_set_take(PmsVectorSet *dst, PmsVectorSet *src)
{
    for (guint i = 0; i < src->vectors->len; i++)
        g_ptr_array_add(dst->vectors, g_steal_pointer(&g_ptr_array_index(src->vectors, i)));
    g_ptr_array_set_size(src->vectors, 0);
}

void pms_vector_set_steal_all(PmsVectorSet *set, GPtrArray *out)
{
    for (guint i = 0; i < set->vectors->len; i++)
        g_ptr_array_add(out, g_steal_pointer(&g_ptr_array_index(set->vectors, i)));
    g_ptr_array_set_size(set->vectors, 0);
}

guint pms_vector_set_count(const PmsVectorSet *set)
{
    return set->vectors->len;
}

const PmsVector *pms_vector_set_nth(const PmsVectorSet *set, guint i)
{
    return i < set->vectors->len ? g_ptr_array_index(set->vectors, i) : NULL;
}

gboolean pms_vector_kind_for_name(const char *name, PmsVectorKind *kind)
{
    if (g_str_has_suffix(name, ".enc")) {
        *kind = PMS_VECTOR_ENCODE;
        return TRUE;
    }
    if (g_str_has_suffix(name, ".sim")) {
        *kind = PMS_VECTOR_SIM;
        return TRUE;
    }
    return FALSE;
}

const char *pms_vector_kind_name(PmsVectorKind kind)
{
    return kind == PMS_VECTOR_SIM ? "sim" : "encode";
}

/* ---- lexing one line ---- */

/* The lexer is shared with vector_sim.c (vector_internal.h). */
gboolean pms_vlex_fail(PmsVecLexer *lx, GError **error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(error, PMS_VECTOR_ERROR, PMS_VECTOR_ERROR_PARSE, "%s:%u: column %zu: %s", lx->file, lx->line,
                lx->pos + 1, msg);
    return FALSE;
}

void pms_vlex_skip_blanks(PmsVecLexer *lx)
{
    while (lx->pos < lx->len && (lx->s[lx->pos] == ' ' || lx->s[lx->pos] == '\t'))
        lx->pos++;
}

static gboolean at_end(const PmsVecLexer *lx)
{
    return lx->pos >= lx->len;
}

gboolean pms_vlex_next_line(PmsVecLines *it, PmsVecLexer *lx, const char *nul_hint, GError **error)
{
    /* A BOM would otherwise be the first word's bytes ("\xef\xbb\xbfpmu" is
     * no keyword): say what it is, as the model and stimulus readers do. */
    if (it->off == 0 && it->line == 0 && *pms_text_bom_message(it->data, it->len)) {
        *lx = (PmsVecLexer){ .file = it->file, .line = ++it->line, .s = it->data, .len = MIN(it->len, 3) };
        it->off = it->len;
        it->failed = TRUE;
        return pms_vlex_fail(lx, error, "%s", pms_text_bom_message(it->data, it->len));
    }
    while (it->off < it->len) {
        const char *s = it->data + it->off;
        const char *nl = memchr(s, '\n', it->len - it->off);
        gsize line_len = nl ? (gsize)(nl - s) : it->len - it->off;
        it->off += line_len + (nl ? 1 : 0);
        /* A CRLF line end is a line end (as in a stimulus): the CR is not
         * part of the last word ("end\r" is 'end') nor of src. */
        if (line_len > 0 && s[line_len - 1] == '\r')
            line_len--;
        *lx = (PmsVecLexer){ .file = it->file, .line = ++it->line, .s = s, .len = line_len };
        const char *nul = memchr(s, '\0', line_len);
        if (nul) {
            lx->pos = (gsize)(nul - s);
            it->failed = TRUE;
            return pms_vlex_fail(lx, error, "NUL byte in a vector file%s", nul_hint);
        }
        pms_vlex_skip_blanks(lx);
        if (!(at_end(lx) || lx->s[lx->pos] == '#' || (lx->s[lx->pos] == '\r' && lx->pos + 1 == lx->len)))
            return TRUE;
    }
    return FALSE;
}

/* A bare word: letters, digits, '_', ',', 'x' ... up to a blank. */
char *pms_vlex_word(PmsVecLexer *lx)
{
    gsize start = lx->pos;
    while (lx->pos < lx->len && lx->s[lx->pos] != ' ' && lx->s[lx->pos] != '\t')
        lx->pos++;
    return g_strndup(lx->s + start, lx->pos - start);
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* One quoted piece "..." appended `repeat` times to out. */
static gboolean lex_quoted(PmsVecLexer *lx, guint64 repeat, GString *out, GError **error)
{
    g_autoptr(GString) piece = g_string_new(NULL);
    lx->pos++; /* opening quote */
    for (;;) {
        if (at_end(lx))
            return pms_vlex_fail(lx, error, "unterminated string: expected a closing '\"'");
        char c = lx->s[lx->pos];
        if (c == '"') {
            lx->pos++;
            break;
        }
        if (c != '\\') {
            g_string_append_c(piece, c);
            lx->pos++;
            continue;
        }
        if (lx->pos + 1 >= lx->len)
            return pms_vlex_fail(lx, error, "'\\' at the end of the line: expected an escape");
        char e = lx->s[lx->pos + 1];
        switch (e) {
        case '\\':
            g_string_append_c(piece, '\\');
            lx->pos += 2;
            break;
        case '"':
            g_string_append_c(piece, '"');
            lx->pos += 2;
            break;
        case 't':
            g_string_append_c(piece, '\t');
            lx->pos += 2;
            break;
        case 'r':
            g_string_append_c(piece, '\r');
            lx->pos += 2;
            break;
        case 'x': {
            int hi = lx->pos + 2 < lx->len ? hex_digit(lx->s[lx->pos + 2]) : -1;
            int lo = lx->pos + 3 < lx->len ? hex_digit(lx->s[lx->pos + 3]) : -1;
            if (hi < 0 || lo < 0)
                return pms_vlex_fail(lx, error, "'\\x' must be followed by two hex digits");
            if (hi == 0 && lo == 0)
                return pms_vlex_fail(lx, error, "'\\x00' cannot be part of an event string (C strings end at NUL)");
            if (hi * 16 + lo == '\n')
                return pms_vlex_fail(lx, error,
                                     "'\\x0a' cannot be part of an event string (the batch protocol is line based)");
            g_string_append_c(piece, (char)(hi * 16 + lo));
            lx->pos += 4;
            break;
        }
        default:
            lx->pos++;
            return pms_vlex_fail(lx, error, "unknown escape '\\%c': expected one of \\\\ \\\" \\t \\r \\xHH",
                                 g_ascii_isprint(e) ? e : '?');
        }
    }
    if (repeat && piece->len > PMS_VECTOR_MAX_EVENT / repeat)
        return pms_vlex_fail(lx, error, "string longer than %u bytes after repetition", PMS_VECTOR_MAX_EVENT);
    for (guint64 i = 0; i < repeat; i++) {
        g_string_append_len(out, piece->str, (gssize)piece->len);
        if (out->len > PMS_VECTOR_MAX_EVENT)
            return pms_vlex_fail(lx, error, "string longer than %u bytes after repetition", PMS_VECTOR_MAX_EVENT);
    }
    return TRUE;
}

/* STRING: one or more pieces ["N*"]"..." separated by blanks. */
gboolean pms_vlex_string(PmsVecLexer *lx, const char *what, GString *out, GError **error)
{
    guint pieces = 0;
    for (;;) {
        pms_vlex_skip_blanks(lx);
        if (at_end(lx))
            break;
        char c = lx->s[lx->pos];
        guint64 repeat = 1;
        if (g_ascii_isdigit(c)) {
            gsize start = lx->pos;
            while (lx->pos < lx->len && g_ascii_isdigit(lx->s[lx->pos]))
                lx->pos++;
            g_autofree char *num = g_strndup(lx->s + start, lx->pos - start);
            if (lx->pos >= lx->len || lx->s[lx->pos] != '*') {
                lx->pos = start;
                return pms_vlex_fail(lx, error, "expected N*\"...\" (a repeat count, '*' and a quoted string)");
            }
            lx->pos++;
            if (!g_ascii_string_to_unsigned(num, 10, 1, PMS_VECTOR_MAX_EVENT, &repeat, NULL)) {
                lx->pos = start;
                return pms_vlex_fail(lx, error, "repeat count '%s' must be in 1..%u", num, PMS_VECTOR_MAX_EVENT);
            }
            if (at_end(lx) || lx->s[lx->pos] != '"')
                return pms_vlex_fail(lx, error, "expected '\"' after '%s*'", num);
        } else if (c != '"') {
            break;
        }
        if (!lex_quoted(lx, repeat, out, error))
            return FALSE;
        pieces++;
    }
    if (pieces == 0)
        return pms_vlex_fail(lx, error, "expected %s as a quoted string (\"...\")", what);
    return TRUE;
}

static gboolean valid_ret(const char *ret)
{
    if (strcmp(ret, "PFM_SUCCESS") == 0 || strcmp(ret, "BACKEND_CRASH") == 0)
        return TRUE;
    if (!g_str_has_prefix(ret, "PFM_ERR_") || ret[8] == '\0')
        return FALSE;
    for (const char *p = ret + 8; *p; p++)
        if (!g_ascii_isupper(*p) && *p != '_')
            return FALSE;
    return TRUE;
}

static gboolean parse_codes(PmsVecLexer *lx, PmsVector *v, GError **error)
{
    gsize start = lx->pos;
    g_autofree char *word = pms_vlex_word(lx);
    if (strcmp(word, "-") == 0)
        return TRUE;
    g_auto(GStrv) parts = g_strsplit(word, ",", -1);
    for (guint i = 0; parts[i]; i++) {
        const char *p = parts[i];
        if (i >= PMS_VECTOR_MAX_CODES) {
            lx->pos = start;
            return pms_vlex_fail(lx, error, "more than %u codes", PMS_VECTOR_MAX_CODES);
        }
        if (!g_str_has_prefix(p, "0x") || !g_ascii_string_to_unsigned(p + 2, 16, 0, G_MAXUINT64, &v->codes[i], NULL)) {
            lx->pos = start;
            return pms_vlex_fail(lx, error,
                                 "code '%s': expected 0x followed by hex digits (codes are "
                                 "comma separated, or '-' for none)",
                                 p);
        }
        v->n_codes = i + 1;
    }
    return TRUE;
}

/* Parse one non-blank, non-comment line into v. */
static gboolean parse_line(PmsVecLexer *lx, PmsVector *v, GError **error)
{
    g_autoptr(GString) ev = g_string_new(NULL);
    if (!pms_vlex_string(lx, "the event string", ev, error))
        return FALSE;
    v->event_len = ev->len;
    v->event = g_string_free(g_steal_pointer(&ev), FALSE);

    pms_vlex_skip_blanks(lx);
    if (at_end(lx))
        return pms_vlex_fail(lx, error, "expected RET (PFM_SUCCESS, PFM_ERR_... or BACKEND_CRASH)");
    gsize ret_pos = lx->pos;
    v->ret = pms_vlex_word(lx);
    if (!valid_ret(v->ret)) {
        lx->pos = ret_pos;
        return pms_vlex_fail(lx, error, "RET '%s': expected PFM_SUCCESS, PFM_ERR_<NAME> or BACKEND_CRASH", v->ret);
    }

    pms_vlex_skip_blanks(lx);
    if (at_end(lx))
        return pms_vlex_fail(lx, error, "expected CODES (0x..,0x.. or '-')");
    gsize codes_pos = lx->pos;
    if (!parse_codes(lx, v, error))
        return FALSE;
    gboolean success = strcmp(v->ret, "PFM_SUCCESS") == 0;
    if (success && v->n_codes == 0) {
        lx->pos = codes_pos;
        return pms_vlex_fail(lx, error, "PFM_SUCCESS needs at least one code");
    }
    if (!success && v->n_codes > 0) {
        lx->pos = codes_pos;
        return pms_vlex_fail(lx, error, "an error vector has no codes: expected '-'");
    }

    pms_vlex_skip_blanks(lx);
    gsize kw_pos = lx->pos;
    g_autofree char *kw = pms_vlex_word(lx);
    if (strcmp(kw, "fstr") == 0) {
        if (!success) {
            lx->pos = kw_pos;
            return pms_vlex_fail(lx, error, "an error vector has no fstr");
        }
        g_autoptr(GString) f = g_string_new(NULL);
        if (!pms_vlex_string(lx, "the expected fstr", f, error))
            return FALSE;
        v->fstr = g_string_free(g_steal_pointer(&f), FALSE);
        pms_vlex_skip_blanks(lx);
        kw_pos = lx->pos;
        g_free(kw);
        kw = pms_vlex_word(lx);
    }
    if (strcmp(kw, "src") != 0) {
        lx->pos = kw_pos;
        return pms_vlex_fail(lx, error, "expected 'src' followed by where the expectation comes from%s",
                             v->fstr ? "" : " (or 'fstr \"...\"' first)");
    }
    pms_vlex_skip_blanks(lx);
    gsize src_end = lx->len;
    while (src_end > lx->pos && g_ascii_isspace(lx->s[src_end - 1]))
        src_end--;
    if (src_end == lx->pos)
        return pms_vlex_fail(lx, error, "empty source: say where the expected value comes from");
    v->source = g_strndup(lx->s + lx->pos, src_end - lx->pos);
    return TRUE;
}

gboolean pms_vector_enc_parse_each(PmsVectorKind kind, const char *data, gsize len, const char *file, const char *pmu,
                                   PmsVecEachFunc each, gpointer user_data, GError **error)
{
    PmsVecLines it = { .file = file, .data = data, .len = len };
    PmsVecLexer lx;
    while (pms_vlex_next_line(&it, &lx, " (write \\xHH escapes instead)", error)) {
        PmsVector *v = g_new0(PmsVector, 1);
        v->kind = kind;
        v->pmu = g_strdup(pmu);
        v->file = g_strdup(file);
        v->line = lx.line;
        if (!parse_line(&lx, v, error)) {
            pms_vector_free_one(v);
            return FALSE;
        }
        if (!each(v, user_data, error))
            return FALSE;
    }
    return !it.failed;
}

static gboolean add_parsed(PmsVector *v, gpointer parsed, GError **error)
{
    (void)error;
    g_ptr_array_add(parsed, v);
    return TRUE;
}

gboolean pms_vector_set_parse(PmsVectorSet *set, PmsVectorKind kind, const char *data, gsize len, const char *file,
                              const char *pmu, GError **error)
{
    g_autoptr(GPtrArray) parsed = g_ptr_array_new_with_free_func(pms_vector_free_one);
    gboolean ok = kind == PMS_VECTOR_SIM
        ? pms_vector_sim_parse(parsed, data, len, file, pmu, error)
        : pms_vector_enc_parse_each(kind, data, len, file, pmu, add_parsed, parsed, error);
    /* A file with an error adds no vector. */
    if (ok)
        g_ptr_array_extend_and_steal(set->vectors, g_steal_pointer(&parsed));
    return ok;
}
