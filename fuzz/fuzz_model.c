/* pmusim fuzz target: model files (pms_model_load_data, pms_model_lint).
 * A model the loader accepts must never make the simulator or the encoder
 * crash later: when it loads, it is linted, a simulator is made of it, every
 * register is written (all ones, then its writable bits) and read, and its
 * first events are encoded (with their first unit mask and with modifiers),
 * programmed and run for a few cycles, alternating the engines. */
#include <string.h>
#include "fuzz.h"
#include "encoder.h"
#include "sim.h"

#define FUZZ_EVENTS 4

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_fatal_criticals();
    return 0;
}

static void run_event(PmsSim *sim, const PmsModelSet *set, const PmsModel *m, const PmsEvent *ev, const char *suffix,
                      guint k)
{
    g_autofree char *str = g_strdup_printf("%s::%s%s", m->name, ev->name, suffix);
    g_autoptr(GError) e = NULL;
    g_autoptr(PmsEncoding) enc = pms_encode(set, str, &e);
    if (!enc) {
        if (!e || e->domain != PMS_ENCODE_ERROR)
            abort();
        return;
    }
    g_free(pms_decode(m, enc->codes[0], enc->n_codes > 1, enc->n_codes > 1 ? enc->codes[1] : 0, NULL));
    pms_encoding_free(pms_encode(set, enc->fstr, NULL));
    if (!sim)
        return;
    pms_sim_reset(sim);
    pms_sim_set_engine(sim, (k & 1) ? PMS_SIM_FAST : PMS_SIM_REFERENCE);
    g_autoptr(GError) e2 = NULL;
    if (!pms_sim_apply(sim, enc->writes, enc->n_writes, &e2))
        return;
    guint32 um = ev->n_umasks ? (guint32)ev->umasks[0].value : ev->base_umask;
    PmsSimCount counts[2] = {
        { PMS_SIGNAL_KEY(ev->code, um), 0, 3, 0 },
        { PMS_SIGNAL_KEY(ev->code, ev->base_umask), pms_sim_threads(sim) > 1 ? 1 : 0, 1, 0 },
    };
    PmsSimRun run = { .cycles = 5, .cpl = { 3, 0 }, .counts = counts, .n_counts = 2 };
    pms_sim_run(sim, &run, NULL);
    run.cpl[0] = 0;
    run.cycles = 3;
    pms_sim_run(sim, &run, NULL);
    guint n;
    pms_sim_pmis(sim, &n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autoptr(GError) e = NULL;
    PmsModel *m = pms_model_load_data((const char *)data, size, "fuzz.pmu", &e);
    if (!m) {
        if (!e || !e->message)
            abort();
        return 0;
    }
    g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
    pms_model_lint(m, problems);
    g_autoptr(PmsModelSet) set = pms_model_set_new_empty();
    pms_model_set_add_model(set, m); /* the set owns m */
    /* the PMU to exercise: the model's own, or the first of a file of
     * several ([pmu] instances), a view sharing m's facts */
    const PmsModel *pm = pms_model_set_nth(set, 0);
    g_autoptr(GError) e2 = NULL;
    g_autoptr(PmsSim) sim = pms_sim_new(pm, &e2);
    if (sim) {
        for (guint i = 0; i < pm->n_regs; i++) {
            const PmsRegister *r = &pm->regs[i];
            guint64 v;
            pms_sim_write_at(sim, r->space, r->address, G_MAXUINT64, NULL);
            pms_sim_write_at(sim, r->space, r->address, r->writable, NULL);
            pms_sim_read_at(sim, r->space, r->address, &v, NULL);
        }
        pms_sim_reset(sim);
    }
    for (guint i = 0; i < pm->n_events && i < FUZZ_EVENTS; i++) {
        const PmsEvent *ev = &pm->events[i];
        run_event(sim, set, pm, ev, "", i);
        if (ev->n_umasks) {
            g_autofree char *s = g_strdup_printf(":%s", ev->umasks[0].name);
            run_event(sim, set, pm, ev, s, i + 1);
        }
        for (guint j = 0; j < pm->n_mods && j < 4; j++) {
            const PmsModifier *mod = &pm->mods[j];
            g_autofree char *s = mod->type == PMS_MOD_BOOL
                ? g_strdup_printf(":%s", mod->name)
                : g_strdup_printf(":%s=%" G_GUINT64_FORMAT, mod->name, mod->max);
            run_event(sim, set, pm, ev, s, i + j);
        }
    }
    return 0;
}
