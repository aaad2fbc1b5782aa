/* pmusim — simulator internals: the device layer.  Not installed.
 *
 *   sim_core.c        PmsSim itself: register storage by model order, the
 *                     index of every register space (msr, pmc, pmd, ibr, dbr), the public read/write/run API, PMIs,
 *                     trace hook; the device is the model family's (families.c);
 *                     sim_require (a field a device cannot do without).
 *   sim_engine.c      the reference and fast engines, generic over units.
 *   sim_pipe.c        the pure threshold/invert/edge pipeline (its stages
 *                     inline in sim_pipe_eval.h, for the engines).
 *   dev_x86_core.c    PERFEVTSEL/PMC/FIXED, GLOBAL_*, DEBUGCTL freeze.
 *   lbr.c             the x86 core's LBR ring (called from its units()).
 *   sim_input.c       run inputs generic over the keys each device
 *                     registers (sim_input.h), pms_sim_set_input.
 *   dev_ia64_input.c  the Itanium's run keys ip, insn, daddr, mesi, psr,
 *                     isa, fetch, dear, iear, br (sim_ia64.h's setters).
 *   dev_ia64.c        Montecito PMC4-15/PMD4-15, PMC0 overflow bits and fr,
 *                     the qualifiers, the EARs, the ETB and IP-EAR.
 * The program step (codes -> register writes) is a module of its own below
 * this one: sim/program/ (program.h).
 *
 * A device owns the meaning of its registers (the storage is PmsSim.val, one
 * word per model register) and is a switch on register identity behind the
 * small ops table below, in the way QEMU device models are.  The engines know
 * only units: a counter (storage, width mask), its pipeline configuration,
 * its occurrences this run and its edge latch; they ask the device whether a
 * unit counts this cycle, whether its overflow interrupts, and hand every
 * overflow and every PMI back to it.  What a run gives besides the signals
 * (an instruction address, a branch ...) is the device's too: its run keys
 * and its input block (sim_input.h); PmsSim holds only what every device
 * shares.  Adding a family is a new dev_*.c file with its ops and a new
 * sim/program/program_*.c, each registered in its layer's family table, not
 * an edit of another device. */
#pragma once

#include "sim.h"
#include "program.h"
#include "reg_field.h"
#include "lbr.h"
#include "family.h"

/* ---- register fields (SimField, sim_resolve: reg_field.h) --------------- */

/* FALSE with PMS_SIM_ERROR_MODEL naming register and field when r exists and
 * f was not found. */
gboolean sim_require(const PmsRegister *r, SimField f, const char *what, GError **error);

/* ---- units: what the engines count ---------------------------------------- */

enum {
    SIM_MAX_UNITS = 64,               /* counters of one device */
    SIM_N_SPACES = PMS_SPACE_DBR + 1, /* msr, pmc, pmd, ibr, dbr */
};

typedef guint64 SimOcc[PMS_SIM_MAX_THREADS];

typedef struct {
    guint64 *ctr; /* counter storage */
    guint64 mask; /* 2^width - 1 */
    PmsPipeCfg cfg;
    const guint64 *n; /* occurrences per thread this run */
    gboolean *latch;  /* edge latch, NULL when the counter has no edge detector */
    gboolean fixed;   /* for traces: fixed counter (else general) */
    guint index;      /* for traces and the device: counter index */
    guint id;         /* the device's own number for the counter */
    guint box;        /* for traces: the box instance (devices with several) */
} SimUnit;

typedef struct SimDeviceOps SimDeviceOps;
typedef struct SimPebs SimPebs;                     /* sim/pebs_internal.h */
typedef struct SimRunInputs SimRunInputs;           /* sim/sim_input.h */
typedef struct SimStimRecordType SimStimRecordType; /* sim/sim_input.h */

struct PmsSim {
    const PmsModel *model;
    const SimDeviceOps *ops;
    gpointer dev; /* the device's state */
    PmsSimEngine engine;
    guint n_threads;
    guint64 pmi_skid; /* option: cycles between overflow and PMI */

