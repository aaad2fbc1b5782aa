/* pmusim — event string encoder.
 *
 * libpfm4 syntax  [pmu::]EVENT[:UMASK...|:0xRAW][:mod[=val]...]  ->  register writes,
 * libpfm4-compatible codes and the canonical fstr.  Three stages, one file each:
 *   tokenize.c  syntax only (byte offsets kept for messages),
 *   resolve.c   names -> model entries (hash lookups, never a table scan),
 *   rules_*.c   one rule set per architecture (x86 core, x86 uncore, Xeon 7500
 *               C-Box, Itanium), chosen by PmsModel.arch.
 * A raw unit mask (":0xff" in place of the unit-mask names, x86 core and
 * uncore PMUs only) follows libpfm4 4.13; docs/libpfm4-differences.md,
 * "Raw unit masks", says how and where pmusim differs.
 */
#pragma once

#include <glib.h>
#include "pms_api.h"
#include "model.h"
#include "program.h"

G_BEGIN_DECLS

#define PMS_ENCODE_ERROR (pms_encode_error_quark())
PMS_API GQuark pms_encode_error_quark(void);

/* libpfm4's error classes, with the same meaning (see spec/encoder-protocol). */
typedef enum {
    PMS_ERR_NOTFOUND = 1, /* unknown PMU or event */
    PMS_ERR_UMASK,        /* bad or missing unit mask */
    PMS_ERR_ATTR,         /* unknown attribute / modifier */
    PMS_ERR_ATTR_VAL,     /* value out of range */
    PMS_ERR_ATTR_SET,     /* attribute given twice with different values */
    PMS_ERR_INVAL,        /* malformed string */
    PMS_ERR_NOTSUPP,
    PMS_ERR_FEATCOMB, /* combination of features not supported */
    PMS_ERR_TOOSMALL,
    PMS_ERR_TOOMANY, /* more than 64 unit masks and modifiers */
} PmsEncodeError;

/* "PFM_ERR_UMASK" etc.; "PFM_SUCCESS" for 0. */
PMS_API const char *pms_encode_error_name(int code);


typedef struct {
    const PmsModel *model;
    const PmsEvent *event;
    guint64 codes[4]; /* libpfm4 PFM_OS_NONE order: [0] evtsel (EN|INT included), [1] extra */
    guint n_codes;
    /* The event on the lowest counter it may use, and the writes that program
     * it there (include/pmusim/program.h: event select or fixed control, extra
     * register, global enable).  place.event is NULL and there are no
     * writes when the event may use no counter of the model. */
    PmsPlacement place;
    PmsRegWrite *writes;
    guint n_writes;
    char *fstr;             /* "glm::INST_RETIRED:ANY_P:k=1:u=1:e=0:i=0:c=0" */
    PmsUmaskSet umask_mask; /* which umasks (bit i = event->umasks[i]) ended up selected */
} PmsEncoding;

/* Encode one event string.  Errors carry a PmsEncodeError code and a message
 * naming the offending token and its column (1-based byte offset).
 * A string without "pmu::" is not searched for: libpfm4 looks such names up
 * only on the PMUs of the host it runs on, and the models are not a host, so
 * it fails with PMS_ERR_NOTFOUND.  The result is one allocation that points
 * into the model (event, register names): free it before the model set. */
PMS_API PmsEncoding *pms_encode(const PmsModelSet *models, const char *str, GError **error);

/* Privilege levels, libpfm4's PFM_PLM* values (pfm_get_os_event_encoding's
 * dfl_plm): PLM0 is the kernel, PLM3 user level. */
enum {
    PMS_PLM0 = 1,
    PMS_PLM1 = 2,
    PMS_PLM2 = 4,
    PMS_PLM3 = 8,
};
/* pms_encode() is pms_encode_plm(models, str, PMS_PLM0 | PMS_PLM3, error). */
#define PMS_PLM_DEFAULT (PMS_PLM0 | PMS_PLM3)

/* The same with a default privilege mask, libpfm4's dfl_plm:
 *  - x86 core: used when the string names neither u nor k, as libpfm4 4.13
 *    maps it: PLM0 sets the OS bit (k=1), PLM3 the USR bit (u=1); PLM1 and
 *    PLM2 alone set neither (the result counts at no level, as libpfm4's);
 *  - x86 uncore (nhm_unc, wsm_unc): the counters have no privilege filter,
 *    they count at every level, so plm must be exactly PLM0|PLM3 (the rule
 *    of libpfm_nehalem(3)); anything else is PMS_ERR_INVAL.  libpfm4 4.13
 *    ignores dfl_plm there (docs/libpfm4-differences.md);
 *  - Itanium (montecito): the mask goes whole into the counting PMC's plm
 *    field (PLM1 and PLM2 included) when the string names neither u nor k
 *    (docs/montecito.md).
 * A bit outside PLM0..PLM3 is PMS_ERR_INVAL. */
PMS_API PmsEncoding *pms_encode_plm(const PmsModelSet *models, const char *str, guint plm, GError **error);
/* pms_encode_plm for a caller that needs only the class of an error (the
 * batch protocol answers with the class alone): on failure *code is the
 * PmsEncodeError pms_encode_plm's error would carry and *column (unless
 * column is NULL) the column its message names ("column N: ", 0 when it
 * names none), and no message is formatted (on a bad string that costs
 * more than the rest of the encoding).  The message is made only when it
 * is printed: pms_encode_plm of the same string and mask gives it, with
 * the same class and column.  On success *code and *column are 0. */
PMS_API PmsEncoding *pms_encode_class(const PmsModelSet *models, const char *str, guint plm, int *code, guint *column);
/* Free a result (NULL is fine), from any thread.  Only this frees one: a
 * result is not a block of its own that free() or g_free() could take. */
PMS_API void pms_encoding_free(PmsEncoding *enc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PmsEncoding, pms_encoding_free)

/* Decode an evtsel value (and optional extra register value) back to a string
 * in canonical form for the given model.  Returns NULL with an error when no
 * event of the model has that code. */
PMS_API char *pms_decode(const PmsModel *m, guint64 value, gboolean has_extra, guint64 extra, GError **error);

/* Whether the encoder takes a raw unit mask ("EVENT:0xff") on m's PMU, as
 * libpfm4 4.13 does on the Intel x86 core PMUs and nhm_unc/wsm_unc only. */
PMS_API gboolean pms_encoder_takes_raw_umask(const PmsModel *m);

G_END_DECLS
