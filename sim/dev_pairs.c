/* pmusim — the counters of a PMU built of event-select/counter pairs and
 * nothing global (amd64, toy): one check of the model and one lookup of the
 * pairs, so that each such device states only what is its own. */
#include "sim_internal.h"

gboolean sim_counter_pairs(PmsSim *sim, guint max, const char *who, const PmsRegister **ctl, const PmsRegister **ctr,
                           guint64 *mask, GError **error)
{
    const PmsModel *m = sim->model;
    if (m->n_gp < 1 || m->n_gp > max || m->gp_width < 1 || m->gp_width > 63) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: %s has 1..%u counters of width 1..63 (has %u of width %u)", m->name, who, max, m->n_gp,
                    m->gp_width);
        return FALSE;
    }
    for (guint k = 0; k < m->n_gp; k++) {
        ctl[k] = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, k);
        ctr[k] = pms_model_reg_by_kind(m, PMS_REG_PMC, k);
        if (!ctl[k] || !ctr[k]) {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "model %s: no %s register for counter %u", m->name,
                        ctl[k] ? "pmc" : "evtsel", k);
            return FALSE;
        }
    }
    *mask = (G_GUINT64_CONSTANT(1) << m->gp_width) - 1;
    return TRUE;
}
