/* pmusim — LBR configuration -> MSR_LBR_SELECT and IA32_DEBUGCTL, and the
 * branch classes' names (include/pmusim/lbr_config.h).
 *
 * Bits are placed through the model's layouts by field name: the flag names
 * below are the lbr_select layout's field names, so a model without one of
 * them cannot be encoded for (PMS_ERR_NOTSUPP names the field).  What the
 * bits do to a branch is the LBR model's (sim/lbr_select.c). */
#include <string.h>
#include "lbr_config.h"
#include "encoder.h"

/* In PMS_LBR_* order: the filter words of the CLI and the stimulus, and the
 * lbr_select field of each class. */
static const char *const filter_names[PMS_LBR_N_FILTERS] = {
    "jcc", "near_rel_call", "near_ind_call", "near_ret", "near_ind_jmp", "near_rel_jmp", "far_branch",
};

const char *pms_lbr_filter_name(guint flag)
{
    for (guint i = 0; i < PMS_LBR_N_FILTERS; i++)
        if (flag == 1u << i)
            return filter_names[i];
    return NULL;
}

static const PmsField *lbr_field(const PmsModel *m, const char *layout, const char *name, GError **error)
{
    const PmsField *f = pms_layout_field(pms_model_layout(m, layout), name);
    if (!f)
        g_set_error(error, PMS_ENCODE_ERROR, PMS_ERR_NOTSUPP, "model %s has no LBR: its %s layout lacks field %s",
                    m->name, layout, name);
    return f;
}

gboolean pms_lbr_encode(const PmsModel *m, const PmsLbrConfig *cfg, guint dfl_plm, PmsLbrEncoding *out, GError **error)
{
    memset(out, 0, sizeof *out);
    const PmsRegister *sel_reg = pms_model_reg_by_kind(m, PMS_REG_LBR_SELECT, 0);
    const PmsRegister *dbg_reg = pms_model_reg_by_kind(m, PMS_REG_DEBUGCTL, 0);
    if (!sel_reg || !dbg_reg) {
        g_set_error(error, PMS_ENCODE_ERROR, PMS_ERR_NOTSUPP, "model %s has no LBR (no %s register)", m->name,
                    sel_reg ? "IA32_DEBUGCTL" : "MSR_LBR_SELECT");
        return FALSE;
    }
    if (cfg->filter & ~(guint)PMS_LBR_FILTER_ALL) {
        g_set_error(error, PMS_ENCODE_ERROR, PMS_ERR_INVAL, "LBR filter 0x%x: unknown flags 0x%x (expected PMS_LBR_*)",
                    cfg->filter, cfg->filter & ~(guint)PMS_LBR_FILTER_ALL);
        return FALSE;
    }
    /* libpfm_nehalem(3): lbr_plm 0 means the default mask; PLM1 and PLM2
     * are refused (the LBR knows ring 0 and the rest) */
    guint plm = cfg->plm ? cfg->plm : dfl_plm;
    if (plm & (PMS_PLM1 | PMS_PLM2)) {
        g_set_error(error, PMS_ENCODE_ERROR, PMS_ERR_ATTR_VAL,
                    "LBR privilege mask 0x%x%s: PLM1 and PLM2 are refused (the LBR filters ring 0 and rings 1-3 "
                    "only): expected PLM0 (0), PLM3 (3) or both",
                    plm, cfg->plm ? "" : " (the default)");
        return FALSE;
    }
    if (!(plm & (PMS_PLM0 | PMS_PLM3))) {
        g_set_error(error, PMS_ENCODE_ERROR, PMS_ERR_ATTR_VAL,
                    "LBR privilege mask 0x%x: expected PLM0 (0), PLM3 (3) or both", plm);
        return FALSE;
    }
    const PmsField *eq0 = lbr_field(m, "lbr_select", "cpl_eq_0", error);
    const PmsField *neq0 = eq0 ? lbr_field(m, "lbr_select", "cpl_neq_0", error) : NULL;
    const PmsField *lbr = neq0 ? lbr_field(m, "debugctl", "lbr", error) : NULL;
    const PmsField *frz = lbr ? lbr_field(m, "debugctl", "freeze_lbrs_on_pmi", error) : NULL;
    if (!frz)
        return FALSE;
    guint64 sel = 0;
    /* suppress the side the mask leaves out */
    if (!(plm & PMS_PLM0))
        sel = pms_field_set(eq0, sel, 1);
    if (!(plm & PMS_PLM3))
        sel = pms_field_set(neq0, sel, 1);
    for (guint i = 0; i < PMS_LBR_N_FILTERS; i++) {
        if (!(cfg->filter & (1u << i)))
            continue;
        const PmsField *f = lbr_field(m, "lbr_select", filter_names[i], error);
        if (!f)
            return FALSE;
        sel = pms_field_set(f, sel, 1);
    }
    if (cfg->callstack) {
        const PmsField *cs = pms_layout_field(pms_model_layout(m, "lbr_select"), "en_callstack");
        if (!cs) {
            g_set_error(error, PMS_ENCODE_ERROR, PMS_ERR_NOTSUPP,
                        "LBR call-stack mode: model %s has none (its lbr_select layout lacks field en_callstack)",
                        m->name);
            return FALSE;
        }
        sel = pms_field_set(cs, sel, 1);
    }
    out->lbr_select = sel;
    out->debugctl_mask = pms_field_set(lbr, 0, 1) | pms_field_set(frz, 0, 1);
    out->debugctl = pms_field_set(frz, pms_field_set(lbr, 0, 1), cfg->freeze_on_pmi ? 1 : 0);
    if (!cfg->used)
        return TRUE;
    out->writes[0] = (PmsRegWrite){ sel_reg->name, sel_reg->address, sel, G_MAXUINT64, sel_reg };
    out->writes[1] = (PmsRegWrite){ dbg_reg->name, dbg_reg->address, out->debugctl, out->debugctl_mask, dbg_reg };
    out->n_writes = 2;
    return TRUE;
}

