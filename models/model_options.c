/* pmusim — the `[options]` keys each family's simulator reads (family.h
 * PmsModelOption), so that the loader refuses a misspelt key or a value the
 * simulator would refuse at the option's own line, and `pmusim list PMU
 * --options` can say what each one chooses.  The simulator's devices stay
 * the authority on meaning; a key they read must be listed here. */
#include "family.h"

#include <stdio.h>
#include <string.h>

/* Every family: the engine reads it (sim_core.c). */
static const PmsModelOption common_options[] = {
    { "pmi_skid", PMS_OPTION_UINT, NULL, 1u << 20, "0",
      "cycles between a counter's overflow and its PMI (status and freeze stay in the overflow cycle; A8)" },
    { 0 },
};

const PmsModelOption pms_x86_core_options[] = {
    { "cpl_gate", PMS_OPTION_WORD, "post|pre", 0, "post",
      "where USR/OS gate: post = the final increment, pre = each thread's occurrences before the threshold (A3)" },
    { "anythread_combine", PMS_OPTION_WORD, "clock-or|sum|or", 0, "clock-or",
      "how AnyThread combines the threads: clock-or = OR the clock events, SUM the rest; sum; or (A6)" },
    { "global_ctrl_reset", PMS_OPTION_WORD, "gp|zero", 0, "gp",
      "GLOBAL_CTRL after RESET: gp = general enables set, zero = all clear (A25)" },
    { "lbr_jmp_rule", PMS_OPTION_WORD, "nhm|snb", 0, "snb",
      "LBR_SELECT's jump bits: nhm = they also drop calls and returns, snb = each bit its own class (A13)" },
    { "lbr_callstack", PMS_OPTION_WORD, "lifo|configured", 0, "lifo",
      "EN_CALLSTACK outside the SDM's configuration: lifo = push and pop anyway, configured = ignored (8b)" },
    { "smt", PMS_OPTION_WORD, "on|off", 0, "off",
      "Hyper-Threading: on = general counters 4-7 do not exist for software (#GP), off = all of them (skl's model: "
      "on)" },
    { "txcp_status", PMS_OPTION_WORD, "rollback|keep", 0, "rollback",
      "an IN_TXCP counter's overflow inside an aborted transaction: its GLOBAL_STATUS bit rolls back too, or stays" },
    { "fixed0_signal", PMS_OPTION_SIGNAL, NULL, 0, "from the events", "the signal FIXED_CTR0 counts" },
    { "fixed1_signal", PMS_OPTION_SIGNAL, NULL, 0, "from the events", "the signal FIXED_CTR1 counts" },
    { "fixed2_signal", PMS_OPTION_SIGNAL, NULL, 0, "from the events", "the signal FIXED_CTR2 counts" },
    { "fixed3_signal", PMS_OPTION_SIGNAL, NULL, 0, "from the events", "the signal FIXED_CTR3 counts" },
    { "ldlat_signal", PMS_OPTION_SIGNAL, NULL, 0, "from the events", "the signal the load-latency facility samples" },
    /* perfmon v5 top-down (sim/topdown.c; docs/semantics.md §8c T1-T5): read on a model with IA32_PERF_METRICS */
    { "slots_width", PMS_OPTION_UINT, NULL, 16, "5",
      "TOPDOWN.SLOTS per unhalted cycle: the slots a stimulus cycle splits into categories (T1)" },
    { "perf_metrics_rounding", PMS_OPTION_WORD, "sum255|floor|nearest", 0, "sum255",
      "PERF_METRICS fractions: sum255 = largest remainder, the four add up to 0xff; floor; nearest (T2)" },
    { "perf_metrics_width", PMS_OPTION_UINT, NULL, 63, "0",
      "bits of the slot total whose carry sets GLOBAL_STATUS.PERF_METRICS_OVF; 0 = the fixed counters' width (T3)" },
    { "perf_metrics_disabled", PMS_OPTION_WORD, "freeze|zero|count", 0, "freeze",
      "GLOBAL_CTRL.EN_PERF_METRICS = 0: PERF_METRICS keeps its value, reads 0, or counts anyway (T4)" },
    { "perf_metrics_write", PMS_OPTION_WORD, "fc3|reset", 0, "fc3",
      "a PERF_METRICS write: its fractions stand for FIXED_CTR3's slots at the write, or it restarts from none (T5)" },
    { 0 },
};

const PmsModelOption pms_nhmex_options[] = {
    { "pmi_freeze_delay", PMS_OPTION_UINT, NULL, 1u << 20, "0",
      "uncore clocks between a counter's PMI reaching the U-Box and the freeze (counters go on meanwhile)" },
    { "invert", PMS_OPTION_WORD, "documented|literal", 0, "documented",
      "the threshold test with inv=1: documented = n < threshold, literal = n > threshold (A5)" },
    { 0 },
};

