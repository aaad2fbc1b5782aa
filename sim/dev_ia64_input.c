/* pmusim — the Itanium device's run inputs: its run keys (ip, insn, daddr,
 * mesi, psr, isa, fetch, dear, iear, br; docs/stimulus-format.md "run"),
 * their parsers, and the typed setters of sim_ia64.h over the same block.
 * sim/dev_ia64.c reads the block (sim_ia64_inputs). */
#include "ia64_input.h"

#include <stddef.h>
#include <string.h>

/* insn=SLOT:OPCODE[,SLOT:OPCODE]: the IA-64 slot type (m, i, f, b) and the
 * 41-bit opcode of each thread's instruction, '-' for none. */
static gboolean key_insn(const PmsModel *m, const char *s, gpointer field, GError **error)
{
    SimIa64Insn *f = field;
    guint threads = sim_input_threads(m);
    g_auto(GStrv) parts = g_strsplit(s, ",", -1);
    guint n = g_strv_length(parts);
    if (n == 0 || n > threads)
        return sim_input_fail(error, "insn: expected 1..%u comma-separated SLOT:OPCODE (one per thread), got '%s'",
                              threads, s);
    for (guint t = 0; t < n; t++) {
        if (strcmp(parts[t], "-") == 0)
            continue;
        const char *colon = strchr(parts[t], ':');
        static const char slots[] = "mifb"; /* PmsSimSlot order */
        const char *at = colon && colon - parts[t] == 1 ? strchr(slots, g_ascii_tolower(parts[t][0])) : NULL;
        if (!at || !*at)
            return sim_input_fail(
                error, "insn: '%s' for thread %u: expected SLOT:OPCODE with SLOT m, i, f or b, or '-'", parts[t], t);
        if (!sim_parse_u64(colon + 1, &f->op[t]) || f->op[t] >> 41)
            return sim_input_fail(error,
                                  "insn: opcode '%s' for thread %u: expected a 41-bit number (below "
                                  "0x20000000000)",
                                  colon + 1, t);
        f->slot[t] = (PmsSimSlot)(at - slots);
        f->has[t] = TRUE;
    }
    return TRUE;
}

/* mesi=STATE[,STATE]: the line state (I, S, E, M, either case) of each
 * thread's occurrences, '-' for none. */
static gboolean key_mesi(const PmsModel *m, const char *s, gpointer field, GError **error)
{
    SimIa64Mesi *f = field;
    guint threads = sim_input_threads(m);
    g_auto(GStrv) parts = g_strsplit(s, ",", -1);
    guint n = g_strv_length(parts);
    if (n == 0 || n > threads)
        return sim_input_fail(error, "mesi: expected 1..%u comma-separated states (one per thread), got '%s'", threads,
                              s);
    for (guint t = 0; t < n; t++) {
        if (strcmp(parts[t], "-") == 0)
            continue;
        static const char states[] = "isem"; /* PmsSimMesi order */
        const char *at = parts[t][0] && !parts[t][1] ? strchr(states, g_ascii_tolower(parts[t][0])) : NULL;
        if (!at || !*at)
            return sim_input_fail(error, "mesi: '%s' for thread %u: expected I, S, E, M or '-'", parts[t], t);
        f->state[t] = (PmsSimMesi)(at - states);
        f->has[t] = TRUE;
    }
    return TRUE;
}

/* psr=BITS[,BITS], isa=SET[,SET] and fetch=KIND[,KIND]: one value per
 * thread; threads not listed take the last value given.  names: the
 * accepted words (either case), vals their values. */
static gboolean mode_list(const PmsModel *m, const char *what, const char *s, const char *const *names,
                          const guint *vals, const char *expected, guint *out, GError **error)
{
    guint threads = sim_input_threads(m);
    g_auto(GStrv) parts = g_strsplit(s, ",", -1);
    guint n = g_strv_length(parts);
    if (n == 0 || n > threads)
        return sim_input_fail(error, "%s: expected 1..%u comma-separated values (one per thread), got '%s'", what,
                              threads, s);
    for (guint t = 0; t < PMS_SIM_MAX_THREADS; t++) {
        const char *v = parts[MIN(t, n - 1)];
        guint k = 0;
        while (names[k] && g_ascii_strcasecmp(names[k], v) != 0)
            k++;
        if (!names[k])
            return sim_input_fail(error, "%s: '%s' for thread %u: expected %s", what, v, MIN(t, n - 1), expected);
        out[t] = vals[k];
    }
    return TRUE;
}

