/* pmusim fuzz target: event strings through the whole encoder.
 * The input is one event string ([pmu::]EVENT[:UMASK...][:mod[=val]...], with
 * or without a PMU prefix) encoded over the built-in model set; when it
 * encodes, its fstr is encoded again, the codes are decoded, and the
 * encoding is encoded with every privilege mask. */
#include <string.h>
#include "fuzz.h"
#include "encoder.h"

static PmsModelSet *models;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_fatal_criticals();
    models = pms_model_set_new_builtin(NULL);
    if (!models)
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree char *str = fuzz_strdup(data, size);
    g_autoptr(GError) e = NULL;
    g_autoptr(PmsEncoding) enc = pms_encode(models, str, &e);
    if (!enc) {
        /* Every refusal carries a class and a message. */
        if (!e || e->domain != PMS_ENCODE_ERROR || !e->message)
            abort();
        return 0;
    }
    if (!enc->fstr || !enc->model || !enc->event || enc->n_codes > G_N_ELEMENTS(enc->codes))
        abort();
    g_autoptr(GError) e2 = NULL;
    pms_encoding_free(pms_encode(models, enc->fstr, &e2));
    g_autoptr(GError) e3 = NULL;
    g_free(pms_decode(enc->model, enc->codes[0], enc->n_codes > 1, enc->n_codes > 1 ? enc->codes[1] : 0, &e3));
    /* Another privilege mask (0x10: refused) on the same string. */
    pms_encoding_free(pms_encode_plm(models, str, (guint)(size & 0xf) ? (guint)(size & 0xf) : 0x10, NULL));
    return 0;
}
