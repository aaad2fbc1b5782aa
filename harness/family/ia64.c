/* pmusim — the Itanium 2 9000's CLI hooks (montecito): the counting PMC in
 * words, the PMC a decoded value goes to, the
 * listing of libpfm's Montecito table, the own signal of an es/umask, and the
 * PMC and EAR bits no count can show.  Its models also take the range
 * restriction and dispatch commands. */
#include "family_impl.h"
#include "program.h"
#include "model_ia64.h"

#include <string.h>

/* Itanium 2 9000 (Montecito): the counting PMC (registers.md §3), the
 * threshold rule of libpfm_montecito(3), the privilege mask, an EAR event's
 * configuration register.  Which comparison the threshold makes is the model
 * option thres_compare (gt: more than n, the document's words; ge). */
static void explain_ia64(GString *o, const PmsEncoding *enc)
{
    const PmsModel *m = enc->model;
    const PmsEvent *ev = enc->event;
    const PmsIa64EventFacts *fx = pms_ia64_facts(ev);
    const PmsRegister *pmc = enc->place.event ? pms_model_reg_by_kind(m, PMS_REG_IA64_PMC, enc->place.counter)
                                              : pms_model_reg_by_kind(m, PMS_REG_IA64_PMC, m->counter_base);
    const PmsRegister *pmd = enc->place.event ? pms_program_counter_reg(&enc->place) : NULL;
    guint64 v = enc->codes[0];
    guint64 es = pms_cli_field(pmc, v, "es"), umask = pms_cli_field(pmc, v, "umask");
    guint64 thres = pms_cli_field(pmc, v, "thres");
    guint64 oi = pms_cli_field(pmc, v, "oi");
    guint plm = 0;
    static const char *const plms[4] = { "plm0", "plm1", "plm2", "plm3" };
    for (guint i = 0; i < 4; i++)
        plm |= (guint)pms_cli_field(pmc, v, plms[i]) << i;
    guint mesi = 0;
    static const char *const ms[4] = { "mesi_i", "mesi_s", "mesi_e", "mesi_m" };
    for (guint i = 0; i < 4; i++)
        mesi |= (guint)pms_cli_field(pmc, v, ms[i]) << i;
    gboolean ge = g_strcmp0(pms_model_option(m, "thres_compare", "gt"), "ge") == 0;
    gboolean wrap = g_strcmp0(pms_model_option(m, "overflow_without_oi", "wrap"), "wrap") == 0;
    guint width = pmd && pmd->width ? pmd->width : m->gp_width;

    g_string_append(o, "\nWhat the counter counts (reference registers.md §3, libpfm_montecito(3)):\n");
    if (pmd)
        g_string_append_printf(o,
                               "  counter: %s configures %s, %u bits wide (the lowest counter the event's mask "
                               "allows)\n",
                               pmc ? pmc->name : "PMC?", pmd->name, width);
    g_string_append_printf(o,
                           "  signal: an occurrence is one %s (es 0x%02" G_GINT64_MODIFIER
                           "x, umask 0x%" G_GINT64_MODIFIER "x); it occurs at most %u time%s per cycle (max_inc)\n",
                           ev->equiv ? ev->equiv : ev->name, es, umask, fx->max_inc, fx->max_inc == 1 ? "" : "s");
    if (fx->ear && enc->n_codes > 1) {
        const PmsRegister *x = ev->extra_reg ? pms_model_reg_by_name(m, ev->extra_reg) : NULL;
        g_string_append_printf(o,
                               "  EAR: %s event in %s mode: the counter counts the EAR's events (its umask is 0); "
                               "the event's umask 0x%x goes to %s = 0x%" G_GINT64_MODIFIER "x\n",
                               fx->ear == PMS_IA64_EAR_D ? "a D-EAR" : "an I-EAR", pms_ia64_ear_mode_name(fx->ear_mode),
                               ev->base_umask, x ? x->name : "the EAR configuration register", enc->codes[1]);
    }
    GString *lv = g_string_new(NULL);
    for (guint i = 0; i < 4; i++)
        if (plm & (1u << i))
            g_string_append_printf(lv, "%s%u", lv->len ? ", " : "", i);
    if (plm)
        g_string_append_printf(o,
                               "  privilege: plm=0x%x: occurrences count at privilege level%s %s (bit k = level k; "
                               "k sets PLM0, u PLM3, PLM1/PLM2 come from the default mask)\n",
                               plm, (plm & (plm - 1)) ? "s" : "", lv->str);
    else
        g_string_append(o, "  privilege: plm=0: no privilege level qualifies, so nothing is ever counted\n");
    g_string_free(lv, TRUE);
    /* the PSR gate and the instruction-set mask (docs/semantics.md §11.2) */
    guint64 pm = pms_cli_field(pmc, v, "pm"), ism = pms_cli_field(pmc, v, "ism") & 3;
    gboolean ism_enable = g_strcmp0(pms_model_option(m, "ism_bits", "mask"), "enable") == 0;
    gboolean ia64 = ism_enable ? (ism >> 1) & 1 : !(ism & 1), ia32 = ism_enable ? ism & 1 : !((ism >> 1) & 1);
    g_string_append_printf(o,
                           "  gate: pm=%" G_GUINT64_FORMAT ": a %s monitor, counting a thread's occurrences only "
                           "while its PSR.%s is set; ism=%" G_GUINT64_FORMAT ": %s%s (registers.md §3: 10b = "
                           "IA-64 only; other values per model option ism_bits = %s)\n",
                           pm, pm ? "privileged" : "user", pm ? "pp" : "up", ism,
                           ia64 && ia32 ? "IA-64 and IA-32 instructions"
                               : ia64   ? "IA-64 instructions only"
                               : ia32   ? "IA-32 instructions only"
                                        : "no instruction set",
                           ia64 || ia32 ? " count" : " counts", ism_enable ? "enable" : "mask");
    if (thres == 0)
        g_string_append(o, "  threshold: thres=0: no threshold; each cycle adds n, its number of occurrences\n");
    else
        g_string_append_printf(o,
                               "  threshold: thres=%" G_GUINT64_FORMAT ": a cycle adds 1 when the event occurs "
                               "more than %" G_GUINT64_FORMAT " times in it (libpfm_montecito(3): \"a threshold of n "
                               "means that the counter will be incremented by one only when the event occurs more "
                               "than n times per cycle\"); thres must stay below max_inc %u; the simulator compares "
                               "n %s %" G_GUINT64_FORMAT " (model option thres_compare = %s)\n",
                               thres, thres, fx->max_inc, ge ? ">=" : ">", thres, ge ? "ge" : "gt");
    if (fx->mesi)
        g_string_append_printf(o, "  MESI: only lines in state%s%s%s%s%s count (bits 27-30)\n", mesi ? "" : " (none)",
                               mesi & 1 ? " I" : "", mesi & 2 ? " S" : "", mesi & 4 ? " E" : "", mesi & 8 ? " M" : "");
    g_string_append_printf(o, "  overflow: a carry out of bit %u %s\n", width ? width - 1 : 46,
                           oi ? "sets PMC0's overflow bit of the counter and fr (freeze), and raises a PMU interrupt "
                                "(oi=1)"
                               : wrap
                               ? "wraps the counter; oi=0: no overflow bit, no freeze, no interrupt (model option "
                                 "overflow_without_oi = wrap)"
                               : "sets PMC0's overflow bit of the counter; oi=0: no freeze, no interrupt (model "
                                 "option overflow_without_oi = status)");

    g_autoptr(GString) t = g_string_new(NULL);
    const char *name = ev->equiv ? ev->equiv : ev->name;
    if (!plm || (fx->mesi && !mesi))
        g_string_append(t, "counts nothing");
    else if (thres == 0)
        g_string_append_printf(t, "adds, every cycle, the number of occurrences of %s (0..%u)", name, fx->max_inc);
    else
        g_string_append_printf(t, "counts cycles in which %s occurs %s %" G_GUINT64_FORMAT " times", name,
                               ge ? "at least" : "more than", thres);
    if (plm && !(fx->mesi && !mesi))
        g_string_append_printf(t, ", at privilege mask 0x%x", plm);
    g_string_append_printf(o, "\nIn short: %s.\n", t->str);
}