    /* Register storage: one value per model register (index = model order). */
    guint64 *val;
    GHashTable *by_addr[SIM_N_SPACES]; /* per register space: number -> index + 1 */
    guint64 zero;                      /* backing store for absent registers */

    guint64 cycle;
    GArray *pmis;       /* guint64 cycles: the first PMS_SIM_PMI_LISTED */
    GArray *pmi_causes; /* guint64 unit bits, parallel to pmis */
    guint64 pmi_total;  /* every PMI */
    /* the last PMS_SIM_PMI_TAIL PMIs, a ring: the next slot, how many */
    guint64 tail_cycle[PMS_SIM_PMI_TAIL], tail_cause[PMS_SIM_PMI_TAIL];
    guint tail_pos, tail_n;
    guint64 *unit_ctr[SIM_MAX_UNITS]; /* the units' counters of the last run with a PMI (cause bits) */
    guint n_unit_ctr;
    guint64 ext_total; /* external notifications (PMC.ev) */
    guint n_ext;       /* the first ones' cycles */
    guint64 ext[PMS_SIM_EXT_LISTED];
    PmsSimTraceFn trace;
    gpointer trace_data;
    gboolean trace_spans; /* pms_sim_set_trace_spans */
    guint64 max_steps;    /* pms_sim_set_max_steps (0: none) */
};

struct SimDeviceOps {
    const char *name;
    /* Resolve the model's registers and fields, allocate s->dev. */
    gboolean (*init)(PmsSim *s, GError **error);
    void (*finalize)(PmsSim *s);
    /* Registers to their RESET values (s->val already holds the model's). */
    void (*reset)(PmsSim *s);
    /* WRMSR: the register is known; readonly and reserved bits are checked
     * here (the device knows which writes it ignores). */
    gboolean (*write)(PmsSim *s, const PmsRegister *r, guint64 value, GError **error);
    guint64 (*read)(PmsSim *s, const PmsRegister *r);
    /* Preload a counter to any value of its width; FALSE when r is none. */
    gboolean (*set_counter)(PmsSim *s, const PmsRegister *r, guint64 value, GError **error);
    /* This run's units, their occurrences in occ[] (one per unit). */
    guint (*units)(PmsSim *s, const PmsSimRun *run, SimOcc *occ, SimUnit *u);
    gboolean (*enabled)(const PmsSim *s, const SimUnit *u);
    /* Optional, for traces: why a unit that is not enabled does not count
     * (PMS_SIM_OFF_* bits; every reason that holds). */
    guint (*off_reasons)(const PmsSim *s, const SimUnit *u);
    gboolean (*pmi_enabled)(const PmsSim *s, const SimUnit *u);
    /* Optional: does the unit's every overflow give an external notification
     * (Itanium PMC.ev)?  The engines record them (sim_ext_record). */
    gboolean (*ext_enabled)(const PmsSim *s, const SimUnit *u);
    /* The carry out of the unit's top bit: status bits. */
    void (*overflow)(PmsSim *s, const SimUnit *u);
    /* An interrupt-enabled counter overflowed in this cycle: the side effects
     * (status, freeze); TRUE when a PMI reaches a processor (recorded). */
    gboolean (*pmi)(PmsSim *s, guint64 cycle);
    /* For traces: the status register where this unit's overflow shows
     * (the one the program step names: GLOBAL_STATUS, a C-Box's status). */
    guint64 (*status)(const PmsSim *s, const SimUnit *u);
    gboolean (*edge_latch)(const PmsSim *s, guint i);
    /* Optional: the cycle of the device's next action of its own (G_MAXUINT64:
     * none), and that action, run by the engines at the start of that cycle
     * (and at the end of a run that ends just before it). */
    guint64 (*next_event)(const PmsSim *s);
    void (*fire)(PmsSim *s);
    /* Optional: TRUE while the device needs every cycle seen (a PEBS
     * assist depends on the cycle after a wrap): the reference engine runs. */
    gboolean (*per_cycle)(const PmsSim *s);
    /* Optional: after unit u's counter took `inc` this cycle (carry: it
     * wrapped); SIM_AFTER_* bits: an assist rewrote the counter, a PMI is due. */
    guint (*after_count)(PmsSim *s, const SimUnit *u, guint64 inc, gboolean carry, const PmsSimRun *run);
    /* Optional, PEBS in closed form (the fast engine, sim_engine.c): unit
     * u's PEBS state (SIM_PEBS_*); of its next `want` assists how many in a
     * row behave alike, and whether they raise a PMI; run n such assists at
     * once, the first at cycle `first`, one every `period` cycles, with
     * nothing else happening between them (the counter ends reloaded). */
    guint (*pebs_state)(const PmsSim *s, const SimUnit *u);
    guint64 (*pebs_uniform)(const PmsSim *s, const SimUnit *u, guint64 want, gboolean *pmi);
    void (*pebs_repeat)(PmsSim *s, const SimUnit *u, guint64 first, guint64 period, guint64 n, const PmsSimRun *run);
    /* Optional: the device's own run inputs (sim_input.h: its run keys and
     * input block) and its current inputs, a block in its state that the
     * runs read (pms_sim_set_input, a stimulus run's tokens). */
    const SimRunInputs *inputs;
    gpointer (*input)(PmsSim *s);
    /* Optional: the device's record keywords of the stimulus, NULL-terminated. */
    const SimStimRecordType *const *records;
    /* Optional, for traces: the device's own fields of the record of `cycle`
     * (the x86 core's LBR capture). */
    void (*trace)(const PmsSim *s, guint64 cycle, PmsSimTrace *t);
};

