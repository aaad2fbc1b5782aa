/* pmusim — the ia64 family's per-event facts (Itanium 2 9000, Montecito).
 *
 * The facts libpfm's Montecito table gives per event (docs/model-format.md,
 * "Itanium events"): how often it occurs per cycle, its cache group and set,
 * its type, the qualifiers it supports, its EAR kind and mode, ETB, MESI and
 * the debug-register pair of its code range.  The family owns them: the
 * model file's keys are declared once, as data, in its descriptor table
 * (models/model_ia64.c, family.h PmsEventFacts), and the generic loader,
 * image and lint read and write them by that table without naming one.  An
 * event of an ia64 model points at its facts (PmsEvent.facts); family code
 * reads them with pms_ia64_facts(). */
#pragma once

#include <glib.h>
#include "pms_api.h"
#include "model.h"

G_BEGIN_DECLS

typedef enum {
    PMS_IA64_GROUP_NONE,
    PMS_IA64_GROUP_L1D, /* one set at a time; one event sits in PMC5 */
    PMS_IA64_GROUP_L2D, /* at most two sets at a time */
} PmsIa64CacheGroup;

typedef enum {
    PMS_IA64_TYPE_NONE,          /* not given */
    PMS_IA64_TYPE_ACTIVE,        /* only while its thread is active */
    PMS_IA64_TYPE_FLOATING,      /* also while its thread is inactive */
    PMS_IA64_TYPE_CAUSAL,        /* belongs to no thread */
    PMS_IA64_TYPE_SELF_FLOATING, /* floating when measured with .me, else causal */
} PmsIa64EventType;

/* Which instruction-address debug-register pair restricts an iarr event's
 * code range (reference range-restriction.md §6, from libpfm's dispatch):
 * IBRP0 for ordinary events (fine mode: IBRP0 + IBRP2); IBRP1 for the
 * instruction-prefetch events; both for the "dual" fetch events, IBRP0 for
 * their demand fetches and IBRP1 for their prefetches; the CPU_OP_CYCLES
 * events cannot be measured while IBRP1 restricts prefetches. */
typedef enum {
    PMS_IA64_CODE_RANGE_IBRP0, /* default */
    PMS_IA64_CODE_RANGE_PREFETCH,
    PMS_IA64_CODE_RANGE_DUAL,
    PMS_IA64_CODE_RANGE_NOT_IBRP1,
} PmsIa64CodeRange;

typedef enum {
    PMS_IA64_EAR_NONE,
    PMS_IA64_EAR_I, /* instruction EAR: umask to PMC37 */
    PMS_IA64_EAR_D, /* data EAR: umask to PMC40 */
} PmsIa64Ear;

typedef enum {
    PMS_IA64_EAR_MODE_NONE,
    PMS_IA64_EAR_MODE_CACHE,
    PMS_IA64_EAR_MODE_TLB,
    PMS_IA64_EAR_MODE_ALAT, /* D-EAR only */
} PmsIa64EarMode;

enum {
    PMS_IA64_QUAL_OPCM = 1u << 0, /* measured accurately under opcode matching (PMC32-35) */
    PMS_IA64_QUAL_IARR = 1u << 1, /* ... under code-range restriction (IBRs, PMC38) */
    PMS_IA64_QUAL_DARR = 1u << 2, /* ... under data-range restriction (DBRs, PMC41) */
};

/* The event code of the retired-instruction family (IA64_INST_RETIRED,
 * IA64_TAGGED_INST_RETIRED_IBRPk): its unit mask k is the IBR pair whose
 * tag it counts (reference range-restriction.md; registers.md 8). */
enum { PMS_IA64_RETIRED_CODE = 0x08 };

/* One event's facts.  Every member is 32 bits wide (the descriptor table
 * reads and writes them as such); an absent key leaves its default:
 * cache_set -1, every other member 0 (none, nothing supported). */
typedef struct {
    guint max_inc;                 /* most occurrences per cycle (1..8); the exclusive
                                    * bound of a useful thres; 0 = not given */
    PmsIa64CacheGroup cache_group; /* L1D/L2D cache event group, or none */
    gint cache_set;                /* set within cache_group (0..15), -1 = none */
    PmsIa64EventType ev_type;      /* active / floating / causal / self-floating */
    guint qualifiers;              /* PMS_IA64_QUAL_*: qualifiers the event supports */
    PmsIa64Ear ear;                /* I-EAR / D-EAR event, or none */
    PmsIa64EarMode ear_mode;       /* cache / tlb / alat (EAR events only) */
    gboolean etb;                  /* programs the execution trace buffer (PMC39) */
    gboolean mesi;                 /* takes the MESI qualifiers of the counting PMC */
    PmsIa64CodeRange code_range;   /* the IBR pair(s) of its code range */
} PmsIa64EventFacts;

/* The facts of e: its own in a model of the ia64 family, else (an event
 * without facts, of another family or made by hand) the defaults. */
static inline const PmsIa64EventFacts *pms_ia64_facts(const PmsEvent *e)
{
    static const PmsIa64EventFacts none = { .cache_set = -1 };
    return e && e->facts ? (const PmsIa64EventFacts *)e->facts : &none;
}

/* Fact names as written in model files ("l2d", "self_floating", "dear",
 * "tlb"); "none" for the zero value, NULL when out of range. */
PMS_API const char *pms_ia64_cache_group_name(PmsIa64CacheGroup g);
PMS_API const char *pms_ia64_event_type_name(PmsIa64EventType t);
PMS_API const char *pms_ia64_ear_name(PmsIa64Ear ear);
PMS_API const char *pms_ia64_ear_mode_name(PmsIa64EarMode mode);

G_END_DECLS
