/* pmusim — cycle-level PMU simulator: one PMU instance read and written by
 * register address, advanced by runs of identical cycles.
 *
 * The instance is a device model chosen by the model's architecture (x86
 * core today; sim/dev_*.c, docs/architecture.md "The simulator as
 * devices"); the API below is the same for every device.
 *
 * The instance models the PMU of one logical processor (thread 0).  On SMT
 * parts the stimulus also carries the sibling's (thread 1) occurrences and CPL,
 * which AnyThread counters combine; the sibling's own PMU registers are not
 * modelled.  All counting rules are documented, with their sources and the
 * choices where sources disagree, in docs/semantics.md.
 *
 * Two engines share the register layer and the pure per-cycle pipeline
 * (pms_sim_pipe): PMS_SIM_REFERENCE steps every cycle; PMS_SIM_FAST advances a
 * run of identical cycles in closed form, splitting it only at the exact cycles
 * where an overflow raises a PMI.  Both must give identical results.
 */
#pragma once

#include <glib.h>
#include "pms_api.h"
#include "model.h"
#include "program.h"

G_BEGIN_DECLS

#define PMS_SIM_ERROR (pms_sim_error_quark())
PMS_API GQuark pms_sim_error_quark(void);

typedef enum {
    PMS_SIM_ERROR_GP,       /* the write would take #GP on hardware (register unchanged) */
    PMS_SIM_ERROR_MODEL,    /* the model lacks something the simulator needs */
    PMS_SIM_ERROR_STIMULUS, /* malformed stimulus (file:line named) */
    PMS_SIM_ERROR_MISMATCH, /* a stimulus read/expectation did not hold */
    PMS_SIM_ERROR_INPUT, /* a stimulus that is not text its reader takes: a NUL byte, a line or file over its limit */
    PMS_SIM_ERROR_BOUND, /* a run needs more steps than pms_sim_set_max_steps allows */
} PmsSimError;

enum {
    PMS_SIM_MAX_THREADS = 2,
    PMS_SIM_MAX_BRANCHES = 64, /* branches of one run (br=, branch=) */
};

typedef enum {
    PMS_SIM_REFERENCE, /* per-cycle loop: the executable specification */
    PMS_SIM_FAST,      /* closed form per run (O(1) per run and PMI) */
} PmsSimEngine;

typedef struct PmsSim PmsSim;

/* ---- Inputs: one run of identical cycles ------------------------------- */

/* A signal is named by event code and unit mask; its key is code << 8 | umask. */
#define PMS_SIGNAL_KEY(code, umask) ((((guint32)(code)) << 8) | ((guint32)(umask)&0xffu))

typedef struct {
    guint32 signal; /* PMS_SIGNAL_KEY */
    guint thread;   /* 0 .. threads-1 */
    guint64 count;  /* occurrences per cycle (< 2^32) */
    guint box;      /* 0: the PMU's own box; n + 1: box n of the model's unit
                       * (a stimulus for nhmex_cbox3 reaching C-Box 5: 6) */
} PmsSimCount;

/* One offcore transaction class completing `count` times per cycle.  req and
 * resp are bit masks in the OFFCORE_RSP register's own bit space (request bits,
 * response/supplier/snoop bits).  inflight: an occupancy sample (GLM
 * OUTSTANDING): `count` requests of class req are in flight this cycle. */
typedef struct {
    guint thread;
    guint64 req, resp;
    gboolean inflight;
    guint64 count;
} PmsSimOffcore;

/* `count` loads per cycle retiring with this latency (core cycles). */
typedef struct {
    guint thread;
    guint32 latency;
    guint64 count;
} PmsSimLoad;

typedef struct {
    guint64 cycles;                  /* >= 1 */
    guint8 cpl[PMS_SIM_MAX_THREADS]; /* 0..3 per thread */
    const PmsSimCount *counts;
    guint n_counts;
    const PmsSimOffcore *offcore;
    guint n_offcore;
    const PmsSimLoad *loads;
    guint n_loads;
} PmsSimRun;

/* ---- Per-cycle trace (reference engine; setting a trace forces it) ------ */

/* Why a counter does not count in a cycle (PmsSimTrace.off): every reason
 * that holds, as bits. */