/* The register VALUE is written to: the PMC at counter_base. */
static const PmsRegister *decode_reg(const PmsModel *m)
{
    return pms_model_reg_by_kind(m, PMS_REG_IA64_PMC, m->counter_base);
}

/* ---- Itanium: the per-event facts of libpfm's Montecito table ---- */

/* "PMC4-15", "PMC10", "PMC4-9,PMC12": a counter mask over register numbers. */
static char *ia64_counters(guint64 mask)
{
    return pms_cli_counter_ranges(mask, "PMC", "none");
}

static char *ia64_quals(const PmsEvent *ev)
{
    const PmsIa64EventFacts *fx = pms_ia64_facts(ev);
    if (!fx->qualifiers)
        return g_strdup("-");
    return g_strdup_printf("%s%s%s", fx->qualifiers & PMS_IA64_QUAL_OPCM ? "o" : "-",
                           fx->qualifiers & PMS_IA64_QUAL_IARR ? "i" : "-",
                           fx->qualifiers & PMS_IA64_QUAL_DARR ? "d" : "-");
}

static char *ia64_group(const PmsEvent *ev)
{
    const PmsIa64EventFacts *fx = pms_ia64_facts(ev);
    if (fx->cache_group == PMS_IA64_GROUP_NONE)
        return g_strdup("-");
    return g_strdup_printf("%s/%d", fx->cache_group == PMS_IA64_GROUP_L1D ? "L1D" : "L2D", fx->cache_set);
}

