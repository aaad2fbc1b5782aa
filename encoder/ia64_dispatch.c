/* pmusim — Montecito dispatch (docs/montecito-dispatch.md).
 *
 * Written from the facts of libpfm_montecito(3), registers.md and
 * range-restriction.md (the order of the checks); the counter placement is
 * an exact bipartite matching of our own, not libpfm's first fit.  Every
 * register value starts from the register's reset value in the model and is
 * changed field by field, by the layout's field names. */
#include "ia64_dispatch.h"
#include "family.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK(pms - ia64 - dispatch - error - quark, pms_ia64_dispatch_error)

const char *pms_ia64_dispatch_error_name(int code)
{
    switch (code) {
    case PMS_IA64_DISPATCH_ERROR_TOOMANY:
        return "PFMLIB_ERR_TOOMANY";
    case PMS_IA64_DISPATCH_ERROR_NOASSIGN:
        return "PFMLIB_ERR_NOASSIGN";
    case PMS_IA64_DISPATCH_ERROR_EVTSET:
        return "PFMLIB_ERR_EVTSET";
    case PMS_IA64_DISPATCH_ERROR_FEATCOMB:
        return "PFMLIB_ERR_FEATCOMB";
    case PMS_IA64_DISPATCH_ERROR_EVTINCOMP:
        return "PFMLIB_ERR_EVTINCOMP";
    case PMS_IA64_DISPATCH_ERROR_IRRINVAL:
        return "PFMLIB_ERR_IRRINVAL";
    case PMS_IA64_DISPATCH_ERROR_IRRALIGN:
        return "PFMLIB_ERR_IRRALIGN";
    case PMS_IA64_DISPATCH_ERROR_IRRTOOBIG:
        return "PFMLIB_ERR_IRRTOOBIG";
    case PMS_IA64_DISPATCH_ERROR_IRRTOOMANY:
        return "PFMLIB_ERR_IRRTOOMANY";
    case PMS_IA64_DISPATCH_ERROR_DRRINVAL:
        return "PFMLIB_ERR_DRRINVAL";
    case PMS_IA64_DISPATCH_ERROR_DRRTOOMANY:
        return "PFMLIB_ERR_DRRTOOMANY";
    case PMS_IA64_DISPATCH_ERROR_IRRFLAGS:
        return "PFMLIB_ERR_IRRFLAGS";
    default:
        return "PFMLIB_ERR_INVAL";
    }
}

G_GNUC_PRINTF(3, 4)
static gboolean fail(GError **error, PmsIa64DispatchError code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error_literal(error, PMS_IA64_DISPATCH_ERROR, code, msg);
    g_free(msg);
    return FALSE;
}

/* The range module's error codes, as ours (same names). */
static PmsIa64DispatchError from_range_error(int code)
{
    switch (code) {
    case PMS_IA64_RANGE_ERROR_FEATCOMB:
        return PMS_IA64_DISPATCH_ERROR_FEATCOMB;
    case PMS_IA64_RANGE_ERROR_IRRINVAL:
        return PMS_IA64_DISPATCH_ERROR_IRRINVAL;
    case PMS_IA64_RANGE_ERROR_IRRALIGN:
        return PMS_IA64_DISPATCH_ERROR_IRRALIGN;
    case PMS_IA64_RANGE_ERROR_IRRTOOBIG:
        return PMS_IA64_DISPATCH_ERROR_IRRTOOBIG;
    case PMS_IA64_RANGE_ERROR_IRRTOOMANY:
        return PMS_IA64_DISPATCH_ERROR_IRRTOOMANY;
    case PMS_IA64_RANGE_ERROR_DRRINVAL:
        return PMS_IA64_DISPATCH_ERROR_DRRINVAL;
    case PMS_IA64_RANGE_ERROR_DRRTOOMANY:
        return PMS_IA64_DISPATCH_ERROR_DRRTOOMANY;
    case PMS_IA64_RANGE_ERROR_IRRFLAGS:
        return PMS_IA64_DISPATCH_ERROR_IRRFLAGS;
    default:
        return PMS_IA64_DISPATCH_ERROR_INVAL;
    }
}

/* ---- registers and fields, by name ---- */

#define OPCODE_BITS 0x1ffffffffffull /* 41-bit opcode match / mask */

static const PmsRegister *pmc(const PmsModel *m, guint num, GError **error)
{
    const PmsRegister *r = pms_model_reg_at(m, PMS_SPACE_PMC, num);
    if (!r || !r->layout) {
        fail(error, PMS_IA64_DISPATCH_ERROR_INVAL, "model %s has no PMC%u with a field layout", m->name, num);
        return NULL;
    }
    return r;
}

