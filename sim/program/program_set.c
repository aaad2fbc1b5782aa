/* pmusim — a set of events counted together: every event on its own counter
 * (program.h, docs/sets.md).  The counters each event may use come from the
 * architecture's program step (ProgOps.set_counters, which reads the
 * same model facts as pms_program_place); this file only matches events to
 * counters, checks the shared extra registers and composes the writes.
 *
 * Counters are numbered for the matching in preference order: the fixed
 * counters first (id i = FIXED_CTRi), then the general ones (id n_fixed + k =
 * PMCk), so the lowest free id is the preferred counter. */
#include "prog_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    guint n;
    guint64 allowed[PMS_PROGRAM_MAX_SET]; /* bit id: the event may use counter id */
    gint owner[64];                       /* counter id -> event, -1 free */
    guint64 seen;                         /* counter ids visited by this search */
    guint64 ev_seen;                      /* events visited by this search */
} SetMatch;

/* Kuhn's augmenting path from event e over the counters not in `banned`. */
static gboolean augment(SetMatch *mt, guint e, guint64 banned)
{
    mt->ev_seen |= (guint64)1 << e;
    guint64 cand = mt->allowed[e] & ~banned;
    for (guint64 c = cand; c; c &= c - 1) {
        guint id = (guint)__builtin_ctzll(c);
        if (mt->seen >> id & 1)
            continue;
        mt->seen |= (guint64)1 << id;
        if (mt->owner[id] < 0 || augment(mt, (guint)mt->owner[id], banned)) {
            mt->owner[id] = (gint)e;
            return TRUE;
        }
    }
    return FALSE;
}

/* Do events from..n-1 all find a counter outside `banned`?  On failure
 * *fail_ev is the event whose search failed, and mt->seen / mt->ev_seen its
 * alternating tree: ev_seen events whose counters are the seen ones, one
 * event more than counters (a witness of Hall's condition failing). */
static gboolean match_from(SetMatch *mt, guint from, guint64 banned, guint *fail_ev)
{
    for (guint c = 0; c < 64; c++)
        mt->owner[c] = -1;
    for (guint e = from; e < mt->n; e++) {
        mt->seen = 0;
        mt->ev_seen = 0;
        if (!augment(mt, e, banned)) {
            if (fail_ev)
                *fail_ev = e;
            return FALSE;
        }
    }
    return TRUE;
}

static const char *ev_name(const PmsSetEvent *e)
{
    return e->name ? e->name : e->event->name;
}

/* The counter of id in words: its register's name. */
static char *counter_name(const PmsModel *m, guint id)
{
    PmsPlacement pl = { m, NULL, id < m->n_fixed ? id : id - m->n_fixed, id < m->n_fixed };
    const PmsRegister *r = pms_program_counter_reg(&pl);
    if (r)
        return g_strdup(r->name);
    return g_strdup_printf("%s counter %u", pl.fixed ? "fixed" : "general", pl.counter);
}

static void conflict_message(const PmsModel *m, const PmsSetEvent *evs, const SetMatch *mt, GError **error)
{
    guint n_ev = (guint)__builtin_popcountll(mt->ev_seen), n_ctr = (guint)__builtin_popcountll(mt->seen);
    GString *ctrs = g_string_new(NULL), *names = g_string_new(NULL);
    for (guint64 c = mt->seen; c; c &= c - 1) {
        g_autofree char *cn = counter_name(m, (guint)__builtin_ctzll(c));
        g_string_append_printf(ctrs, "%s%s", ctrs->len ? ", " : "", cn);
    }
    guint k = 0;
    for (guint64 e = mt->ev_seen; e; e &= e - 1, k++)
        g_string_append_printf(names, "%s%s",
                               k == 0          ? ""
                                   : n_ev == 2 ? " and "
                                               : ", ",
                               ev_name(&evs[__builtin_ctzll(e)]));
    if (n_ev == 2 && n_ctr == 1)
        g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CONFLICT, "%s both need %s", names->str, ctrs->str);
    else
        g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CONFLICT,
                    "%u events may use only %s (%u counter%s): %s", n_ev, ctrs->str, n_ctr, n_ctr == 1 ? "" : "s",
                    names->str);
    g_string_free(ctrs, TRUE);
    g_string_free(names, TRUE);
}

