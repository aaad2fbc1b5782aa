/* The fast engine's closed form (issue 21) against the reference engine:
 * several interrupting counters across long runs of identical cycles, where
 * the fast engine counts the PMIs of each steady state (no freeze since the
 * last PMI) as the union of the counters' carry cycles instead of stepping
 * PMI by PMI, and PEBS armed.  Seeded random small configurations — the
 * x86 core (legacy and perfmon v4 freezes, PEBS), the uncore (PMI_FRZ),
 * amd64 and the toy family with counters narrowed to 16 bits (the toy's own
 * 32), so that a few thousand cycles hold many wraps; rates that are powers
 * of two (progressions), equal rates and preloads (identical sets), other
 * rates (walked), rates of a wrap every cycle; preloads near the top, INT
 * and freeze bits at random, several runs with writes between them that
 * clear the status and re-enable the counters (a new steady state).  After
 * every step every register, edge latch, PMI (cycles and total), PEBS record
 * and the DS index must be the same on both engines.  Then runs too long for
 * the reference engine, their counts derived by hand. */
#include "fixtures.h"
#include "pebs.h"

#include <string.h>

enum { N_CASES = 360, N_OPS = 14 };

static guint64 rand64(GRand *r)
{
    return ((guint64)g_rand_int(r) << 32) | g_rand_int(r);
}

/* The model file `name` with every 48-bit width made `width` bits (0: as it is). */
static PmsModel *narrow_model(const char *name, guint width)
{
    g_autofree char *path = g_str_has_prefix(name, "tiny") || strcmp(name, "toy") == 0
        ? g_strdup_printf(PMS_SRCDIR "/models/tests/%s.pmu", name)
        : g_strdup_printf(PMS_SRCDIR "/models/%s.pmu", name);
    g_autofree char *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, NULL)) {
        fprintf(stderr, "# cannot read %s\n", path);
        return NULL;
    }
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    g_autoptr(GString) out = g_string_new(NULL);
    for (guint i = 0; lines[i]; i++) {
        const char *eq = strstr(lines[i], "width = 48");
        if (width && eq &&
            (g_str_has_prefix(lines[i], "width") || g_str_has_prefix(lines[i], "gp_width") ||
             g_str_has_prefix(lines[i], "fixed_width")))
            g_string_append_printf(out, "%.*swidth = %u\n", (int)(eq - lines[i]), lines[i], width);
        else
            g_string_append_printf(out, "%s\n", lines[i]);
    }
    GError *e = NULL;
    PmsModel *m = pms_model_load_data(out->str, out->len, path, &e);
    if (!m) {
        fprintf(stderr, "# %s narrowed: %s\n", name, e->message);
        g_error_free(e);
    }
    return m;
}

/* value with field `name` of reg set to v (unchanged when it has none) */
static guint64 put(const PmsRegister *reg, guint64 value, const char *name, guint64 v)
{
    const PmsField *f = pms_register_field(reg, name);
    if (!f)
        return value;
    guint64 mask = f->width >= 64 ? G_MAXUINT64 : (((guint64)1 << f->width) - 1) << f->shift;
    return (value & ~mask) | ((v << f->shift) & mask);
}

static gboolean one_in(GRand *r, gint n)
{
    return g_rand_int_range(r, 0, n) == 0;
}

/* An event select counting signal sig: mostly enabled, interrupting, user
 * mode; edge, invert and a threshold now and then. */
static guint64 evtsel(GRand *r, const PmsRegister *reg, guint32 sig)
{
    guint64 v = put(reg, 0, "event", sig >> 8);
    v = put(reg, v, "umask", sig & 0xff);
    v = put(reg, v, "en", !one_in(r, 8));
    v = put(reg, v, "int", !one_in(r, 4));
    v = put(reg, v, "pmi_en", !one_in(r, 4));
    v = put(reg, v, "usr", 1);
    v = put(reg, v, "os", g_rand_boolean(r));
    v = put(reg, v, "edge", one_in(r, 10));
    v = put(reg, v, "inv", one_in(r, 12));
    v = put(reg, v, "cmask", one_in(r, 8) ? (guint64)g_rand_int_range(r, 1, 3) : 0);
    v = put(reg, v, "thresh", one_in(r, 8) ? (guint64)g_rand_int_range(r, 1, 3) : 0);
    return v & reg->writable;
}

/* The enables of a control register on (mostly), its PMI routing and
 * freeze at random. */
static guint64 control(GRand *r, const PmsRegister *reg)
{
    guint64 v = 0;
    const PmsLayout *l = reg->layout;
    for (guint i = 0; l && i < l->n_fields; i++) {
        const char *n = l->fields[i].name;
        guint64 all = l->fields[i].width >= 64 ? G_MAXUINT64 : ((guint64)1 << l->fields[i].width) - 1;
        if (g_str_has_prefix(n, "en") || strcmp(n, "pmc") == 0 || strcmp(n, "fixed") == 0 || strcmp(n, "ctr_en") == 0)
            v = put(reg, v, n, one_in(r, 10) ? rand64(r) : all);
        else if (g_str_has_prefix(n, "pmi_core"))
            v = put(reg, v, n, rand64(r));
        else if (g_str_has_prefix(n, "pmi"))
            v = put(reg, v, n, !one_in(r, 4)); /* fixed counters' INT */
        else if (strcmp(n, "pmi_frz") == 0 || strcmp(n, "frz_all") == 0)
            v = put(reg, v, n, one_in(r, 3));
    }
    /* the uncore's PMI_FRZ is named pmi_frz: caught by "pmi" above half the time */
    if (pms_register_field(reg, "pmi_frz"))
        v = put(reg, v, "pmi_frz", one_in(r, 3));
    return v & reg->writable;
}

/* Per-cycle rates: powers of two (progressions), others (walked), a wrap
 * every cycle, nothing. */
