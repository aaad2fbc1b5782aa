/* pmusim bench — one function per benchmark; cmd_bench.c holds the table.
 * `bench sim` is added by the simulator (bench_sim.c + one table line). */
#pragma once

int pms_cmd_bench(int argc, char **argv); /* cmd_bench.c: `pmusim bench NAME` (commands.h) */

int pms_bench_encode(int argc, char **argv);  /* bench_encode.c */
int pms_bench_sim(int argc, char **argv);     /* bench_sim.c */
int pms_bench_conform(int argc, char **argv); /* bench_conform.c */

/* cmd_bench.c: qsort/g_array_sort's order of doubles, for the medians every
 * benchmark takes. */
int pms_bench_cmp_double(const void *a, const void *b);