const PmsModelOption pms_ia64_options[] = {
    { "pmd_read_upper", PMS_OPTION_WORD, "sign_extend|zero", 0, "sign_extend",
      "what reads of PMD4-15 return in bits 63:47: copies of bit 46, or zero" },
    { "overflow_without_oi", PMS_OPTION_WORD, "wrap|status", 0, "wrap",
      "a counter overflowing with oi = 0: wraps silently, or sets its status bit" },
    { "thres_compare", PMS_OPTION_WORD, "gt|ge", 0, "gt",
      "thres = n adds 1 in cycles with more than n (gt) or at least n (ge) occurrences" },
    { "all_on_pmc8_15", PMS_OPTION_WORD, "own|both", 0, "own", "the all bit on PMC8-15 (undocumented; A24)" },
    { "pmc41_dtag", PMS_OPTION_WORD, "iod|active", 0, "iod",
      "PMC41 cfg_dtag values under which a DBR pair constrains: iod = 0 and 2, active = 0, 1 and 2" },
    { "mesi_zero", PMS_OPTION_WORD, "none|all", 0, "none",
      "a MESI event with bits 27-30 all clear counts no state (none) or every state (all)" },
    { "ear_capture", PMS_OPTION_WORD, "last|first", 0, "last",
      "an EAR keeps the last qualifying event, or holds the first until software clears it" },
    { "etb_brt", PMS_OPTION_WORD, "code|man", 0, "code",
      "PMC39.brt = 0 records every branch (code) or none (man page)" },
    { "ism_bits", PMS_OPTION_WORD, "mask|enable", 0, "mask",
      "PMC4-15 ism (bits 25:24): each bit masks an instruction set, or enables one" },
    { "ev_notify", PMS_OPTION_WORD, "overflow|none", 0, "overflow",
      "ev (PMC4 bit 4): an external notification on every overflow, or none" },
    { 0 },
};

const PmsModelOption pms_amd64_options[] = {
    { "svme", PMS_OPTION_WORD, "on|off", 0, "on",
      "EFER.SVME: off = a counter with HostOnly or GuestOnly set counts nothing (facts: Linux's "
      "amd_pmu_disable_virt)" },
    { 0 },
};

const PmsModelOption *pms_family_option_nth(const PmsFamily *f, guint i)
{
    guint n_common = G_N_ELEMENTS(common_options) - 1;
    if (i < n_common)
        return &common_options[i];
    i -= n_common;
    if (!f || !f->options)
        return NULL;
    for (guint k = 0; f->options[k].key; k++)
        if (k == i)
            return &f->options[k];
    return NULL;
}

const PmsModelOption *pms_family_option(const PmsFamily *f, const char *key)
{
    const PmsModelOption *o;
    for (guint i = 0; (o = pms_family_option_nth(f, i)); i++)
        if (strcmp(o->key, key) == 0)
            return o;
    return NULL;
}

gboolean pms_model_option_valid(const PmsModelOption *o, const char *value)
{
    switch (o->kind) {
    case PMS_OPTION_WORD: {
        g_auto(GStrv) words = g_strsplit(o->words, "|", -1);
        for (guint i = 0; words[i]; i++)
            if (g_ascii_strcasecmp(words[i], value) == 0)
                return TRUE;
        return FALSE;
    }
    case PMS_OPTION_UINT:
        return g_ascii_string_to_unsigned(value, 10, 0, o->max, NULL, NULL);
    case PMS_OPTION_SIGNAL: {
        /* the simulator's own reading (sim_core.c sim_signal_option) */
        unsigned code, umask;
        char tail;
        return sscanf(value, "%x.%x%c", &code, &umask, &tail) == 2 && code <= 0xffff && umask <= 0xff;
    }
    }
    return FALSE;
}

char *pms_model_option_allowed(const PmsModelOption *o)
{
    switch (o->kind) {
    case PMS_OPTION_WORD: {
        g_auto(GStrv) words = g_strsplit(o->words, "|", -1);
        guint n = g_strv_length(words);
        GString *s = g_string_new(NULL);
        for (guint i = 0; i < n; i++)
            g_string_append_printf(s, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", words[i]);
        return g_string_free(s, FALSE);
    }
    case PMS_OPTION_UINT:
        return g_strdup_printf("0..%" G_GUINT64_FORMAT, o->max);
    case PMS_OPTION_SIGNAL:
        return g_strdup("CODE.UMASK in hex, e.g. 0xc0.0x00");
    }
    return g_strdup("?");
}
