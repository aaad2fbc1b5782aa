/* pmusim — the libpfm4 backend: Debian's libpfm.so.4, opened with dlopen at
 * run time (never linked, never needed to build), driven in a forked worker
 * because libpfm4 4.13 can crash on hostile strings. */
#include "backend_impl.h"
#include "pfm_abi.h"
#include "protocol.h"
#include "worker.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#define LIBPFM_SONAME "libpfm.so.4"

gboolean pms_pfm_open(PmsPfmLib *lib, GError **error)
{
    memset(lib, 0, sizeof *lib);
    /* Encode events of every PMU the library knows, not just the host's. */
    g_setenv("LIBPFM_ENCODE_INACTIVE", "1", TRUE);
    lib->handle = dlopen(LIBPFM_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (lib->handle == NULL) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                    "libpfm4 backend: cannot open %s (%s); install Debian's libpfm4 package",
                    LIBPFM_SONAME, dlerror());
        return FALSE;
    }
    /* dlsym returns void *; going through a union avoids the ISO C warning
     * about converting object pointers to function pointers. */
    union { void *obj; PmsPfmInitializeFn fn; } init = { dlsym(lib->handle, "pfm_initialize") };
    union { void *obj; PmsPfmEncodeFn fn; } enc = { dlsym(lib->handle, "pfm_get_os_event_encoding") };
    if (init.obj == NULL || enc.obj == NULL) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                    "libpfm4 backend: %s lacks pfm_initialize or pfm_get_os_event_encoding",
                    LIBPFM_SONAME);
        dlclose(lib->handle);
        lib->handle = NULL;
        return FALSE;
    }
    lib->initialize = init.fn;
    lib->encode = enc.fn;
    return TRUE;
}

const char *pms_pfm_ret_name(int ret)
{
    /* The documented, stable values of libpfm4's error codes. */
    static const char *const names[] = {
        "PFM_SUCCESS", "PFM_ERR_NOTSUPP", "PFM_ERR_INVAL", "PFM_ERR_NOINIT",
        "PFM_ERR_NOTFOUND", "PFM_ERR_FEATCOMB", "PFM_ERR_UMASK", "PFM_ERR_NOMEM",
        "PFM_ERR_ATTR", "PFM_ERR_ATTR_VAL", "PFM_ERR_ATTR_SET", "PFM_ERR_TOOMANY",
        "PFM_ERR_TOOSMALL",
    };
    if (ret <= 0 && -ret < (int)G_N_ELEMENTS(names))
        return names[-ret];
    return "PFM_ERR_UNKNOWN";
}

void pms_pfm_encode(const PmsPfmLib *lib, const char *str, int *ret,
                    guint64 *codes, guint max_codes, guint *n_codes, char **fstr)
{
    char *lib_fstr = NULL;
    PmsPfmEncodeArg arg = { .codes = NULL, .fstr = &lib_fstr, .size = sizeof arg };
    *ret = lib->encode(str, PMS_PFM_PLM0 | PMS_PFM_PLM3, PMS_PFM_OS_NONE, &arg);
    *n_codes = 0;
    if (*ret == 0) {
        *n_codes = (guint)CLAMP(arg.count, 0, (int)max_codes);
        memcpy(codes, arg.codes, *n_codes * sizeof codes[0]);
    }
    *fstr = g_strdup(*ret == 0 && lib_fstr ? lib_fstr : "");
    free(arg.codes); /* allocated by libpfm4 with malloc */
    free(lib_fstr);
}

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

static const PmsBackendOps libpfm4_ops = { libpfm4_encode, libpfm4_close };

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
