/* pmusim — the program step of the family `amd64` (AMD's core PMU before
 * PerfMonV2: models/amd64_fam17h_zen2.pmu, docs/amd64.md):
 *
 *   counter k: codes[0] -> PERF_CTLk, the whole register (EN is in it: there
 *   is no global enable);
 *   its overflow: no status register and no status bit (software sees an
 *   overflow only as the counter's wrap and, with INT, the interrupt).
 * No extra register.  The legacy PerfEvtSel0-3 are aliases the program step
 * never writes: it programs the PERF_CTL of the counter. */
#include "prog_internal.h"

static gboolean amd64_writes(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsRegWrite *w, guint *n,
                             GError **error)
{
    return prog_writes_ctl_only(pl, codes, n_codes, w, n, "an amd64 PMU has no extra register", error);
}

static const PmsRegister *amd64_counter_reg(const PmsPlacement *pl)
{
    return pl->fixed ? NULL : pms_model_reg_by_kind(pl->model, PMS_REG_PMC, pl->counter);
}

/* No overflow status before PerfMonV2. */
static const PmsRegister *amd64_status_reg(const PmsPlacement *pl)
{
    (void)pl;
    return NULL;
}

static guint64 amd64_status_bit(const PmsPlacement *pl)
{
    (void)pl;
    return 0;
}

const ProgOps prog_amd64_ops = {
    .set_counters = prog_set_counters_allowed,
    .place_on = prog_place_on_counters,
    .place = prog_place_lowest,
    .writes = amd64_writes,
    .counter_reg = amd64_counter_reg,
    .status_bit = amd64_status_bit,
    .status_reg = amd64_status_reg,
};
