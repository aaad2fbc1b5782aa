/* pmusim — the family registry's harness layer (cli_family.h): one line per
 * family, its CLI hooks (<family>.c).  The commands and parts ask the entry
 * found here and know nothing else of the family. */
#include "family_impl.h"

extern const PmsCliFamily pms_cli_x86_core, pms_cli_x86_uncore, pms_cli_nhmex, pms_cli_ia64, pms_cli_toy, pms_cli_amd64;

static const PmsFamilyEntry entries[] = {
    { "x86_core", &pms_cli_x86_core }, { "x86_uncore", &pms_cli_x86_uncore },
    { "nhmex_cbox", &pms_cli_nhmex },  { "ia64", &pms_cli_ia64 },
    { "toy", &pms_cli_toy }, /* the test-only family (models/tests/toy.pmu) */
    { "amd64", &pms_cli_amd64 },
};
static PmsFamilyTable table = PMS_FAMILY_TABLE("harness", entries);

const PmsCliFamily *pms_cli_family(const PmsModel *m)
{
    return pms_family_table_get(&table, m->family);
}

const PmsCliFamily *pms_cli_family_nth(guint i)
{
    const PmsFamily *f = pms_family_nth(i);
    return f ? pms_family_table_get(&table, f) : NULL;
}

gboolean pms_cli_family_table_check(GPtrArray *problems)
{
    return pms_family_table_check(&table, problems);
}
