/* pmusim encoder — the family registry's encoder layer (family.h): one line
 * per family, its rule set and what its strings accept.  Nothing else in the
 * encoder asks which family a model is: it reads PmsEncFamily. */
#include "enc_internal.h"

static const PmsEncFamily x86_core = {
    .rules = pms_rules_x86_core,
    .flags = PMS_ENC_RAW_UMASK | PMS_ENC_PLAIN_RESULTS,
};
/* libpfm4 4.13's uncore code: raw unit masks too, numbers too big for 64
 * bits saturate (its range check then refuses them), and an uncore event
 * has no privilege filter (libpfm_nehalem(3)), so u and k are explained. */
static const PmsEncFamily x86_uncore = {
    .rules = pms_rules_x86_uncore,
    .flags = PMS_ENC_RAW_UMASK | PMS_ENC_PLAIN_RESULTS | PMS_ENC_SATURATE | PMS_ENC_NO_PLM,
};
static const PmsEncFamily nhmex_cbox = {
    .rules = pms_rules_nhmex_cbox,
};
static const PmsEncFamily ia64 = {
    .rules = pms_rules_ia64,
    .decode = pms_ia64_decode,
};

static const PmsFamilyEntry entries[] = {
    { "x86_core", &x86_core },
    { "x86_uncore", &x86_uncore },
    { "nhmex_cbox", &nhmex_cbox },
    { "ia64", &ia64 },
};
static PmsFamilyTable table = PMS_FAMILY_TABLE("encoder", entries);

const PmsEncFamily *
pms_enc_family(const PmsModel *m)
{
    return pms_family_table_get(&table, m->family);
}

gboolean
pms_encoder_takes_raw_umask(const PmsModel *m)
{
    const PmsEncFamily *f = m ? pms_enc_family(m) : NULL;
    return f && (f->flags & PMS_ENC_RAW_UMASK);
}

gboolean
pms_enc_family_table_check(GPtrArray *problems)
{
    return pms_family_table_check(&table, problems);
}
