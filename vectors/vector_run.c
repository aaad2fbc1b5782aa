/* pmusim — the vector runner: asks an encoder (any backend, through a
 * callback) for every vector and counts passes and failures per PMU.  Every
 * vector of a selected kind ends as passed or failed; none is skipped. */
#include "vector_internal.h"

#include <string.h>

char *pms_vector_escape(const char *bytes, gsize len, gsize max_len)
{
    GString *out = g_string_new(NULL);
    gsize head = len, tail_from = len;
    if (max_len && len > max_len) {
        head = max_len / 2;
        tail_from = len - max_len / 4;
    }
    for (gsize i = 0; i < len; i++) {
        if (i == head && tail_from > head) {
            g_string_append_printf(out, "...(%zu bytes)...", tail_from - head);
            i = tail_from - 1;
            continue;
        }
        guchar c = (guchar)bytes[i];
        if (c == '\\' || c == '"')
            g_string_append_printf(out, "\\%c", c);
        else if (c >= 0x20 && c < 0x7f)
            g_string_append_c(out, (char)c);
        else
            g_string_append_printf(out, "\\x%02x", c);
    }
    return g_string_free(out, FALSE);
}

static char *codes_str(const guint64 *codes, guint n)
{
    if (n == 0)
        return g_strdup("-");
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < n; i++)
        g_string_append_printf(s, "%s0x%" G_GINT64_MODIFIER "x", i ? "," : "", codes[i]);
    return g_string_free(s, FALSE);
}

char *pms_vector_check_answer(const PmsVector *v, const PmsVectorAnswer *a)
{
    g_autofree char *want_codes = codes_str(v->codes, v->n_codes);
    guint got_n = MIN(a->n_codes, PMS_VECTOR_MAX_CODES);
    g_autofree char *got_codes = codes_str(a->codes, got_n);
    gboolean ok = strcmp(v->ret, a->ret) == 0 && v->n_codes == got_n &&
        memcmp(v->codes, a->codes, v->n_codes * sizeof(guint64)) == 0;
    gboolean fstr_ok = !v->fstr || !ok || (a->fstr && strcmp(v->fstr, a->fstr) == 0);
    if (ok && fstr_ok)
        return NULL;
    g_autofree char *ev = pms_vector_escape(v->event, v->event_len, 120);
    if (!ok)
        return g_strdup_printf("%s:%u: \"%s\": expected %s %s, got %s %s (source: %s)", v->file, v->line, ev, v->ret,
                               want_codes, a->ret[0] ? a->ret : "(no answer)", got_codes, v->source);
    g_autofree char *want_f = pms_vector_escape(v->fstr, strlen(v->fstr), 0);
    g_autofree char *got_f = pms_vector_escape(a->fstr ? a->fstr : "", a->fstr ? strlen(a->fstr) : 0, 0);
    return g_strdup_printf("%s:%u: \"%s\": expected fstr \"%s\", got \"%s\" (source: %s)", v->file, v->line, ev, want_f,
                           got_f, v->source);
}

static void outcome_free(gpointer p)
{
    PmsVectorOutcome *o = p;
    g_free(o->message);
    g_free(o->cause);
    g_free(o);
}

static void summary_free(gpointer p)
{
    PmsVectorPmuSummary *s = p;
    g_free(s->pmu);
    g_free(s);
}

static PmsVectorPmuSummary *summary_for(PmsVectorReport *r, GHashTable *index, const char *pmu)
{
    PmsVectorPmuSummary *s = g_hash_table_lookup(index, pmu);
    if (!s) {
        s = g_new0(PmsVectorPmuSummary, 1);
        s->pmu = g_strdup(pmu);
        g_ptr_array_add(r->pmus, s);
        g_hash_table_insert(index, s->pmu, s);
    }
    return s;
}

/* Why an encoding answer failed, without the vector's particulars: the key
 * failures are grouped by.  Codes that differ are explained (the fields) by
 * ops->explain when the caller knows the model. */
static char *encode_cause(const PmsVector *v, const PmsVectorAnswer *a, const PmsVectorOps *ops, char **msg)
{
    if (strcmp(a->ret, "BACKEND_CRASH") == 0)
        return g_strdup("the backend crashed");
    if (strcmp(v->ret, a->ret) != 0)
        return g_strdup_printf("expected %s, got %s", v->ret, a->ret[0] ? a->ret : "(no answer)");
    if (v->n_codes != MIN(a->n_codes, PMS_VECTOR_MAX_CODES))
        return g_strdup_printf("expected %u code(s), got %u", v->n_codes, a->n_codes);
    if (memcmp(v->codes, a->codes, v->n_codes * sizeof(guint64)) != 0) {
        char *cause = NULL;
        g_autofree char *why = ops->explain ? ops->explain(v, a, &cause, ops->user_data) : NULL;
        if (why) {
            char *longer = g_strdup_printf("%s; %s", *msg, why);
            g_free(*msg);
            *msg = longer;
        }
        return cause ? cause : g_strdup("the codes differ");
    }
    return g_strdup("the fstr differs");
}

