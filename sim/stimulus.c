/* pmusim — stimulus records, their text format (docs/stimulus-format.md) and
 * their execution on a simulator instance.  One line is one record; every
 * error names source:line and what was expected there. */
#include "stimulus.h"
#include "lbr.h"
#include "pebs.h"
#include "stim_pebs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    PmsStimKind kind;
    guint line;
    guint64 cycle;
    PmsRegSpace space;   /* write/read: the register's space (MSR unless named otherwise) */
    guint32 address;
    guint64 value;
    gboolean check;
    PmsSimRun run;       /* arrays owned */
    gboolean has_ip[PMS_SIM_MAX_THREADS]; /* run: the occurrences' instruction address (ip=) */
    guint64 ip[PMS_SIM_MAX_THREADS];
    gboolean has_insn[PMS_SIM_MAX_THREADS]; /* run: the occurrences' instruction (insn=) */
    PmsSimSlot slot[PMS_SIM_MAX_THREADS];
    guint64 opcode[PMS_SIM_MAX_THREADS];
    gboolean has_daddr[PMS_SIM_MAX_THREADS]; /* run: the occurrences' data address (daddr=) */
    guint64 daddr[PMS_SIM_MAX_THREADS];
    gboolean has_mesi[PMS_SIM_MAX_THREADS]; /* run: the occurrences' line state (mesi=) */
    PmsSimMesi mesi[PMS_SIM_MAX_THREADS];
    guint8 psr[PMS_SIM_MAX_THREADS];     /* run: PSR.up / PSR.pp per thread (psr=; default both) */
    PmsSimIsa isa[PMS_SIM_MAX_THREADS];  /* run: the instruction set per thread (isa=; default IA-64) */
    guint fetch[PMS_SIM_MAX_THREADS];    /* run: 1 when the fetches are prefetches (fetch=; default demand) */
    gboolean has_dear, has_iear;         /* run: thread 0's EAR events (dear=, iear=) */
    PmsSimDearEvent dear;
    PmsSimIearEvent iear;
    guint n_br;                          /* run: thread 0's branches (br=), owned */
    PmsSimBranch *br;
    guint n_lbr;                         /* run: thread 0's branches for the LBR (branch=), owned */
    PmsSimLbrBranch *lbr;
    gboolean has_dse;                    /* run: thread 0's loads' data source (dse=, PEBS) */
    guint64 dse;
    StimPebs *pebs;                      /* PMS_STIM_PEBS: ds, regs, expect-pebs, expect-record (stim_pebs.c) */
} Rec;

struct PmsStim {
    const PmsModel *model;
    char *source;
    GArray *recs;        /* Rec */
    guint64 end;         /* cycle after the last run */
    gboolean expect_pmis;
    GArray *pmis;        /* guint64 */
    guint pmi_line;
    gboolean expect_ext; /* expect-ext: the external notifications' cycles */
    GArray *ext;         /* guint64, non-decreasing */
    guint ext_line;
    guint8 cpl[PMS_SIM_MAX_THREADS]; /* parser: sticky CPL */
};

static void rec_clear(gpointer p)
{
    Rec *r = p;
    g_free((gpointer)r->run.counts);
    g_free((gpointer)r->run.offcore);
    g_free((gpointer)r->run.loads);
    g_free(r->br);
    g_free(r->lbr);
    sim_stim_pebs_free(r->pebs);
}

PmsStim *pms_stim_new(const PmsModel *m)
{
    PmsStim *st = g_new0(PmsStim, 1);
    st->model = m;
    st->source = g_strdup("<api>");
    st->recs = g_array_new(FALSE, TRUE, sizeof(Rec));
    g_array_set_clear_func(st->recs, rec_clear);
    st->pmis = g_array_new(FALSE, FALSE, sizeof(guint64));
    st->ext = g_array_new(FALSE, FALSE, sizeof(guint64));
    for (guint t = 0; t < PMS_SIM_MAX_THREADS; t++)
        st->cpl[t] = 3;
    return st;
}

void pms_stim_free(PmsStim *st)
{
    if (!st)
        return;
    g_array_free(st->recs, TRUE);
    g_array_free(st->pmis, TRUE);
    g_array_free(st->ext, TRUE);
    g_free(st->source);
    g_free(st);
}

static Rec *append(PmsStim *st, PmsStimKind kind, guint line)
{
    Rec r = { 0 };
    r.kind = kind;
    r.line = line;
    r.cycle = st->end;
    g_array_append_val(st->recs, r);
    return &g_array_index(st->recs, Rec, st->recs->len - 1);
}

void pms_stim_add_write_at(PmsStim *st, PmsRegSpace space, guint32 number, guint64 value)
{
    Rec *r = append(st, PMS_STIM_WRITE, 0);
    r->space = space;
    r->address = number;
    r->value = value;
}

void pms_stim_add_read_at(PmsStim *st, PmsRegSpace space, guint32 number, gboolean check, guint64 expected)
{
    Rec *r = append(st, PMS_STIM_READ, 0);
    r->space = space;
    r->address = number;
    r->check = check;
    r->value = expected;
}

void pms_stim_add_write(PmsStim *st, guint32 address, guint64 value)
{
    pms_stim_add_write_at(st, PMS_SPACE_MSR, address, value);
}

void pms_stim_add_read(PmsStim *st, guint32 address, gboolean check, guint64 expected)
{
    pms_stim_add_read_at(st, PMS_SPACE_MSR, address, check, expected);
}

static Rec *add_run(PmsStim *st, const PmsSimRun *run, guint line)
{
    Rec *r = append(st, PMS_STIM_RUN, line);
    r->run = *run;
    r->run.counts = run->n_counts ? g_memdup2(run->counts, sizeof(PmsSimCount) * run->n_counts) : NULL;
    r->run.offcore = run->n_offcore ? g_memdup2(run->offcore, sizeof(PmsSimOffcore) * run->n_offcore) : NULL;
    r->run.loads = run->n_loads ? g_memdup2(run->loads, sizeof(PmsSimLoad) * run->n_loads) : NULL;
    for (guint t = 0; t < PMS_SIM_MAX_THREADS; t++) /* the defaults: PSR.up and .pp set, IA-64 */
        r->psr[t] = PMS_SIM_PSR_UP | PMS_SIM_PSR_PP, r->isa[t] = PMS_SIM_ISA_IA64;
    st->end += run->cycles;
    return r;
}

void pms_stim_add_run(PmsStim *st, const PmsSimRun *run)
{
    add_run(st, run, 0);
}

void pms_stim_expect_pmis(PmsStim *st, const guint64 *cycles, guint n)
{
    st->expect_pmis = TRUE;
    g_array_append_vals(st->pmis, cycles, n);
}

guint64 pms_stim_end_cycle(const PmsStim *st) { return st->end; }
guint pms_stim_n_records(const PmsStim *st) { return st->recs->len; }

void pms_stim_record(const PmsStim *st, guint i, PmsStimRecord *out)
{
    const Rec *r = &g_array_index(st->recs, Rec, i);
    *out = (PmsStimRecord){ r->kind, r->line, r->cycle, r->address, r->value, r->check,
                            r->kind == PMS_STIM_RUN ? &r->run : NULL, r->space };
}

/* ---- names ------------------------------------------------------------------ */

/* Decimal or 0x hex.  A leading 0 does not make a number octal: "010" is
 * ten, as the format promises (strtoull's base 0 read it as eight). */
