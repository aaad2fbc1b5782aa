/* pmusim — what the teaching outputs share: a trace record kept past its
 * callback, spans of identical cycles, the counter in hex at its width, and
 * one sentence per span saying what each pipeline stage did.
 *
 * Nothing here decides a counting rule: every fact in a sentence is a stage
 * output the pure pipeline (sim/sim_pipe.c) or the device put in the trace
 * record (PmsSimTrace.pipe, .off); the words only name them, in the order
 * the pipeline applies them (docs/semantics.md §1). */
#include "reg_panel.h"
#include "trace_report.h"

#include <string.h>

void pms_trace_rec_set(PmsTraceRec *r, const PmsSimTrace *t)
{
    r->t = *t;
    if (t->cfg)
        r->cfg = *t->cfg;
    else
        memset(&r->cfg, 0, sizeof r->cfg);
    if (t->pipe)
        r->pipe = *t->pipe;
    else
        memset(&r->pipe, 0, sizeof r->pipe);
    r->has_pipe = t->pipe != NULL;
    r->t.cfg = NULL;
    r->t.pipe = NULL;
    r->cycles = t->cycles ? t->cycles : 1;
    r->first = t->cycle - (r->cycles - 1);
}

static gboolean pipe_same(const PmsPipeOut *a, const PmsPipeOut *b)
{
    if (!a || !b)
        return a == b;
    for (guint i = 0; i < PMS_SIM_MAX_THREADS; i++)
        if (a->gate[i] != b->gate[i])
            return FALSE;
    return a->n == b->n && a->cond == b->cond && a->edge == b->edge && a->inc == b->inc && a->latch == b->latch &&
        a->thr == b->thr && a->inc_pre == b->inc_pre && a->blocked == b->blocked && a->combined == b->combined &&
        a->gate_pre == b->gate_pre;
}

gboolean pms_trace_rec_same(const PmsTraceRec *a, const PmsSimTrace *b)
{
    const PmsSimTrace *x = &a->t;
    if (x->enabled != b->enabled || x->off != b->off || x->status != b->status || x->carries || b->carries || x->pmis ||
        b->pmis || x->latch_before != b->latch_before || x->pebs_assist || b->pebs_assist || x->lbr_offered ||
        b->lbr_offered)
        return FALSE;
    guint64 bc = b->cycles ? b->cycles : 1;
    if (b->cycle - (bc - 1) != x->cycle + 1)
        return FALSE;
    for (guint i = 0; i < PMS_SIM_MAX_THREADS; i++)
        if (x->occ[i] != b->occ[i] || x->cpl[i] != b->cpl[i])
            return FALSE;
    return pipe_same(pms_trace_rec_pipe(a), b->pipe);
}

void pms_trace_rec_extend(PmsTraceRec *r, const PmsSimTrace *b)
{
    guint64 first = r->first;
    pms_trace_rec_set(r, b);
    r->first = first;
    r->cycles = r->t.cycle - first + 1;
    r->t.cycles = r->cycles;
}

void pms_trace_hex(GString *out, guint64 v, guint width)
{
    guint digits = width == 0 || width >= 64 ? 16 : (width + 3) / 4;
    g_string_append(out, "0x");
    for (guint d = digits; d-- > 0;) {
        g_string_append_c(out, "0123456789abcdef"[(v >> (4 * d)) & 0xf]);
        if (d && d % 4 == 0)
            g_string_append_c(out, '_');
    }
}

void pms_trace_off_words(GString *out, guint off)
{
    static const struct {
        guint bit;
        const char *word;
    } words[] = {
        { PMS_SIM_OFF_FROZEN, "frozen" },       { PMS_SIM_OFF_GLOBAL, "global-off" }, { PMS_SIM_OFF_BOX, "box-off" },
        { PMS_SIM_OFF_COUNTER, "counter-off" }, { PMS_SIM_OFF_PLM, "plm=0" },
    };
    gsize len = out->len;
    for (gsize i = 0; i < G_N_ELEMENTS(words); i++)
        if (off & words[i].bit)
            g_string_append_printf(out, "%s%s", out->len > len ? "+" : "", words[i].word);
    if (out->len == len)
        g_string_append(out, "off");
}