static char *ia64_ear(const PmsEvent *ev)
{
    const PmsIa64EventFacts *fx = pms_ia64_facts(ev);
    if (fx->ear == PMS_IA64_EAR_NONE)
        return g_strdup("-");
    return g_strdup_printf("%s %s", fx->ear == PMS_IA64_EAR_I ? "I" : "D", pms_ia64_ear_mode_name(fx->ear_mode));
}

static void list_model(GString *o, const PmsModel *m, PmsCliEventKeep keep, gconstpointer data)
{
    g_string_append_printf(o, "%s: %s\n  source %s; %u counters PMC%u-%u/PMD%u-%u (%u bits)%s\n", m->name,
                           m->desc ? m->desc : "", m->source ? m->source : "?", m->n_gp, m->counter_base,
                           m->counter_base + m->n_gp - 1, m->counter_base, m->counter_base + m->n_gp - 1, m->gp_width,
                           m->smt ? "; 2 threads" : "");
    g_string_append(o, "  modifiers:\n");
    for (guint i = 0; i < m->n_mods; i++) {
        const PmsModifier *mod = &m->mods[i];
        if (mod->type == PMS_MOD_BOOL)
            g_string_append_printf(o, "    %-7s bool     %s\n", mod->name, mod->desc ? mod->desc : "");
        else
            g_string_append_printf(o, "    %-7s [%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT "]    %s\n", mod->name,
                                   mod->min, mod->max, mod->desc ? mod->desc : "");
    }
    g_string_append(o,
                    "  events (max: occurrences per cycle, thres < max; qual: o opcode match, i code range, d data "
                    "range;\n"
                    "          group: cache group/set; EAR: kind and mode, umask to the EAR register):\n");
    int namew = 5; /* the event column, as wide as the longest name */
    for (guint e = 0; e < m->n_events; e++)
        namew = MAX(namew, (int)strlen(m->events[e].name));
    g_string_append_printf(o, "    %-*s %4s %5s %3s %-12s %-7s %-13s %-4s %-7s %3s %4s %s\n", namew, "event", "code",
                           "umask", "max", "counters", "group", "type", "qual", "EAR", "ETB", "MESI", "alias of");
    for (guint e = 0; e < m->n_events; e++) {
        const PmsEvent *ev = &m->events[e];
        const PmsIa64EventFacts *fx = pms_ia64_facts(ev);
        if (!keep(ev, data))
            continue;
        g_autofree char *ctr = ia64_counters(ev->counters);
        g_autofree char *q = ia64_quals(ev);
        g_autofree char *grp = ia64_group(ev);
        g_autofree char *ear = ia64_ear(ev);
        g_autofree char *um = g_strdup_printf("0x%x", ev->base_umask);
        g_autofree char *row =
            g_strdup_printf("    %-*s 0x%02x %5s %3u %-12s %-7s %-13s %-4s %-7s %3s %4s %s", namew, ev->name, ev->code,
                            um, fx->max_inc, ctr, grp, pms_ia64_event_type_name(fx->ev_type), q, ear,
                            fx->etb ? "yes" : "-", fx->mesi ? "yes" : "-", ev->equiv ? ev->equiv : "");
        g_string_append_printf(o, "%s\n", g_strchomp(row)); /* no trailing blanks when there is no alias */
    }
}