static gboolean parse_u64(const char *s, guint64 *out)
{
    if (!s || !*s || *s == '-' || *s == '+')
        return FALSE;
    gboolean hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *d = hex ? s + 2 : s;
    if (!*d)
        return FALSE;
    for (const char *q = d; *q; q++)
        if (!(hex ? g_ascii_isxdigit(*q) : g_ascii_isdigit(*q)))
            return FALSE;
    char *end = NULL;
    errno = 0;
    guint64 v = g_ascii_strtoull(d, &end, hex ? 16 : 10);
    if (errno || *end)
        return FALSE;
    *out = v;
    return TRUE;
}

gboolean pms_stim_signal_key(const PmsModel *m, const char *name, guint32 *key, GError **error)
{
    g_auto(GStrv) parts = g_strsplit_set(name, ".:", 2);
    guint64 code, umask;
    if (parts[0] && parts[1] && parse_u64(parts[0], &code) && parse_u64(parts[1], &umask)) {
        if (code > 0xffff || umask > 0xff) {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS,
                        "signal '%s': event code must fit 16 bits and unit mask 8 bits", name);
            return FALSE;
        }
        *key = PMS_SIGNAL_KEY(code, umask);
        return TRUE;
    }
    const PmsEvent *ev = pms_model_event(m, parts[0]);
    if (!ev) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS,
                    "unknown signal '%s': expected CODE.UMASK (e.g. 0xc0.0x00) or EVENT.UMASK of model %s",
                    name, m->name);
        return FALSE;
    }
    if (ev->flags & PMS_EVENT_OFFCORE) {
        if (parts[1]) {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS,
                        "signal '%s': offcore unit masks select OFFCORE_RSP bits; give transactions "
                        "with offcore=REQ/RESP instead", name);
            return FALSE;
        }
        *key = PMS_SIGNAL_KEY(ev->code & 0xff, ev->base_umask);
        return TRUE;
    }
    const PmsUmask *um = NULL;
    if (parts[1]) {
        um = pms_event_umask(ev, parts[1]);
        if (!um) {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS,
                        "signal '%s': event %s has no unit mask '%s'", name, ev->name, parts[1]);
            return FALSE;
        }
    } else {
        um = pms_event_default_umask(ev);
        if (!um && ev->n_umasks) {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS,
                        "signal '%s': event %s needs a unit mask (EVENT.UMASK)", name, ev->name);
            return FALSE;
        }
    }
    *key = PMS_SIGNAL_KEY(ev->code & 0xffff, (um ? um->value : 0) | ev->base_umask);
    return TRUE;
}

/* ---- parser ---------------------------------------------------------------- */

typedef struct {
    PmsStim *st;
    const char *source;
    guint line;
    guint threads;
    GError **error;
    /* scratch reused by every run line (no allocation per record), and the
     * signal names resolved so far (a long stimulus repeats a few) */
    GArray *counts, *oc, *loads, *brs, *lbrs;
    GHashTable *sig_cache; /* name -> signal key + 1 */
} Parser;

static void parser_init(Parser *p, PmsStim *st, guint threads, GError **error)
{
    memset(p, 0, sizeof *p);
    p->st = st;
    p->source = st->source;
    p->threads = threads;
    p->error = error;
    p->counts = g_array_new(FALSE, FALSE, sizeof(PmsSimCount));
    p->oc = g_array_new(FALSE, FALSE, sizeof(PmsSimOffcore));
    p->loads = g_array_new(FALSE, FALSE, sizeof(PmsSimLoad));
    p->brs = g_array_new(FALSE, FALSE, sizeof(PmsSimBranch));
    p->lbrs = g_array_new(FALSE, FALSE, sizeof(PmsSimLbrBranch));
    p->sig_cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
}

static void parser_clear(Parser *p)
{
    g_array_free(p->counts, TRUE);
    g_array_free(p->oc, TRUE);
    g_array_free(p->loads, TRUE);
    g_array_free(p->brs, TRUE);
    g_array_free(p->lbrs, TRUE);
    g_hash_table_destroy(p->sig_cache);
}

G_GNUC_PRINTF(2, 3)
static gboolean fail(Parser *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(p->error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS, "%s:%u: %s", p->source, p->line, msg);
    return FALSE;
}

/* VALUE: number (decimal or 0x hex), -number (two's complement in 64 bits),
 * 2^K, 2^K-N or 2^K+N (K < 64). */
static gboolean parse_value(const char *s, guint64 *out)
{
    if (s[0] == '-') {
        guint64 v;
        if (!parse_u64(s + 1, &v) || v == 0 || v > ((guint64)1 << 63))
            return FALSE;
        *out = (guint64)0 - v;
        return TRUE;
    }
    if (g_str_has_prefix(s, "2^")) {
        const char *op = strpbrk(s + 2, "+-");
        g_autofree char *exp = g_strndup(s + 2, op ? (gsize)(op - s - 2) : strlen(s + 2));
        guint64 k, n = 0;
        if (!parse_u64(exp, &k) || k > 63 || (op && !parse_u64(op + 1, &n)))
            return FALSE;
        guint64 base = (guint64)1 << k;
        if (op && *op == '-') {
            if (n > base)
                return FALSE;
            *out = base - n;
        } else {
            if (n > G_MAXUINT64 - base)
                return FALSE;
            *out = base + n;
        }
        return TRUE;
    }
    return parse_u64(s, out);
}

/* REGISTER: a model register name (any space: PMC4 and PMD4 are two
 * registers), an MSR address, or SPACE:NUMBER (pmc:4, pmd:4, ibr:0, dbr:1,
 * msr:0x186). */
static gboolean parse_reg(Parser *p, const char *s, PmsRegSpace *space, guint32 *addr)
{
    const PmsModel *m = p->st->model;
    const PmsRegister *r = pms_model_reg_by_name(m, s);
    if (r) {
        *space = r->space;
        *addr = r->address;
        return TRUE;
    }
    guint64 v;
    const char *colon = strchr(s, ':');
    *space = PMS_SPACE_MSR;
    if (colon) {
        g_autofree char *sp = g_strndup(s, (gsize)(colon - s));
        if (!pms_reg_space_from_name(sp, space))
            return fail(p, "register '%s': unknown register space '%s': expected msr, pmc, pmd, ibr or dbr", s, sp);
        s = colon + 1;
    }
    if (parse_u64(s, &v) && v <= G_MAXUINT32) {
        *addr = (guint32)v;
        return TRUE;
    }
    return fail(p, "unknown register '%s': expected a register name of model %s, an address or SPACE:NUMBER "
                "(e.g. pmd:4)", colon ? colon + 1 : s, m->name);
}

static gboolean parse_thread_list(Parser *p, const char *what, const char *s, guint64 max, guint64 *vals)
{
    g_auto(GStrv) v = g_strsplit(s, ",", -1);
    guint n = g_strv_length(v);
    if (n == 0 || n > p->threads)
        return fail(p, "%s: expected 1..%u comma-separated values (one per thread), got '%s'", what, p->threads, s);
    for (guint t = 0; t < n; t++)
        if (!parse_u64(v[t], &vals[t]) || vals[t] > max)
            return fail(p, "%s: value '%s' for thread %u: expected a number 0..%" G_GUINT64_FORMAT, what, v[t], t, max);
    return TRUE;
}

