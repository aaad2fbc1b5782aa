/* pmusim — golden vectors: the parser for vectors/<pmu>/<topic>.enc files and
 * the runner that checks any encoder against them.
 *
 * The format is documented in docs/vectors-format.md.  A vector file holds one
 * kind of vector, told by its extension: ".enc" (encoding vectors, parsed
 * here) or ".sim" (simulation vectors, issue 3; the kind is reserved so the
 * runner can report them per PMU beside encoding vectors).
 *
 * The runner does not know about backends: it calls a function
 * "event string -> RET, codes, fstr" that the caller supplies, so the library
 * stays free of process handling and the tests can drive it with a fake.
 */
#pragma once

#include <glib.h>
#include "pms_api.h"
#include "lbr_config.h"

G_BEGIN_DECLS

#define PMS_VECTOR_ERROR (pms_vector_error_quark())
PMS_API GQuark pms_vector_error_quark(void);

typedef enum {
    PMS_VECTOR_ERROR_PARSE, /* malformed vector file: message starts "file:line:" */
    PMS_VECTOR_ERROR_IO,    /* unreadable file or directory */
    PMS_VECTOR_ERROR_EMPTY, /* a directory without any vector file */
} PmsVectorError;

typedef enum {
    PMS_VECTOR_ENCODE,
    PMS_VECTOR_SIM,
} PmsVectorKind;

#define PMS_VECTOR_MAX_CODES 8
/* Upper bound of one event string after repetition is expanded. */
#define PMS_VECTOR_MAX_EVENT (1u << 20)

typedef struct {
    PmsVectorKind kind;
    char *pmu;   /* folder the file lives in: "wsm" */
    char *file;  /* path used in messages: "wsm/events.enc" or the user's path */
    guint line;  /* 1-based */
    char *event; /* expanded bytes, NUL-terminated (NUL and LF are refused) */
    gsize event_len;
    char *ret; /* "PFM_SUCCESS", "PFM_ERR_UMASK", ... */
    guint n_codes;
    guint64 codes[PMS_VECTOR_MAX_CODES];
    char *fstr;   /* expected fstr, or NULL when the vector does not check it */
    char *source; /* where the expectation comes from (free text, never empty) */
    /* Kind-specific data (a simulation vector's scenario), freed with the set. */
    gpointer payload;
    GDestroyNotify payload_free;
} PmsVector;

/* A simulation vector's scenario (PmsVector.payload when kind is
 * PMS_VECTOR_SIM; format in docs/vectors-format.md, "Simulation vectors").
 * The vector's `event` field holds the first event string and `source` the
 * hand derivation of the expectation. */
#define PMS_SIM_VECTOR_MAX_EVENTS 8

typedef struct {
    guint counter; /* counter index of the kind the event uses (GP, or fixed for fixed-only events) */
    char *event;   /* the event string handed to the encoder */
    guint line;    /* line of its `event` record */
    gboolean pebs; /* `pebs N`: PEBS programmed for it too (pebs.h, pms_pebs_configure) */
} PmsSimVectorEvent;

typedef struct {
    char *name; /* `vector NAME` */
    PmsSimVectorEvent events[PMS_SIM_VECTOR_MAX_EVENTS];
    guint n_events;
    /* Inline stimulus text, line-aligned with the vector file: line k of this
     * text is line k of the file (other lines are blank), so stimulus errors
     * name the vector file's own line numbers.  Empty when all of the
     * stimulus is in a referenced file. */
    char *stim;
    /* `stimulus FILE`: the name as written, the path messages use and its text
     * (resolved by the loader; NULL when the vector has no reference). */
    char *stim_ref;
    guint stim_ref_line;
    char *stim_ref_path;
    char *stim_ref_text;
    /* `lbr [plm=LEVELS] [filter=NAMES] [freeze]`: an LBR configuration that
     * the LBR encoder (pms_lbr_encode, default privilege PLM0|PLM3) turns
     * into MSR_LBR_SELECT and IA32_DEBUGCTL, written after the events */
    gboolean has_lbr;
    PmsLbrConfig lbr;
    guint lbr_line;
} PmsSimVector;

/* The scenario of a sim vector, NULL for other kinds. */
PMS_API const PmsSimVector *pms_vector_sim(const PmsVector *v);

typedef struct PmsVectorSet PmsVectorSet;

