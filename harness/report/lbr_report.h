/* pmusim — the LBR ring as text, for `pmusim sim` (after the counts) and the
 * table / teaching traces (one line or sentence where branches went in). */
#pragma once

#include <glib.h>
#include "sim.h"
#include "lbr.h"

G_BEGIN_DECLS

/* Append the ring of sim's LBR: "lbr tos=T entries=N" and one line per
 * non-empty entry, newest first ("lbr[T] age=0 from=0x... to=0x...
 * mispred=B FROM_IP=0x... TO_IP=0x..."), the addresses decoded through the
 * model's lbr_from / lbr_to layouts.  Appends nothing when the ring is empty
 * (TOS 0 and no entry written) or the model has no LBR, so outputs of runs
 * without branches do not change.  Returns whether it appended. */
gboolean pms_lbr_ring_text(PmsSim *sim, GString *out);

/* For a trace record whose cycle offered branches (t->lbr_offered > 0): "the
 * LBR recorded 2 of the 3 branches (MSR_LASTBRANCH_TOS now 5)" or why it
 * recorded none (no newline, no cycle).  Appends nothing otherwise. */
void pms_lbr_trace_words(GString *out, const PmsSimTrace *t);

/* The CLI's --lbr options encoded for --pmu (the messages on stderr);
 * returns the exit status as pms_lbr_encode_cli. */
int pms_lbr_cli_encoding(const PmsModelSet *models, const char *pmu, guint dfl_plm, const char *plm_text,
                         const char *filter_text, gboolean freeze, gboolean callstack, const PmsModel **model,
                         PmsLbrEncoding *out);

/* pmusim encode --lbr: encode the LBR configuration for model `pmu`
 * (dfl_plm: --plm's mask, standing in for --lbr-plm 0) and print its two
 * registers, or the error.  Returns the exit status: 0, 1 when the encoder
 * refuses it (PLM1/PLM2, call-stack mode on a model without it), 2 for a
 * list that does not parse or no --pmu. */
int pms_lbr_encode_cli(const PmsModelSet *models, const char *pmu, guint dfl_plm, const char *plm_text,
                       const char *filter_text, gboolean freeze, gboolean callstack);

/* pmusim explain --lbr: the configuration's registers, their fields and
 * pms_lbr_describe's sentences appended to o; the exit status as above. */
int pms_lbr_explain_cli(const PmsModelSet *models, const char *pmu, const char *plm_text, const char *filter_text,
                        gboolean freeze, gboolean callstack, GString *o);

G_END_DECLS
