/* pmusim — the simulator device of the family `amd64`: AMD's core PMU
 * before PerfMonV2 (models/amd64_fam17h_zen2.pmu, docs/amd64.md).
 *
 *   PERF_CTLk: event 7:0 and event_hi 35:32 (one 12-bit event code), umask,
 *     usr, os, edge, int, en, inv, cmask, guest_only, host_only (found by
 *     name in the model); reserved bits are a #GP; a write resets the
 *     counter's edge latch.
 *   PERF_CTRk: the counter, gp_width (48) bits; a wider value is a #GP.
 *   A legacy register (PerfEvtSel0-3, PerfCtr0-3) is an alias (model.h
 *   PmsRegister.alias): reads and writes land on the register it names.
 *   A counter counts while its en is set and its HostOnly/GuestOnly bits
 *   take the run's mode (run key guest=0|1, docs/stimulus-format.md):
 *   HO=GO=0 and HO=GO=1 count in both, HO alone in host mode only, GO alone
 *   in guest mode only; with the model option svme = off (EFER.SVME clear)
 *   a counter with either bit set counts nothing (docs/semantics.md).  Each
 *   cycle's occurrences (the run's signals whose 12-bit event code is the
 *   counter's and whose umask bits lie inside its umask) go through the
 *   shared pipeline (sim_pipe.c: usr/os against the run's CPL, cmask, inv,
 *   edge).
 *   Overflow: a carry out of bit 47 wraps the counter, which goes on
 *   counting, and raises an interrupt (a PMI) when int is set.  There is NO
 *   global control, NO overflow status and no freeze: software sees an
 *   overflow only as the wrap and the interrupt.
 * Not modelled: the Large Increment per Cycle events' merge with the odd
 * counter (MergeEvent 0xFFF; docs/amd64.md), so an event that adds more
 * than 15 in a cycle adds it all on its own counter; `match = exact`
 * events (the model has none); IBS; the L3 and data-fabric PMUs; a second
 * hardware thread (the model is one thread); the pin-control bit 19. */
#include "sim_input.h"

#include <string.h>

enum { AMD64_MAX = 6, AMD64_CODES = 1u << 12 };

typedef struct {
    guint guest; /* 0: host mode, 1: guest mode (SVM) */
} Amd64Input;

typedef struct {
    guint n;
    guint64 mask; /* 2^gp_width - 1 */
    guint64 *ctl[AMD64_MAX], *ctr[AMD64_MAX];
    const PmsRegister *ctl_reg[AMD64_MAX], *ctr_reg[AMD64_MAX];
    SimField event, event_hi, umask, usr, os, edge, intr, en, inv, cmask, guest_only, host_only;
    gboolean latch[AMD64_MAX];
    gboolean svme; /* model option svme */
    Amd64Input in; /* the current run inputs */
} Amd64;

static gboolean key_guest(const PmsModel *m, const char *value, gpointer field, GError **error)
{
    (void)m;
    guint64 v;
    if (!sim_parse_u64(value, &v) || v > 1)
        return sim_input_fail(error, "guest: '%s': expected 0 (host mode) or 1 (guest mode)", value);
    *(guint *)field = (guint)v;
    return TRUE;
}

static const SimRunKey amd64_keys[] = {
    { .name = "guest", .parse = key_guest, .offset = offsetof(Amd64Input, guest), .size = sizeof(guint) },
};
static const Amd64Input amd64_defaults = { 0 };
static const SimRunInputs amd64_inputs = { sizeof(Amd64Input), &amd64_defaults, amd64_keys, G_N_ELEMENTS(amd64_keys) };

