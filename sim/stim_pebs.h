/* pmusim — the stimulus's PEBS records (sim/stim_pebs.c).  Not installed. */
#pragma once

#include "stimulus.h"

typedef struct StimPebs StimPebs;

/* ds, regs, expect-pebs, expect-record */
gboolean sim_stim_pebs_keyword(const char *cmd);
/* tok[0] is the keyword; NULL with *msg (g_free) saying what was expected. */
StimPebs *sim_stim_pebs_parse(const PmsModel *m, char **tok, guint n, char **msg);
gboolean sim_stim_pebs_exec(const StimPebs *sp, PmsSim *sim, GError **error);
void sim_stim_pebs_free(StimPebs *sp);
