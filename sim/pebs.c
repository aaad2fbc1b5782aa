/* pmusim — PEBS in the simulator: the DS save area's PEBS fields, the record
 * formats and the buffer (include/pmusim/pebs.h).  The x86 core device
 * decides when an assist runs (dev_x86_core.c: arming at the wrap, the assist
 * on the next counted event); this file writes the record and moves the index.
 *
 * The record format is the model's PERF_CAPABILITIES.PEBS_REC_FMT; each
 * format is one table below (name, byte offset, what fills it), 64 bits per
 * field (docs/semantics.md §8a):
 *  - format 1 (NHM/WSM): SDM Vol. 3B, the PEBS record of the Core i7
 *    processor family, as issue 8 cites it, 0xB0 bytes;
 *  - format 3 (GLM): SDM Vol. 3B 325384-059US Table 18-20 p.667 (PEBS record
 *    format for the Goldmont microarchitecture), 0xC8 bytes; the 0011b
 *    layout of Table 18-55 p.712 with A0H, A8H, B8H reserved on GLM
 *    (18.7.1.1 p.668: no data source or latency). */
#include "pebs_internal.h"

#include <string.h>

/* What fills a field. */
typedef enum {
    PF_RFLAGS,      /* the regs line's rflags */
    PF_RIP,         /* the run's ip= */
    PF_GPR,         /* RAX..R15: the regs line's (reg = 1..16) */
    PF_STATUS,      /* IA32_PERF_GLOBAL_STATUS before the assist clears the bit */
    PF_LL_DLA,      /* load latency only: the sampled load's data address */
    PF_LL_DSE,      /* load latency only: its data source encoding */
    PF_LL_LAT,      /* load latency only: its latency */
    PF_APPLICABLE,  /* the GLOBAL_STATUS bit of the counter whose assist wrote it */
    PF_DLA,         /* any event: the assist's run's daddr= (GLM 18.7.1.1) */
    PF_EVENTING_IP, /* the run's ip= (the simulator has no instruction stream) */
    PF_RESERVED,    /* written as 0 */
    PF_TSC,         /* the cycle of the assist (docs/semantics.md §8a) */
} PebsFill;

typedef struct {
    const char *name;
    guint offset; /* byte offset in the record, as the SDM's table gives it */
    PebsFill fill;
    guint reg; /* PF_GPR: index into SimPebs.regs */
} PebsField;

#define GPRS(o)                                                                                                        \
    { "rax", (o), PF_GPR, 1 }, { "rbx", (o) + 0x08, PF_GPR, 2 }, { "rcx", (o) + 0x10, PF_GPR, 3 },                     \
        { "rdx", (o) + 0x18, PF_GPR, 4 }, { "rsi", (o) + 0x20, PF_GPR, 5 }, { "rdi", (o) + 0x28, PF_GPR, 6 },          \
        { "rbp", (o) + 0x30, PF_GPR, 7 }, { "rsp", (o) + 0x38, PF_GPR, 8 }, { "r8", (o) + 0x40, PF_GPR, 9 },           \
        { "r9", (o) + 0x48, PF_GPR, 10 }, { "r10", (o) + 0x50, PF_GPR, 11 }, { "r11", (o) + 0x58, PF_GPR, 12 },        \
        { "r12", (o) + 0x60, PF_GPR, 13 }, { "r13", (o) + 0x68, PF_GPR, 14 }, { "r14", (o) + 0x70, PF_GPR, 15 },       \
    {                                                                                                                  \
        "r15", (o) + 0x78, PF_GPR, 16                                                                                  \
    }

static const PebsField fmt1[] = {
    { "rflags", 0x00, PF_RFLAGS, 0 }, { "rip", 0x08, PF_RIP, 0 },    GPRS(0x10),
    { "status", 0x90, PF_STATUS, 0 }, { "dla", 0x98, PF_LL_DLA, 0 }, { "dse", 0xA0, PF_LL_DSE, 0 },
    { "lat", 0xA8, PF_LL_LAT, 0 },
};

