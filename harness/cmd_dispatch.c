/* pmusim dispatch — Montecito measurement: events with their counting PMC
 * values plus the model-specific features into every register write and
 * the counter of each event (include/pmusim/ia64_dispatch.h,
 * docs/montecito-dispatch.md).  Events are given as NAME=VALUE (any
 * encoder's codes[0]), by NAME alone (the event by itself at the default
 * plm), or as an event string PMU::EVENT[:MOD...] taken through the builtin
 * encoder (its codes[0]). */
#include "suggest.h"
#include "cli_common.h"
#include "commands.h"
#include "encoder.h"
#include "ia64_dispatch.h"
#include "ia64_measure.h"

#include <stdio.h>
#include <string.h>

#define CMD "pmusim: dispatch: "

/* LEVELS "0,3" into a PLM mask; FALSE after one stderr line. */
static gboolean parse_levels(const char *what, const char *text, guint *plm)
{
    guint mask = 0;
    if (!pms_cli_levels(text, &mask)) {
        fprintf(stderr, CMD "%s: expected privilege levels 0 to 3 separated by commas (0,3), got '%s'\n", what, text);
        return FALSE;
    }
    *plm = mask;
    return TRUE;
}

static gboolean parse_num(const char *what, const char *text, guint64 max, guint64 *out)
{
    g_autofree char *w = g_strconcat("dispatch: ", what, NULL);
    if (!pms_cli_parse_u64(w, text, out))
        return FALSE;
    if (*out > max) {
        fprintf(stderr, CMD "%s: %s is above %" G_GUINT64_FORMAT "\n", what, text, max);
        return FALSE;
    }
    return TRUE;
}

/* "START-END" */
static gboolean parse_range(const char *opt, const char *text, PmsIa64Range *r)
{
    const char *dash = strchr(text, '-');
    if (!dash || strchr(dash + 1, '-')) {
        fprintf(stderr, CMD "%s '%s': expected START-END\n", opt, text);
        return FALSE;
    }
    g_autofree char *start = g_strndup(text, (gsize)(dash - text));
    r->plm = 0;
    return parse_num("START", start, G_MAXUINT64, &r->start) && parse_num("END", dash + 1, G_MAXUINT64, &r->end);
}

static gboolean parse_ranges(const char *opt, char **texts, PmsIa64DispatchRange *rr)
{
    if (!texts)
        return TRUE;
    rr->used = TRUE;
    rr->n_ranges = g_strv_length(texts);
    if (rr->n_ranges > PMS_IA64_RANGE_MAX) /* the library names the error; its slots stay unread */
        return TRUE;
    for (guint i = 0; i < rr->n_ranges; i++)
        if (!parse_range(opt, texts[i], &rr->ranges[i]))
            return FALSE;
    return TRUE;
}

/* "MATCH/MASK[:mifb]" */
static gboolean parse_opcm(const char *opt, const char *text, PmsIa64OpcmCfg *o)
{
    if (!text)
        return TRUE;
    const char *slash = strchr(text, '/');
    if (!slash) {
        fprintf(stderr, CMD "%s '%s': expected MATCH/MASK[:SLOTS]\n", opt, text);
        return FALSE;
    }
    const char *colon = strchr(slash, ':');
    g_autofree char *match = g_strndup(text, (gsize)(slash - text));
    g_autofree char *mask = colon ? g_strndup(slash + 1, (gsize)(colon - slash - 1)) : g_strdup(slash + 1);
    o->used = TRUE;
    if (!parse_num("MATCH", match, G_MAXUINT64, &o->match) || !parse_num("MASK", mask, G_MAXUINT64, &o->mask))
        return FALSE;
    if (!colon) {
        o->m = o->i = o->f = o->b = TRUE;
        return TRUE;
    }
    if (!colon[1]) {
        fprintf(stderr, CMD "%s '%s': SLOTS is one or more of m i f b\n", opt, text);
        return FALSE;
    }
    for (const char *p = colon + 1; *p; p++) {
        switch (*p) {
        case 'm':
            o->m = TRUE;
            break;
        case 'i':
            o->i = TRUE;
            break;
        case 'f':
            o->f = TRUE;
            break;
        case 'b':
            o->b = TRUE;
            break;
        default:
            fprintf(stderr, CMD "%s '%s': SLOTS is one or more of m i f b\n", opt, text);
            return FALSE;
        }
    }
    return TRUE;
}