static guint64 rate(GRand *r, guint64 mask)
{
    static const guint64 pal[] = { 1, 2, 4, 8, 64, 512, 4096, 3, 5, 7, 100, 1000, 12345, 0 };
    guint k = (guint)g_rand_int_range(r, 0, G_N_ELEMENTS(pal) + 2);
    if (k == G_N_ELEMENTS(pal))
        return mask + 1 + (guint64)g_rand_int_range(r, 0, 3); /* every cycle wraps */
    if (k == G_N_ELEMENTS(pal) + 1)
        return MIN(mask / (guint64)g_rand_int_range(r, 2, 40), G_MAXUINT32);
    return pal[k];
}

static guint counted_cases, busy_runs, total_pmis, pebs_records, tail_pmis;

static gboolean same(const PmsModel *m, PmsSim *a, PmsSim *b, guint seed, guint op)
{
    for (guint i = 0; i < m->n_regs; i++) {
        const PmsRegister *reg = &m->regs[i];
        guint64 va = 0, vb = 0;
        gboolean ra = pms_sim_read_at(a, reg->space, reg->address, &va, NULL);
        gboolean rb = pms_sim_read_at(b, reg->space, reg->address, &vb, NULL);
        if (ra != rb || va != vb) {
            fprintf(stderr,
                    "# %s seed %u op %u: %s reference 0x%" G_GINT64_MODIFIER "x fast 0x%" G_GINT64_MODIFIER "x\n",
                    m->name, seed, op, reg->name, va, vb);
            return FALSE;
        }
    }
    for (guint i = 0; i < m->n_gp; i++)
        if (pms_sim_edge_latch(a, i) != pms_sim_edge_latch(b, i)) {
            fprintf(stderr, "# %s seed %u op %u: edge latch %u\n", m->name, seed, op, i);
            return FALSE;
        }
    guint na, nb;
    const guint64 *pa = pms_sim_pmis(a, &na), *pb = pms_sim_pmis(b, &nb);
    if (na != nb || (na && memcmp(pa, pb, na * sizeof *pa)) || pms_sim_pmi_total(a) != pms_sim_pmi_total(b) ||
        pms_sim_cycle(a) != pms_sim_cycle(b)) {
        guint i = 0;
        while (i < MIN(na, nb) && pa[i] == pb[i])
            i++;
        fprintf(stderr,
                "# %s seed %u op %u: PMIs %u (total %" G_GUINT64_FORMAT ") vs %u (total %" G_GUINT64_FORMAT
                "), first difference #%u: %" G_GUINT64_FORMAT " vs %" G_GUINT64_FORMAT "\n",
                m->name, seed, op, na, pms_sim_pmi_total(a), nb, pms_sim_pmi_total(b), i, i < na ? pa[i] : 0,
                i < nb ? pb[i] : 0);
        return FALSE;
    }
    /* each listed PMI's cause, the last PMIs and theirs */
    const guint64 *ca = pms_sim_pmi_causes(a, &na), *cb = pms_sim_pmi_causes(b, &nb);
    if (na != nb || (na && memcmp(ca, cb, na * sizeof *ca))) {
        guint i = 0;
        while (i < MIN(na, nb) && ca[i] == cb[i])
            i++;
        fprintf(stderr,
                "# %s seed %u op %u: PMI #%u (cycle %" G_GUINT64_FORMAT ") cause 0x%" G_GINT64_MODIFIER
                "x vs 0x%" G_GINT64_MODIFIER "x\n",
                m->name, seed, op, i, i < na ? pa[i] : 0, i < na ? ca[i] : 0, i < nb ? cb[i] : 0);
        return FALSE;
    }
    guint64 la[PMS_SIM_PMI_TAIL], lb[PMS_SIM_PMI_TAIL], lca[PMS_SIM_PMI_TAIL], lcb[PMS_SIM_PMI_TAIL];
    guint nla = pms_sim_pmi_tail(a, la, lca), nlb = pms_sim_pmi_tail(b, lb, lcb);
    if (nla != nlb || (nla && (memcmp(la, lb, nla * sizeof *la) || memcmp(lca, lcb, nla * sizeof *lca)))) {
        guint i = 0;
        while (i < MIN(nla, nlb) && la[i] == lb[i] && lca[i] == lcb[i])
            i++;
        fprintf(stderr,
                "# %s seed %u op %u: last PMIs %u vs %u, first difference #%u: %" G_GUINT64_FORMAT
                " (0x%" G_GINT64_MODIFIER "x) vs %" G_GUINT64_FORMAT " (0x%" G_GINT64_MODIFIER "x)\n",
                m->name, seed, op, nla, nlb, i, i < nla ? la[i] : 0, i < nla ? lca[i] : 0, i < nlb ? lb[i] : 0,
                i < nlb ? lcb[i] : 0);
        return FALSE;
    }
    tail_pmis += nla;
    guint ra, rb;
    guint64 ta, tb;
    const PmsPebsRecord *qa = pms_sim_pebs_records(a, &ra, &ta), *qb = pms_sim_pebs_records(b, &rb, &tb);
    PmsPebsDs da, db;
    pms_sim_get_pebs_ds(a, &da);
    pms_sim_get_pebs_ds(b, &db);
    if (ra != rb || ta != tb || (ra && memcmp(qa, qb, ra * sizeof *qa)) || memcmp(&da, &db, sizeof da)) {
        fprintf(stderr, "# %s seed %u op %u: PEBS records %u/%" G_GUINT64_FORMAT " vs %u/%" G_GUINT64_FORMAT "\n",
                m->name, seed, op, ra, ta, rb, tb);
        return FALSE;
    }
    return TRUE;
}

typedef struct {
    guint32 sig[8];
    guint64 n[8];
    guint ns;
} Signals;

