/* pmusim — the x86 core PMU device (SDM Vol. 3B ch. 18; perfmon v2..v4):
 * IA32_PERFEVTSELx / IA32_PMCx / IA32_A_PMCx, IA32_FIXED_CTRx and
 * IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_CTRL/STATUS/OVF_CTRL (v4:
 * STATUS_RESET/SET/INUSE), MSR_OFFCORE_RSP_n, MSR_PEBS_LD_LAT and the freeze
 * bits of IA32_DEBUGCTL.  Everything about a register (address, kind, width,
 * writable bits, reset value, field positions) comes from the model; this
 * file holds only the behaviour of each register kind (SDM rules cited
 * inline, the choices A10, A22, A25 of docs/semantics.md) and how a run's
 * occurrences reach each counter (signal selection by event code + unit mask,
 * offcore matching against OFFCORE_RSP_i, load latency against PEBS_LD_LAT),
 * and PEBS (semantics.md §5.2, docs/semantics.md §8a): a PEBS_EN counter's
 * wrap arms it, its next counted cycle runs the assist (a record through
 * sim/pebs.c, its status bit cleared, the counter reloaded from the DS reset
 * value, OvfBuf and a PMI at the buffer's threshold; its INT PMI waits for
 * the assist; a PEBS counter's status bit set through GLOBAL_STATUS_SET arms
 * it too, SDM 18-30).  Perfmon v5's top-down (docs/semantics.md §8c):
 * FIXED_CTR3 counts the run's slots (`slots=`), IA32_PERF_METRICS reads
 * their shares (sim/topdown.c), GLOBAL_STATUS bit 48 its overflow.
 * Skylake (docs/semantics.md §8d): the TSX qualifiers IN_TX / IN_TXCP
 * (x86_tsx.c: the stimulus's transactional regions), FRONTEND_RETIRED by
 * MSR_PEBS_FRONTEND (x86_frontend.c), LBR_INFO (lbr.c) and the option smt
 * (general counters 4-7 absent for software when on).
 *
 * Not modelled (docs/semantics.md §8): the sibling thread's own registers
 * (one instance = thread 0; thread 1 only supplies occurrences and CPL);
 * PMI delivery (a PMI is a recorded cycle, optionally `pmi_skid` cycles
 * late; no LVT-PC mask); PEBS on a part whose record format (PERF_CAPABILITIES
 * PEBS_REC_FMT) has no table in sim/pebs.c (1 and 3 have), PEBS records of
 * thread 1, the DS area's BTS fields, GLM's OvfBuf on an index out of
 * bounds; BTS (the LBR is sim/lbr.c's);
 * FREEZE_WHILE_SMM; the PC pin; CPUID; NHM errata; IA32_PERF_GLOBAL_STATUS
 * bit 61 (uncore overflow: the uncore is its own device).
 */
#include "sim_internal.h"
#include "pebs_internal.h"
#include "sim_input.h"
#include "stim_pebs.h"
#include "topdown.h"
#include "x86_tsx.h"
#include "x86_frontend.h"

#include <stddef.h>
#include <string.h>

enum {
    PMS_SIM_MAX_GP = 8,
    PMS_SIM_MAX_FIXED = 4,
    PMS_SIM_MAX_OFFCORE = 2,
};

typedef struct {
    SimField event, umask, usr, os, edge, pc, intr, any, en, inv, cmask;
} SimEvtselFields;

typedef struct {
    SimField en, any, pmi;
} SimFixedFields;

/* The device's run inputs (sim_input.h; docs/stimulus-format.md "run"):
 * thread 0's instruction and data address and data source for its PEBS
 * records, and its taken branches for the LBR. */
typedef struct {
    SimThreadAddrs ip;    /* ip= */
    SimThreadAddrs daddr; /* daddr= */
    SimOptValue dse;      /* dse= */
    SimList branch;       /* branch=: PmsSimLbrBranch */
    SimSlots slots;       /* slots=: thread 0's slots by category (topdown.h) */
    SimList tx;           /* tx=: SimTxOp (x86_tsx.c) */
    SimList fe;           /* fe=: SimFeInsn (x86_frontend.c) */
} X86Input;

#define AT(member) .offset = offsetof(X86Input, member), .size = sizeof(((X86Input *)0)->member)

static const SimRunKey x86_keys[] = {
    { .name = "ip", .parse = sim_key_ip, AT(ip) },
    { .name = "daddr", .parse = sim_key_daddr, AT(daddr) },
    { .name = "dse", .parse = sim_key_dse, AT(dse) },
    { .name = "branch",
      .parse = sim_lbr_key_branch,
      AT(branch),
      .elem = sizeof(PmsSimLbrBranch),
      .max = PMS_SIM_MAX_BRANCHES,
      .max_what = "branches" },
    { .name = "slots", .parse = sim_key_slots, AT(slots) },
    { .name = "tx",
      .parse = sim_tsx_key,
      AT(tx),
      .elem = sizeof(SimTxOp),
      .max = SIM_TSX_MAX_OPS,
      .max_what = "transaction operations" },
    { .name = "fe",
      .parse = sim_fe_key,
      AT(fe),
      .elem = sizeof(SimFeInsn),
      .max = SIM_FE_MAX_ITEMS,
      .max_what = "front-end items" },
};

static const X86Input x86_defaults = { 0 };

static const SimRunInputs x86_inputs = { sizeof(X86Input), &x86_defaults, x86_keys, G_N_ELEMENTS(x86_keys) };