static const PebsField fmt3[] = {
    { "rflags", 0x00, PF_RFLAGS, 0 },
    { "rip", 0x08, PF_RIP, 0 },
    GPRS(0x10),
    { "applicable", 0x90, PF_APPLICABLE, 0 },
    { "dla", 0x98, PF_DLA, 0 },
    { "rsvd_a0", 0xA0, PF_RESERVED, 0 },
    { "rsvd_a8", 0xA8, PF_RESERVED, 0 },
    { "eventing_ip", 0xB0, PF_EVENTING_IP, 0 },
    { "rsvd_b8", 0xB8, PF_RESERVED, 0 },
    { "tsc", 0xC0, PF_TSC, 0 },
};
#undef GPRS

static const struct {
    guint format;
    const PebsField *fields;
    guint n;
} formats[] = {
    { 1, fmt1, G_N_ELEMENTS(fmt1) },
    { 3, fmt3, G_N_ELEMENTS(fmt3) },
};
G_STATIC_ASSERT(G_N_ELEMENTS(fmt1) <= PMS_PEBS_MAX_FIELDS && G_N_ELEMENTS(fmt3) <= PMS_PEBS_MAX_FIELDS);

static const PebsField *format_fields(guint format, guint *n)
{
    for (guint i = 0; i < G_N_ELEMENTS(formats); i++)
        if (formats[i].format == format) {
            *n = formats[i].n;
            return formats[i].fields;
        }
    *n = 0;
    return NULL;
}

const char *pms_pebs_field_name(guint format, guint i)
{
    guint n;
    const PebsField *f = format_fields(format, &n);
    return i < n ? f[i].name : NULL;
}

guint pms_pebs_field_offset(guint format, guint i)
{
    guint n;
    const PebsField *f = format_fields(format, &n);
    return i < n ? f[i].offset : 0;
}

guint pms_pebs_record_size(guint format)
{
    guint n;
    const PebsField *f = format_fields(format, &n);
    /* the fields are 64 bits, in offset order: the record ends after the last */
    return n ? f[n - 1].offset + 8 : 0;
}

SimPebs *sim_pebs_new(const PmsModel *m)
{
    SimPebs *p = g_new0(SimPebs, 1);
    p->format = pms_model_pebs_format(m);
    p->size = pms_model_reg_by_kind(m, PMS_REG_PEBS_ENABLE, 0) ? pms_pebs_record_size(p->format) : 0;
    p->records = g_array_new(FALSE, TRUE, sizeof(PmsPebsRecord));
    return p;
}

void sim_pebs_free(SimPebs *p)
{
    if (!p)
        return;
    g_array_unref(p->records);
    g_free(p);
}

void sim_pebs_reset(SimPebs *p)
{
    memset(&p->ds, 0, sizeof p->ds);
    memset(p->regs, 0, sizeof p->regs);
    memset(p->armed, 0, sizeof p->armed);
    g_array_set_size(p->records, 0);
    p->total = 0;
}

/* One field of the record the assist writes at `cycle`. */
static guint64 field_value(const SimPebs *p, const PebsField *f, guint64 cycle, const SimPebsSample *smp)
{
    switch (f->fill) {
    case PF_RFLAGS:
        return p->regs[0];
    case PF_GPR:
        return p->regs[f->reg];
    case PF_RIP:
    case PF_EVENTING_IP:
        return smp->ip;
    case PF_STATUS:
        return smp->status;
    case PF_LL_DLA:
        return smp->ll ? smp->dla : 0;
    case PF_LL_DSE:
        return smp->ll ? smp->dse : 0;
    case PF_LL_LAT:
        return smp->ll ? smp->lat : 0;
    case PF_APPLICABLE:
        return smp->applicable;
    case PF_DLA:
        return smp->dla;
    case PF_TSC:
        return cycle;
    case PF_RESERVED:
        break;
    }
    return 0;
}

