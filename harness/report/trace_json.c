/* pmusim — trace as one JSON object: what was traced, the per-cycle records
 * and the final state (count, overflow, status, PMI cycles).  64-bit values
 * are JSON numbers only up to 2^53 in most readers, so status is a hex
 * string, and a count, cycle or other number beyond 2^53 (a 64-bit counter,
 * a fast-engine run of 2^60 cycles) is a decimal string: the counters of the
 * shipped models are at most 48 bits wide and stay numbers. */
#include "trace_report.h"

typedef struct {
    gboolean any; /* a record was written (comma placement) */
} JsonState;

static void append_str(GString *out, const char *s)
{
    g_string_append_c(out, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            g_string_append_printf(out, "\\%c", *p);
        else if (*p < 0x20)
            g_string_append_printf(out, "\\u%04x", *p);
        else
            g_string_append_c(out, (char)*p);
    }
    g_string_append_c(out, '"');
}

/* A number up to 2^53 as a JSON number, beyond as a decimal string. */
static const char *num(char buf[24], guint64 v)
{
    g_snprintf(buf, 24, v > ((guint64)1 << 53) ? "\"%" G_GUINT64_FORMAT "\"" : "%" G_GUINT64_FORMAT, v);
    return buf;
}

static void begin(PmsTraceReporter *r, const PmsTraceMeta *m)
{
    g_string_append(r->out, "{\n  \"pmu\": ");
    append_str(r->out, m->pmu);
    g_string_append(r->out, ",\n  \"event\": ");
    append_str(r->out, m->event);
    g_string_append(r->out, ",\n  \"counter\": ");
    append_str(r->out, m->counter);
    g_string_append_printf(r->out, ",\n  \"width\": %u,\n  \"engine\": ", m->width);
    append_str(r->out, m->engine);
    g_string_append(r->out, ",\n  \"trace\": [");
}

/* A stage's value, or null when it was not evaluated (the counter was off). */
static const char *stage(gboolean known, gboolean v)
{
    return !known ? "null" : v ? "1" : "0";
}

static void record(PmsTraceReporter *r, const PmsSimTrace *t)
{
    JsonState *st = r->priv;
    const PmsPipeOut *p = t->pipe;
    gboolean e = t->cfg && t->cfg->edge && t->has_latch;
    char b[4][24];
    g_string_append_printf(r->out, "%s\n    {\"cycle\": %s", st->any ? "," : "", num(b[0], t->cycle));
    /* a span of identical cycles (the fast engine's segments, diagrams) */
    if (t->cycles > 1)
        g_string_append_printf(r->out, ", \"first\": %s, \"cycles\": %s", num(b[0], t->cycle + 1 - t->cycles),
                               num(b[1], t->cycles));
    g_string_append(r->out, ", \"occ\": [");
    for (guint i = 0; i < t->n_threads && i < PMS_SIM_MAX_THREADS; i++)
        g_string_append_printf(r->out, "%s%s", i ? ", " : "", num(b[0], t->occ[i]));
    g_string_append(r->out, "], \"cpl\": [");
    for (guint i = 0; i < t->n_threads && i < PMS_SIM_MAX_THREADS; i++)
        g_string_append_printf(r->out, "%s%u", i ? ", " : "", t->cpl[i]);
    g_string_append(r->out, "], \"gate\": ");
    if (!p)
        g_string_append(r->out, "null");
    else {
        g_string_append_c(r->out, '[');
        for (guint i = 0; i < t->n_threads && i < PMS_SIM_MAX_THREADS; i++)
            g_string_append_printf(r->out, "%s%d", i ? ", " : "", p->gate[i]);
        g_string_append_c(r->out, ']');
    }
    g_string_append_printf(r->out,
                           ", \"enabled\": %s, \"n\": %s, \"thr\": %s, \"cond\": %s, \"latch\": %s, \"edge\": %s, "
                           "\"inc\": %s, \"counter\": %s, \"overflow\": %d, \"status\": \"0x%" G_GINT64_MODIFIER
                           "x\", \"pmi\": %d",
                           t->enabled ? "true" : "false", p ? num(b[1], t->n) : "null", stage(p != NULL, p && p->thr),
                           stage(p != NULL, t->cond), stage(e, t->latch_before), stage(p && e, t->edge),
                           p ? num(b[2], t->inc) : "null", num(b[3], t->value), t->overflow, t->status, t->pmi);
    if (!p) {
        g_autoptr(GString) why = g_string_new(NULL);
        pms_trace_off_words(why, t->off);
        g_string_append(r->out, ", \"why\": ");
        append_str(r->out, why->str);
    }
    /* only on an assist's cycle: other traces stay as they were */
    if (t->pebs_assist)
        g_string_append(r->out, ", \"pebs_assist\": true");
    /* only where branches came (docs/sim-cli.md, the LBR) */
    if (t->lbr_offered) {
        g_string_append_printf(r->out, ", \"lbr\": {\"offered\": %u, \"recorded\": %u, \"recording\": %s, \"tos\": %u",
                               t->lbr_offered, t->lbr_new, t->lbr_on ? "true" : "false", t->lbr_tos);
        /* only when call-stack mode popped: other traces stay as they were */
        if (t->lbr_popped)
            g_string_append_printf(r->out, ", \"popped\": %u", t->lbr_popped);
        g_string_append_c(r->out, '}');
    }
    g_string_append_c(r->out, '}');
    st->any = TRUE;
}

