/* pmusim — turn an event's codes into simulator register writes.
 *
 * The one place where the harness maps codes onto registers by the PMU's
 * convention (docs/architecture.md): codes[0] goes to the event-select
 * register of a counter the event may use, codes[1] to the event's extra
 * register (MSR_OFFCORE_RSP_n or MSR_PEBS_LD_LAT, named by the model's
 * `extra` key).  Any encoder's codes (builtin, libpfm4, a program) take this
 * path, so a wrong bit shows up as a wrong count.  Shared by `pmusim sim`,
 * `pmusim explain`, the simulation vectors and the mutant run. */
#pragma once

#include <glib.h>
#include "encoder.h"
#include "model.h"
#include "sim.h"

G_BEGIN_DECLS

/* The counter an event uses: the lowest general counter the event (and the
 * unit masks selected in umask_mask, bit i = ev->umasks[i]) may use, or, for
 * an event no general counter takes (fixed_only), the lowest fixed counter
 * with *fixed = TRUE.  FALSE when the event may use neither. */
gboolean pms_sim_event_counter(const PmsModel *m, const PmsEvent *ev, guint64 umask_mask, guint *counter,
                               gboolean *fixed);

/* Write the codes into sim and enable the counter in GLOBAL_CTRL (when the
 * PMU has one); the enable bits inside codes[0] are written as given, so a
 * code without EN counts nothing.
 *   general counter: codes[0] -> PERFEVTSEL<counter> verbatim.
 *   fixed_only event (ev->counters == 0): counter is the FIXED_CTR index;
 *     codes[0]'s usr/os/any/int fields become that counter's EN/ANY/PMI bits
 *     in FIXED_CTR_CTRL (SDM 18-7: EN bit 0 = CPL 0, bit 1 = CPL > 0).
 *   codes[1] (n_codes >= 2) -> the register named by ev->extra_reg.
 * Errors: a counter the event may not use or the PMU lacks, codes[1] for an
 * event without an extra register, a #GP from the simulator (the message
 * names the register and the bits). */
gboolean pms_sim_program(PmsSim *sim, const PmsModel *m, const PmsEvent *ev, guint counter, const guint64 *codes,
                         guint n_codes, GError **err);

/* The builtin encoding on its own counter (pms_sim_event_counter). */
gboolean pms_sim_program_encoding(PmsSim *sim, const PmsEncoding *enc, guint *counter, gboolean *fixed,
                                  GError **err);

/* The address of counter `counter` (PMCx / FIXED_CTRx), 0 when absent. */
guint32 pms_sim_counter_address(const PmsModel *m, guint counter, gboolean fixed);

/* GLOBAL_STATUS bit of a counter (layout `pmc`/`fixed` fields, else SDM bit
 * i / 32+i). */
guint64 pms_sim_status_bit(const PmsModel *m, guint counter, gboolean fixed);

G_END_DECLS

G_BEGIN_DECLS
/* "pmu::EVENT" for an event string written without a PMU prefix (the
 * encoder never guesses the PMU); the string as given when it has one.  NULL
 * with an error when it has none and pmu is NULL, or names another PMU. */
char *pms_sim_qualify_event(const char *pmu, const char *event, GError **err);
G_END_DECLS

G_BEGIN_DECLS
/* One run of the event's OWN signal, as the codes select it: the signal of
 * codes[0]'s event code and unit mask; for an offcore event, a transaction
 * whose request and response bits are those of codes[1] (an in-flight sample
 * when codes[1] selects OUTSTANDING); for a load-latency event, loads whose
 * latency is one above codes[1]'s threshold.  `n` per cycle on thread 0 at
 * CPL cpl (other threads idle at CPL cpl).  in->run points into *in. */
typedef struct {
    PmsSimCount count;
    PmsSimOffcore offcore;
    PmsSimLoad load;
    PmsSimRun run;
} PmsOwnInput;

void pms_sim_own_input(const PmsModel *m, const PmsEvent *ev, const guint64 *codes, guint n_codes, guint64 n,
                       guint8 cpl, guint64 cycles, PmsOwnInput *in);
G_END_DECLS