static const PmsField *field(const PmsRegister *r, const char *name, GError **error)
{
    const PmsField *f = pms_layout_field(r->layout, name);
    if (!f)
        fail(error, PMS_IA64_DISPATCH_ERROR_INVAL, "register %s: layout %s has no field '%s'", r->name, r->layout->name,
             name);
    return f;
}

/* *v with field `name` of r set to value; FALSE when the field is missing or
 * the value does not fit it. */
static gboolean fset(const PmsRegister *r, const char *name, guint64 value, guint64 *v, GError **error)
{
    const PmsField *f = field(r, name, error);
    if (!f)
        return FALSE;
    if (f->width < 64 && value >> f->width)
        return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL,
                    "register %s: 0x%" G_GINT64_MODIFIER "x does not fit field %s (%u bits)", r->name, value, name,
                    f->width);
    *v = pms_field_set(f, *v, value);
    return TRUE;
}

static gboolean fget(const PmsRegister *r, const char *name, guint64 v, guint64 *value, GError **error)
{
    const PmsField *f = field(r, name, error);
    if (!f)
        return FALSE;
    *value = pms_field_get(f, v);
    return TRUE;
}

/* The plm of a counting PMC value: fields plm0..plm3, bit k = level k. */
static gboolean counter_plm(const PmsRegister *r, guint64 v, guint *plm, GError **error)
{
    static const char *const names[] = { "plm0", "plm1", "plm2", "plm3" };
    *plm = 0;
    for (guint k = 0; k < 4; k++) {
        guint64 b;
        if (!fget(r, names[k], v, &b, error))
            return FALSE;
        *plm |= (guint)b << k;
    }
    return TRUE;
}

static gboolean set_counter_plm(const PmsRegister *r, guint plm, guint64 *v, GError **error)
{
    static const char *const names[] = { "plm0", "plm1", "plm2", "plm3" };
    for (guint k = 0; k < 4; k++)
        if (!fset(r, names[k], (plm >> k) & 1, v, error))
            return FALSE;
    return TRUE;
}

/* ---- the output ---- */

static guint space_rank(PmsRegSpace s)
{
    return s == PMS_SPACE_PMC ? 0 : s == PMS_SPACE_IBR ? 1 : s == PMS_SPACE_DBR ? 2 : 3;
}

/* Write (or overwrite) register (space, num) = value. */
static gboolean put(const PmsModel *m, PmsIa64DispatchResult *out, PmsRegSpace space, guint num, guint64 value,
                    GError **error)
{
    const PmsRegister *r = pms_model_reg_at(m, space, num);
    if (!r)
        return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL, "model %s has no %s%u", m->name, pms_reg_space_name(space),
                    num);
    for (guint i = 0; i < out->n_writes; i++)
        if (out->writes[i].reg == r) {
            out->writes[i].value = value;
            return TRUE;
        }
    g_assert(out->n_writes < PMS_IA64_DISPATCH_MAX_WRITES);
    PmsRegWrite *w = &out->writes[out->n_writes++];
    w->name = r->name;
    w->address = r->address;
    w->value = value;
    w->mask = G_MAXUINT64;
    w->reg = r;
    return TRUE;
}

static gint write_cmp(gconstpointer a, gconstpointer b)
{
    const PmsRegWrite *x = a, *y = b;
    guint rx = space_rank(x->reg->space), ry = space_rank(y->reg->space);
    if (rx != ry)
        return rx < ry ? -1 : 1;
    return x->address < y->address ? -1 : x->address > y->address;
}

gboolean pms_ia64_dispatch_written(const PmsIa64DispatchResult *res, PmsRegSpace space, guint num, guint64 *value)
{
    for (guint i = 0; i < res->n_writes; i++)
        if (res->writes[i].reg->space == space && res->writes[i].address == num) {
            if (value)
                *value = res->writes[i].value;
            return TRUE;
        }
    return FALSE;
}

/* ---- counting PMC by itself ---- */

gboolean pms_ia64_dispatch_default_pmc(const PmsModel *m, const PmsEvent *ev, guint plm, guint64 *value, GError **error)
{
    const PmsRegister *r = pmc(m, m->counter_base, error);
    if (!r)
        return FALSE;
    guint64 v = 0;
    if (!set_counter_plm(r, plm, &v, error) || !fset(r, "es", ev->code, &v, error) ||
        !fset(r, "umask", pms_ia64_facts(ev)->ear != PMS_IA64_EAR_NONE ? 0 : ev->base_umask, &v, error) ||
        !fset(r, "ism", 2, &v, error))
        return FALSE;
    if (pms_ia64_facts(ev)->mesi) {
        static const char *const q[] = { "mesi_i", "mesi_s", "mesi_e", "mesi_m" };
        for (guint i = 0; i < 4; i++)
            if (!fset(r, q[i], 1, &v, error))
                return FALSE;
    }
    *value = v;
    return TRUE;
}

