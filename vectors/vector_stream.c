/* pmusim — the streaming runner: vector files parsed, run and reported one
 * vector at a time, so that a corpus of any size runs in bounded memory (issue
 * 21).  What the caller's report needs of each vector it takes from
 * ops->outcome; the stream keeps only the counts per PMU. */
#include "vector_internal.h"

#include <string.h>

struct PmsVectorStream {
    guint kinds_mask;
    const char *const *pmus; /* the caller's selection (NULL: every PMU) */
    const PmsVectorOps *ops; /* NULL: count only */
    guint total;             /* for ops->progress */
    PmsVectorReport *report; /* counts and summaries, no outcomes */
    GHashTable *index;       /* pmu -> PmsVectorPmuSummary* of report */
    GPtrArray *seen;         /* char*: PMUs with a vector, NULL-terminated */
    GHashTable *seen_set;    /* the same names */
    guint live, peak_live;   /* vectors parsed and not yet freed */
};

static void summary_free(gpointer p)
{
    PmsVectorPmuSummary *s = p;
    g_free(s->pmu);
    g_free(s);
}

PmsVectorStream *pms_vector_stream_new(guint kinds_mask, const char *const *pmus, const PmsVectorOps *ops)
{
    PmsVectorStream *s = g_new0(PmsVectorStream, 1);
    s->kinds_mask = kinds_mask;
    s->pmus = pmus;
    s->ops = ops;
    s->report = g_new0(PmsVectorReport, 1);
    s->report->outcomes = g_ptr_array_new();
    s->report->pmus = g_ptr_array_new_with_free_func(summary_free);
    s->index = g_hash_table_new(g_str_hash, g_str_equal);
    s->seen = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(s->seen, NULL);
    s->seen_set = g_hash_table_new(g_str_hash, g_str_equal);
    return s;
}

void pms_vector_stream_free(PmsVectorStream *s)
{
    if (!s)
        return;
    pms_vector_report_free(s->report);
    g_hash_table_destroy(s->index);
    g_hash_table_destroy(s->seen_set);
    g_ptr_array_unref(s->seen);
    g_free(s);
}

void pms_vector_stream_set_total(PmsVectorStream *s, guint total)
{
    s->total = total;
}

const char *const *pms_vector_stream_pmus(const PmsVectorStream *s)
{
    return (const char *const *)s->seen->pdata;
}

guint pms_vector_stream_peak_live(const PmsVectorStream *s)
{
    return s->peak_live;
}

PmsVectorReport *pms_vector_stream_report(PmsVectorStream *s)
{
    PmsVectorReport *r = g_new0(PmsVectorReport, 1);
    *r = *s->report;
    r->outcomes = g_ptr_array_new();
    r->pmus = g_ptr_array_new_with_free_func(summary_free);
    for (guint i = 0; i < s->report->pmus->len; i++) {
        PmsVectorPmuSummary *sum = g_memdup2(g_ptr_array_index(s->report->pmus, i), sizeof *sum);
        sum->pmu = g_strdup(sum->pmu);
        g_ptr_array_add(r->pmus, sum);
    }
    return r;
}

static PmsVectorPmuSummary *summary_for(PmsVectorStream *s, const char *pmu)
{
    PmsVectorPmuSummary *sum = g_hash_table_lookup(s->index, pmu);
    if (!sum) {
        sum = g_new0(PmsVectorPmuSummary, 1);
        sum->pmu = g_strdup(pmu);
        g_ptr_array_add(s->report->pmus, sum);
        g_hash_table_insert(s->index, sum->pmu, sum);
    }
    return sum;
}

static void drop(PmsVectorStream *s, PmsVector *v)
{
    if (s->ops && s->ops->release)
        s->ops->release(v, s->ops->user_data);
    pms_vector_free_one(v);
    s->live--;
}

