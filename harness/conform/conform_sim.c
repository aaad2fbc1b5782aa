/* pmusim — simulation vectors and mutants (see conform_sim.h). */
#include "conform_sim.h"
#include "field_diff.h"
#include "cli_family.h"
#include "pebs.h"
#include "sim.h"
#include "sim_setup.h"
#include "stimulus.h"
#include "lbr.h"
#include "encoder.h"
#include "ia64_dispatch.h"
#include "ia64_range.h"
#include "program.h"

#include <string.h>

/* A vector's stimulus, parsed once against its model: the referenced file's
 * records (if any), then the inline ones. */
typedef struct {
    PmsStim *file;
    PmsStim *inl;
} Stims;

static void stims_free(gpointer p)
{
    Stims *s = p;
    if (s->file)
        pms_stim_free(s->file);
    if (s->inl)
        pms_stim_free(s->inl);
    g_free(s);
}

struct PmsConformSim {
    PmsBackend *backend;
    const PmsModelSet *models;
    char *last_cause;  /* the last failure's wrong fields (explain_codes) */
    GHashTable *stims; /* const PmsVector* -> Stims* */
};

PmsConformSim *pms_conform_sim_new(PmsBackend *backend, const PmsModelSet *models)
{
    PmsConformSim *cs = g_new0(PmsConformSim, 1);
    cs->backend = backend;
    cs->models = models;
    cs->stims = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, stims_free);
    return cs;
}

void pms_conform_sim_free(PmsConformSim *cs)
{
    if (!cs)
        return;
    g_hash_table_unref(cs->stims);
    g_free(cs->last_cause);
    g_free(cs);
}

static const PmsModel *vector_model(PmsConformSim *cs, const PmsVector *v, GError **error)
{
    const PmsModel *m = pms_model_set_get(cs->models, v->pmu);
    if (!m)
        g_set_error(error, PMS_VECTOR_ERROR, PMS_VECTOR_ERROR_PARSE,
                    "%s:%u: no model named '%s' (the vector's folder) to simulate", v->file, v->line, v->pmu);
    return m;
}

static Stims *vector_stims(PmsConformSim *cs, const PmsVector *v, const PmsModel *m, GError **error)
{
    Stims *s = g_hash_table_lookup(cs->stims, v);
    if (s)
        return s;
    const PmsSimVector *sv = pms_vector_sim(v);
    g_autoptr(PmsStim) file = NULL;
    if (sv->stim_ref_text) {
        file = pms_stim_parse(m, sv->stim_ref_text, -1, sv->stim_ref_path, error);
        if (!file)
            return NULL;
    }
    g_autoptr(PmsStim) inl = pms_stim_parse(m, sv->stim ? sv->stim : "", -1, v->file, error);
    if (!inl)
        return NULL;
    s = g_new0(Stims, 1);
    s->file = g_steal_pointer(&file);
    s->inl = g_steal_pointer(&inl);
    g_hash_table_insert(cs->stims, (gpointer)v, s);
    return s;
}

/* The model event an event string names: "pmu::EVENT[:...]". */
static const PmsEvent *string_event(const PmsModel *m, const char *str, GError **error)
{
    const char *name = str;
    const char *sep = strstr(str, "::");
    if (sep) {
        if ((gsize)(sep - str) != strlen(m->name) || strncmp(str, m->name, (gsize)(sep - str)) != 0) {
            g_set_error(error, PMS_VECTOR_ERROR, PMS_VECTOR_ERROR_PARSE,
                        "event \"%s\" is not for PMU %s (the vector's folder)", str, m->name);
            return NULL;
        }
        name = sep + 2;
    }
    g_autofree char *ev_name = g_strndup(name, strcspn(name, ":"));
    const PmsEvent *ev = pms_model_event(m, ev_name);
    if (!ev)
        g_set_error(error, PMS_VECTOR_ERROR, PMS_VECTOR_ERROR_PARSE, "event \"%s\": %s has no event %s", str, m->name,
                    ev_name);
    return ev;
}

typedef struct {
    guint n;
    guint64 codes[PMS_BACKEND_MAX_CODES];
} Codes;