/* A per-thread list of addresses (ip=, daddr=): A0[,A1], '-' for none. */
static gboolean parse_addr_list(Parser *p, const char *what, const char *s, gboolean *has, guint64 *a)
{
    g_auto(GStrv) parts = g_strsplit(s, ",", -1);
    guint n = g_strv_length(parts);
    if (n == 0 || n > p->threads)
        return fail(p, "%s: expected 1..%u comma-separated addresses (one per thread), got '%s'", what, p->threads, s);
    for (guint t = 0; t < n; t++) {
        if (strcmp(parts[t], "-") == 0)
            continue;
        if (!parse_u64(parts[t], &a[t]))
            return fail(p, "%s: '%s' for thread %u: expected a 64-bit address or '-'", what, parts[t], t);
        has[t] = TRUE;
    }
    return TRUE;
}

/* insn=SLOT:OPCODE[,SLOT:OPCODE]: the IA-64 slot type (m, i, f, b) and the
 * 41-bit opcode of each thread's instruction, '-' for none. */
static gboolean parse_insn_list(Parser *p, const char *s, gboolean *has, PmsSimSlot *slot, guint64 *op)
{
    g_auto(GStrv) parts = g_strsplit(s, ",", -1);
    guint n = g_strv_length(parts);
    if (n == 0 || n > p->threads)
        return fail(p, "insn: expected 1..%u comma-separated SLOT:OPCODE (one per thread), got '%s'", p->threads, s);
    for (guint t = 0; t < n; t++) {
        if (strcmp(parts[t], "-") == 0)
            continue;
        const char *colon = strchr(parts[t], ':');
        static const char slots[] = "mifb"; /* PmsSimSlot order */
        const char *at = colon && colon - parts[t] == 1 ? strchr(slots, g_ascii_tolower(parts[t][0])) : NULL;
        if (!at || !*at)
            return fail(p, "insn: '%s' for thread %u: expected SLOT:OPCODE with SLOT m, i, f or b, or '-'", parts[t],
                        t);
        if (!parse_u64(colon + 1, &op[t]) || op[t] >> 41)
            return fail(p, "insn: opcode '%s' for thread %u: expected a 41-bit number (below 0x20000000000)", colon + 1,
                        t);
        slot[t] = (PmsSimSlot)(at - slots);
        has[t] = TRUE;
    }
    return TRUE;
}

/* mesi=STATE[,STATE]: the line state (I, S, E, M, either case) of each
 * thread's occurrences, '-' for none. */
static gboolean parse_mesi_list(Parser *p, const char *s, gboolean *has, PmsSimMesi *state)
{
    g_auto(GStrv) parts = g_strsplit(s, ",", -1);
    guint n = g_strv_length(parts);
    if (n == 0 || n > p->threads)
        return fail(p, "mesi: expected 1..%u comma-separated states (one per thread), got '%s'", p->threads, s);
    for (guint t = 0; t < n; t++) {
        if (strcmp(parts[t], "-") == 0)
            continue;
        static const char states[] = "isem"; /* PmsSimMesi order */
        const char *at = parts[t][0] && !parts[t][1] ? strchr(states, g_ascii_tolower(parts[t][0])) : NULL;
        if (!at || !*at)
            return fail(p, "mesi: '%s' for thread %u: expected I, S, E, M or '-'", parts[t], t);
        state[t] = (PmsSimMesi)(at - states);
        has[t] = TRUE;
    }
    return TRUE;
}

/* psr=BITS[,BITS] and isa=SET[,SET]: one value per thread (up, pp, up+pp
 * or pp+up, none; ia64 or ia32, either case); threads not listed take the
 * last value given.  names: the accepted words, vals their values. */
static gboolean parse_mode_list(Parser *p, const char *what, const char *s, const char *const *names,
                                const guint *vals, const char *expected, guint *out)
{
    g_auto(GStrv) parts = g_strsplit(s, ",", -1);
    guint n = g_strv_length(parts);
    if (n == 0 || n > p->threads)
        return fail(p, "%s: expected 1..%u comma-separated values (one per thread), got '%s'", what, p->threads, s);
    for (guint t = 0; t < PMS_SIM_MAX_THREADS; t++) {
        const char *v = parts[MIN(t, n - 1)];
        guint k = 0;
        while (names[k] && g_ascii_strcasecmp(names[k], v) != 0)
            k++;
        if (!names[k])
            return fail(p, "%s: '%s' for thread %u: expected %s", what, v, MIN(t, n - 1), expected);
        out[t] = vals[k];
    }
    return TRUE;
}

/* The flags after the numbers of dear=, iear= and br= (FIELD:FIELD:...):
 * each must be one of `allowed` (a NULL-terminated list); returns the bit
 * set of the flags given (bit i: allowed[i]). */
static gboolean parse_flags(Parser *p, const char *what, char **f, const char *const *allowed, guint *bits)
{
    *bits = 0;
    for (; *f; f++) {
        guint i = 0;
        while (allowed[i] && g_ascii_strcasecmp(*f, allowed[i]) != 0)
            i++;
        if (!allowed[i]) {
            g_autofree char *list = g_strjoinv(", ", (char **)allowed);
            return fail(p, "%s: unknown flag '%s': expected %s", what, *f, list);
        }
        *bits |= 1u << i;
    }
    return TRUE;
}

/* At most one of the flags in `group` (bits) may be given. */
static gboolean one_of(Parser *p, const char *what, guint bits, guint group, const char *names)
{
    if (bits & group & ((bits & group) - 1))
        return fail(p, "%s: at most one of %s", what, names);
    return TRUE;
}

enum { F_L2 = 1, F_VHPT = 2, F_FAULT = 4 }; /* the first three flags of dear= and iear= */

static PmsSimTlb tlb_of(guint bits)
{
    return bits & F_FAULT ? PMS_SIM_TLB_FAULT : bits & F_VHPT ? PMS_SIM_TLB_VHPT : bits & F_L2 ? PMS_SIM_TLB_L2
                                                                                              : PMS_SIM_TLB_L1;
}

static gboolean parse_lat(Parser *p, const char *what, const char *s, guint32 *lat)
{
    guint64 v;
    if (!parse_u64(s, &v) || v > G_MAXUINT32)
        return fail(p, "%s: latency '%s': expected a number of cycles below 2^32", what, s);
    *lat = (guint32)v;
    return TRUE;
}

/* dear=DADDR:IP:LAT[:l2|vhpt|fault][:alat][:s0|s1|s2] */
static gboolean parse_dear(Parser *p, const char *s, PmsSimDearEvent *d)
{
    g_auto(GStrv) f = g_strsplit(s, ":", -1);
    if (g_strv_length(f) < 3)
        return fail(p, "dear: expected DADDR:IP:LATENCY[:FLAG...], got '%s'", s);
    if (!parse_u64(f[0], &d->daddr))
        return fail(p, "dear: data address '%s': expected a 64-bit number", f[0]);
    if (!parse_u64(f[1], &d->ip))
        return fail(p, "dear: instruction address '%s': expected a 64-bit number", f[1]);
    if (!parse_lat(p, "dear", f[2], &d->latency))
        return FALSE;
    static const char *const fl[] = { "l2", "vhpt", "fault", "alat", "s0", "s1", "s2", NULL };
    guint b;
    if (!parse_flags(p, "dear", f + 3, fl, &b) || !one_of(p, "dear", b, 7, "l2, vhpt, fault") ||
        !one_of(p, "dear", b, 0x70, "s0, s1, s2"))
        return FALSE;
    d->tlb = tlb_of(b);
    d->alat = (b & 8) != 0;
    d->slot = b & 0x20 ? 1 : b & 0x40 ? 2 : 0;
    return TRUE;
}

