/* pmusim — PEBS (precise event-based sampling) on the x86 core PMUs.
 *
 * Two halves:
 *  - configuration (pebs_config.h, included here; encoder/pebs_config.c): an
 *    encoded event on its counter -> the IA32_PEBS_ENABLE bits (and LL_EN
 *    with MSR_PEBS_LD_LAT for the load-latency event), after the
 *    restrictions of docs/semantics.md §8a;
 *  - simulation (this header; sim/pebs.c with the x86 core device): the DS
 *    save area's PEBS fields, the assists and the records they write, and a
 *    configuration in those terms (pms_pebs_describe).
 * Register fields are read from the model's layouts by name (pebs_enable:
 * pebs_en, ll_en; ld_lat: threshold; perf_capabilities: pebs_rec_fmt).
 */
#pragma once

#include <glib.h>
#include "pms_api.h"
#include "model.h"
#include "program.h"
#include "pebs_config.h"
#include "sim.h"

G_BEGIN_DECLS

enum {
    PMS_PEBS_MAX_COUNTERS = 8,      /* counter reset values in the DS area */
    PMS_PEBS_MAX_FIELDS = 32,       /* 64-bit fields of one record (format 3: 25) */
    PMS_PEBS_RECORDS_LISTED = 4096, /* records kept per run of the simulator; the rest counted */
};

/* ---- simulation --------------------------------------------------------------- */

/* The PEBS half of the DS save area (addresses are the linear addresses the
 * OS wrote there; the simulator keeps the records, not the memory). */
typedef struct {
    guint64 base;                         /* PEBS buffer base */
    guint64 index;                        /* where the next record goes */
    guint64 max;                          /* absolute maximum: no record is written past it */
    guint64 threshold;                    /* interrupt threshold: OvfBuf and a PMI when index reaches it */
    guint64 reset[PMS_PEBS_MAX_COUNTERS]; /* counter reset values, one per general counter */
} PmsPebsDs;

typedef struct {
    guint64 cycle;   /* cycle of the assist */
    guint counter;   /* the general counter whose assist wrote it */
    guint64 address; /* linear address it was written at (the index before) */
    guint format;    /* PEBS_REC_FMT */
    guint n_fields;
    guint64 field[PMS_PEBS_MAX_FIELDS]; /* in the format's order (pms_pebs_field_name) */
} PmsPebsRecord;

/* Field names of a record format, in offset order: format 1 (NHM/WSM)
 * "rflags", "rip", "rax".."r15", "status", "dla", "dse", "lat"; format 3
 * (GLM) "rflags", "rip", "rax".."r15", "applicable", "dla", "rsvd_a0",
 * "rsvd_a8", "eventing_ip", "rsvd_b8", "tsc" (docs/semantics.md §8a).  NULL
 * past the last field or for a format the simulator does not write. */
PMS_API const char *pms_pebs_field_name(guint format, guint i);
/* Byte offset of field i in the record (the SDM's table); 0 past the last. */
PMS_API guint pms_pebs_field_offset(guint format, guint i);
/* Bytes of one record of the format; 0 when not modelled. */
PMS_API guint pms_pebs_record_size(guint format);

/* Set / read the DS area (before or between runs).  FALSE when the model's
 * PMU has no PEBS the simulator models (error says why). */
PMS_API gboolean pms_sim_set_pebs_ds(PmsSim *sim, const PmsPebsDs *ds, GError **error);
PMS_API void pms_sim_get_pebs_ds(const PmsSim *sim, PmsPebsDs *ds);
/* RFLAGS and RAX..R15 (in that order, 17 values) that thread 0's following
 * records carry (sticky); the IP and the data address are the run inputs
 * ip and daddr (pms_sim_set_input, sim.h). */
PMS_API void pms_sim_set_pebs_regs(PmsSim *sim, const guint64 regs[17]);
PMS_API void pms_sim_get_pebs_regs(const PmsSim *sim, guint64 regs[17]);
/* The data source encoding of thread 0's loads in the following runs (a
 * load-latency record's dse field; the stimulus's dse= token, per run;
 * pms_sim_set_input's "dse" key). */
PMS_API void pms_sim_set_pebs_source(PmsSim *sim, gboolean valid, guint64 dse);
/* The records written so far (the first PMS_PEBS_RECORDS_LISTED) and their
 * total. */
PMS_API const PmsPebsRecord *pms_sim_pebs_records(const PmsSim *sim, guint *n, guint64 *total);

/* In words, what the configuration captures (for `pmusim explain`): one
 * paragraph, g_free it. */
PMS_API char *pms_pebs_describe(const PmsModel *m, const PmsPebsConfig *c);

G_END_DECLS