/* KEY=VALUE items separated by ':'; known keys, numbers or levels. */
typedef struct {
    const char *key;
    guint *out;
    guint64 max; /* 0: privilege levels */
} Item;

static gboolean parse_items(const char *opt, const char *text, char **items, Item *known, gsize n_known)
{
    for (char **it = items; *it; it++) {
        const char *eq = strchr(*it, '=');
        gsize klen = eq ? (gsize)(eq - *it) : strlen(*it);
        Item *k = NULL;
        for (gsize j = 0; j < n_known && !k; j++)
            if (strlen(known[j].key) == klen && strncmp(known[j].key, *it, klen) == 0)
                k = &known[j];
        if (!k || !eq) {
            GString *keys = g_string_new(NULL);
            for (gsize j = 0; j < n_known; j++)
                g_string_append_printf(keys, "%s%s=", j ? " " : "", known[j].key);
            fprintf(stderr, CMD "%s '%s': '%s': expected one of %s\n", opt, text, *it, keys->str);
            g_string_free(keys, TRUE);
            return FALSE;
        }
        if (k->max == 0) {
            if (!parse_levels(k->key, eq + 1, k->out))
                return FALSE;
        } else {
            guint64 v;
            if (!parse_num(k->key, eq + 1, k->max, &v))
                return FALSE;
            *k->out = (guint)v;
        }
    }
    return TRUE;
}

/* "KIND[:umask=N][:plm=LEVELS]" into the I-EAR or D-EAR parameters. */
static gboolean parse_ear(const char *text, PmsIa64DispatchRequest *req)
{
    g_auto(GStrv) parts = g_strsplit(text, ":", -1);
    static const struct {
        const char *name;
        gboolean d;
        PmsIa64EarMode mode;
    } kinds[] = {
        { "icache", FALSE, PMS_IA64_EAR_MODE_CACHE }, { "itlb", FALSE, PMS_IA64_EAR_MODE_TLB },
        { "dcache", TRUE, PMS_IA64_EAR_MODE_CACHE },  { "dtlb", TRUE, PMS_IA64_EAR_MODE_TLB },
        { "dalat", TRUE, PMS_IA64_EAR_MODE_ALAT },
    };
    for (gsize i = 0; i < G_N_ELEMENTS(kinds); i++) {
        if (strcmp(parts[0], kinds[i].name) != 0)
            continue;
        PmsIa64EarCfg *e = kinds[i].d ? &req->dear : &req->iear;
        if (e->used) {
            fprintf(stderr, CMD "--ear '%s': the %s-EAR is already configured\n", text, kinds[i].d ? "D" : "I");
            return FALSE;
        }
        e->used = TRUE;
        e->mode = kinds[i].mode;
        Item known[] = { { "umask", &e->umask, 0xff }, { "plm", &e->plm, 0 } };
        return parse_items("--ear", text, parts + 1, known, G_N_ELEMENTS(known));
    }
    fprintf(stderr, CMD "--ear '%s': expected icache, itlb, dcache, dtlb or dalat[:umask=N][:plm=LEVELS]\n", text);
    return FALSE;
}

/* "all" or "tm=N:ptm=N:ppm=N:brt=N:plm=LEVELS" (unnamed: tm, ptm, ppm 3, brt 0). */
static gboolean parse_etb(const char *text, PmsIa64EtbCfg *t)
{
    if (!text)
        return TRUE;
    *t = (PmsIa64EtbCfg){ .used = TRUE, .tm = 3, .ptm = 3, .ppm = 3, .brt = 0 };
    if (strcmp(text, "all") == 0)
        return TRUE;
    g_auto(GStrv) parts = g_strsplit(text, ":", -1);
    Item known[] = {
        { "tm", &t->tm, 3 }, { "ptm", &t->ptm, 3 }, { "ppm", &t->ppm, 3 }, { "brt", &t->brt, 3 }, { "plm", &t->plm, 0 }
    };
    return parse_items("--etb", text, parts, known, G_N_ELEMENTS(known));
}

