/* pmusim — the Xeon 7500 (Nehalem-EX) uncore device: every C-Box of the
 * model, the two S-Box overflow summaries and the U-Box's global control, as
 * one device (reference/docs/xeon7500-uncore-cbox-registers.txt, the 7500
 * uncore programming guide as summarised in docs/semantics.md "Xeon 7500").
 * Whichever nhmex_cboxN name the model carries, a stimulus reaches every box
 * by address or name; signals of another C-Box are `cboxM/CODE.UMASK`.
 *
 *   counting: C-Box n's counter k counts when its EVT_SEL.en, its box
 *     GLOBAL_CTL.ctr_en[k] and the U-Box GLOBAL_CTL.en_all are all set.  One
 *     cycle is one uncore clock; an event may add more than one per cycle.
 *     The pipeline is threshold, then invert, then edge, in series, with no
 *     privilege filter.  invert: option `invert` = documented (n < t, the
 *     prose and later manuals, A5) or literal (n > t, the C-Box table's
 *     "threshold < event").  Threshold 0 adds n; invert is then ignored (A1).
 *   overflow: the carry out of bit 47 sets the box's GLOBAL_STATUS.ov[k],
 *     the S-Box summary bit of the box's pair (S-Box 0 for C-Boxes 0-3,
 *     S-Box 1 for 4-7; ov_c_l for the lower pair, ov_c_r for the upper) and
 *     the U-Box GLOBAL_STATUS.ov_s0/ov_s1.  Clearing the leaf (the box's
 *     GLOBAL_OVF_CTL) clears the summaries above it that no other leaf holds.
 *   PMI: an overflow of a counter with pmi_en sends a PMI to the U-Box.
 *     With frz_all the U-Box clears en_all `pmi_freeze_delay` uncore clocks
 *     after the overflow cycle (option, default 0: in the overflow cycle,
 *     after it counted; the guide gives no figure, only that the counters
 *     wrap and keep counting until the disable).  The PMI reaches a core (is recorded)
 *     when pmi_core_sel is non-zero.
 *   writes: a reserved bit (EVT_SEL 62:61, any bit neither writable nor
 *     ignored) is a #GP; ignored bits read 0; counters take full 48-bit
 *     writes; rst_all = 1 clears every counter at the write.
 *
 * Not modelled: the U-Box's own counter (its EVT_SEL and CTR are stored, it
 * does not count), the B-, M-, R-, S- and W-Box counters and their summary
 * bits (ov_mb, ov_s, ov_r, ov_u, ov_w stay 0), the W-Box erratum, PMI
 * delivery to a core (a PMI is a recorded cycle), the disable-received bit of
 * the U-Box status.  The U-Box status bit positions and the S-Box summary
 * addresses are unverified model choices (models/nhmex.pmu comments).
 */
#include "sim_internal.h"

#include <string.h>

/* C-Boxes 0..7: S-Box 0 summarises 0-3, S-Box 1 4-7 (the model check
 * models/model_x86.c refuses a box beyond, and so does nx_init) */
enum { NX_MAX_BOX = 8, NX_CTRS = 6 };

typedef struct {
    gboolean present;
    guint64 *ctl, *status;
    guint64 *evtsel[NX_CTRS], *ctr[NX_CTRS];
    gboolean latch[NX_CTRS];
    PmsPipeCfg cfg[NX_CTRS];
} NxBox;

typedef struct {
    PmsSim *sim;
    guint64 mask; /* 2^48 - 1 */
    NxBox box[NX_MAX_BOX];
    guint64 *u_ctl, *u_status, *u_ctr, *s_sum[2];
    SimField ev_event, ev_umask, ev_edge, ev_pmi, ev_en, ev_inv, ev_thr;
    SimField bc_en[NX_CTRS], bs_ov[NX_CTRS];
    SimField u_pmi_core, u_en_all, u_rst_all, u_frz_all, u_ov_s[2];
    SimField s_c_l, s_c_r;
    gboolean inv_gt;   /* option invert = literal */
    guint64 delay;     /* option pmi_freeze_delay */
    guint64 freeze_at; /* cycle en_all goes 0; G_MAXUINT64 none */
    gboolean exact_code[256];
    gboolean cfg_valid;
} Nhmex;

