/* pmusim explain — what an event string makes the counter count.
 *
 *   pmusim explain [--pmu PMU] EVENT [--model FILE]
 *
 * Prints every register the encoder writes with every field of its layout,
 * then the counting pipeline in plain words generated from those field values
 * by the rules of docs/semantics.md §3 (each sentence names its rule), and a
 * one-sentence summary.  Nothing here counts: the words follow the same rules
 * the simulator's pipeline (sim/sim_pipe.c) implements. */
#include "cli_common.h"
#include "commands.h"
#include "lbr_report.h"
#include "encoder.h"
#include "pebs.h"
#include "program.h"
#include "sim_setup.h"

#include <stdio.h>
#include <string.h>

/* A field of the event-select value, by name (0 when the layout lacks it). */
static guint64 evfield(const PmsRegister *es, guint64 v, const char *name)
{
    const PmsField *f = pms_register_field(es, name);
    return f ? pms_field_get(f, v) : 0;
}

static void print_write(GString *o, const PmsModel *m, const PmsRegWrite *w)
{
    g_string_append_printf(o, "%s (0x%x) = 0x%" G_GINT64_MODIFIER "x", w->name, w->address, w->value);
    if (w->mask != G_MAXUINT64)
        g_string_append_printf(o, "  (bits 0x%" G_GINT64_MODIFIER "x only; the others unchanged)", w->mask);
    g_string_append_c(o, '\n');
    const PmsRegister *reg = w->reg;
    if (!reg || !reg->layout)
        return;
    for (guint i = 0; i < reg->layout->n_fields; i++) {
        const PmsField *f = &reg->layout->fields[i];
        if (!pms_field_get(f, w->mask))
            continue;
        guint64 v = pms_field_get(f, w->value);
        g_autofree char *bits = f->width > 1 ? g_strdup_printf("%u:%u", f->shift + f->width - 1, f->shift)
                                              : g_strdup_printf("%u", f->shift);
        g_string_append_printf(o, "  %-12s bits %-5s", f->name, bits);
        g_string_append_printf(o, " = 0x%" G_GINT64_MODIFIER "x\n", v);
    }
}

/* The selected unit masks, "+"-joined: all of them (which NULL), only the
 * request group ("request"), or every other group ("response": response,
 * supplier and snoop bits all answer the request side). */
static char *umask_names(const PmsEncoding *enc, const char *which)
{
    const PmsEvent *ev = enc->event;
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < ev->n_umasks && i < 64; i++) {
        if (!(enc->umask_mask & ((guint64)1 << i)))
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
static char *describe_signal(const PmsEncoding *enc, const PmsRegister *es, guint64 sel, const char *name)
{
    const PmsModel *m = enc->model;
    const PmsEvent *ev = enc->event;
    guint64 code = evfield(es, sel, "event"), umask = evfield(es, sel, "umask");
    const PmsRegister *x = ev->extra_reg ? pms_model_reg_by_name(m, ev->extra_reg) : NULL;
    guint64 extra = enc->n_codes >= 2 ? enc->codes[1] : 0;
    if (x && x->kind == PMS_REG_OFFCORE_RSP) {
        g_autofree char *req = umask_names(enc, "request");
        g_autofree char *resp = umask_names(enc, "response");
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
                               " cycles (%s threshold; strictly greater, SDM 18-39)", thr, x->name);
    }
    if (ev->counters == 0 && ev->fixed)
        return g_strdup_printf("an occurrence is one %s (signal event 0x%02" G_GINT64_MODIFIER "x, umask 0x%02"
                               G_GINT64_MODIFIER "x, one of the signals its fixed counter counts) [semantics.md §2]",
                               name, code, umask);
    return g_strdup_printf("an occurrence is one %s (signal event 0x%02" G_GINT64_MODIFIER "x, umask 0x%02"
                           G_GINT64_MODIFIER "x%s) [semantics.md §2]",
                           name, code, umask,
                           ev->match == PMS_MATCH_EXACT || umask == 0
                               ? ", matched exactly"
                               : ", plus any signal whose non-zero umask bits all lie inside it");
}

/* The evtsel fields the pipeline reads (docs/semantics.md §3). */
typedef struct {
    gboolean usr, os, edge, inv, any, en, intr, fixed, smt;
    guint64 cmask;
    const char *rings;   /* which rings qualify, NULL for none */
} Sel;