/* Ask the backend for every event of the vector. */
static gboolean encode_all(PmsConformSim *cs, const PmsVector *v, Codes *out, char **message)
{
    const PmsSimVector *sv = pms_vector_sim(v);
    for (guint i = 0; i < sv->n_events; i++) {
        PmsBackendResult r;
        memset(&r, 0, sizeof r);
        pms_backend_encode(cs->backend, sv->events[i].event, &r);
        gboolean ok = strcmp(r.ret, "PFM_SUCCESS") == 0 && r.n_codes > 0;
        if (!ok)
            *message = g_strdup_printf("%s:%u: vector '%s': the encoder answered %s for \"%s\"", v->file,
                                       sv->events[i].line, sv->name, r.ret[0] ? r.ret : "nothing", sv->events[i].event);
        out[i].n = MIN(r.n_codes, PMS_BACKEND_MAX_CODES);
        memcpy(out[i].codes, r.codes, sizeof out[i].codes);
        pms_backend_result_clear(&r);
        if (!ok)
            return FALSE;
    }
    return TRUE;
}

/* `pebs N` events: their PEBS registers from the same codes, through the real
 * configuration step (encoder/pebs_config.c); a mutant flips bit `flip` of
 * the IA32_PEBS_ENABLE value (G_MAXUINT: none) before it is written. */
static gboolean program_pebs(PmsSim *sim, const PmsModel *m, const PmsSimVector *sv, const Codes *codes, guint flip,
                             GError **error)
{
    guint64 enable = 0;
    const PmsRegister *pe = pms_model_reg_by_kind(m, PMS_REG_PEBS_ENABLE, 0);
    gboolean any = FALSE;
    for (guint i = 0; i < sv->n_events; i++) {
        if (!sv->events[i].pebs)
            continue;
        PmsPlacement pl;
        PmsPebsConfig c;
        const PmsEvent *ev = string_event(m, sv->events[i].event, error);
        if (!ev || !pms_program_place_on(m, ev, sv->events[i].counter, FALSE, &pl, error) ||
            !pms_pebs_configure(&pl, codes[i].codes, codes[i].n, &c, error))
            return FALSE;
        /* IA32_PEBS_ENABLE composed over the events (written whole below),
         * MSR_PEBS_LD_LAT as is */
        enable |= c.writes[0].value;
        gboolean ok = c.n_writes < 2 || pms_sim_apply(sim, &c.writes[1], 1, error);
        pms_pebs_config_clear(&c);
        if (!ok)
            return FALSE;
        any = TRUE;
    }
    if (!any || !pe)
        return TRUE;
    if (flip < 64)
        enable ^= (guint64)1 << flip;
    return pms_sim_write_at(sim, pe->space, pe->address, enable, error);
}

/* The vector's `lbr` configuration through the LBR encoder, its
 * MSR_LBR_SELECT value XOR lbr_flip (a mutant), applied. */
static gboolean program_lbr(PmsSim *sim, const PmsModel *m, const PmsVector *v, guint64 lbr_flip, char **message)
{
    const PmsSimVector *sv = pms_vector_sim(v);
    g_autoptr(GError) err = NULL;
    PmsLbrEncoding enc;
    if (!pms_lbr_encode(m, &sv->lbr, PMS_PLM_DEFAULT, &enc, &err)) {
        *message = g_strdup_printf("%s:%u: vector '%s': the LBR encoder answered %s: %s", v->file, sv->lbr_line,
                                   sv->name, pms_encode_error_name(err->code), err->message);
        return FALSE;
    }
    enc.writes[0].value ^= lbr_flip;
    if (!pms_sim_apply(sim, enc.writes, enc.n_writes, &err)) {
        *message = g_strdup_printf("%s:%u: vector '%s': programming the LBR: %s", v->file, sv->lbr_line, sv->name,
                                   err->message);
        return FALSE;
    }
    return TRUE;
}

/* Program the codes (PEBS_ENABLE's bit pebs_flip flipped, G_MAXUINT: none;
 * the LBR configuration's LBR_SELECT XOR lbr_flip) into a fresh simulator
 * and run the stimulus.  *gp is set when the simulator refused a code write
 * with #GP. */
