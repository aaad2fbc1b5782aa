/* pmusim — Itanium 2 9000 (Montecito) debug-register range restriction.
 *
 * Turns up to four half-open address ranges [start, end) into the values of
 * the debug register pairs (IBR0..7 for code, DBR0..7 for data) and of the
 * configuration registers the restriction needs (PMC38, PMC41, PMC32), and
 * reports how far the programmed cover extends beyond each range.  The
 * algorithm, its error conditions and every choice where it departs from
 * libpfm's are in docs/ia64-range.md.  Needs no model: the events the
 * restriction is for are described by flags (PmsIa64RangeEvent, from a
 * model event by pms_ia64_range_event_of).
 *
 * Like the rest of the library it never prints; it reports with GError in
 * the PMS_IA64_RANGE_ERROR domain, whose codes are the error conditions of
 * libpfm_montecito(3) / pfm_dispatch_events(3). */
#pragma once

#include <glib.h>
#include "pms_api.h"
#include "model.h"
#include "model_ia64.h"

#define PMS_IA64_RANGE_MAX 4   /* ranges per request */
#define PMS_IA64_RANGE_PAIRS 4 /* IBR (or DBR) pairs: 8 registers */

/* Request flags (rr_flags). */
#define PMS_IA64_RANGE_INV 0x1u     /* code: count outside the ranges (PMC32.inv) */
#define PMS_IA64_RANGE_NO_FINE 0x2u /* code: never use fine mode */
/* code, dual fetch events (code_range = dual) only: restrict their demand
 * fetches (IBRP0) and / or their prefetches (IBRP1); one is required */
#define PMS_IA64_RANGE_DEMAND_FETCH 0x4u
#define PMS_IA64_RANGE_PREFETCH_MATCH 0x8u

typedef enum {
    PMS_IA64_RANGE_CODE, /* instruction addresses: IBRs, PMC38 */
    PMS_IA64_RANGE_DATA, /* data addresses: DBRs */
} PmsIa64RangeSide;

typedef enum {
    PMS_IA64_RANGE_ERROR_INVAL = 1,  /* PFMLIB_ERR_INVAL: API misuse (NULL, bad side, no plm, >4 ranges) */
    PMS_IA64_RANGE_ERROR_FEATCOMB,   /* an event does not support the restriction; --inv on data */
    PMS_IA64_RANGE_ERROR_IRRINVAL,   /* code: no range, or start >= end */
    PMS_IA64_RANGE_ERROR_IRRALIGN,   /* code: start or end not a multiple of 16 */
    PMS_IA64_RANGE_ERROR_IRRTOOBIG,  /* code: one pair cannot cover the range (no aligned block <= 2^56) */
    PMS_IA64_RANGE_ERROR_IRRTOOMANY, /* code: more ranges or pairs than the mode allows */
    PMS_IA64_RANGE_ERROR_DRRINVAL,   /* data: no range, or start >= end */
    PMS_IA64_RANGE_ERROR_DRRTOOMANY, /* data: the DBR pairs cannot cover the ranges */
    PMS_IA64_RANGE_ERROR_IRRFLAGS,   /* code: a dual fetch event without DEMAND_FETCH or PREFETCH_MATCH */
} PmsIa64RangeError;

#define PMS_IA64_RANGE_ERROR (pms_ia64_range_error_quark())
PMS_API GQuark pms_ia64_range_error_quark(void);
/* "PFMLIB_ERR_IRRALIGN" ...; "PFMLIB_ERR_INVAL" for an unknown code. */
PMS_API const char *pms_ia64_range_error_name(int code);

/* One event the restriction is for. */
typedef struct {
    const char *name;            /* for messages; may be NULL */
    gboolean iarr;               /* supports code range restriction */
    gboolean darr;               /* supports data range restriction */
    gboolean retired;            /* IA64_INST_RETIRED family (event code 0x08) */
    guint retired_ibrp;          /* retired only: its umask = the IBR pair it counts (0..3) */
    gboolean no_qualcheck;       /* PFMLIB_MONT_FL_EVT_NO_QUALCHECK: skip the support check */
    PmsIa64CodeRange code_range; /* its IBR pair: IBRP0, prefetch (IBRP1), dual, not with IBRP1 */
} PmsIa64RangeEvent;

