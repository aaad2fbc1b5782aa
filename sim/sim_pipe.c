/* pmusim — the pure per-cycle counting pipeline of one counter.
 *
 * No state but the edge latch passed in and out, so the reference engine (one
 * call per cycle) and the fast engine (the run's first cycle and, when the
 * edge latch changed in it, its steady state) cannot disagree on a rule.  Order of the stages
 * (docs/semantics.md §1): privilege filter, any-thread combine, threshold
 * (cmask/inv), edge, then the CPL gate for own-thread counting (A3 post).
 * The Itanium device uses the same stages with a per-level privilege mask
 * (per_level, plm), no edge and no invert (semantics.md §11).  The stages
 * are sim_pipe_eval.h's, inline for the engines. */
#include "sim_pipe_eval.h"

PmsPipeOut pms_sim_pipe(const PmsPipeCfg *c, const guint64 *n, const guint8 *cpl, gboolean latch)
{
    return sim_pipe_eval(c, n, cpl, latch);
}
