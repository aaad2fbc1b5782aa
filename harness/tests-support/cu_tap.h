/* pmusim — run a CUnit registry and report in TAP, the protocol meson reads
 * (meson then writes JUnit).  CU_basic_run_tests() returns an error code, not a
 * failure count, so this reads the run summary instead. */
#pragma once
#include <CUnit/CUnit.h>
#include <glib.h>

/* A CLI test program's start: at least `need` arguments (`usage` names
 * them, e.g. "PMUSIM SRCDIR"), then an empty CUnit registry.  0 to go on,
 * else the exit status to return (2 usage, 1 no registry). */
int pms_cu_start(int argc, char **argv, int need, const char *usage);

/* Run every registered suite; print TAP on stdout; return the exit status
 * (0 when every test passed, 1 otherwise).  Cleans up the registry. */
int pms_cu_tap_run(void);

/* A child's stderr without the "profiling: ..." / "libgcov profiling
 * error: ..." lines a coverage build's
 * runtime (libgcov) writes when two processes merge one .gcda file at once:
 * they are the build's, not the program's.  Returns a new string. */
char *pms_cu_strip_gcov(const char *err);

/* A command run to its end (the CLI tests' one runner): its exit status (-1
 * when a signal killed it), its stdout and its stderr without the coverage
 * runtime's lines (pms_cu_strip_gcov).  argv is NULL-terminated, argv[0] the
 * program; input (len bytes) goes to its stdin when not NULL. */
typedef struct {
    int status;
    char *out, *err;
} PmsCuRun;
PmsCuRun pms_cu_run(const char *const *argv, const char *input, gsize len);
/* The same with argv = program, then the blank-separated words of `words`
 * (empty words dropped). */
PmsCuRun pms_cu_run_words(const char *program, const char *words);
void pms_cu_run_clear(PmsCuRun *r);

/* Remove a test's flat scratch directory (g_dir_make_tmp): the files in it,
 * then the directory; quietly ignores what is already gone. */
void pms_cu_remove_scratch(const char *dir);
