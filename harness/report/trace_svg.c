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
#include "reg_panel.h"
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

/* The stages drawn as waveforms, in the pipeline's order; latch and edge
 * only when the event sets e (they do nothing otherwise). */
typedef enum { W_GATE, W_THR, W_COND, W_LATCH, W_EDGE, W_EN, N_WAVES } Wave;
static const char *const wave_names[N_WAVES] = { "gate", "thr", "cond", "latch", "edge", "en" };

/* Was the stage evaluated in the span?  A counter that is off (disabled,
 * frozen) runs no stage but its enable: its gate, threshold and edge are
 * unknown, not 0, and are drawn hatched. */
static gboolean wave_known(const PmsTraceRec *s, Wave w)
{
    return w == W_EN || s->has_pipe;
}

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
    case W_EN:
        return p != NULL;
    default:
        return FALSE;
    }
}

/* Monospace at FONT px: about 0.6 em a character. */
#define FONT 11.0
#define CHAR_W(px) ((px)*0.6)

static void text(GString *o, double x, double y, const char *cls, const char *anchor, const char *s)
{
    g_autofree char *esc = g_markup_escape_text(s, -1);
    g_string_append_printf(o, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n", cls, x, y,
                           anchor, esc);
}

/* Text in a cell max_w wide: at the normal size when it fits, else smaller,
 * else shortened in the middle with the whole text as its <title>. */
static void cell_text(GString *o, double cx, double y, const char *cls, const char *s, double max_w)
{
    gsize len = g_utf8_strlen(s, -1);
    if (len * CHAR_W(FONT) <= max_w) {
        text(o, cx, y, cls, "middle", s);
        return;
    }
    g_autofree char *esc = g_markup_escape_text(s, -1);
    if (len * CHAR_W(9.0) <= max_w) {
        g_string_append_printf(o,
                               "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                               "style=\"font-size:9px\">%s</text>\n",
                               cls, cx, y, esc);
        return;
    }
    glong keep = (glong)(max_w / CHAR_W(9.0)) - 1;
    if (keep < 2)
        keep = 2;
    glong head = keep / 2, tail = keep - head;
    g_autofree char *a = g_utf8_substring(s, 0, head);
    g_autofree char *b = g_utf8_substring(s, (glong)len - tail, (glong)len);
    g_autofree char *shortened = g_strdup_printf("%s\u2026%s", a, b);
    g_autofree char *esc_short = g_markup_escape_text(shortened, -1);
    g_string_append_printf(o,
                           "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                           "style=\"font-size:9px\">%s<title>%s</title></text>\n",
                           cls, cx, y, esc_short, esc);
}

/* s wrapped at whole words to lines of at most `cols` characters, drawn
 * from (x, y) one line every 14 px when o is not NULL; returns the number
 * of lines. */
static guint wrap_text(GString *o, double x, double y, const char *cls, const char *s, guint cols)
{
    guint lines = 0;
    const char *p = s;
    cols = MAX(cols, 8u);
    while (*p) {
        glong left = g_utf8_strlen(p, -1);
        glong take = left;
        if ((guint)left > cols) {
            take = cols;
            /* break after the last space, colon or comma in the line */
            for (glong k = cols; k > cols / 2; k--) {
                gunichar ch = g_utf8_get_char(g_utf8_offset_to_pointer(p, k - 1));
                if (ch == ' ' || ch == ':' || ch == ',') {
                    take = k;
                    break;
                }
            }
        }
        const char *q = g_utf8_offset_to_pointer(p, take);
        if (o) {
            g_autofree char *line = g_strndup(p, (gsize)(q - p));
            text(o, x, y + lines * 14, cls, "start", line);
        }
        lines++;
        p = q;
    }
    return lines ? lines : 1;
}

typedef struct {
    const char *name;
    const char *desc;
} Row;