typedef struct {
    guint64 start, end; /* [start, end) */
    guint plm;          /* PLM0=1 .. PLM3=8; 0: the request's plm */
} PmsIa64Range;

typedef struct {
    PmsIa64RangeSide side;
    guint flags;    /* PMS_IA64_RANGE_INV | _NO_FINE | _DEMAND_FETCH | _PREFETCH_MATCH */
    guint plm;      /* default privilege mask (non-zero, 4 bits) */
    guint n_ranges; /* 1..4 */
    PmsIa64Range ranges[PMS_IA64_RANGE_MAX];
    guint n_events; /* 0: one event that supports the restriction, not retired */
    const PmsIa64RangeEvent *events;
} PmsIa64RangeRequest;

typedef struct {
    PmsRegSpace space; /* PMS_SPACE_IBR, PMS_SPACE_DBR or PMS_SPACE_PMC */
    guint num;         /* register number within its space */
    guint64 value;
} PmsIa64RangeReg;

/* Debug-register field layout (registers.md §12). */
#define PMS_IA64_BR_MASK_BITS 0x00ffffffffffffffull /* odd register: mask[55:0] */
#define PMS_IA64_BR_PLM_SHIFT 56                    /* odd register: plm[59:56] */
#define PMS_IA64_DBR_W (1ull << 62)                 /* left 0: no debug fault */
#define PMS_IA64_BR_RX (1ull << 63)                 /* DBR r / IBR x, left 0 */

/* Configuration register defaults and fields (registers.md §4, §8, §10). */
#define PMS_IA64_PMC32_DEFAULT_RR 0x000f01ffffffffffull /* ig_ad = 0, inv = 0 */
#define PMS_IA64_PMC32_INV (1ull << 56)
#define PMS_IA64_PMC38_DEFAULT 0xdb6ull
#define PMS_IA64_PMC38_FINE (1ull << 13)
#define PMS_IA64_PMC41_DEFAULT 0x00002078fefefefeull

typedef struct {
    /* Every register written, ascending: the debug registers (IBR or DBR,
     * both registers of every pair used), then PMC32 (code only), PMC38
     * (code only), PMC41. */
    guint n_regs;
    PmsIa64RangeReg regs[2 * PMS_IA64_RANGE_PAIRS + 3];
    guint pairs_used;                      /* bit k: debug pair k (registers 2k, 2k+1) written */
    guint range_pairs[PMS_IA64_RANGE_MAX]; /* per range: bit k when pair k is part of its cover */
    /* Per range: the programmed cover is [start - soff, end + eoff). */
    guint64 soff[PMS_IA64_RANGE_MAX], eoff[PMS_IA64_RANGE_MAX];
    gboolean fine;               /* code ranges in fine mode */
    guint64 pmc32, pmc38, pmc41; /* also in regs[] when written */
} PmsIa64RangeResult;

/* Compute the registers for req into *out.  FALSE with *error set (out then
 * undefined) on any error condition of docs/ia64-range.md. */
PMS_API gboolean pms_ia64_range_compute(const PmsIa64RangeRequest *req, PmsIa64RangeResult *out, GError **error);

/* Does address a match debug pair (addr, odd) under the mask/match rule of
 * registers.md §12 (bits 63:56 always compared; code: bits 3:0 ignored)? */
PMS_API gboolean pms_ia64_br_match(PmsIa64RangeSide side, guint64 addr, guint64 even, guint64 odd);

/* The range facts of a model's Montecito event (its iarr / darr qualifiers;
 * the IA64_INST_RETIRED family by event code 0x08, whose unit mask names
 * the IBR pair it counts): the model is their one source. */
PMS_API PmsIa64RangeEvent pms_ia64_range_event_of(const PmsEvent *ev);