gboolean pms_lbr_parse_filter(const char *text, guint *filter, GError **error)
{
    *filter = 0;
    if (g_strcmp0(text, "none") == 0)
        return TRUE;
    g_autofree char *list = g_strjoinv(", ", (char **)filter_names);
    /* an empty list is refused like an empty item ("jcc,,far_branch"):
     * dropping nothing is spelled "none" */
    if (!text || !*text) {
        g_set_error(error, PMS_ENCODE_ERROR, PMS_ERR_INVAL, "LBR filter: empty list: expected one of %s, or none",
                    list);
        return FALSE;
    }
    g_auto(GStrv) words = g_strsplit(text, ",", -1);
    for (guint w = 0; words[w]; w++) {
        guint i = 0;
        while (i < PMS_LBR_N_FILTERS && g_ascii_strcasecmp(words[w], filter_names[i]) != 0)
            i++;
        if (i == PMS_LBR_N_FILTERS) {
            g_set_error(error, PMS_ENCODE_ERROR, PMS_ERR_INVAL, "LBR filter '%s': expected one of %s, or none",
                        words[w], list);
            return FALSE;
        }
        *filter |= 1u << i;
    }
    return TRUE;
}

gboolean pms_lbr_parse_plm(const char *text, guint *plm, GError **error)
{
    *plm = 0;
    g_auto(GStrv) words = g_strsplit(text ? text : "", ",", -1);
    for (guint w = 0; words[w]; w++) {
        const char *x = words[w];
        if (!strcmp(x, "0") || !g_ascii_strcasecmp(x, "k"))
            *plm |= PMS_PLM0;
        else if (!strcmp(x, "1"))
            *plm |= PMS_PLM1;
        else if (!strcmp(x, "2"))
            *plm |= PMS_PLM2;
        else if (!strcmp(x, "3") || !g_ascii_strcasecmp(x, "u"))
            *plm |= PMS_PLM3;
        else {
            g_set_error(error, PMS_ENCODE_ERROR, PMS_ERR_INVAL,
                        "LBR privilege level '%s': expected 0 (or k), 3 (or u), comma-separated", x);
            return FALSE;
        }
    }
    if (!*plm) {
        g_set_error(error, PMS_ENCODE_ERROR, PMS_ERR_INVAL, "LBR privilege levels: empty list: expected 0, 3 or 0,3");
        return FALSE;
    }
    return TRUE;
}