/* psr=: PSR.up / PSR.pp of each thread */
static gboolean key_psr(const PmsModel *m, const char *s, gpointer field, GError **error)
{
    static const char *const names[] = { "up+pp", "pp+up", "up", "pp", "none", NULL };
    static const guint vals[] = { PMS_SIM_PSR_UP | PMS_SIM_PSR_PP, PMS_SIM_PSR_UP | PMS_SIM_PSR_PP, PMS_SIM_PSR_UP,
                                  PMS_SIM_PSR_PP, 0 };
    return mode_list(m, "psr", s, names, vals, "up, pp, up+pp or none", field, error);
}

/* isa=: the instruction set each thread executes */
static gboolean key_isa(const PmsModel *m, const char *s, gpointer field, GError **error)
{
    static const char *const names[] = { "ia64", "ia32", NULL };
    static const guint vals[] = { PMS_SIM_ISA_IA64, PMS_SIM_ISA_IA32 };
    return mode_list(m, "isa", s, names, vals, "ia64 or ia32", field, error);
}

/* fetch=: each thread's instruction fetches are demand fetches or
 * prefetches (the dual fetch events' IBR pair) */
static gboolean key_fetch(const PmsModel *m, const char *s, gpointer field, GError **error)
{
    static const char *const names[] = { "demand", "prefetch", NULL };
    static const guint vals[] = { 0, 1 };
    return mode_list(m, "fetch", s, names, vals, "demand or prefetch", field, error);
}

/* The flags after the numbers of dear=, iear= and br= (FIELD:FIELD:...):
 * each must be one of `allowed` (a NULL-terminated list); returns the bit
 * set of the flags given (bit i: allowed[i]). */
static gboolean parse_flags(const char *what, char **f, const char *const *allowed, guint *bits, GError **error)
{
    *bits = 0;
    for (; *f; f++) {
        guint i = 0;
        while (allowed[i] && g_ascii_strcasecmp(*f, allowed[i]) != 0)
            i++;
        if (!allowed[i]) {
            g_autofree char *list = g_strjoinv(", ", (char **)allowed);
            return sim_input_fail(error, "%s: unknown flag '%s': expected %s", what, *f, list);
        }
        *bits |= 1u << i;
    }
    return TRUE;
}

/* At most one of the flags in `group` (bits) may be given. */
static gboolean one_of(const char *what, guint bits, guint group, const char *names, GError **error)
{
    if (bits & group & ((bits & group) - 1))
        return sim_input_fail(error, "%s: at most one of %s", what, names);
    return TRUE;
}

enum { F_L2 = 1, F_VHPT = 2, F_FAULT = 4 }; /* the first three flags of dear= and iear= */

static PmsSimTlb tlb_of(guint bits)
{
    return bits & F_FAULT ? PMS_SIM_TLB_FAULT
        : bits & F_VHPT   ? PMS_SIM_TLB_VHPT
        : bits & F_L2     ? PMS_SIM_TLB_L2
                          : PMS_SIM_TLB_L1;
}

static gboolean parse_lat(const char *what, const char *s, guint32 *lat, GError **error)
{
    guint64 v;
    if (!sim_parse_u64(s, &v) || v > G_MAXUINT32)
        return sim_input_fail(error, "%s: latency '%s': expected a number of cycles below 2^32", what, s);
    *lat = (guint32)v;
    return TRUE;
}

/* dear=DADDR:IP:LAT[:l2|vhpt|fault][:alat][:s0|s1|s2]: one D-EAR event of
 * thread 0 in the run's first cycle */
static gboolean key_dear(const PmsModel *m, const char *s, gpointer field, GError **error)
{
    (void)m;
    SimIa64Dear *out = field;
    PmsSimDearEvent *d = &out->ev;
    g_auto(GStrv) f = g_strsplit(s, ":", -1);
    if (g_strv_length(f) < 3)
        return sim_input_fail(error, "dear: expected DADDR:IP:LATENCY[:FLAG...], got '%s'", s);
    if (!sim_parse_u64(f[0], &d->daddr))
        return sim_input_fail(error, "dear: data address '%s': expected a 64-bit number", f[0]);
    if (!sim_parse_u64(f[1], &d->ip))
        return sim_input_fail(error, "dear: instruction address '%s': expected a 64-bit number", f[1]);
    if (!parse_lat("dear", f[2], &d->latency, error))
        return FALSE;
    static const char *const fl[] = { "l2", "vhpt", "fault", "alat", "s0", "s1", "s2", NULL };
    guint b;
    if (!parse_flags("dear", f + 3, fl, &b, error) || !one_of("dear", b, 7, "l2, vhpt, fault", error) ||
        !one_of("dear", b, 0x70, "s0, s1, s2", error))
        return FALSE;
    d->tlb = tlb_of(b);
    d->alat = (b & 8) != 0;
    d->slot = b & 0x20 ? 1 : b & 0x40 ? 2 : 0;
    out->has = TRUE;
    return TRUE;
}

