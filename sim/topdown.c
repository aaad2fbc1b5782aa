/* pmusim — fixed counter 3's slots by category and IA32_PERF_METRICS
 * (topdown.h; the choices: docs/semantics.md §8c). */
#include "topdown.h"
#include "sim_input.h"

#include <stdlib.h>
#include <string.h>

/* The categories in PERF_METRICS' field order, as the stimulus names them
 * (the model's field names, CONTRACT of the icl model). */
static const char *const td_names[SIM_TD_N] = { "retiring", "bad_spec", "fe_bound", "be_bound" };

guint sim_td_slots_width(const PmsModel *m)
{
    guint64 w = 5;
    const char *v = pms_model_option(m, "slots_width", NULL);
    if (v && (!g_ascii_string_to_unsigned(v, 10, 1, 16, &w, NULL)))
        w = 5; /* the loader refuses such a value (model_options.c) */
    return (guint)w;
}

gboolean sim_key_slots(const PmsModel *m, const char *value, gpointer field, GError **error)
{
    SimSlots *s = field;
    guint w = sim_td_slots_width(m);
    SimSlots got = { .has = TRUE };
    gboolean seen[SIM_TD_N] = { FALSE };
    g_auto(GStrv) parts = g_strsplit(value, ",", -1);
    guint sum = 0;
    for (guint i = 0; parts[i]; i++) {
        const char *colon = strchr(parts[i], ':');
        guint k = SIM_TD_N;
        for (guint c = 0; colon && c < SIM_TD_N; c++)
            if (strlen(td_names[c]) == (gsize)(colon - parts[i]) &&
                strncmp(parts[i], td_names[c], colon - parts[i]) == 0)
                k = c;
        if (k == SIM_TD_N)
            return sim_input_fail(error,
                                  "slots: '%s': expected CATEGORY:N with CATEGORY retiring, bad_spec, fe_bound or "
                                  "be_bound",
                                  parts[i]);
        if (seen[k])
            return sim_input_fail(error, "slots: category %s given twice", td_names[k]);
        seen[k] = TRUE;
        guint64 n;
        if (!sim_parse_u64(colon + 1, &n) || n > w)
            return sim_input_fail(error, "slots: %s: '%s': expected a number of slots 0..%u (option slots_width)",
                                  td_names[k], colon + 1, w);
        got.n[k] = (guint)n;
        sum += (guint)n;
    }
    /* every slot of an unhalted cycle is in exactly one category (T1) */
    if (sum != w)
        return sim_input_fail(error,
                              "slots: the categories add up to %u; a cycle of %s has %u slots (option slots_width), "
                              "each in one category",
                              sum, m->name, w);
    *s = got;
    return TRUE;
}

gboolean sim_td_init(SimTopdown *td, const PmsModel *m, guint n_fixed, GError **error)
{
    memset(td, 0, sizeof *td);
    const PmsRegister *pm = pms_model_reg_by_kind(m, PMS_REG_PERF_METRICS, 0);
    if (!pm)
        return TRUE;
    if (n_fixed < 4) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: %s needs fixed counter 3 (TOPDOWN.SLOTS), but the model has %u fixed counters", m->name,
                    pm->name, n_fixed);
        return FALSE;
    }
    for (guint k = 0; k < SIM_TD_N; k++) {
        const char *const names[] = { td_names[k], NULL };
        td->field[k] = sim_resolve(pm, names, 0, 0);
        if (!sim_require(pm, td->field[k], td_names[k], error))
            return FALSE;
    }
    static const char *const n_pm[] = { "perf_metrics", "en_perf_metrics", NULL };
    static const char *const n_ovf[] = { "perf_metrics", "perf_metrics_ovf", NULL };
    const PmsRegister *gc = pms_model_reg_by_kind(m, PMS_REG_GLOBAL_CTRL, 0);
    const PmsRegister *gs = pms_model_reg_by_kind(m, PMS_REG_GLOBAL_STATUS, 0);
    td->gc_en = sim_resolve(gc, n_pm, 0, 0);
    td->st_ovf = sim_resolve(gs, n_ovf, 0, 0);
    if (!sim_require(gc, td->gc_en, "perf_metrics", error) || !sim_require(gs, td->st_ovf, "perf_metrics", error))
        return FALSE;
    const char *r = pms_model_option(m, "perf_metrics_rounding", "sum255");
    td->rounding = !g_ascii_strcasecmp(r, "floor") ? SIM_TD_ROUND_FLOOR
        : !g_ascii_strcasecmp(r, "nearest")        ? SIM_TD_ROUND_NEAREST
                                                   : SIM_TD_ROUND_SUM255;
    const char *d = pms_model_option(m, "perf_metrics_disabled", "freeze");
    td->disabled = !g_ascii_strcasecmp(d, "zero") ? SIM_TD_OFF_ZERO
        : !g_ascii_strcasecmp(d, "count")         ? SIM_TD_OFF_COUNT
                                                  : SIM_TD_OFF_FREEZE;
    const char *w = pms_model_option(m, "perf_metrics_write", "fc3");
    td->write = !g_ascii_strcasecmp(w, "reset") ? SIM_TD_WRITE_RESET : SIM_TD_WRITE_FC3;
    guint64 width = m->fixed_width;
    const char *wv = pms_model_option(m, "perf_metrics_width", NULL);
    if (wv && strcmp(wv, "0") != 0 && !g_ascii_string_to_unsigned(wv, 10, 1, 63, &width, NULL)) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: option perf_metrics_width = '%s': expected 1..63 (0: the fixed counters' width)",
                    m->name, wv);
        return FALSE;
    }
    td->total_mask = ((guint64)1 << width) - 1;
    const char *sw = pms_model_option(m, "slots_width", "5");
    if (strcmp(sw, "0") == 0) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "model %s: option slots_width = 0: expected 1..16",
                    m->name);
        return FALSE;
    }
    td->present = TRUE;
    return TRUE;
}