enum { SIM_AFTER_ASSIST = 1, SIM_AFTER_PMI = 2 };
enum { SIM_PEBS_OFF, SIM_PEBS_WAITING, SIM_PEBS_ARMED };

/* ---- the LBR of the x86 core device (lbr.c) ------------------------------- */

enum { SIM_LBR_MAX = 32 };

typedef struct {
    guint n; /* entries; 0: the model has no LBR */
    guint64 *tos, *sel, *from[SIM_LBR_MAX], *to[SIM_LBR_MAX];
    SimField tos_f, from_addr, from_sext, from_mp, to_addr, to_sext;
    SimField to_cycles; /* glm: TO_IP 63:48, core clocks since the last update (saturating) */
    /* skl: MSR_LBR_INFO_n (kind lbr_info, layout lbr_info: mispred, in_tx,
     * tsx_abort, cycles); info[i] NULL: the model has none */
    guint64 *info[SIM_LBR_MAX];
    SimField info_mp, info_tx, info_abort, info_cycles;
    guint64 last_update; /* the cycle of the last entry written (RESET: cycle 0) */
    PmsLbrJmpRule rule;
    PmsLbrCallstackRule cs_rule; /* model option lbr_callstack */
    /* what the last capture did, for traces: in cycle `at` (G_MAXUINT64:
     * none yet) `offered` branches, `added` entries written, `popped`
     * returns that popped one (call-stack mode); TOS after them */
    guint64 at;
    guint offered, added, popped, tos_after;
    gboolean on;
} SimLbr;

/* Resolve the model's LBR registers and fields (none: n = 0). */
gboolean sim_lbr_init(SimLbr *l, PmsSim *sim, GError **error);
/* RESET: the elapsed-cycle count starts again from cycle 0. */
void sim_lbr_reset(SimLbr *l);
/* The run's branches into the ring, when `on` (DEBUGCTL.LBR and not
 * frozen); a branch of CPL PMS_SIM_LBR_CPL_RUN takes `cpl`, the run's CPL of
 * thread 0; `in_tx`: thread 0 is inside a transactional region (LBR_INFO).  Records the capture for traces (at, offered, ...). */
void sim_lbr_capture(SimLbr *l, PmsSim *sim, gboolean on, const PmsSimLbrBranch *br, guint n, guint cpl,
                     gboolean in_tx);
