/* pmusim models — the [perf] section: perf's syntax for the model's events
 * (model.h PmsPerf, docs/model-format.md).  The loader adds the keys as it
 * reads them and resolves the section once the registers are known; the
 * image stores the keys as written and its reader does the same, so both
 * paths check the section with this code. */
#include <string.h>
#include "model_priv.h"

typedef struct {
    PmsPerf pub; /* first: a PmsPerf * is a Perf * */
    GPtrArray *keys, *values;
    GPtrArray *strings; /* what pub's strings point to */
    GArray *terms;      /* PmsPerfTerm */
    char *owned_fields;
} Perf;

PmsPerf *pms_perf_new(void)
{
    Perf *p = g_new0(Perf, 1);
    p->keys = g_ptr_array_new_with_free_func(g_free);
    p->values = g_ptr_array_new_with_free_func(g_free);
    p->strings = g_ptr_array_new_with_free_func(g_free);
    p->terms = g_array_new(FALSE, TRUE, sizeof(PmsPerfTerm));
    return &p->pub;
}

void pms_perf_free(PmsPerf *pub)
{
    Perf *p = (Perf *)pub;
    if (!p)
        return;
    g_ptr_array_unref(p->keys);
    g_ptr_array_unref(p->values);
    g_ptr_array_unref(p->strings);
    g_array_unref(p->terms);
    g_free(p->owned_fields);
    g_free(p);
}

guint pms_perf_n_keys(const PmsPerf *pub)
{
    return ((const Perf *)pub)->keys->len;
}

const char *pms_perf_key(const PmsPerf *pub, guint i, const char **value)
{
    const Perf *p = (const Perf *)pub;
    *value = p->values->pdata[i];
    return p->keys->pdata[i];
}

static const char *keep(Perf *p, const char *s)
{
    char *c = g_strdup(s);
    g_ptr_array_add(p->strings, c);
    return c;
}

/* perf's names: letters, digits, '_' (a PMU name may hold one "%u") */
static gboolean name_ok(const char *s, gboolean pattern)
{
    if (!*s)
        return FALSE;
    for (const char *c = s; *c; c++) {
        if (pattern && c[0] == '%' && c[1] == 'u') {
            pattern = FALSE;
            c++;
        } else if (!g_ascii_isalnum(*c) && *c != '_') {
            return FALSE;
        }
    }
    return TRUE;
}

static gboolean parse_print(const char *w, PmsPerfPrint *out)
{
    static const char *const names[] = {
        [PMS_PERF_HEX] = "hex", [PMS_PERF_HEX2] = "hex2", [PMS_PERF_DEC] = "dec", [PMS_PERF_FLAG] = "flag"
    };
    for (guint i = 0; i < G_N_ELEMENTS(names); i++)
        if (w && strcmp(w, names[i]) == 0) {
            *out = (PmsPerfPrint)i;
            return TRUE;
        }
    return FALSE;
}

gboolean pms_perf_add(PmsPerf *pub, const char *key, const char *value, char **problem)
{
    Perf *p = (Perf *)pub;
    g_ptr_array_add(p->keys, g_strdup(key));
    g_ptr_array_add(p->values, g_strdup(value));
    g_auto(GStrv) w = g_strsplit_set(value, " \t", -1);
    guint n = 0;
    for (guint i = 0; w[i]; i++)
        if (*w[i])
            w[n++] = w[i];
        else
            g_free(w[i]);
    w[n] = NULL;
    PmsPerfTerm t = { 0 };
    if (strcmp(key, "pmu") == 0) {
        if (n != 1 || !name_ok(w[0], TRUE)) {
            *problem = g_strdup("expected perf's PMU name: letters, digits, '_' and at most one %u (the instance)");
            return FALSE;
        }
        pub->pmu = keep(p, w[0]);
    } else if (strcmp(key, "none") == 0 || strcmp(key, "no_priv") == 0) {
        if (!*value) {
            *problem = g_strdup("expected a sentence");
            return FALSE;
        }
        *(strcmp(key, "none") == 0 ? &pub->none : &pub->no_priv) = keep(p, value);
    } else if (strcmp(key, "tool") == 0) {
        if (n != 1) {
            *problem = g_strdup("expected one word: what programs the registers instead of perf");
            return FALSE;
        }
        pub->tool = keep(p, w[0]);
    } else if (strcmp(key, "raw") == 0) {
        if (n != 1 || (strcmp(w[0], "r") != 0 && strcmp(w[0], "config") != 0)) {
            *problem = g_strdup("expected r (rNNNN, the cpu PMU's raw event) or config (PMU/config=0xNNNN/)");
            return FALSE;
        }
        pub->raw_r = strcmp(w[0], "r") == 0;
    } else if (strcmp(key, "raw_mask") == 0) {
        if (n != 1 || !pms_parse_u64(w[0], &pub->raw_mask)) {
            *problem = g_strdup("expected a number: the bits perf takes from a raw config");
            return FALSE;
        }
    } else if (strcmp(key, "owned") == 0) {
        g_free(p->owned_fields);
        p->owned_fields = g_strdup(value);
    } else if (g_str_has_prefix(key, "term.")) {
        t.kind = PMS_PERF_TERM;
        t.name = keep(p, key + 5);
        if (!name_ok(t.name, FALSE) || n < 2 || n > 3 || !parse_print(w[1], &t.print) ||
            (n == 3 && strcmp(w[2], "always") != 0)) {
            *problem = g_strdup("expected term.NAME = FIELD hex|hex2|dec|flag [always]");
            return FALSE;
        }
        t.target = keep(p, w[0]);
        t.always = n == 3;
    } else if (g_str_has_prefix(key, "extra.")) {
        t.kind = PMS_PERF_EXTRA;
        t.target = keep(p, key + 6);
        if (!*t.target || n != 2 || !name_ok(w[0], FALSE) || !parse_print(w[1], &t.print) || t.print == PMS_PERF_FLAG) {
            *problem = g_strdup("expected extra.REGISTER = NAME hex|hex2|dec");
            return FALSE;
        }
        t.name = keep(p, w[0]);
        t.always = TRUE;
    } else if (g_str_has_prefix(key, "priv.")) {
        t.kind = PMS_PERF_PRIV;
        t.name = keep(p, key + 5);
        if (!name_ok(t.name, FALSE) || n != 1) {
            *problem = g_strdup("expected priv.SUFFIX = FIELD (the modifier :SUFFIX sets FIELD alone)");
            return FALSE;
        }
        t.target = keep(p, w[0]);
        t.print = PMS_PERF_FLAG;
    } else if (g_str_has_prefix(key, "lost.")) {
        t.kind = PMS_PERF_LOST;
        t.target = keep(p, key + 5);
        if (!*value) {
            *problem = g_strdup("expected lost.FIELD = SENTENCE (why perf cannot count the same when FIELD is set)");
            return FALSE;
        }
        t.text = keep(p, value);
    } else {
        *problem = g_strdup("unknown key; expected pmu, raw, raw_mask, owned, no_priv, none, tool, "
                            "term.NAME, extra.REGISTER, priv.SUFFIX or lost.FIELD");
        return FALSE;
    }
    if (t.target) {
        g_array_append_val(p->terms, t);
        pub->terms = (const PmsPerfTerm *)(gconstpointer)p->terms->data;
        pub->n_terms = p->terms->len;
    }
    return TRUE;
}