enum {
    PMS_SIM_OFF_COUNTER = 1 << 0, /* its own enable is clear (PERFEVTSEL.EN, FIXED_CTR_CTRL EN, C-Box en) */
    PMS_SIM_OFF_GLOBAL = 1 << 1,  /* the global control does not enable it (IA32_PERF_GLOBAL_CTRL, the
                                   * uncore's GLOBAL_CTRL, the U-Box's en_all; a v3 freeze clears these) */
    PMS_SIM_OFF_BOX = 1 << 2,     /* the box's control (a C-Box's GLOBAL_CTL ctr_en bit) */
    PMS_SIM_OFF_FROZEN = 1 << 3,  /* frozen: CTR_Frz in GLOBAL_STATUS (v4), PMC0.fr (Itanium) */
    PMS_SIM_OFF_PLM = 1 << 4,     /* Itanium: plm = 0, no privilege level counts */
};

typedef struct PmsPipeCfg PmsPipeCfg;
typedef struct PmsPipeOut PmsPipeOut;

typedef struct {
    guint64 cycle;
    gboolean fixed;    /* fixed counter (else general purpose) */
    guint index;       /* counter index within its kind */
    gboolean enabled;  /* counting this cycle (local & global enable, not frozen) */
    guint64 n;         /* occurrences after privilege filter and any-thread combine */
    gboolean cond;     /* threshold stage output (cmask 0: n > 0) */
    gboolean edge;     /* edge detector fired (only meaningful with E) */
    guint64 inc;       /* amount added this cycle */
    guint64 value;     /* counter after this cycle */
    gboolean overflow; /* carry out of the top bit this cycle */
    guint64 status;    /* the status register of the counter's overflow bit after this cycle
                         * (GLOBAL_STATUS; a C-Box's own status on the Xeon 7500) */
    gboolean pmi;      /* a PMI was raised in this cycle (by any counter) */
    guint box;         /* the counter's box instance where a device has several (C-Box n) */
    /* What the stages did (for teaching traces; docs/sim-cli.md): */
    guint64 cycles; /* cycles this record stands for: 1, or a span of identical cycles
                         * (pms_sim_set_trace_spans); the fields above are its last cycle's */
    guint n_threads;
    guint64 occ[PMS_SIM_MAX_THREADS]; /* the counter's occurrences per thread, before any filter */
    guint8 cpl[PMS_SIM_MAX_THREADS];
    const PmsPipeCfg *cfg;  /* the counter's pipeline configuration (valid in the callback) */
    const PmsPipeOut *pipe; /* every stage's output; NULL when not enabled */
    gboolean has_latch;     /* the counter has an edge detector */
    gboolean latch_before;  /* its latch before the (first) cycle */
    guint off;              /* not enabled: PMS_SIM_OFF_* reasons (0 when unknown) */
    guint64 mask;           /* 2^width - 1 */
    guint64 carries;        /* carries out of the top bit in the span */
    guint64 pmis;           /* PMIs raised in the span (by any counter) */
    gboolean pebs_assist;   /* a PEBS assist wrote a record and reloaded the counter (pebs.h) */
    /* The LBR in the record's first cycle (x86 core; lbr.h): branches the
     * run offered, how many went into the ring, whether it was recording
     * (DEBUGCTL.LBR, not frozen), and MSR_LASTBRANCH_TOS after them. */
    guint lbr_offered, lbr_new, lbr_tos;
    guint lbr_popped; /* of lbr_offered: near returns that popped an entry (call-stack mode) */
    gboolean lbr_on;
} PmsSimTrace;

typedef void (*PmsSimTraceFn)(const PmsSimTrace *rec, gpointer user_data);

/* ---- Instance ------------------------------------------------------------ */

/* Create an instance of the model's PMU in its RESET state.  Fails with
 * PMS_SIM_ERROR_MODEL when the model's architecture is not simulated yet or a
 * register field the simulator needs is missing. */
PMS_API PmsSim *pms_sim_new(const PmsModel *m, GError **error);
PMS_API void pms_sim_free(PmsSim *sim);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PmsSim, pms_sim_free)

