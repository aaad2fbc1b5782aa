/* pmusim fuzz targets — what every target shares.  Each fuzz_<name>.c defines
 * LLVMFuzzerInitialize and LLVMFuzzerTestOneInput; the same file links with
 * libFuzzer (-Dfuzz=true) or with replay.c (every build: the regression
 * inputs under fuzz/regress/<name>/ run as meson tests). */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (bytes after an embedded NUL are
 * kept but C-string parsers stop there). */
static inline char *fuzz_strdup(const uint8_t *data, size_t size)
{
    char *s = g_malloc(size + 1);
    if (size)
        memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* glib's default log handler aborts on g_critical only with
 * G_DEBUG=fatal-criticals; make criticals and warnings fatal so a
 * g_return_if_fail reached from input counts as a crash. */
static inline void fuzz_fatal_criticals(void)
{
    g_log_set_always_fatal(G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING | G_LOG_LEVEL_ERROR);
}