/* The LBR's fields of a trace record of `cycle`. */
void sim_lbr_trace(const SimLbr *l, guint64 cycle, PmsSimTrace *t);
/* The x86 core's `branch=` key (pms_lbr_parse_branch, CPL: the run's). */
gboolean sim_lbr_key_branch(const PmsModel *m, const char *value, gpointer field, GError **error);


/* The family registry's simulator layer (sim/families.c): the device of the
 * model's family; NULL when it is not simulated.  Every registered device,
 * for what the stimulus format takes from all of them (run keys, record
 * keywords): *n of them. */
const SimDeviceOps *sim_device_for(const PmsModel *m);
const SimDeviceOps *const *sim_devices(guint *n);
gboolean sim_device_table_check(GPtrArray *problems);

/* sim_core.c */
static inline guint64 *sim_storage(PmsSim *s, const PmsRegister *r)
{
    return r ? &s->val[r - s->model->regs] : &s->zero;
}
/* One PMI recorded in `cycle`, raised by the units of `cause` (bit k: unit
 * k); the first PMS_SIM_PMI_LISTED and the last PMS_SIM_PMI_TAIL kept, all
 * counted. */
void sim_pmi_record(PmsSim *s, guint64 cycle, guint64 cause);
/* `total` PMIs at once, in order: the first min(total, room) of them in
 * head (room: PMS_SIM_PMI_LISTED less those listed), the last
 * min(total, PMS_SIM_PMI_TAIL) in tail, each with its cause. */
void sim_pmi_record_many(PmsSim *s, const guint64 *head, const guint64 *head_cause, guint n_head, const guint64 *tail,
                         const guint64 *tail_cause, guint n_tail, guint64 total);
/* The units of a run that records a PMI: cause bit k names unit k's
 * counter (pms_sim_pmi_cause_counter).  Every unit is compared, since a
 * device's unit list need not keep its first and last while the others
 * change; it is copied only when one did. */
static inline void sim_note_units(PmsSim *s, const SimUnit *u, guint nu)
{
    guint k = 0;
    if (s->n_unit_ctr == nu)
        while (k < nu && s->unit_ctr[k] == u[k].ctr)
            k++;
    for (; k < nu; k++)
        s->unit_ctr[k] = u[k].ctr;
    s->n_unit_ctr = nu;
}
static inline guint sim_pmi_room(const PmsSim *s)
{
    return PMS_SIM_PMI_LISTED - MIN(s->pmis->len, PMS_SIM_PMI_LISTED);
}
/* One external notification in `cycle` (PMS_SIM_EXT_LISTED kept, all
 * counted). */
void sim_ext_record(PmsSim *s, guint64 cycle);
gboolean sim_gp_error(GError **error, const PmsRegister *r, guint64 value, guint64 bad, const char *why);
/* dev_pairs.c: a PMU of gp_counters event-select (evtsel k) / counter (pmc
 * k) pairs, at most max (amd64, toy): each pair's registers and 2^gp_width
 * - 1; FALSE with the model refused ("model M: WHO has 1..max counters"). */
gboolean sim_counter_pairs(PmsSim *sim, guint max, const char *who, const PmsRegister **ctl, const PmsRegister **ctr,
                           guint64 *mask, GError **error);
/* Does signal key `sig` feed an event select with event code E and unit mask
 * U?  BITS (default): the umask bits of the signal all lie inside U (a signal
 * of umask 0 only under umask 0); EXACT (exact_code[E], from the model's
 * `match = exact` events, sim_exact_codes): equal umask.  semantics.md §10. */
gboolean sim_signal_selects(const gboolean *exact_code, guint64 E, guint64 U, guint32 sig);
void sim_exact_codes(const PmsModel *m, gboolean *exact_code); /* 256 entries */
/* Parse option `key` = CODE.UMASK (hex) into a signal key; fallback when absent. */
gboolean sim_signal_option(const PmsModel *m, const char *key, guint32 fallback, guint32 *out, GError **error);
