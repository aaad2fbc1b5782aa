/* pmusim — the simulator's register layer: an x86 core PMU instance read and
 * written by MSR address.  Everything about a register (address, kind, width,
 * writable bits, reset value, field positions) comes from the model; this file
 * holds only the behaviour of each register kind (SDM rules cited inline, the
 * choices A10, A22, A25 of docs/semantics.md).  Fields are resolved once, by
 * name, from the model's layouts. */
#include "sim_internal.h"

#include <stdio.h>
#include <string.h>

G_DEFINE_QUARK(pms-sim-error-quark, pms_sim_error)

/* ---- field resolution ---------------------------------------------------- */

/* Look a field up under its candidate names ("%u" is replaced by idx).  A
 * per-counter layout (field "en" instead of "en0") is accepted with a stride.
 * Registers without a layout fall back to the architectural position
 * (fallback_shift < 0: none). */
static SimField resolve(const PmsRegister *r, const char *const *names, guint idx,
                        guint stride, gint fallback_shift, guint fallback_width)
{
    SimField f = { FALSE, 0, 0 };
    if (r == NULL)
        return f;
    if (r->layout == NULL) {
        if (fallback_shift >= 0) {
            f.present = TRUE;
            f.shift = (guint)fallback_shift;
            f.width = fallback_width;
        }
        return f;
    }
    for (guint i = 0; names[i]; i++) {
        g_autofree char *n = g_strdup_printf(names[i], idx);
        const PmsField *pf = pms_layout_field(r->layout, n);
        if (pf) {
            f.present = TRUE;
            f.shift = pf->shift;
            f.width = pf->width;
            return f;
        }
    }
    /* The plain name: with a stride, a per-counter layout describing counter
     * 0; without, a vector field whose bit idx belongs to counter idx
     * ("pmc = 3:0" in GLOBAL_CTRL). */
    for (guint i = 0; names[i]; i++) {
        if (!strstr(names[i], "%u"))
            continue;
        g_autofree char *base = g_strndup(names[i], strstr(names[i], "%u") - names[i]);
        const PmsField *pf = pms_layout_field(r->layout, base);
        if (!pf)
            continue;
        if (stride && pf->shift + stride * idx + pf->width <= 64) {
            f.present = TRUE;
            f.shift = pf->shift + stride * idx;
            f.width = pf->width;
            return f;
        }
        if (!stride && idx < pf->width) {
            f.present = TRUE;
            f.shift = pf->shift + idx;
            f.width = 1;
            return f;
        }
    }
    return f;
}

static guint64 *storage(PmsSim *s, const PmsRegister *r)
{
    return r ? &s->val[r - s->model->regs] : &s->zero;
}

static gboolean require(const PmsRegister *r, SimField f, const char *what, GError **error)
{
    if (f.present)
        return TRUE;
    if (r == NULL)
        return TRUE; /* the register is absent: the behaviour it controls is too */
    g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                "model register %s: layout '%s' has no field '%s' (the simulator reads it by that name)",
                r->name, r->layout && r->layout->name ? r->layout->name : "?", what);
    return FALSE;
}

static gboolean parse_signal_option(const PmsModel *m, const char *key, guint32 fallback, guint32 *out,
                                    GError **error)
{
    const char *v = pms_model_option(m, key, NULL);
    *out = fallback;
    if (!v)
        return TRUE;
    unsigned code, umask;
    char tail;
    if (sscanf(v, "%x.%x%c", &code, &umask, &tail) != 2 || code > 0xffff || umask > 0xff) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: option %s = '%s': expected CODE.UMASK in hex, e.g. 0xc0.0x00",
                    m->name, key, v);
        return FALSE;
    }
    *out = PMS_SIGNAL_KEY(code, umask);
    return TRUE;
}

/* Fixed counter i counts the signals of the events that declare it (model key
 * `fixed`), e.g. INST_RETIRED.ANY_P and the architectural INSTRUCTION_RETIRED;
 * defaults from SDM Table 18-8 (REF as Linux's pseudo-encoding 0x0300).  The
 * load-latency signal is the ldlat event's (SDM 18-39: 0x0B/0x10). */