/* "at least 2 occurrences of X happen" / "no occurrence of X happens" */
static char *threshold_phrase(const Sel *f, const char *sig)
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
static void explain_threshold(GString *o, const Sel *f)
{
    if (f->fixed) {
        g_string_append(o, "  threshold: none: a fixed counter has no cmask, inv or edge (SDM 18-7); each cycle "
                           "adds n\n");
        if (f->cmask || f->inv || f->edge)
            g_string_append(o, "  note: the code's cmask/inv/e have no place in FIXED_CTR_CTRL and are dropped\n");
        return;
    }
    if (f->cmask == 0) {
        g_string_append(o, "  threshold: cmask=0: no threshold; each cycle adds n, its number of occurrences "
                           "(SDM 18-4)\n");
        if (f->inv)
            g_string_append(o, "  invert: inv=1 is ignored because cmask=0 (SDM 18-4; choice A1)\n");
    } else {
        g_string_append_printf(o, "  threshold: cmask=%" G_GUINT64_FORMAT ", inv=%d: a cycle qualifies when %s %"
                               G_GUINT64_FORMAT " occurrences happen in it (n %s %" G_GUINT64_FORMAT
                               "); each qualifying cycle adds 1 (SDM 18-4)\n",
                               f->cmask, f->inv, f->inv ? "fewer than" : "at least", f->cmask, f->inv ? "<" : ">=",
                               f->cmask);
    }
    if (f->edge)
        g_string_append_printf(o, "  edge: e=1: only the first cycle of each run of qualifying cycles adds 1 (rising "
                                  "edge of the threshold output%s; the latch starts clear after the PERFEVTSEL write, "
                                  "choice A4)\n", f->cmask == 0 ? ", cmask=0 acting as n >= 1, choice A2" : "");
}

/* The Nehalem/Westmere uncore (nhm_unc, wsm_unc): one PMU for the whole
 * socket, MSR_UNCORE_PERFEVTSELx without USR/OS/ANY (SDM Vol. 3B 18.8.2,
 * Fig 18-28), a fixed counter that counts the uncore clock. */
static void explain_uncore(GString *o, const PmsEncoding *enc, guint counter, gboolean fixed, gboolean has_ctr)
{
    const PmsModel *m = enc->model;
    const PmsRegister *es = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    guint64 sel = enc->codes[0];
    Sel f = { TRUE, TRUE, evfield(es, sel, "edge"), evfield(es, sel, "inv"), FALSE, evfield(es, sel, "en"),
              evfield(es, sel, "int"), fixed, FALSE, evfield(es, sel, "cmask"), "at all privilege levels" };
    gboolean occ = evfield(es, sel, "occ_ctr_rst") != 0;
    guint width = fixed ? m->fixed_width : m->gp_width;
    g_autofree char *ums = umask_names(enc, NULL);
    g_autofree char *sig = g_strdup_printf("%s%s%s", enc->event->name, *ums ? "." : "", ums);

    g_string_append(o, "\nWhat the counter counts (SDM Vol. 3B 18.8.2, the uncore PMU of the whole socket):\n");
    if (fixed) {
        g_string_append_printf(o, "  counter: uncore fixed counter %u (MSR_UNCORE_FIXED_CTR0), %u bits wide; "
                                  "en and int become the EN (bit 0) and PMI (bit 2) bits of MSR_UNCORE_FIXED_CTR_CTRL "
                                  "(SDM Fig 18-29)\n", counter, width);
        g_string_append(o, "  signal: the uncore clock: one count per U-clock cycle; the fixed counter has no event "
                           "select, unit mask, threshold or edge (SDM 18.8.2.1)\n");
    } else {
        if (has_ctr)
            g_string_append_printf(o, "  counter: uncore general counter %u (MSR_UNCORE_PMC%u), %u bits wide\n",
                                   counter, counter, width);
        g_autofree char *sigtext = describe_signal(enc, es, sel, sig);
        g_string_append_printf(o, "  signal: %s\n", sigtext);
    }
    g_string_append(o, "  privilege: none: uncore events count at all privilege levels; the uncore is shared by "
                       "every core of the socket and its event select has no USR/OS bits (SDM Fig 18-28), "
                       "so the encoder requires the default privilege PLM0|PLM3\n");
    g_string_append(o, "  cores: occurrences of every core and thread of the socket\n");
    if (!fixed)
        explain_threshold(o, &f);
    if (occ)
        g_string_append(o, "  occupancy: o=1: writing the select clears the queue-occupancy counter tied to the event "
                           "(OCC_CTR_RST, reads back 0, SDM 18.8.2.2)\n");
    g_string_append_printf(o, "  enable: en=%d%s\n", f.en,
                           f.en ? (fixed ? ": counts while MSR_UNCORE_PERF_GLOBAL_CTRL.EN_FC0 (bit 32) is set too"
                                         : ": counts while MSR_UNCORE_PERF_GLOBAL_CTRL.EN_PCn (bits 7:0) enables the "
                                           "counter too")
                                : ": the counter is disabled and counts nothing");
    g_string_append_printf(o, "  overflow: a carry out of bit %u sets the counter's bit in MSR_UNCORE_PERF_GLOBAL_STATUS%s "
                              "(SDM 18.8.2.1)\n", width ? width - 1 : 0,
                           f.intr ? " and requests a PMI, delivered to the cores MSR_UNCORE_PERF_GLOBAL_CTRL.EN_PMI_COREn "
                                    "selects" : "; int=0: no PMI");

    g_autoptr(GString) s = g_string_new(NULL);
    gboolean threshold = !fixed && (f.cmask || f.edge);
    if (!f.en)
        g_string_append(s, "counts nothing");
    else if (fixed)
        g_string_append(s, "counts uncore clock cycles (U-clock)");
    else if (!threshold)
        g_string_append_printf(s, "adds, every cycle, the number of occurrences of %s", sig);
    else {
        g_autofree char *phrase = threshold_phrase(&f, sig);
        g_string_append_printf(s, "counts cycles in which %s", phrase);
    }
    if (f.en) {
        g_string_append(s, ", at all privilege levels (the uncore has no privilege filter)");
        if (f.edge && !fixed)
            g_string_append(s, "; edge: counts only the first cycle of each such run");
    }
    g_string_append_printf(o, "\nIn short: %s.\n", s->str);
}

