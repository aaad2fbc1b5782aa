/* pmusim — the Xeon 7500 C-Box program step (75UG Tables 2-10, 2-13; Linux
 * uncore_nhmex.c for the U-Box):
 *
 *   counter k of the PMU's own C-Box: codes[0] -> Cn_MSR_PMON_EVT_SELk,
 *       whole register (the encoder always sets en);
 *   that counter's ctr_en bit in the box's GLOBAL_CTL;
 *   en_all in U_MSR_PMON_GLOBAL_CTL (nothing in the uncore counts without
 *       it).
 * frz_all and pmi_core_sel are a session's, not an event's: a caller sets
 * them.  Fields are read by name (cbox_box_ctl, ubox_global_ctl). */
#include "prog_internal.h"
#include "model_cache.h"

typedef struct {
    const PmsRegister *box_ctl, *box_status, *u_ctl;
    SimField en_all;
} NxProg;

static gpointer prog_make(const PmsModel *m)
{
    NxProg *x = g_new0(NxProg, 1);
    static const char *const n_all[] = { "en_all", NULL };
    x->box_ctl = pms_model_reg_by_kind(m, PMS_REG_BOX_CTRL, 0);
    x->box_status = pms_model_reg_by_kind(m, PMS_REG_BOX_STATUS, 0);
    x->u_ctl = pms_model_reg_in_unit(m, "ubox", 0, PMS_REG_GLOBAL_CTRL, 0);
    x->en_all = sim_resolve(x->u_ctl, n_all, 0, 0, 28, 1);
    return x;
}

static const NxProg *prog_get(const PmsModel *m)
{
    return pms_model_cache(m, PMS_MODEL_CACHE_PROGRAM, prog_make, g_free);
}

/* Bit k of a per-counter vector field (ctr_en, ov); position k by default. */
static guint64 counter_bit(const PmsRegister *r, const char *name, guint k)
{
    char pat[32];
    g_snprintf(pat, sizeof pat, "%s%%u", name);
    const char *const names[] = { pat, NULL };
    return sim_fbit(sim_resolve(r, names, k, 0, (gint)k, 1));
}

static gboolean nx_writes(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsRegWrite *w, guint *n,
                          GError **error)
{
    const PmsModel *m = pl->model;
    const NxProg *x = prog_get(m);
    const PmsRegister *es = pl->fixed ? NULL : pms_model_reg_by_kind(m, PMS_REG_EVTSEL, pl->counter);
    if (n_codes > 1 || !es) {
        g_set_error(error, PMS_PROGRAM_ERROR, n_codes > 1 ? PMS_PROGRAM_ERROR_CODES : PMS_PROGRAM_ERROR_COUNTER,
                    n_codes > 1 ? "%s: event %s has no extra register for codes[1]" : "%s: event %s: no counter %u",
                    m->name, pl->event->name, pl->counter);
        return FALSE;
    }
    prog_put_write(w, n, es, codes[0], G_MAXUINT64);
    if (x->box_ctl) {
        guint64 b = counter_bit(x->box_ctl, "ctr_en", pl->counter);
        prog_put_write(w, n, x->box_ctl, b, b);
    }
    if (x->u_ctl)
        prog_put_write(w, n, x->u_ctl, sim_fbit(x->en_all), sim_fbit(x->en_all));
    return TRUE;
}

static const PmsRegister *nx_counter_reg(const PmsPlacement *pl)
{
    return pl->fixed ? NULL : pms_model_reg_by_kind(pl->model, PMS_REG_PMC, pl->counter);
}

static guint64 nx_status_bit(const PmsPlacement *pl)
{
    const NxProg *x = prog_get(pl->model);
    return x->box_status && !pl->fixed ? counter_bit(x->box_status, "ov", pl->counter) : 0;
}

static const PmsRegister *nx_status_reg(const PmsPlacement *pl)
{
    return prog_get(pl->model)->box_status;
}

const ProgOps prog_nhmex_ops = {
    .place_on = prog_place_on_counters,
    .place = prog_place_lowest,
    .writes = nx_writes,
    .counter_reg = nx_counter_reg,
    .status_bit = nx_status_bit,
    .status_reg = nx_status_reg,
};
