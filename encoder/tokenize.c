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
 * It runs for every encoding, and also writes the upper-cased copy of the
 * input the name lookups read (PmsTokens.up).  Strings that fit that copy
 * are scanned 16 bytes at a time with SSE2, looking one by one only at the
 * bytes that end or split tokens; longer ones (and builds without SSE2) go
 * byte by byte. */
#include <string.h>
#include "enc_internal.h"

enum { C_NAME, C_COLON, C_DOT, C_EQ, C_BAD, C_END };

/* What each byte means to the tokenizer; most are C_NAME. */
static const guint8 byte_class[256] = {
    [':'] = C_COLON, ['.'] = C_DOT, ['='] = C_EQ, [' '] = C_BAD, ['\t'] = C_BAD, [','] = C_BAD, ['\0'] = C_END,
};

static gboolean fail_bad(const char *str, gsize at, GError **error)
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
static inline void end_token(PmsTokens *t, gboolean event, gsize start, gsize end, gint eq)
{
    if (event) {
        t->ev_off = (guint)start;
        t->ev_len = (guint)(end - start);
        return;
    }
    if (t->n_attrs == PMS_ENC_MAX_ATTRS + 1) {
        t->too_many = TRUE; /* counted, not stored: the resolver stops at the 65th */
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
    gsize start;    /* of the token being read */
    gsize skip;     /* a ':' at this offset was taken as part of "::" */
    gint eq;        /* first '=' in it, -1 none */
    gboolean event; /* it is the event name */
} Scan;

enum { S_MORE, S_END, S_BAD };

/* The first "::" (at offset i) ends the PMU name: whatever was read before it
 * is the PMU, and the event name starts after it. */
static inline void end_pmu(PmsTokens *t, Scan *sc, gsize i)
{
    t->has_pmu = TRUE;
    t->pmu_len = (guint)i;
    t->n_attrs = 0;
    t->too_many = FALSE;
    sc->skip = i + 1;
    sc->start = i + 2;
    sc->event = TRUE;
    sc->eq = -1;
}

/* One byte that is not part of a name (k = its byte_class). */
static inline guint special(PmsTokens *t, Scan *sc, const guchar *s, gsize i, guint k)
{
    if (k == C_EQ) {
        if (sc->eq < 0 && !sc->event)
            sc->eq = (gint)(i - sc->start);
        return S_MORE;
    }
    if (k == C_BAD)
        return S_BAD;
    if (k == C_COLON && !t->has_pmu && s[i + 1] == ':') {
        end_pmu(t, sc, i);
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

static inline char upper(guchar c)
{
    return (char)(c - ((guint)(c - 'a') < 26u ? 0x20 : 0));
}

#ifdef __SSE2__
#include <emmintrin.h>

/* The bytes of 16 that are not name bytes, a bit each by kind. */
typedef struct {
    guint sep;   /* ':' and '.' */
    guint colon; /* ':' */
    guint eq;    /* '=' */
    guint bad;   /* blanks and ',' */
} Masks;

/* 16 bytes: upper-cased into up, and their masks. */
static inline Masks scan16(__m128i v, char *up)
{
    const __m128i lo = _mm_set1_epi8('a' - 1), hi = _mm_set1_epi8('z' + 1);
    /* signed compares: bytes >= 0x80 are negative, so never lower case */
    __m128i lower = _mm_and_si128(_mm_cmpgt_epi8(v, lo), _mm_cmplt_epi8(v, hi));
    _mm_storeu_si128((__m128i *)up, _mm_sub_epi8(v, _mm_and_si128(lower, _mm_set1_epi8(0x20))));
    __m128i colon = _mm_cmpeq_epi8(v, _mm_set1_epi8(':'));
    __m128i bad = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')));
    bad = _mm_or_si128(bad, _mm_cmpeq_epi8(v, _mm_set1_epi8(',')));
    Masks k;
    k.colon = (guint)_mm_movemask_epi8(colon);
    k.sep = k.colon | (guint)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('.')));
    k.eq = (guint)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('=')));
    k.bad = (guint)_mm_movemask_epi8(bad);
    return k;
}

/* The first '=' of the attribute being read, from the '=' bits of a block
 * (bit k = offset base + k) that lie before the separator at hand: those at
 * or after the token's start count.  The '=' bits are not walked one by one. */