/* iear=IP:LAT[:l2|vhpt|fault][:rab] */
static gboolean parse_iear(Parser *p, const char *s, PmsSimIearEvent *e)
{
    g_auto(GStrv) f = g_strsplit(s, ":", -1);
    if (g_strv_length(f) < 2)
        return fail(p, "iear: expected IP:LATENCY[:FLAG...], got '%s'", s);
    if (!parse_u64(f[0], &e->ip))
        return fail(p, "iear: instruction address '%s': expected a 64-bit number", f[0]);
    if (!parse_lat(p, "iear", f[1], &e->latency))
        return FALSE;
    static const char *const fl[] = { "l2", "vhpt", "fault", "rab", NULL };
    guint b;
    if (!parse_flags(p, "iear", f + 2, fl, &b) || !one_of(p, "iear", b, 7, "l2, vhpt, fault"))
        return FALSE;
    e->tlb = tlb_of(b);
    e->rab = (b & 8) != 0;
    return TRUE;
}

/* br=FROM:TO[:nt][:mpt][:mpp][:rel|ret|ind][:s0|s1|s2] */
static gboolean parse_br(Parser *p, const char *s, PmsSimBranch *br)
{
    g_auto(GStrv) f = g_strsplit(s, ":", -1);
    if (g_strv_length(f) < 2)
        return fail(p, "br: expected FROM:TO[:FLAG...], got '%s'", s);
    if (!parse_u64(f[0], &br->from))
        return fail(p, "br: branch address '%s': expected a 64-bit number", f[0]);
    if (!parse_u64(f[1], &br->to))
        return fail(p, "br: target address '%s': expected a 64-bit number", f[1]);
    static const char *const fl[] = { "nt", "mpt", "mpp", "rel", "ret", "ind", "s0", "s1", "s2", NULL };
    guint b;
    if (!parse_flags(p, "br", f + 2, fl, &b) || !one_of(p, "br", b, 0x38, "rel, ret, ind") ||
        !one_of(p, "br", b, 0x1c0, "s0, s1, s2"))
        return FALSE;
    br->taken = !(b & 1);
    br->mp_target = (b & 2) != 0;
    br->mp_path = (b & 4) != 0;
    br->type = b & 0x10 ? PMS_SIM_BR_RET : b & 0x20 ? PMS_SIM_BR_IND : PMS_SIM_BR_REL;
    br->slot = b & 0x80 ? 1 : b & 0x100 ? 2 : 0;
    return TRUE;
}

/* ITEM[*COUNT][@THREAD] -> item text, count, thread */
static gboolean split_item(Parser *p, const char *what, const char *s, char **item, guint64 *count, guint *thread)
{
    g_autofree char *buf = g_strdup(s);
    char *at = strchr(buf, '@'), *star;
    guint64 t = 0;
    *count = 1;
    if (at) {
        *at++ = 0;
        if (!parse_u64(at, &t) || t >= p->threads)
            return fail(p, "%s: thread '@%s': expected 0..%u", what, at, p->threads - 1);
    }
    if ((star = strchr(buf, '*'))) {
        *star++ = 0;
        if (!parse_u64(star, count) || *count > G_MAXUINT32)
            return fail(p, "%s: count '*%s': expected a number below 2^32", what, star);
    }
    *thread = (guint)t;
    *item = g_strdup(buf);
    return TRUE;
}

/* Offcore request/response: '+'-joined unit-mask names of the model's offcore
 * event, or a number (raw register bits). */
static gboolean parse_oc_bits(Parser *p, const char *what, const char *s, guint64 *bits)
{
    const PmsModel *m = p->st->model;
    g_auto(GStrv) names = g_strsplit(s, "+", -1);
    *bits = 0;
    if (!names[0])
        return fail(p, "%s: empty request or response: expected unit-mask names joined by '+' or a number", what);
    for (guint i = 0; names[i]; i++) {
        guint64 v;
        if (!*names[i])
            return fail(p, "%s: empty name in '%s': expected unit-mask names joined by '+' or a number", what, s);
        if (parse_u64(names[i], &v)) {
            *bits |= v;
            continue;
        }
        gboolean found = FALSE;
        for (guint e = 0; e < m->n_events && !found; e++) {
            const PmsEvent *ev = &m->events[e];
            if (!(ev->flags & PMS_EVENT_OFFCORE))
                continue;
            for (guint u = 0; u < ev->n_umasks && !found; u++)
                if (g_ascii_strcasecmp(ev->umasks[u].name, names[i]) == 0) {
                    *bits |= ev->umasks[u].value;
                    found = TRUE;
                }
        }
        if (!found)
            return fail(p, "%s: '%s' is neither a number nor a unit mask of an offcore event of %s",
                        what, names[i], m->name);
    }
    return TRUE;
}

/* inflight= feeds only an offcore event's OUTSTANDING (occupancy) mode. */
static gboolean has_outstanding(const PmsModel *m)
{
    for (guint e = 0; e < m->n_events; e++)
        if ((m->events[e].flags & PMS_EVENT_OFFCORE) && pms_event_umask(&m->events[e], "OUTSTANDING"))
            return TRUE;
    return FALSE;
}

