/* pmusim — stimulus records, their text format (docs/stimulus-format.md) and
 * their execution on a simulator instance.  One line is one record; every
 * error names source:line and what was expected there. */
#include "stimulus.h"
#include "sim_input.h"
#include "stim_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    PmsStimKind kind;
    guint line;
    guint64 cycle;
    PmsRegSpace space; /* write/read: the register's space (MSR unless named otherwise) */
    guint32 address;
    guint64 value;
    gboolean check;
    PmsSimRun run;     /* arrays owned, unless borrowed */
    gboolean borrowed; /* run's arrays are the parser's scratch (the streaming reader) */
    /* run: the model's device's inputs (sim_input.h: ip=, psr=, branch= ...),
     * NULL when the run gives none (every input at its default) */
    const SimRunInputs *in;
    gpointer input;
    /* a device's record (ds, regs, expect-pebs, expect-record: stim_pebs.c) */
    const SimStimRecordType *type;
    gpointer data;
} Rec;

struct PmsStim {
    const PmsModel *model;
    char *source;
    GArray *recs; /* Rec */
    guint64 end;  /* cycle after the last run */
    gboolean expect_pmis;
    GArray *pmis; /* guint64 */
    guint pmi_line;
    gboolean expect_ext; /* expect-ext: the external notifications' cycles */
    GArray *ext;         /* guint64, non-decreasing */
    guint ext_line;
    guint8 cpl[PMS_SIM_MAX_THREADS]; /* parser: sticky CPL */
    const SimDeviceOps *dev;         /* the model's device (its run keys); NULL: not simulated */
};

static void rec_clear(gpointer p)
{
    Rec *r = p;
    if (!r->borrowed) {
        g_free((gpointer)r->run.counts);
        g_free((gpointer)r->run.offcore);
        g_free((gpointer)r->run.loads);
    }
    if (r->input)
        sim_input_free(r->in, r->input);
    if (r->data)
        r->type->free(r->data);
}