static gboolean both_write(PmsSim *a, PmsSim *b, const PmsRegister *reg, guint64 v)
{
    gboolean wa = pms_sim_write_at(a, reg->space, reg->address, v, NULL);
    gboolean wb = pms_sim_write_at(b, reg->space, reg->address, v, NULL);
    CU_ASSERT_EQUAL(wa, wb);
    return wa;
}

static void both_preload(PmsSim *a, PmsSim *b, const PmsRegister *reg, guint64 v)
{
    CU_ASSERT_EQUAL(pms_sim_set_counter_at(a, reg->space, reg->address, v, NULL),
                    pms_sim_set_counter_at(b, reg->space, reg->address, v, NULL));
}


/* One case: program, then N_OPS steps (runs mostly; writes that restart the
 * counters between them). */
static gboolean one_case(const PmsModel *m, guint seed)
{
    g_autoptr(GRand) r = g_rand_new_with_seed(seed);
    g_autoptr(PmsSim) a = fx_sim(m, PMS_SIM_REFERENCE);
    g_autoptr(PmsSim) b = fx_sim(m, PMS_SIM_FAST);
    guint64 mask = ((guint64)1 << m->gp_width) - 1;
    Signals sg = { .ns = 0 };
    /* each event select counts its own signal at its own rate; a third of
     * them share the previous one's rate (and then its preload) */
    guint64 last_rate = 1, last_pre = mask;
    GPtrArray *ctrs = g_ptr_array_new();
    for (guint i = 0; i < m->n_regs; i++) {
        const PmsRegister *reg = &m->regs[i];
        if (reg->kind == PMS_REG_EVTSEL && reg->index < 6) {
            guint32 sig = PMS_SIGNAL_KEY(0x10 + reg->index, 0x01);
            both_write(a, b, reg, evtsel(r, reg, sig));
            if (sg.ns < G_N_ELEMENTS(sg.sig)) {
                gboolean same_rate = sg.ns && one_in(r, 3);
                sg.sig[sg.ns] = sig;
                sg.n[sg.ns++] = same_rate ? last_rate : (last_rate = rate(r, mask));
            }
        } else if (reg->kind == PMS_REG_FIXED_CTRL || reg->kind == PMS_REG_GLOBAL_CTRL ||
                   reg->kind == PMS_REG_BOX_CTRL) {
            both_write(a, b, reg, control(r, reg));
        } else if (reg->kind == PMS_REG_DEBUGCTL) {
            guint64 v = put(reg, 0, "freeze_perfmon_on_pmi", one_in(r, 3));
            both_write(a, b, reg, v & reg->writable);
        } else if (reg->kind == PMS_REG_PMC || reg->kind == PMS_REG_FIXED_CTR) {
            g_ptr_array_add(ctrs, (gpointer)reg);
        }
    }
    /* the fixed counters' signals (instructions, clocks) */
    static const guint32 fixed_sig[] = { PMS_SIGNAL_KEY(0xc0, 0x00), PMS_SIGNAL_KEY(0x3c, 0x00),
                                         PMS_SIGNAL_KEY(0x3c, 0x01) };
    for (guint i = 0; i < G_N_ELEMENTS(fixed_sig) && sg.ns < G_N_ELEMENTS(sg.sig); i++) {
        sg.sig[sg.ns] = fixed_sig[i];
        sg.n[sg.ns++] = one_in(r, 3) ? last_rate : rate(r, mask);
    }
    /* preloads near the top: a wrap within the first few cycles */
    for (guint i = 0; i < ctrs->len; i++) {
        guint64 pre = one_in(r, 3) ? last_pre : (mask + 1 - (guint64)g_rand_int_range(r, 1, 3000)) & mask;
        both_preload(a, b, ctrs->pdata[i], last_pre = pre);
    }
    /* PEBS armed on some counters, a small buffer (it fills: records stop) */
    const PmsRegister *pe = pms_model_reg_by_kind(m, PMS_REG_PEBS_ENABLE, 0);
    if (pe && g_rand_boolean(r)) {
        guint size = pms_pebs_record_size(pms_model_pebs_format(m));
        PmsPebsDs ds = { 0x10000, 0x10000, 0x10000 + size * (guint64)g_rand_int_range(r, 1, 40), 0, { 0 } };
        if (!one_in(r, 3))
            ds.threshold = ds.base + size * (guint64)g_rand_int_range(r, 1, 8);
        ds.threshold = MIN(ds.threshold, ds.max);
        for (guint i = 0; i < PMS_PEBS_MAX_COUNTERS; i++)
            ds.reset[i] = (mask + 1 - (guint64)g_rand_int_range(r, 1, 2000)) & mask;
        if (pms_sim_set_pebs_ds(a, &ds, NULL) && pms_sim_set_pebs_ds(b, &ds, NULL))
            both_write(a, b, pe, put(pe, 0, "pebs_en", rand64(r)) & pe->writable);
    }
    g_ptr_array_free(ctrs, TRUE);
    if (!same(m, a, b, seed, 0))
        return FALSE;
    guint threads = pms_sim_threads(a);
    for (guint op = 1; op <= N_OPS; op++) {
        guint k = (guint)g_rand_int_range(r, 0, 10);
        if (k < 2) {
            /* software after a PMI: clear the status, re-enable */
            for (guint i = 0; i < m->n_regs; i++) {
                const PmsRegister *reg = &m->regs[i];
                if (reg->kind == PMS_REG_GLOBAL_OVF_CTRL || reg->kind == PMS_REG_GLOBAL_STATUS_RESET ||
                    reg->kind == PMS_REG_BOX_OVF_CTRL)
                    both_write(a, b, reg, reg->writable);
                else if ((reg->kind == PMS_REG_GLOBAL_CTRL || reg->kind == PMS_REG_BOX_CTRL) && g_rand_boolean(r))
                    both_write(a, b, reg, control(r, reg));
                else if ((reg->kind == PMS_REG_PMC || reg->kind == PMS_REG_FIXED_CTR) && one_in(r, 3))
                    both_preload(a, b, reg, (mask + 1 - (guint64)g_rand_int_range(r, 1, 3000)) & mask);
            }
        } else if (k < 3 && sg.ns) {
            sg.n[g_rand_int_range(r, 0, (gint32)sg.ns)] = rate(r, mask); /* another rate */
        } else {
            PmsSimCount c[8];
            for (guint i = 0; i < sg.ns; i++)
                c[i] = (PmsSimCount){ sg.sig[i], threads > 1 && one_in(r, 6) ? 1u : 0u, MIN(sg.n[i], G_MAXUINT32), 0 };
            static const guint64 lens[] = { 1, 2, 5, 100, 700, 2000, 4000 };
            guint64 len = lens[g_rand_int_range(r, 0, G_N_ELEMENTS(lens))] + (guint64)g_rand_int_range(r, 0, 50);
            PmsSimRun run = { len, { 3, 3 }, c, sg.ns, NULL, 0, NULL, 0 };
            guint64 before = pms_sim_pmi_total(a);
            CU_ASSERT_TRUE(pms_sim_run(a, &run, NULL));
            CU_ASSERT_TRUE(pms_sim_run(b, &run, NULL));
            busy_runs += pms_sim_pmi_total(a) - before >= 3;
        }
        if (!same(m, a, b, seed, op))
            return FALSE;
    }
    total_pmis += (guint)MIN(pms_sim_pmi_total(a), G_MAXUINT32 / 4);
    guint nr;
    guint64 tr;
    pms_sim_pebs_records(a, &nr, &tr);
    pebs_records += nr;
    return TRUE;
}