static gboolean parse_run(Parser *p, char **tok, guint ntok)
{
    guint64 cycles;
    if (ntok >= 2 && tok[1][0] == '-')
        return fail(p, "run: a cycle count cannot be negative, got '%s'", tok[1]);
    if (ntok < 2 || !parse_value(tok[1], &cycles) || cycles == 0)
        return fail(p, "run: expected a number of cycles >= 1, got '%s'", ntok > 1 ? tok[1] : "");
    if (cycles > G_MAXINT64 || p->st->end > G_MAXINT64 - cycles)
        return fail(p, "run: the stimulus would exceed 2^63 cycles");
    GArray *counts = p->counts, *oc = p->oc, *loads = p->loads, *brs = p->brs;
    g_array_set_size(counts, 0);
    g_array_set_size(oc, 0);
    g_array_set_size(loads, 0);
    g_array_set_size(brs, 0);
    g_array_set_size(p->lbrs, 0);
    gboolean has_ip[PMS_SIM_MAX_THREADS] = { FALSE }, has_insn[PMS_SIM_MAX_THREADS] = { FALSE },
             has_daddr[PMS_SIM_MAX_THREADS] = { FALSE };
    guint64 ip[PMS_SIM_MAX_THREADS] = { 0 }, opcode[PMS_SIM_MAX_THREADS] = { 0 }, daddr[PMS_SIM_MAX_THREADS] = { 0 };
    gboolean has_dse = FALSE;
    guint64 dse = 0;
    PmsSimSlot slot[PMS_SIM_MAX_THREADS] = { PMS_SIM_SLOT_M };
    gboolean has_mesi[PMS_SIM_MAX_THREADS] = { FALSE }, has_dear = FALSE, has_iear = FALSE;
    PmsSimMesi mesi[PMS_SIM_MAX_THREADS] = { PMS_SIM_MESI_I };
    guint psr[PMS_SIM_MAX_THREADS], isa[PMS_SIM_MAX_THREADS], fetch[PMS_SIM_MAX_THREADS] = { 0 };
    gboolean has_psr = FALSE, has_isa = FALSE, has_fetch = FALSE;
    for (guint t = 0; t < PMS_SIM_MAX_THREADS; t++)
        psr[t] = PMS_SIM_PSR_UP | PMS_SIM_PSR_PP, isa[t] = PMS_SIM_ISA_IA64;
    PmsSimDearEvent dear = { 0 };
    PmsSimIearEvent iear = { 0 };
    for (guint i = 2; i < ntok; i++) {
        char *eq = strchr(tok[i], '=');
        if (!eq || eq == tok[i] || !eq[1])
            return fail(p, "run: expected NAME=VALUE, got '%s'", tok[i]);
        g_autofree char *key = g_strndup(tok[i], eq - tok[i]);
        const char *val = eq + 1;
        if (strcmp(key, "cpl") == 0) {
            guint64 v[PMS_SIM_MAX_THREADS] = { 0 };
            g_auto(GStrv) parts = g_strsplit(val, ",", -1);
            if (!parse_thread_list(p, "cpl", val, 3, v))
                return FALSE;
            guint n = g_strv_length(parts), last = 0;
            /* threads not listed take the last value given */
            for (guint t = 0; t < PMS_SIM_MAX_THREADS; t++) {
                if (t < n)
                    last = t;
                p->st->cpl[t] = (guint8)v[last];
            }
        } else if (strcmp(key, "offcore") == 0 || strcmp(key, "inflight") == 0) {
            gboolean infl = key[0] == 'i';
            g_autofree char *item = NULL;
            PmsSimOffcore t = { 0 };
            if (!split_item(p, key, val, &item, &t.count, &t.thread))
                return FALSE;
            char *slash = strchr(item, '/');
            if (!infl && !slash)
                return fail(p, "offcore: expected REQUEST/RESPONSE[*COUNT][@THREAD], got '%s'", val);
            if (slash)
                *slash++ = 0;
            if (infl && !has_outstanding(p->st->model))
                return fail(p, "inflight: model %s has no offcore OUTSTANDING unit mask to count "
                            "requests in flight", p->st->model->name);
            if (!parse_oc_bits(p, key, item, &t.req) || (slash && !parse_oc_bits(p, key, slash, &t.resp)))
                return FALSE;
            t.inflight = infl;
            g_array_append_val(oc, t);
        } else if (strcmp(key, "ip") == 0) {
            /* ip=A0[,A1]: the instruction address of this run's occurrences
             * per thread; '-' or an omitted thread: none */
            if (!parse_addr_list(p, "ip", val, has_ip, ip))
                return FALSE;
        } else if (strcmp(key, "dse") == 0) {
            /* dse=V: the data source encoding of thread 0's loads (PEBS load-latency records) */
            if (has_dse)
                return fail(p, "dse: given twice in one run");
            if (!parse_value(val, &dse))
                return fail(p, "dse: '%s': expected a number (the data source encoding)", val);
            has_dse = TRUE;
        } else if (strcmp(key, "daddr") == 0) {
            /* daddr=A0[,A1]: the data address of this run's occurrences */
            if (!parse_addr_list(p, "daddr", val, has_daddr, daddr))
                return FALSE;
        } else if (strcmp(key, "insn") == 0) {
            /* insn=SLOT:OPCODE[,SLOT:OPCODE]: their instruction */
            if (!parse_insn_list(p, val, has_insn, slot, opcode))
                return FALSE;
        } else if (strcmp(key, "mesi") == 0) {
            /* mesi=STATE[,STATE]: the line state of this run's occurrences */
            if (!parse_mesi_list(p, val, has_mesi, mesi))
                return FALSE;
        } else if (strcmp(key, "psr") == 0) {
            /* psr=BITS[,BITS]: PSR.up / PSR.pp of each thread in this run */
            static const char *const names[] = { "up+pp", "pp+up", "up", "pp", "none", NULL };
            static const guint vals[] = { PMS_SIM_PSR_UP | PMS_SIM_PSR_PP, PMS_SIM_PSR_UP | PMS_SIM_PSR_PP,
                                          PMS_SIM_PSR_UP, PMS_SIM_PSR_PP, 0 };
            if (has_psr)
                return fail(p, "psr: given twice in one run");
            if (!parse_mode_list(p, "psr", val, names, vals, "up, pp, up+pp or none", psr))
                return FALSE;
            has_psr = TRUE;
        } else if (strcmp(key, "isa") == 0) {
            /* isa=SET[,SET]: the instruction set each thread executes */
            static const char *const names[] = { "ia64", "ia32", NULL };
            static const guint vals[] = { PMS_SIM_ISA_IA64, PMS_SIM_ISA_IA32 };
            if (has_isa)
                return fail(p, "isa: given twice in one run");
            if (!parse_mode_list(p, "isa", val, names, vals, "ia64 or ia32", isa))
                return FALSE;
            has_isa = TRUE;
        } else if (strcmp(key, "fetch") == 0) {
            /* fetch=KIND[,KIND]: each thread's instruction fetches are demand
             * fetches or prefetches (the dual fetch events' IBR pair) */
            static const char *const names[] = { "demand", "prefetch", NULL };
            static const guint vals[] = { 0, 1 };
            if (has_fetch)
                return fail(p, "fetch: given twice in one run");
            if (!parse_mode_list(p, "fetch", val, names, vals, "demand or prefetch", fetch))
                return FALSE;
            has_fetch = TRUE;
        } else if (strcmp(key, "dear") == 0 || strcmp(key, "iear") == 0) {
            /* one D-EAR / I-EAR event of thread 0 in the run's first cycle */
            gboolean d = key[0] == 'd';
            if (d ? has_dear : has_iear)
                return fail(p, "%s: given twice in one run (one event per run; split the run)", key);
            if (d ? !parse_dear(p, val, &dear) : !parse_iear(p, val, &iear))
                return FALSE;
            *(d ? &has_dear : &has_iear) = TRUE;
        } else if (strcmp(key, "br") == 0) {
            /* br=FROM:TO[:FLAG...]: a branch of thread 0, in token order */
            PmsSimBranch b = { 0 };
            if (brs->len == PMS_SIM_MAX_BRANCHES)
                return fail(p, "br: at most %u branches per run", (guint)PMS_SIM_MAX_BRANCHES);
            if (!parse_br(p, val, &b))
                return FALSE;
            g_array_append_val(brs, b);
        } else if (strcmp(key, "branch") == 0) {
            /* branch=FROM:TO:TYPE[:mp][:cplN]: a taken branch of thread 0 for
             * the LBR, in token order; its CPL is the run's unless cplN says */
            PmsSimLbrBranch b;
            GError *e = NULL;
            if (p->lbrs->len == PMS_SIM_MAX_BRANCHES)
                return fail(p, "branch: at most %u branches per run", (guint)PMS_SIM_MAX_BRANCHES);
            /* CPL 4 stands for "the run's", known after its last token */
            if (!pms_lbr_parse_branch(val, 4, &b, &e)) {
                fail(p, "%s", e->message);
                g_error_free(e);
                return FALSE;
            }
            g_array_append_val(p->lbrs, b);
        } else if (strcmp(key, "load") == 0) {
            g_autofree char *item = NULL;
            PmsSimLoad l = { 0 };
            guint64 lat;
            if (!split_item(p, key, val, &item, &l.count, &l.thread))
                return FALSE;
            if (!parse_u64(item, &lat) || lat > G_MAXUINT32)
                return fail(p, "load: expected LATENCY[*COUNT][@THREAD] with a latency below 2^32, got '%s'", val);
            l.latency = (guint32)lat;
            g_array_append_val(loads, l);
        } else {
            GError *e = NULL;
            guint32 sig;
            guint box = 0;
            /* UNITn/SIGNAL: the signal of another box of the model's unit */
            const char *name = key;   /* the signal's name, after any UNITn/ */
            char *slash = strchr(key, '/');
            if (slash) {
                const PmsModel *m = p->st->model;
                gsize ul = m->unit ? strlen(m->unit) : 0;
                guint64 inst;
                *slash = 0;
                if (!ul || g_ascii_strncasecmp(key, m->unit, ul) != 0 || !key[ul] ||
                    !g_ascii_string_to_unsigned(key + ul, 10, 0, 1023, &inst, NULL))
                    return fail(p, "'%s/': expected the model's unit and an instance (%s%s) before '/'", key,
                                m->unit ? m->unit : "the model has no unit", m->unit ? "N, e.g. cbox5" : "");
                box = (guint)inst + 1;
                name = slash + 1;
            }
            gpointer cached = g_hash_table_lookup(p->sig_cache, name);
            if (cached) {
                sig = GPOINTER_TO_UINT(cached) - 1;
            } else if (!pms_stim_signal_key(p->st->model, name, &sig, &e)) {
                fail(p, "%s", e->message);
                g_error_free(e);
                return FALSE;
            } else if (g_hash_table_size(p->sig_cache) < 4096) {
                g_hash_table_insert(p->sig_cache, g_strdup(name), GUINT_TO_POINTER(sig + 1));
            }
            guint64 v[PMS_SIM_MAX_THREADS] = { 0 };
            if (!parse_thread_list(p, name, val, G_MAXUINT32, v))
                return FALSE;
            for (guint t = 0; t < p->threads; t++) {
                if (!v[t])
                    continue;
                PmsSimCount c = { sig, t, v[t], box };
                g_array_append_val(counts, c);
            }
        }
    }
    PmsSimRun run = { cycles, { 0 }, (PmsSimCount *)(void *)counts->data, counts->len,
                      (PmsSimOffcore *)(void *)oc->data, oc->len, (PmsSimLoad *)(void *)loads->data, loads->len };
    memcpy(run.cpl, p->st->cpl, sizeof run.cpl);
    Rec *r = add_run(p->st, &run, p->line);
    memcpy(r->has_ip, has_ip, sizeof has_ip);
    memcpy(r->ip, ip, sizeof ip);
    memcpy(r->has_insn, has_insn, sizeof has_insn);
    memcpy(r->slot, slot, sizeof slot);
    memcpy(r->opcode, opcode, sizeof opcode);
    r->has_dse = has_dse;
    r->dse = dse;
    memcpy(r->has_daddr, has_daddr, sizeof has_daddr);
    memcpy(r->daddr, daddr, sizeof daddr);
    memcpy(r->has_mesi, has_mesi, sizeof has_mesi);
    memcpy(r->mesi, mesi, sizeof mesi);
    for (guint t = 0; t < PMS_SIM_MAX_THREADS; t++) {
        r->psr[t] = (guint8)psr[t];
        r->isa[t] = (PmsSimIsa)isa[t];
        r->fetch[t] = fetch[t];
    }
    r->has_dear = has_dear;
    r->dear = dear;
    r->has_iear = has_iear;
    r->iear = iear;
    r->n_br = brs->len;
    r->br = brs->len ? g_memdup2(brs->data, sizeof(PmsSimBranch) * brs->len) : NULL;
    for (guint i = 0; i < p->lbrs->len; i++)
        if (g_array_index(p->lbrs, PmsSimLbrBranch, i).cpl == 4)
            g_array_index(p->lbrs, PmsSimLbrBranch, i).cpl = p->st->cpl[0];
    r->n_lbr = p->lbrs->len;
    r->lbr = p->lbrs->len ? g_memdup2(p->lbrs->data, sizeof(PmsSimLbrBranch) * p->lbrs->len) : NULL;
    return TRUE;
}

