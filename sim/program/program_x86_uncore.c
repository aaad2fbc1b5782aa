/* pmusim — the Nehalem/Westmere uncore program step (SDM Vol. 3B 18.8.2):
 *
 *   general counter k: codes[0] -> MSR_UNCORE_PERFEVTSELk, whole register;
 *   the fixed counter (UNC_CLK_UNHALTED): codes[0]'s EN and INT fields
 *       become MSR_UNCORE_FIXED_CTR_CTRL's EN and PMI bits, only those;
 *   the counter's enable in MSR_UNCORE_PERF_GLOBAL_CTRL (EN_PCk, EN_FC0).
 * The PMI routing (EN_PMI_COREn) and PMI_FRZ are not an event's: a caller
 * sets them.  Fields are read by name from the model (unc_* layouts). */
#include "prog_internal.h"
#include "model_cache.h"

enum { UNC_CACHED_COUNTERS = 16 };

typedef struct {
    const PmsRegister *fixed_ctrl, *global_ctrl, *global_status;
    SimField ev_en, ev_int, fc_en, fc_pmi;
    /* counter_bit's answers for GLOBAL_CTRL and GLOBAL_STATUS, per general
     * counter and for fixed counter 0 (each a name lookup otherwise) */
    guint64 ctrl_gp[UNC_CACHED_COUNTERS], status_gp[UNC_CACHED_COUNTERS], ctrl_fixed0, status_fixed0;
    /* general counter k's event select (a search of the registers otherwise,
     * on every encoding's writes) */
    const PmsRegister *evtsel[UNC_CACHED_COUNTERS];
    char *missing; /* a field it needs and the model lacks */
} UncProg;

static void prog_free(gpointer p)
{
    UncProg *x = p;
    g_free(x->missing);
    g_free(x);
}

static guint64 counter_bit(const PmsRegister *r, const PmsPlacement *pl);

static gpointer prog_make(const PmsModel *m)
{
    UncProg *x = g_new0(UncProg, 1);
    static const char *const n_en[] = { "en", NULL }, *const n_int[] = { "int", "pmi", NULL };
    const PmsRegister *es = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    x->fixed_ctrl = pms_model_reg_by_kind(m, PMS_REG_FIXED_CTRL, 0);
    x->global_ctrl = pms_model_reg_by_kind(m, PMS_REG_GLOBAL_CTRL, 0);
    x->global_status = pms_model_reg_by_kind(m, PMS_REG_GLOBAL_STATUS, 0);
    /* SDM Fig 18-28's EN and INT, Fig 18-29's EN and PMI, by name */
    x->ev_en = sim_resolve(es, n_en, 0, 0);
    x->ev_int = sim_resolve(es, n_int, 0, 0);
    x->fc_en = sim_resolve(x->fixed_ctrl, n_en, 0, 0);
    x->fc_pmi = sim_resolve(x->fixed_ctrl, n_int, 0, 0);
    prog_need(&x->missing, es, x->ev_en, "en");
    prog_need(&x->missing, es, x->ev_int, "int");
    prog_need(&x->missing, x->fixed_ctrl, x->fc_en, "en");
    prog_need(&x->missing, x->fixed_ctrl, x->fc_pmi, "pmi");
    static const char *const n_pmc[] = { "pmc%u", NULL }, *const n_fix[] = { "fixed%u", NULL };
    for (guint k = 0; k < m->n_gp; k++) {
        g_autofree char *w = g_strdup_printf("pmc%u", k);
        prog_need(&x->missing, x->global_ctrl, sim_resolve(x->global_ctrl, n_pmc, k, 0), w);
        prog_need(&x->missing, x->global_status, sim_resolve(x->global_status, n_pmc, k, 0), w);
    }
    if (m->n_fixed) {
        prog_need(&x->missing, x->global_ctrl, sim_resolve(x->global_ctrl, n_fix, 0, 0), "fixed0");
        prog_need(&x->missing, x->global_status, sim_resolve(x->global_status, n_fix, 0, 0), "fixed0");
    }
    for (guint k = 0; k < UNC_CACHED_COUNTERS; k++) {
        x->evtsel[k] = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, k);
        PmsPlacement pk = { m, NULL, k, FALSE };
        x->ctrl_gp[k] = x->global_ctrl ? counter_bit(x->global_ctrl, &pk) : 0;
        x->status_gp[k] = x->global_status ? counter_bit(x->global_status, &pk) : 0;
    }
    PmsPlacement pf = { m, NULL, 0, TRUE };
    x->ctrl_fixed0 = x->global_ctrl ? counter_bit(x->global_ctrl, &pf) : 0;
    x->status_fixed0 = x->global_status ? counter_bit(x->global_status, &pf) : 0;
    return x;
}

