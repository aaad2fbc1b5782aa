/* pmusim encoder — rules for x86 core PMUs (Goldmont, Westmere, Nehalem).
 *
 * Order of the checks follows libpfm4 4.13 where it decides the error class:
 * unit-mask combinations (FEATCOMB), missing unit masks (UMASK), modifiers
 * forced by a unit mask (ATTR_SET), then the documented modifier rules.
 * Where the documents are stricter than libpfm4 4.13 the documents win; each
 * such place says so and is listed in docs/libpfm4-differences.md. */
#include <string.h>
#include "enc_internal.h"

/* libpfm4's NCOMBO: in a group where any named umask (or the group itself)
 * is exclusive, at most one umask may be named.  Repetition counts the way
 * libpfm4 4.13's duplicate removal leaves it: it skips the entry after each
 * one it drops, so a unit mask named 3+ times, or reached through 3+
 * different names (aliases expand to their unit masks), stays twice — a
 * combination with itself; 2 mentions, or one alias named 3 times, stay once. */
static gboolean check_exclusive(const PmsResolved *r, const PmsPrepEvent *pe, const guint8 *twice, GError **error)
{
    const PmsEvent *ev = r->event;
    for (guint g = 0; g < pe->n_groups; g++) {
        PmsUmaskSet in = pms_uset_and(r->user_umasks, pe->group_mask[g]);
        if (pms_uset_empty(in))
            continue;
        gboolean excl = pms_uset_meets(in, pe->excl_mask) || (g < ev->n_groups && ev->groups[g].exclusive);
        if (!excl)
            continue;
        if (!pms_uset_several(in)) {
            guint i = pms_uset_lowest(in);
            if (!twice || !twice[i])
                continue;
            pms_enc_fail(error, PMS_ERR_FEATCOMB, r->umask_col[i],
                         "unit mask %s repeated: libpfm4 4.13 reads a third mention as a second unit mask, "
                         "and %s cannot be combined",
                         ev->umasks[i].name, ev->umasks[i].name);
            return FALSE;
        }
        guint c2 = pms_umask_col(r, in, TRUE), c1 = pms_umask_col(r, in, FALSE);
        pms_enc_fail(error, PMS_ERR_FEATCOMB, c2, "unit mask %s cannot be combined with %s in event %s",
                     pms_umask_at_col(r, in, c2), pms_umask_at_col(r, in, c1), ev->name);
        return FALSE;
    }
    return TRUE;
}

guint64 pms_raw_umask_limit(const PmsResolved *r, const char **where)
{
    const PmsPrepared *p = r->prep;
    if ((r->event->flags & PMS_EVENT_OFFCORE) && r->pe->extra) {
        /* libpfm4 4.13 takes 16 bits on wsm/wsm_dp and 38 bits on nhm,
         * nhm_ex and glm.  Of those, only the register's writable bits: a
         * value with others would fault when programmed (wsm's are its 16;
         * nhm's 16 of the 38, glm's 0x360005ffbf; docs/libpfm4-differences.md) */
        *where = r->pe->extra->name;
        return r->pe->extra->writable & ((G_GUINT64_CONSTANT(1) << 38) - 1);
    }
    *where = "the umask field";
    return p->umask_fmask;
}

gboolean pms_raw_umask_check(const PmsResolved *r, GError **error)
{
    const char *where;
    guint64 lim = pms_raw_umask_limit(r, &where);
    if (!(r->raw_val & ~lim))
        return TRUE;
    /* a modifier out of range named before it is reported instead */
    for (guint32 ms = r->mod_set; ms; ms &= ms - 1) {
        guint j = pms_lsb(ms);
        const PmsModifier *mod = r->prep->mods[j].mod;
        if (r->mod_col[j] < r->raw_col && !pms_mod_in_range(mod, r->mod_val[j]))
            return TRUE;
    }
    if (r->raw_val == G_MAXUINT64 && error)
        pms_enc_fail(error, PMS_ERR_ATTR, r->raw_col, "raw unit mask too big for 64 bits");
    else
        pms_enc_fail(error, PMS_ERR_ATTR, r->raw_col,
                     "raw unit mask 0x%" G_GINT64_MODIFIER "x has bits outside %s (0x%" G_GINT64_MODIFIER
                     "x) of event %s",
                     r->raw_val, where, lim, r->event->name);
    return FALSE;
}

/* The same for the uncore rules (a separate symbol, so that this file's
 * calls stay as the compiler had them). */
gboolean pms_x86_check_exclusive(const PmsResolved *r, const PmsPrepEvent *pe, const guint8 *twice, GError **error)
{
    return check_exclusive(r, pe, twice, error);
}

static PmsUmaskSet group_of_kind(const PmsPrepEvent *pe, PmsGroupKind k)
{
    PmsUmaskSet m = PMS_UMASK_SET_EMPTY;
    for (guint g = 0; g < pe->n_groups; g++)
        if (pe->group_kind[g] == k)
            m = pms_uset_or(m, pe->group_mask[g]);
    return m;
}

/* Goldmont offcore response (libpfm_intel_glm(3), SDM 18.7.2): a request part
 * plus either ANY_RESPONSE, or supplier/snoop umasks, or OUTSTANDING (average
 * latency, OFFCORE_RESPONSE_0 only, request umasks only).  Returns the groups
 * whose defaults and requirement no longer apply. */
