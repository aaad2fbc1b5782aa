/* pmusim — Itanium 2 9000 (Montecito) event queries: what libpfm_montecito(3)
 * answers with pfm_mont_is_ear() ... pfm_mont_get_ear_mode(), read from the
 * model's per-event facts (docs/model-format.md "Itanium events"), never from
 * a table of their own.
 *
 *   const PmsEvent *ev = pms_ia64_event(model, "DATA_EAR_TLB_ALL", &error);
 *   if (ev && pms_ia64_is_dear_tlb(ev)) ...
 *
 * The predicates take an event of an ia64 model and answer FALSE for NULL;
 * the getters answer FALSE with PMS_IA64_QUERY_ERROR where libpfm returns an
 * error (the EAR mode of an event that is no EAR event: PFMLIB_ERR_INVAL).
 *
 * The encoder's private header, not installed: no caller outside the library
 * asks these questions (the CLI reads the same facts from PmsEvent), so they
 * are not exported; the encoder's tests (encoder/tests/test_ia64_encoder.c)
 * check them against libpfm's answers. */
#pragma once

#include <glib.h>
#include "model.h"
#include "model_ia64.h"

G_BEGIN_DECLS

#define PMS_IA64_QUERY_ERROR (pms_ia64_query_error_quark())
GQuark pms_ia64_query_error_quark(void);

typedef enum {
    PMS_IA64_QUERY_ERROR_NOTFOUND, /* no such event in the model */
    PMS_IA64_QUERY_ERROR_INVAL,    /* not an ia64 model; not an EAR event (ear mode) */
} PmsIa64QueryError;

/* The event of an ia64 model by name (case-insensitive). */
const PmsEvent *pms_ia64_event(const PmsModel *m, const char *name, GError **error);

gboolean pms_ia64_is_ear(const PmsEvent *ev); /* I-EAR or D-EAR */
gboolean pms_ia64_is_dear(const PmsEvent *ev);
gboolean pms_ia64_is_dear_tlb(const PmsEvent *ev);
gboolean pms_ia64_is_dear_cache(const PmsEvent *ev);
gboolean pms_ia64_is_dear_alat(const PmsEvent *ev);
gboolean pms_ia64_is_iear(const PmsEvent *ev);
gboolean pms_ia64_is_iear_tlb(const PmsEvent *ev);
gboolean pms_ia64_is_iear_cache(const PmsEvent *ev);
gboolean pms_ia64_is_etb(const PmsEvent *ev);       /* programs PMC39 */
gboolean pms_ia64_support_opcm(const PmsEvent *ev); /* accurate under opcode matching */
gboolean pms_ia64_support_iarr(const PmsEvent *ev); /* ... under code-range restriction */
gboolean pms_ia64_support_darr(const PmsEvent *ev); /* ... under data-range restriction */
/* Any TLB / cache / ALAT-mode EAR event (I- or D-EAR). */
gboolean pms_ia64_is_tlb(const PmsEvent *ev);
gboolean pms_ia64_is_cache(const PmsEvent *ev);
gboolean pms_ia64_is_alat(const PmsEvent *ev);

/* Most occurrences per cycle: thres must be below it. */
guint pms_ia64_max_inc(const PmsEvent *ev);
/* The event's umask: the counting PMC's umask, or for an EAR event the umask
 * of its EAR configuration register (PMC37/PMC40). */
guint32 pms_ia64_umask(const PmsEvent *ev);
/* Cache event group (PMS_IA64_GROUP_NONE for most events) and set (-1: none). */
PmsIa64CacheGroup pms_ia64_group(const PmsEvent *ev);
gint pms_ia64_set(const PmsEvent *ev);
PmsIa64EventType pms_ia64_type(const PmsEvent *ev);
/* The EAR mode; FALSE (PMS_IA64_QUERY_ERROR_INVAL) for an event that is no EAR event. */
gboolean pms_ia64_ear_mode(const PmsEvent *ev, PmsIa64EarMode *mode, GError **error);

G_END_DECLS
