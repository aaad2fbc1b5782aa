/* pmusim — the x86 architectural core's CLI hooks (glm, nhm, wsm, skl,
 * icl): the counting pipeline of PERFEVTSEL/FIXED_CTR_CTRL in words, with
 * skl's TSX qualifiers and FRONTEND_RETIRED's MSR_PEBS_FRONTEND.  perf's cpu PMU
 * is the models' [perf] (perf_render.c). */
#include "family_impl.h"
#include "sim.h"
#include "program.h"

/* A top-down metric (Icelake's TOPDOWN_M:RETIRING ...; docs/semantics.md
 * §8c): what PERF_METRICS' field means, and the rules for reading it. */
static void explain_metric(GString *o, const PmsRegister *r, guint shift, guint width, const char *what, guint counter)
{
    g_string_append(o, "\nWhat the metric reads (docs/semantics.md §8c):\n");
    g_string_append_printf(o,
                           "  field: %s bits %u:%u: the share of the slots fixed counter %u counted since %s was "
                           "last written that went to %s, an 8-bit fraction (0xff = 100 %%; the four level-1 "
                           "fields add up to 0xff, choice T2)\n",
                           r->name, shift + width - 1, shift, counter, r->name, what);
    g_string_append(o,
                    "  slots: a cycle has the model's slots_width slots (T1), each retiring, lost to bad "
                    "speculation, left empty by the front end or blocked by the back end\n");
    g_string_append_printf(o,
                           "  in slots: FIXED_CTR%u x field / 0xff, rounded down (as Linux decodes it): 1/255 is "
                           "the precision, so the error in slots grows with the slots counted, and a long "
                           "interval averages its phases\n",
                           counter);
    g_string_append_printf(o,
                           "  enable: GLOBAL_CTRL bit 48 (perf_metrics) besides the counter's own; with bit 48 "
                           "clear %s keeps its value (T4)\n",
                           r->name);
    g_string_append_printf(o,
                           "  reset: write FIXED_CTR%u = 0 first, then %s = 0: a written value weighs as the slots "
                           "FIXED_CTR%u holds at that moment (T5); Linux reads both and resets them after every "
                           "read, so that each reading covers one short interval; GLOBAL_STATUS bit 48 says the "
                           "slot total overflowed (T3)\n",
                           counter, r->name, counter);
    g_string_append_printf(o, "\nIn short: reads which share of the slots went to %s since the last reset, in 1/255.\n",
                           what);
}

#include <string.h>

/* skl (docs/semantics.md §8d): IN_TX / IN_TXCP, one line. */
static void explain_tsx(GString *o, const PmsRegister *es, guint64 sel)
{
    guint64 tx = pms_cli_field(es, sel, "in_tx"), cp = pms_cli_field(es, sel, "in_txcp");
    if (tx)
        g_string_append(o,
                        "  transactions: in_tx=1: counts only in cycles inside a transactional region, "
                        "committed or aborted (SDM 18.11.5.1; regions from the stimulus's tx=)\n");
    if (cp)
        g_string_append(o,
                        "  transactions: in_txcp=1: at a transaction abort the counter returns to its value at "
                        "the outermost begin, and an overflow bit the region set is cleared too (SDM 18.11.5.1; "
                        "choice txcp_status, docs/semantics.md §8d); only PERFEVTSEL2 takes this bit\n");
}

/* FRONTEND_RETIRED: what MSR_PEBS_FRONTEND (codes[1]) selects (SDM-2016
 * Tables 18-58/18-59). */
static void explain_frontend(GString *o, const PmsEncoding *enc)
{
    const PmsModel *m = enc->model;
    const PmsRegister *x = enc->event->extra_reg ? pms_model_reg_by_name(m, enc->event->extra_reg) : NULL;
    if (!x || x->kind != PMS_REG_PEBS_FRONTEND || enc->n_codes < 2)
        return;
    guint64 v = enc->codes[1];
    guint64 sel = pms_cli_field(x, v, "evtsel"), len = pms_cli_field(x, v, "idq_bubble_length");
    guint64 wid = pms_cli_field(x, v, "idq_bubble_width");
    static const struct {
        guint code;
        const char *what;
    } subs[] = {
        { 0x01, "any DSB miss" },           { 0x11, "a critical DSB miss" }, { 0x12, "an L1I miss" },
        { 0x13, "an L2 instruction miss" }, { 0x14, "an ITLB miss" },        { 0x15, "an STLB miss" },
    };
    const char *what = NULL;
    for (guint i = 0; i < G_N_ELEMENTS(subs); i++)
        if (subs[i].code == sel)
            what = subs[i].what;
    if (sel == 0x06)
        g_string_append_printf(o,
                               "  front end: %s = 0x%" G_GINT64_MODIFIER "x: retired instructions delivered after at "
                               "least %" G_GUINT64_FORMAT " cycles with at least %" G_GUINT64_FORMAT
                               " of the 4 issue slots empty (IDQ bubbles, SDM-2016 Table 18-59)\n",
                               x->name, v, len, wid);
    else if (what)
        g_string_append_printf(o,
                               "  front end: %s = 0x%" G_GINT64_MODIFIER "x: retired instructions that had %s "
                               "(SDM-2016 Table 18-58; the bubble fields do not apply)\n",
                               x->name, v, what);
    else
        g_string_append_printf(o,
                               "  front end: %s = 0x%" G_GINT64_MODIFIER "x: sub-event 0x%" G_GINT64_MODIFIER
                               "x selects nothing (Table 18-58)\n",
                               x->name, v, sel);
}

