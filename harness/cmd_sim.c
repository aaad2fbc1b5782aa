/* pmusim sim — run one event through the simulator and show what its
 * counter does, cycle by cycle.
 *
 *   pmusim sim --pmu glm -e 'INST_RETIRED:ANY_P:c=2:i' --stim FILE
 *   pmusim sim --pmu glm -e EVENT --occurrences 3,0,1,2 [--cpl 3,3,0,3] [--preload V]
 *
 * The event is encoded by the builtin encoder and programmed through
 * the encoding's own writes (the program step, include/pmusim/program.h) on the counter the event may use, enabled in
 * GLOBAL_CTRL.  --stim runs a stimulus file (docs/stimulus-format.md) after
 * that; --occurrences feeds the event's own signal one count per cycle.  The
 * trace goes to stdout or, atomically, to --output; nothing is written when
 * the run fails.  Exit status: 0, 1 (event, stimulus or simulation error),
 * 2 (bad option). */
#include "cli_common.h"
#include "encoder.h"
#include "sim_setup.h"
#include "stimulus.h"
#include "trace_report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Per-cycle trace of more cycles than this is refused (it would be printed). */
#define DEFAULT_MAX_CYCLES 1000000

typedef struct {
    gboolean fixed;
    guint index;
    guint box;      /* the PMU's own box where the device holds several */
    PmsTraceReporter *rep;
} TraceSink;

static void on_trace(const PmsSimTrace *t, gpointer data)
{
    TraceSink *s = data;
    if (t->fixed == s->fixed && t->index == s->index && t->box == s->box)
        pms_trace_record(s->rep, t);
}

/* Comma-separated numbers (decimal or 0x hex), each <= max; one stderr line
 * naming the option and the bad item otherwise. */
static GArray *parse_list(const char *opt, const char *text, guint64 max)
{
    g_auto(GStrv) items = g_strsplit(text, ",", -1);
    GArray *vals = g_array_new(FALSE, FALSE, sizeof(guint64));
    for (guint i = 0; items[i]; i++) {
        const char *s = g_strstrip(items[i]);
        gboolean hex = g_str_has_prefix(s, "0x") || g_str_has_prefix(s, "0X");
        guint64 v;
        if (!g_ascii_string_to_unsigned(hex ? s + 2 : s, hex ? 16 : 10, 0, max, &v, NULL)) {
            fprintf(stderr, "pmusim: %s: item %u '%s': expected a number 0..%" G_GUINT64_FORMAT "\n", opt, i + 1, s,
                    max);
            g_array_free(vals, TRUE);
            return NULL;
        }
        g_array_append_val(vals, v);
    }
    if (vals->len == 0) {
        fprintf(stderr, "pmusim: %s: expected a comma-separated list of numbers\n", opt);
        g_array_free(vals, TRUE);
        return NULL;
    }
    return vals;
}

/* The one-line experiment: one cycle per occurrence value; consecutive equal
 * cycles merge into one run (the same cycles, fewer records for --engine fast). */
static PmsStim *occurrence_stim(const PmsEncoding *enc, const GArray *occ, const GArray *cpl)
{
    PmsStim *st = pms_stim_new(enc->model);
    for (guint i = 0; i < occ->len;) {
        guint64 n = g_array_index(occ, guint64, i);
        guint8 c = cpl ? (guint8)g_array_index(cpl, guint64, i) : 3;
        guint j = i + 1;
        while (j < occ->len && g_array_index(occ, guint64, j) == n &&
               (cpl ? (guint8)g_array_index(cpl, guint64, j) : 3) == c)
            j++;
        PmsOwnInput in;
        pms_sim_own_input(enc->model, enc->event, enc->codes, enc->n_codes, n, c, j - i, &in);
        pms_stim_add_run(st, &in.run);
        i = j;
    }
    return st;
}

static gboolean write_output(const char *path, const GString *text)
{
    if (path == NULL) {
        if (fwrite(text->str, 1, text->len, stdout) != text->len || fflush(stdout) != 0) {
            fprintf(stderr, "pmusim: writing the trace failed: %s\n", g_strerror(errno));
            return FALSE;
        }
        return TRUE;
    }
    /* g_file_set_contents writes a temporary file and renames it over path:
     * readers never see a partial trace. */
    g_autoptr(GError) err = NULL;
    if (!g_file_set_contents(path, text->str, (gssize)text->len, &err)) {
        fprintf(stderr, "pmusim: --output: %s\n", err->message);
        return FALSE;
    }
    return TRUE;
}

typedef struct {
    char *pmu, *event, *stim, *occurrences, *cpl, *preload, *format, *engine, *output;
    gint64 max_cycles;
    char **model_files;
} SimOpts;