static gboolean simulate_on(const PmsModel *m, const Stims *st, const PmsVector *v, const Codes *codes, guint pebs_flip,
                            guint64 lbr_flip, char **message, gboolean *gp)
{
    const PmsSimVector *sv = pms_vector_sim(v);
    g_autoptr(GError) err = NULL;
    *gp = FALSE;
    g_autoptr(PmsSim) sim = pms_sim_new(m, &err);
    if (!sim) {
        *message = g_strdup_printf("%s:%u: vector '%s': %s", v->file, v->line, sv->name, err->message);
        return FALSE;
    }
    for (guint i = 0; i < sv->n_events; i++) {
        const PmsEvent *ev = string_event(m, sv->events[i].event, &err);
        if (!ev || !pms_sim_program(sim, m, ev, sv->events[i].counter, codes[i].codes, codes[i].n, &err)) {
            *gp = g_error_matches(err, PMS_SIM_ERROR, PMS_SIM_ERROR_GP);
            *message =
                g_strdup_printf("%s:%u: vector '%s': programming \"%s\" on counter %u: %s", v->file, sv->events[i].line,
                                sv->name, sv->events[i].event, sv->events[i].counter, err->message);
            return FALSE;
        }
    }
    if (!program_pebs(sim, m, sv, codes, pebs_flip, &err)) {
        *gp = g_error_matches(err, PMS_SIM_ERROR, PMS_SIM_ERROR_GP);
        *message =
            g_strdup_printf("%s:%u: vector '%s': programming PEBS: %s", v->file, v->line, sv->name, err->message);
        return FALSE;
    }
    if (sv->has_lbr && !program_lbr(sim, m, v, lbr_flip, message))
        return FALSE;
    if ((st->file && !pms_stim_execute(st->file, sim, &err)) || !pms_stim_execute(st->inl, sim, &err)) {
        *message = g_strdup_printf("vector '%s' (%s:%u): %s", sv->name, v->file, v->line, err->message);
        return FALSE;
    }
    return TRUE;
}

/* The model and parsed stimulus a vector runs with: FALSE and *message
 * when there are none. */
static gboolean vector_setup(PmsConformSim *cs, const PmsVector *v, const PmsModel **m, Stims **st, char **message)
{
    g_autoptr(GError) err = NULL;
    *m = vector_model(cs, v, &err);
    *st = *m ? vector_stims(cs, v, *m, &err) : NULL;
    if (!*st)
        *message = g_strdup(err->message);
    return *st != NULL;
}

/* The codes as they are: no flip. */
static gboolean simulate(PmsConformSim *cs, const PmsVector *v, const Codes *codes, char **message, gboolean *gp)
{
    const PmsModel *m;
    Stims *st;
    *gp = FALSE;
    return vector_setup(cs, v, &m, &st, message) && simulate_on(m, st, v, codes, G_MAXUINT, 0, message, gp);
}

/* A failing vector's message, followed by each event whose codes differ from
 * the builtin encoder's: the string, both codes and the fields that differ
 * (issue 18), so that a wrong read is traced to the wrong bit. */
static void explain_codes(PmsConformSim *cs, const PmsVector *v, const Codes *codes, char **message)
{
    const PmsSimVector *sv = pms_vector_sim(v);
    GString *s = g_string_new(*message);
    g_autoptr(GString) key = g_string_new(NULL);
    for (guint i = 0; i < sv->n_events; i++) {
        g_autoptr(PmsEncoding) enc = pms_encode(cs->models, sv->events[i].event, NULL);
        if (!enc)
            continue;
        g_autofree char *cause = NULL;
        g_autofree char *diff = pms_conform_codes_diff(cs->models, v->pmu, sv->events[i].event, enc->codes,
                                                       enc->n_codes, codes[i].codes, codes[i].n, &cause);
        if (!diff)
            continue;
        /* one key per vector: every event's wrong fields, each set once */
        if (!strstr(key->str, cause))
            g_string_append_printf(key, "%s%s", key->len ? "; " : "", cause);
        g_autofree char *ev = pms_vector_escape(sv->events[i].event, strlen(sv->events[i].event), 120);
        g_string_append_printf(s, "; \"%s\": the backend's codes", ev);
        for (guint k = 0; k < codes[i].n; k++)
            g_string_append_printf(s, "%s0x%" G_GINT64_MODIFIER "x", k ? "," : " ", codes[i].codes[k]);
        g_string_append(s, ", the builtin encoder's");
        for (guint k = 0; k < enc->n_codes; k++)
            g_string_append_printf(s, "%s0x%" G_GINT64_MODIFIER "x", k ? "," : " ", enc->codes[k]);
        g_string_append_printf(s, ": %s", diff);
    }
    g_free(*message);
    *message = g_string_free(s, FALSE);
    g_free(cs->last_cause);
    cs->last_cause = key->len ? g_strdup(key->str) : NULL;
}

