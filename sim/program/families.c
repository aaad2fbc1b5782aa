/* pmusim — the family registry's program layer (family.h): one line per
 * family, its program step (program_<family>.c).  program.c and
 * program_set.c dispatch every call through the entry found here. */
#include "prog_internal.h"

extern const ProgOps prog_x86_core_ops, prog_x86_uncore_ops, prog_nhmex_ops, prog_ia64_ops, prog_toy_ops,
    prog_amd64_ops;

static const PmsFamilyEntry entries[] = {
    { "x86_core", &prog_x86_core_ops }, { "x86_uncore", &prog_x86_uncore_ops },
    { "nhmex_cbox", &prog_nhmex_ops },  { "ia64", &prog_ia64_ops },
    { "toy", &prog_toy_ops }, /* the test-only family (models/tests/toy.pmu) */
    { "amd64", &prog_amd64_ops },
};
static PmsFamilyTable table = PMS_FAMILY_TABLE("program", entries);

/* The index of the entry found last, -1 before any: every placement and
 * write asks, mostly for the family of the call before, and one compare
 * is cheaper than the table's walk.  An index, set after the walk (which
 * saw the table filled), so that a thread that reads it sees the entry it
 * names filled. */
static gint last = -1;

const ProgOps *prog_ops_for(const PmsModel *m)
{
    gint i = g_atomic_int_get(&last);
    if (G_LIKELY(i >= 0 && table.fam[i] == m->family))
        return table.ops[i];
    const ProgOps *p = pms_family_table_get(&table, m->family);
    for (guint k = 0; p && k < table.n_entries && k < PMS_FAMILY_MAX; k++)
        if (table.ops[k] == p && table.fam[k] == m->family) {
            g_atomic_int_set(&last, (gint)k);
            break;
        }
    return p;
}

gboolean prog_table_check(GPtrArray *problems)
{
    return pms_family_table_check(&table, problems);
}
