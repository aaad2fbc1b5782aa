/* pmusim encoder — tokenizer: syntax only, no model.
 *
 *   [PMU::]EVENT[:ATTR]...      ATTR = NAME | NAME=VALUE
 *
 * As libpfm4 does, '.' separates attributes like ':' (perf-style
 * "INST_RETIRED.ANY_P"), and a space or tab anywhere makes the whole string
 * malformed (PFM_ERR_INVAL).  Empty attributes ("EV:", "EV::u") are kept as
 * empty tokens: the resolver reports them as unknown attributes, which is
 * libpfm4's class for them.
 *
 * One pass over the bytes, which also writes the upper-cased copy the name
 * lookups read (PmsTokens.up); it runs for every encoding. */
#include <string.h>
#include "enc_internal.h"

enum { C_NAME, C_COLON, C_DOT, C_EQ, C_BAD, C_END };

/* What each byte means to the tokenizer; most are C_NAME. */
static const guint8 byte_class[256] = {
    [':'] = C_COLON, ['.'] = C_DOT, ['='] = C_EQ,
    [' '] = C_BAD, ['\t'] = C_BAD, [','] = C_BAD, ['\0'] = C_END,
};

static gboolean
fail_bad(const char *str, gsize at, GError **error)
{
    /* a string too long to index is reported as such, whatever it holds */
    gsize len = at + strlen(str + at);
    if (len > G_MAXINT / 2) {
        pms_enc_fail(error, PMS_ERR_INVAL, 0, "event string too long (%" G_GSIZE_FORMAT " bytes)", len);
        return FALSE;
    }
    pms_enc_fail(error, PMS_ERR_INVAL, (guint)at + 1,
                 str[at] == ',' ? "',' separates events; encode one event per string"
                                : "blank inside the event string (write PMU::EVENT:UMASK:mod=val without spaces)");
    return FALSE;
}

/* Store the token that ends at `end` (the event name, or an attribute). */
static inline void
end_token(PmsTokens *t, gboolean event, gsize start, gsize end, gint eq)
{
    if (event) {
        t->ev_off = (guint)start;
        t->ev_len = (guint)(end - start);
        return;
    }
    if (t->n_attrs == PMS_ENC_MAX_ATTRS + 1) {
        t->too_many = TRUE;     /* counted, not stored: the resolver stops at the 65th */
        return;
    }
    PmsTok *a = &t->attrs[t->n_attrs++];
    a->off = (guint)start;
    a->len = (guint)(end - start);
    a->eq = eq;
    if (t->n_attrs > PMS_ENC_MAX_ATTRS)
        t->too_many = TRUE;
}

/* Where the scan is: the token being read and what it is. */
typedef struct {
    gsize start;      /* of the token being read */
    gsize skip;       /* a ':' at this offset was taken as part of "::" */
    gint eq;          /* first '=' in it, -1 none */
    gboolean event;   /* it is the event name */
} Scan;

enum { S_MORE, S_END, S_BAD };

/* One byte that is not part of a name (k = its byte_class). */
static inline guint
special(PmsTokens *t, Scan *sc, const guchar *s, gsize i, guint k)
{
    if (k == C_EQ) {
        if (sc->eq < 0 && !sc->event)
            sc->eq = (gint)(i - sc->start);
        return S_MORE;
    }
    if (k == C_BAD)
        return S_BAD;
    if (k == C_COLON && !t->has_pmu && s[i + 1] == ':') {
        /* the first "::" ends the PMU name: whatever was read is the PMU */
        t->has_pmu = TRUE;
        t->pmu_len = (guint)i;
        t->n_attrs = 0;
        t->too_many = FALSE;
        sc->skip = i + 1;
        sc->start = i + 2;
        sc->event = TRUE;
        sc->eq = -1;
        return S_MORE;
    }
    if (i == sc->skip && i)
        return S_MORE;
    end_token(t, sc->event, sc->start, i, sc->eq);
    if (k == C_END)
        return S_END;
    sc->event = FALSE;
    sc->start = i + 1;
    sc->eq = -1;
    return S_MORE;
}

static inline char
upper(guchar c)
{
    return (char)(c - ((guint)(c - 'a') < 26u ? 0x20 : 0));
}

#ifdef __SSE2__
#include <emmintrin.h>

/* 16 bytes: upper-cased into up, and a bit per byte that is not a name byte
 * (separators, '=', blanks, ','). */