/* The SVG element; xs[i] is span i's left edge (n + 1 entries). */
static void draw(GString *o, const PmsTraceMeta *m, const GArray *spans, const PmsTraceSummary *sum)
{
    guint n = spans->len;
    const char *thr = pms_trace_thr(m);
    g_autofree double *xs = g_new(double, n + 1);
    xs[0] = LEFT;
    guint64 occ_max = 1;
    guint cmask = 0, thres_gt = 0;
    gboolean edge = FALSE, inv = FALSE;
    for (guint i = 0; i < n; i++) {
        const PmsTraceRec *s = &g_array_index(spans, PmsTraceRec, i);
        xs[i + 1] = xs[i] + (s->cycles == 1 ? ONE_W : SPAN_W);
        for (guint t = 0; t < PMS_SIM_MAX_THREADS; t++)
            occ_max = MAX(occ_max, s->t.occ[t]);
        cmask = MAX(cmask, s->cfg.cmask);
        thres_gt = MAX(thres_gt, s->cfg.thres_gt);
        edge |= s->cfg.edge;
        inv |= s->cfg.inv;
    }
    occ_max = MAX(occ_max, (guint64)cmask);
    g_autofree char *thr_desc = thres_gt
        ? g_strdup_printf("threshold: 1 when n > %s (%s=%u: n \u2265 %u, dashed on the occ row)", thr, thr, thres_gt,
                          cmask)
        : cmask ? g_strdup_printf("threshold: 1 when n \u2265 %s (%s=%u; dashed on the occ row)", thr, thr, cmask)
                : g_strdup_printf("threshold: 1 when n > 0 (%s=0: no threshold)", thr);
    g_autofree char *cond_desc =
        g_strdup_printf("condition after the invert (i%s): what is counted",
                        inv ? (cmask ? "" : "; ignored while the threshold is 0") : " not set");
    Row rows[32];
    guint nr = 0;
    rows[nr++] = (Row){ "cycle", "the cycle, or the first\u2013last cycle of a span of identical cycles" };
    rows[nr++] = (Row){ m->smt ? "occ0" : "occ", "occurrences of the event's signal (thread 0), before any filter" };
    if (m->smt)
        rows[nr++] = (Row){ "occ1", "occurrences on the other thread (thread 1)" };
    rows[nr++] =
        (Row){ "cpl",
               m->smt ? "privilege level of thread 0/1 (0 kernel, 3 user)" : "privilege level (0 kernel, 3 user)" };
    rows[nr++] = (Row){ "n", "occurrences after the privilege filter (and any-thread combine)" };
    guint wave_row = nr;
    Wave shown[N_WAVES];
    guint nw = 0;
    for (guint w = 0; w < N_WAVES; w++) {
        if ((w == W_LATCH || w == W_EDGE) && !edge)
            continue;
        shown[nw++] = (Wave)w;
        static const char *const desc[N_WAVES] = {
            [W_GATE] = "privilege filter: 1 when the CPL is one the counter counts (u/k)",
            [W_LATCH] = "edge detector's latch: the condition of the cycle before",
            [W_EDGE] = "edge detector: 1 when the condition rises (e)",
            [W_EN] = "counter enabled: own enable, global control, not frozen",
        };
        rows[nr++] = (Row){ wave_names[w], w == W_THR ? thr_desc : w == W_COND ? cond_desc : desc[w] };
    }
    guint inc_row = nr;
    rows[nr++] = (Row){ "inc", "amount added to the counter in each cycle" };
    guint ctr_row = nr;
    g_autofree char *ctr_desc = g_strdup_printf("the counter after the cycle (%u bits, hex)", m->width);
    rows[nr++] = (Row){ "counter", ctr_desc };
    guint mark_row = nr;
    rows[nr++] = (Row){ "ovf", "carry out of the top bit: the overflow status bit is set" };
    rows[nr++] = (Row){ "pmi", "a performance-monitoring interrupt is raised" };
    rows[nr++] = (Row){ "frozen", "why the counter does not count (off, global-off, frozen ...)" };
    /* PEBS assists and LBR activity, when the run has any */
    gboolean pebs = FALSE, lbr = FALSE;
    for (guint i = 0; i < n; i++) {
        const PmsTraceRec *s = &g_array_index(spans, PmsTraceRec, i);
        pebs |= s->t.pebs_assist;
        lbr |= s->t.lbr_offered != 0;
    }
    guint pebs_row = nr;
    if (pebs)
        rows[nr++] = (Row){ "pebs", "a PEBS assist wrote a record into the DS buffer and reloaded the counter" };
    guint lbr_row = nr;
    if (lbr)
        rows[nr++] = (Row){ "lbr", "branches offered to the LBR / recorded (the rest filtered or lost), and its TOS" };

    /* wide enough for the legend's longest line and at least a short title line */
    double width = xs[n] + 20;
    width = MAX(width, 560);
    for (guint k = 0; k < nr; k++)
        width = MAX(width, 64 + g_utf8_strlen(rows[k].desc, -1) * CHAR_W(FONT) + 8);
    guint cols = (guint)((width - 8) / CHAR_W(FONT));
    g_autofree char *title = g_strdup_printf("%s on %s (%u bits)", m->event, m->counter, m->width);
    guint title_n = wrap_text(NULL, 0, 0, NULL, title, cols);
    double top = TOP + (title_n - 1) * 14;
    /* legend: the row descriptions, then the marks */
    guint legend_n = nr + 3;
    /* --sentences: every span's sentence, wrapped, under the legend */
    GPtrArray *said = g_ptr_array_new_with_free_func(g_free);
    guint said_n = 0;
    for (guint i = 0; m->sentences && i < n; i++) {
        GString *b = g_string_new(NULL);
        pms_trace_sentence(b, m, &g_array_index(spans, PmsTraceRec, i));
        said_n += wrap_text(NULL, 0, 0, NULL, b->str, cols);
        g_ptr_array_add(said, g_string_free(b, FALSE));
    }
    /* more PMIs than the footer's count tells: the first and the last with
     * their causes (as the table lists them), wrapped under the legend */
    if (sum->list && sum->list->total > PMS_TRACE_PMI_SHOWN) {
        GString *b = g_string_new("PMI at");
        pms_trace_pmi_list(b, sum->list);
        said_n += wrap_text(NULL, 0, 0, NULL, b->str, cols);
        g_ptr_array_add(said, g_string_free(b, FALSE));
    }
    double body_h = nr * ROW_H;
    double foot_y = top + body_h + 24;
    double legend_y = foot_y + 24;
    double said_y = legend_y + legend_n * 14 + 12;
    double height = said_y + (said_n ? said_n * 14 + 12 : 0);
    g_string_append_printf(o,
                           "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"pmusim-timing\" width=\"%.0f\" "
                           "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" data-spans=\"%u\">\n",
                           width, height, width, height, n);
    g_string_append(
        o,
        "<style>text{font-family:monospace;font-size:11px;fill:#222}"
        ".label{font-weight:bold}.wave{fill:none;stroke:#1565c0;stroke-width:2}"
        ".lvl{fill:#888;font-size:9px}.thrline{stroke:#e65100;stroke-dasharray:4 3}"
        ".thrlabel{fill:#e65100;font-size:9px}.desc{fill:#444}"
        ".bar{fill:#90caf9}.bus{fill:#e8f5e9;stroke:#2e7d32}.wrap{fill:#c62828}"
        ".ovf{fill:#c62828}.pmi{fill:#6a1b9a}.frozen{fill:#b0bec5}.off{fill:#eceff1}"
        ".x{fill:url(#pmusim-hatch);stroke:#9e9e9e}"
        ".grid{stroke:#ddd}.hit{fill:transparent}.hit:hover,.hit.on{fill:rgba(255,235,59,0.25)}</style>\n"
        "<defs><pattern id=\"pmusim-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
        "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#f5f5f5\"/>"
        "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#9e9e9e\" stroke-width=\"2\"/></pattern></defs>\n");
    wrap_text(o, 4, 16, "label title", title, cols);
    /* disabled spans shaded behind every row */
    for (guint i = 0; i < n; i++) {
        const PmsTraceRec *s = &g_array_index(spans, PmsTraceRec, i);
        if (!s->has_pipe)
            g_string_append_printf(o, "<rect class=\"off\" x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%.0f\"/>\n",
                                   xs[i], top, xs[i + 1] - xs[i], body_h);
    }
    for (guint k = 0; k < nr; k++) {
        double y = top + k * ROW_H;
        g_string_append_printf(o, "<text class=\"label\" x=\"4\" y=\"%.1f\">%s<title>", y + 19, rows[k].name);
        g_autofree char *d = g_markup_escape_text(rows[k].desc, -1);
        g_string_append_printf(o, "%s</title></text>\n", d);
        g_string_append_printf(o, "<line class=\"grid\" x1=\"0\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\"/>\n", y + ROW_H,
                               width, y + ROW_H);
    }
    for (guint i = 0; i <= n; i++)
        g_string_append_printf(o, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\"/>\n", xs[i],
                               top, xs[i], top + body_h);
    /* 0/1 level marks beside each waveform */
    for (guint k = 0; k < nw; k++) {
        double y = top + (wave_row + k) * ROW_H;
        g_string_append_printf(o, "<text class=\"lvl\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">1</text>\n", LEFT - 4,
                               y + WAVE_HI + 3);
        g_string_append_printf(o, "<text class=\"lvl\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">0</text>\n", LEFT - 4,
                               y + WAVE_LO + 3);
    }
    g_autoptr(GString) buf = g_string_new(NULL);
    for (guint i = 0; i < n; i++) {
        const PmsTraceRec *s = &g_array_index(spans, PmsTraceRec, i);
        double x = xs[i], w = xs[i + 1] - xs[i], cx = x + w / 2;
        guint k = 0;
        /* cycle(s): first-last */
        g_string_truncate(buf, 0);
        if (s->cycles == 1)
            g_string_append_printf(buf, "%" G_GUINT64_FORMAT, s->first);
        else
            g_string_append_printf(buf, "%" G_GUINT64_FORMAT "\u2013%" G_GUINT64_FORMAT, s->first, s->t.cycle);
        cell_text(o, cx, top + k++ * ROW_H + 19, "cyc", buf->str, w - 8);
        /* occurrences as bars */
        for (guint t = 0; t < (m->smt ? 2u : 1u); t++) {
            double y = top + k++ * ROW_H;
            double h = (ROW_H - 8) * (double)s->t.occ[t] / (double)occ_max;
            g_string_append_printf(o, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
                                   x + 4, y + ROW_H - 4 - h, w - 8, h);
            g_string_truncate(buf, 0);
            g_string_append_printf(buf, "%" G_GUINT64_FORMAT, s->t.occ[t]);
            cell_text(o, cx, y + 19, t ? "occ1" : "occ", buf->str, w - 8);
        }
        g_string_truncate(buf, 0);
        if (m->smt)
            g_string_append_printf(buf, "%u/%u", s->t.cpl[0], s->t.cpl[1]);
        else
            g_string_append_printf(buf, "%u", s->t.cpl[0]);
        cell_text(o, cx, top + k++ * ROW_H + 19, "cpl", buf->str, w - 8);
        g_string_truncate(buf, 0);
        if (s->has_pipe)
            g_string_append_printf(buf, "%" G_GUINT64_FORMAT, s->pipe.n);
        else
            g_string_append(buf, "-");
        cell_text(o, cx, top + k++ * ROW_H + 19, "n", buf->str, w - 8);
        /* stages not evaluated: hatched, as waveform viewers draw X */
        for (guint wv = 0; wv < nw; wv++)
            if (!wave_known(s, shown[wv]))
                g_string_append_printf(o,
                                       "<rect class=\"x\" data-stage=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                                       "height=\"%d\"/>\n",
                                       wave_names[shown[wv]], x + 1, top + (wave_row + wv) * ROW_H + WAVE_HI, w - 2,
                                       WAVE_LO - WAVE_HI);
        /* the increment: a value, not a level */
        g_string_truncate(buf, 0);
        if (!s->has_pipe)
            g_string_append(buf, "-");
        else
            g_string_append_printf(buf, "+%" G_GUINT64_FORMAT "%s", s->t.inc, s->cycles > 1 ? " each" : "");
        cell_text(o, cx, top + inc_row * ROW_H + 19, "inc", buf->str, w - 8);
        /* the counter: a bus cell with the value after the span */
        double cy = top + ctr_row * ROW_H;
        g_string_append_printf(o,
                               "<polygon class=\"bus\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f "
                               "%.1f,%.1f\"/>\n",
                               x + 1, cy + 15, x + 5, cy + 4, x + w - 5, cy + 4, x + w - 1, cy + 15, x + w - 5, cy + 26,
                               x + 5, cy + 26);
        g_string_truncate(buf, 0);
        pms_trace_hex(buf, s->t.value, m->width);
        cell_text(o, cx, cy + 19, "ctr", buf->str, w - 12);
        if (s->t.carries)
            g_string_append_printf(o, "<rect class=\"wrap\" x=\"%.1f\" y=\"%.1f\" width=\"3\" height=\"%d\"/>\n",
                                   x + w - 3, cy + 2, ROW_H - 4);
        /* markers */
        double my = top + mark_row * ROW_H;
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
        if (s->t.pebs_assist)
            cell_text(o, cx, top + pebs_row * ROW_H + 19, "pebs", "record", w - 8);
        if (s->t.lbr_offered) {
            g_string_truncate(buf, 0);
            g_string_append_printf(buf, "%u/%u TOS %u", s->t.lbr_new, s->t.lbr_offered, s->t.lbr_tos);
            cell_text(o, cx, top + lbr_row * ROW_H + 19, "lbr", buf->str, w - 8);
        }
        if (!s->has_pipe) {
            g_string_truncate(buf, 0);
            pms_trace_off_words(buf, s->t.off);
            if (s->t.off & PMS_SIM_OFF_FROZEN)
                g_string_append_printf(o,
                                       "<rect class=\"frozen\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                                       "height=\"%d\"/>\n",
                                       x, my + 2 * ROW_H + 4, w, ROW_H - 8);
            cell_text(o, cx, my + 2 * ROW_H + 19, "why", buf->str, w - 8);
        }
    }
    /* the threshold on the occurrence row(s) */
    if (cmask) {
        for (guint t = 0; t < (m->smt ? 2u : 1u); t++) {
            double y = top + (1 + t) * ROW_H + ROW_H - 4 - (ROW_H - 8) * (double)cmask / (double)occ_max;
            g_string_append_printf(o, "<line class=\"thrline\" x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", LEFT,
                                   y, xs[n], y);
            g_string_append_printf(o, "<text class=\"thrlabel\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s=%u</text>\n",
                                   LEFT - 4, y + 3, thr, thres_gt ? thres_gt : cmask);
        }
    }
    /* one waveform per stage, broken where the stage was not evaluated */
    for (guint wv = 0; wv < nw; wv++) {
        double y = top + (wave_row + wv) * ROW_H;
        for (guint i = 0; i < n;) {
            const PmsTraceRec *s = &g_array_index(spans, PmsTraceRec, i);
            if (!wave_known(s, shown[wv])) {
                i++;
                continue;
            }
            g_string_append_printf(o, "<polyline class=\"wave\" data-stage=\"%s\" data-hi=\"%.1f\" points=\"",
                                   wave_names[shown[wv]], y + WAVE_HI);
            guint from = i;
            for (; i < n && wave_known(&g_array_index(spans, PmsTraceRec, i), shown[wv]); i++) {
                const PmsTraceRec *si = &g_array_index(spans, PmsTraceRec, i);
                double yv = y + (wave_value(si, shown[wv]) ? WAVE_HI : WAVE_LO);
                g_string_append_printf(o, "%s%.1f,%.1f %.1f,%.1f", i > from ? " " : "", xs[i], yv, xs[i + 1], yv);
            }
            g_string_append(o, "\"/>\n");
        }
    }
    /* hover targets, each with its sentence */
    for (guint i = 0; i < n; i++) {
        const PmsTraceRec *s = &g_array_index(spans, PmsTraceRec, i);
        g_string_truncate(buf, 0);
        pms_trace_sentence(buf, m, s);
        g_autofree char *esc = g_markup_escape_text(buf->str, -1);
        g_string_append_printf(o,
                               "<rect class=\"hit\" data-i=\"%u\" x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" "
                               "height=\"%.0f\"><title>%s</title></rect>\n",
                               i, xs[i], top, xs[i + 1] - xs[i], body_h, esc);
    }
    g_autofree char *foot = g_strdup_printf(
        "%" G_GUINT64_FORMAT " cycles; count=%" G_GUINT64_FORMAT " overflow=%d; %" G_GUINT64_FORMAT " PMI%s",
        sum->cycles, sum->count, sum->overflow ? 1 : 0, sum->pmi_total, sum->pmi_total == 1 ? "" : "s");
    text(o, 4, foot_y, "label", "start", foot);
    /* the legend: every row in words, then the marks */
    g_string_append_printf(o, "<g class=\"legend\">\n");
    for (guint k = 0; k < nr; k++) {
        text(o, 4, legend_y + k * 14, "label", "start", rows[k].name);
        text(o, 64, legend_y + k * 14, "desc", "start", rows[k].desc);
    }
    double ly = legend_y + nr * 14;
    g_string_append_printf(o, "<rect class=\"x\" x=\"4\" y=\"%.1f\" width=\"40\" height=\"10\"/>\n", ly - 9);
    text(o, 64, ly, "desc", "start", "not evaluated: the counter was off, so its stages did not run (not 0)");
    g_string_append_printf(o, "<polyline class=\"wave\" points=\"4,%.1f 24,%.1f 24,%.1f 44,%.1f\"/>\n", ly + 14 - 1,
                           ly + 14 - 1, ly + 14 - 9, ly + 14 - 9);
    text(o, 64, ly + 14, "desc", "start", "a stage's level: low 0, high 1");
    g_string_append_printf(o, "<rect class=\"wrap\" x=\"4\" y=\"%.1f\" width=\"3\" height=\"10\"/>\n", ly + 28 - 9);
    text(o, 64, ly + 28, "desc", "start", "red bar: the counter wrapped past its top bit");
    g_string_append(o, "</g>\n");
    if (said->len) {
        g_string_append(o, "<g class=\"said\">\n");
        double y = said_y;
        for (guint i = 0; i < said->len; i++)
            y += 14 * wrap_text(o, 4, y, "desc", g_ptr_array_index(said, i), cols);
        g_string_append(o, "</g>\n");
    }
    g_ptr_array_unref(said);
    g_string_append(o, "</svg>\n");
}