/* The counting pipeline of docs/semantics.md §3, one line per stage, on the
 * lowest counter the event may use. */
static void explain(GString *o, const PmsEncoding *enc)
{
    const PmsModel *m = enc->model;
    guint counter = 0;
    gboolean fixed = FALSE;
    /* placed with its codes: an IN_TXCP event goes to PERFEVTSEL2 (skl) */
    PmsPlacement pl;
    gboolean has_ctr = pms_program_place_codes(m, enc->event, enc->umask_mask, enc->codes, enc->n_codes, &pl, NULL);
    if (has_ctr)
        counter = pl.counter, fixed = pl.fixed;
    const PmsRegister *es = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    guint64 sel = enc->codes[0];
    PmsFamSel f = { pms_cli_field(es, sel, "usr"),
                    pms_cli_field(es, sel, "os"),
                    pms_cli_field(es, sel, "edge"),
                    pms_cli_field(es, sel, "inv"),
                    pms_cli_field(es, sel, "any"),
                    pms_cli_field(es, sel, "en"),
                    pms_cli_field(es, sel, "int"),
                    fixed,
                    m->smt,
                    pms_cli_field(es, sel, "cmask"),
                    NULL };
    f.rings = pms_x86_rings(&f);
    guint width = fixed ? m->fixed_width : m->gp_width;
    g_autofree char *ums = pms_x86_umask_names(enc, NULL);
    g_autofree char *sig = g_strdup_printf("%s%s%s", enc->event->name, *ums ? "." : "", ums);
    g_autofree char *sigtext = pms_x86_describe_signal(enc, es, sel, sig);
    const PmsRegister *mr = NULL;
    guint mshift = 0, mwidth = 0;
    gboolean metric = has_ctr && pms_program_metric(&pl, sel, &mr, &mshift, &mwidth);
    if (metric) {
        g_free(sigtext);
        sigtext = g_strdup_printf("the slots of each cycle, every category (TOPDOWN.SLOTS: the stimulus's slots=), "
                                  "the whole of which %s is a fraction",
                                  sig);
    }

    g_string_append(o, "\nWhat the counter counts (docs/semantics.md §3, one line per pipeline stage):\n");
    if (has_ctr && fixed)
        g_string_append_printf(o,
                               "  counter: fixed counter %u, %u bits wide (usr/os/any/int become its EN/ANY/PMI "
                               "bits in FIXED_CTR_CTRL, SDM 18-7)\n",
                               counter, width);
    else if (has_ctr)
        g_string_append_printf(o, "  counter: general counter %u, %u bits wide\n", counter, width);
    g_string_append_printf(o, "  signal: %s\n", sigtext);
    if (f.rings)
        g_string_append_printf(o,
                               "  privilege: usr=%d os=%d: occurrences count %s (SDM 18-4: os is CPL 0, usr CPL 1-3)\n",
                               f.usr, f.os, f.rings);
    else
        g_string_append(o, "  privilege: usr=0 os=0: no ring qualifies, so nothing is ever counted\n");
    if (f.any && m->smt)
        g_string_append(o,
                        "  threads: any=1: both hardware threads' occurrences are combined, each filtered by its "
                        "own CPL first (SDM 18-9, choice A3; summed, or OR-ed for clock events, choice A6)\n");
    else if (f.any)
        g_string_append_printf(o, "  threads: any=1 is ignored: %s has no SMT (SDM 18.7)\n", m->name);
    else
        g_string_append(o, "  threads: only this thread's occurrences\n");
    explain_tsx(o, es, sel);
    explain_frontend(o, enc);
    pms_x86_explain_threshold(o, &f);
    g_string_append_printf(o, "  enable: en=%d%s\n", f.en,
                           f.en ? ": counts while GLOBAL_CTRL enables the counter too (SDM 18-7)"
                                : ": the counter is disabled and counts nothing");
    g_string_append_printf(o, "  overflow: a carry out of bit %u sets the counter's GLOBAL_STATUS bit%s (SDM 18-4)\n",
                           width ? width - 1 : 0, f.intr ? " and raises a PMI (int=1)" : "; int=0: no PMI");
    /* what turns a PMI into a stop, named by register and bit (the
     * encoding never sets it: a stimulus or sim --freeze does) */
    const PmsRegister *dbg = pms_model_reg_by_kind(m, PMS_REG_DEBUGCTL, 0);
    const PmsField *frz = dbg ? pms_layout_field(dbg->layout, "freeze_perfmon_on_pmi") : NULL;
    if (f.intr && frz)
        g_string_append_printf(o,
                               "  freeze: the PMI stops every counter only when %s.freeze_perfmon_on_pmi (bit %u) "
                               "is set: %s (SDM 18.4.7; docs/semantics.md §4); the encoding does not set it, a "
                               "stimulus or `pmusim sim --freeze` does\n",
                               dbg->name, frz->shift,
                               m->version >= 4 ? "the PMI sets GLOBAL_STATUS.ctr_frz (v4 freeze)"
                                               : "the PMI clears IA32_PERF_GLOBAL_CTRL (v3)");

    /* The one-sentence answer. */
    g_autoptr(GString) s = g_string_new(NULL);
    gboolean threshold = !fixed && (f.cmask || f.edge);
    if (!f.en || !f.rings) {
        g_string_append(s, "counts nothing");
    } else if (!threshold) {
        g_string_append_printf(s, "adds, every cycle, the number of occurrences of %s", sig);
    } else {
        g_autofree char *phrase = pms_x86_threshold_phrase(&f, sig);
        g_string_append_printf(s, "counts cycles in which %s", phrase);
    }
    if (f.en && f.rings) {
        g_string_append_printf(s, ", %s", f.rings);
        if (f.any && m->smt)
            g_string_append(s, ", on both threads together");
        if (f.edge && !fixed)
            g_string_append(s, "; edge: counts only the first cycle of each such run");
    }
    if (metric) {
        static const char *const what[] = { "retiring", "bad speculation", "the front end (front-end bound)",
                                            "the back end (back-end bound)" };
        guint k = (guint)((sel >> 8) & 0x7f);
        g_string_append_printf(o, "\nThe counter: fixed counter %u %s.\n", counter,
                               f.en && f.rings ? "adds every cycle's slots" : "counts nothing");
        explain_metric(o, mr, mshift, mwidth, k < G_N_ELEMENTS(what) ? what[k] : ums, counter);
        return;
    }
    g_string_append_printf(o, "\nIn short: %s.\n", s->str);
}

