/* pmusim — the reporter table and what every format shares. */
#include "trace_report.h"

#include <string.h>

static const PmsTraceFormat *const formats[] = { &pms_trace_table, &pms_trace_csv, &pms_trace_json,
                                                 &pms_trace_vcd,   &pms_trace_svg, &pms_trace_html };

const PmsTraceFormat *pms_trace_format(const char *name)
{
    for (gsize i = 0; i < G_N_ELEMENTS(formats); i++)
        if (strcmp(formats[i]->name, name) == 0)
            return formats[i];
    return NULL;
}

const char *pms_trace_format_names(void)
{
    return "table, csv, json, vcd, svg, html";
}

PmsTraceReporter *pms_trace_reporter_new(const PmsTraceFormat *fmt, const PmsTraceMeta *meta)
{
    PmsTraceReporter *r = g_new0(PmsTraceReporter, 1);
    r->fmt = fmt;
    r->out = g_string_new(NULL);
    r->meta = *meta;
    r->priv = fmt->priv_size ? g_malloc0(fmt->priv_size) : NULL;
    fmt->begin(r, meta);
    return r;
}

void pms_trace_reporter_free(PmsTraceReporter *r)
{
    if (!r)
        return;
    if (r->fmt->clear)
        r->fmt->clear(r);
    g_string_free(r->out, TRUE);
    g_free(r->priv);
    g_free(r);
}

void pms_trace_pmis_get(PmsTracePmis *p, const PmsSim *sim)
{
    guint n;
    p->sim = sim;
    p->head = pms_sim_pmis(sim, &p->n_head);
    p->head_cause = pms_sim_pmi_causes(sim, &n);
    p->n_tail = pms_sim_pmi_tail(sim, p->tail, p->tail_cause);
    p->total = pms_sim_pmi_total(sim);
}

void pms_trace_cause_words(GString *out, const PmsTracePmis *p, guint64 cause)
{
    const char *sep = "";
    for (guint b = 0; b < 64; b++) {
        if (!(cause >> b & 1))
            continue;
        const PmsRegister *r = p->sim ? pms_sim_pmi_cause_counter(p->sim, b) : NULL;
        if (r)
            g_string_append_printf(out, "%s%s", sep, r->name);
        else
            g_string_append_printf(out, "%scounter %u", sep, b);
        sep = "+";
    }
}

/* PMI i (0-based) of the kept ones: the first, then the last */
static void pmi_item(GString *out, const PmsTracePmis *p, guint i, gboolean comma)
{
    guint64 cycle = i < p->n_head ? p->head[i] : p->tail[i - p->n_head];
    guint64 cause = i < p->n_head ? (p->head_cause ? p->head_cause[i] : 0) : p->tail_cause[i - p->n_head];
    g_string_append_printf(out, "%s %" G_GUINT64_FORMAT " [", comma ? "," : "", cycle);
    pms_trace_cause_words(out, p, cause);
    g_string_append_c(out, ']');
}

void pms_trace_pmi_list(GString *out, const PmsTracePmis *p)
{
    enum { SHOWN = PMS_TRACE_PMI_SHOWN };
    if (p->total == 0)
        g_string_append(out, " no cycle");
    if (p->total <= SHOWN) {
        /* all of them, as they always were shown */
        for (guint i = 0; i < p->n_head && i < SHOWN; i++)
            g_string_append_printf(out, "%s %" G_GUINT64_FORMAT, i ? "," : "", p->head[i]);
        return;
    }
    guint kept = p->n_head + p->n_tail; /* the first kept, then the last */
    guint first = MIN(SHOWN, p->n_head), from = kept - MIN(SHOWN, kept - first);
    for (guint i = 0; i < first; i++)
        pmi_item(out, p, i, i > 0);
    guint64 between = p->total - first - (kept - from);
    if (between)
        g_string_append_printf(out, ", ... %" G_GUINT64_FORMAT " more ...", between);
    for (guint i = from; i < kept; i++)
        pmi_item(out, p, i, TRUE);
    g_string_append_printf(out, " (%" G_GUINT64_FORMAT " PMIs in all)", p->total);
}

void pms_trace_summary_pmis(GString *out, const PmsTraceSummary *s)
{
    if (s->list) {
        pms_trace_pmi_list(out, s->list);
        return;
    }
    PmsTracePmis p = { .head = s->pmis, .n_head = s->n_pmis, .total = s->pmi_total };
    pms_trace_pmi_list(out, &p);
}

void pms_trace_summary_line(GString *out, const PmsTraceSummary *s)
{
    g_string_append_printf(out, "count=%" G_GUINT64_FORMAT " overflow=%d\n", s->count, s->overflow ? 1 : 0);
}