/* iear=IP:LAT[:l2|vhpt|fault][:rab]: one I-EAR event of thread 0 */
static gboolean key_iear(const PmsModel *m, const char *s, gpointer field, GError **error)
{
    (void)m;
    SimIa64Iear *out = field;
    PmsSimIearEvent *e = &out->ev;
    g_auto(GStrv) f = g_strsplit(s, ":", -1);
    if (g_strv_length(f) < 2)
        return sim_input_fail(error, "iear: expected IP:LATENCY[:FLAG...], got '%s'", s);
    if (!sim_parse_u64(f[0], &e->ip))
        return sim_input_fail(error, "iear: instruction address '%s': expected a 64-bit number", f[0]);
    if (!parse_lat("iear", f[1], &e->latency, error))
        return FALSE;
    static const char *const fl[] = { "l2", "vhpt", "fault", "rab", NULL };
    guint b;
    if (!parse_flags("iear", f + 2, fl, &b, error) || !one_of("iear", b, 7, "l2, vhpt, fault", error))
        return FALSE;
    e->tlb = tlb_of(b);
    e->rab = (b & 8) != 0;
    out->has = TRUE;
    return TRUE;
}

/* br=FROM:TO[:nt][:mpt][:mpp][:rel|ret|ind][:s0|s1|s2]: a branch of thread
 * 0 for the ETB, in token order */
static gboolean key_br(const PmsModel *m, const char *s, gpointer field, GError **error)
{
    (void)m;
    PmsSimBranch br = { 0 };
    g_auto(GStrv) f = g_strsplit(s, ":", -1);
    if (g_strv_length(f) < 2)
        return sim_input_fail(error, "br: expected FROM:TO[:FLAG...], got '%s'", s);
    if (!sim_parse_u64(f[0], &br.from))
        return sim_input_fail(error, "br: branch address '%s': expected a 64-bit number", f[0]);
    if (!sim_parse_u64(f[1], &br.to))
        return sim_input_fail(error, "br: target address '%s': expected a 64-bit number", f[1]);
    static const char *const fl[] = { "nt", "mpt", "mpp", "rel", "ret", "ind", "s0", "s1", "s2", NULL };
    guint b;
    if (!parse_flags("br", f + 2, fl, &b, error) || !one_of("br", b, 0x38, "rel, ret, ind", error) ||
        !one_of("br", b, 0x1c0, "s0, s1, s2", error))
        return FALSE;
    br.taken = !(b & 1);
    br.mp_target = (b & 2) != 0;
    br.mp_path = (b & 4) != 0;
    br.type = b & 0x10 ? PMS_SIM_BR_RET : b & 0x20 ? PMS_SIM_BR_IND : PMS_SIM_BR_REL;
    br.slot = b & 0x80 ? 1 : b & 0x100 ? 2 : 0;
    sim_list_append(field, &br, sizeof br);
    return TRUE;
}

/* the key's field in the block: offset and size */
#define AT(member) .offset = offsetof(SimIa64Input, member), .size = sizeof(((SimIa64Input *)0)->member)

static const SimRunKey ia64_keys[] = {
    { .name = "ip", .parse = sim_key_ip, AT(ip) },
    { .name = "insn", .parse = key_insn, AT(insn) },
    { .name = "daddr", .parse = sim_key_daddr, AT(daddr) },
    { .name = "mesi", .parse = key_mesi, AT(mesi) },
    { .name = "psr", .parse = key_psr, AT(psr) },
    { .name = "isa", .parse = key_isa, AT(isa) },
    { .name = "fetch", .parse = key_fetch, AT(fetch) },
    { .name = "dear", .parse = key_dear, AT(dear), .twice_hint = " (one event per run; split the run)" },
    { .name = "iear", .parse = key_iear, AT(iear), .twice_hint = " (one event per run; split the run)" },
    { .name = "br",
      .parse = key_br,
      AT(br),
      .elem = sizeof(PmsSimBranch),
      .max = PMS_SIM_MAX_BRANCHES,
      .max_what = "branches" },
};