static void diff_closed_form(void)
{
    static const struct {
        const char *name;
        guint width; /* 0: as the model says */
        const char *key, *value;
    } models[] = {
        { "nhm", 16, NULL, NULL },
        { "wsm", 16, NULL, NULL },
        { "glm", 16, NULL, NULL },
        { "skl", 16, NULL, NULL },
        { "nhm", 16, "pmi_skid", "2" },
        { "tinyunc", 16, NULL, NULL },
        { "tinyamd", 16, NULL, NULL },
        { "toy", 0, NULL, NULL },
        /* 8 and 10 bits: runs of thousands of cycles span many periods of
         * the union of rates that are not powers of two (folded) */
        { "wsm", 8, NULL, NULL },
        { "skl", 10, NULL, NULL },
        { "tinyunc", 8, NULL, NULL },
    };
    guint failures = 0;
    for (guint i = 0; i < G_N_ELEMENTS(models); i++) {
        PmsModel *m = narrow_model(models[i].name, models[i].width);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        if (models[i].key)
            pms_model_set_option(m, models[i].key, models[i].value);
        guint n = fx_cases(N_CASES / G_N_ELEMENTS(models));
        for (guint c = 0; c < n && failures < 3; c++) {
            if (!one_case(m, 7100000 + 1000 * i + c)) {
                failures++;
                CU_FAIL("reference and fast engines differ");
            }
            counted_cases++;
        }
        pms_model_free(m);
    }
    printf("# closed form: %u cases, %u runs with 3 PMIs or more, %u PMIs, %u PEBS records, %u last PMIs compared\n",
           counted_cases, busy_runs, total_pmis, pebs_records, tail_pmis);
    /* the suite exercises many PMIs per run (steady states) and PEBS */
    CU_ASSERT_TRUE(busy_runs > counted_cases);
    CU_ASSERT_TRUE(pebs_records > counted_cases / 4);
    CU_ASSERT_TRUE(tail_pmis > counted_cases);
}

/* Two interrupting counters over 2^62 cycles, no freeze, on wsm (48-bit
 * counters, M = 2^48), counted in closed form.
 *   PMC0: preload 2^48 - 10, 1 a cycle: after cycle c it holds
 *     2^48 - 10 + c + 1, so it wraps in cycles c = 9 (mod 2^48): cycles
 *     9, 9 + 2^48, ..., the last below 2^62 being 9 + (2^14 - 1) 2^48:
 *     2^14 = 16384 PMIs; at the end 2^48 - 10 + 2^62 = 2^48 - 10 (mod 2^48).
 *   PMC1: preload 2^48 - 5, 2 a cycle: it first passes 2^48 in cycle 2
 *     (2^48 - 5 + 6 = 2^48 + 1), then every 2^47 cycles: c = 2 (mod 2^47),
 *     2^62 / 2^47 = 2^15 = 32768 PMIs; at the end 2^48 - 5 + 2^63 = 2^48 - 5.
 *   9 is not 2 (mod 2^47): the two never wrap in the same cycle, so
 *   16384 + 32768 = 49152 PMIs, the first at 2, 9, 2 + 2^47, 2 + 2^48,
 *   9 + 2^48; GLOBAL_STATUS has both counters' bits (0x3).
 * Then the case on a new instance: both at 2^32 - 1 a cycle from
 * the same preload 2^48 - 100 (identical wraps, a rate that is not a power
 * of two) for 2^62 cycles: each wraps floor((2^48 - 100 + 2^62 (2^32 - 1)) / 2^48) =
 * floor(2^46 - 2^14 + 1 - 100 / 2^48) = 2^46 - 2^14 times, in the same
 * cycles: 2^46 - 2^14 PMIs, and both end where they started,
 * 2^48 - 100 (2^62 and 2^94 are multiples of 2^48). */