static gboolean field(const PmsRegister *r, const char *name, SimField *f, GError **error)
{
    const char *const names[] = { name, NULL };
    *f = sim_resolve(r, names, 0, 0);
    if (!r) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "the Xeon 7500 uncore model has no register with field '%s'", name);
        return FALSE;
    }
    return sim_require(r, *f, name, error);
}

static gboolean options(Nhmex *s, const PmsModel *m, GError **error)
{
    const char *inv = pms_model_option(m, "invert", "documented");
    const char *d = pms_model_option(m, "pmi_freeze_delay", "0");
    if (strcmp(inv, "documented") && strcmp(inv, "literal")) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: option invert = '%s': expected documented or literal", m->name, inv);
        return FALSE;
    }
    if (!g_ascii_string_to_unsigned(d, 10, 0, 1u << 20, &s->delay, NULL)) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: option pmi_freeze_delay = '%s': expected uncore clocks 0..1048576", m->name, d);
        return FALSE;
    }
    s->inv_gt = strcmp(inv, "literal") == 0;
    return TRUE;
}

static gboolean nx_init(PmsSim *sim, GError **error)
{
    const PmsModel *m = sim->model;
    if (m->gp_width != 48 || m->n_gp != NX_CTRS || m->n_fixed || m->smt) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: a Xeon 7500 C-Box has six 48-bit counters, no fixed counter and no threads", m->name);
        return FALSE;
    }
    Nhmex *s = g_new0(Nhmex, 1);
    sim->dev = s;
    s->sim = sim;
    s->mask = ((guint64)1 << 48) - 1;
    s->freeze_at = G_MAXUINT64;
    if (!options(s, m, error))
        return FALSE;
    for (guint i = 0; i < m->n_regs; i++)
        if (g_strcmp0(m->regs[i].unit, "cbox") == 0 && m->regs[i].instance >= NX_MAX_BOX) {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                        "model %s: register %s belongs to C-Box %u: the device holds C-Boxes 0..%d", m->name,
                        m->regs[i].name, m->regs[i].instance, NX_MAX_BOX - 1);
            return FALSE;
        }
    if (g_strcmp0(m->unit, "cbox") == 0 && m->instance >= NX_MAX_BOX) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s stands for C-Box %u: the device holds C-Boxes 0..%d", m->name, m->instance,
                    NX_MAX_BOX - 1);
        return FALSE;
    }
    const PmsRegister *ev0 = NULL, *bc0 = NULL, *bs0 = NULL;
    guint boxes = 0;
    for (guint n = 0; n < NX_MAX_BOX; n++) {
        NxBox *b = &s->box[n];
        const PmsRegister *ctl = pms_model_reg_in_unit(m, "cbox", n, PMS_REG_BOX_CTRL, 0);
        const PmsRegister *st = pms_model_reg_in_unit(m, "cbox", n, PMS_REG_BOX_STATUS, 0);
        if (!ctl && !st)
            continue;
        b->present = TRUE;
        boxes++;
        b->ctl = sim_storage(sim, ctl);
        b->status = sim_storage(sim, st);
        bc0 = bc0 ? bc0 : ctl;
        bs0 = bs0 ? bs0 : st;
        for (guint k = 0; k < NX_CTRS; k++) {
            const PmsRegister *es = pms_model_reg_in_unit(m, "cbox", n, PMS_REG_EVTSEL, k);
            const PmsRegister *c = pms_model_reg_in_unit(m, "cbox", n, PMS_REG_PMC, k);
            if (!ctl || !st || !es || !c) {
                g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "model %s: C-Box %u lacks its %s", m->name, n,
                            !ctl      ? "GLOBAL_CTL (box_ctrl)"
                                : !st ? "GLOBAL_STATUS (box_status)"
                                : !es ? "EVT_SEL (evtsel)"
                                      : "CTR (pmc)");
                return FALSE;
            }
            b->evtsel[k] = sim_storage(sim, es);
            b->ctr[k] = sim_storage(sim, c);
            ev0 = ev0 ? ev0 : es;
        }
    }
    const PmsRegister *uc = pms_model_reg_in_unit(m, "ubox", 0, PMS_REG_GLOBAL_CTRL, 0);
    const PmsRegister *us = pms_model_reg_in_unit(m, "ubox", 0, PMS_REG_GLOBAL_STATUS, 0);
    const PmsRegister *ss[2] = { pms_model_reg_in_unit(m, "sbox", 0, PMS_REG_BOX_STATUS, 0),
                                 pms_model_reg_in_unit(m, "sbox", 1, PMS_REG_BOX_STATUS, 0) };
    if (!boxes || !uc || !us || !ss[0] || !ss[1]) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: the Xeon 7500 uncore device needs C-Box registers (unit cbox), the U-Box's "
                    "GLOBAL_CTL and GLOBAL_STATUS (unit ubox) and both S-Box summaries (unit sbox, box_status)",
                    m->name);
        return FALSE;
    }
    s->u_ctl = sim_storage(sim, uc);
    s->u_status = sim_storage(sim, us);
    s->u_ctr = sim_storage(sim, pms_model_reg_in_unit(m, "ubox", 0, PMS_REG_PMC, 0));
    s->s_sum[0] = sim_storage(sim, ss[0]);
    s->s_sum[1] = sim_storage(sim, ss[1]);
    /* 75UG Table 2-13; Linux uncore_nhmex.c for the U-Box */
    if (!field(ev0, "event", &s->ev_event, error) || !field(ev0, "umask", &s->ev_umask, error) ||
        !field(ev0, "edge", &s->ev_edge, error) || !field(ev0, "pmi_en", &s->ev_pmi, error) ||
        !field(ev0, "en", &s->ev_en, error) || !field(ev0, "inv", &s->ev_inv, error) ||
        !field(ev0, "threshold", &s->ev_thr, error) || !field(uc, "pmi_core_sel", &s->u_pmi_core, error) ||
        !field(uc, "en_all", &s->u_en_all, error) || !field(uc, "rst_all", &s->u_rst_all, error) ||
        !field(uc, "frz_all", &s->u_frz_all, error) || !field(us, "ov_s0", &s->u_ov_s[0], error) ||
        !field(us, "ov_s1", &s->u_ov_s[1], error) || !field(ss[0], "ov_c_l", &s->s_c_l, error) ||
        !field(ss[0], "ov_c_r", &s->s_c_r, error))
        return FALSE;
    static const char *const n_en[] = { "ctr_en%u", NULL }, *const n_ov[] = { "ov%u", NULL };
    for (guint k = 0; k < NX_CTRS; k++) {
        s->bc_en[k] = sim_resolve(bc0, n_en, k, 0);
        s->bs_ov[k] = sim_resolve(bs0, n_ov, k, 0);
        g_autofree char *en = g_strdup_printf("ctr_en%u", k), *ov = g_strdup_printf("ov%u", k);
        if (!sim_require(bc0, s->bc_en[k], en, error) || !sim_require(bs0, s->bs_ov[k], ov, error))
            return FALSE;
    }
    sim_exact_codes(m, s->exact_code);
    return TRUE;
}

