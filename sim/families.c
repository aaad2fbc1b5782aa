/* pmusim — the family registry's simulator layer (family.h): one line per
 * family, its device (dev_<family>.c).  sim_core.c builds every PmsSim over
 * the device found here and knows nothing else of the family. */
#include "sim_internal.h"

extern const SimDeviceOps sim_x86_core_ops, sim_x86_uncore_ops, sim_nhmex_ops, sim_ia64_ops, sim_toy_ops, sim_amd64_ops;

static const PmsFamilyEntry entries[] = {
    { "x86_core", &sim_x86_core_ops }, { "x86_uncore", &sim_x86_uncore_ops },
    { "nhmex_cbox", &sim_nhmex_ops },  { "ia64", &sim_ia64_ops },
    { "toy", &sim_toy_ops }, /* the test-only family (models/tests/toy.pmu) */
    { "amd64", &sim_amd64_ops },
};
static PmsFamilyTable table = PMS_FAMILY_TABLE("sim", entries);

const SimDeviceOps *sim_device_for(const PmsModel *m)
{
    return pms_family_table_get(&table, m->family);
}

const SimDeviceOps *const *sim_devices(guint *n)
{
    static const SimDeviceOps *all[G_N_ELEMENTS(entries)];
    static gsize done;
    if (g_once_init_enter(&done)) {
        for (guint i = 0; i < G_N_ELEMENTS(entries); i++)
            all[i] = entries[i].ops;
        g_once_init_leave(&done, 1);
    }
    *n = G_N_ELEMENTS(entries);
    return all;
}

gboolean sim_device_table_check(GPtrArray *problems)
{
    return pms_family_table_check(&table, problems);
}
