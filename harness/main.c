/* pmusim — entry point: dispatch to one subcommand (cmd_<name>.c). */
#include "cli_common.h"
#include "commands.h"
#include "pmusim_config.h"
#include "suggest.h"

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Adding a command is one line here. */
static const PmsCommand commands[] = {
    { "encode", "encode event strings (human, perf or --batch protocol output)", pms_cmd_encode },
    { "decode", "decode a register value back to an event string", pms_cmd_decode },
    { "list", "list PMUs, events, unit masks and modifiers", pms_cmd_list },
    { "diff", "compare two encoder backends over every event and unit mask", pms_cmd_diff },
    { "bench", "benchmarks: bench encode, bench sim", pms_cmd_bench },
    { "conform", "run the golden vectors against an encoder backend", pms_cmd_conform },
    { "lint", "check model files for inconsistencies", pms_cmd_lint },
    { "sim", "count one event in the simulator, with its per-cycle trace", pms_cmd_sim },
    { "explain", "what an event's register fields make the counter count", pms_cmd_explain },
    { "ranges", "Montecito code/data range restriction: debug registers and PMCs", pms_cmd_ranges },
    { "dispatch", "Montecito dispatch: counters, opcode matchers, EARs, ETB, IP-EAR, ranges", pms_cmd_dispatch },
};

int pms_cli_run_command(const char *name, int argc, char **argv)
{
    for (gsize i = 0; i < G_N_ELEMENTS(commands); i++)
        if (strcmp(name, commands[i].name) == 0)
            return commands[i].run(argc, argv);
    fprintf(stderr, "pmusim: no command '%s'\n", name);
    return PMS_EXIT_USAGE;
}

/* The exit status main returns; 0 on the paths that call exit() themselves
 * (GOption's --help). */
static int exit_status;

/* Output lost is a failure, not a success: at exit (whichever way the
 * process exits) stdout is flushed and closed, and when that or an earlier
 * write failed the status is 1 (or the command's own failure status), with
 * one line on stderr.  A reader that closed the pipe (EPIPE: SIGPIPE is
 * ignored while we run, for the backends' sake) gets the conventional
 * SIGPIPE death instead, silently, as `pmusim list | head` expects. */
static void close_stdout(void)
{
    errno = 0;
    gboolean failed = ferror(stdout) != 0;
    int err = errno;
    if (fclose(stdout) != 0) {
        failed = TRUE;
        err = errno;
    }
    if (!failed)
        return;
    if (err == EPIPE) {
        signal(SIGPIPE, SIG_DFL);
        raise(SIGPIPE);
    }
    fprintf(stderr, "pmusim: error writing standard output%s%s\n", err ? ": " : "", err ? g_strerror(err) : "");
    fflush(stderr);
    _exit(exit_status ? exit_status : 1);
}

/* The command name closest to a misspelt one, or NULL. */
static const char *closest_command(const char *name)
{
    const char *names[G_N_ELEMENTS(commands)];
    for (gsize i = 0; i < G_N_ELEMENTS(commands); i++)
        names[i] = commands[i].name;
    return pms_suggest(name, names, G_N_ELEMENTS(commands));
}

static void usage(FILE *out)
{
    fprintf(out, "Usage: pmusim COMMAND [OPTION...] [ARG...]\n       pmusim --version\n\nCommands:\n");
    for (gsize i = 0; i < G_N_ELEMENTS(commands); i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out,
            "\nEvery command accepts --help, --model FILE and --rules-only (every string encoded by\n"
            "the encoder's rules alone, without the results it keeps: the same answers, slower; a\n"
            "check of those results, e.g. pmusim encode --rules-only --batch < strings.txt).\n"
            "pmusim --version prints the version; pmusim help COMMAND a command's help.\n"
            "Exit status: 0 success, 1 failure or difference, 2 usage error (each command's --help\n"
            "says what its 1 and 2 mean).\n");
}

int main(int argc, char **argv)
{
    /* Writes to a backend program that died must fail with EPIPE, not kill us. */
    signal(SIGPIPE, SIG_IGN);
    /* The user's locale, so that --help prints in the terminal's charset
     * ("[OPTION…]", not "[OPTION?]"); numbers stay in the C locale, because
     * every output here (tables, CSV, JSON) is read by programs too. */
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");
    atexit(close_stdout);
    if (argc < 2) {
        usage(stderr);
        return PMS_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "help") == 0 && argc >= 3) {
        /* pmusim help CMD: that command's --help */
        char *args[] = { argv[0], argv[2], (char *)"--help", NULL };
        int status;
        if (pms_cli_dispatch(commands, G_N_ELEMENTS(commands), "pmusim", 3, args, &status))
            return exit_status = status;
        name = argv[2];
        const char *best = closest_command(name);
        fprintf(stderr, "pmusim: help: no command '%s'%s%s%s (try pmusim --help)\n", name,
                best ? ": did you mean '" : "", best ? best : "", best ? "'?" : "");
        return PMS_EXIT_USAGE;
    }
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
        printf("pmusim %s\n", PMUSIM_VERSION);
        return 0;
    }
    /* Test hook: PMUSIM_RULES_ONLY (any value) is --rules-only for every
     * command, so that meson's `rulesonly` test setup runs the whole suite,
     * CLI included, on the encoder's rule path.  Read here only: the
     * library takes the switch from its caller (pms_model_set_set_encoder_cache). */
    if (g_getenv("PMUSIM_RULES_ONLY"))
        pms_cli_set_rules_only(TRUE);
    int status;
    if (pms_cli_dispatch(commands, G_N_ELEMENTS(commands), "pmusim", argc, argv, &status))
        return exit_status = status;
    const char *best = closest_command(name);
    if (best)
        fprintf(stderr, "pmusim: unknown command '%s': did you mean '%s'? (try pmusim --help)\n", name, best);
    else
        fprintf(stderr, "pmusim: unknown command '%s' (try pmusim --help)\n", name);
    return PMS_EXIT_USAGE;
}