/* ---- counter placement ---- */

typedef struct {
    guint64 allowed[PMS_IA64_DISPATCH_MAX_EVENTS]; /* bit c: may use counter c */
    gint owner[64];                                /* counter -> event, -1 free */
    guint64 seen;                                  /* counters visited by this search */
} Match;

/* Kuhn's augmenting path from event e.  A free counter (the lowest) is
 * taken before any placed event is moved, so when a first fit in input
 * order works the result is that first fit. */
static gboolean augment(Match *mt, guint e)
{
    for (guint c = 0; c < 64; c++)
        if ((mt->allowed[e] >> c & 1) && mt->owner[c] < 0) {
            mt->owner[c] = (gint)e;
            return TRUE;
        }
    for (guint c = 0; c < 64; c++) {
        if (!(mt->allowed[e] >> c & 1) || (mt->seen >> c & 1))
            continue;
        mt->seen |= 1ull << c;
        if (mt->owner[c] < 0 || augment(mt, (guint)mt->owner[c])) {
            mt->owner[c] = (gint)e;
            return TRUE;
        }
    }
    return FALSE;
}

/* A placement of every event on an allowed counter, each counter used once:
 * a maximum bipartite matching (augmenting paths), so a placement is found
 * whenever one exists.  counter[e] = the counter; FALSE when none exists. */
static gboolean match_all(const guint64 *allowed, guint n, guint *counter)
{
    Match mt = { 0 };
    memcpy(mt.allowed, allowed, n * sizeof *allowed);
    for (guint c = 0; c < 64; c++)
        mt.owner[c] = -1;
    for (guint e = 0; e < n; e++) {
        mt.seen = 0;
        if (!augment(&mt, e))
            return FALSE;
    }
    for (guint c = 0; c < 64; c++)
        if (mt.owner[c] >= 0)
            counter[mt.owner[c]] = c;
    return TRUE;
}

#define L1D_PMC 5 /* one L1D event must sit on PMC5 (registers.md §3) */

static gboolean place_counters(const PmsIa64DispatchRequest *req, guint *counter, GError **error)
{
    const PmsModel *m = req->model;
    guint n = req->n_events;
    guint64 allowed[PMS_IA64_DISPATCH_MAX_EVENTS];
    guint64 exist = pms_model_counters_mask(m);
    gint set[3] = { -1, -1, -1 }; /* per group: the set in use */
    guint first[3] = { 0, 0, 0 }; /* per group: the event that fixed it */
    gboolean any_l1d = FALSE;
    for (guint e = 0; e < n; e++) {
        const PmsEvent *ev = req->events[e].event;
        allowed[e] = ev->counters & exist;
        guint g = pms_ia64_facts(ev)->cache_group;
        if (g == PMS_IA64_GROUP_NONE || g > PMS_IA64_GROUP_L2D)
            continue;
        any_l1d |= g == PMS_IA64_GROUP_L1D;
        if (set[g] < 0) {
            set[g] = pms_ia64_facts(ev)->cache_set;
            first[g] = e;
        } else if (set[g] != pms_ia64_facts(ev)->cache_set)
            return fail(
                error, PMS_IA64_DISPATCH_ERROR_EVTSET,
                "%s (%s set %d) and %s (set %d): events of different sets of one group cannot be measured together",
                req->events[first[g]].event->name, pms_ia64_cache_group_name((PmsIa64CacheGroup)g), set[g], ev->name,
                pms_ia64_facts(ev)->cache_set);
    }
    if (!any_l1d) {
        if (match_all(allowed, n, counter))
            return TRUE;
    } else {
        /* Some L1D event on PMC5: try each, the last first (libpfm pins the last). */
        for (guint k = n; k-- > 0;) {
            const PmsEvent *ev = req->events[k].event;
            if (pms_ia64_facts(ev)->cache_group != PMS_IA64_GROUP_L1D || !(allowed[k] >> L1D_PMC & 1))
                continue;
            guint64 a[PMS_IA64_DISPATCH_MAX_EVENTS];
            memcpy(a, allowed, n * sizeof *a);
            a[k] = 1ull << L1D_PMC;
            if (match_all(a, n, counter))
                return TRUE;
        }
    }
    return fail(error, PMS_IA64_DISPATCH_ERROR_NOASSIGN, "no placement of the %u events on their allowed counters%s", n,
                any_l1d ? " with an L1D event on PMC5" : "");
}

/* ---- EARs ---- */