/* The device state; `sim` owns the register storage. */
typedef struct {
    PmsSim *sim;
    const PmsModel *model;
    guint n_gp, n_fixed, n_threads, version;
    guint n_sw_gp;               /* general counters software sees (option smt) */
    guint64 gp_mask, fixed_mask; /* 2^width - 1 */
    gboolean cpl_gate_pre;       /* A3 option */
    gboolean any_or_clocks;      /* A6 option: OR for clock events */
    gboolean any_or_all;         /* A6 alternative: OR for every event */
    gboolean has_global_ctrl;
    gboolean global_ctrl_reset_gp; /* A25 option */

    /* Storage of each architectural register (points into sim->val or at sim->zero). */
    guint64 *evtsel[PMS_SIM_MAX_GP], *pmc[PMS_SIM_MAX_GP];
    guint64 *fixed_ctr[PMS_SIM_MAX_FIXED];
    guint64 *fixed_ctrl, *global_ctrl, *global_status, *debugctl, *ld_lat;
    guint64 *offcore[PMS_SIM_MAX_OFFCORE];

    SimEvtselFields ev;
    SimFixedFields fx[PMS_SIM_MAX_FIXED];
    SimField gc_pmc[PMS_SIM_MAX_GP], gc_fixed[PMS_SIM_MAX_FIXED];
    SimField st_pmc[PMS_SIM_MAX_GP], st_fixed[PMS_SIM_MAX_FIXED], st_ctr_frz, st_lbr_frz;
    SimField dbg_lbr, dbg_frz_lbr, dbg_frz_perf;
    SimField ldlat_thr;
    guint64 *pebs_enable;
    SimField pebs_en[PMS_SIM_MAX_GP], ll_en[PMS_SIM_MAX_GP], st_ovf_buf;

    /* Offcore: request/response bit sets of the model (nhm style) and GLM's
     * special bits; which event code/umask drives which RSP register. */
    gboolean offcore_glm;
    guint64 oc_req_bits, oc_resp_bits, oc_any_req, oc_any_resp, oc_outstanding;
    /* Sandy Bridge and later (skl, icl): a layout with supplier and snoop
     * fields; ANY (bit 16 in the SDM) from the *ANY_RESPONSE unit masks. */
    gboolean offcore_snb;
    guint64 oc_sup_bits, oc_snp_bits, oc_snb_any;
    guint32 oc_sig[PMS_SIM_MAX_OFFCORE];     /* signal key of the event using RSP_i; 0 none */
    guint32 ldlat_sig;                       /* signal key of the load-latency event */
    guint32 fixed_sig[PMS_SIM_MAX_FIXED][4]; /* signals counted by fixed counter i (0 = none) */
    guint32 clock_sig[2];                    /* signals combined with OR under AnyThread */
    gboolean exact_code[256];                /* event code whose umask must match exactly */

    gboolean latch[PMS_SIM_MAX_GP];
    /* Pipeline configurations derived from EVTSELx / FIXED_CTR_CTRL, rebuilt
     * after any register write (the fast engine's per-run cost). */
    PmsPipeCfg gp_cfg[PMS_SIM_MAX_GP], fixed_cfg[PMS_SIM_MAX_FIXED];
    /* and what each general counter's EVTSEL selects besides the run's
     * signals (the same rebuild): a run only adds its occurrences */
    struct {
        guint64 E, U;
        gboolean oc[PMS_SIM_MAX_OFFCORE], td_slots, td_be, ldlat, fe;
    } gp_sel[PMS_SIM_MAX_GP];
    gboolean cfg_valid;
    SimLbr lbr;
    SimPebs *pebs;                  /* the DS area and PEBS records (sim/pebs.c) */
    X86Input in;                    /* the current run inputs */
    SimTopdown td;                  /* IA32_PERF_METRICS (topdown.c), FIXED_CTR3's slots */
    SimTsx tsx;                     /* transactional regions, IN_TX / IN_TXCP (x86_tsx.c) */
    SimFe fe;                       /* MSR_PEBS_FRONTEND, FRONTEND_RETIRED (x86_frontend.c) */
    guint64 gp_sw_bits;             /* GLOBAL_CTRL/STATUS bits of the counters software sees */
    guint64 gp_hidden_bits;         /* those of the counters it does not (smt = on) */
    guint64 st_bit[PMS_SIM_MAX_GP]; /* GLOBAL_STATUS's bit of each general counter */
} X86Core;

G_STATIC_ASSERT(PMS_SIM_MAX_GP + PMS_SIM_MAX_FIXED <= SIM_MAX_UNITS);

/* Fixed counter i counts the signals of the events that declare it (model key
 * `fixed`), e.g. INST_RETIRED.ANY_P and the architectural INSTRUCTION_RETIRED;
 * defaults from SDM Table 18-8 (REF as Linux's pseudo-encoding 0x0300).  The
 * load-latency signal is the ldlat event's (SDM 18-39: 0x0B/0x10). */
/* One more signal fixed counter i counts, once. */
static void add_fixed_sig(X86Core *s, guint *nsig, guint i, guint32 key)
{
    if (nsig[i] == G_N_ELEMENTS(s->fixed_sig[i]))
        return;
    for (guint k = 0; k < nsig[i]; k++)
        if (s->fixed_sig[i][k] == key)
            return;
    s->fixed_sig[i][nsig[i]++] = key;
}

static void resolve_event_signals(X86Core *s)
{
    const PmsModel *m = s->model;
    static const guint32 fixed_default[PMS_SIM_MAX_FIXED] = { PMS_SIGNAL_KEY(0xc0, 0x00), PMS_SIGNAL_KEY(0x3c, 0x00),
                                                              PMS_SIGNAL_KEY(0x00, 0x03), PMS_SIGNAL_KEY(0x00, 0x04) };
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
            if (!(fixed_mask & (1u << i)))
                continue;
            /* Without a default unit mask, the unit masks that may use the
             * fixed counter name its signals (icl TOPDOWN.SLOTS 0x00/0x04 on
             * FIXED_CTR3, CPU_CLK_UNHALTED.REF_TSC 0x00/0x03 on FIXED_CTR2),
             * each with its own code where it has one. */
            gboolean by_umask = FALSE;
            for (guint u = 0; !def && u < ev->n_umasks; u++) {
                const PmsUmask *um = &ev->umasks[u];
                if (!(um->fixed & (1u << i)))
                    continue;
                by_umask = TRUE;
                add_fixed_sig(
                    s, nsig, i,
                    PMS_SIGNAL_KEY(um->code >= 0 ? (guint)um->code : ev->code, (um->value | ev->base_umask) & 0xff));
            }
            if (!by_umask)
                add_fixed_sig(s, nsig, i, key);
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

/* Whether a unit mask is an ANY_RESPONSE one: named ANY_RESPONSE (skl) or
 * ending in _ANY_RESPONSE (icl: whole MSR values, request bits included). */
static gboolean any_response_name(const char *n)
{
    gsize len = strlen(n), k = strlen("ANY_RESPONSE");
    return len >= k && g_ascii_strcasecmp(n + len - k, "ANY_RESPONSE") == 0 && (len == k || n[len - k - 1] == '_');
}

/* Offcore facts from the model's OFFCORE events: which code/umask drives which
 * RSP register, and which RSP bits are requests and which responses. */
static void resolve_offcore(X86Core *s)
{
    const PmsModel *m = s->model;
    s->offcore_glm = m->offcore_style && g_ascii_strcasecmp(m->offcore_style, "glm") == 0;
    /* The RSP bits come from the model only: its offcore events' unit masks
     * (the request group, the others, ANY_*, OUTSTANDING), then the
     * register's layout; without either a transaction matches nothing.
     * The signals default to the SDM's event codes (Table 18-25/18.7.2,
     * semantics.md §4.1, §4.3) until an offcore event names them. */
    s->oc_sig[0] = PMS_SIGNAL_KEY(0xb7, 0x01);
    s->oc_sig[1] = s->offcore_glm ? PMS_SIGNAL_KEY(0xb7, 0x02) : PMS_SIGNAL_KEY(0xbb, 0x01);
    guint64 req = 0, resp = 0, any_named = 0; /* any_named: the ANY_RESPONSE unit masks' bits */
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
            if (any_response_name(um->name))
                any_named |= um->value;
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
        SimField f = sim_resolve(r, n_req, 0, 0);
        if (f.present)
            s->oc_req_bits = sim_fbit(f);
        guint64 rb = sim_fbit(sim_resolve(r, n_resp, 0, 0)) | sim_fbit(sim_resolve(r, n_sup, 0, 0)) |
            sim_fbit(sim_resolve(r, n_snp, 0, 0));
        if (rb)
            s->oc_resp_bits = rb;
        f = sim_resolve(r, n_out, 0, 0);
        if (f.present)
            s->oc_outstanding = sim_fbit(f);
        /* SDM 18.9.5 (skl's 18.13.2 keeps the layout): with supplier and
         * snoop fields the response matches on ANY, or on a supplier bit and
         * a snoop bit together (semantics.md §5). */
        guint64 sup = sim_fbit(sim_resolve(r, n_sup, 0, 0)), snp = sim_fbit(sim_resolve(r, n_snp, 0, 0));
        if (!s->offcore_glm && sup && snp) {
            s->offcore_snb = TRUE;
            s->oc_snb_any = any_named & ~s->oc_req_bits & sup;
            s->oc_sup_bits = sup & ~s->oc_snb_any;
            s->oc_snp_bits = snp;
        }
    }
}

