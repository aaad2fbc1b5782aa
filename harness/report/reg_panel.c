/* pmusim — the register panel's data (reg_panel.h): values read from the
 * simulator before the run and after every trace record. */
#include "reg_panel.h"

static void panel_reg_free(gpointer data)
{
    PmsPanelReg *r = data;
    g_array_free(r->changes, TRUE);
    g_free(r);
}

PmsRegPanel *pms_reg_panel_new(PmsSim *sim)
{
    PmsRegPanel *p = g_new0(PmsRegPanel, 1);
    p->sim = sim;
    p->regs = g_ptr_array_new_with_free_func(panel_reg_free);
    p->causes = g_array_new(FALSE, FALSE, sizeof(PmsPanelCause));
    return p;
}

void pms_reg_panel_free(PmsRegPanel *p)
{
    if (!p)
        return;
    g_ptr_array_unref(p->regs);
    g_array_free(p->causes, TRUE);
    g_free(p);
}

static gboolean shown(const PmsRegister *r)
{
    switch (r->kind) {
    case PMS_REG_PMC:
    case PMS_REG_A_PMC:
    case PMS_REG_FIXED_CTR:
    case PMS_REG_IA64_PMD:
    case PMS_REG_GLOBAL_OVF_CTRL: /* write 1 to clear: reads 0, its effect is in the status */
    case PMS_REG_GLOBAL_STATUS_RESET:
    case PMS_REG_GLOBAL_STATUS_SET:
    case PMS_REG_LBR_FROM:
    case PMS_REG_LBR_TO:
    case PMS_REG_LBR_TOS:
        return FALSE;
    default:
        return TRUE;
    }
}

void pms_reg_panel_watch(PmsRegPanel *p, const PmsRegister *r, const char *origin)
{
    if (!r || !shown(r))
        return;
    for (guint i = 0; i < p->regs->len; i++)
        if (((PmsPanelReg *)g_ptr_array_index(p->regs, i))->reg == r)
            return;
    PmsPanelReg *w = g_new0(PmsPanelReg, 1);
    w->reg = r;
    w->origin = origin;
    w->changes = g_array_new(FALSE, FALSE, sizeof(PmsPanelChange));
    g_ptr_array_add(p->regs, w);
}

void pms_reg_panel_cause(PmsRegPanel *p, const PmsRegister *r, const char *field, const char *origin)
{
    const PmsField *f = r ? pms_layout_field(r->layout, field) : NULL;
    if (!f)
        return;
    pms_reg_panel_watch(p, r, origin);
    for (guint i = 0; i < p->regs->len; i++) {
        const PmsPanelReg *w = g_ptr_array_index(p->regs, i);
        if (w->reg == r) {
            PmsPanelCause c = { w, f };
            g_array_append_val(p->causes, c);
        }
    }
}

guint64 pms_reg_panel_value_at(const PmsPanelReg *w, guint64 c)
{
    guint64 v = w->start;
    for (guint k = 0; k < w->changes->len; k++) {
        const PmsPanelChange *ch = &g_array_index(w->changes, PmsPanelChange, k);
        if (ch->after || ch->last > c)
            break;
        v = ch->value;
    }
    return v;
}

static gboolean read_reg(PmsRegPanel *p, const PmsRegister *r, guint64 *v)
{
    return pms_sim_read_at(p->sim, r->space, r->address, v, NULL);
}

void pms_reg_panel_start(PmsRegPanel *p)
{
    for (guint i = 0; i < p->regs->len; i++) {
        PmsPanelReg *w = g_ptr_array_index(p->regs, i);
        if (!read_reg(p, w->reg, &w->start))
            w->start = 0;
        w->last = w->start;
    }
}

static void sample(PmsRegPanel *p, guint64 first, guint64 last, gboolean after)
{
    for (guint i = 0; i < p->regs->len; i++) {
        PmsPanelReg *w = g_ptr_array_index(p->regs, i);
        guint64 v;
        if (!read_reg(p, w->reg, &v) || v == w->last)
            continue;
        PmsPanelChange c = { first, last, after, v };
        g_array_append_val(w->changes, c);
        w->last = v;
    }
}

void pms_reg_panel_sample(PmsRegPanel *p, guint64 first, guint64 last)
{
    sample(p, first, last, FALSE);
}

void pms_reg_panel_finish(PmsRegPanel *p, guint64 cycles)
{
    sample(p, cycles, cycles, TRUE);
}
