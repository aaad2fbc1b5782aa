/* pmusim — backend dispatch: parse the spec, hand lines to the chosen kind. */
#include "backend_impl.h"
#include "protocol.h"

#include <string.h>

struct PmsBackend {
    char *name;
    const PmsBackendOps *ops;
    void *priv;
};

PmsBackend *pms_backend_open_full(const char *spec, const PmsModelSet *models, guint timeout_ms, GError **error)
{
    const PmsBackendOps *ops = NULL;
    void *priv;
    if (timeout_ms == 0)
        timeout_ms = PMS_BACKEND_DEFAULT_TIMEOUT_MS;
    if (g_strcmp0(spec, "builtin") == 0 || spec == NULL)
        priv = pms_backend_builtin_new(models, &ops, error);
    else if (strcmp(spec, "libpfm4") == 0)
        priv = pms_backend_libpfm4_new(timeout_ms, &ops, error);
    else if (g_str_has_prefix(spec, "cmd:") && spec[4])
        priv = pms_backend_cmd_new(spec + 4, timeout_ms, &ops, error);
    else {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "unknown backend '%s': expected builtin, libpfm4 or cmd:PROGRAM", spec);
        return NULL;
    }
    if (priv == NULL)
        return NULL;
    PmsBackend *b = g_new0(PmsBackend, 1);
    b->name = g_strdup(spec ? spec : "builtin");
    b->ops = ops;
    b->priv = priv;
    return b;
}

PmsBackend *pms_backend_open(const char *spec, const PmsModelSet *models, GError **error)
{
    return pms_backend_open_full(spec, models, 0, error);
}

gboolean pms_backend_set_plm(PmsBackend *b, guint plm, GError **error)
{
    if (strcmp(b->name, "builtin") != 0) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "--plm applies to the builtin backend only, not to %s", b->name);
        return FALSE;
    }
    pms_backend_builtin_set_plm(b->priv, plm);
    return TRUE;
}

PmsAnswerMemo *pms_backend_memo(PmsBackend *b)
{
    return strcmp(b->name, "builtin") == 0 ? pms_backend_builtin_memo(b->priv) : NULL;
}

const char *pms_backend_name(const PmsBackend *b)
{
    return b->name;
}

void pms_backend_encode(PmsBackend *b, const char *line, PmsBackendResult *out)
{
    memset(out, 0, sizeof *out);
    b->ops->encode(b->priv, line, out);
    if (out->fstr == NULL)
        out->fstr = g_strdup("");
}

void pms_backend_answer(PmsBackend *b, const char *line, gsize len, GString *out)
{
    if (b->ops->answer) {
        b->ops->answer(b->priv, line, len, out);
        return;
    }
    PmsBackendResult r;
    pms_backend_encode(b, line, &r);
    pms_proto_format(out, line, len, &r);
    pms_backend_result_clear(&r);
}

void pms_backend_close(PmsBackend *b)
{
    if (b == NULL)
        return;
    b->ops->close(b->priv);
    g_free(b->name);
    g_free(b);
}
