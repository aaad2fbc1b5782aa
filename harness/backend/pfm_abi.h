/* pmusim — the handful of libpfm4 ABI facts the libpfm4 backend needs.
 *
 * Declared here, from the documented ABI (pfm_get_os_event_encoding(3),
 * libpfm(3)), so that building pmusim never needs libpfm4's headers and the
 * library is only ever opened with dlopen at run time.  Values are part of the
 * stable ABI of libpfm.so.4. */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* Privilege level masks (dfl_plm argument). */
#define PMS_PFM_PLM0 0x01 /* kernel */
#define PMS_PFM_PLM3 0x08 /* user */

/* pfm_os_t: PFM_OS_NONE asks for the raw PMU encoding only. */
#define PMS_PFM_OS_NONE 0

/* Argument block for PFM_OS_NONE.  Field order and types follow the
 * documented pfm_pmu_encode_arg_t; `size` must be set to its sizeof. */
typedef struct {
    uint64_t *codes; /* NULL: the library allocates (caller frees) */
    char **fstr;     /* non-NULL: receives a malloc'ed fully qualified string */
    size_t size;
    int count;
    int idx;
} PmsPfmEncodeArg;

typedef int (*PmsPfmInitializeFn)(void);
typedef int (*PmsPfmEncodeFn)(const char *str, int dfl_plm, int os, void *arg);

/* Open libpfm.so.4 (without initialising it).  On failure returns FALSE and an
 * error naming the dlopen/dlsym problem. */
#include <glib.h>
typedef struct {
    void *handle;
    PmsPfmInitializeFn initialize;
    PmsPfmEncodeFn encode;
} PmsPfmLib;

gboolean pms_pfm_open(PmsPfmLib *lib, GError **error);
/* Map a libpfm4 return code to its PFM_* name by the documented numeric
 * values (never through pfm_strerror). */
const char *pms_pfm_ret_name(int ret);
/* Encode in-process (the caller has initialised the library): fills `ret`,
 * codes and fstr (g_free'd by the caller). */
void pms_pfm_encode(const PmsPfmLib *lib, const char *str, int *ret, guint64 *codes, guint max_codes, guint *n_codes,
                    char **fstr);
