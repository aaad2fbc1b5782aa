/* pmusim — Montecito's measurement options (ia64_measure.h), and the
 * family's PmsCliForward: `pmusim encode montecito::EVENT --irange ...` is
 * `pmusim dispatch -e montecito::EVENT --irange ...`. */
#include "ia64_measure.h"
#include "family_impl.h"

GOptionEntry *pms_ia64_measure_entries(PmsIa64MeasureOpts *o)
{
    const GOptionEntry entries[] = {
        { "system-wide", 0, 0, G_OPTION_ARG_NONE, &o->system_wide, "pm = 1 in PMC37, PMC39, PMC40, PMC42", NULL },
        { "irange", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->iranges, "code range (repeatable, up to 4)", "START-END" },
        { "inv", 0, 0, G_OPTION_ARG_NONE, &o->inv, "code ranges: count outside them (PMC32.inv)", NULL },
        { "no-fine", 0, 0, G_OPTION_ARG_NONE, &o->no_fine, "code ranges: never fine mode", NULL },
        { "demand-fetch", 0, 0, G_OPTION_ARG_NONE, &o->demand,
          "code ranges, dual fetch events: restrict demand fetches", NULL },
        { "prefetch-match", 0, 0, G_OPTION_ARG_NONE, &o->prefetch,
          "code ranges, dual fetch events: restrict prefetches", NULL },
        { "drange", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->dranges, "data range (repeatable, up to 4)", "START-END" },
        { "opcm1", 0, 0, G_OPTION_ARG_STRING, &o->opcm1,
          "opcode matcher 1 (PMC32/33): 41-bit match, mask (1 = ignore), slots (default all)", "MATCH/MASK[:mifb]" },
        { "opcm2", 0, 0, G_OPTION_ARG_STRING, &o->opcm2, "opcode matcher 2 (PMC34/35)", "MATCH/MASK[:mifb]" },
        { "ear", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->ears, "I-EAR or D-EAR parameters (PMC37/PMC40; repeatable)",
          "icache|itlb|dcache|dtlb|dalat[:umask=N][:plm=LEVELS]" },
        { "etb", 0, 0, G_OPTION_ARG_STRING, &o->etb, "ETB parameters (PMC39); unnamed: tm, ptm, ppm 3, brt 0",
          "all|tm=N:ptm=N:ppm=N:brt=N:plm=LEVELS" },
        { "ipear", 0, 0, G_OPTION_ARG_STRING, &o->ipear, "IP-EAR parameters (PMC42)", "delay=N[:plm=LEVELS]" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    return g_memdup2(entries, sizeof entries);
}

void pms_ia64_measure_clear(PmsIa64MeasureOpts *o)
{
    g_strfreev(o->iranges);
    g_strfreev(o->dranges);
    g_strfreev(o->ears);
    g_free(o->opcm1);
    g_free(o->opcm2);
    g_free(o->etb);
    g_free(o->ipear);
    *o = (PmsIa64MeasureOpts){ 0 };
}

static gpointer opts_new(void)
{
    return g_new0(PmsIa64MeasureOpts, 1);
}

static void opts_free(gpointer p)
{
    pms_ia64_measure_clear(p);
    g_free(p);
}

static GOptionEntry *entries(gpointer p)
{
    return pms_ia64_measure_entries(p);
}

/* Each option given, as dispatch's arguments, in the table's order. */
static gboolean forward(gconstpointer p, GPtrArray *args)
{
    const PmsIa64MeasureOpts *o = p;
    guint before = args->len;
    g_autofree GOptionEntry *e = pms_ia64_measure_entries((PmsIa64MeasureOpts *)o);
    for (guint i = 0; e[i].long_name; i++) {
        g_autofree char *opt = g_strconcat("--", e[i].long_name, NULL);
        if (e[i].arg == G_OPTION_ARG_NONE) {
            if (*(gboolean *)e[i].arg_data)
                g_ptr_array_add(args, g_strdup(opt));
        } else if (e[i].arg == G_OPTION_ARG_STRING) {
            const char *v = *(char **)e[i].arg_data;
            if (v) {
                g_ptr_array_add(args, g_strdup(opt));
                g_ptr_array_add(args, g_strdup(v));
            }
        } else {
            for (char **v = *(char ***)e[i].arg_data; v && *v; v++) {
                g_ptr_array_add(args, g_strdup(opt));
                g_ptr_array_add(args, g_strdup(*v));
            }
        }
    }
    return args->len > before;
}

const PmsCliForward pms_ia64_encode_forward = {
    .command = "dispatch",
    .what = "Montecito's measurement parameters",
    .opts_new = opts_new,
    .opts_free = opts_free,
    .entries = entries,
    .forward = forward,
};
