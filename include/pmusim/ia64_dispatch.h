/* pmusim — Itanium 2 9000 (Montecito) dispatch: a set of events with their
 * counting PMC values, plus the model-specific features (opcode matchers,
 * I-EAR, D-EAR, ETB, IP-EAR, code and data range restriction), into every
 * register write of the measurement and the counter each event got.
 *
 * The parameters are those libpfm_montecito(3) passes to its dispatch call;
 * the API is our own.  Each configuration register's value is built from
 * the model's layouts by field name (models/montecito.pmu); the range
 * restriction is computed by include/pmusim/ia64_range.h.  Decisions, and where the
 * sources are UNCONFIRMED, are in docs/montecito-dispatch.md.
 *
 * Like the rest of the library it never prints; errors are GErrors in the
 * PMS_IA64_DISPATCH_ERROR domain whose names are libpfm's
 * (pms_ia64_dispatch_error_name). */
#pragma once

#include <glib.h>
#include "pms_api.h"
#include "ia64_range.h"
#include "model.h"
#include "program.h"

G_BEGIN_DECLS

#define PMS_IA64_DISPATCH_MAX_EVENTS 12 /* one per counter (PMC4..PMC15) */
/* counting PMCs + PMC32..PMC42 + 8 IBRs + 8 DBRs */
#define PMS_IA64_DISPATCH_MAX_WRITES (PMS_IA64_DISPATCH_MAX_EVENTS + 11 + 16)

typedef enum {
    PMS_IA64_DISPATCH_ERROR_INVAL = 1, /* PFMLIB_ERR_INVAL: bad parameter, value or model */
    PMS_IA64_DISPATCH_ERROR_TOOMANY,   /* PFMLIB_ERR_TOOMANY: more events than counters */
    PMS_IA64_DISPATCH_ERROR_NOASSIGN,  /* PFMLIB_ERR_NOASSIGN: no placement on the counters */
    PMS_IA64_DISPATCH_ERROR_EVTSET,    /* PFMLIB_ERR_EVTSET: cache events of two sets of one group */
    PMS_IA64_DISPATCH_ERROR_FEATCOMB,  /* PFMLIB_ERR_FEATCOMB: qualifier or feature combination refused */
    PMS_IA64_DISPATCH_ERROR_EVTINCOMP, /* PFMLIB_ERR_EVTINCOMP: incompatible events / configurations */
    /* From the range module (same meaning as PmsIa64RangeError): */
    PMS_IA64_DISPATCH_ERROR_IRRINVAL,
    PMS_IA64_DISPATCH_ERROR_IRRALIGN,
    PMS_IA64_DISPATCH_ERROR_IRRTOOBIG,
    PMS_IA64_DISPATCH_ERROR_IRRTOOMANY,
    PMS_IA64_DISPATCH_ERROR_DRRINVAL,
    PMS_IA64_DISPATCH_ERROR_DRRTOOMANY,
    PMS_IA64_DISPATCH_ERROR_IRRFLAGS,
} PmsIa64DispatchError;

#define PMS_IA64_DISPATCH_ERROR (pms_ia64_dispatch_error_quark())
PMS_API GQuark pms_ia64_dispatch_error_quark(void);
/* "PFMLIB_ERR_NOASSIGN" ...; "PFMLIB_ERR_INVAL" for an unknown code. */
PMS_API const char *pms_ia64_dispatch_error_name(int code);

/* Per-event flags (pfp_mont_counters[i].flags). */
#define PMS_IA64_EVT_NO_QUALCHECK 0x1u /* PFMLIB_MONT_FL_EVT_NO_QUALCHECK */

/* One event to measure. */
typedef struct {
    const PmsEvent *event; /* the model's event (its facts: counters, group/set, qualifiers, EAR, ETB) */
    guint64 pmc;           /* its counting PMC value (codes[0] of any encoder) */
    guint thres;           /* pfp_mont_counters[i].thres; 0: keep the value's thres field */
    guint flags;           /* PMS_IA64_EVT_* */
} PmsIa64DispatchEvent;

/* One opcode matcher (pfmlib_mont_opcm_t): matcher 1 is PMC32/PMC33,
 * matcher 2 PMC34/PMC35. */
