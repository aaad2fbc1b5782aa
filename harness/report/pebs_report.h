/* pmusim — the PEBS records a simulation wrote, as text after the counts
 * (pmusim sim). */
#pragma once

#include <glib.h>
#include "sim.h"

/* Appends "# PEBS: ..." lines when the run used PEBS (a DS area was set or a
 * record was written); nothing otherwise, so other runs' output is unchanged. */
void pms_pebs_report(GString *out, const PmsSim *sim);

/* The same as a JSON member, `"pebs": {...}` (the record count, the DS area
 * and each listed record's fields by name, values as hex strings), appended
 * to out; nothing when the run used no PEBS.  Returns whether it appended. */
gboolean pms_pebs_report_json(GString *out, const PmsSim *sim);
