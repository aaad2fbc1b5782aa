/* pmusim — trace as an aligned table for people; ends with the summary line
 * `count=N overflow=B` (the experiment's answer, always the last line). */
#include "trace_report.h"

static void begin(PmsTraceReporter *r, const PmsTraceMeta *m)
{
    g_string_append_printf(r->out, "# %s on %s (%u bits), %s engine\n", m->event, m->counter, m->width, m->engine);
    if (!m->per_cycle) {
        g_string_append(r->out, "# the fast engine advances whole runs: no per-cycle trace\n");
        return;
    }
    g_string_append_printf(r->out, "%10s %2s %10s %4s %4s %10s %16s %3s %18s %3s\n", "cycle", "en", "n", "cond",
                           "edge", "inc", "counter", "ovf", "status", "pmi");
}

static void record(PmsTraceReporter *r, const PmsSimTrace *t)
{
    if (!t->enabled) {
        g_string_append_printf(r->out, "%10" G_GUINT64_FORMAT " %2d %10s %4s %4s %10s %16" G_GUINT64_FORMAT
                               " %3d 0x%016" G_GINT64_MODIFIER "x %3d\n",
                               t->cycle, 0, "-", "-", "-", "-", t->value, t->overflow, t->status, t->pmi);
        return;
    }
    g_string_append_printf(r->out, "%10" G_GUINT64_FORMAT " %2d %10" G_GUINT64_FORMAT " %4d %4d %10" G_GUINT64_FORMAT
                           " %16" G_GUINT64_FORMAT " %3d 0x%016" G_GINT64_MODIFIER "x %3d\n",
                           t->cycle, 1, t->n, t->cond, t->edge, t->inc, t->value, t->overflow, t->status, t->pmi);
}

static void end(PmsTraceReporter *r, const PmsTraceSummary *s)
{
    g_string_append_printf(r->out, "# %" G_GUINT64_FORMAT " cycles; %s 0x%" G_GINT64_MODIFIER "x; PMI at",
                           s->cycles, r->meta.status_reg ? r->meta.status_reg : "GLOBAL_STATUS", s->status);
    pms_trace_pmi_list(r->out, s->pmis, s->n_pmis, s->pmi_total);
    g_string_append_c(r->out, '\n');
    pms_trace_summary_line(r->out, s);
}

const PmsTraceFormat pms_trace_table = { "table", 0, begin, record, end };
