/* pmusim — PEBS configuration: an encoded event on its counter -> the
 * IA32_PEBS_ENABLE bits and MSR_PEBS_LD_LAT (include/pmusim/pebs_config.h).
 * The configuration in words (pms_pebs_describe) is the simulator's, beside
 * the records it describes (sim/pebs.c).
 *
 * Every bit position comes from the model's layouts (pebs_enable: pebs_en,
 * ll_en; ld_lat: threshold; evtsel: any, edge, inv, cmask) and every range
 * from its `ldlat` modifier; this file holds only the rules, each with its
 * source (docs/semantics.md §1.5, §5, A12). */
#include "pebs_config.h"
#include "encoder.h"
#include "enc_internal.h"

#include <string.h>

static guint64 evtsel_field(const PmsModel *m, guint64 code, const char *name)
{
    const PmsField *f = pms_register_field(pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0), name);
    return f ? pms_field_get(f, code) : 0;
}

/* A bit of a vector field ("pebs_en = 3:0": bit i for PMCi); 0 when the
 * field has no bit for that counter. */
static guint64 counter_bit(const PmsField *f, guint counter)
{
    if (!f || counter >= f->width)
        return 0;
    return (guint64)1 << (f->shift + counter);
}

void pms_pebs_config_clear(PmsPebsConfig *c)
{
    if (c)
        g_clear_pointer(&c->notes, g_free);
}

