/* pmusim — the simulator instance: register storage, the address index, the
 * public read/write/run API and the PMI record, over the device of the model's
 * family (sim/families.c).  Nothing here knows what a register
 * means; the device does. */
#include "sim_internal.h"
#include "sim_input.h"

#include <stdio.h>
#include <string.h>

G_DEFINE_QUARK(pms - sim - error - quark, pms_sim_error)

gboolean sim_signal_option(const PmsModel *m, const char *key, guint32 fallback, guint32 *out, GError **error)
{
    const char *v = pms_model_option(m, key, NULL);
    *out = fallback;
    if (!v)
        return TRUE;
    unsigned code, umask;
    char tail;
    if (sscanf(v, "%x.%x%c", &code, &umask, &tail) != 2 || code > 0xffff || umask > 0xff) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: option %s = '%s': expected CODE.UMASK in hex, e.g. 0xc0.0x00", m->name, key, v);
        return FALSE;
    }
    *out = PMS_SIGNAL_KEY(code, umask);
    return TRUE;
}

gboolean sim_signal_selects(const gboolean *exact_code, guint64 E, guint64 U, guint32 sig)
{
    guint32 code = sig >> 8, um = sig & 0xff;
    if (code != E)
        return FALSE;
    if (um == U)
        return TRUE;
    if (E <= 0xff && exact_code[E])
        return FALSE;
    return um != 0 && (um & ~U) == 0;
}

void sim_exact_codes(const PmsModel *m, gboolean *exact_code)
{
    for (guint e = 0; e < m->n_events; e++)
        if (m->events[e].match == PMS_MATCH_EXACT && m->events[e].code <= 0xff)
            exact_code[m->events[e].code] = TRUE;
}

gboolean sim_require(const PmsRegister *r, SimField f, const char *what, GError **error)
{
    g_autofree char *missing = sim_field_missing(r, f, what);
    if (!missing)
        return TRUE; /* found, or the register is absent: the behaviour it controls is too */
    g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "model %s (the simulator reads it by that name)", missing);
    return FALSE;
}

gboolean sim_gp_error(GError **error, const PmsRegister *r, guint64 value, guint64 bad, const char *why)
{
    if (r->space != PMS_SPACE_MSR) {
        /* an Itanium register: its name says its space and number */
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP,
                    "#GP: write 0x%" G_GINT64_MODIFIER "x to %s: %s 0x%" G_GINT64_MODIFIER "x", value, r->name, why,
                    bad);
        return FALSE;
    }
    g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP,
                "#GP: write 0x%" G_GINT64_MODIFIER "x to %s (0x%x): %s 0x%" G_GINT64_MODIFIER "x", value, r->name,
                r->address, why, bad);
    return FALSE;
}

static PmsSim *sim_new(const PmsModel *m, GError **error);

/* A model the simulator refuses is named by its file and the line of its
 * [pmu] group, like the loader's and the lint's messages (a --model file's
 * mistake must point at that file). */
PmsSim *pms_sim_new(const PmsModel *m, GError **error)
{
    g_return_val_if_fail(m != NULL, NULL);
    GError *err = NULL;
    PmsSim *s = sim_new(m, &err);
    if (!s) {
        if (m->source)
            g_prefix_error(&err, "%s:%u: ", m->source, m->source_line);
        g_propagate_error(error, err);
    }
    return s;
}

