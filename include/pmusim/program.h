/* pmusim — programming an event: the one place that puts an event on a
 * counter and turns an encoder's codes[] into register writes.
 *
 * Each architecture has one program step (sim/program/program_x86_core.c,
 * ...), a module of its own below the encoder and the simulator (the static
 * library pms-program, which uses only the models).  The builtin encoder builds PmsEncoding.writes
 * with it, and the harness feeds any other backend's codes through it, so a
 * wrong bit in any encoder's codes shows up as a wrong register and a wrong
 * count, and a library user gets the same writes the tools use.
 *
 * A write may cover part of a register (mask): "set the enable bit of
 * counter 2 in GLOBAL_CTRL" composes with the writes of other events; the
 * register becomes (old & ~mask) | value.
 */
#pragma once

#include <glib.h>
#include "pms_api.h"
#include "model.h"

G_BEGIN_DECLS

#define PMS_PROGRAM_ERROR (pms_program_error_quark())
PMS_API GQuark pms_program_error_quark(void);

typedef enum {
    PMS_PROGRAM_ERROR_COUNTER,  /* the event may not use that counter, or none */
    PMS_PROGRAM_ERROR_CODES,    /* codes missing, or more than the event has registers for */
    PMS_PROGRAM_ERROR_NOTSUPP,  /* no program step for the model's architecture */
    PMS_PROGRAM_ERROR_CONFLICT, /* a set of events that no placement can count together */
    PMS_PROGRAM_ERROR_MODEL,    /* the model lacks a register field the program step reads by name */
} PmsProgramError;

typedef struct {
    const char *name; /* register name, owned by the model: "IA32_PERFEVTSEL0" */
    guint32 address;
    guint64 value;          /* the bits written (inside mask) */
    guint64 mask;           /* bits this write owns; G_MAXUINT64 for the whole register */
    const PmsRegister *reg; /* the model's register */
} PmsRegWrite;

/* Where an event goes. */
typedef struct {
    const PmsModel *model;
    const PmsEvent *event;
    guint counter;  /* index within its kind */
    gboolean fixed; /* a fixed counter (else a general one) */
} PmsPlacement;

enum { PMS_PROGRAM_MAX_WRITES = 8 };

/* The lowest counter the event (with the unit masks of umask_mask selected,
 * bit i = ev->umasks[i]) may use: a general counter, or for an event no
 * general counter takes, the lowest fixed counter it may use. */
PMS_API gboolean pms_program_place(const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask, PmsPlacement *pl,
                                   GError **error);
/* pms_program_place for these codes: the lowest counter that also takes
 * them (skl: an IN_TXCP event on the counter whose PERFEVTSEL has the bit,
 * PERFEVTSEL2); the same as pms_program_place where codes restrict nothing. */
PMS_API gboolean pms_program_place_codes(const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask,
                                         const guint64 *codes, guint n_codes, PmsPlacement *pl, GError **error);
/* pms_program_place_codes for a caller that places one event and unit
 * masks with many codes: first is pms_program_place's placement of them,
 * found once (first_ok: whether it found one); the same answer, without
 * placing the event anew each time. */
PMS_API gboolean pms_program_place_codes_from(const PmsPlacement *first, gboolean first_ok, const PmsModel *m,
                                              const PmsEvent *ev, PmsUmaskSet umask_mask, const guint64 *codes,
                                              guint n_codes, PmsPlacement *pl, GError **error);
/* The event on a given counter (a vector's choice); FALSE when it may not use it. */
PMS_API gboolean pms_program_place_on(const PmsModel *m, const PmsEvent *ev, guint counter, gboolean fixed,
                                      PmsPlacement *pl, GError **error);

/* codes -> writes (at most PMS_PROGRAM_MAX_WRITES): *n_writes set.  The
 * enable bits inside the codes are written as given, so a code without EN
 * counts nothing; the counter's global enable is one of the writes. */
PMS_API gboolean pms_program_writes(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsRegWrite *writes,
                                    guint *n_writes, GError **error);

/* For a caller that programs one event with many codes (the encoder's
 * kept results): what placement and writes read of the codes.
 *
 * pms_program_place_code_bits: the bits of codes[0] pms_program_place_codes
 * reads (it reads no other code, and n_codes): codes that agree on them and
 * in number are placed alike.  G_MAXUINT64 when the program step does not
 * say (then every bit counts).
 *
 * pms_program_writes_src: pms_program_writes, and for each write j what its
 * value is made of: src[j] = i < n_codes, codes[i] under the write's mask;
 * PMS_PROGRAM_SRC_NONE, no code (the same for any codes, with the same
 * placement and n_codes); PMS_PROGRAM_SRC_OTHER, the codes otherwise (a
 * program step that does not say has every write so).  So the writes of
 * other codes of that placement and number are these with the codes put in
 * where no write is SRC_OTHER. */
