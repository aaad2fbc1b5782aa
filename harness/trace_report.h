/* pmusim — per-cycle trace reporters for `pmusim sim`: one counter's pipeline
 * (occurrences, threshold output, edge, increment, counter, overflow, status,
 * PMI) rendered as table, csv, json or vcd.  Each format is one file
 * (trace_<format>.c); a reporter appends to a GString so the command writes
 * nothing until the whole run succeeded (no partial output). */
#pragma once

#include <glib.h>
#include "sim.h"

G_BEGIN_DECLS

/* What is traced. */
typedef struct {
    const char *pmu;       /* "glm" */
    const char *event;     /* the event string as encoded (fstr) */
    const char *counter;   /* register name, "IA32_PMC0" */
    guint width;           /* counter width in bits */
    const char *engine;    /* "reference" / "fast" */
    gboolean per_cycle;    /* FALSE: the fast engine, no per-cycle records */
    const char *status_reg; /* the register holding the counter's overflow bit
                             * (IA32_PERF_GLOBAL_STATUS, C3_MSR_PMON_GLOBAL_STATUS) */
} PmsTraceMeta;

/* The final state, after the last cycle. */
typedef struct {
    guint64 cycles;        /* cycles simulated */
    guint64 count;         /* counter value */
    gboolean overflow;     /* its overflow bit in meta.status_reg */
    guint64 status;        /* meta.status_reg */
    const guint64 *pmis;   /* cycles with a PMI: the first ones (pms_sim_pmis) */
    guint n_pmis;
    guint64 pmi_total;     /* every PMI (pms_sim_pmi_total) */
} PmsTraceSummary;

typedef struct PmsTraceReporter PmsTraceReporter;

typedef struct {
    const char *name;
    gsize priv_size;      /* zeroed state the format keeps between calls */
    void (*begin)(PmsTraceReporter *r, const PmsTraceMeta *meta);
    void (*record)(PmsTraceReporter *r, const PmsSimTrace *t);
    void (*end)(PmsTraceReporter *r, const PmsTraceSummary *sum);
} PmsTraceFormat;

struct PmsTraceReporter {
    const PmsTraceFormat *fmt;
    GString *out;
    PmsTraceMeta meta;
    gpointer priv;
};

extern const PmsTraceFormat pms_trace_table, pms_trace_csv, pms_trace_json, pms_trace_vcd;

/* The format of that name, NULL when unknown. */
const PmsTraceFormat *pms_trace_format(const char *name);
/* "table, csv, json, vcd" (for messages). */
const char *pms_trace_format_names(void);

PmsTraceReporter *pms_trace_reporter_new(const PmsTraceFormat *fmt, const PmsTraceMeta *meta);
void pms_trace_reporter_free(PmsTraceReporter *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PmsTraceReporter, pms_trace_reporter_free)

static inline void pms_trace_record(PmsTraceReporter *r, const PmsSimTrace *t) { r->fmt->record(r, t); }
static inline void pms_trace_end(PmsTraceReporter *r, const PmsTraceSummary *s) { r->fmt->end(r, s); }

/* The last line every human-facing output ends with. */
void pms_trace_summary_line(GString *out, const PmsTraceSummary *s);
/* " no cycle" or " C1, C2, ..." with at most 16 cycles, then the total when
 * there are more: a run may raise 2^47 PMIs. */
void pms_trace_pmi_list(GString *out, const guint64 *pmis, guint n, guint64 total);

G_END_DECLS
