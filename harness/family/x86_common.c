/* pmusim — what the three event-select families (x86_core, x86_uncore,
 * nhmex_cbox) share in the harness: the explain helpers over an event-select
 * value, the register `decode` writes, the event facts of
 * `list PMU EVENT`, the own signal of a one-line experiment and the bits no
 * count can show. */
#include "family_impl.h"

#include <string.h>

/* The selected unit masks, "+"-joined: all of them (which NULL), only the
 * request group ("request"), or every other group ("response": response,
 * supplier and snoop bits all answer the request side). */
char *pms_x86_umask_names(const PmsEncoding *enc, const char *which)
{
    const PmsEvent *ev = enc->event;
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < ev->n_umasks && i < PMS_UMASK_SET_MAX; i++) {
        if (!pms_uset_has(enc->umask_mask, i))
            continue;
        const PmsUmask *u = &ev->umasks[i];
        gboolean req = u->group < ev->n_groups && g_ascii_strcasecmp(ev->groups[u->group].name, "request") == 0;
        if (which && req != (strcmp(which, "request") == 0))
            continue;
        g_string_append_printf(s, "%s%s", s->len ? "+" : "", u->name);
    }
    return g_string_free(s, FALSE);
}

/* What one occurrence is: the signal, an offcore transaction or a load. */
char *pms_x86_describe_signal(const PmsEncoding *enc, const PmsRegister *es, guint64 sel, const char *name)
{
    const PmsModel *m = enc->model;
    const PmsEvent *ev = enc->event;
    guint64 code = pms_cli_field(es, sel, "event"), umask = pms_cli_field(es, sel, "umask");
    const PmsRegister *x = ev->extra_reg ? pms_model_reg_by_name(m, ev->extra_reg) : NULL;
    guint64 extra = enc->n_codes >= 2 ? enc->codes[1] : 0;
    if (x && x->kind == PMS_REG_OFFCORE_RSP) {
        g_autofree char *req = pms_x86_umask_names(enc, "request");
        g_autofree char *resp = pms_x86_umask_names(enc, "response");
        return g_strdup_printf("an occurrence is an offcore transaction matching %s = 0x%" G_GINT64_MODIFIER
                               "x: one of its request bits (%s) and one of its response bits (%s) "
                               "[semantics.md §5; event 0x%02" G_GINT64_MODIFIER "x umask 0x%02" G_GINT64_MODIFIER
                               "x selects the register]",
                               x->name, extra, *req ? req : "none", *resp ? resp : "none", code, umask);
    }
    if (x && x->kind == PMS_REG_PEBS_LD_LAT) {
        const PmsField *f = pms_register_field(x, "threshold");
        guint64 thr = f ? pms_field_get(f, extra) : (extra & 0xffff);
        return g_strdup_printf("an occurrence is a load retiring with a latency above %" G_GUINT64_FORMAT
                               " cycles (%s threshold; strictly greater, SDM 18-39)",
                               thr, x->name);
    }
    if (ev->counters == 0 && ev->fixed)
        return g_strdup_printf("an occurrence is one %s (signal event 0x%02" G_GINT64_MODIFIER
                               "x, umask 0x%02" G_GINT64_MODIFIER
                               "x, one of the signals its fixed counter counts) [semantics.md §2]",
                               name, code, umask);
    return g_strdup_printf("an occurrence is one %s (signal event 0x%02" G_GINT64_MODIFIER
                           "x, umask 0x%02" G_GINT64_MODIFIER "x%s) [semantics.md §2]",
                           name, code, umask,
                           ev->match == PMS_MATCH_EXACT || umask == 0
                               ? ", matched exactly"
                               : ", plus any signal whose non-zero umask bits all lie inside it");
}

