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
#include "pebs.h"
#include "pmusim_config.h"
#include "pebs_report.h"
#include "suggest.h"
#include "cli_common.h"
#include "cli_family.h"
#include "commands.h"
#include "lbr_report.h"
#include "reg_panel.h"
#include "sim_stim_only.h"
#include "encoder.h"
#include "sim_setup.h"
#include "stimulus.h"
#include "trace_report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Per-cycle trace of more cycles than this is refused (it would be printed). */
#define DEFAULT_MAX_CYCLES 1000000
/* a few seconds of the slowest step (a reference-engine cycle, a wrap the
 * fast engine walks: pms_sim_set_max_steps) */
#define DEFAULT_MAX_STEPS 100000000

typedef struct {
    gboolean fixed;
    guint index;
    guint box; /* the PMU's own box where the device holds several */
    PmsTraceReporter *rep;
    PmsRegPanel *panel; /* html: the registers in effect, sampled after each record */
} TraceSink;

static void on_trace(const PmsSimTrace *t, gpointer data)
{
    TraceSink *s = data;
    if (t->fixed == s->fixed && t->index == s->index && t->box == s->box) {
        pms_trace_record(s->rep, t);
        if (s->panel)
            pms_reg_panel_sample(s->panel, t->cycle + 1 - (t->cycles ? t->cycles : 1), t->cycle);
    }
}

/* The register of a freeze field (the PMU's own, or its unit's first). */
static const PmsRegister *freeze_reg(const PmsModel *m, const PmsCliFreezeField *f)
{
    return pms_model_reg_in_unit(m, f->unit, 0, f->kind, 0);
}

/* The html page's register panel: the registers the encoding and the
 * stimulus write and the counter's status register, as the simulator holds
 * them. */
static PmsRegPanel *panel_new(PmsSim *sim, const PmsEncoding *enc, const PmsStim *st, const PmsRegister *status)
{
    const PmsModel *m = pms_sim_model(sim);
    PmsRegPanel *p = pms_reg_panel_new(sim);
    for (guint i = 0; i < enc->n_writes; i++)
        pms_reg_panel_watch(p, enc->writes[i].reg, "set by the encoding");
    for (guint i = 0; st && i < pms_stim_n_records(st); i++) {
        PmsStimRecord rec;
        pms_stim_record(st, i, &rec);
        if (rec.kind == PMS_STIM_WRITE)
            pms_reg_panel_watch(p, pms_model_reg_at(m, rec.space, rec.address), "written by the stimulus");
    }
    pms_reg_panel_watch(p, status, "the counter's status register");
    /* the family's freeze-on-PMI fields: a sentence names them as the cause */
    const PmsCliFamily *fam = pms_cli_family(m);
    for (const PmsCliFreezeField *f = fam && fam->freeze ? fam->freeze : NULL; f && f->field; f++)
        if (f->cause)
            pms_reg_panel_cause(p, freeze_reg(m, f), f->field, "freeze-on-PMI control");
    pms_reg_panel_start(p);
    return p;
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
/* The count is the counter's value at its width: an Itanium PMD reads bit
 * W-1 copied upward (0x4000_0000_0001 of a 47-bit PMD reads as
 * 0xffffc00000000001), which is not what it counted. */
static guint64 counter_value(guint64 read, guint width)
{
    return width < 64 ? read & (((guint64)1 << width) - 1) : read;
}

/* The end of a one-counter run: the counter (its width's bits), the global
 * status (gs: NULL none) and its overflow bit, the PMIs; FALSE after saying
 * why a read failed. */
static gboolean one_counter_summary(PmsSim *sim, const PmsRegister *ctr, const PmsRegister *gs, guint width,
                                    const PmsPlacement *pl, PmsTraceSummary *sum, PmsTracePmis *list)
{
    g_autoptr(GError) err = NULL;
    *sum = (PmsTraceSummary){ pms_sim_cycle(sim), 0, FALSE, 0, NULL, 0, 0, NULL, NULL };
    if (!pms_sim_read_at(sim, ctr->space, ctr->address, &sum->count, &err) ||
        (gs && !pms_sim_read_at(sim, gs->space, gs->address, &sum->status, &err))) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        return FALSE;
    }
    sum->count = counter_value(sum->count, width);
    sum->overflow = (sum->status & pms_program_status_bit(pl)) != 0;
    sum->pmis = pms_sim_pmis(sim, &sum->n_pmis);
    sum->pmi_total = pms_sim_pmi_total(sim);
    pms_trace_pmis_get(list, sim);
    sum->list = list;
    return TRUE;
}

/* A metrics event (Icelake's TOPDOWN_M:RETIRING ...): its counter is the
 * slots counter (FIXED_CTR3), its value a field of IA32_PERF_METRICS, an
 * 8-bit fraction of those slots (0xff = 100 %); the line gives the field,
 * the fraction and the slots it stands for as Linux decodes it,
 * floor(slots * field / 0xff) (docs/semantics.md §8c).  Nothing for any
 * other event. */
static gboolean metric_line(GString *out, PmsSim *sim, const PmsPlacement *pl, guint64 code0, guint64 slots,
                            const char *label)
{
    const PmsRegister *r;
    guint shift, width;
    if (!pms_program_metric(pl, code0, &r, &shift, &width))
        return TRUE;
    guint64 v;
    g_autoptr(GError) err = NULL;
    if (!pms_sim_read_at(sim, r->space, r->address, &v, &err)) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        return FALSE;
    }
    guint64 field = width < 64 ? (v >> shift) & (((guint64)1 << width) - 1) : v;
    guint64 fmax = width < 64 ? ((guint64)1 << width) - 1 : G_MAXUINT64;
    unsigned __int128 part = (unsigned __int128)slots * field / fmax;
    g_string_append_printf(out,
                           "%s%s bits %u:%u = %" G_GUINT64_FORMAT " (%.1f %% of the slots) = %" G_GUINT64_FORMAT
                           " of %" G_GUINT64_FORMAT " slots (slots * %" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT
                           ", rounded down)\n",
                           label, r->name, shift + width - 1, shift, field, 100.0 * (double)field / (double)fmax,
                           (guint64)part, slots, field, fmax);
    return TRUE;
}