char *pms_conform_sim_take_cause(PmsConformSim *cs)
{
    return g_steal_pointer(&cs->last_cause);
}

gboolean pms_conform_sim_run(const PmsVector *v, char **message, gpointer user_data)
{
    PmsConformSim *cs = user_data;
    Codes codes[PMS_SIM_VECTOR_MAX_EVENTS];
    memset(codes, 0, sizeof codes);
    g_clear_pointer(&cs->last_cause, g_free);
    if (!encode_all(cs, v, codes, message))
        return FALSE;
    gboolean gp;
    if (simulate(cs, v, codes, message, &gp))
        return TRUE;
    explain_codes(cs, v, codes, message);
    return FALSE;
}

gboolean pms_conform_sim_check_one(PmsConformSim *cs, const PmsVector *v, GError **error)
{
    if (v->kind != PMS_VECTOR_SIM)
        return TRUE;
    const PmsModel *m = vector_model(cs, v, error);
    if (!m || !vector_stims(cs, v, m, error))
        return FALSE;
    const PmsSimVector *sv = pms_vector_sim(v);
    for (guint k = 0; k < sv->n_events; k++) {
        GError *local = NULL;
        if (!string_event(m, sv->events[k].event, &local)) {
            g_set_error(error, PMS_VECTOR_ERROR, PMS_VECTOR_ERROR_PARSE, "%s:%u: %s", v->file, sv->events[k].line,
                        local->message);
            g_error_free(local);
            return FALSE;
        }
    }
    return TRUE;
}

void pms_conform_sim_forget(PmsConformSim *cs, const PmsVector *v)
{
    g_hash_table_remove(cs->stims, v);
}

gboolean pms_conform_sim_check(PmsConformSim *cs, const PmsVectorSet *set, GError **error)
{
    for (guint i = 0; i < pms_vector_set_count(set); i++)
        if (!pms_conform_sim_check_one(cs, pms_vector_set_nth(set, i), error))
            return FALSE;
    return TRUE;
}

/* ---- mutants ---- */

/* Does the mutant program the same register contents?  Both codes go through
 * the program step; TRUE when every difference lies in bits the written
 * register ignores (they read 0 and change nothing: the Xeon 7500's "ig"
 * fields) or there is none at all (bits no register holds: a fixed-only
 * event's codes[0] beyond the fields of FIXED_CTR_CTRL).  Such a flip is not
 * a mutant of the programming: no hardware could tell it apart. */
static gboolean equivalent(const PmsModel *m, const PmsEvent *ev, guint counter, const Codes *a, const Codes *b)
{
    PmsPlacement pl;
    PmsRegWrite wa[PMS_PROGRAM_MAX_WRITES], wb[PMS_PROGRAM_MAX_WRITES];
    guint na = 0, nb = 0;
    gboolean fixed = ev->counters == 0 && ev->fixed != 0;
    if (!pms_program_place_on(m, ev, counter, fixed, &pl, NULL) ||
        !pms_program_writes(&pl, a->codes, a->n, wa, &na, NULL) ||
        !pms_program_writes(&pl, b->codes, b->n, wb, &nb, NULL) || na != nb)
        return FALSE;
    for (guint i = 0; i < na; i++) {
        guint64 d = wa[i].value ^ wb[i].value;
        if (wa[i].reg != wb[i].reg || (d & ~wa[i].reg->ignored))
            return FALSE;
    }
    return TRUE;
}

/* An LL_EN bit of IA32_PEBS_ENABLE whose counter is not a PEBS counter
 * counting the load-latency event: load latency needs both bits, and only
 * that event's loads carry latencies (SDM Fig 18-21; semantics.md §5.1). */