static gboolean resolve_fields(X86Core *s, GError **error)
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
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "model %s: no EVTSEL register for counter %u",
                        m->name, i);
            return FALSE;
        }
        if (i > 0)
            continue;
        /* by name only (SDM Fig 18-6 names them); pc and any are optional */
        s->ev.event = sim_resolve(r, n_event, 0, 0);
        s->ev.umask = sim_resolve(r, n_umask, 0, 0);
        s->ev.usr = sim_resolve(r, n_usr, 0, 0);
        s->ev.os = sim_resolve(r, n_os, 0, 0);
        s->ev.edge = sim_resolve(r, n_edge, 0, 0);
        s->ev.pc = sim_resolve(r, n_pc, 0, 0);
        s->ev.intr = sim_resolve(r, n_int, 0, 0);
        s->ev.any = sim_resolve(r, n_any, 0, 0);
        s->ev.en = sim_resolve(r, n_en, 0, 0);
        s->ev.inv = sim_resolve(r, n_inv, 0, 0);
        s->ev.cmask = sim_resolve(r, n_cmask, 0, 0);
        if (!sim_require(r, s->ev.event, "event", error) || !sim_require(r, s->ev.umask, "umask", error) ||
            !sim_require(r, s->ev.usr, "usr", error) || !sim_require(r, s->ev.os, "os", error) ||
            !sim_require(r, s->ev.edge, "edge", error) || !sim_require(r, s->ev.intr, "int", error) ||
            !sim_require(r, s->ev.en, "en", error) || !sim_require(r, s->ev.inv, "inv", error) ||
            !sim_require(r, s->ev.cmask, "cmask", error))
            return FALSE;
    }
    static const char *const f_en[] = { "en%u", NULL }, *const f_any[] = { "any%u", "anythread%u", NULL };
    static const char *const f_pmi[] = { "pmi%u", NULL };
    const PmsRegister *fc = pms_model_reg_by_kind(m, PMS_REG_FIXED_CTRL, 0);
    for (guint i = 0; i < s->n_fixed; i++) {
        /* Without FIXED_CTR_CTRL the fixed counters are never enabled.
         * SDM 18-7's EN, AnyThread, PMI of counter i: en<i> or a per-counter
         * layout with a stride of 4 (any is optional). */
        s->fx[i].en = sim_resolve(fc, f_en, i, 4);
        s->fx[i].any = sim_resolve(fc, f_any, i, 4);
        s->fx[i].pmi = sim_resolve(fc, f_pmi, i, 4);
        g_autofree char *en = g_strdup_printf("en%u", i), *pmi = g_strdup_printf("pmi%u", i);
        if (!sim_require(fc, s->fx[i].en, en, error) || !sim_require(fc, s->fx[i].pmi, pmi, error))
            return FALSE;
    }
    /* Global control/status: the bits of PMCi and FIXED_CTRi (SDM 18-7,
     * 18-10) by name, or bit i of a vector field. */
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
        s->gc_pmc[i] = sim_resolve(gc, g_pmc, i, 0);
        s->st_pmc[i] = sim_resolve(gs, s_pmc, i, 0);
        g_autofree char *a = g_strdup_printf("pmc%u", i), *b = g_strdup_printf("ovf_pmc%u", i);
        if (!sim_require(gc, s->gc_pmc[i], a, error) || !sim_require(gs, s->st_pmc[i], b, error))
            return FALSE;
    }
    for (guint i = 0; i < s->n_fixed; i++) {
        s->gc_fixed[i] = sim_resolve(gc, g_fix, i, 0);
        s->st_fixed[i] = sim_resolve(gs, s_fix, i, 0);
        g_autofree char *a = g_strdup_printf("fixed%u", i), *b = g_strdup_printf("ovf_fixed%u", i);
        if (!sim_require(gc, s->gc_fixed[i], a, error) || !sim_require(gs, s->st_fixed[i], b, error))
            return FALSE;
    }
    /* v4 freeze bits (SDM 18-11/12): CTR_Frz, LBR_Frz; perfmon v4 needs them. */
    s->st_ctr_frz = sim_resolve(gs, s_cfrz, 0, 0);
    s->st_lbr_frz = sim_resolve(gs, s_lfrz, 0, 0);
    if (s->version >= 4 &&
        (!sim_require(gs, s->st_ctr_frz, "ctr_frz", error) || !sim_require(gs, s->st_lbr_frz, "lbr_frz", error)))
        return FALSE;
    static const char *const d_lbr[] = { "lbr", NULL };
    static const char *const d_flbr[] = { "freeze_lbrs_on_pmi", "freeze_lbr_on_pmi", NULL };
    static const char *const d_fperf[] = { "freeze_perfmon_on_pmi", NULL };
    const PmsRegister *dbg = pms_model_reg_by_kind(m, PMS_REG_DEBUGCTL, 0);
    /* SDM 17-12: LBR, FREEZE_LBRS_ON_PMI, FREEZE_PERFMON_ON_PMI; a DEBUGCTL
     * the model declares must name them. */
    s->dbg_lbr = sim_resolve(dbg, d_lbr, 0, 0);
    s->dbg_frz_lbr = sim_resolve(dbg, d_flbr, 0, 0);
    s->dbg_frz_perf = sim_resolve(dbg, d_fperf, 0, 0);
    if (!sim_require(dbg, s->dbg_lbr, "lbr", error) || !sim_require(dbg, s->dbg_frz_lbr, "freeze_lbrs_on_pmi", error) ||
        !sim_require(dbg, s->dbg_frz_perf, "freeze_perfmon_on_pmi", error))
        return FALSE;
    static const char *const l_thr[] = { "threshold", "ldlat", "lat", NULL };
    const PmsRegister *ll = pms_model_reg_by_kind(m, PMS_REG_PEBS_LD_LAT, 0);
    s->ldlat_thr = sim_resolve(ll, l_thr, 0, 0); /* SDM 18-39 */
    if (ll && !sim_require(ll, s->ldlat_thr, "threshold", error))
        return FALSE;
    /* PEBS_ENABLE: bit i of pebs_en / ll_en for PMCi (SDM Fig 18-21),
     * optional: a model without them has no PEBS. */
    static const char *const p_en[] = { "pebs_en%u", NULL }, *const p_ll[] = { "ll_en%u", NULL };
    static const char *const s_ob[] = { "ovf_buf", NULL };
    const PmsRegister *pe = pms_model_reg_by_kind(m, PMS_REG_PEBS_ENABLE, 0);
    for (guint i = 0; i < s->n_gp; i++) {
        s->pebs_en[i] = sim_resolve(pe, p_en, i, 0);
        s->ll_en[i] = sim_resolve(pe, p_ll, i, 0);
    }
    s->st_ovf_buf = sim_resolve(gs, s_ob, 0, 0);
    return TRUE;
}