static void long_two_counters(void)
{
    const PmsModel *m = fx_model("wsm");
    g_autoptr(PmsSim) s = fx_sim(m, PMS_SIM_FAST);
    guint64 top = (guint64)1 << 48;
    fx_write(s, A_EVTSEL0, EVTSEL(0x10, 0x01, EV_USR | EV_INT | EV_EN));
    fx_write(s, A_EVTSEL0 + 1, EVTSEL(0x11, 0x01, EV_USR | EV_INT | EV_EN));
    fx_write(s, A_GCTRL, 0x3);
    CU_ASSERT_TRUE(pms_sim_set_counter(s, A_PMC0, top - 10, NULL));
    CU_ASSERT_TRUE(pms_sim_set_counter(s, A_PMC0 + 1, top - 5, NULL));
    PmsSimCount c[2] = { { PMS_SIGNAL_KEY(0x10, 0x01), 0, 1, 0 }, { PMS_SIGNAL_KEY(0x11, 0x01), 0, 2, 0 } };
    PmsSimRun run = { (guint64)1 << 62, { 3, 3 }, c, 2, NULL, 0, NULL, 0 };
    pms_sim_set_max_steps(s, 1000); /* closed form: a handful of steps */
    GError *e = NULL;
    if (!pms_sim_run(s, &run, &e)) {
        fprintf(stderr, "# %s\n", e->message);
        g_error_free(e);
        CU_FAIL_FATAL("the 2^62-cycle run failed");
    }
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), top - 10);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 1), top - 5);
    CU_ASSERT_EQUAL(fx_read(s, A_STATUS), 0x3);
    CU_ASSERT_EQUAL(pms_sim_pmi_total(s), 49152);
    guint n;
    const guint64 *p = pms_sim_pmis(s, &n);
    CU_ASSERT_EQUAL(n, PMS_SIM_PMI_LISTED);
    CU_ASSERT_EQUAL(p[0], 2);
    CU_ASSERT_EQUAL(p[1], 9);
    CU_ASSERT_EQUAL(p[2], 2 + ((guint64)1 << 47));
    CU_ASSERT_EQUAL(p[3], 2 + top);
    CU_ASSERT_EQUAL(p[4], 9 + top);

    CU_ASSERT_EQUAL(pms_sim_cycle(s), (guint64)1 << 62);

    g_autoptr(PmsSim) t = fx_sim(m, PMS_SIM_FAST);
    fx_write(t, A_EVTSEL0, EVTSEL(0x10, 0x01, EV_USR | EV_INT | EV_EN));
    fx_write(t, A_EVTSEL0 + 1, EVTSEL(0x11, 0x01, EV_USR | EV_INT | EV_EN));
    fx_write(t, A_GCTRL, 0x3);
    CU_ASSERT_TRUE(pms_sim_set_counter(t, A_PMC0, top - 100, NULL));
    CU_ASSERT_TRUE(pms_sim_set_counter(t, A_PMC0 + 1, top - 100, NULL));
    c[0].count = c[1].count = G_MAXUINT32;
    pms_sim_set_max_steps(t, 1000);
    if (!pms_sim_run(t, &run, &e)) {
        fprintf(stderr, "# %s\n", e->message);
        g_error_free(e);
        CU_FAIL_FATAL("the second 2^62-cycle run failed");
    }
    CU_ASSERT_EQUAL(fx_read(t, A_PMC0), top - 100);
    CU_ASSERT_EQUAL(fx_read(t, A_PMC0 + 1), top - 100);
    CU_ASSERT_EQUAL(pms_sim_pmi_total(t), ((guint64)1 << 46) - ((guint64)1 << 14));
    p = pms_sim_pmis(t, &n);
    /* the first wrap: 2^48 - 100 + (c + 1)(2^32 - 1) >= 2^48 from c = 0 */
    CU_ASSERT_EQUAL(p[0], 0);
}

/* PEBS armed over 2^40 cycles on nhm (record format 1, 0xB0 bytes; 48-bit
 * counters), PMC0 counting 1 a cycle with INT, preload -3, reset value -4:
 *   the first wrap is in cycle 2 (-3, -2, -1, then 0), the assist in cycle
 *   3 reloads -4; from then on 4 cycles to the wrap and one to the assist:
 *   an assist every 5 cycles, in cycles 3 + 5j, j <= (2^40 - 4) / 5, so
 *   floor((2^40 - 4) / 5) + 1 = 219902325555 assists, each with a PMI (INT).
 *   The buffer (base 0x1000, maximum 0x1400) holds 0x400 / 0xB0 = 5
 *   records (cycles 3, 8, 13, 18, 23); the threshold 0x1160 is reached by
 *   the second, so OvfBuf (bit 62) is set and the records from the third
 *   on carry it.  The last assist is in cycle 3 + 5 * 219902325554 =
 *   2^40 - 3; the two cycles after it count -4 up to -2 = 2^48 - 2. */
