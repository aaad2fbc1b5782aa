/* pmusim — the CLI hooks of the family `amd64` (AMD's core PMU before
 * PerfMonV2: models/amd64_fam17h_zen2.pmu, docs/amd64.md): the counting
 * pipeline of PERF_CTL in words, the decode register, the 12-bit event
 * code in the own signal and the listing.  perf's cpu PMU is the model's
 * [perf] (perf_render.c: its event term is event+event_hi). */
#include "family_impl.h"
#include "sim.h"

/* The 12-bit event code of a PERF_CTL value. */
static guint64 code12(const PmsRegister *ctl, guint64 v)
{
    const PmsField *lo = pms_register_field(ctl, "event");
    return pms_cli_field(ctl, v, "event") | (pms_cli_field(ctl, v, "event_hi") << (lo ? lo->width : 8));
}

static void explain(GString *o, const PmsEncoding *enc)
{
    const PmsModel *m = enc->model;
    const PmsRegister *ctl = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, enc->place.counter);
    const PmsRegister *ctr = pms_model_reg_by_kind(m, PMS_REG_PMC, enc->place.counter);
    guint64 v = enc->codes[0];
    PmsFamSel f = { pms_cli_field(ctl, v, "usr"),
                    pms_cli_field(ctl, v, "os"),
                    pms_cli_field(ctl, v, "edge"),
                    pms_cli_field(ctl, v, "inv"),
                    FALSE,
                    pms_cli_field(ctl, v, "en"),
                    pms_cli_field(ctl, v, "int"),
                    FALSE,
                    FALSE,
                    pms_cli_field(ctl, v, "cmask"),
                    NULL };
    f.rings = pms_x86_rings(&f);
    guint64 ho = pms_cli_field(ctl, v, "host_only"), go = pms_cli_field(ctl, v, "guest_only");
    gboolean svme = g_ascii_strcasecmp(pms_model_option(m, "svme", "on"), "off") != 0;
    g_autofree char *ums = pms_x86_umask_names(enc, NULL);
    g_autofree char *sig = g_strdup_printf("%s%s%s", enc->event->name, *ums ? "." : "", ums);

    g_string_append(o, "\nWhat the counter counts (docs/amd64.md, the pipeline of docs/semantics.md §3):\n");
    if (ctr)
        g_string_append_printf(o, "  counter: %s (0x%x), %u bits wide\n", ctr->name, ctr->address, ctr->width);
    g_string_append_printf(o,
                           "  signal: %s: event 0x%03" G_GINT64_MODIFIER
                           "x (bits 7:0 and 35:32 of %s), umask 0x%02" G_GINT64_MODIFIER
                           "x (and any signal whose non-zero umask bits lie inside it)\n",
                           sig, code12(ctl, v), ctl ? ctl->name : "PERF_CTL", pms_cli_field(ctl, v, "umask"));
    if (f.rings)
        g_string_append_printf(o, "  privilege: usr=%d os=%d: occurrences count %s\n", f.usr, f.os, f.rings);
    else
        g_string_append(o, "  privilege: usr=0 os=0: no ring qualifies, so nothing is ever counted\n");
    const char *modes = !svme && (ho || go) ? "in no mode: EFER.SVME is clear (model option svme=off), and a "
                                              "HostOnly or GuestOnly counter then counts nothing"
        : ho == go                          ? "in host and guest mode"
        : ho                                ? "in host mode only (HostOnly)"
                                            : "in guest mode only (GuestOnly)";
    g_string_append_printf(o, "  virtualisation: host_only=%d guest_only=%d: counts %s (the run's guest=0|1)\n",
                           (int)ho, (int)go, modes);
    pms_x86_explain_threshold(o, &f);
    g_string_append_printf(o, "  enable: en=%d%s\n", f.en,
                           f.en ? ": there is no global enable; the counter counts" : ": the counter counts nothing");
    g_string_append_printf(o,
                           "  overflow: a carry out of bit %u wraps the counter, which goes on counting%s; there is "
                           "no overflow status register (before PerfMonV2)\n",
                           ctr && ctr->width ? ctr->width - 1 : 47,
                           f.intr ? ", and raises an interrupt (int=1)" : "; int=0: no interrupt, nothing shows it");

    g_autoptr(GString) s = g_string_new(NULL);
    gboolean counts = f.en && f.rings && !(!svme && (ho || go));
    if (!counts)
        g_string_append(s, "counts nothing");
    else if (!f.cmask && !f.edge)
        g_string_append_printf(s, "adds, every cycle, the number of occurrences of %s, %s", sig, f.rings);
    else {
        g_autofree char *phrase = pms_x86_threshold_phrase(&f, sig);
        g_string_append_printf(s, "counts cycles in which %s, %s", phrase, f.rings);
    }
    if (counts && ho != go)
        g_string_append(s, ho ? ", in host mode only" : ", in guest mode only");
    if (counts && f.edge)
        g_string_append(s, "; edge: counts only the first cycle of each such run");
    g_string_append_printf(o, "\nIn short: %s.\n", s->str);
}

static void list_event(GString *o, const PmsModel *m, const PmsEvent *ev)
{
    (void)m;
    g_string_append_printf(o, "  PERF_CTL    event 7:0 = 0x%02x, event_hi 35:32 = 0x%x\n", ev->code & 0xff,
                           ev->code >> 8);
    g_string_append_printf(o, "  counters    0x%" G_GINT64_MODIFIER "x\n", ev->counters);
}

static guint32 own_signal(const PmsModel *m, const guint64 *codes, guint n_codes)
{
    (void)n_codes;
    const PmsRegister *ctl = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    return PMS_SIGNAL_KEY(code12(ctl, codes[0]), pms_cli_field(ctl, codes[0], "umask"));
}

/* Bits of PERF_CTL whose flip no count can show: the x86 core's reasons
 * (INV without a counter mask, CMASK 0 and 1 under E). */
static const char *unobservable(const PmsModel *m, const PmsEvent *ev, guint counter, const guint64 *codes,
                                guint n_codes, guint code, guint bit)
{
    (void)counter;
    return pms_x86_unobservable(m, ev, codes, n_codes, code, bit,
                                "INV acts only with a non-zero counter mask (semantics.md A1, as on Intel)");
}

const PmsCliFamily pms_cli_amd64 = {
    .explain = explain,
    .decode_reg = pms_x86_decode_reg,
    .list_event = list_event,
    .own_signal = own_signal,
    .unobservable = unobservable,
};