/* A stimulus that is not text its reader takes (a NUL byte, a line over
 * 16 MiB, a file too large to read whole) cannot be used at all: exit 2;
 * any other stimulus error (parse, read, a check that fails): 1. */
static int stim_status(const GError *err)
{
    return g_error_matches(err, PMS_SIM_ERROR, PMS_SIM_ERROR_INPUT) ? PMS_EXIT_USAGE : 1;
}

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
    if (!pms_cli_write_file(path, text->str, text->len, &err)) {
        fprintf(stderr, "pmusim: --output: %s\n", err->message);
        return FALSE;
    }
    return TRUE;
}

typedef struct {
    char *pmu, *event, *stim, *occurrences, *cpl, *preload, *format, *engine, *output;
    char *compare; /* --compare FILE: cmd_sim_compare.c */
    char **events; /* every -e; event is the first */
    gint64 max_cycles, max_steps;
    gboolean explain;
    gboolean pebs;      /* --pebs: PEBS for every -e event on its counter */
    gboolean sentences; /* --sentences: svg diagrams print each span's sentence */
    gboolean freeze;    /* --freeze: the family's freeze-on-PMI fields set before the run */
    char **model_files;
} SimOpts;

/* --freeze: set the family's freeze-on-PMI fields (PmsCliFamily.freeze)
 * in the simulator before the run; FALSE with the message printed. */
static gboolean apply_freeze(PmsSim *sim)
{
    const PmsModel *m = pms_sim_model(sim);
    const PmsCliFamily *fam = pms_cli_family(m);
    if (!fam || !fam->freeze) {
        fprintf(stderr,
                "pmusim: --freeze: %s has no freeze-on-PMI control to set (docs/semantics.md says how its counters "
                "stop, if they do)\n",
                m->name);
        return FALSE;
    }
    for (const PmsCliFreezeField *f = fam->freeze; f->field; f++) {
        const PmsRegister *r = freeze_reg(m, f);
        const PmsField *fd = r ? pms_layout_field(r->layout, f->field) : NULL;
        g_autoptr(GError) err = NULL;
        guint64 v = 0;
        if (!fd) {
            fprintf(stderr, "pmusim: --freeze: %s has no %s register with a field '%s'\n", m->name,
                    f->unit ? f->unit : pms_reg_kind_name(f->kind), f->field);
            return FALSE;
        }
        if (!pms_sim_read_at(sim, r->space, r->address, &v, &err) ||
            !pms_sim_write_at(sim, r->space, r->address, pms_field_set(fd, v, f->value), &err)) {
            fprintf(stderr, "pmusim: --freeze: %s\n", err->message);
            return FALSE;
        }
    }
    return TRUE;
}

/* The family's word for the threshold modifier (NULL: "c"). */
static const char *thr_name(const PmsModel *m)
{
    const PmsCliFamily *f = pms_cli_family(m);
    return f ? f->threshold : NULL;
}

/* --pebs: the event's PEBS registers on its counter (encoder/pebs_config.c,
 * the same step as encode --pebs); FALSE with the message printed. */
static gboolean apply_pebs(PmsSim *sim, const PmsEncoding *enc, const PmsPlacement *pl, const char *name)
{
    g_autoptr(GError) err = NULL;
    PmsPebsConfig c;
    if (!pms_pebs_configure(pl, enc->codes, enc->n_codes, &c, &err)) {
        fprintf(stderr, "pmusim: -e '%s': --pebs: %s: %s\n", name, pms_encode_error_name(err->code), err->message);
        return FALSE;
    }
    gboolean ok = pms_sim_apply(sim, c.writes, c.n_writes, &err);
    pms_pebs_config_clear(&c);
    if (!ok)
        fprintf(stderr, "pmusim: -e '%s': --pebs: %s\n", name, err->message);
    return ok;
}

static void opts_clear(SimOpts *o)
{
    g_free(o->pmu);
    g_strfreev(o->events);
    g_free(o->stim);
    g_free(o->occurrences);
    g_free(o->cpl);
    g_free(o->preload);
    g_free(o->format);
    g_free(o->engine);
    g_free(o->output);
    g_free(o->compare);
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
        fprintf(stderr,
                "pmusim: --format %s: needs the per-cycle trace of --engine reference "
                "(the fast engine gives table or json summaries)\n",
                (*fmt)->name);
        return FALSE;
    }
    if (o->explain && *fmt != &pms_trace_table) {
        fprintf(stderr,
                "pmusim: --explain: the sentences go with the table format (svg and html carry them "
                "anyway), not --format %s\n",
                (*fmt)->name);
        return FALSE;
    }
    if (o->max_cycles < 1) {
        fprintf(stderr, "pmusim: --max-cycles: expected a positive number of cycles\n");
        return FALSE;
    }
    return TRUE;
}

/* ---- several -e: a set counted together (docs/sets.md) --------------------- */

typedef struct {
    guint n;
    gboolean fixed[PMS_PROGRAM_MAX_SET];
    guint index[PMS_PROGRAM_MAX_SET];
    guint width[PMS_PROGRAM_MAX_SET];
    guint box;
    GString *out;
    gboolean have_row;
    guint64 cycle, status;
    gboolean pmi;
    guint64 value[PMS_PROGRAM_MAX_SET];
    gboolean ovf[PMS_PROGRAM_MAX_SET];
} SetTable;

static void set_flush(SetTable *t)
{
    if (!t->have_row)
        return;
    g_string_append_printf(t->out, "%10" G_GUINT64_FORMAT, t->cycle);
    for (guint i = 0; i < t->n; i++) {
        g_autoptr(GString) hex = g_string_new(NULL);
        pms_trace_hex(hex, t->value[i], t->width[i]);
        g_string_append_printf(t->out, " %20s%c", hex->str, t->ovf[i] ? '*' : ' ');
    }
    g_string_append_printf(t->out, " 0x%016" G_GINT64_MODIFIER "x %3d\n", t->status, t->pmi);
    t->have_row = FALSE;
}

