/* pmusim — trace as a timing diagram: a standalone SVG, or an HTML page
 * holding it with the encoded registers drawn as bit fields.  No network,
 * no external fonts or scripts: the style is inline, the HTML's only script
 * is inline (hovering a cycle shows its sentence; the SVG alone shows it as
 * each span's <title> tooltip).
 *
 * The run is summarised: consecutive records that behave alike (the same
 * inputs and stage outputs, no carry, no PMI: pms_trace_rec_same) are one
 * span, drawn as one column labelled with its length, so the fast engine's
 * few records of a 2^47-cycle run (pms_sim_set_trace_spans) draw a few
 * columns.  Layout (docs/sim-cli.md): a label column LEFT wide, then one
 * column per span, ONE_W wide for a single cycle and SPAN_W for longer
 * spans; one row ROW_H high per signal: the cycle numbers, the occurrences
 * per thread as bars, the CPL and n as values, each pipeline stage as a
 * digital waveform (one <polyline class="wave"> each, high WAVE_HI below
 * the row's top when 1, WAVE_LO when 0), the counter as a value row in hex,
 * then the overflow, PMI and freeze markers. */
#include "trace_report.h"

#include <string.h>

enum {
    LEFT = 140,
    ONE_W = 110,
    SPAN_W = 170,
    ROW_H = 30,
    TOP = 30,
    WAVE_HI = 6,
    WAVE_LO = 24,
};

typedef struct {
    GArray *spans; /* PmsTraceRec */
    gboolean html;
} SvgState;

static void svg_begin(PmsTraceReporter *r, const PmsTraceMeta *m)
{
    SvgState *st = r->priv;
    st->spans = g_array_new(FALSE, FALSE, sizeof(PmsTraceRec));
    st->html = FALSE;
    (void)m;
}

static void html_begin(PmsTraceReporter *r, const PmsTraceMeta *m)
{
    svg_begin(r, m);
    ((SvgState *)r->priv)->html = TRUE;
}

static void record(PmsTraceReporter *r, const PmsSimTrace *t)
{
    SvgState *st = r->priv;
    if (st->spans->len) {
        PmsTraceRec *last = &g_array_index(st->spans, PmsTraceRec, st->spans->len - 1);
        if (pms_trace_rec_same(last, t)) {
            pms_trace_rec_extend(last, t);
            return;
        }
    }
    PmsTraceRec rec;
    pms_trace_rec_set(&rec, t);
    g_array_append_val(st->spans, rec);
}

static void clear(PmsTraceReporter *r)
{
    SvgState *st = r->priv;
    if (st->spans)
        g_array_free(st->spans, TRUE);
    st->spans = NULL;
}

/* The stages drawn as waveforms, in the pipeline's order. */
typedef enum { W_GATE, W_THR, W_COND, W_LATCH, W_EDGE, W_INC, W_EN, N_WAVES } Wave;
static const char *const wave_names[N_WAVES] = { "gate", "thr", "cond", "latch", "edge", "inc", "en" };

static gboolean wave_value(const PmsTraceRec *s, Wave w)
{
    const PmsPipeOut *p = pms_trace_rec_pipe(s);
    guint th = s->cfg.thread < PMS_SIM_MAX_THREADS ? s->cfg.thread : 0;
    switch (w) {
    case W_GATE:
        return p && p->gate[th];
    case W_THR:
        return p && p->thr;
    case W_COND:
        return p && p->cond;
    case W_LATCH:
        return s->t.has_latch && s->cfg.edge && s->t.latch_before;
    case W_EDGE:
        return p && p->edge;
    case W_INC:
        return s->t.inc != 0;
    case W_EN:
        return p != NULL;
    default:
        return FALSE;
    }
}

static void text(GString *o, double x, double y, const char *cls, const char *anchor, const char *s)
{
    g_autofree char *esc = g_markup_escape_text(s, -1);
    g_string_append_printf(o, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n", cls, x, y,
                           anchor, esc);
}