static PmsSim *sim_new(const PmsModel *m, GError **error)
{
    const SimDeviceOps *ops = sim_device_for(m);
    if (!ops) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "model %s: architecture %s is not simulated yet",
                    m->name, m->family->name);
        return NULL;
    }
    g_autoptr(PmsSim) s = g_new0(PmsSim, 1);
    s->model = m;
    s->ops = ops;
    s->engine = PMS_SIM_FAST;
    s->n_threads = m->smt ? 2 : 1;
    s->val = g_new0(guint64, m->n_regs ? m->n_regs : 1);
    for (guint sp = 0; sp < SIM_N_SPACES; sp++)
        s->by_addr[sp] = g_hash_table_new(g_direct_hash, g_direct_equal);
    s->pmis = g_array_new(FALSE, FALSE, sizeof(guint64));
    s->pmi_causes = g_array_new(FALSE, FALSE, sizeof(guint64));
    /* one index per register space (RDMSR/WRMSR reach the MSR space; the
     * Itanium's PMC, PMD, IBR and DBR numbers are spaces of their own); the
     * first register of an address wins (v4's OVF_CTRL and STATUS_RESET
     * share one), as in the model's index */
    for (guint i = m->n_regs; i-- > 0;)
        if ((guint)m->regs[i].space < SIM_N_SPACES)
            g_hash_table_insert(s->by_addr[m->regs[i].space], GUINT_TO_POINTER(m->regs[i].address),
                                GUINT_TO_POINTER(i + 1));
    const char *skid = pms_model_option(m, "pmi_skid", "0");
    if (!g_ascii_string_to_unsigned(skid, 10, 0, 1u << 20, &s->pmi_skid, NULL)) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: option pmi_skid = '%s': expected cycles 0..1048576", m->name, skid);
        return NULL;
    }
    if (!ops->init(s, error))
        return NULL;
    pms_sim_reset(s);
    return g_steal_pointer(&s);
}

void pms_sim_free(PmsSim *s)
{
    if (!s)
        return;
    if (s->dev && s->ops->finalize)
        s->ops->finalize(s);
    g_free(s->val);
    for (guint sp = 0; sp < SIM_N_SPACES; sp++)
        if (s->by_addr[sp])
            g_hash_table_destroy(s->by_addr[sp]);
    if (s->pmis)
        g_array_free(s->pmis, TRUE);
    if (s->pmi_causes)
        g_array_free(s->pmi_causes, TRUE);
    g_free(s);
}

void pms_sim_reset(PmsSim *s)
{
    const PmsModel *m = s->model;
    for (guint i = 0; i < m->n_regs; i++)
        s->val[i] = m->regs[i].reset;
    s->zero = 0;
    s->ops->reset(s);
    s->cycle = 0;
    g_array_set_size(s->pmis, 0);
    g_array_set_size(s->pmi_causes, 0);
    s->pmi_total = 0;
    s->tail_pos = s->tail_n = 0;
    s->ext_total = 0;
    s->n_ext = 0;
    /* every run input back to its default (the device's own, sim_input.h) */
    if (s->ops->inputs)
        sim_input_apply(s->ops->inputs, s->ops->input(s), NULL);
}

void pms_sim_set_engine(PmsSim *s, PmsSimEngine e)
{
    s->engine = e;
}
PmsSimEngine pms_sim_get_engine(const PmsSim *s)
{
    return s->engine;
}
const PmsModel *pms_sim_model(const PmsSim *s)
{
    return s->model;
}
guint pms_sim_threads(const PmsSim *s)
{
    return s->n_threads;
}
guint64 pms_sim_cycle(const PmsSim *s)
{
    return s->cycle;
}
gboolean pms_sim_edge_latch(const PmsSim *s, guint i)
{
    return s->ops->edge_latch && s->ops->edge_latch(s, i);
}

void pms_sim_set_trace_spans(PmsSim *s, gboolean spans)
{
    s->trace_spans = spans;
}

void pms_sim_set_max_steps(PmsSim *s, guint64 steps)
{
    s->max_steps = steps;
}

void pms_sim_set_trace(PmsSim *s, PmsSimTraceFn fn, gpointer data)
{
    s->trace = fn;
    s->trace_data = data;
}

static void tail_put(PmsSim *s, guint64 cycle, guint64 cause)
{
    s->tail_cycle[s->tail_pos] = cycle;
    s->tail_cause[s->tail_pos] = cause;
    s->tail_pos = (s->tail_pos + 1) % PMS_SIM_PMI_TAIL;
    s->tail_n = MIN(s->tail_n + 1, PMS_SIM_PMI_TAIL);
}

void sim_pmi_record(PmsSim *s, guint64 cycle, guint64 cause)
{
    s->pmi_total++;
    if (s->pmis->len < PMS_SIM_PMI_LISTED) {
        g_array_append_val(s->pmis, cycle);
        g_array_append_val(s->pmi_causes, cause);
    }
    tail_put(s, cycle, cause);
}

