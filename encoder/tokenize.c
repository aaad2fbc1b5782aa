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

static gboolean fail_bad(const char *str, gsize at, gboolean short_str, GError **error)
{
    /* a string too long to index is reported as such, whatever it holds
     * (short_str: the caller saw its end near the bad byte) */
    gsize len = short_str ? 0 : at + strlen(str + at);
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

/* Where the separators and '=' lie in the first PMS_ENC_FOLD_MAX bytes of a
 * string: a bit per byte (bit k of word w: byte 64 w + k), zero from the
 * string's end on. */
#define BIT_WORDS (PMS_ENC_FOLD_MAX / 64)
typedef struct {
    guint64 sep[BIT_WORDS]; /* ':' and '.' */
    guint64 eq[BIT_WORDS];  /* '=' */
} Bits;

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
 * first): each block upper-cased into t->up and its special bytes into b.
 * Returns the length when it is below PMS_ENC_FOLD_MAX (b's words up to
 * the one holding the end are set), PMS_ENC_FOLD_MAX when the string is
 * longer (the caller then scans it byte by byte from the start), or 0 with
 * *bad the offset of the first blank or ',' (G_MAXSIZE when none), and
 * *bad_short TRUE when the string ends in the same block. */
#ifdef __GNUC__
__attribute__((always_inline))
#endif
static inline gsize
scan_bits_at(PmsTokens *t, Bits *b, const guchar *s, gsize *bad, gboolean *bad_short, gboolean one_page)
{
    G_STATIC_ASSERT(PMS_ENC_FOLD_MAX % 64 == 0);
    /* c - 'a' + 0x80 wraps lower-case letters onto 0x80..0x99 (the
     * lowest signed bytes), any other byte above them */
    const __m128i to_lower = _mm_set1_epi8((char)(0x80 - 'a')), lower_top = _mm_set1_epi8((char)(0x80 + 26));
    const __m128i case_bit = _mm_set1_epi8(0x20), blank_top = _mm_set1_epi8(' ' + 1);
    *bad = G_MAXSIZE;
    for (guint w = 0; w < BIT_WORDS; w++) {
        guint64 sep = 0, eq = 0;
        for (guint k = 0; k < 64; k += 16) {
            gsize i = (gsize)w * 64 + k;
            __m128i v = one_page ? load_in_page(s + i) : load16(s + i);
            __m128i lower = _mm_cmplt_epi8(_mm_add_epi8(v, to_lower), lower_top);
            _mm_storeu_si128((__m128i *)(t->up + i), _mm_sub_epi8(v, _mm_and_si128(lower, case_bit)));
            /* bytes up to ' ' (NUL, blanks, and control bytes that are
             * names' bytes) and ',': where the scan may stop */
            __m128i low = _mm_cmpeq_epi8(_mm_min_epu8(v, blank_top), v);
            guint st = (guint)_mm_movemask_epi8(_mm_or_si128(low, _mm_cmpeq_epi8(v, _mm_set1_epi8(','))));
            guint sp = (guint)_mm_movemask_epi8(
                _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(':')), _mm_cmpeq_epi8(v, _mm_set1_epi8('.'))));
            guint e = (guint)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('=')));
            if (G_UNLIKELY(st)) {
                guint nul = (guint)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128()));
                guint blank = (guint)_mm_movemask_epi8(_mm_or_si128(
                    _mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
                    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')), _mm_cmpeq_epi8(v, _mm_set1_epi8(',')))));
                if (nul | blank) {
                    guint at = (guint)__builtin_ctz(nul | blank);
                    if (!((nul >> at) & 1)) {
                        *bad = i + at;
                        *bad_short = nul != 0; /* its NUL in this block */
                        return 0;
                    }
                    /* the end: bytes after it do not count */
                    guint keep = (1u << at) - 1;
                    b->sep[w] = sep | (guint64)(sp & keep) << k;
                    b->eq[w] = eq | (guint64)(e & keep) << k;
                    return i + at;
                }
                /* only control bytes, which are names' bytes */
            }
            sep |= (guint64)sp << k;
            eq |= (guint64)e << k;
        }
        b->sep[w] = sep;
        b->eq[w] = eq;
    }
    return PMS_ENC_FOLD_MAX;
}

/* scan_bits_at, without a page test per block when the PMS_ENC_FOLD_MAX
 * bytes from s lie in one page (most strings). */
static gsize scan_bits(PmsTokens *t, Bits *b, const guchar *s, gsize *bad, gboolean *bad_short)
{
    if (((guintptr)s & 4095) <= 4096 - PMS_ENC_FOLD_MAX)
        return scan_bits_at(t, b, s, bad, bad_short, TRUE);
    return scan_bits_at(t, b, s, bad, bad_short, FALSE);
}

