/* pmusim — the Xeon 7500 C-Box's CLI hooks (nhmex_cbox0..7): its counting
 * pipeline in words. */
#include "family_impl.h"

#include <string.h>

/* The Xeon 7500 C-Box (arch nhmex_cbox): no privilege filter, threshold then
 * invert then edge in series, three enables (Intel 323535-001 Table 2-13;
 * docs/semantics.md §10, choices A5, A16, A17).  The counter is the lowest
 * the event may use, in the model's own box. */
static void explain_nhmex(GString *o, const PmsEncoding *enc)
{
    const PmsModel *m = enc->model;
    const PmsEvent *ev = enc->event;
    guint k = ev->counters ? (guint)__builtin_ctzll(ev->counters) : 0;
    const PmsRegister *es = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, k);
    const PmsRegister *ctr = pms_model_reg_by_kind(m, PMS_REG_PMC, k);
    const PmsRegister *bc = pms_model_reg_by_kind(m, PMS_REG_BOX_CTRL, 0);
    const PmsRegister *bs = pms_model_reg_by_kind(m, PMS_REG_BOX_STATUS, 0);
    const PmsRegister *gc = pms_model_reg_in_unit(m, "ubox", 0, PMS_REG_GLOBAL_CTRL, 0);
    guint64 sel = enc->codes[0];
    guint64 code = pms_cli_field(es, sel, "event"), umask = pms_cli_field(es, sel, "umask");
    guint64 thr = pms_cli_field(es, sel, "threshold"), inv = pms_cli_field(es, sel, "inv");
    guint64 edge = pms_cli_field(es, sel, "edge");
    guint64 en = pms_cli_field(es, sel, "en"), pmi = pms_cli_field(es, sel, "pmi_en");
    gboolean literal = g_strcmp0(pms_model_option(m, "invert", "documented"), "literal") == 0;
    const char *cmp = inv ? (literal ? ">" : "<") : ">=";
    g_autofree char *ums = pms_x86_umask_names(enc, NULL);
    g_autofree char *sig = g_strdup_printf("%s%s%s", ev->name, *ums ? "." : "", ums);

    if (enc->n_writes == 0 && es) {
        /* no writes from the program step (an event no counter takes): show where codes[0] belongs */
        PmsRegWrite w = { es->name, es->address, sel, G_MAXUINT64, es };
        pms_cli_explain_write(o, &w);
        g_string_append(o, "  (codes[0], for this box's event select; the program step gave no register writes)\n");
    }
    g_string_append(o, "\nWhat the counter counts (docs/semantics.md §10, one line per stage):\n");
    if (ctr)
        g_string_append_printf(o, "  counter: %s %u counter %u, %s (0x%x), %u bits wide\n", m->unit ? m->unit : "box",
                               m->instance, k, ctr->name, ctr->address, ctr->width);
    g_string_append_printf(
        o,
        "  signal: an occurrence is one %s (event 0x%02" G_GINT64_MODIFIER "x, umask 0x%02" G_GINT64_MODIFIER
        "x%s); a C-Box event may occur several times in one uncore cycle\n",
        sig, code, umask,
        ev->match == PMS_MATCH_EXACT || umask == 0 ? ", matched exactly"
                                                   : ", plus any signal whose non-zero umask bits all lie inside it");
    g_string_append(o,
                    "  privilege: none: the uncore has no privilege or thread filter; occurrences count at all "
                    "levels, from every core\n");
    if (thr == 0) {
        g_string_append(o, "  threshold: t=0: no threshold; each cycle adds n, its number of occurrences\n");
        if (inv)
            g_string_append(o, "  invert: i=1 is ignored because t=0 (choice A5)\n");
    } else {
        g_string_append_printf(o,
                               "  threshold: t=%" G_GUINT64_FORMAT
                               ", i=%d: a cycle qualifies when n %s %" G_GUINT64_FORMAT
                               "; each qualifying cycle adds 1 (Table 2-13; invert read %s, "
                               "choice A5, option invert)\n",
                               thr, (int)inv, cmp, thr, literal ? "literally" : "as documented");
    }
    if (edge)
        g_string_append_printf(o,
                               "  edge: e=1, in series after threshold and invert (Table 2-13 note): only the "
                               "first cycle of each run of qualifying cycles adds 1%s\n",
                               thr == 0 ? " (t=0 acting as n >= 1)" : "");
    if (en)
        g_string_append_printf(o,
                               "  enable: en=1 (the encoder always sets it); the counter counts only while %s."
                               "ctr_en bit %u and %s.en_all are set too (Table 2-13 note)\n",
                               bc ? bc->name : "the box's GLOBAL_CTL", k, gc ? gc->name : "U_MSR_PMON_GLOBAL_CTL");
    else
        g_string_append(o, "  enable: en=0: the counter is disabled and counts nothing\n");
    guint s_box = m->instance / 4;
    /* the delay as this model sets it (the [options] table; a what-if
     * variant may change it) */
    const char *delay = pms_model_option(m, "pmi_freeze_delay", "0");
    g_autofree char *pmi_text = pmi
        ? g_strdup_printf("pmi=1: a PMI goes to the U-Box, which, when its frz_all is set, freezes all uncore "
                          "counting (clears en_all) pmi_freeze_delay = %s uncore clock%s later, and forwards the "
                          "PMI to the cores pmi_core_sel names (both are U-Box fields a stimulus sets; "
                          "the encoding does not)",
                          delay, strcmp(delay, "1") == 0 ? "" : "s")
        : g_strdup("pmi=0: no PMI");
    g_string_append_printf(o,
                           "  overflow: a carry out of bit %u sets %s.ov bit %u, summarized in S-Box %u's "
                           "summary and the U-Box's GLOBAL_STATUS; %s\n",
                           ctr && ctr->width ? ctr->width - 1 : 47, bs ? bs->name : "the box status", k, s_box,
                           pmi_text);

    g_autoptr(GString) t = g_string_new(NULL);
    if (!en)
        g_string_append(t, "counts nothing");
    else if (thr == 0 && !edge)
        g_string_append_printf(t, "adds, every uncore cycle, the number of occurrences of %s", sig);
    else if (thr == 0)
        g_string_append_printf(t, "counts cycles in which at least 1 occurrence of %s happens", sig);
    else
        g_string_append_printf(t, "counts cycles in which %s %" G_GUINT64_FORMAT " occurrences of %s happen",
                               inv ? (literal ? "more than" : "fewer than") : "at least", thr, sig);
    if (en) {
        g_string_append(t, ", at all privilege levels");
        if (edge)
            g_string_append(t, "; edge: counts only the first cycle of each such run");
    }
    g_string_append_printf(o, "\nIn short: %s.\n", t->str);
}

static const char *unobservable(const PmsModel *m, const PmsEvent *ev, guint counter, const guint64 *codes,
                                guint n_codes, guint code, guint bit)
{
    (void)counter;
    return pms_x86_unobservable(m, ev, codes, n_codes, code, bit,
                                "invert acts only with a non-zero threshold (semantics.md §10, A1)");
}

/* The U-Box freezes every uncore counter on a PMI when frz_all is set, and
 * forwards the PMI to the cores pmi_core_sel names (core 0 here; Intel
 * 323535-001 Table 2-4, docs/semantics.md §10) */
static const PmsCliFreezeField freeze[] = {
    { PMS_REG_GLOBAL_CTRL, "ubox", "frz_all", 1, TRUE },
    { PMS_REG_GLOBAL_CTRL, "ubox", "pmi_core_sel", 1, FALSE },
    { 0, NULL, NULL, 0, FALSE },
};

const PmsCliFamily pms_cli_nhmex = {
    .freeze = freeze,
    .explain = explain_nhmex,
    .decode_reg = pms_x86_decode_reg,
    .decode_extra_hints = TRUE,
    .list_event = pms_x86_list_event,
    .own_signal = pms_x86_own_signal,
    .unobservable = unobservable,
    .threshold = "t",
};
