/* pmusim — the CLI hooks of the test-only family `toy` (models/tests/toy.pmu,
 * docs/adding-a-pmu.md): its counting pipeline in words, its decode register and its own signal. */
#include "family_impl.h"

/* TOY_CTLk: event, umask, en, int, thresh (toy.pmu's header). */
static void toy_explain(GString *o, const PmsEncoding *enc)
{
    const PmsModel *m = enc->model;
    const PmsRegister *ctl = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, enc->place.counter);
    const PmsRegister *ctr = pms_model_reg_by_kind(m, PMS_REG_PMC, enc->place.counter);
    guint64 v = enc->codes[0];
    guint64 en = pms_cli_field(ctl, v, "en"), intr = pms_cli_field(ctl, v, "int");
    guint64 thr = pms_cli_field(ctl, v, "thresh");
    g_string_append(o, "\nWhat the counter counts (models/tests/toy.pmu, the toy family's own rules):\n");
    if (ctr)
        g_string_append_printf(o, "  counter: %s (0x%x), %u bits wide\n", ctr->name, ctr->address, ctr->width);
    g_string_append_printf(o,
                           "  signal: event 0x%02" G_GINT64_MODIFIER "x, umask 0x%02" G_GINT64_MODIFIER
                           "x (and any signal whose non-zero umask bits lie inside it)\n",
                           pms_cli_field(ctl, v, "event"), pms_cli_field(ctl, v, "umask"));
    g_string_append(o, "  privilege: none: the toy family has no privilege filter\n");
    if (thr)
        g_string_append_printf(o,
                               "  threshold: t=%" G_GUINT64_FORMAT ": each cycle with at least %" G_GUINT64_FORMAT
                               " occurrences adds 1\n",
                               thr, thr);
    else
        g_string_append(o, "  threshold: t=0: each cycle adds its number of occurrences\n");
    g_string_append_printf(o, "  enable: en=%d%s\n", (int)en, en ? "" : ": the counter counts nothing");
    g_string_append_printf(o, "  overflow: a carry out of bit %u sets the counter's ovf bit in TOY_STATUS%s\n",
                           ctr && ctr->width ? ctr->width - 1 : 31, intr ? " and raises a PMI (int=1)" : "");
    g_string_append_printf(o, "\nIn short: %s.\n",
                           !en       ? "counts nothing"
                               : thr ? "counts the cycles in which the signal occurs at least t times"
                                     : "adds, every cycle, the number of occurrences of the signal");
}

static const PmsRegister *toy_decode_reg(const PmsModel *m)
{
    return pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
}

static void toy_list_event(GString *o, const PmsModel *m, const PmsEvent *ev)
{
    g_string_append_printf(o, "  umask       0x%x\n  counters    0x%" G_GINT64_MODIFIER "x\n", ev->base_umask,
                           ev->counters);
}

static guint32 toy_own_signal(const PmsModel *m, const guint64 *codes, guint n_codes)
{
    const PmsRegister *ctl = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    return PMS_SIGNAL_KEY(pms_cli_field(ctl, codes[0], "event"), pms_cli_field(ctl, codes[0], "umask"));
}

/* Every bit of TOY_CTL changes a count, a status bit or a PMI, or is
 * reserved (#GP): no mutant is unobservable by design. */
static const char *toy_unobservable(const PmsModel *m, const PmsEvent *ev, guint counter, const guint64 *codes,
                                    guint n_codes, guint code, guint bit)
{
    return NULL;
}

const PmsCliFamily pms_cli_toy = {
    .explain = toy_explain,
    .decode_reg = toy_decode_reg,
    .list_event = toy_list_event,
    .own_signal = toy_own_signal,
    .unobservable = toy_unobservable,
};