/* The Xeon 7500 C-Box (arch nhmex_cbox): no privilege filter, threshold then
 * invert then edge in series, three enables (Intel 323535-001 Table 2-13;
 * docs/semantics.md §7, choices A5, A16, A17).  The counter is the lowest
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
    guint64 code = evfield(es, sel, "event"), umask = evfield(es, sel, "umask");
    guint64 thr = evfield(es, sel, "threshold"), inv = evfield(es, sel, "inv"), edge = evfield(es, sel, "edge");
    guint64 en = evfield(es, sel, "en"), pmi = evfield(es, sel, "pmi_en");
    gboolean literal = g_strcmp0(pms_model_option(m, "invert", "documented"), "literal") == 0;
    const char *cmp = inv ? (literal ? ">" : "<") : ">=";
    g_autofree char *ums = umask_names(enc, NULL);
    g_autofree char *sig = g_strdup_printf("%s%s%s", ev->name, *ums ? "." : "", ums);

    if (enc->n_writes == 0 && es) {
        /* no writes from the program step (an event no counter takes): show where codes[0] belongs */
        PmsRegWrite w = { es->name, es->address, sel, G_MAXUINT64, es };
        print_write(o, m, &w);
        g_string_append(o, "  (codes[0], for this box's event select; the program step gave no register writes)\n");
    }
    g_string_append(o, "\nWhat the counter counts (docs/semantics.md §7, one line per stage):\n");
    if (ctr)
        g_string_append_printf(o, "  counter: %s %u counter %u, %s (0x%x), %u bits wide\n", m->unit ? m->unit : "box",
                               m->instance, k, ctr->name, ctr->address, ctr->width);
    g_string_append_printf(o, "  signal: an occurrence is one %s (event 0x%02" G_GINT64_MODIFIER "x, umask 0x%02"
                           G_GINT64_MODIFIER "x%s); a C-Box event may occur several times in one uncore cycle\n",
                           sig, code, umask,
                           ev->match == PMS_MATCH_EXACT || umask == 0
                               ? ", matched exactly"
                               : ", plus any signal whose non-zero umask bits all lie inside it");
    g_string_append(o, "  privilege: none: the uncore has no privilege or thread filter; occurrences count at all "
                       "levels, from every core\n");
    if (thr == 0) {
        g_string_append(o, "  threshold: t=0: no threshold; each cycle adds n, its number of occurrences\n");
        if (inv)
            g_string_append(o, "  invert: i=1 is ignored because t=0 (choice A5)\n");
    } else {
        g_string_append_printf(o, "  threshold: t=%" G_GUINT64_FORMAT ", i=%d: a cycle qualifies when n %s %"
                               G_GUINT64_FORMAT "; each qualifying cycle adds 1 (Table 2-13; invert read %s, "
                               "choice A5, option invert)\n", thr, (int)inv, cmp, thr,
                               literal ? "literally" : "as documented");
    }
    if (edge)
        g_string_append_printf(o, "  edge: e=1, in series after threshold and invert (Table 2-13 note): only the "
                                  "first cycle of each run of qualifying cycles adds 1%s\n",
                               thr == 0 ? " (t=0 acting as n >= 1)" : "");
    if (en)
        g_string_append_printf(o, "  enable: en=1 (the encoder always sets it); the counter counts only while %s."
                                  "ctr_en bit %u and %s.en_all are set too (Table 2-13 note)\n",
                               bc ? bc->name : "the box's GLOBAL_CTL", k,
                               gc ? gc->name : "U_MSR_PMON_GLOBAL_CTL");
    else
        g_string_append(o, "  enable: en=0: the counter is disabled and counts nothing\n");
    guint s_box = m->instance / 4;
    g_string_append_printf(o, "  overflow: a carry out of bit %u sets %s.ov bit %u, summarized in S-Box %u's "
                              "summary and the U-Box's GLOBAL_STATUS; %s\n",
                           ctr && ctr->width ? ctr->width - 1 : 47, bs ? bs->name : "the box status", k, s_box,
                           pmi ? "pmi=1: a PMI goes to the U-Box, which freezes all uncore counting (clears "
                                 "en_all) when frz_all is set, pmi_freeze_delay uncore clocks later, and "
                                 "forwards it to the core pmi_core_sel names"
                               : "pmi=0: no PMI");

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