/* The SVG element; xs[i] is span i's left edge (n + 1 entries). */
static void draw(GString *o, const PmsTraceMeta *m, const GArray *spans, const PmsTraceSummary *sum)
{
    guint n = spans->len;
    g_autofree double *xs = g_new(double, n + 1);
    xs[0] = LEFT;
    guint64 occ_max = 1;
    for (guint i = 0; i < n; i++) {
        const PmsTraceRec *s = &g_array_index(spans, PmsTraceRec, i);
        xs[i + 1] = xs[i] + (s->cycles == 1 ? ONE_W : SPAN_W);
        for (guint t = 0; t < PMS_SIM_MAX_THREADS; t++)
            occ_max = MAX(occ_max, s->t.occ[t]);
    }
    const char *rows[32];
    guint nr = 0;
    rows[nr++] = "cycle";
    rows[nr++] = "occ";
    if (m->smt)
        rows[nr++] = "occ1";
    rows[nr++] = "cpl";
    rows[nr++] = "n";
    guint wave_row = nr;
    for (guint w = 0; w < N_WAVES; w++)
        rows[nr++] = wave_names[w];
    guint ctr_row = nr;
    rows[nr++] = "counter";
    guint mark_row = nr;
    rows[nr++] = "ovf";
    rows[nr++] = "pmi";
    rows[nr++] = "frozen";
    double width = xs[n] + 20, height = TOP + nr * ROW_H + 40;
    g_string_append_printf(o,
                           "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"pmusim-timing\" width=\"%.0f\" "
                           "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" data-spans=\"%u\">\n",
                           width, height, width, height, n);
    g_string_append(o,
                    "<style>text{font-family:monospace;font-size:11px;fill:#222}"
                    ".label{font-weight:bold}.wave{fill:none;stroke:#1565c0;stroke-width:2}"
                    ".bar{fill:#90caf9}.bus{fill:#e8f5e9;stroke:#2e7d32}.wrap{fill:#c62828}"
                    ".ovf{fill:#c62828}.pmi{fill:#6a1b9a}.frozen{fill:#b0bec5}.off{fill:#eceff1}"
                    ".grid{stroke:#ddd}.hit{fill:transparent}.hit:hover{fill:rgba(255,235,59,0.25)}</style>\n");
    g_autofree char *title = g_strdup_printf("%s on %s (%u bits)", m->event, m->counter, m->width);
    text(o, 4, 16, "label", "start", title);
    /* disabled spans shaded behind every row */
    for (guint i = 0; i < n; i++) {
        const PmsTraceRec *s = &g_array_index(spans, PmsTraceRec, i);
        if (!s->has_pipe)
            g_string_append_printf(o, "<rect class=\"off\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"/>\n", xs[i],
                                   TOP, xs[i + 1] - xs[i], (int)(nr * ROW_H));
    }
    for (guint k = 0; k < nr; k++) {
        double y = TOP + k * ROW_H;
        text(o, 4, y + 19, "label", "start", rows[k]);
        g_string_append_printf(o, "<line class=\"grid\" x1=\"0\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\"/>\n", y + ROW_H,
                               width, y + ROW_H);
    }
    for (guint i = 0; i <= n; i++)
        g_string_append_printf(o, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.0f\"/>\n", xs[i], TOP,
                               xs[i], TOP + nr * (double)ROW_H);
    g_autoptr(GString) buf = g_string_new(NULL);
    for (guint i = 0; i < n; i++) {
        const PmsTraceRec *s = &g_array_index(spans, PmsTraceRec, i);
        double x = xs[i], w = xs[i + 1] - xs[i], cx = x + w / 2;
        guint k = 0;
        /* cycle(s) */
        g_string_truncate(buf, 0);
        if (s->cycles == 1)
            g_string_append_printf(buf, "%" G_GUINT64_FORMAT, s->first);
        else
            g_string_append_printf(buf, "%" G_GUINT64_FORMAT "+ \u00d7%" G_GUINT64_FORMAT, s->first, s->cycles);
        text(o, cx, TOP + k++ * ROW_H + 19, "cyc", "middle", buf->str);
        /* occurrences as bars */
        for (guint t = 0; t < (m->smt ? 2u : 1u); t++) {
            double y = TOP + k++ * ROW_H;
            double h = (ROW_H - 8) * (double)s->t.occ[t] / (double)occ_max;
            g_string_append_printf(o, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
                                   x + 4, y + ROW_H - 4 - h, w - 8, h);
            g_string_truncate(buf, 0);
            g_string_append_printf(buf, "%" G_GUINT64_FORMAT, s->t.occ[t]);
            text(o, cx, y + 19, t ? "occ1" : "occ", "middle", buf->str);
        }
        g_string_truncate(buf, 0);
        if (m->smt)
            g_string_append_printf(buf, "%u/%u", s->t.cpl[0], s->t.cpl[1]);
        else
            g_string_append_printf(buf, "%u", s->t.cpl[0]);
        text(o, cx, TOP + k++ * ROW_H + 19, "cpl", "middle", buf->str);
        g_string_truncate(buf, 0);
        if (s->has_pipe)
            g_string_append_printf(buf, "%" G_GUINT64_FORMAT, s->pipe.n);
        else
            g_string_append(buf, "-");
        text(o, cx, TOP + k++ * ROW_H + 19, "n", "middle", buf->str);
        /* the counter: a bus cell with the value after the span */
        double cy = TOP + ctr_row * ROW_H;
        g_string_append_printf(o,
                               "<polygon class=\"bus\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f "
                               "%.1f,%.1f\"/>\n",
                               x + 1, cy + 15, x + 5, cy + 4, x + w - 5, cy + 4, x + w - 1, cy + 15, x + w - 5, cy + 26,
                               x + 5, cy + 26);
        g_string_truncate(buf, 0);
        pms_trace_hex(buf, s->t.value, m->width);
        text(o, cx, cy + 19, "ctr", "middle", buf->str);
        if (s->t.carries)
            g_string_append_printf(o, "<rect class=\"wrap\" x=\"%.1f\" y=\"%.1f\" width=\"3\" height=\"%d\"/>\n",
                                   x + w - 3, cy + 2, ROW_H - 4);
        /* markers */
        double my = TOP + mark_row * ROW_H;
        if (s->t.carries) {
            g_string_truncate(buf, 0);
            g_string_append_printf(buf, s->t.carries == 1 ? "carry" : "%" G_GUINT64_FORMAT " carries", s->t.carries);
            g_string_append_printf(o, "<path class=\"ovf\" d=\"M%.1f %.1f l6 10 l-12 0 z\"/>\n", x + w - 8, my + 6);
            text(o, cx, my + 19, "ovf", "middle", buf->str);
        }
        if (s->t.pmis) {
            g_string_truncate(buf, 0);
            g_string_append_printf(buf, s->t.pmis == 1 ? "PMI" : "%" G_GUINT64_FORMAT " PMIs", s->t.pmis);
            g_string_append_printf(o, "<path class=\"pmi\" d=\"M%.1f %.1f l6 10 l-12 0 z\"/>\n", x + w - 8,
                                   my + ROW_H + 6);
            text(o, cx, my + ROW_H + 19, "pmi", "middle", buf->str);
        }
        if (!s->has_pipe) {
            g_string_truncate(buf, 0);
            pms_trace_off_words(buf, s->t.off);
            if (s->t.off & PMS_SIM_OFF_FROZEN)
                g_string_append_printf(o,
                                       "<rect class=\"frozen\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                                       "height=\"%d\"/>\n",
                                       x, my + 2 * ROW_H + 4, w, ROW_H - 8);
            text(o, cx, my + 2 * ROW_H + 19, "why", "middle", buf->str);
        }
    }
    /* one waveform per stage */
    for (guint wv = 0; wv < N_WAVES; wv++) {
        double y = TOP + (wave_row + wv) * ROW_H;
        g_string_append_printf(o, "<polyline class=\"wave\" data-stage=\"%s\" data-hi=\"%.1f\" points=\"",
                               wave_names[wv], y + WAVE_HI);
        for (guint i = 0; i < n; i++) {
            const PmsTraceRec *s = &g_array_index(spans, PmsTraceRec, i);
            double yv = y + (wave_value(s, (Wave)wv) ? WAVE_HI : WAVE_LO);
            g_string_append_printf(o, "%s%.1f,%.1f %.1f,%.1f", i ? " " : "", xs[i], yv, xs[i + 1], yv);
        }
        g_string_append(o, "\"/>\n");
    }
    /* hover targets, each with its sentence */
    for (guint i = 0; i < n; i++) {
        const PmsTraceRec *s = &g_array_index(spans, PmsTraceRec, i);
        g_string_truncate(buf, 0);
        pms_trace_sentence(buf, m, s);
        g_autofree char *esc = g_markup_escape_text(buf->str, -1);
        g_string_append_printf(o,
                               "<rect class=\"hit\" data-i=\"%u\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
                               "height=\"%d\"><title>%s</title></rect>\n",
                               i, xs[i], TOP, xs[i + 1] - xs[i], (int)(nr * ROW_H), esc);
    }
    g_autofree char *foot = g_strdup_printf(
        "%" G_GUINT64_FORMAT " cycles; count=%" G_GUINT64_FORMAT " overflow=%d; %" G_GUINT64_FORMAT " PMI%s",
        sum->cycles, sum->count, sum->overflow ? 1 : 0, sum->pmi_total, sum->pmi_total == 1 ? "" : "s");
    text(o, 4, TOP + nr * ROW_H + 24, "label", "start", foot);
    g_string_append(o, "</svg>\n");
}