/* "delay=N[:plm=LEVELS]" */
static gboolean parse_ipear(const char *text, PmsIa64IpearCfg *p)
{
    if (!text)
        return TRUE;
    p->used = TRUE;
    g_auto(GStrv) parts = g_strsplit(text, ":", -1);
    Item known[] = { { "delay", &p->delay, 255 }, { "plm", &p->plm, 0 } };
    return parse_items("--ipear", text, parts, known, G_N_ELEMENTS(known));
}

/* "PMU::EVENT[:MOD...][:noqual]": the builtin encoder's codes[0]; a
 * trailing ":noqual" (no modifier of the encoder) is the dispatch flag. */
static gboolean parse_string(const PmsModelSet *set, const PmsModel *m, const char *text, guint plm,
                             PmsIa64DispatchEvent *d)
{
    g_autofree char *str = g_strdup(text);
    gsize len = strlen(str);
    if (len > 7 && strcmp(str + len - 7, ":noqual") == 0) {
        str[len - 7] = '\0';
        d->flags |= PMS_IA64_EVT_NO_QUALCHECK;
    }
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsEncoding) enc = pms_encode_plm(set, str, plm, &err);
    if (!enc) {
        g_autofree char *hint = pms_suggest_for_string(set, str, err);
        fprintf(stderr, CMD "-e '%s': %s: %s%s\n", text, pms_encode_error_name(err->code), err->message, hint);
        return FALSE;
    }
    if (enc->model != m) {
        fprintf(stderr, CMD "-e '%s': an event of %s, not of %s\n", text, enc->model->name, m->name);
        return FALSE;
    }
    d->event = enc->event;
    d->pmc = enc->codes[0];
    return TRUE;
}

/* "NAME[=VALUE][:thres=N][:noqual]" or an event string */
static gboolean parse_event(const PmsModelSet *set, const PmsModel *m, const char *text, guint plm,
                            PmsIa64DispatchEvent *d)
{
    if (strstr(text, "::"))
        return parse_string(set, m, text, plm, d);
    g_auto(GStrv) parts = g_strsplit(text, ":", -1);
    /* -e '' splits into no part at all */
    const char *eq = parts[0] ? strchr(parts[0], '=') : NULL;
    g_autofree char *name = eq ? g_strndup(parts[0], (gsize)(eq - parts[0])) : g_strdup(parts[0] ? parts[0] : "");
    if (!*name) {
        fprintf(stderr, CMD "-e '%s': no event name: expected NAME[=VALUE][:thres=N][:noqual] or PMU::EVENT...\n",
                text);
        return FALSE;
    }
    d->event = pms_model_event(m, name);
    if (!d->event) {
        fprintf(stderr, CMD "-e '%s': no event %s in %s\n", text, name, m->name);
        return FALSE;
    }
    if (eq) {
        if (!parse_num("VALUE", eq + 1, G_MAXUINT64, &d->pmc))
            return FALSE;
    } else {
        g_autoptr(GError) err = NULL;
        if (!pms_ia64_dispatch_default_pmc(m, d->event, plm, &d->pmc, &err)) {
            fprintf(stderr, CMD "%s: %s\n", pms_ia64_dispatch_error_name(err->code), err->message);
            return FALSE;
        }
    }
    for (char **it = parts + 1; *it; it++) {
        if (strcmp(*it, "noqual") == 0) {
            d->flags |= PMS_IA64_EVT_NO_QUALCHECK;
        } else if (g_str_has_prefix(*it, "thres=")) {
            guint64 v;
            if (!parse_num("thres", *it + 6, 7, &v))
                return FALSE;
            d->thres = (guint)v;
        } else {
            fprintf(stderr, CMD "-e '%s': '%s': expected thres=N or noqual\n", text, *it);
            return FALSE;
        }
    }
    return TRUE;
}

