/* pmusim models — the family `amd64`'s model check (AMD's core PMU before
 * PerfMonV2: models/amd64_fam17h_zen2.pmu, docs/amd64.md).
 *
 * Always: 1..6 counters, each with its PERF_CTL (kind evtsel) and PERF_CTR
 * (kind pmc), and an alias only of a counter's register: the device knows
 * no other register.  With complete (the lint): every PERF_CTL field the
 * device and the program step read by name (sim/dev_amd64.c,
 * sim/program/program_amd64.c), so that the lint reports what pms_sim_new
 * would refuse the model for. */
#include "model.h"
#include "model_priv.h"
#include "field_need.h"

void pms_amd64_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs);

/* The fields of PERF_CTL the device reads (dev_amd64.c's table). */
static const char *const ctl_fields[] = { "event", "event_hi", "umask", "usr",        "os",        "edge", "int",
                                          "en",    "inv",      "cmask", "guest_only", "host_only", NULL };

void pms_amd64_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs)
{
    if (m->n_gp < 1 || m->n_gp > 6 || m->n_fixed) {
        pms_msg_add(msgs, "an amd64 PMU has 1..6 general counters and no fixed counter (has %u and %u)", m->n_gp,
                    m->n_fixed);
        return;
    }
    for (guint k = 0; k < m->n_gp; k++)
        if (!pms_model_reg_by_kind(m, PMS_REG_EVTSEL, k) || !pms_model_reg_by_kind(m, PMS_REG_PMC, k)) {
            pms_msg_add(msgs, "counter %u has no %s register", k,
                        pms_model_reg_by_kind(m, PMS_REG_EVTSEL, k) ? "pmc" : "evtsel");
            return;
        }
    for (guint i = 0; i < m->n_regs; i++) {
        const PmsRegister *a = m->regs[i].alias;
        if (a && a->kind != PMS_REG_EVTSEL && a->kind != PMS_REG_PMC)
            pms_msg_add(msgs, "register %s: an alias of %s, which is no counter's PERF_CTL or PERF_CTR",
                        m->regs[i].name, a->name);
    }
    if (!complete)
        return;
    for (guint k = 0; k < m->n_gp; k++) {
        const PmsRegister *ctl = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, k);
        for (guint j = 0; ctl_fields[j]; j++) {
            const char *const names[] = { ctl_fields[j], NULL };
            guint shift, width;
            if (!pms_field_find(ctl, names, 0, 0, &shift, &width)) {
                g_autofree char *miss = pms_field_missing(ctl, ctl_fields[j]);
                pms_msg_add(msgs, "%s, which the simulator reads by name", miss);
            }
        }
    }
}