/* Back to the RESET state (cycle 0, no PMIs). */
PMS_API void pms_sim_reset(PmsSim *sim);
PMS_API void pms_sim_set_engine(PmsSim *sim, PmsSimEngine engine);
PMS_API PmsSimEngine pms_sim_get_engine(const PmsSim *sim);
PMS_API void pms_sim_set_trace(PmsSim *sim, PmsSimTraceFn fn, gpointer user_data);
/* spans = TRUE: the trace does not force the reference engine; the fast
 * engine reports each segment as up to two records per counter (its first
 * cycle, then the rest, PmsSimTrace.cycles long), so a 2^47-cycle run is a
 * handful of records.  The reference engine still reports single cycles. */
PMS_API void pms_sim_set_trace_spans(PmsSim *sim, gboolean spans);
/* Bound each run's work: at most `steps` steps, where a step is a cycle of a
 * run stepped cycle by cycle (the reference engine, a per-cycle trace, PEBS
 * armed), a segment of the fast engine, or a wrap it walks (interrupting
 * counters at distinct rates that are not powers of two: their wraps over
 * the segment or over one period of their union, whichever are fewer).  A
 * run beyond the bound fails with PMS_SIM_ERROR_BOUND: a
 * cycle-by-cycle run before its first cycle counts, a fast one where the
 * bound is reached (the instance is then part-way through the run).  0 (the
 * default): no bound. */
PMS_API void pms_sim_set_max_steps(PmsSim *sim, guint64 steps);
PMS_API const PmsModel *pms_sim_model(const PmsSim *sim);
PMS_API guint pms_sim_threads(const PmsSim *sim);

/* WRMSR / RDMSR (the MSR space).  A write to an unknown address, a read-only register or a
 * reserved bit fails with PMS_SIM_ERROR_GP naming the register and the bits;
 * the register is left unchanged.  Reading an unknown address is a #GP too. */
PMS_API gboolean pms_sim_write(PmsSim *sim, guint32 address, guint64 value, GError **error);
PMS_API gboolean pms_sim_read(PmsSim *sim, guint32 address, guint64 *value, GError **error);

/* The same in any register space of the model (model.h PmsRegSpace): the
 * Itanium's PMC, PMD, IBR and DBR registers by number (PMS_SPACE_PMD, 4 is
 * PMD4); PMS_SPACE_MSR is pms_sim_write / pms_sim_read.  Errors as above,
 * the register named with its space ("#GP: read of PMD 37: no such
 * register on montecito"). */
PMS_API gboolean pms_sim_write_at(PmsSim *sim, PmsRegSpace space, guint32 number, guint64 value, GError **error);
PMS_API gboolean pms_sim_read_at(PmsSim *sim, PmsRegSpace space, guint32 number, guint64 *value, GError **error);

/* Apply register writes in order (program.h), each in its register's space
 * (PmsRegWrite.reg->space; MSR when reg is NULL): a partial write (mask not all
 * ones) is a read-modify-write through the device.  Stops at the first #GP. */
PMS_API gboolean pms_sim_apply(PmsSim *sim, const PmsRegWrite *writes, guint n, GError **error);

/* Program an encoder's codes for event ev on general counter `counter` (on
 * fixed counter `counter` for an event no general counter takes): the writes
 * of the architecture's program step (program.h), applied.  Errors: a
 * counter the event may not use, codes the event has no register for, a #GP
 * (the message names the register and the bits). */
PMS_API gboolean pms_sim_program(PmsSim *sim, const PmsModel *m, const PmsEvent *ev, guint counter,
                                 const guint64 *codes, guint n_codes, GError **error);

/* The lowest counter the event (with the unit masks of umask_mask) may use
 * (pms_program_place). */
PMS_API gboolean pms_sim_event_counter(const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask, guint *counter,
                                       gboolean *fixed);
/* The address of counter `counter` (PMCx / FIXED_CTRx), 0 when absent, and its
 * overflow bit in the global status register. */
PMS_API guint32 pms_sim_counter_address(const PmsModel *m, guint counter, gboolean fixed);
PMS_API guint64 pms_sim_status_bit(const PmsModel *m, guint counter, gboolean fixed);
/* The global-control bits that enable general counters 0 .. n_gp-1 and, when
 * `fixed`, every fixed counter, within the register's writable bits (0 when
 * the model has no global control): what software writes to count on just
 * those, where enabling every writable bit may be refused (skl, smt = on,
 * hides PMC4-7). */