static gboolean glm_offcore(const PmsResolved *r, const PmsPrepEvent *pe, PmsUmaskSet *skip, GError **error)
{
    const PmsEvent *ev = r->event;
    PmsUmaskSet u = r->user_umasks;
    PmsUmaskSet sup = pms_uset_or(group_of_kind(pe, PMS_GRP_SUPPLIER), group_of_kind(pe, PMS_GRP_RESPONSE));
    PmsUmaskSet snp = group_of_kind(pe, PMS_GRP_SNOOP);
    PmsUmaskSet sup_snp = pms_uset_or(sup, snp);
    PmsUmaskSet avg = group_of_kind(pe, PMS_GRP_AVG);
    PmsUmaskSet u_avg = pms_uset_and(u, avg);
    PmsUmaskSet ovr = pms_uset_and(u, pe->override_mask);

    if (!pms_uset_empty(u_avg)) {
        PmsUmaskSet bad = pms_uset_and(u, sup_snp);
        if (!pms_uset_empty(bad)) {
            guint c = pms_umask_col(r, bad, FALSE);
            pms_enc_fail(error, PMS_ERR_FEATCOMB, c, "%s (average latency) takes request unit masks only, not %s",
                         pms_umask_at_col(r, u_avg, pms_umask_col(r, u_avg, FALSE)), pms_umask_at_col(r, bad, c));
            return FALSE;
        }
        if (pe->extra && pe->extra->index != 0) {
            guint c = pms_umask_col(r, u_avg, FALSE);
            pms_enc_fail(error, PMS_ERR_FEATCOMB, c, "%s exists on OFFCORE_RESPONSE_0 only",
                         pms_umask_at_col(r, u_avg, c));
            return FALSE;
        }
        *skip = pms_uset_or(*skip, sup_snp);
        return TRUE;
    }
    *skip = pms_uset_or(*skip, avg);
    if (!pms_uset_empty(ovr)) {
        PmsUmaskSet bad = pms_uset_andnot(pms_uset_and(u, sup_snp), ovr);
        if (!pms_uset_empty(bad)) {
            const char *oname = ev->umasks[pms_uset_lowest(ovr)].name;
            pms_enc_fail(error, PMS_ERR_FEATCOMB, pms_umask_col(r, pms_uset_or(bad, ovr), TRUE),
                         "%s overrides supplier and snoop unit masks; it cannot be combined with %s in %s", oname,
                         pms_umask_at_col(r, bad, pms_umask_col(r, bad, FALSE)), ev->name);
            return FALSE;
        }
        *skip = pms_uset_or(*skip, sup_snp);
        return TRUE;
    }
    /* The response part is one of: a supplier (ANY_RESPONSE, the default
     * when nothing is said, or L2_HIT), snoop bits, or both when the user
     * names both (libpfm_intel_glm(3) allows "supplier + snoops").  No snoop
     * default is added: libpfm4 4.13 adds L2_MISS_SNP_ANY after L2_HIT, which
     * the SDM's rule "exactly one of [ANY or L2_HIT], snoop info, average
     * latency" (Table 18-22) forbids and Intel's L2_HIT events (bit 18 alone)
     * do not have.  Snoop umasks alone get no supplier: libpfm4 adds
     * ANY_RESPONSE, which by its own manual overrides the snoop umasks just
     * given; Intel's L2_MISS events have no supplier bit. */
    *skip = pms_uset_or(*skip, snp);
    if (pms_uset_meets(u, snp) && !pms_uset_meets(u, sup))
        *skip = pms_uset_or(*skip, sup);
    return TRUE;
}

static gint role_idx(const PmsResolved *r, PmsModRole role)
{
    return r->prep->role_mod[role];
}

/* Apply one modifier value a unit mask hard-wires (libpfm4's forced c/i/e/t). */
static gboolean force_mod(const PmsResolved *r, PmsRuleOut *out, guint32 *forced, PmsModRole role, gint value,
                          const PmsUmask *um, guint ucol, GError **error)
{
    if (value < 0)
        return TRUE;
    gint mi = role_idx(r, role);
    if (mi < 0)
        return TRUE; /* the model has no such modifier; the umask value alone counts */
    const char *mname = r->prep->mods[mi].mod->name;
    if ((r->mod_set & (1u << mi)) && r->mod_val[mi] != (guint64)value) {
        pms_enc_fail(error, PMS_ERR_ATTR_SET, MAX(r->mod_col[mi], ucol),
                     "unit mask %s sets %s=%d; %s=%" G_GUINT64_FORMAT " conflicts with it", um->name, mname, value,
                     mname, r->mod_val[mi]);
        return FALSE;
    }
    if ((*forced & (1u << mi)) && out->mod_val[mi] != (guint64)value) {
        pms_enc_fail(error, PMS_ERR_ATTR_SET, ucol,
                     "unit mask %s sets %s=%d, another unit mask sets %s=%" G_GUINT64_FORMAT, um->name, mname, value,
                     mname, out->mod_val[mi]);
        return FALSE;
    }
    *forced |= 1u << mi;
    out->mod_val[mi] = (guint64)value;
    return TRUE;
}

static gboolean force_all(const PmsResolved *r, const PmsPrepEvent *pe, PmsRuleOut *out, guint32 *forced,
                          PmsUmaskSet set, GError **error)
{
    const PmsEvent *ev = r->event;
    for (PmsUmaskSet u = pms_uset_and(set, pe->forced_mask); !pms_uset_empty(u);) {
        guint i = pms_uset_pop(&u);
        const PmsUmask *um = &ev->umasks[i];
        guint ucol = pms_uset_has(r->user_umasks, i) ? r->umask_col[i] : r->tok->ev_off + 1;
        if (!force_mod(r, out, forced, PMS_ROLE_C, um->cmask, um, ucol, error) ||
            !force_mod(r, out, forced, PMS_ROLE_I, um->inv, um, ucol, error) ||
            !force_mod(r, out, forced, PMS_ROLE_E, um->edge, um, ucol, error) ||
            !force_mod(r, out, forced, PMS_ROLE_T, um->any, um, ucol, error))
            return FALSE;
    }
    return TRUE;
}