static gboolean parse_line(Parser *p, char *text)
{
    char *hash = strchr(text, '#');
    if (hash)
        *hash = 0;
    g_auto(GStrv) all = g_strsplit_set(text, " \t\r", -1);
    char *tok[64];
    guint n = 0;
    for (guint i = 0; all[i]; i++)
        if (*all[i]) {
            if (n == G_N_ELEMENTS(tok))
                return fail(p, "too many fields on one line (at most %u)", (guint)G_N_ELEMENTS(tok));
            tok[n++] = all[i];
        }
    if (n == 0)
        return TRUE;
    if (tok[0][0] == '@') {
        guint64 at;
        if (tok[0][1] == '-')
            return fail(p, "@CYCLE: a cycle cannot be negative, got '%s'", tok[0]);
        if (!parse_value(tok[0] + 1, &at) || at > G_MAXINT64)
            return fail(p, "expected @CYCLE, got '%s'", tok[0]);
        if (at < p->st->end)
            return fail(p, "cycles out of order: @%" G_GUINT64_FORMAT " but the stimulus is already at cycle %"
                        G_GUINT64_FORMAT, at, p->st->end);
        if (at > p->st->end) {
            /* the gap runs idle: no occurrences, the current CPL */
            PmsSimRun idle = { at - p->st->end, { 0 }, NULL, 0, NULL, 0, NULL, 0 };
            memcpy(idle.cpl, p->st->cpl, sizeof idle.cpl);
            add_run(p->st, &idle, p->line);
        }
        if (n == 1)
            return fail(p, "expected a record (run, write, read) after '%s'", tok[0]);
        memmove(tok, tok + 1, (n - 1) * sizeof tok[0]);
        n--;
    }
    const char *cmd = tok[0];
    if (strcmp(cmd, "pmu") == 0) {
        if (n < 2)
            return fail(p, "pmu: expected the model's name (%s)", p->st->model->name);
        if (n > 2)
            return fail(p, "pmu: extra word '%s' after the name '%s': expected one name", tok[2], tok[1]);
        if (g_ascii_strcasecmp(tok[1], p->st->model->name) != 0)
            return fail(p, "pmu: this stimulus is for '%s', the model is '%s'", tok[1], p->st->model->name);
        return TRUE;
    }
    if (strcmp(cmd, "run") == 0)
        return parse_run(p, tok, n);
    if (strcmp(cmd, "write") == 0 || strcmp(cmd, "read") == 0) {
        gboolean w = cmd[0] == 'w';
        guint32 addr = 0;
        PmsRegSpace space = PMS_SPACE_MSR;
        guint64 v = 0;
        /* "write REG VALUE gp": the write must take #GP */
        gboolean gp = w && n == 4 && strcmp(tok[3], "gp") == 0;
        if (n < 2 || n > (w ? 4 : 3) || (w && n < 3) || (w && n == 4 && !gp))
            return fail(p, w ? "write: expected REGISTER VALUE [gp]" : "read: expected REGISTER [EXPECTED]");
        if (!parse_reg(p, tok[1], &space, &addr))
            return FALSE;
        if (n >= 3 && !parse_value(tok[2], &v))
            return fail(p, "%s: value '%s': expected a 64-bit number (decimal, 0x hex, -N, 2^K[+-N])", cmd, tok[2]);
        Rec *r = append(p->st, w ? PMS_STIM_WRITE : PMS_STIM_READ, p->line);
        r->space = space;
        r->address = addr;
        r->value = v;
        r->check = w ? gp : n == 3;
        return TRUE;
    }
    if (strcmp(cmd, "expect-pmi") == 0) {
        if (n < 2)
            return fail(p, "expect-pmi: expected CYCLE... or none");
        p->st->expect_pmis = TRUE;
        p->st->pmi_line = p->line;
        if (n == 2 && strcmp(tok[1], "none") == 0)
            return TRUE;
        for (guint i = 1; i < n; i++) {
            guint64 c;
            if (!parse_value(tok[i], &c))
                return fail(p, "expect-pmi: '%s': expected a cycle number", tok[i]);
            if (p->st->pmis->len && c <= g_array_index(p->st->pmis, guint64, p->st->pmis->len - 1))
                return fail(p, "expect-pmi: cycles out of order at '%s'", tok[i]);
            g_array_append_val(p->st->pmis, c);
        }
        return TRUE;
    }
    if (strcmp(cmd, "expect-ext") == 0) {
        /* Itanium PMC.ev: the cycle of every external notification, one
         * entry per counter (two counters in one cycle: the cycle twice) */
        if (n < 2)
            return fail(p, "expect-ext: expected CYCLE... or none");
        if (p->st->expect_ext)
            return fail(p, "expect-ext: given twice (line %u)", p->st->ext_line);
        p->st->expect_ext = TRUE;
        p->st->ext_line = p->line;
        if (n == 2 && strcmp(tok[1], "none") == 0)
            return TRUE;
        for (guint i = 1; i < n; i++) {
            guint64 c;
            if (!parse_value(tok[i], &c))
                return fail(p, "expect-ext: '%s': expected a cycle number", tok[i]);
            if (p->st->ext->len && c < g_array_index(p->st->ext, guint64, p->st->ext->len - 1))
                return fail(p, "expect-ext: cycles out of order at '%s'", tok[i]);
            g_array_append_val(p->st->ext, c);
        }
        return TRUE;
    }
    if (sim_stim_pebs_keyword(cmd)) {
        g_autofree char *msg = NULL;
        StimPebs *sp = sim_stim_pebs_parse(p->st->model, tok, n, &msg);
        if (!sp)
            return fail(p, "%s", msg);
        append(p->st, PMS_STIM_PEBS, p->line)->pebs = sp;
        return TRUE;
    }
    return fail(p, "unknown record '%s': expected run, write, read, expect-pmi, expect-ext, pmu, ds, regs, "
                "expect-pebs, expect-record or @CYCLE", cmd);
}