/* Several counters' timing diagrams (svg / html): one reporter each. */
typedef struct {
    guint n, box;
    gboolean fixed[PMS_PROGRAM_MAX_SET];
    guint index[PMS_PROGRAM_MAX_SET];
    PmsTraceReporter *rep[PMS_PROGRAM_MAX_SET];
} SetDiagrams;

static void on_set_diagram(const PmsSimTrace *r, gpointer data)
{
    SetDiagrams *d = data;
    for (guint i = 0; i < d->n; i++)
        if (r->box == d->box && r->fixed == d->fixed[i] && r->index == d->index[i])
            pms_trace_record(d->rep[i], r);
}

/* The value of attribute `name` in the first tag of an SVG document. */
static guint svg_attr(const char *svg, const char *name)
{
    g_autofree char *key = g_strdup_printf(" %s=\"", name);
    const char *tag = strstr(svg, "<svg"), *p = tag ? strstr(tag, key) : NULL;
    return p ? (guint)g_ascii_strtoull(p + strlen(key), NULL, 10) : 0;
}

/* One document of n diagrams: SVG, each counter's <svg> placed below the
 * previous one in an outer <svg>; HTML, each counter's page body in turn
 * (their hover scripts serve their own diagram). */
static GString *compose_diagrams(PmsTraceReporter **rep, guint n, gboolean html)
{
    GString *o = g_string_new(NULL);
    if (rep[0]->fmt == &pms_trace_json) {
        /* {"events": [the single-event object of each counter]} */
        g_string_append(o, "{\"events\": [\n");
        for (guint i = 0; i < n; i++) {
            const GString *s = rep[i]->out;
            gsize len = s->len;
            while (len && s->str[len - 1] == '\n')
                len--;
            g_string_append_len(o, s->str, (gssize)len);
            g_string_append(o, i + 1 < n ? ",\n" : "\n");
        }
        g_string_append(o, "]}\n");
        return o;
    }
    if (html) {
        const char *first = rep[0]->out->str, *body = strstr(first, "<body>\n");
        g_string_append_len(o, first, body ? body + 7 - first : 0);
        for (guint i = 0; i < n; i++) {
            const char *s = rep[i]->out->str, *b = strstr(s, "<body>\n"), *e = strstr(s, "</body>");
            if (b && e)
                g_string_append_len(o, b + 7, e - (b + 7));
        }
        g_string_append(o, "</body></html>\n");
        return o;
    }
    guint w = 0, h = 0;
    for (guint i = 0; i < n; i++) {
        w = MAX(w, svg_attr(rep[i]->out->str, "width"));
        h += svg_attr(rep[i]->out->str, "height");
    }
    g_string_append_printf(o,
                           "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
                           "class=\"pmusim-timing-set\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\">\n",
                           w, h, w, h);
    guint y = 0;
    for (guint i = 0; i < n; i++) {
        const char *s = strstr(rep[i]->out->str, "<svg");
        if (!s)
            continue;
        g_string_append_printf(o, "<svg x=\"0\" y=\"%u\"", y);
        g_string_append(o, s + 4);
        y += svg_attr(s, "height");
    }
    g_string_append(o, "</svg>\n");
    return o;
}

static void on_set_trace(const PmsSimTrace *r, gpointer data)
{
    SetTable *t = data;
    if (r->box != t->box)
        return;
    for (guint i = 0; i < t->n; i++) {
        if (r->fixed != t->fixed[i] || r->index != t->index[i])
            continue;
        if (t->have_row && r->cycle != t->cycle)
            set_flush(t);
        t->have_row = TRUE;
        t->cycle = r->cycle;
        t->status = r->status;
        t->pmi = r->pmi;
        t->value[i] = r->value;
        t->ovf[i] = r->overflow;
    }
}

/* --occurrences for a set: each cycle every event's own signal that many
 * times (pms_sim_own_input per event, merged into one run). */
static PmsStim *occurrence_stim_set(PmsEncoding **enc, guint n, const GArray *occ, const GArray *cpl)
{
    PmsStim *st = pms_stim_new(enc[0]->model);
    PmsOwnInput in[PMS_PROGRAM_MAX_SET];
    PmsSimCount counts[PMS_PROGRAM_MAX_SET];
    PmsSimOffcore oc[PMS_PROGRAM_MAX_SET];
    PmsSimLoad loads[PMS_PROGRAM_MAX_SET];
    for (guint i = 0; i < occ->len;) {
        guint64 v = g_array_index(occ, guint64, i);
        guint8 c = cpl ? (guint8)g_array_index(cpl, guint64, i) : 3;
        guint j = i + 1;
        while (j < occ->len && g_array_index(occ, guint64, j) == v &&
               (cpl ? (guint8)g_array_index(cpl, guint64, j) : 3) == c)
            j++;
        PmsSimRun run = { 0 };
        guint nc = 0, no = 0, nl = 0;
        for (guint e = 0; e < n; e++) {
            pms_sim_own_input(enc[e]->model, enc[e]->event, enc[e]->codes, enc[e]->n_codes, v, c, j - i, &in[e]);
            if (e == 0)
                run = in[0].run;
            for (guint k = 0; k < in[e].run.n_counts; k++)
                counts[nc++] = in[e].run.counts[k];
            for (guint k = 0; k < in[e].run.n_offcore; k++)
                oc[no++] = in[e].run.offcore[k];
            for (guint k = 0; k < in[e].run.n_loads; k++)
                loads[nl++] = in[e].run.loads[k];
        }
        run.counts = nc ? counts : NULL;
        run.n_counts = nc;
        run.offcore = no ? oc : NULL;
        run.n_offcore = no;
        run.loads = nl ? loads : NULL;
        run.n_loads = nl;
        pms_stim_add_run(st, &run);
        i = j;
    }
    return st;
}