void sim_td_reset(SimTopdown *td)
{
    td->base_slots = 0;
    memset(td->base, 0, sizeof td->base);
    memset(td->acc, 0, sizeof td->acc);
    memset(td->cat, 0, sizeof td->cat);
    td->total = td->mark = td->inc = 0;
    td->on = FALSE;
}

/* T3: the internal total carries out of perf_metrics_width bits. */
static void add_total(SimTopdown *td, guint64 n, guint64 *global_status)
{
    guint64 room = td->total_mask - td->total; /* slots before the carry */
    if (n > room)
        *global_status |= sim_fbit(td->st_ovf);
    td->total = (td->total + n) & td->total_mask;
}

void sim_td_settle(SimTopdown *td, guint64 fc3, guint64 fc3_mask, guint64 *global_status)
{
    if (!td->present)
        return;
    guint64 delta = (fc3 - td->mark) & fc3_mask;
    td->mark = fc3;
    if (!td->on || td->inc == 0 || delta == 0)
        return;
    /* every counted cycle of the run added inc to FC3 and cat[] to the metrics */
    guint64 cycles = delta / td->inc, slots = 0;
    for (guint k = 0; k < SIM_TD_N; k++) {
        td->acc[k] += cycles * td->cat[k];
        slots += cycles * td->cat[k];
    }
    add_total(td, slots, global_status);
}

static gboolean metrics_on(const SimTopdown *td, guint64 global_ctrl)
{
    return td->disabled == SIM_TD_OFF_COUNT || sim_fget(td->gc_en, global_ctrl) != 0;
}

void sim_td_run(SimTopdown *td, guint64 inc, const SimSlots *slots, guint64 global_ctrl)
{
    if (!td->present)
        return;
    td->inc = inc;
    for (guint k = 0; k < SIM_TD_N; k++)
        td->cat[k] = slots->has ? slots->n[k] : 0;
    td->on = metrics_on(td, global_ctrl);
}

void sim_td_fc3_written(SimTopdown *td, guint64 fc3)
{
    td->mark = fc3;
}

/* T2.  The exact fraction of category k, times 255, is
 * (base_slots * base[k] + 255 * acc[k]) / (base_slots + sum acc). */
void sim_td_fractions(SimTdRounding r, guint64 base_slots, const guint *base, const guint64 *acc, guint out[SIM_TD_N])
{
    typedef unsigned __int128 U;
    U den = base_slots, num[SIM_TD_N], all = 0;
    for (guint k = 0; k < SIM_TD_N; k++)
        den += acc[k];
    memset(out, 0, sizeof(guint) * SIM_TD_N);
    if (den == 0)
        return; /* no slots: no fraction */
    for (guint k = 0; k < SIM_TD_N; k++) {
        num[k] = (U)base_slots * base[k] + (U)255 * acc[k];
        all += num[k];
    }
    guint sum = 0;
    for (guint k = 0; k < SIM_TD_N; k++) {
        U q = r == SIM_TD_ROUND_NEAREST ? (2 * num[k] + den) / (2 * den) : num[k] / den;
        out[k] = q > 255 ? 255 : (guint)q;
        sum += out[k];
    }
    if (r != SIM_TD_ROUND_SUM255)
        return;
    /* largest remainder: the fields add up to the nearest whole number to
     * the exact sum (255 whenever the written fractions did), the units left
     * over going to the largest remainders, the lower field first on a tie */
    U target = (2 * all + den) / (2 * den);
    U rem[SIM_TD_N];
    gboolean given[SIM_TD_N] = { FALSE };
    for (guint k = 0; k < SIM_TD_N; k++)
        rem[k] = num[k] - (U)out[k] * den;
    while (sum < target) {
        guint best = SIM_TD_N;
        for (guint k = 0; k < SIM_TD_N; k++)
            if (!given[k] && out[k] < 255 && (best == SIM_TD_N || rem[k] > rem[best]))
                best = k;
        if (best == SIM_TD_N)
            break;
        out[best]++;
        given[best] = TRUE;
        sum++;
    }
}

guint64 sim_td_read(const SimTopdown *td, guint64 global_ctrl)
{
    if (!td->present || (td->disabled == SIM_TD_OFF_ZERO && !metrics_on(td, global_ctrl)))
        return 0;
    guint f[SIM_TD_N];
    sim_td_fractions(td->rounding, td->base_slots, td->base, td->acc, f);
    guint64 v = 0;
    for (guint k = 0; k < SIM_TD_N; k++)
        v = sim_fset(td->field[k], v, f[k]);
    return v;
}

void sim_td_write(SimTopdown *td, guint64 value, guint64 fc3)
{
    memset(td->acc, 0, sizeof td->acc);
    /* T5: the written fractions stand for the slots FC3 holds now (why Linux
     * writes FC3 first); option reset: the value is dropped */
    td->base_slots = td->write == SIM_TD_WRITE_FC3 ? fc3 : 0;
    for (guint k = 0; k < SIM_TD_N; k++)
        td->base[k] = td->write == SIM_TD_WRITE_FC3 ? (guint)sim_fget(td->field[k], value) : 0;
    td->total = td->base_slots & td->total_mask;
}