typedef struct {
    gboolean used;
    gboolean m, i, f, b; /* the instruction slots it matches */
    guint64 match;       /* 41 bits */
    guint64 mask;        /* 41 bits; a 1 bit ignores that bit of match */
} PmsIa64OpcmCfg;

/* I-EAR or D-EAR configuration (pfmlib_mont_ear_t). */
typedef struct {
    gboolean used;
    PmsIa64EarMode mode; /* cache, tlb; alat (D-EAR only) */
    guint plm;           /* 0: the default plm */
    guint umask;         /* I-EAR: 8 bits in cache mode, 7 in TLB mode; D-EAR: 4 bits */
} PmsIa64EarCfg;

/* ETB configuration (pfmlib_mont_etb_t). */
typedef struct {
    gboolean used;
    guint plm;               /* 0: the default plm */
    guint ds;                /* must be 0 (1 is reserved) */
    guint tm, ptm, ppm, brt; /* 0..3 each */
} PmsIa64EtbCfg;

/* IP-EAR configuration (pfmlib_mont_ipear_t). */
typedef struct {
    gboolean used;
    guint plm;   /* 0: the default plm */
    guint delay; /* 0..255 cycles */
} PmsIa64IpearCfg;

/* Code or data range restriction (pfmlib_mont_input_rr_t). */
typedef struct {
    gboolean used;
    guint flags;    /* PMS_IA64_RANGE_INV | PMS_IA64_RANGE_NO_FINE (code only) */
    guint n_ranges; /* 1..4 */
    PmsIa64Range ranges[PMS_IA64_RANGE_MAX];
} PmsIa64DispatchRange;

typedef struct {
    const PmsModel *model; /* an ia64 model with the Montecito registers (montecito) */
    guint plm;             /* default privilege mask, PLM0 = 1 .. PLM3 = 8 (pfp_dfl_plm); required */
    gboolean system_wide;  /* pm = 1 in the configuration registers (PMC37, 39, 40, 42) */
    guint n_events;
    const PmsIa64DispatchEvent *events;
    PmsIa64OpcmCfg opcm1, opcm2;
    PmsIa64EarCfg iear, dear;
    PmsIa64EtbCfg etb;
    PmsIa64IpearCfg ipear;
    PmsIa64DispatchRange irange, drange;
} PmsIa64DispatchRequest;

/* How an EAR or the ETB was programmed: the document's method numbers. */
typedef struct {
    guint iear, dear, etb; /* EAR: 1..4 (3: not programmed); ETB: 1..4 (4: not programmed) */
} PmsIa64DispatchMethods;

typedef struct {
    /* Every register write, whole registers (mask all ones), ascending: PMCs
     * (counting PMCs, then PMC32..PMC42), IBRs, DBRs. */
    guint n_writes;
    PmsRegWrite writes[PMS_IA64_DISPATCH_MAX_WRITES];
    /* The PMC number (4..15) each event got, in request order. */
    guint counter[PMS_IA64_DISPATCH_MAX_EVENTS];
    PmsIa64DispatchMethods methods;
    /* The range module's results when the range was used. */
    gboolean irange_used, drange_used;
    PmsIa64RangeResult irange, drange;
} PmsIa64DispatchResult;

/* Dispatch req into *out.  FALSE with *error set (out then undefined) on any
 * error condition of docs/montecito-dispatch.md, checked in libpfm's order:
 * parameters, qualifiers, plm, counters, I-EAR, D-EAR, code range, data
 * range, opcode matchers, ETB, IP-EAR. */
PMS_API gboolean pms_ia64_dispatch(const PmsIa64DispatchRequest *req, PmsIa64DispatchResult *out, GError **error);

/* The counting PMC value of ev by itself (what the CLI uses for an event
 * given by name): es = its code, umask = its umask (0 for an EAR event),
 * plm = plm, ism = 2 (IA-64), MESI qualifiers all four when the event takes
 * them; every field set by name from the counting PMC's layout.  FALSE with
 * *error (INVAL) when the model lacks the register or a field. */
PMS_API gboolean pms_ia64_dispatch_default_pmc(const PmsModel *m, const PmsEvent *ev, guint plm, guint64 *value,
                                               GError **error);

/* The value written to a register in a result, or FALSE when not written. */
PMS_API gboolean pms_ia64_dispatch_written(const PmsIa64DispatchResult *res, PmsRegSpace space, guint num,
                                           guint64 *value);

G_END_DECLS