/* The privilege filter's name: "usr-only (u)". */
static void priv_name(GString *out, const PmsPipeCfg *c)
{
    if (c->per_level)
        g_string_append_printf(out, "plm=0x%x", c->plm);
    else if (c->usr && c->os)
        g_string_append(out, "u+k");
    else if (c->usr)
        g_string_append(out, "usr-only (u)");
    else if (c->os)
        g_string_append(out, "os-only (k)");
    else
        g_string_append(out, "no ring (u=0 k=0)");
}

static void off_reasons(GString *o, guint off)
{
    const char *sep = "";
    if (off & PMS_SIM_OFF_FROZEN) {
        g_string_append(o, "counting is frozen (set by a PMI: CTR_Frz in the status register, or PMC0.fr)");
        sep = " and ";
    }
    if (off & PMS_SIM_OFF_GLOBAL) {
        g_string_append_printf(o, "%sthe global control does not enable it (GLOBAL_CTRL, or the U-Box's en_all)", sep);
        sep = " and ";
    }
    if (off & PMS_SIM_OFF_BOX) {
        g_string_append_printf(o, "%sthe box control does not enable it", sep);
        sep = " and ";
    }
    if (off & PMS_SIM_OFF_COUNTER) {
        g_string_append_printf(o, "%sthe counter's own enable bit is clear", sep);
        sep = " and ";
    }
    if (off & PMS_SIM_OFF_PLM) {
        g_string_append_printf(o, "%splm=0: no privilege level counts", sep);
        sep = " and ";
    }
    if (!*sep)
        g_string_append(o, "the counter is not enabled");
}

/* The last change of a global or box control the panel saw by cycle
 * `first`: the register and bit that turned the counter off, read from the
 * simulator (a freeze clearing GLOBAL_CTRL, a stimulus write). */
static void control_change(GString *o, const PmsRegPanel *panel, guint64 first)
{
    for (guint i = 0; i < panel->regs->len; i++) {
        const PmsPanelReg *w = g_ptr_array_index(panel->regs, i);
        if (w->reg->kind != PMS_REG_GLOBAL_CTRL && w->reg->kind != PMS_REG_BOX_CTRL)
            continue;
        const PmsPanelChange *last = NULL;
        guint64 before = w->start;
        for (guint k = 0; k < w->changes->len; k++) {
            const PmsPanelChange *c = &g_array_index(w->changes, PmsPanelChange, k);
            if (c->after || c->last >= first)
                break;
            before = last ? last->value : w->start;
            last = c;
        }
        if (!last)
            continue;
        g_string_append_printf(
            o, " (%s changed from 0x%" G_GINT64_MODIFIER "x to 0x%" G_GINT64_MODIFIER "x in cycle %" G_GUINT64_FORMAT,
            w->reg->name, before, last->value, last->last);
        /* the freeze controls in effect then: what made a PMI stop counting */
        const char *sep = "; with ";
        for (guint k = 0; k < panel->causes->len; k++) {
            const PmsPanelCause *c = &g_array_index(panel->causes, PmsPanelCause, k);
            guint64 v = pms_field_get(c->field, pms_reg_panel_value_at(c->reg, last->last));
            if (!v)
                continue;
            g_string_append_printf(o, "%s%s.%s = %" G_GUINT64_FORMAT, sep, c->reg->reg->name, c->field->name, v);
            sep = " and ";
        }
        if (strcmp(sep, "; with ") != 0)
            g_string_append(o, " a PMI freezes counting");
        g_string_append_c(o, ')');
    }
}

