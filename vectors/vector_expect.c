/* pmusim — expectations: the vectors a backend is known to fail, and why
 * (vectors/expected/<backend>.txt; format in docs/vectors-format.md,
 * "Expectations").  A report judged against them tells a known difference
 * (expected failure) from a new one, and an entry that no longer holds
 * (stale) from both, so the file cannot rot. */
#include "vector_internal.h"
#include "embedded.h"

#include <string.h>

typedef struct {
    guint line;
    char *file; /* "glm/events.enc"; NULL for a pmu entry */
    char *pmu;  /* pmu entry: the PMU; exact entry: the file's folder */
    char *key;  /* exact entry: event string or sim vector name */
    gsize key_len;
    char *reason;
    char *where; /* "FILE:LINE: reason" for reports */
} Entry;

struct PmsExpectations {
    char *file;
    GPtrArray *entries; /* Entry* */
    GHashTable *exact;  /* "file\nkey" -> Entry* */
    GHashTable *pmus;   /* pmu -> Entry* */
};

static void entry_free(gpointer p)
{
    Entry *e = p;
    g_free(e->file);
    g_free(e->pmu);
    g_free(e->key);
    g_free(e->reason);
    g_free(e->where);
    g_free(e);
}

void pms_expectations_free(PmsExpectations *e)
{
    if (!e)
        return;
    g_hash_table_destroy(e->exact);
    g_hash_table_destroy(e->pmus);
    g_ptr_array_free(e->entries, TRUE);
    g_free(e->file);
    g_free(e);
}

guint pms_expectations_count(const PmsExpectations *e)
{
    return e ? e->entries->len : 0;
}

const char *pms_expectations_file(const PmsExpectations *e)
{
    return e ? e->file : NULL;
}

static char *exact_key(const char *file, const char *key, gsize len)
{
    GString *s = g_string_new(file);
    g_string_append_c(s, '\n');
    g_string_append_len(s, key, (gssize)len);
    return g_string_free(s, FALSE);
}

/* "pmu/topic.enc|.sim": two parts, no blank, a vector file's extension. */
static gboolean valid_file(const char *f)
{
    const char *slash = strchr(f, '/');
    PmsVectorKind kind;
    return slash && slash != f && !strchr(slash + 1, '/') && slash[1] && pms_vector_kind_for_name(slash + 1, &kind);
}

/* The reason: the rest of the line, trimmed, never empty. */
static char *rest_of_line(PmsVecLexer *lx)
{
    pms_vlex_skip_blanks(lx);
    gsize end = lx->len;
    while (end > lx->pos && (lx->s[end - 1] == ' ' || lx->s[end - 1] == '\t' || lx->s[end - 1] == '\r'))
        end--;
    return end > lx->pos ? g_strndup(lx->s + lx->pos, end - lx->pos) : NULL;
}

PmsExpectations *pms_expectations_parse(const char *data, gsize len, const char *file, GError **error)
{
    g_autoptr(PmsExpectations) e = g_new0(PmsExpectations, 1);
    e->file = g_strdup(file);
    e->entries = g_ptr_array_new_with_free_func(entry_free);
    e->exact = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    e->pmus = g_hash_table_new(g_str_hash, g_str_equal);
    PmsVecLines it = { .file = file, .data = data, .len = len };
    PmsVecLexer lx;
    while (pms_vlex_next_line(&it, &lx, " (an expectations file is text)", error)) {
        g_autofree char *first = pms_vlex_word(&lx);
        Entry *en = g_new0(Entry, 1);
        en->line = lx.line;
        g_ptr_array_add(e->entries, en);
        if (strcmp(first, "pmu") == 0) {
            pms_vlex_skip_blanks(&lx);
            en->pmu = pms_vlex_word(&lx);
            if (!en->pmu[0] || strchr(en->pmu, '/'))
                return pms_vlex_fail(&lx, error, "expected a PMU name after 'pmu'"), NULL;
        } else {
            if (!valid_file(first)) {
                lx.pos -= strlen(first);
                return pms_vlex_fail(&lx, error,
                                     "expected 'pmu NAME REASON' or 'PMU/FILE.enc|.sim \"STRING\" REASON', "
                                     "not '%s'",
                                     first),
                       NULL;
            }
            en->file = g_strdup(first);
            en->pmu = g_strndup(first, (gsize)(strchr(first, '/') - first));
            g_autoptr(GString) key = g_string_new(NULL);
            if (!pms_vlex_string(&lx, "the event string (or sim vector name)", key, error))
                return NULL;
            en->key_len = key->len;
            en->key = g_string_free(g_steal_pointer(&key), FALSE);
        }
        en->reason = rest_of_line(&lx);
        if (!en->reason)
            return pms_vlex_fail(&lx, error, "expected a reason (text, or a pointer to docs/libpfm4-differences.md)"),
                   NULL;
        en->where = g_strdup_printf("%s:%u: %s", file, en->line, en->reason);
        Entry *old;
        if (en->file) {
            char *k = exact_key(en->file, en->key, en->key_len);
            if ((old = g_hash_table_lookup(e->exact, k))) {
                g_free(k);
                lx.pos = 0;
                return pms_vlex_fail(&lx, error, "the same vector is listed at line %u", old->line), NULL;
            }
            g_hash_table_insert(e->exact, k, en);
        } else {
            if ((old = g_hash_table_lookup(e->pmus, en->pmu))) {
                lx.pos = 0;
                return pms_vlex_fail(&lx, error, "PMU %s is listed at line %u", en->pmu, old->line), NULL;
            }
            g_hash_table_insert(e->pmus, en->pmu, en);
        }
    }
    if (it.failed)
        return NULL;
    return g_steal_pointer(&e);
}