static void bind_storage(X86Core *s)
{
    const PmsModel *m = s->model;
    for (guint i = 0; i < PMS_SIM_MAX_GP; i++) {
        s->evtsel[i] = sim_storage(s->sim, i < s->n_gp ? pms_model_reg_by_kind(m, PMS_REG_EVTSEL, i) : NULL);
        const PmsRegister *p = pms_model_reg_by_kind(m, PMS_REG_PMC, i);
        if (!p)
            p = pms_model_reg_by_kind(m, PMS_REG_A_PMC, i);
        s->pmc[i] = sim_storage(s->sim, i < s->n_gp ? p : NULL);
    }
    for (guint i = 0; i < PMS_SIM_MAX_FIXED; i++)
        s->fixed_ctr[i] = sim_storage(s->sim, i < s->n_fixed ? pms_model_reg_by_kind(m, PMS_REG_FIXED_CTR, i) : NULL);
    for (guint i = 0; i < PMS_SIM_MAX_OFFCORE; i++)
        s->offcore[i] = sim_storage(s->sim, pms_model_reg_by_kind(m, PMS_REG_OFFCORE_RSP, i));
    s->fixed_ctrl = sim_storage(s->sim, pms_model_reg_by_kind(m, PMS_REG_FIXED_CTRL, 0));
    s->global_ctrl = sim_storage(s->sim, pms_model_reg_by_kind(m, PMS_REG_GLOBAL_CTRL, 0));
    s->global_status = sim_storage(s->sim, pms_model_reg_by_kind(m, PMS_REG_GLOBAL_STATUS, 0));
    s->debugctl = sim_storage(s->sim, pms_model_reg_by_kind(m, PMS_REG_DEBUGCTL, 0));
    s->ld_lat = sim_storage(s->sim, pms_model_reg_by_kind(m, PMS_REG_PEBS_LD_LAT, 0));
    s->pebs_enable = sim_storage(s->sim, pms_model_reg_by_kind(m, PMS_REG_PEBS_ENABLE, 0));
}

/* ---- init, reset ----------------------------------------------------------- */

static gboolean x86_init(PmsSim *sim, GError **error)
{
    const PmsModel *m = sim->model;
    if (m->n_gp > PMS_SIM_MAX_GP || m->n_fixed > PMS_SIM_MAX_FIXED || m->gp_width < 1 || m->gp_width > 63 ||
        (m->n_fixed && (m->fixed_width < 1 || m->fixed_width > 63))) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: counters out of range (%u general of width %u, %u fixed of width %u; "
                    "at most %d and %d, widths 1..63)",
                    m->name, m->n_gp, m->gp_width, m->n_fixed, m->fixed_width, PMS_SIM_MAX_GP, PMS_SIM_MAX_FIXED);
        return FALSE;
    }
    /* Counter registers index arrays sized by the counter counts. */
    for (guint i = 0; i < m->n_regs; i++) {
        const PmsRegister *r = &m->regs[i];
        gboolean gp = r->kind == PMS_REG_EVTSEL || r->kind == PMS_REG_PMC || r->kind == PMS_REG_A_PMC;
        if ((gp && r->index >= m->n_gp) || (r->kind == PMS_REG_FIXED_CTR && r->index >= m->n_fixed)) {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                        "model %s: register %s has index %u but the model declares %u %s counters", m->name, r->name,
                        r->index, gp ? m->n_gp : m->n_fixed, gp ? "general" : "fixed");
            return FALSE;
        }
    }
    const char *gate = pms_model_option(m, "cpl_gate", "post");
    const char *comb = pms_model_option(m, "anythread_combine", "clock-or");
    const char *gres = pms_model_option(m, "global_ctrl_reset", "gp");
    const char *smt = pms_model_option(m, "smt", "off");
    if (strcmp(gate, "post") && strcmp(gate, "pre")) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "model %s: option cpl_gate = '%s': expected post or pre",
                    m->name, gate);
        return FALSE;
    }
    if (strcmp(comb, "clock-or") && strcmp(comb, "sum") && strcmp(comb, "or")) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: option anythread_combine = '%s': expected clock-or, sum or or", m->name, comb);
        return FALSE;
    }
    if (strcmp(gres, "gp") && strcmp(gres, "zero")) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: option global_ctrl_reset = '%s': expected gp or zero", m->name, gres);
        return FALSE;
    }
    if (strcmp(smt, "on") && strcmp(smt, "off")) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "model %s: option smt = '%s': expected on or off",
                    m->name, smt);
        return FALSE;
    }
    X86Core *s = g_new0(X86Core, 1);
    sim->dev = s;
    s->sim = sim;
    s->model = m;
    s->n_gp = m->n_gp;
    s->n_fixed = m->n_fixed;
    s->n_threads = sim->n_threads;
    s->version = m->version;
    s->gp_mask = ((guint64)1 << m->gp_width) - 1;
    s->fixed_mask = m->n_fixed ? ((guint64)1 << m->fixed_width) - 1 : 0;
    s->cpl_gate_pre = strcmp(gate, "pre") == 0;
    s->any_or_clocks = strcmp(comb, "clock-or") == 0;
    s->any_or_all = strcmp(comb, "or") == 0;
    s->global_ctrl_reset_gp = strcmp(gres, "gp") == 0;
    /* skl (SDM-2016 Table 35-37, 18.9.1): with Hyper-Threading on CPUID.0AH
     * reports 4 general counters per thread; PMC4-7 and their GLOBAL_CTRL /
     * STATUS bits are then reserved (docs/semantics.md §8d). */
    s->n_sw_gp = strcmp(smt, "on") == 0 ? MIN(s->n_gp, 4u) : s->n_gp;

    /* The AnyThread OR-combined clocks (A6: CPU_CLK_UNHALTED core and ref). */
    s->clock_sig[0] = PMS_SIGNAL_KEY(0x3c, 0x00);
    s->clock_sig[1] = PMS_SIGNAL_KEY(0x3c, 0x01);
    resolve_event_signals(s);
    for (guint i = 0; i < PMS_SIM_MAX_FIXED; i++) {
        char key[32];
        g_snprintf(key, sizeof key, "fixed%u_signal", i);
        if (!sim_signal_option(m, key, s->fixed_sig[i][0], &s->fixed_sig[i][0], error))
            return FALSE;
    }
    if (!sim_signal_option(m, "ldlat_signal", s->ldlat_sig, &s->ldlat_sig, error))
        return FALSE;
    /* PmsEvent.match: EXACT events select one signal by the whole umask. */
    sim_exact_codes(m, s->exact_code);
    resolve_offcore(s);
    if (!resolve_fields(s, error))
        return FALSE;
    bind_storage(s);
    for (guint i = 0; i < s->n_gp; i++) {
        s->st_bit[i] = sim_fbit(s->st_pmc[i]);
        guint64 b = sim_fbit(s->gc_pmc[i]) | sim_fbit(s->st_pmc[i]);
        if (i < s->n_sw_gp)
            s->gp_sw_bits |= b;
        else
            s->gp_hidden_bits |= b;
    }
    if (!sim_td_init(&s->td, m, s->n_fixed, error) || !sim_tsx_init(&s->tsx, m, error) ||
        !sim_fe_init(&s->fe, sim, error))
        return FALSE;
    s->pebs = sim_pebs_new(m);
    return sim_lbr_init(&s->lbr, sim, error);
}

