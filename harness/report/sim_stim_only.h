/* pmusim sim --stim FILE without -e (harness/report/sim_stim_only.c). */
#pragma once

#include <glib.h>

/* Run the stimulus on its model and print every counter's final value;
 * the exit status of `pmusim sim`. */
int pms_sim_stim_only(const char *pmu, const char *stim, char **model_files, const char *engine, const char *format,
                      gint64 max_steps);