/* The modifier rules, one function each, so that the general path, the
 * shortcuts below and the plain-result cache (pms_x86_core_mods) apply the
 * same ones. */

/* Whether the string takes the load-latency threshold: the ldlat unit mask
 * is in effect, or the load-latency event has no unit mask for it (the
 * general path adds: not with a raw unit mask). */
static inline gboolean wants_threshold(const PmsEvent *ev, const PmsPrepEvent *pe, PmsUmaskSet sel)
{
    return pms_uset_meets(sel, pe->ldlat_mask) || ((ev->flags & PMS_EVENT_LDLAT) && pms_uset_empty(pe->ldlat_mask));
}

/* Whether the threshold is a code of its own, the one after the event
 * select (an offcore event's second code is its extra register). */
static inline gboolean threshold_code(const PmsEvent *ev, gboolean wants_ldlat, gint li)
{
    return wants_ldlat && li >= 0 && !(ev->flags & PMS_EVENT_OFFCORE);
}

/* Privilege: both levels unless the string names one (then only those
 * named).  given: the modifiers named or forced; returned with k and u
 * added where a non-default privilege mask wrote them out. */
static inline guint32 privilege(const PmsResolved *r, guint32 given, guint64 *mod_val)
{
    if (given & r->prep->plm_mods)
        return given;
    gint ki = role_idx(r, PMS_ROLE_K), ui = role_idx(r, PMS_ROLE_U);
    guint64 dk = 1, du = 1;
    if (G_UNLIKELY(r->plm != PMS_PLM_DEFAULT)) {
        /* libpfm4 4.13's dfl_plm: PLM0 -> OS (k), PLM3 -> USR (u);
         * PLM1 and PLM2 have no bit in the event select.  The values
         * are written out: the prepared default (k=1 u=1) does not hold */
        dk = (r->plm & PMS_PLM0) != 0;
        du = (r->plm & PMS_PLM3) != 0;
        given |= r->prep->plm_mods;
    }
    if (ki >= 0)
        mod_val[ki] = dk;
    if (ui >= 0)
        mod_val[ui] = du;
    return given;
}

/* The modifiers whose values may differ from those of no modifier given
 * (k=1 u=1, others 0): the given ones, and the privilege pair when one of
 * it is given (privilege()). */
static inline guint32 changed_mods(const PmsResolved *r, guint32 given)
{
    guint32 pair = r->prep->plm_mods;
    return given | ((given & pair) ? pair : 0);
}

/* The combination rules (pms_x86_combination_fault) on final values. */
static inline PmsModRole combination_fault(const PmsResolved *r, const guint64 *mod_val)
{
    gint eix = role_idx(r, PMS_ROLE_E), cix = role_idx(r, PMS_ROLE_C), tix = role_idx(r, PMS_ROLE_T);
    return pms_x86_combination_fault(r->model, eix >= 0 && mod_val[eix], cix >= 0 && mod_val[cix],
                                     tix >= 0 && mod_val[tix]);
}

/* Step 4's range rule: each given value (but modifier `skip`, -1 none) in
 * its modifier's range, the modifiers in the order of their index (the
 * general path's order); FALSE with the refusal reported. */
static inline gboolean ranges_ok(const PmsResolved *r, gint skip, GError **error)
{
    for (guint32 given_set = r->mod_set; given_set; given_set &= given_set - 1) {
        guint j = pms_lsb(given_set);
        const PmsModifier *mod = r->prep->mods[j].mod;
        if ((gint)j == skip)
            continue;
        if (!pms_mod_in_range(mod, r->mod_val[j])) {
            pms_enc_mod_range_fail(error, PMS_ERR_ATTR_VAL, r, j, mod);
            return FALSE;
        }
    }
    return TRUE;
}

/* The refusal of step 5's rule `fault`, at the modifier's column, or the
 * event's when it was not given. */
static G_GNUC_NO_INLINE gboolean combination_fail(const PmsResolved *r, PmsModRole fault, GError **error)
{
    gint ix = role_idx(r, fault == PMS_ROLE_E ? PMS_ROLE_E : PMS_ROLE_T);
    guint col = (r->mod_set & (1u << ix)) ? r->mod_col[ix] : r->tok->ev_off + 1;
    if (fault == PMS_ROLE_E)
        pms_enc_fail(error, PMS_ERR_ATTR, col, "modifier 'e' (edge detect) needs a threshold c=N with N >= 1");
    else
        pms_enc_fail(error, PMS_ERR_ATTR, col, "modifier 't' needs hyper-threading, which %s does not have",
                     r->model->name);
    return FALSE;
}

/* Step 5, the combination rules (libpfm4 4.13 checks e without c on wsm/nhm
 * only) on final values; FALSE with the refusal reported. */
static inline gboolean combination_ok(const PmsResolved *r, const guint64 *mod_val, GError **error)
{
    PmsModRole fault = combination_fault(r, mod_val);
    return G_LIKELY(fault == PMS_ROLE_OTHER) || combination_fail(r, fault, error);
}

