/* pmusim models — register fields found by name (field_need.h), and the
 * fields each family's simulator device and program step read by name and
 * cannot do without, so that the lint (the family checks with complete TRUE)
 * reports every field for which pms_sim_new or the program step would refuse
 * the model.  The candidate names and the conditions below are the devices'
 * and program steps' own (sim/dev_<family>.c, sim/program/program_<family>.c);
 * sim/tests/test_fields.c removes each layout field of the test and built-in
 * models in turn and checks that the simulator refuses exactly what the lint
 * reports.  Optional fields (pc, any, the PEBS and LBR_SELECT bits, v4's
 * freeze bits before v4 ...) are not listed: absent stays absent. */
#include <string.h>
#include "model.h"
#include "model_priv.h"
#include "field_need.h"

/* name with its "%u" (at pct) replaced by idx, or (with_idx FALSE) cut
 * there, into n: the devices resolve hundreds of fields when a model is
 * first used, and printf would be most of that time. */
static void pattern_name(char *n, gsize size, const char *name, const char *pct, guint idx, gboolean with_idx)
{
    gsize len = MIN((gsize)(pct - name), size - 1), at = len;
    memcpy(n, name, len);
    if (with_idx) {
        char digits[12];
        guint nd = 0;
        do
            digits[nd++] = (char)('0' + idx % 10);
        while ((idx /= 10) && nd < sizeof digits);
        while (nd && at < size - 1)
            n[at++] = digits[--nd];
        for (const char *p = pct + 2; *p && at < size - 1; p++)
            n[at++] = *p;
    }
    n[at] = '\0';
}

gboolean pms_field_find(const PmsRegister *r, const char *const *names, guint idx, guint stride, guint *shift,
                        guint *width)
{
    if (r == NULL || r->layout == NULL)
        return FALSE;
    char n[64];
    for (guint i = 0; names[i]; i++) {
        const char *pct = strstr(names[i], "%u");
        if (pct)
            pattern_name(n, sizeof n, names[i], pct, idx, TRUE);
        else
            g_strlcpy(n, names[i], sizeof n);
        const PmsField *pf = pms_layout_field(r->layout, n);
        if (pf) {
            *shift = pf->shift;
            *width = pf->width;
            return TRUE;
        }
    }
    /* The plain name: with a stride, a per-counter layout describing counter
     * 0; without, a vector field whose bit idx belongs to counter idx
     * ("pmc = 3:0" in GLOBAL_CTRL). */
    for (guint i = 0; names[i]; i++) {
        const char *pct = strstr(names[i], "%u");
        if (!pct)
            continue;
        pattern_name(n, sizeof n, names[i], pct, 0, FALSE);
        const PmsField *pf = pms_layout_field(r->layout, n);
        if (!pf)
            continue;
        if (stride && pf->shift + stride * idx + pf->width <= 64) {
            *shift = pf->shift + stride * idx;
            *width = pf->width;
            return TRUE;
        }
        if (!stride && idx < pf->width) {
            *shift = pf->shift + idx;
            *width = 1;
            return TRUE;
        }
    }
    return FALSE;
}

char *pms_field_missing(const PmsRegister *r, const char *what)
{
    if (r == NULL)
        return NULL;
    if (r->layout == NULL)
        return g_strdup_printf("register %s has no layout: field '%s' is read by name from it", r->name, what);
    return g_strdup_printf("register %s: layout '%s' has no field '%s'", r->name,
                           r->layout->name ? r->layout->name : "?", what);
}

/* ---- the families' needs ----------------------------------------------------- */

/* One message per missing field, said once (the device and the program step
 * may read the same field). */
static void need(GPtrArray *msgs, const char *prefix, const PmsRegister *r, const char *const *names, guint idx,
                 guint stride, const char *what)
{
    guint shift, width;
    if (!r || pms_field_find(r, names, idx, stride, &shift, &width))
        return;
    const char *pct = strstr(what, "%u");
    g_autofree char *w = pct ? g_strdup_printf("%.*s%u%s", (int)(pct - what), what, idx, pct + 2) : g_strdup(what);
    g_autofree char *miss = pms_field_missing(r, w);
    g_autofree char *msg = g_strdup_printf("%s%s, which the simulator reads by name", prefix, miss);
    for (guint i = 0; i < msgs->len; i++)
        if (strcmp(msgs->pdata[i], msg) == 0)
            return;
    g_ptr_array_add(msgs, g_steal_pointer(&msg));
}

