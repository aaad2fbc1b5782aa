/* pmusim — trace as CSV (RFC 4180, one header row, one row per cycle; no
 * comment or summary rows so any CSV reader takes it as is). */
#include "trace_report.h"

static void begin(PmsTraceReporter *r, const PmsTraceMeta *m)
{
    (void)m;
    g_string_append(r->out, "cycle,enabled,n,cond,edge,inc,counter,overflow,status,pmi\n");
}

static void record(PmsTraceReporter *r, const PmsSimTrace *t)
{
    g_string_append_printf(r->out,
                           "%" G_GUINT64_FORMAT ",%d,%" G_GUINT64_FORMAT ",%d,%d,%" G_GUINT64_FORMAT
                           ",%" G_GUINT64_FORMAT ",%d,0x%" G_GINT64_MODIFIER "x,%d\n",
                           t->cycle, t->enabled, t->n, t->cond, t->edge, t->inc, t->value, t->overflow, t->status,
                           t->pmi);
}

static void end(PmsTraceReporter *r, const PmsTraceSummary *s)
{
    (void)r;
    (void)s;
}

const PmsTraceFormat pms_trace_csv = { "csv", 0, begin, record, end, NULL };
