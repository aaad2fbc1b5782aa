/* pmusim explain — what an event string makes the counter count.
 *
 *   pmusim explain [--pmu PMU] EVENT [--model FILE]
 *
 * Prints every register the encoder writes with every field of its layout,
 * then the counting pipeline in plain words generated from those field values
 * by the rules of docs/semantics.md §3 (each sentence names its rule), and a
 * one-sentence summary.  Nothing here counts: the words follow the same rules
 * the simulator's pipeline (sim/sim_pipe.c) implements.  The words are the
 * family's (its explain hook, harness/family/<family>.c). */
#include "suggest.h"
#include "cli_common.h"
#include "cli_family.h"
#include "commands.h"
#include "lbr_report.h"
#include "encoder.h"
#include "pebs.h"
#include "sim_setup.h"

#include <stdio.h>


int pms_cmd_explain(int argc, char **argv)
{
    g_autofree char *pmu = NULL, *occ = NULL, *cpl = NULL, *preload_text = NULL, *ld_lat = NULL;
    gboolean pebs = FALSE, lbr = FALSE, lbr_freeze = FALSE, lbr_callstack = FALSE;
    g_autofree char *lbr_plm = NULL, *lbr_filter = NULL;
    g_auto(GStrv) model_files = NULL;
    const GOptionEntry entries[] = {
        { "pmu", 'p', 0, G_OPTION_ARG_STRING, &pmu, "PMU of an event written without PMU::", "PMU" },
        { "occurrences", 0, 0, G_OPTION_ARG_STRING, &occ,
          "After the rules, a worked example: these occurrences of the event's own signal, one per cycle", "N,N,..." },
        { "cpl", 0, 0, G_OPTION_ARG_STRING, &cpl, "CPL (0..3) of each --occurrences cycle (default 3)", "C,C,..." },
        { "preload", 0, 0, G_OPTION_ARG_STRING, &preload_text, "Counter value before the example's cycle 0", "VALUE" },
        { "pebs", 0, 0, G_OPTION_ARG_NONE, &pebs, "Also PEBS for the event on its counter, and what it captures",
          NULL },
        { "ld-lat", 0, 0, G_OPTION_ARG_STRING, &ld_lat,
          "With --pebs: load-latency threshold in core cycles (the load-latency event's :ldlat=N)", "N" },
        { "lbr", 0, 0, G_OPTION_ARG_NONE, &lbr, "Explain an LBR configuration of --pmu (as encode --lbr)", NULL },
        { "lbr-plm", 0, 0, G_OPTION_ARG_STRING, &lbr_plm, "Privilege levels the LBR records: 0, 3 or 0,3", "LEVELS" },
        { "lbr-filter", 0, 0, G_OPTION_ARG_STRING, &lbr_filter, "Branch classes the LBR drops (as encode)", "NAMES" },
        { "lbr-freeze", 0, 0, G_OPTION_ARG_NONE, &lbr_freeze, "Freeze the LBR on a PMI", NULL },
        { "lbr-callstack", 0, 0, G_OPTION_ARG_NONE, &lbr_callstack,
          "Call-stack mode: returns pop the newest entry (LBR_SELECT.EN_CALLSTACK; glm)", NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    g_autoptr(GOptionContext) ctx = pms_cli_context(
        "EVENT", "Show the register fields an event string sets and what the counter will count with them.", entries,
        &model_files);
    pms_cli_help(ctx,
                 "0 explained; 1 the encoder rejects the event (the line names its PFM_ERR_ class); 2 "
                 "usage error, an event without PMU, or a model file that does not load.",
                 "  pmusim explain 'wsm::INST_RETIRED:ANY_P:c=2:i'\n"
                 "  pmusim explain --pmu glm INST_RETIRED:ANY_P:u\n"
                 "  pmusim explain nhm_unc::UNC_LLC_MISS:ANY\n"
                 "  pmusim explain montecito::NOPS_RETIRED:thres=3:u\n"
                 "  pmusim explain 'wsm::INST_RETIRED:ANY_P:u:c=2' --occurrences 3,3,3 --cpl 0,3,0\n"
                 "  pmusim explain --pebs --ld-lat 16 nhm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD\n"
                 "  pmusim explain --pmu nhm --lbr --lbr-plm 3 --lbr-filter near_rel_jmp   what the LBR records\n");
    if (!pms_cli_parse(ctx, &argc, &argv))
        return PMS_EXIT_USAGE;
    if (!lbr && (lbr_plm || lbr_filter || lbr_freeze || lbr_callstack)) {
        fprintf(stderr, "pmusim: explain: --lbr-plm, --lbr-filter, --lbr-freeze and --lbr-callstack go with --lbr\n");
        return PMS_EXIT_USAGE;
    }
    if (lbr && argc == 1) {
        /* the LBR configuration alone */
        if (occ || cpl || preload_text) {
            fprintf(stderr, "pmusim: explain --lbr: --occurrences, --cpl and --preload need an EVENT\n");
            return PMS_EXIT_USAGE;
        }
        g_autoptr(PmsModelSet) models = pms_cli_load_models(model_files);
        if (!models)
            return PMS_EXIT_USAGE;
        g_autoptr(GString) o = g_string_new(NULL);
        int st = pms_lbr_explain_cli(models, pmu, lbr_plm, lbr_filter, lbr_freeze, lbr_callstack, o);
        if (st == 0)
            fputs(o->str, stdout);
        return st;
    }
    if (argc != 2) {
        fprintf(stderr, "pmusim: explain: expected one EVENT argument\n");
        return PMS_EXIT_USAGE;
    }
    if ((cpl || preload_text) && !occ) {
        fprintf(stderr, "pmusim: explain: --cpl and --preload go with --occurrences (the worked example)\n");
        return PMS_EXIT_USAGE;
    }
    guint64 preload = 0;
    if (preload_text && !pms_cli_parse_u64("--preload", preload_text, &preload))
        return PMS_EXIT_USAGE;
    guint64 ld_lat_v = 0;
    if (ld_lat && !pms_cli_parse_ld_lat("explain", ld_lat, pebs, &ld_lat_v))
        return PMS_EXIT_USAGE;
    g_autoptr(GError) err = NULL;
    g_autofree char *qualified = pms_sim_qualify_event(pmu, argv[1], &err);
    if (!qualified) {
        fprintf(stderr, "pmusim: explain: %s\n", err->message);
        return PMS_EXIT_USAGE;
    }
    g_autoptr(PmsModelSet) models = pms_cli_load_models(model_files);
    if (!models)
        return PMS_EXIT_USAGE;
    /* --pmu names a PMU of the model set: an unknown one is a usage error (exit 2) */
    if (pmu && !pms_cli_model(models, pmu))
        return PMS_EXIT_USAGE;
    if (ld_lat)
        qualified = pms_cli_with_ld_lat(qualified, ld_lat_v);
    g_autoptr(PmsEncoding) enc = pms_encode(models, qualified, &err);
    if (!enc) {
        /* the same line as encode's: the libpfm4 error class first */
        g_autofree char *hint = pms_suggest_for_string(models, qualified, err);
        fprintf(stderr, "pmusim: '%s': %s: %s%s\n", qualified,
                err->domain == PMS_ENCODE_ERROR ? pms_encode_error_name(err->code) : "error", err->message, hint);
        return 1;
    }
    PmsPebsConfig pc = { 0 };
    if (pebs && !pms_pebs_configure(&enc->place, enc->codes, enc->n_codes, &pc, &err)) {
        fprintf(stderr, "pmusim: '%s': --pebs: %s: %s\n", qualified, pms_encode_error_name(err->code), err->message);
        return 1;
    }
    g_autoptr(GString) o = g_string_new(NULL);
    g_string_append_printf(o, "%s\n\nRegisters the encoder sets:\n", enc->fstr);
    for (guint i = 0; i < enc->n_writes; i++)
        pms_cli_explain_write(o, &enc->writes[i]);
    pms_cli_family(enc->model)->explain(o, enc);
    if (pebs) {
        g_string_append(o, "\nPEBS registers:\n");
        for (guint i = 0; i < pc.n_writes; i++)
            pms_cli_explain_write(o, &pc.writes[i]);
        g_autofree char *words = pms_pebs_describe(enc->model, &pc);
        g_string_append_printf(o, "\nWhat PEBS captures (semantics.md §5):\n  %s\n", words);
        if (pc.notes)
            g_string_append_printf(o, "  Notes:\n%s", pc.notes);
        pms_pebs_config_clear(&pc);
    }
    if (occ) {
        g_string_append_printf(o, "\nWorked example (pmusim sim -e '%s' --occurrences %s%s%s%s%s --explain):\n",
                               qualified, occ, cpl ? " --cpl " : "", cpl ? cpl : "", preload_text ? " --preload " : "",
                               preload_text ? preload_text : "");
        int status = pms_sim_worked_example(enc, occ, cpl, preload, o);
        if (status != 0)
            return status;
    }
    if (lbr) {
        g_string_append_c(o, '\n');
        int st = pms_lbr_explain_cli(models, pmu ? pmu : enc->model->name, lbr_plm, lbr_filter, lbr_freeze,
                                     lbr_callstack, o);
        if (st != 0)
            return st;
    }
    fputs(o->str, stdout);
    return 0;
}