/* One register write as a bit-field diagram: a row of cells, one per field
 * (and per run of bits no field names), high bits first. */
static void reg_fields(GString *o, const PmsRegWrite *w)
{
    g_autofree char *name = g_markup_escape_text(w->name, -1);
    g_string_append_printf(o, "<h3>%s (0x%x) = 0x%" G_GINT64_MODIFIER "x</h3>\n<table class=\"bits\"><tr>\n", name,
                           w->address, w->value);
    const PmsLayout *l = w->reg ? w->reg->layout : NULL;
    guint top = w->reg && w->reg->width ? w->reg->width : 64;
    for (int b = (int)top - 1; b >= 0;) {
        const PmsField *f = NULL;
        for (guint i = 0; l && i < l->n_fields; i++)
            if (l->fields[i].shift + l->fields[i].width - 1 == (guint)b)
                f = &l->fields[i];
        if (f) {
            g_autofree char *fn = g_markup_escape_text(f->name, -1);
            g_string_append_printf(
                o, "<td colspan=\"%u\" class=\"field\" title=\"bits %u:%u\">%s<br/>0x%" G_GINT64_MODIFIER "x</td>\n",
                f->width, f->shift + f->width - 1, f->shift, fn, pms_field_get(f, w->value));
            b -= (int)f->width;
            continue;
        }
        /* bits no field covers, down to the next field's top */
        int lo = b;
        while (lo > 0) {
            gboolean covered = FALSE;
            for (guint i = 0; l && i < l->n_fields; i++)
                if (l->fields[i].shift <= (guint)(lo - 1) && (guint)(lo - 1) < l->fields[i].shift + l->fields[i].width)
                    covered = TRUE;
            if (covered)
                break;
            lo--;
        }
        guint64 bits = (b - lo + 1) >= 64 ? w->value : (w->value >> lo) & (((guint64)1 << (b - lo + 1)) - 1);
        g_string_append_printf(
            o, "<td colspan=\"%d\" class=\"rsvd\" title=\"bits %d:%d\">-<br/>0x%" G_GINT64_MODIFIER "x</td>\n",
            b - lo + 1, b, lo, bits);
        b = lo - 1;
    }
    g_string_append(o, "</tr></table>\n");
}