void sim_pmi_record_many(PmsSim *s, const guint64 *head, const guint64 *head_cause, guint n_head, const guint64 *tail,
                         const guint64 *tail_cause, guint n_tail, guint64 total)
{
    guint nh = MIN(n_head, sim_pmi_room(s));
    g_array_append_vals(s->pmis, head, nh);
    g_array_append_vals(s->pmi_causes, head_cause, nh);
    for (guint i = 0; i < n_tail; i++)
        tail_put(s, tail[i], tail_cause[i]);
    s->pmi_total += total;
}

const guint64 *pms_sim_pmi_causes(const PmsSim *s, guint *n)
{
    *n = s->pmi_causes->len;
    return (const guint64 *)(void *)s->pmi_causes->data;
}

guint pms_sim_pmi_tail(const PmsSim *s, guint64 *cycles, guint64 *causes)
{
    guint n = (guint)MIN((guint64)s->tail_n, s->pmi_total - s->pmis->len);
    for (guint i = 0; i < n; i++) {
        guint at = (s->tail_pos + PMS_SIM_PMI_TAIL - n + i) % PMS_SIM_PMI_TAIL;
        cycles[i] = s->tail_cycle[at];
        causes[i] = s->tail_cause[at];
    }
    return n;
}

const PmsRegister *pms_sim_pmi_cause_counter(const PmsSim *s, guint bit)
{
    if (bit >= s->n_unit_ctr)
        return NULL;
    const guint64 *c = s->unit_ctr[bit];
    if (c < s->val || c >= s->val + s->model->n_regs)
        return NULL;
    return &s->model->regs[c - s->val];
}

guint64 pms_sim_pmi_total(const PmsSim *s)
{
    return s->pmi_total;
}

void sim_ext_record(PmsSim *s, guint64 cycle)
{
    s->ext_total++;
    if (s->n_ext < PMS_SIM_EXT_LISTED)
        s->ext[s->n_ext++] = cycle;
}

const guint64 *pms_sim_ext_notifications(const PmsSim *s, guint *n_listed, guint64 *total)
{
    *n_listed = s->n_ext;
    if (total)
        *total = s->ext_total;
    return s->ext;
}

const guint64 *pms_sim_pmis(const PmsSim *s, guint *n)
{
    *n = s->pmis->len;
    return (const guint64 *)(void *)s->pmis->data;
}

/* ---- register access by space ---------------------------------------------- */

static const PmsRegister *lookup(const PmsSim *s, PmsRegSpace space, guint32 addr)
{
    if ((guint)space >= SIM_N_SPACES)
        return NULL;
    guint idx = GPOINTER_TO_UINT(g_hash_table_lookup(s->by_addr[space], GUINT_TO_POINTER(addr)));
    return idx ? &s->model->regs[idx - 1] : NULL;
}

/* "MSR 0x186" / "PMC 40": a register number in its space, for messages. */
static char *where(PmsRegSpace space, guint32 addr)
{
    if (space == PMS_SPACE_MSR)
        return g_strdup_printf("MSR 0x%x", addr);
    g_autofree char *up = g_ascii_strup(pms_reg_space_name(space), -1);
    return g_strdup_printf("%s %u", up, addr);
}

gboolean pms_sim_write_at(PmsSim *s, PmsRegSpace space, guint32 addr, guint64 value, GError **error)
{
    const PmsRegister *r = lookup(s, space, addr);
    if (!r) {
        g_autofree char *w = where(space, addr);
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP,
                    "#GP: write 0x%" G_GINT64_MODIFIER "x to %s: no such register on %s", value, w, s->model->name);
        return FALSE;
    }
    if (r->readonly)
        return sim_gp_error(error, r, value, value, "register is read-only:");
    return s->ops->write(s, r, value, error);
}

gboolean pms_sim_read_at(PmsSim *s, PmsRegSpace space, guint32 addr, guint64 *value, GError **error)
{
    const PmsRegister *r = lookup(s, space, addr);
    if (!r) {
        g_autofree char *w = where(space, addr);
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP, "#GP: read of %s: no such register on %s", w,
                    s->model->name);
        return FALSE;
    }
    *value = s->ops->read(s, r);
    return TRUE;
}

gboolean pms_sim_write(PmsSim *s, guint32 addr, guint64 value, GError **error)
{
    const PmsRegister *r = lookup(s, PMS_SPACE_MSR, addr);
    if (r && r->readonly) {
        /* the MSR message as it always was */
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP,
                    "#GP: write 0x%" G_GINT64_MODIFIER "x to %s (0x%x): register is read-only", value, r->name,
                    r->address);
        return FALSE;
    }
    return pms_sim_write_at(s, PMS_SPACE_MSR, addr, value, error);
}