/* Steps 4 and 5 where no unit mask forces a value: the given values (0
 * elsewhere) in their ranges, the privilege default, the combination
 * rules.  FALSE when one of them refuses the string, reported as the
 * general path reports it (the same steps, in its order). */
static inline gboolean given_values(const PmsResolved *r, guint64 *mod_val, GError **error)
{
    pms_zero_mod_vals(mod_val);
    for (guint32 g = r->mod_set; g; g &= g - 1) {
        guint j = pms_lsb(g);
        if (G_UNLIKELY(!pms_mod_in_range(r->prep->mods[j].mod, r->mod_val[j])))
            return ranges_ok(r, -1, error); /* step 4 finds and reports it */
        mod_val[j] = r->mod_val[j];
    }
    privilege(r, r->mod_set, mod_val);
    return combination_ok(r, mod_val, error);
}

/* Whether an extra-register modifier (fe_thres) writes its field into the
 * extra value the unit masks made: when they leave the field 0 and set a
 * field above it.  MSR_PEBS_FRONTEND (SDM Table 18-59): a non-zero
 * IDQ_Bubble_Width (22:20) selects the bubble mode, which takes a length
 * (19:8); the sub-events of EVTSEL alone (DSB_MISS ...) take none, and a unit
 * mask that carries its own length (icl LATENCY_GE_8) keeps it. */
static inline gboolean extra_mod_applies(const PmsField *f, guint64 extra)
{
    guint top = f->shift + f->width;
    return pms_field_get(f, extra) == 0 && top < 64 && (extra >> top) != 0;
}

/* The values of the extra-register modifiers (step 4): the one given where
 * it applies, else its smallest value (libpfm4's default fe_thres=1); a unit
 * mask's own length, which a different given value contradicts; the given
 * value (or 0) where none applies, printed but not written (as libpfm4 4.13
 * does).  Adds the ones with a value to *given. */
static gboolean extra_mod_values(const PmsResolved *r, const PmsPrepEvent *pe, PmsRuleOut *out, PmsUmaskSet sel,
                                 guint32 *given, GError **error)
{
    const PmsPrepared *p = r->prep;
    const PmsEvent *ev = r->event;
    guint64 v = r->raw ? r->raw_val : 0;
    for (PmsUmaskSet u = sel; !pms_uset_empty(u);)
        v |= ev->umasks[pms_uset_pop(&u)].value;
    for (guint32 ms = pe->extra_mods; ms; ms &= ms - 1) {
        guint j = pms_lsb(ms);
        const PmsField *f = p->mods[j].field;
        gboolean has = (r->mod_set & (1u << j)) != 0;
        guint64 own = pms_field_get(f, v);
        if (own) {
            if (has && r->mod_val[j] != own) {
                PmsUmaskSet um = pms_uset_and(sel, r->user_umasks);
                const char *uname = pms_uset_empty(um) ? ev->name : ev->umasks[pms_uset_lowest(um)].name;
                pms_enc_fail(error, PMS_ERR_ATTR_SET, r->mod_col[j],
                             "unit mask %s sets %s=%" G_GUINT64_FORMAT "; %s=%" G_GUINT64_FORMAT " conflicts with it",
                             uname, p->mods[j].mod->name, own, p->mods[j].mod->name, r->mod_val[j]);
                return FALSE;
            }
            out->mod_val[j] = own;
        } else if (extra_mod_applies(f, v)) {
            out->mod_val[j] = has ? r->mod_val[j] : p->mods[j].mod->min;
        } else {
            out->mod_val[j] = has ? r->mod_val[j] : 0;
        }
        if (out->mod_val[j])
            *given |= 1u << j;
    }
    return TRUE;
}

/* Step 6 of the rules: register values, codes and what fstr prints, from
 * the final unit-mask set and modifier values. */
