/* pmusim CLI — did you mean (suggest.h). */
#include "suggest.h"
#include "encoder.h"

#include <string.h>

const char *pms_suggest_pmu(const PmsModelSet *set, const char *name)
{
    guint n = pms_model_set_count(set);
    g_autofree const char **c = g_new0(const char *, n + 1);
    for (guint i = 0; i < n; i++)
        c[i] = pms_model_set_nth_name(set, i);
    return pms_suggest(name, c, n);
}

const char *pms_suggest_event(const PmsModel *m, const char *name)
{
    g_autofree const char **c = g_new0(const char *, m->n_events + 1);
    for (guint i = 0; i < m->n_events; i++)
        c[i] = m->events[i].name;
    return pms_suggest(name, c, m->n_events);
}

/* The closest of ev's unit masks and m's modifiers (the event takes) to tok. */
static const char *close_attr(const PmsModel *m, const PmsEvent *ev, const char *tok)
{
    g_autoptr(GPtrArray) c = g_ptr_array_new();
    for (guint i = 0; i < ev->n_umasks; i++)
        g_ptr_array_add(c, ev->umasks[i].name);
    for (guint i = 0; i < m->n_mods; i++)
        if (ev->modifiers & (1u << i))
            g_ptr_array_add(c, m->mods[i].name);
    return pms_suggest(tok, (const char *const *)c->pdata, c->len);
}

char *pms_suggest_for_string(const PmsModelSet *set, const char *str, const GError *err)
{
    if (!set || !str || !err || err->domain != PMS_ENCODE_ERROR ||
        (err->code != PMS_ERR_NOTFOUND && err->code != PMS_ERR_ATTR))
        return g_strdup("");
    const char *sep = strstr(str, "::");
    if (!sep)
        return g_strdup("");
    g_autofree char *pmu = g_strndup(str, (gsize)(sep - str));
    const PmsModel *m = pms_model_set_get(set, pmu);
    if (!m) {
        const char *best = pms_suggest_pmu(set, pmu);
        return best ? g_strdup_printf(" (did you mean '%s::%s'?)", best, sep + 2) : g_strdup("");
    }
    g_auto(GStrv) parts = g_strsplit(sep + 2, ":", -1);
    if (!parts[0] || !parts[0][0])
        return g_strdup("");
    const PmsEvent *ev = pms_model_event(m, parts[0]);
    if (!ev) {
        const char *best = pms_suggest_event(m, parts[0]);
        return best ? g_strdup_printf(" (did you mean '%s::%s'?)", m->name, best) : g_strdup("");
    }
    for (guint i = 1; parts[i]; i++) {
        char *eq = strchr(parts[i], '=');
        if (eq)
            *eq = '\0';
        if (!parts[i][0] || pms_event_umask(ev, parts[i]) || pms_model_modifier(m, parts[i]))
            continue;
        const char *best = close_attr(m, ev, parts[i]);
        return best ? g_strdup_printf(" (did you mean '%s' for '%s'?)", best, parts[i]) : g_strdup("");
    }
    return g_strdup("");
}
