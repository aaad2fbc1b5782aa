/* pmusim — LBR configuration -> MSR_LBR_SELECT and IA32_DEBUGCTL, the
 * LBR_SELECT capture rule, and the configuration in words (include/pmusim/lbr.h).
 *
 * Bits are placed through the model's layouts by field name: the flag names
 * below are the lbr_select layout's field names, so a model without one of
 * them cannot be encoded for (PMS_ERR_NOTSUPP names the field). */
#include <string.h>
#include "lbr.h"
#include "encoder.h"

/* In PMS_LBR_* order: the filter words of the CLI and the stimulus, and the
 * lbr_select field of each class. */
static const char *const filter_names[PMS_LBR_N_FILTERS] = {
    "jcc", "near_rel_call", "near_ind_call", "near_ret", "near_ind_jmp", "near_rel_jmp", "far_branch",
};
/* What each class is, for pms_lbr_describe. */
static const char *const class_words[PMS_LBR_N_FILTERS] = {
    "conditional branches", "near relative calls", "near indirect calls", "near returns",
    "near indirect jumps", "near relative jumps", "far branches",
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

gboolean pms_lbr_jmp_rule(const PmsModel *m, PmsLbrJmpRule *rule, GError **error)
{
    const char *v = pms_model_option(m, "lbr_jmp_rule", "snb");
    if (strcmp(v, "nhm") == 0)
        *rule = PMS_LBR_JMP_RULE_NHM;
    else if (strcmp(v, "snb") == 0)
        *rule = PMS_LBR_JMP_RULE_SNB;
    else {
        g_set_error(error, PMS_ENCODE_ERROR, PMS_ERR_NOTSUPP,
                    "model %s: option lbr_jmp_rule = '%s': expected nhm or snb", m->name, v);
        return FALSE;
    }
    return TRUE;
}

static gboolean sel_bit(const PmsModel *m, guint64 sel, const char *name)
{
    const PmsField *f = pms_layout_field(pms_model_layout(m, "lbr_select"), name);
    return f && pms_field_get(f, sel) != 0;
}

gboolean pms_lbr_select_passes(guint64 sel, const PmsModel *m, PmsLbrJmpRule rule, PmsLbrBranchType t, guint cpl)
{
    /* SDM Table 17-11: every bit of LBR_SELECT suppresses (1 = drop) */
    if (sel_bit(m, sel, cpl == 0 ? "cpl_eq_0" : "cpl_neq_0"))
        return FALSE;
    if ((guint)t >= PMS_LBR_N_FILTERS || sel_bit(m, sel, filter_names[t]))
        return FALSE;
    if (rule == PMS_LBR_JMP_RULE_NHM) {
        /* A13: on NHM/WSM the jump bits cover the calls/returns that the
         * SNB table (17-12) lists as their exceptions */
        if (t == PMS_LBR_BR_NEAR_REL_CALL && sel_bit(m, sel, "near_rel_jmp"))
            return FALSE;
        if ((t == PMS_LBR_BR_NEAR_IND_CALL || t == PMS_LBR_BR_NEAR_RET) && sel_bit(m, sel, "near_ind_jmp"))
            return FALSE;
    }
    return TRUE;
}

gboolean pms_lbr_callstack_rule(const PmsModel *m, PmsLbrCallstackRule *rule, GError **error)
{
    const char *v = pms_model_option(m, "lbr_callstack", "lifo");
    if (strcmp(v, "lifo") == 0)
        *rule = PMS_LBR_CALLSTACK_LIFO;
    else if (strcmp(v, "configured") == 0)
        *rule = PMS_LBR_CALLSTACK_CONFIGURED;
    else {
        g_set_error(error, PMS_ENCODE_ERROR, PMS_ERR_NOTSUPP,
                    "model %s: option lbr_callstack = '%s': expected lifo or configured", m->name, v);
        return FALSE;
    }
    return TRUE;
}

static gboolean has_callstack(const PmsModel *m)
{
    return pms_layout_field(pms_model_layout(m, "lbr_select"), "en_callstack") != NULL;
}

gboolean pms_lbr_callstack_configured(guint64 sel, const PmsModel *m)
{
    /* SDM 17.9 p.17-30: the branches call-stack mode is meant for are calls
     * and returns; everything else is filtered */
    static const char *const set[] = { "en_callstack", "jcc", "near_ind_jmp", "near_rel_jmp", "far_branch" };
    static const char *const clear[] = { "near_rel_call", "near_ind_call", "near_ret" };
    if (!has_callstack(m))
        return FALSE;
    for (guint i = 0; i < G_N_ELEMENTS(set); i++)
        if (!sel_bit(m, sel, set[i]))
            return FALSE;
    for (guint i = 0; i < G_N_ELEMENTS(clear); i++)
        if (sel_bit(m, sel, clear[i]))
            return FALSE;
    return !(sel_bit(m, sel, "cpl_eq_0") && sel_bit(m, sel, "cpl_neq_0"));
}

gboolean pms_lbr_callstack_on(guint64 sel, const PmsModel *m, PmsLbrCallstackRule rule)
{
    if (!sel_bit(m, sel, "en_callstack"))
        return FALSE;
    return rule == PMS_LBR_CALLSTACK_LIFO || pms_lbr_callstack_configured(sel, m);
}

PmsLbrAction pms_lbr_action(guint64 sel, const PmsModel *m, PmsLbrJmpRule rule, PmsLbrCallstackRule cs_rule,
                            PmsLbrBranchType t, guint cpl)
{
    if (t == PMS_LBR_BR_NEAR_RET && pms_lbr_callstack_on(sel, m, cs_rule))
        return sel_bit(m, sel, cpl == 0 ? "cpl_eq_0" : "cpl_neq_0") ? PMS_LBR_DROP : PMS_LBR_POP;
    return pms_lbr_select_passes(sel, m, rule, t, cpl) ? PMS_LBR_RECORD : PMS_LBR_DROP;
}

gboolean pms_lbr_encode(const PmsModel *m, const PmsLbrConfig *cfg, guint dfl_plm, PmsLbrEncoding *out,
                        GError **error)
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
                    "only): expected PLM0 (0), PLM3 (3) or both", plm, cfg->plm ? "" : " (the default)");
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
    g_auto(GStrv) words = g_strsplit(text ? text : "", ",", -1);
    for (guint w = 0; words[w]; w++) {
        guint i = 0;
        while (i < PMS_LBR_N_FILTERS && g_ascii_strcasecmp(words[w], filter_names[i]) != 0)
            i++;
        if (i == PMS_LBR_N_FILTERS) {
            g_autofree char *list = g_strjoinv(", ", (char **)filter_names);
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

/* "a, b and c" */
static void append_list(GString *out, GPtrArray *words)
{
    for (guint i = 0; i < words->len; i++) {
        if (i)
            g_string_append(out, i + 1 == words->len ? " and " : ", ");
        g_string_append(out, g_ptr_array_index(words, i));
    }
}

char *pms_lbr_describe(const PmsModel *m, guint64 sel, guint64 debugctl)
{
    GString *out = g_string_new(NULL);
    const PmsLayout *dl = pms_model_layout(m, "debugctl");
    const PmsField *lbr = pms_layout_field(dl, "lbr");
    const PmsField *frz = pms_layout_field(dl, "freeze_lbrs_on_pmi");
    PmsLbrJmpRule rule = PMS_LBR_JMP_RULE_SNB;
    if (!lbr || !pms_model_layout(m, "lbr_select") || !pms_lbr_jmp_rule(m, &rule, NULL)) {
        g_string_printf(out, "model %s has no LBR.\n", m->name);
        return g_string_free(out, FALSE);
    }
    guint n = 0;
    while (pms_model_reg_by_kind(m, PMS_REG_LBR_FROM, n))
        n++;
    gboolean on = pms_field_get(lbr, debugctl) != 0;
    g_string_append_printf(out, "LBR %s (IA32_DEBUGCTL.LBR = %d): ", on ? "on" : "off", on);
    g_string_append(out, on ? "every branch that passes MSR_LBR_SELECT is recorded"
                            : "nothing is recorded until software sets it");
    g_string_append_printf(out, " in a ring of %u FROM/TO entries, MSR_LASTBRANCH_TOS pointing at the newest.\n", n);
    gboolean k = !sel_bit(m, sel, "cpl_eq_0"), u = !sel_bit(m, sel, "cpl_neq_0");
    g_string_append_printf(out, "Privilege: %s.\n",
                           k && u ? "branches at every ring (cpl_eq_0 and cpl_neq_0 clear)"
                           : k    ? "ring 0 only (cpl_neq_0 drops rings 1-3)"
                           : u    ? "rings 1-3 only (cpl_eq_0 drops ring 0)"
                                  : "no ring at all (cpl_eq_0 and cpl_neq_0 both set): nothing is recorded");
    /* the rings are said above: ask about the classes with both CPL bits clear */
    const PmsLayout *sl = pms_model_layout(m, "lbr_select");
    guint64 classes = sel;
    for (guint i = 0; i < 2; i++) {
        const PmsField *f = pms_layout_field(sl, i ? "cpl_neq_0" : "cpl_eq_0");
        if (f)
            classes = pms_field_set(f, classes, 0);
    }
    PmsLbrCallstackRule cs_rule = PMS_LBR_CALLSTACK_LIFO;
    gboolean cs_field = has_callstack(m) && pms_lbr_callstack_rule(m, &cs_rule, NULL);
    gboolean cs = cs_field && pms_lbr_callstack_on(sel, m, cs_rule);
    g_autoptr(GPtrArray) kept = g_ptr_array_new(), dropped = g_ptr_array_new(), gated = g_ptr_array_new_with_free_func(g_free);
    for (guint t = 0; t < PMS_LBR_N_FILTERS; t++) {
        if (cs && t == PMS_LBR_BR_NEAR_RET)
            continue; /* never recorded in call-stack mode: said below */
        gboolean own = sel_bit(m, sel, filter_names[t]);
        gboolean pass = pms_lbr_select_passes(classes, m, rule, t, 3);
        if (own)
            g_ptr_array_add(dropped, (gpointer)class_words[t]);
        else if (!pass) {
            g_ptr_array_add(dropped, (gpointer)class_words[t]);
            g_ptr_array_add(gated, g_strdup_printf("%s are dropped by %s", class_words[t],
                                                   t == PMS_LBR_BR_NEAR_REL_CALL ? "near_rel_jmp" : "near_ind_jmp"));
        } else
            g_ptr_array_add(kept, (gpointer)class_words[t]);
    }
    g_string_append(out, "Recorded: ");
    if (!k && !u)
        g_string_append(out, "nothing (no ring passes); the classes below are filtered as well");
    else if (kept->len)
        append_list(out, kept);
    else
        g_string_append(out, "no branch class");
    g_string_append(out, ".\n");
    if (dropped->len) {
        g_string_append(out, "Filtered out: ");
        append_list(out, dropped);
        g_string_append(out, ".\n");
    }
    if (gated->len) {
        g_string_append(out, "Nehalem/Westmere rule (semantics.md A13): ");
        append_list(out, gated);
        g_string_append(out, " although their own bit is clear.\n");
    }
    if (cs) {
        g_string_append(out, "Call-stack mode (LBR_SELECT.EN_CALLSTACK = 1, SDM 17.9): a near return");
        g_string_append(out, k && u ? "" : k ? " at ring 0" : u ? " at rings 1-3" : " (at no ring: none)");
        g_string_append(out, " is not recorded but flushes the newest entry (it reads 0, MSR_LASTBRANCH_TOS steps "
                             "back by one), whatever near_ret says, so the ring keeps the calls that have not "
                             "returned yet: the call stack of the current path.\n");
        if (pms_lbr_callstack_configured(sel, m))
            g_string_append(out, "This is the SDM's call-stack configuration (jcc, near_ind_jmp, near_rel_jmp and "
                                 "far_branch filtered, calls and returns not).\n");
        else
            g_string_append(out, "Not the SDM's call-stack configuration (jcc, near_ind_jmp, near_rel_jmp and "
                                 "far_branch set, near_rel_call, near_ind_call and near_ret clear): pmusim pops "
                                 "whatever entry is newest, a jump's or a conditional's too (model option "
                                 "lbr_callstack = lifo, semantics.md 8b).\n");
    } else if (cs_field && sel_bit(m, sel, "en_callstack"))
        g_string_append(out, "LBR_SELECT.EN_CALLSTACK is set but ignored: not the SDM's call-stack configuration "
                             "(model option lbr_callstack = configured); returns are recorded like any branch.\n");
    gboolean fz = frz && pms_field_get(frz, debugctl);
    if (m->version >= 4)
        g_string_append_printf(out, "On a PMI: %s.\n",
                               fz ? "the LBR freezes (IA32_PERF_GLOBAL_STATUS.LBR_Frz set) until software clears LBR_Frz"
                                  : "the LBR keeps recording (FREEZE_LBRS_ON_PMI clear)");
    else
        g_string_append_printf(out, "On a PMI: %s.\n",
                               fz ? "the LBR freezes (the processor clears IA32_DEBUGCTL.LBR) until software sets it again"
                                  : "the LBR keeps recording (FREEZE_LBRS_ON_PMI clear)");
    return g_string_free(out, FALSE);
}
