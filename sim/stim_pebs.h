/* pmusim — the stimulus's PEBS records (sim/stim_pebs.c), the x86 core
 * device's record keywords (SimDeviceOps.records).  Not installed. */
#pragma once

#include "sim_input.h"

/* ds, regs, expect-pebs, expect-record; NULL-terminated */
extern const SimStimRecordType *const sim_stim_pebs_records[];