static void nx_finalize(PmsSim *sim)
{
    g_clear_pointer(&sim->dev, g_free);
}

static void clear_counters(Nhmex *s)
{
    for (guint n = 0; n < NX_MAX_BOX; n++)
        for (guint k = 0; s->box[n].present && k < NX_CTRS; k++)
            *s->box[n].ctr[k] = 0;
    *s->u_ctr = 0;
}

static void nx_reset(PmsSim *sim)
{
    Nhmex *s = sim->dev;
    clear_counters(s);
    for (guint n = 0; n < NX_MAX_BOX; n++) {
        if (!s->box[n].present)
            continue;
        *s->box[n].ctl = 0;
        *s->box[n].status = 0;
        memset(s->box[n].latch, 0, sizeof s->box[n].latch);
    }
    *s->u_ctl = *s->u_status = *s->s_sum[0] = *s->s_sum[1] = 0;
    s->freeze_at = G_MAXUINT64;
    s->cfg_valid = FALSE;
}

/* The summaries of S-Box `sb` from its leaves: ov_c_l for C-Boxes 4sb and
 * 4sb+1, ov_c_r for 4sb+2 and 4sb+3; the U-Box's ov_s<sb> from the summary. */
static void summarise(Nhmex *s, guint sb)
{
    guint64 l = 0, r = 0;
    for (guint n = 4 * sb; n < 4 * sb + 4 && n < NX_MAX_BOX; n++)
        if (s->box[n].present && *s->box[n].status) {
            if (n % 4 < 2)
                l = 1;
            else
                r = 1;
        }
    *s->s_sum[sb] = sim_fset(s->s_c_r, sim_fset(s->s_c_l, *s->s_sum[sb], l), r);
    *s->u_status = sim_fset(s->u_ov_s[sb], *s->u_status, *s->s_sum[sb] != 0);
}

