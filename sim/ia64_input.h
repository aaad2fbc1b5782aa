/* pmusim — the Itanium device's run inputs (sim/dev_ia64_input.c): its
 * input block, read by sim/dev_ia64.c.  Not installed. */
#pragma once

#include "sim_input.h"
#include "sim_ia64.h"

typedef struct {
    gboolean has[PMS_SIM_MAX_THREADS];
    PmsSimSlot slot[PMS_SIM_MAX_THREADS];
    guint64 op[PMS_SIM_MAX_THREADS]; /* 41 bits */
} SimIa64Insn;

typedef struct {
    gboolean has[PMS_SIM_MAX_THREADS];
    PmsSimMesi state[PMS_SIM_MAX_THREADS];
} SimIa64Mesi;

typedef struct {
    gboolean has;
    PmsSimDearEvent ev;
} SimIa64Dear;

typedef struct {
    gboolean has;
    PmsSimIearEvent ev;
} SimIa64Iear;

/* What the occurrences of a run carry per thread, and thread 0's monitor
 * events in the run's first cycle (docs/semantics.md §11). */
typedef struct {
    SimThreadAddrs ip;                /* ip= */
    SimIa64Insn insn;                 /* insn= */
    SimThreadAddrs daddr;             /* daddr= */
    SimIa64Mesi mesi;                 /* mesi= */
    guint psr[PMS_SIM_MAX_THREADS];   /* psr=: PMS_SIM_PSR_* (default both) */
    guint isa[PMS_SIM_MAX_THREADS];   /* isa=: PmsSimIsa (default IA-64) */
    guint fetch[PMS_SIM_MAX_THREADS]; /* fetch=: 1 prefetch, 0 demand (default) */
    SimIa64Dear dear;                 /* dear= */
    SimIa64Iear iear;                 /* iear= */
    SimList br;                       /* br=: PmsSimBranch, for the ETB */
} SimIa64Input;

extern const SimRunInputs sim_ia64_inputs;
