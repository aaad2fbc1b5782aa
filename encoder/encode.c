/* pmusim encoder — pms_encode(): tokenize, resolve, apply the architecture's
 * rules, print the fstr.  The result is a single allocation (struct, register
 * writes and fstr together) sized before anything is written into it, which
 * keeps the encoder fast in batch runs. */
#include <string.h>
#include "enc_internal.h"

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

    gsize flen = pms_fstr_len(&r, &out);
    gsize head = sizeof(PmsEncoding);
    gsize wsize = out.n_regs * sizeof(PmsRegWrite);
    /* the fstr pieces are copied in blocks that may overshoot its end */
    PmsEncoding *enc = g_malloc(head + wsize + flen + 1 + PMS_FSTR_SLACK);
    enc->model = r.model;
    enc->event = r.event;
    enc->n_codes = out.n_codes;
    memcpy(enc->codes, out.codes, sizeof enc->codes);
    enc->writes = (PmsRegWrite *)((char *)enc + head);
    enc->n_writes = out.n_regs;
    for (guint i = 0; i < out.n_regs; i++) {
        enc->writes[i].name = out.regs[i]->name;
        enc->writes[i].address = out.regs[i]->address;
        enc->writes[i].value = out.reg_vals[i];
    }
    enc->fstr = (char *)enc + head + wsize;
    *pms_fstr_write(enc->fstr, &r, &out) = '\0';
    enc->umask_mask = out.selected;
    return enc;
}

void
pms_encoding_free(PmsEncoding *enc)
{
    g_free(enc);
}
