/* pmusim — helpers every subcommand uses (option context, model loading). */
#pragma once

#include <glib.h>
#include "commands.h"

/* Exit status for usage errors (bad option, missing argument). */
#define PMS_EXIT_USAGE 2

/* A context with the command's entries plus the repeatable --model FILE
 * (stored in *model_files when model_files is non-NULL). */
GOptionContext *pms_cli_context(const char *params, const char *summary, const GOptionEntry *entries,
                                char ***model_files);
/* Parse; on error prints one line on stderr and returns FALSE (exit 2). */
gboolean pms_cli_parse(GOptionContext *ctx, int *argc, char ***argv);
/* The named model, or NULL after printing one line naming the known ones. */
const PmsModel *pms_cli_model(const PmsModelSet *set, const char *name);
/* Parse a decimal or 0x-hex 64-bit value; FALSE (after one stderr line naming
 * `what`) when it is not one. */
gboolean pms_cli_parse_u64(const char *what, const char *text, guint64 *out);