static void resolve_event_signals(PmsSim *s)
{
    const PmsModel *m = s->model;
    static const guint32 fixed_default[PMS_SIM_MAX_FIXED] = {
        PMS_SIGNAL_KEY(0xc0, 0x00), PMS_SIGNAL_KEY(0x3c, 0x00), PMS_SIGNAL_KEY(0x00, 0x03), 0 };
    guint nsig[PMS_SIM_MAX_FIXED] = { 0 };
    s->ldlat_sig = PMS_SIGNAL_KEY(0x0b, 0x10);
    for (guint e = 0; e < m->n_events; e++) {
        const PmsEvent *ev = &m->events[e];
        /* The signal the event names with its default unit mask (or none). */
        const PmsUmask *def = pms_event_default_umask(ev);
        guint32 key = PMS_SIGNAL_KEY(ev->code, ((def ? def->value : 0) | ev->base_umask) & 0xff);
        /* The default unit mask may narrow the event's fixed counters (glm
         * CPU_CLK_UNHALTED fixed=0x6, its default CORE_P fixed=0x2: core
         * cycles are FIXED_CTR1's, not FIXED_CTR2's, SDM Table 18-8). */
        guint32 fixed_mask = def ? def->fixed : ev->fixed;
        for (guint i = 0; i < PMS_SIM_MAX_FIXED; i++) {
            if (!(fixed_mask & (1u << i)) || nsig[i] == G_N_ELEMENTS(s->fixed_sig[i]))
                continue;
            gboolean dup = FALSE;
            for (guint k = 0; k < nsig[i]; k++)
                dup |= s->fixed_sig[i][k] == key;
            if (!dup)
                s->fixed_sig[i][nsig[i]++] = key;
        }
        if (ev->flags & PMS_EVENT_LDLAT) {
            if (ev->base_umask)
                s->ldlat_sig = PMS_SIGNAL_KEY(ev->code, ev->base_umask);
            for (guint u = 0; u < ev->n_umasks; u++)
                if (ev->umasks[u].flags & PMS_UMASK_LDLAT)
                    s->ldlat_sig = PMS_SIGNAL_KEY(ev->code, (ev->umasks[u].value | ev->base_umask) & 0xff);
        }
    }
    for (guint i = 0; i < PMS_SIM_MAX_FIXED; i++)
        if (nsig[i] == 0)
            s->fixed_sig[i][0] = fixed_default[i];
}

/* Offcore facts from the model's OFFCORE events: which code/umask drives which
 * RSP register, and which RSP bits are requests and which responses. */
static void resolve_offcore(PmsSim *s)
{
    const PmsModel *m = s->model;
    s->offcore_glm = m->offcore_style && g_ascii_strcasecmp(m->offcore_style, "glm") == 0;
    /* Fallbacks: SDM Table 18-25/18.7.2 and semantics.md §4.1, §4.3. */
    if (s->offcore_glm) {
        s->oc_req_bits = 0xffff;
        s->oc_resp_bits = ((guint64)1 << 38) - ((guint64)1 << 16);
        s->oc_any_req = (guint64)1 << 15;
        s->oc_any_resp = (guint64)1 << 16;
        s->oc_outstanding = (guint64)1 << 38;
        s->oc_sig[0] = PMS_SIGNAL_KEY(0xb7, 0x01);
        s->oc_sig[1] = PMS_SIGNAL_KEY(0xb7, 0x02);
    } else {
        s->oc_req_bits = 0xff;
        s->oc_resp_bits = 0xff00;
        s->oc_sig[0] = PMS_SIGNAL_KEY(0xb7, 0x01);
        s->oc_sig[1] = PMS_SIGNAL_KEY(0xbb, 0x01);
    }
    guint64 req = 0, resp = 0;
    guint seen = 0;
    for (guint e = 0; e < m->n_events; e++) {
        const PmsEvent *ev = &m->events[e];
        if (!(ev->flags & PMS_EVENT_OFFCORE))
            continue;
        guint idx = seen;
        const PmsRegister *x = pms_model_reg_by_name(m, ev->extra_reg);
        if (x && x->kind == PMS_REG_OFFCORE_RSP)
            idx = x->index;
        if (idx < PMS_SIM_MAX_OFFCORE)
            s->oc_sig[idx] = PMS_SIGNAL_KEY(ev->code & 0xff, ev->base_umask);
        seen++;
        for (guint u = 0; u < ev->n_umasks; u++) {
            const PmsUmask *um = &ev->umasks[u];
            const char *g = um->group < ev->n_groups ? ev->groups[um->group].name : "";
            if (g && g_ascii_strcasecmp(g, "request") == 0)
                req |= um->value;
            else
                resp |= um->value;
        }
        const PmsUmask *um;
        if ((um = pms_event_umask(ev, "ANY_REQUEST")))
            s->oc_any_req = um->value;
        if ((um = pms_event_umask(ev, "ANY_RESPONSE")))
            s->oc_any_resp = um->value;
        if ((um = pms_event_umask(ev, "OUTSTANDING")))
            s->oc_outstanding = um->value;
    }
    if (req)
        s->oc_req_bits = req;
    if (resp)
        s->oc_resp_bits = resp & ~s->oc_outstanding;
    /* The register's own layout, when it has one, is the better source. */
    const PmsRegister *r = pms_model_reg_by_kind(m, PMS_REG_OFFCORE_RSP, 0);
    static const char *const n_req[] = { "request", NULL }, *const n_resp[] = { "response", NULL };
    static const char *const n_sup[] = { "supplier", NULL }, *const n_snp[] = { "snoop", NULL };
    static const char *const n_out[] = { "outstanding", NULL };
    if (r && r->layout) {
        SimField f = resolve(r, n_req, 0, 0, -1, 0);
        if (f.present)
            s->oc_req_bits = sim_fbit(f);
        guint64 rb = sim_fbit(resolve(r, n_resp, 0, 0, -1, 0)) | sim_fbit(resolve(r, n_sup, 0, 0, -1, 0)) |
                     sim_fbit(resolve(r, n_snp, 0, 0, -1, 0));
        if (rb)
            s->oc_resp_bits = rb;
        f = resolve(r, n_out, 0, 0, -1, 0);
        if (f.present)
            s->oc_outstanding = sim_fbit(f);
    }
}

