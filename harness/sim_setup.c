/* pmusim — codes to simulator register writes (see sim_setup.h). */
#include "sim_setup.h"

#include <string.h>

/* A field's position: located by name in a register's layout, else the SDM
 * position given as fallback. */
typedef struct {
    guint shift, width;
} Bits;

static guint64 bits_mask(Bits b)
{
    return (b.width >= 64 ? ~(guint64)0 : (((guint64)1 << b.width) - 1)) << b.shift;
}

/* `NAME<i>`, else bit i of a vector field `NAME`; FALSE when neither. */
static gboolean lookup_bits(const PmsRegister *r, const char *name, guint i, Bits *out)
{
    if (!r || !r->layout)
        return FALSE;
    g_autofree char *indexed = g_strdup_printf("%s%u", name, i);
    const PmsField *f = pms_layout_field(r->layout, indexed);
    if (f) {
        *out = (Bits){ f->shift, f->width };
        return TRUE;
    }
    f = pms_layout_field(r->layout, name);
    if (f && i < f->width) {
        *out = (Bits){ f->shift + i, 1 };
        return TRUE;
    }
    return FALSE;
}

static Bits find_bits(const PmsRegister *r, const char *name, guint i, Bits fallback)
{
    Bits b;
    return lookup_bits(r, name, i, &b) ? b : fallback;
}

/* The value of field NAME of register r in `value` (SDM position when the
 * layout lacks it). */
static guint64 get_field(const PmsRegister *r, const char *name, guint64 value, Bits fallback)
{
    const PmsField *f = r && r->layout ? pms_layout_field(r->layout, name) : NULL;
    Bits b = f ? (Bits){ f->shift, f->width } : fallback;
    return (value & bits_mask(b)) >> b.shift;
}

guint32 pms_sim_counter_address(const PmsModel *m, guint counter, gboolean fixed)
{
    const PmsRegister *r = pms_model_reg_by_kind(m, fixed ? PMS_REG_FIXED_CTR : PMS_REG_PMC, counter);
    return r ? r->address : 0;
}

guint64 pms_sim_status_bit(const PmsModel *m, guint counter, gboolean fixed)
{
    const PmsRegister *gs = pms_model_reg_by_kind(m, PMS_REG_GLOBAL_STATUS, 0);
    /* SDM Fig 18-10: bit i for PMCi, 32+i for FIXED_CTRi. */
    Bits b;
    if (!lookup_bits(gs, fixed ? "ovf_fixed" : "ovf_pmc", counter, &b) &&
        !lookup_bits(gs, fixed ? "fixed" : "pmc", counter, &b))
        b = fixed ? (Bits){ 32 + counter, 1 } : (Bits){ counter, 1 };
    return bits_mask(b);
}

/* Generic counters the event may use with these unit masks selected: the
 * intersection of the selected umasks' own sets (each defaults to the
 * event's). */
static guint64 allowed_gp(const PmsEvent *ev, guint64 umask_mask)
{
    guint64 allowed = ev->counters;
    for (guint i = 0; i < ev->n_umasks && i < 64; i++)
        if (umask_mask & ((guint64)1 << i))
            allowed &= ev->umasks[i].counters;
    return allowed;
}

gboolean pms_sim_event_counter(const PmsModel *m, const PmsEvent *ev, guint64 umask_mask, guint *counter,
                               gboolean *fixed)
{
    guint64 gp = allowed_gp(ev, umask_mask);
    if (m->n_gp < 64)
        gp &= ((guint64)1 << m->n_gp) - 1;
    if (gp) {
        *counter = (guint)g_bit_nth_lsf(gp, -1);
        *fixed = FALSE;
        return TRUE;
    }
    guint32 fx = ev->fixed & (m->n_fixed < 32 ? ((1u << m->n_fixed) - 1) : ~0u);
    if (ev->counters == 0 && fx) {
        *counter = (guint)g_bit_nth_lsf(fx, -1);
        *fixed = TRUE;
        return TRUE;
    }
    return FALSE;
}

/* Read-modify-write of one register through the simulator (so a #GP is the
 * simulator's, with its message). */
static gboolean set_bits(PmsSim *sim, const PmsRegister *r, guint64 clear, guint64 set, GError **err)
{
    guint64 v;
    if (!pms_sim_read(sim, r->address, &v, err))
        return FALSE;
    return pms_sim_write(sim, r->address, (v & ~clear) | set, err);
}

static gboolean program_fixed(PmsSim *sim, const PmsModel *m, const PmsEvent *ev, guint counter, guint64 code,
                              GError **err)
{
    const PmsRegister *fc = pms_model_reg_by_kind(m, PMS_REG_FIXED_CTRL, 0);
    if (!fc || counter >= m->n_fixed || !(ev->fixed & (1u << counter))) {
        g_set_error(err, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "%s: event %s may not use fixed counter %u", m->name,
                    ev->name, counter);
        return FALSE;
    }
    const PmsRegister *es = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    /* The evtsel's fields say which rings and whether to interrupt; the fixed
     * control has the same meaning in its own bits (SDM 18-7). */
    guint64 usr = get_field(es, "usr", code, (Bits){ 16, 1 }), os = get_field(es, "os", code, (Bits){ 17, 1 });
    guint64 any = get_field(es, "any", code, (Bits){ 21, 1 }), intr = get_field(es, "int", code, (Bits){ 20, 1 });
    guint64 en = get_field(es, "en", code, (Bits){ 22, 1 });
    Bits b_en = find_bits(fc, "en", counter, (Bits){ 4 * counter, 2 });
    Bits b_any = find_bits(fc, "any", counter, (Bits){ 4 * counter + 2, 1 });
    Bits b_pmi = find_bits(fc, "pmi", counter, (Bits){ 4 * counter + 3, 1 });
    guint64 set = 0;
    if (en)
        set |= ((os ? 1u : 0u) | (usr ? 2u : 0u)) << b_en.shift;
    if (any && m->smt)
        set |= bits_mask(b_any);
    if (intr)
        set |= bits_mask(b_pmi);
    return set_bits(sim, fc, bits_mask(b_en) | bits_mask(b_any) | bits_mask(b_pmi), set, err);
}