static int sim_set_run(const SimOpts *o, const PmsTraceFormat *fmt, PmsEncoding **enc, guint n, PmsSimEngine engine,
                       const GArray *occ, const GArray *cpl, guint64 preload)
{
    const PmsModel *m = enc[0]->model;
    for (guint i = 1; i < n; i++)
        if (enc[i]->model != m) {
            fprintf(stderr, "pmusim: -e '%s' is a %s event and -e '%s' a %s one: a set is one PMU's\n", o->events[0],
                    m->name, o->events[i], enc[i]->model->name);
            return 1;
        }
    PmsSetEvent evs[PMS_PROGRAM_MAX_SET];
    PmsPlacement pl[PMS_PROGRAM_MAX_SET];
    const PmsRegister *ctr[PMS_PROGRAM_MAX_SET];
    for (guint i = 0; i < n; i++)
        evs[i] =
            (PmsSetEvent){ enc[i]->event, enc[i]->umask_mask, enc[i]->codes, enc[i]->n_codes, o->events[i], o->pebs };
    g_autoptr(GError) err = NULL;
    guint nw = 0;
    g_autofree PmsRegWrite *w = NULL;
    if (!pms_program_place_set(m, evs, n, pl, &err) || !(w = pms_program_set_writes(m, evs, pl, n, &nw, &err))) {
        fprintf(stderr, "pmusim: sim: %s\n", err->message);
        return 1;
    }
    g_autoptr(PmsSim) sim = pms_sim_new(m, &err);
    if (!sim || !pms_sim_apply(sim, w, nw, &err)) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        return 1;
    }
    for (guint i = 0; o->pebs && i < n; i++)
        if (!apply_pebs(sim, enc[i], &pl[i], o->events[i]))
            return 1;
    if (o->freeze && !apply_freeze(sim))
        return 1;
    pms_sim_set_engine(sim, engine);
    pms_sim_set_max_steps(sim, (guint64)o->max_steps);
    for (guint i = 0; i < n; i++) {
        ctr[i] = pms_program_counter_reg(&pl[i]);
        guint width = pl[i].fixed ? m->fixed_width : m->gp_width;
        if (!ctr[i]) {
            fprintf(stderr, "pmusim: %s has no register for %s counter %u\n", m->name,
                    pl[i].fixed ? "fixed" : "general", pl[i].counter);
            return 1;
        }
        if (width < 64 && preload >> width) {
            fprintf(stderr, "pmusim: --preload %s: expected a value below 2^%u (%s is %u bits wide)\n", o->preload,
                    width, ctr[i]->name, width);
            return PMS_EXIT_USAGE;
        }
        if (!pms_sim_set_counter_at(sim, ctr[i]->space, ctr[i]->address, preload, &err)) {
            fprintf(stderr, "pmusim: --preload: %s\n", err->message);
            return PMS_EXIT_USAGE;
        }
    }
    /* the fast engine runs a stimulus file as it reads it (bounded memory) */
    gboolean stream = o->stim && engine == PMS_SIM_FAST;
    g_autoptr(PmsStim) st = stream ? NULL
        : o->stim                  ? pms_stim_load_file(m, o->stim, &err)
                                   : occurrence_stim_set(enc, n, occ, cpl);
    if (!st && !stream) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        return stim_status(err);
    }
    if (engine == PMS_SIM_REFERENCE && pms_stim_end_cycle(st) > (guint64)o->max_cycles) {
        /* --max-cycles bounds per-cycle output only (as for one event) */
        if (o->engine) {
            fprintf(stderr,
                    "pmusim: the stimulus runs %" G_GUINT64_FORMAT " cycles, more than --max-cycles %" G_GINT64_FORMAT
                    " for a per-cycle trace: raise --max-cycles, or leave out --engine reference (the fast engine "
                    "then draws spans)\n",
                    pms_stim_end_cycle(st), o->max_cycles);
            return PMS_EXIT_USAGE;
        }
        engine = PMS_SIM_FAST;
        pms_sim_set_engine(sim, engine);
    }
    g_autoptr(GString) out = g_string_new(NULL);
    g_string_append_printf(out, "# %u events on %s, %s engine\n", n, m->name,
                           engine == PMS_SIM_FAST ? "fast" : "reference");
    for (guint i = 0; i < n; i++)
        g_string_append_printf(out, "#   %-20s (%u bits) %s\n", ctr[i]->name,
                               pl[i].fixed ? m->fixed_width : m->gp_width, enc[i]->fstr);
    SetTable tab = { .n = n, .box = m->instance, .out = out };
    for (guint i = 0; i < n; i++) {
        tab.fixed[i] = pl[i].fixed;
        tab.index[i] = pl[i].counter;
        tab.width[i] = pl[i].fixed ? m->fixed_width : m->gp_width;
    }
    /* one reporter per counter: the diagrams, and json (one object each) */
    gboolean diagram = fmt == &pms_trace_svg || fmt == &pms_trace_html || fmt == &pms_trace_json;
    const PmsRegister *gsr = pms_program_status_reg(&pl[0]);
    SetDiagrams dia = { .n = n, .box = m->instance };
    for (guint i = 0; diagram && i < n; i++) {
        PmsTraceMeta meta = { m->name,
                              enc[i]->fstr,
                              ctr[i]->name,
                              tab.width[i],
                              engine == PMS_SIM_FAST ? "fast" : "reference",
                              engine == PMS_SIM_REFERENCE,
                              gsr ? gsr->name : NULL,
                              m->smt && pms_sim_threads(sim) > 1,
                              FALSE,
                              w,
                              nw,
                              preload,
                              thr_name(m),
                              o->sentences,
                              NULL };
        dia.fixed[i] = pl[i].fixed;
        dia.index[i] = pl[i].counter;
        dia.rep[i] = pms_trace_reporter_new(fmt, &meta);
    }
    if (diagram) {
        /* the diagrams draw spans: the fast engine reports its segments
         * (json: spans only from the fast engine) */
        pms_sim_set_trace(sim, on_set_diagram, &dia);
        pms_sim_set_trace_spans(sim, fmt != &pms_trace_json || engine == PMS_SIM_FAST);
    } else if (engine == PMS_SIM_REFERENCE) {
        g_string_append_printf(out, "%10s", "cycle");
        for (guint i = 0; i < n; i++)
            g_string_append_printf(out, " %20s ", ctr[i]->name);
        g_string_append_printf(out, " %18s %3s\n", "status", "pmi");
        pms_sim_set_trace(sim, on_set_trace, &tab);
    } else {
        g_string_append(out, "# the fast engine advances whole runs: no per-cycle trace\n");
    }
    if (stream ? !pms_stim_run_file(m, o->stim, sim, &err) : !pms_stim_execute(st, sim, &err)) {
        pms_sim_run_error(err, o->max_steps);
        for (guint i = 0; diagram && i < n; i++)
            pms_trace_reporter_free(dia.rep[i]);
        return stim_status(err);
    }
    set_flush(&tab);
    const PmsRegister *gs = pms_program_status_reg(&pl[0]);
    guint64 status = 0;
    if (gs && !pms_sim_read_at(sim, gs->space, gs->address, &status, &err)) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        return 1;
    }
    guint n_pmis = 0;
    const guint64 *pmis = pms_sim_pmis(sim, &n_pmis);
    g_string_append_printf(out, "# %" G_GUINT64_FORMAT " cycles; %s 0x%" G_GINT64_MODIFIER "x; PMI at",
                           pms_sim_cycle(sim), gs ? gs->name : "GLOBAL_STATUS", status);
    PmsTracePmis list;
    pms_trace_pmis_get(&list, sim);
    pms_trace_pmi_list(out, &list);
    g_string_append_c(out, '\n');
    /* the answer: each counter's last line, prefixed by its name */
    g_autoptr(GString) lines = g_string_new(NULL);
    for (guint i = 0; i < n; i++) {
        PmsTraceSummary sum = {
            pms_sim_cycle(sim), 0, FALSE, status, pmis, n_pmis, pms_sim_pmi_total(sim), NULL, &list
        };
        if (!pms_sim_read_at(sim, ctr[i]->space, ctr[i]->address, &sum.count, &err)) {
            fprintf(stderr, "pmusim: %s\n", err->message);
            return 1;
        }
        sum.count = counter_value(sum.count, tab.width[i]);
        sum.overflow = (status & pms_program_status_bit(&pl[i])) != 0;
        g_autofree char *label = g_strdup_printf("# metric of %s: ", o->events[i]);
        if (!metric_line(lines, sim, &pl[i], enc[i]->codes[0], sum.count, label))
            return 1;
        g_string_append_printf(lines, "%s ", ctr[i]->name);
        pms_trace_summary_line(lines, &sum);
        if (diagram)
            pms_trace_end(dia.rep[i], &sum);
    }
    g_string_append(out, lines->str);
    if (fmt == &pms_trace_table)
        pms_pebs_report(out, sim); /* after the counts: PEBS records and DS index */
    g_autoptr(GString) ring = g_string_new(NULL);
    pms_lbr_ring_text(sim, ring); /* then the LBR ring (stdout beside the answer lines with -o) */
    g_string_append(out, ring->str);
    if (diagram) {
        /* the document replaces the table; the answer lines still end stdout */
        g_string_free(out, TRUE);
        out = compose_diagrams(dia.rep, n, fmt == &pms_trace_html);
        for (guint i = 0; i < n; i++)
            pms_trace_reporter_free(dia.rep[i]);
    }
    if (!write_output(o->output, out))
        return 1;
    if (diagram && !o->output)
        return 0;
    if (o->output) {
        fputs(lines->str, stdout);
        fputs(ring->str, stdout);
    }
    return 0;
}