enum { ONCE, PER_GP, PER_FIXED, FIXED0 };
enum { ALWAYS, WITH_LBR, WITH_LBR_NO_INFO, WITH_METRICS };
enum { OWN, FIRST_CBOX, UNIT };

typedef struct {
    PmsRegKind kind;
    guint8 where; /* OWN: the PMU's own unit; FIRST_CBOX: the first C-Box; UNIT: unit, instance */
    const char *unit;
    guint instance;
    guint8 per;           /* ONCE (index 0), each general or fixed counter, FIXED0 when there are fixed counters */
    guint8 stride;        /* a per-counter layout's stride (FIXED_CTR_CTRL: 4) */
    guint8 min_version;   /* perfmon version from which it is needed (0: always) */
    guint8 only_with;     /* ALWAYS; WITH_LBR: only when the model has LBR entries; WITH_LBR_NO_INFO: LBR
                           * entries and no LBR_INFO; WITH_METRICS: IA32_PERF_METRICS */
    const char *what;     /* its name in messages, "%u" the counter */
    const char *names[5]; /* the candidates, as the device reads them */
} FieldNeed;

#define N(...)                                                                                                         \
    {                                                                                                                  \
        __VA_ARGS__, NULL                                                                                              \
    }

/* sim/dev_x86_core.c resolve_fields, sim/lbr.c sim_lbr_init,
 * sim/program/program_x86_core.c prog_build */