gboolean sim_pebs_assist(SimPebs *p, guint64 cycle, guint counter, const SimPebsSample *smp)
{
    /* Choice (docs/semantics.md §8a): a record that would pass the
     * absolute maximum is not written; the assist's other effects stay. */
    if (p->ds.index >= p->ds.max || p->ds.max - p->ds.index < p->size)
        return FALSE;
    {
        PmsPebsRecord r = { cycle, counter, p->ds.index, p->format, 0, { 0 } };
        guint n;
        const PebsField *f = format_fields(p->format, &n);
        for (guint i = 0; i < n; i++)
            r.field[r.n_fields++] = field_value(p, &f[i], cycle, smp);
        if (p->records->len < PMS_PEBS_RECORDS_LISTED)
            g_array_append_val(p->records, r);
        p->total++;
        p->ds.index += p->size;
    }
    /* SDM 18-19 p.655 (semantics.md §5.2): OvfBuf when the index reaches the
     * interrupt threshold (0: no interrupt) */
    return p->ds.threshold != 0 && p->ds.index >= p->ds.threshold;
}

/* Records that still fit below the absolute maximum. */
static guint64 pebs_room(const SimPebs *p)
{
    return p->ds.index >= p->ds.max || !p->size ? 0 : (p->ds.max - p->ds.index) / p->size;
}

guint64 sim_pebs_uniform(const SimPebs *p, guint64 want, gboolean *threshold)
{
    guint64 room = pebs_room(p);
    *threshold = FALSE;
    if (room == 0)
        return want; /* none writes: no record, no threshold */
    guint64 n = MIN(want, room);
    if (p->ds.threshold == 0)
        return n;
    if (p->ds.index >= p->ds.threshold) {
        *threshold = TRUE; /* every write leaves the index past it */
        return n;
    }
    /* the j-th write reaches it when index + j * size >= threshold */
    guint64 below = (p->ds.threshold - p->ds.index - 1) / p->size;
    return MIN(n, below);
}

gboolean sim_pebs_assist_many(SimPebs *p, guint64 first, guint64 period, guint64 n, guint counter,
                              const SimPebsSample *smp)
{
    guint64 writes = MIN(n, pebs_room(p));
    if (writes == 0)
        return FALSE;
    /* the first ones listed, one by one (at most PMS_PEBS_RECORDS_LISTED in
     * all); the rest counted and the index moved past them */
    guint64 j = 0;
    gboolean thr = FALSE;
    for (; j < writes && p->records->len < PMS_PEBS_RECORDS_LISTED; j++)
        thr = sim_pebs_assist(p, first + j * period, counter, smp);
    if (j < writes) {
        p->total += writes - j;
        p->ds.index += (writes - j) * p->size;
        thr = p->ds.threshold != 0 && p->ds.index >= p->ds.threshold;
    }
    return thr;
}

/* ---- public API ---- */

gboolean pms_sim_set_pebs_ds(PmsSim *sim, const PmsPebsDs *ds, GError **error)
{
    SimPebs *p = sim_x86_pebs(sim);
    if (!p || !p->size) {
        /* the value found, so that a model's author sees what to change
         * (0 also when IA32_PERF_CAPABILITIES or its field is missing) */
        g_autofree char *why = !p || !pms_model_reg_by_kind(sim->model, PMS_REG_PEBS_ENABLE, 0)
            ? g_strdup("no IA32_PEBS_ENABLE")
            : g_strdup_printf("PEBS_REC_FMT is %u", p->format);
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: no PEBS records modelled (%s; record formats 1 and 3 only)", sim->model->name, why);
        return FALSE;
    }
    const char *bad = NULL;
    if (ds->index < ds->base)
        bad = "the index is below the buffer base";
    else if (ds->max < ds->base)
        bad = "the absolute maximum is below the buffer base";
    else if (ds->threshold && (ds->threshold < ds->base || ds->threshold > ds->max))
        bad = "the interrupt threshold lies outside base..maximum";
    if (bad) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS,
                    "DS area: %s (base 0x%" G_GINT64_MODIFIER "x, index 0x%" G_GINT64_MODIFIER
                    "x, maximum 0x%" G_GINT64_MODIFIER "x, threshold 0x%" G_GINT64_MODIFIER "x)",
                    bad, ds->base, ds->index, ds->max, ds->threshold);
        return FALSE;
    }
    p->ds = *ds;
    return TRUE;
}

