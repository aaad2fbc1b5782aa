/* pmusim — opening Debian's libpfm.so.4 with dlopen and calling it: shared
 * by the libpfm4 backend, `bench encode` and scripts/pfm-batch.c (which
 * compiles this file alone, so it needs only glib and libdl). */
#include "pfm_abi.h"

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
                    "libpfm4 backend: cannot open %s (%s); install Debian's libpfm4 package", LIBPFM_SONAME, dlerror());
        return FALSE;
    }
    /* dlsym returns void *; going through a union avoids the ISO C warning
     * about converting object pointers to function pointers. */
    union {
        void *obj;
        PmsPfmInitializeFn fn;
    } init = { dlsym(lib->handle, "pfm_initialize") };
    union {
        void *obj;
        PmsPfmEncodeFn fn;
    } enc = { dlsym(lib->handle, "pfm_get_os_event_encoding") };
    if (init.obj == NULL || enc.obj == NULL) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                    "libpfm4 backend: %s lacks pfm_initialize or pfm_get_os_event_encoding", LIBPFM_SONAME);
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
        "PFM_SUCCESS",      "PFM_ERR_NOTSUPP", "PFM_ERR_INVAL",    "PFM_ERR_NOINIT", "PFM_ERR_NOTFOUND",
        "PFM_ERR_FEATCOMB", "PFM_ERR_UMASK",   "PFM_ERR_NOMEM",    "PFM_ERR_ATTR",   "PFM_ERR_ATTR_VAL",
        "PFM_ERR_ATTR_SET", "PFM_ERR_TOOMANY", "PFM_ERR_TOOSMALL",
    };
    if (ret <= 0 && -ret < (int)G_N_ELEMENTS(names))
        return names[-ret];
    return "PFM_ERR_UNKNOWN";
}

void pms_pfm_encode(const PmsPfmLib *lib, const char *str, int *ret, guint64 *codes, guint max_codes, guint *n_codes,
                    char **fstr)
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