PMS_API PmsVectorSet *pms_vector_set_new(void);
PMS_API void pms_vector_set_free(PmsVectorSet *set);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PmsVectorSet, pms_vector_set_free)

/* Parse one file's text.  `file` names it in messages, `pmu` is the PMU the
 * vectors are reported under; `kind` comes from the file name
 * (pms_vector_kind_for_name).  On error nothing is added to the set. */
PMS_API gboolean pms_vector_set_parse(PmsVectorSet *set, PmsVectorKind kind, const char *data, gsize len,
                                      const char *file, const char *pmu, GError **error);
/* The kind a file name implies: TRUE and *kind set for "*.enc" / "*.sim". */
PMS_API gboolean pms_vector_kind_for_name(const char *name, PmsVectorKind *kind);
PMS_API const char *pms_vector_kind_name(PmsVectorKind kind);

/* The vectors built into the library (embedded), every PMU folder. */
PMS_API gboolean pms_vector_set_load_builtin(PmsVectorSet *set, GError **error);
/* Only the files of the given kinds (bit 1 << PmsVectorKind). */
PMS_API gboolean pms_vector_set_load_builtin_kinds(PmsVectorSet *set, guint kinds_mask, GError **error);
/* A directory laid out like vectors/: DIR/<pmu>/<topic>.enc|.sim.  Files
 * directly in DIR are taken too and reported under DIR's own base name.
 * Other file names are ignored (README, meson.build); a directory holding no
 * vector file at all is an error, so a typo never runs zero vectors. */
PMS_API gboolean pms_vector_set_load_dir(PmsVectorSet *set, const char *dir, GError **error);

PMS_API guint pms_vector_set_count(const PmsVectorSet *set);
PMS_API const PmsVector *pms_vector_set_nth(const PmsVectorSet *set, guint i);

/* ---- running ---- */

/* What an encoder answered for one event string. */
typedef struct {
    char ret[32];
    guint n_codes;
    guint64 codes[PMS_VECTOR_MAX_CODES];
    char *fstr; /* owned by the answer (g_free'd by the runner); "" or NULL on error */
} PmsVectorAnswer;

/* Fill `out` (zeroed by the caller) for `event` (event_len bytes, NUL-terminated). */
typedef void (*PmsVectorEncodeFunc)(const char *event, gsize event_len, PmsVectorAnswer *out, gpointer user_data);

/* Run one simulation vector; TRUE when it passed, else *message says why.
 * Reserved for issue 3: without it, sim vectors fail with a message (they are
 * never skipped silently). */
typedef gboolean (*PmsVectorSimFunc)(const PmsVector *v, char **message, gpointer user_data);

/* Explain an encoding vector's wrong codes (the answer's RET and number of
 * codes are right, a code differs): the text appended to the failure message
 * ("IA32_PERFEVTSEL0 differs: edge (bit 18): expected 1, got 0; ..."), and in
 * *cause the differing fields without their values, the key failures are
 * grouped by.  NULL (and *cause untouched) when it cannot tell.  Called
 * with a NULL answer after a simulation vector failed, for *cause only (the
 * fields its codes got wrong, when the sim callback knows them). */
typedef char *(*PmsVectorExplainFunc)(const PmsVector *v, const PmsVectorAnswer *a, char **cause, gpointer user_data);

typedef struct PmsVectorOutcome PmsVectorOutcome;

typedef struct {
    PmsVectorEncodeFunc encode;
    PmsVectorSimFunc sim;
    gpointer user_data;
    PmsVectorExplainFunc explain; /* optional */
    /* optional: after each vector, how many of how many were run and the
     * vector's PMU (a progress line; called often: keep it cheap) */
    void (*progress)(guint done, guint total, const char *pmu, gpointer user_data);
    /* optional, streaming only (pms_vector_stream_*): each vector parsed, of
     * any kind or PMU, before it runs; FALSE with an error stops the stream */
    gboolean (*check)(const PmsVector *v, gpointer user_data, GError **error);
    /* optional, streaming only: each outcome as soon as its vector ran; the
     * outcome and its vector are freed after the call */
    void (*outcome)(const PmsVectorOutcome *o, gpointer user_data);
    /* optional, streaming only: each vector just before it is freed (run or not) */
    void (*release)(const PmsVector *v, gpointer user_data);
} PmsVectorOps;