/* Itanium 2 9000 (Montecito): the counting PMC (registers.md §3), the
 * threshold rule of libpfm_montecito(3), the privilege mask, an EAR event's
 * configuration register.  Which comparison the threshold makes is the model
 * option thres_compare (gt: more than n, the document's words; ge). */
static void explain_ia64(GString *o, const PmsEncoding *enc)
{
    const PmsModel *m = enc->model;
    const PmsEvent *ev = enc->event;
    const PmsRegister *pmc = enc->place.event ? pms_model_reg_by_kind(m, PMS_REG_IA64_PMC, enc->place.counter)
                                              : pms_model_reg_by_kind(m, PMS_REG_IA64_PMC, m->counter_base);
    const PmsRegister *pmd = enc->place.event ? pms_program_counter_reg(&enc->place) : NULL;
    guint64 v = enc->codes[0];
    guint64 es = evfield(pmc, v, "es"), umask = evfield(pmc, v, "umask"), thres = evfield(pmc, v, "thres");
    guint64 oi = evfield(pmc, v, "oi");
    guint plm = 0;
    static const char *const plms[4] = { "plm0", "plm1", "plm2", "plm3" };
    for (guint i = 0; i < 4; i++)
        plm |= (guint)evfield(pmc, v, plms[i]) << i;
    guint mesi = 0;
    static const char *const ms[4] = { "mesi_i", "mesi_s", "mesi_e", "mesi_m" };
    for (guint i = 0; i < 4; i++)
        mesi |= (guint)evfield(pmc, v, ms[i]) << i;
    gboolean ge = g_strcmp0(pms_model_option(m, "thres_compare", "gt"), "ge") == 0;
    gboolean wrap = g_strcmp0(pms_model_option(m, "overflow_without_oi", "wrap"), "wrap") == 0;
    guint width = pmd && pmd->width ? pmd->width : m->gp_width;

    g_string_append(o, "\nWhat the counter counts (reference registers.md §3, libpfm_montecito(3)):\n");
    if (pmd)
        g_string_append_printf(o, "  counter: %s configures %s, %u bits wide (the lowest counter the event's mask "
                                  "allows)\n", pmc ? pmc->name : "PMC?", pmd->name, width);
    g_string_append_printf(o, "  signal: an occurrence is one %s (es 0x%02" G_GINT64_MODIFIER "x, umask 0x%"
                           G_GINT64_MODIFIER "x); it occurs at most %u time%s per cycle (max_inc)\n",
                           ev->equiv ? ev->equiv : ev->name, es, umask, ev->max_inc, ev->max_inc == 1 ? "" : "s");
    if (ev->ear && enc->n_codes > 1) {
        const PmsRegister *x = ev->extra_reg ? pms_model_reg_by_name(m, ev->extra_reg) : NULL;
        g_string_append_printf(o, "  EAR: %s event in %s mode: the counter counts the EAR's events (its umask is 0); "
                                  "the event's umask 0x%x goes to %s = 0x%" G_GINT64_MODIFIER "x\n",
                               ev->ear == PMS_IA64_EAR_D ? "a D-EAR" : "an I-EAR", pms_ia64_ear_mode_name(ev->ear_mode),
                               ev->base_umask, x ? x->name : "the EAR configuration register", enc->codes[1]);
    }
    GString *lv = g_string_new(NULL);
    for (guint i = 0; i < 4; i++)
        if (plm & (1u << i))
            g_string_append_printf(lv, "%s%u", lv->len ? ", " : "", i);
    if (plm)
        g_string_append_printf(o, "  privilege: plm=0x%x: occurrences count at privilege level%s %s (bit k = level k; "
                                  "k sets PLM0, u PLM3, PLM1/PLM2 come from the default mask)\n",
                               plm, (plm & (plm - 1)) ? "s" : "", lv->str);
    else
        g_string_append(o, "  privilege: plm=0: no privilege level qualifies, so nothing is ever counted\n");
    g_string_free(lv, TRUE);
    /* the PSR gate and the instruction-set mask (docs/semantics.md §11.2) */
    guint64 pm = evfield(pmc, v, "pm"), ism = evfield(pmc, v, "ism") & 3;
    gboolean ism_enable = g_strcmp0(pms_model_option(m, "ism_bits", "mask"), "enable") == 0;
    gboolean ia64 = ism_enable ? (ism >> 1) & 1 : !(ism & 1), ia32 = ism_enable ? ism & 1 : !((ism >> 1) & 1);
    g_string_append_printf(o, "  gate: pm=%" G_GUINT64_FORMAT ": a %s monitor, counting a thread's occurrences only "
                              "while its PSR.%s is set; ism=%" G_GUINT64_FORMAT ": %s%s (registers.md §3: 10b = "
                              "IA-64 only; other values per model option ism_bits = %s)\n",
                           pm, pm ? "privileged" : "user", pm ? "pp" : "up", ism,
                           ia64 && ia32 ? "IA-64 and IA-32 instructions" : ia64 ? "IA-64 instructions only"
                                                                          : ia32 ? "IA-32 instructions only"
                                                                                 : "no instruction set",
                           ia64 || ia32 ? " count" : " counts", ism_enable ? "enable" : "mask");
    if (thres == 0)
        g_string_append(o, "  threshold: thres=0: no threshold; each cycle adds n, its number of occurrences\n");
    else
        g_string_append_printf(o, "  threshold: thres=%" G_GUINT64_FORMAT ": a cycle adds 1 when the event occurs "
                                  "more than %" G_GUINT64_FORMAT " times in it (libpfm_montecito(3): \"a threshold of n "
                                  "means that the counter will be incremented by one only when the event occurs more "
                                  "than n times per cycle\"); thres must stay below max_inc %u; the simulator compares "
                                  "n %s %" G_GUINT64_FORMAT " (model option thres_compare = %s)\n",
                               thres, thres, ev->max_inc, ge ? ">=" : ">", thres, ge ? "ge" : "gt");
    if (ev->mesi)
        g_string_append_printf(o, "  MESI: only lines in state%s%s%s%s%s count (bits 27-30)\n", mesi ? "" : " (none)",
                               mesi & 1 ? " I" : "", mesi & 2 ? " S" : "", mesi & 4 ? " E" : "", mesi & 8 ? " M" : "");
    g_string_append_printf(o, "  overflow: a carry out of bit %u %s\n", width ? width - 1 : 46,
                           oi ? "sets PMC0's overflow bit of the counter and fr (freeze), and raises a PMU interrupt "
                                "(oi=1)"
                              : wrap ? "wraps the counter; oi=0: no overflow bit, no freeze, no interrupt (model option "
                                       "overflow_without_oi = wrap)"
                                     : "sets PMC0's overflow bit of the counter; oi=0: no freeze, no interrupt (model "
                                       "option overflow_without_oi = status)");

    g_autoptr(GString) t = g_string_new(NULL);
    const char *name = ev->equiv ? ev->equiv : ev->name;
    if (!plm || (ev->mesi && !mesi))
        g_string_append(t, "counts nothing");
    else if (thres == 0)
        g_string_append_printf(t, "adds, every cycle, the number of occurrences of %s (0..%u)", name, ev->max_inc);
    else
        g_string_append_printf(t, "counts cycles in which %s occurs %s %" G_GUINT64_FORMAT " times", name,
                               ge ? "at least" : "more than", thres);
    if (plm && !(ev->mesi && !mesi))
        g_string_append_printf(t, ", at privilege mask 0x%x", plm);
    g_string_append_printf(o, "\nIn short: %s.\n", t->str);
}