void pms_trace_sentence(GString *o, const PmsTraceMeta *m, const PmsTraceRec *r)
{
    const PmsSimTrace *t = &r->t;
    const PmsPipeCfg *c = &r->cfg;
    const PmsPipeOut *p = pms_trace_rec_pipe(r);
    if (r->cycles == 1)
        g_string_append_printf(o, "cycle %" G_GUINT64_FORMAT ": ", r->first);
    else
        g_string_append_printf(o, "cycles %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " cycles): ",
                               r->first, t->cycle, r->cycles);
    if (!p) {
        g_string_append(o, "not counting: ");
        off_reasons(o, t->off);
        if (m->panel && (t->off & (PMS_SIM_OFF_GLOBAL | PMS_SIM_OFF_BOX)))
            control_change(o, m->panel, r->first);
        g_string_append(o, "; the counter holds ");
        pms_trace_hex(o, t->value, m->width);
        g_string_append_c(o, '.');
        return;
    }
    guint th = c->thread < PMS_SIM_MAX_THREADS ? c->thread : 0;
    /* privilege filter and combine (the stages before the threshold) */
    if (p->combined) {
        g_string_append_printf(o, "any-thread n=%" G_GUINT64_FORMAT " (%s of", p->n, c->combine_or ? "OR" : "sum");
        for (guint i = 0; i < t->n_threads && i < PMS_SIM_MAX_THREADS; i++) {
            g_string_append_printf(o, "%s thread %u: %" G_GUINT64_FORMAT " at CPL %u", i ? ";" : "", i, t->occ[i],
                                   t->cpl[i]);
            if (!p->gate[i]) {
                g_string_append(o, ", filtered by ");
                priv_name(o, c);
            }
        }
        g_string_append(o, ")");
    } else if (p->gate_pre && !p->gate[th]) {
        g_string_append_printf(o, "%" G_GUINT64_FORMAT " at CPL %u filtered by ", t->occ[th], t->cpl[th]);
        priv_name(o, c);
        g_string_append(o, " before the threshold, so n=0");
    } else {
        g_string_append_printf(o, "n=%" G_GUINT64_FORMAT, p->n);
    }
    /* threshold, invert */
    if (c->cmask == 0) {
        if (c->edge)
            g_string_append_printf(o, " %s 0 (%s=0: the edge sees n>=1)", p->thr ? ">" : "=", pms_trace_thr(m));
        else
            g_string_append_printf(o, " (%s=0: no threshold, adds n)", pms_trace_thr(m));
        if (c->inv)
            g_string_append_printf(o, "; %s=0, so the invert (i) does nothing", pms_trace_thr(m));
    } else {
        if (c->thres_gt) /* the register's t, compared n > t (cmask t + 1) */
            g_string_append_printf(o, " %s %s=%u", p->thr ? ">" : "\u2264", pms_trace_thr(m), c->thres_gt);
        else
            g_string_append_printf(o, " %s %s=%u", p->thr ? "\u2265" : "<", pms_trace_thr(m), c->cmask);
        if (c->inv)
            g_string_append_printf(o, ", inverted%s%s%s: condition %s", c->inv_gt ? " (n > " : "",
                                   c->inv_gt ? pms_trace_thr(m) : "", c->inv_gt ? ")" : "", p->cond ? "true" : "false");
    }
    /* edge */
    if (c->edge) {
        if (p->cond && !t->latch_before)
            g_string_append(o, ", rising edge (the latch was clear)");
        else if (p->cond)
            g_string_append(o, ", no edge: the condition held the cycle before too (latch set)");
        else if (t->latch_before)
            g_string_append(o, ", condition false: the latch clears");
    }
    /* the post privilege gate */
    if (p->blocked) {
        g_string_append_printf(o, " but CPL %u is filtered by ", t->cpl[th]);
        priv_name(o, c);
    }
    /* increment and counter */
    if (t->inc)
        g_string_append_printf(o, ": +%" G_GUINT64_FORMAT "%s \u2192 ", t->inc, r->cycles > 1 ? " each cycle" : "");
    else
        g_string_append(o, ": nothing added, counter ");
    pms_trace_hex(o, t->value, m->width);
    if (r->cycles > 1 && t->inc)
        g_string_append_printf(o, " after cycle %" G_GUINT64_FORMAT, t->cycle);
    if (t->carries)
        g_string_append_printf(o, "; %s out of bit %u: the counter wraps and sets its overflow bit in %s",
                               t->carries == 1 ? "a carry" : "carries", m->width ? m->width - 1 : 63,
                               m->status_reg ? m->status_reg : "the status register");
    if (t->carries > 1)
        g_string_append_printf(o, " (%" G_GUINT64_FORMAT " carries)", t->carries);
    if (t->pebs_assist)
        g_string_append(o,
                        "; the armed PEBS assist runs: it writes a record into the DS buffer, clears the "
                        "counter's overflow bit and reloads the counter from the DS reset value (semantics.md §5.2)");
    if (t->pmis == 1)
        g_string_append(o, "; a PMI is raised");
    else if (t->pmis > 1)
        g_string_append_printf(o, "; %" G_GUINT64_FORMAT " PMIs are raised", t->pmis);
    g_string_append_c(o, '.');
}
