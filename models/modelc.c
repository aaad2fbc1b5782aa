/* pmusim-modelc — build-time tool: load a .pmu model with the library's own
 * loader and write its compiled image (models/model_image.h).
 *
 *   pmusim-modelc INPUT.pmu SOURCE-NAME OUTPUT.pmi
 *
 * SOURCE-NAME ("builtin:glm.pmu") is what messages and the lint will name as
 * the model's origin.  A model the loader rejects fails the build with the
 * loader's file:line message; the output is written atomically, so a failed
 * run leaves no partial image. */
#include <stdio.h>
#include "model.h"
#include "model_image.h"

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s INPUT.pmu SOURCE-NAME OUTPUT.pmi\n", argv[0]);
        return 2;
    }
    g_autoptr(GError) err = NULL;
    g_autofree char *text = NULL;
    gsize len = 0;
    if (!g_file_get_contents(argv[1], &text, &len, &err)) {
        fprintf(stderr, "pmusim-modelc: %s\n", err->message);
        return 1;
    }
    g_autoptr(PmsModel) m = pms_model_load_data(text, len, argv[2], &err);
    if (!m) {
        /* The message names SOURCE-NAME; add the real path for the build log. */
        fprintf(stderr, "pmusim-modelc: %s: %s\n", argv[1], err->message);
        return 1;
    }
    g_autoptr(GBytes) image = pms_model_image_write(m);
    gsize size = 0;
    const char *data = g_bytes_get_data(image, &size);
    if (!g_file_set_contents(argv[3], data, (gssize)size, &err)) {
        fprintf(stderr, "pmusim-modelc: %s\n", err->message);
        return 1;
    }
    return 0;
}
