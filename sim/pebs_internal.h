/* pmusim — the simulator's PEBS state (sim/pebs.c), shared with the x86 core
 * device that runs the assists.  Not installed. */
#pragma once

#include "pebs.h"
#include "sim_internal.h"
#include "sim_input.h"

/* What an assist samples besides the registers the stimulus gave. */
typedef struct {
    guint64 ip;         /* thread 0's ip= of the assist's run (0: none) */
    guint64 status;     /* IA32_PERF_GLOBAL_STATUS before the assist */
    guint64 applicable; /* the assisting counter's GLOBAL_STATUS bit */
    guint64 dla;        /* thread 0's daddr= of the assist's run (0: none) */
    gboolean ll;        /* a load-latency sample: dse and lat hold its load's */
    guint64 dse, lat;
} SimPebsSample;

struct SimPebs {
    guint format; /* PERF_CAPABILITIES.PEBS_REC_FMT: the record's field table */
    guint size;   /* bytes of one record; 0: the format is not modelled */
    PmsPebsDs ds;
    guint64 regs[17]; /* RFLAGS, RAX..R15 (pms_sim_set_pebs_regs) */
    gboolean armed[PMS_PEBS_MAX_COUNTERS];
    GArray *records; /* PmsPebsRecord, the first PMS_PEBS_RECORDS_LISTED */
    guint64 total;
};

/* The x86 core device's PEBS state; NULL on another device
 * (sim/dev_x86_core.c). */
SimPebs *sim_x86_pebs(const PmsSim *sim);
/* format: the model's PEBS_REC_FMT (PERF_CAPABILITIES reset value). */
SimPebs *sim_pebs_new(const PmsModel *m);
void sim_pebs_free(SimPebs *p);
/* RESET: no records, DS area and registers 0, nothing armed. */
void sim_pebs_reset(SimPebs *p);
/* The assist's record for `counter` at `cycle`: written at ds.index unless
 * that passes ds.max (then dropped, docs/semantics.md §8a).  Returns TRUE when
 * the index (after the write) has reached ds.threshold: OvfBuf and a PMI. */
gboolean sim_pebs_assist(SimPebs *p, guint64 cycle, guint counter, const SimPebsSample *smp);
/* Of the next `want` assists, how many in a row behave alike (each writes
 * a record below the threshold, each writes one at or past it, or none
 * writes: the buffer is full); *threshold: they raise the threshold's PMI. */
guint64 sim_pebs_uniform(const SimPebs *p, guint64 want, gboolean *threshold);
/* n such assists for `counter`, the first at cycle `first`, one every
 * `period` cycles, all sampling *smp: records (the first
 * PMS_PEBS_RECORDS_LISTED kept), the index moved; TRUE when they reach the
 * threshold. */
gboolean sim_pebs_assist_many(SimPebs *p, guint64 first, guint64 period, guint64 n, guint counter,
                              const SimPebsSample *smp);
