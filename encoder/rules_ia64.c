/* pmusim encoder — rules for the Itanium 2 9000 (Montecito) PMU (arch ia64).
 *
 *   montecito::EVENT[:k][:u][:thres=N][:oi][:mesi_i][:mesi_s][:mesi_e][:mesi_m]
 *
 * codes[0] is the counting PMC (PMC4-15) value, fields found by name in the
 * layout of the model's first counting PMC (kind ia64_pmc, index
 * counter_base): plm0..plm3 (k = PLM0, u = PLM3; with neither named, the
 * default privilege mask of pms_encode_plm, PLM1 and PLM2 included), oi
 * (0 unless named: libpfm_montecito(3) gives a counter one per-event feature,
 * the threshold, so an encoding has no interrupt request; registers.md §1:
 * with oi = 0 an overflow wraps without status bit or freeze), pm = 0 (a
 * per-thread session; libpfm sets it for system-wide ones only), ev = 0,
 * es = the event code, umask = the event's umask (0 for an EAR event),
 * thres, ism = 2 (IA-64 only, registers.md §3), all = 0 (libpfm refuses
 * .all), and the MESI qualifiers of events with mesi = true: those named, or
 * all four when none is (libpfm's rule).
 *
 * codes[1], for EAR events only, is the EAR configuration register the
 * event's umask goes to, as libpfm's method 1 programs it from the event
 * (libpfm_montecito(3) "EAR", registers.md §6/§7): PMC40 (D-EAR) plm, mode
 * (cache 0, tlb 1, alat 2), umask, ism = 2; PMC37 (I-EAR) plm, umask, ct = 1
 * in cache mode, 0 in TLB mode.  Its plm is the counter's.
 *
 * Errors: an unknown event PFM_ERR_NOTFOUND, an unknown modifier (a MESI
 * qualifier on an event without mesi = true included) PFM_ERR_ATTR (both
 * found while resolving), thres not below the event's max_inc
 * PFM_ERR_ATTR_VAL at the column of the value.
 *
 * The x86 shortcuts of encode.c are not built for this architecture
 * (prepared.c prepares them for x86 models only): every string comes here. */
#include <string.h>
#include "enc_internal.h"
#include "model_ia64.h"

/* The counting PMC's fields by name; NULL when the layout lacks one. */
typedef struct {
    const PmsRegister *pmc;
    const PmsField *plm[4], *ev, *oi, *pm, *es, *umask, *thres, *ism, *all, *mesi[4];
} Ia64Fields;

static const char *const mesi_names[4] = { "mesi_i", "mesi_s", "mesi_e", "mesi_m" };

static gboolean fields_get(const PmsModel *m, Ia64Fields *f, GError **error)
{
    memset(f, 0, sizeof *f);
    f->pmc = pms_model_reg_by_kind(m, PMS_REG_IA64_PMC, m->counter_base);
    const PmsLayout *l = f->pmc ? f->pmc->layout : NULL;
    if (l) {
        static const char *const plm[4] = { "plm0", "plm1", "plm2", "plm3" };
        for (guint i = 0; i < 4; i++) {
            f->plm[i] = pms_layout_field(l, plm[i]);
            f->mesi[i] = pms_layout_field(l, mesi_names[i]);
        }
        f->ev = pms_layout_field(l, "ev");
        f->oi = pms_layout_field(l, "oi");
        f->pm = pms_layout_field(l, "pm");
        f->es = pms_layout_field(l, "es");
        f->umask = pms_layout_field(l, "umask");
        f->thres = pms_layout_field(l, "thres");
        f->ism = pms_layout_field(l, "ism");
        f->all = pms_layout_field(l, "all");
    }
    if (!f->es || !f->umask || !f->thres || !f->plm[0] || !f->plm[3]) {
        pms_enc_fail(error, PMS_ERR_NOTSUPP, 1,
                     "no encoding rules for PMU %s: its counting PMC (kind ia64_pmc, index %u) has no layout with "
                     "the fields plm0..plm3, es, umask and thres",
                     m->name, m->counter_base);
        return FALSE;
    }
    return TRUE;
}

static inline guint64 fput(const PmsField *f, guint64 reg, guint64 v)
{
    return f ? pms_fset(f, reg, v) : reg;
}

/* The EAR configuration value of an EAR event (codes[1]); FALSE with an
 * error when the model lacks the register or its fields. */
