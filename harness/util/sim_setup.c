/* pmusim — the harness's side of programming the simulator (see sim_setup.h). */
#include "sim_setup.h"

#include <stdio.h>
#include "cli_family.h"

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

gboolean pms_sim_program_encoding(PmsSim *sim, const PmsEncoding *enc, guint *counter, gboolean *fixed, GError **err)
{
    if (!enc->place.event) {
        g_set_error(err, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_COUNTER, "%s: event %s may use no counter of the model",
                    enc->model->name, enc->event->name);
        return FALSE;
    }
    *counter = enc->place.counter;
    *fixed = enc->place.fixed;
    return pms_sim_apply(sim, enc->writes, enc->n_writes, err);
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
        g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "event '%s' names another PMU than --pmu %s", event,
                    pmu);
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
        guint64 thr = pms_cli_field(x, extra, "threshold");
        in->load = (PmsSimLoad){ 0, (guint32)MIN(thr + 1, G_MAXUINT32), n };
        in->run.loads = &in->load;
        in->run.n_loads = 1;
        return;
    }
    /* the signal codes[0] selects, by the family's register layout */
    in->count = (PmsSimCount){ pms_cli_family(m)->own_signal(m, codes, n_codes), 0, n, 0 };
    in->run.counts = &in->count;
    in->run.n_counts = 1;
}

void pms_sim_run_error(const GError *err, gint64 max_steps)
{
    if (!g_error_matches(err, PMS_SIM_ERROR, PMS_SIM_ERROR_BOUND)) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        return;
    }
    fprintf(stderr,
            "pmusim: %s: over --max-steps %" G_GINT64_FORMAT
            ": raise --max-steps to let it finish, or split the run (shorter runs of identical cycles; PEBS on one "
            "counter; interrupting counters at equal rates or rates that are powers of two: docs/sim-cli.md)\n",
            err->message, max_steps);
}
