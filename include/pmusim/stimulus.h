/* pmusim — stimulus: run-length records of cycles interleaved with register
 * writes, checked reads and PMI expectations.  Text format: docs/stimulus-format.md.
 *
 * A stimulus is built against one model (register and signal names resolve
 * through it) and executed on a PmsSim of that model, starting at cycle 0. */
#pragma once

#include <glib.h>
#include "pms_api.h"
#include "model.h"
#include "sim.h"

G_BEGIN_DECLS

typedef struct PmsStim PmsStim;

typedef enum {
    PMS_STIM_RUN,   /* N identical cycles */
    PMS_STIM_WRITE, /* WRMSR before the record's cycle */
    PMS_STIM_READ,  /* RDMSR, optionally compared with an expected value */
    PMS_STIM_PEBS,  /* ds, regs, expect-pebs, expect-record (pebs.h) */
} PmsStimKind;

/* A read-only view of one record (for the CLI: traces, reporting). */
typedef struct {
    PmsStimKind kind;
    guint line;           /* source line, 0 when built through the API */
    guint64 cycle;        /* cycle at which it happens (run: its first cycle) */
    guint32 address;      /* write/read */
    guint64 value;        /* write: value; read: expected value */
    gboolean check;       /* read: compare with value; write: the write must take #GP */
    const PmsSimRun *run; /* run records */
    PmsRegSpace space;    /* write/read: the register's space (PMS_SPACE_MSR unless named otherwise) */
} PmsStimRecord;

PMS_API PmsStim *pms_stim_new(const PmsModel *m);
PMS_API void pms_stim_free(PmsStim *st);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PmsStim, pms_stim_free)

/* Parse the text format; errors name source:line and what was expected. */
PMS_API PmsStim *pms_stim_parse(const PmsModel *m, const char *text, gssize len, const char *source, GError **error);
PMS_API PmsStim *pms_stim_load_file(const PmsModel *m, const char *path, GError **error);

/* Builders: each appends at the stimulus's current end cycle. */
PMS_API void pms_stim_add_write(PmsStim *st, guint32 address, guint64 value);
PMS_API void pms_stim_add_read(PmsStim *st, guint32 address, gboolean check, guint64 expected);
/* The same in any register space (PMS_SPACE_PMD, 4: PMD4). */
PMS_API void pms_stim_add_write_at(PmsStim *st, PmsRegSpace space, guint32 number, guint64 value);
PMS_API void pms_stim_add_read_at(PmsStim *st, PmsRegSpace space, guint32 number, gboolean check, guint64 expected);
PMS_API void pms_stim_add_run(PmsStim *st, const PmsSimRun *run); /* copies the arrays */
/* Expect exactly these PMI cycles (checked after the last record). */
PMS_API void pms_stim_expect_pmis(PmsStim *st, const guint64 *cycles, guint n);

PMS_API guint64 pms_stim_end_cycle(const PmsStim *st);
PMS_API guint pms_stim_n_records(const PmsStim *st);
PMS_API void pms_stim_record(const PmsStim *st, guint i, PmsStimRecord *out);

/* Resolve a signal name against the model: "0xc0.0x00" (code.umask),
 * "INST_RETIRED.ANY_P" or "INST_RETIRED:ANY_P", or an event alone when it has
 * a default unit mask or none. */
PMS_API gboolean pms_stim_signal_key(const PmsModel *m, const char *name, guint32 *key, GError **error);

/* Execute every record on sim (expected fresh: cycle 0).  A #GP write, a
 * failing read or a PMI mismatch stops with an error naming source:line. */
PMS_API gboolean pms_stim_execute(const PmsStim *st, PmsSim *sim, GError **error);

/* Parse and execute a stimulus file line by line on sim (fresh: cycle 0),
 * holding only the records not yet executed: memory stays bounded however
 * long the file.  Errors as pms_stim_parse and pms_stim_execute. */
PMS_API gboolean pms_stim_run_file(const PmsModel *m, const char *path, PmsSim *sim, GError **error);

/* The same in two steps, for a caller that needs the file's `pmu` line to
 * choose the model (a pipe cannot be read twice): open, ask for the name,
 * then run from where the reader stands.  pms_stim_reader_pmu reads up to
 * the first record line and sets *name to its NAME when it is `pmu NAME`
 * (else NULL); pms_stim_reader_run reads that line again.  Lines are read
 * in bounded chunks: a line holds at most 16 MiB, and a NUL byte or a
 * longer line fails with PMS_SIM_ERROR_INPUT naming file:line. */
typedef struct PmsStimReader PmsStimReader;
PMS_API PmsStimReader *pms_stim_reader_open(const char *path, GError **error);
PMS_API void pms_stim_reader_free(PmsStimReader *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PmsStimReader, pms_stim_reader_free)
PMS_API gboolean pms_stim_reader_pmu(PmsStimReader *r, char **name, GError **error);
PMS_API gboolean pms_stim_reader_run(PmsStimReader *r, const PmsModel *m, PmsSim *sim, GError **error);

G_END_DECLS
