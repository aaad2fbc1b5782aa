/* pmusim — the program step's internals: one table of operations per
 * family (program_<family>.c, registered in families.c) behind the dispatch
 * of program.c, and what every step shares.  Not installed.
 *
 * The program step is its own module (static library pms-program) below the
 * encoder and the simulator: both build register writes with it, and it
 * needs nothing but the model (models/). */
#pragma once

#include "model.h"
#include "program.h"
#include "reg_field.h"

/* A family's program step (program.h). */
typedef struct {
    gboolean (*place_on)(const PmsModel *m, const PmsEvent *ev, guint counter, gboolean fixed, GError **error);
    gboolean (*place)(const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask, PmsPlacement *pl);
    gboolean (*writes)(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsRegWrite *w, guint *n,
                       GError **error);
    const PmsRegister *(*counter_reg)(const PmsPlacement *pl);
    guint64 (*status_bit)(const PmsPlacement *pl);
    const PmsRegister *(*status_reg)(const PmsPlacement *pl);
    /* For a set (pms_program_place_set): the general (bit k) and fixed (bit i)
     * counters this encoding may use; NULL when the architecture places no sets. */
    void (*set_counters)(const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask, const guint64 *codes,
                         guint n_codes, guint64 *gp, guint32 *fixed);
    /* Optional: the general counters (bit k) software may use at all
     * (codes NULL), or with these codes (skl: IN_TXCP only where
     * PERFEVTSEL takes it; option smt); NULL: every one. */
    guint64 (*gp_allowed)(const PmsModel *m, const guint64 *codes, guint n_codes);
    /* Optional: the bits of codes[0] gp_allowed reads (it reads no other
     * code); NULL with gp_allowed set: every bit (pms_program_place_code_bits) */
    guint64 (*gp_code_bits)(const PmsModel *m);
    /* Optional: writes, also saying what each write is made of (src[j],
     * pms_program_writes_src; src may be NULL); NULL: every write is
     * PMS_PROGRAM_SRC_OTHER */
    gboolean (*writes_src)(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsRegWrite *w, guint *n,
                           guint8 *src, GError **error);
    /* Without set_counters: where a user places a set instead, for the
     * message ("pmusim dispatch places Montecito's"); NULL: nowhere. */
    const char *sets_elsewhere;
    /* pms_program_metric; NULL: the family has no metrics events */
    gboolean (*metric)(const PmsPlacement *pl, guint64 code0, const PmsRegister **reg, guint *shift, guint *width);
} ProgOps;


/* The family registry's program layer (families.c): the program step of the
 * model's family; NULL when it has none.  The table's check (family.h), for
 * the sim tests. */
const ProgOps *prog_ops_for(const PmsModel *m);
gboolean prog_table_check(GPtrArray *problems);

/* program.c: what every program step shares.  The lowest general counter
 * the event and its selected unit masks may use, else the lowest such fixed
 * counter; whether the event may use a given counter; one write appended. */
gboolean prog_place_lowest(const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask, PmsPlacement *pl);
/* The same choice among counters already known (general gp, fixed fx). */
gboolean prog_place_lowest_of(const PmsModel *m, const PmsEvent *ev, guint64 gp, guint32 fx, PmsPlacement *pl);
gboolean prog_place_on_counters(const PmsModel *m, const PmsEvent *ev, guint counter, gboolean fixed, GError **error);
/* Inline: every encoding's writes are a few of these. */
static inline void prog_put_write(PmsRegWrite *w, guint *n, const PmsRegister *r, guint64 value, guint64 mask)
{
    w[*n] = (PmsRegWrite){ r->name, r->address, value & mask, mask, r };
    (*n)++;
}
/* prog_put_write for a ProgOps.writes_src: src[write] = from (a code's
 * index or PMS_PROGRAM_SRC_*), unless src is NULL. */
static inline void prog_put_write_src(PmsRegWrite *w, guint *n, guint8 *src, guint8 from, const PmsRegister *r,
                                      guint64 value, guint64 mask)
{
    if (src)
        src[*n] = from;
    prog_put_write(w, n, r, value, mask);
}
/* ProgOps.writes of a family whose counter k takes codes[0] whole in its
 * event select (kind evtsel, index k) and that has no extra register
 * (amd64, toy): no_extra is the message for a second code. */
gboolean prog_writes_ctl_only(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsRegWrite *w, guint *n,
                              const char *no_extra, GError **error);
/* Every counter prog_place_lowest chooses from: general (bit k) and fixed (bit i). */
void prog_place_allowed(const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask, guint64 *gp, guint32 *fixed);
/* ProgOps.set_counters of a family whose codes never narrow the counters
 * (x86 uncore, amd64): prog_place_allowed's. */
void prog_set_counters_allowed(const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask, const guint64 *codes,
                               guint n_codes, guint64 *gp, guint32 *fixed);

/* prog_field.c: a family's step resolves its fields once (its prog_cache)
 * and keeps the first field it cannot do without that the model lacks
 * (*missing, from sim_field_missing); its writes then refuse the model with
 * PMS_PROGRAM_ERROR_MODEL instead of guessing a position. */
void prog_need(char **missing, const PmsRegister *r, SimField f, const char *what);
gboolean prog_model_ok(const PmsModel *m, const char *missing, GError **error);