gboolean pms_pebs_configure(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsPebsConfig *out,
                            GError **error)
{
    memset(out, 0, sizeof *out);
    const PmsModel *m = pl->model;
    const PmsEvent *ev = pl->event;
    const PmsRegister *pe = pms_model_reg_by_kind(m, PMS_REG_PEBS_ENABLE, 0);
    if (!pe)
        return pms_enc_fail(error, PMS_ERR_NOTSUPP, 0, "PMU %s has no IA32_PEBS_ENABLE: no PEBS there", m->name);
    if (!ev || n_codes < 1)
        return pms_enc_fail(error, PMS_ERR_INVAL, 0, "PEBS needs an encoded event");
    const PmsField *en = pms_register_field(pe, "pebs_en"), *ll = pms_register_field(pe, "ll_en");
    if (!en)
        return pms_enc_fail(error, PMS_ERR_NOTSUPP, 0, "model %s: IA32_PEBS_ENABLE has no pebs_en field", m->name);
    if (pl->fixed)
        return pms_enc_fail(error, PMS_ERR_NOTSUPP, 0,
                            "%s is on fixed counter %u: PEBS samples general counters only (IA32_PEBS_ENABLE pebs_en)",
                            ev->name, pl->counter);
    guint64 bit = counter_bit(en, pl->counter);
    if (pl->counter >= 64 || !(pms_model_pebs_counters(m) & ((guint64)1 << pl->counter)))
        return pms_enc_fail(error, PMS_ERR_NOTSUPP, 0,
                            "%s is on IA32_PMC%u: PEBS on %s is possible on IA32_PMC0..%u only "
                            "(IA32_PEBS_ENABLE pebs_en = %u bit%s)",
                            ev->name, pl->counter, m->name, en->width - 1, en->width, en->width == 1 ? "" : "s");
    /* semantics.md §5.1: on GLM (perfmon v4) PEBS fires for precise and
     * non-precise events alike; before, only the events the model flags. */
    gboolean any_event = m->version >= 4;
    if (!(ev->flags & PMS_EVENT_PEBS) && !any_event)
        return pms_enc_fail(error, PMS_ERR_NOTSUPP, 0,
                            "%s is not a PEBS event of %s (`pmusim list` marks the ones that are)", ev->name, m->name);
    g_autoptr(GString) notes = g_string_new(NULL); /* freed on every refusal below */
    guint64 c0 = codes[0];
    guint64 any = evtsel_field(m, c0, "any"), edge = evtsel_field(m, c0, "edge");
    guint64 inv = evtsel_field(m, c0, "inv"), cmask = evtsel_field(m, c0, "cmask");
    gboolean ldlat_ev = (ev->flags & PMS_EVENT_LDLAT) != 0;
    if (any_event) {
        if (!(ev->flags & PMS_EVENT_PEBS))
            g_string_append_printf(notes,
                                   "%s is not a precise event: on %s PEBS still samples it "
                                   "(semantics.md §5.1)\n",
                                   ev->name, m->name);
        if (any || edge || inv || cmask)
            g_string_append(notes,
                            "INV, ANY, E or CMASK set: reduced-skid PEBS is off for this counter "
                            "(SDM 18-32; semantics.md §1.5)\n");
    } else {
        /* SDM 18-37 p.673: PEBS events with AnyThread = Edge = 0 only. */
        if (any || edge)
            return pms_enc_fail(error, PMS_ERR_FEATCOMB, 0,
                                "%s with %s: PEBS events allow neither AnyThread (t) nor edge (e) "
                                "(SDM 18-37)",
                                ev->name, any ? "t" : "e");
        if (ldlat_ev && (inv || cmask))
            return pms_enc_fail(error, PMS_ERR_FEATCOMB, 0,
                                "%s with %s: the load-latency event takes neither INV (i) nor "
                                "CMASK (c): other values are undefined (SDM 18-39)",
                                ev->name, inv ? "i" : "c");
        if (inv || cmask)
            g_string_append(notes,
                            "INV or CMASK with PEBS: the SDM forbids it, Intel's JSON lists "
                            "INST_RETIRED.TOTAL_CYCLES_PS (inv, c=16) as PEBS; accepted "
                            "(semantics.md §1.5)\n");
    }
    out->counter = pl->counter;
    out->interrupt = evtsel_field(m, c0, "int") != 0;
    out->writes[0] = (PmsRegWrite){ pe->name, pe->address, bit, bit, pe };
    out->n_writes = 1;
    if (ldlat_ev) {
        const PmsRegister *lr = pms_model_reg_by_kind(m, PMS_REG_PEBS_LD_LAT, 0);
        const PmsField *thr = pms_register_field(lr, "threshold");
        const PmsModifier *mod = pms_model_modifier(m, "ldlat");
        guint64 llbit = counter_bit(ll, pl->counter);
        if (!lr || !thr || !llbit || !mod)
            return pms_enc_fail(error, PMS_ERR_NOTSUPP, 0,
                                "model %s: no load-latency PEBS (MSR_PEBS_LD_LAT threshold, "
                                "IA32_PEBS_ENABLE ll_en, modifier ldlat)",
                                m->name);
        if (n_codes < 2)
            return pms_enc_fail(error, PMS_ERR_ATTR_VAL, 0,
                                "%s needs a latency threshold: :ldlat=N or --ld-lat N (%" G_GUINT64_FORMAT
                                "..%" G_GUINT64_FORMAT " core cycles)",
                                ev->name, mod->min, mod->max);
        guint64 t = pms_field_get(thr, codes[1]);
        if (codes[1] != pms_field_set(thr, 0, t) || t < mod->min || t > mod->max)
            return pms_enc_fail(error, PMS_ERR_ATTR_VAL, 0,
                                "load-latency threshold 0x%" G_GINT64_MODIFIER "x: expected "
                                "%" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT " core cycles (loads slower than it are "
                                "sampled; semantics.md §5.3, A12)",
                                codes[1], mod->min, mod->max);
        out->load_latency = TRUE;
        out->ld_lat = (guint32)t;
        /* SDM Fig 18-21: load latency needs PEBS_EN and LL_EN of the counter */
        out->writes[0].value |= llbit;
        out->writes[0].mask |= llbit;
        out->writes[1] = (PmsRegWrite){ lr->name, lr->address, codes[1], G_MAXUINT64, lr };
        out->n_writes = 2;
    }
    out->notes = notes->len ? g_string_free(g_steal_pointer(&notes), FALSE) : NULL;
    return TRUE;
}