struct PmsVectorOutcome {
    const PmsVector *vector;
    gboolean passed;
    char *message;    /* on failure: "file:line: \"event\": expected ..., got ..." */
    gboolean crashed; /* the backend answered BACKEND_CRASH (a failure) */
    double seconds;   /* wall time of the vector's run (the backend's answer, the simulation) */
    /* on failure: what went wrong without the vector's particulars, so that
     * failures of one cause share it: "expected PFM_ERR_UMASK, got
     * PFM_SUCCESS", the differing fields, "fstr differs", ... */
    char *cause;
};

typedef struct {
    char *pmu;
    guint vectors, passed, failed;
    double seconds; /* its vectors' wall time */
} PmsVectorPmuSummary;

typedef struct {
    GPtrArray *outcomes; /* PmsVectorOutcome*, in vector order */
    GPtrArray *pmus;     /* PmsVectorPmuSummary*, in order of first appearance */
    guint vectors, passed, failed;
    double seconds; /* the whole run's wall time */
} PmsVectorReport;

/* Run every vector of the given kinds (kinds_mask: bit 1<<PmsVectorKind). */
PMS_API PmsVectorReport *pms_vectors_run(const PmsVectorSet *set, guint kinds_mask, const PmsVectorOps *ops);
/* The same, only the vectors reported under one of the PMUs named in pmus
 * (NULL-terminated; NULL: every PMU). */
PMS_API PmsVectorReport *pms_vectors_run_pmus(const PmsVectorSet *set, guint kinds_mask, const char *const *pmus,
                                              const PmsVectorOps *ops);
PMS_API void pms_vector_report_free(PmsVectorReport *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PmsVectorReport, pms_vector_report_free)

/* ---- streaming: parsed, run and reported one vector at a time ----
 *
 * A corpus of any size in bounded memory: each vector is handed to
 * ops->check (when set) as soon as it is parsed, run when its kind and PMU
 * are selected, its outcome handed to ops->outcome, and freed (ops->release
 * first).  A .enc file is parsed vector by vector, a .sim file whole (with
 * the stimulus files it references).  An error (a malformed file, a check
 * that fails) stops the stream; the vectors before it have run.  With ops
 * NULL the stream only counts the selected vectors (a progress total). */
typedef struct PmsVectorStream PmsVectorStream;

PMS_API PmsVectorStream *pms_vector_stream_new(guint kinds_mask, const char *const *pmus, const PmsVectorOps *ops);
PMS_API void pms_vector_stream_free(PmsVectorStream *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PmsVectorStream, pms_vector_stream_free)
/* The total ops->progress is given (default 0: unknown). */
PMS_API void pms_vector_stream_set_total(PmsVectorStream *s, guint total);
/* The built-in files of the kinds in files_mask, a directory laid out like
 * vectors/ (as pms_vector_set_load_dir), or one file's text. */
PMS_API gboolean pms_vector_stream_builtin(PmsVectorStream *s, guint files_mask, GError **error);
PMS_API gboolean pms_vector_stream_dir(PmsVectorStream *s, const char *dir, GError **error);
PMS_API gboolean pms_vector_stream_data(PmsVectorStream *s, PmsVectorKind kind, const char *data, gsize len,
                                        const char *file, const char *pmu, GError **error);
/* The PMUs that had a vector (run or not), in order of first appearance. */
PMS_API const char *const *pms_vector_stream_pmus(const PmsVectorStream *s);
/* The report of the vectors run so far: counts and per-PMU summaries, no
 * outcomes (each went to ops->outcome), seconds the vectors' run time (not
 * the parsing); owned by the caller. */
PMS_API PmsVectorReport *pms_vector_stream_report(PmsVectorStream *s);
/* Vectors alive (parsed and not yet freed) in the stream now and at most
 * since it was made: a check that it streams. */
PMS_API guint pms_vector_stream_peak_live(const PmsVectorStream *s);

/* Compare one answer with a vector: NULL when it matches, else a message. */
PMS_API char *pms_vector_check_answer(const PmsVector *v, const PmsVectorAnswer *a);

