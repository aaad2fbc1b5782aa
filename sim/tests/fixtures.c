#include "fixtures.h"

#include <string.h>

static GHashTable *models; /* name -> PmsModel */

const PmsModel *fx_model(const char *name)
{
    if (!models)
        models = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)pms_model_free);
    PmsModel *m = g_hash_table_lookup(models, name);
    if (m)
        return m;
    m = fx_model_with(name, NULL, NULL);
    if (m)
        g_hash_table_insert(models, g_strdup(name), m);
    return m;
}

PmsModel *fx_model_with(const char *name, const char *key, const char *value)
{
    g_autofree char *path = g_str_has_prefix(name, "tiny") ? g_strdup_printf(PMS_SRCDIR "/models/tests/%s.pmu", name)
                                                           : g_strdup_printf(PMS_SRCDIR "/models/%s.pmu", name);
    /* the Xeon 7500 C-Boxes are the PMUs of one file ([pmu] instances) */
    if (g_str_has_prefix(name, "nhmex_cbox")) {
        g_free(path);
        path = g_strdup(PMS_SRCDIR "/models/nhmex.pmu");
    }
    /* the test-only perfmon v5 top-down model (test_topdown.c) */
    if (strcmp(name, "icl_td") == 0) {
        g_free(path);
        path = g_strdup(PMS_SRCDIR "/sim/tests/data/icl-td.pmu");
    }
    GError *e = NULL;
    PmsModel *m = pms_model_load_file(path, &e);
    if (!m) {
        fprintf(stderr, "# cannot load %s: %s\n", path, e->message);
        g_error_free(e);
        return NULL;
    }
    if (m->n_instances) {
        PmsModel *view = pms_model_view_by_name(m, name);
        pms_model_free(m); /* the view holds it */
        m = view;
        if (!m)
            return NULL;
    }
    if (key)
        pms_model_set_option(m, key, value);
    return m;
}

void fx_free_models(void)
{
    if (models)
        g_hash_table_destroy(models);
    models = NULL;
}

PmsSim *fx_sim(const PmsModel *m, PmsSimEngine engine)
{
    GError *e = NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    PmsSim *s = pms_sim_new(m, &e);
    if (!s)
        fprintf(stderr, "# pms_sim_new: %s\n", e->message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    pms_sim_set_engine(s, engine);
    return s;
}

void fx_write(PmsSim *s, guint32 addr, guint64 v)
{
    GError *e = NULL;
    gboolean ok = pms_sim_write(s, addr, v, &e);
    if (!ok) {
        fprintf(stderr, "# %s\n", e->message);
        g_error_free(e);
    }
    CU_ASSERT_TRUE_FATAL(ok);
}

guint64 fx_read(PmsSim *s, guint32 addr)
{
    guint64 v = 0;
    GError *e = NULL;
    gboolean ok = pms_sim_read(s, addr, &v, &e);
    if (!ok)
        g_error_free(e);
    CU_ASSERT_TRUE_FATAL(ok);
    return v;
}

void fx_run(PmsSim *s, guint64 cycles, guint32 sig, guint64 n0, guint64 n1, guint8 cpl0, guint8 cpl1)
{
    PmsSimCount c[2] = { { sig, 0, n0, 0 }, { sig, 1, n1, 0 } };
    guint nc = pms_sim_threads(s) > 1 ? 2 : 1;
    PmsSimRun r = { cycles, { cpl0, cpl1 }, c, nc, NULL, 0, NULL, 0 };
    GError *e = NULL;
    gboolean ok = pms_sim_run(s, &r, &e);
    if (!ok) {
        fprintf(stderr, "# %s\n", e->message);
        g_error_free(e);
    }
    CU_ASSERT_TRUE_FATAL(ok);
}

void fx_run_seq(PmsSim *s, guint32 sig, const guint64 *n, guint len, guint8 cpl)
{
    for (guint i = 0; i < len; i++)
        fx_run(s, 1, sig, n[i], 0, cpl, cpl);
}

guint fx_cases(guint n)
{
    return g_getenv("PMS_TEST_QUICK") ? MAX(n / 4, 1) : n;
}
