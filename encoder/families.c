/* pmusim encoder — the family registry's encoder layer (family.h): one line
 * per family.  Each family's entry (PmsEncFamily: its rule set, the modifiers
 * of its kept plain results, its flags, its own decode) is defined beside its
 * rules (rules_<family>.c).  Nothing else in the encoder asks which family a
 * model is: it reads the entry. */
#include "enc_internal.h"

extern const PmsEncFamily pms_enc_x86_core, pms_enc_x86_uncore, pms_enc_nhmex_cbox, pms_enc_ia64, pms_enc_toy,
    pms_enc_amd64;

static const PmsFamilyEntry entries[] = {
    { "x86_core", &pms_enc_x86_core },
    { "x86_uncore", &pms_enc_x86_uncore },
    { "nhmex_cbox", &pms_enc_nhmex_cbox },
    { "ia64", &pms_enc_ia64 },
    { "toy", &pms_enc_toy }, /* the test-only family (models/tests/toy.pmu) */
    { "amd64", &pms_enc_amd64 },
};
static PmsFamilyTable table = PMS_FAMILY_TABLE("encoder", entries);

const PmsEncFamily *pms_enc_family(const PmsModel *m)
{
    return pms_family_table_get(&table, m->family);
}

gboolean pms_encoder_takes_raw_umask(const PmsModel *m)
{
    const PmsEncFamily *f = m ? pms_enc_family(m) : NULL;
    return f && (f->flags & PMS_ENC_RAW_UMASK);
}

gboolean pms_enc_family_table_check(GPtrArray *problems)
{
    return pms_family_table_check(&table, problems);
}