static void long_pebs(void)
{
    const PmsModel *m = fx_model("nhm");
    g_autoptr(PmsSim) s = fx_sim(m, PMS_SIM_FAST);
    guint64 top = (guint64)1 << 48;
    PmsPebsDs ds = { 0x1000, 0x1000, 0x1400, 0x1160, { top - 4 } };
    CU_ASSERT_TRUE_FATAL(pms_sim_set_pebs_ds(s, &ds, NULL));
    fx_write(s, 0x3f1, 0x1); /* IA32_PEBS_ENABLE: PMC0 */
    fx_write(s, A_EVTSEL0, EVTSEL(0xc0, 0x00, EV_USR | EV_INT | EV_EN));
    fx_write(s, A_GCTRL, 0x1);
    CU_ASSERT_TRUE(pms_sim_set_counter(s, A_PMC0, top - 3, NULL));
    PmsSimCount c = { PMS_SIGNAL_KEY(0xc0, 0x00), 0, 1, 0 };
    PmsSimRun run = { (guint64)1 << 40, { 3, 3 }, &c, 1, NULL, 0, NULL, 0 };
    pms_sim_set_max_steps(s, 10000); /* the period repeats: a handful of steps */
    GError *e = NULL;
    if (!pms_sim_run(s, &run, &e)) {
        fprintf(stderr, "# %s\n", e->message);
        g_error_free(e);
        CU_FAIL_FATAL("the 2^40-cycle PEBS run failed");
    }
    CU_ASSERT_EQUAL(pms_sim_pmi_total(s), 219902325555u);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), top - 2);
    CU_ASSERT_EQUAL(fx_read(s, A_STATUS), (guint64)1 << 62);
    guint n;
    guint64 total;
    const PmsPebsRecord *rec = pms_sim_pebs_records(s, &n, &total);
    CU_ASSERT_EQUAL(n, 5);
    CU_ASSERT_EQUAL(total, 5);
    for (guint i = 0; i < n && i < 5; i++) {
        CU_ASSERT_EQUAL(rec[i].cycle, 3 + 5 * i);
        CU_ASSERT_EQUAL(rec[i].address, 0x1000 + 0xb0 * i);
        CU_ASSERT_EQUAL(rec[i].field[18], i < 2 ? 0x1 : 0x1 | (guint64)1 << 62); /* status, at 0x90 */
    }
    const guint64 *p = pms_sim_pmis(s, &n);
    CU_ASSERT_EQUAL(n, PMS_SIM_PMI_LISTED);
    CU_ASSERT_EQUAL(p[0], 3);
    CU_ASSERT_EQUAL(p[n - 1], 3 + 5 * (guint64)(n - 1));
    PmsPebsDs after;
    pms_sim_get_pebs_ds(s, &after);
    CU_ASSERT_EQUAL(after.index, 0x1000 + 5 * 0xb0);
}

/* The work bound: a run the engine steps cycle by cycle fails before it
 * counts; the fast engine's walk of PMIs it cannot count in closed form
 * fails when it passes the bound (two counters at 3 and 5 a cycle, narrow). */
static void work_bound(void)
{
    const PmsModel *m = fx_model("wsm");
    g_autoptr(PmsSim) s = fx_sim(m, PMS_SIM_REFERENCE);
    fx_write(s, A_EVTSEL0, EVTSEL(0x10, 0x01, EV_USR | EV_INT | EV_EN));
    fx_write(s, A_EVTSEL0 + 1, EVTSEL(0x11, 0x01, EV_USR | EV_INT | EV_EN));
    fx_write(s, A_GCTRL, 0x3);
    PmsSimCount c[2] = { { PMS_SIGNAL_KEY(0x10, 0x01), 0, G_MAXUINT32, 0 },
                         { PMS_SIGNAL_KEY(0x11, 0x01), 0, G_MAXUINT32 - 2, 0 } };
    PmsSimRun run = { 1001, { 3, 3 }, c, 2, NULL, 0, NULL, 0 };
    pms_sim_set_max_steps(s, 1000);
    GError *e = NULL;
    CU_ASSERT_FALSE(pms_sim_run(s, &run, &e));
    CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_BOUND));
    CU_ASSERT_TRUE(e && strstr(e->message, "needs more than 1000 steps"));
    g_clear_error(&e);
    CU_ASSERT_EQUAL(pms_sim_cycle(s), 0);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 0);
    run.cycles = 1000;
    CU_ASSERT_TRUE(pms_sim_run(s, &run, NULL));
    /* the fast engine: 2^40 cycles of two distinct rates that are not powers
     * of two wrap ~2^24 times each: walked, over a bound of 1000 */
    pms_sim_set_engine(s, PMS_SIM_FAST);
    run.cycles = (guint64)1 << 40;
    CU_ASSERT_FALSE(pms_sim_run(s, &run, &e));
    CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_BOUND));
    g_clear_error(&e);
    /* unbounded, the same run finishes: 1000 + 2^40 cycles */
    pms_sim_set_max_steps(s, 0);
    guint64 at = pms_sim_cycle(s);
    CU_ASSERT_TRUE(pms_sim_run(s, &run, NULL));
    CU_ASSERT_EQUAL(pms_sim_cycle(s), at + run.cycles);
}

/* PMC0 and PMC1 of wsm with INT, from these values at these rates, over
 * 2^62 cycles of the fast engine under a bound of 100 steps. */
static gboolean run_two_long(PmsSim *s, guint64 pre0, guint64 pre1, guint64 r0, guint64 r1)
{
    fx_write(s, A_EVTSEL0, EVTSEL(0x10, 0x01, EV_USR | EV_INT | EV_EN));
    fx_write(s, A_EVTSEL0 + 1, EVTSEL(0x11, 0x01, EV_USR | EV_INT | EV_EN));
    fx_write(s, A_GCTRL, 0x3);
    CU_ASSERT_TRUE(pms_sim_set_counter(s, A_PMC0, pre0, NULL));
    CU_ASSERT_TRUE(pms_sim_set_counter(s, A_PMC0 + 1, pre1, NULL));
    PmsSimCount c[2] = { { PMS_SIGNAL_KEY(0x10, 0x01), 0, r0, 0 }, { PMS_SIGNAL_KEY(0x11, 0x01), 0, r1, 0 } };
    PmsSimRun run = { (guint64)1 << 62, { 3, 3 }, c, 2, NULL, 0, NULL, 0 };
    pms_sim_set_max_steps(s, 100);
    GError *e = NULL;
    if (!pms_sim_run(s, &run, &e)) {
        fprintf(stderr, "# %s\n", e->message);
        g_error_free(e);
        return FALSE;
    }
    return TRUE;
}