/* "at least 2 occurrences of X happen" / "no occurrence of X happens" */
char *pms_x86_threshold_phrase(const PmsFamSel *f, const char *sig)
{
    if (f->cmask == 0 || f->fixed)
        return g_strdup_printf("at least 1 occurrence of %s happens", sig);
    if (f->cmask == 1)
        return f->inv ? g_strdup_printf("no occurrence of %s happens", sig)
                      : g_strdup_printf("at least 1 occurrence of %s happens", sig);
    return g_strdup_printf("%s %" G_GUINT64_FORMAT " occurrences of %s happen", f->inv ? "fewer than" : "at least",
                           f->cmask, sig);
}

/* Threshold, invert and edge stages (general counters only). */
const char *pms_x86_rings(const PmsFamSel *f)
{
    return f->usr && f->os ? "at CPL 0 and CPL>0" : f->os ? "at CPL 0 only" : f->usr ? "at CPL>0 only" : NULL;
}

void pms_x86_explain_threshold(GString *o, const PmsFamSel *f)
{
    if (f->fixed) {
        g_string_append(o,
                        "  threshold: none: a fixed counter has no cmask, inv or edge (SDM 18-7); each cycle "
                        "adds n\n");
        if (f->cmask || f->inv || f->edge)
            g_string_append(o, "  note: the code's cmask/inv/e have no place in FIXED_CTR_CTRL and are dropped\n");
        return;
    }
    if (f->cmask == 0) {
        g_string_append(o,
                        "  threshold: cmask=0: no threshold; each cycle adds n, its number of occurrences "
                        "(SDM 18-4)\n");
        if (f->inv)
            g_string_append(o, "  invert: inv=1 is ignored because cmask=0 (SDM 18-4; choice A1)\n");
    } else {
        g_string_append_printf(
            o,
            "  threshold: cmask=%" G_GUINT64_FORMAT ", inv=%d: a cycle qualifies when %s %" G_GUINT64_FORMAT
            " occurrences happen in it (n %s %" G_GUINT64_FORMAT "); each qualifying cycle adds 1 (SDM 18-4)\n",
            f->cmask, f->inv, f->inv ? "fewer than" : "at least", f->cmask, f->inv ? "<" : ">=", f->cmask);
    }
    if (f->edge)
        g_string_append_printf(o,
                               "  edge: e=1: only the first cycle of each run of qualifying cycles adds 1 (rising "
                               "edge of the threshold output%s; the latch starts clear after the PERFEVTSEL write, "
                               "choice A4)\n",
                               f->cmask == 0 ? ", cmask=0 acting as n >= 1, choice A2" : "");
}

/* The register VALUE is written to: the event select of the first counter. */
const PmsRegister *pms_x86_decode_reg(const PmsModel *m)
{
    return pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
}

void pms_x86_list_event(GString *o, const PmsModel *m, const PmsEvent *ev)
{
    (void)m;
    if (ev->extra_reg)
        g_string_append_printf(o, "  umask       0x%x (in %s)\n", ev->base_umask, ev->extra_reg);
    else
        g_string_append_printf(o, "  umask       0x%x\n", ev->base_umask);
    /* by index, with the mask beside (the full listing's words) */
    g_autofree char *gp = pms_cli_counter_ranges(ev->counters, "", "none");
    g_autofree char *fx = pms_cli_counter_ranges(ev->fixed, "", "none");
    g_string_append_printf(o, "  counters    %s (mask 0x%" G_GINT64_MODIFIER "x)\n  fixed       %s (mask 0x%x)\n", gp,
                           ev->counters, fx, ev->fixed);
}

/* The event code and unit mask of the event select, by name (0 when the
 * layout lacks one: the lint reports it, field_need.c). */
guint32 pms_x86_own_signal(const PmsModel *m, const guint64 *codes, guint n_codes)
{
    (void)n_codes;
    const PmsRegister *es = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    guint64 code = pms_cli_field(es, codes[0], "event");
    guint64 umask = pms_cli_field(es, codes[0], "umask");
    return PMS_SIGNAL_KEY(code, umask);
}

