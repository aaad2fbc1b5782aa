/* pmusim — Intel TSX regions and the PERFEVTSEL qualifiers IN_TX / IN_TXCP
 * of the x86 core device (SDM Vol. 3B 18.11.5.1, p.18-70; docs/semantics.md
 * §8d for the choices).
 *
 * The stimulus says where thread 0's transactional regions begin, commit and
 * abort (`tx=` run tokens, applied at the start of their run, before it
 * counts).  Regions nest; only the outermost one matters: its begin takes
 * the checkpoint, any abort ends every level.
 *  - IN_TX: the counter counts only in cycles inside a region, whether the
 *    region later commits or aborts.
 *  - IN_TXCP: the events of a region that aborts are not kept: at the abort
 *    the counter goes back to its value at the outermost begin.  An overflow
 *    that happened inside the aborted region goes with it: its GLOBAL_STATUS
 *    bit is cleared (Linux's reading, core.c intel_pmu_save_and_restart: "the
 *    rollback ... will have cleared the overflow status bit"; option
 *    txcp_status = keep leaves it).  A PMI already raised stays raised: an
 *    interrupt is not taken back (on hardware it is what aborts the region).
 * A model whose PERFEVTSEL layout lacks in_tx / in_txcp has neither
 * qualifier; its `tx=` tokens only move the depth (read by nobody but the
 * LBR of a model with LBR_INFO). */
#include "x86_tsx.h"
#include "sim_input.h"

#include <string.h>

gboolean sim_tsx_init(SimTsx *t, const PmsModel *m, GError **error)
{
    memset(t, 0, sizeof *t);
    static const char *const n_tx[] = { "in_tx", NULL }, *const n_cp[] = { "in_txcp", NULL };
    const PmsRegister *r = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    t->in_tx = sim_resolve(r, n_tx, 0, 0);
    t->in_txcp = sim_resolve(r, n_cp, 0, 0);
    const char *st = pms_model_option(m, "txcp_status", "rollback");
    if (strcmp(st, "rollback") && strcmp(st, "keep")) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: option txcp_status = '%s': expected rollback or keep", m->name, st);
        return FALSE;
    }
    t->status_rollback = strcmp(st, "rollback") == 0;
    return TRUE;
}

void sim_tsx_reset(SimTsx *t)
{
    t->depth = 0;
    memset(t->ckpt, 0, sizeof t->ckpt);
    t->ckpt_status = 0;
}

void sim_tsx_apply(SimTsx *t, const SimTxOp *ops, guint n, guint64 *const *evtsel, guint64 *const *pmc, guint n_gp,
                   guint64 *status, const guint64 *st_bit)
{
    n_gp = MIN(n_gp, SIM_TSX_MAX_GP);
    for (guint k = 0; k < n; k++) {
        switch (ops[k]) {
        case SIM_TX_BEGIN:
            if (t->depth++ == 0) {
                for (guint i = 0; i < n_gp; i++)
                    t->ckpt[i] = *pmc[i];
                t->ckpt_status = *status;
            }
            break;
        case SIM_TX_COMMIT:
            /* XEND outside a region faults on hardware; here it is ignored */
            if (t->depth)
                t->depth--;
            break;
        case SIM_TX_ABORT:
            if (!t->depth)
                break; /* nothing to abort */
            t->depth = 0;
            for (guint i = 0; i < n_gp; i++) {
                if (!sim_fget(t->in_txcp, *evtsel[i]))
                    continue;
                *pmc[i] = t->ckpt[i];
                /* only a bit the region set: one already set at the begin stays */
                if (t->status_rollback)
                    *status &= ~(st_bit[i] & ~t->ckpt_status);
            }
            break;
        }
    }
}

gboolean sim_tsx_key(const PmsModel *m, const char *value, gpointer field, GError **error)
{
    (void)m;
    static const char *const words[] = { "begin", "commit", "abort" };
    for (guint i = 0; i < G_N_ELEMENTS(words); i++)
        if (!g_ascii_strcasecmp(value, words[i])) {
            SimTxOp op = (SimTxOp)i;
            sim_list_append(field, &op, sizeof op);
            return TRUE;
        }
    return sim_input_fail(error, "tx: '%s': expected begin, commit or abort", value);
}
