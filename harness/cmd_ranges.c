/* pmusim ranges — Montecito code/data range restriction: the debug-register
 * pairs and configuration registers for up to four [START, END) ranges
 * (include/pmusim/ia64_range.h, docs/ia64-range.md). */
#include "cli_common.h"
#include "commands.h"
#include "ia64_range.h"

#include <stdio.h>
#include <string.h>

/* "START-END" into r; FALSE after one stderr line. */
static gboolean parse_range(const char *text, PmsIa64Range *r)
{
    const char *dash = strchr(text, '-');
    if (!dash || strchr(dash + 1, '-')) {
        fprintf(stderr, "pmusim: ranges: range '%s': expected START-END\n", text);
        return FALSE;
    }
    g_autofree char *start = g_strndup(text, (gsize)(dash - text));
    return pms_cli_parse_u64("ranges: START", start, &r->start) && pms_cli_parse_u64("ranges: END", dash + 1, &r->end);
}

static const char *reg_prefix(PmsRegSpace space)
{
    switch (space) {
    case PMS_SPACE_IBR:
        return "ibr";
    case PMS_SPACE_DBR:
        return "dbr";
    default:
        return "pmc";
    }
}

int pms_cmd_ranges(int argc, char **argv)
{
    gboolean code = FALSE, data = FALSE, inv = FALSE, no_fine = FALSE, demand = FALSE, prefetch = FALSE;
    g_auto(GStrv) events = NULL;
    g_autofree char *plm_text = NULL;
    g_auto(GStrv) model_files = NULL;
    g_autofree char *pmu = NULL;
    const GOptionEntry entries[] = {
        { "code", 0, 0, G_OPTION_ARG_NONE, &code, "code ranges (IBRs, PMC38); START and END multiples of 16", NULL },
        { "data", 0, 0, G_OPTION_ARG_NONE, &data, "data ranges (DBRs)", NULL },
        { "inv", 0, 0, G_OPTION_ARG_NONE, &inv, "code: count outside the ranges (PMC32.inv)", NULL },
        { "no-fine", 0, 0, G_OPTION_ARG_NONE, &no_fine, "code: never use fine mode", NULL },
        { "demand-fetch", 0, 0, G_OPTION_ARG_NONE, &demand, "code, dual fetch events: restrict demand fetches (IBRP0)",
          NULL },
        { "prefetch-match", 0, 0, G_OPTION_ARG_NONE, &prefetch, "code, dual fetch events: restrict prefetches (IBRP1)",
          NULL },
        { "event", 'e', 0, G_OPTION_ARG_STRING_ARRAY, &events,
          "a Montecito event the restriction is for (repeatable; default: one event that supports it)", "NAME" },
        { "pmu", 'p', 0, G_OPTION_ARG_STRING, &pmu, "the ia64 model the events are of (default montecito)", "PMU" },
        { "plm", 0, 0, G_OPTION_ARG_STRING, &plm_text, "privilege levels of the ranges (default 3)", "LEVELS" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    g_autoptr(GOptionContext) ctx =
        pms_cli_context("--code|--data START-END...",
                        "Itanium 2 9000 (Montecito) address-range restriction: cover up to four\n"
                        "half-open ranges [START, END) with debug-register pairs and print every\n"
                        "register written (REG=0xVALUE), each range's cover offsets (the cover is\n"
                        "[START - soff, END + eoff)) and whether fine mode was used.  Numbers are\n"
                        "decimal or 0x-hex.  Errors print one line naming the libpfm error.",
                        entries, &model_files);
    pms_cli_help(ctx,
                 "0 the ranges are covered; 2 usage error, or ranges or events the restriction refuses "
                 "(the line names the libpfm error).",
                 "  pmusim ranges --data 0x1000-0x2000            one aligned 4 KB block: dbr0/dbr1\n"
                 "  pmusim ranges --data 0x1003-0x2005            several DBR pairs, soff/eoff show the excess\n"
                 "  pmusim ranges --code 0x4000a0-0x400200        fine mode (one 64 KB page)\n"
                 "  pmusim ranges --code --no-fine 0x4000a0-0x400200\n"
                 "  pmusim ranges --code -e IA64_TAGGED_INST_RETIRED_IBRP0_PMC32_33 \\\n"
                 "        -e IA64_TAGGED_INST_RETIRED_IBRP1_PMC34_35 --no-fine 0x10010-0x10030\n"
                 "  pmusim ranges --code --inv 0x4000-0x8000       count outside the range\n"
                 "  pmusim ranges --code -e L2I_PREFETCHES 0x4000a0-0x400200      prefetches: IBRP1/IBRP3\n"
                 "  pmusim ranges --code -e L1I_FILLS --demand-fetch --prefetch-match 0x4000a0-0x400200\n");
    if (!pms_cli_parse(ctx, &argc, &argv))
        return PMS_EXIT_USAGE;
    if (argc > 1 && strcmp(argv[1], "--") == 0) { /* GOption leaves "--" in place */
        argv[1] = argv[0];
        argc--, argv++;
    }
    if (code == data) {
        fprintf(stderr, "pmusim: ranges: give exactly one of --code and --data\n");
        return PMS_EXIT_USAGE;
    }
    if (argc < 2) {
        fprintf(stderr, "pmusim: ranges: expected at least one START-END\n");
        return PMS_EXIT_USAGE;
    }
    PmsIa64RangeRequest req = { 0 };
    req.side = code ? PMS_IA64_RANGE_CODE : PMS_IA64_RANGE_DATA;
    req.flags = (inv ? PMS_IA64_RANGE_INV : 0) | (no_fine ? PMS_IA64_RANGE_NO_FINE : 0) |
        (demand ? PMS_IA64_RANGE_DEMAND_FETCH : 0) | (prefetch ? PMS_IA64_RANGE_PREFETCH_MATCH : 0);
    req.plm = 0x8; /* PLM3: user level */
    if (plm_text && !pms_cli_parse_plm(plm_text, &req.plm))
        return PMS_EXIT_USAGE;
    /* more than four: the library names the error (its slots stay unread) */
    req.n_ranges = (guint)(argc - 1);
    for (int i = 1; i < argc && i <= PMS_IA64_RANGE_MAX; i++)
        if (!parse_range(argv[i], &req.ranges[i - 1]))
            return PMS_EXIT_USAGE;
    g_autoptr(PmsModelSet) set = pms_cli_load_models(model_files);
    if (!set)
        return PMS_EXIT_USAGE;
    const PmsModel *m = pms_cli_ia64_model(set, pmu, "pmusim: ranges: ");
    if (!m)
        return PMS_EXIT_USAGE;
    guint n_ev = events ? g_strv_length(events) : 0;
    g_autofree PmsIa64RangeEvent *evs = g_new0(PmsIa64RangeEvent, n_ev + 1);
    for (guint i = 0; i < n_ev; i++) {
        /* PMU::NAME as in every other command's event strings */
        gsize pl = strlen(m->name);
        const char *name = g_ascii_strncasecmp(events[i], m->name, pl) == 0 && strncmp(events[i] + pl, "::", 2) == 0
            ? events[i] + pl + 2
            : events[i];
        const PmsEvent *ev = pms_model_event(m, name);
        if (!ev) {
            fprintf(stderr, "pmusim: ranges: unknown %s event '%s'\n", m->name, events[i]);
            return PMS_EXIT_USAGE;
        }
        evs[i] = pms_ia64_range_event_of(ev);
    }
    req.n_events = n_ev;
    req.events = evs;
    PmsIa64RangeResult res;
    g_autoptr(GError) err = NULL;
    if (!pms_ia64_range_compute(&req, &res, &err)) {
        fprintf(stderr, "pmusim: ranges: %s: %s\n", pms_ia64_range_error_name(err->code), err->message);
        return PMS_EXIT_USAGE;
    }
    /* debug registers first (ascending), then the PMCs */
    for (int pass = 0; pass < 2; pass++)
        for (guint i = 0; i < res.n_regs; i++)
            if ((res.regs[i].space == PMS_SPACE_PMC) == (pass == 1))
                printf("%s%u=0x%" G_GINT64_MODIFIER "x\n", reg_prefix(res.regs[i].space), res.regs[i].num,
                       res.regs[i].value);
    for (guint i = 0; i < req.n_ranges; i++)
        printf("range %u soff=0x%" G_GINT64_MODIFIER "x eoff=0x%" G_GINT64_MODIFIER "x\n", i, res.soff[i], res.eoff[i]);
    printf("fine=%s\n", res.fine ? "yes" : "no");
    return 0;
}
