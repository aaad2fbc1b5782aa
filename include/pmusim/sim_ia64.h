/* pmusim — the Itanium 2 9000 (Montecito) device's run inputs, typed: what
 * the occurrences of a run carry besides their signal (instruction and
 * data address, instruction, line state, PSR, instruction set, fetch kind)
 * and thread 0's monitor events (EAR events, branches for the ETB).  Each
 * is also pms_sim_set_input's key of the same name (sim.h) and a stimulus
 * run token (docs/stimulus-format.md); implemented in sim/dev_ia64_input.c
 * over the device's input block.  On a model of another family a setter
 * sets the input when that family's device reads it too (ip and daddr: the
 * x86 core's PEBS records) and does nothing otherwise. */
#pragma once

#include <glib.h>
#include "pms_api.h"
#include "sim.h"

G_BEGIN_DECLS

/* The instruction address (IP) that the occurrences of `thread` carry in
 * the following runs, until changed; valid = FALSE (the state after
 * pms_sim_new and pms_sim_reset): they carry none.  The Itanium device
 * reads it for code-range restriction (docs/semantics.md §11), the x86
 * core's PEBS records thread 0's; the stimulus's `ip=` run token sets it
 * for one run. */
PMS_API void pms_sim_set_ip(PmsSim *sim, guint thread, gboolean valid, guint64 ip);

/* The IA-64 slot type of an instruction (the opcode matchers' m/i/f/b
 * enables, docs/semantics.md §11.5). */
typedef enum {
    PMS_SIM_SLOT_M, /* memory */
    PMS_SIM_SLOT_I, /* integer ALU */
    PMS_SIM_SLOT_F, /* floating point */
    PMS_SIM_SLOT_B, /* branch */
} PmsSimSlot;

/* The instruction (slot type and 41-bit opcode; higher bits are dropped)
 * that the occurrences of `thread` belong to in the following runs, until
 * changed; valid = FALSE (after pms_sim_new and pms_sim_reset): none.  Only
 * the Itanium device reads it, for opcode matching (PMC32-36, semantics.md
 * §11.5); the stimulus's `insn=` run token sets it for one run. */
PMS_API void pms_sim_set_insn(PmsSim *sim, guint thread, gboolean valid, PmsSimSlot slot, guint64 opcode);

/* The data address the occurrences of `thread` access in the following
 * runs, until changed; valid = FALSE: none.  The Itanium device reads it
 * for data-range restriction (DBR pairs, PMC41, semantics.md §11.6), the
 * x86 core's PEBS records thread 0's; the stimulus's `daddr=` run token
 * sets it for one run. */
PMS_API void pms_sim_set_daddr(PmsSim *sim, guint thread, gboolean valid, guint64 daddr);

/* The cache-line state (MESI) of the line the occurrences of `thread` touch
 * in the following runs, until changed; valid = FALSE (after pms_sim_new and
 * pms_sim_reset): none.  Only the Itanium device reads it: a counter of an
 * event with the model's `mesi` flag counts such an occurrence only when its
 * state's qualifier bit (PMC bits 27-30: I, S, E, M) is set
 * (docs/semantics.md §11.9); the stimulus's `mesi=` run token sets it for
 * one run. */
typedef enum {
    PMS_SIM_MESI_I,
    PMS_SIM_MESI_S,
    PMS_SIM_MESI_E,
    PMS_SIM_MESI_M,
} PmsSimMesi;
PMS_API void pms_sim_set_mesi(PmsSim *sim, guint thread, gboolean valid, PmsSimMesi state);

/* The processor status bits that gate the Itanium counters, per thread:
 * PSR.up (user monitor enable) and PSR.pp (privileged monitor enable).  A
 * counter whose PMC.pm is 0 counts only while its thread's PSR.up is set, one
 * with pm = 1 only while PSR.pp is set (docs/semantics.md §11.2). */
enum {
    PMS_SIM_PSR_UP = 1 << 0,
    PMS_SIM_PSR_PP = 1 << 1,
};
/* The PSR bits (PMS_SIM_PSR_UP | PMS_SIM_PSR_PP, or a subset) of `thread`
 * in the following runs, until changed; both set after pms_sim_new and
 * pms_sim_reset.  Only the Itanium device reads them; the stimulus's `psr=`
 * run token sets them for one run. */
