/* pmusim — FRONTEND_RETIRED (event 0xC6, umask 0x01) and the register that
 * chooses what it counts, MSR_PEBS_FRONTEND (0x3F7): SDM-2016 18.13.1.4
 * p.18-78, Table 18-58 (sub-events) and Table 18-59 (layout: EVTSEL 7:0,
 * IDQ_Bubble_Length 19:8, IDQ_Bubble_Width 22:20); docs/semantics.md §8d.
 *
 * The stimulus says, per run, which of thread 0's retiring instructions had
 * which front-end event (`fe=` tokens: docs/stimulus-format.md); the counter
 * counts a retiring instruction when it had the event the MSR selects:
 *   0x01 ANY_DSB_MISS, 0x11 DSB_MISS (a critical one), 0x12 L1I_MISS,
 *   0x13 L2_MISS, 0x14 ITLB_MISS, 0x15 STLB_MISS: the instruction's event
 *   set holds it (no event implies another: an instruction with an L2 miss
 *   that should count for L1I_MISS too says both);
 *   0x06 (IDQ bubbles, the LATENCY_GE_* events): the instruction was
 *   delivered after at least IDQ_Bubble_Length cycles in which at least
 *   IDQ_Bubble_Width of the 4 slots were empty;
 *   any other EVTSEL: nothing (Linux's valid mask keeps only bits 0,1,2,4 of
 *   that byte: the others "#GP", a writable-mask matter for the model).
 * SDM 18.13.1.5's counting rules (once per instruction, a fused pair once,
 * an event before an instruction boundary charged to the next retiring
 * instruction) are the stimulus's to respect: each `fe=` instruction is one
 * retired instruction as counted. */
#include "x86_frontend.h"
#include "sim_input.h"
#include "topdown.h"

#include <string.h>

static const struct {
    const char *name;
    guint code; /* EVTSEL value */
} fe_events[] = {
    { "any_dsb_miss", 0x01 }, { "dsb_miss", 0x11 },  { "l1i_miss", 0x12 },
    { "l2_miss", 0x13 },      { "itlb_miss", 0x14 }, { "stlb_miss", 0x15 },
};

enum { FE_BUBBLE_CODE = 0x06, FE_SLOTS = 4 };

/* The issue slots per cycle the IDQ-bubble width counts in: Skylake's 4
 * (Table 18-59); on a perfmon v5 part (a model with IA32_PERF_METRICS) the
 * top-down slot width (semantics.md §8c T1, 5 on icl), which Intel's icl
 * LATENCY_GE_* values (width 5 = "the front-end delivered no uops")
 * assume. */
static guint fe_slots(const PmsModel *m)
{
    return pms_model_reg_by_kind(m, PMS_REG_PERF_METRICS, 0) ? sim_td_slots_width(m) : FE_SLOTS;
}

gboolean sim_fe_init(SimFe *f, PmsSim *sim, GError **error)
{
    const PmsModel *m = sim->model;
    memset(f, 0, sizeof *f);
    f->sig = PMS_SIGNAL_KEY(0xc6, 0x01);
    const PmsRegister *r = pms_model_reg_by_kind(m, PMS_REG_PEBS_FRONTEND, 0);
    if (!r)
        return TRUE;
    static const char *const n_sel[] = { "evtsel", NULL }, *const n_len[] = { "idq_bubble_length", NULL };
    static const char *const n_wid[] = { "idq_bubble_width", NULL };
    f->evtsel = sim_resolve(r, n_sel, 0, 0);
    f->length = sim_resolve(r, n_len, 0, 0);
    f->width = sim_resolve(r, n_wid, 0, 0);
    if (!sim_require(r, f->evtsel, "evtsel", error) || !sim_require(r, f->length, "idq_bubble_length", error) ||
        !sim_require(r, f->width, "idq_bubble_width", error))
        return FALSE;
    f->msr = sim_storage(sim, r);
    /* the event that names the MSR as its extra register; umask 0x01 is the
     * SDM's (the sub-event lives in the MSR) */
    for (guint e = 0; e < m->n_events; e++) {
        const PmsEvent *ev = &m->events[e];
        const PmsRegister *x = ev->extra_reg ? pms_model_reg_by_name(m, ev->extra_reg) : NULL;
        if (x == r) {
            f->sig = PMS_SIGNAL_KEY(ev->code & 0xff, 0x01);
            break;
        }
    }
    return TRUE;
}

gboolean sim_fe_selects(const SimFe *f, const gboolean *exact_code, guint64 E, guint64 U)
{
    return f->msr && sim_signal_selects(exact_code, E, U, f->sig);
}

guint64 sim_fe_count(const SimFe *f, const SimFeInsn *v, guint n)
{
    if (!f->msr)
        return 0;
    guint64 sel = sim_fget(f->evtsel, *f->msr);
    guint64 len = sim_fget(f->length, *f->msr), wid = sim_fget(f->width, *f->msr);
    guint32 bit = 0;
    for (guint i = 0; i < G_N_ELEMENTS(fe_events); i++)
        if (fe_events[i].code == sel)
            bit = 1u << i;
    guint64 c = 0;
    for (guint k = 0; k < n; k++) {
        gboolean hit = sel == FE_BUBBLE_CODE ? v[k].bubble_len > 0 && v[k].bubble_len >= len && v[k].bubble_width >= wid
                                             : (v[k].events & bit) != 0;
        if (hit)
            c += v[k].n;
    }
    return c;
}

static gboolean number(const char *t, const char *prefix, guint64 *v)
{
    gsize k = strlen(prefix);
    return !g_ascii_strncasecmp(t, prefix, k) && t[k] && sim_parse_u64(t + k, v);
}

/* fe=ITEM[:ITEM...]: event names, lenN (a bubble of N cycles), widthW (at
 * least W empty slots in each, 1..the slots per cycle; default all of them:
 * nothing delivered), xN (N such instructions per cycle, default 1) */
gboolean sim_fe_key(const PmsModel *m, const char *value, gpointer field, GError **error)
{
    guint slots = fe_slots(m);
    SimFeInsn in = { 0, 0, 0, 1 };
    gboolean has_w = FALSE;
    g_auto(GStrv) it = g_strsplit(value, ":", -1);
    for (guint i = 0; it[i]; i++) {
        guint64 v;
        guint e = 0;
        while (e < G_N_ELEMENTS(fe_events) && g_ascii_strcasecmp(it[i], fe_events[e].name))
            e++;
        if (e < G_N_ELEMENTS(fe_events))
            in.events |= 1u << e;
        else if (number(it[i], "len", &v) && v >= 1 && v <= G_MAXUINT32)
            in.bubble_len = (guint32)v;
        else if (number(it[i], "width", &v) && v >= 1 && v <= slots)
            in.bubble_width = (guint32)v, has_w = TRUE;
        else if (number(it[i], "x", &v) && v <= G_MAXUINT32)
            in.n = (guint32)v;
        else
            return sim_input_fail(error,
                                  "fe: '%s': expected any_dsb_miss, dsb_miss, l1i_miss, l2_miss, itlb_miss, "
                                  "stlb_miss, lenN (N >= 1), widthW (1..%u) or xN",
                                  it[i], slots);
    }
    if (has_w && !in.bubble_len)
        return sim_input_fail(error, "fe: '%s': width without len (a bubble needs its length)", value);
    if (in.bubble_len && !has_w)
        in.bubble_width = slots;
    sim_list_append(field, &in, sizeof in);
    return TRUE;
}