static void explain(GString *o, const PmsEncoding *enc)
{
    const PmsModel *m = enc->model;
    if (pms_model_is_family(m, "nhmex_cbox")) {
        explain_nhmex(o, enc);
        return;
    }
    if (pms_model_is_family(m, "ia64")) {
        explain_ia64(o, enc);
        return;
    }
    guint counter = 0;
    gboolean fixed = FALSE;
    gboolean has_ctr = pms_sim_event_counter(m, enc->event, enc->umask_mask, &counter, &fixed);
    if (pms_model_is_family(m, "x86_uncore")) {
        explain_uncore(o, enc, counter, fixed, has_ctr);
        return;
    }
    const PmsRegister *es = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    guint64 sel = enc->codes[0];
    Sel f = { evfield(es, sel, "usr"), evfield(es, sel, "os"), evfield(es, sel, "edge"), evfield(es, sel, "inv"),
              evfield(es, sel, "any"), evfield(es, sel, "en"), evfield(es, sel, "int"), fixed, m->smt,
              evfield(es, sel, "cmask"), NULL };
    f.rings = f.usr && f.os ? "at CPL 0 and CPL>0" : f.os ? "at CPL 0 only" : f.usr ? "at CPL>0 only" : NULL;
    guint width = fixed ? m->fixed_width : m->gp_width;
    g_autofree char *ums = umask_names(enc, NULL);
    g_autofree char *sig = g_strdup_printf("%s%s%s", enc->event->name, *ums ? "." : "", ums);
    g_autofree char *sigtext = describe_signal(enc, es, sel, sig);

    g_string_append(o, "\nWhat the counter counts (docs/semantics.md §3, one line per pipeline stage):\n");
    if (has_ctr && fixed)
        g_string_append_printf(o, "  counter: fixed counter %u, %u bits wide (usr/os/any/int become its EN/ANY/PMI "
                                  "bits in FIXED_CTR_CTRL, SDM 18-7)\n", counter, width);
    else if (has_ctr)
        g_string_append_printf(o, "  counter: general counter %u, %u bits wide\n", counter, width);
    g_string_append_printf(o, "  signal: %s\n", sigtext);
    if (f.rings)
        g_string_append_printf(o, "  privilege: usr=%d os=%d: occurrences count %s (SDM 18-4: os is CPL 0, usr CPL 1-3)\n",
                               f.usr, f.os, f.rings);
    else
        g_string_append(o, "  privilege: usr=0 os=0: no ring qualifies, so nothing is ever counted\n");
    if (f.any && m->smt)
        g_string_append(o, "  threads: any=1: both hardware threads' occurrences are combined, each filtered by its "
                           "own CPL first (SDM 18-9, choice A3; summed, or OR-ed for clock events, choice A6)\n");
    else if (f.any)
        g_string_append_printf(o, "  threads: any=1 is ignored: %s has no SMT (SDM 18.7)\n", m->name);
    else
        g_string_append(o, "  threads: only this thread's occurrences\n");
    explain_threshold(o, &f);
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
        g_autofree char *phrase = threshold_phrase(&f, sig);
        g_string_append_printf(s, "counts cycles in which %s", phrase);
    }
    if (f.en && f.rings) {
        g_string_append_printf(s, ", %s", f.rings);
        if (f.any && m->smt)
            g_string_append(s, ", on both threads together");
        if (f.edge && !fixed)
            g_string_append(s, "; edge: counts only the first cycle of each such run");
    }
    g_string_append_printf(o, "\nIn short: %s.\n", s->str);
}

