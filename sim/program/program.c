/* pmusim — the program step's dispatch: every call goes to the program step
 * of the model's family (program_<family>.c), found in the family table
 * (sim/program/families.c).  A family may have its program step before its
 * simulator device (sim/dev_<family>.c). */
#include <string.h>
#include "prog_internal.h"

G_DEFINE_QUARK(pms - program - error - quark, pms_program_error)

static const ProgOps *program_for(const PmsModel *m, GError **error)
{
    const ProgOps *p = prog_ops_for(m);
    if (p)
        return p;
    g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_NOTSUPP, "%s: no program step for architecture %s yet",
                m->name, m->family->name);
    return NULL;
}

static gboolean no_counter(const PmsModel *m, const PmsEvent *ev, GError **error)
{
    g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_COUNTER, "%s: event %s may use no counter of the model",
                m->name, ev->name);
    return FALSE;
}

gboolean pms_program_place(const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask, PmsPlacement *pl,
                           GError **error)
{
    const ProgOps *p = program_for(m, error);
    if (!p)
        return FALSE;
    if (p->place(m, ev, umask_mask, pl))
        return TRUE;
    return no_counter(m, ev, error);
}

/* pms_program_place_codes after the family's placement (first, when
 * first_ok) of the event and unit masks is known. */
static gboolean place_codes(const ProgOps *p, const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask,
                            const PmsPlacement *first, gboolean first_ok, const guint64 *codes, guint n_codes,
                            PmsPlacement *pl, GError **error)
{
    if (!p->gp_allowed || !n_codes) {
        if (!first_ok)
            return no_counter(m, ev, error);
        *pl = *first;
        return TRUE;
    }
    /* the family's own placement (a top-down metric on fixed counter 3)
     * when the codes fit it */
    if (first_ok &&
        (first->fixed || (first->counter < 64 && (p->gp_allowed(m, codes, n_codes) >> first->counter & 1)))) {
        *pl = *first;
        return TRUE;
    }
    guint64 gp;
    guint32 fx;
    prog_place_allowed(m, ev, umask_mask, &gp, &fx);
    guint64 ok = gp & p->gp_allowed(m, codes, n_codes);
    if (ok) {
        *pl = (PmsPlacement){ m, ev, (guint)__builtin_ctzll(ok), FALSE };
        return TRUE;
    }
    /* codes no general counter takes do not move to a fixed one */
    if (!gp && fx) {
        *pl = (PmsPlacement){ m, ev, (guint)__builtin_ctz(fx), TRUE };
        return TRUE;
    }
    g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_COUNTER,
                "%s: event %s with codes[0] = 0x%" G_GINT64_MODIFIER "x may use no counter of the model", m->name,
                ev->name, codes[0]);
    return FALSE;
}

gboolean pms_program_place_codes(const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask, const guint64 *codes,
                                 guint n_codes, PmsPlacement *pl, GError **error)
{
    const ProgOps *p = program_for(m, error);
    if (!p)
        return FALSE;
    PmsPlacement first;
    gboolean first_ok = p->place(m, ev, umask_mask, &first);
    return place_codes(p, m, ev, umask_mask, &first, first_ok, codes, n_codes, pl, error);
}

gboolean pms_program_place_codes_from(const PmsPlacement *first, gboolean first_ok, const PmsModel *m,
                                      const PmsEvent *ev, PmsUmaskSet umask_mask, const guint64 *codes, guint n_codes,
                                      PmsPlacement *pl, GError **error)
{
    const ProgOps *p = program_for(m, error);
    if (!p)
        return FALSE;
    return place_codes(p, m, ev, umask_mask, first, first_ok, codes, n_codes, pl, error);
}

gboolean pms_program_place_on(const PmsModel *m, const PmsEvent *ev, guint counter, gboolean fixed, PmsPlacement *pl,
                              GError **error)
{
    const ProgOps *p = program_for(m, error);
    if (!p || !p->place_on(m, ev, counter, fixed, error))
        return FALSE;
    *pl = (PmsPlacement){ m, ev, counter, fixed };
    return TRUE;
}

#ifdef __GNUC__
__attribute__((always_inline))
#endif
static inline gboolean
writes(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsRegWrite *w, guint *n_writes, guint8 *src,
       GError **error)
{
    const ProgOps *p = program_for(pl->model, error);
    *n_writes = 0;
    if (!p)
        return FALSE;
    if (n_codes == 0) {
        g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CODES, "%s: no codes to program for %s",
                    pl->model->name, pl->event->name);
        return FALSE;
    }
    if (src && p->writes_src)
        return p->writes_src(pl, codes, n_codes, w, n_writes, src, error);
    if (!p->writes(pl, codes, n_codes, w, n_writes, error))
        return FALSE;
    if (src)
        memset(src, PMS_PROGRAM_SRC_OTHER, *n_writes);
    return TRUE;
}

gboolean pms_program_writes(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsRegWrite *w,
                            guint *n_writes, GError **error)
{
    return writes(pl, codes, n_codes, w, n_writes, NULL, error);
}

gboolean pms_program_writes_src(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsRegWrite *w,
                                guint *n_writes, guint8 *src, GError **error)
{
    return writes(pl, codes, n_codes, w, n_writes, src, error);
}

