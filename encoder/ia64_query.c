/* pmusim — Itanium event queries (ia64_query.h): the model's facts, as
 * libpfm_montecito(3)'s pfm_mont_* calls answer them. */
#include "ia64_query.h"
#include "family.h"

G_DEFINE_QUARK(pms - ia64 - query - error - quark, pms_ia64_query_error)

const PmsEvent *pms_ia64_event(const PmsModel *m, const char *name, GError **error)
{
    g_return_val_if_fail(m != NULL && name != NULL, NULL);
    if (!pms_model_is_family(m, "ia64")) { /* this file is the ia64 family's own */
        g_set_error(error, PMS_IA64_QUERY_ERROR, PMS_IA64_QUERY_ERROR_INVAL, "%s is not an Itanium PMU (arch %s)",
                    m->name, m->family->name);
        return NULL;
    }
    const PmsEvent *ev = pms_model_event(m, name);
    if (!ev)
        g_set_error(error, PMS_IA64_QUERY_ERROR, PMS_IA64_QUERY_ERROR_NOTFOUND, "unknown event '%s' for PMU %s", name,
                    m->name);
    return ev;
}

gboolean pms_ia64_is_ear(const PmsEvent *ev)
{
    return ev && pms_ia64_facts(ev)->ear != PMS_IA64_EAR_NONE;
}
gboolean pms_ia64_is_dear(const PmsEvent *ev)
{
    return ev && pms_ia64_facts(ev)->ear == PMS_IA64_EAR_D;
}
gboolean pms_ia64_is_iear(const PmsEvent *ev)
{
    return ev && pms_ia64_facts(ev)->ear == PMS_IA64_EAR_I;
}

static gboolean ear_is(const PmsEvent *ev, PmsIa64Ear ear, PmsIa64EarMode mode)
{
    const PmsIa64EventFacts *f = ev ? pms_ia64_facts(ev) : NULL;
    return f && f->ear != PMS_IA64_EAR_NONE && (ear == PMS_IA64_EAR_NONE || f->ear == ear) && f->ear_mode == mode;
}

gboolean pms_ia64_is_dear_tlb(const PmsEvent *ev)
{
    return ear_is(ev, PMS_IA64_EAR_D, PMS_IA64_EAR_MODE_TLB);
}
gboolean pms_ia64_is_dear_cache(const PmsEvent *ev)
{
    return ear_is(ev, PMS_IA64_EAR_D, PMS_IA64_EAR_MODE_CACHE);
}
gboolean pms_ia64_is_dear_alat(const PmsEvent *ev)
{
    return ear_is(ev, PMS_IA64_EAR_D, PMS_IA64_EAR_MODE_ALAT);
}
gboolean pms_ia64_is_iear_tlb(const PmsEvent *ev)
{
    return ear_is(ev, PMS_IA64_EAR_I, PMS_IA64_EAR_MODE_TLB);
}
gboolean pms_ia64_is_iear_cache(const PmsEvent *ev)
{
    return ear_is(ev, PMS_IA64_EAR_I, PMS_IA64_EAR_MODE_CACHE);
}
gboolean pms_ia64_is_tlb(const PmsEvent *ev)
{
    return ear_is(ev, PMS_IA64_EAR_NONE, PMS_IA64_EAR_MODE_TLB);
}
gboolean pms_ia64_is_cache(const PmsEvent *ev)
{
    return ear_is(ev, PMS_IA64_EAR_NONE, PMS_IA64_EAR_MODE_CACHE);
}
gboolean pms_ia64_is_alat(const PmsEvent *ev)
{
    return ear_is(ev, PMS_IA64_EAR_NONE, PMS_IA64_EAR_MODE_ALAT);
}
gboolean pms_ia64_is_etb(const PmsEvent *ev)
{
    return ev && pms_ia64_facts(ev)->etb;
}
gboolean pms_ia64_support_opcm(const PmsEvent *ev)
{
    return ev && (pms_ia64_facts(ev)->qualifiers & PMS_IA64_QUAL_OPCM);
}
gboolean pms_ia64_support_iarr(const PmsEvent *ev)
{
    return ev && (pms_ia64_facts(ev)->qualifiers & PMS_IA64_QUAL_IARR);
}
gboolean pms_ia64_support_darr(const PmsEvent *ev)
{
    return ev && (pms_ia64_facts(ev)->qualifiers & PMS_IA64_QUAL_DARR);
}
guint pms_ia64_max_inc(const PmsEvent *ev)
{
    return ev ? pms_ia64_facts(ev)->max_inc : 0;
}
guint32 pms_ia64_umask(const PmsEvent *ev)
{
    return ev ? ev->base_umask : 0;
}
PmsIa64CacheGroup pms_ia64_group(const PmsEvent *ev)
{
    return ev ? pms_ia64_facts(ev)->cache_group : PMS_IA64_GROUP_NONE;
}
gint pms_ia64_set(const PmsEvent *ev)
{
    return ev ? pms_ia64_facts(ev)->cache_set : -1;
}
PmsIa64EventType pms_ia64_type(const PmsEvent *ev)
{
    return ev ? pms_ia64_facts(ev)->ev_type : PMS_IA64_TYPE_NONE;
}

gboolean pms_ia64_ear_mode(const PmsEvent *ev, PmsIa64EarMode *mode, GError **error)
{
    if (!pms_ia64_is_ear(ev)) {
        g_set_error(error, PMS_IA64_QUERY_ERROR, PMS_IA64_QUERY_ERROR_INVAL,
                    "%s is not an EAR event: it has no EAR mode", ev ? ev->name : "(null)");
        return FALSE;
    }
    *mode = pms_ia64_facts(ev)->ear_mode;
    return TRUE;
}
