/* pmusim — PEBS (precise event-based sampling) configuration on the x86 core
 * PMUs: the encoder's part (encoder/pebs_config.c).  An encoded event on its
 * counter -> the IA32_PEBS_ENABLE bits (and LL_EN with MSR_PEBS_LD_LAT for
 * the load-latency event), after the restrictions of docs/semantics.md §8a.
 * What PEBS then does (the assists, the records, the configuration in
 * words) is the simulator's: pebs.h, which includes this header.
 * Register fields are read from the model's layouts by name (pebs_enable:
 * pebs_en, ll_en; ld_lat: threshold).
 */
#pragma once

#include <glib.h>
#include "pms_api.h"
#include "model.h"
#include "program.h"

G_BEGIN_DECLS

/* ---- configuration ---------------------------------------------------------- */

typedef struct {
    guint counter;         /* the general counter whose PEBS_EN bit is set */
    gboolean load_latency; /* LL_EN set too: the load-latency event */
    guint32 ld_lat;        /* MSR_PEBS_LD_LAT threshold (load_latency only) */
    gboolean interrupt;    /* the event select's INT bit: a PMI follows each assist */
    PmsRegWrite writes[2]; /* IA32_PEBS_ENABLE (this counter's bits only: mask), then
                             * MSR_PEBS_LD_LAT (whole register) when load_latency */
    guint n_writes;
    char *notes; /* choices the configuration relied on (one per line), or NULL */
} PmsPebsConfig;

/* PEBS for the event placed at pl (pms_program_place*), programmed with the
 * encoder's codes (codes[0] the event select, codes[1] the ldlat threshold of
 * the load-latency event).  Refused with PMS_ENCODE_ERROR (PMS_ERR_NOTSUPP:
 * no PEBS there; PMS_ERR_FEATCOMB: a modifier PEBS does not allow;
 * PMS_ERR_ATTR_VAL: the threshold) and a message saying what is allowed:
 *  - a PMU without IA32_PEBS_ENABLE, or a fixed counter;
 *  - a counter without a pebs_en bit (GLM: PMC0 only);
 *  - an event without the model's `pebs` flag (except on perfmon v4, where
 *    PEBS takes every event: semantics.md §5.1);
 *  - AnyThread or edge on NHM/WSM (SDM 18-37); CMASK or INV on the
 *    load-latency event (SDM 18-39);
 *  - the load-latency event without a threshold in codes[1], or one outside
 *    the model's `ldlat` modifier range.
 * INV/CMASK on another NHM/WSM PEBS event, and any of INV/ANY/E/CMASK on GLM,
 * are accepted with a note (semantics.md §1.5 conflict, reduced skid). */
PMS_API gboolean pms_pebs_configure(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsPebsConfig *out,
                                    GError **error);
PMS_API void pms_pebs_config_clear(PmsPebsConfig *c);

G_END_DECLS