static const UncProg *prog_get(const PmsModel *m)
{
    return pms_model_cache(m, PMS_MODEL_CACHE_PROGRAM, prog_make, prog_free);
}

/* EN_PCk / EN_FC0 (GLOBAL_CTRL) or OVF_PCk / OVF_FC0 (GLOBAL_STATUS): fields
 * pmc<k> or bit k of `pmc`, and `fixed` (SDM Fig 18-25/18-26). */
static guint64 counter_bit(const PmsRegister *r, const PmsPlacement *pl)
{
    static const char *const n_pmc[] = { "pmc%u", NULL }, *const n_fix[] = { "fixed%u", NULL };
    SimField f = pl->fixed ? sim_resolve(r, n_fix, pl->counter, 0) : sim_resolve(r, n_pmc, pl->counter, 0);
    return sim_fbit(f);
}

/* counter_bit of GLOBAL_CTRL (status FALSE) or GLOBAL_STATUS, cached */
static guint64 cached_bit(const UncProg *x, gboolean status, const PmsPlacement *pl)
{
    const PmsRegister *r = status ? x->global_status : x->global_ctrl;
    if (pl->fixed && pl->counter == 0)
        return status ? x->status_fixed0 : x->ctrl_fixed0;
    if (!pl->fixed && pl->counter < UNC_CACHED_COUNTERS)
        return status ? x->status_gp[pl->counter] : x->ctrl_gp[pl->counter];
    return r ? counter_bit(r, pl) : 0;
}

/* The writes, and what each is made of (ProgOps.writes_src; src may be NULL). */
#ifdef __GNUC__
__attribute__((always_inline))
#endif
static inline gboolean
unc_writes_src(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsRegWrite *w, guint *n, guint8 *src,
               GError **error)
{
    const PmsModel *m = pl->model;
    const UncProg *x = prog_get(m);
    if (!prog_model_ok(m, x->missing, error))
        return FALSE;
    if (n_codes > 1) {
        g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CODES,
                    "%s: event %s has no extra register for codes[1] = 0x%" G_GINT64_MODIFIER "x", m->name,
                    pl->event->name, codes[1]);
        return FALSE;
    }
    if (pl->fixed) {
        if (!x->fixed_ctrl || pl->counter != 0) {
            g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_COUNTER, "%s: no fixed counter %u to program",
                        m->name, pl->counter);
            return FALSE;
        }
        guint64 set = (sim_fget(x->ev_en, codes[0]) ? sim_fbit(x->fc_en) : 0) |
            (sim_fget(x->ev_int, codes[0]) ? sim_fbit(x->fc_pmi) : 0);
        prog_put_write_src(w, n, src, PMS_PROGRAM_SRC_OTHER, x->fixed_ctrl, set,
                           sim_fbit(x->fc_en) | sim_fbit(x->fc_pmi));
    } else {
        const PmsRegister *es = pl->counter < UNC_CACHED_COUNTERS
            ? x->evtsel[pl->counter]
            : pms_model_reg_by_kind(m, PMS_REG_EVTSEL, pl->counter);
        if (!es) {
            g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_COUNTER, "%s: no general counter %u to program",
                        m->name, pl->counter);
            return FALSE;
        }
        prog_put_write_src(w, n, src, 0, es, codes[0], G_MAXUINT64);
    }
    if (x->global_ctrl) {
        guint64 b = cached_bit(x, FALSE, pl);
        prog_put_write_src(w, n, src, PMS_PROGRAM_SRC_NONE, x->global_ctrl, b, b);
    }
    return TRUE;
}

static gboolean unc_writes(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsRegWrite *w, guint *n,
                           GError **error)
{
    return unc_writes_src(pl, codes, n_codes, w, n, NULL, error);
}

static const PmsRegister *unc_counter_reg(const PmsPlacement *pl)
{
    return pms_model_reg_by_kind(pl->model, pl->fixed ? PMS_REG_FIXED_CTR : PMS_REG_PMC, pl->counter);
}

static guint64 unc_status_bit(const PmsPlacement *pl)
{
    const UncProg *x = prog_get(pl->model);
    return x->global_status ? cached_bit(x, TRUE, pl) : 0;
}

static const PmsRegister *unc_status_reg(const PmsPlacement *pl)
{
    return prog_get(pl->model)->global_status;
}

const ProgOps prog_x86_uncore_ops = {
    /* for a set: the counters pms_program_place chooses from (the fixed
     * counter is UNC_CLK_UNHALTED's alone, no other event may use it) */
    .set_counters = prog_set_counters_allowed,
    .place_on = prog_place_on_counters,
    .place = prog_place_lowest,
    .writes = unc_writes,
    .writes_src = unc_writes_src,
    .counter_reg = unc_counter_reg,
    .status_bit = unc_status_bit,
    .status_reg = unc_status_reg,
};