void pms_sim_get_pebs_ds(const PmsSim *sim, PmsPebsDs *ds)
{
    const SimPebs *p = sim_x86_pebs(sim);
    if (p)
        *ds = p->ds;
    else
        memset(ds, 0, sizeof *ds);
}

void pms_sim_set_pebs_regs(PmsSim *sim, const guint64 regs[17])
{
    SimPebs *p = sim_x86_pebs(sim);
    if (p)
        memcpy(p->regs, regs, sizeof p->regs);
}

void pms_sim_get_pebs_regs(const PmsSim *sim, guint64 regs[17])
{
    const SimPebs *p = sim_x86_pebs(sim);
    if (p)
        memcpy(regs, p->regs, sizeof p->regs);
    else
        memset(regs, 0, 17 * sizeof(guint64));
}

void pms_sim_set_pebs_source(PmsSim *sim, gboolean valid, guint64 dse)
{
    SimOptValue *f = sim_current_input(sim, "dse"); /* the x86 core's dse= input */
    if (f)
        *f = (SimOptValue){ valid, valid ? dse : 0 };
}

const PmsPebsRecord *pms_sim_pebs_records(const PmsSim *sim, guint *n, guint64 *total)
{
    SimPebs *p = sim_x86_pebs(sim);
    *n = p ? p->records->len : 0;
    if (total)
        *total = p ? p->total : 0;
    return p ? (const PmsPebsRecord *)(void *)p->records->data : NULL;
}

/* `pmusim explain --pebs`: the configuration in the simulator's terms (the
 * assist, the record format of the model, the buffer's interrupt). */
char *pms_pebs_describe(const PmsModel *m, const PmsPebsConfig *c)
{
    guint fmt = pms_model_pebs_format(m);
    GString *s = g_string_new(NULL);
    g_string_append_printf(s,
                           "PEBS on IA32_PMC%u: when the counter wraps, PEBS is armed; the next event it "
                           "counts runs an assist that writes a record into the DS save area's PEBS buffer, "
                           "clears the counter's overflow bit and reloads the counter from the DS counter "
                           "reset value%s.",
                           c->counter,
                           c->interrupt ? "; INT is set, so the counter's PMI follows each assist (SDM 18-39)"
                                        : " (INT clear: no PMI of its own)");
    if (pms_pebs_record_size(fmt)) {
        g_string_append_printf(s, " The record (format %u, %u bytes) holds", fmt, pms_pebs_record_size(fmt));
        for (guint i = 0; pms_pebs_field_name(fmt, i); i++)
            g_string_append_printf(s, "%s%s", i ? ", " : " ", pms_pebs_field_name(fmt, i));
        g_string_append_c(s, '.');
    } else {
        g_string_append_printf(s, " The record format of %s (PEBS_REC_FMT %u) is not modelled.", m->name, fmt);
    }
    /* perfmon v4 (a GLOBAL_STATUS_SET register): the simulator arms PEBS on a
     * status bit set there too (SDM 18-30; docs/semantics.md §8a) */
    const PmsRegister *set = pms_model_reg_by_kind(m, PMS_REG_GLOBAL_STATUS_SET, 0);
    if (set)
        g_string_append_printf(s,
                               " Setting the counter's overflow bit through %s (0x%x) arms PEBS as a wrap "
                               "does.",
                               set->name, set->address);
    if (c->load_latency)
        g_string_append_printf(s,
                               " Load latency: only loads slower than %u core cycles count, and their records "
                               "carry the data address, the data source and the latency.",
                               c->ld_lat);
    const PmsRegister *gs = pms_model_reg_by_kind(m, PMS_REG_GLOBAL_STATUS, 0);
    const PmsField *ob = pms_register_field(gs, "ovf_buf");
    g_string_append(s, " When the buffer's index reaches its interrupt threshold, OvfBuf");
    if (ob)
        g_string_append_printf(s, " (%s bit %u)", gs->name, ob->shift);
    g_string_append(s, " is set and a PMI is raised.");
    return g_string_free(s, FALSE);
}