PMS_API guint64 pms_sim_enable_bits(const PmsModel *m, guint n_gp, gboolean fixed);

/* Set a counter (PMC, A_PMC or FIXED_CTR address) to any value that fits its
 * width, bypassing the legacy sign extension: an experiment's preload, not a
 * WRMSR.  Fails for other registers and for values wider than the counter. */
PMS_API gboolean pms_sim_set_counter(PmsSim *sim, guint32 address, guint64 value, GError **error);
/* The same for a counter of any space (the Itanium's PMD4..15). */
PMS_API gboolean pms_sim_set_counter_at(PmsSim *sim, PmsRegSpace space, guint32 number, guint64 value, GError **error);

/* A run input of the device, by the name and with the text of its
 * stimulus run token (docs/stimulus-format.md "run"): "ip" "0x1000,-", "psr"
 * "up", "branch" "0x10:0x20:jcc".  Each device reads its own inputs (the
 * Itanium's ip, insn, daddr, mesi, psr, isa, fetch, dear, iear, br; the x86
 * core's ip, daddr, dse, branch, slots); they hold for the following runs until
 * changed, and pms_sim_new / pms_sim_reset leave each at its default (the
 * token absent).  A key given a value replaces the input (threads the value
 * does not list: none), except a repeatable one (br, branch), which appends
 * one more (at most PMS_SIM_MAX_BRANCHES); value NULL puts the input back to
 * its default (a repeatable one: empty).  A key another family's device
 * reads is checked and ignored, as in a stimulus.  Errors
 * (PMS_SIM_ERROR_STIMULUS): the stimulus's messages, without source:line;
 * an unknown key.  Typed setters of the same inputs: sim_ia64.h, lbr.h,
 * pebs.h. */
PMS_API gboolean pms_sim_set_input(PmsSim *sim, const char *key, const char *value, GError **error);

/* Advance by run->cycles identical cycles (validates threads, CPL, counts). */
PMS_API gboolean pms_sim_run(PmsSim *sim, const PmsSimRun *run, GError **error);

/* Cycles simulated so far (the next cycle's number). */
PMS_API guint64 pms_sim_cycle(const PmsSim *sim);

/* Cycles in which a PMI was raised, in order (one per cycle however many
 * counters overflowed in it; model option pmi_skid = k records it k cycles
 * after the overflow, while status and freeze stay in the overflow cycle):
 * the first PMS_SIM_PMI_LISTED of them and the last PMS_SIM_PMI_TAIL;
 * pms_sim_pmi_total counts them all (a run may raise 2^47, and the
 * simulator's memory stays bounded).  The tail is smaller than the head:
 * the fast engine walks it back from the end of every segment that raises
 * many PMIs, so its length is work paid per segment, while the first ones
 * are found once per instance; 64 covers every report (they show 16). */
#define PMS_SIM_PMI_LISTED 4096u
#define PMS_SIM_PMI_TAIL 64u
PMS_API const guint64 *pms_sim_pmis(const PmsSim *sim, guint *n);
PMS_API guint64 pms_sim_pmi_total(const PmsSim *sim);
/* Each listed PMI's cause, parallel to pms_sim_pmis: the counters whose
 * interrupt-enabled overflow (or PEBS assist) raised it, bit k for the
 * device's counter k (pms_sim_pmi_cause_counter names it). */
PMS_API const guint64 *pms_sim_pmi_causes(const PmsSim *sim, guint *n);
/* The last PMIs that pms_sim_pmis does not list (none while the total is at
 * most PMS_SIM_PMI_LISTED; at most PMS_SIM_PMI_TAIL), in order: their cycles
 * and causes into arrays of PMS_SIM_PMI_TAIL; returns how many.  The PMIs
 * between the two lists are only counted. */
PMS_API guint pms_sim_pmi_tail(const PmsSim *sim, guint64 *cycles, guint64 *causes);
/* The counter register of cause bit `bit` (NULL when no run has had it). */
PMS_API const PmsRegister *pms_sim_pmi_cause_counter(const PmsSim *sim, guint bit);