PmsExpectations *pms_expectations_builtin(const char *backend, GError **error)
{
    g_autofree char *path = g_strdup_printf("/org/pmusim/expected/%s.txt", backend);
    g_autoptr(GBytes) bytes = pms_embedded_lookup(&pms_expected_embedded, path, NULL);
    if (!bytes)
        return NULL;
    gsize len = 0;
    const char *data = g_bytes_get_data(bytes, &len);
    g_autofree char *name = g_strdup_printf("vectors/expected/%s.txt", backend);
    return pms_expectations_parse(data, len, name, error);
}

char *pms_vector_expect_file(const PmsVector *v)
{
    const char *f = v->file;
    const char *last = strrchr(f, '/');
    if (!last)
        return g_strdup_printf("%s/%s", v->pmu, f);
    const char *p = last;
    while (p > f && p[-1] != '/')
        p--;
    return g_strdup(p == last ? last + 1 : p);
}

void pms_expect_result_free(PmsExpectResult *res)
{
    if (!res)
        return;
    g_free(res->verdict);
    g_free(res->reason);
    g_ptr_array_free(res->unmatched, TRUE);
    g_free(res);
}

struct PmsExpectJudge {
    const PmsExpectations *e;
    GHashTable *hit;      /* exact Entry* matched */
    GHashTable *pmu_fail; /* pmu Entry* with a failure */
    GHashTable *pmus_run; /* PMU names (owned) with a vector judged */
};

PmsExpectJudge *pms_expect_judge_new(const PmsExpectations *e)
{
    PmsExpectJudge *j = g_new0(PmsExpectJudge, 1);
    j->e = e;
    j->hit = g_hash_table_new(NULL, NULL);
    j->pmu_fail = g_hash_table_new(NULL, NULL);
    j->pmus_run = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    return j;
}

void pms_expect_judge_free(PmsExpectJudge *j)
{
    if (!j)
        return;
    g_hash_table_destroy(j->hit);
    g_hash_table_destroy(j->pmu_fail);
    g_hash_table_destroy(j->pmus_run);
    g_free(j);
}

PmsVerdict pms_expect_judge_one(PmsExpectJudge *j, const PmsVector *v, gboolean passed, const char **reason)
{
    const PmsExpectations *e = j->e;
    if (!g_hash_table_contains(j->pmus_run, v->pmu))
        g_hash_table_add(j->pmus_run, g_strdup(v->pmu));
    Entry *en = NULL;
    if (e) {
        g_autofree char *file = pms_vector_expect_file(v);
        const PmsSimVector *sv = pms_vector_sim(v);
        const char *key = sv ? sv->name : v->event;
        gsize klen = sv ? strlen(sv->name) : v->event_len;
        g_autofree char *k = exact_key(file, key, klen);
        en = g_hash_table_lookup(e->exact, k);
        if (en)
            g_hash_table_add(j->hit, en);
        else if ((en = g_hash_table_lookup(e->pmus, v->pmu)) && !passed)
            g_hash_table_add(j->pmu_fail, en);
    }
    *reason = en ? en->where : NULL;
    if (passed)
        return en && en->file ? PMS_VERDICT_STALE : PMS_VERDICT_PASS;
    return en ? PMS_VERDICT_XFAIL : PMS_VERDICT_FAIL;
}

