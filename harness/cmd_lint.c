/* pmusim lint — run the model lint (models/lint.c) over the built-in models and
 * any --model FILE, or only the PMUs named.  One line per problem
 * ("FILE:LINE: message"), a summary line, exit 1 when a problem was found.
 *
 * A model the loader accepts must never make a later command fail: besides
 * the model lint (which cannot see the simulator, a higher layer), every
 * model is given to pms_sim_new, whose device checks (counter numbers and
 * widths, the fields it reads by name, its [options] values) are the ones
 * `pmusim sim` and `conform --kind sim` would meet; their refusal is a
 * problem too, named by the model's file and [pmu] line. */
#include <stdio.h>
#include "cli_common.h"
#include "commands.h"
#include "sim.h"

int pms_cmd_lint(int argc, char **argv)
{
    g_auto(GStrv) model_files = NULL;
    g_autoptr(GOptionContext) ctx =
        pms_cli_context("[PMU...]",
                        "Check model files for inconsistencies (duplicate encodings, empty unit-mask groups,\n"
                        "missing defaults, bad counter masks, overlapping fields, ...) and what the simulator\n"
                        "would refuse (counter widths, register fields, [options] values).",
                        NULL, &model_files);
    pms_cli_help(ctx,
                 "0 no problem; 1 a problem found, or a model file that does not load; 2 usage error or "
                 "unknown PMU.",
                 "  pmusim lint\n"
                 "  pmusim lint --model my-wsm.pmu\n");
    if (!pms_cli_parse(ctx, &argc, &argv))
        return PMS_EXIT_USAGE;
    g_autoptr(PmsModelSet) set = pms_cli_load_models(model_files);
    if (!set)
        return 1;

    g_autoptr(GPtrArray) models = pms_cli_models_named(set, argc, argv);
    if (!models)
        return PMS_EXIT_USAGE; /* an unknown PMU name is a bad argument, as in diff and bench */

    guint n_problems = 0;
    for (guint i = 0; i < models->len; i++) {
        const PmsModel *m = g_ptr_array_index(models, i);
        g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
        pms_model_lint(m, problems);
        g_autoptr(GError) err = NULL;
        g_autoptr(PmsSim) sim = pms_sim_new(m, &err);
        if (!sim)
            g_ptr_array_add(problems, g_strdup_printf("%s (the simulator refuses the model)", err->message));
        for (guint j = 0; j < problems->len; j++)
            printf("%s\n", (const char *)g_ptr_array_index(problems, j));
        n_problems += problems->len;
    }
    printf("%u model%s checked, %u problem%s\n", models->len, models->len == 1 ? "" : "s", n_problems,
           n_problems == 1 ? "" : "s");
    return n_problems ? 1 : 0;
}
