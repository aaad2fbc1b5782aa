/* pmusim encoder — pms_encode(): tokenize, resolve, apply the architecture's
 * rules, print the fstr.  The result is a single allocation (struct, register
 * writes and fstr together) sized before anything is written into it, which
 * keeps the encoder fast in batch runs.
 *
 * The plain strings "PMU::EVENT" and "PMU::EVENT:UMASK" are most of what
 * tools ask for, and their result depends on the event and unit mask alone:
 * it is built once per model, with the same rules and the same assembly as
 * any other string (pms_plain_prepare), and copied out after the names are
 * resolved.  Where the rules refuse such a string only the error message
 * depends on the string (its columns): without a GError to fill, the answer
 * is known at once.  It is a table of the model, like its names, not a memory of
 * earlier inputs: it exists for every event and unit mask before the first
 * encoding. */
#include <stdlib.h>
#include <string.h>
#include "enc_internal.h"

/* Bytes of the result for these rule outputs, and where its fstr starts. */
static gsize
result_size(const PmsResolved *r, const PmsRuleOut *out, gsize *fstr_off, gsize *flen)
{
    *flen = pms_fstr_len(r, out);
    *fstr_off = sizeof(PmsEncoding) + out->n_regs * sizeof(PmsRegWrite);
    /* the fstr pieces are copied in blocks that may overshoot its end */
    return *fstr_off + *flen + 1 + PMS_FSTR_SLACK;
}

/* Write the result into enc (result_size bytes). */
static void
assemble(PmsEncoding *enc, const PmsResolved *r, const PmsRuleOut *out, gsize fstr_off)
{
    enc->model = r->model;
    enc->event = r->event;
    enc->n_codes = out->n_codes;
    memcpy(enc->codes, out->codes, sizeof enc->codes);
    enc->writes = (PmsRegWrite *)((char *)enc + sizeof(PmsEncoding));
    enc->n_writes = out->n_regs;
    for (guint i = 0; i < out->n_regs; i++) {
        enc->writes[i].name = out->regs[i]->name;
        enc->writes[i].address = out->regs[i]->address;
        enc->writes[i].value = out->reg_vals[i];
    }
    enc->fstr = (char *)enc + fstr_off;
    *pms_fstr_write(enc->fstr, r, out) = '\0';
    enc->umask_mask = out->selected;
}

/* malloc itself, not g_malloc's wrapper: this runs per encoding.  Out of
 * memory still ends in g_malloc's abort. */
static inline PmsEncoding *
alloc_result(gsize size)
{
    PmsEncoding *enc = malloc(size);
    if (G_UNLIKELY(!enc))
        enc = g_malloc(size);
    return enc;
}

void
pms_plain_prepare(const PmsModel *m, const PmsPrepared *p, const PmsEvent *ev, PmsPrepEvent *pe)
{
    if (pe->unsupported)
        return;
    PmsResolved r;
    memset(&r, 0, sizeof r);
    r.model = m;
    r.prep = p;
    r.event = ev;
    r.pe = pe;
    /* columns only word error messages, which are not kept here */
    g_autofree PmsTokens *tok = g_new0(PmsTokens, 1);
    r.tok = tok;
    GByteArray *buf = g_byte_array_new();
    guint32 *off = g_new(guint32, ev->n_umasks + 1);
    for (guint c = 0; c <= ev->n_umasks; c++) {
        r.user_umasks = c ? G_GUINT64_CONSTANT(1) << (c - 1) : 0;
        if (c) {
            r.umask_col[c - 1] = 1;
            r.umask_count[c - 1] = 1;
        }
        PmsRuleOut out;
        memset(&out, 0, sizeof out);
        if (!pms_rules_x86_core(&r, &out, NULL)) {
            off[c] = PMS_PLAIN_FAILS;
            continue;
        }
        gsize fstr_off, flen;
        PmsEncoding *enc = g_malloc0(result_size(&r, &out, &fstr_off, &flen));
        assemble(enc, &r, &out, fstr_off);
        /* the image need not carry the block-copy slack */
        PmsPlainImage h = { (guint32)(fstr_off + flen + 1), (guint32)fstr_off };
        gsize at = buf->len;
        g_byte_array_set_size(buf, (guint)(at + sizeof h + h.size));
        memcpy(buf->data + at, &h, sizeof h);
        memcpy(buf->data + at + sizeof h, enc, h.size);
        g_free(enc);
        /* the next image starts on a word, as a PmsEncoding must */
        g_byte_array_set_size(buf, (guint)((buf->len + 7) / 8 * 8));
        off[c] = (guint32)at;
    }
    pe->plain_off = off;
    pe->plain = (char *)g_byte_array_free(buf, FALSE);
}

PmsEncoding *
pms_encode(const PmsModelSet *models, const char *str, GError **error)
{
    g_return_val_if_fail(models != NULL, NULL);
    if (!str) {
        pms_enc_fail(error, PMS_ERR_INVAL, 0, "no event string");
        return NULL;
    }
    PmsTokens t;
    if (!pms_tokenize_internal(str, &t, error))
        return NULL;
    PmsResolved r;
    if (!pms_resolve(models, &t, &r, error))
        return NULL;
    guint64 u = r.user_umasks;
    if (r.pe->plain_off && !r.mod_set && !r.thrice && !(u & (u - 1))) {
        guint32 off = r.pe->plain_off[u ? pms_lsb(u) + 1 : 0];
        if (off == PMS_PLAIN_FAILS && !error)
            return NULL;   /* the rules refuse it; the message is built below when asked for */
        if (off != PMS_PLAIN_FAILS) {
            PmsPlainImage h;
            memcpy(&h, r.pe->plain + off, sizeof h);
            PmsEncoding *enc = alloc_result(h.size);
            memcpy(enc, r.pe->plain + off + sizeof h, h.size);
            enc->writes = (PmsRegWrite *)((char *)enc + sizeof(PmsEncoding));
            enc->fstr = (char *)enc + h.fstr_off;
            return enc;
        }
    }
    /* the x86 core rules without the dispatch call: the common case */
    PmsRuleFn rules = r.model->arch == PMS_ARCH_X86_CORE ? pms_rules_x86_core : pms_rules_for(r.model->arch);
    if (!rules) {
        pms_enc_fail(error, PMS_ERR_NOTSUPP, 1, "no encoding rules yet for PMU %s (architecture %s)",
                     r.model->name, pms_arch_name(r.model->arch));
        return NULL;
    }
    PmsRuleOut out;   /* the rules set every field encode reads, codes[] aside */
    memset(out.codes, 0, sizeof out.codes);
    if (!rules(&r, &out, error))
        return NULL;

    gsize fstr_off, flen;
    PmsEncoding *enc = alloc_result(result_size(&r, &out, &fstr_off, &flen));
    assemble(enc, &r, &out, fstr_off);
    return enc;
}

void
pms_encoding_free(PmsEncoding *enc)
{
    free(enc);   /* from malloc (g_malloc is malloc too) */
}
