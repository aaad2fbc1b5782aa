/* pmusim — the Nehalem/Westmere uncore's CLI hooks (nhm_unc, wsm_unc): its
 * counting pipeline in words. */
#include "family_impl.h"
#include "sim.h"

/* The Nehalem/Westmere uncore (nhm_unc, wsm_unc): one PMU for the whole
 * socket, MSR_UNCORE_PERFEVTSELx without USR/OS/ANY (SDM Vol. 3B 18.8.2,
 * Fig 18-28), a fixed counter that counts the uncore clock. */
static void explain_uncore(GString *o, const PmsEncoding *enc, guint counter, gboolean fixed, gboolean has_ctr)
{
    const PmsModel *m = enc->model;
    const PmsRegister *es = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    guint64 sel = enc->codes[0];
    PmsFamSel f = { TRUE,
                    TRUE,
                    pms_cli_field(es, sel, "edge"),
                    pms_cli_field(es, sel, "inv"),
                    FALSE,
                    pms_cli_field(es, sel, "en"),
                    pms_cli_field(es, sel, "int"),
                    fixed,
                    FALSE,
                    pms_cli_field(es, sel, "cmask"),
                    "at all privilege levels" };
    gboolean occ = pms_cli_field(es, sel, "occ_ctr_rst") != 0;
    guint width = fixed ? m->fixed_width : m->gp_width;
    g_autofree char *ums = pms_x86_umask_names(enc, NULL);
    g_autofree char *sig = g_strdup_printf("%s%s%s", enc->event->name, *ums ? "." : "", ums);

    g_string_append(o, "\nWhat the counter counts (SDM Vol. 3B 18.8.2, the uncore PMU of the whole socket):\n");
    if (fixed) {
        g_string_append_printf(o,
                               "  counter: uncore fixed counter %u (MSR_UNCORE_FIXED_CTR0), %u bits wide; "
                               "en and int become the EN (bit 0) and PMI (bit 2) bits of MSR_UNCORE_FIXED_CTR_CTRL "
                               "(SDM Fig 18-29)\n",
                               counter, width);
        g_string_append(o,
                        "  signal: the uncore clock: one count per U-clock cycle; the fixed counter has no event "
                        "select, unit mask, threshold or edge (SDM 18.8.2.1)\n");
    } else {
        if (has_ctr)
            g_string_append_printf(o, "  counter: uncore general counter %u (MSR_UNCORE_PMC%u), %u bits wide\n",
                                   counter, counter, width);
        g_autofree char *sigtext = pms_x86_describe_signal(enc, es, sel, sig);
        g_string_append_printf(o, "  signal: %s\n", sigtext);
    }
    g_string_append(o,
                    "  privilege: none: uncore events count at all privilege levels; the uncore is shared by "
                    "every core of the socket and its event select has no USR/OS bits (SDM Fig 18-28), "
                    "so the encoder requires the default privilege PLM0|PLM3\n");
    g_string_append(o, "  cores: occurrences of every core and thread of the socket\n");
    if (!fixed)
        pms_x86_explain_threshold(o, &f);
    if (occ)
        g_string_append(o,
                        "  occupancy: o=1: writing the select clears the queue-occupancy counter tied to the event "
                        "(OCC_CTR_RST, reads back 0, SDM 18.8.2.2)\n");
    g_string_append_printf(o, "  enable: en=%d%s\n", f.en,
                           f.en ? (fixed ? ": counts while MSR_UNCORE_PERF_GLOBAL_CTRL.EN_FC0 (bit 32) is set too"
                                         : ": counts while MSR_UNCORE_PERF_GLOBAL_CTRL.EN_PCn (bits 7:0) enables the "
                                           "counter too")
                                : ": the counter is disabled and counts nothing");
    g_string_append_printf(
        o,
        "  overflow: a carry out of bit %u sets the counter's bit in MSR_UNCORE_PERF_GLOBAL_STATUS%s "
        "(SDM 18.8.2.1)\n",
        width ? width - 1 : 0,
        f.intr ? " and requests a PMI, delivered to the cores MSR_UNCORE_PERF_GLOBAL_CTRL.EN_PMI_COREn "
                 "selects"
               : "; int=0: no PMI");

    g_autoptr(GString) s = g_string_new(NULL);
    gboolean threshold = !fixed && (f.cmask || f.edge);
    if (!f.en)
        g_string_append(s, "counts nothing");
    else if (fixed)
        g_string_append(s, "counts uncore clock cycles (U-clock)");
    else if (!threshold)
        g_string_append_printf(s, "adds, every cycle, the number of occurrences of %s", sig);
    else {
        g_autofree char *phrase = pms_x86_threshold_phrase(&f, sig);
        g_string_append_printf(s, "counts cycles in which %s", phrase);
    }
    if (f.en) {
        g_string_append(s, ", at all privilege levels (the uncore has no privilege filter)");
        if (f.edge && !fixed)
            g_string_append(s, "; edge: counts only the first cycle of each such run");
    }
    g_string_append_printf(o, "\nIn short: %s.\n", s->str);
}

static void explain(GString *o, const PmsEncoding *enc)
{
    guint counter = 0;
    gboolean fixed = FALSE;
    gboolean has_ctr = pms_sim_event_counter(enc->model, enc->event, enc->umask_mask, &counter, &fixed);
    explain_uncore(o, enc, counter, fixed, has_ctr);
}

const PmsCliFamily pms_cli_x86_uncore = {
    .explain = explain,
    .decode_reg = pms_x86_decode_reg,
    .decode_extra_hints = TRUE,
    .list_event = pms_x86_list_event,
    .own_signal = pms_x86_own_signal,
    .unobservable = pms_x86_unobservable_cmask,
    .flags = PMS_CLI_ENC_BENCH_UNCORE,
};