static const FieldNeed x86_core_needs[] = {
    { PMS_REG_EVTSEL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "event", N("event", "event_select", "evtsel") },
    { PMS_REG_EVTSEL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "umask", N("umask") },
    { PMS_REG_EVTSEL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "usr", N("usr") },
    { PMS_REG_EVTSEL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "os", N("os") },
    { PMS_REG_EVTSEL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "edge", N("edge") },
    { PMS_REG_EVTSEL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "int", N("int") },
    { PMS_REG_EVTSEL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "en", N("en") },
    { PMS_REG_EVTSEL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "inv", N("inv") },
    { PMS_REG_EVTSEL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "cmask", N("cmask") },
    { PMS_REG_FIXED_CTRL, OWN, NULL, 0, PER_FIXED, 4, 0, ALWAYS, "en%u", N("en%u") },
    { PMS_REG_FIXED_CTRL, OWN, NULL, 0, PER_FIXED, 4, 0, ALWAYS, "pmi%u", N("pmi%u") },
    { PMS_REG_GLOBAL_CTRL, OWN, NULL, 0, PER_GP, 0, 0, ALWAYS, "pmc%u", N("pmc%u", "en_pmc%u", "ctr%u") },
    { PMS_REG_GLOBAL_CTRL, OWN, NULL, 0, PER_FIXED, 0, 0, ALWAYS, "fixed%u",
      N("fixed%u", "fixed_ctr%u", "en_fixed%u", "fc%u") },
    { PMS_REG_GLOBAL_STATUS, OWN, NULL, 0, PER_GP, 0, 0, ALWAYS, "ovf_pmc%u", N("ovf_pmc%u", "pmc%u") },
    { PMS_REG_GLOBAL_STATUS, OWN, NULL, 0, PER_FIXED, 0, 0, ALWAYS, "ovf_fixed%u",
      N("ovf_fixed%u", "ovf_fixed_ctr%u", "fixed%u", "fixed_ctr%u") },
    { PMS_REG_GLOBAL_STATUS, OWN, NULL, 0, ONCE, 0, 4, ALWAYS, "ctr_frz", N("ctr_frz") },
    { PMS_REG_GLOBAL_STATUS, OWN, NULL, 0, ONCE, 0, 4, ALWAYS, "lbr_frz", N("lbr_frz") },
    { PMS_REG_DEBUGCTL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "lbr", N("lbr") },
    { PMS_REG_DEBUGCTL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "freeze_lbrs_on_pmi",
      N("freeze_lbrs_on_pmi", "freeze_lbr_on_pmi") },
    { PMS_REG_DEBUGCTL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "freeze_perfmon_on_pmi", N("freeze_perfmon_on_pmi") },
    { PMS_REG_PEBS_LD_LAT, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "threshold", N("threshold", "ldlat", "lat") },
    { PMS_REG_LBR_TOS, OWN, NULL, 0, ONCE, 0, 0, WITH_LBR, "tos", N("tos") },
    { PMS_REG_LBR_FROM, OWN, NULL, 0, ONCE, 0, 0, WITH_LBR, "address", N("address") },
    /* with LBR_INFO (skl, LBR format 5) the flags are INFO's, not FROM_IP's */
    { PMS_REG_LBR_FROM, OWN, NULL, 0, ONCE, 0, 0, WITH_LBR_NO_INFO, "mispred", N("mispred") },
    { PMS_REG_LBR_TO, OWN, NULL, 0, ONCE, 0, 0, WITH_LBR, "address", N("address") },
    { PMS_REG_LBR_INFO, OWN, NULL, 0, ONCE, 0, 0, WITH_LBR, "mispred", N("mispred") },
    { PMS_REG_LBR_INFO, OWN, NULL, 0, ONCE, 0, 0, WITH_LBR, "in_tx", N("in_tx") },
    { PMS_REG_LBR_INFO, OWN, NULL, 0, ONCE, 0, 0, WITH_LBR, "tsx_abort", N("tsx_abort") },
    { PMS_REG_LBR_INFO, OWN, NULL, 0, ONCE, 0, 0, WITH_LBR, "cycles", N("cycles") },
    /* sim/x86_frontend.c sim_fe_init */
    { PMS_REG_PEBS_FRONTEND, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "evtsel", N("evtsel") },
    { PMS_REG_PEBS_FRONTEND, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "idq_bubble_length", N("idq_bubble_length") },
    { PMS_REG_PEBS_FRONTEND, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "idq_bubble_width", N("idq_bubble_width") },
    /* sim/topdown.c sim_td_init: perfmon v5's top-down fractions */
    { PMS_REG_PERF_METRICS, OWN, NULL, 0, ONCE, 0, 0, WITH_METRICS, "retiring", N("retiring") },
    { PMS_REG_PERF_METRICS, OWN, NULL, 0, ONCE, 0, 0, WITH_METRICS, "bad_spec", N("bad_spec") },
    { PMS_REG_PERF_METRICS, OWN, NULL, 0, ONCE, 0, 0, WITH_METRICS, "fe_bound", N("fe_bound") },
    { PMS_REG_PERF_METRICS, OWN, NULL, 0, ONCE, 0, 0, WITH_METRICS, "be_bound", N("be_bound") },
    { PMS_REG_GLOBAL_CTRL, OWN, NULL, 0, ONCE, 0, 0, WITH_METRICS, "perf_metrics",
      N("perf_metrics", "en_perf_metrics") },
    { PMS_REG_GLOBAL_STATUS, OWN, NULL, 0, ONCE, 0, 0, WITH_METRICS, "perf_metrics",
      N("perf_metrics", "perf_metrics_ovf") },
};

