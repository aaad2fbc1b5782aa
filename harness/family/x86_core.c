/* pmusim — the x86 architectural core's CLI hooks (glm, nhm, wsm): the
 * counting pipeline of PERFEVTSEL/FIXED_CTR_CTRL in words.  perf's cpu PMU
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

/* The counting pipeline of docs/semantics.md §3, one line per stage, on the
 * lowest counter the event may use. */
static void explain(GString *o, const PmsEncoding *enc)
{
    const PmsModel *m = enc->model;
    guint counter = 0;
    gboolean fixed = FALSE;
    gboolean has_ctr = pms_sim_event_counter(m, enc->event, enc->umask_mask, &counter, &fixed);
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
    f.rings = f.usr && f.os ? "at CPL 0 and CPL>0" : f.os ? "at CPL 0 only" : f.usr ? "at CPL>0 only" : NULL;
    guint width = fixed ? m->fixed_width : m->gp_width;
    g_autofree char *ums = pms_x86_umask_names(enc, NULL);
    g_autofree char *sig = g_strdup_printf("%s%s%s", enc->event->name, *ums ? "." : "", ums);
    g_autofree char *sigtext = pms_x86_describe_signal(enc, es, sel, sig);
    PmsPlacement pl = { m, enc->event, counter, fixed };
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
    pms_x86_explain_threshold(o, &f);
    g_string_append_printf(o, "  enable: en=%d%s\n", f.en,
                           f.en ? ": counts while GLOBAL_CTRL enables the counter too (SDM 18-7)"
                                : ": the counter is disabled and counts nothing");
    g_string_append_printf(o, "  overflow: a carry out of bit %u sets the counter's GLOBAL_STATUS bit%s (SDM 18-4)\n",
                           width ? width - 1 : 0, f.intr ? " and raises a PMI (int=1)" : "; int=0: no PMI");

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

const PmsCliFamily pms_cli_x86_core = {
    .freeze = freeze,
    .explain = explain,
    .decode_reg = pms_x86_decode_reg,
    .decode_extra_hints = TRUE,
    .list_event = pms_x86_list_event,
    .own_signal = pms_x86_own_signal,
    .unobservable = pms_x86_unobservable_cmask,
    .flags = PMS_CLI_SIM_BENCH,
};