/* The EAR configuration of kind `which` (I or D): its method and, when
 * programmed, mode, plm and umask. */
typedef struct {
    guint method;
    PmsIa64EarMode mode;
    guint plm, umask;
} EarPlan;

static gboolean plan_ear(const PmsIa64DispatchRequest *req, PmsIa64Ear which, EarPlan *p, GError **error)
{
    const PmsIa64EarCfg *cfg = which == PMS_IA64_EAR_I ? &req->iear : &req->dear;
    const char *what = which == PMS_IA64_EAR_I ? "I-EAR" : "D-EAR";
    gint ev_i = -1;
    for (guint e = 0; e < req->n_events; e++) {
        const PmsEvent *ev = req->events[e].event;
        if (pms_ia64_facts(ev)->ear != which)
            continue;
        if (ev_i < 0) {
            ev_i = (gint)e;
            continue;
        }
        const PmsEvent *f = req->events[ev_i].event;
        if (!cfg->used &&
            (pms_ia64_facts(f)->ear_mode != pms_ia64_facts(ev)->ear_mode || f->base_umask != ev->base_umask))
            return fail(error, PMS_IA64_DISPATCH_ERROR_EVTINCOMP,
                        "%s and %s need different %s configurations (mode or umask); one %s at a time", f->name,
                        ev->name, what, what);
    }
    memset(p, 0, sizeof *p);
    if (ev_i >= 0 && !cfg->used) { /* method 1: from the event */
        const PmsEvent *ev = req->events[ev_i].event;
        p->method = 1;
        p->mode = pms_ia64_facts(ev)->ear_mode;
        p->umask = ev->base_umask;
        /* the default plm, as libpfm: privilege is a detail only the
         * parameters carry (method 2; docs/montecito-dispatch.md) */
        p->plm = req->plm;
    } else if (cfg->used) { /* method 2 (with an event) or 4 (free running) */
        p->method = ev_i >= 0 ? 2 : 4;
        p->mode = cfg->mode;
        p->umask = cfg->umask;
        p->plm = cfg->plm ? cfg->plm : req->plm;
    } else {
        p->method = 3; /* nothing programmed */
        return TRUE;
    }
    if (p->mode != PMS_IA64_EAR_MODE_CACHE && p->mode != PMS_IA64_EAR_MODE_TLB &&
        !(which == PMS_IA64_EAR_D && p->mode == PMS_IA64_EAR_MODE_ALAT))
        return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL, "%s mode %s: expected cache, tlb%s", what,
                    pms_ia64_ear_mode_name(p->mode) ? pms_ia64_ear_mode_name(p->mode) : "?",
                    which == PMS_IA64_EAR_D ? " or alat" : " (no ALAT mode on the I-EAR)");
    if (p->plm > 0xf)
        return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL, "%s plm 0x%x is not 1..0xf", what, p->plm);
    return TRUE;
}

/* PMC37: plm, pm, umask 12:5 with ct (bit 13) = 1 in cache mode; TLB mode
 * has a 7-bit umask (11:5) and ct bits 13:12 = 00 (registers.md §6). */
static gboolean iear_value(const PmsIa64DispatchRequest *req, const EarPlan *p, guint64 *v, GError **error)
{
    const PmsRegister *r = pmc(req->model, 37, error);
    if (!r)
        return FALSE;
    *v = r->reset;
    gboolean cache = p->mode == PMS_IA64_EAR_MODE_CACHE;
    if (!cache && p->umask > 0x7f)
        return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL,
                    "I-EAR TLB mode: umask 0x%x has more than 7 bits (bit 12 is part of ct)", p->umask);
    return fset(r, "plm", p->plm, v, error) && fset(r, "pm", req->system_wide ? 1 : 0, v, error) &&
        fset(r, "umask", p->umask, v, error) && fset(r, "ct", cache ? 1 : 0, v, error);
}

/* PMC40: plm, pm, mode (0 cache, 1 TLB, 2 ALAT), umask, ism = 2 (registers.md §7). */
static gboolean dear_value(const PmsIa64DispatchRequest *req, const EarPlan *p, guint64 *v, GError **error)
{
    const PmsRegister *r = pmc(req->model, 40, error);
    if (!r)
        return FALSE;
    *v = r->reset;
    guint mode = p->mode == PMS_IA64_EAR_MODE_CACHE ? 0 : p->mode == PMS_IA64_EAR_MODE_TLB ? 1 : 2;
    return fset(r, "plm", p->plm, v, error) && fset(r, "pm", req->system_wide ? 1 : 0, v, error) &&
        fset(r, "mode", mode, v, error) && fset(r, "umask", p->umask, v, error) && fset(r, "ism", 2, v, error);
}

