/* pmusim decode — a register value back to an event string.
 *
 * The string is the library's (pms_decode); around it the command says what
 * a person reading a register dump needs and the string cannot carry: bits
 * the register reserves, an extra register value the event needs and was not
 * given (or was given and the event takes none), and the fields an event
 * string never sets (EN, INT, PC) when they differ from what the string
 * encodes to. */
#include "cli_common.h"
#include "cli_family.h"
#include "commands.h"
#include "encoder.h"

#include <stdio.h>

/* The event whose code and umask field need an extra register value (an
 * offcore event, a load-latency unit mask: *umask_name), or NULL. */
static const PmsEvent *needs_extra(const PmsModel *m, guint64 value, const PmsRegister *reg, const char **umask_name)
{
    *umask_name = NULL;
    const PmsField *fe = pms_register_field(reg, "event");
    const PmsField *fu = pms_register_field(reg, "umask");
    if (!fe || !fu || !pms_cli_family(m)->decode_extra_hints)
        return NULL;
    guint64 code = pms_field_get(fe, value), umask = pms_field_get(fu, value);
    for (guint i = 0; i < m->n_events; i++) {
        const PmsEvent *ev = &m->events[i];
        if (ev->code != code || ev->equiv || !ev->extra_reg)
            continue;
        if ((ev->flags & PMS_EVENT_OFFCORE) && umask == ev->base_umask)
            return ev;
        for (guint u = 0; u < ev->n_umasks; u++)
            if ((ev->umasks[u].flags & PMS_UMASK_LDLAT) && (ev->umasks[u].value | ev->base_umask) == umask) {
                *umask_name = ev->umasks[u].name;
                return ev;
            }
    }
    return NULL;
}

/* An EXTRA value whose field lies outside the range of the modifier that
 * writes it (MSR_PEBS_LD_LAT's threshold below ldlat's minimum 3): the
 * sentence, or NULL when every such field is in range. */
static char *extra_out_of_range(const PmsModel *m, const PmsEvent *ev, guint64 extra)
{
    const PmsRegister *x = pms_model_reg_by_name(m, ev->extra_reg);
    const char *kind = x ? pms_reg_kind_name(x->kind) : NULL;
    for (guint i = 0; kind && i < m->n_mods; i++) {
        const PmsModifier *mod = &m->mods[i];
        const PmsField *f =
            mod->reg_kind && g_str_equal(mod->reg_kind, kind) ? pms_register_field(x, mod->field) : NULL;
        if (!f)
            continue;
        guint64 v = pms_field_get(f, extra);
        if (v < mod->min || v > mod->max)
            return g_strdup_printf("EXTRA 0x%" G_GINT64_MODIFIER "x sets %s = %" G_GUINT64_FORMAT " in %s, outside "
                                   "%" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT
                                   ", the range of the :%s modifier that writes it (%s::%s)",
                                   extra, f->name, v, x->name, mod->min, mod->max, mod->name, m->name, ev->name);
    }
    return NULL;
}

/* What EN, INT and PC (any field the string does not set) mean when they
 * differ from the string's encoding. */
static const char *field_meaning(const char *name, guint64 v)
{
    if (g_str_equal(name, "en"))
        return v ? "the counter is enabled" : "the counter is disabled: it counts nothing";
    if (g_str_equal(name, "int") || g_str_equal(name, "pmi_en") || g_str_equal(name, "pmi"))
        return v ? "an overflow raises a PMI" : "an overflow raises no PMI";
    if (g_str_equal(name, "pc"))
        return "pin control: the PMi pin toggles on each increment";
    return "not part of an event string";
}

static void print_hidden_fields(const PmsModelSet *set, const char *str, guint64 value, const PmsRegister *reg)
{
    g_autoptr(PmsEncoding) enc = pms_encode(set, str, NULL);
    if (!enc || !enc->n_codes || !reg || !reg->layout)
        return;
    guint64 diff = enc->codes[0] ^ value;
    for (guint i = 0; i < reg->layout->n_fields; i++) {
        const PmsField *f = &reg->layout->fields[i];
        if (!pms_field_get(f, diff))
            continue;
        guint64 v = pms_field_get(f, value);
        printf("  %s=%" G_GUINT64_FORMAT " in %s (the string encodes %s=%" G_GUINT64_FORMAT "): %s\n", f->name, v,
               reg->name, f->name, pms_field_get(f, enc->codes[0]), field_meaning(f->name, v));
    }
    /* bits outside every field (the Xeon 7500's "ig" bits) that a write sets
     * without effect: decode ignored them, say so */
    if (value & reg->ignored)
        printf("  bits 0x%" G_GINT64_MODIFIER "x in %s are ignored (a write sets them without effect; they read 0)\n",
               value & reg->ignored, reg->name);
}

