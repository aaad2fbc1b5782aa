/* pmusim encoder — rules for the Nehalem/Westmere uncore PMU (nhm_unc, wsm_unc).
 *
 * MSR_UNCORE_PERFEVTSELx (SDM Vol. 3B 18.8.2.2, Fig. 18-28) has no USR/OS
 * bits: the uncore is shared by the cores of the socket and counts at every
 * privilege level.  What the encoder produces, as libpfm4 4.13 does:
 *   codes[0] = event | umask << 8 | e (18) | i (23) | c (31:24) | o (17)
 *              | EN (22) | INT (20)
 * and the fixed-counter event UNC_CLK_UNHALTED as its pseudo code 0xff with
 * EN and INT.  The modifiers are e, i, c, o; events whose libpfm4 modifier
 * mask is empty take none (the model's `modifiers = none`).
 *
 * Checks, in libpfm4's order where it fixes the class: unit-mask
 * combinations (NCOMBO and the one-group rule of UNC_QMC_WRITES,
 * PFM_ERR_FEATCOMB), modifier ranges (libpfm4's uncore code answers
 * PFM_ERR_INVAL for c > 255, not the core PMUs' PFM_ERR_ATTR_VAL), a
 * missing unit mask (PFM_ERR_UMASK), and the default privilege mask: it must be
 * PLM0|PLM3 (libpfm_nehalem(3); PFM_ERR_INVAL).  The plain-result cache
 * serves these PMUs' strings too (plain_cache.c: the results of these rules
 * kept per event and unit mask, modifiers applied by pms_x86_uncore_mods). */
#include <string.h>
#include "enc_internal.h"


static const char *group_label(const PmsEvent *ev, guint g)
{
    return g < ev->n_groups && ev->groups[g].name && *ev->groups[g].name ? ev->groups[g].name : "unnamed";
}

/* Step 2's modifier ranges and the values: those given, 0 elsewhere (no
 * privilege bits, no combination rule).  FALSE, with PFM_ERR_INVAL where
 * an error is asked for, when a value is out of range. */
static gboolean given_values(const PmsResolved *r, guint64 *mod_val, GError **error)
{
    pms_zero_mod_vals(mod_val);
    for (guint32 ms = r->mod_set; ms; ms &= ms - 1) {
        guint j = pms_lsb(ms);
        const PmsModifier *mod = r->prep->mods[j].mod;
        if (!pms_mod_in_range(mod, r->mod_val[j])) {
            pms_enc_mod_range_fail(error, PMS_ERR_INVAL, r, j, mod);
            return FALSE;
        }
        mod_val[j] = r->mod_val[j];
    }
    return TRUE;
}

/* Step 4's modifier fields: every one the event takes, the others left as
 * the event and unit-mask bits made them. */
static inline guint64 put_mods(const PmsResolved *r, guint64 evtsel, const guint64 *mod_val)
{
    return pms_evtsel_put_mods(r->prep, evtsel, r->prep->evtsel_mods & r->pe->allowed_mods, mod_val);
}

/* The plain-result cache's modifiers (PmsModsFn, enc_internal.h): out holds
 * the result of the string without them.  Unit masks force nothing here,
 * so only the ranges can refuse, reported by the general path's step 2
 * (its steps before it passed for the string without modifiers). */
PmsModsVerdict pms_x86_uncore_mods(const PmsResolved *r, PmsRuleOut *out, GError **error)
{
    if (r->raw || !pms_uset_empty(r->thrice) || r->plm != PMS_PLM_DEFAULT || (r->mod_set & ~r->prep->evtsel_mods))
        return PMS_MODS_OTHER;
    if (!given_values(r, out->mod_val, error))
        return PMS_MODS_WORDED;
    out->codes[0] = put_mods(r, out->codes[0], out->mod_val);
    pms_rule_out_print(r->pe, out, r->mod_set, r->mod_set);
    return PMS_MODS_OK;
}