enum { PMS_PROGRAM_SRC_NONE = 0xfe, PMS_PROGRAM_SRC_OTHER = 0xff };
PMS_API guint64 pms_program_place_code_bits(const PmsModel *m);
PMS_API gboolean pms_program_writes_src(const PmsPlacement *pl, const guint64 *codes, guint n_codes,
                                        PmsRegWrite *writes, guint *n_writes, guint8 *src, GError **error);

/* The register that holds the placed counter's value, and its overflow bit
 * in the global status register (0 when there is none). */
PMS_API const PmsRegister *pms_program_counter_reg(const PmsPlacement *pl);
PMS_API guint64 pms_program_status_bit(const PmsPlacement *pl);
/* The register that holds that overflow bit (NULL when there is none). */
PMS_API const PmsRegister *pms_program_status_reg(const PmsPlacement *pl);
/* A metrics event's reading (event flag `metrics`, Icelake's TOPDOWN_M):
 * when codes[0] selects a field of the PMU's metrics register rather than a
 * count (x86 core: unit mask bit 7, field umask & 0x7f of IA32_PERF_METRICS,
 * an 8-bit fraction of the slots its placed counter holds), the register
 * and the field's bits shift..shift+width-1, and TRUE; FALSE for every other
 * event, whose value is its counter's. */
PMS_API gboolean pms_program_metric(const PmsPlacement *pl, guint64 code0, const PmsRegister **reg, guint *shift,
                                    guint *width);

/* ---- a set of events counted together (x86 core and uncore PMUs) ----------
 *
 * Every event of a set on its own counter, each counter used once
 * (docs/sets.md):
 *  - the counters an event may use are the ones pms_program_place chooses
 *    from (the event's and its selected unit masks' `counters` / `fixed`
 *    masks in the model); an event that may use a general counter takes a
 *    fixed one only when the fixed counter counts the same thing: on the x86
 *    core, codes[0] without edge, pc, inv or cmask, and a named unit mask
 *    when the event has any (a raw unit mask stays on the general counters);
 *  - events that program the same extra register (MSR_OFFCORE_RSP_n,
 *    MSR_PEBS_LD_LAT) share it when their codes[1] are equal, else conflict;
 *  - an event sampled with PEBS (pebs) may use only the general counters
 *    PEBS can sample (IA32_PEBS_ENABLE's pebs_en bits: PMC0-3 on NHM/WSM,
 *    PMC0 on GLM);
 *  - the placement is the first in preference order that places every
 *    event: event by event in the order given, the lowest counter in the
 *    order fixed counters, then general counters, that still leaves a
 *    placement for the events after it (augmenting paths: a placement is
 *    found whenever one exists, where first fit may fail).
 * On failure the error (PMS_PROGRAM_ERROR_CONFLICT) names the events that
 * conflict and why: "A and B both need IA32_FIXED_CTR2", "3 events may use
 * only IA32_PMC0, IA32_PMC1: A, B, C", "A and B both need MSR_OFFCORE_RSP_0
 * with different values (0x... and 0x...)". */
enum { PMS_PROGRAM_MAX_SET = 32 };

typedef struct {
    const PmsEvent *event;  /* an event of the set's model */
    PmsUmaskSet umask_mask; /* its selected unit masks (bit i = event->umasks[i]) */
    const guint64 *codes;   /* as for pms_program_writes */
    guint n_codes;
    const char *name; /* for messages (the fstr, the user's string); NULL: the event's name */
    gboolean pebs;    /* sampled with PEBS: only a general counter PEBS can sample
                              * (pms_model_pebs_counters), never a fixed one */
} PmsSetEvent;

/* place[i] for evs[i]; FALSE with an error when no placement exists, when
 * the set is empty or larger than PMS_PROGRAM_MAX_SET, or when the model's
 * architecture has no set placement (PMS_PROGRAM_ERROR_NOTSUPP). */
PMS_API gboolean pms_program_place_set(const PmsModel *m, const PmsSetEvent *evs, guint n, PmsPlacement *place,
                                       GError **error);

/* The register values that program the whole set: every event's writes
 * (pms_program_writes) composed, one write per register, each covering the
 * whole register (mask G_MAXUINT64; bits no event sets are 0, so a counter
 * outside the set is disabled in the global control); in address order with
 * the global control register last (enable last).  g_free the result. */
PMS_API PmsRegWrite *pms_program_set_writes(const PmsModel *m, const PmsSetEvent *evs, const PmsPlacement *place,
                                            guint n, guint *n_writes, GError **error);

G_END_DECLS