static const char *unobservable_ll_en(const PmsModel *m, const PmsSimVector *sv, guint bit)
{
    const PmsRegister *pe = pms_model_reg_by_kind(m, PMS_REG_PEBS_ENABLE, 0);
    const PmsField *ll = pms_register_field(pe, "ll_en");
    if (!ll || bit < ll->shift || bit >= ll->shift + ll->width)
        return NULL;
    guint counter = bit - ll->shift;
    for (guint i = 0; i < sv->n_events; i++) {
        const PmsEvent *ev = string_event(m, sv->events[i].event, NULL);
        if (sv->events[i].counter == counter && sv->events[i].pebs && ev && (ev->flags & PMS_EVENT_LDLAT))
            return NULL;
    }
    return "LL_EN acts only on a PEBS_EN counter that counts the load-latency event: load latency needs both bits "
           "(SDM Fig 18-21; semantics.md §5.1)";
}

static PmsMutantPmu *pmu_row(PmsMutantReport *r, GHashTable *index, const char *pmu)
{
    PmsMutantPmu *p = g_hash_table_lookup(index, pmu);
    if (!p) {
        p = g_new0(PmsMutantPmu, 1);
        p->pmu = g_strdup(pmu);
        g_ptr_array_add(r->pmus, p);
        g_hash_table_insert(index, p->pmu, p);
    }
    return p;
}

static void pmu_row_free(gpointer p)
{
    PmsMutantPmu *row = p;
    g_free(row->pmu);
    g_free(row);
}

/* A simulated mutant's fate: caught (with #GP or not) when the vector
 * failed (ok FALSE), unobservable when `why` gives the reason it cannot
 * fail, else missed; counted in the PMU's row and the report, and listed
 * when it survived. */
static void count_mutant(PmsMutantReport *r, PmsMutantPmu *row, PmsMutant mu, gboolean ok, gboolean gp, const char *why)
{
    mu.fate = !ok ? (gp ? PMS_MUTANT_CAUGHT_GP : PMS_MUTANT_CAUGHT) : why ? PMS_MUTANT_UNOBSERVABLE : PMS_MUTANT_MISSED;
    mu.why = ok ? why : NULL;
    row->mutants++;
    r->mutants++;
    switch (mu.fate) {
    case PMS_MUTANT_CAUGHT:
        row->caught++;
        r->caught++;
        break;
    case PMS_MUTANT_CAUGHT_GP:
        row->caught++;
        r->caught++;
        row->caught_gp++;
        r->caught_gp++;
        break;
    case PMS_MUTANT_UNOBSERVABLE:
        row->unobservable++;
        r->unobservable++;
        break;
    case PMS_MUTANT_MISSED:
        row->missed++;
        r->missed++;
        break;
    default:
        break; /* equivalent and ignored mutants are never simulated */
    }
    if (mu.fate == PMS_MUTANT_UNOBSERVABLE || mu.fate == PMS_MUTANT_MISSED)
        g_array_append_val(r->survivors, mu);
}

/* One vector's mutants, a job of its own (issue 21: the jobs run on every
 * core).  Everything a job reads is set before the workers start (the
 * codes from the backend, the model, the parsed stimulus); everything it
 * writes is its own (part, row), merged in vector order afterwards, so the
 * report is the same with any number of workers. */
typedef struct {
    const PmsVector *v;
    PmsMutantPmu *row; /* the report's row of its PMU (merged into) */
    gboolean ready;    /* encoded, model and stimulus found */
    char *unready;     /* else: why (the vector fails unmutated) */
    const PmsModel *m;
    const Stims *st;
    Codes codes[PMS_SIM_VECTOR_MAX_EVENTS];
    PmsMutantReport part; /* this vector's counts, survivors, baseline failure, LBR misses */
    PmsMutantPmu prow;    /* this vector's counts for its row */
} Job;

