/* pmusim encoder — pms_encode(): tokenize, resolve, apply the architecture's
 * rules, print the fstr.  The result is a single allocation (struct, register
 * writes and fstr together), which keeps the encoder fast in batch runs. */
#include <string.h>
#include "enc_internal.h"

static void
fstr_buffer_free(gpointer p)
{
    g_string_free(p, TRUE);
}

/* One scratch GString per thread for building fstr strings. */
static GString *
scratch(void)
{
    static GPrivate key = G_PRIVATE_INIT(fstr_buffer_free);
    GString *s = g_private_get(&key);
    if (!s) {
        s = g_string_sized_new(256);
        g_private_set(&key, s);
    }
    g_string_truncate(s, 0);
    return s;
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
    if (!pms_tokenize(str, &t, error))
        return NULL;
    PmsResolved r;
    if (!pms_resolve(models, &t, &r, error))
        return NULL;
    PmsRuleFn rules = pms_rules_for(r.model->arch);
    if (!rules) {
        pms_enc_fail(error, PMS_ERR_NOTSUPP, 1, "no encoding rules yet for PMU %s (architecture %s)",
                     r.model->name, pms_arch_name(r.model->arch));
        return NULL;
    }
    PmsRuleOut out;
    memset(&out, 0, sizeof out);
    if (!rules(&r, &out, error))
        return NULL;

    GString *fs = scratch();
    pms_fstr_build(fs, &r, &out);

    gsize head = sizeof(PmsEncoding);
    gsize wsize = out.n_regs * sizeof(PmsRegWrite);
    PmsEncoding *enc = g_malloc0(head + wsize + fs->len + 1);
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
    memcpy(enc->fstr, fs->str, fs->len + 1);
    enc->umask_mask = out.selected;
    return enc;
}

void
pms_encoding_free(PmsEncoding *enc)
{
    g_free(enc);
}