char *pms_vector_run_one(const PmsVector *v, const PmsVectorOps *ops, gboolean *crashed, char **cause)
{
    if (v->kind == PMS_VECTOR_SIM) {
        if (!ops->sim) {
            *cause = g_strdup("no simulator");
            return g_strdup_printf("%s:%u: no simulator available to run this vector", v->file, v->line);
        }
        char *msg = NULL;
        if (ops->sim(v, &msg, ops->user_data)) {
            g_free(msg);
            return NULL;
        }
        *crashed = msg && strstr(msg, "BACKEND_CRASH") != NULL;
        if (!*crashed && ops->explain)
            g_free(ops->explain(v, NULL, cause, ops->user_data));
        if (!*cause)
            *cause = g_strdup(*crashed ? "the backend crashed" : "a simulation vector failed");
        return msg ? msg : g_strdup_printf("%s:%u: simulation vector failed", v->file, v->line);
    }
    if (!ops->encode) {
        *cause = g_strdup("no encoder");
        return g_strdup_printf("%s:%u: no encoder available to run this vector", v->file, v->line);
    }
    PmsVectorAnswer a;
    memset(&a, 0, sizeof a);
    ops->encode(v->event, v->event_len, &a, ops->user_data);
    a.ret[sizeof a.ret - 1] = '\0';
    char *msg = pms_vector_check_answer(v, &a);
    *crashed = msg && strcmp(a.ret, "BACKEND_CRASH") == 0;
    if (msg)
        *cause = encode_cause(v, &a, ops, &msg);
    g_free(a.fstr);
    return msg;
}

PmsVectorReport *pms_vectors_run(const PmsVectorSet *set, guint kinds_mask, const PmsVectorOps *ops)
{
    return pms_vectors_run_pmus(set, kinds_mask, NULL, ops);
}

PmsVectorReport *pms_vectors_run_pmus(const PmsVectorSet *set, guint kinds_mask, const char *const *pmus,
                                      const PmsVectorOps *ops)
{
    PmsVectorReport *r = g_new0(PmsVectorReport, 1);
    r->outcomes = g_ptr_array_new_with_free_func(outcome_free);
    r->pmus = g_ptr_array_new_with_free_func(summary_free);
    g_autoptr(GHashTable) index = g_hash_table_new(g_str_hash, g_str_equal);
    gint64 start = g_get_monotonic_time();
    guint total = 0;
    for (guint i = 0; ops->progress && i < pms_vector_set_count(set); i++) {
        const PmsVector *v = pms_vector_set_nth(set, i);
        total += (kinds_mask & (1u << v->kind)) && (!pmus || g_strv_contains(pmus, v->pmu));
    }
    for (guint i = 0; i < pms_vector_set_count(set); i++) {
        const PmsVector *v = pms_vector_set_nth(set, i);
        if (!(kinds_mask & (1u << v->kind)) || (pmus && !g_strv_contains(pmus, v->pmu)))
            continue;
        PmsVectorOutcome *o = g_new0(PmsVectorOutcome, 1);
        o->vector = v;
        gint64 t0 = g_get_monotonic_time();
        o->message = pms_vector_run_one(v, ops, &o->crashed, &o->cause);
        o->seconds = (double)(g_get_monotonic_time() - t0) / G_USEC_PER_SEC;
        o->passed = o->message == NULL;
        g_ptr_array_add(r->outcomes, o);
        PmsVectorPmuSummary *s = summary_for(r, index, v->pmu);
        s->seconds += o->seconds;
        s->vectors++;
        r->vectors++;
        if (o->passed) {
            s->passed++;
            r->passed++;
        } else {
            s->failed++;
            r->failed++;
        }
        if (ops->progress)
            ops->progress(r->vectors, total, v->pmu, ops->user_data);
    }
    r->seconds = (double)(g_get_monotonic_time() - start) / G_USEC_PER_SEC;
    return r;
}

void pms_vector_report_free(PmsVectorReport *r)
{
    if (!r)
        return;
    g_ptr_array_unref(r->outcomes);
    g_ptr_array_unref(r->pmus);
    g_free(r);
}
