/* pmusim fuzz — replay inputs through a fuzz target without libFuzzer:
 *   fuzz-replay-<name> FILE|DIR...
 * Runs LLVMFuzzerTestOneInput on each file (each regular file of a
 * directory, sorted) and prints how many; a crash is the test's failure.
 * Meson runs it over fuzz/regress/<name>/ in every build. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "fuzz.h"

static int run_file(const char *path)
{
    g_autofree char *data = NULL;
    gsize len = 0;
    g_autoptr(GError) e = NULL;
    if (!g_file_get_contents(path, &data, &len, &e)) {
        fprintf(stderr, "fuzz-replay: %s\n", e->message);
        return 1;
    }
    printf("%s (%zu bytes)\n", path, (size_t)len);
    fflush(stdout);
    LLVMFuzzerTestOneInput((const uint8_t *)data, len);
    return 0;
}

static gint cmp_str(gconstpointer a, gconstpointer b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(int argc, char **argv)
{
    LLVMFuzzerInitialize(&argc, &argv);
    guint n = 0;
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        if (!g_file_test(argv[i], G_FILE_TEST_IS_DIR)) {
            bad |= run_file(argv[i]);
            n++;
            continue;
        }
        g_autoptr(GError) e = NULL;
        GDir *d = g_dir_open(argv[i], 0, &e);
        if (!d) {
            fprintf(stderr, "fuzz-replay: %s\n", e->message);
            return 1;
        }
        g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
        for (const char *name; (name = g_dir_read_name(d));)
            if (name[0] != '.' && strcmp(name, "README") != 0)
                g_ptr_array_add(names, g_build_filename(argv[i], name, NULL));
        g_dir_close(d);
        g_ptr_array_sort(names, cmp_str);
        for (guint j = 0; j < names->len; j++)
            if (g_file_test(names->pdata[j], G_FILE_TEST_IS_REGULAR)) {
                bad |= run_file(names->pdata[j]);
                n++;
            }
    }
    printf("fuzz-replay: %u inputs, no crash\n", n);
    return bad;
}
