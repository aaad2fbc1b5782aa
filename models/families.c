/* pmusim models — the family registry's model layer (family.h).
 *
 * One line per family.  A family with checks of its own facts names them
 * here; the three x86 families share the checks of the architectural counter
 * numbering (model_x86.c), Itanium has its own (model_ia64.c); each adds the
 * register fields its simulator reads by name (field_need.c). */
#include <string.h>
#include "family.h"
#include "model_priv.h"

void pms_toy_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs);   /* model_toy.c */
void pms_amd64_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs); /* model_amd64.c */

extern const PmsModelOption pms_x86_core_options[], pms_nhmex_options[], pms_ia64_options[],
    pms_amd64_options[]; /* model_options.c */

static const PmsFamily families[] = {
    { "x86_core", "Intel architectural core PMU: PERFEVTSEL/PMC/FIXED, GLOBAL_* (perfmon v2..v4)",
      pms_x86_core_model_check, pms_x86_event_check, NULL, pms_x86_core_options, FALSE },
    { "x86_uncore", "Nehalem/Westmere uncore: UNCORE_PERFEVTSEL/PMC with its own global control",
      pms_x86_uncore_model_check, pms_x86_event_check, NULL, NULL, FALSE },
    { "nhmex_cbox", "Xeon 7500 uncore: C-Box counters under the U-Box global control", pms_nhmex_model_check,
      pms_x86_event_check, NULL, pms_nhmex_options, FALSE },
    { "ia64", "Itanium 2 9000 (Montecito): PMC/PMD/IBR/DBR register files", pms_ia64_model_check, pms_ia64_event_check,
      &pms_ia64_event_facts, pms_ia64_options, TRUE },
    { "toy", "test-only family (models/tests/toy.pmu): two counters and a status register, no hardware",
      pms_toy_model_check, NULL, NULL, NULL, FALSE },
    { "amd64", "AMD core PMU before PerfMonV2: PERF_CTL/PERF_CTR pairs, no global control or status",
      pms_amd64_model_check, pms_x86_event_check, NULL, pms_amd64_options, FALSE },
};
G_STATIC_ASSERT(G_N_ELEMENTS(families) <= PMS_FAMILY_MAX);

guint pms_family_count(void)
{
    return G_N_ELEMENTS(families);
}

const PmsFamily *pms_family_nth(guint i)
{
    return i < G_N_ELEMENTS(families) ? &families[i] : NULL;
}

const PmsFamily *pms_family_by_name(const char *name)
{
    for (guint i = 0; name && i < G_N_ELEMENTS(families); i++)
        if (strcmp(families[i].name, name) == 0)
            return &families[i];
    return NULL;
}

gboolean pms_model_is_family(const PmsModel *m, const char *family)
{
    return m && m->family && strcmp(m->family->name, family) == 0;
}

const char *pms_family_names(void)
{
    static gsize done;
    static char *names;
    if (g_once_init_enter(&done)) {
        GString *s = g_string_new(NULL);
        for (guint i = 0; i < G_N_ELEMENTS(families); i++)
            g_string_append_printf(s, "%s%s", i ? (i + 1 == G_N_ELEMENTS(families) ? " or " : ", ") : "",
                                   families[i].name);
        names = g_string_free(s, FALSE);
        g_once_init_leave(&done, 1);
    }
    return names;
}

void pms_family_table_fill(PmsFamilyTable *t)
{
    for (guint i = 0; i < t->n_entries && i < PMS_FAMILY_MAX; i++) {
        t->fam[i] = pms_family_by_name(t->entries[i].family);
        t->ops[i] = t->entries[i].ops;
    }
}

gboolean pms_family_table_check(const PmsFamilyTable *t, GPtrArray *problems)
{
    guint before = problems->len;
    if (t->n_entries > PMS_FAMILY_MAX)
        g_ptr_array_add(
            problems,
            g_strdup_printf("%s layer: %u entries, at most %d are looked up", t->layer, t->n_entries, PMS_FAMILY_MAX));
    for (guint i = 0; i < t->n_entries; i++) {
        const char *name = t->entries[i].family;
        if (!pms_family_by_name(name))
            g_ptr_array_add(problems,
                            g_strdup_printf("%s layer: entry %u names family '%s', which is not registered "
                                            "(models/families.c has %s)",
                                            t->layer, i, name, pms_family_names()));
        if (!t->entries[i].ops)
            g_ptr_array_add(problems, g_strdup_printf("%s layer: family %s has no ops", t->layer, name));
        for (guint j = 0; j < i; j++)
            if (strcmp(t->entries[j].family, name) == 0)
                g_ptr_array_add(
                    problems,
                    g_strdup_printf("%s layer: family %s registered twice (entries %u and %u)", t->layer, name, j, i));
    }
    for (guint i = 0; i < G_N_ELEMENTS(families); i++) {
        gboolean found = FALSE;
        for (guint j = 0; j < t->n_entries && !found; j++)
            found = strcmp(t->entries[j].family, families[i].name) == 0;
        if (!found)
            g_ptr_array_add(problems, g_strdup_printf("%s layer: no entry for family %s", t->layer, families[i].name));
    }
    return problems->len == before;
}
