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

typedef struct {
    const PmsModelSet *models;
    guint plm;           /* default privilege mask (pms_encode_plm) */
    PmsAnswerMemo *memo; /* NULL: none */
} Builtin;

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

/* The encoding of line; NULL with the RET name of the error. */
static PmsEncoding *builtin_run(const Builtin *b, const char *line, const char **ret)
{
    /* the answer names the class only: no message is formatted */
    int code;
    PmsEncoding *enc = pms_encode_class(b->models, line, b->plm, &code, NULL);
    if (enc == NULL)
        *ret = pms_encode_error_name(code);
    return enc;
}

static void builtin_encode(void *priv, const char *line, PmsBackendResult *out)
{
    const char *ret;
    g_autoptr(PmsEncoding) enc = builtin_run(priv, line, &ret);
    if (enc == NULL)
        pms_result_set_ret(out, ret);
    else
        result_from_encoding(enc, out);
}

/* The answer line straight from the encoding, into room reserved once: the
 * batch protocol's formatting would otherwise cost more than the encoding
 * (printf, and a PmsBackendResult with two allocations per line). */
static void answer_from_encoder(const Builtin *b, const char *line, gsize len, GString *out)
{
    const char *ret;
    PmsEncoding *enc = builtin_run(b, line, &ret);
    if (enc == NULL) {
        /* one size change and copies: four GString appends cost half an
         * error line's time */
        gsize rl = strlen(ret), at = out->len;
        g_string_set_size(out, at + len + 1 + rl + 5);
        char *d = out->str + at;
        memcpy(d, line, len);
        d[len] = '\t';
        memcpy(d + len + 1, ret, rl);
        memcpy(d + len + 1 + rl, "\t0\t\t\n", 5);
        return;
    }
    guint nc = MIN(enc->n_codes, PMS_BACKEND_MAX_CODES);
    gsize flen = strlen(enc->fstr);
    gsize need = len + sizeof "\tPFM_SUCCESS\t0\t\t\t\n" + nc * (PMS_PROTO_HEX_MAX + 1) + flen;
    for (guint i = 0; i < enc->n_writes; i++)
        need += strlen(enc->writes[i].name) + 2 + PMS_PROTO_HEX_MAX;
    gsize at = out->len;
    g_string_set_size(out, at + need);
    char *d = out->str + at;
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
    for (guint i = 0; i < enc->n_writes; i++) {
        *d++ = i ? ',' : '\t';
        gsize nl = strlen(enc->writes[i].name);
        memcpy(d, enc->writes[i].name, nl);
        d += nl;
        *d++ = '=';
        d = pms_proto_put_hex(d, enc->writes[i].value);
    }
    *d++ = '\n';
    g_string_truncate(out, (gsize)(d - out->str));
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
    if (pms_model_set_get_encoder_cache(models))
        b->memo = pms_answer_memo_new(MEMO_ENTRIES, MEMO_LINE_MAX);
    *ops = &builtin_ops;
    return b;
}