static inline void first_eq(Scan *sc, guint eqs, gsize base)
{
    if (sc->eq >= 0 || sc->event)
        return;
    if (sc->start > base)
        eqs &= sc->start - base >= 16 ? 0 : ~((1u << (sc->start - base)) - 1);
    if (eqs)
        sc->eq = (gint)(base + (guint)__builtin_ctz(eqs) - sc->start);
}

/* One block's separators and '=' (bit k = offset base + k; only the bits in
 * keep).  S_BAD with *bad set at its first blank or ','. */
static inline guint block(PmsTokens *t, Scan *sc, const guchar *s, gsize base, Masks k, guint keep, gsize *bad)
{
    if (k.bad & keep) {
        *bad = base + (guint)__builtin_ctz(k.bad & keep);
        return S_BAD;
    }
    guint eqs = k.eq & keep;
    for (guint m = k.sep & keep; m; m &= m - 1) {
        guint b = (guint)__builtin_ctz(m);
        gsize at = base + b;
        if (eqs)
            first_eq(sc, eqs & ((1u << b) - 1), base);
        if (!t->has_pmu && (k.colon & (1u << b)) && s[at + 1] == ':') {
            end_pmu(t, sc, at);
            continue;
        }
        if (at == sc->skip && at)
            continue;
        end_token(t, sc->event, sc->start, at, sc->eq);
        sc->event = FALSE;
        sc->start = at + 1;
        sc->eq = -1;
    }
    if (eqs)
        first_eq(sc, eqs, base);
    return S_MORE;
}

/* 16 bytes at p.  A plain load when they lie in one 4 kB page (the smallest
 * x86 page): bytes past the string's NUL may be read, never used (the
 * caller drops their bits), and reading them cannot fault.  Near a page's
 * end, a copy that stops at the NUL.
 * AddressSanitizer sees the plain load as an overflow, so under it the load
 * lives in a function it does not check. */
#if defined(__SANITIZE_ADDRESS__)
#define PMS_TOK_NO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PMS_TOK_NO_ASAN 1
#endif
#endif
#ifdef PMS_TOK_NO_ASAN
__attribute__((no_sanitize_address, noinline))
#endif
static __m128i
load_in_page(const guchar *p)
{
    return _mm_loadu_si128((const __m128i *)p);
}

static inline __m128i load16(const guchar *p)
{
    if (G_LIKELY(((guintptr)p & 4095) <= 4096 - 16))
        return load_in_page(p);
    guchar b[16] = { 0 };
    for (guint k = 0; k < 16 && p[k]; k++)
        b[k] = p[k];
    return _mm_loadu_si128((const __m128i *)b);
}

/* The string, 16 bytes at a time, finding its end on the way (no strlen
 * first); only the bytes that end or split tokens are looked at one by one.
 * Returns the length when it is below PMS_ENC_FOLD_MAX, the offset of a bad
 * byte in *bad (then the return value is 0), or PMS_ENC_FOLD_MAX when the
 * string is longer: the caller then scans it byte by byte from the start. */
static gsize scan_short(PmsTokens *t, Scan *sc, const guchar *s, gsize *bad)
{
    G_STATIC_ASSERT(PMS_ENC_FOLD_MAX % 16 == 0);
    *bad = G_MAXSIZE;
    for (gsize i = 0; i < PMS_ENC_FOLD_MAX; i += 16) {
        __m128i v = load16(s + i);
        guint nul = (guint)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128()));
        guint keep = nul ? (1u << __builtin_ctz(nul)) - 1 : 0xffffu;
        if (block(t, sc, s, i, scan16(v, t->up + i), keep, bad))
            return 0;
        if (nul) {
            gsize len = i + (guint)__builtin_ctz(nul);
            special(t, sc, s, len, C_END);
            return len;
        }
    }
    return PMS_ENC_FOLD_MAX;
}
#endif

gboolean pms_tokenize_internal(const char *str, PmsTokens *t, GError **error)
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
    gsize bad;
    gsize len = scan_short(t, &sc, s, &bad);
    if (bad != G_MAXSIZE)
        return fail_bad(str, bad, error);
    if (len < PMS_ENC_FOLD_MAX) {
        i = len;
    } else {
        /* too long for the copy: start again, byte by byte */
        t->has_pmu = FALSE;
        t->pmu_len = 0;
        t->n_attrs = 0;
        t->too_many = FALSE;
        sc = (Scan){ 0, 0, -1, TRUE };
    }
    if (len >= PMS_ENC_FOLD_MAX)
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

gboolean pms_tokenize(const char *str, PmsTokens *t, GError **error)
{
    return pms_tokenize_internal(str, t, error);
}
