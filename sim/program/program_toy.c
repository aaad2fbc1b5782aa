/* pmusim — the program step of the test-only family `toy`
 * (models/tests/toy.pmu, docs/adding-a-pmu.md):
 *
 *   counter k: codes[0] -> TOY_CTLk, the whole register;
 *   its overflow: bit k of TOY_STATUS's ovf field.
 * There is no global control and no extra register.  Sets of events are not
 * placed (no set_counters). */
#include "prog_internal.h"

static gboolean toy_writes(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsRegWrite *w, guint *n,
                           GError **error)
{
    return prog_writes_ctl_only(pl, codes, n_codes, w, n, "the toy family has no extra register", error);
}

static const PmsRegister *toy_counter_reg(const PmsPlacement *pl)
{
    return pms_model_reg_by_kind(pl->model, PMS_REG_PMC, pl->counter);
}

static const PmsRegister *toy_status_reg(const PmsPlacement *pl)
{
    return pms_model_reg_by_kind(pl->model, PMS_REG_GLOBAL_STATUS, 0);
}

static guint64 toy_status_bit(const PmsPlacement *pl)
{
    static const char *const n_ovf[] = { "ovf%u", NULL }; /* bit k of the vector field ovf */
    return sim_fbit(sim_resolve(toy_status_reg(pl), n_ovf, pl->counter, 0));
}

const ProgOps prog_toy_ops = {
    .place_on = prog_place_on_counters,
    .place = prog_place_lowest,
    .writes = toy_writes,
    .counter_reg = toy_counter_reg,
    .status_bit = toy_status_bit,
    .status_reg = toy_status_reg,
};