PmsStim *pms_stim_parse(const PmsModel *m, const char *text, gssize len, const char *source, GError **error)
{
    g_autoptr(PmsStim) st = pms_stim_new(m);
    g_free(st->source);
    st->source = g_strdup(source ? source : "<stimulus>");
    g_autofree char *copy = len < 0 ? g_strdup(text) : g_strndup(text, (gsize)len);
    const char *nul = len >= 0 ? memchr(text, 0, (gsize)len) : NULL;
    if (nul) {
        /* name the line and column, like every other error of the format */
        guint line = 1;
        const char *bol = text;
        for (const char *q = text; q < nul; q++)
            if (*q == '\n') {
                line++;
                bol = q + 1;
            }
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS, "%s:%u: column %u: a NUL byte in the text",
                    st->source, line, (guint)(nul - bol) + 1);
        return NULL;
    }
    if (*pms_text_bom_message(text, len < 0 ? strlen(text) : (gsize)len)) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS, "%s:1: %s", st->source,
                    pms_text_bom_message(text, len < 0 ? strlen(text) : (gsize)len));
        return NULL;
    }
    Parser p;
    parser_init(&p, st, m->smt ? 2 : 1, error);
    char *line = copy;
    gboolean ok = TRUE;
    while (ok && line) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        p.line++;
        ok = parse_line(&p, line);
        line = nl ? nl + 1 : NULL;
    }
    parser_clear(&p);
    return ok ? g_steal_pointer(&st) : NULL;
}

PmsStim *pms_stim_load_file(const PmsModel *m, const char *path, GError **error)
{
    g_autofree char *text = NULL;
    gsize len;
    GError *e = NULL;
    if (!pms_read_text_file(path, PMS_TEXT_FILE_MAX, &text, &len, &e)) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS, "%s", e->message);
        g_error_free(e);
        return NULL;
    }
    return pms_stim_parse(m, text, (gssize)len, path, error);
}

/* ---- execution ---------------------------------------------------------------- */

static const char *reg_name(const PmsModel *m, PmsRegSpace space, guint32 addr)
{
    const PmsRegister *r = pms_model_reg_at(m, space, addr);
    return r ? r->name : "?";
}

/* "IA32_PMC0 (0xc1)" for an MSR as always; "PMD4 (pmd 4)" in another space */
static char *reg_label(const PmsModel *m, const Rec *r)
{
    if (r->space == PMS_SPACE_MSR)
        return g_strdup_printf("%s (0x%x)", reg_name(m, r->space, r->address), r->address);
    return g_strdup_printf("%s (%s %u)", reg_name(m, r->space, r->address), pms_reg_space_name(r->space), r->address);
}

/* At most PMI_SHOWN cycles from c[from]: a run of 10^6 cycles with a PMI in
 * each must not make a message of megabytes. */
#define PMI_SHOWN 8

static GString *cycles_str(const guint64 *c, guint n, guint from)
{
    GString *s = g_string_new(n ? "" : "none");
    guint i;
    for (i = from; i < n && i < from + PMI_SHOWN; i++)
        g_string_append_printf(s, "%s%" G_GUINT64_FORMAT, i > from ? " " : "", c[i]);
    if (i < n)
        g_string_append_printf(s, " ... (%u more)", n - i);
    return s;
}

/* what: "PMIs" / "external notifications"; one: "PMI" / "notification" */
static char *cycles_mismatch(const char *what, const char *one, const guint64 *got, guint n, const guint64 *want, guint m)
{
    if (n <= PMI_SHOWN && m <= PMI_SHOWN) {
        g_autoptr(GString) a = cycles_str(got, n, 0);
        g_autoptr(GString) b = cycles_str(want, m, 0);
        return g_strdup_printf("%s at cycles %s, expected %s", what, a->str, b->str);
    }
    guint d = 0;
    while (d < n && d < m && got[d] == want[d])
        d++;
    g_autoptr(GString) a = cycles_str(got, n, MIN(d, n));
    g_autoptr(GString) b = cycles_str(want, m, MIN(d, m));
    return g_strdup_printf("%u %s, expected %u; they differ from %s %u on: cycles %s, expected %s", n, what,
                           m, one, d + 1, d < n ? a->str : "none", d < m ? b->str : "none");
}

