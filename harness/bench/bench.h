/* pmusim bench — one function per benchmark; cmd_bench.c holds the table.
 * `bench sim` is added by the simulator (bench_sim.c + one table line). */
#pragma once

int pms_cmd_bench(int argc, char **argv); /* cmd_bench.c: `pmusim bench NAME` (commands.h) */

int pms_bench_encode(int argc, char **argv);  /* bench_encode.c */
int pms_bench_sim(int argc, char **argv);     /* bench_sim.c */
int pms_bench_conform(int argc, char **argv); /* bench_conform.c */
/* bench_conform_reports.c: `pmusim conform` with --tap, --junit and
 * --write-expect on a corpus of n vectors on disk (under keep, kept, when not
 * NULL), its peak memory; 1 when it could not run. */
int pms_bench_conform_reports(unsigned n, const char *keep);
/* A command run in a process whose peak memory is its own (a fresh pmusim
 * forks it: a child's ru_maxrss starts from its parent's size): its peak RSS
 * in MB, its wait status and its CPU seconds (user + system); FALSE when it
 * could not be run. */
int pms_bench_run_measured(const char *const *cmd, const char *out, const char *err, double *mb, int *status,
                           double *cpu);
/* The helper's side (`bench conform --measured-run RESULT -- CMD...`). */
int pms_bench_measured_helper(char **cmd, const char *result, const char *out, const char *err);

/* cmd_bench.c: qsort/g_array_sort's order of doubles, for the medians every
 * benchmark takes. */
int pms_bench_cmp_double(const void *a, const void *b);