/* Which box a register belongs to, as an index into s->box (or -1). */
static gint box_of(const Nhmex *s, const PmsRegister *r)
{
    return r->unit && strcmp(r->unit, "cbox") == 0 && r->instance < NX_MAX_BOX && s->box[r->instance].present
        ? (gint)r->instance
        : -1;
}

static gboolean nx_write(PmsSim *sim, const PmsRegister *r, guint64 value, GError **error)
{
    Nhmex *s = sim->dev;
    /* A10: a reserved bit -> #GP; ignored bits are dropped (read 0) */
    guint64 bad = value & ~(r->writable | r->ignored);
    if (bad)
        return sim_gp_error(error, r, value, bad, "reserved bits set:");
    guint64 v = value & r->writable, *p = sim_storage(sim, r);
    gint b = box_of(s, r);
    s->cfg_valid = FALSE;
    switch (r->kind) {
    case PMS_REG_PMC:
        if (v & ~s->mask)
            return sim_gp_error(error, r, value, v & ~s->mask, "bits above the counter width:");
        *p = v;
        return TRUE;
    case PMS_REG_EVTSEL:
        *p = v;
        if (b >= 0 && r->index < NX_CTRS)
            s->box[b].latch[r->index] = FALSE; /* A4 */
        return TRUE;
    case PMS_REG_BOX_OVF_CTRL:
        /* clr_ov: write 1 to clear the box's ov bits and the summaries they fed */
        if (b >= 0) {
            *s->box[b].status &= ~v;
            summarise(s, (guint)b / 4);
        }
        return TRUE;
    case PMS_REG_GLOBAL_OVF_CTRL:
        *s->u_status &= ~v;
        return TRUE;
    case PMS_REG_GLOBAL_CTRL:
        *p = v;
        if (sim_fget(s->u_rst_all, v))
            clear_counters(s);
        return TRUE;
    default:
        *p = v;
        return TRUE;
    }
}

static guint64 nx_read(PmsSim *sim, const PmsRegister *r)
{
    if (r->kind == PMS_REG_BOX_OVF_CTRL || r->kind == PMS_REG_GLOBAL_OVF_CTRL)
        return 0; /* commands (A22) */
    return *sim_storage(sim, r);
}

static gboolean nx_set_counter(PmsSim *sim, const PmsRegister *r, guint64 value, GError **error)
{
    Nhmex *s = sim->dev;
    if (r->kind != PMS_REG_PMC)
        return FALSE;
    if (value & ~s->mask) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP,
                    "value 0x%" G_GINT64_MODIFIER "x does not fit the 48-bit counter %s", value, r->name);
        return FALSE;
    }
    *sim_storage(sim, r) = value;
    return TRUE;
}

static void box_cfg(const Nhmex *s, guint64 v, PmsPipeCfg *c)
{
    memset(c, 0, sizeof *c);
    c->usr = c->os = TRUE; /* no privilege filter */
    c->edge = sim_fget(s->ev_edge, v) != 0;
    c->inv = sim_fget(s->ev_inv, v) != 0;
    c->inv_gt = s->inv_gt;
    c->cmask = (guint)sim_fget(s->ev_thr, v);
    c->n_threads = 1;
}

static guint nx_units(PmsSim *sim, const PmsSimRun *run, SimOcc *occ, SimUnit *u)
{
    Nhmex *s = sim->dev;
    guint own = sim->model->instance, nu = 0;
    for (guint n = 0; n < NX_MAX_BOX; n++) {
        NxBox *b = &s->box[n];
        if (!b->present)
            continue;
        for (guint k = 0; k < NX_CTRS; k++, nu++) {
            guint64 v = *b->evtsel[k];
            if (!s->cfg_valid)
                box_cfg(s, v, &b->cfg[k]);
            guint64 E = sim_fget(s->ev_event, v), U = sim_fget(s->ev_umask, v);
            memset(occ[nu], 0, sizeof occ[nu]);
            for (guint c = 0; c < run->n_counts; c++) {
                guint box = run->counts[c].box ? run->counts[c].box - 1 : own;
                if (box == n && sim_signal_selects(s->exact_code, E, U, run->counts[c].signal))
                    occ[nu][0] += run->counts[c].count;
            }
            u[nu] = (SimUnit){ b->ctr[k], s->mask, b->cfg[k], occ[nu], &b->latch[k], FALSE, k, nu, n };
        }
    }
    s->cfg_valid = TRUE;
    return nu;
}