int pms_cmd_explain(int argc, char **argv)
{
    g_autofree char *pmu = NULL, *occ = NULL, *cpl = NULL, *preload_text = NULL, *ld_lat = NULL;
    gboolean pebs = FALSE, lbr = FALSE, lbr_freeze = FALSE, lbr_callstack = FALSE;
    g_autofree char *lbr_plm = NULL, *lbr_filter = NULL;
    g_auto(GStrv) model_files = NULL;
    const GOptionEntry entries[] = {
        { "pmu", 'p', 0, G_OPTION_ARG_STRING, &pmu, "PMU of an event written without PMU::", "PMU" },
        { "occurrences", 0, 0, G_OPTION_ARG_STRING, &occ,
          "After the rules, a worked example: these occurrences of the event's own signal, one per cycle",
          "N,N,..." },
        { "cpl", 0, 0, G_OPTION_ARG_STRING, &cpl, "CPL (0..3) of each --occurrences cycle (default 3)", "C,C,..." },
        { "preload", 0, 0, G_OPTION_ARG_STRING, &preload_text, "Counter value before the example's cycle 0",
          "VALUE" },
        { "pebs", 0, 0, G_OPTION_ARG_NONE, &pebs, "Also PEBS for the event on its counter, and what it captures", NULL },
        { "ld-lat", 0, 0, G_OPTION_ARG_STRING, &ld_lat,
          "With --pebs: load-latency threshold in core cycles (the load-latency event's :ldlat=N)", "N" },
        { "lbr", 0, 0, G_OPTION_ARG_NONE, &lbr, "Explain an LBR configuration of --pmu (as encode --lbr)", NULL },
        { "lbr-plm", 0, 0, G_OPTION_ARG_STRING, &lbr_plm, "Privilege levels the LBR records: 0, 3 or 0,3", "LEVELS" },
        { "lbr-filter", 0, 0, G_OPTION_ARG_STRING, &lbr_filter, "Branch classes the LBR drops (as encode)", "NAMES" },
        { "lbr-freeze", 0, 0, G_OPTION_ARG_NONE, &lbr_freeze, "Freeze the LBR on a PMI", NULL },
        { "lbr-callstack", 0, 0, G_OPTION_ARG_NONE, &lbr_callstack,
          "Call-stack mode: returns pop the newest entry (LBR_SELECT.EN_CALLSTACK; glm)", NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    g_autoptr(GOptionContext) ctx = pms_cli_context("EVENT",
        "Show the register fields an event string sets and what the counter will count with them.", entries,
        &model_files);
    pms_cli_help(ctx, "0 explained; 1 the encoder rejects the event (the line names its PFM_ERR_ class); 2 "
                      "usage error, an event without PMU, or a model file that does not load.",
        "  pmusim explain 'wsm::INST_RETIRED:ANY_P:c=2:i'\n"
        "  pmusim explain --pmu glm INST_RETIRED:ANY_P:u\n"
        "  pmusim explain nhm_unc::UNC_LLC_MISS:ANY\n"
        "  pmusim explain montecito::NOPS_RETIRED:thres=3:u\n"
        "  pmusim explain 'wsm::INST_RETIRED:ANY_P:u:c=2' --occurrences 3,3,3 --cpl 0,3,0\n"
        "  pmusim explain --pebs --ld-lat 16 nhm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD\n"
        "  pmusim explain --pmu nhm --lbr --lbr-plm 3 --lbr-filter near_rel_jmp   what the LBR records\n");
    if (!pms_cli_parse(ctx, &argc, &argv))
        return PMS_EXIT_USAGE;
    if (!lbr && (lbr_plm || lbr_filter || lbr_freeze || lbr_callstack)) {
        fprintf(stderr, "pmusim: explain: --lbr-plm, --lbr-filter, --lbr-freeze and --lbr-callstack go with --lbr\n");
        return PMS_EXIT_USAGE;
    }
    if (lbr && argc == 1) {
        /* the LBR configuration alone */
        if (occ || cpl || preload_text) {
            fprintf(stderr, "pmusim: explain --lbr: --occurrences, --cpl and --preload need an EVENT\n");
            return PMS_EXIT_USAGE;
        }
        g_autoptr(PmsModelSet) models = pms_cli_load_models(model_files);
        if (!models)
            return PMS_EXIT_USAGE;
        g_autoptr(GString) o = g_string_new(NULL);
        int st = pms_lbr_explain_cli(models, pmu, lbr_plm, lbr_filter, lbr_freeze, lbr_callstack, o);
        if (st == 0)
            fputs(o->str, stdout);
        return st;
    }
    if (argc != 2) {
        fprintf(stderr, "pmusim: explain: expected one EVENT argument\n");
        return PMS_EXIT_USAGE;
    }
    if ((cpl || preload_text) && !occ) {
        fprintf(stderr, "pmusim: explain: --cpl and --preload go with --occurrences (the worked example)\n");
        return PMS_EXIT_USAGE;
    }
    guint64 preload = 0;
    if (preload_text && !pms_cli_parse_u64("--preload", preload_text, &preload))
        return PMS_EXIT_USAGE;
    guint64 ld_lat_v = 0;
    if (ld_lat && !pms_cli_parse_ld_lat("explain", ld_lat, pebs, &ld_lat_v))
        return PMS_EXIT_USAGE;
    g_autoptr(GError) err = NULL;
    g_autofree char *qualified = pms_sim_qualify_event(pmu, argv[1], &err);
    if (!qualified) {
        fprintf(stderr, "pmusim: explain: %s\n", err->message);
        return PMS_EXIT_USAGE;
    }
    g_autoptr(PmsModelSet) models = pms_cli_load_models(model_files);
    if (!models)
        return PMS_EXIT_USAGE;
    /* --pmu names a PMU of the model set: an unknown one is a usage error (exit 2) */
    if (pmu && !pms_cli_model(models, pmu))
        return PMS_EXIT_USAGE;
    if (ld_lat)
        qualified = pms_cli_with_ld_lat(qualified, ld_lat_v);
    g_autoptr(PmsEncoding) enc = pms_encode(models, qualified, &err);
    if (!enc) {
        /* the same line as encode's: the libpfm4 error class first */
        fprintf(stderr, "pmusim: '%s': %s: %s\n", qualified,
                err->domain == PMS_ENCODE_ERROR ? pms_encode_error_name(err->code) : "error", err->message);
        return 1;
    }
    PmsPebsConfig pc = { 0 };
    if (pebs && !pms_pebs_configure(&enc->place, enc->codes, enc->n_codes, &pc, &err)) {
        fprintf(stderr, "pmusim: '%s': --pebs: %s: %s\n", qualified, pms_encode_error_name(err->code), err->message);
        return 1;
    }
    g_autoptr(GString) o = g_string_new(NULL);
    g_string_append_printf(o, "%s\n\nRegisters the encoder sets:\n", enc->fstr);
    for (guint i = 0; i < enc->n_writes; i++)
        print_write(o, enc->model, &enc->writes[i]);
    explain(o, enc);
    if (pebs) {
        g_string_append(o, "\nPEBS registers:\n");
        for (guint i = 0; i < pc.n_writes; i++)
            print_write(o, enc->model, &pc.writes[i]);
        g_autofree char *words = pms_pebs_describe(enc->model, &pc);
        g_string_append_printf(o, "\nWhat PEBS captures (semantics.md §5):\n  %s\n", words);
        if (pc.notes)
            g_string_append_printf(o, "  Notes:\n%s", pc.notes);
        pms_pebs_config_clear(&pc);
    }
    if (occ) {
        g_string_append_printf(o, "\nWorked example (pmusim sim -e '%s' --occurrences %s%s%s%s%s --explain):\n",
                               qualified, occ, cpl ? " --cpl " : "", cpl ? cpl : "",
                               preload_text ? " --preload " : "", preload_text ? preload_text : "");
        int status = pms_sim_worked_example(enc, occ, cpl, preload, o);
        if (status != 0)
            return status;
    }
    if (lbr) {
        g_string_append_c(o, '\n');
        int st = pms_lbr_explain_cli(models, pmu ? pmu : enc->model->name, lbr_plm, lbr_filter, lbr_freeze, lbr_callstack, o);
        if (st != 0)
            return st;
    }
    fputs(o->str, stdout);
    return 0;
}