/* The extra register an event programs with codes[1], or NULL. */
static const PmsRegister *extra_of(const PmsModel *m, const PmsSetEvent *e)
{
    return e->n_codes >= 2 && e->event->extra_reg ? pms_model_reg_by_name(m, e->event->extra_reg) : NULL;
}

gboolean pms_program_place_set(const PmsModel *m, const PmsSetEvent *evs, guint n, PmsPlacement *place, GError **error)
{
    const ProgOps *p = prog_ops_for(m);
    if (!p || !p->set_counters || m->n_fixed + m->n_gp > 64) {
        const char *elsewhere = p ? p->sets_elsewhere : NULL;
        g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_NOTSUPP,
                    "%s: no placement of event sets for architecture %s%s%s%s", m->name, m->family->name,
                    elsewhere ? " (" : "", elsewhere ? elsewhere : "", elsewhere ? ")" : "");
        return FALSE;
    }
    if (n == 0 || n > PMS_PROGRAM_MAX_SET) {
        g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CONFLICT, "%s: a set of %u events: expected 1 to %u",
                    m->name, n, (guint)PMS_PROGRAM_MAX_SET);
        return FALSE;
    }
    SetMatch mt = { .n = n };
    for (guint i = 0; i < n; i++) {
        guint64 gp = 0;
        guint32 fx = 0;
        if (evs[i].event == NULL || evs[i].event < m->events || evs[i].event >= m->events + m->n_events) {
            g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CODES, "%s: set event %u is not an event of %s",
                        m->name, i + 1, m->name);
            return FALSE;
        }
        p->set_counters(m, evs[i].event, evs[i].umask_mask, evs[i].codes, evs[i].n_codes, &gp, &fx);
        if (m->n_fixed < 32)
            fx &= (1u << m->n_fixed) - 1;
        if (m->n_gp < 64)
            gp &= ((guint64)1 << m->n_gp) - 1;
        if (evs[i].pebs) { /* PEBS samples general counters only, and not all of them */
            fx = 0;
            gp &= pms_model_pebs_counters(m);
        }
        mt.allowed[i] = (guint64)fx | (gp << m->n_fixed);
        if (!mt.allowed[i] && evs[i].pebs) {
            GString *ctrs = g_string_new(NULL);
            for (guint64 c = pms_model_pebs_counters(m); c; c &= c - 1) {
                g_autofree char *cn = counter_name(m, m->n_fixed + (guint)__builtin_ctzll(c));
                g_string_append_printf(ctrs, "%s%s", ctrs->len ? ", " : "", cn);
            }
            if (ctrs->len == 0)
                g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CONFLICT,
                            "%s is sampled with PEBS, which %s does not have (no IA32_PEBS_ENABLE pebs_en bits)",
                            ev_name(&evs[i]), m->name);
            else
                g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CONFLICT,
                            "%s is sampled with PEBS, which %s offers on %s only, and may not use %s", ev_name(&evs[i]),
                            m->name, ctrs->str, strchr(ctrs->str, ',') ? "any of them" : "it");
            g_string_free(ctrs, TRUE);
            return FALSE;
        }
        if (!mt.allowed[i]) {
            g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CONFLICT, "%s may use no counter of %s",
                        ev_name(&evs[i]), m->name);
            return FALSE;
        }
    }
    /* One extra register, one value: events of the same extra register must
     * program the same codes[1] (then they share it). */
    for (guint i = 0; i < n; i++) {
        const PmsRegister *xi = extra_of(m, &evs[i]);
        for (guint j = i + 1; xi && j < n; j++)
            if (extra_of(m, &evs[j]) == xi && evs[j].codes[1] != evs[i].codes[1]) {
                g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CONFLICT,
                            "%s and %s both need %s, with different values (0x%" G_GINT64_MODIFIER
                            "x and 0x%" G_GINT64_MODIFIER "x)",
                            ev_name(&evs[i]), ev_name(&evs[j]), xi->name, evs[i].codes[1], evs[j].codes[1]);
                return FALSE;
            }
    }
    guint fail;
    if (!match_from(&mt, 0, 0, &fail)) {
        conflict_message(m, evs, &mt, error);
        return FALSE;
    }
    /* The first placement in preference order: each event, in order, on its
     * lowest counter that leaves a placement for the events after it. */
    guint64 used = 0;
    for (guint i = 0; i < n; i++) {
        guint64 cand = mt.allowed[i] & ~used;
        guint id = 64;
        for (guint64 c = cand; c; c &= c - 1) {
            guint t = (guint)__builtin_ctzll(c);
            if (match_from(&mt, i + 1, used | ((guint64)1 << t), NULL)) {
                id = t;
                break;
            }
        }
        g_assert(id < 64); /* the full matching exists, so some counter works */
        used |= (guint64)1 << id;
        gboolean fixed = id < m->n_fixed;
        place[i] = (PmsPlacement){ m, evs[i].event, fixed ? id : id - m->n_fixed, fixed };
    }
    return TRUE;
}