/* Rates that are not powers of two, counted over one period of their union
 * (issue 21): on wsm (M = 2^48), PMC0 at 3 a cycle from 2^48 - 3 and PMC1
 * at 5 from 2^48 - 5 both carry in cycle 0 (cause 0x3), then each is at 0
 * after it: PMC0 carries where 3j mod M < 3, j = ceil(kM/3) = (M+2)/3,
 * (2M+1)/3, M (M = 1 mod 3); PMC1 where j = ceil(kM/5) = (M+4)/5,
 * (2M+3)/5, (3M+2)/5, (4M+1)/5, M (M = 1 mod 5).  Both repeat every M
 * cycles and meet only at multiples of M: 7 PMIs a period.  2^62 cycles
 * are j = 0 .. 2^62 - 1 = (2^14 - 1) M + (M - 1): 1 + 7 (2^14 - 1) + 6 =
 * 7 * 2^14 PMIs; the last period holds all but its M, the one before ends
 * with M (both).  Walking them would take 2^17 steps: a bound of 100
 * holds only when the union is folded. */
static void long_mixed_rates(void)
{
    const PmsModel *m = fx_model("wsm");
    g_autoptr(PmsSim) s = fx_sim(m, PMS_SIM_FAST);
    guint64 M = (guint64)1 << 48;
    if (!run_two_long(s, M - 3, M - 5, 3, 5))
        CU_FAIL_FATAL("the 2^62-cycle run at rates 3 and 5 failed");
    CU_ASSERT_EQUAL(pms_sim_pmi_total(s), 7 * ((guint64)1 << 14));
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), M - 3);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 1), M - 5);
    guint n;
    const guint64 *p = pms_sim_pmis(s, &n), *cause = pms_sim_pmi_causes(s, &n);
    CU_ASSERT_EQUAL_FATAL(n, PMS_SIM_PMI_LISTED);
    const guint64 first[] = {
        0, (M + 4) / 5,    (M + 2) / 3, (2 * M + 3) / 5, (3 * M + 2) / 5, (2 * M + 1) / 3, (4 * M + 1) / 5,
        M, M + (M + 4) / 5
    };
    const guint64 first_cause[] = { 0x3, 0x2, 0x1, 0x2, 0x2, 0x1, 0x2, 0x3, 0x2 };
    for (guint i = 0; i < G_N_ELEMENTS(first); i++) {
        CU_ASSERT_EQUAL(p[i], first[i]);
        CU_ASSERT_EQUAL(cause[i], first_cause[i]);
    }
    guint64 tail[PMS_SIM_PMI_TAIL], tail_cause[PMS_SIM_PMI_TAIL];
    guint nt = pms_sim_pmi_tail(s, tail, tail_cause);
    CU_ASSERT_EQUAL_FATAL(nt, PMS_SIM_PMI_TAIL);
    guint64 off = (((guint64)1 << 14) - 1) * M;
    const guint64 last[] = { off,
                             off + (M + 4) / 5,
                             off + (M + 2) / 3,
                             off + (2 * M + 3) / 5,
                             off + (3 * M + 2) / 5,
                             off + (2 * M + 1) / 3,
                             off + (4 * M + 1) / 5 };
    const guint64 last_cause[] = { 0x3, 0x2, 0x1, 0x2, 0x2, 0x1, 0x2 };
    for (guint i = 0; i < G_N_ELEMENTS(last); i++) {
        CU_ASSERT_EQUAL(tail[nt - G_N_ELEMENTS(last) + i], last[i]);
        CU_ASSERT_EQUAL(tail_cause[nt - G_N_ELEMENTS(last) + i], last_cause[i]);
    }
    /* the causes name the counters */
    const PmsRegister *r0 = pms_sim_pmi_cause_counter(s, 0), *r1 = pms_sim_pmi_cause_counter(s, 1);
    CU_ASSERT_TRUE(r0 && r0->address == A_PMC0);
    CU_ASSERT_TRUE(r1 && r1->address == A_PMC0 + 1);
}

/* One case on 8-bit counters: nc counters at these rates from random
 * preloads, INT on, a run of 20000-25000 cycles on the reference engine
 * and on the fast one under a bound of `bound` steps; FALSE (and a test
 * failure saying `walked` or that they differ) when the fast engine passed
 * the bound or the two differ. */
static gboolean narrow_case(PmsModel *m, GRand *r, const guint64 *rates, guint nc, guint64 bound, guint seed, guint c,
                            const char *walked)
{
    g_autoptr(PmsSim) a = fx_sim(m, PMS_SIM_REFERENCE);
    g_autoptr(PmsSim) b = fx_sim(m, PMS_SIM_FAST);
    PmsSimCount cnt[4];
    for (guint k = 0; k < nc; k++) {
        PmsSim *both[2] = { a, b };
        guint64 pre = (guint64)g_rand_int_range(r, 0, 256);
        for (guint e = 0; e < 2; e++) {
            fx_write(both[e], A_EVTSEL0 + k, EVTSEL(0x10 + k, 0x01, EV_USR | EV_INT | EV_EN));
            CU_ASSERT_TRUE(pms_sim_set_counter(both[e], A_PMC0 + k, pre, NULL));
        }
        cnt[k] = (PmsSimCount){ PMS_SIGNAL_KEY(0x10 + k, 0x01), 0, rates[k], 0 };
    }
    fx_write(a, A_GCTRL, 0xf);
    fx_write(b, A_GCTRL, 0xf);
    PmsSimRun run = { 20000 + (guint64)g_rand_int_range(r, 0, 5000), { 3, 3 }, cnt, nc, NULL, 0, NULL, 0 };
    pms_sim_set_max_steps(b, bound);
    GError *e = NULL;
    CU_ASSERT_TRUE(pms_sim_run(a, &run, NULL));
    if (!pms_sim_run(b, &run, &e)) {
        fprintf(stderr, "# case %u: %s\n", c, e->message);
        g_clear_error(&e);
        CU_FAIL(walked);
        return FALSE;
    }
    if (!same(m, a, b, seed, c)) {
        CU_FAIL("reference and fast engines differ");
        return FALSE;
    }
    return TRUE;
}

