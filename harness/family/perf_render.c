/* pmusim — perf's forms of an encoding (`encode --format=perf`), rendered
 * from the model's [perf] declaration alone (model.h PmsPerf,
 * docs/model-format.md): perf's PMU name, its format terms and the
 * event-select field or extra register each one prints, the raw config,
 * the privilege modifiers and the bits perf owns.  No family has code here:
 * a new PMU gets its perf syntax by declaring it. */
#include "family_impl.h"

#include <string.h>

/* perf's PMU name: every "%u" of the declared name is the model's instance. */
static char *pmu_name(const PmsModel *m, const PmsPerf *p)
{
    GString *s = g_string_new(NULL);
    for (const char *c = p->pmu; *c; c++) {
        if (c[0] == '%' && c[1] == 'u') {
            g_string_append_printf(s, "%u", m->instance);
            c++;
        } else {
            g_string_append_c(s, *c);
        }
    }
    return g_string_free(s, FALSE);
}

static const PmsField *sel_field(const PmsModel *m, const char *name)
{
    return pms_register_field(pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0), name);
}

static guint64 sel_get(const PmsModel *m, guint64 sel, const char *name)
{
    const char *plus = strchr(name, '+');
    if (plus) {
        /* FIELD+FIELD: the second field's bits above the first's (AMD's 12-bit event code) */
        g_autofree char *lo_name = g_strndup(name, (gsize)(plus - name));
        const PmsField *lo = sel_field(m, lo_name);
        return sel_get(m, sel, lo_name) | (sel_get(m, sel, plus + 1) << (lo ? lo->width : 0));
    }
    const PmsField *f = sel_field(m, name);
    return f ? pms_field_get(f, sel) : 0;
}

static void print_value(GString *s, PmsPerfPrint print, guint64 v)
{
    switch (print) {
    case PMS_PERF_HEX:
        g_string_append_printf(s, "0x%" G_GINT64_MODIFIER "x", v);
        break;
    case PMS_PERF_HEX2:
        g_string_append_printf(s, "0x%02" G_GINT64_MODIFIER "x", v);
        break;
    case PMS_PERF_DEC:
        g_string_append_printf(s, "%" G_GUINT64_FORMAT, v);
        break;
    case PMS_PERF_FLAG:
        break;
    }
}

/* The extra-register term of the event (its codes[1]), or NULL. */
static const PmsPerfTerm *extra_term(const PmsEncoding *enc, const PmsPerf *p)
{
    if (enc->n_codes < 2 || enc->event == NULL || enc->event->extra_reg == NULL)
        return NULL;
    for (guint i = 0; i < p->n_terms; i++)
        if (p->terms[i].kind == PMS_PERF_EXTRA && g_ascii_strcasecmp(p->terms[i].target, enc->event->extra_reg) == 0)
            return &p->terms[i];
    return NULL;
}

/* The privilege modifier: the one priv field set alone; "" for all of them
 * (perf's default) or none. */
static const char *priv_suffix(const PmsModel *m, const PmsPerf *p, guint64 sel)
{
    const char *one = NULL;
    guint n_set = 0, n = 0;
    for (guint i = 0; i < p->n_terms; i++) {
        if (p->terms[i].kind != PMS_PERF_PRIV)
            continue;
        n++;
        if (sel_get(m, sel, p->terms[i].target)) {
            n_set++;
            one = p->terms[i].name;
        }
    }
    return n_set == 1 && n > 1 ? one : "";
}

char *pms_cli_perf_symbolic(const PmsEncoding *enc)
{
    const PmsModel *m = enc->model;
    const PmsPerf *p = pms_model_perf(m);
    if (!p->pmu)
        return g_strdup_printf("(no perf syntax: %s)", p->none ? p->none : "the model declares no perf form");
    guint64 sel = enc->n_codes ? enc->codes[0] : 0;
    g_autofree char *pmu = pmu_name(m, p);
    GString *s = g_string_new(pmu);
    char sep = '/';
    for (guint i = 0; i < p->n_terms; i++) {
        const PmsPerfTerm *t = &p->terms[i];
        if (t->kind != PMS_PERF_TERM)
            continue;
        guint64 v = sel_get(m, sel, t->target);
        if (!v && !t->always)
            continue;
        g_string_append_printf(s, "%c%s", sep, t->name);
        if (t->print != PMS_PERF_FLAG) {
            g_string_append_c(s, '=');
            print_value(s, t->print, v);
        }
        sep = ',';
    }
    const PmsPerfTerm *x = extra_term(enc, p);
    if (x) {
        g_string_append_printf(s, "%c%s=", sep, x->name);
        print_value(s, x->print, enc->codes[1]);
    }
    if (sep == '/' && !x)
        g_string_append_c(s, '/');
    g_string_append_printf(s, "/%s", priv_suffix(m, p, sel));
    return g_string_free(s, FALSE);
}

