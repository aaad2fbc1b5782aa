/* pmusim — the counting pipeline of one counter (sim_pipe.c), inline: the
 * engines evaluate it several times a run, and a call that returns the
 * stage outputs by value costs more than the stages (store forwarding of a
 * struct built on the callee's stack).  One definition: pms_sim_pipe() is
 * this function, so no engine can disagree with another on a rule.  Not
 * installed. */
#pragma once

#include "sim.h"

static inline gboolean sim_pipe_qualifies(const PmsPipeCfg *c, guint8 cpl)
{
    /* Itanium (IA64 Vol 2 Table 7-4, registers.md 3): plm bit k counts at
     * privilege level k. */
    if (c->per_level)
        return (c->plm >> cpl) & 1;
    /* SDM 18-4: OS counts at CPL 0, USR at CPL 1..3. */
    return cpl == 0 ? c->os : c->usr;
}

static inline PmsPipeOut sim_pipe_eval(const PmsPipeCfg *c, const guint64 *n, const guint8 *cpl, gboolean latch)
{
    PmsPipeOut o = { .latch = latch };
    gboolean any = c->any && c->smt;
    gboolean gate_post = FALSE;
    for (guint t = 0; t < c->n_threads && t < PMS_SIM_MAX_THREADS; t++)
        o.gate[t] = sim_pipe_qualifies(c, cpl[t]);
    if (any) {
        /* SDM 18-9 p.645: each thread's CPL is matched before combining (A3);
         * SUM of occurrences, OR for clock events (A6). */
        o.gate_pre = o.combined = TRUE;
        for (guint t = 0; t < c->n_threads; t++) {
            guint64 x = o.gate[t] ? n[t] : 0;
            if (c->combine_or)
                o.n |= x ? 1 : 0;
            else
                o.n += x;
        }
    } else if (c->cpl_gate_pre) {
        o.gate_pre = TRUE;
        o.n = o.gate[c->thread] ? n[c->thread] : 0;
    } else {
        o.n = n[c->thread];
        gate_post = TRUE;
    }
    if (c->cmask == 0) {
        /* SDM 18-4: cmask 0 adds n; INV is ignored (A1). */
        o.thr = o.cond = o.n > 0;
        o.inc = o.n;
    } else {
        o.thr = o.n >= c->cmask;
        o.cond = c->inv ? (c->inv_gt ? o.n > c->cmask : o.n < c->cmask) : o.thr;
        o.inc = o.cond;
    }
    if (c->edge) {
        /* SDM 18-4: rising edge of the whole condition (A2: cmask 0 acts as n >= 1). */
        o.edge = o.cond && !latch;
        o.inc = o.edge;
        o.latch = o.cond;
    }
    o.inc_pre = o.inc;
    if (gate_post && !o.gate[c->thread]) {
        o.blocked = o.inc != 0;
        o.inc = 0; /* A3: own-thread counting gates the final increment */
    }
    return o;
}