static gboolean resolve_fields(PmsSim *s, GError **error)
{
    const PmsModel *m = s->model;
    static const char *const n_event[] = { "event", "event_select", "evtsel", NULL };
    static const char *const n_umask[] = { "umask", NULL };
    static const char *const n_usr[] = { "usr", NULL }, *const n_os[] = { "os", NULL };
    static const char *const n_edge[] = { "edge", NULL }, *const n_pc[] = { "pc", NULL };
    static const char *const n_int[] = { "int", NULL }, *const n_any[] = { "any", "anythread", NULL };
    static const char *const n_en[] = { "en", NULL }, *const n_inv[] = { "inv", NULL };
    static const char *const n_cmask[] = { "cmask", NULL };
    for (guint i = 0; i < s->n_gp; i++) {
        const PmsRegister *r = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, i);
        if (!r) {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                        "model %s: no EVTSEL register for counter %u", m->name, i);
            return FALSE;
        }
        if (i > 0)
            continue;
        /* Architectural positions (SDM Fig 18-6) when the register has no layout. */
        s->ev.event = resolve(r, n_event, 0, 0, 0, 8);
        s->ev.umask = resolve(r, n_umask, 0, 0, 8, 8);
        s->ev.usr = resolve(r, n_usr, 0, 0, 16, 1);
        s->ev.os = resolve(r, n_os, 0, 0, 17, 1);
        s->ev.edge = resolve(r, n_edge, 0, 0, 18, 1);
        s->ev.pc = resolve(r, n_pc, 0, 0, 19, 1);
        s->ev.intr = resolve(r, n_int, 0, 0, 20, 1);
        s->ev.any = resolve(r, n_any, 0, 0, 21, 1);
        s->ev.en = resolve(r, n_en, 0, 0, 22, 1);
        s->ev.inv = resolve(r, n_inv, 0, 0, 23, 1);
        s->ev.cmask = resolve(r, n_cmask, 0, 0, 24, 8);
        if (!require(r, s->ev.event, "event", error) || !require(r, s->ev.umask, "umask", error) ||
            !require(r, s->ev.usr, "usr", error) || !require(r, s->ev.os, "os", error) ||
            !require(r, s->ev.edge, "edge", error) || !require(r, s->ev.intr, "int", error) ||
            !require(r, s->ev.en, "en", error) || !require(r, s->ev.inv, "inv", error) ||
            !require(r, s->ev.cmask, "cmask", error))
            return FALSE;
    }
    static const char *const f_en[] = { "en%u", NULL }, *const f_any[] = { "any%u", "anythread%u", NULL };
    static const char *const f_pmi[] = { "pmi%u", NULL };
    const PmsRegister *fc = pms_model_reg_by_kind(m, PMS_REG_FIXED_CTRL, 0);
    for (guint i = 0; i < s->n_fixed; i++) {
        /* Without FIXED_CTR_CTRL the fixed counters are never enabled.
         * SDM 18-7: four bits per counter at 4i: EN[1:0], AnyThread, PMI. */
        s->fx[i].en = resolve(fc, f_en, i, 4, (gint)(4 * i), 2);
        s->fx[i].any = resolve(fc, f_any, i, 4, (gint)(4 * i + 2), 1);
        s->fx[i].pmi = resolve(fc, f_pmi, i, 4, (gint)(4 * i + 3), 1);
        g_autofree char *en = g_strdup_printf("en%u", i), *pmi = g_strdup_printf("pmi%u", i);
        if (!require(fc, s->fx[i].en, en, error) || !require(fc, s->fx[i].pmi, pmi, error))
            return FALSE;
    }
    /* Global control/status: bit i for PMCi, 32+i for FIXED_CTRi (SDM 18-7, 18-10). */
    static const char *const g_pmc[] = { "pmc%u", "en_pmc%u", "ctr%u", NULL };
    static const char *const g_fix[] = { "fixed%u", "fixed_ctr%u", "en_fixed%u", "fc%u", NULL };
    static const char *const s_pmc[] = { "ovf_pmc%u", "pmc%u", NULL };
    static const char *const s_fix[] = { "ovf_fixed%u", "ovf_fixed_ctr%u", "fixed%u", "fixed_ctr%u", NULL };
    static const char *const s_cfrz[] = { "ctr_frz", NULL }, *const s_lfrz[] = { "lbr_frz", NULL };
    const PmsRegister *gc = pms_model_reg_by_kind(m, PMS_REG_GLOBAL_CTRL, 0);
    const PmsRegister *gs = pms_model_reg_by_kind(m, PMS_REG_GLOBAL_STATUS, 0);
    /* Without GLOBAL_CTRL (perfmon v1) the local enable alone counts; without
     * GLOBAL_STATUS overflows leave no trace but the PMI. */
    s->has_global_ctrl = gc != NULL;
    for (guint i = 0; i < s->n_gp; i++) {
        s->gc_pmc[i] = resolve(gc, g_pmc, i, 0, (gint)i, 1);
        s->st_pmc[i] = resolve(gs, s_pmc, i, 0, (gint)i, 1);
        g_autofree char *a = g_strdup_printf("pmc%u", i), *b = g_strdup_printf("ovf_pmc%u", i);
        if (!require(gc, s->gc_pmc[i], a, error) || !require(gs, s->st_pmc[i], b, error))
            return FALSE;
    }
    for (guint i = 0; i < s->n_fixed; i++) {
        s->gc_fixed[i] = resolve(gc, g_fix, i, 0, (gint)(32 + i), 1);
        s->st_fixed[i] = resolve(gs, s_fix, i, 0, (gint)(32 + i), 1);
        g_autofree char *a = g_strdup_printf("fixed%u", i), *b = g_strdup_printf("ovf_fixed%u", i);
        if (!require(gc, s->gc_fixed[i], a, error) || !require(gs, s->st_fixed[i], b, error))
            return FALSE;
    }
    /* v4 freeze bits (SDM 18-11/12): status 59 CTR_Frz, 58 LBR_Frz. */
    s->st_ctr_frz = resolve(gs, s_cfrz, 0, 0, s->version >= 4 ? 59 : -1, 1);
    s->st_lbr_frz = resolve(gs, s_lfrz, 0, 0, s->version >= 4 ? 58 : -1, 1);
    if (s->version >= 4 && (!require(gs, s->st_ctr_frz, "ctr_frz", error) ||
                            !require(gs, s->st_lbr_frz, "lbr_frz", error)))
        return FALSE;
    static const char *const d_lbr[] = { "lbr", NULL };
    static const char *const d_flbr[] = { "freeze_lbrs_on_pmi", "freeze_lbr_on_pmi", NULL };
    static const char *const d_fperf[] = { "freeze_perfmon_on_pmi", NULL };
    const PmsRegister *dbg = pms_model_reg_by_kind(m, PMS_REG_DEBUGCTL, 0);
    /* SDM 17-12: bit 0 LBR, 11 FREEZE_LBRS_ON_PMI, 12 FREEZE_PERFMON_ON_PMI. */
    s->dbg_lbr = resolve(dbg, d_lbr, 0, 0, 0, 1);
    s->dbg_frz_lbr = resolve(dbg, d_flbr, 0, 0, 11, 1);
    s->dbg_frz_perf = resolve(dbg, d_fperf, 0, 0, 12, 1);
    static const char *const l_thr[] = { "threshold", "ldlat", "lat", NULL };
    const PmsRegister *ll = pms_model_reg_by_kind(m, PMS_REG_PEBS_LD_LAT, 0);
    s->ldlat_thr = resolve(ll, l_thr, 0, 0, 0, 16); /* SDM 18-39: bits 15:0 */
    if (ll && !require(ll, s->ldlat_thr, "threshold", error))
        return FALSE;
    return TRUE;
}

