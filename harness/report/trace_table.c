/* pmusim — trace as an aligned table for people; ends with the summary line
 * `count=N overflow=B` (the experiment's answer, always the last line).
 *
 * One row per cycle, the columns in the order the simulator applies the
 * stages (docs/sim-cli.md): occurrences per thread, CPL, the privilege gate,
 * n after the any-thread combine, the threshold comparison, the condition
 * after invert, the edge latch before the cycle and the edge, the increment,
 * the counter in hex at its width, overflow, status, PMI, enable and why
 * not.  With meta.explain, one sentence per span of alike cycles follows the
 * rows (trace_teach.c). */
#include "trace_report.h"
#include "lbr_report.h"

/* The cycle column: a cycle, or a span's first-last cycles. */
static int cycle_w(const PmsTraceMeta *m)
{
    return m->per_cycle ? 10 : 27;
}

typedef struct {
    GString *sentences;
    gboolean have; /* span holds the cycles not yet told */
    PmsTraceRec span;
} TableState;

static void begin(PmsTraceReporter *r, const PmsTraceMeta *m)
{
    g_string_append_printf(r->out, "# %s on %s (%u bits), %s engine\n", m->event, m->counter, m->width, m->engine);
    if (!m->per_cycle)
        g_string_append(r->out,
                        "# the fast engine advances whole runs: one row per span of identical cycles "
                        "(first-last), no row per cycle\n");
    guint hexw = 2 + (m->width && m->width < 64 ? (m->width + 3) / 4 : 16);
    hexw += (hexw - 3) / 4;
    g_string_append_printf(r->out, "%*s %6s", cycle_w(m), m->per_cycle ? "cycle" : "cycles", "occ");
    if (m->smt)
        g_string_append_printf(r->out, " %6s", "occ1");
    g_string_append_printf(r->out, " %3s %4s %6s %3s %4s %5s %4s %6s %*s %3s %18s %3s %2s %s\n", "cpl", "gate", "n",
                           "thr", "cond", "latch", "edge", "inc", (int)hexw, "counter", "ovf", "status", "pmi", "en",
                           "why");
}

static void told(TableState *st, PmsTraceReporter *r)
{
    if (!st->have)
        return;
    pms_trace_sentence(st->sentences, &r->meta, &st->span);
    g_string_append_c(st->sentences, '\n');
    st->have = FALSE;
}

static void record(PmsTraceReporter *r, const PmsSimTrace *t)
{
    TableState *st = r->priv;
    const PmsTraceMeta *m = &r->meta;
    const PmsPipeOut *p = t->pipe;
    const PmsPipeCfg *c = t->cfg;
    GString *o = r->out;
    if (t->cycles > 1) {
        g_autofree char *span =
            g_strdup_printf("%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT, t->cycle + 1 - t->cycles, t->cycle);
        g_string_append_printf(o, "%*s %6" G_GUINT64_FORMAT, cycle_w(m), span, t->occ[0]);
    } else
        g_string_append_printf(o, "%*" G_GUINT64_FORMAT " %6" G_GUINT64_FORMAT, cycle_w(m), t->cycle, t->occ[0]);
    if (m->smt)
        g_string_append_printf(o, " %6" G_GUINT64_FORMAT, t->occ[1]);
    if (m->smt)
        g_string_append_printf(o, " %u/%u", t->cpl[0], t->cpl[1]);
    else
        g_string_append_printf(o, " %3u", t->cpl[0]);
    if (!p)
        g_string_append_printf(o, " %4s %6s %3s %4s %5s %4s %6s", "-", "-", "-", "-", "-", "-", "-");
    else {
        char gate[8];
        if (m->smt)
            g_snprintf(gate, sizeof gate, "%d/%d", p->gate[0], p->gate[1]);
        else
            g_snprintf(gate, sizeof gate, "%d", p->gate[0]);
        g_string_append_printf(o, " %4s", gate);
        gboolean edge = c && c->edge && t->has_latch;
        g_string_append_printf(o, " %6" G_GUINT64_FORMAT " %3d %4d %5s %4s %6" G_GUINT64_FORMAT, p->n, p->thr, p->cond,
                               edge ? (t->latch_before ? "1" : "0") : "-", edge ? (p->edge ? "1" : "0") : "-", t->inc);
    }
    g_autoptr(GString) hex = g_string_new(NULL);
    pms_trace_hex(hex, t->value, m->width);
    g_string_append_printf(o, " %s %3d 0x%016" G_GINT64_MODIFIER "x %3d %2d ", hex->str, t->overflow, t->status, t->pmi,
                           p != NULL);
    if (p)
        g_string_append_c(o, '-');
    else
        pms_trace_off_words(o, t->off);
    if (t->pebs_assist) /* only on such rows: the other rows stay as they were */
        g_string_append(o, "  PEBS assist: record written, counter reloaded");
    g_string_append_c(o, '\n');
    g_autoptr(GString) lbr = g_string_new(NULL);
    pms_lbr_trace_words(lbr, t); /* a line of its own where branches came */
    if (lbr->len)
        g_string_append_printf(o, "%*s %s\n", cycle_w(m), "lbr:", lbr->str);
    if (!m->explain)
        return;
    if (lbr->len) {
        /* the branches get a sentence of their own, after the span before */
        told(st, r);
        g_string_append_printf(st->sentences, "cycle %" G_GUINT64_FORMAT ": %s.\n", t->cycle, lbr->str);
    }
    if (st->have && pms_trace_rec_same(&st->span, t)) {
        pms_trace_rec_extend(&st->span, t);
        return;
    }
    told(st, r);
    pms_trace_rec_set(&st->span, t);
    st->have = TRUE;
}

static void end(PmsTraceReporter *r, const PmsTraceSummary *s)
{
    TableState *st = r->priv;
    if (st->sentences) {
        told(st, r);
        g_string_append(r->out, st->sentences->str);
        g_string_free(st->sentences, TRUE);
        st->sentences = NULL;
    }
    if (r->meta.status_reg)
        g_string_append_printf(r->out, "# %" G_GUINT64_FORMAT " cycles; %s 0x%" G_GINT64_MODIFIER "x; PMI at",
                               s->cycles, r->meta.status_reg, s->status);
    else /* AMD before PerfMonV2: an overflow is only the wrap and the interrupt */
        g_string_append_printf(r->out, "# %" G_GUINT64_FORMAT " cycles; no overflow status register; PMI at",
                               s->cycles);
    pms_trace_summary_pmis(r->out, s);
    g_string_append_c(r->out, '\n');
    pms_trace_summary_line(r->out, s);
}

static void clear(PmsTraceReporter *r)
{
    TableState *st = r->priv;
    if (st->sentences)
        g_string_free(st->sentences, TRUE);
}

static void table_begin(PmsTraceReporter *r, const PmsTraceMeta *m)
{
    TableState *st = r->priv;
    if (m->explain)
        st->sentences = g_string_new(NULL);
    begin(r, m);
}

const PmsTraceFormat pms_trace_table = { "table", sizeof(TableState), table_begin, record, end, clear };