static gboolean amd64_init(PmsSim *sim, GError **error)
{
    const PmsModel *m = sim->model;
    const PmsRegister *ctl[AMD64_MAX], *ctr[AMD64_MAX];
    guint64 mask;
    if (!sim_counter_pairs(sim, AMD64_MAX, "an amd64 PMU", ctl, ctr, &mask, error))
        return FALSE;
    Amd64 *s = g_new0(Amd64, 1);
    sim->dev = s;
    s->n = m->n_gp;
    s->mask = mask;
    s->svme = g_ascii_strcasecmp(pms_model_option(m, "svme", "on"), "off") != 0;
    for (guint k = 0; k < s->n; k++) {
        const PmsRegister *c = ctl[k], *d = ctr[k];
        s->ctl_reg[k] = c;
        s->ctr_reg[k] = d;
        s->ctl[k] = sim_storage(sim, c);
        s->ctr[k] = sim_storage(sim, d);
    }
    static const struct {
        const char *name;
        gsize off;
    } fields[] = {
        { "event", G_STRUCT_OFFSET(Amd64, event) },
        { "event_hi", G_STRUCT_OFFSET(Amd64, event_hi) },
        { "umask", G_STRUCT_OFFSET(Amd64, umask) },
        { "usr", G_STRUCT_OFFSET(Amd64, usr) },
        { "os", G_STRUCT_OFFSET(Amd64, os) },
        { "edge", G_STRUCT_OFFSET(Amd64, edge) },
        { "int", G_STRUCT_OFFSET(Amd64, intr) },
        { "en", G_STRUCT_OFFSET(Amd64, en) },
        { "inv", G_STRUCT_OFFSET(Amd64, inv) },
        { "cmask", G_STRUCT_OFFSET(Amd64, cmask) },
        { "guest_only", G_STRUCT_OFFSET(Amd64, guest_only) },
        { "host_only", G_STRUCT_OFFSET(Amd64, host_only) },
    };
    /* PERF_CTL0's layout for every counter (the model check makes each
     * counter's PERF_CTL read these fields) */
    for (guint i = 0; i < G_N_ELEMENTS(fields); i++) {
        const char *const names[] = { fields[i].name, NULL };
        SimField *f = (SimField *)((char *)s + fields[i].off);
        *f = sim_resolve(s->ctl_reg[0], names, 0, 0);
        if (!sim_require(s->ctl_reg[0], *f, fields[i].name, error))
            return FALSE;
    }
    return TRUE;
}

static void amd64_finalize(PmsSim *sim)
{
    g_clear_pointer(&sim->dev, g_free);
}

static void amd64_reset(PmsSim *sim)
{
    Amd64 *s = sim->dev;
    for (guint k = 0; k < s->n; k++) {
        *s->ctl[k] = *s->ctr[k] = 0;
        s->latch[k] = FALSE;
    }
}

/* The register a legacy alias names, or r itself. */
static inline const PmsRegister *target(const PmsRegister *r)
{
    return r->alias ? r->alias : r;
}

static gboolean amd64_write(PmsSim *sim, const PmsRegister *r, guint64 value, GError **error)
{
    Amd64 *s = sim->dev;
    const PmsRegister *t = target(r);
    if (t->readonly)
        return sim_gp_error(error, r, value, value, "read-only register:");
    if (value & ~t->writable)
        return sim_gp_error(error, r, value, value & ~t->writable, "reserved bits set:");
    if (t->kind == PMS_REG_PMC && (value & ~s->mask))
        return sim_gp_error(error, r, value, value & ~s->mask, "bits above the counter width:");
    if (t->kind == PMS_REG_EVTSEL && t->index < s->n)
        s->latch[t->index] = FALSE; /* a new configuration starts without an edge history */
    *sim_storage(sim, t) = value;
    return TRUE;
}

static guint64 amd64_read(PmsSim *sim, const PmsRegister *r)
{
    return *sim_storage(sim, target(r));
}

static gboolean amd64_set_counter(PmsSim *sim, const PmsRegister *r, guint64 value, GError **error)
{
    if (target(r)->kind != PMS_REG_PMC)
        return FALSE;
    return amd64_write(sim, r, value, error);
}

/* The signal feeds the counter: its 12-bit event code is E and its umask
 * bits lie inside U (a signal of umask 0 only under umask 0; semantics.md
 * §10). */
static inline gboolean selects(guint64 E, guint64 U, guint32 sig)
{
    guint64 code = sig >> 8, um = sig & 0xff;
    return code == E && (um ? (um & ~U) == 0 : U == 0);
}