static void bind_storage(PmsSim *s)
{
    const PmsModel *m = s->model;
    for (guint i = 0; i < PMS_SIM_MAX_GP; i++) {
        s->evtsel[i] = storage(s, i < s->n_gp ? pms_model_reg_by_kind(m, PMS_REG_EVTSEL, i) : NULL);
        const PmsRegister *p = pms_model_reg_by_kind(m, PMS_REG_PMC, i);
        if (!p)
            p = pms_model_reg_by_kind(m, PMS_REG_A_PMC, i);
        s->pmc[i] = storage(s, i < s->n_gp ? p : NULL);
    }
    for (guint i = 0; i < PMS_SIM_MAX_FIXED; i++)
        s->fixed_ctr[i] = storage(s, i < s->n_fixed ? pms_model_reg_by_kind(m, PMS_REG_FIXED_CTR, i) : NULL);
    for (guint i = 0; i < PMS_SIM_MAX_OFFCORE; i++)
        s->offcore[i] = storage(s, pms_model_reg_by_kind(m, PMS_REG_OFFCORE_RSP, i));
    s->fixed_ctrl = storage(s, pms_model_reg_by_kind(m, PMS_REG_FIXED_CTRL, 0));
    s->global_ctrl = storage(s, pms_model_reg_by_kind(m, PMS_REG_GLOBAL_CTRL, 0));
    s->global_status = storage(s, pms_model_reg_by_kind(m, PMS_REG_GLOBAL_STATUS, 0));
    s->debugctl = storage(s, pms_model_reg_by_kind(m, PMS_REG_DEBUGCTL, 0));
    s->ld_lat = storage(s, pms_model_reg_by_kind(m, PMS_REG_PEBS_LD_LAT, 0));
}

