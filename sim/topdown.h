/* pmusim — Icelake's top-down hardware (perfmon v5) inside the x86 core
 * device: the slots of a cycle by category (the stimulus's `slots=` run
 * key), and IA32_PERF_METRICS, the level-1 top-down fractions of the slots
 * fixed counter 3 counted since software last wrote PERF_METRICS.  Private
 * to sim/ (dev_x86_core.c is its only user).
 *
 * The choices where no reachable source settles the hardware's behaviour are
 * docs/semantics.md §8c (T1-T6), each with its model option:
 *   slots_width          slots of one unhalted cycle (T1)
 *   perf_metrics_rounding  how a fraction becomes 8 bits (T2)
 *   perf_metrics_width   the internal slot total whose carry sets
 *                        GLOBAL_STATUS.PERF_METRICS_OVF (T3)
 *   perf_metrics_disabled  GLOBAL_CTRL.EN_PERF_METRICS = 0 (T4)
 *   perf_metrics_write   what a write of PERF_METRICS means (T5)
 *
 * The internal counts are settled lazily: within a run every cycle has the
 * same slots, so the slots fixed counter 3 counted since the run began (its
 * value now minus its value then) say how many cycles the metrics counted;
 * the device settles before each run, on every write of fixed counter 3,
 * PERF_METRICS or GLOBAL_CTRL, and on reads of PERF_METRICS and
 * GLOBAL_STATUS.  The engines never know. */
#pragma once

#include "sim_internal.h"

enum { SIM_TD_RETIRING, SIM_TD_BAD_SPEC, SIM_TD_FE_BOUND, SIM_TD_BE_BOUND, SIM_TD_N };

/* One cycle's slots by category (thread 0's), as the run key gives them;
 * `has` FALSE: no slots (a halted cycle, or no top-down input). */
typedef struct {
    gboolean has;
    guint n[SIM_TD_N];
} SimSlots;

typedef enum { SIM_TD_ROUND_SUM255, SIM_TD_ROUND_FLOOR, SIM_TD_ROUND_NEAREST } SimTdRounding;
typedef enum { SIM_TD_OFF_FREEZE, SIM_TD_OFF_ZERO, SIM_TD_OFF_COUNT } SimTdDisabled;
typedef enum { SIM_TD_WRITE_FC3, SIM_TD_WRITE_RESET } SimTdWrite;

typedef struct {
    gboolean present; /* the model has IA32_PERF_METRICS */
    SimTdRounding rounding;
    SimTdDisabled disabled;
    SimTdWrite write;
    guint64 total_mask; /* 2^perf_metrics_width - 1 */
    SimField field[SIM_TD_N];
    SimField gc_en, st_ovf; /* GLOBAL_CTRL / GLOBAL_STATUS perf_metrics (bit 48) */

    /* The state PERF_METRICS reads: the fractions written last (`base`) and
     * fixed counter 3 at that write (`base_slots`, their weight), and the
     * slots of each category counted since. */
    guint64 base_slots;
    guint base[SIM_TD_N];
    guint64 acc[SIM_TD_N];
    guint64 total; /* base_slots + the acc[], mod 2^perf_metrics_width */

    /* The current run: fixed counter 3 at its start (or at the last write),
     * what it adds per counted cycle, the cycle's slots, and whether the
     * metrics count in it (EN_PERF_METRICS, T4). */
    guint64 mark, inc;
    guint cat[SIM_TD_N];
    gboolean on;
} SimTopdown;

/* The slots of one cycle under the model's option slots_width (T1). */
guint sim_td_slots_width(const PmsModel *m);
/* The run key `slots=CAT:N,...` (docs/stimulus-format.md). */
gboolean sim_key_slots(const PmsModel *m, const char *value, gpointer field, GError **error);

/* Options and fields; absent (present FALSE) without PERF_METRICS. */
gboolean sim_td_init(SimTopdown *td, const PmsModel *m, guint n_fixed, GError **error);
void sim_td_reset(SimTopdown *td);
/* Count what fixed counter 3 counted since the mark (its value now:
 * fc3, its mask); a carry of the internal total sets the status bit. */
void sim_td_settle(SimTopdown *td, guint64 fc3, guint64 fc3_mask, guint64 *global_status);
/* A new run: FC3 adds `inc` per counted cycle, of which the categories
 * `slots`; `global_ctrl` says whether the metrics count (settle first). */
void sim_td_run(SimTopdown *td, guint64 inc, const SimSlots *slots, guint64 global_ctrl);
/* After fixed counter 3 was written (settle first). */
void sim_td_fc3_written(SimTopdown *td, guint64 fc3);
/* PERF_METRICS as read now, and a write of it (settle first; fc3: FC3 now). */
guint64 sim_td_read(const SimTopdown *td, guint64 global_ctrl);
void sim_td_write(SimTopdown *td, guint64 value, guint64 fc3);
/* The four 8-bit fractions from category counts (rounding rule r): the
 * computation PERF_METRICS reads, for the tests. */
void sim_td_fractions(SimTdRounding r, guint64 base_slots, const guint *base, const guint64 *acc, guint out[SIM_TD_N]);