/* One parsed vector (owned): checked, run if selected, reported, freed. */
static gboolean stream_one(PmsVector *v, gpointer user_data, GError **error)
{
    PmsVectorStream *s = user_data;
    const PmsVectorOps *ops = s->ops;
    s->live++;
    s->peak_live = MAX(s->peak_live, s->live);
    if (!g_hash_table_contains(s->seen_set, v->pmu)) {
        char *name = g_strdup(v->pmu);
        g_ptr_array_insert(s->seen, (gint)s->seen->len - 1, name);
        g_hash_table_add(s->seen_set, name);
    }
    if (ops && ops->check && !ops->check(v, ops->user_data, error)) {
        drop(s, v);
        return FALSE;
    }
    if (!(s->kinds_mask & (1u << v->kind)) || (s->pmus && !g_strv_contains(s->pmus, v->pmu))) {
        drop(s, v);
        return TRUE;
    }
    PmsVectorReport *r = s->report;
    PmsVectorPmuSummary *sum = summary_for(s, v->pmu);
    sum->vectors++;
    r->vectors++;
    if (!ops) {
        drop(s, v);
        return TRUE;
    }
    PmsVectorOutcome o = { .vector = v };
    gint64 t0 = g_get_monotonic_time();
    o.message = pms_vector_run_one(v, ops, &o.crashed, &o.cause);
    o.seconds = (double)(g_get_monotonic_time() - t0) / G_USEC_PER_SEC;
    o.passed = o.message == NULL;
    sum->seconds += o.seconds;
    r->seconds += o.seconds; /* the vectors' run time, not the parsing */
    if (o.passed) {
        sum->passed++;
        r->passed++;
    } else {
        sum->failed++;
        r->failed++;
    }
    if (ops->outcome)
        ops->outcome(&o, ops->user_data);
    if (ops->progress)
        ops->progress(r->vectors, s->total, v->pmu, ops->user_data);
    g_free(o.message);
    g_free(o.cause);
    drop(s, v);
    return TRUE;
}

/* One file: a .enc file vector by vector; a .sim file parsed whole (its
 * blocks and the stimulus files they reference), then its vectors one by one. */
static gboolean stream_file(PmsVectorKind kind, const char *data, gsize len, const char *name, const char *pmu,
                            PmsVecFetchFunc fetch, const char *dir, gpointer user_data, GError **error)
{
    PmsVectorStream *s = user_data;
    if (kind != PMS_VECTOR_SIM)
        return pms_vector_enc_parse_each(kind, data, len, name, pmu, stream_one, s, error);
    g_autoptr(PmsVectorSet) scratch = pms_vector_set_new();
    if (!pms_vector_set_parse(scratch, kind, data, len, name, pmu, error))
        return FALSE;
    if (fetch && !pms_vector_sim_resolve(scratch, fetch, (gpointer)dir, error))
        return FALSE;
    /* the file's vectors handed over one at a time, each freed after its run */
    guint n = pms_vector_set_count(scratch);
    g_autoptr(GPtrArray) taken = g_ptr_array_new_with_free_func(pms_vector_free_one);
    pms_vector_set_steal_all(scratch, taken);
    s->live += n; /* held by this file until each is streamed */
    s->peak_live = MAX(s->peak_live, s->live);
    for (guint i = 0; i < n; i++) {
        PmsVector *v = g_steal_pointer(&g_ptr_array_index(taken, i));
        s->live--;
        if (!stream_one(v, s, error)) {
            s->live -= n - i - 1;
            return FALSE;
        }
    }
    return TRUE;
}

gboolean pms_vector_stream_data(PmsVectorStream *s, PmsVectorKind kind, const char *data, gsize len, const char *file,
                                const char *pmu, GError **error)
{
    return stream_file(kind, data, len, file, pmu, NULL, NULL, s, error);
}

gboolean pms_vector_stream_builtin(PmsVectorStream *s, guint files_mask, GError **error)
{
    return pms_vector_each_builtin_file(files_mask, stream_file, s, error);
}

gboolean pms_vector_stream_dir(PmsVectorStream *s, const char *dir, GError **error)
{
    return pms_vector_each_dir_file(dir, stream_file, s, error);
}
