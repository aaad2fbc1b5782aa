/* pmusim encoder — decode: register values back to the canonical string.
 *
 * Candidate strings are built from the model (the event with that code, a
 * unit mask equal to the umask field or a cover of its bits, the modifier
 * fields) and each is run through the encoder; the first one that reproduces
 * the value wins, and its fstr is the answer.  So decode can never disagree
 * with encode.  It walks the event table: decoding is not the hot path.
 * Where no unit mask (or cover of unit masks) reproduces the value, the
 * event with a raw unit mask does on the x86 core and uncore PMUs
 * ("wsm::INST_RETIRED:0xf0:..."; an offcore event's extra value likewise). */
#include <stdlib.h>
#include <string.h>
#include "enc_internal.h"

typedef struct {
    const PmsModel *m;
    const PmsPrepared *p;
    guint64 value, extra;
    gboolean has_extra;
    guint64 cmp_mask; /* evtsel bits compared (not the family's decode_ignores, not ignored bits) */
    char *found;
} Dec;

static gboolean try_string(Dec *d, const char *str)
{
    PmsTokens t;
    PmsResolved r;
    PmsRuleOut out;
    memset(&out, 0, sizeof out);
    if (!pms_tokenize(str, &t, NULL) || !pms_resolve_model(d->m, &t, &r, NULL))
        return FALSE;
    if (!d->p->fam->rules(&r, &out, NULL))
        return FALSE;
    if ((out.codes[0] & d->cmp_mask) != (d->value & d->cmp_mask))
        return FALSE;
    if (out.n_codes > 1 ? (!d->has_extra || out.codes[1] != d->extra) : d->has_extra)
        return FALSE;
    GString *s = g_string_new(NULL);
    pms_fstr_build(s, &r, &out);
    d->found = g_string_free(s, FALSE);
    return TRUE;
}

/* Append ":k=..:u=.." for every modifier of the event-select register, and
 * ldlat from the extra value. */
static void append_mods(Dec *d, GString *s, const PmsEvent *ev, gboolean ldlat)
{
    for (guint j = 0; j < d->p->n_mods; j++) {
        const PmsPrepMod *pm = &d->p->mods[j];
        /* a modifier the event does not take: its field must be 0, which
         * the comparison with the value checks */
        if (!pms_mod_allowed(ev, pm, j) && pm->role != PMS_ROLE_LDLAT)
            continue;
        if (pm->role == PMS_ROLE_LDLAT) {
            if (ldlat && d->has_extra)
                g_string_append_printf(s, ":%s=%" G_GUINT64_FORMAT, pm->mod->name, d->extra);
            continue;
        }
        if (pm->in_evtsel && pm->field)
            g_string_append_printf(s, ":%s=%" G_GUINT64_FORMAT, pm->mod->name, pms_field_get(pm->field, d->value));
    }
}

static gboolean try_umasks(Dec *d, const PmsEvent *ev, PmsUmaskSet set)
{
    g_autoptr(GString) s = g_string_new(d->m->name);
    g_string_append_printf(s, "::%s", ev->name);
    guint64 own = 0;
    for (guint i = 0; i < ev->n_umasks; i++)
        if (pms_uset_has(set, i)) {
            g_string_append_printf(s, ":%s", ev->umasks[i].name);
            own |= ev->umasks[i].value;
        }
    append_mods(d, s, ev, (ev->flags & PMS_EVENT_LDLAT) != 0);
    /* an extra-register modifier (fe_thres): its field of the extra value,
     * where the unit masks leave it 0 */
    const PmsPrepEvent *pe = &d->p->events[ev - d->m->events];
    for (guint32 ms = d->has_extra ? pe->extra_mods : 0; ms; ms &= ms - 1) {
        const PmsPrepMod *pm = &d->p->mods[pms_lsb(ms)];
        guint64 v = pms_field_get(pm->field, d->extra);
        if (v && !pms_field_get(pm->field, own))
            g_string_append_printf(s, ":%s=%" G_GUINT64_FORMAT, pm->mod->name, v);
    }
    return try_string(d, s->str);
}