/* sim/dev_x86_uncore.c resolve_fields, sim/program/program_x86_uncore.c */
static const FieldNeed x86_uncore_needs[] = {
    { PMS_REG_EVTSEL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "event", N("event") },
    { PMS_REG_EVTSEL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "umask", N("umask") },
    { PMS_REG_EVTSEL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "occ_ctr_rst", N("occ_ctr_rst") },
    { PMS_REG_EVTSEL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "edge", N("edge") },
    { PMS_REG_EVTSEL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "int", N("int") },
    { PMS_REG_EVTSEL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "en", N("en") },
    { PMS_REG_EVTSEL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "inv", N("inv") },
    { PMS_REG_EVTSEL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "cmask", N("cmask") },
    { PMS_REG_FIXED_CTRL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "en", N("en") },
    { PMS_REG_FIXED_CTRL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "pmi", N("pmi") },
    { PMS_REG_GLOBAL_CTRL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "pmi_core", N("pmi_core") },
    { PMS_REG_GLOBAL_CTRL, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "pmi_frz", N("pmi_frz") },
    { PMS_REG_GLOBAL_CTRL, OWN, NULL, 0, PER_GP, 0, 0, ALWAYS, "pmc%u", N("pmc%u") },
    { PMS_REG_GLOBAL_CTRL, OWN, NULL, 0, FIXED0, 0, 0, ALWAYS, "fixed%u", N("fixed%u") },
    { PMS_REG_GLOBAL_STATUS, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "ovf_pmi", N("ovf_pmi") },
    { PMS_REG_GLOBAL_STATUS, OWN, NULL, 0, ONCE, 0, 0, ALWAYS, "chg", N("chg") },
    { PMS_REG_GLOBAL_STATUS, OWN, NULL, 0, PER_GP, 0, 0, ALWAYS, "pmc%u", N("pmc%u") },
    { PMS_REG_GLOBAL_STATUS, OWN, NULL, 0, FIXED0, 0, 0, ALWAYS, "fixed%u", N("fixed%u") },
};

/* sim/dev_nhmex.c nx_init (the first C-Box stands for every box),
 * sim/program/program_nhmex.c (the PMU's own box, the U-Box) */
static const FieldNeed nhmex_needs[] = {
    { PMS_REG_EVTSEL, FIRST_CBOX, NULL, 0, ONCE, 0, 0, ALWAYS, "event", N("event") },
    { PMS_REG_EVTSEL, FIRST_CBOX, NULL, 0, ONCE, 0, 0, ALWAYS, "umask", N("umask") },
    { PMS_REG_EVTSEL, FIRST_CBOX, NULL, 0, ONCE, 0, 0, ALWAYS, "edge", N("edge") },
    { PMS_REG_EVTSEL, FIRST_CBOX, NULL, 0, ONCE, 0, 0, ALWAYS, "pmi_en", N("pmi_en") },
    { PMS_REG_EVTSEL, FIRST_CBOX, NULL, 0, ONCE, 0, 0, ALWAYS, "en", N("en") },
    { PMS_REG_EVTSEL, FIRST_CBOX, NULL, 0, ONCE, 0, 0, ALWAYS, "inv", N("inv") },
    { PMS_REG_EVTSEL, FIRST_CBOX, NULL, 0, ONCE, 0, 0, ALWAYS, "threshold", N("threshold") },
    { PMS_REG_BOX_CTRL, FIRST_CBOX, NULL, 0, PER_GP, 0, 0, ALWAYS, "ctr_en%u", N("ctr_en%u") },
    { PMS_REG_BOX_STATUS, FIRST_CBOX, NULL, 0, PER_GP, 0, 0, ALWAYS, "ov%u", N("ov%u") },
    { PMS_REG_BOX_CTRL, OWN, NULL, 0, PER_GP, 0, 0, ALWAYS, "ctr_en%u", N("ctr_en%u") },
    { PMS_REG_BOX_STATUS, OWN, NULL, 0, PER_GP, 0, 0, ALWAYS, "ov%u", N("ov%u") },
    { PMS_REG_GLOBAL_CTRL, UNIT, "ubox", 0, ONCE, 0, 0, ALWAYS, "pmi_core_sel", N("pmi_core_sel") },
    { PMS_REG_GLOBAL_CTRL, UNIT, "ubox", 0, ONCE, 0, 0, ALWAYS, "en_all", N("en_all") },
    { PMS_REG_GLOBAL_CTRL, UNIT, "ubox", 0, ONCE, 0, 0, ALWAYS, "rst_all", N("rst_all") },
    { PMS_REG_GLOBAL_CTRL, UNIT, "ubox", 0, ONCE, 0, 0, ALWAYS, "frz_all", N("frz_all") },
    { PMS_REG_GLOBAL_STATUS, UNIT, "ubox", 0, ONCE, 0, 0, ALWAYS, "ov_s0", N("ov_s0") },
    { PMS_REG_GLOBAL_STATUS, UNIT, "ubox", 0, ONCE, 0, 0, ALWAYS, "ov_s1", N("ov_s1") },
    { PMS_REG_BOX_STATUS, UNIT, "sbox", 0, ONCE, 0, 0, ALWAYS, "ov_c_l", N("ov_c_l") },
    { PMS_REG_BOX_STATUS, UNIT, "sbox", 0, ONCE, 0, 0, ALWAYS, "ov_c_r", N("ov_c_r") },
};