/* Causes as arrays of counter names: [["IA32_PMC0"], ["IA32_PMC0", "IA32_PMC1"]]. */
static void causes(GString *out, const PmsTracePmis *p, const guint64 *cause, guint n)
{
    for (guint i = 0; i < n; i++) {
        g_string_append(out, i ? ", [" : "[");
        g_autoptr(GString) words = g_string_new(NULL);
        pms_trace_cause_words(words, p, cause[i]);
        g_auto(GStrv) names = g_strsplit(words->str, "+", -1);
        for (guint k = 0; words->len && names[k]; k++) {
            g_string_append(out, k ? ", " : "");
            append_str(out, names[k]);
        }
        g_string_append_c(out, ']');
    }
}

static void end(PmsTraceReporter *r, const PmsTraceSummary *s)
{
    JsonState *st = r->priv;
    char b[2][24];
    g_string_append_printf(
        r->out,
        "%s],\n  \"cycles\": %s,\n  \"count\": %s,\n  \"overflow\": %d,\n  \"status\": \"0x%" G_GINT64_MODIFIER
        "x\",\n  \"pmis\": [",
        st->any ? "\n  " : "", num(b[0], s->cycles), num(b[1], s->count), s->overflow ? 1 : 0, s->status);
    for (guint i = 0; i < s->n_pmis; i++)
        g_string_append_printf(r->out, "%s%s", i ? ", " : "", num(b[0], s->pmis[i]));
    /* pmis lists the first PMS_SIM_PMI_LISTED; pmi_total counts them all */
    g_string_append_printf(r->out, "],\n  \"pmi_total\": %s", num(b[0], s->pmi_total));
    if (s->list) {
        /* each listed PMI's cause; the last PMIs pmis does not hold, and
         * theirs (the ones between are only counted) */
        const PmsTracePmis *p = s->list;
        g_string_append(r->out, ",\n  \"pmi_causes\": [");
        causes(r->out, p, p->head_cause, MIN(p->n_head, s->n_pmis));
        g_string_append(r->out, "],\n  \"pmi_last\": [");
        for (guint i = 0; i < p->n_tail; i++)
            g_string_append_printf(r->out, "%s%s", i ? ", " : "", num(b[0], p->tail[i]));
        g_string_append(r->out, "],\n  \"pmi_last_causes\": [");
        causes(r->out, p, p->tail_cause, p->n_tail);
        g_string_append_c(r->out, ']');
    }
    if (s->json_extra)
        g_string_append_printf(r->out, ",\n  %s", s->json_extra);
    g_string_append(r->out, "\n}\n");
}

const PmsTraceFormat pms_trace_json = { "json", sizeof(JsonState), begin, record, end, NULL };