gboolean pms_rules_x86_uncore(const PmsResolved *r, PmsRuleOut *out, GError **error)
{
    const PmsPrepared *p = r->prep;
    const PmsPrepEvent *pe = r->pe;
    const PmsEvent *ev = r->event;
    const guint evcol = r->tok->ev_off + 1;

    if (!pms_rules_supported(r, error) || !pms_rules_uncore_plm(r, error))
        return FALSE;

    /* 1. combinations: NCOMBO unit masks; a unit mask named three times is
     * kept twice by libpfm4 4.13 (rules_x86_core.c), a combination with itself */
    PmsUmaskSet u = r->user_umasks;
    guint8 twice[PMS_ENC_MAX_UMASKS];
    const guint8 *twice_p = NULL;
    if (!pms_uset_empty(r->thrice)) {
        for (PmsUmaskSet v = u; !pms_uset_empty(v);) {
            guint i = pms_uset_pop(&v);
            twice[i] = pms_uset_has(r->thrice, i);
        }
        twice_p = twice;
    }
    if ((pms_uset_several(u) || twice_p) && !pms_x86_check_exclusive(r, pe, twice_p, error))
        return FALSE;

    /* the groups in use; GRP_EXCL events take unit masks of one group only */
    guint32 used = 0;
    for (guint g = 0; g < pe->n_groups; g++)
        if (pms_uset_meets(u, pe->group_mask[g]))
            used |= 1u << g;
    /* groups that get defaults and must be satisfied: none with a raw unit mask */
    guint32 active = r->raw ? 0 : (1u << pe->n_groups) - 1;
    if (ev->flags & PMS_EVENT_GROUP_EXCL) {
        if (used & (used - 1)) {
            guint g1 = pms_lsb(used), g2 = pms_lsb(used & (used - 1));
            PmsUmaskSet a = pms_uset_and(u, pe->group_mask[g1]), b = pms_uset_and(u, pe->group_mask[g2]);
            /* the later of the two groups' first mentions is the offending one */
            guint ca = pms_umask_col(r, a, FALSE), cb = pms_umask_col(r, b, FALSE);
            PmsUmaskSet bad = ca > cb ? a : b, ok = ca > cb ? b : a;
            guint bi = pms_uset_lowest(bad), oi = pms_uset_lowest(ok);
            for (PmsUmaskSet v = bad; !pms_uset_empty(v);) {
                guint i = pms_uset_pop(&v);
                if (r->umask_col[i] == MAX(ca, cb))
                    bi = i;
            }
            for (PmsUmaskSet v = ok; !pms_uset_empty(v);) {
                guint i = pms_uset_pop(&v);
                if (r->umask_col[i] == MIN(ca, cb))
                    oi = i;
            }
            pms_enc_fail(error, PMS_ERR_FEATCOMB, MAX(ca, cb),
                         "unit mask %s (group %s) cannot be combined with %s (group %s): event %s takes unit masks "
                         "of one group only",
                         ev->umasks[bi].name, group_label(ev, ev->umasks[bi].group), ev->umasks[oi].name,
                         group_label(ev, ev->umasks[oi].group), ev->name);
            return FALSE;
        }
        active = r->raw ? 0 : used ? used : 1u;
    }

    /* 2. modifier ranges: libpfm4 4.13's uncore encoder answers PFM_ERR_INVAL,
     * before it looks for a missing unit mask (UNC_DRAM_OPEN:c=256 is INVAL);
     * a raw unit mask's width in string order with them */
    if ((r->raw && !pms_raw_umask_check(r, error)) || !given_values(r, out->mod_val, error))
        return FALSE;

    /* 3. defaults, then required groups */
    PmsUmaskSet sel = u;
    for (guint32 gs = active; gs; gs &= gs - 1) {
        guint g = pms_lsb(gs);
        if (!pms_uset_meets(sel, pe->group_mask[g]))
            sel = pms_uset_or(sel, pms_uset_and(pe->group_mask[g], pe->default_mask));
    }
    for (guint32 gs = active & pe->required_groups; gs; gs &= gs - 1) {
        guint g = pms_lsb(gs);
        if (pms_uset_meets(sel, pe->group_mask[g]))
            continue;
        if (pms_enc_no_message(error, PMS_ERR_UMASK, evcol))
            return FALSE;
        g_autoptr(GString) s = g_string_new(NULL);
        pms_append_umask_names(s, ev, pe->group_mask[g]);
        pms_enc_fail(error, PMS_ERR_UMASK, evcol, "event %s needs a unit mask (one of %s)", ev->name, s->str);
        return FALSE;
    }

    /* 4. the event select */
    guint64 umask = ev->base_umask | (r->raw ? r->raw_val : 0); /* ORed, as libpfm4 4.13 does */
    guint32 code = ev->code;
    for (PmsUmaskSet v = sel; !pms_uset_empty(v);) {
        const PmsUmask *um = &ev->umasks[pms_uset_pop(&v)];
        umask |= um->value;
        if (um->code >= 0)
            code = (guint32)um->code;
    }
    guint64 evtsel = (code & p->event_fmask) << p->event.shift;
    evtsel |= (umask & p->umask_fmask) << p->umask.shift;
    evtsel = put_mods(r, (evtsel & ~p->en_int_clear) | p->en_int, out->mod_val);

    out->selected = sel;
    out->printed = sel;
    pms_rule_out_print(pe, out, r->mod_set, r->mod_set);
    out->n_codes = 1;
    out->codes[0] = evtsel;
    /* codes only: the program step (sim/program/program_x86_uncore.c) places them */
    return TRUE;
}

/* The x86_uncore family's encoder entry (encoder/families.c): libpfm4
 * 4.13's uncore code takes raw unit masks too, numbers too big for 64 bits
 * saturate (its range check then refuses them), and an uncore event has no
 * privilege filter (libpfm_nehalem(3)), so u and k are explained. */
static const char *const x86_uncore_decode_ignores[] = { "en", "int", NULL };
const PmsEncFamily pms_enc_x86_uncore = {
    .rules = pms_rules_x86_uncore,
    .mods = pms_x86_uncore_mods,
    .flags = PMS_ENC_RAW_UMASK | PMS_ENC_SATURATE | PMS_ENC_NO_PLM,
    .decode_ignores = x86_uncore_decode_ignores,
};
