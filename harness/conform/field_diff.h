/* pmusim — an encoding failure told field by field: which fields of which
 * register the backend's codes set differently from the vector's, by name and
 * bit range, with both values (issue 18). */
#pragma once

#include <glib.h>
#include "model.h"
#include "vectors.h"

G_BEGIN_DECLS

/* The differences of got[0..n) from the vector's codes, register by register:
 * "IA32_PERFEVTSEL0 differs: edge (bit 18): expected 1, got 0; pc (bit 19):
 * expected 0, got 1".  codes[0] is read with the layout of the PMU's event
 * select (the register `pmusim decode` reads), codes[1] with the event's
 * extra register; bits no field holds are named as bits.  *cause (when not
 * NULL) gets the same without the values, the key failures are grouped by.
 * NULL when no code differs. */
char *pms_conform_field_diff(const PmsModelSet *models, const PmsVector *v, const guint64 *got, guint n, char **cause);

/* The same for any codes: want[0..n_want) the reference codes of `event` (a
 * string of PMU pmu), got[0..n) the backend's. */
char *pms_conform_codes_diff(const PmsModelSet *models, const char *pmu, const char *event, const guint64 *want,
                             guint n_want, const guint64 *got, guint n, char **cause);

/* A PmsVectorExplainFunc; user_data is a const PmsModelSet*. */
char *pms_conform_explain(const PmsVector *v, const PmsVectorAnswer *a, char **cause, gpointer user_data);

G_END_DECLS