/* The first set bit at or after `from` in words 0 .. last, G_MAXSIZE if none. */
static inline gsize next_bit(const guint64 *words, guint last, gsize from)
{
    guint w = (guint)(from >> 6);
    if (w > last)
        return G_MAXSIZE;
    guint64 m = words[w] & (~G_GUINT64_CONSTANT(0) << (from & 63));
    while (!m) {
        if (++w > last)
            return G_MAXSIZE;
        m = words[w];
    }
    return (gsize)w * 64 + (guint)__builtin_ctzll(m);
}

/* The tokens of a string shorter than 64 bytes from its one word of
 * separators and of '=' (most strings): the bits stay in registers, and it
 * has fewer than PMS_ENC_MAX_ATTRS separators, so no count to bound. */
static inline void tokens_from_word(PmsTokens *t, guint64 sep, guint64 eq, const guchar *s, gsize len)
{
    G_STATIC_ASSERT(PMS_ENC_MAX_ATTRS >= 63);
    guint start = 0;
    /* the first "::" ends the PMU name; what comes before it is the PMU */
    for (guint64 m = sep; m; m &= m - 1) {
        guint p = (guint)__builtin_ctzll(m);
        if (s[p] == ':' && s[p + 1] == ':') {
            t->has_pmu = TRUE;
            t->pmu_len = p;
            start = p + 2; /* < 64: the second ':' lies before the end */
            sep &= ~G_GUINT64_CONSTANT(0) << start;
            break;
        }
    }
    guint at = sep ? (guint)__builtin_ctzll(sep) : (guint)len;
    t->ev_off = start;
    t->ev_len = at - start;
    guint n = 0;
    while (sep) {
        sep &= sep - 1;
        eq &= ~G_GUINT64_CONSTANT(0) << at; /* '=' of tokens before this one */
        start = at + 1;
        at = sep ? (guint)__builtin_ctzll(sep) : (guint)len;
        guint64 own = eq & ((G_GUINT64_CONSTANT(1) << at) - 1);
        t->attrs[n++] = (PmsTok){ start, at - start, own ? (gint)((guint)__builtin_ctzll(own) - start) : -1 };
    }
    t->n_attrs = n;
}

/* The tokens of a string of len bytes (< PMS_ENC_FOLD_MAX) from its bits. */
static void tokens_from_bits(PmsTokens *t, const Bits *b, const guchar *s, gsize len)
{
    guint last = (guint)(len >> 6); /* the word holding the end */
    gsize start = 0;
    /* the first "::" ends the PMU name; what comes before it is the PMU */
    gsize at = next_bit(b->sep, last, 0);
    for (gsize p = at; p != G_MAXSIZE; p = next_bit(b->sep, last, p + 1))
        if (s[p] == ':' && s[p + 1] == ':') {
            t->has_pmu = TRUE;
            t->pmu_len = (guint)p;
            start = p + 2;
            at = next_bit(b->sep, last, start);
            break;
        }
    gsize end = at == G_MAXSIZE ? len : at;
    t->ev_off = (guint)start;
    t->ev_len = (guint)(end - start);
    /* the next '=' at or after the attribute being read */
    guint64 any_eq = 0;
    for (guint w = 0; w <= last; w++)
        any_eq |= b->eq[w];
    gsize next_eq = any_eq ? next_bit(b->eq, last, end + 1) : G_MAXSIZE;
    guint n = 0;
    while (at != G_MAXSIZE) {
        start = at + 1;
        at = next_bit(b->sep, last, start);
        end = at == G_MAXSIZE ? len : at;
        gint eq = -1;
        if (next_eq < end) {
            eq = (gint)(next_eq - start);
            next_eq = next_bit(b->eq, last, end + 1);
        }
        /* past PMS_ENC_MAX_ATTRS + 1, counted, not stored: the resolver
         * stops at the 65th */
        if (n <= PMS_ENC_MAX_ATTRS)
            t->attrs[n] = (PmsTok){ (guint)start, (guint)(end - start), eq };
        n++;
    }
    t->n_attrs = MIN(n, PMS_ENC_MAX_ATTRS + 1);
    t->too_many = n > PMS_ENC_MAX_ATTRS;
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

    gsize i = 0;
#ifdef __SSE2__
    Bits b;
    gsize bad;
    gboolean bad_short;
    gsize len = scan_bits(t, &b, s, &bad, &bad_short);
    if (G_UNLIKELY(bad != G_MAXSIZE)) {
        /* a short string's class and column, asked here: batches of
         * malformed strings come this way line after line */
        if (bad_short && pms_enc_no_message(error, PMS_ERR_INVAL, (guint)bad + 1))
            return FALSE;
        return fail_bad(str, bad, bad_short, error);
    }
    if (G_LIKELY(len < PMS_ENC_FOLD_MAX)) {
        if (len < 64)
            tokens_from_word(t, b.sep[0], b.eq[0], s, len);
        else
            tokens_from_bits(t, &b, s, len);
        t->len = len;
        /* lookups read a word past a name's end: keep those bytes defined */
        memset(t->up + len, 0, 8);
        return TRUE;
    }
    /* too long for the copy: byte by byte */
#endif
    Scan sc = { 0, 0, -1, TRUE };
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
            return fail_bad(str, i, FALSE, error);
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