static const SimIa64Input ia64_defaults = {
    .psr = { PMS_SIM_PSR_UP | PMS_SIM_PSR_PP, PMS_SIM_PSR_UP | PMS_SIM_PSR_PP },
    .isa = { PMS_SIM_ISA_IA64, PMS_SIM_ISA_IA64 },
};

const SimRunInputs sim_ia64_inputs = {
    sizeof(SimIa64Input),
    &ia64_defaults,
    ia64_keys,
    G_N_ELEMENTS(ia64_keys),
};

/* ---- the typed setters (sim_ia64.h) ----------------------------------------- */

void pms_sim_set_ip(PmsSim *s, guint thread, gboolean valid, guint64 ip)
{
    g_return_if_fail(thread < PMS_SIM_MAX_THREADS);
    SimThreadAddrs *f = sim_current_input(s, "ip");
    if (f) {
        f->has[thread] = valid;
        f->a[thread] = valid ? ip : 0;
    }
}

void pms_sim_set_daddr(PmsSim *s, guint thread, gboolean valid, guint64 daddr)
{
    g_return_if_fail(thread < PMS_SIM_MAX_THREADS);
    SimThreadAddrs *f = sim_current_input(s, "daddr");
    if (f) {
        f->has[thread] = valid;
        f->a[thread] = valid ? daddr : 0;
    }
}

void pms_sim_set_insn(PmsSim *s, guint thread, gboolean valid, PmsSimSlot slot, guint64 opcode)
{
    g_return_if_fail(thread < PMS_SIM_MAX_THREADS);
    g_return_if_fail(slot <= PMS_SIM_SLOT_B);
    SimIa64Insn *f = sim_current_input(s, "insn");
    if (f) {
        f->has[thread] = valid;
        f->slot[thread] = valid ? slot : PMS_SIM_SLOT_M;
        f->op[thread] = valid ? opcode & (((guint64)1 << 41) - 1) : 0;
    }
}

void pms_sim_set_mesi(PmsSim *s, guint thread, gboolean valid, PmsSimMesi state)
{
    g_return_if_fail(thread < PMS_SIM_MAX_THREADS);
    g_return_if_fail(state <= PMS_SIM_MESI_M);
    SimIa64Mesi *f = sim_current_input(s, "mesi");
    if (f) {
        f->has[thread] = valid;
        f->state[thread] = valid ? state : PMS_SIM_MESI_I;
    }
}

void pms_sim_set_psr(PmsSim *s, guint thread, guint psr)
{
    g_return_if_fail(thread < PMS_SIM_MAX_THREADS);
    g_return_if_fail((psr & ~(guint)(PMS_SIM_PSR_UP | PMS_SIM_PSR_PP)) == 0);
    guint *f = sim_current_input(s, "psr");
    if (f)
        f[thread] = psr;
}

void pms_sim_set_isa(PmsSim *s, guint thread, PmsSimIsa isa)
{
    g_return_if_fail(thread < PMS_SIM_MAX_THREADS);
    g_return_if_fail(isa <= PMS_SIM_ISA_IA32);
    guint *f = sim_current_input(s, "isa");
    if (f)
        f[thread] = isa;
}

void pms_sim_set_prefetch(PmsSim *s, guint thread, gboolean prefetch)
{
    g_return_if_fail(thread < PMS_SIM_MAX_THREADS);
    guint *f = sim_current_input(s, "fetch");
    if (f)
        f[thread] = prefetch != FALSE;
}

void pms_sim_set_dear(PmsSim *s, const PmsSimDearEvent *ev)
{
    SimIa64Dear *f = sim_current_input(s, "dear");
    if (f)
        *f = (SimIa64Dear){ ev != NULL, ev ? *ev : (PmsSimDearEvent){ 0 } };
}

void pms_sim_set_iear(PmsSim *s, const PmsSimIearEvent *ev)
{
    SimIa64Iear *f = sim_current_input(s, "iear");
    if (f)
        *f = (SimIa64Iear){ ev != NULL, ev ? *ev : (PmsSimIearEvent){ 0 } };
}

void pms_sim_set_branches(PmsSim *s, const PmsSimBranch *br, guint n)
{
    g_return_if_fail(n <= PMS_SIM_MAX_BRANCHES);
    g_return_if_fail(n == 0 || br != NULL);
    SimList *f = sim_current_input(s, "br");
    if (f) {
        f->v = g_realloc(f->v, n * sizeof *br);
        f->n = n;
        if (n)
            memcpy(f->v, br, n * sizeof *br);
    }
}
