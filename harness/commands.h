/* pmusim CLI — one file per subcommand (cmd_<name>.c), each parsing its own
 * options with GOptionContext.  main.c holds the table below; adding a command
 * is one line there.  A command returns the process exit status. */
#pragma once

#include <glib.h>
#include "model.h"
#include "encoder.h"

/* Run the named command (main.c's table) with argv[0] its name: for a
 * command that hands its work to another (encode's PmsCliForward). */
int pms_cli_run_command(const char *name, int argc, char **argv);

int pms_cmd_encode(int argc, char **argv);  /* cmd_encode.c (also --batch) */
int pms_cmd_decode(int argc, char **argv);  /* cmd_decode.c */
int pms_cmd_list(int argc, char **argv);    /* cmd_list.c */
int pms_cmd_diff(int argc, char **argv);    /* cmd_diff.c */
int pms_cmd_bench(int argc, char **argv);   /* bench/cmd_bench.c: "bench encode", "bench sim" */
int pms_cmd_conform(int argc, char **argv); /* cmd_conform.c */
int pms_cmd_lint(int argc, char **argv);    /* cmd_lint.c */
int pms_cmd_sim(int argc, char **argv);     /* cmd_sim.c: per-cycle trace of one event */
int pms_cmd_explain(int argc, char **argv); /* cmd_explain.c: register fields in plain words */
/* cmd_sim_compare.c: `sim --compare FILE`: argv (argv[0] "sim") run twice,
 * on the built-in models (with model_files) and with FILE added; prints
 * what FILE changes, both outputs and their differences.  Exit status. */
int pms_sim_compare(const char *file, char **model_files, int argc, char **argv);
/* cmd_sim.c: the worked example `explain --occurrences` prints: the
 * encoding programmed, occ/cpl (the options' text, cpl may be NULL) run
 * from preload, the table with its sentences appended to out.  Returns an
 * exit status (one stderr line when not 0). */
int pms_sim_worked_example(const PmsEncoding *enc, const char *occ, const char *cpl, guint64 preload, GString *out);
int pms_cmd_ranges(int argc, char **argv);   /* cmd_ranges.c: Montecito IBR/DBR range restriction */
int pms_cmd_dispatch(int argc, char **argv); /* cmd_dispatch.c: Montecito dispatch (include/pmusim/ia64_dispatch.h) */