gboolean pms_sim_read(PmsSim *s, guint32 addr, guint64 *value, GError **error)
{
    return pms_sim_read_at(s, PMS_SPACE_MSR, addr, value, error);
}

gboolean pms_sim_set_counter_at(PmsSim *s, PmsRegSpace space, guint32 addr, guint64 value, GError **error)
{
    const PmsRegister *r = lookup(s, space, addr);
    if (!r || !s->ops->set_counter(s, r, value, error)) {
        if (error && !*error) {
            g_autofree char *w = where(space, addr);
            if (space == PMS_SPACE_MSR)
                g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP, "0x%x is not a counter of %s", addr,
                            s->model->name);
            else
                g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP, "%s is not a counter of %s", w, s->model->name);
        }
        return FALSE;
    }
    return TRUE;
}

gboolean pms_sim_set_counter(PmsSim *s, guint32 addr, guint64 value, GError **error)
{
    return pms_sim_set_counter_at(s, PMS_SPACE_MSR, addr, value, error);
}

gboolean pms_sim_apply(PmsSim *s, const PmsRegWrite *w, guint n, GError **error)
{
    for (guint i = 0; i < n; i++) {
        guint64 v = w[i].value;
        /* each write in its register's space (a write without its model
         * register is an MSR write) */
        PmsRegSpace sp = w[i].reg ? w[i].reg->space : PMS_SPACE_MSR;
        if (w[i].mask != G_MAXUINT64) {
            /* a partial write: read-modify-write through the device, so a
             * #GP is the device's, with its message */
            guint64 old;
            if (!pms_sim_read_at(s, sp, w[i].address, &old, error))
                return FALSE;
            v = (old & ~w[i].mask) | (v & w[i].mask);
        }
        if (sp == PMS_SPACE_MSR ? !pms_sim_write(s, w[i].address, v, error)
                                : !pms_sim_write_at(s, sp, w[i].address, v, error))
            return FALSE;
    }
    return TRUE;
}

/* ---- programming an event (program.h) ------------------------------------ */

gboolean pms_sim_program(PmsSim *s, const PmsModel *m, const PmsEvent *ev, guint counter, const guint64 *codes,
                         guint n_codes, GError **error)
{
    PmsPlacement pl;
    PmsRegWrite w[PMS_PROGRAM_MAX_WRITES];
    guint n;
    gboolean fixed = ev->counters == 0 && ev->fixed != 0;
    return pms_program_place_on(m, ev, counter, fixed, &pl, error) &&
        pms_program_writes(&pl, codes, n_codes, w, &n, error) && pms_sim_apply(s, w, n, error);
}

gboolean pms_sim_event_counter(const PmsModel *m, const PmsEvent *ev, PmsUmaskSet umask_mask, guint *counter,
                               gboolean *fixed)
{
    PmsPlacement pl;
    if (!pms_program_place(m, ev, umask_mask, &pl, NULL))
        return FALSE;
    *counter = pl.counter;
    *fixed = pl.fixed;
    return TRUE;
}

guint32 pms_sim_counter_address(const PmsModel *m, guint counter, gboolean fixed)
{
    PmsPlacement pl = { m, NULL, counter, fixed };
    const PmsRegister *r = pms_program_counter_reg(&pl);
    return r ? r->address : 0;
}

guint64 pms_sim_status_bit(const PmsModel *m, guint counter, gboolean fixed)
{
    PmsPlacement pl = { m, NULL, counter, fixed };
    return pms_program_status_bit(&pl);
}

guint64 pms_sim_enable_bits(const PmsModel *m, guint n_gp, gboolean fixed)
{
    const PmsRegister *gc = pms_model_reg_by_kind(m, PMS_REG_GLOBAL_CTRL, 0);
    if (!gc)
        return 0;
    guint64 bits = 0;
    for (guint i = 0; i < n_gp && i < m->n_gp; i++)
        bits |= pms_sim_status_bit(m, i, FALSE);
    for (guint i = 0; fixed && i < m->n_fixed; i++)
        bits |= pms_sim_status_bit(m, i, TRUE);
    return bits & gc->writable;
}