gboolean pms_sim_program(PmsSim *sim, const PmsModel *m, const PmsEvent *ev, guint counter, const guint64 *codes,
                         guint n_codes, GError **err)
{
    if (n_codes == 0) {
        g_set_error(err, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "%s: no codes to program for %s", m->name, ev->name);
        return FALSE;
    }
    gboolean fixed = ev->counters == 0 && ev->fixed != 0;
    if (fixed) {
        if (!program_fixed(sim, m, ev, counter, codes[0], err))
            return FALSE;
    } else {
        const PmsRegister *es = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, counter);
        if (!es || counter >= 64 || !(ev->counters & ((guint64)1 << counter))) {
            g_set_error(err, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "%s: event %s may not use general counter %u",
                        m->name, ev->name, counter);
            return FALSE;
        }
        if (!pms_sim_write(sim, es->address, codes[0], err))
            return FALSE;
    }
    if (n_codes >= 2) {
        const PmsRegister *x = ev->extra_reg ? pms_model_reg_by_name(m, ev->extra_reg) : NULL;
        if (!x) {
            g_set_error(err, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                        "%s: event %s has no extra register for codes[1] = 0x%" G_GINT64_MODIFIER "x", m->name,
                        ev->name, codes[1]);
            return FALSE;
        }
        if (!pms_sim_write(sim, x->address, codes[1], err))
            return FALSE;
    }
    const PmsRegister *gc = pms_model_reg_by_kind(m, PMS_REG_GLOBAL_CTRL, 0);
    if (!gc)
        return TRUE; /* perfmon v1: the local enable alone counts */
    /* SDM 18-7: GLOBAL_CTRL bit i enables PMCi, bit 32+i FIXED_CTRi. */
    Bits b = fixed ? find_bits(gc, "fixed", counter, (Bits){ 32 + counter, 1 })
                   : find_bits(gc, "pmc", counter, (Bits){ counter, 1 });
    return set_bits(sim, gc, 0, bits_mask(b), err);
}

gboolean pms_sim_program_encoding(PmsSim *sim, const PmsEncoding *enc, guint *counter, gboolean *fixed,
                                  GError **err)
{
    const PmsModel *m = enc->model;
    if (!pms_sim_event_counter(m, enc->event, enc->umask_mask, counter, fixed)) {
        g_set_error(err, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "%s: event %s may use no counter of the model",
                    m->name, enc->event->name);
        return FALSE;
    }
    return pms_sim_program(sim, m, enc->event, *counter, enc->codes, enc->n_codes, err);
}

char *pms_sim_qualify_event(const char *pmu, const char *event, GError **err)
{
    const char *sep = strstr(event, "::");
    if (sep == NULL) {
        if (pmu == NULL) {
            g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                        "event '%s' names no PMU: give --pmu PMU or write PMU::EVENT", event);
            return NULL;
        }
        return g_strdup_printf("%s::%s", pmu, event);
    }
    if (pmu && ((gsize)(sep - event) != strlen(pmu) || g_ascii_strncasecmp(event, pmu, strlen(pmu)) != 0)) {
        g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "event '%s' names another PMU than --pmu %s",
                    event, pmu);
        return NULL;
    }
    return g_strdup(event);
}

void pms_sim_own_input(const PmsModel *m, const PmsEvent *ev, const guint64 *codes, guint n_codes, guint64 n,
                       guint8 cpl, guint64 cycles, PmsOwnInput *in)
{
    memset(in, 0, sizeof *in);
    in->run.cycles = cycles;
    for (guint t = 0; t < PMS_SIM_MAX_THREADS; t++)
        in->run.cpl[t] = cpl;
    const PmsRegister *x = ev->extra_reg ? pms_model_reg_by_name(m, ev->extra_reg) : NULL;
    guint64 extra = n_codes >= 2 ? codes[1] : 0;
    if (x && x->kind == PMS_REG_OFFCORE_RSP) {
        /* semantics.md §5: a transaction counts when it shares a request and
         * a response bit with the register; all of them, here. */
        Bits out = { 0, 0 };
        lookup_bits(x, "outstanding", 0, &out);
        in->offcore = (PmsSimOffcore){ 0, extra, extra, out.width && (extra & bits_mask(out)), n };
        in->run.offcore = &in->offcore;
        in->run.n_offcore = 1;
        return;
    }
    if (x && x->kind == PMS_REG_PEBS_LD_LAT) {
        /* SDM 18-39: loads above the threshold (strictly greater). */
        guint64 thr = get_field(x, "threshold", extra, (Bits){ 0, 16 });
        in->load = (PmsSimLoad){ 0, (guint32)MIN(thr + 1, G_MAXUINT32), n };
        in->run.loads = &in->load;
        in->run.n_loads = 1;
        return;
    }
    const PmsRegister *es = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0);
    guint64 code = get_field(es, "event", codes[0], (Bits){ 0, 8 });
    guint64 umask = get_field(es, "umask", codes[0], (Bits){ 8, 8 });
    in->count = (PmsSimCount){ PMS_SIGNAL_KEY(code, umask), 0, n };
    in->run.counts = &in->count;
    in->run.n_counts = 1;
}