static void registers(const PmsResolved *r, const PmsPrepEvent *pe, PmsRuleOut *out, PmsUmaskSet sel, guint32 given,
                      gboolean wants_ldlat, gint li, gint tix)
{
    const PmsPrepared *p = r->prep;
    const PmsEvent *ev = r->event;
    guint64 evtsel = 0, extra = 0;
    guint64 umask = ev->base_umask;
    gboolean offcore = (ev->flags & PMS_EVENT_OFFCORE) != 0;
    gboolean to_extra = pe->umask_extra;
    guint32 code = ev->code;
    /* a raw unit mask: the umask field ORed onto the event's own umask bits
     * (wsm::UNHALTED_REFERENCE_CYCLES:0x4 is 0x530700 in libpfm4 4.13), or
     * an offcore event's whole extra register.  An alias of an event with a
     * unit mask (wsm::LLC_REFERENCES = L3_LAT_CACHE:REFERENCE) has that
     * unit mask's bits as its own: the raw value replaces them, as it
     * replaces any named unit mask (wsm::LLC_REFERENCES:0x1 is 0x53012e) */
    if (r->raw) {
        if (to_extra)
            extra = r->raw_val;
        else if (ev->equiv && strchr(ev->equiv, ':'))
            umask = r->raw_val;
        else
            umask |= r->raw_val;
    }
    for (PmsUmaskSet u = sel; !pms_uset_empty(u);) {
        const PmsUmask *um = &ev->umasks[pms_uset_pop(&u)];
        if (to_extra)
            extra |= um->value;
        else
            umask |= um->value;
        /* a unit mask may carry Intel's own event code */
        if (um->code >= 0)
            code = (guint32)um->code;
    }
    evtsel = (code & p->event_fmask) << p->event.shift;
    evtsel = (evtsel & ~(p->umask_fmask << p->umask.shift)) | ((umask & p->umask_fmask) << p->umask.shift);
    /* libpfm4 always sets EN and INT in the event-select value it returns */
    evtsel = (evtsel & ~p->en_int_clear) | p->en_int;
    /* the values of no modifier given, which prepared.c set, and those
     * that may differ from them (changed_mods: what fstr prints as set) */
    evtsel = (evtsel & ~p->mods_clear) | p->mods_default;
    evtsel = pms_evtsel_put_mods(p, evtsel, changed_mods(r, given) & p->evtsel_mods, out->mod_val);
    /* forced values for modifiers the model does not expose (t on a model without it) */
    for (PmsUmaskSet u = tix < 0 ? sel : PMS_UMASK_SET_EMPTY; !pms_uset_empty(u);) {
        const PmsUmask *um = &ev->umasks[pms_uset_pop(&u)];
        if (um->any > 0)
            evtsel = pms_fset(&p->any, evtsel, 1);
    }

    /* libpfm4 prints ldlat on every unit mask of the load-latency event
     * (0 where it does not apply) and nowhere else (pms_mod_allowed) */
    pms_rule_out_print(pe, out, given, changed_mods(r, given));

    /* codes only: which registers they go to is the program step's
     * (sim/program/program_x86_core.c), applied by encode.c */
    for (guint32 ms = pe->extra_mods; ms; ms &= ms - 1) {
        guint j = pms_lsb(ms);
        if (extra_mod_applies(p->mods[j].field, extra))
            extra = pms_field_set(p->mods[j].field, extra, out->mod_val[j]);
    }
    out->n_codes = 0;
    out->codes[out->n_codes++] = evtsel;
    if (offcore || to_extra)
        out->codes[out->n_codes++] = extra;
    else if (threshold_code(ev, wants_ldlat, li))
        out->codes[out->n_codes++] = out->mod_val[li];
}

/* Step 3's refusal: required group g holds no unit mask, named or
 * default.  FALSE, reported at the event's column. */
static G_GNUC_NO_INLINE gboolean required_fail(const PmsResolved *r, guint g, GError **error)
{
    const PmsEvent *ev = r->event;
    const guint evcol = r->tok->ev_off + 1;
    if (pms_enc_no_message(error, PMS_ERR_UMASK, evcol))
        return FALSE;
    g_autoptr(GString) s = g_string_new(NULL);
    pms_append_umask_names(s, ev, r->pe->group_mask[g]);
    if (ev->groups[g].name && *ev->groups[g].name)
        pms_enc_fail(error, PMS_ERR_UMASK, evcol, "event %s needs a %s unit mask (one of %s)", ev->name,
                     ev->groups[g].name, s->str);
    else
        pms_enc_fail(error, PMS_ERR_UMASK, evcol, "event %s needs a unit mask (one of %s)", ev->name, s->str);
    return FALSE;
}

/* Step 3's requirement on the final set sel, for the shortcuts below
 * (whose sel is the general path's): FALSE with the first required group
 * left empty reported as the general path reports it. */
static inline gboolean required_ok(const PmsResolved *r, PmsUmaskSet sel, GError **error)
{
    for (guint32 gs = r->pe->required_groups; gs; gs &= gs - 1)
        if (!pms_uset_meets(sel, r->pe->group_mask[pms_lsb(gs)]))
            return required_fail(r, pms_lsb(gs), error);
    return TRUE;
}

/* The usual string in a few ORs: at most one unit mask (named at most
 * twice), no alias, no modifier, no unit mask that forces one, no glm
 * offcore or overriding unit mask, no load-latency threshold to check.
 * What the general path below would compute for it, without its loops.
 * 1: done; 0: not such a case (the general path decides); -1: a required
 * group left empty, reported as the general path reports it. */
static gint rules_plain(const PmsResolved *r, const PmsPrepEvent *pe, PmsRuleOut *out, GError **error)
{
    const PmsPrepared *p = r->prep;
    const PmsEvent *ev = r->event;
    PmsUmaskSet u = r->user_umasks;
    if (r->mod_set || !pms_uset_empty(r->thrice) || r->raw || pms_uset_several(u) ||
        pms_uset_meets(u, pe->override_mask) || pe->extra_mods ||
        pms_uset_meets(pe->grouped_default, pe->override_mask) ||
        (pe->equiv && !pms_uset_empty(u) && !pms_uset_empty(pe->equiv[pms_uset_lowest(u)])) ||
        (p->glm_offcore && (ev->flags & PMS_EVENT_OFFCORE)))
        return 0;
    /* defaults of every group but the named unit mask's (groups are disjoint) */
    PmsUmaskSet dflt = pe->grouped_default;
    if (!pms_uset_empty(u)) {
        guint g = ev->umasks[pms_uset_lowest(u)].group;
        if (g < pe->n_groups)
            dflt = pms_uset_andnot(dflt, pe->group_mask[g]);
    }
    PmsUmaskSet sel = pms_uset_or(u, dflt);
    if (!required_ok(r, sel, error))
        return -1;
    if (pms_uset_meets(sel, pe->forced_mask))
        return 0;
    gint li = role_idx(r, PMS_ROLE_LDLAT);
    gboolean wants_ldlat = wants_threshold(ev, pe, sel);
    if (wants_ldlat && li >= 0)
        return 0; /* the threshold is missing */
    /* no modifier given: both privilege levels, every other value 0; e and t
     * are 0, so their rules hold */
    pms_zero_mod_vals(out->mod_val);
    privilege(r, 0, out->mod_val);
    out->selected = sel;
    out->printed = sel;
    registers(r, pe, out, sel, 0, wants_ldlat, li, role_idx(r, PMS_ROLE_T));
    return 1;
}