PMS_API void pms_sim_set_psr(PmsSim *sim, guint thread, guint psr);

/* The instruction set `thread` executes in the following runs (PSR.is: 0
 * IA-64, 1 IA-32), until changed; IA-64 after pms_sim_new and
 * pms_sim_reset.  Only the Itanium device reads it: PMC.ism masks
 * occurrences by instruction set (docs/semantics.md §11.2); the stimulus's
 * `isa=` run token sets it for one run. */
typedef enum {
    PMS_SIM_ISA_IA64,
    PMS_SIM_ISA_IA32,
} PmsSimIsa;
PMS_API void pms_sim_set_isa(PmsSim *sim, guint thread, PmsSimIsa isa);

/* Whether `thread`'s instruction-fetch occurrences in the following runs
 * are prefetches (TRUE) or demand fetches, until changed; demand after
 * pms_sim_new and pms_sim_reset.  Only the Itanium device reads it: a dual
 * fetch event (model code_range = dual) has its demand fetches restricted
 * by IBRP0's channel and its prefetches by IBRP1's (docs/semantics.md
 * §11.4); the stimulus's `fetch=` run token sets it for one run. */
PMS_API void pms_sim_set_prefetch(PmsSim *sim, guint thread, gboolean prefetch);

/* Where a translation was found: the first-level TLB (no TLB miss), the
 * second-level TLB, the VHPT walker, or a fault (the EARs' TLB modes). */
typedef enum {
    PMS_SIM_TLB_L1,
    PMS_SIM_TLB_L2,
    PMS_SIM_TLB_VHPT,
    PMS_SIM_TLB_FAULT,
} PmsSimTlb;

/* One data access of the instance's thread (thread 0) that the D-EAR
 * (PMC40; PMD32, 33, 36) may capture: its data address, the address and
 * slot (0..2) of its instruction's bundle, its latency in cycles, where its
 * translation came from, and whether it was an ALAT miss. */
typedef struct {
    guint64 daddr;
    guint64 ip;
    guint slot;
    guint32 latency;
    PmsSimTlb tlb;
    gboolean alat;
} PmsSimDearEvent;

/* One instruction fetch of thread 0 that missed the L1I, which the I-EAR
 * (PMC37; PMD34, 35) may capture: its address, its latency, where its
 * translation came from, and whether it hit in the RAB (prefetch). */
typedef struct {
    guint64 ip;
    guint32 latency;
    PmsSimTlb tlb;
    gboolean rab;
} PmsSimIearEvent;

/* The D-EAR / I-EAR event of thread 0 in the first cycle of each following
 * run, until changed; NULL (after pms_sim_new and pms_sim_reset): none.
 * Only the Itanium device reads them (docs/semantics.md §11.10); the
 * stimulus's `dear=` / `iear=` run tokens set them for one run. */
PMS_API void pms_sim_set_dear(PmsSim *sim, const PmsSimDearEvent *ev);
PMS_API void pms_sim_set_iear(PmsSim *sim, const PmsSimIearEvent *ev);

/* A branch type for the ETB's brt filter. */
typedef enum {
    PMS_SIM_BR_REL, /* IP-relative */
    PMS_SIM_BR_RET, /* return */
    PMS_SIM_BR_IND, /* indirect, not a return */
} PmsSimBrType;

/* One resolved branch of thread 0 for the ETB (PMC39; PMD38, 39, 48-63). */
typedef struct {
    guint64 from, to; /* bundle addresses of the branch and its target */
    guint slot;       /* the branch's slot 0..2 */
    gboolean taken;
    gboolean mp_target; /* target address mispredicted */
    gboolean mp_path;   /* taken / not-taken mispredicted */
    PmsSimBrType type;
} PmsSimBranch;

/* The branches of thread 0, in order, in the first cycle of each following
 * run, until changed (n = 0: none, the state after pms_sim_new and
 * pms_sim_reset; at most 64).  Only the Itanium device reads them
 * (docs/semantics.md §11.11); the stimulus's `br=` run tokens set them for
 * one run. */
PMS_API void pms_sim_set_branches(PmsSim *sim, const PmsSimBranch *br, guint n);

G_END_DECLS
