/* pmusim — harness/family's own header: what the hooks share (common.c)
 * and what the three x86 families share (x86_common.c).  Not seen outside harness/family. */
#pragma once

#include "cli_family.h"
#include "sim.h"

G_BEGIN_DECLS

/* ---- ia64_measure.c ---- */

extern const PmsCliForward pms_ia64_encode_forward;

/* ---- common.c ---- */

/* Whether bit `bit` lies in field `name` of r. */
gboolean pms_fam_field_bit(const PmsRegister *r, const char *name, guint bit);
/* The value of the event's unit mask `name`, 0 when it has none. */
guint64 pms_fam_umask_value(const PmsEvent *ev, const char *name);

/* ---- x86_common.c: the event-select families ---- */

/* The evtsel fields the pipeline reads (docs/semantics.md §3). */
typedef struct {
    gboolean usr, os, edge, inv, any, en, intr, fixed, smt;
    guint64 cmask;
    const char *rings; /* which rings qualify, NULL for none */
} PmsFamSel;

char *pms_x86_umask_names(const PmsEncoding *enc, const char *which);
char *pms_x86_describe_signal(const PmsEncoding *enc, const PmsRegister *es, guint64 sel, const char *name);
char *pms_x86_threshold_phrase(const PmsFamSel *f, const char *sig);
/* f->rings from f->usr and f->os: "at CPL 0 and CPL>0", ..., NULL for none. */
const char *pms_x86_rings(const PmsFamSel *f);
void pms_x86_explain_threshold(GString *o, const PmsFamSel *f);

const PmsRegister *pms_x86_decode_reg(const PmsModel *m);
void pms_x86_list_event(GString *o, const PmsModel *m, const PmsEvent *ev);
guint32 pms_x86_own_signal(const PmsModel *m, const guint64 *codes, guint n_codes);
/* The event-select bits no count can show; inv_why: the family's sentence
 * for an invert bit without a threshold. */
const char *pms_x86_unobservable(const PmsModel *m, const PmsEvent *ev, const guint64 *codes, guint n_codes, guint code,
                                 guint bit, const char *inv_why);
/* The unobservable hook of the families whose INV needs a counter mask. */
const char *pms_x86_unobservable_cmask(const PmsModel *m, const PmsEvent *ev, guint counter, const guint64 *codes,
                                       guint n_codes, guint code, guint bit);

G_END_DECLS
