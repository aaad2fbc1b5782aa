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
    const char *pmu;           /* "glm" */
    const char *event;         /* the event string as encoded (fstr) */
    const char *counter;       /* register name, "IA32_PMC0" */
    guint width;               /* counter width in bits */
    const char *engine;        /* "reference" / "fast" */
    gboolean per_cycle;        /* FALSE: the fast engine, no per-cycle records */
    const char *status_reg;    /* the register holding the counter's overflow bit
                             * (IA32_PERF_GLOBAL_STATUS, C3_MSR_PMON_GLOBAL_STATUS) */
    gboolean smt;              /* the PMU has a second thread: its occurrences and CPL are shown */
    gboolean explain;          /* table: one sentence per cycle where something changes (--explain) */
    const PmsRegWrite *writes; /* the encoding's register writes (html: bit-field diagrams) */
    guint n_writes;
    guint64 preload; /* the counter before cycle 0 */
    /* The modifier that sets the threshold, as the PMU's event strings spell
     * it ("c" on x86, "t" on the Xeon 7500 C-Box, "thres" on Montecito);
     * NULL: "c". */
    const char *thr_name;
    gboolean sentences; /* svg: print each span's sentence under the diagram */
    /* html: the registers in effect (reg_panel.h), filled during the run;
     * NULL: the encoding's writes are shown instead */
    const struct PmsRegPanel *panel;
} PmsTraceMeta;

/* The threshold modifier's name (meta->thr_name or "c"). */
static inline const char *pms_trace_thr(const PmsTraceMeta *m)
{
    return m->thr_name ? m->thr_name : "c";
}

/* The PMIs a report lists: the first ones, the last ones the first do not
 * hold, each with its cause (pms_sim_pmi_causes), and how many in all. */
typedef struct {
    const guint64 *head, *head_cause;
    guint n_head;
    guint64 tail[PMS_SIM_PMI_TAIL], tail_cause[PMS_SIM_PMI_TAIL];
    guint n_tail;
    guint64 total;
    const PmsSim *sim; /* names the causes (NULL: "counter k") */
} PmsTracePmis;

/* The simulator's PMIs after a run. */
void pms_trace_pmis_get(PmsTracePmis *p, const PmsSim *sim);
/* A cause as counter names joined by '+' ("IA32_PMC0+IA32_FIXED_CTR0"). */
void pms_trace_cause_words(GString *out, const PmsTracePmis *p, guint64 cause);

/* The final state, after the last cycle. */
typedef struct {
    guint64 cycles;      /* cycles simulated */
    guint64 count;       /* counter value */
    gboolean overflow;   /* its overflow bit in meta.status_reg */
    guint64 status;      /* meta.status_reg */
    const guint64 *pmis; /* cycles with a PMI: the first ones (pms_sim_pmis) */
    guint n_pmis;
    guint64 pmi_total; /* every PMI (pms_sim_pmi_total) */
    /* json: more members of the top-level object ("pebs": {...}), NULL: none */
    const char *json_extra;
    /* the first and last PMIs with their causes; NULL: pmis alone */
    const PmsTracePmis *list;
} PmsTraceSummary;

typedef struct PmsTraceReporter PmsTraceReporter;

/* A trace record kept past its callback: the record with its own copies of
 * the pipeline configuration and outputs (t.cfg and t.pipe are NULL: the
 * record may move; pms_trace_rec_pipe), and the first cycle of the cycles
 * it stands for. */
typedef struct {
    PmsSimTrace t;
    PmsPipeCfg cfg;
    PmsPipeOut pipe;
    gboolean has_pipe; /* the counter counted: pipe holds the stages */
    guint64 first;     /* first cycle; t.cycle is the last */
    guint64 cycles;    /* t.cycle - first + 1 */
} PmsTraceRec;

static inline const PmsPipeOut *pms_trace_rec_pipe(const PmsTraceRec *r)
{
    return r->has_pipe ? &r->pipe : NULL;
}
/* Copy t into r (cycles: t->cycles). */
void pms_trace_rec_set(PmsTraceRec *r, const PmsSimTrace *t);
/* Do a and b behave alike (the same inputs, the same stage outputs, no
 * carry, no PMI, the same status) so that b continues a's span? */
gboolean pms_trace_rec_same(const PmsTraceRec *a, const PmsSimTrace *b);
/* Extend r by the record b that continues it (pms_trace_rec_same). */
void pms_trace_rec_extend(PmsTraceRec *r, const PmsSimTrace *b);
/* v as hex digits of the counter's width, grouped by four from the right:
 * 0xffff_ffff_fffd for 48 bits (width 0 or >= 64: 16 digits). */
void pms_trace_hex(GString *out, guint64 v, guint width);
/* "frozen+global-off" from PMS_SIM_OFF_* bits ("off" when none is known). */
void pms_trace_off_words(GString *out, guint off);
/* The sentence of a span: "cycle 2: n=3 >= c=2 but CPL 0 is filtered by
 * usr-only (u): nothing added, counter 0x0000_0000_0000." (no newline). */
void pms_trace_sentence(GString *out, const PmsTraceMeta *m, const PmsTraceRec *r);

typedef struct {
    const char *name;
    gsize priv_size; /* zeroed state the format keeps between calls */
    void (*begin)(PmsTraceReporter *r, const PmsTraceMeta *meta);
    void (*record)(PmsTraceReporter *r, const PmsSimTrace *t);
    void (*end)(PmsTraceReporter *r, const PmsTraceSummary *sum);
    void (*clear)(PmsTraceReporter *r); /* optional: free what priv holds */
} PmsTraceFormat;

struct PmsTraceReporter {
    const PmsTraceFormat *fmt;
    GString *out;
    PmsTraceMeta meta;
    gpointer priv;
};

extern const PmsTraceFormat pms_trace_table, pms_trace_csv, pms_trace_json, pms_trace_vcd, pms_trace_svg,
    pms_trace_html;

/* The format of that name, NULL when unknown. */
const PmsTraceFormat *pms_trace_format(const char *name);
/* "table, csv, json, vcd" (for messages). */
const char *pms_trace_format_names(void);

PmsTraceReporter *pms_trace_reporter_new(const PmsTraceFormat *fmt, const PmsTraceMeta *meta);
void pms_trace_reporter_free(PmsTraceReporter *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PmsTraceReporter, pms_trace_reporter_free)

static inline void pms_trace_record(PmsTraceReporter *r, const PmsSimTrace *t)
{
    r->fmt->record(r, t);
}
static inline void pms_trace_end(PmsTraceReporter *r, const PmsTraceSummary *s)
{
    r->fmt->end(r, s);
}

/* The last line every human-facing output ends with. */
void pms_trace_summary_line(GString *out, const PmsTraceSummary *s);
/* " no cycle" or " C1, C2, ..." when there are at most 16; more (a run may
 * raise 2^47): the first 16 and the last 16, each with its cause in
 * brackets, the ones between as a count, and the total:
 * " 0 [IA32_PMC0], ..., ... 40 more ..., 96 [IA32_PMC1] (72 PMIs in all)". */
enum { PMS_TRACE_PMI_SHOWN = 16 };
void pms_trace_pmi_list(GString *out, const PmsTracePmis *p);
/* The list of a summary (s->list, else its first PMIs alone). */
void pms_trace_summary_pmis(GString *out, const PmsTraceSummary *s);

G_END_DECLS
