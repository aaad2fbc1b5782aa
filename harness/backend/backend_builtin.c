/* pmusim — the builtin backend: the project's encoder, called in-process
 * (it reports errors with GError and must never crash, so no isolation). */
#include "backend_impl.h"
#include "encoder.h"
#include "protocol.h"
#include "answer_memo.h"

#include <string.h>

/* The batch answer to a line depends only on the line, the models and the
 * privilege mask, fixed for the backend's life (set_plm empties the memo):
 * so each distinct line's answer is remembered, and a line seen again costs
 * a lookup and a copy (a corpus repeats its strings: vector files, a tool's
 * event list sent per run).  Bounded: lines up to MEMO_LINE_MAX bytes, at
 * most MEMO_ENTRIES of them; past that, lines are encoded every time.
 * A model set with the encoder's cache off (pmusim --rules-only) has no
 * memo either, so that every line of such a run goes through the
 * encoder's rule path. */
#define MEMO_LINE_MAX 256
#define MEMO_ENTRIES 65536

/* An error answer's fields after EVENT, "\tPFM_ERR_...\t0\t\t\n", made once
 * per class (an error line is a copy of the line and one of these). */
#define ERR_TAIL_MAX 32

typedef struct {
    const PmsModelSet *models;
    guint plm;           /* default privilege mask (pms_encode_plm) */
    PmsAnswerMemo *memo; /* NULL: none */
    char err_tail[PMS_ERR_TOOMANY + 1][ERR_TAIL_MAX];
    guint8 err_tail_len[PMS_ERR_TOOMANY + 1];
} Builtin;

static void err_tails_init(Builtin *b)
{
    for (int code = 1; code <= PMS_ERR_TOOMANY; code++) {
        int n = g_snprintf(b->err_tail[code], ERR_TAIL_MAX, "\t%s\t0\t\t\n", pms_encode_error_name(code));
        g_assert(n > 0 && n < ERR_TAIL_MAX);
        b->err_tail_len[code] = (guint8)n;
    }
}

/* Room for n more bytes at the end of out; where they go.  out->len grows
 * by n (g_string_set_size's work, inline when the room is there). */
static inline char *out_grow(GString *out, gsize n)
{
    gsize at = out->len;
    if (G_LIKELY(at + n < out->allocated_len)) {
        out->len = at + n;
        out->str[at + n] = '\0';
    } else {
        g_string_set_size(out, at + n);
    }
    return out->str + at;
}

/* Fill a protocol result from an encoding: codes, fstr and the REGS field
 * (each register write as NAME=0xVALUE). */
static void result_from_encoding(const PmsEncoding *enc, PmsBackendResult *out)
{
    pms_result_set_ret(out, "PFM_SUCCESS");
    out->n_codes = MIN(enc->n_codes, PMS_BACKEND_MAX_CODES);
    memcpy(out->codes, enc->codes, out->n_codes * sizeof out->codes[0]);
    g_free(out->fstr);
    out->fstr = g_strdup(enc->fstr ? enc->fstr : "");
    if (enc->n_writes > 0) {
        GString *regs = g_string_new(NULL);
        for (guint i = 0; i < enc->n_writes; i++)
            g_string_append_printf(regs, "%s%s=0x%" G_GINT64_MODIFIER "x", i ? "," : "", enc->writes[i].name,
                                   enc->writes[i].value);
        out->regs = g_string_free(regs, FALSE);
    }
}

static void builtin_encode(void *priv, const char *line, PmsBackendResult *out)
{
    const Builtin *b = priv;
    /* the answer names the class only: no message is formatted */
    int code;
    g_autoptr(PmsEncoding) enc = pms_encode_class(b->models, line, b->plm, &code, NULL);
    if (enc == NULL)
        pms_result_set_ret(out, pms_encode_error_name(code));
    else
        result_from_encoding(enc, out);
}

/* The answer line straight from the encoding, into room reserved once: the
 * batch protocol's formatting would otherwise cost more than the encoding
 * (printf, and a PmsBackendResult with two allocations per line). */
