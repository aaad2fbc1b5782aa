/* pmusim — the builtin backend: the project's encoder, called in-process
 * (it reports errors with GError and must never crash, so no isolation). */
#include "backend_impl.h"
#include "encoder.h"
#include "protocol.h"

#include <string.h>

typedef struct {
    const PmsModelSet *models;
    guint plm;   /* default privilege mask (pms_encode_plm) */
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
            g_string_append_printf(regs, "%s%s=0x%" G_GINT64_MODIFIER "x", i ? "," : "",
                                   enc->writes[i].name, enc->writes[i].value);
        out->regs = g_string_free(regs, FALSE);
    }
}

static void builtin_encode(void *priv, const char *line, PmsBackendResult *out)
{
    Builtin *b = priv;
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsEncoding) enc = b->plm == PMS_PLM_DEFAULT ? pms_encode(b->models, line, &err)
                                                           : pms_encode_plm(b->models, line, b->plm, &err);
    if (enc == NULL) {
        const char *name = NULL;
        if (err && err->domain == PMS_ENCODE_ERROR)
            name = pms_encode_error_name(err->code);
        pms_result_set_ret(out, name ? name : "PFM_ERR_INVAL");
        return;
    }
    result_from_encoding(enc, out);
}

void pms_backend_builtin_set_plm(void *priv, guint plm)
{
    ((Builtin *)priv)->plm = plm;
}

static void builtin_close(void *priv)
{
    g_free(priv);
}

static const PmsBackendOps builtin_ops = { builtin_encode, builtin_close };

void *pms_backend_builtin_new(const PmsModelSet *models, const PmsBackendOps **ops, GError **error)
{
    if (models == NULL) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "builtin backend: no models loaded");
        return NULL;
    }
    Builtin *b = g_new0(Builtin, 1);
    b->models = models;
    b->plm = PMS_PLM_DEFAULT;
    *ops = &builtin_ops;
    return b;
}
