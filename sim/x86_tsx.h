/* pmusim — Intel TSX for the x86 core device: thread 0's transactional
 * regions and the PERFEVTSEL qualifiers IN_TX (bit 32) and IN_TXCP (bit 33),
 * SDM Vol. 3B 18.11.5.1 (docs/semantics.md §8d).  Not installed. */
#pragma once

#include "sim_internal.h"

enum { SIM_TSX_MAX_GP = 8, SIM_TSX_MAX_OPS = 8 };

/* What a run's `tx=` token says happens at its start. */
typedef enum { SIM_TX_BEGIN, SIM_TX_COMMIT, SIM_TX_ABORT } SimTxOp;

typedef struct {
    SimField in_tx, in_txcp;      /* PERFEVTSEL's fields; absent: no TSX qualifiers */
    gboolean status_rollback;     /* option txcp_status = rollback (default) */
    guint depth;                  /* nesting depth of thread 0's region (0: outside) */
    guint64 ckpt[SIM_TSX_MAX_GP]; /* the general counters at the outermost begin */
    guint64 ckpt_status;          /* GLOBAL_STATUS at that begin */
} SimTsx;

/* The model's in_tx / in_txcp fields of PERFEVTSEL0 (optional) and the
 * option txcp_status (FALSE with PMS_SIM_ERROR_MODEL for another value). */
gboolean sim_tsx_init(SimTsx *t, const PmsModel *m, GError **error);
/* RESET: outside any region. */
void sim_tsx_reset(SimTsx *t);
/* The run's begin/commit/abort operations, in token order, before the run
 * counts: a begin at depth 0 checkpoints the general counters and
 * GLOBAL_STATUS; an abort restores every IN_TXCP counter (and, by the
 * option, clears the status bits its overflows set since) and leaves every
 * region; a commit leaves the innermost one. */
void sim_tsx_apply(SimTsx *t, const SimTxOp *ops, guint n, guint64 *const *evtsel, guint64 *const *pmc, guint n_gp,
                   guint64 *status, const guint64 *st_bit);
/* Whether a general counter programmed with `evtsel` counts now: not when
 * IN_TX is set outside a region. */
static inline gboolean sim_tsx_counts(const SimTsx *t, guint64 evtsel)
{
    /* inline: the engines ask it of every general counter every run */
    return t->depth > 0 || !sim_fget(t->in_tx, evtsel);
}
/* Inside a region now (the LBR's in-TSX bit). */
static inline gboolean sim_tsx_inside(const SimTsx *t)
{
    return t->depth > 0;
}
/* The x86 core's `tx=begin|commit|abort` key (a list of SimTxOp). */
gboolean sim_tsx_key(const PmsModel *m, const char *value, gpointer field, GError **error);