int pms_cmd_decode(int argc, char **argv)
{
    g_auto(GStrv) model_files = NULL;
    g_autoptr(GOptionContext) ctx =
        pms_cli_context("PMU VALUE [EXTRA]",
                        "Decode an event-select value (and the extra register value of offcore\n"
                        "or load-latency events) into the canonical event string.  Fields an event\n"
                        "string does not set (EN, INT, PC) follow on indented lines when they differ\n"
                        "from what the string encodes, and so do bits the register ignores; reserved\n"
                        "bits, and an EXTRA the event needs\n"
                        "but was not given (or takes none), are errors that say so.",
                        NULL, &model_files);
    pms_cli_help(ctx,
                 "0 decoded; 1 the value is no event of the PMU, sets reserved bits, or needs (or takes no) "
                 "EXTRA value; 2 usage error, a malformed number, an unknown PMU or a model file that does "
                 "not load.",
                 "  pmusim decode wsm 0x5301c0\n"
                 "  pmusim decode nhm 0x5301b7 0x2013     an offcore event with its MSR_OFFCORE_RSP_0 value\n"
                 "  pmusim decode wsm 0x1301c0            EN=0: the indented line says the counter is disabled\n"
                 "  pmusim decode nhm_unc 0x500309\n");
    if (!pms_cli_parse(ctx, &argc, &argv))
        return PMS_EXIT_USAGE;
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "pmusim: decode: expected PMU VALUE [EXTRA]\n");
        return PMS_EXIT_USAGE;
    }
    guint64 value, extra = 0;
    if (!pms_cli_parse_u64("VALUE", argv[2], &value) || (argc == 4 && !pms_cli_parse_u64("EXTRA", argv[3], &extra)))
        return PMS_EXIT_USAGE;
    g_autoptr(PmsModelSet) models = pms_cli_load_models(model_files);
    if (models == NULL)
        return PMS_EXIT_USAGE;
    const PmsModel *m = pms_cli_model(models, argv[1]);
    if (m == NULL)
        return PMS_EXIT_USAGE;
    const PmsRegister *reg = pms_cli_family(m)->decode_reg(m);
    guint64 reserved = reg ? value & ~(reg->writable | reg->ignored) : 0;
    if (reserved) {
        /* what the rest would be, so that a typo in a dump is easy to see */
        g_autofree char *rest = pms_decode(m, value & ~reserved, argc == 4, extra, NULL);
        fprintf(stderr,
                "pmusim: decode: 0x%" G_GINT64_MODIFIER "x sets bits 0x%" G_GINT64_MODIFIER "x that %s "
                "reserves (writable 0x%" G_GINT64_MODIFIER "x): writing it takes #GP%s%s\n",
                value, reserved, reg->name, reg->writable, rest ? "; without them it is " : "", rest ? rest : "");
        return 1;
    }
    const char *um = NULL;
    const PmsEvent *ev = argc == 3 ? needs_extra(m, value, reg, &um) : NULL;
    if (ev) {
        fprintf(stderr,
                "pmusim: decode: 0x%" G_GINT64_MODIFIER "x is %s::%s%s%s, which takes its %s from %s: "
                "give that register's value as EXTRA (pmusim decode %s 0x%" G_GINT64_MODIFIER "x EXTRA)\n",
                value, m->name, ev->name, um ? ":" : "", um ? um : "",
                ev->flags & PMS_EVENT_OFFCORE ? "request and response bits" : "latency threshold", ev->extra_reg,
                m->name, value);
        return 1;
    }
    g_autoptr(GError) err = NULL;
    g_autofree char *s = pms_decode(m, value, argc == 4, extra, &err);
    if (s == NULL) {
        const char *um2 = NULL;
        const PmsEvent *xev = argc == 4 ? needs_extra(m, value, reg, &um2) : NULL;
        g_autofree char *range = xev ? extra_out_of_range(m, xev, extra) : NULL;
        g_autofree char *plain = argc == 4 && !xev ? pms_decode(m, value, FALSE, 0, NULL) : NULL;
        if (range)
            fprintf(stderr, "pmusim: decode: %s\n", range);
        else if (plain)
            fprintf(stderr,
                    "pmusim: decode: 0x%" G_GINT64_MODIFIER "x is %s, which takes no extra register "
                    "value: drop EXTRA\n",
                    value, plain);
        else
            fprintf(stderr, "pmusim: decode: %s\n", err->message);
        return 1;
    }
    printf("%s\n", s);
    print_hidden_fields(models, s, value, reg);
    return 0;
}