/* The key of term i, for messages. */
static const char *term_key(const Perf *p, guint i)
{
    guint seen = 0;
    for (guint k = 0; k < p->keys->len; k++) {
        const char *key = p->keys->pdata[k];
        if (g_str_has_prefix(key, "term.") || g_str_has_prefix(key, "extra.") || g_str_has_prefix(key, "priv.") ||
            g_str_has_prefix(key, "lost.")) {
            if (seen++ == i)
                return key;
        }
    }
    return "pmu";
}

gboolean pms_perf_resolve(PmsPerf *pub, const PmsModel *m, const char **key, char **problem)
{
    Perf *p = (Perf *)pub;
    if (!pub->pmu) {
        if (pub->n_terms || p->owned_fields || pub->raw_mask || pub->no_priv) {
            *key = pub->n_terms ? term_key(p, 0) : "pmu";
            *problem = g_strdup("a [perf] without pmu (no perf form) takes only none and tool");
            return FALSE;
        }
        if (!pub->none) {
            *key = "none";
            *problem = g_strdup("expected pmu (perf's PMU name) or none (why perf has no form for the model)");
            return FALSE;
        }
        return TRUE;
    }
    if (pub->none || pub->tool) {
        *key = pub->none ? "none" : "tool";
        *problem = g_strdup("none and tool are for a model without a perf form; this one names pmu");
        return FALSE;
    }
    /* the PMU's own event select (a model of several PMUs: its first instance's) */
    const PmsRegister *es = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    const PmsLayout *l = es ? es->layout : NULL;
    for (guint i = 0; i < m->n_regs && !l; i++)
        if (m->regs[i].kind == PMS_REG_EVTSEL)
            l = m->regs[i].layout;
    for (guint i = 0; i < pub->n_terms; i++) {
        const PmsPerfTerm *t = &pub->terms[i];
        if (t->kind == PMS_PERF_EXTRA) {
            if (!pms_model_reg_by_name(m, t->target)) {
                *key = term_key(p, i);
                *problem = g_strdup_printf("no register %s", t->target);
                return FALSE;
            }
        } else if (t->kind == PMS_PERF_TERM && strchr(t->target, '+')) {
            /* FIELD+FIELD: one value whose low bits are the first field's
             * and whose high bits the second's (AMD's event 7:0 + 35:32) */
            g_auto(GStrv) parts = g_strsplit(t->target, "+", -1);
            for (guint j = 0; parts[j]; j++)
                if (!l || g_strv_length(parts) != 2 || !pms_layout_field(l, parts[j])) {
                    *key = term_key(p, i);
                    *problem = g_strdup_printf("no field %s in the event-select layout%s%s (FIELD+FIELD: two fields)",
                                               parts[j], l ? " " : "", l ? l->name : "");
                    return FALSE;
                }
        } else if (!l || !pms_layout_field(l, t->target)) {
            *key = term_key(p, i);
            *problem = g_strdup_printf("no field %s in the event-select layout%s%s", t->target, l ? " " : "",
                                       l ? l->name : "");
            return FALSE;
        }
    }
    pub->owned = 0;
    if (p->owned_fields) {
        g_auto(GStrv) w = g_strsplit_set(p->owned_fields, " \t,", -1);
        for (guint i = 0; w[i]; i++) {
            if (!*w[i])
                continue;
            const PmsField *f = l ? pms_layout_field(l, w[i]) : NULL;
            if (!f) {
                *key = "owned";
                *problem = g_strdup_printf("no field %s in the event-select layout", w[i]);
                return FALSE;
            }
            pub->owned |= pms_field_set(f, 0, ~(guint64)0);
        }
    }
    return TRUE;
}

static PmsPerf no_perf = { 0 };

const PmsPerf *pms_model_perf(const PmsModel *m)
{
    return m->perf ? m->perf : &no_perf;
}