guint64 pms_program_place_code_bits(const PmsModel *m)
{
    /* place_codes reads the codes through gp_allowed alone */
    const ProgOps *p = prog_ops_for(m);
    if (!p)
        return G_MAXUINT64;
    if (!p->gp_allowed)
        return 0;
    return p->gp_code_bits ? p->gp_code_bits(m) : G_MAXUINT64;
}

const PmsRegister *pms_program_counter_reg(const PmsPlacement *pl)
{
    const ProgOps *p = program_for(pl->model, NULL);
    return p ? p->counter_reg(pl) : NULL;
}

const PmsRegister *pms_program_status_reg(const PmsPlacement *pl)
{
    const ProgOps *p = program_for(pl->model, NULL);
    return p ? p->status_reg(pl) : NULL;
}

guint64 pms_program_status_bit(const PmsPlacement *pl)
{
    const ProgOps *p = program_for(pl->model, NULL);
    return p ? p->status_bit(pl) : 0;
}

gboolean pms_program_metric(const PmsPlacement *pl, guint64 code0, const PmsRegister **reg, guint *shift, guint *width)
{
    const ProgOps *p = program_for(pl->model, NULL);
    return p && p->metric && p->metric(pl, code0, reg, shift, width);
}

/* ---- shared by the program steps ------------------------------------------ */

/* Generic counters the event may use with these unit masks selected: the
 * intersection of the selected umasks' own sets (each defaults to the event's). */
static guint64 allowed_gp(const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask)
{
    guint64 allowed = ev->counters;
    for (PmsUmaskSet u = umask_mask; !pms_uset_empty(u);) {
        guint i = pms_uset_pop(&u);
        if (i < ev->n_umasks)
            allowed &= ev->umasks[i].counters;
    }
    return m->n_gp < 64 ? allowed & (((guint64)1 << m->n_gp) - 1) : allowed;
}

void prog_set_counters_allowed(const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask, const guint64 *codes,
                               guint n_codes, guint64 *gp, guint32 *fixed)
{
    (void)codes;
    (void)n_codes;
    prog_place_allowed(m, ev, umask_mask, gp, fixed);
}

void prog_place_allowed(const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask, guint64 *gp, guint32 *fixed)
{
    *gp = allowed_gp(m, ev, umask_mask);
    const ProgOps *p = prog_ops_for(m);
    if (p && p->gp_allowed)
        *gp &= p->gp_allowed(m, NULL, 0); /* the counters software has (skl: option smt) */
    /* the fixed counters the event and every selected unit mask may use
     * (glm CPU_CLK_UNHALTED:CORE is FIXED_CTR1's alone) */
    guint32 fx = ev->fixed & (m->n_fixed < 32 ? ((1u << m->n_fixed) - 1) : ~0u);
    for (PmsUmaskSet u = umask_mask; !pms_uset_empty(u);) {
        guint i = pms_uset_pop(&u);
        if (i < ev->n_umasks)
            fx &= ev->umasks[i].fixed;
    }
    *fixed = fx;
}

gboolean prog_place_lowest(const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask, PmsPlacement *pl)
{
    guint64 gp;
    guint32 fx;
    prog_place_allowed(m, ev, umask_mask, &gp, &fx);
    return prog_place_lowest_of(m, ev, gp, fx, pl);
}

gboolean prog_place_lowest_of(const PmsModel *m, const PmsEvent *ev, guint64 gp, guint32 fx, PmsPlacement *pl)
{
    if (gp) {
        *pl = (PmsPlacement){ m, ev, (guint)__builtin_ctzll(gp), FALSE };
        return TRUE;
    }
    /* no general counter: the lowest fixed counter */
    if (fx) {
        *pl = (PmsPlacement){ m, ev, (guint)__builtin_ctz(fx), TRUE };
        return TRUE;
    }
    return FALSE;
}

gboolean prog_place_on_counters(const PmsModel *m, const PmsEvent *ev, guint counter, gboolean fixed, GError **error)
{
    gboolean ok = fixed ? counter < m->n_fixed && counter < 32 && (ev->fixed & (1u << counter))
                        : ev->counters != 0 && counter < m->n_gp && counter < 64 &&
            (ev->counters & ((guint64)1 << counter)) && pms_model_reg_by_kind(m, PMS_REG_EVTSEL, counter);
    if (!ok)
        g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_COUNTER, "%s: event %s may not use %s counter %u",
                    m->name, ev->name, fixed ? "fixed" : "general", counter);
    return ok;
}

gboolean prog_writes_ctl_only(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsRegWrite *w, guint *n,
                              const char *no_extra, GError **error)
{
    const PmsModel *m = pl->model;
    const PmsRegister *ctl = pl->fixed ? NULL : pms_model_reg_by_kind(m, PMS_REG_EVTSEL, pl->counter);
    if (n_codes > 1 || !ctl) {
        g_set_error(error, PMS_PROGRAM_ERROR, n_codes > 1 ? PMS_PROGRAM_ERROR_CODES : PMS_PROGRAM_ERROR_COUNTER,
                    "%s: %s", m->name, n_codes > 1 ? no_extra : "no such counter");
        return FALSE;
    }
    prog_put_write(w, n, ctl, codes[0], G_MAXUINT64);
    return TRUE;
}