static int sim_set(const SimOpts *o, const PmsTraceFormat *fmt, PmsSimEngine engine, const GArray *occ,
                   const GArray *cpl, guint64 preload)
{
    guint n = g_strv_length(o->events);
    if (fmt != &pms_trace_table && fmt != &pms_trace_svg && fmt != &pms_trace_html && fmt != &pms_trace_json) {
        fprintf(stderr,
                "pmusim: --format %s: several -e print the table, json (one object per counter) or the timing "
                "diagrams (svg, html)\n",
                fmt->name);
        return PMS_EXIT_USAGE;
    }
    if (n > PMS_PROGRAM_MAX_SET) {
        fprintf(stderr, "pmusim: sim: %u -e, at most %u in a set\n", n, (guint)PMS_PROGRAM_MAX_SET);
        return PMS_EXIT_USAGE;
    }
    char *q[PMS_PROGRAM_MAX_SET] = { NULL };
    for (guint i = 0; i < n; i++) {
        g_autoptr(GError) err = NULL;
        q[i] = pms_sim_qualify_event(o->pmu, o->events[i], &err);
        if (!q[i]) {
            fprintf(stderr, "pmusim: -e: %s\n", err->message);
            for (guint k = 0; k < i; k++)
                g_free(q[k]);
            return PMS_EXIT_USAGE;
        }
    }
    int status = 0;
    PmsEncoding *enc[PMS_PROGRAM_MAX_SET] = { NULL };
    g_autoptr(PmsModelSet) models = pms_cli_load_models(o->model_files);
    if (!models)
        status = PMS_EXIT_USAGE;
    for (guint i = 0; status == 0 && i < n; i++) {
        g_autoptr(GError) err = NULL;
        enc[i] = pms_encode(models, q[i], &err);
        if (!enc[i]) {
            g_autofree char *hint = pms_suggest_for_string(models, q[i], err);
            fprintf(stderr, "pmusim: -e '%s': %s%s\n", q[i], err->message, hint);
            status = 1;
        }
    }
    if (status == 0) {
        /* the messages name the events as qualified */
        SimOpts oq = *o;
        oq.events = q;
        status = sim_set_run(&oq, fmt, enc, n, engine, occ, cpl, preload);
    }
    for (guint i = 0; i < n; i++) {
        pms_encoding_free(enc[i]);
        g_free(q[i]);
    }
    return status;
}

