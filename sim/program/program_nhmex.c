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
    char *missing; /* a field it needs and the model lacks */
} NxProg;

static SimField counter_field(const PmsRegister *r, const char *name, guint k);

static void prog_free(gpointer p)
{
    NxProg *x = p;
    g_free(x->missing);
    g_free(x);
}

static gpointer prog_make(const PmsModel *m)
{
    NxProg *x = g_new0(NxProg, 1);
    static const char *const n_all[] = { "en_all", NULL };
    x->box_ctl = pms_model_reg_by_kind(m, PMS_REG_BOX_CTRL, 0);
    x->box_status = pms_model_reg_by_kind(m, PMS_REG_BOX_STATUS, 0);
    x->u_ctl = pms_model_reg_in_unit(m, "ubox", 0, PMS_REG_GLOBAL_CTRL, 0);
    x->en_all = sim_resolve(x->u_ctl, n_all, 0, 0);
    prog_need(&x->missing, x->u_ctl, x->en_all, "en_all");
    for (guint k = 0; k < m->n_gp; k++) {
        g_autofree char *en = g_strdup_printf("ctr_en%u", k), *ov = g_strdup_printf("ov%u", k);
        prog_need(&x->missing, x->box_ctl, counter_field(x->box_ctl, "ctr_en", k), en);
        prog_need(&x->missing, x->box_status, counter_field(x->box_status, "ov", k), ov);
    }
    return x;
}

static const NxProg *prog_get(const PmsModel *m)
{
    return pms_model_cache(m, PMS_MODEL_CACHE_PROGRAM, prog_make, prog_free);
}

/* Counter k's field: <name>k or bit k of a vector field <name> (ctr_en,
 * ov); absent when the model gives neither. */
static SimField counter_field(const PmsRegister *r, const char *name, guint k)
{
    char pat[32];
    g_snprintf(pat, sizeof pat, "%s%%u", name);
    const char *const names[] = { pat, NULL };
    return sim_resolve(r, names, k, 0);
}

static guint64 counter_bit(const PmsRegister *r, const char *name, guint k)
{
    return sim_fbit(counter_field(r, name, k));
}

static gboolean nx_writes(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsRegWrite *w, guint *n,
                          GError **error)
{
    const PmsModel *m = pl->model;
    const NxProg *x = prog_get(m);
    if (!prog_model_ok(m, x->missing, error))
        return FALSE;
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