/* ---- expectations: known differences of a backend ----
 *
 * A text file (docs/vectors-format.md, "Expectations") listing the vectors a
 * backend is known to fail, each with its reason: `FILE STRING REASON`
 * (FILE "pmu/topic.enc" or ".sim", STRING the event string of an encoding
 * vector or the name of a simulation vector, quoted like a vector's), or
 * `pmu NAME REASON` for every vector of a PMU the backend does not describe.
 * Applied to a report, a failing vector with an entry is an expected failure;
 * a passing vector with an exact entry, an exact entry that matches no vector
 * run, and a pmu entry none of whose vectors fails, are stale: failures. */
typedef struct PmsExpectations PmsExpectations;

/* Parse one file's text; errors (PMS_VECTOR_ERROR_PARSE) start "file:line:". */
PMS_API PmsExpectations *pms_expectations_parse(const char *data, gsize len, const char *file, GError **error);
/* The expectations shipped for a backend name ("libpfm4" ->
 * vectors/expected/libpfm4.txt, built in); NULL without error when there are none. */
PMS_API PmsExpectations *pms_expectations_builtin(const char *backend, GError **error);
PMS_API void pms_expectations_free(PmsExpectations *e);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PmsExpectations, pms_expectations_free)
PMS_API guint pms_expectations_count(const PmsExpectations *e);
/* Every entry names a PMU that has vectors in set: FALSE with an error
 * naming the first entry (FILE:LINE) that does not, and the PMUs that have
 * (a misspelt PMU would otherwise silently expect nothing). */
PMS_API gboolean pms_expectations_check_pmus(const PmsExpectations *e, const PmsVectorSet *set, GError **error);
PMS_API const char *pms_expectations_file(const PmsExpectations *e);

typedef enum {
    PMS_VERDICT_PASS,  /* passed, no entry (or a pmu entry) */
    PMS_VERDICT_FAIL,  /* failed, no entry */
    PMS_VERDICT_XFAIL, /* failed, and an entry says it does: a known difference */
    PMS_VERDICT_STALE, /* passed although an exact entry says it fails: a failure */
} PmsVerdict;

typedef struct {
    PmsVerdict *verdict;                /* per report outcome, in its order */
    const char **reason;                /* per outcome: the entry's "FILE:LINE: reason", or NULL */
    GPtrArray *unmatched;               /* char*: stale entries that matched no failing vector ("FILE:LINE: ...") */
    guint passed, failed, xfail, stale; /* stale: outcomes; unmatched->len counts apart */
} PmsExpectResult;

/* Judge outcomes one at a time (a stream): the verdict of one and, in
 * *reason, the entry's "FILE:LINE: reason" or NULL; the stale entries that
 * matched nothing when every outcome was judged (as pms_expectations_apply). */
typedef struct PmsExpectJudge PmsExpectJudge;
PMS_API PmsExpectJudge *pms_expect_judge_new(const PmsExpectations *e);
PMS_API PmsVerdict pms_expect_judge_one(PmsExpectJudge *j, const PmsVector *v, gboolean passed, const char **reason);
/* char*: "FILE:LINE: ..." of each stale entry that matched no failing vector */
PMS_API GPtrArray *pms_expect_judge_unmatched(PmsExpectJudge *j, guint kinds_mask);
PMS_API void pms_expect_judge_free(PmsExpectJudge *j);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PmsExpectJudge, pms_expect_judge_free)
/* pms_expectations_check_pmus over PMU names (NULL-terminated, in order). */
PMS_API gboolean pms_expectations_check_pmu_names(const PmsExpectations *e, const char *const *pmus, GError **error);

/* Judge a report.  kinds_mask says which kinds were run: an exact entry of a
 * kind not run, or of a PMU with no vector in the report, is not stale.
 * e may be NULL (every failure is a failure). */
PMS_API PmsExpectResult *pms_expectations_apply(const PmsExpectations *e, const PmsVectorReport *r, guint kinds_mask);
PMS_API void pms_expect_result_free(PmsExpectResult *res);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PmsExpectResult, pms_expect_result_free)
/* The key a vector is listed under: "pmu/topic.enc" (the last two parts of
 * its file), and its event string or sim vector name. */
PMS_API char *pms_vector_expect_file(const PmsVector *v);

/* Render bytes for a message or report: printable ASCII as is, everything else
 * as \xHH, long strings shortened in the middle (max_len 0: no limit). */
PMS_API char *pms_vector_escape(const char *bytes, gsize len, gsize max_len);

G_END_DECLS
