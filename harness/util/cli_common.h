/* pmusim — helpers every subcommand uses (option context, model loading). */
#pragma once

#include <glib.h>
#include <stdio.h>
#include "model.h"

/* A subcommand: main.c's table (commands.h) and a command's own
 * sub-subcommands (bench) are arrays of these, run by pms_cli_dispatch. */
typedef struct {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
} PmsCommand;

/* A message of several lines (a model file's problems, one a line) on
 * stderr, each line led by "pmusim: ". */
void pms_cli_print_lines(const char *message);

/* Shared option handling (cli_common.c): every subcommand accepts
 * --model FILE (repeatable) and --rules-only (the encoder's plain-result
 * cache off in the set).  Returns the model set, or NULL after printing
 * the problem on stderr (a line for each, pms_cli_print_lines). */
PmsModelSet *pms_cli_load_models(char **model_files);

/* Exit status for usage errors (bad option, missing argument). */
#define PMS_EXIT_USAGE 2

/* A context with the command's entries plus the options of every command
 * when model_files is non-NULL: the repeatable --model FILE (stored in
 * *model_files) and --rules-only (applied by pms_cli_load_models). */
GOptionContext *pms_cli_context(const char *params, const char *summary, const GOptionEntry *entries,
                                char ***model_files);
/* Turn --rules-only on before the command parses its options (main's test
 * hook PMUSIM_RULES_ONLY). */
void pms_cli_set_rules_only(gboolean on);
/* --timeout MS: the option's variable starts as PMS_CLI_TIMEOUT_UNSET;
 * pms_cli_timeout_check turns that into 0 (the backend's default) and
 * refuses a given value below 1 with one line on stderr (FALSE: exit 2). */
#define PMS_CLI_TIMEOUT_UNSET G_MININT
gboolean pms_cli_timeout_check(gint *ms);
/* Parse; on error prints one line on stderr and returns FALSE (exit 2). */
gboolean pms_cli_parse(GOptionContext *ctx, int *argc, char ***argv);
/* When argv[1] names one of cmds: run it on argv + 1 under the program name
 * "PROG NAME" (what its messages and --help show), store its exit status and
 * return TRUE.  FALSE when no command has that name. */
gboolean pms_cli_dispatch(const PmsCommand *cmds, gsize n_cmds, const char *prog, int argc, char **argv, int *status);
/* The named model, or NULL after printing one line naming the known ones. */
const PmsModel *pms_cli_model(const PmsModelSet *set, const char *name);
/* The Itanium model --pmu names (montecito when NULL), or NULL after one
 * line on stderr prefixed by `cmd` ("pmusim: ranges: "). */
const PmsModel *pms_cli_ia64_model(const PmsModelSet *set, const char *pmu, const char *cmd);
/* The PMUs named by argv[1..argc-1] in that order, or every model of the set
 * when there are none (const PmsModel*); NULL after pms_cli_model's line for
 * the first unknown name, so that a command checks all names before output. */
GPtrArray *pms_cli_models_named(const PmsModelSet *set, int argc, char **argv);
/* Parse a decimal or 0x-hex 64-bit value; FALSE (after one stderr line naming
 * `what`) when it is not one. */
gboolean pms_cli_parse_u64(const char *what, const char *text, guint64 *out);
/* --ld-lat N of `cmd` (encode, explain): the threshold of a PEBS load-latency
 * sample, so it needs --pebs, and a decimal number of core cycles; FALSE
 * (after one stderr line: a usage error) otherwise. */
gboolean pms_cli_parse_ld_lat(const char *cmd, const char *text, gboolean pebs, guint64 *out);
/* The event string with --ld-lat's value appended as :ldlat=N, so that the
 * encoder checks its range and that the event is the load-latency one;
 * frees `event`. */
char *pms_cli_with_ld_lat(char *event, guint64 ld_lat);
/* `s` fit for one terminal line: control bytes, backslashes and bytes that
 * are not UTF-8 as \xHH (an event string is the user's bytes). */
char *pms_cli_printable(const char *s);
/* Write an output file whole (out_file.h): a regular file (or a new one)
 * through a temporary file renamed over it, so readers never see a partial
 * one; a device or a pipe (/dev/null, /dev/stdout, a FIFO) written in place,
 * never replaced -- renaming over /dev/null as root would destroy it; "-"
 * is standard output. */
gboolean pms_cli_write_file(const char *path, const char *data, gsize len, GError **error);
/* An output option's FILE (NULL: not given) names a file: FALSE, after one
 * stderr line "pmusim: OPTION: ...", for an empty name (a usage error, found
 * before any work; writing it would fail only at the end, renaming a
 * temporary file to ''). */
gboolean pms_cli_output_path_ok(const char *option, const char *path);
/* Parse --plm's LEVELS: privilege levels 0..3 separated by commas ("3",
 * "0,3") into a PMS_PLM* mask; FALSE (after one stderr line) otherwise. */
gboolean pms_cli_parse_plm(const char *text, guint *plm);
/* LEVELS ("0,3": digits 0..3 separated by commas) into a PLM mask (level n
 * is 1 << n), printing nothing; FALSE when malformed. */
gboolean pms_cli_levels(const char *text, guint *plm);
/* End the command's --help with "Exit status:" (what 0, 1 and 2 mean for
 * this command: `exits`, e.g. "0 ..., 1 ..., 2 ...") and "Examples:" with
 * the given lines (each "  pmusim ...\n").  Every command states both. */
void pms_cli_help(GOptionContext *ctx, const char *exits, const char *lines);

/* Colour on stream f: only on a terminal, never with NO_COLOR set (any
 * value, no-color.org) or TERM=dumb; CLICOLOR_FORCE=1 forces it elsewhere
 * (a pipe, a test) unless NO_COLOR is set. */
gboolean pms_cli_colour(FILE *f);
/* s wrapped in the SGR colour `sgr` ("31" red, "32" green, "1;31" bold red,
 * "33" yellow) when colour is on; s itself otherwise.  g_free the result. */
char *pms_cli_paint(gboolean on, const char *sgr, const char *s);
