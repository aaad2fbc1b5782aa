/* pmusim decode — a register value back to an event string. */
#include "cli_common.h"
#include "encoder.h"

#include <stdio.h>

int pms_cmd_decode(int argc, char **argv)
{
    g_auto(GStrv) model_files = NULL;
    g_autoptr(GOptionContext) ctx = pms_cli_context("PMU VALUE [EXTRA]",
        "Decode an event-select value (and the extra register value of offcore\n"
        "or load-latency events) into the canonical event string.",
        NULL, &model_files);
    pms_cli_help(ctx, "0 decoded; 1 the value is no event of the PMU (or needs its EXTRA value); 2 usage "
                      "error, a malformed number, an unknown PMU or a model file that does not load.",
        "  pmusim decode wsm 0x5301c0\n"
        "  pmusim decode nhm 0x5301b7 0x2013     an offcore event with its MSR_OFFCORE_RSP_0 value\n"
        "  pmusim decode nhm_unc 0x500309\n");
    if (!pms_cli_parse(ctx, &argc, &argv))
        return PMS_EXIT_USAGE;
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "pmusim: decode: expected PMU VALUE [EXTRA]\n");
        return PMS_EXIT_USAGE;
    }
    guint64 value, extra = 0;
    if (!pms_cli_parse_u64("VALUE", argv[2], &value) ||
        (argc == 4 && !pms_cli_parse_u64("EXTRA", argv[3], &extra)))
        return PMS_EXIT_USAGE;
    g_autoptr(PmsModelSet) models = pms_cli_load_models(model_files);
    if (models == NULL)
        return PMS_EXIT_USAGE;
    const PmsModel *m = pms_cli_model(models, argv[1]);
    if (m == NULL)
        return PMS_EXIT_USAGE;
    g_autoptr(GError) err = NULL;
    g_autofree char *s = pms_decode(m, value, argc == 4, extra, &err);
    if (s == NULL) {
        fprintf(stderr, "pmusim: decode: %s\n", err->message);
        return 1;
    }
    printf("%s\n", s);
    return 0;
}