static gboolean ear_value(const PmsModel *m, const PmsEvent *ev, guint plm, guint64 *out, GError **error)
{
    const PmsIa64EventFacts *fx = pms_ia64_facts(ev);
    const PmsRegister *x = ev->extra_reg ? pms_model_reg_by_name(m, ev->extra_reg) : NULL;
    const PmsLayout *l = x ? x->layout : NULL;
    const PmsField *fplm = pms_layout_field(l, "plm");
    const PmsField *fum = pms_layout_field(l, "umask");
    if (!fplm || !fum) {
        pms_enc_fail(error, PMS_ERR_NOTSUPP, 1, "EAR event %s: its register %s has no plm and umask fields", ev->name,
                     ev->extra_reg ? ev->extra_reg : "(none)");
        return FALSE;
    }
    guint64 v = pms_fset(fplm, 0, plm);
    v = pms_fset(fum, v, ev->base_umask);
    if (fx->ear == PMS_IA64_EAR_D) {
        guint mode = fx->ear_mode == PMS_IA64_EAR_MODE_TLB ? 1 : fx->ear_mode == PMS_IA64_EAR_MODE_ALAT ? 2 : 0;
        v = fput(pms_layout_field(l, "mode"), v, mode);
        v = fput(pms_layout_field(l, "ism"), v, 2);
    } else {
        v = fput(pms_layout_field(l, "ct"), v, fx->ear_mode == PMS_IA64_EAR_MODE_CACHE ? 1 : 0);
    }
    *out = v;
    return TRUE;
}

gboolean pms_rules_ia64(const PmsResolved *r, PmsRuleOut *out, GError **error)
{
    const PmsModel *m = r->model;
    const PmsPrepared *p = r->prep;
    const PmsPrepEvent *pe = r->pe;
    const PmsEvent *ev = r->event;
    const PmsIa64EventFacts *fx = pms_ia64_facts(ev);
    Ia64Fields f;
    if (!fields_get(m, &f, error))
        return FALSE;
    if (fx->max_inc == 0) {
        pms_enc_fail(error, PMS_ERR_NOTSUPP, r->tok->ev_off + 1, "event %s of %s has no max_inc", ev->name, m->name);
        return FALSE;
    }

    /* modifier ranges, in string order (the model's range, then the
     * event's max_inc for thres) */
    pms_zero_mod_vals(out->mod_val);
    guint32 todo = r->mod_set;
    while (todo) {
        guint j = pms_lsb(todo);
        for (guint32 g = todo; g; g &= g - 1)
            if (r->mod_col[pms_lsb(g)] < r->mod_col[j])
                j = pms_lsb(g);
        todo &= ~(1u << j);
        const PmsModifier *mod = p->mods[j].mod;
        guint64 v = r->mod_val[j];
        if (v < mod->min || v > mod->max) {
            pms_enc_mod_range_fail(error, PMS_ERR_ATTR_VAL, r, j, mod);
            return FALSE;
        }
        if (p->mods[j].field == f.thres && f.thres && v >= fx->max_inc) {
            pms_enc_fail(error, PMS_ERR_ATTR_VAL, r->mod_vcol[j],
                         "thres=%" G_GUINT64_FORMAT " for event %s, which occurs at most %u time%s per cycle: "
                         "thres must be below its max_inc (0..%u; libpfm_montecito(3))",
                         v, ev->name, fx->max_inc, fx->max_inc == 1 ? "" : "s", fx->max_inc - 1);
            return FALSE;
        }
        if (!p->mods[j].field) {
            pms_enc_fail(error, PMS_ERR_NOTSUPP, r->mod_col[j], "modifier '%s' has no field in the counting PMC of %s",
                         mod->name, m->name);
            return FALSE;
        }
    }

    /* privilege: k and u when either is named, else the default mask */
    gint ki = p->role_mod[PMS_ROLE_K], ui = p->role_mod[PMS_ROLE_U];
    gboolean k_set = ki >= 0 && (r->mod_set & (1u << ki)), u_set = ui >= 0 && (r->mod_set & (1u << ui));
    guint plm = (k_set || u_set) ? ((k_set && r->mod_val[ki] ? PMS_PLM0 : 0) | (u_set && r->mod_val[ui] ? PMS_PLM3 : 0))
                                 : r->plm;
    /* the MESI qualifiers named, or all four */
    guint mesi = 0;
    gboolean mesi_named = FALSE;
    for (guint j = 0; j < p->n_mods; j++)
        for (guint q = 0; q < 4; q++)
            if (f.mesi[q] && p->mods[j].field == f.mesi[q] && (r->mod_set & (1u << j))) {
                mesi_named = TRUE;
                if (r->mod_val[j])
                    mesi |= 1u << q;
            }
    if (fx->mesi && !mesi_named)
        mesi = 0xf;

    guint64 v = 0;
    for (guint i = 0; i < 4; i++)
        v = fput(f.plm[i], v, (plm >> i) & 1);
    v = fput(f.ev, v, 0);
    v = fput(f.pm, v, 0);
    v = pms_fset(f.es, v, ev->code);
    v = pms_fset(f.umask, v, fx->ear ? 0 : ev->base_umask);
    v = fput(f.ism, v, 2);
    v = fput(f.all, v, 0);
    if (fx->mesi)
        for (guint q = 0; q < 4; q++)
            v = fput(f.mesi[q], v, (mesi >> q) & 1);

    /* every modifier the event takes, with its final value */
    out->mod_print = pe->allowed_mods;
    for (guint32 g = pe->allowed_mods; g; g &= g - 1) {
        guint j = pms_lsb(g);
        const PmsField *fj = p->mods[j].field;
        guint64 val = 0;
        if ((gint)j == ki)
            val = plm & PMS_PLM0 ? 1 : 0;
        else if ((gint)j == ui)
            val = plm & PMS_PLM3 ? 1 : 0;
        else if (fj && fx->mesi && (fj == f.mesi[0] || fj == f.mesi[1] || fj == f.mesi[2] || fj == f.mesi[3]))
            val = (mesi >> (fj == f.mesi[0] ? 0 : fj == f.mesi[1] ? 1 : fj == f.mesi[2] ? 2 : 3)) & 1;
        else if (r->mod_set & (1u << j))
            val = r->mod_val[j];
        out->mod_val[j] = val;
        if (fj && fj != f.plm[0] && fj != f.plm[3] &&
            (fj != f.mesi[0] && fj != f.mesi[1] && fj != f.mesi[2] && fj != f.mesi[3]))
            v = pms_fset(fj, v, val);
    }
    out->mod_changed = out->mod_print;
    out->mod_big = 0;
    for (guint32 g = out->mod_print; g; g &= g - 1)
        if (out->mod_val[pms_lsb(g)] >= 10)
            out->mod_big |= 1u << pms_lsb(g);
    out->selected = PMS_UMASK_SET_EMPTY;
    out->printed = PMS_UMASK_SET_EMPTY;
    out->codes[0] = v;
    out->n_codes = 1;
    if (fx->ear) {
        if (!ear_value(m, ev, plm, &out->codes[1], error))
            return FALSE;
        out->n_codes = 2;
    }
    return TRUE;
}