/* DEBUGCTL.Freeze_PerfMon_On_PMI (SDM 18.4.7; v4 adds the freeze-status
 * bits, docs/semantics.md §4) */
static const PmsCliFreezeField freeze[] = {
    { PMS_REG_DEBUGCTL, NULL, "freeze_perfmon_on_pmi", 1, TRUE },
    { 0, NULL, NULL, 0, FALSE },
};
/* FRONTEND_RETIRED's surviving mutants no stimulus can show: AnyThread
 * (SDM-2016 18.13.1.4: ignored for this event) and MSR_PEBS_FRONTEND's
 * bubble fields outside the bubble sub-event (0x06; docs/semantics.md §8d). */
static const char *unobservable(const PmsModel *m, const PmsEvent *ev, guint counter, const guint64 *codes,
                                guint n_codes, guint code, guint bit)
{
    const PmsRegister *x = ev->extra_reg ? pms_model_reg_by_name(m, ev->extra_reg) : NULL;
    if (x && x->kind == PMS_REG_PEBS_FRONTEND && n_codes >= 2) {
        const PmsRegister *es = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
        guint64 flip = (guint64)1 << bit;
        if (code == 0 && pms_cli_field(es, flip, "any"))
            return "AnyThread is ignored for FRONTEND_RETIRED (SDM-2016 18.13.1.4)";
        if (code == 1 && pms_cli_field(x, codes[1], "evtsel") != 0x06 &&
            (pms_cli_field(x, flip, "idq_bubble_length") || pms_cli_field(x, flip, "idq_bubble_width")))
            return "MSR_PEBS_FRONTEND's IDQ bubble fields act only in the bubble sub-event 0x06 (SDM-2016 Table "
                   "18-59; docs/semantics.md §8d)";
    }
    return pms_x86_unobservable_cmask(m, ev, counter, codes, n_codes, code, bit);
}

const PmsCliFamily pms_cli_x86_core = {
    .freeze = freeze,
    .explain = explain,
    .decode_reg = pms_x86_decode_reg,
    .decode_extra_hints = TRUE,
    .list_event = pms_x86_list_event,
    .own_signal = pms_x86_own_signal,
    .unobservable = unobservable,
    .flags = PMS_CLI_SIM_BENCH,
};