PmsStim *pms_stim_new(const PmsModel *m)
{
    PmsStim *st = g_new0(PmsStim, 1);
    st->model = m;
    st->dev = sim_device_for(m);
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

/* borrow: keep run's arrays (the streaming parser's scratch, executed
 * before they change) instead of copies */
static Rec *add_run(PmsStim *st, const PmsSimRun *run, guint line, gboolean borrow)
{
    Rec *r = append(st, PMS_STIM_RUN, line);
    r->run = *run;
    st->end += run->cycles;
    if (borrow) {
        r->borrowed = TRUE;
        return r;
    }
    r->run.counts = run->n_counts ? g_memdup2(run->counts, sizeof(PmsSimCount) * run->n_counts) : NULL;
    r->run.offcore = run->n_offcore ? g_memdup2(run->offcore, sizeof(PmsSimOffcore) * run->n_offcore) : NULL;
    r->run.loads = run->n_loads ? g_memdup2(run->loads, sizeof(PmsSimLoad) * run->n_loads) : NULL;
    return r;
}

void pms_stim_add_run(PmsStim *st, const PmsSimRun *run)
{
    add_run(st, run, 0, FALSE);
}

void pms_stim_expect_pmis(PmsStim *st, const guint64 *cycles, guint n)
{
    st->expect_pmis = TRUE;
    g_array_append_vals(st->pmis, cycles, n);
}

guint64 pms_stim_end_cycle(const PmsStim *st)
{
    return st->end;
}
guint pms_stim_n_records(const PmsStim *st)
{
    return st->recs->len;
}

void pms_stim_record(const PmsStim *st, guint i, PmsStimRecord *out)
{
    const Rec *r = &g_array_index(st->recs, Rec, i);
    *out = (PmsStimRecord){
        r->kind, r->line, r->cycle, r->address, r->value, r->check, r->kind == PMS_STIM_RUN ? &r->run : NULL, r->space
    };
}

/* ---- names ------------------------------------------------------------------ */

gboolean pms_stim_signal_key(const PmsModel *m, const char *name, guint32 *key, GError **error)
{
    g_auto(GStrv) parts = g_strsplit_set(name, ".:", 2);
    guint64 code, umask;
    if (parts[0] && parts[1] && sim_parse_u64(parts[0], &code) && sim_parse_u64(parts[1], &umask)) {
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
                    "unknown signal '%s': expected CODE.UMASK (e.g. 0xc0.0x00) or EVENT.UMASK of model %s", name,
                    m->name);
        return FALSE;
    }
    if (ev->flags & PMS_EVENT_OFFCORE) {
        if (parts[1]) {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS,
                        "signal '%s': offcore unit masks select OFFCORE_RSP bits; give transactions "
                        "with offcore=REQ/RESP instead",
                        name);
            return FALSE;
        }
        *key = PMS_SIGNAL_KEY(ev->code & 0xff, ev->base_umask);
        return TRUE;
    }
    const PmsUmask *um = NULL;
    if (parts[1]) {
        um = pms_event_umask(ev, parts[1]);
        if (!um) {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS, "signal '%s': event %s has no unit mask '%s'",
                        name, ev->name, parts[1]);
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

typedef struct StimTables StimTables; /* the run keys and record keywords (below) */
typedef struct StimKey StimKey;

/* ---- the run tokens' keys, resolved once ------------------------------------- */

/* A run token's key (its text before '='), as the first token that gave it
 * resolved it: a run key (generic or a device's), or a signal of the model,
 * [UNITn/]NAME.  A stimulus repeats a few keys millions of times: each token
 * costs one hash, computed while its '=' is searched, and one probe. */
typedef struct {
    char *text;
    guint len;
    guint32 hash;
    const StimKey *key; /* NULL: a signal */
    guint32 sig;        /* a signal: its key, */
    guint box;          /* its box + 1 (0: the model's own), */
    guint name_off;     /* and where NAME starts, after any UNITn/ */
} TokEntry;

/* Open addressing, at most TOK_MAX keys (a stimulus of distinct names
 * keeps its memory bounded: the others are resolved each time). */
enum { TOK_MAX = 4096, TOK_SLOTS = 2 * TOK_MAX };

typedef struct TokCache {
    guint n;
    TokEntry *slot[TOK_SLOTS];
} TokCache;

static TokCache *tok_cache_new(void)
{
    return g_new0(TokCache, 1);
}

static void tok_cache_free(TokCache *c)
{
    for (guint i = 0; i < TOK_SLOTS; i++)
        if (c->slot[i]) {
            g_free(c->slot[i]->text);
            g_free(c->slot[i]);
        }
    g_free(c);
}

/* A key's hash from its length and its first and last 8 bytes (a byte
 * loop is a chain of multiplies as long as the key: the parser's most
 * expensive step); keys that share them only share a probe sequence. */
static guint32 tok_hash(const char *text, guint len)
{
    guint64 a = 0, b = 0;
    memcpy(&a, text, MIN(len, 8u));
    if (len > 8)
        memcpy(&b, text + len - 8, 8);
    guint64 h = (a * 0x9e3779b97f4a7c15u) ^ (b * 0xc2b2ae3d27d4eb4fu) ^ len;
    return (guint32)(h ^ h >> 29 ^ h >> 47);
}

static const TokEntry *tok_cache_get(const TokCache *c, const char *text, guint len, guint32 hash)
{
    for (guint i = hash & (TOK_SLOTS - 1);; i = (i + 1) & (TOK_SLOTS - 1)) {
        const TokEntry *e = c->slot[i];
        if (!e)
            return NULL;
        if (e->hash == hash && e->len == len && memcmp(e->text, text, len) == 0)
            return e;
    }
}

/* e (text and len set) kept; the kept copy, or e itself when the cache is full */
static const TokEntry *tok_cache_put(TokCache *c, const TokEntry *e)
{
    if (c->n >= TOK_MAX)
        return e;
    guint i = e->hash & (TOK_SLOTS - 1);
    while (c->slot[i])
        i = (i + 1) & (TOK_SLOTS - 1);
    TokEntry *k = g_memdup2(e, sizeof *e);
    k->text = g_strndup(e->text, e->len);
    c->slot[i] = k;
    c->n++;
    return k;
}
static const StimTables *stim_tables(void);
static guint stim_key_slots(void);

typedef struct {
    PmsStim *st;
    const char *source;
    guint line;
    guint threads;
    GError **error;
    /* scratch reused by every run line (no allocation per record), and the
     * signal names resolved so far (a long stimulus repeats a few) */
    /* at most a line's fields: one offcore or load, or a count per thread,
     * a token */
    PmsSimCount *counts;
    PmsSimOffcore *oc;
    PmsSimLoad *loads;
    guint n_counts, n_oc, n_loads;
    /* streaming (pms_stim_reader_run): a run's arrays are the scratch
     * above, executed before the next line is parsed (no copy per run) */
    gboolean borrow;
    /* the run tokens' keys seen so far (TokCache, below): one lookup a token */
    struct TokCache *tokens;
    const struct StimRecordKw *last_kw; /* the last line's record keyword */
    guint dev_index;                    /* the model's device in sim_devices() (its run keys); past the end: none */
    /* the device keys given in the current run: key_count[slot] counts
     * for run run_gen when key_gen[slot] is run_gen (no clearing per run) */
    guint run_gen;
    guint *key_gen, *key_count;
    guint cpl_gen; /* run_gen of the run that gave cpl= */
    /* UNITn/: the boxes of the model's unit (a register of that unit and
     * instance), found at the first UNITn/ token */
    gboolean have_boxes;
    guint64 boxes[1024 / 64];
} Parser;

static void parser_init(Parser *p, PmsStim *st, guint threads, GError **error)
{
    memset(p, 0, sizeof *p);
    p->st = st;
    p->source = st->source;
    p->threads = threads;
    p->error = error;
    p->counts = g_new(PmsSimCount, PMS_STIM_MAX_FIELDS * PMS_SIM_MAX_THREADS);
    p->oc = g_new(PmsSimOffcore, PMS_STIM_MAX_FIELDS);
    p->loads = g_new(PmsSimLoad, PMS_STIM_MAX_FIELDS);
    p->tokens = tok_cache_new();
    guint n_dev;
    const SimDeviceOps *const *dev = sim_devices(&n_dev);
    p->dev_index = G_MAXUINT;
    for (guint d = 0; d < n_dev; d++)
        if (dev[d] == st->dev)
            p->dev_index = d;
    guint n_slots = stim_key_slots();
    p->key_gen = g_new0(guint, n_slots + 1);
    p->key_count = g_new0(guint, n_slots + 1);
}

static void parser_clear(Parser *p)
{
    g_free(p->counts);
    g_free(p->oc);
    g_free(p->loads);
    tok_cache_free(p->tokens);
    g_free(p->key_gen);
    g_free(p->key_count);
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
    const char *token = s; /* the user's whole token, prefix included, for the message */
    const char *colon = strchr(s, ':');
    *space = PMS_SPACE_MSR;
    if (colon) {
        g_autofree char *sp = g_strndup(s, (gsize)(colon - s));
        if (!pms_reg_space_from_name(sp, space))
            return fail(p, "register '%s': unknown register space '%s': expected msr, pmc, pmd, ibr or dbr", s, sp);
        s = colon + 1;
    }
    if (sim_parse_u64(s, &v) && v <= G_MAXUINT32) {
        *addr = (guint32)v;
        return TRUE;
    }
    return fail(p,
                "unknown register '%s': expected a register name of model %s, an address or SPACE:NUMBER "
                "(e.g. pmd:4)",
                token, m->name);
}

/* V0[,V1]: *n values, one per thread, each 0..max; read in place (the
 * token is not cut, the messages quote it whole or the bad value). */
static gboolean parse_thread_list(Parser *p, const char *what, const char *s, guint64 max, guint64 *vals, guint *n_out)
{
    guint n = *s ? 1 : 0;
    for (const char *q = s; *q; q++)
        n += *q == ',';
    if (n == 0 || n > p->threads)
        return fail(p, "%s: expected 1..%u comma-separated values (one per thread), got '%s'", what, p->threads, s);
    const char *a = s;
    for (guint t = 0; t < n; t++) {
        const char *b = a;
        while (*b && *b != ',')
            b++;
        if (!sim_parse_u64_n(a, (gsize)(b - a), &vals[t]) || vals[t] > max)
            return fail(p, "%s: value '%.*s' for thread %u: expected a number 0..%" G_GUINT64_FORMAT, what,
                        (int)(b - a), a, t, max);
        a = b + 1;
    }
    *n_out = n;
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
        if (!sim_parse_u64(at, &t) || t >= p->threads)
            return fail(p, "%s: thread '@%s': expected 0..%u", what, at, p->threads - 1);
    }
    if ((star = strchr(buf, '*'))) {
        *star++ = 0;
        if (!sim_parse_u64(star, count) || *count > G_MAXUINT32)
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
        if (sim_parse_u64(names[i], &v)) {
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
            return fail(p, "%s: '%s' is neither a number nor a unit mask of an offcore event of %s", what, names[i],
                        m->name);
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

/* ---- run keys ---------------------------------------------------------------- */

/* Every `key=value` token of a run that is not a signal: the generic ones
 * below (what PmsSimRun carries) and the run keys each device registers
 * (SimDeviceOps.inputs, sim_input.h), in one table built once.  A device
 * key's field is the model's device's when it has the key, else the value
 * is only checked (with the first device's parser that has it). */
enum { STIM_MAX_DEVICES = 8 };

typedef gboolean (*StimKeyFn)(Parser *p, char *key, const char *val);

struct StimKey {
    const char *name;
    StimKeyFn generic;                      /* a generic key; NULL: a device's */
    guint slot;                             /* its count in the run (the once and max rules) */
    const SimRunKey *dev[STIM_MAX_DEVICES]; /* each device's entry (sim_devices order), NULL */
    const SimRunKey *any;                   /* the first one: the rules, and the others' syntax */
    const SimRunInputs *any_in;
};

/* A record keyword: a generic one (run, write ...) or a device's. */
typedef gboolean (*StimRecordFn)(Parser *p, char **tok, guint n);

typedef struct StimRecordKw {
    const char *name;
    StimRecordFn generic;
    const SimStimRecordType *type;
} StimRecordKw;

struct StimTables {
    GHashTable *keys;    /* name -> StimKey */
    GHashTable *records; /* name -> StimRecordKw */
    guint n_slots;
    char *records_list; /* "run, write, ..., expect-record" for the unknown-record message */
};

/* cpl=C0[,C1]: sticky; threads not listed take the last value given */
static gboolean key_cpl(Parser *p, char *key, const char *val)
{
    (void)key;
    if (p->cpl_gen == p->run_gen)
        return fail(p, "cpl: given twice in one run");
    p->cpl_gen = p->run_gen;
    guint64 v[PMS_SIM_MAX_THREADS] = { 0 };
    guint n, last = 0;
    if (!parse_thread_list(p, "cpl", val, 3, v, &n))
        return FALSE;
    for (guint t = 0; t < PMS_SIM_MAX_THREADS; t++) {
        if (t < n)
            last = t;
        p->st->cpl[t] = (guint8)v[last];
    }
    return TRUE;
}

/* offcore=REQ/RESP[*COUNT][@THREAD], inflight=REQ[*COUNT][@THREAD] */
static gboolean key_offcore(Parser *p, char *key, const char *val)
{
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
        return fail(p,
                    "inflight: model %s has no offcore OUTSTANDING unit mask to count "
                    "requests in flight",
                    p->st->model->name);
    if (!parse_oc_bits(p, key, item, &t.req) || (slash && !parse_oc_bits(p, key, slash, &t.resp)))
        return FALSE;
    t.inflight = infl;
    p->oc[p->n_oc++] = t;
    return TRUE;
}

/* load=LATENCY[*COUNT][@THREAD] */
static gboolean key_load(Parser *p, char *key, const char *val)
{
    g_autofree char *item = NULL;
    PmsSimLoad l = { 0 };
    guint64 lat;
    if (!split_item(p, key, val, &item, &l.count, &l.thread))
        return FALSE;
    if (!sim_parse_u64(item, &lat) || lat > G_MAXUINT32)
        return fail(p, "load: expected LATENCY[*COUNT][@THREAD] with a latency below 2^32, got '%s'", val);
    l.latency = (guint32)lat;
    p->loads[p->n_loads++] = l;
    return TRUE;
}

/* Whether the model has box n of its unit (the loader takes instances up to
 * 1023): a signal of a box it has not would be dropped. */
static gboolean has_box(Parser *p, guint n)
{
    const PmsModel *m = p->st->model;
    if (!p->have_boxes) {
        for (guint i = 0; i < m->n_regs; i++) {
            const PmsRegister *r = &m->regs[i];
            if (r->unit && r->instance < 1024 && g_ascii_strcasecmp(r->unit, m->unit) == 0)
                p->boxes[r->instance / 64] |= (guint64)1 << (r->instance % 64);
        }
        p->have_boxes = TRUE;
    }
    return n < 1024 && (p->boxes[n / 64] >> (n % 64) & 1);
}

/* "cbox0..cbox7" (runs of consecutive boxes joined), "none" */
static char *box_list(Parser *p)
{
    const char *u = p->st->model->unit;
    GString *s = g_string_new(NULL);
    for (guint n = 0; n < 1024; n++) {
        if (!has_box(p, n))
            continue;
        guint last = n;
        while (last + 1 < 1024 && has_box(p, last + 1))
            last++;
        g_string_append_printf(s, "%s%s%u", s->len ? ", " : "", u, n);
        if (last > n)
            g_string_append_printf(s, "%s%s%u", last > n + 1 ? ".." : ", ", u, last);
        n = last;
    }
    if (!s->len)
        g_string_append(s, "none");
    return g_string_free(s, FALSE);
}

/* Any other key: a signal, [UNITn/]NAME (UNITn/: the signal of another box
 * of the model's unit), resolved into e (sig, box, name_off); the key's
 * text is as it was on success. */
static gboolean resolve_signal(Parser *p, char *key, TokEntry *e)
{
    GError *err = NULL;
    guint box = 0;
    const char *name = key; /* the signal's name, after any UNITn/ */
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
        if (!has_box(p, (guint)inst)) {
            g_autofree char *list = box_list(p);
            return fail(p, "'%s/': model %s has no box %s%u: its boxes are %s", key, m->name, m->unit, (guint)inst,
                        list);
        }
        box = (guint)inst + 1;
        name = slash + 1;
    }
    if (!pms_stim_signal_key(p->st->model, name, &e->sig, &err)) {
        fail(p, "%s", err->message);
        g_error_free(err);
        return FALSE;
    }
    if (slash)
        *slash = '/';
    e->key = NULL;
    e->box = box;
    e->name_off = (guint)(name - key);
    return TRUE;
}

/* A signal's value, N0[,N1]: occurrences per cycle per thread. */
static gboolean key_signal(Parser *p, const char *name, const TokEntry *e, const char *val)
{
    guint64 v[PMS_SIM_MAX_THREADS] = { 0 };
    guint n;
    if (!parse_thread_list(p, name, val, G_MAXUINT32, v, &n))
        return FALSE;
    for (guint t = 0; t < p->threads; t++) {
        if (!v[t])
            continue;
        p->counts[p->n_counts++] = (PmsSimCount){ e->sig, t, v[t], e->box };
    }
    return TRUE;
}

/* A device's key: the generic rules (given twice, at most max per run: one
 * message each, from the key's entry), then its parser into the model's
 * device's block for this run (made at its first key), or into a scratch
 * block of the key's owner when the model's device does not read it. */
static gboolean key_device(Parser *p, const StimKey *k, const char *key, const char *val, gpointer *input)
{
    const SimRunKey *own = p->dev_index < STIM_MAX_DEVICES ? k->dev[p->dev_index] : NULL;
    const SimRunKey *rule = own ? own : k->any;
    guint given = p->key_gen[k->slot] == p->run_gen ? p->key_count[k->slot] : 0;
    /* one rule: a key of one value (not a list) is given at most once */
    if (!rule->elem && given)
        return fail(p, "%s: given twice in one run%s", key, rule->twice_hint ? rule->twice_hint : "");
    if (rule->elem && given >= rule->max)
        return fail(p, "%s: at most %u %s per run", key, rule->max, rule->max_what);
    GError *e = NULL;
    gboolean ok;
    if (own) {
        if (!*input)
            *input = sim_input_new(p->st->dev->inputs);
        ok = own->parse(p->st->model, val, sim_input_field(*input, own), &e);
    } else {
        gpointer scratch = sim_input_new(k->any_in);
        ok = k->any->parse(p->st->model, val, sim_input_field(scratch, k->any), &e);
        sim_input_free(k->any_in, scratch);
    }
    if (!ok) {
        fail(p, "%s", e->message);
        g_error_free(e);
        return FALSE;
    }
    p->key_gen[k->slot] = p->run_gen;
    p->key_count[k->slot] = given + 1;
    return TRUE;
}

static gboolean run_tokens(Parser *p, char **tok, guint ntok, gpointer *input)
{
    for (guint i = 2; i < ntok; i++) {
        char *key = tok[i], *eq = strchr(key, '=');
        if (!eq || eq == key || !eq[1])
            return fail(p, "run: expected NAME=VALUE, got '%s'", key);
        *eq = 0; /* the token is the line's own copy: split in place */
        const char *val = eq + 1;
        guint len = (guint)(eq - key);
        guint32 h = tok_hash(key, len);
        const TokEntry *e = tok_cache_get(p->tokens, key, len, h);
        TokEntry fresh = { key, len, h, NULL, 0, 0, 0 };
        if (!e) {
            /* first sight: a run key, else a signal of the model */
            fresh.key = g_hash_table_lookup(stim_tables()->keys, key);
            if (!fresh.key && !resolve_signal(p, key, &fresh))
                return FALSE;
            e = tok_cache_put(p->tokens, &fresh);
        }
        const StimKey *k = e->key;
        gboolean ok = !k ? key_signal(p, key + e->name_off, e, val)
            : k->generic ? k->generic(p, key, val)
                         : key_device(p, k, key, val, input);
        if (!ok)
            return FALSE;
    }
    return TRUE;
}

static gboolean parse_run(Parser *p, char **tok, guint ntok)
{
    guint64 cycles;
    if (ntok >= 2 && tok[1][0] == '-')
        return fail(p, "run: a cycle count cannot be negative, got '%s'", tok[1]);
    if (ntok < 2 || !sim_parse_value(tok[1], &cycles) || cycles == 0)
        return fail(p, "run: expected a number of cycles >= 1, got '%s'", ntok > 1 ? tok[1] : "");
    if (cycles > G_MAXINT64 || p->st->end > G_MAXINT64 - cycles)
        return fail(p, "run: the stimulus would exceed 2^63 cycles");
    p->n_counts = p->n_oc = p->n_loads = 0;
    p->run_gen++;
    gpointer input = NULL;
    if (!run_tokens(p, tok, ntok, &input)) {
        if (input)
            sim_input_free(p->st->dev->inputs, input);
        return FALSE;
    }
    PmsSimRun run = { cycles,
                      { 0 },
                      p->n_counts ? p->counts : NULL,
                      p->n_counts,
                      p->n_oc ? p->oc : NULL,
                      p->n_oc,
                      p->n_loads ? p->loads : NULL,
                      p->n_loads };
    memcpy(run.cpl, p->st->cpl, sizeof run.cpl);
    Rec *r = add_run(p->st, &run, p->line, p->borrow);
    if (input) {
        r->in = p->st->dev->inputs;
        r->input = input;
    }
    return TRUE;
}

/* ---- records ------------------------------------------------------------------ */

static gboolean rec_pmu(Parser *p, char **tok, guint n)
{
    if (n < 2)
        return fail(p, "pmu: expected the model's name (%s)", p->st->model->name);
    if (n > 2)
        return fail(p, "pmu: extra word '%s' after the name '%s': expected one name", tok[2], tok[1]);
    if (g_ascii_strcasecmp(tok[1], p->st->model->name) != 0)
        return fail(p, "pmu: this stimulus is for '%s', the model is '%s'", tok[1], p->st->model->name);
    return TRUE;
}

static gboolean rec_write_read(Parser *p, char **tok, guint n)
{
    const char *cmd = tok[0];
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
    if (n >= 3 && !sim_parse_value(tok[2], &v))
        return fail(p, "%s: value '%s': expected a 64-bit number (decimal, 0x hex, -N, 2^K[+-N])", cmd, tok[2]);
    Rec *r = append(p->st, w ? PMS_STIM_WRITE : PMS_STIM_READ, p->line);
    r->space = space;
    r->address = addr;
    r->value = v;
    r->check = w ? gp : n == 3;
    return TRUE;
}

static gboolean rec_expect_pmi(Parser *p, char **tok, guint n)
{
    if (n < 2)
        return fail(p, "expect-pmi: expected CYCLE... or none");
    p->st->expect_pmis = TRUE;
    p->st->pmi_line = p->line;
    if (n == 2 && strcmp(tok[1], "none") == 0)
        return TRUE;
    for (guint i = 1; i < n; i++) {
        guint64 c;
        if (tok[i][0] == '-')
            return fail(p, "expect-pmi: a cycle cannot be negative, got '%s'", tok[i]);
        if (!sim_parse_value(tok[i], &c))
            return fail(p, "expect-pmi: '%s': expected a cycle number", tok[i]);
        if (p->st->pmis->len && c <= g_array_index(p->st->pmis, guint64, p->st->pmis->len - 1))
            return fail(p, "expect-pmi: cycles out of order at '%s'", tok[i]);
        g_array_append_val(p->st->pmis, c);
    }
    return TRUE;
}

/* Itanium PMC.ev: the cycle of every external notification, one entry per
 * counter (two counters in one cycle: the cycle twice) */
static gboolean rec_expect_ext(Parser *p, char **tok, guint n)
{
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
        if (tok[i][0] == '-')
            return fail(p, "expect-ext: a cycle cannot be negative, got '%s'", tok[i]);
        if (!sim_parse_value(tok[i], &c))
            return fail(p, "expect-ext: '%s': expected a cycle number", tok[i]);
        if (p->st->ext->len && c < g_array_index(p->st->ext, guint64, p->st->ext->len - 1))
            return fail(p, "expect-ext: cycles out of order at '%s'", tok[i]);
        g_array_append_val(p->st->ext, c);
    }
    return TRUE;
}

/* A device's record (stim_pebs.c's ds, regs, expect-pebs, expect-record). */
static gboolean rec_device(Parser *p, const SimStimRecordType *type, char **tok, guint n)
{
    g_autofree char *msg = NULL;
    gpointer data = type->parse(p->st->model, tok, n, &msg);
    if (!data)
        return fail(p, "%s", msg);
    Rec *r = append(p->st, type->kind, p->line);
    r->type = type;
    r->data = data;
    return TRUE;
}

static const struct {
    const char *name;
    StimKeyFn fn;
} generic_keys[] = {
    { "cpl", key_cpl },
    { "offcore", key_offcore },
    { "inflight", key_offcore },
    { "load", key_load },
};

static const StimRecordKw generic_records[] = {
    { "run", parse_run, NULL },
    { "write", rec_write_read, NULL },
    { "read", rec_write_read, NULL },
    { "expect-pmi", rec_expect_pmi, NULL },
    { "expect-ext", rec_expect_ext, NULL },
    { "pmu", rec_pmu, NULL },
};

static gpointer build_tables(gpointer unused)
{
    (void)unused;
    StimTables *tab = g_new0(StimTables, 1);
    tab->keys = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
    tab->records = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
    for (guint i = 0; i < G_N_ELEMENTS(generic_keys); i++) {
        StimKey *k = g_new0(StimKey, 1);
        k->name = generic_keys[i].name;
        k->generic = generic_keys[i].fn;
        g_hash_table_insert(tab->keys, (gpointer)k->name, k);
    }
    GString *list = g_string_new(NULL);
    for (guint i = 0; i < G_N_ELEMENTS(generic_records); i++) {
        g_hash_table_insert(tab->records, (gpointer)generic_records[i].name,
                            g_memdup2(&generic_records[i], sizeof generic_records[i]));
        g_string_append_printf(list, "%s%s", i ? ", " : "", generic_records[i].name);
    }
    guint n_dev;
    const SimDeviceOps *const *dev = sim_devices(&n_dev);
    g_assert(n_dev <= STIM_MAX_DEVICES);
    for (guint d = 0; d < n_dev; d++) {
        const SimRunInputs *in = dev[d]->inputs;
        for (guint i = 0; in && i < in->n_keys; i++) {
            const SimRunKey *rk = &in->keys[i];
            StimKey *k = g_hash_table_lookup(tab->keys, rk->name);
            if (!k) {
                k = g_new0(StimKey, 1);
                k->name = rk->name;
                k->slot = tab->n_slots++;
                k->any = rk;
                k->any_in = in;
                g_hash_table_insert(tab->keys, (gpointer)k->name, k);
            }
            g_assert(!k->generic);
            k->dev[d] = rk;
        }
        for (const SimStimRecordType *const *t = dev[d]->records; t && *t; t++) {
            if (g_hash_table_contains(tab->records, (*t)->name))
                continue;
            StimRecordKw kw = { (*t)->name, NULL, *t };
            g_hash_table_insert(tab->records, (gpointer)kw.name, g_memdup2(&kw, sizeof kw));
            g_string_append_printf(list, ", %s", (*t)->name);
        }
    }
    tab->records_list = g_string_free(list, FALSE);
    return tab;
}

static const StimTables *stim_tables(void)
{
    static GOnce once = G_ONCE_INIT;
    return g_once(&once, build_tables, NULL);
}

static guint stim_key_slots(void)
{
    return stim_tables()->n_slots;
}

/* A line's bytes for split_fields: a blank, the end of the line (NUL, or a
 * '#' and its comment), or a field's. */
enum { CH_FIELD, CH_BLANK, CH_END };
static const guint8 ch_class[256] = {
    [0] = CH_END, ['#'] = CH_END, [' '] = CH_BLANK, ['\t'] = CH_BLANK, ['\r'] = CH_BLANK
};

/* A line's fields, split in place at blanks (space, tab, CR), up to a '#';
 * FALSE when there are more than `max`.  One pass over the line. */
static gboolean split_fields(char *text, char **tok, guint max, guint *n)
{
    *n = 0;
    for (char *q = text;;) {
        while (ch_class[(guchar)*q] == CH_BLANK)
            q++;
        if (ch_class[(guchar)*q] == CH_END) {
            *q = 0;
            return TRUE;
        }
        if (*n == max)
            return FALSE;
        tok[(*n)++] = q;
        while (ch_class[(guchar)*q] == CH_FIELD)
            q++;
        if (ch_class[(guchar)*q] == CH_END) {
            *q = 0;
            return TRUE;
        }
        *q++ = 0;
    }
}

/* strcmp() == 0 for a short word, without a call */
static inline gboolean same_word(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

static gboolean parse_line(Parser *p, char *text)
{
    char *tok[PMS_STIM_MAX_FIELDS];
    guint n;
    if (!split_fields(text, tok, G_N_ELEMENTS(tok), &n))
        return fail(p, "too many fields on one line (at most %u)", (guint)G_N_ELEMENTS(tok));
    if (n == 0)
        return TRUE;
    if (tok[0][0] == '@') {
        guint64 at;
        if (tok[0][1] == '-')
            return fail(p, "@CYCLE: a cycle cannot be negative, got '%s'", tok[0]);
        if (!sim_parse_value(tok[0] + 1, &at) || at > G_MAXINT64)
            return fail(p, "expected @CYCLE, got '%s'", tok[0]);
        if (at < p->st->end)
            return fail(p,
                        "cycles out of order: @%" G_GUINT64_FORMAT
                        " but the stimulus is already at cycle %" G_GUINT64_FORMAT,
                        at, p->st->end);
        if (at > p->st->end) {
            /* the gap runs idle: no occurrences, the current CPL */
            PmsSimRun idle = { at - p->st->end, { 0 }, NULL, 0, NULL, 0, NULL, 0 };
            memcpy(idle.cpl, p->st->cpl, sizeof idle.cpl);
            add_run(p->st, &idle, p->line, FALSE);
        }
        if (n == 1)
            return fail(p, "expected a record (run, write, read) after '%s'", tok[0]);
        memmove(tok, tok + 1, (n - 1) * sizeof tok[0]);
        n--;
    }
    const StimTables *tab = stim_tables();
    /* a stimulus is mostly one record after another of one kind: the last
     * one's keyword first, then the table */
    const StimRecordKw *kw =
        p->last_kw && same_word(tok[0], p->last_kw->name) ? p->last_kw : g_hash_table_lookup(tab->records, tok[0]);
    if (!kw)
        return fail(p, "unknown record '%s': expected %s or @CYCLE", tok[0], tab->records_list);
    p->last_kw = kw;
    return kw->generic ? kw->generic(p, tok, n) : rec_device(p, kw->type, tok, n);
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
    if (!stim_read_whole(path, PMS_TEXT_FILE_MAX, &text, &len, error))
        return NULL;
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
static char *cycles_mismatch(const char *what, const char *one, const guint64 *got, guint n, const guint64 *want,
                             guint m)
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
    return g_strdup_printf("%u %s, expected %u; they differ from %s %u on: cycles %s, expected %s", n, what, m, one,
                           d + 1, d < n ? a->str : "none", d < m ? b->str : "none");
}

/* Records [from, to) on sim.  *at_defaults: the device's run inputs are
 * known to be at their defaults (the last record run was a run without
 * inputs, and a run never changes them): a run without inputs need not
 * reset them again. */
static gboolean exec_records(const PmsStim *st, PmsSim *sim, guint from, guint to, gboolean *at_defaults,
                             GError **error)
{
    for (guint i = from; i < to; i++) {
        const Rec *r = &g_array_index(st->recs, Rec, i);
        GError *e = NULL;
        gboolean ok = TRUE;
        guint64 got = 0;
        switch (r->kind) {
        case PMS_STIM_RUN:
            /* the device's inputs hold for this run only: those it does
             * not give are back at their defaults */
            if (r->input || !*at_defaults)
                sim_run_input(sim, r->in, r->input);
            *at_defaults = !r->input;
            ok = pms_sim_run(sim, &r->run, &e);
            break;
        case PMS_STIM_PEBS:
            *at_defaults = FALSE; /* a device's record: whatever it does */
            ok = r->type->exec(r->data, sim, &e);
            break;
        case PMS_STIM_WRITE:
            ok = r->space == PMS_SPACE_MSR ? pms_sim_write(sim, r->address, r->value, &e)
                                           : pms_sim_write_at(sim, r->space, r->address, r->value, &e);
            if (r->check) {
                /* an expected #GP: the write must fail, and only with #GP */
                if (ok) {
                    g_autofree char *lab = reg_label(st->model, r);
                    g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MISMATCH,
                                "%s:%u: write 0x%" G_GINT64_MODIFIER "x to %s succeeded, expected #GP", st->source,
                                r->line, r->value, lab);
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
        if (total != st->pmis->len || n != listed || (n && memcmp(got, st->pmis->data, n * sizeof(guint64)) != 0)) {
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
    gboolean at_defaults = FALSE; /* the caller may have set inputs (pms_sim_set_input) */
    return exec_records(st, sim, 0, st->recs->len, &at_defaults, error) && check_expectations(st, sim, error);
}

/* A stimulus file run as it is read: each line is parsed and its record
 * executed at once, and the executed records are dropped, so memory stays
 * bounded whatever the file's length (a stimulus of 10^7 runs).  Lines are
 * read in bounded chunks up to PMS_STIM_LINE_MAX (stim_read.c). */
gboolean pms_stim_reader_run(PmsStimReader *r, const PmsModel *m, PmsSim *sim, GError **error)
{
    g_return_val_if_fail(r != NULL && m != NULL && sim != NULL, FALSE);
    g_autoptr(PmsStim) st = pms_stim_new(m);
    g_free(st->source);
    st->source = g_strdup(r->path);
    Parser p;
    parser_init(&p, st, m->smt ? 2 : 1, error);
    p.borrow = TRUE; /* each line's records run before the next is parsed */
    gboolean ok = TRUE, at_defaults = FALSE;
    guint done = 0;
    char *line;
    while (ok && (ok = stim_reader_next(r, &line, error)) && line) {
        p.line = r->line;
        if (p.line == 1 && *pms_text_bom_message(line, strlen(line))) {
            ok = fail(&p, "%s", pms_text_bom_message(line, strlen(line)));
            break;
        }
        ok = parse_line(&p, line) && exec_records(st, sim, done, st->recs->len, &at_defaults, error);
        done = st->recs->len;
        if (done >= 1024) { /* executed: drop them (their run arrays too) */
            g_array_set_size(st->recs, 0);
            done = 0;
        }
    }
    parser_clear(&p);
    return ok && check_expectations(st, sim, error);
}

gboolean pms_stim_reader_pmu(PmsStimReader *r, char **name, GError **error)
{
    g_return_val_if_fail(r != NULL && name != NULL && !r->again, FALSE);
    *name = NULL;
    char *line;
    while (stim_reader_next(r, &line, error)) {
        if (!line)
            return TRUE; /* no record at all */
        if (r->line == 1 && *pms_text_bom_message(line, strlen(line))) {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS, "%s:1: %s", r->path,
                        pms_text_bom_message(line, strlen(line)));
            return FALSE;
        }
        /* the fields of a copy: the run reads this line again */
        g_autofree char *copy = g_strdup(line);
        char *tok[2];
        guint n;
        gboolean few = split_fields(copy, tok, G_N_ELEMENTS(tok), &n);
        (void)few; /* a third field: the run's pmu record says so */
        if (n == 0)
            continue;
        if (strcmp(tok[0], "pmu") == 0 && n > 1)
            *name = g_strdup(tok[1]);
        r->again = TRUE; /* the first record decides */
        return TRUE;
    }
    return FALSE;
}

gboolean pms_stim_run_file(const PmsModel *m, const char *path, PmsSim *sim, GError **error)
{
    g_autoptr(PmsStimReader) r = pms_stim_reader_open(path, error);
    return r && pms_stim_reader_run(r, m, sim, error);
}