const char *pms_x86_unobservable(const PmsModel *m, const PmsEvent *ev, const guint64 *codes, guint n_codes, guint code,
                                 guint bit, const char *inv_why)
{
    (void)n_codes;
    const PmsRegister *es = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    /* a fixed-only event's other bits reach no register: equivalent() */
    if (code == 0 && pms_fam_field_bit(es, "occ_ctr_rst", bit))
        return "OCC_CTR_RST (o) is a command that reads 0; the queue-occupancy accumulators it resets are not "
               "modelled (the stimulus gives an occupancy event's per-cycle value), so no count can show it "
               "(SDM Fig 18-28; semantics.md §9)";
    if (code == 0 && pms_fam_field_bit(es, "pc", bit))
        return "PC (pin control) only drives the PMi pin, never a count (SDM 18-4; semantics.md §8)";
    if (code == 0 && pms_fam_field_bit(es, "inv", bit) && pms_cli_field(es, codes[0], "cmask") == 0 &&
        pms_cli_field(es, codes[0], "threshold") == 0)
        return inv_why;
    if (code == 0 && pms_fam_field_bit(es, "cmask", bit) && pms_cli_field(es, codes[0], "edge") &&
        !pms_cli_field(es, codes[0], "inv") && pms_cli_field(es, codes[0], "cmask") <= 1 &&
        pms_cli_field(es, codes[0] ^ ((guint64)1 << bit), "cmask") <= 1)
        return "E with CMASK 0 takes the condition N > 0, the same as CMASK 1 (semantics.md A2), so flipping "
               "CMASK between 0 and 1 under E without INV changes nothing";
    if (code == 0 && pms_fam_field_bit(es, "any", bit) && !m->smt)
        return "AnyThread has no effect on a PMU without SMT (semantics.md §3)";
    if (code == 1 && (ev->flags & PMS_EVENT_OFFCORE) && m->offcore_style && strcmp(m->offcore_style, "glm") == 0) {
        guint64 any_req = pms_fam_umask_value(ev, "ANY_REQUEST"), any_rsp = pms_fam_umask_value(ev, "ANY_RESPONSE");
        guint64 outst = pms_fam_umask_value(ev, "OUTSTANDING");
        guint64 b = (guint64)1 << bit;
        const PmsRegister *x = ev->extra_reg ? pms_model_reg_by_name(m, ev->extra_reg) : NULL;
        gboolean is_req = pms_fam_field_bit(x, "request", bit) && !(b & any_req);
        gboolean in_rsp = (pms_fam_field_bit(x, "supplier", bit) || pms_fam_field_bit(x, "snoop", bit)) && !(b & outst);
        gboolean is_rsp = in_rsp && !(b & any_rsp);
        /* OUTSTANDING decides before any response bit, ANY_RESPONSE included. */
        if (in_rsp && (codes[1] & outst))
            return "OUTSTANDING is set: it counts in-flight requests, no response bit (ANY_RESPONSE "
                   "included) can change that (SDM Table 18-22; semantics.md §5)";
        if (is_req && (codes[1] & any_req))
            return "ANY_REQUEST is set: another request bit cannot change the match (SDM Table 18-21; semantics.md §5)";
        if (is_rsp && (codes[1] & any_rsp))
            return "ANY_RESPONSE is set: another response bit cannot change the match "
                   "(SDM Table 18-22; semantics.md §5)";
    }
    return NULL;
}

/* The core's and the Nehalem/Westmere uncore's hook: INV needs a counter
 * mask (the C-Box words it by its threshold). */
const char *pms_x86_unobservable_cmask(const PmsModel *m, const PmsEvent *ev, guint counter, const guint64 *codes,
                                       guint n_codes, guint code, guint bit)
{
    (void)counter;
    return pms_x86_unobservable(m, ev, codes, n_codes, code, bit,
                                "INV acts only with a non-zero counter mask (SDM 18-4; semantics.md A1)");
}