PmsSim *pms_sim_new(const PmsModel *m, GError **error)
{
    g_return_val_if_fail(m != NULL, NULL);
    if (m->arch != PMS_ARCH_X86_CORE) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: only x86 core PMUs are simulated so far", m->name);
        return NULL;
    }
    if (m->n_gp > PMS_SIM_MAX_GP || m->n_fixed > PMS_SIM_MAX_FIXED || m->gp_width < 1 ||
        m->gp_width > 63 || (m->n_fixed && (m->fixed_width < 1 || m->fixed_width > 63))) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: counters out of range (%u general of width %u, %u fixed of width %u; "
                    "at most %d and %d, widths 1..63)", m->name, m->n_gp, m->gp_width, m->n_fixed,
                    m->fixed_width, PMS_SIM_MAX_GP, PMS_SIM_MAX_FIXED);
        return NULL;
    }
    /* Counter registers index arrays sized by the counter counts. */
    for (guint i = 0; i < m->n_regs; i++) {
        const PmsRegister *r = &m->regs[i];
        gboolean gp = r->kind == PMS_REG_EVTSEL || r->kind == PMS_REG_PMC || r->kind == PMS_REG_A_PMC;
        if ((gp && r->index >= m->n_gp) || (r->kind == PMS_REG_FIXED_CTR && r->index >= m->n_fixed)) {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                        "model %s: register %s has index %u but the model declares %u %s counters", m->name,
                        r->name, r->index, gp ? m->n_gp : m->n_fixed, gp ? "general" : "fixed");
            return NULL;
        }
    }
    g_autoptr(PmsSim) s = g_new0(PmsSim, 1);
    s->model = m;
    s->engine = PMS_SIM_FAST;
    s->n_gp = m->n_gp;
    s->n_fixed = m->n_fixed;
    s->n_threads = m->smt ? 2 : 1;
    s->version = m->version;
    s->gp_mask = ((guint64)1 << m->gp_width) - 1;
    s->fixed_mask = m->n_fixed ? ((guint64)1 << m->fixed_width) - 1 : 0;
    s->val = g_new0(guint64, m->n_regs ? m->n_regs : 1);
    s->by_addr = g_hash_table_new(g_direct_hash, g_direct_equal);
    s->pmis = g_array_new(FALSE, FALSE, sizeof(guint64));
    for (guint i = 0; i < m->n_regs; i++)
        g_hash_table_insert(s->by_addr, GUINT_TO_POINTER(m->regs[i].address), GUINT_TO_POINTER(i + 1));

    const char *gate = pms_model_option(m, "cpl_gate", "post");
    const char *comb = pms_model_option(m, "anythread_combine", "clock-or");
    const char *gres = pms_model_option(m, "global_ctrl_reset", "gp");
    if (strcmp(gate, "post") && strcmp(gate, "pre")) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: option cpl_gate = '%s': expected post or pre", m->name, gate);
        return NULL;
    }
    if (strcmp(comb, "clock-or") && strcmp(comb, "sum") && strcmp(comb, "or")) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: option anythread_combine = '%s': expected clock-or, sum or or", m->name, comb);
        return NULL;
    }
    if (strcmp(gres, "gp") && strcmp(gres, "zero")) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: option global_ctrl_reset = '%s': expected gp or zero", m->name, gres);
        return NULL;
    }
    const char *skid = pms_model_option(m, "pmi_skid", "0");
    if (!g_ascii_string_to_unsigned(skid, 10, 0, 1u << 20, &s->pmi_skid, NULL)) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: option pmi_skid = '%s': expected cycles 0..1048576", m->name, skid);
        return NULL;
    }
    s->cpl_gate_pre = strcmp(gate, "pre") == 0;
    s->any_or_clocks = strcmp(comb, "clock-or") == 0;
    s->any_or_all = strcmp(comb, "or") == 0;
    s->global_ctrl_reset_gp = strcmp(gres, "gp") == 0;

    /* The AnyThread OR-combined clocks (A6: CPU_CLK_UNHALTED core and ref). */
    s->clock_sig[0] = PMS_SIGNAL_KEY(0x3c, 0x00);
    s->clock_sig[1] = PMS_SIGNAL_KEY(0x3c, 0x01);
    resolve_event_signals(s);
    for (guint i = 0; i < PMS_SIM_MAX_FIXED; i++) {
        g_autofree char *key = g_strdup_printf("fixed%u_signal", i);
        if (!parse_signal_option(m, key, s->fixed_sig[i][0], &s->fixed_sig[i][0], error))
            return NULL;
    }
    if (!parse_signal_option(m, "ldlat_signal", s->ldlat_sig, &s->ldlat_sig, error))
        return NULL;
    /* PmsEvent.match: EXACT events select one signal by the whole umask. */
    for (guint e = 0; e < m->n_events; e++)
        if (m->events[e].match == PMS_MATCH_EXACT && m->events[e].code <= 0xff)
            s->exact_code[m->events[e].code] = TRUE;
    resolve_offcore(s);
    if (!resolve_fields(s, error))
        return NULL;
    bind_storage(s);
    pms_sim_reset(s);
    return g_steal_pointer(&s);
}