static void answer_from_encoder(const Builtin *b, const char *line, gsize len, GString *out)
{
    int code;
    PmsEncoding *enc = pms_encode_class(b->models, line, b->plm, &code, NULL);
    if (enc == NULL) {
        /* the line and its class's fields, made once: two copies (four
         * GString appends cost half an error line's time) */
        if (G_UNLIKELY(code < 1 || code > PMS_ERR_TOOMANY)) {
            PmsBackendResult r = { 0 };
            pms_result_set_ret(&r, pms_encode_error_name(code));
            pms_proto_format(out, line, len, &r);
            pms_backend_result_clear(&r);
            return;
        }
        gsize tl = b->err_tail_len[code];
        char *d = out_grow(out, len + tl);
        memcpy(d, line, len);
        memcpy(d + len, b->err_tail[code], tl);
        return;
    }
    guint nc = MIN(enc->n_codes, PMS_BACKEND_MAX_CODES);
    gsize flen = strlen(enc->fstr);
    gsize need = len + sizeof "\tPFM_SUCCESS\t0\t\t\t\n" + nc * (PMS_PROTO_HEX_MAX + 1) + flen;
    gsize name_len[PMS_PROGRAM_MAX_WRITES];
    guint nw = MIN(enc->n_writes, PMS_PROGRAM_MAX_WRITES);
    for (guint i = 0; i < nw; i++)
        need += (name_len[i] = strlen(enc->writes[i].name)) + 2 + PMS_PROTO_HEX_MAX;
    char *d = out_grow(out, need);
    memcpy(d, line, len);
    d += len;
    memcpy(d, "\tPFM_SUCCESS\t", 13);
    d += 13;
    *d++ = (char)('0' + nc); /* at most PMS_BACKEND_MAX_CODES: one digit */
    *d++ = '\t';
    for (guint i = 0; i < nc; i++) {
        if (i)
            *d++ = ',';
        d = pms_proto_put_hex(d, enc->codes[i]);
    }
    *d++ = '\t';
    memcpy(d, enc->fstr, flen);
    d += flen;
    for (guint i = 0; i < nw; i++) {
        *d++ = i ? ',' : '\t';
        gsize nl = name_len[i];
        memcpy(d, enc->writes[i].name, nl);
        d += nl;
        *d++ = '=';
        d = pms_proto_put_hex(d, enc->writes[i].value);
    }
    *d++ = '\n';
    *d = '\0'; /* out's end: only what was written (need was an upper bound) */
    out->len = (gsize)(d - out->str);
    pms_encoding_free(enc);
}

static void builtin_answer(void *priv, const char *line, gsize len, GString *out)
{
    Builtin *b = priv;
    /* no lookup here: a caller with a memo (pms_backend_memo) answers the
     * lines found there itself, so what reaches us is not in it */
    gsize at = out->len;
    answer_from_encoder(b, line, len, out);
    if (b->memo)
        pms_answer_memo_put(b->memo, line, len, out->str + at, out->len - at);
}

void pms_backend_builtin_set_plm(void *priv, guint plm)
{
    Builtin *b = priv;
    b->plm = plm;
    if (b->memo)
        pms_answer_memo_clear(b->memo);
}

PmsAnswerMemo *pms_backend_builtin_memo(void *priv)
{
    return ((Builtin *)priv)->memo;
}

static void builtin_close(void *priv)
{
    Builtin *b = priv;
    pms_answer_memo_free(b->memo);
    g_free(b);
}

static const PmsBackendOps builtin_ops = { builtin_encode, builtin_close, builtin_answer };

void *pms_backend_builtin_new(const PmsModelSet *models, const PmsBackendOps **ops, GError **error)
{
    if (models == NULL) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "builtin backend: no models loaded");
        return NULL;
    }
    Builtin *b = g_new0(Builtin, 1);
    b->models = models;
    b->plm = PMS_PLM_DEFAULT;
    err_tails_init(b);
    if (pms_model_set_get_encoder_cache(models))
        b->memo = pms_answer_memo_new(MEMO_ENTRIES, MEMO_LINE_MAX);
    *ops = &builtin_ops;
    return b;
}
