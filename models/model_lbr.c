/* pmusim models — the LBR ring a model declares (kinds lbr_from, lbr_to,
 * lbr_tos), checked against what the simulator's ring (sim/lbr.c) indexes
 * with: its entries are the FROM_IP registers of index 0, 1, ... (the first
 * missing index ends the ring), and TOS, the field `tos` of MSR_LASTBRANCH_TOS,
 * must index every entry.  An entry past a gap would be silently outside the
 * ring, and a TOS field narrower than the ring wraps before it and shows a
 * short, wrong history (issue 20: `tos = 0` on wsm's 16 entries).  The loader
 * refuses both (naming the register's line or the field's key), the lint
 * reports them for models that reached memory another way. */
#include "model.h"
#include "model_priv.h"
#include "field_need.h"

char *pms_model_lbr_problem(const PmsModel *m, const PmsRegister **where, gboolean *on_field)
{
    guint n = 0;
    while (pms_model_reg_by_kind(m, PMS_REG_LBR_FROM, n))
        n++;
    *on_field = FALSE;
    for (guint i = 0; i < m->n_regs; i++) {
        const PmsRegister *r = &m->regs[i];
        if (r->kind == PMS_REG_LBR_FROM && r->index > n && !r->unit) {
            *where = r;
            return g_strdup_printf("register %s: LBR entry %u, but entry %u has no FROM_IP register (kind lbr_from, "
                                   "index %u): the ring's entries are indexes 0..N-1 without a gap",
                                   r->name, r->index, n, n);
        }
    }
    const PmsRegister *tos = pms_model_reg_by_kind(m, PMS_REG_LBR_TOS, 0);
    const char *const names[] = { "tos", NULL };
    guint shift, width;
    if (n == 0 || !pms_field_find(tos, names, 0, 0, &shift, &width) || width >= 32 || (1u << width) >= n)
        return NULL;
    *where = tos;
    *on_field = TRUE;
    return g_strdup_printf("field tos of layout %s is %u bit%s wide: it cannot index the %u LBR entries "
                           "(2^%u < %u; the simulator's ring would wrap early)",
                           tos->layout->name, width, width == 1 ? "" : "s", n, width, n);
}