static void x86_finalize(PmsSim *sim)
{
    X86Core *s = sim->dev;
    g_clear_pointer(&s->pebs, sim_pebs_free);
    sim_input_clear(&x86_inputs, &s->in);
    g_clear_pointer(&sim->dev, g_free);
}

static gpointer x86_input(PmsSim *sim)
{
    X86Core *s = sim->dev;
    return &s->in;
}

extern const SimDeviceOps sim_x86_core_ops; /* below; a PmsSim over another device has no PEBS */

SimPebs *sim_x86_pebs(const PmsSim *sim)
{
    return sim->ops == &sim_x86_core_ops ? ((const X86Core *)sim->dev)->pebs : NULL;
}

static void x86_reset(PmsSim *sim)
{
    X86Core *s = sim->dev;
    /* Counters: SDM Table 9-1 gives 0H after RESET (18-17 calls them undefined). */
    for (guint i = 0; i < s->n_gp; i++)
        *s->pmc[i] = 0;
    for (guint i = 0; i < s->n_fixed; i++)
        *s->fixed_ctr[i] = 0;
    *s->global_status = 0;
    /* A25: newer SDM (GP enables set, fixed clear); option "zero" = 2016 SDM. */
    guint64 gc = 0;
    if (s->global_ctrl_reset_gp)
        for (guint i = 0; i < s->n_sw_gp; i++)
            gc |= sim_fbit(s->gc_pmc[i]);
    *s->global_ctrl = gc;
    memset(s->latch, 0, sizeof s->latch);
    s->cfg_valid = FALSE;
    if (s->pebs)
        sim_pebs_reset(s->pebs);
    sim_lbr_reset(&s->lbr);
    sim_td_reset(&s->td);
    sim_tsx_reset(&s->tsx);
}

/* ---- top-down (topdown.h) ------------------------------------------------ */

enum { TD_FC = 3 }; /* TOPDOWN.SLOTS is fixed counter 3 (perfmon v5) */

/* Bring PERF_METRICS' internal counts up to date with what FIXED_CTR3
 * counted since the run began or it was last written. */
static void td_settle(X86Core *s)
{
    if (s->td.present)
        sim_td_settle(&s->td, *s->fixed_ctr[TD_FC] & s->fixed_mask, s->fixed_mask, s->global_status);
}

/* ---- WRMSR / RDMSR ------------------------------------------------------- */

static gboolean pebs_on(const PmsSim *sim, const X86Core *s, guint i);

static gboolean x86_write(PmsSim *sim, const PmsRegister *r, guint64 value, GError **error)
{
    X86Core *s = sim->dev;
    if (r->kind == PMS_REG_GLOBAL_STATUS || r->kind == PMS_REG_GLOBAL_INUSE) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP,
                    "#GP: write 0x%" G_GINT64_MODIFIER "x to %s (0x%x): register is read-only", value, r->name,
                    r->address);
        return FALSE;
    }
    /* smt = on: PMC4-7 do not exist for software; their global bits are
     * reserved (docs/semantics.md §8d) */
    gboolean gp_reg = r->kind == PMS_REG_EVTSEL || r->kind == PMS_REG_PMC || r->kind == PMS_REG_A_PMC;
    if (gp_reg && r->index >= s->n_sw_gp) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP,
                    "#GP: write 0x%" G_GINT64_MODIFIER "x to %s (0x%x): general counter %u does not exist with option "
                    "smt = on (%u per thread)",
                    value, r->name, r->address, r->index, s->n_sw_gp);
        return FALSE;
    }
    gboolean global = r->kind == PMS_REG_GLOBAL_CTRL || r->kind == PMS_REG_GLOBAL_OVF_CTRL ||
        r->kind == PMS_REG_GLOBAL_STATUS_RESET || r->kind == PMS_REG_GLOBAL_STATUS_SET;
    if (global && (value & s->gp_hidden_bits))
        return sim_gp_error(error, r, value, value & s->gp_hidden_bits,
                            "reserved bits set (counters absent with option smt = on):");
    /* A10: any reserved bit set -> #GP, register unchanged.  Legacy PMC
     * writes take EAX only (SDM 18-3; KVM likewise ignores EDX). */
    if (r->kind != PMS_REG_PMC && (value & ~r->writable))
        return sim_gp_error(error, r, value, value & ~r->writable, "reserved bits set:");
    guint64 *v = sim_storage(s->sim, r);
    s->cfg_valid = FALSE;
    td_settle(s);
    switch (r->kind) {
    case PMS_REG_PMC:
        /* SDM 18-3: legacy writes take EAX and sign-extend bit 31 to the width. */
        *s->pmc[r->index] = (guint64)(gint64)(gint32)(guint32)value & s->gp_mask;
        return TRUE;
    case PMS_REG_A_PMC:
        /* SDM 18-15: full-width alias; bits above the width are reserved. */
        if (value & ~s->gp_mask)
            return sim_gp_error(error, r, value, value & ~s->gp_mask, "bits above the counter width:");
        *s->pmc[r->index] = value;
        return TRUE;
    case PMS_REG_FIXED_CTR:
        /* SDM 18-6: full width, bits beyond the width must be zero (A10). */
        if (value & ~s->fixed_mask)
            return sim_gp_error(error, r, value, value & ~s->fixed_mask, "bits above the counter width:");
        *v = value;
        if (r->index == TD_FC)
            sim_td_fc3_written(&s->td, value);
        return TRUE;
    case PMS_REG_PERF_METRICS:
        /* semantics.md §8c T5: the fractions weigh as FIXED_CTR3 now */
        *v = value;
        if (s->td.present)
            sim_td_write(&s->td, value, *s->fixed_ctr[TD_FC] & s->fixed_mask);
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
        /* SDM-35 p.1305; A20: sets the bits only, no PMI or freeze.  A PEBS
         * counter's bit set this way arms it as its wrap would: SDM 18-30
         * p.666, a record "may also be generated after an overflow is set by
         * an MSR write to IA32_PERF_GLOBAL_STATUS_SET" (docs/semantics.md §8a). */
        *s->global_status |= value;
        for (guint i = 0; i < s->n_gp && i < PMS_PEBS_MAX_COUNTERS; i++)
            if ((value & sim_fbit(s->st_pmc[i])) && pebs_on(sim, s, i))
                s->pebs->armed[i] = TRUE;
        return TRUE;
    default:
        *v = value;
        return TRUE;
    }
}