/* ---- dispatch ---- */

static gboolean check_opcm(const PmsIa64OpcmCfg *o, guint k, GError **error)
{
    if (!o->used)
        return TRUE;
    if ((o->match | o->mask) & ~OPCODE_BITS)
        return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL, "opcode matcher %u: match and mask have 41 bits", k);
    return TRUE;
}

static gboolean check_params(const PmsIa64DispatchRequest *req, GError **error)
{
    if (!check_opcm(&req->opcm1, 1, error) || !check_opcm(&req->opcm2, 2, error))
        return FALSE;
    if (req->etb.used) {
        const PmsIa64EtbCfg *t = &req->etb;
        if (t->ds)
            return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL, "ETB ds must be 0 (1 is reserved)");
        if (t->tm > 3 || t->ptm > 3 || t->ppm > 3 || t->brt > 3)
            return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL, "ETB tm, ptm, ppm and brt are 0..3");
        if (t->plm > 0xf)
            return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL, "ETB plm 0x%x is not 1..0xf", t->plm);
    }
    if (req->ipear.used) {
        if (req->ipear.delay > 0xff)
            return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL, "IP-EAR delay %u: at most 255 cycles", req->ipear.delay);
        if (req->ipear.plm > 0xf)
            return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL, "IP-EAR plm 0x%x is not 1..0xf", req->ipear.plm);
    }
    return TRUE;
}

/* The range module's event description of e. */
static PmsIa64RangeEvent range_event(const PmsIa64DispatchEvent *e)
{
    PmsIa64RangeEvent r = pms_ia64_range_event_of(e->event);
    r.no_qualcheck = (e->flags & PMS_IA64_EVT_NO_QUALCHECK) != 0;
    return r;
}

static gboolean do_range(const PmsIa64DispatchRequest *req, PmsIa64RangeSide side, PmsIa64RangeResult *res,
                         GError **error)
{
    const PmsIa64DispatchRange *in = side == PMS_IA64_RANGE_CODE ? &req->irange : &req->drange;
    PmsIa64RangeRequest rr = { 0 };
    rr.side = side;
    rr.flags = in->flags;
    rr.plm = req->plm;
    rr.n_ranges = in->n_ranges;
    memcpy(rr.ranges, in->ranges, sizeof rr.ranges);
    PmsIa64RangeEvent evs[PMS_IA64_DISPATCH_MAX_EVENTS];
    for (guint e = 0; e < req->n_events; e++)
        evs[e] = range_event(&req->events[e]);
    rr.n_events = req->n_events;
    rr.events = req->n_events ? evs : NULL;
    GError *err = NULL;
    if (pms_ia64_range_compute(&rr, res, &err))
        return TRUE;
    fail(error, from_range_error(err->code), "%s range: %s", side == PMS_IA64_RANGE_CODE ? "code" : "data",
         err->message);
    g_error_free(err);
    return FALSE;
}