void pms_sim_free(PmsSim *s)
{
    if (!s)
        return;
    g_free(s->val);
    if (s->by_addr)
        g_hash_table_destroy(s->by_addr);
    if (s->pmis)
        g_array_free(s->pmis, TRUE);
    g_free(s);
}

void pms_sim_reset(PmsSim *s)
{
    const PmsModel *m = s->model;
    for (guint i = 0; i < m->n_regs; i++)
        s->val[i] = m->regs[i].reset;
    /* Counters: SDM Table 9-1 gives 0H after RESET (18-17 calls them undefined). */
    for (guint i = 0; i < s->n_gp; i++)
        *s->pmc[i] = 0;
    for (guint i = 0; i < s->n_fixed; i++)
        *s->fixed_ctr[i] = 0;
    *s->global_status = 0;
    /* A25: newer SDM (GP enables set, fixed clear); option "zero" = 2016 SDM. */
    guint64 gc = 0;
    if (s->global_ctrl_reset_gp)
        for (guint i = 0; i < s->n_gp; i++)
            gc |= sim_fbit(s->gc_pmc[i]);
    *s->global_ctrl = gc;
    s->zero = 0;
    memset(s->latch, 0, sizeof s->latch);
    s->cfg_valid = FALSE;
    s->cycle = 0;
    g_array_set_size(s->pmis, 0);
}

void pms_sim_set_engine(PmsSim *s, PmsSimEngine e) { s->engine = e; }
PmsSimEngine pms_sim_get_engine(const PmsSim *s) { return s->engine; }
const PmsModel *pms_sim_model(const PmsSim *s) { return s->model; }
guint pms_sim_threads(const PmsSim *s) { return s->n_threads; }
guint64 pms_sim_cycle(const PmsSim *s) { return s->cycle; }
gboolean pms_sim_edge_latch(const PmsSim *s, guint i) { return i < s->n_gp && s->latch[i]; }

void pms_sim_set_trace(PmsSim *s, PmsSimTraceFn fn, gpointer data)
{
    s->trace = fn;
    s->trace_data = data;
}

const guint64 *pms_sim_pmis(const PmsSim *s, guint *n)
{
    *n = s->pmis->len;
    return (const guint64 *)(void *)s->pmis->data;
}

/* ---- WRMSR / RDMSR ------------------------------------------------------- */

static const PmsRegister *lookup(const PmsSim *s, guint32 addr)
{
    guint idx = GPOINTER_TO_UINT(g_hash_table_lookup(s->by_addr, GUINT_TO_POINTER(addr)));
    return idx ? &s->model->regs[idx - 1] : NULL;
}

