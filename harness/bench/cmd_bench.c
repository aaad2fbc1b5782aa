/* pmusim bench — dispatch to one benchmark.  Benchmarks measure and print;
 * they are not tests and assert nothing about speed. */
#include "bench.h"
#include "cli_common.h"

#include <stdio.h>
#include <string.h>

/* Adding a benchmark is one line here (bench sim: the simulator's). */
static const PmsCommand benches[] = {
    { "encode", "encodings per second and model-load time, builtin vs another backend", pms_bench_encode },
    { "sim", "simulated cycles and records per second, fast vs reference engine", pms_bench_sim },
    { "conform", "vectors per second: the built-in suite and a synthetic corpus of 10^6", pms_bench_conform },
};

static void usage(FILE *out)
{
    fprintf(out, "Usage: pmusim bench BENCHMARK [OPTION...]\n\nBenchmarks:\n");
    for (gsize i = 0; i < G_N_ELEMENTS(benches); i++)
        fprintf(out, "  %-8s %s\n", benches[i].name, benches[i].summary);
}

int pms_cmd_bench(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return PMS_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return 0;
    }
    int status;
    if (pms_cli_dispatch(benches, G_N_ELEMENTS(benches), "pmusim bench", argc, argv, &status))
        return status;
    fprintf(stderr, "pmusim: bench: unknown benchmark '%s' (try pmusim bench --help)\n", argv[1]);
    return PMS_EXIT_USAGE;
}

int pms_bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