static void mutate_vector(Job *j)
{
    const PmsVector *v = j->v;
    PmsMutantReport *r = &j->part;
    PmsMutantPmu *row = &j->prow;
    const PmsSimVector *sv = pms_vector_sim(v);
    const Codes *codes = j->codes;
    const PmsModel *m = j->m;
    char *msg = j->unready ? g_strdup(j->unready) : NULL;
    gboolean gp = FALSE;
    if (!j->ready || !simulate_on(m, j->st, v, codes, G_MAXUINT, 0, &msg, &gp)) {
        row->baseline_failed++;
        g_ptr_array_add(r->baseline, msg);
        return;
    }
    /* an LBR vector's event is scaffolding (the PMI of the freeze); its
     * codes' mutants are the scenario and events vectors' business, its
     * LBR_SELECT mutants mutate_lbr's */
    if (sv->has_lbr)
        return;
    for (guint e = 0; e < sv->n_events; e++) {
        const PmsEvent *ev = string_event(m, sv->events[e].event, NULL);
        for (guint k = 0; k < MIN(codes[e].n, 2u); k++) {
            for (guint bit = 0; bit < 64; bit++) {
                Codes mut[PMS_SIM_VECTOR_MAX_EVENTS];
                memcpy(mut, codes, sizeof mut);
                mut[e].codes[k] ^= (guint64)1 << bit;
                if (ev && equivalent(m, ev, sv->events[e].counter, &codes[e], &mut[e])) {
                    row->equivalent++;
                    r->equivalent++;
                    continue;
                }
                msg = NULL;
                gboolean ok = simulate_on(m, j->st, v, mut, G_MAXUINT, 0, &msg, &gp);
                g_free(msg);
                PmsMutant mu = { v, e, k, bit, PMS_MUTANT_CAUGHT, NULL };
                const char *why = ok
                    ? pms_cli_family(m)->unobservable(m, ev, sv->events[e].counter, codes[e].codes, codes[e].n, k, bit)
                    : NULL;
                count_mutant(r, row, mu, ok, gp, why);
            }
        }
    }
    /* IA32_PEBS_ENABLE: each bit of the composed value flipped (the
     * load-latency threshold is codes[1] above, which becomes MSR_PEBS_LD_LAT) */
    gboolean has_pebs = FALSE;
    for (guint e = 0; e < sv->n_events; e++)
        has_pebs |= sv->events[e].pebs;
    for (guint bit = 0; has_pebs && bit < 64; bit++) {
        msg = NULL;
        gboolean ok = simulate_on(m, j->st, v, codes, bit, 0, &msg, &gp);
        g_free(msg);
        PmsMutant mu = { v, 0, PMS_MUTANT_CODE_PEBS_ENABLE, bit, PMS_MUTANT_CAUGHT, NULL };
        count_mutant(r, row, mu, ok, gp, ok ? unobservable_ll_en(m, sv, bit) : NULL);
    }
}

/* The vector's MSR_LBR_SELECT as the encoder writes it. */
static guint64 enc_select(const PmsModel *m, const PmsSimVector *sv)
{
    PmsLbrEncoding enc;
    return pms_lbr_encode(m, &sv->lbr, PMS_PLM_DEFAULT, &enc, NULL) ? enc.lbr_select : 0;
}

/* Does flipping `flip` in LBR_SELECT leave what the LBR does with every
 * branch class at every ring as before, by the documented rule
 * (semantics.md 5.4, A13: on NHM/WSM a set jump bit already drops the
 * calls/returns whose own bit the flip changes; §8b: in call-stack mode
 * NEAR_RET has nothing to drop, returns pop)?  Only bits of known fields
 * count: a flip of a bit no field names is a missed mutant, not an
 * unobservable one. */
static gboolean same_capture(const PmsModel *m, guint64 sel, guint64 flip)
{
    const PmsRegister *r = pms_model_reg_by_kind(m, PMS_REG_LBR_SELECT, 0);
    static const char *const fields[] = { "cpl_eq_0", "cpl_neq_0",    "jcc",          "near_rel_call", "near_ind_call",
                                          "near_ret", "near_ind_jmp", "near_rel_jmp", "far_branch",    "en_callstack" };
    gboolean known = FALSE;
    for (guint i = 0; i < G_N_ELEMENTS(fields); i++) {
        const PmsField *f = pms_register_field(r, fields[i]);
        known |= f && pms_field_get(f, flip) != 0;
    }
    PmsLbrJmpRule rule;
    PmsLbrCallstackRule cs;
    if (!known || !pms_lbr_jmp_rule(m, &rule, NULL) || !pms_lbr_callstack_rule(m, &cs, NULL))
        return FALSE;
    for (guint t = 0; t < PMS_LBR_N_FILTERS; t++)
        for (guint cpl = 0; cpl < 4; cpl++)
            if (pms_lbr_action(sel, m, rule, cs, t, cpl) != pms_lbr_action(sel ^ flip, m, rule, cs, t, cpl))
                return FALSE;
    return TRUE;
}