static void end(PmsTraceReporter *r, const PmsTraceSummary *sum)
{
    SvgState *st = r->priv;
    const PmsTraceMeta *m = &r->meta;
    GString *o = r->out;
    if (!st->html) {
        g_string_append(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        draw(o, m, st->spans, sum);
        return;
    }
    g_autofree char *title = g_markup_escape_text(m->event, -1);
    g_string_append_printf(o,
                           "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>\n"
                           "<title>%s</title>\n<style>body{font-family:monospace;margin:1em}"
                           "table.bits{border-collapse:collapse;margin-bottom:1em}"
                           "table.bits td{border:1px solid #555;text-align:center;padding:2px 4px;"
                           "font-size:11px;min-width:6px}td.rsvd{background:#eee;color:#888}"
                           "td.field{background:#e3f2fd}.say{min-height:2.5em;padding:4px;"
                           "background:#fffde7;border:1px solid #ccc}</style></head>\n<body>\n"
                           "<h1>%s</h1>\n<h2>Registers the encoder sets</h2>\n",
                           title, title);
    for (guint i = 0; i < m->n_writes; i++)
        reg_fields(o, &m->writes[i]);
    g_string_append(o, "<h2>Timing</h2>\n<div class=\"say\">Hover a cycle to read what happened in it.</div>\n");
    draw(o, m, st->spans, sum);
    /* the sentences, in span order, for the hover */
    /* the script serves the diagram just before it (a page may hold several) */
    g_string_append(o,
                    "<script>\n{\nconst svg = document.currentScript.previousElementSibling;\n"
                    "const say = svg.previousElementSibling;\nconst said = [\n");
    g_autoptr(GString) buf = g_string_new(NULL);
    for (guint i = 0; i < st->spans->len; i++) {
        g_string_truncate(buf, 0);
        pms_trace_sentence(buf, m, &g_array_index(st->spans, PmsTraceRec, i));
        g_string_append_c(o, '"');
        for (const char *p = buf->str; *p; p++) {
            if (*p == '"' || *p == '\\')
                g_string_append_c(o, '\\');
            if (*p == '<')
                g_string_append(o, "\\u003c");
            else
                g_string_append_c(o, *p);
        }
        g_string_append(o, "\",\n");
    }
    g_string_append(o,
                    "];\nfor (const h of svg.querySelectorAll('rect.hit'))\n"
                    "  h.addEventListener('mouseenter', () => {\n"
                    "    say.textContent = said[+h.dataset.i];\n"
                    "  });\n}\n</script>\n");
    g_autofree char *foot =
        g_strdup_printf("count=%" G_GUINT64_FORMAT " overflow=%d", sum->count, sum->overflow ? 1 : 0);
    g_string_append_printf(o, "<p>%s</p>\n</body></html>\n", foot);
}

const PmsTraceFormat pms_trace_svg = { "svg", sizeof(SvgState), svg_begin, record, end, clear };
const PmsTraceFormat pms_trace_html = { "html", sizeof(SvgState), html_begin, record, end, clear };