static gboolean gp_error(GError **error, const PmsRegister *r, guint64 value, guint64 bad, const char *why)
{
    g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP,
                "#GP: write 0x%" G_GINT64_MODIFIER "x to %s (0x%x): %s 0x%" G_GINT64_MODIFIER "x",
                value, r->name, r->address, why, bad);
    return FALSE;
}

gboolean pms_sim_write(PmsSim *s, guint32 addr, guint64 value, GError **error)
{
    const PmsRegister *r = lookup(s, addr);
    if (!r) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP,
                    "#GP: write 0x%" G_GINT64_MODIFIER "x to MSR 0x%x: no such register on %s",
                    value, addr, s->model->name);
        return FALSE;
    }
    if (r->readonly || r->kind == PMS_REG_GLOBAL_STATUS || r->kind == PMS_REG_GLOBAL_INUSE) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP,
                    "#GP: write 0x%" G_GINT64_MODIFIER "x to %s (0x%x): register is read-only",
                    value, r->name, r->address);
        return FALSE;
    }
    /* A10: any reserved bit set -> #GP, register unchanged.  Legacy PMC
     * writes take EAX only (SDM 18-3; KVM likewise ignores EDX). */
    if (r->kind != PMS_REG_PMC && (value & ~r->writable))
        return gp_error(error, r, value, value & ~r->writable, "reserved bits set:");
    guint64 *v = storage(s, r);
    s->cfg_valid = FALSE;
    switch (r->kind) {
    case PMS_REG_PMC:
        /* SDM 18-3: legacy writes take EAX and sign-extend bit 31 to the width. */
        *s->pmc[r->index] = (guint64)(gint64)(gint32)(guint32)value & s->gp_mask;
        return TRUE;
    case PMS_REG_A_PMC:
        /* SDM 18-15: full-width alias; bits above the width are reserved. */
        if (value & ~s->gp_mask)
            return gp_error(error, r, value, value & ~s->gp_mask, "bits above the counter width:");
        *s->pmc[r->index] = value;
        return TRUE;
    case PMS_REG_FIXED_CTR:
        /* SDM 18-6: full width, bits beyond the width must be zero (A10). */
        if (value & ~s->fixed_mask)
            return gp_error(error, r, value, value & ~s->fixed_mask, "bits above the counter width:");
        *v = value;
        return TRUE;
    case PMS_REG_EVTSEL:
        /* A4: any PERFEVTSEL write resets the edge latch. */
        *v = value;
        if (r->index < PMS_SIM_MAX_GP)
            s->latch[r->index] = FALSE;
        return TRUE;
    case PMS_REG_GLOBAL_OVF_CTRL:
    case PMS_REG_GLOBAL_STATUS_RESET:
        /* SDM 18-12: write 1 to clear the matching status bit; reads 0 (A22). */
        *s->global_status &= ~value;
        return TRUE;
    case PMS_REG_GLOBAL_STATUS_SET:
        /* SDM-35 p.1305; A20: sets the bits only, no PMI or freeze. */
        *s->global_status |= value;
        return TRUE;
    default:
        *v = value;
        return TRUE;
    }
}

static guint64 inuse(const PmsSim *s)
{
    /* SDM 18-14 (A11: PMI bit is 63). */
    guint64 v = 0;
    gboolean pmi = FALSE;
    for (guint i = 0; i < s->n_gp; i++) {
        if (sim_fget(s->ev.event, *s->evtsel[i]))
            v |= (guint64)1 << i;
        pmi |= sim_fget(s->ev.intr, *s->evtsel[i]) != 0;
    }
    for (guint i = 0; i < s->n_fixed; i++) {
        if (sim_fget(s->fx[i].en, *s->fixed_ctrl))
            v |= (guint64)1 << (32 + i);
        pmi |= sim_fget(s->fx[i].pmi, *s->fixed_ctrl) != 0;
    }
    const PmsRegister *pe = pms_model_reg_by_kind(s->model, PMS_REG_PEBS_ENABLE, 0);
    if (pe && s->val[pe - s->model->regs])
        pmi = TRUE;
    return v | (pmi ? (guint64)1 << 63 : 0);
}

gboolean pms_sim_read(PmsSim *s, guint32 addr, guint64 *value, GError **error)
{
    const PmsRegister *r = lookup(s, addr);
    if (!r) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP,
                    "#GP: read of MSR 0x%x: no such register on %s", addr, s->model->name);
        return FALSE;
    }
    switch (r->kind) {
    case PMS_REG_PMC:
    case PMS_REG_A_PMC:
        *value = *s->pmc[r->index] & s->gp_mask;
        break;
    case PMS_REG_FIXED_CTR:
        *value = *storage(s, r) & s->fixed_mask;
        break;
    case PMS_REG_GLOBAL_OVF_CTRL:
    case PMS_REG_GLOBAL_STATUS_RESET:
    case PMS_REG_GLOBAL_STATUS_SET:
        *value = 0;
        break;
    case PMS_REG_GLOBAL_INUSE:
        *value = inuse(s);
        break;
    default:
        *value = *storage(s, r);
        break;
    }
    return TRUE;
}