static guint64 inuse(X86Core *s)
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
    if (pe && *sim_storage(s->sim, pe))
        pmi = TRUE;
    return v | (pmi ? (guint64)1 << 63 : 0);
}

static guint64 x86_read(PmsSim *sim, const PmsRegister *r)
{
    X86Core *s = sim->dev;
    switch (r->kind) {
    case PMS_REG_PMC:
    case PMS_REG_A_PMC:
        return *s->pmc[r->index] & s->gp_mask;
    case PMS_REG_FIXED_CTR:
        return *sim_storage(s->sim, r) & s->fixed_mask;
    case PMS_REG_GLOBAL_OVF_CTRL:
    case PMS_REG_GLOBAL_STATUS_RESET:
    case PMS_REG_GLOBAL_STATUS_SET:
        return 0;
    case PMS_REG_GLOBAL_INUSE:
        return inuse(s);
    case PMS_REG_GLOBAL_STATUS:
        td_settle(s); /* a carry of the metrics' total sets PERF_METRICS_OVF */
        return *s->global_status;
    case PMS_REG_PERF_METRICS:
        td_settle(s);
        return s->td.present ? sim_td_read(&s->td, *s->global_ctrl) : *sim_storage(s->sim, r);
    default:
        return *sim_storage(s->sim, r);
    }
}

static gboolean x86_set_counter(PmsSim *sim, const PmsRegister *r, guint64 value, GError **error)
{
    X86Core *s = sim->dev;
    if (r->kind != PMS_REG_PMC && r->kind != PMS_REG_A_PMC && r->kind != PMS_REG_FIXED_CTR)
        return FALSE;
    guint64 mask = r->kind == PMS_REG_FIXED_CTR ? s->fixed_mask : s->gp_mask;
    if (r->kind != PMS_REG_FIXED_CTR && r->index >= s->n_sw_gp) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP, "%s: general counter not available with option smt = on",
                    r->name);
        return FALSE;
    }
    if (value & ~mask) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP,
                    "value 0x%" G_GINT64_MODIFIER "x does not fit the %u-bit counter %s", value,
                    (guint)g_bit_nth_msf(mask, -1) + 1, r->name);
        return FALSE;
    }
    if (r->kind == PMS_REG_FIXED_CTR) {
        td_settle(s);
        *sim_storage(s->sim, r) = value;
        if (r->index == TD_FC)
            sim_td_fc3_written(&s->td, value);
    } else
        *s->pmc[r->index] = value;
    return TRUE;
}

/* ---- counting ------------------------------------------------------------- */

/* SDM 17.4.7 / 18.2.4.1, A8: applied in the overflow cycle.  v2/v3 (legacy):
 * clear GLOBAL_CTRL and DEBUGCTL.LBR; v4: set CTR_Frz / LBR_Frz (A18). */
static gboolean x86_pmi(PmsSim *sim, guint64 cycle)
{
    X86Core *s = sim->dev;
    guint64 dbg = *s->debugctl;
    if (s->version >= 4) {
        if (sim_fget(s->dbg_frz_perf, dbg))
            *s->global_status |= sim_fbit(s->st_ctr_frz);
        if (sim_fget(s->dbg_frz_lbr, dbg))
            *s->global_status |= sim_fbit(s->st_lbr_frz);
        return TRUE;
    }
    if (sim_fget(s->dbg_frz_perf, dbg))
        *s->global_ctrl = 0;
    if (sim_fget(s->dbg_frz_lbr, dbg))
        *s->debugctl = sim_fset(s->dbg_lbr, dbg, 0);
    return TRUE;
}

static gboolean is_clock(const X86Core *s, guint32 key)
{
    return key == s->clock_sig[0] || key == s->clock_sig[1];
}

static void gp_cfg(const X86Core *s, guint i, PmsPipeCfg *c)
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
    c->combine_or = s->any_or_all ||
        (s->any_or_clocks && is_clock(s, PMS_SIGNAL_KEY(sim_fget(s->ev.event, v), sim_fget(s->ev.umask, v))));
    c->cpl_gate_pre = s->cpl_gate_pre;
    c->thread = 0;
    c->n_threads = s->n_threads;
}

static void fixed_cfg(const X86Core *s, guint i, PmsPipeCfg *c)
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

static gboolean selects(const X86Core *s, guint64 E, guint64 U, guint32 sig)
{
    return sim_signal_selects(s->exact_code, E, U, sig);
}

static gboolean oc_match(const X86Core *s, guint64 rsp, const PmsSimOffcore *t)
{
    if (s->offcore_snb) {
        /* semantics.md §5 (SDM 18.9.5): a request bit, and ANY or both a
         * supplier bit and a snoop bit. */
        if (t->inflight || !(rsp & s->oc_req_bits & t->req))
            return FALSE;
        if (rsp & s->oc_snb_any)
            return TRUE;
        return (rsp & s->oc_sup_bits & t->resp) && (rsp & s->oc_snp_bits & t->resp);
    }
    if (!s->offcore_glm) {
        /* semantics.md §4.2: a request bit and a response bit must both match. */
        return !t->inflight && (rsp & s->oc_req_bits & t->req) && (rsp & s->oc_resp_bits & t->resp);
    }
    /* semantics.md §4.3: ANY_REQUEST matches every request; OUTSTANDING counts
     * in-flight occupancy; ANY_RESPONSE every response; else supplier/snoop
     * bits OR-ed (A19). */
    gboolean req_ok = (rsp & s->oc_req_bits & t->req) || (rsp & s->oc_any_req);
    if (!req_ok)
        return FALSE;
    if (rsp & s->oc_outstanding)
        return t->inflight;
    if (t->inflight)
        return FALSE;
    if (rsp & s->oc_any_resp)
        return TRUE;
    return (rsp & t->resp & s->oc_resp_bits & ~s->oc_any_resp) != 0;
}


/* The run's occurrences of each counter, per thread: general counters first
 * (unit k = PMCk), then the fixed counters. */