/* The same fold on 8-bit counters, against the reference engine: two to
 * four counters at rates that are not powers of two (with a power of two
 * among them now and then), random preloads, runs of thousands of periods,
 * and a bound the walk over the whole run would pass: one period of 256
 * cycles holds at most the sum of the rates' carries, a walk of the whole
 * run about 80 times that. */
static void mixed_rates_folded(void)
{
    PmsModel *m = narrow_model("wsm", 8);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    g_autoptr(GRand) r = g_rand_new_with_seed(7300001);
    static const guint64 odd[] = { 3, 5, 7, 9, 11, 13, 17, 25, 27, 100, 6, 12, 255, 4, 1, 2 };
    guint bad = 0, n = fx_cases(60);
    for (guint c = 0; c < n && bad < 3; c++) {
        guint nc = (guint)g_rand_int_range(r, 2, 5);
        guint64 rates[4], sum = 0;
        for (guint k = 0; k < nc; k++)
            sum += rates[k] = odd[g_rand_int_range(r, 0, k ? G_N_ELEMENTS(odd) : 10)];
        bad += !narrow_case(m, r, rates, nc, sum + 5, 7300001, c, "the fast engine did not fold the union");
    }
    pms_model_free(m);
}

/* Two counters at one rate that is far from a power of two, 2^32 - 1 (its
 * carries repeat only every 2^48 cycles, 2^32 - 1 of them a period: no
 * fold helps), with different preloads (issue 21).  On wsm (M = 2^48),
 * PMC0 from 0 carries in cycle c when r(c+1) mod M < r: as M = 2^16 (r+1),
 * c + 1 = ceil(kM/r) = k 2^16 + 1, so c = k 2^16 (k < 2^16).  PMC1 from
 * M/2 carries when (M/2 + r(c+1)) mod M < r: c + 1 = ceil((2k-1) 2^47 / r)
 * = (2k-1) 2^15 + 1.  So the PMIs are c = i 2^15, i = 1, 2, ..., PMC1 for
 * odd i, PMC0 for even i; their arcs of values [0, r) and [M/2, M/2 + r)
 * never meet.  Over 2^62 cycles each carries floor(r 2^62 / M) = 2^46 -
 * 2^14 times (PMC1: floor(1/2 + that)): 2^47 - 2^15 PMIs, and the counters
 * end where they began (r 2^62 is a multiple of M).  Walking them would
 * take 2^47 steps; the bound is 100. */
static void long_same_odd_rate(void)
{
    const PmsModel *m = fx_model("wsm");
    g_autoptr(PmsSim) s = fx_sim(m, PMS_SIM_FAST);
    guint64 M = (guint64)1 << 48, r = G_MAXUINT32;
    if (!run_two_long(s, 0, M / 2, r, r))
        CU_FAIL_FATAL("the 2^62-cycle run at one odd rate failed");
    CU_ASSERT_EQUAL(pms_sim_pmi_total(s), ((guint64)1 << 47) - ((guint64)1 << 15));
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 0);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0 + 1), M / 2);
    guint n;
    const guint64 *p = pms_sim_pmis(s, &n), *cause = pms_sim_pmi_causes(s, &n);
    CU_ASSERT_EQUAL_FATAL(n, PMS_SIM_PMI_LISTED);
    for (guint i = 0; i < n; i++) {
        CU_ASSERT_EQUAL(p[i], (guint64)(i + 1) << 15);
        CU_ASSERT_EQUAL(cause[i], (i + 1) % 2 ? 0x2 : 0x1);
    }
}

/* One odd rate on several 8-bit counters with random preloads (their arcs
 * overlap, so their carries meet), now and then with a counter at a power
 * of two, against the reference engine, under a bound of 10 steps: the
 * count takes no walk (rate 255 carries 255 times a period of 256 cycles). */
static void same_rate_arcs(void)
{
    PmsModel *m = narrow_model("wsm", 8);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    g_autoptr(GRand) r = g_rand_new_with_seed(7300002);
    static const guint64 odd[] = { 255, 253, 129, 127, 101, 77, 3, 6, 250 };
    static const guint64 pow2[] = { 1, 2, 4, 32, 128 };
    guint bad = 0, n = fx_cases(60);
    for (guint c = 0; c < n && bad < 3; c++) {
        guint nc = (guint)g_rand_int_range(r, 2, 5);
        guint64 rates[4], rate = odd[g_rand_int_range(r, 0, G_N_ELEMENTS(odd))];
        for (guint k = 0; k < nc; k++)
            rates[k] =
                k == nc - 1 && g_rand_int_range(r, 0, 3) == 0 ? pow2[g_rand_int_range(r, 0, G_N_ELEMENTS(pow2))] : rate;
        bad += !narrow_case(m, r, rates, nc, 10, 7300002, c, "the fast engine walked the carries of one rate");
    }
    pms_model_free(m);
}

void register_closed_form_tests(void)
{
    CU_pSuite s = CU_add_suite("closed form", NULL, NULL);
    CU_add_test(s, "reference == fast: interrupting counters and PEBS over steady runs", diff_closed_form);
    CU_add_test(s, "fast: two interrupting counters over 2^62 cycles, counts by hand", long_two_counters);
    CU_add_test(s, "fast: PEBS armed over 2^40 cycles, counts by hand", long_pebs);
    CU_add_test(s, "work bound: every engine, a clear error", work_bound);
    CU_add_test(s, "fast: rates 3 and 5 over 2^62 cycles, folded, counts by hand", long_mixed_rates);
    CU_add_test(s, "reference == fast: mixed rates on 8-bit counters, folded", mixed_rates_folded);
    CU_add_test(s, "fast: one odd rate 2^32-1, two preloads, over 2^62 cycles, counts by hand", long_same_odd_rate);
    CU_add_test(s, "reference == fast: one odd rate on 8-bit counters, any preloads, no walk", same_rate_arcs);
}