gboolean pms_sim_set_counter(PmsSim *s, guint32 addr, guint64 value, GError **error)
{
    const PmsRegister *r = lookup(s, addr);
    if (!r || (r->kind != PMS_REG_PMC && r->kind != PMS_REG_A_PMC && r->kind != PMS_REG_FIXED_CTR)) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP, "0x%x is not a counter of %s", addr, s->model->name);
        return FALSE;
    }
    guint64 mask = r->kind == PMS_REG_FIXED_CTR ? s->fixed_mask : s->gp_mask;
    if (value & ~mask) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP,
                    "value 0x%" G_GINT64_MODIFIER "x does not fit the %u-bit counter %s", value,
                    (guint)g_bit_nth_msf(mask, -1) + 1, r->name);
        return FALSE;
    }
    if (r->kind == PMS_REG_FIXED_CTR)
        *storage(s, r) = value;
    else
        *s->pmc[r->index] = value;
    return TRUE;
}

/* ---- state the engines read ----------------------------------------------- */

guint64 sim_status_bit_gp(const PmsSim *s, guint i) { return sim_fbit(s->st_pmc[i]); }
guint64 sim_status_bit_fixed(const PmsSim *s, guint i) { return sim_fbit(s->st_fixed[i]); }

/* SDM 17.4.7 / 18.2.4.1, A8: applied in the overflow cycle.  v2/v3 (legacy):
 * clear GLOBAL_CTRL and DEBUGCTL.LBR; v4: set CTR_Frz / LBR_Frz (A18). */
void sim_freeze(PmsSim *s)
{
    guint64 dbg = *s->debugctl;
    if (s->version >= 4) {
        if (sim_fget(s->dbg_frz_perf, dbg))
            *s->global_status |= sim_fbit(s->st_ctr_frz);
        if (sim_fget(s->dbg_frz_lbr, dbg))
            *s->global_status |= sim_fbit(s->st_lbr_frz);
        return;
    }
    if (sim_fget(s->dbg_frz_perf, dbg))
        *s->global_ctrl = 0;
    if (sim_fget(s->dbg_frz_lbr, dbg))
        *s->debugctl = sim_fset(s->dbg_lbr, dbg, 0);
}

static gboolean is_clock(const PmsSim *s, guint32 key)
{
    return key == s->clock_sig[0] || key == s->clock_sig[1];
}

void sim_gp_cfg(const PmsSim *s, guint i, PmsPipeCfg *c)
{
    guint64 v = *s->evtsel[i];
    memset(c, 0, sizeof *c);
    c->usr = sim_fget(s->ev.usr, v) != 0;
    c->os = sim_fget(s->ev.os, v) != 0;
    c->edge = sim_fget(s->ev.edge, v) != 0;
    c->inv = sim_fget(s->ev.inv, v) != 0;
    c->cmask = (guint)sim_fget(s->ev.cmask, v);
    c->any = sim_fget(s->ev.any, v) != 0;
    c->smt = s->n_threads > 1;
    c->combine_or = s->any_or_all || (s->any_or_clocks &&
        is_clock(s, PMS_SIGNAL_KEY(sim_fget(s->ev.event, v), sim_fget(s->ev.umask, v))));
    c->cpl_gate_pre = s->cpl_gate_pre;
    c->thread = 0;
    c->n_threads = s->n_threads;
}

void sim_fixed_cfg(const PmsSim *s, guint i, PmsPipeCfg *c)
{
    guint64 en = sim_fget(s->fx[i].en, *s->fixed_ctrl);
    memset(c, 0, sizeof *c);
    /* SDM 18-7: EN 01 = CPL 0, 10 = CPL > 0, 11 = all rings. */
    c->os = (en & 1) != 0;
    c->usr = (en & 2) != 0;
    c->any = sim_fget(s->fx[i].any, *s->fixed_ctrl) != 0;
    c->smt = s->n_threads > 1;
    /* A6: the cycle counters (FIXED_CTR1/2) combine with OR under AnyThread. */
    c->combine_or = s->any_or_all || (s->any_or_clocks && i >= 1);
    c->cpl_gate_pre = s->cpl_gate_pre;
    c->n_threads = s->n_threads;
}
