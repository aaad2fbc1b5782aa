/* pmusim — the whole public API in one include:
 *
 *     #include <pmusim/pmusim.h>      (pkg-config --cflags pmusim)
 *
 * models (model.h), the encoder (encoder.h) and its Montecito range
 * restriction and dispatch (ia64_*.h), the simulator (sim.h, the
 * Itanium device's typed inputs sim_ia64.h, its
 * program step program.h, stimuli stimulus.h) and the golden vectors
 * (vectors.h).  Every function reports errors with GError; none prints or
 * exits. */
#pragma once

#include "pms_api.h"
#include "model.h"
#include "umask_set.h"
#include "family.h"
#include "model_ia64.h"
#include "encoder.h"
#include "ia64_range.h"
#include "ia64_dispatch.h"
#include "program.h"
#include "sim.h"
#include "sim_ia64.h"
#include "stimulus.h"
#include "vectors.h"
#include "pebs.h"
#include "pebs_config.h"
#include "lbr.h"
#include "lbr_config.h"