static void opts_clear(SimOpts *o)
{
    g_free(o->pmu);
    g_free(o->event);
    g_free(o->stim);
    g_free(o->occurrences);
    g_free(o->cpl);
    g_free(o->preload);
    g_free(o->format);
    g_free(o->engine);
    g_free(o->output);
    g_strfreev(o->model_files);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(SimOpts, opts_clear)

/* Option checks that need no model; one stderr line and FALSE otherwise. */
static gboolean check_opts(const SimOpts *o, const PmsTraceFormat **fmt, PmsSimEngine *engine)
{
    if (!o->event) {
        fprintf(stderr, "pmusim: sim: expected -e EVENT\n");
        return FALSE;
    }
    if (!o->stim == !o->occurrences) {
        fprintf(stderr, "pmusim: sim: expected exactly one of --stim FILE and --occurrences LIST\n");
        return FALSE;
    }
    if (o->cpl && !o->occurrences) {
        fprintf(stderr, "pmusim: --cpl: applies to --occurrences only (a stimulus file sets cpl= itself)\n");
        return FALSE;
    }
    *fmt = pms_trace_format(o->format ? o->format : "table");
    if (*fmt == NULL) {
        fprintf(stderr, "pmusim: --format '%s': expected one of %s\n", o->format, pms_trace_format_names());
        return FALSE;
    }
    if (!o->engine || strcmp(o->engine, "reference") == 0)
        *engine = PMS_SIM_REFERENCE;
    else if (strcmp(o->engine, "fast") == 0)
        *engine = PMS_SIM_FAST;
    else {
        fprintf(stderr, "pmusim: --engine '%s': expected reference or fast\n", o->engine);
        return FALSE;
    }
    if (*engine == PMS_SIM_FAST && (*fmt == &pms_trace_csv || *fmt == &pms_trace_vcd)) {
        fprintf(stderr, "pmusim: --format %s: needs the per-cycle trace of --engine reference "
                        "(the fast engine gives table or json summaries)\n", (*fmt)->name);
        return FALSE;
    }
    if (o->max_cycles < 1) {
        fprintf(stderr, "pmusim: --max-cycles: expected a positive number of cycles\n");
        return FALSE;
    }
    return TRUE;
}

int pms_cmd_sim(int argc, char **argv)
{
    g_auto(SimOpts) o = { .max_cycles = DEFAULT_MAX_CYCLES };
    const GOptionEntry entries[] = {
        { "pmu", 'p', 0, G_OPTION_ARG_STRING, &o.pmu, "PMU of an event written without PMU:: (glm, wsm, ...)", "PMU" },
        { "event", 'e', 0, G_OPTION_ARG_STRING, &o.event, "Event string to encode and count", "EVENT" },
        { "stim", 's', 0, G_OPTION_ARG_FILENAME, &o.stim, "Stimulus file (docs/stimulus-format.md)", "FILE" },
        { "occurrences", 0, 0, G_OPTION_ARG_STRING, &o.occurrences,
          "Occurrences of the event's own signal, one per cycle", "N,N,..." },
        { "cpl", 0, 0, G_OPTION_ARG_STRING, &o.cpl, "CPL (0..3) of each --occurrences cycle (default 3)", "C,C,..." },
        { "preload", 0, 0, G_OPTION_ARG_STRING, &o.preload, "Counter value before cycle 0 (default 0)", "VALUE" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &o.format, "Trace format: table (default), csv, json, vcd", "FMT" },
        { "engine", 0, 0, G_OPTION_ARG_STRING, &o.engine,
          "reference (default, per-cycle trace) or fast (summary only)", "ENGINE" },
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, "Write the trace to FILE (atomically)", "FILE" },
        { "max-cycles", 0, 0, G_OPTION_ARG_INT64, &o.max_cycles,
          "Longest per-cycle trace accepted (default 1000000)", "N" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    g_autoptr(GOptionContext) ctx = pms_cli_context("",
        "Count one event in the simulator and print its counter's per-cycle trace.", entries, &o.model_files);
    pms_cli_help(ctx, "0 simulated (and every read and expect-pmi of the stimulus held); 1 the encoder rejects "
                      "the event, a stimulus that cannot be read, parsed or whose checks fail, or a simulation "
                      "error; 2 usage error or a model file that does not load.",
        "  pmusim sim --pmu wsm -e 'INST_RETIRED:ANY_P:u:c=2' --occurrences 3,3,3 --cpl 0,3,0\n"
        "  pmusim sim --pmu nhm_unc -e 'UNC_LLC_MISS:ANY:c=2:i' --occurrences 3,0,1,2\n"
        "  pmusim sim --pmu nhm_unc -e UNC_CLK_UNHALTED --occurrences 1,1,1 --preload 0xfffffffffffe\n"
        "  pmusim sim -e nhm::INST_RETIRED:ANY_P --stim sim/tests/data/nhm-freeze.stim --format vcd -o t.vcd\n");
    if (!pms_cli_parse(ctx, &argc, &argv))
        return PMS_EXIT_USAGE;
    if (argc > 1) {
        fprintf(stderr, "pmusim: sim: unexpected argument '%s' (the event goes after -e)\n", argv[1]);
        return PMS_EXIT_USAGE;
    }
    const PmsTraceFormat *fmt;
    PmsSimEngine engine;
    if (!check_opts(&o, &fmt, &engine))
        return PMS_EXIT_USAGE;
    g_autoptr(GArray) occ = NULL, cpl = NULL;
    if (o.occurrences && !(occ = parse_list("--occurrences", o.occurrences, G_MAXUINT32)))
        return PMS_EXIT_USAGE;
    if (o.cpl && !(cpl = parse_list("--cpl", o.cpl, 3)))
        return PMS_EXIT_USAGE;
    if (cpl && cpl->len != occ->len) {
        fprintf(stderr, "pmusim: --cpl: %u values for %u --occurrences values: expected one CPL per cycle\n",
                cpl->len, occ->len);
        return PMS_EXIT_USAGE;
    }
    guint64 preload = 0;
    if (o.preload && !pms_cli_parse_u64("--preload", o.preload, &preload))
        return PMS_EXIT_USAGE;

    g_autoptr(GError) err = NULL;
    g_autofree char *qualified = pms_sim_qualify_event(o.pmu, o.event, &err);
    if (!qualified) {
        fprintf(stderr, "pmusim: -e: %s\n", err->message);
        return PMS_EXIT_USAGE;
    }
    g_autoptr(PmsModelSet) models = pms_cli_load_models(o.model_files);
    if (!models)
        return PMS_EXIT_USAGE;
    g_autoptr(PmsEncoding) enc = pms_encode(models, qualified, &err);
    if (!enc) {
        fprintf(stderr, "pmusim: -e '%s': %s\n", qualified, err->message);
        return 1;
    }
    const PmsModel *m = enc->model;
    g_autoptr(PmsSim) sim = pms_sim_new(m, &err);
    if (!sim) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        return 1;
    }
    pms_sim_set_engine(sim, engine);
    guint counter;
    gboolean fixed;
    if (!pms_sim_program_encoding(sim, enc, &counter, &fixed, &err)) {
        fprintf(stderr, "pmusim: -e '%s': %s\n", qualified, err->message);
        return 1;
    }
    /* the counter in its register space (MSR; the Itanium's PMDn) */
    PmsPlacement pl = { m, enc->event, counter, fixed };
    const PmsRegister *ctr = pms_program_counter_reg(&pl);
    guint width = fixed ? m->fixed_width : m->gp_width;
    if (!ctr) {
        fprintf(stderr, "pmusim: %s has no register for %s counter %u\n", m->name, fixed ? "fixed" : "general",
                counter);
        return 1;
    }
    if (width < 64 && preload >> width) {
        fprintf(stderr, "pmusim: --preload %s: expected a value below 2^%u (%s is %u bits wide)\n", o.preload, width,
                ctr->name, width);
        return PMS_EXIT_USAGE;
    }
    if (!pms_sim_set_counter_at(sim, ctr->space, ctr->address, preload, &err)) {
        fprintf(stderr, "pmusim: --preload: %s\n", err->message);
        return PMS_EXIT_USAGE;
    }

    g_autoptr(PmsStim) st = o.stim ? pms_stim_load_file(m, o.stim, &err) : occurrence_stim(enc, occ, cpl);
    if (!st) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        return 1;
    }
    if (engine == PMS_SIM_REFERENCE && pms_stim_end_cycle(st) > (guint64)o.max_cycles) {
        fprintf(stderr, "pmusim: the stimulus runs %" G_GUINT64_FORMAT " cycles, more than --max-cycles %" G_GINT64_FORMAT
                        " for a per-cycle trace: raise --max-cycles or use --engine fast (summary only)\n",
                pms_stim_end_cycle(st), o.max_cycles);
        return PMS_EXIT_USAGE;
    }

    const PmsRegister *gs = pms_program_status_reg(&pl);
    PmsTraceMeta meta = { m->name, enc->fstr, ctr->name, width, engine == PMS_SIM_FAST ? "fast" : "reference",
                          engine == PMS_SIM_REFERENCE, gs ? gs->name : NULL };
    g_autoptr(PmsTraceReporter) rep = pms_trace_reporter_new(fmt, &meta);
    TraceSink sink = { fixed, counter, m->instance, rep };
    if (engine == PMS_SIM_REFERENCE)
        pms_sim_set_trace(sim, on_trace, &sink);
    if (!pms_stim_execute(st, sim, &err)) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        return 1;
    }

    PmsTraceSummary sum = { pms_sim_cycle(sim), 0, FALSE, 0, NULL, 0 };
    if (!pms_sim_read_at(sim, ctr->space, ctr->address, &sum.count, &err) ||
        (gs && !pms_sim_read_at(sim, gs->space, gs->address, &sum.status, &err))) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        return 1;
    }
    sum.overflow = (sum.status & pms_program_status_bit(&pl)) != 0;
    sum.pmis = pms_sim_pmis(sim, &sum.n_pmis);
    pms_trace_end(rep, &sum);
    if (!write_output(o.output, rep->out))
        return 1;
    if (o.output) {
        /* The trace went to the file; the answer still ends stdout. */
        g_autoptr(GString) line = g_string_new(NULL);
        pms_trace_summary_line(line, &sum);
        fputs(line->str, stdout);
    }
    return 0;
}