/* The LBR mutants of a vector with an `lbr` configuration: each writable bit
 * of MSR_LBR_SELECT flipped in turn (the event codes unchanged). */
static void mutate_lbr(Job *j)
{
    const PmsVector *v = j->v;
    PmsMutantReport *r = &j->part;
    const PmsSimVector *sv = pms_vector_sim(v);
    const PmsModel *m = j->m;
    const PmsRegister *sel = m ? pms_model_reg_by_kind(m, PMS_REG_LBR_SELECT, 0) : NULL;
    if (!sv->has_lbr || !sel || !j->ready)
        return;
    const Codes *codes = j->codes;
    char *msg = NULL;
    gboolean gp = FALSE;
    if (!simulate_on(m, j->st, v, codes, G_MAXUINT, 0, &msg, &gp)) {
        g_free(msg); /* counted by mutate_vector's baseline */
        return;
    }
    for (guint bit = 0; bit < 64; bit++) {
        if (!((sel->writable >> bit) & 1))
            continue;
        msg = NULL;
        gboolean ok = simulate_on(m, j->st, v, codes, G_MAXUINT, (guint64)1 << bit, &msg, &gp);
        g_free(msg);
        r->lbr_mutants++;
        if (!ok) {
            r->lbr_caught++;
            continue;
        }
        if (same_capture(m, enc_select(m, sv), (guint64)1 << bit)) {
            r->lbr_unobservable++;
            continue;
        }
        const char *name = NULL;
        for (guint f = 0; sel->layout && f < sel->layout->n_fields; f++)
            if (bit >= sel->layout->fields[f].shift &&
                bit < sel->layout->fields[f].shift + sel->layout->fields[f].width)
                name = sel->layout->fields[f].name;
        g_ptr_array_add(r->lbr_missed,
                        g_strdup_printf("%s:%u: vector '%s' (%s): %s bit %u (%s)", v->file, v->line, sv->name, v->pmu,
                                        sel->name, bit, name ? name : "no field"));
    }
}

static gboolean pmu_selected(const char *pmu, const char *const *pmus)
{
    if (pmus == NULL)
        return TRUE;
    for (guint i = 0; pmus[i]; i++)
        if (strcmp(pmus[i], pmu) == 0)
            return TRUE;
    return FALSE;
}

static void part_init(PmsMutantReport *r)
{
    r->survivors = g_array_new(FALSE, TRUE, sizeof(PmsMutant));
    r->baseline = g_ptr_array_new_with_free_func(g_free);
    r->lbr_missed = g_ptr_array_new_with_free_func(g_free);
}

static void run_job(Job *j)
{
    mutate_vector(j);
    mutate_lbr(j);
}

typedef struct {
    Job *jobs;
    guint n;
    gint next; /* the next job to take (atomic) */
} Queue;

/* A worker: jobs taken in turn until none is left. */
static gpointer worker(gpointer data)
{
    Queue *q = data;
    for (;;) {
        guint i = (guint)g_atomic_int_add(&q->next, 1);
        if (i >= q->n)
            return NULL;
        run_job(&q->jobs[i]);
    }
}

/* A job's results into the report, in vector order. */
static void merge(PmsMutantReport *r, Job *j)
{
    PmsMutantReport *p = &j->part;
    PmsMutantPmu *row = j->row, *pr = &j->prow;
    row->baseline_failed += pr->baseline_failed;
    row->mutants += pr->mutants;
    row->caught += pr->caught;
    row->caught_gp += pr->caught_gp;
    row->unobservable += pr->unobservable;
    row->missed += pr->missed;
    row->equivalent += pr->equivalent;
    r->mutants += p->mutants;
    r->caught += p->caught;
    r->caught_gp += p->caught_gp;
    r->unobservable += p->unobservable;
    r->missed += p->missed;
    r->equivalent += p->equivalent;
    r->lbr_mutants += p->lbr_mutants;
    r->lbr_caught += p->lbr_caught;
    r->lbr_unobservable += p->lbr_unobservable;
    g_array_append_vals(r->survivors, p->survivors->data, p->survivors->len);
    for (guint i = 0; i < p->baseline->len; i++)
        g_ptr_array_add(r->baseline, g_steal_pointer(&g_ptr_array_index(p->baseline, i)));
    for (guint i = 0; i < p->lbr_missed->len; i++)
        g_ptr_array_add(r->lbr_missed, g_steal_pointer(&g_ptr_array_index(p->lbr_missed, i)));
    g_array_unref(p->survivors);
    g_ptr_array_unref(p->baseline);
    g_ptr_array_unref(p->lbr_missed);
    g_free(j->unready);
}

