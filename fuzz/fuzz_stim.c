/* pmusim fuzz target: stimulus files (pms_stim_parse), then executed on a
 * fresh simulator with each engine.
 * Byte 0 chooses the built-in model (fuzz_stim_models below, modulo its
 * length); the rest is the stimulus text.  Execution is bounded (the
 * reference engine steps each cycle; the fast engine's work grows with the
 * number of PMIs, issue 10 defect 2), so long stimuli are only parsed.
 * An input that fits a pipe also goes through the file reader
 * (pms_stim_reader_open on the pipe's /dev/fd name): its search for the
 * `pmu` line, its chunks, NUL bytes and line limit. */
#include <string.h>
#include <unistd.h>
#include "fuzz.h"
#include "sim.h"
#include "stimulus.h"

/* Keep in step with fuzz/mkseeds.py (STIM_MODELS). */
static const char *const fuzz_stim_models[] = {
    "wsm", "nhm", "glm", "nhm_unc", "nhmex_cbox3", "montecito", "wsm_unc", "nhm_ex",
};
#define REF_MAX_CYCLES 20000u
#define FAST_MAX_CYCLES (1u << 24)

static PmsModelSet *models;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_fatal_criticals();
    models = pms_model_set_new_builtin(NULL);
    if (!models)
        abort();
    return 0;
}

/* The reader over a pipe holding the text: a name or nothing, or an error
 * with a message; never a hang (the pipe ends). */
static void reader_pmu(const uint8_t *text, size_t len)
{
    int fds[2];
    if (len > 60000 || pipe(fds) != 0)
        return;
    gboolean wrote = write(fds[1], text, len) == (ssize_t)len;
    close(fds[1]);
    if (wrote) {
        g_autofree char *dev = g_strdup_printf("/dev/fd/%d", fds[0]);
        g_autoptr(GError) e = NULL;
        g_autoptr(PmsStimReader) r = pms_stim_reader_open(dev, &e);
        g_autofree char *name = NULL;
        if (r && !pms_stim_reader_pmu(r, &name, &e) && (!e || !e->message))
            abort();
        if (name && !*name)
            abort(); /* a field is never empty */
    }
    close(fds[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    reader_pmu(data + 1, size - 1);
    const PmsModel *m = pms_model_set_get(models, fuzz_stim_models[data[0] % G_N_ELEMENTS(fuzz_stim_models)]);
    if (!m)
        abort();
    g_autoptr(GError) e = NULL;
    g_autoptr(PmsStim) st = pms_stim_parse(m, (const char *)data + 1, (gssize)(size - 1), "fuzz.stim", &e);
    if (!st) {
        if (!e || !e->message)
            abort();
        return 0;
    }
    guint64 end = pms_stim_end_cycle(st);
    for (guint i = 0; i < pms_stim_n_records(st); i++) {
        PmsStimRecord rec;
        pms_stim_record(st, i, &rec);
    }
    for (int engine = 0; engine < 2; engine++) {
        if (end > (engine == 0 ? REF_MAX_CYCLES : FAST_MAX_CYCLES))
            continue;
        g_autoptr(GError) e2 = NULL;
        g_autoptr(PmsSim) sim = pms_sim_new(m, &e2);
        if (!sim)
            abort(); /* a built-in model always makes a simulator */
        pms_sim_set_engine(sim, engine == 0 ? PMS_SIM_REFERENCE : PMS_SIM_FAST);
        if (!pms_stim_execute(st, sim, &e2) && (!e2 || !e2->message))
            abort();
        guint n;
        pms_sim_pmis(sim, &n);
    }
    return 0;
}