static guint x86_units(PmsSim *sim, const PmsSimRun *run, SimOcc *occ, SimUnit *u)
{
    X86Core *s = sim->dev;
    if (!s->cfg_valid) {
        for (guint i = 0; i < s->n_gp; i++) {
            gp_cfg(s, i, &s->gp_cfg[i]);
            guint64 v = *s->evtsel[i];
            guint64 E = sim_fget(s->ev.event, v), U = sim_fget(s->ev.umask, v);
            s->gp_sel[i].E = E;
            s->gp_sel[i].U = U;
            for (guint r = 0; r < PMS_SIM_MAX_OFFCORE; r++)
                s->gp_sel[i].oc[r] = s->oc_sig[r] && selects(s, E, U, s->oc_sig[r]);
            s->gp_sel[i].td_slots = s->td.present && selects(s, E, U, PMS_SIGNAL_KEY(0xa4, 0x01));
            s->gp_sel[i].td_be = s->td.present && selects(s, E, U, PMS_SIGNAL_KEY(0xa4, 0x02));
            s->gp_sel[i].ldlat = selects(s, E, U, s->ldlat_sig);
            s->gp_sel[i].fe = sim_fe_selects(&s->fe, s->exact_code, E, U);
        }
        for (guint i = 0; i < s->n_fixed; i++)
            fixed_cfg(s, i, &s->fixed_cfg[i]);
        s->cfg_valid = TRUE;
    }
    /* the run's transaction operations at its start (x86_tsx.c) */
    sim_tsx_apply(&s->tsx, s->in.tx.v, s->in.tx.n, s->evtsel, s->pmc, s->n_gp, s->global_status, s->st_bit);
    /* the run's branches, in its first cycle before it counts: DEBUGCTL.LBR
     * and, on v4, not LBR_Frz (semantics.md §2.8) */
    sim_lbr_capture(&s->lbr, sim,
                    sim_fget(s->dbg_lbr, *s->debugctl) &&
                        !(s->version >= 4 && sim_fget(s->st_lbr_frz, *s->global_status)),
                    s->in.branch.v, s->in.branch.n, run->cpl[0], sim_tsx_inside(&s->tsx));
    memset(occ, 0, sizeof(SimOcc) * (s->n_gp + s->n_fixed));
    /* the previous run's slots reach PERF_METRICS before this one starts */
    td_settle(s);
    guint64 slots = 0;
    for (guint k = 0; s->in.slots.has && k < SIM_TD_N; k++)
        slots += s->in.slots.n[k];
    guint64 thr = sim_fget(s->ldlat_thr, *s->ld_lat);
    for (guint i = 0; i < s->n_gp; i++) {
        guint64 *gp = occ[i];
        guint64 E = s->gp_sel[i].E, U = s->gp_sel[i].U;
        for (guint k = 0; k < run->n_counts; k++)
            if (run->counts[k].signal >> 8 == E && selects(s, E, U, run->counts[k].signal))
                gp[run->counts[k].thread] += run->counts[k].count;
        for (guint r = 0; r < PMS_SIM_MAX_OFFCORE; r++) {
            if (!s->gp_sel[i].oc[r])
                continue;
            for (guint k = 0; k < run->n_offcore; k++)
                if (oc_match(s, *s->offcore[r], &run->offcore[k]))
                    gp[run->offcore[k].thread] += run->offcore[k].count;
        }
        /* TOPDOWN.SLOTS_P and TOPDOWN.BACKEND_BOUND_SLOTS on a general
         * counter (perfmon v5 parts: with PERF_METRICS) */
        if (s->gp_sel[i].td_slots)
            gp[0] += slots;
        if (s->in.slots.has && s->gp_sel[i].td_be)
            gp[0] += s->in.slots.n[SIM_TD_BE_BOUND];
        if (s->gp_sel[i].ldlat)
            for (guint k = 0; k < run->n_loads; k++)
                if (run->loads[k].latency > thr) /* SDM 18-39: strictly greater */
                    gp[run->loads[k].thread] += run->loads[k].count;
        /* FRONTEND_RETIRED: thread 0's retiring instructions by MSR_PEBS_FRONTEND */
        if (s->gp_sel[i].fe)
            gp[0] += sim_fe_count(&s->fe, s->in.fe.v, s->in.fe.n);
        u[i] = (SimUnit){ s->pmc[i], s->gp_mask, s->gp_cfg[i], gp, &s->latch[i], FALSE, i, i, 0 };
    }
    for (guint i = 0; i < s->n_fixed; i++) {
        guint k = s->n_gp + i;
        guint64 *fx = occ[k];
        for (guint c = 0; c < run->n_counts; c++)
            for (guint j = 0; j < G_N_ELEMENTS(s->fixed_sig[i]) && s->fixed_sig[i][j]; j++)
                if (run->counts[c].signal == s->fixed_sig[i][j])
                    fx[run->counts[c].thread] += run->counts[c].count;
        /* FIXED_CTR3 counts thread 0's slots (the sibling's are not modelled) */
        if (i == TD_FC)
            fx[0] += slots;
        /* fixed counters have no edge detector */
        u[k] = (SimUnit){ s->fixed_ctr[i], s->fixed_mask, s->fixed_cfg[i], fx, NULL, TRUE, i, k, 0 };
        if (i == TD_FC && s->td.present)
            sim_td_run(&s->td, pms_sim_pipe(&s->fixed_cfg[i], fx, run->cpl, FALSE).inc, &s->in.slots, *s->global_ctrl);
    }
    return s->n_gp + s->n_fixed;
}

static gboolean frozen_v4(const X86Core *s)
{
    return s->version >= 4 && sim_fget(s->st_ctr_frz, *s->global_status);
}

/* SDM 18-7: local enable AND global enable; v4 also AND NOT CTR_Frz (18-11). */
static gboolean x86_enabled(const PmsSim *sim, const SimUnit *u)
{
    const X86Core *s = sim->dev;
    guint i = u->index;
    if (u->fixed)
        return sim_fget(s->fx[i].en, *s->fixed_ctrl) &&
            (!s->has_global_ctrl || sim_fget(s->gc_fixed[i], *s->global_ctrl)) && !frozen_v4(s);
    return sim_fget(s->ev.en, *s->evtsel[i]) && (!s->has_global_ctrl || sim_fget(s->gc_pmc[i], *s->global_ctrl)) &&
        !frozen_v4(s) && sim_tsx_counts(&s->tsx, *s->evtsel[i]);
}

/* For traces: each reason x86_enabled is FALSE. */
static guint x86_off_reasons(const PmsSim *sim, const SimUnit *u)
{
    const X86Core *s = sim->dev;
    guint i = u->index;
    gboolean local = u->fixed ? sim_fget(s->fx[i].en, *s->fixed_ctrl) != 0 : sim_fget(s->ev.en, *s->evtsel[i]) != 0;
    gboolean global = !s->has_global_ctrl || sim_fget(u->fixed ? s->gc_fixed[i] : s->gc_pmc[i], *s->global_ctrl) != 0;
    return (local ? 0 : PMS_SIM_OFF_COUNTER) | (global ? 0 : PMS_SIM_OFF_GLOBAL) |
        (frozen_v4(s) ? PMS_SIM_OFF_FROZEN : 0);
}

/* PEBS modelled and PMCi's PEBS_EN bit set. */
static gboolean pebs_on(const PmsSim *sim, const X86Core *s, guint i)
{
    return s->pebs && s->pebs->size && i < s->n_gp && sim_fget(s->pebs_en[i], *s->pebs_enable);
}

static gboolean x86_pmi_enabled(const PmsSim *sim, const SimUnit *u)
{
    const X86Core *s = sim->dev;
    /* SDM 18-39 p.675: a PEBS counter's INT PMI follows its assist (x86_after_count) */
    if (!u->fixed && pebs_on(sim, s, u->index))
        return FALSE;
    if (u->fixed)
        return sim_fget(s->fx[u->index].pmi, *s->fixed_ctrl) != 0;
    return sim_fget(s->ev.intr, *s->evtsel[u->index]) != 0;
}