static void print_range(const char *side, const PmsIa64DispatchRange *in, const PmsIa64RangeResult *res)
{
    for (guint i = 0; i < in->n_ranges; i++)
        printf("%s %u soff=0x%" G_GINT64_MODIFIER "x eoff=0x%" G_GINT64_MODIFIER "x\n", side, i, res->soff[i],
               res->eoff[i]);
}

int pms_cmd_dispatch(int argc, char **argv)
{
    g_auto(GStrv) events = NULL, model_files = NULL;
    g_autofree char *plm_text = NULL, *pmu = NULL;
    /* the measurement's options, shared with `pmusim encode` (ia64_measure.h) */
    g_auto(PmsIa64MeasureOpts) mo = { 0 };
    const GOptionEntry own[] = {
        { "event", 'e', 0, G_OPTION_ARG_STRING_ARRAY, &events,
          "an event and its counting PMC value (repeatable); without =VALUE the event by itself at the default "
          "plm; PMU::EVENT[:MOD...][:noqual] an event string through the builtin encoder",
          "NAME[=VALUE][:thres=N][:noqual]" },
        { "plm", 0, 0, G_OPTION_ARG_STRING, &plm_text, "default privilege levels (default 0,3)", "LEVELS" },
        { "pmu", 'p', 0, G_OPTION_ARG_STRING, &pmu, "PMU of the events, an ia64 model (default montecito)", "PMU" },
    };
    g_autofree GOptionEntry *measure = pms_ia64_measure_entries(&mo);
    g_autoptr(GArray) all = g_array_new(TRUE, TRUE, sizeof(GOptionEntry));
    g_array_append_vals(all, own, 2);
    for (guint i = 0; measure[i].long_name; i++)
        g_array_append_val(all, measure[i]);
    g_array_append_val(all, own[2]);
    const GOptionEntry *entries = (const GOptionEntry *)(gpointer)all->data;
    g_autoptr(GOptionContext) ctx =
        pms_cli_context("",
                        "Itanium 2 9000 (Montecito) dispatch: place the events on their counters and\n"
                        "program the opcode matchers, I-EAR, D-EAR, ETB, IP-EAR and code/data range\n"
                        "restriction (libpfm_montecito(3)'s parameters; docs/montecito-dispatch.md).\n"
                        "Prints one REG=0xVALUE line per register written (PMCs ascending, then IBRs,\n"
                        "DBRs), 'counter EVENT=PMCn' per event, the EAR/ETB methods used, and per range\n"
                        "'irange|drange N soff=0x.. eoff=0x..' (the cover is [START - soff, END + eoff))\n"
                        "with 'irange fine=yes|no'.  An event's VALUE is its counting PMC (codes[0] of\n"
                        "any encoder); a NAME alone is the event by itself (es, umask, plm, ism 2);\n"
                        "an event string montecito::EVENT[:MOD...] is encoded by the builtin encoder.\n"
                        "Errors print one line naming the libpfm error.",
                        entries, &model_files);
    pms_cli_help(ctx,
                 "0 dispatched; 2 usage error, an event or parameter the dispatch refuses (the line "
                 "names the libpfm error), or a model file that does not load.",
                 "  pmusim dispatch -e CPU_OP_CYCLES_ALL -e BUS_ALL_ANY=0x2038709\n"
                 "  pmusim dispatch -e IA64_INST_RETIRED_THIS:thres=2 --opcm1 0x0/0x1ffffffffff:mi\n"
                 "  pmusim dispatch -e montecito::L3_INSERTS:u:mesi_i -e montecito::NOPS_RETIRED:thres=3\n"
                 "  pmusim dispatch --plm 3 -e IA64_INST_RETIRED_THIS --irange 0x4000a0-0x400200\n"
                 "  pmusim dispatch --plm 3 -e L1D_READS_SET0 --drange 0x1000-0x2000 --drange 0x8003-0x9000\n"
                 "  pmusim dispatch -e DATA_EAR_CACHE_LAT4 --ear dcache:umask=0x4:plm=3     (EAR method 2)\n"
                 "  pmusim dispatch --ear itlb:umask=0x7                                    (method 4)\n"
                 "  pmusim dispatch -e ETB_EVENT --etb tm=2:ptm=3:ppm=3:brt=0\n"
                 "  pmusim dispatch --ipear delay=32:plm=0,3\n"
                 "  pmusim dispatch -e FE_BUBBLE_ALL:noqual --irange 0x4000-0x8000\n");
    if (!pms_cli_parse(ctx, &argc, &argv))
        return PMS_EXIT_USAGE;
    if (argc > 1) {
        fprintf(stderr, CMD "unexpected argument '%s' (events are given with -e)\n", argv[1]);
        return PMS_EXIT_USAGE;
    }
    g_autoptr(PmsModelSet) set = pms_cli_load_models(model_files);
    if (!set)
        return PMS_EXIT_USAGE;
    const PmsModel *m = pms_cli_ia64_model(set, pmu, CMD);
    if (!m)
        return PMS_EXIT_USAGE;
    PmsIa64DispatchRequest req = { 0 };
    req.model = m;
    req.plm = 0x9; /* PLM0 | PLM3: user and kernel */
    req.system_wide = mo.system_wide;
    if (plm_text && !parse_levels("--plm", plm_text, &req.plm))
        return PMS_EXIT_USAGE;
    guint n_ev = events ? g_strv_length(events) : 0;
    /* more than the counters: the library names the error */
    g_autofree PmsIa64DispatchEvent *evs = g_new0(PmsIa64DispatchEvent, n_ev + 1);
    for (guint i = 0; i < n_ev; i++)
        if (!parse_event(set, m, events[i], req.plm, &evs[i]))
            return PMS_EXIT_USAGE;
    req.n_events = n_ev;
    req.events = evs;
    if (!parse_ranges("--irange", mo.iranges, &req.irange) || !parse_ranges("--drange", mo.dranges, &req.drange) ||
        !parse_opcm("--opcm1", mo.opcm1, &req.opcm1) || !parse_opcm("--opcm2", mo.opcm2, &req.opcm2) ||
        !parse_etb(mo.etb, &req.etb) || !parse_ipear(mo.ipear, &req.ipear))
        return PMS_EXIT_USAGE;
    for (char **e = mo.ears; e && *e; e++)
        if (!parse_ear(*e, &req))
            return PMS_EXIT_USAGE;
    if ((mo.inv || mo.no_fine || mo.demand || mo.prefetch) && !mo.iranges) {
        fprintf(stderr, CMD "--inv, --no-fine, --demand-fetch and --prefetch-match apply to code ranges (--irange)\n");
        return PMS_EXIT_USAGE;
    }
    req.irange.flags = (mo.inv ? PMS_IA64_RANGE_INV : 0) | (mo.no_fine ? PMS_IA64_RANGE_NO_FINE : 0) |
        (mo.demand ? PMS_IA64_RANGE_DEMAND_FETCH : 0) | (mo.prefetch ? PMS_IA64_RANGE_PREFETCH_MATCH : 0);

    g_autofree PmsIa64DispatchResult *res = g_new0(PmsIa64DispatchResult, 1);
    g_autoptr(GError) err = NULL;
    if (!pms_ia64_dispatch(&req, res, &err)) {
        fprintf(stderr, CMD "%s: %s\n", pms_ia64_dispatch_error_name(err->code), err->message);
        return PMS_EXIT_USAGE;
    }
    for (guint i = 0; i < res->n_writes; i++)
        printf("%s=0x%" G_GINT64_MODIFIER "x\n", res->writes[i].name, res->writes[i].value);
    for (guint i = 0; i < n_ev; i++) {
        const PmsRegister *r = pms_model_reg_at(m, PMS_SPACE_PMC, res->counter[i]);
        printf("counter %s=%s\n", evs[i].event->name, r ? r->name : "?");
    }
    printf("method iear=%u dear=%u etb=%u\n", res->methods.iear, res->methods.dear, res->methods.etb);
    if (res->irange_used) {
        print_range("irange", &req.irange, &res->irange);
        printf("irange fine=%s\n", res->irange.fine ? "yes" : "no");
    }
    if (res->drange_used)
        print_range("drange", &req.drange, &res->drange);
    return 0;
}