/* `list PMU EVENT`: the counting PMC's facts of the event. */
static void list_event(GString *o, const PmsModel *m, const PmsEvent *ev)
{
    const PmsIa64EventFacts *fx = pms_ia64_facts(ev);
    (void)m;
    if (ev->extra_reg)
        g_string_append_printf(o, "  umask       0x%x (in %s; the counter's umask field is 0)\n", ev->base_umask,
                               ev->extra_reg);
    else
        g_string_append_printf(o, "  umask       0x%x\n", ev->base_umask);
    g_autofree char *ctr = ia64_counters(ev->counters);
    g_string_append_printf(o, "  counters    %s (mask 0x%" G_GINT64_MODIFIER "x)\n", ctr, ev->counters);
    g_string_append_printf(o, "  max_inc     %u (thres 0..%u)\n", fx->max_inc, fx->max_inc ? fx->max_inc - 1 : 0);
    g_string_append_printf(o, "  type        %s\n", pms_ia64_event_type_name(fx->ev_type));
    if (fx->cache_group != PMS_IA64_GROUP_NONE)
        g_string_append_printf(o, "  cache group %s, set %d\n", pms_ia64_cache_group_name(fx->cache_group),
                               fx->cache_set);
    else
        g_string_append(o, "  cache group none\n");
    g_string_append_printf(o, "  qualifiers  opcode matching %s, code range %s, data range %s\n",
                           fx->qualifiers & PMS_IA64_QUAL_OPCM ? "yes" : "no",
                           fx->qualifiers & PMS_IA64_QUAL_IARR ? "yes" : "no",
                           fx->qualifiers & PMS_IA64_QUAL_DARR ? "yes" : "no");
    g_string_append_printf(o, "  MESI        %s\n", fx->mesi ? "yes (I/S/E/M qualifiers)" : "no");
    if (fx->ear != PMS_IA64_EAR_NONE)
        g_string_append_printf(o, "  EAR         %s, %s mode\n",
                               fx->ear == PMS_IA64_EAR_I ? "instruction (I-EAR)" : "data (D-EAR)",
                               pms_ia64_ear_mode_name(fx->ear_mode));
    else
        g_string_append(o, "  EAR         no\n");
    g_string_append_printf(o, "  ETB         %s\n", fx->etb ? "yes (programs PMC39)" : "no");
}

/* es 15:8 and umask 19:16 of the counting PMC (registers.md 3); the
 * retired-instruction family (es 0x08, umask = IBR channel) counts the
 * signal 0x08.0x0 (semantics.md §11.4). */
static guint32 own_signal(const PmsModel *m, const guint64 *codes, guint n_codes)
{
    (void)n_codes;
    const PmsRegister *pmc = pms_model_reg_at(m, PMS_SPACE_PMC, m->counter_base);
    guint64 code = pms_cli_field(pmc, codes[0], "es");
    guint64 umask = pms_cli_field(pmc, codes[0], "umask");
    if (code == 0x08 && umask < 4)
        umask = 0;
    return PMS_SIGNAL_KEY(code, umask);
}

