/* pmusim models — views: the PMUs of a model file that provides one PMU per
 * instance of a unit ([pmu] instances, docs/model-format.md).
 *
 * The Xeon 7500 uncore is one file: the events, modifiers and the registers
 * of every box once, and eight PMU names, one per C-Box.  Loading it once and
 * giving each name a small view that shares the facts costs one parse (or one
 * image read) instead of eight, and the facts cannot drift apart. */
#include <string.h>
#include "model.h"
#include "model_priv.h"

char *pms_model_pattern_format(const char *pattern, guint instance)
{
    GString *s = g_string_new(NULL);
    for (const char *p = pattern; *p; p++) {
        if (*p != '%') {
            g_string_append_c(s, *p);
        } else if (p[1] == 'u') {
            g_string_append_printf(s, "%u", instance);
            p++;
        } else if (p[1] == '%') {
            g_string_append_c(s, '%');
            p++;
        } else {
            g_string_free(s, TRUE);
            return NULL;
        }
    }
    return g_string_free(s, FALSE);
}

char *pms_model_view_name(const PmsModel *m, guint i)
{
    if (!m || i >= m->n_instances || !m->name_pattern)
        return NULL;
    return pms_model_pattern_format(m->name_pattern, m->instances[i]);
}

PmsModel *pms_model_view_new(PmsModel *m, guint i)
{
    g_autofree char *name = pms_model_view_name(m, i);
    if (!name)
        return NULL;
    PmsModelPriv *pv = g_new0(PmsModelPriv, 1);
    PmsModel *v = &pv->head.model;
    *v = *m; /* every fact shared: the view frees only what is set below */
    v->name = g_steal_pointer(&name);
    v->desc = m->desc_pattern ? pms_model_pattern_format(m->desc_pattern, m->instances[i]) : g_strdup(m->desc);
    v->instance = m->instances[i];
    /* a view is one PMU */
    v->instances = NULL;
    v->n_instances = 0;
    v->name_pattern = v->desc_pattern = NULL;
    /* its caches (none yet: zeroed) hold its own instance's registers */
    pv->base = m;
    g_atomic_int_inc(&pms_model_priv(m)->view_refs);
    return v;
}

PmsModel *pms_model_view_by_name(PmsModel *m, const char *name)
{
    for (guint i = 0; m && name && i < m->n_instances; i++) {
        g_autofree char *n = pms_model_view_name(m, i);
        if (n && g_ascii_strcasecmp(n, name) == 0)
            return pms_model_view_new(m, i);
    }
    return NULL;
}

/* pms_model_free of a view: its own strings and caches, then its reference
 * to the model it shares. */
void pms_model_view_free(PmsModel *v)
{
    PmsModelPriv *pv = pms_model_priv(v);
    PmsModel *base = pv->base;
    g_free(v->name);
    g_free(v->desc);
    pms_model_caches_free(v);
    g_free(pv);
    pms_model_free(base);
}
