/* pmusim encoder — rules of the test-only family `toy` (models/tests/toy.pmu,
 * docs/adding-a-pmu.md).  No hardware and no libpfm4 PMU is behind it: it
 * shows what a family's rule set is made of.
 *
 * codes[0] is the value of the counter's TOY_CTLn: the event code, the unit
 * masks OR-ed into the umask field, en and int always set, and each modifier
 * (t, the threshold) in its field.  Fields are found by name (prepared.c).
 * There is no privilege filter, so the default privilege mask alone is taken
 * (pms_rules_uncore_plm, as on the uncore PMUs).  An event with unit masks
 * needs at least one (the model names no default); errors take libpfm4's
 * classes for the same kind of mistake on its PMUs. */
#include "enc_internal.h"

static gboolean toy_rules(const PmsResolved *r, PmsRuleOut *out, GError **error)
{
    const PmsPrepared *p = r->prep;
    const PmsEvent *ev = r->event;
    if (!pms_rules_supported(r, error) || !pms_rules_uncore_plm(r, error))
        return FALSE;
    PmsUmaskSet sel = pms_uset_empty(r->user_umasks) ? r->pe->default_mask : r->user_umasks;
    if (ev->n_umasks && pms_uset_empty(sel)) {
        if (pms_enc_no_message(error, PMS_ERR_UMASK, r->tok->ev_off + 1))
            return FALSE;
        g_autoptr(GString) s = g_string_new(NULL);
        pms_append_umask_names(s, ev, pms_uset_first_n(PMS_UMASK_SET_MAX));
        pms_enc_fail(error, PMS_ERR_UMASK, r->tok->ev_off + 1, "event %s needs a unit mask (one or more of %s)",
                     ev->name, s->str);
        return FALSE;
    }
    if (!pms_rules_evtsel_mods(r, out, error))
        return FALSE;
    guint64 umask = ev->base_umask;
    for (PmsUmaskSet u = sel; !pms_uset_empty(u);)
        umask |= ev->umasks[pms_uset_pop(&u)].value;
    guint64 v = pms_fset(&p->event, 0, ev->code);
    v = pms_fset(&p->umask, v, umask);
    v = pms_fset(&p->en, v, 1);
    v = pms_fset(&p->intr, v, 1);
    v = pms_evtsel_put_mods(p, v, r->mod_set, out->mod_val); /* each in its field (checked above) */
    pms_rules_out_single(r, out, sel, v);
    return TRUE;
}

/* The toy family's encoder entry (encoder/families.c). */
static const char *const toy_decode_ignores[] = { "en", "int", NULL };
const PmsEncFamily pms_enc_toy = {
    .rules = toy_rules,
    .decode_ignores = toy_decode_ignores,
};