/* What the workers would otherwise make on first use, made here first, in
 * one thread: the error domains (G_DEFINE_QUARK sets its static without a
 * lock), glib's error-domain lock (allocated lazily), and per model the
 * family tables and caches a simulation fills (pms_family_table_get,
 * pms_model_cache: made once with g_once, whose release side is glib's own,
 * uninstrumented code, so ThreadSanitizer would not see it). */
static void warm_up(GPtrArray *models)
{
    volatile GQuark q = PMS_SIM_ERROR + PMS_ENCODE_ERROR + PMS_PROGRAM_ERROR + PMS_MODEL_ERROR + PMS_VECTOR_ERROR +
        PMS_IA64_DISPATCH_ERROR + PMS_IA64_RANGE_ERROR;
    (void)q;
    g_error_free(g_error_new_literal(PMS_SIM_ERROR, PMS_SIM_ERROR_GP, "warm-up"));
    for (guint i = 0; i < models->len; i++) {
        const PmsModel *m = g_ptr_array_index(models, i);
        (void)pms_cli_family(m);
        PmsSim *sim = pms_sim_new(m, NULL);
        if (sim)
            pms_sim_free(sim);
    }
}

guint pms_conform_jobs_default(void)
{
    return MAX(g_get_num_processors(), 1u);
}

PmsMutantReport *pms_conform_mutants(PmsConformSim *cs, const PmsVectorSet *set, const char *const *pmus, guint jobs)
{
    PmsMutantReport *r = g_new0(PmsMutantReport, 1);
    r->pmus = g_ptr_array_new_with_free_func(pmu_row_free);
    part_init(r);
    g_autoptr(GHashTable) index = g_hash_table_new(g_str_hash, g_str_equal);
    /* in this thread: the rows, the backend's codes (a backend is one
     * process or one encoder, asked in order) and each vector's model and
     * parsed stimulus */
    g_autoptr(GArray) jobs_arr = g_array_new(FALSE, TRUE, sizeof(Job));
    g_autoptr(GPtrArray) models = g_ptr_array_new();
    for (guint i = 0; i < pms_vector_set_count(set); i++) {
        const PmsVector *v = pms_vector_set_nth(set, i);
        if (v->kind != PMS_VECTOR_SIM || !pmu_selected(v->pmu, pmus))
            continue;
        Job j = { .v = v, .row = pmu_row(r, index, v->pmu) };
        j.row->vectors++;
        part_init(&j.part);
        Stims *st = NULL;
        j.ready = encode_all(cs, v, j.codes, &j.unready) && vector_setup(cs, v, &j.m, &st, &j.unready);
        j.st = st;
        if (!j.ready)
            j.m = pms_model_set_get(cs->models, v->pmu);
        if (j.m && !g_ptr_array_find(models, j.m, NULL))
            g_ptr_array_add(models, (gpointer)j.m);
        g_array_append_val(jobs_arr, j);
    }
    warm_up(models);
    Queue q = { (Job *)(void *)jobs_arr->data, jobs_arr->len, 0 };
    guint n_workers = MIN(MAX(jobs, 1u), MAX(q.n, 1u));
    if (n_workers <= 1) {
        worker(&q);
    } else {
        g_autoptr(GPtrArray) threads = g_ptr_array_new();
        for (guint w = 0; w < n_workers; w++)
            g_ptr_array_add(threads, g_thread_new("pmusim-mutants", worker, &q));
        for (guint w = 0; w < threads->len; w++)
            g_thread_join(g_ptr_array_index(threads, w));
    }
    for (guint i = 0; i < q.n; i++)
        merge(r, &q.jobs[i]);
    return r;
}

void pms_mutant_report_free(PmsMutantReport *r)
{
    if (!r)
        return;
    g_ptr_array_unref(r->pmus);
    g_array_unref(r->survivors);
    g_ptr_array_unref(r->baseline);
    g_ptr_array_unref(r->lbr_missed);
    g_free(r);
}