static gboolean nx_enabled(const PmsSim *sim, const SimUnit *u)
{
    const Nhmex *s = sim->dev;
    const NxBox *b = &s->box[u->box];
    return sim_fget(s->ev_en, *b->evtsel[u->index]) && sim_fget(s->bc_en[u->index], *b->ctl) &&
        sim_fget(s->u_en_all, *s->u_ctl);
}

static guint nx_off_reasons(const PmsSim *sim, const SimUnit *u)
{
    const Nhmex *s = sim->dev;
    const NxBox *b = &s->box[u->box];
    return (sim_fget(s->ev_en, *b->evtsel[u->index]) ? 0 : PMS_SIM_OFF_COUNTER) |
        (sim_fget(s->bc_en[u->index], *b->ctl) ? 0 : PMS_SIM_OFF_BOX) |
        (sim_fget(s->u_en_all, *s->u_ctl) ? 0 : PMS_SIM_OFF_GLOBAL);
}

static gboolean nx_pmi_enabled(const PmsSim *sim, const SimUnit *u)
{
    const Nhmex *s = sim->dev;
    return sim_fget(s->ev_pmi, *s->box[u->box].evtsel[u->index]) != 0;
}

static void nx_overflow(PmsSim *sim, const SimUnit *u)
{
    Nhmex *s = sim->dev;
    *s->box[u->box].status |= sim_fbit(s->bs_ov[u->index]);
    summarise(s, u->box / 4);
}

/* The U-Box receives the PMI: with frz_all it disables every counter after
 * the delay; it forwards the PMI to the cores pmi_core_sel names.  Delay 0
 * clears en_all in the overflow cycle itself, after every counter counted
 * (as the x86 freeze, A8): a read after that cycle sees en_all 0, and a
 * re-enable written before the next run holds.  A delay of d clears it at
 * the end of cycle `cycle + d` (the engines run a due action at the end of
 * a run too, so it never lands on a write made after that cycle). */
static gboolean nx_pmi(PmsSim *sim, guint64 cycle)
{
    Nhmex *s = sim->dev;
    if (sim_fget(s->u_frz_all, *s->u_ctl) && s->freeze_at == G_MAXUINT64) {
        if (s->delay == 0)
            *s->u_ctl = sim_fset(s->u_en_all, *s->u_ctl, 0);
        else
            s->freeze_at = cycle + 1 + s->delay;
    }
    return sim_fget(s->u_pmi_core, *s->u_ctl) != 0;
}

static guint64 nx_next_event(const PmsSim *sim)
{
    const Nhmex *s = sim->dev;
    return s->freeze_at;
}

static void nx_fire(PmsSim *sim)
{
    Nhmex *s = sim->dev;
    *s->u_ctl = sim_fset(s->u_en_all, *s->u_ctl, 0);
    s->freeze_at = G_MAXUINT64;
}

static guint64 nx_status(const PmsSim *sim, const SimUnit *u)
{
    const Nhmex *s = sim->dev;
    return *s->box[u->box].status;
}

static gboolean nx_edge_latch(const PmsSim *sim, guint i)
{
    const Nhmex *s = sim->dev;
    guint own = sim->model->instance;
    return own < NX_MAX_BOX && s->box[own].present && i < NX_CTRS && s->box[own].latch[i];
}

const SimDeviceOps sim_nhmex_ops = {
    .name = "nhmex_cbox",
    .init = nx_init,
    .finalize = nx_finalize,
    .reset = nx_reset,
    .write = nx_write,
    .read = nx_read,
    .set_counter = nx_set_counter,
    .units = nx_units,
    .enabled = nx_enabled,
    .off_reasons = nx_off_reasons,
    .pmi_enabled = nx_pmi_enabled,
    .overflow = nx_overflow,
    .pmi = nx_pmi,
    .status = nx_status,
    .edge_latch = nx_edge_latch,
    .next_event = nx_next_event,
    .fire = nx_fire,
};
