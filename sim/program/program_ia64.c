/* pmusim — the Itanium 2 9000 (Montecito) program step (registers.md §1-3,
 * §6-7; docs/montecito.md):
 *
 *   the lowest counter the event may use: its counters mask is over counter
 *       numbers (counter_base = 4: bit 4 is PMC4/PMD4), so the placement's
 *       counter is the PMC number;
 *   codes[0] -> PMCn (space pmc), the whole register;
 *   codes[1] (EAR events only) -> the EAR configuration register the
 *       event's `extra` names (PMC37 I-EAR, PMC40 D-EAR), the whole register;
 *   the counter is PMDn (space pmd), its overflow bit is bit n of PMC0.
 * Nothing else: the freeze bit (PMC0.fr) and the PMDs are a session's.
 * Registers are found by kind and index (= number), never by address. */
#include "prog_internal.h"

static guint64 ia64_allowed(const PmsModel *m, const PmsEvent *ev)
{
    guint64 all = pms_model_counters_mask(m);
    return (ev->counters ? ev->counters : all) & all;
}

static gboolean ia64_place(const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask, PmsPlacement *pl)
{
    (void)umask_mask; /* Itanium events have no unit masks to choose */
    for (guint64 c = ia64_allowed(m, ev); c; c &= c - 1) {
        guint n = (guint)__builtin_ctzll(c);
        if (pms_model_reg_by_kind(m, PMS_REG_IA64_PMC, n)) {
            *pl = (PmsPlacement){ m, ev, n, FALSE };
            return TRUE;
        }
    }
    return FALSE;
}

static gboolean ia64_place_on(const PmsModel *m, const PmsEvent *ev, guint counter, gboolean fixed, GError **error)
{
    gboolean ok = !fixed && counter < 64 && (ia64_allowed(m, ev) & ((guint64)1 << counter)) &&
        pms_model_reg_by_kind(m, PMS_REG_IA64_PMC, counter);
    if (!ok)
        g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_COUNTER, "%s: event %s may not use %s counter %u",
                    m->name, ev->name, fixed ? "fixed" : "PMC", counter);
    return ok;
}

static gboolean ia64_writes(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsRegWrite *w, guint *n,
                            GError **error)
{
    const PmsModel *m = pl->model;
    const PmsEvent *ev = pl->event;
    const PmsRegister *pmc = pl->fixed ? NULL : pms_model_reg_by_kind(m, PMS_REG_IA64_PMC, pl->counter);
    const PmsRegister *x = ev->extra_reg ? pms_model_reg_by_name(m, ev->extra_reg) : NULL;
    if (!pmc) {
        g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_COUNTER, "%s: event %s: no PMC%u", m->name, ev->name,
                    pl->counter);
        return FALSE;
    }
    if (n_codes > (x ? 2u : 1u)) {
        g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CODES,
                    x ? "%s: event %s has registers for 2 codes (PMC, %s), not %u"
                      : "%s: event %s has no EAR configuration register for codes[1]%s (%u codes)",
                    m->name, ev->name, x ? x->name : "", n_codes);
        return FALSE;
    }
    prog_put_write(w, n, pmc, codes[0], G_MAXUINT64);
    if (x && n_codes > 1)
        prog_put_write(w, n, x, codes[1], G_MAXUINT64);
    return TRUE;
}

static const PmsRegister *ia64_counter_reg(const PmsPlacement *pl)
{
    return pl->fixed ? NULL : pms_model_reg_by_kind(pl->model, PMS_REG_IA64_PMD, pl->counter);
}

static const PmsRegister *ia64_status_reg(const PmsPlacement *pl)
{
    return pms_model_reg_by_kind(pl->model, PMS_REG_IA64_PMC, 0);
}

static guint64 ia64_status_bit(const PmsPlacement *pl)
{
    /* PMC0's overflow bit of counter n is bit n (the ovfl field starts at
     * counter_base); none when the model gives no ovfl field */
    const PmsRegister *s = ia64_status_reg(pl);
    static const char *const names[] = { "ovfl", NULL };
    SimField f = sim_resolve(s, names, 0, 0);
    if (!s || !f.present || pl->fixed || pl->counter < f.shift || pl->counter >= f.shift + f.width)
        return 0;
    return (guint64)1 << pl->counter;
}

const ProgOps prog_ia64_ops = {
    .place_on = ia64_place_on,
    .place = ia64_place,
    .writes = ia64_writes,
    .counter_reg = ia64_counter_reg,
    .status_bit = ia64_status_bit,
    .status_reg = ia64_status_reg,
    .sets_elsewhere = "pmusim dispatch places Montecito's",
};