/* Modifiers on unit masks that leave them alone: no alias, no unit mask
 * forcing one, no overriding unit mask, no glm offcore rules, no load
 * latency, every modifier in the event-select register.  The general path
 * below without its loops over groups and aliases.  1: done; 0: not such a
 * case (the general path decides); -1: a required group left empty or a
 * modifier rule (range, e without c, t without SMT) refuses it, reported as
 * the general path reports it. */
static gint rules_mods(const PmsResolved *r, const PmsPrepEvent *pe, PmsRuleOut *out, GError **error)
{
    const PmsPrepared *p = r->prep;
    const PmsEvent *ev = r->event;
    PmsUmaskSet u = r->user_umasks;
    guint32 ms = r->mod_set;
    if (!ms || !pms_uset_empty(r->thrice) || r->raw || pms_uset_meets(u, pe->override_mask) || (ms & ~p->evtsel_mods) ||
        pe->extra_mods || pms_uset_meets(pe->grouped_default, pe->override_mask) || (ev->flags & PMS_EVENT_LDLAT) ||
        (p->glm_offcore && (ev->flags & PMS_EVENT_OFFCORE)))
        return 0;
    PmsUmaskSet touched = PMS_UMASK_SET_EMPTY; /* groups holding a named unit mask */
    for (PmsUmaskSet v = u; !pms_uset_empty(v);) {
        guint i = pms_uset_pop(&v);
        guint g = ev->umasks[i].group;
        if ((pe->equiv && !pms_uset_empty(pe->equiv[i])) || g >= pe->n_groups)
            return 0;
        touched = pms_uset_or(touched, pe->group_mask[g]);
    }
    if (pms_uset_several(u) && !check_exclusive(r, pe, NULL, NULL))
        return 0;
    PmsUmaskSet sel = pms_uset_or(u, pms_uset_andnot(pe->grouped_default, touched));
    if (!required_ok(r, sel, error))
        return -1;
    if (pms_uset_meets(sel, pms_uset_or(pe->forced_mask, pe->ldlat_mask)))
        return 0;
    if (!given_values(r, out->mod_val, error))
        return -1;
    out->selected = sel;
    out->printed = sel;
    registers(r, pe, out, sel, ms, FALSE, role_idx(r, PMS_ROLE_LDLAT), role_idx(r, PMS_ROLE_T));
    return 1;
}

/* The plain-result cache's modifiers (PmsModsFn, enc_internal.h): out holds
 * the result of the string without them (sel: out->selected), which
 * settled the unit-mask rules.  Like rules_mods, the case where modifiers
 * only add their own values: no unit mask forcing one, no alias, no raw
 * unit mask, nothing named three times, the default privilege, every
 * modifier in the event select or the threshold.  Then the threshold rule
 * of step 4, given_values, and registers()' modifier fields and threshold
 * code. */
PmsModsVerdict pms_x86_core_mods(const PmsResolved *r, PmsRuleOut *out, GError **error)
{
    const PmsPrepared *p = r->prep;
    const PmsPrepEvent *pe = r->pe;
    const PmsEvent *ev = r->event;
    const PmsUmaskSet sel = out->selected;
    const guint32 ms = r->mod_set;
    gint li = role_idx(r, PMS_ROLE_LDLAT);
    guint32 lbit = li >= 0 ? 1u << li : 0;
    if (r->raw || !pms_uset_empty(r->thrice) || r->plm != PMS_PLM_DEFAULT || pms_uset_meets(sel, pe->forced_mask) ||
        (ms & ~(p->evtsel_mods | lbit)) || pe->extra_mods || pms_uset_meets(sel, pe->override_mask))
        return PMS_MODS_OTHER;
    for (PmsUmaskSet v = pe->equiv ? r->user_umasks : PMS_UMASK_SET_EMPTY; !pms_uset_empty(v);)
        if (!pms_uset_empty(pe->equiv[pms_uset_pop(&v)]))
            return PMS_MODS_OTHER;
    gboolean wants_ldlat = wants_threshold(ev, pe, sel);
    if (li >= 0 && !(ms & lbit) != !wants_ldlat)
        /* missing: refused; given where it does not belong: refused, or
         * ldlat=0 meaning none (step 4 tells) */
        return wants_ldlat ? PMS_MODS_REFUSED : PMS_MODS_OTHER;
    if (!given_values(r, out->mod_val, error))
        return PMS_MODS_WORDED;
    /* out's fields hold the values of no modifier given (registers()) */
    guint32 changed = changed_mods(r, ms);
    out->codes[0] = pms_evtsel_put_mods(p, out->codes[0], changed & p->evtsel_mods, out->mod_val);
    /* a bit not every event select has (IN_TXCP) may move the event to
     * another counter: the rule path places it (encode.c) */
    if (out->codes[0] & ~p->evtsel_all_writable)
        return PMS_MODS_OTHER;
    if (threshold_code(ev, wants_ldlat, li))
        out->codes[1] = out->mod_val[li];
    pms_rule_out_print(pe, out, ms, changed);
    return PMS_MODS_OK;
}

