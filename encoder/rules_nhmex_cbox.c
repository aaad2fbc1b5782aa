/* pmusim encoder — rules for the Xeon 7500 (Nehalem-EX) uncore C-Box PMUs
 * (nhmex_cbox0 .. nhmex_cbox7).
 *
 * codes[0] is the value of the box's C_MSR_PMON_EVT_SEL register (Intel
 * 323535-001 Table 2-13): the event code and unit mask, the local enable
 * (en) always set, and the edge, invert, threshold and pmi_en fields from the
 * modifiers e, i, t and pmi.  Every field is found by name in the model's
 * layout of its own box's event select (prepared.c), none by position here.
 *
 * libpfm4 has no such PMU, so the classes are those libpfm4 uses for the same
 * kind of mistake on its other PMUs: an unknown modifier (u and k included:
 * the uncore counts at every privilege level and has no such filter) is
 * PFM_ERR_ATTR (found while resolving), a value out of range PFM_ERR_ATTR_VAL,
 * no unit mask where the event needs one PFM_ERR_UMASK, unit masks of an
 * exclusive group together PFM_ERR_FEATCOMB, a default privilege mask other
 * than PLM0|PLM3 PFM_ERR_INVAL (pms_encode_plm; as on the other uncore).
 *
 * No source names a default unit mask for these events, so an event with
 * unit masks needs one (several combine: their values are OR-ed).  Threshold
 * and invert need no rule of the encoder: invert with t=0 is accepted and
 * ignored by the counter (semantics.md choice A5), edge counts rising edges of
 * whatever the threshold stage passes on (Table 2-13 note).
 *
 * The x86 core shortcuts of encode.c (prepared plain results, patched
 * modifiers) are not built for this architecture (prepared.c prepares them
 * for x86 core models only), so every string takes this path. */
#include <string.h>
#include "enc_internal.h"


gboolean pms_rules_nhmex_cbox(const PmsResolved *r, PmsRuleOut *out, GError **error)
{
    const PmsPrepared *p = r->prep;
    const PmsPrepEvent *pe = r->pe;
    const PmsEvent *ev = r->event;
    const guint evcol = r->tok->ev_off + 1;

    if (!pms_rules_supported(r, error) || !pms_rules_uncore_plm(r, error))
        return FALSE;
    PmsUmaskSet user = r->user_umasks;

    /* 1. unit masks: exclusive groups, then defaults, then required groups */
    for (guint g = 0; g < pe->n_groups; g++) {
        PmsUmaskSet in = pms_uset_and(user, pe->group_mask[g]);
        gboolean excl = pms_uset_meets(in, pe->excl_mask) || (g < ev->n_groups && ev->groups[g].exclusive);
        if (excl && pms_uset_several(in)) {
            guint c2 = pms_umask_col(r, in, TRUE), c1 = pms_umask_col(r, in, FALSE);
            pms_enc_fail(error, PMS_ERR_FEATCOMB, c2, "unit mask %s cannot be combined with %s in event %s",
                         pms_umask_at_col(r, in, c2), pms_umask_at_col(r, in, c1), ev->name);
            return FALSE;
        }
    }
    PmsUmaskSet sel = user;
    for (guint g = 0; g < pe->n_groups; g++)
        if (!pms_uset_meets(user, pe->group_mask[g]))
            sel = pms_uset_or(sel, pms_uset_and(pe->group_mask[g], pe->default_mask));
    for (guint32 gs = pe->required_groups; gs; gs &= gs - 1) {
        guint g = pms_lsb(gs);
        if (pms_uset_meets(sel, pe->group_mask[g]))
            continue;
        if (pms_enc_no_message(error, PMS_ERR_UMASK, evcol))
            return FALSE;
        g_autoptr(GString) s = g_string_new(NULL);
        pms_append_umask_names(s, ev, pe->group_mask[g]);
        pms_enc_fail(error, PMS_ERR_UMASK, evcol,
                     "event %s needs a unit mask (one or more of %s); no source names a default", ev->name, s->str);
        return FALSE;
    }
    /* libpfm4-style hard-wired modifiers belong to the x86 core tables: a
     * C-Box model that declared one would mean something these rules do
     * not implement, so say so instead of ignoring it */
    PmsUmaskSet wired = pms_uset_and(sel, pms_uset_or(pe->forced_mask, pe->ldlat_mask));
    if (!pms_uset_empty(wired)) {
        guint i = pms_uset_lowest(wired);
        pms_enc_fail(error, PMS_ERR_NOTSUPP, pms_uset_has(user, i) ? r->umask_col[i] : evcol,
                     "unit mask %s of %s hard-wires a modifier, which the C-Box rules do not support",
                     ev->umasks[i].name, ev->name);
        return FALSE;
    }

    /* 2. modifier ranges (t is 0..255: the 8-bit threshold field) */
    if (!pms_rules_evtsel_mods(r, out, error))
        return FALSE;

    /* 3. the event-select value */
    guint32 code = ev->code;
    guint64 umask = ev->base_umask;
    for (PmsUmaskSet u = sel; !pms_uset_empty(u);) {
        const PmsUmask *um = &ev->umasks[pms_uset_pop(&u)];
        umask |= um->value;
        if (um->code >= 0)
            code = (guint32)um->code;
    }
    guint64 v = pms_fset(&p->event, 0, code);
    v = pms_fset(&p->umask, v, umask);
    v = pms_fset(&p->en, v, 1); /* the local enable: always set, as Linux's enable_event does */
    v = pms_evtsel_put_mods(p, v, r->mod_set, out->mod_val); /* each in its field (checked above) */

    /* 4. what fstr prints: the unit masks in table order, every modifier */
    pms_rules_out_single(r, out, sel, v);
    return TRUE;
}

/* The nhmex_cbox family's encoder entry (encoder/families.c). */
static const char *const nhmex_cbox_decode_ignores[] = { "en", NULL };
const PmsEncFamily pms_enc_nhmex_cbox = {
    .rules = pms_rules_nhmex_cbox,
    .decode_ignores = nhmex_cbox_decode_ignores,
};
