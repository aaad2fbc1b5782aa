/* pmusim encoder — one rule set per architecture, chosen by PmsModel.arch.
 * The Nehalem/Westmere uncore has rules_x86_uncore.c, the Xeon 7500 C-Box
 * rules_nhmex_cbox.c, Itanium (Montecito) rules_ia64.c. */
#include "enc_internal.h"

PmsRuleFn
pms_rules_for(PmsArch arch)
{
    switch (arch) {
    case PMS_ARCH_X86_CORE:
        return pms_rules_x86_core;
    case PMS_ARCH_X86_UNCORE:
        return pms_rules_x86_uncore;
    case PMS_ARCH_NHMEX_CBOX:
        return pms_rules_nhmex_cbox;
    case PMS_ARCH_IA64:
        return pms_rules_ia64;
    default:
        return NULL;
    }
}

PmsModsFn
pms_rules_mods_for(PmsArch arch)
{
    switch (arch) {
    case PMS_ARCH_X86_CORE:
        return pms_x86_core_mods;
    case PMS_ARCH_X86_UNCORE:
        return pms_x86_uncore_mods;
    default:
        return NULL;
    }
}