static int write_order(const void *a, const void *b)
{
    const PmsRegWrite *x = a, *y = b;
    gboolean gx = x->reg->kind == PMS_REG_GLOBAL_CTRL, gy = y->reg->kind == PMS_REG_GLOBAL_CTRL;
    if (gx != gy)
        return gx ? 1 : -1;
    if (x->reg->space != y->reg->space)
        return x->reg->space < y->reg->space ? -1 : 1;
    return x->address < y->address ? -1 : x->address > y->address;
}

PmsRegWrite *pms_program_set_writes(const PmsModel *m, const PmsSetEvent *evs, const PmsPlacement *place, guint n,
                                    guint *n_writes, GError **error)
{
    *n_writes = 0;
    PmsRegWrite *out = g_new0(PmsRegWrite, (gsize)n * PMS_PROGRAM_MAX_WRITES + 1);
    guint64 *owned = g_new0(guint64, (gsize)n * PMS_PROGRAM_MAX_WRITES + 1); /* bits set so far, per write */
    guint no = 0;
    for (guint i = 0; i < n; i++) {
        PmsRegWrite w[PMS_PROGRAM_MAX_WRITES];
        guint nw = 0;
        if (place[i].model != m || !pms_program_writes(&place[i], evs[i].codes, evs[i].n_codes, w, &nw, error))
            goto fail;
        for (guint k = 0; k < nw; k++) {
            guint j = 0;
            while (j < no && out[j].reg != w[k].reg)
                j++;
            if (j == no) {
                out[no] = w[k];
                out[no].value = 0;
                out[no].mask = G_MAXUINT64;
                no++;
            } else if ((owned[j] & w[k].mask) && ((out[j].value ^ w[k].value) & owned[j] & w[k].mask)) {
                g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CONFLICT,
                            "%s: %s sets bits 0x%" G_GINT64_MODIFIER "x of %s that another event of the set sets "
                            "otherwise",
                            m->name, ev_name(&evs[i]), owned[j] & w[k].mask, w[k].name);
                goto fail;
            }
            out[j].value = (out[j].value & ~w[k].mask) | (w[k].value & w[k].mask);
            owned[j] |= w[k].mask;
        }
    }
    g_free(owned);
    qsort(out, no, sizeof *out, write_order);
    *n_writes = no;
    return out;
fail:
    g_free(owned);
    g_free(out);
    return NULL;
}
