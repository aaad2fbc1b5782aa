/* pmusim — the PEBS records a simulation wrote, as text after the counts
 * (pmusim sim). */
#pragma once

#include <glib.h>
#include "sim.h"

/* Appends "# PEBS: ..." lines when the run used PEBS (a DS area was set or a
 * record was written); nothing otherwise, so other runs' output is unchanged. */
void pms_pebs_report(GString *out, const PmsSim *sim);
