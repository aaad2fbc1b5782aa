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

void pms_trace_pmi_list(GString *out, const guint64 *pmis, guint n, guint64 total)
{
    enum { SHOWN = 16 };
    if (total == 0)
        g_string_append(out, " no cycle");
    for (guint i = 0; i < n && i < SHOWN; i++)
        g_string_append_printf(out, "%s %" G_GUINT64_FORMAT, i ? "," : "", pmis[i]);
    if (total > SHOWN)
        g_string_append_printf(out, " ... (%" G_GUINT64_FORMAT " PMIs in all)", total);
}

void pms_trace_summary_line(GString *out, const PmsTraceSummary *s)
{
    g_string_append_printf(out, "count=%" G_GUINT64_FORMAT " overflow=%d\n", s->count, s->overflow ? 1 : 0);
}
