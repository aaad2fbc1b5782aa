/* pmusim — what MSR_LBR_SELECT means: which branches the LBR records (the
 * capture rule, the NHM jump rule, call-stack mode) and the configuration in
 * words (include/pmusim/lbr.h).  The LBR model of the x86 core device
 * (sim/lbr.c) asks it for every branch; `pmusim explain --lbr` for its words.
 *
 * Each bit is read through the model's lbr_select layout by field name; the
 * branch classes' field names are the configuration's (pms_lbr_filter_name,
 * encoder/lbr_config.c). */
#include <string.h>
#include "lbr.h"
#include "encoder.h"

/* What each class is, for pms_lbr_describe. */
static const char *const class_words[PMS_LBR_N_FILTERS] = {
    "conditional branches", "near relative calls", "near indirect calls", "near returns",
    "near indirect jumps",  "near relative jumps", "far branches",
};

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
    if ((guint)t >= PMS_LBR_N_FILTERS || sel_bit(m, sel, pms_lbr_filter_name(1u << t)))
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
    g_string_append(
        out, on ? "every branch that passes MSR_LBR_SELECT is recorded" : "nothing is recorded until software sets it");
    g_string_append_printf(out, " in a ring of %u FROM/TO entries, MSR_LASTBRANCH_TOS pointing at the newest.\n", n);
    gboolean k = !sel_bit(m, sel, "cpl_eq_0"), u = !sel_bit(m, sel, "cpl_neq_0");
    g_string_append_printf(out, "Privilege: %s.\n",
                           k && u  ? "branches at every ring (cpl_eq_0 and cpl_neq_0 clear)"
                               : k ? "ring 0 only (cpl_neq_0 drops rings 1-3)"
                               : u ? "rings 1-3 only (cpl_eq_0 drops ring 0)"
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
    g_autoptr(GPtrArray) kept = g_ptr_array_new(), dropped = g_ptr_array_new(),
                         gated = g_ptr_array_new_with_free_func(g_free);
    for (guint t = 0; t < PMS_LBR_N_FILTERS; t++) {
        if (cs && t == PMS_LBR_BR_NEAR_RET)
            continue; /* never recorded in call-stack mode: said below */
        gboolean own = sel_bit(m, sel, pms_lbr_filter_name(1u << t));
        gboolean pass = pms_lbr_select_passes(classes, m, rule, t, 3);
        if (own)
            g_ptr_array_add(dropped, (gpointer)class_words[t]);
        else if (!pass) {
            g_ptr_array_add(dropped, (gpointer)class_words[t]);
            g_ptr_array_add(gated,
                            g_strdup_printf("%s are dropped by %s", class_words[t],
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
        g_string_append(out,
                        " is not recorded but flushes the newest entry (it reads 0, MSR_LASTBRANCH_TOS steps "
                        "back by one), whatever near_ret says, so the ring keeps the calls that have not "
                        "returned yet: the call stack of the current path.\n");
        if (pms_lbr_callstack_configured(sel, m))
            g_string_append(out,
                            "This is the SDM's call-stack configuration (jcc, near_ind_jmp, near_rel_jmp and "
                            "far_branch filtered, calls and returns not).\n");
        else
            g_string_append(out,
                            "Not the SDM's call-stack configuration (jcc, near_ind_jmp, near_rel_jmp and "
                            "far_branch set, near_rel_call, near_ind_call and near_ret clear): pmusim pops "
                            "whatever entry is newest, a jump's or a conditional's too (model option "
                            "lbr_callstack = lifo, semantics.md 8b).\n");
    } else if (cs_field && sel_bit(m, sel, "en_callstack"))
        g_string_append(out,
                        "LBR_SELECT.EN_CALLSTACK is set but ignored: not the SDM's call-stack configuration "
                        "(model option lbr_callstack = configured); returns are recorded like any branch.\n");
    gboolean fz = frz && pms_field_get(frz, debugctl);
    if (m->version >= 4)
        g_string_append_printf(
            out, "On a PMI: %s.\n",
            fz ? "the LBR freezes (IA32_PERF_GLOBAL_STATUS.LBR_Frz set) until software clears LBR_Frz"
               : "the LBR keeps recording (FREEZE_LBRS_ON_PMI clear)");
    else
        g_string_append_printf(
            out, "On a PMI: %s.\n",
            fz ? "the LBR freezes (the processor clears IA32_DEBUGCTL.LBR) until software sets it again"
               : "the LBR keeps recording (FREEZE_LBRS_ON_PMI clear)");
    return g_string_free(out, FALSE);
}