/* A register value as a bit-field diagram under a caption: a row of cells,
 * one per field (and per run of bits no field names), high bits first; the
 * fields with a bit in `changed` are marked. */
static void reg_fields(GString *o, const PmsRegister *reg, guint64 value, guint64 changed, const char *caption)
{
    g_autofree char *cap = g_markup_escape_text(caption, -1);
    g_string_append_printf(o, "<h3>%s</h3>\n<table class=\"bits\"><tr>\n", cap);
    const PmsLayout *l = reg ? reg->layout : NULL;
    guint top = reg && reg->width ? reg->width : 64;
    for (int b = (int)top - 1; b >= 0;) {
        const PmsField *f = NULL;
        for (guint i = 0; l && i < l->n_fields; i++)
            if (l->fields[i].shift + l->fields[i].width - 1 == (guint)b)
                f = &l->fields[i];
        if (f) {
            g_autofree char *fn = g_markup_escape_text(f->name, -1);
            gboolean chg = pms_field_get(f, changed) != 0;
            g_string_append_printf(
                o, "<td colspan=\"%u\" class=\"field%s\" title=\"bits %u:%u\">%s<br/>0x%" G_GINT64_MODIFIER "x</td>\n",
                f->width, chg ? " chg" : "", f->shift + f->width - 1, f->shift, fn, pms_field_get(f, value));
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
        guint nb = (guint)(b - lo + 1);
        guint64 mask = nb >= 64 ? G_MAXUINT64 : ((guint64)1 << nb) - 1;
        guint64 bits = (value >> lo) & mask;
        gboolean chg = ((changed >> lo) & mask) != 0;
        g_string_append_printf(
            o, "<td colspan=\"%d\" class=\"rsvd%s\" title=\"bits %d:%d\">-<br/>0x%" G_GINT64_MODIFIER "x</td>\n",
            b - lo + 1, chg ? " chg" : "", b, lo, bits);
        b = lo - 1;
    }
    g_string_append(o, "</tr></table>\n");
}

/* The registers in effect: each watched register at the start and at every
 * change (reg_panel.h). */
static void panel_html(GString *o, const PmsRegPanel *p, guint width)
{
    g_string_append(
        o,
        "<h2>Registers in effect</h2>\n<p class=\"note\">As the simulator held them: at the start of the "
        "run (after the encoding's writes), then at the first cycle after which the simulator held a new value, "
        "whether the stimulus wrote it or the device changed it (changed fields marked).</p>\n");
    g_autoptr(GString) cap = g_string_new(NULL);
    for (guint i = 0; i < p->regs->len; i++) {
        const PmsPanelReg *w = g_ptr_array_index(p->regs, i);
        g_autofree char *name = g_markup_escape_text(w->reg->name, -1);
        g_string_append_printf(o, "<div class=\"reg\" data-reg=\"%s\">\n", name);
        g_string_truncate(cap, 0);
        g_string_append_printf(cap, "%s (0x%x) at the start: 0x%" G_GINT64_MODIFIER "x (%s)", w->reg->name,
                               w->reg->address, w->start, w->origin);
        reg_fields(o, w->reg, w->start, 0, cap->str);
        guint64 prev = w->start;
        for (guint k = 0; k < w->changes->len; k++) {
            const PmsPanelChange *c = &g_array_index(w->changes, PmsPanelChange, k);
            g_string_truncate(cap, 0);
            if (c->after)
                g_string_append(cap, "after the last cycle");
            else if (c->first == c->last)
                g_string_append_printf(cap, "cycle %" G_GUINT64_FORMAT, c->first);
            else
                g_string_append_printf(cap, "cycles %" G_GUINT64_FORMAT "\u2013%" G_GUINT64_FORMAT, c->first, c->last);
            g_string_append_printf(cap, ": %s = 0x%" G_GINT64_MODIFIER "x", w->reg->name, c->value);
            reg_fields(o, w->reg, c->value, prev ^ c->value, cap->str);
            prev = c->value;
        }
        g_string_append(o, "</div>\n");
    }
    (void)width;
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
                           "td.field{background:#e3f2fd}td.chg{outline:3px solid #e65100;font-weight:bold}"
                           ".say{min-height:2.5em;padding:4px;"
                           "background:#fffde7;border:1px solid #ccc}ol.said li.on{background:#fff59d}"
                           "h3{font-size:13px;margin:0.6em 0 0.2em}</style></head>\n<body>\n"
                           "<h1>%s</h1>\n",
                           title, title);
    if (m->panel)
        panel_html(o, m->panel, 0);
    else {
        g_string_append(o, "<h2>Registers the encoder sets</h2>\n");
        for (guint i = 0; i < m->n_writes; i++) {
            const PmsRegWrite *w = &m->writes[i];
            g_autofree char *cap =
                g_strdup_printf("%s (0x%x) = 0x%" G_GINT64_MODIFIER "x", w->name, w->address, w->value);
            reg_fields(o, w->reg, w->value, 0, cap);
        }
    }
    g_string_append(o, "<h2>Timing</h2>\n<div class=\"say\">Hover a cycle to read what happened in it.</div>\n");
    draw(o, m, st->spans, sum);
    /* the sentences, visible (print, screenshots): one item per span */
    g_autoptr(GString) buf = g_string_new(NULL);
    g_string_append(o, "<ol class=\"said\">\n");
    for (guint i = 0; i < st->spans->len; i++) {
        g_string_truncate(buf, 0);
        pms_trace_sentence(buf, m, &g_array_index(st->spans, PmsTraceRec, i));
        g_autofree char *esc = g_markup_escape_text(buf->str, -1);
        g_string_append_printf(o, "<li data-i=\"%u\">%s</li>\n", i, esc);
    }
    g_string_append(o, "</ol>\n");
    /* the script serves the diagram and list just before it (a page may
     * hold several): hovering a span shows its sentence above the diagram
     * and marks it in the list; hovering an item marks its span */
    g_string_append(o,
                    "<script>\n{\nconst list = document.currentScript.previousElementSibling;\n"
                    "const svg = list.previousElementSibling;\n"
                    "const say = svg.previousElementSibling;\n"
                    "const hits = svg.querySelectorAll('rect.hit');\n"
                    "for (const h of hits)\n"
                    "  h.addEventListener('mouseenter', () => {\n"
                    "    say.textContent = list.children[+h.dataset.i].textContent;\n"
                    "    for (const li of list.children) li.classList.toggle('on', li.dataset.i === h.dataset.i);\n"
                    "  });\n"
                    "for (const li of list.children)\n"
                    "  li.addEventListener('mouseenter', () => {\n"
                    "    for (const h of hits) h.classList.toggle('on', h.dataset.i === li.dataset.i);\n"
                    "  });\n}\n</script>\n");
    g_autofree char *foot =
        g_strdup_printf("count=%" G_GUINT64_FORMAT " overflow=%d", sum->count, sum->overflow ? 1 : 0);
    g_string_append_printf(o, "<p>%s</p>\n</body></html>\n", foot);
}

const PmsTraceFormat pms_trace_svg = { "svg", sizeof(SvgState), svg_begin, record, end, clear };
const PmsTraceFormat pms_trace_html = { "html", sizeof(SvgState), html_begin, record, end, clear };
