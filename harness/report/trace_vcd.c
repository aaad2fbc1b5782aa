/* pmusim — trace as a Value Change Dump (IEEE 1364 §18) for waveform viewers
 * such as GTKWave: one time unit per cycle, one module `pmu` holding the
 * counter's pipeline signals.  A value is dumped at time #c when it differs
 * from cycle c-1 (all values at the first traced cycle, in $dumpvars); a
 * final time stamp one past the last cycle closes the last cycle's width.
 * Beside the pipeline's outputs: clk (toggles every cycle, marking the
 * cycle boundaries), each thread's occurrences and CPL, the privilege gate,
 * the threshold comparison, the edge latch before the cycle and why the
 * counter is off (PMS_SIM_OFF_* bits). */
#include "trace_report.h"

#include <string.h>

enum {
    SIG_EN,
    SIG_N,
    SIG_COND,
    SIG_EDGE,
    SIG_INC,
    SIG_CTR,
    SIG_OVF,
    SIG_STATUS,
    SIG_PMI,
    /* the clock, the inputs and the intermediate stages (docs/sim-cli.md) */
    SIG_CLK,
    SIG_OCC0,
    SIG_OCC1,
    SIG_CPL0,
    SIG_CPL1,
    SIG_GATE0,
    SIG_GATE1,
    SIG_THR,
    SIG_LATCH,
    SIG_OFF,
    N_SIGS
};

typedef struct {
    gboolean started;
    guint64 last[N_SIGS];
    guint64 next_time; /* one past the last cycle dumped */
} VcdState;

static const struct {
    const char *name;
    char id;
    guint width;  /* 0: the counter's width */
    gboolean smt; /* only on parts with a second thread */
} sigs[N_SIGS] = {
    /* Identifier codes are plain letters: '$' and '#' are legal VCD codes but
     * trip readers that look for keywords and time stamps by first character. */
    [SIG_EN] = { "enabled", 'e', 1, FALSE },     [SIG_N] = { "n", 'n', 64, FALSE },
    [SIG_COND] = { "cond", 'c', 1, FALSE },      [SIG_EDGE] = { "edge", 'd', 1, FALSE },
    [SIG_INC] = { "increment", 'i', 64, FALSE }, [SIG_CTR] = { "counter", 'v', 0, FALSE },
    [SIG_OVF] = { "overflow", 'o', 1, FALSE },   [SIG_STATUS] = { "global_status", 's', 64, FALSE },
    [SIG_PMI] = { "pmi", 'p', 1, FALSE },        [SIG_CLK] = { "clk", 'k', 1, FALSE },
    [SIG_OCC0] = { "occ0", 'a', 32, FALSE },     [SIG_OCC1] = { "occ1", 'b', 32, TRUE },
    [SIG_CPL0] = { "cpl0", 'l', 2, FALSE },      [SIG_CPL1] = { "cpl1", 'm', 2, TRUE },
    [SIG_GATE0] = { "gate0", 'g', 1, FALSE },    [SIG_GATE1] = { "gate1", 'h', 1, TRUE },
    [SIG_THR] = { "thr", 't', 1, FALSE },        [SIG_LATCH] = { "latch", 'q', 1, FALSE },
    [SIG_OFF] = { "off_why", 'w', 5, FALSE },
};

static gboolean shown(const PmsTraceMeta *m, guint i)
{
    return !sigs[i].smt || m->smt;
}

static void begin(PmsTraceReporter *r, const PmsTraceMeta *m)
{
    GString *o = r->out;
    g_string_append_printf(o, "$comment %s on %s, %s engine $end\n", m->event, m->counter, m->engine);
    g_string_append(o,
                    "$comment one time unit is one cycle; clk toggles at the start of every cycle; off_why: "
                    "bit 0 counter-off, 1 global-off, 2 box-off, 3 frozen, 4 plm=0 $end\n");
    g_string_append(o, "$version pmusim sim $end\n$timescale 1 ns $end\n$scope module pmu $end\n");
    for (guint i = 0; i < N_SIGS; i++)
        if (shown(m, i))
            g_string_append_printf(o, "$var wire %u %c %s $end\n", sigs[i].width ? sigs[i].width : m->width, sigs[i].id,
                                   sigs[i].name);
    g_string_append(o, "$upscope $end\n$enddefinitions $end\n");
}

static void dump(GString *o, guint i, guint64 v, guint width)
{
    if (width == 1) {
        g_string_append_printf(o, "%d%c\n", v ? 1 : 0, sigs[i].id);
        return;
    }
    g_string_append_c(o, 'b');
    int top = v ? g_bit_nth_msf(v, -1) : 0;
    for (int b = top; b >= 0; b--)
        g_string_append_c(o, (v >> b) & 1 ? '1' : '0');
    g_string_append_printf(o, " %c\n", sigs[i].id);
}

static void record(PmsTraceReporter *r, const PmsSimTrace *t)
{
    VcdState *st = r->priv;
    const PmsPipeOut *p = t->pipe;
    guint64 v[N_SIGS] = { t->enabled, t->n, t->cond, t->edge, t->inc, t->value, t->overflow, t->status, t->pmi };
    v[SIG_CLK] = t->cycle & 1;
    v[SIG_OCC0] = t->occ[0] & 0xffffffffu;
    v[SIG_OCC1] = t->occ[1] & 0xffffffffu;
    v[SIG_CPL0] = t->cpl[0] & 3;
    v[SIG_CPL1] = t->cpl[1] & 3;
    v[SIG_GATE0] = p && p->gate[0];
    v[SIG_GATE1] = p && p->gate[1];
    v[SIG_THR] = p && p->thr;
    v[SIG_LATCH] = t->latch_before;
    v[SIG_OFF] = t->off & 0x1f;
    if (!st->started) {
        g_string_append_printf(r->out, "#%" G_GUINT64_FORMAT "\n$dumpvars\n", t->cycle);
        for (guint i = 0; i < N_SIGS; i++)
            if (shown(&r->meta, i))
                dump(r->out, i, v[i], sigs[i].width ? sigs[i].width : r->meta.width);
        g_string_append(r->out, "$end\n");
    } else {
        gboolean stamped = FALSE;
        for (guint i = 0; i < N_SIGS; i++) {
            if (v[i] == st->last[i] || !shown(&r->meta, i))
                continue;
            if (!stamped)
                g_string_append_printf(r->out, "#%" G_GUINT64_FORMAT "\n", t->cycle);
            stamped = TRUE;
            dump(r->out, i, v[i], sigs[i].width ? sigs[i].width : r->meta.width);
        }
    }
    memcpy(st->last, v, sizeof v);
    st->started = TRUE;
    st->next_time = t->cycle + 1;
}

static void end(PmsTraceReporter *r, const PmsTraceSummary *s)
{
    VcdState *st = r->priv;
    g_string_append_printf(r->out, "$comment count=%" G_GUINT64_FORMAT " overflow=%d $end\n", s->count,
                           s->overflow ? 1 : 0);
    if (st->started)
        g_string_append_printf(r->out, "#%" G_GUINT64_FORMAT "\n", st->next_time);
}

const PmsTraceFormat pms_trace_vcd = { "vcd", sizeof(VcdState), begin, record, end, NULL };