/* The event with a raw unit mask (EVENT:0xVALUE): where no named unit mask
 * reproduces the value, on the PMUs that take raw unit masks. */
static gboolean try_raw(Dec *d, const PmsEvent *ev, guint64 raw)
{
    if (!(d->p->fam->flags & PMS_ENC_RAW_UMASK))
        return FALSE;
    g_autoptr(GString) s = g_string_new(d->m->name);
    g_string_append_printf(s, "::%s:0x%" G_GINT64_MODIFIER "x", ev->name, raw);
    append_mods(d, s, ev, FALSE);
    return try_string(d, s->str);
}

typedef struct {
    const PmsEvent *ev;
    guint idx;
} Cand;

/* Widest unit masks first, then defaults, then table order: so 0xffff on a
 * Westmere offcore event reads ANY_REQUEST:ANY_RESPONSE, as encoding prints it. */
static gint cand_cmp(gconstpointer a, gconstpointer b)
{
    const Cand *x = a, *y = b;
    const PmsUmask *u = &x->ev->umasks[x->idx], *v = &y->ev->umasks[y->idx];
    gint pu = __builtin_popcountll(u->value), pv = __builtin_popcountll(v->value);
    if (pu != pv)
        return pv - pu;
    gint du = (u->flags & PMS_UMASK_DEFAULT) != 0, dv = (v->flags & PMS_UMASK_DEFAULT) != 0;
    if (du != dv)
        return dv - du;
    return (gint)x->idx - (gint)y->idx;
}

/* Greedy cover of `bits` by plain unit masks (no alias, no forced modifier). */
static PmsUmaskSet cover(const PmsEvent *ev, guint64 bits)
{
    Cand c[PMS_ENC_MAX_UMASKS];
    guint n = 0;
    for (guint i = 0; i < ev->n_umasks; i++) {
        const PmsUmask *u = &ev->umasks[i];
        if (u->equiv || u->cmask >= 0 || u->inv >= 0 || u->edge >= 0 || u->any >= 0 || !u->value)
            continue;
        c[n].ev = ev;
        c[n++].idx = i;
    }
    qsort(c, n, sizeof c[0], cand_cmp);
    PmsUmaskSet set = PMS_UMASK_SET_EMPTY;
    for (guint k = 0; k < n && bits; k++) {
        guint64 v = ev->umasks[c[k].idx].value;
        if ((v & bits) == v) {
            pms_uset_add(&set, c[k].idx);
            bits &= ~v;
        }
    }
    return bits ? PMS_UMASK_SET_EMPTY : set;
}

static gboolean decode_event(Dec *d, const PmsEvent *ev, guint64 umask)
{
    gboolean offcore = (ev->flags & PMS_EVENT_OFFCORE) != 0;
    if (ev->n_umasks > PMS_ENC_MAX_UMASKS)
        return FALSE;
    if (offcore) {
        if (umask != ev->base_umask || !d->has_extra)
            return FALSE;
        PmsUmaskSet set = cover(ev, d->extra);
        return !pms_uset_empty(set) && try_umasks(d, ev, set);
    }
    const PmsPrepEvent *pe = &d->p->events[ev - d->m->events];
    if (pe->umask_extra) {
        /* FRONTEND_RETIRED: one unit mask is the extra value, but for the
         * fields of its extra-register modifiers (fe_thres) */
        if (umask != ev->base_umask || !d->has_extra)
            return FALSE;
        guint64 mods = 0;
        for (guint32 ms = pe->extra_mods; ms; ms &= ms - 1) {
            const PmsField *f = d->p->mods[pms_lsb(ms)].field;
            mods |= pms_field_set(f, 0, ~G_GUINT64_CONSTANT(0));
        }
        for (guint i = 0; i < ev->n_umasks; i++) {
            guint64 v = ev->umasks[i].value;
            if ((v == d->extra || v == (d->extra & ~mods)) && try_umasks(d, ev, pms_uset_bit(i)))
                return TRUE;
        }
        return FALSE;
    }
    if ((umask & ev->base_umask) != ev->base_umask)
        return FALSE;
    guint64 rest = umask & ~(guint64)ev->base_umask;
    /* one unit mask equal to the field: plain ones first, then aliases and
     * those with forced modifiers (whose modifiers must match the register) */
    for (int pass = 0; pass < 2; pass++)
        for (guint i = 0; i < ev->n_umasks; i++) {
            const PmsUmask *u = &ev->umasks[i];
            gboolean plain = !u->equiv && u->cmask < 0 && u->inv < 0 && u->edge < 0 && u->any < 0;
            if (plain == (pass == 0) && u->value == rest && try_umasks(d, ev, pms_uset_bit(i)))
                return TRUE;
        }
    PmsUmaskSet set = cover(ev, rest);
    if (!pms_uset_empty(set) && try_umasks(d, ev, set))
        return TRUE;
    return try_umasks(d, ev, PMS_UMASK_SET_EMPTY);
}

