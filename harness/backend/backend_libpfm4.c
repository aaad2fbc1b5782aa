/* pmusim — the libpfm4 backend: Debian's libpfm.so.4, opened with dlopen at
 * run time (never linked, never needed to build), driven in a forked worker
 * because libpfm4 4.13 can crash on hostile strings. */
#include "backend_impl.h"
#include "pfm_abi.h"
#include "protocol.h"
#include "worker.h"

#include <dlfcn.h>
#include <string.h>

/* ---- the backend: everything below runs in the worker child ---------- */

typedef struct {
    PmsPfmLib lib;
    PmsWorker *worker;
} Libpfm4;

static gboolean child_init(void *ctx, char **message)
{
    Libpfm4 *p = ctx;
    int ret = p->lib.initialize();
    if (ret != 0) {
        *message = g_strdup_printf("libpfm4 backend: pfm_initialize failed: %s", pms_pfm_ret_name(ret));
        return FALSE;
    }
    return TRUE;
}

static void child_serve(void *ctx, const char *line, PmsBackendResult *out)
{
    Libpfm4 *p = ctx;
    int ret;
    guint64 codes[PMS_BACKEND_MAX_CODES];
    guint n;
    char *fstr;
    pms_pfm_encode(&p->lib, line, &ret, codes, PMS_BACKEND_MAX_CODES, &n, &fstr);
    pms_result_set_ret(out, pms_pfm_ret_name(ret));
    out->n_codes = n;
    memcpy(out->codes, codes, n * sizeof codes[0]);
    g_free(out->fstr);
    out->fstr = fstr;
}

static void libpfm4_encode(void *priv, const char *line, PmsBackendResult *out)
{
    Libpfm4 *p = priv;
    pms_worker_encode(p->worker, line, out);
}

static void libpfm4_close(void *priv)
{
    Libpfm4 *p = priv;
    pms_worker_free(p->worker);
    if (p->lib.handle)
        dlclose(p->lib.handle);
    g_free(p);
}

static const PmsBackendOps libpfm4_ops = { libpfm4_encode, libpfm4_close, NULL };

void *pms_backend_libpfm4_new(guint timeout_ms, const PmsBackendOps **ops, GError **error)
{
    Libpfm4 *p = g_new0(Libpfm4, 1);
    if (!pms_pfm_open(&p->lib, error)) {
        g_free(p);
        return NULL;
    }
    p->worker = pms_worker_new(child_init, child_serve, p, timeout_ms, error);
    if (p->worker == NULL) {
        dlclose(p->lib.handle);
        g_free(p);
        return NULL;
    }
    *ops = &libpfm4_ops;
    return p;
}
