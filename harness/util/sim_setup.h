/* pmusim — the harness's side of programming the simulator: an encoding's
 * writes applied, event strings qualified with their PMU, and the event's own
 * signal as a stimulus.  Codes become register writes in the library
 * (include/pmusim/program.h, pms_sim_program), the same step for every backend. */
#pragma once

#include <glib.h>
#include "encoder.h"
#include "model.h"
#include "sim.h"

G_BEGIN_DECLS

/* The builtin encoding's own writes (PmsEncoding.writes: the program step of
 * include/pmusim/program.h on the lowest counter the event may use), applied to sim;
 * *counter and *fixed say where it went. */
gboolean pms_sim_program_encoding(PmsSim *sim, const PmsEncoding *enc, guint *counter, gboolean *fixed, GError **err);

G_END_DECLS

G_BEGIN_DECLS
/* "pmu::EVENT" for an event string written without a PMU prefix (the
 * encoder never guesses the PMU); the string as given when it has one.  NULL
 * with an error when it has none and pmu is NULL, or names another PMU. */
char *pms_sim_qualify_event(const char *pmu, const char *event, GError **err);
G_END_DECLS

G_BEGIN_DECLS
/* A stimulus run that failed, as one line on stderr; a run over the work
 * bound (PMS_SIM_ERROR_BOUND, pms_sim_set_max_steps) also names --max-steps
 * and what to do. */
void pms_sim_run_error(const GError *err, gint64 max_steps);
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