int pms_sim_worked_example(const PmsEncoding *enc, const char *occ_text, const char *cpl_text, guint64 preload,
                           GString *out)
{
    g_autoptr(GArray) occ = parse_list("--occurrences", occ_text, G_MAXUINT32);
    g_autoptr(GArray) cpl = NULL;
    if (!occ || (cpl_text && !(cpl = parse_list("--cpl", cpl_text, 3))))
        return PMS_EXIT_USAGE;
    if (cpl && cpl->len != occ->len) {
        fprintf(stderr, "pmusim: --cpl: %u values for %u --occurrences values: expected one CPL per cycle\n", cpl->len,
                occ->len);
        return PMS_EXIT_USAGE;
    }
    const PmsModel *m = enc->model;
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsSim) sim = pms_sim_new(m, &err);
    guint counter;
    gboolean fixed;
    if (!sim || !pms_sim_program_encoding(sim, enc, &counter, &fixed, &err)) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        return 1;
    }
    PmsPlacement pl = { m, enc->event, counter, fixed };
    const PmsRegister *ctr = pms_program_counter_reg(&pl);
    const PmsRegister *gs = pms_program_status_reg(&pl);
    guint width = fixed ? m->fixed_width : m->gp_width;
    if (!ctr) {
        fprintf(stderr, "pmusim: %s has no register for the event's counter\n", m->name);
        return 1;
    }
    if (!pms_sim_set_counter_at(sim, ctr->space, ctr->address, preload, &err)) {
        fprintf(stderr, "pmusim: --preload: %s\n", err->message);
        return PMS_EXIT_USAGE;
    }
    g_autoptr(PmsStim) st = occurrence_stim(enc, occ, cpl);
    PmsTraceMeta meta = { m->name,
                          enc->fstr,
                          ctr->name,
                          width,
                          "reference",
                          TRUE,
                          gs ? gs->name : NULL,
                          m->smt && pms_sim_threads(sim) > 1,
                          TRUE,
                          enc->writes,
                          enc->n_writes,
                          preload,
                          thr_name(m),
                          FALSE,
                          NULL };
    g_autoptr(PmsTraceReporter) rep = pms_trace_reporter_new(&pms_trace_table, &meta);
    TraceSink sink = { fixed, counter, m->instance, rep, NULL };
    pms_sim_set_trace(sim, on_trace, &sink);
    if (!pms_stim_execute(st, sim, &err)) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        return 1;
    }
    PmsTraceSummary sum;
    PmsTracePmis list;
    if (!one_counter_summary(sim, ctr, gs, width, &pl, &sum, &list))
        return 1;
    pms_trace_end(rep, &sum);
    g_string_append(out, rep->out->str);
    return 0;
}

