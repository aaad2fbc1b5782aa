/* pmusim encoder — rules of the family `amd64`: AMD's core PMU before
 * PerfMonV2 (models/amd64_fam17h_zen2.pmu, docs/amd64.md), with libpfm4
 * 4.13's modifier syntax for it (k, u, e, i, c, h, g).
 *
 * codes[0] is the counter's PERF_CTL value.  Unit masks, their groups and
 * defaults, the modifiers' ranges and the raw unit mask are the x86 core
 * rules' (PERF_CTL's low 32 bits are laid out as PERFEVTSEL's); on top:
 *  - the event code is 12 bits: bits 7:0 go to event, 11:8 to event_hi
 *    (35:32), both found by name in the model;
 *  - EN and INT are set, as libpfm4 sets them;
 *  - h (HostOnly) is a privilege modifier as k and u are: a string naming
 *    any of k, u, h gets exactly those (":h" alone counts at no CPL, as
 *    libpfm4 4.13 encodes amd64_fam17h_zen2::RETIRED_INSTRUCTIONS:h as
 *    0x200005000c0); naming none gets k and u.  g (GuestOnly) is never set
 *    by default and does not count as a privilege modifier. */
#include "enc_internal.h"

static gint mod_index(const PmsPrepared *p, const char *name)
{
    for (guint j = 0; j < p->n_mods; j++)
        if (strcmp(p->mods[j].mod->name, name) == 0)
            return (gint)j;
    return -1;
}

gboolean pms_rules_amd64(const PmsResolved *r, PmsRuleOut *out, GError **error)
{
    const PmsPrepared *p = r->prep;
    if (!pms_rules_x86_core(r, out, error))
        return FALSE;
    guint32 code = r->event->code;
    if (p->event_hi.width)
        out->codes[0] = pms_fset(&p->event_hi, out->codes[0], code >> p->event.width);
    gint hi = mod_index(p, "h");
    gint ki = p->role_mod[PMS_ROLE_K], ui = p->role_mod[PMS_ROLE_U];
    if (hi >= 0 && (r->mod_set & (1u << hi)) && !(r->mod_set & p->plm_mods)) {
        /* h named, k and u not: only the named privilege filters are set */
        for (gint j = ki; j >= 0; j = j == ki ? ui : -1) {
            out->mod_val[j] = 0;
            out->mod_changed |= 1u << j;
            if (p->mods[j].field)
                out->codes[0] = pms_fset(p->mods[j].field, out->codes[0], 0);
        }
    }
    return TRUE;
}

/* The amd64 family's encoder entry (encoder/families.c).  No plain-result
 * cache (mods NULL): every string takes the rules above. */
static const char *const amd64_decode_ignores[] = { "en", "int", NULL };
const PmsEncFamily pms_enc_amd64 = {
    .rules = pms_rules_amd64,
    .flags = PMS_ENC_RAW_UMASK,
    .decode_ignores = amd64_decode_ignores,
};
