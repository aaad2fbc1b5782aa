/* pmusim models — the test-only family `toy`'s model check
 * (models/tests/toy.pmu, docs/adding-a-pmu.md): with complete (the lint),
 * every register field its device and program step read by name
 * (sim/dev_toy.c, sim/program/program_toy.c), so that the lint reports what
 * pms_sim_new would refuse the model for. */
#include "model.h"
#include "model_priv.h"
#include "field_need.h"

void pms_toy_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs);

static void need(GPtrArray *msgs, const PmsRegister *r, const char *name, guint idx)
{
    const char *const names[] = { name, NULL };
    guint shift, width;
    if (r && !pms_field_find(r, names, idx, 0, &shift, &width)) {
        g_autofree char *miss = pms_field_missing(r, name);
        pms_msg_add(msgs, "%s, which the simulator reads by name", miss);
    }
}

void pms_toy_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs)
{
    if (!complete)
        return;
    static const char *const ctl[] = { "event", "umask", "en", "int", "thresh" };
    const PmsRegister *ctl0 = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    for (guint i = 0; i < G_N_ELEMENTS(ctl); i++)
        need(msgs, ctl0, ctl[i], 0);
    const PmsRegister *st = pms_model_reg_by_kind(m, PMS_REG_GLOBAL_STATUS, 0);
    for (guint k = 0; k < m->n_gp; k++)
        need(msgs, st, "ovf%u", k); /* bit k of the vector field ovf */
}