static guint amd64_units(PmsSim *sim, const PmsSimRun *run, SimOcc *occ, SimUnit *u)
{
    Amd64 *s = sim->dev;
    memset(occ, 0, sizeof(SimOcc) * s->n);
    for (guint k = 0; k < s->n; k++) {
        guint64 v = *s->ctl[k];
        guint64 E = sim_fget(s->event, v) | (sim_fget(s->event_hi, v) << s->event.width);
        guint64 U = sim_fget(s->umask, v);
        for (guint i = 0; i < run->n_counts; i++)
            if (run->counts[i].thread == 0 && selects(E, U, run->counts[i].signal))
                occ[k][0] += run->counts[i].count;
        PmsPipeCfg cfg = {
            .usr = sim_fget(s->usr, v) != 0,
            .os = sim_fget(s->os, v) != 0,
            .edge = sim_fget(s->edge, v) != 0,
            .inv = sim_fget(s->inv, v) != 0,
            .cmask = (guint)sim_fget(s->cmask, v),
            .n_threads = 1,
        };
        u[k] = (SimUnit){ s->ctr[k], s->mask, cfg, occ[k], &s->latch[k], FALSE, k, k, 0 };
    }
    return s->n;
}

/* HostOnly/GuestOnly against the run's mode (facts: Linux amd_core_hw_config,
 * amd_pmu_disable_virt): both clear or both set count in either mode. */
static gboolean virt_counts(const Amd64 *s, guint64 v)
{
    gboolean ho = sim_fget(s->host_only, v) != 0, go = sim_fget(s->guest_only, v) != 0;
    if (!s->svme)
        return !ho && !go;
    if (ho == go)
        return TRUE;
    return s->in.guest ? go : ho;
}

static gboolean amd64_enabled(const PmsSim *sim, const SimUnit *u)
{
    const Amd64 *s = sim->dev;
    guint64 v = *s->ctl[u->index];
    return sim_fget(s->en, v) != 0 && virt_counts(s, v);
}

static guint amd64_off_reasons(const PmsSim *sim, const SimUnit *u)
{
    return amd64_enabled(sim, u) ? 0 : PMS_SIM_OFF_COUNTER;
}

static gboolean amd64_pmi_enabled(const PmsSim *sim, const SimUnit *u)
{
    const Amd64 *s = sim->dev;
    return sim_fget(s->intr, *s->ctl[u->index]) != 0;
}

static void amd64_overflow(PmsSim *sim, const SimUnit *u)
{
    (void)sim;
    (void)u; /* no status register: the wrap itself is all that is left */
}

static gboolean amd64_pmi(PmsSim *sim, guint64 cycle)
{
    (void)sim;
    (void)cycle;
    return TRUE; /* the APIC's performance-counter LVT: no freeze, no routing modelled */
}

static guint64 amd64_status(const PmsSim *sim, const SimUnit *u)
{
    (void)sim;
    (void)u;
    return 0; /* no overflow status before PerfMonV2 */
}

static gboolean amd64_edge_latch(const PmsSim *sim, guint i)
{
    const Amd64 *s = sim->dev;
    return i < s->n && s->latch[i];
}

static gpointer amd64_input(PmsSim *sim)
{
    Amd64 *s = sim->dev;
    return &s->in;
}

const SimDeviceOps sim_amd64_ops = {
    .name = "amd64",
    .init = amd64_init,
    .finalize = amd64_finalize,
    .reset = amd64_reset,
    .write = amd64_write,
    .read = amd64_read,
    .set_counter = amd64_set_counter,
    .units = amd64_units,
    .enabled = amd64_enabled,
    .off_reasons = amd64_off_reasons,
    .pmi_enabled = amd64_pmi_enabled,
    .overflow = amd64_overflow,
    .pmi = amd64_pmi,
    .status = amd64_status,
    .edge_latch = amd64_edge_latch,
    .inputs = &amd64_inputs,
    .input = amd64_input,
};
