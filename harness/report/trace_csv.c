/* pmusim — trace as CSV (RFC 4180, one header row, one row per cycle or
 * span; no comment or summary rows so any CSV reader takes it as is).
 *
 * Every stage the table shows.  The first ten columns are the original
 * ones; the stages added after them keep old readers working.  A stage that
 * was not evaluated (the counter was off that cycle) is an empty field,
 * never 0; latch and edge are empty unless the event sets e; per-thread
 * columns (occ1, cpl1, gate1) only on PMUs with a second thread. */
#include "trace_report.h"

typedef struct {
    gboolean smt;
} CsvState;

static void begin(PmsTraceReporter *r, const PmsTraceMeta *m)
{
    CsvState *st = r->priv;
    st->smt = m->smt;
    g_string_append(r->out, "cycle,enabled,n,cond,edge,inc,counter,overflow,status,pmi,first,cycles,occ0,");
    if (m->smt)
        g_string_append(r->out, "occ1,");
    g_string_append(r->out, "cpl0,");
    if (m->smt)
        g_string_append(r->out, "cpl1,");
    g_string_append(r->out, "gate0,");
    if (m->smt)
        g_string_append(r->out, "gate1,");
    g_string_append(r->out, "thr,latch,why\n");
}

static void bit(GString *o, gboolean known, gboolean v)
{
    if (known)
        g_string_append_c(o, v ? '1' : '0');
    g_string_append_c(o, ',');
}

static void record(PmsTraceReporter *r, const PmsSimTrace *t)
{
    CsvState *st = r->priv;
    GString *o = r->out;
    const PmsPipeOut *p = t->pipe;
    gboolean e = t->cfg && t->cfg->edge && t->has_latch;
    guint64 cycles = t->cycles ? t->cycles : 1;
    g_string_append_printf(o, "%" G_GUINT64_FORMAT ",%d,", t->cycle, t->enabled);
    if (p)
        g_string_append_printf(o, "%" G_GUINT64_FORMAT, t->n);
    g_string_append_c(o, ',');
    bit(o, p != NULL, t->cond);
    bit(o, p && e, t->edge);
    if (p)
        g_string_append_printf(o, "%" G_GUINT64_FORMAT, t->inc);
    g_string_append_printf(o, ",%" G_GUINT64_FORMAT ",%d,0x%" G_GINT64_MODIFIER "x,%d,", t->value, t->overflow,
                           t->status, t->pmi);
    g_string_append_printf(o, "%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",", t->cycle + 1 - cycles, cycles);
    for (guint i = 0; i < (st->smt ? 2u : 1u); i++)
        g_string_append_printf(o, "%" G_GUINT64_FORMAT ",", t->occ[i]);
    for (guint i = 0; i < (st->smt ? 2u : 1u); i++)
        g_string_append_printf(o, "%u,", t->cpl[i]);
    for (guint i = 0; i < (st->smt ? 2u : 1u); i++)
        bit(o, p != NULL, p && p->gate[i]);
    bit(o, p != NULL, p && p->thr);
    bit(o, e, t->latch_before);
    if (!p)
        pms_trace_off_words(o, t->off);
    g_string_append_c(o, '\n');
}

static void end(PmsTraceReporter *r, const PmsTraceSummary *s)
{
    (void)r;
    (void)s;
}

const PmsTraceFormat pms_trace_csv = { "csv", sizeof(CsvState), begin, record, end, NULL };