char *pms_decode(const PmsModel *m, guint64 value, gboolean has_extra, guint64 extra, GError **error)
{
    g_return_val_if_fail(m != NULL, NULL);
    const PmsPrepared *p = pms_prepared_get(m);
    if (!p->fam) {
        pms_enc_fail(error, PMS_ERR_NOTSUPP, 0, "no decoding rules yet for PMU %s", m->name);
        return NULL;
    }
    if (p->error) {
        g_set_error_literal(error, PMS_ENCODE_ERROR, p->error->code, p->error->message);
        return NULL;
    }
    if (p->fam->decode) /* the family's own (Itanium: the counting PMC, an EAR event's PMC37/PMC40) */
        return p->fam->decode(m, value, has_extra, extra, error);
    Dec d = { .m = m, .p = p, .value = value, .extra = extra, .has_extra = has_extra };
    d.cmp_mask = ~p->decode_ignore;
    guint64 code = pms_field_get(&p->event, value);
    if (p->event_hi.width) /* a code wider than the event field (AMD: 35:32 above 7:0) */
        code |= pms_field_get(&p->event_hi, value) << p->event.width;
    guint64 umask = pms_field_get(&p->umask, value);
    for (guint i = 0; i < m->n_events; i++) {
        const PmsEvent *ev = &m->events[i];
        if (ev->code != code || ev->equiv)
            continue;
        if (decode_event(&d, ev, umask))
            return d.found;
    }
    /* no named unit mask of any event: a raw one (INST_RETIRED's 0x5301c0
     * stays ANY_P, not INSTRUCTION_RETIRED:0x1), on an event that has unit
     * masks first (0x53f0c0 is INST_RETIRED:0xf0) */
    for (guint k = 0; k < 2 * m->n_events; k++) {
        const PmsEvent *ev = &m->events[k % m->n_events];
        if (ev->code != code || ev->equiv || ev->n_umasks > PMS_ENC_MAX_UMASKS ||
            (k < m->n_events) != (ev->n_umasks > 0))
            continue;
        if (ev->flags & PMS_EVENT_OFFCORE) {
            if (umask == ev->base_umask && has_extra && try_raw(&d, ev, extra))
                return d.found;
        } else if ((umask & ev->base_umask) == ev->base_umask && try_raw(&d, ev, umask & ~(guint64)ev->base_umask)) {
            return d.found;
        }
    }
    pms_enc_fail(error, PMS_ERR_NOTFOUND, 0,
                 "no event of %s encodes as 0x%" G_GINT64_MODIFIER "x%s (event 0x%02" G_GINT64_MODIFIER
                 "x, umask 0x%02" G_GINT64_MODIFIER "x)",
                 m->name, value, has_extra ? " with that extra value" : "", code, umask);
    return NULL;
}
