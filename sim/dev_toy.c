/* pmusim — the simulator device of the test-only family `toy`
 * (models/tests/toy.pmu, docs/adding-a-pmu.md): the smallest device the
 * engines can run, and the model of what a new family's device is made of.
 *
 *   TOY_CTLk: event, umask, en, int, thresh (found by name in the model);
 *     reserved bits are a #GP; a write clears the counter's pipeline cache.
 *   TOY_CTRk: the counter, gp_width bits; a wider value is a #GP.
 *   TOY_STATUS: bit k of ovf is set by a carry out of counter k's top bit,
 *     cleared by writing 1 to it.
 *   A counter counts while its en is set: each cycle adds its occurrences
 *   (the run's signals whose event is the counter's and whose umask bits
 *   lie inside its umask), or with thresh N > 0 adds 1 when they are at
 *   least N (the pure pipeline's cmask stage, docs/semantics.md §3).  Its
 *   overflow raises a PMI when int is set.
 * Not modelled: anything else — the family has no privilege filter, global
 * control, freeze, threads or extra registers. */
#include "sim_internal.h"

#include <string.h>

enum { TOY_MAX = 8 };

typedef struct {
    guint n;
    guint64 mask; /* 2^gp_width - 1 */
    guint64 *ctl[TOY_MAX], *ctr[TOY_MAX], *status;
    SimField event, umask, en, intr, thresh, ovf[TOY_MAX];
    gboolean exact_code[256];
} Toy;

static gboolean toy_init(PmsSim *sim, GError **error)
{
    const PmsModel *m = sim->model;
    const PmsRegister *ctl[TOY_MAX], *ctr[TOY_MAX];
    guint64 mask;
    if (!sim_counter_pairs(sim, TOY_MAX, "a toy PMU", ctl, ctr, &mask, error))
        return FALSE;
    Toy *s = g_new0(Toy, 1);
    sim->dev = s;
    s->n = m->n_gp;
    s->mask = mask;
    const PmsRegister *ctl0 = ctl[0];
    const PmsRegister *st = pms_model_reg_by_kind(m, PMS_REG_GLOBAL_STATUS, 0);
    for (guint k = 0; k < s->n; k++) {
        const PmsRegister *c = ctl[k], *d = ctr[k];
        s->ctl[k] = sim_storage(sim, c);
        s->ctr[k] = sim_storage(sim, d);
        static const char *const n_ovf[] = { "ovf%u", NULL }; /* bit k of the vector field ovf */
        s->ovf[k] = sim_resolve(st, n_ovf, k, 0);
        if (!sim_require(st, s->ovf[k], "ovf", error))
            return FALSE;
    }
    s->status = sim_storage(sim, st);
    static const struct {
        const char *name;
        gsize off;
    } fields[] = {
        { "event", G_STRUCT_OFFSET(Toy, event) },   { "umask", G_STRUCT_OFFSET(Toy, umask) },
        { "en", G_STRUCT_OFFSET(Toy, en) },         { "int", G_STRUCT_OFFSET(Toy, intr) },
        { "thresh", G_STRUCT_OFFSET(Toy, thresh) },
    };
    for (guint i = 0; i < G_N_ELEMENTS(fields); i++) {
        const char *const names[] = { fields[i].name, NULL };
        SimField *f = (SimField *)((char *)s + fields[i].off);
        *f = sim_resolve(ctl0, names, 0, 0);
        if (!sim_require(ctl0, *f, fields[i].name, error))
            return FALSE;
    }
    sim_exact_codes(m, s->exact_code);
    return TRUE;
}

static void toy_finalize(PmsSim *sim)
{
    g_clear_pointer(&sim->dev, g_free);
}

static void toy_reset(PmsSim *sim)
{
    Toy *s = sim->dev;
    for (guint k = 0; k < s->n; k++)
        *s->ctl[k] = *s->ctr[k] = 0;
    *s->status = 0;
}

static gboolean toy_write(PmsSim *sim, const PmsRegister *r, guint64 value, GError **error)
{
    Toy *s = sim->dev;
    if (value & ~r->writable)
        return sim_gp_error(error, r, value, value & ~r->writable, "reserved bits set:");
    switch (r->kind) {
    case PMS_REG_PMC:
        if (value & ~s->mask)
            return sim_gp_error(error, r, value, value & ~s->mask, "bits above the counter width:");
        break;
    case PMS_REG_GLOBAL_STATUS:
        *s->status &= ~value; /* write 1 to clear */
        return TRUE;
    default:
        break;
    }
    *sim_storage(sim, r) = value;
    return TRUE;
}

static guint64 toy_read(PmsSim *sim, const PmsRegister *r)
{
    return *sim_storage(sim, r);
}

static gboolean toy_set_counter(PmsSim *sim, const PmsRegister *r, guint64 value, GError **error)
{
    if (r->kind != PMS_REG_PMC)
        return FALSE;
    return toy_write(sim, r, value, error);
}

static guint toy_units(PmsSim *sim, const PmsSimRun *run, SimOcc *occ, SimUnit *u)
{
    Toy *s = sim->dev;
    memset(occ, 0, sizeof(SimOcc) * s->n);
    for (guint k = 0; k < s->n; k++) {
        guint64 v = *s->ctl[k];
        guint64 E = sim_fget(s->event, v), U = sim_fget(s->umask, v);
        for (guint i = 0; i < run->n_counts; i++)
            if (sim_signal_selects(s->exact_code, E, U, run->counts[i].signal))
                occ[k][0] += run->counts[i].count;
        /* no privilege filter: every ring qualifies */
        PmsPipeCfg cfg = { .usr = TRUE, .os = TRUE, .cmask = (guint)sim_fget(s->thresh, v), .n_threads = 1 };
        u[k] = (SimUnit){ s->ctr[k], s->mask, cfg, occ[k], NULL, FALSE, k, k, 0 };
    }
    return s->n;
}

static gboolean toy_enabled(const PmsSim *sim, const SimUnit *u)
{
    const Toy *s = sim->dev;
    return sim_fget(s->en, *s->ctl[u->index]) != 0;
}

static guint toy_off_reasons(const PmsSim *sim, const SimUnit *u)
{
    return toy_enabled(sim, u) ? 0 : PMS_SIM_OFF_COUNTER;
}

static gboolean toy_pmi_enabled(const PmsSim *sim, const SimUnit *u)
{
    const Toy *s = sim->dev;
    return sim_fget(s->intr, *s->ctl[u->index]) != 0;
}

static void toy_overflow(PmsSim *sim, const SimUnit *u)
{
    Toy *s = sim->dev;
    *s->status |= sim_fbit(s->ovf[u->index]);
}

static gboolean toy_pmi(PmsSim *sim, guint64 cycle)
{
    return TRUE; /* no routing, no freeze: every PMI reaches the processor */
}

static guint64 toy_status(const PmsSim *sim, const SimUnit *u)
{
    const Toy *s = sim->dev;
    return *s->status;
}

static gboolean toy_edge_latch(const PmsSim *sim, guint i)
{
    return FALSE; /* no edge detector */
}

const SimDeviceOps sim_toy_ops = {
    .name = "toy",
    .init = toy_init,
    .finalize = toy_finalize,
    .reset = toy_reset,
    .write = toy_write,
    .read = toy_read,
    .set_counter = toy_set_counter,
    .units = toy_units,
    .enabled = toy_enabled,
    .off_reasons = toy_off_reasons,
    .pmi_enabled = toy_pmi_enabled,
    .overflow = toy_overflow,
    .pmi = toy_pmi,
    .status = toy_status,
    .edge_latch = toy_edge_latch,
};