GPtrArray *pms_expect_judge_unmatched(PmsExpectJudge *j, guint kinds_mask)
{
    const PmsExpectations *e = j->e;
    GPtrArray *unmatched = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; e && i < e->entries->len; i++) {
        const Entry *en = g_ptr_array_index(e->entries, i);
        if (!g_hash_table_contains(j->pmus_run, en->pmu))
            continue; /* that PMU was not run */
        if (en->file) {
            PmsVectorKind kind;
            pms_vector_kind_for_name(strchr(en->file, '/') + 1, &kind);
            if ((kinds_mask & (1u << kind)) && !g_hash_table_contains(j->hit, en)) {
                g_autofree char *k = pms_vector_escape(en->key, en->key_len, 80);
                g_ptr_array_add(unmatched,
                                g_strdup_printf("%s:%u: no vector %s \"%s\" was run: remove the entry", e->file,
                                                en->line, en->file, k));
            }
        } else if (!g_hash_table_contains(j->pmu_fail, en)) {
            g_ptr_array_add(
                unmatched,
                g_strdup_printf("%s:%u: no vector of PMU %s failed: remove the entry", e->file, en->line, en->pmu));
        }
    }
    return unmatched;
}

PmsExpectResult *pms_expectations_apply(const PmsExpectations *e, const PmsVectorReport *r, guint kinds_mask)
{
    PmsExpectResult *res = g_new0(PmsExpectResult, 1);
    guint n = r->outcomes->len;
    res->verdict = g_new0(PmsVerdict, MAX(n, 1));
    res->reason = g_new0(const char *, MAX(n, 1));
    g_autoptr(PmsExpectJudge) j = pms_expect_judge_new(e);
    for (guint i = 0; i < n; i++) {
        const PmsVectorOutcome *o = g_ptr_array_index(r->outcomes, i);
        res->verdict[i] = pms_expect_judge_one(j, o->vector, o->passed, &res->reason[i]);
        switch (res->verdict[i]) {
        case PMS_VERDICT_PASS:
            res->passed++;
            break;
        case PMS_VERDICT_STALE:
            res->stale++;
            break;
        case PMS_VERDICT_XFAIL:
            res->xfail++;
            break;
        default:
            res->failed++;
            break;
        }
    }
    res->unmatched = pms_expect_judge_unmatched(j, kinds_mask);
    return res;
}

gboolean pms_expectations_check_pmus(const PmsExpectations *e, const PmsVectorSet *set, GError **error)
{
    g_autoptr(GHashTable) pmus = g_hash_table_new(g_str_hash, g_str_equal);
    g_autoptr(GPtrArray) names = g_ptr_array_new();
    for (guint i = 0; i < pms_vector_set_count(set); i++) {
        const char *p = pms_vector_set_nth(set, i)->pmu;
        if (g_hash_table_add(pmus, (gpointer)p))
            g_ptr_array_add(names, (gpointer)p);
    }
    g_ptr_array_add(names, NULL);
    return pms_expectations_check_pmu_names(e, (const char *const *)names->pdata, error);
}

gboolean pms_expectations_check_pmu_names(const PmsExpectations *e, const char *const *pmus, GError **error)
{
    for (guint i = 0; i < e->entries->len; i++) {
        const Entry *en = g_ptr_array_index(e->entries, i);
        if (g_strv_contains(pmus, en->pmu))
            continue;
        g_autoptr(GString) known = g_string_new(NULL);
        for (guint k = 0; pmus[k]; k++)
            g_string_append_printf(known, "%s%s", k ? ", " : "", pmus[k]);
        g_set_error(error, PMS_VECTOR_ERROR, PMS_VECTOR_ERROR_PARSE,
                    "%s:%u: no vector of PMU '%s' exists (the vectors are of %s)", e->file, en->line, en->pmu,
                    known->len ? known->str : "no PMU");
        return FALSE;
    }
    return TRUE;
}