/* Itanium 2 9000 (docs/semantics.md §11): the counting PMC's fields and the
 * registers the device keeps as storage.  counter: the PMC the vector
 * programs (PMC4..15). */
/* The EAR configuration bits (codes[1] of an EAR event: PMC37 / PMC40) that
 * decide no capture under the value x the encoder wrote (semantics.md
 * §11.10): the D-EAR umask in ALAT mode and its bit 0 in TLB mode, the
 * I-EAR TLB-mode umask bits 3-6.  The EAR vectors' tails catch the rest
 * (plm, pm, ism, mode / ct, the umask bits that select thresholds or
 * levels). */
static const char *unobservable_ear(const PmsRegister *x, const PmsEvent *ev, guint64 v, guint bit)
{
    if (pms_ia64_facts(ev)->ear == PMS_IA64_EAR_D && pms_fam_field_bit(x, "umask", bit)) {
        guint64 mode = pms_cli_field(x, v, "mode");
        if (mode == 2)
            return "the D-EAR umask selects nothing in ALAT mode (semantics.md §11.10)";
        if (mode == 1 && bit == pms_layout_field(x->layout, "umask")->shift)
            return "D-EAR TLB-mode umask bit 0 selects no translation level (DATA_EAR_TLB_*: bits 1-3; "
                   "semantics.md §11.10)";
    }
    if (pms_ia64_facts(ev)->ear == PMS_IA64_EAR_I && ((v >> 12) & 3) == 0 && bit >= 8 && bit <= 11)
        return "I-EAR TLB-mode umask bits 3-6 select no translation level (L1I_EAR_TLB_*: bits 0-2; "
               "semantics.md §11.10)";
    return NULL;
}

static const char *unobservable_ia64(const PmsModel *m, const PmsEvent *ev, guint counter, const guint64 *codes,
                                     guint n_codes, guint code, guint bit)
{
    if (code == 1) {
        const PmsRegister *x = ev && ev->extra_reg ? pms_model_reg_by_name(m, ev->extra_reg) : NULL;
        if (x && pms_ia64_facts(ev)->ear != PMS_IA64_EAR_NONE && ((x->writable >> bit) & 1) && n_codes > 1)
            return unobservable_ear(x, ev, codes[1], bit);
        return NULL;
    }
    const PmsRegister *pmc = pms_model_reg_at(m, PMS_SPACE_PMC, counter);
    if (code != 0 || !pmc)
        return NULL;
    /* ev is applied (semantics.md §11.3): every vector expects no external
     * notification (expect-ext none) and carries a carry */
    /* pm and ism are applied (semantics.md §11.2): every vector's PSR /
     * instruction-set tail clears PSR.up, PSR.pp and runs IA-32 code */
    /* the MESI bits are applied (semantics.md §11.9): the mesi events' vectors
     * carry mesi= states, and on other events the bits do nothing */
    if ((pms_fam_field_bit(pmc, "mesi_i", bit) || pms_fam_field_bit(pmc, "mesi_s", bit) ||
         pms_fam_field_bit(pmc, "mesi_e", bit) || pms_fam_field_bit(pmc, "mesi_m", bit)) &&
        !(ev && pms_ia64_facts(ev)->mesi))
        return "MESI qualifiers act only on the events with mesi = true (semantics.md §11.9; registers.md 3)";
    if (pms_fam_field_bit(pmc, "all", bit) && counter >= 8 &&
        g_ascii_strcasecmp(pms_model_option(m, "all_on_pmc8_15", "own"), "own") == 0)
        return "all on PMC8-15 is ignored under all_on_pmc8_15 = own (semantics.md §11.2, A24)";
    return NULL;
}


const PmsCliFamily pms_cli_ia64 = {
    .explain = explain_ia64,
    .decode_reg = decode_reg,
    .decode_extra_hints = FALSE,
    .list_model = list_model,
    .list_event = list_event,
    .own_signal = own_signal,
    .unobservable = unobservable_ia64,
    .threshold = "thres",
    .flags = PMS_CLI_RANGES_DISPATCH,
    .encode_forward = &pms_ia64_encode_forward,
};