static inline guint
scan16(__m128i v, char *up)
{
    const __m128i lo = _mm_set1_epi8('a' - 1), hi = _mm_set1_epi8('z' + 1);
    /* signed compares: bytes >= 0x80 are negative, so never lower case */
    __m128i lower = _mm_and_si128(_mm_cmpgt_epi8(v, lo), _mm_cmplt_epi8(v, hi));
    _mm_storeu_si128((__m128i *)up, _mm_sub_epi8(v, _mm_and_si128(lower, _mm_set1_epi8(0x20))));
    __m128i sp = _mm_cmpeq_epi8(v, _mm_set1_epi8(':'));
    sp = _mm_or_si128(sp, _mm_cmpeq_epi8(v, _mm_set1_epi8('.')));
    sp = _mm_or_si128(sp, _mm_cmpeq_epi8(v, _mm_set1_epi8('=')));
    sp = _mm_or_si128(sp, _mm_cmpeq_epi8(v, _mm_set1_epi8(' ')));
    sp = _mm_or_si128(sp, _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')));
    sp = _mm_or_si128(sp, _mm_cmpeq_epi8(v, _mm_set1_epi8(',')));
    return (guint)_mm_movemask_epi8(sp);
}

/* The special bytes of one block, bit k = offset base + k. */
static inline guint
block_special(PmsTokens *t, Scan *sc, const guchar *s, gsize base, guint m, gsize *bad)
{
    for (; m; m &= m - 1) {
        gsize at = base + (guint)__builtin_ctz(m);
        if (special(t, sc, s, at, byte_class[s[at]]) == S_BAD) {
            *bad = at;
            return S_BAD;
        }
    }
    return S_MORE;
}

/* A string of len < PMS_ENC_FOLD_MAX bytes, 16 at a time; only the bytes
 * that end or split tokens are looked at one by one.  Never reads outside
 * str[0..len).  Returns the offset of a bad byte, or len. */
static gsize
scan_short(PmsTokens *t, Scan *sc, const guchar *s, gsize len)
{
    gsize i = 0, bad;
    for (; i + 16 <= len; i += 16)
        if (block_special(t, sc, s, i, scan16(_mm_loadu_si128((const __m128i *)(s + i)), t->up + i), &bad))
            return bad;
    if (i < len) {
        if (len >= 16) {
            /* the last 16 bytes, overlapping bytes already seen: drop their bits */
            gsize base = len - 16;
            guint m = scan16(_mm_loadu_si128((const __m128i *)(s + base)), t->up + base);
            if (block_special(t, sc, s, base, m & (~0u << (i - base)), &bad))
                return bad;
        } else {
            char tail[16] = { 0 };
            memcpy(tail, s, len);
            guint m = scan16(_mm_loadu_si128((const __m128i *)tail), t->up);
            if (block_special(t, sc, s, 0, m & ((1u << len) - 1), &bad))
                return bad;
        }
    }
    special(t, sc, s, len, C_END);
    return len;
}
#endif

gboolean
pms_tokenize_internal(const char *str, PmsTokens *t, GError **error)
{
    const guchar *s = (const guchar *)str;
    t->str = str;
    t->has_pmu = FALSE;
    t->pmu_len = 0;
    t->n_attrs = 0;
    t->too_many = FALSE;

    Scan sc = { 0, 0, -1, TRUE };
    gsize i = 0;
#ifdef __SSE2__
    gsize len = strlen(str);
    if (len < PMS_ENC_FOLD_MAX) {
        i = scan_short(t, &sc, s, len);
        if (i != len)
            return fail_bad(str, i, error);
    } else
#endif
    for (;; i++) {
        guchar c = s[i];
        if (i < PMS_ENC_FOLD_MAX)
            t->up[i] = upper(c);
        guint k = byte_class[c];
        if (G_LIKELY(k == C_NAME))
            continue;
        guint r = special(t, &sc, s, i, k);
        if (r == S_END)
            break;
        if (r == S_BAD)
            return fail_bad(str, i, error);
    }
    t->len = i;
    if (i > G_MAXINT / 2) {
        pms_enc_fail(error, PMS_ERR_INVAL, 0, "event string too long (%" G_GSIZE_FORMAT " bytes)", i);
        return FALSE;
    }
    /* lookups read a word past a name's end: keep those bytes defined */
    if (i < PMS_ENC_FOLD_MAX)
        memset(t->up + i, 0, 8);
    return TRUE;
}

gboolean
pms_tokenize(const char *str, PmsTokens *t, GError **error)
{
    return pms_tokenize_internal(str, t, error);
}
