/* pmusim sim --stim FILE without -e: a stimulus that programs the registers
 * itself (write records), run on its model (--pmu, or the file's `pmu`
 * line, read by the run's own reader: a pipe loses nothing), answered with
 * every counter's final value.  No event, so no per-cycle trace: the run is
 * the fast engine's unless --engine reference is asked for (both end in the
 * same registers). */
#include "cli_common.h"
#include "lbr_report.h"
#include "program.h"
#include "sim_setup.h"
#include "pebs_report.h"
#include "sim_stim_only.h"
#include "stimulus.h"
#include "trace_report.h"

#include <stdio.h>
#include <string.h>

/* One line per counter: "NAME count=<decimal> overflow=<0|1>". */
static void print_counters(PmsSim *sim, const PmsModel *m)
{
    for (int fixed = 0; fixed < 2; fixed++) {
        guint n = fixed ? m->n_fixed : m->n_gp;
        for (guint i = 0; i < n; i++) {
            PmsPlacement pl = { m, NULL, i, fixed };
            const PmsRegister *c = pms_program_counter_reg(&pl), *st = pms_program_status_reg(&pl);
            guint64 v = 0, status = 0;
            if (!c || !pms_sim_read_at(sim, c->space, c->address, &v, NULL))
                continue;
            if (st)
                pms_sim_read_at(sim, st->space, st->address, &status, NULL);
            guint w = fixed ? m->fixed_width : m->gp_width;
            guint64 mask = w >= 64 ? G_MAXUINT64 : ((guint64)1 << w) - 1; /* PMD reads copy bit 46 upward */
            printf("%s count=%" G_GUINT64_FORMAT " overflow=%d\n", c->name, v & mask,
                   (status & pms_program_status_bit(&pl)) != 0);
        }
    }
}

int pms_sim_stim_only(const char *pmu, const char *stim, char **model_files, const char *engine, const char *format,
                      gint64 max_steps)
{
    if (format && strcmp(format, "table") != 0) {
        fprintf(stderr, "pmusim: sim: without -e there is no per-cycle trace: --format %s does not apply\n", format);
        return PMS_EXIT_USAGE;
    }
    if (engine && strcmp(engine, "fast") != 0 && strcmp(engine, "reference") != 0) {
        fprintf(stderr, "pmusim: --engine: expected reference or fast, got '%s'\n", engine);
        return PMS_EXIT_USAGE;
    }
    /* one reader for the `pmu` line and the run: a pipe is read once */
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsStimReader) rd = pms_stim_reader_open(stim, &err);
    if (!rd) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        return 1;
    }
    g_autofree char *named = NULL;
    if (pmu)
        named = g_strdup(pmu);
    else if (!pms_stim_reader_pmu(rd, &named, &err)) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        return g_error_matches(err, PMS_SIM_ERROR, PMS_SIM_ERROR_INPUT) ? PMS_EXIT_USAGE : 1;
    }
    if (!named) {
        fprintf(stderr, "pmusim: sim: --stim %s without -e: give --pmu, or start the stimulus with 'pmu NAME'\n", stim);
        return PMS_EXIT_USAGE;
    }
    g_autoptr(PmsModelSet) models = pms_cli_load_models(model_files);
    if (!models)
        return PMS_EXIT_USAGE;
    const PmsModel *m = pms_cli_model(models, named);
    if (!m)
        return PMS_EXIT_USAGE;
    g_autoptr(PmsSim) sim = pms_sim_new(m, &err);
    if (!sim) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        return 1;
    }
    gboolean reference = engine && strcmp(engine, "reference") == 0;
    pms_sim_set_engine(sim, reference ? PMS_SIM_REFERENCE : PMS_SIM_FAST);
    pms_sim_set_max_steps(sim, (guint64)max_steps);
    if (!pms_stim_reader_run(rd, m, sim, &err)) {
        pms_sim_run_error(err, max_steps);
        /* not a text stimulus (a NUL byte, a line over 16 MiB): unusable input */
        return g_error_matches(err, PMS_SIM_ERROR, PMS_SIM_ERROR_INPUT) ? PMS_EXIT_USAGE : 1;
    }
    PmsTracePmis pmis;
    pms_trace_pmis_get(&pmis, sim);
    g_autoptr(GString) head = g_string_new(NULL);
    g_string_append_printf(head, "# %s on %s, %s engine: %" G_GUINT64_FORMAT " cycles; PMI at", stim, m->name,
                           reference ? "reference" : "fast", pms_sim_cycle(sim));
    pms_trace_pmi_list(head, &pmis);
    printf("%s\n", head->str);
    print_counters(sim, m);
    g_autoptr(GString) pebs = g_string_new(NULL);
    pms_pebs_report(pebs, sim);
    fputs(pebs->str, stdout);
    /* the LBR ring after the counts, when branches went in */
    g_autoptr(GString) ring = g_string_new(NULL);
    if (pms_lbr_ring_text(sim, ring))
        fputs(ring->str, stdout);
    return 0;
}