/* The first C-Box the Xeon 7500 device finds (the lowest with a box
 * control or status register). */
static gint first_cbox(const PmsModel *m)
{
    for (guint n = 0; n < 10; n++)
        if (pms_model_reg_in_unit(m, "cbox", n, PMS_REG_BOX_CTRL, 0) ||
            pms_model_reg_in_unit(m, "cbox", n, PMS_REG_BOX_STATUS, 0))
            return (gint)n;
    return -1;
}

static void check_needs(const PmsModel *m, const FieldNeed *needs, guint n_needs, GPtrArray *msgs)
{
    gboolean lbr = pms_model_reg_by_kind(m, PMS_REG_LBR_FROM, 0) != NULL;
    gboolean metrics = pms_model_reg_by_kind(m, PMS_REG_PERF_METRICS, 0) != NULL;
    gboolean lbr_info = pms_model_reg_by_kind(m, PMS_REG_LBR_INFO, 0) != NULL;
    gint cbox = first_cbox(m);
    /* the PMU's own unit: each instance of a file of several PMUs */
    for (guint k = 0; k < MAX(m->n_instances, 1); k++) {
        guint inst = m->n_instances ? m->instances[k] : m->instance;
        g_autofree char *own = m->n_instances ? g_strdup_printf("%s instance %u: ", m->unit, inst) : g_strdup("");
        for (guint i = 0; i < n_needs; i++) {
            const FieldNeed *d = &needs[i];
            if ((d->where != OWN && k > 0) || (d->only_with == WITH_LBR && !lbr) ||
                (d->only_with == WITH_LBR_NO_INFO && (!lbr || lbr_info)) ||
                (d->only_with == WITH_METRICS && !metrics) || (d->min_version && m->version < d->min_version))
                continue;
            guint n = d->per == PER_GP ? m->n_gp
                : d->per == PER_FIXED  ? m->n_fixed
                : d->per == FIXED0     ? MIN(m->n_fixed, 1)
                                       : 1;
            for (guint c = 0; c < n; c++) {
                const PmsRegister *r;
                const char *prefix = "";
                if (d->where == OWN) {
                    r = m->n_instances ? pms_model_reg_in_unit(m, m->unit, inst, d->kind, 0)
                                       : pms_model_reg_by_kind(m, d->kind, 0);
                    prefix = own;
                } else if (d->where == FIRST_CBOX) {
                    r = cbox < 0 ? NULL : pms_model_reg_in_unit(m, "cbox", (guint)cbox, d->kind, 0);
                } else {
                    r = pms_model_reg_in_unit(m, d->unit, d->instance, d->kind, 0);
                }
                need(msgs, prefix, r, d->names, c, d->stride, d->what);
            }
        }
    }
}

void pms_x86_core_fields_check(const PmsModel *m, GPtrArray *msgs)
{
    check_needs(m, x86_core_needs, G_N_ELEMENTS(x86_core_needs), msgs);
}

void pms_x86_uncore_fields_check(const PmsModel *m, GPtrArray *msgs)
{
    check_needs(m, x86_uncore_needs, G_N_ELEMENTS(x86_uncore_needs), msgs);
}

void pms_nhmex_fields_check(const PmsModel *m, GPtrArray *msgs)
{
    check_needs(m, nhmex_needs, G_N_ELEMENTS(nhmex_needs), msgs);
}

/* ---- ia64: sim/dev_ia64.c ia64_init, ears_init, etb_init ---- */

static const PmsRegister *pmc(const PmsModel *m, guint n)
{
    return pms_model_reg_at(m, PMS_SPACE_PMC, n);
}

/* one name, index 0 */
static void need1(GPtrArray *msgs, const PmsRegister *r, const char *name)
{
    const char *const names[] = { name, NULL };
    need(msgs, "", r, names, 0, 0, name);
}

/* a register with a layout needs the fields (an optional feature's register
 * without one has the feature absent) */
