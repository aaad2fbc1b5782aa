/* pmusim — Montecito's measurement options (libpfm_montecito(3)'s
 * parameters: code and data ranges, opcode matchers, EARs, ETB, IP-EAR),
 * declared once for `pmusim dispatch`, which acts on them, and for
 * `pmusim encode`, which hands them on to it (PmsCliForward). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
    char **iranges, **dranges, **ears;
    char *opcm1, *opcm2, *etb, *ipear;
    gboolean inv, no_fine, system_wide, demand, prefetch;
} PmsIa64MeasureOpts;

/* The options, their values stored in o; ended by a zeroed entry.  Free
 * the array with g_free (not the strings: they are static). */
GOptionEntry *pms_ia64_measure_entries(PmsIa64MeasureOpts *o);
/* Free the values parsed into o and zero it. */
void pms_ia64_measure_clear(PmsIa64MeasureOpts *o);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(PmsIa64MeasureOpts, pms_ia64_measure_clear)

G_END_DECLS
