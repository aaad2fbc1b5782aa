/* pmusim — the LBR ring as text, for `pmusim sim` (after the counts) and the
 * table / teaching traces (one line or sentence where branches went in). */
#pragma once

#include <glib.h>
#include "sim.h"

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

G_END_DECLS