static void need_if_laid(GPtrArray *msgs, const PmsRegister *r, const char *const *fields)
{
    for (guint i = 0; r && r->layout && fields[i]; i++)
        need1(msgs, r, fields[i]);
}

static gboolean all_present(const PmsModel *m, PmsRegSpace space)
{
    for (guint k = 0; k < 8; k++)
        if (!pms_model_reg_at(m, space, k))
            return FALSE;
    return TRUE;
}

void pms_ia64_fields_check(const PmsModel *m, GPtrArray *msgs)
{
    need1(msgs, pmc(m, 0), "fr");
    need1(msgs, pmc(m, 0), "ovfl");
    const PmsRegister *c0 = pmc(m, m->counter_base);
    static const char *const n_plm[] = { "plm%u", "plm", NULL };
    for (guint k = 0; k < 4; k++)
        need(msgs, "", c0, n_plm, k, 0, "plm");
    static const char *const counting[] = { "oi", "es", "umask", "thres", "all", NULL };
    for (guint i = 0; counting[i]; i++)
        need1(msgs, c0, counting[i]);
    /* the EARs, the ETB and the IP-EAR */
    static const char *const p37[] = { "plm", "umask", "ct", NULL }, *const p40[] = { "plm", "mode", "umask", NULL };
    static const char *const p39[] = { "plm", "ds", "tm", "ptm", "ppm", "brt", NULL };
    static const char *const p42[] = { "plm", "mode", "delay", NULL };
    need_if_laid(msgs, pmc(m, 37), p37);
    need_if_laid(msgs, pmc(m, 40), p40);
    need_if_laid(msgs, pmc(m, 39), p39);
    need_if_laid(msgs, pmc(m, 42), p42);
    /* code ranges: PMC38 and PMC32 with layouts and IBR0-7 */
    const PmsRegister *p38 = pmc(m, 38), *p32 = pmc(m, 32);
    if (p38 && p32 && p38->layout && p32->layout && all_present(m, PMS_SPACE_IBR)) {
        need1(msgs, pms_model_reg_at(m, PMS_SPACE_IBR, 1), "mask");
        static const char *const n_ig[] = { "ig_ibrp%u", NULL };
        for (guint k = 0; k < 4; k++)
            need(msgs, "", p38, n_ig, k, 0, "ig_ibrp");
        need1(msgs, p38, "fine");
        need1(msgs, p32, "inv");
        need1(msgs, p32, "ig_ad");
    }
    /* opcode matchers: PMC36 with a layout, PMC32/33 and PMC34/35 */
    const PmsRegister *p36 = pmc(m, 36);
    gboolean opcm = p36 && p36->layout;
    static const guint om[2][2] = { { 32, 33 }, { 34, 35 } };
    for (guint j = 0; j < 2 && opcm; j++) {
        const PmsRegister *mk = pmc(m, om[j][0]), *mt = pmc(m, om[j][1]);
        opcm = mk && mt && mk->layout && mt->layout;
        if (!opcm)
            break;
        static const char *const mask_fields[] = { "mask", "m", "i", "f", "b", NULL };
        for (guint i = 0; mask_fields[i]; i++)
            need1(msgs, mk, mask_fields[i]);
        need1(msgs, mt, "match");
    }
    if (opcm) {
        static const char *const n_igo[] = { "ch%u_ig_opcm", NULL };
        for (guint k = 0; k < 4; k++)
            need(msgs, "", p36, n_igo, k, 0, "ch_ig_opcm");
    }
    /* data ranges: PMC41 with a layout and DBR0-7 */
    const PmsRegister *p41 = pmc(m, 41);
    if (p41 && p41->layout && all_present(m, PMS_SPACE_DBR)) {
        need1(msgs, pms_model_reg_at(m, PMS_SPACE_DBR, 1), "mask");
        static const char *const n_dtag[] = { "cfg_dtag%u", NULL }, *const n_ena[] = { "ena_dbrp%u", NULL };
        for (guint k = 0; k < 4; k++) {
            need(msgs, "", p41, n_dtag, k, 0, "cfg_dtag");
            need(msgs, "", p41, n_ena, k, 0, "ena_dbrp");
        }
    }
}
