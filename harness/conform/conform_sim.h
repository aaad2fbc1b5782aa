/* pmusim — running simulation vectors (vectors/<pmu>/NAME.sim) with any encoder
 * backend, and the mutant run that measures how well they catch wrong bits.
 *
 * A sim vector's event strings go through the backend; its codes are written
 * into a fresh simulator by pms_sim_program (codes[0] to the event select,
 * codes[1] to the extra register); then the vector's stimulus runs and its
 * reads and PMI expectations decide.  The mutant run flips one bit of one
 * code at a time and re-runs the vector: a mutant is caught when the vector
 * then fails (a #GP while programming counts as caught, and is counted
 * separately). */
#pragma once

#include <glib.h>
#include "backend.h"
#include "model.h"
#include "vectors.h"

G_BEGIN_DECLS

typedef struct PmsConformSim PmsConformSim;

PmsConformSim *pms_conform_sim_new(PmsBackend *backend, const PmsModelSet *models);
void pms_conform_sim_free(PmsConformSim *cs);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PmsConformSim, pms_conform_sim_free)

/* A PmsVectorSimFunc: user_data is the PmsConformSim. */
gboolean pms_conform_sim_run(const PmsVector *v, char **message, gpointer user_data);

/* What the last failing vector's codes got wrong ("IA32_PERFEVTSEL0 edge (bit
 * 18), pc (bit 19)"; the key failures are grouped by), handed to the caller;
 * NULL when its codes were right. */
char *pms_conform_sim_take_cause(PmsConformSim *cs);

/* Parse every sim vector's stimulus against its PMU's model, so a malformed
 * one stops `pmusim conform` before anything runs (message: file:line). */
gboolean pms_conform_sim_check(PmsConformSim *cs, const PmsVectorSet *set, GError **error);
/* The same for one vector (TRUE for other kinds), as a stream parses it. */
gboolean pms_conform_sim_check_one(PmsConformSim *cs, const PmsVector *v, GError **error);
/* Drop what was kept of a vector (its parsed stimulus) before it is freed. */
void pms_conform_sim_forget(PmsConformSim *cs, const PmsVector *v);

typedef enum {
    PMS_MUTANT_CAUGHT,       /* the vector failed */
    PMS_MUTANT_CAUGHT_GP,    /* the simulator refused the write (#GP) */
    PMS_MUTANT_UNOBSERVABLE, /* survived; by the documented semantics the bit cannot change a count */
    PMS_MUTANT_MISSED,       /* survived: a missing vector */
    PMS_MUTANT_EQUIVALENT,   /* not a mutant: the only bits it changes are ones the register ignores
                               * (model key `ignored`), so it programs the same register contents */
} PmsMutantFate;

/* PmsMutant.code of a flip in the IA32_PEBS_ENABLE value a vector's `pebs`
 * lines compose (not a code of the encoder). */
enum { PMS_MUTANT_CODE_PEBS_ENABLE = 100 };

typedef struct {
    const PmsVector *vector;
    guint event; /* index into the vector's events */
    guint code;  /* codes[code], or PMS_MUTANT_CODE_PEBS_ENABLE */
    guint bit;
    PmsMutantFate fate;
    const char *why; /* unobservable: the reason (static text) */
} PmsMutant;

typedef struct {
    char *pmu;
    guint vectors, baseline_failed;
    guint mutants, caught, caught_gp, unobservable, missed;
    guint equivalent; /* left out of `mutants` */
} PmsMutantPmu;

typedef struct {
    GPtrArray *pmus;     /* PmsMutantPmu* in order of first appearance */
    GArray *survivors;   /* PmsMutant: unobservable and missed ones */
    GPtrArray *baseline; /* char*: vectors that fail unmutated (their mutants are not judged) */
    guint mutants, caught, caught_gp, unobservable, missed;
    guint equivalent; /* left out of `mutants` */
    /* MSR_LBR_SELECT mutants (vectors with an `lbr` record): every writable
     * bit flipped in turn; the missed ones as "file:line: vector ... bit N (field)" */
    guint lbr_mutants, lbr_caught;
    guint lbr_unobservable; /* the same classes and rings pass (semantics.md A13) */
    GPtrArray *lbr_missed;
} PmsMutantReport;

/* Run the mutants of every sim vector in `set` whose PMU is one of `pmus`
 * (NULL-terminated; NULL: every PMU), on `jobs` workers (threads; 1: this
 * thread alone).  The report is the same with any number of workers: each
 * vector's mutants are a job whose results are merged in vector order. */
PmsMutantReport *pms_conform_mutants(PmsConformSim *cs, const PmsVectorSet *set, const char *const *pmus, guint jobs);
/* One worker per core (g_get_num_processors). */
guint pms_conform_jobs_default(void);
void pms_mutant_report_free(PmsMutantReport *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PmsMutantReport, pms_mutant_report_free)

G_END_DECLS