gboolean pms_ia64_dispatch(const PmsIa64DispatchRequest *req, PmsIa64DispatchResult *out, GError **error)
{
    if (!req || !out)
        return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL, "no request or no result");
    memset(out, 0, sizeof *out);
    const PmsModel *m = req->model;
    if (!m || !pms_model_is_family(m, "ia64")) /* this file is the ia64 family's own */
        return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL, "no model, or not an ia64 model");
    if (req->plm == 0 || req->plm > 0xf)
        return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL, "the default privilege level mask 0x%x is not 1..0xf",
                    req->plm);
    if (req->n_events && !req->events)
        return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL, "n_events without events");
    if (req->n_events > PMS_IA64_DISPATCH_MAX_EVENTS || req->n_events > m->n_gp)
        return fail(error, PMS_IA64_DISPATCH_ERROR_TOOMANY, "%u events: at most %u counters", req->n_events,
                    MIN(m->n_gp, PMS_IA64_DISPATCH_MAX_EVENTS));
    if (!check_params(req, error))
        return FALSE;
    const PmsRegister *cnt = pmc(m, m->counter_base, error);
    if (!cnt)
        return FALSE;

    /* Per event: the value with its threshold, its plm; the value must select the event. */
    guint64 value[PMS_IA64_DISPATCH_MAX_EVENTS];
    guint plms[PMS_IA64_DISPATCH_MAX_EVENTS];
    gint cancels = -1;
    for (guint e = 0; e < req->n_events; e++) {
        const PmsIa64DispatchEvent *d = &req->events[e];
        const PmsEvent *ev = d->event;
        if (!ev)
            return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL, "event %u: no model event", e);
        guint64 es, umask, thres;
        if (!fget(cnt, "es", d->pmc, &es, error) || !fget(cnt, "umask", d->pmc, &umask, error) ||
            !fget(cnt, "thres", d->pmc, &thres, error))
            return FALSE;
        /* the value must select the event: its code, and its umask (an EAR
         * event's umask goes to PMC37/PMC40, its counter's is 0) */
        guint want_umask = pms_ia64_facts(ev)->ear != PMS_IA64_EAR_NONE ? 0 : ev->base_umask;
        if (es != ev->code || umask != want_umask)
            return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL,
                        "%s: the counting value 0x%" G_GINT64_MODIFIER "x selects code 0x%" G_GINT64_MODIFIER
                        "x umask 0x%" G_GINT64_MODIFIER "x, not code 0x%x umask 0x%x",
                        ev->name, d->pmc, es, umask, ev->code, want_umask);
        value[e] = d->pmc;
        if (d->thres) {
            if (thres && thres != d->thres)
                return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL,
                            "%s: threshold %u given and the counting value holds threshold %" G_GUINT64_FORMAT,
                            ev->name, d->thres, thres);
            if (d->thres > 7)
                return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL, "%s: threshold %u: at most 7", ev->name, d->thres);
            thres = d->thres;
            if (!fset(cnt, "thres", thres, &value[e], error))
                return FALSE;
        }
        if (pms_ia64_facts(ev)->max_inc && thres >= pms_ia64_facts(ev)->max_inc)
            return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL,
                        "%s: threshold %" G_GUINT64_FORMAT " not below the event's %u occurrences per cycle", ev->name,
                        thres, pms_ia64_facts(ev)->max_inc);
        if (!counter_plm(cnt, value[e], &plms[e], error))
            return FALSE;
        if (ev->code == 0xe0 || ev->code == 0xe2) { /* L2D_OZQ_CANCELS0_* / CANCELS1_* */
            if (cancels >= 0)
                return fail(error, PMS_IA64_DISPATCH_ERROR_INVAL,
                            "%s and %s: at most one L2D_OZQ_CANCELS0/1 event per measurement",
                            req->events[cancels].event->name, ev->name);
            cancels = (gint)e;
        }
    }

    /* Check 1: qualifiers. */
    gboolean opcm = req->opcm1.used || req->opcm2.used;
    for (guint e = 0; e < req->n_events; e++) {
        const PmsIa64DispatchEvent *d = &req->events[e];
        if (d->flags & PMS_IA64_EVT_NO_QUALCHECK)
            continue;
        guint q = pms_ia64_facts(d->event)->qualifiers;
        if (req->irange.used && !(q & PMS_IA64_QUAL_IARR))
            return fail(error, PMS_IA64_DISPATCH_ERROR_FEATCOMB,
                        "%s does not support code range restriction (no-qualifier-check overrides)", d->event->name);
        if (req->drange.used && !(q & PMS_IA64_QUAL_DARR))
            return fail(error, PMS_IA64_DISPATCH_ERROR_FEATCOMB,
                        "%s does not support data range restriction (no-qualifier-check overrides)", d->event->name);
        if (opcm && !(q & PMS_IA64_QUAL_OPCM))
            return fail(error, PMS_IA64_DISPATCH_ERROR_FEATCOMB,
                        "%s does not support opcode matching (no-qualifier-check overrides)", d->event->name);
    }
    /* Check 2: with a range, every event counts at the default plm. */
    if (req->irange.used || req->drange.used)
        for (guint e = 0; e < req->n_events; e++)
            if (plms[e] != req->plm)
                return fail(error, PMS_IA64_DISPATCH_ERROR_FEATCOMB,
                            "%s counts at plm 0x%x: with a range restriction every event uses the default plm 0x%x",
                            req->events[e].event->name, plms[e], req->plm);

    /* Counters. */
    if (!place_counters(req, out->counter, error))
        return FALSE;
    for (guint e = 0; e < req->n_events; e++)
        if (!put(m, out, PMS_SPACE_PMC, out->counter[e], value[e], error))
            return FALSE;

    /* I-EAR, D-EAR. */
    EarPlan ie, de;
    if (!plan_ear(req, PMS_IA64_EAR_I, &ie, error))
        return FALSE;
    out->methods.iear = ie.method;
    if (ie.method != 3) {
        guint64 v;
        if (!iear_value(req, &ie, &v, error) || !put(m, out, PMS_SPACE_PMC, 37, v, error))
            return FALSE;
    }
    if (!plan_ear(req, PMS_IA64_EAR_D, &de, error))
        return FALSE;
    out->methods.dear = de.method;
    if (de.method != 3) {
        guint64 v;
        if (!dear_value(req, &de, &v, error) || !put(m, out, PMS_SPACE_PMC, 40, v, error))
            return FALSE;
    }

    /* Code range, data range: the range module's registers. */
    if (req->irange.used) {
        if (!do_range(req, PMS_IA64_RANGE_CODE, &out->irange, error))
            return FALSE;
        out->irange_used = TRUE;
    }
    if (req->drange.used) {
        if (!do_range(req, PMS_IA64_RANGE_DATA, &out->drange, error))
            return FALSE;
        out->drange_used = TRUE;
    }
    for (int side = 0; side < 2; side++) {
        const PmsIa64RangeResult *rr = side == 0 ? &out->irange : &out->drange;
        if (!(side == 0 ? out->irange_used : out->drange_used))
            continue;
        for (guint i = 0; i < rr->n_regs; i++)
            if (rr->regs[i].space != PMS_SPACE_PMC &&
                !put(m, out, rr->regs[i].space, rr->regs[i].num, rr->regs[i].value, error))
                return FALSE;
    }
    if (out->irange_used && !put(m, out, PMS_SPACE_PMC, 38, out->irange.pmc38, error))
        return FALSE;

    /* PMC41: one value for both sides and the opcode matchers (registers.md §10):
     * channel N has I (IBR pair N holds a code range; fine mode: the lower-bound
     * pairs 0 and 1 only), D (DBR pair N holds a data range) and O (its matcher,
     * PMC32 for channels 0 and 2, PMC34 for 1 and 3, is used; counted only with
     * I or D).  Tagged channels: ena_dbrpN = 1, cfg_dtagN = iod_tab[I<<2|O<<1|D]. */
    if (out->irange_used || out->drange_used) {
        static const guint iod_tab[8] = { 3, 2, 3, 0, 1, 0, 1, 0 };
        const PmsRegister *r41 = pmc(m, 41, error);
        if (!r41)
            return FALSE;
        guint64 v = r41->reset;
        guint ipairs =
            out->irange_used ? (out->irange.fine ? out->irange.pairs_used & 0x3 : out->irange.pairs_used) : 0;
        guint dpairs = out->drange_used ? out->drange.pairs_used : 0;
        for (guint ch = 0; ch < 4; ch++) {
            guint i = ipairs >> ch & 1, d = dpairs >> ch & 1;
            guint o = (ch % 2 == 0 ? req->opcm1.used : req->opcm2.used) ? 1 : 0;
            gboolean tagged = i || d;
            char ena[16], dtag[16];
            g_snprintf(ena, sizeof ena, "ena_dbrp%u", ch);
            g_snprintf(dtag, sizeof dtag, "cfg_dtag%u", ch);
            if (!fset(r41, ena, tagged ? 1 : 0, &v, error) ||
                !fset(r41, dtag, tagged ? iod_tab[i << 2 | o << 1 | d] : 3, &v, error))
                return FALSE;
        }
        if (!put(m, out, PMS_SPACE_PMC, 41, v, error))
            return FALSE;
    }

    /* Opcode matchers: PMC32/33 and PMC34/35, PMC36.  PMC32 is also written
     * for a code range alone: ig_ad = 0 honours the range, inv = RR_INV. */
    if (req->opcm1.used || out->irange_used) {
        const PmsRegister *r32 = pmc(m, 32, error);
        if (!r32)
            return FALSE;
        guint64 v = r32->reset;
        const PmsIa64OpcmCfg *o = &req->opcm1;
        gboolean all = !o->used; /* a code range alone: match everything */
        gboolean inv = out->irange_used && (req->irange.flags & PMS_IA64_RANGE_INV);
        if (!fset(r32, "mask", all ? OPCODE_BITS : o->mask, &v, error) || !fset(r32, "m", all || o->m, &v, error) ||
            !fset(r32, "i", all || o->i, &v, error) || !fset(r32, "f", all || o->f, &v, error) ||
            !fset(r32, "b", all || o->b, &v, error) || !fset(r32, "inv", inv, &v, error) ||
            !fset(r32, "ig_ad", out->irange_used ? 0 : 1, &v, error) || !put(m, out, PMS_SPACE_PMC, 32, v, error))
            return FALSE;
        if (o->used) {
            const PmsRegister *r33 = pmc(m, 33, error);
            guint64 w = 0;
            if (!r33 || !fset(r33, "match", o->match, &w, error) || !put(m, out, PMS_SPACE_PMC, 33, w, error))
                return FALSE;
        }
    }
    if (req->opcm2.used) {
        const PmsIa64OpcmCfg *o = &req->opcm2;
        const PmsRegister *r34 = pmc(m, 34, error), *r35 = r34 ? pmc(m, 35, error) : NULL;
        if (!r35)
            return FALSE;
        guint64 v = r34->reset, w = 0;
        if (!fset(r34, "mask", o->mask, &v, error) || !fset(r34, "m", o->m, &v, error) ||
            !fset(r34, "i", o->i, &v, error) || !fset(r34, "f", o->f, &v, error) || !fset(r34, "b", o->b, &v, error) ||
            !put(m, out, PMS_SPACE_PMC, 34, v, error) || !fset(r35, "match", o->match, &w, error) ||
            !put(m, out, PMS_SPACE_PMC, 35, w, error))
            return FALSE;
    }
    if (opcm) {
        /* Every channel follows its opcode matcher (chN_ig_opcm = 0): the
         * configuration libpfm calls mandatory; reserved bits from the reset value. */
        const PmsRegister *r36 = pmc(m, 36, error);
        if (!r36)
            return FALSE;
        guint64 v = r36->reset;
        for (guint ch = 0; ch < 4; ch++) {
            char name[16];
            g_snprintf(name, sizeof name, "ch%u_ig_opcm", ch);
            if (!fset(r36, name, 0, &v, error))
                return FALSE;
        }
        if (!put(m, out, PMS_SPACE_PMC, 36, v, error))
            return FALSE;
    }

    /* ETB: PMC39. */
    gint etb_ev = -1;
    for (guint e = 0; e < req->n_events && etb_ev < 0; e++)
        if (pms_ia64_facts(req->events[e].event)->etb)
            etb_ev = (gint)e;
    gboolean etb = etb_ev >= 0 || req->etb.used;
    gboolean dear_tlb_alat = de.method != 3 && (de.mode == PMS_IA64_EAR_MODE_TLB || de.mode == PMS_IA64_EAR_MODE_ALAT);
    if (etb && dear_tlb_alat)
        return fail(error, PMS_IA64_DISPATCH_ERROR_EVTINCOMP,
                    "the ETB cannot be used with the D-EAR in %s mode (PMC39 must be 0)",
                    pms_ia64_ear_mode_name(de.mode));
    out->methods.etb = etb_ev >= 0 ? (req->etb.used ? 2 : 1) : (req->etb.used ? 3 : 4);
    if (etb) {
        const PmsRegister *r39 = pmc(m, 39, error);
        if (!r39)
            return FALSE;
        guint64 v = r39->reset;
        guint plm, tm, ptm, ppm, brt;
        if (req->etb.used) {
            const PmsIa64EtbCfg *t = &req->etb;
            plm = t->plm ? t->plm : req->plm;
            tm = t->tm, ptm = t->ptm, ppm = t->ppm, brt = t->brt;
        } else { /* method 1: every branch; brt 0 = all (registers.md §9, UNCONFIRMED); the default plm */
            plm = req->plm;
            tm = 3, ptm = 3, ppm = 3, brt = 0;
        }
        if (!fset(r39, "plm", plm, &v, error) || !fset(r39, "pm", req->system_wide ? 1 : 0, &v, error) ||
            !fset(r39, "ds", 0, &v, error) || !fset(r39, "tm", tm, &v, error) || !fset(r39, "ptm", ptm, &v, error) ||
            !fset(r39, "ppm", ppm, &v, error) || !fset(r39, "brt", brt, &v, error) ||
            !put(m, out, PMS_SPACE_PMC, 39, v, error))
            return FALSE;
    } else if (dear_tlb_alat) {
        /* D-EAR TLB/ALAT: PMC39 must be 0, written explicitly (registers.md §7). */
        if (!put(m, out, PMS_SPACE_PMC, 39, 0, error))
            return FALSE;
    }

    /* IP-EAR: PMC42, mode 4; not with the ETB. */
    if (req->ipear.used) {
        if (etb)
            return fail(error, PMS_IA64_DISPATCH_ERROR_FEATCOMB, "the IP-EAR cannot be used with the ETB (%s)",
                        etb_ev >= 0 ? req->events[etb_ev].event->name : "ETB configuration given");
        const PmsRegister *r42 = pmc(m, 42, error);
        if (!r42)
            return FALSE;
        guint64 v = r42->reset;
        if (!fset(r42, "plm", req->ipear.plm ? req->ipear.plm : req->plm, &v, error) ||
            !fset(r42, "pm", req->system_wide ? 1 : 0, &v, error) || !fset(r42, "mode", 4, &v, error) ||
            !fset(r42, "delay", req->ipear.delay, &v, error) || !put(m, out, PMS_SPACE_PMC, 42, v, error))
            return FALSE;
    }

    qsort(out->writes, out->n_writes, sizeof out->writes[0], write_cmp);
    return TRUE;
}