/* Records [from, to) on sim. */
static gboolean exec_records(const PmsStim *st, PmsSim *sim, guint from, guint to, GError **error)
{
    for (guint i = from; i < to; i++) {
        const Rec *r = &g_array_index(st->recs, Rec, i);
        GError *e = NULL;
        gboolean ok = TRUE;
        guint64 got = 0;
        switch (r->kind) {
        case PMS_STIM_RUN:
            /* ip=, insn=, daddr=, mesi=, psr=, isa=, fetch=, dear=, iear= and br=
             * hold for this run only (psr=, isa= and fetch= fall back to up+pp,
             * IA-64 and demand) */
            for (guint t = 0; t < PMS_SIM_MAX_THREADS; t++) {
                pms_sim_set_ip(sim, t, r->has_ip[t], r->ip[t]);
                pms_sim_set_insn(sim, t, r->has_insn[t], r->slot[t], r->opcode[t]);
                pms_sim_set_daddr(sim, t, r->has_daddr[t], r->daddr[t]);
                pms_sim_set_mesi(sim, t, r->has_mesi[t], r->mesi[t]);
                pms_sim_set_psr(sim, t, r->psr[t]);
                pms_sim_set_isa(sim, t, r->isa[t]);
                pms_sim_set_prefetch(sim, t, r->fetch[t] != 0);
            }
            pms_sim_set_dear(sim, r->has_dear ? &r->dear : NULL);
            pms_sim_set_iear(sim, r->has_iear ? &r->iear : NULL);
            pms_sim_set_branches(sim, r->br, r->n_br);
            pms_sim_set_lbr_branches(sim, r->lbr, r->n_lbr);
            pms_sim_set_pebs_source(sim, r->has_dse, r->dse);
            ok = pms_sim_run(sim, &r->run, &e);
            break;
        case PMS_STIM_PEBS:
            ok = sim_stim_pebs_exec(r->pebs, sim, &e);
            break;
        case PMS_STIM_WRITE:
            ok = r->space == PMS_SPACE_MSR ? pms_sim_write(sim, r->address, r->value, &e)
                                           : pms_sim_write_at(sim, r->space, r->address, r->value, &e);
            if (r->check) {
                /* an expected #GP: the write must fail, and only with #GP */
                if (ok) {
                    g_autofree char *lab = reg_label(st->model, r);
                    g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MISMATCH,
                                "%s:%u: write 0x%" G_GINT64_MODIFIER "x to %s succeeded, expected #GP",
                                st->source, r->line, r->value, lab);
                    return FALSE;
                }
                if (g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_GP)) {
                    g_clear_error(&e);
                    ok = TRUE;
                }
            }
            break;
        case PMS_STIM_READ:
            ok = pms_sim_read_at(sim, r->space, r->address, &got, &e);
            if (ok && r->check && got != r->value) {
                g_autofree char *lab = reg_label(st->model, r);
                g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MISMATCH,
                            "%s:%u: cycle %" G_GUINT64_FORMAT ": read %s = 0x%" G_GINT64_MODIFIER
                            "x (%" G_GUINT64_FORMAT "), expected 0x%" G_GINT64_MODIFIER "x (%" G_GUINT64_FORMAT ")",
                            st->source, r->line, pms_sim_cycle(sim), lab, got, got, r->value, r->value);
                return FALSE;
            }
            break;
        }
        if (!ok) {
            g_set_error(error, e->domain, e->code, "%s:%u: %s", st->source, r->line, e->message);
            g_error_free(e);
            return FALSE;
        }
    }
    return TRUE;
}

/* After the last record: the expect-pmi / expect-ext lines. */
static gboolean check_expectations(const PmsStim *st, PmsSim *sim, GError **error)
{
    if (st->expect_pmis) {
        guint n;
        const guint64 *got = pms_sim_pmis(sim, &n);
        guint64 total = pms_sim_pmi_total(sim);
        guint listed = MIN(st->pmis->len, PMS_SIM_PMI_LISTED);
        if (total != st->pmis->len || n != listed ||
            (n && memcmp(got, st->pmis->data, n * sizeof(guint64)) != 0)) {
            /* beyond the first PMS_SIM_PMI_LISTED only the total is known */
            g_autofree char *msg = total != n
                ? g_strdup_printf("%" G_GUINT64_FORMAT " PMIs, expected %u", total, st->pmis->len)
                : cycles_mismatch("PMIs", "PMI", got, n, (const guint64 *)(void *)st->pmis->data, st->pmis->len);
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MISMATCH, "%s:%u: %s", st->source, st->pmi_line, msg);
            return FALSE;
        }
    }
    if (st->expect_ext) {
        guint n;
        guint64 total;
        const guint64 *got = pms_sim_ext_notifications(sim, &n, &total);
        const guint64 *want = (const guint64 *)(void *)st->ext->data;
        guint m = st->ext->len, listed = MIN(m, PMS_SIM_EXT_LISTED);
        if (total != m || n != listed || (n && memcmp(got, want, n * sizeof(guint64)) != 0)) {
            /* beyond the first PMS_SIM_EXT_LISTED only the total is known */
            g_autofree char *msg = total != n
                ? g_strdup_printf("%" G_GUINT64_FORMAT " external notifications, expected %u", total, m)
                : cycles_mismatch("external notifications", "notification", got, n, want, m);
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MISMATCH, "%s:%u: %s", st->source, st->ext_line, msg);
            return FALSE;
        }
    }
    return TRUE;
}

gboolean pms_stim_execute(const PmsStim *st, PmsSim *sim, GError **error)
{
    return exec_records(st, sim, 0, st->recs->len, error) && check_expectations(st, sim, error);
}

/* A stimulus file run as it is read: each line is parsed and its record
 * executed at once, and the executed records are dropped, so memory stays
 * bounded whatever the file's length (a stimulus of 10^7 runs).  Lines are
 * read up to PMS_STIM_LINE_MAX. */
#define PMS_STIM_LINE_MAX (16u * 1024 * 1024)

gboolean pms_stim_run_file(const PmsModel *m, const char *path, PmsSim *sim, GError **error)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        int e = errno;
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS, "%s: %s", path, g_strerror(e));
        return FALSE;
    }
    g_autoptr(PmsStim) st = pms_stim_new(m);
    g_free(st->source);
    st->source = g_strdup(path);
    Parser p;
    parser_init(&p, st, m->smt ? 2 : 1, error);
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    gboolean ok = TRUE;
    guint done = 0;
    while (ok && (len = getline(&buf, &cap, f)) >= 0) {
        p.line++;
        if ((size_t)len > PMS_STIM_LINE_MAX) {
            ok = fail(&p, "line of %zd bytes: at most %u", len, PMS_STIM_LINE_MAX);
            break;
        }
        if (memchr(buf, 0, (size_t)len)) {
            ok = fail(&p, "contains a NUL byte");
            break;
        }
        if (p.line == 1 && *pms_text_bom_message(buf, (gsize)len)) {
            ok = fail(&p, "%s", pms_text_bom_message(buf, (gsize)len));
            break;
        }
        if (len > 0 && buf[len - 1] == '\n')
            buf[--len] = 0;
        ok = parse_line(&p, buf) && exec_records(st, sim, done, st->recs->len, error);
        done = st->recs->len;
        if (done >= 1024) { /* executed: drop them (their run arrays too) */
            g_array_set_size(st->recs, 0);
            done = 0;
        }
    }
    if (ok && ferror(f)) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS, "%s: read error: %s", path, g_strerror(errno));
        ok = FALSE;
    }
    free(buf);
    fclose(f);
    parser_clear(&p);
    return ok && check_expectations(st, sim, error);
}