/* External notifications (Itanium's PMC.ev, "external visibility": one on
 * every overflow of a counter with ev set, whatever its oi; IA64 Table 7-4,
 * docs/semantics.md §11.3).  Returns the cycles of the first ones, in order
 * (at most PMS_SIM_EXT_LISTED; two counters in one cycle give two entries
 * of that cycle), *n_listed of them, and the total in *total. */
#define PMS_SIM_EXT_LISTED 64u
PMS_API const guint64 *pms_sim_ext_notifications(const PmsSim *sim, guint *n_listed, guint64 *total);

/* Edge latch of general counter i (for tests and traces). */
PMS_API gboolean pms_sim_edge_latch(const PmsSim *sim, guint i);

/* ---- The pure pipeline, shared by both engines --------------------------- */

struct PmsPipeCfg {
    gboolean usr, os; /* privilege filter (fixed: EN bit 1 / bit 0) */
    gboolean edge, inv;
    gboolean inv_gt; /* INV reads "n > cmask" (Xeon 7500 C-Box table, literal) instead of "n < cmask" */
    guint cmask;     /* 0: add n */
    /* Not read by the pipeline, for traces: non-zero when the register's
     * threshold t compares n > t (Itanium thres, thres_compare = gt), so
     * cmask is t + 1; 0 when cmask is the field as written. */
    guint thres_gt;
    gboolean any; /* AnyThread, only honoured when smt */
    gboolean smt;
    gboolean combine_or;   /* any-thread combine is OR (clock events, A6) */
    gboolean cpl_gate_pre; /* A3 alternative: gate thread T before the threshold */
    guint thread;          /* the programming thread T */
    guint n_threads;
    gboolean per_level; /* Itanium: the privilege filter is plm (bit k counts at CPL k), not usr/os */
    guint plm;          /* with per_level: the 4-bit privilege-level mask */
};

struct PmsPipeOut {
    guint64 n;      /* combined occurrences */
    gboolean cond;  /* threshold output (after invert) */
    gboolean edge;  /* edge detector output */
    guint64 inc;    /* increment */
    gboolean latch; /* new edge latch */
    /* the intermediate stages, in order (traces show them; nothing reads them to count) */
    gboolean gate[PMS_SIM_MAX_THREADS]; /* privilege filter: thread t's CPL qualifies */
    gboolean gate_pre;                  /* the filter applied before the threshold (any-thread, or cpl_gate_pre) */
    gboolean combined;                  /* any-thread combine of every thread (any and smt) */
    gboolean thr;                       /* threshold comparison before invert: n >= cmask (cmask 0: n > 0) */
    guint64 inc_pre;                    /* the increment before the post privilege gate */
    gboolean blocked;                   /* the post gate (A3) zeroed a non-zero increment */
};

/* One enabled cycle of one counter: occurrences n[t] and CPLs cpl[t] of every
 * thread, the edge latch before the cycle -> increment and new latch. */
PMS_API PmsPipeOut pms_sim_pipe(const PmsPipeCfg *cfg, const guint64 *n, const guint8 *cpl, gboolean latch);

/* ---- Benchmark ------------------------------------------------------------ */

typedef struct {
    double ref_cycles_per_s, ref_records_per_s;
    double fast_cycles_per_s, fast_records_per_s;
    double ratio;           /* fast / reference cycles per second */
    double big_run_seconds; /* fast engine: 2^47 constant cycles, preload to overflow */
    guint64 big_run_cycles;
    gboolean big_run_overflowed;
} PmsSimBench;

/* Run both engines on the same run-length stimulus (4096 records of 1..max_run
 * identical cycles, uniformly random with a fixed seed; counter 0 counts
 * INST_RETIRED.ANY_P, counter 1 the same with c=2 e, the fixed counters their
 * signals) for at least min_seconds each, then the fast engine on one
 * 2^47-cycle run of constant stimulus into a counter preloaded with
 * 2^48 - 2^47 (big_run_overflowed: the PMI came in its last cycle). */
PMS_API gboolean pms_sim_bench(const PmsModel *m, double min_seconds, guint max_run, PmsSimBench *out, GError **error);

G_END_DECLS