/* SDM 18-4 / §3.5: the status bit is set on every overflow, INT or not. */
static void x86_overflow(PmsSim *sim, const SimUnit *u)
{
    X86Core *s = sim->dev;
    *s->global_status |= sim_fbit(u->fixed ? s->st_fixed[u->index] : s->st_pmc[u->index]);
}

static guint64 x86_status(const PmsSim *sim, const SimUnit *u)
{
    const X86Core *s = sim->dev;
    return *s->global_status;
}

static gboolean x86_per_cycle(const PmsSim *sim)
{
    const X86Core *s = sim->dev;
    if (!s->pebs || !s->pebs->size)
        return FALSE; /* no PEBS counter without a DS area (pebs_on): the common case, asked every run */
    for (guint i = 0; i < s->n_gp; i++)
        if (pebs_on(sim, s, i))
            return TRUE;
    return FALSE;
}

/* PEBS (semantics.md §5.2; choices in docs/semantics.md §8a), the record in
 * the model's format (sim/pebs.c):
 * the wrap only arms; the assist runs on the counter's next counted cycle
 * (inc > 0 in a later cycle), writes the record with GLOBAL_STATUS as it
 * stands, clears the counter's overflow bit and reloads the counter from the
 * DS reset value (that cycle's increment is absorbed).  At the buffer's
 * threshold OvfBuf is set and a PMI raised; the counter's INT PMI is raised
 * in the same cycle (one PMI per cycle, as for simultaneous overflows). */
/* What PMCi's assist samples in this run: the run's inputs, GLOBAL_STATUS as
 * it stands. */
static SimPebsSample pebs_sample(const X86Core *s, guint i, const PmsSimRun *run)
{
    SimPebsSample smp = { 0 };
    smp.ip = s->in.ip.has[0] ? s->in.ip.a[0] : 0;
    smp.status = *s->global_status;
    smp.applicable = sim_fbit(s->st_pmc[i]);
    smp.dla = s->in.daddr.has[0] ? s->in.daddr.a[0] : 0;
    guint64 v = *s->evtsel[i];
    if (sim_fget(s->ll_en[i], *s->pebs_enable) &&
        selects(s, sim_fget(s->ev.event, v), sim_fget(s->ev.umask, v), s->ldlat_sig)) {
        /* the sampled load: thread 0's first one above the threshold this cycle */
        guint64 thr = sim_fget(s->ldlat_thr, *s->ld_lat);
        for (guint k = 0; k < run->n_loads; k++)
            if (run->loads[k].thread == 0 && run->loads[k].count && run->loads[k].latency > thr) {
                smp.ll = TRUE;
                smp.dse = s->in.dse.has ? s->in.dse.v : 0;
                smp.lat = run->loads[k].latency;
                break;
            }
    }
    return smp;
}

static guint x86_after_count(PmsSim *sim, const SimUnit *u, guint64 inc, gboolean carry, const PmsSimRun *run)
{
    X86Core *s = sim->dev;
    guint i = u->index;
    if (u->fixed || i >= PMS_PEBS_MAX_COUNTERS || !pebs_on(sim, s, i))
        return 0;
    SimPebs *p = s->pebs;
    if (!p->armed[i] || inc == 0) {
        if (carry)
            p->armed[i] = TRUE;
        return 0;
    }
    SimPebsSample smp = pebs_sample(s, i, run);
    gboolean at_threshold = sim_pebs_assist(p, sim->cycle, i, &smp);
    *s->global_status &= ~sim_fbit(s->st_pmc[i]);
    *s->pmc[i] = p->ds.reset[i] & s->gp_mask;
    p->armed[i] = FALSE;
    if (at_threshold)
        *s->global_status |= sim_fbit(s->st_ovf_buf);
    gboolean intr = sim_fget(s->ev.intr, *s->evtsel[i]) != 0;
    return SIM_AFTER_ASSIST | (at_threshold || intr ? SIM_AFTER_PMI : 0);
}

static guint x86_pebs_state(const PmsSim *sim, const SimUnit *u)
{
    const X86Core *s = sim->dev;
    if (u->fixed || u->index >= PMS_PEBS_MAX_COUNTERS || !pebs_on(sim, s, u->index))
        return SIM_PEBS_OFF;
    return s->pebs->armed[u->index] ? SIM_PEBS_ARMED : SIM_PEBS_WAITING;
}

/* PEBS in closed form (sim_engine.c): of unit u's next `want` assists, how
 * many in a row behave alike — each writes a record and none reaches the
 * threshold, each writes and is past it, or none writes — and whether they
 * raise a PMI (INT, or the threshold). */
static guint64 x86_pebs_uniform(const PmsSim *sim, const SimUnit *u, guint64 want, gboolean *pmi)
{
    const X86Core *s = sim->dev;
    gboolean thr;
    guint64 n = sim_pebs_uniform(s->pebs, want, &thr);
    *pmi = thr || sim_fget(s->ev.intr, *s->evtsel[u->index]) != 0;
    return n;
}

/* n assists of unit u like the one just made, the first at `first`, one
 * every `period` cycles, nothing else happening between them: each wrap set
 * the counter's status bit and the assist sampled it (sim_pebs_assist_many);
 * after the last the counter holds its reset value again, the bit clear. */
static void x86_pebs_repeat(PmsSim *sim, const SimUnit *u, guint64 first, guint64 period, guint64 n,
                            const PmsSimRun *run)
{
    X86Core *s = sim->dev;
    guint i = u->index;
    SimPebsSample smp = pebs_sample(s, i, run);
    smp.status |= sim_fbit(s->st_pmc[i]); /* set by the wrap before each assist */
    if (sim_pebs_assist_many(s->pebs, first, period, n, i, &smp))
        *s->global_status |= sim_fbit(s->st_ovf_buf);
    *s->pmc[i] = s->pebs->ds.reset[i] & s->gp_mask;
    s->pebs->armed[i] = FALSE;
}

static gboolean x86_edge_latch(const PmsSim *sim, guint i)
{
    const X86Core *s = sim->dev;
    return i < s->n_gp && s->latch[i];
}

static void x86_trace(const PmsSim *sim, guint64 cycle, PmsSimTrace *t)
{
    const X86Core *s = sim->dev;
    sim_lbr_trace(&s->lbr, cycle, t);
}

const SimDeviceOps sim_x86_core_ops = {
    .name = "x86_core",
    .init = x86_init,
    .finalize = x86_finalize,
    .reset = x86_reset,
    .write = x86_write,
    .read = x86_read,
    .set_counter = x86_set_counter,
    .units = x86_units,
    .enabled = x86_enabled,
    .off_reasons = x86_off_reasons,
    .pmi_enabled = x86_pmi_enabled,
    .overflow = x86_overflow,
    .pmi = x86_pmi,
    .status = x86_status,
    .edge_latch = x86_edge_latch,
    .per_cycle = x86_per_cycle,
    .after_count = x86_after_count,
    .pebs_state = x86_pebs_state,
    .pebs_uniform = x86_pebs_uniform,
    .pebs_repeat = x86_pebs_repeat,
    .inputs = &x86_inputs,
    .input = x86_input,
    .records = sim_stim_pebs_records,
    .trace = x86_trace,
};