int pms_cmd_sim(int argc, char **argv)
{
    g_auto(SimOpts) o = { .max_cycles = DEFAULT_MAX_CYCLES, .max_steps = DEFAULT_MAX_STEPS };
    const GOptionEntry entries[] = {
        { "pmu", 'p', 0, G_OPTION_ARG_STRING, &o.pmu, "PMU of an event written without PMU:: (glm, wsm, ...)", "PMU" },
        { "event", 'e', 0, G_OPTION_ARG_STRING_ARRAY, &o.events,
          "Event string to encode and count (several: counted together, one counter each)", "EVENT" },
        { "stim", 's', 0, G_OPTION_ARG_FILENAME, &o.stim, "Stimulus file (docs/stimulus-format.md)", "FILE" },
        { "pebs", 0, 0, G_OPTION_ARG_NONE, &o.pebs,
          "Also program PEBS for each -e event on its counter (as encode --pebs); the stimulus's ds line sets the DS "
          "area",
          NULL },
        { "occurrences", 0, 0, G_OPTION_ARG_STRING, &o.occurrences,
          "Occurrences of the event's own signal, one per cycle", "N,N,..." },
        { "cpl", 0, 0, G_OPTION_ARG_STRING, &o.cpl, "CPL (0..3) of each --occurrences cycle (default 3)", "C,C,..." },
        { "preload", 0, 0, G_OPTION_ARG_STRING, &o.preload, "Counter value before cycle 0 (default 0)", "VALUE" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &o.format,
          "Trace format: table (default), csv, json, vcd, svg, html (timing diagrams)", "FMT" },
        { "engine", 0, 0, G_OPTION_ARG_STRING, &o.engine, "reference (default, per-cycle trace) or fast (summary only)",
          "ENGINE" },
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, "Write the trace to FILE (atomically)", "FILE" },
        { "max-cycles", 0, 0, G_OPTION_ARG_INT64, &o.max_cycles, "Longest per-cycle trace accepted (default 1000000)",
          "N" },
        { "max-steps", 0, 0, G_OPTION_ARG_INT64, &o.max_steps,
          "Most steps one run may take, on every engine: a cycle stepped one by one (reference engine, per-cycle "
          "trace, PEBS armed) or a counter wrap the fast engine walks (over the run or one period of the interrupting "
          "counters' wraps); more is a failure (default "
          "100000000)",
          "N" },
        { "explain", 0, 0, G_OPTION_ARG_NONE, &o.explain,
          "After the table, one sentence per cycle where something changes", NULL },
        { "freeze", 0, 0, G_OPTION_ARG_NONE, &o.freeze,
          "Set the PMU's freeze-on-PMI control before the run (x86 core: DEBUGCTL.freeze_perfmon_on_pmi; "
          "Xeon 7500 C-Box: the U-Box's frz_all and pmi_core_sel)",
          NULL },
        { "sentences", 0, 0, G_OPTION_ARG_NONE, &o.sentences,
          "svg: print each span's sentence under the diagram (html always lists them)", NULL },
        { "compare", 0, 0, G_OPTION_ARG_FILENAME, &o.compare,
          "Run the same experiment on the built-in model and on the variant FILE; print what FILE changes, both "
          "outputs and the lines that differ (exit 1 when they do)",
          "FILE" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    g_autoptr(GOptionContext) ctx = pms_cli_context(
        "",
        "Count one event (or, with several -e, a set of events, each on its own counter) in the simulator and "
        "print the per-cycle trace.",
        entries, &o.model_files);
    pms_cli_help(
        ctx,
        "0 simulated (and every read and expect-pmi of the stimulus held); 1 the encoder rejects "
        "the event, a stimulus that cannot be read, parsed or whose checks fail, or a simulation "
        "error; 2 usage error, a model file that does not load, or a stimulus that is not text the reader "
        "takes (a NUL byte, a line over 16 MiB; a file over 64 MiB for the reference engine).",
        "  pmusim sim --pmu wsm -e 'INST_RETIRED:ANY_P:u:c=2' --occurrences 3,3,3 --cpl 0,3,0\n"
        "  pmusim sim --pmu nhm_unc -e 'UNC_LLC_MISS:ANY:c=2:i' --occurrences 3,0,1,2\n"
        "  pmusim sim --pmu nhm_unc -e UNC_CLK_UNHALTED --occurrences 1,1,1 --preload 0xfffffffffffe\n"
        "  pmusim sim -e nhm::INST_RETIRED:ANY_P --stim " PMUSIM_EXAMPLES_DIR "/nhm-freeze.stim --format vcd -o t.vcd\n"
        "  pmusim sim -e nhm::INST_RETIRED:ANY_P --stim " PMUSIM_EXAMPLES_DIR
        "/nhm-lbr.stim --explain   (the LBR ring last)\n"
        "  pmusim sim --pmu wsm -e INST_RETIRED:ANY_P -e UOPS_ISSUED:ANY --occurrences 1,2 --preload 0xffffffffffff\n"
        "  pmusim sim --pmu glm -e 'INST_RETIRED:ANY_P:c=2:e' --occurrences 3,3,0,2 -f html -o t.html\n"
        "  pmusim sim --pmu nhmex_cbox0 -e 'LLC_MISSES:ALL:pmi' --occurrences 1,1,1 --preload 0xfffffffffffe --freeze\n"
        "  pmusim sim --pmu wsm -e INST_RETIRED:ANY_P --occurrences 5,5 --preload 0xfffffffff8 --compare "
        "my-wsm.pmu\n"
        "  pmusim sim --pebs -e nhm::INST_RETIRED:ANY_P --stim " PMUSIM_EXAMPLES_DIR
        "/nhm-pebs.stim   PEBS records after the "
        "counts\n");
    /* --compare runs these arguments again, twice (GOption takes out what it parses) */
    g_autofree char **given = g_new0(char *, argc + 1);
    memcpy(given, argv, sizeof(char *) * (gsize)argc);
    const int n_given = argc;
    if (!pms_cli_parse(ctx, &argc, &argv) || !pms_cli_output_path_ok("--output", o.output))
        return PMS_EXIT_USAGE;
    o.event = o.events ? o.events[0] : NULL;
    if (o.output && strcmp(o.output, "-") == 0) /* -o -: stdout, as without -o */
        g_clear_pointer(&o.output, g_free);
    if (o.stim && strcmp(o.stim, "-") == 0) { /* standard input: read once, like any pipe */
        g_free(o.stim);
        o.stim = g_strdup("/dev/stdin");
    }
    if (argc > 1) {
        fprintf(stderr, "pmusim: sim: unexpected argument '%s' (the event goes after -e)\n", argv[1]);
        return PMS_EXIT_USAGE;
    }
    if (o.compare) {
        const char *why = o.output ? "-o (both outputs go to stdout)"
            : o.format && (strcmp(o.format, "svg") == 0 || strcmp(o.format, "html") == 0)
            ? "-f svg or html (compare text: table, csv, json, vcd)"
            : o.stim && strcmp(o.stim, "/dev/stdin") == 0 ? "--stim - (the stimulus is read twice: give a file)"
                                                          : NULL;
        if (why) {
            fprintf(stderr, "pmusim: sim: --compare does not take %s\n", why);
            return PMS_EXIT_USAGE;
        }
        return pms_sim_compare(o.compare, o.model_files, n_given, given);
    }
    if (o.pebs && !o.event) {
        fprintf(stderr,
                "pmusim: sim: --pebs programs PEBS for the -e events: give -e (or write IA32_PEBS_ENABLE "
                "in the stimulus)\n");
        return PMS_EXIT_USAGE;
    }
    if (o.max_steps < 1) {
        fprintf(stderr, "pmusim: --max-steps: expected a positive number of steps\n");
        return PMS_EXIT_USAGE;
    }
    /* a stimulus that programs the registers itself: no event to encode */
    if (!o.event && o.stim && !o.occurrences && !o.preload && !o.output)
        return pms_sim_stim_only(o.pmu, o.stim, o.model_files, o.engine, o.format, o.max_steps);
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
        fprintf(stderr, "pmusim: --cpl: %u values for %u --occurrences values: expected one CPL per cycle\n", cpl->len,
                occ->len);
        return PMS_EXIT_USAGE;
    }
    guint64 preload = 0;
    if (o.preload && !pms_cli_parse_u64("--preload", o.preload, &preload))
        return PMS_EXIT_USAGE;
    if (o.events[1])
        return sim_set(&o, fmt, engine, occ, cpl, preload);

    g_autoptr(GError) err = NULL;
    g_autofree char *qualified = pms_sim_qualify_event(o.pmu, o.event, &err);
    if (!qualified) {
        fprintf(stderr, "pmusim: -e: %s\n", err->message);
        return PMS_EXIT_USAGE;
    }
    g_autoptr(PmsModelSet) models = pms_cli_load_models(o.model_files);
    if (!models)
        return PMS_EXIT_USAGE;
    /* --pmu names a PMU of the model set: an unknown one is a usage error (exit 2) */
    if (o.pmu && !pms_cli_model(models, o.pmu))
        return PMS_EXIT_USAGE;
    g_autoptr(PmsEncoding) enc = pms_encode(models, qualified, &err);
    if (!enc) {
        g_autofree char *hint = pms_suggest_for_string(models, qualified, err);
        fprintf(stderr, "pmusim: -e '%s': %s%s\n", qualified, err->message, hint);
        return 1;
    }
    const PmsModel *m = enc->model;
    g_autoptr(PmsSim) sim = pms_sim_new(m, &err);
    if (!sim) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        return 1;
    }
    pms_sim_set_engine(sim, engine);
    pms_sim_set_max_steps(sim, (guint64)o.max_steps);
    guint counter;
    gboolean fixed;
    if (!pms_sim_program_encoding(sim, enc, &counter, &fixed, &err)) {
        fprintf(stderr, "pmusim: -e '%s': %s\n", qualified, err->message);
        return 1;
    }
    /* the counter in its register space (MSR; the Itanium's PMDn) */
    PmsPlacement pl = { m, enc->event, counter, fixed };
    if (o.pebs && !apply_pebs(sim, enc, &pl, qualified))
        return 1;
    if (o.freeze && !apply_freeze(sim))
        return 1;
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

    /* the fast engine runs a stimulus file as it reads it (bounded memory) */
    gboolean stream = o.stim && engine == PMS_SIM_FAST;
    g_autoptr(PmsStim) st = stream ? NULL
        : o.stim                   ? pms_stim_load_file(m, o.stim, &err)
                                   : occurrence_stim(enc, occ, cpl);
    if (!st && !stream) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        return stim_status(err);
    }
    if (engine == PMS_SIM_REFERENCE && pms_stim_end_cycle(st) > (guint64)o.max_cycles) {
        /* --max-cycles bounds per-cycle output only: a longer run in a
         * format that takes spans is run by the fast engine, one record per
         * span of identical cycles */
        if (o.engine || fmt == &pms_trace_csv || fmt == &pms_trace_vcd || o.explain) {
            fprintf(stderr,
                    "pmusim: the stimulus runs %" G_GUINT64_FORMAT " cycles, more than --max-cycles %" G_GINT64_FORMAT
                    " for a per-cycle trace: raise --max-cycles, or use a format that takes spans (table, json, svg, "
                    "html) without --engine reference%s\n",
                    pms_stim_end_cycle(st), o.max_cycles, o.explain ? " and --explain" : "");
            return PMS_EXIT_USAGE;
        }
        engine = PMS_SIM_FAST;
        pms_sim_set_engine(sim, engine);
    }

    const PmsRegister *gs = pms_program_status_reg(&pl);
    PmsTraceMeta meta = { m->name,
                          enc->fstr,
                          ctr->name,
                          width,
                          engine == PMS_SIM_FAST ? "fast" : "reference",
                          engine == PMS_SIM_REFERENCE,
                          gs ? gs->name : NULL,
                          m->smt && pms_sim_threads(sim) > 1,
                          o.explain,
                          enc->writes,
                          enc->n_writes,
                          preload,
                          thr_name(m),
                          o.sentences,
                          NULL };
    /* html draws the registers in effect; the sentences (html, --explain)
     * name the control that stopped a counter */
    g_autoptr(PmsRegPanel) panel = fmt == &pms_trace_html || o.explain ? panel_new(sim, enc, st, gs) : NULL;
    meta.panel = panel;
    g_autoptr(PmsTraceReporter) rep = pms_trace_reporter_new(fmt, &meta);
    TraceSink sink = { fixed, counter, m->instance, rep, panel };
    /* the fast engine reports its segments as spans (table, json and the
     * diagrams draw them); the reference engine every cycle */
    gboolean spans = engine == PMS_SIM_FAST;
    pms_sim_set_trace(sim, on_trace, &sink);
    pms_sim_set_trace_spans(sim, spans);
    if (stream ? !pms_stim_run_file(m, o.stim, sim, &err) : !pms_stim_execute(st, sim, &err)) {
        pms_sim_run_error(err, o.max_steps);
        return stim_status(err);
    }
    if (panel)
        pms_reg_panel_finish(panel, pms_sim_cycle(sim));

    PmsTraceSummary sum;
    PmsTracePmis list;
    if (!one_counter_summary(sim, ctr, gs, width, &pl, &sum, &list))
        return 1;
    /* a metric's line before the answer, which stays the last line */
    g_autoptr(GString) metric = g_string_new(NULL);
    if (!metric_line(metric, sim, &pl, enc->codes[0], sum.count, "# metric: "))
        return 1;
    if (fmt == &pms_trace_table)
        g_string_append(rep->out, metric->str);
    g_autoptr(GString) pebs_json = g_string_new(NULL);
    if (fmt == &pms_trace_json && pms_pebs_report_json(pebs_json, sim))
        sum.json_extra = pebs_json->str;
    pms_trace_end(rep, &sum);
    if (fmt == &pms_trace_table)
        pms_pebs_report(rep->out, sim); /* after the counts: PEBS records and DS index */
    /* the LBR ring after the counts: in the table itself, else on stdout
     * beside the answer line when the trace went to a file */
    g_autoptr(GString) ring = g_string_new(NULL);
    pms_lbr_ring_text(sim, ring);
    if (fmt == &pms_trace_table)
        g_string_append(rep->out, ring->str);
    if (!write_output(o.output, rep->out))
        return 1;
    if (o.output) {
        /* The trace went to the file; the answer still ends stdout. */
        g_autoptr(GString) line = g_string_new(NULL);
        pms_trace_summary_line(line, &sum);
        fputs(metric->str, stdout);
        fputs(line->str, stdout);
        if (fmt != &pms_trace_table)
            fputs(ring->str, stdout);
    }
    return 0;
}