/* ---- decode ------------------------------------------------------------- */

static char *try_string(const PmsModel *m, const char *str, guint plm, guint64 value, gboolean has_extra, guint64 extra)
{
    PmsTokens t;
    PmsResolved r;
    PmsRuleOut out;
    memset(&out, 0, sizeof out);
    if (!pms_tokenize(str, &t, NULL) || !pms_resolve_model(m, &t, &r, NULL))
        return NULL;
    r.plm = plm;
    if (!pms_rules_ia64(&r, &out, NULL) || out.codes[0] != value)
        return NULL;
    if (out.n_codes > 1 ? (!has_extra || out.codes[1] != extra) : has_extra)
        return NULL;
    GString *s = g_string_new(NULL);
    pms_fstr_build(s, &r, &out);
    return g_string_free(s, FALSE);
}

char *pms_ia64_decode(const PmsModel *m, guint64 value, gboolean has_extra, guint64 extra, GError **error)
{
    Ia64Fields f;
    if (!fields_get(m, &f, error))
        return NULL;
    const PmsPrepared *p = pms_prepared_get(m);
    guint64 es = pms_field_get(f.es, value), umask = pms_field_get(f.umask, value);
    guint plm = 0;
    for (guint i = 0; i < 4; i++)
        plm |= f.plm[i] ? (guint)pms_field_get(f.plm[i], value) << i : 0;
    /* PLM1/PLM2 have no modifier: such a value is the default mask's */
    gboolean by_default = (plm & (PMS_PLM1 | PMS_PLM2)) != 0;
    for (guint i = 0; i < m->n_events; i++) {
        const PmsEvent *ev = &m->events[i];
        const PmsIa64EventFacts *fx = pms_ia64_facts(ev);
        if (ev->code != es || ev->equiv || fx->max_inc == 0)
            continue;
        if (!fx->ear && umask != ev->base_umask)
            continue;
        if (fx->ear && umask != 0)
            continue;
        g_autoptr(GString) s = g_string_new(NULL);
        g_string_append_printf(s, "%s::%s", m->name, ev->name);
        for (guint j = 0; j < p->n_mods; j++) {
            const PmsPrepMod *pm = &p->mods[j];
            if (!pms_mod_allowed(ev, pm, j) || !pm->field)
                continue;
            if (by_default && (pm->role == PMS_ROLE_K || pm->role == PMS_ROLE_U))
                continue;
            g_string_append_printf(s, ":%s=%" G_GUINT64_FORMAT, pm->mod->name, pms_field_get(pm->field, value));
        }
        char *found = try_string(m, s->str, by_default ? plm : PMS_PLM_DEFAULT, value, has_extra, extra);
        if (found)
            return found;
    }
    pms_enc_fail(error, PMS_ERR_NOTFOUND, 0,
                 "no event of %s encodes as 0x%" G_GINT64_MODIFIER "x%s (es 0x%02" G_GINT64_MODIFIER
                 "x, umask 0x%" G_GINT64_MODIFIER "x; the encoder writes pm = 0, ev = 0, ism = 2, all = 0%s)",
                 m->name, value, has_extra ? " with that EAR configuration value" : "", es, umask,
                 has_extra ? "" : "; an EAR event needs its PMC37/PMC40 value as EXTRA");
    return NULL;
}

/* The ia64 family's encoder entry (encoder/families.c): its own decode. */
const PmsEncFamily pms_enc_ia64 = {
    .rules = pms_rules_ia64,
    .decode = pms_ia64_decode,
};