gboolean pms_rules_x86_core(const PmsResolved *r, PmsRuleOut *out, GError **error)
{
    const PmsEvent *ev = r->event;
    const PmsPrepared *p = r->prep;
    const PmsPrepEvent *pe = r->pe;
    const guint evcol = r->tok->ev_off + 1;

    if (pe->unsupported) {
        pms_enc_fail(error, PMS_ERR_NOTSUPP, evcol, "event %s has more unit masks or groups than the encoder handles",
                     ev->name);
        return FALSE;
    }
    /* the shortcuts apply the default privilege (k=1 u=1) */
    if (G_LIKELY(r->plm == PMS_PLM_DEFAULT)) {
        gint plain = rules_plain(r, pe, out, error);
        if (plain != 0)
            return plain > 0;
        gint mods = rules_mods(r, pe, out, error);
        if (mods != 0)
            return mods > 0;
    }

    /* 1. an alias the user named that hard-wires a modifier must agree with
     * the string (libpfm4 expands aliases while parsing, so this comes before
     * the combination checks) */
    /* the given values, 0 elsewhere: a fixed-size clear, a store per given one */
    pms_zero_mod_vals(out->mod_val);
    for (guint32 ms = r->mod_set; ms; ms &= ms - 1)
        out->mod_val[pms_lsb(ms)] = r->mod_val[pms_lsb(ms)];
    guint32 forced = 0;
    PmsUmaskSet aliases = PMS_UMASK_SET_EMPTY;
    for (PmsUmaskSet u = pe->equiv ? r->user_umasks : PMS_UMASK_SET_EMPTY; !pms_uset_empty(u);) {
        guint i = pms_uset_pop(&u);
        if (!pms_uset_empty(pe->equiv[i]))
            pms_uset_add(&aliases, i);
    }
    if (!pms_uset_empty(aliases) && !force_all(r, pe, out, &forced, aliases, error))
        return FALSE;

    /* 2. unit-mask combinations, on the set with aliases expanded (an alias
     * and what it stands for are the same thing) */
    PmsResolved x; /* only the fields the checks read; umask_col only for set bits */
    const PmsResolved *xr = &x;
    guint8 names[PMS_ENC_MAX_UMASKS];  /* distinct names reaching it, for set bits */
    guint8 direct[PMS_ENC_MAX_UMASKS]; /* mentions by its own name or a plain alias */
    guint8 twice[PMS_ENC_MAX_UMASKS];  /* libpfm4 keeps two copies of it */
    const guint8 *twice_p = twice;
    if (pms_uset_empty(aliases) && pms_uset_empty(r->thrice)) {
        /* The usual string: no alias, nothing named three times.  The
         * expanded set is the user's, and no unit mask stays twice. */
        xr = r;
        twice_p = NULL;
    } else {
        x.model = r->model;
        x.prep = r->prep;
        x.event = r->event;
        x.pe = r->pe;
        x.tok = r->tok;
        x.user_umasks = PMS_UMASK_SET_EMPTY;
        for (PmsUmaskSet u = r->user_umasks; !pms_uset_empty(u);) {
            guint i = pms_uset_pop(&u);
            gboolean alias = pms_uset_has(aliases, i);
            PmsUmaskSet e = alias ? pe->equiv[i] : pms_uset_bit(i);
            for (PmsUmaskSet v = e; !pms_uset_empty(v);) {
                guint k = pms_uset_pop(&v);
                if (!pms_uset_has(x.user_umasks, k)) {
                    x.umask_col[k] = r->umask_col[i];
                    names[k] = direct[k] = twice[k] = 0;
                } else if (r->umask_col[i] < x.umask_col[k]) {
                    x.umask_col[k] = r->umask_col[i];
                }
                names[k]++;
                pms_uset_add(&x.user_umasks, k);
            }
            /* libpfm4 substitutes an alias in place: one that sets modifiers
             * interleaves them and escapes the duplicate bug; a plain one acts
             * like its unit masks named there, the last of them adjacent */
            if (!alias || !pms_uset_has(pe->equiv_mods, i)) {
                guint k = pms_uset_highest(e);
                direct[k] = (guint8)MIN(direct[k] + r->umask_count[i], 64);
            }
        }
        for (PmsUmaskSet v = x.user_umasks; !pms_uset_empty(v);) {
            guint k = pms_uset_pop(&v);
            twice[k] = names[k] >= 3 || direct[k] >= 3;
        }
    }
    /* one unit mask named once cannot break a combination rule */
    if ((pms_uset_several(xr->user_umasks) || twice_p) && !check_exclusive(xr, pe, twice_p, error))
        return FALSE;
    const PmsUmaskSet xumasks = xr->user_umasks;
    PmsUmaskSet skip = PMS_UMASK_SET_EMPTY; /* groups exempt from defaults and requirement */
    if (r->raw) {
        /* a raw unit mask stands for every group: no defaults, nothing
         * required (libpfm4 4.13 sets ugrpmsk = grpmsk) */
        skip = pms_uset_first_n(PMS_UMASK_SET_MAX);
    } else if (p->glm_offcore && (ev->flags & PMS_EVENT_OFFCORE)) {
        if (!glm_offcore(xr, pe, &skip, error))
            return FALSE;
    } else if (pms_uset_meets(xumasks, pe->override_mask)) {
        /* An overriding umask stands for the whole response part. */
        PmsUmaskSet ovr = pms_uset_and(xumasks, pe->override_mask);
        guint og = ev->umasks[pms_uset_lowest(ovr)].group;
        for (guint g = 1; g < pe->n_groups; g++)
            if (g != og)
                skip = pms_uset_or(skip, pe->group_mask[g]);
        /* skl (libpfm_intel_skl(3)): ANY_RESPONSE excludes the snoop unit
         * masks of the groups after its own, as libpfm4 4.13 refuses them */
        PmsUmaskSet later = PMS_UMASK_SET_EMPTY;
        for (guint g = og + 1; g < pe->n_groups; g++)
            later = pms_uset_or(later, pe->group_mask[g]);
        PmsUmaskSet bad = pms_uset_and(xumasks, later);
        if (!pms_uset_empty(bad)) {
            pms_enc_fail(error, PMS_ERR_FEATCOMB, pms_umask_col(r, pms_uset_or(bad, ovr), TRUE),
                         "%s stands for the whole response; it cannot be combined with %s in %s",
                         ev->umasks[pms_uset_lowest(ovr)].name, pms_umask_at_col(r, bad, pms_umask_col(r, bad, FALSE)),
                         ev->name);
            return FALSE;
        }
    }

    /* 3. defaults, then required groups */
    PmsUmaskSet sel = xumasks;
    PmsUmaskSet dflt = PMS_UMASK_SET_EMPTY;
    for (guint g = 0; g < pe->n_groups; g++) {
        PmsUmaskSet gm = pe->group_mask[g];
        if (pms_uset_meets(gm, skip) || pms_uset_meets(sel, gm))
            continue;
        PmsUmaskSet gd = pms_uset_and(gm, pe->default_mask);
        dflt = pms_uset_or(dflt, gd);
        /* an overriding default (skl ANY_RESPONSE) stands for the groups
         * after it too: no default or requirement there (libpfm4 4.13) */
        if (pms_uset_meets(gd, pe->override_mask) && !(p->glm_offcore && (ev->flags & PMS_EVENT_OFFCORE)))
            for (guint h = g + 1; h < pe->n_groups; h++)
                skip = pms_uset_or(skip, pe->group_mask[h]);
    }
    sel = pms_uset_or(sel, dflt);
    for (guint g = 0; g < ev->n_groups; g++) {
        PmsUmaskSet gm = pe->group_mask[g];
        if (!ev->groups[g].required || pms_uset_meets(gm, skip) || pms_uset_meets(sel, gm) || pms_uset_empty(gm))
            continue;
        return required_fail(r, g, error);
    }
    out->selected = sel;
    /* fstr lists an alias the user named by what it stands for, defaults by name */
    out->printed = pms_uset_or(xumasks, dflt);

    /* libpfm4 prints ldlat=0 on the load-latency event's other unit masks;
     * ldlat=0 is accepted there (meaning "none") so that string re-encodes */
    gint li = role_idx(r, PMS_ROLE_LDLAT);
    gboolean wants_ldlat = !r->raw && wants_threshold(ev, pe, sel);
    gboolean ldlat_none =
        li >= 0 && (r->mod_set & (1u << li)) && r->mod_val[li] == 0 && !wants_ldlat && (ev->flags & PMS_EVENT_LDLAT);

    /* 4. modifier ranges, and the raw unit mask's width in string order */
    if (r->raw && !pms_raw_umask_check(r, error))
        return FALSE;
    if (!ranges_ok(r, ldlat_none ? li : -1, error))
        return FALSE;
    /* modifiers the other unit masks hard-wire (libpfm4 checks those while
     * encoding, after the combination checks) */
    PmsUmaskSet plain_sel = pms_uset_andnot(sel, aliases);
    if (pms_uset_meets(plain_sel, pe->forced_mask) && !force_all(r, pe, out, &forced, plain_sel, error))
        return FALSE;
    guint32 given = r->mod_set | forced;

    given = privilege(r, given, out->mod_val);

    /* 4. load latency: the threshold belongs to the ldlat unit mask (or to an
     * ldlat event without unit masks), and the documents require it there.
     * libpfm4 4.13 silently uses 3 when it is missing. */
    if (li >= 0) {
        gboolean has = (r->mod_set & (1u << li)) != 0 && !ldlat_none;
        if (has && !wants_ldlat) {
            pms_enc_fail(error, PMS_ERR_ATTR, r->mod_col[li],
                         "modifier 'ldlat' applies only to the load-latency event%s%s",
                         pms_uset_empty(pe->ldlat_mask) ? "" : ", with unit mask ",
                         pms_uset_empty(pe->ldlat_mask) ? "" : ev->umasks[pms_uset_lowest(pe->ldlat_mask)].name);
            return FALSE;
        }
        if (!has && wants_ldlat) {
            const PmsModifier *lm = p->mods[li].mod;
            pms_enc_fail(error, PMS_ERR_ATTR, evcol,
                         "event %s needs the load-latency threshold ldlat=N (N in %" G_GUINT64_FORMAT
                         "..%" G_GUINT64_FORMAT ")",
                         ev->name, lm->min, lm->max);
            return FALSE;
        }
    }

    /* 5. combination rules */
    gint tix = role_idx(r, PMS_ROLE_T);
    if (!combination_ok(r, out->mod_val, error))
        return FALSE;

    /* 6. register values (the extra register's modifier fields first) */
    if (pe->extra_mods && !extra_mod_values(r, pe, out, sel, &given, error))
        return FALSE;
    registers(r, pe, out, sel, given, wants_ldlat, li, tix);
    return TRUE;
}

/* The x86_core family's encoder entry (encoder/families.c). */
static const char *const x86_core_decode_ignores[] = { "en", "int", "pc", NULL };
const PmsEncFamily pms_enc_x86_core = {
    .rules = pms_rules_x86_core,
    .mods = pms_x86_core_mods,
    .flags = PMS_ENC_RAW_UMASK,
    .decode_ignores = x86_core_decode_ignores,
};
