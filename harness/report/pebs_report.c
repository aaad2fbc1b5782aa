/* pmusim — the PEBS records of a simulation as text (see pebs_report.h). */
#include "pebs_report.h"
#include "json_out.h"
#include "pebs.h"

/* The run's records and DS area; FALSE when it used no PEBS (no DS area
 * set, no record written): then nothing is reported. */
static gboolean pebs_used(const PmsSim *sim, PmsPebsDs *ds, const PmsPebsRecord **r, guint *n, guint64 *total)
{
    *r = pms_sim_pebs_records(sim, n, total);
    pms_sim_get_pebs_ds(sim, ds);
    return *total || ds->base || ds->max;
}

void pms_pebs_report(GString *out, const PmsSim *sim)
{
    PmsPebsDs ds;
    guint n;
    guint64 total;
    const PmsPebsRecord *r;
    if (!pebs_used(sim, &ds, &r, &n, &total))
        return;
    g_string_append_printf(out,
                           "# PEBS: %" G_GUINT64_FORMAT " record%s; DS index 0x%" G_GINT64_MODIFIER
                           "x (base 0x%" G_GINT64_MODIFIER "x, threshold 0x%" G_GINT64_MODIFIER
                           "x, maximum 0x%" G_GINT64_MODIFIER "x)\n",
                           total, total == 1 ? "" : "s", ds.index, ds.base, ds.threshold, ds.max);
    for (guint i = 0; i < n; i++) {
        g_string_append_printf(out,
                               "# PEBS record %u: cycle %" G_GUINT64_FORMAT " PMC%u at 0x%" G_GINT64_MODIFIER "x:", i,
                               r[i].cycle, r[i].counter, r[i].address);
        for (guint f = 0; f < r[i].n_fields; f++) {
            const char *name = pms_pebs_field_name(r[i].format, f);
            /* the general registers only when set: a record is 22 fields */
            if (r[i].field[f] == 0 && f >= 2 && f < 18)
                continue;
            g_string_append_printf(out, " %s=0x%" G_GINT64_MODIFIER "x", name ? name : "?", r[i].field[f]);
        }
        g_string_append_c(out, '\n');
    }
    if (total > n)
        g_string_append_printf(out, "# (%" G_GUINT64_FORMAT " more records not listed)\n", total - n);
}

gboolean pms_pebs_report_json(GString *out, const PmsSim *sim)
{
    PmsPebsDs ds;
    guint n;
    guint64 total;
    const PmsPebsRecord *r;
    if (!pebs_used(sim, &ds, &r, &n, &total))
        return FALSE;
    g_string_append_printf(out, "\"pebs\": {\"records\": %" G_GUINT64_FORMAT ", \"ds\": {\"index\": ", total);
    pms_json_hex(out, ds.index);
    g_string_append(out, ", \"base\": ");
    pms_json_hex(out, ds.base);
    g_string_append(out, ", \"threshold\": ");
    pms_json_hex(out, ds.threshold);
    g_string_append(out, ", \"max\": ");
    pms_json_hex(out, ds.max);
    g_string_append(out, "}, \"listed\": [");
    for (guint i = 0; i < n; i++) {
        g_string_append_printf(out, "%s\n    {\"cycle\": %" G_GUINT64_FORMAT ", \"counter\": %u, \"address\": ",
                               i ? "," : "", r[i].cycle, r[i].counter);
        pms_json_hex(out, r[i].address);
        g_string_append(out, ", \"fields\": {");
        for (guint f = 0; f < r[i].n_fields; f++) {
            const char *name = pms_pebs_field_name(r[i].format, f);
            g_string_append(out, f ? ", " : "");
            pms_json_str(out, name ? name : "?");
            g_string_append(out, ": ");
            pms_json_hex(out, r[i].field[f]);
        }
        g_string_append(out, "}}");
    }
    g_string_append(out, n ? "\n  ]}" : "]}");
    return TRUE;
}