char *pms_cli_perf_raw(const PmsEncoding *enc)
{
    const PmsModel *m = enc->model;
    const PmsPerf *p = pms_model_perf(m);
    guint64 sel = enc->n_codes ? enc->codes[0] : 0;
    if (!p->pmu) {
        /* no perf form: the registers as the tool that programs them takes them */
        if (!p->tool)
            return g_strdup_printf("codes[0]=0x%" G_GINT64_MODIFIER "x", sel);
        GString *s = g_string_new(p->tool);
        g_string_append_c(s, ':');
        for (guint i = 0; i < enc->n_writes; i++)
            g_string_append_printf(s, " %s=0x%" G_GINT64_MODIFIER "x", enc->writes[i].name, enc->writes[i].value);
        if (!enc->n_writes)
            g_string_append_printf(s, " codes[0]=0x%" G_GINT64_MODIFIER "x", sel);
        return g_string_free(s, FALSE);
    }
    g_autofree char *pmu = pmu_name(m, p);
    const char *suffix = priv_suffix(m, p, sel);
    const PmsPerfTerm *x = extra_term(enc, p);
    GString *s = g_string_new(NULL);
    if (p->raw_r) {
        g_string_append_printf(s, "r%" G_GINT64_MODIFIER "x%s%s", sel & p->raw_mask, *suffix ? ":" : "", suffix);
        if (!x)
            return g_string_free(s, FALSE);
        /* a raw rNNNN cannot carry config1: give the generic config terms too */
        g_string_append(s, "  ");
    }
    g_string_append_printf(s, "%s/config=0x%" G_GINT64_MODIFIER "x", pmu, sel & p->raw_mask);
    if (x)
        g_string_append_printf(s, ",config1=0x%" G_GINT64_MODIFIER "x", enc->codes[1]);
    g_string_append_printf(s, "/%s", suffix);
    return g_string_free(s, FALSE);
}

char *pms_cli_perf_inexpressible(const PmsEncoding *enc)
{
    const PmsModel *m = enc->model;
    const PmsPerf *p = pms_model_perf(m);
    if (!p->pmu)
        return NULL; /* no perf form at all, said by the symbolic form */
    guint64 sel = enc->n_codes ? enc->codes[0] : 0;
    /* perf's PMU/.../ without a privilege modifier counts at every level: an
     * encoding that counts at none cannot be written */
    guint64 expressible = p->raw_mask;
    gboolean privs = FALSE, any_priv = FALSE;
    for (guint i = 0; i < p->n_terms; i++) {
        if (p->terms[i].kind != PMS_PERF_PRIV)
            continue;
        const PmsField *f = sel_field(m, p->terms[i].target);
        privs = TRUE;
        any_priv |= f && pms_field_get(f, sel);
        expressible |= f ? pms_field_set(f, 0, ~(guint64)0) : 0;
    }
    if (privs && !any_priv)
        return g_strdup(p->no_priv ? p->no_priv
                                   : "no privilege level is counted, and perf cannot say so: without a privilege "
                                     "modifier it counts at all of them");
    for (guint i = 0; i < p->n_terms; i++)
        if (p->terms[i].kind == PMS_PERF_LOST && sel_get(m, sel, p->terms[i].target))
            return g_strdup(p->terms[i].text);
    if (enc->n_codes > 1 && !extra_term(enc, p))
        return g_strdup_printf("the event's extra register value 0x%" G_GINT64_MODIFIER "x has no perf term",
                               enc->codes[1]);
    /* bits perf sets or clears itself whatever the string says are not lost */
    guint64 lost = sel & ~(expressible | p->owned);
    if (lost)
        return g_strdup_printf("bits 0x%" G_GINT64_MODIFIER "x of 0x%" G_GINT64_MODIFIER "x have no perf term: "
                               "perf would program a different value",
                               lost, sel);
    if (enc->n_codes > 2)
        return g_strdup_printf("the encoding has %u values; perf takes one event select and one extra register",
                               enc->n_codes);
    return NULL;
}
