/* pmusim — the registers in effect during a `pmusim sim` run, for the HTML
 * page's register panel: each watched register's value at the start (after
 * the encoding's writes) and every change the stimulus or the device made,
 * with the cycle it was first seen at.  Read from the simulator, never from
 * the writes that were asked for: a stimulus that reprograms PERFEVTSEL0 or
 * a freeze that clears GLOBAL_CTRL shows as what the register then held. */
#pragma once

#include <glib.h>
#include "sim.h"

G_BEGIN_DECLS

typedef struct {
    guint64 first, last; /* the trace record the change was seen at: its cycles */
    gboolean after;      /* seen after the last cycle (a write at the stimulus' end) */
    guint64 value;
} PmsPanelChange;

typedef struct {
    const PmsRegister *reg;
    const char *origin; /* "encoder", "stimulus", "status" */
    guint64 start;
    guint64 last;
    GArray *changes; /* PmsPanelChange */
} PmsPanelReg;

/* A control field whose value explains why counting stopped (the family's
 * freeze-on-PMI fields: DEBUGCTL.freeze_perfmon_on_pmi, the U-Box's frz_all). */
typedef struct {
    const PmsPanelReg *reg;
    const PmsField *field;
} PmsPanelCause;

typedef struct PmsRegPanel {
    PmsSim *sim;
    GPtrArray *regs; /* PmsPanelReg */
    GArray *causes;  /* PmsPanelCause */
} PmsRegPanel;

PmsRegPanel *pms_reg_panel_new(PmsSim *sim);
void pms_reg_panel_free(PmsRegPanel *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PmsRegPanel, pms_reg_panel_free)
/* Watch r (once; counters and the write-only status actions are left out:
 * the counter row shows the one, the status register the other). */
void pms_reg_panel_watch(PmsRegPanel *p, const PmsRegister *r, const char *origin);
/* Watch r and name its field as a cause of a freeze (before the start). */
void pms_reg_panel_cause(PmsRegPanel *p, const PmsRegister *r, const char *field, const char *origin);
/* The value w held after cycle c (its start value before any change). */
guint64 pms_reg_panel_value_at(const PmsPanelReg *w, guint64 c);
/* Read every watched register: the values at the start of the run. */
void pms_reg_panel_start(PmsRegPanel *p);
/* After a trace record for cycles first..last: note what changed. */
void pms_reg_panel_sample(PmsRegPanel *p, guint64 first, guint64 last);
/* After the run: what changed after the last record. */
void pms_reg_panel_finish(PmsRegPanel *p, guint64 cycles);

G_END_DECLS
