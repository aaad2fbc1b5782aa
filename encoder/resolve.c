/* pmusim encoder — resolver: tokens -> model, event, unit masks, modifier values.
 *
 * Every name is one hash lookup in the model's case-insensitive indexes; the
 * tables are only walked to list alternatives in an error message.  Values
 * follow libpfm4: numbers as strtoull(base 0) reads them (decimal, 0x hex,
 * leading-0 octal, optional sign), booleans as one of 0 1 y n t f. */
#include <string.h>
#include "enc_internal.h"
#include "model_cache.h"

/* Parse a whole numeric token; FALSE on junk, emptiness or overflow (then
 * *out is G_MAXUINT64, what strtoull answers). */
static gboolean parse_num(const char *p, gsize len, guint64 *out)
{
    *out = 0;
    gsize i = 0;
    gboolean neg = FALSE;
    if (i < len && (p[i] == '+' || p[i] == '-'))
        neg = p[i++] == '-';
    guint base = 10;
    if (i + 1 < len && p[i] == '0' && (p[i + 1] == 'x' || p[i + 1] == 'X')) {
        base = 16;
        i += 2;
    } else if (i < len && p[i] == '0') {
        base = 8;
    }
    if (i >= len)
        return FALSE;
    guint64 v = 0;
    if (base == 10 && len - i <= 19) {
        /* at most 19 decimal digits: below 10^19, no overflow to test */
        for (; i < len; i++) {
            guint d = (guint)(guchar)p[i] - '0';
            if (d >= 10)
                return FALSE;
            v = v * 10 + d;
        }
        *out = neg ? (guint64)0 - v : v;
        return TRUE;
    }
    for (; i < len; i++) {
        /* the digit value without glib's call per byte */
        guchar c = (guchar)p[i];
        gint d = (guint)(c - '0') < 10u ? c - '0' : (guint)((c | 0x20) - 'a') < 6u ? (c | 0x20) - 'a' + 10 : -1;
        if (d < 0 || (guint)d >= base)
            return FALSE;
        if (__builtin_mul_overflow(v, (guint64)base, &v) || __builtin_add_overflow(v, (guint64)d, &v)) {
            /* the rest must still be digits for strtoull to saturate */
            for (i++; i < len; i++) {
                c = (guchar)p[i];
                d = (guint)(c - '0') < 10u ? c - '0' : (guint)((c | 0x20) - 'a') < 6u ? (c | 0x20) - 'a' + 10 : -1;
                if (d < 0 || (guint)d >= base)
                    return FALSE;
            }
            *out = G_MAXUINT64;
            return FALSE;
        }
    }
    *out = neg ? (guint64)0 - v : v;
    return TRUE;
}

static gboolean parse_bool(const char *p, gsize len, guint64 *out)
{
    if (len != 1)
        return FALSE;
    switch (p[0]) {
    case '1':
    case 'y':
    case 'Y':
    case 't':
    case 'T':
        *out = 1;
        return TRUE;
    case '0':
    case 'n':
    case 'N':
    case 'f':
    case 'F':
        *out = 0;
        return TRUE;
    default:
        return FALSE;
    }
}

/* "ANY_P, ..." and "k, u, ..." for messages; capped so a big event stays short. */
static void list_choices(GString *s, const PmsModel *m, const PmsEvent *ev)
{
    guint shown = 0;
    g_string_append(s, " (expected ");
    if (ev->n_umasks) {
        g_string_append(s, "a unit mask: ");
        for (guint i = 0; i < ev->n_umasks && shown < 8; i++, shown++)
            g_string_append_printf(s, "%s%s", i ? ", " : "", ev->umasks[i].name);
        if (ev->n_umasks > shown)
            g_string_append_printf(s, ", ... %u in all", ev->n_umasks);
        g_string_append(s, "; or ");
    }
    g_string_append(s, "a modifier: ");
    const PmsPrepared *p = pms_prepared_get(m);
    for (guint i = 0, n = 0; i < p->n_mods; i++)
        if (pms_mod_allowed(ev, &p->mods[i], i))
            g_string_append_printf(s, "%s%s", n++ ? ", " : "", p->mods[i].mod->name);
    g_string_append(s, ")");
}

static G_GNUC_NO_INLINE gboolean fail_pmu_msg(const PmsModelSet *set, const PmsTokens *t, GError **error)
{
    g_autoptr(GString) s = g_string_new(NULL);
    if (!t->has_pmu) {
        g_string_append(s, "no PMU given: write PMU::EVENT with PMU one of ");
    } else {
        g_string_append(s, t->pmu_len ? "unknown PMU '" : "empty PMU name '");
        pms_enc_quote(s, t->str, t->pmu_len);
        g_string_append(s, "' (expected one of ");
    }
    for (guint i = 0; i < pms_model_set_count(set); i++)
        g_string_append_printf(s, "%s%s", i ? ", " : "", pms_model_set_nth_name(set, i));
    if (t->has_pmu)
        g_string_append_c(s, ')');
    pms_enc_fail(error, PMS_ERR_NOTFOUND, 1, "%s", s->str);
    return FALSE;
}

/* The error for a PMU that is not in the set; its message lists them all. */
static inline gboolean fail_pmu(const PmsModelSet *set, const PmsTokens *t, GError **error)
{
    if (pms_enc_no_message(error, PMS_ERR_NOTFOUND, 1))
        return FALSE;
    return fail_pmu_msg(set, t, error);
}

/* Phase 1 for a modifier token: its value must be well-formed (libpfm4
 * reports ATTR_VAL here, in string order).  Range checks come later, after
 * the unit-mask checks, as libpfm4 orders them. */
static gboolean parse_mod(const PmsResolved *r, const PmsTok *a, gint mi, guint64 *val, GError **error)
{
    const char *s = r->tok->str;
    const PmsModifier *mod = r->prep->mods[mi].mod;
    guint col = a->off + 1;
    if (a->eq < 0) {
        if (mod->type != PMS_MOD_BOOL) {
            pms_enc_fail(error, PMS_ERR_ATTR_VAL, col,
                         "modifier '%s' needs a value (%s=N, N in %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT ")",
                         mod->name, mod->name, mod->min, mod->max);
            return FALSE;
        }
        *val = 1;
        return TRUE;
    }
    const char *vp = s + a->off + a->eq + 1;
    gsize vl = a->len - (guint)a->eq - 1;
    gboolean ok = mod->type == PMS_MOD_BOOL ? parse_bool(vp, vl, val) : parse_num(vp, vl, val);
    /* libpfm4 4.13's uncore code reads a number too big for 64 bits as
     * strtoull's saturated value, which its range check then refuses
     * (PFM_ERR_INVAL); the core PMUs' answer stays PFM_ERR_ATTR_VAL */
    if (!ok && mod->type != PMS_MOD_BOOL && *val == G_MAXUINT64 && r->prep->fam &&
        (r->prep->fam->flags & PMS_ENC_SATURATE))
        ok = TRUE;
    if (!ok) {
        if (pms_enc_no_message(error, PMS_ERR_ATTR_VAL, col + (guint)a->eq + 1))
            return FALSE; /* nobody reads the message: skip quoting */
        char q[PMS_ENC_QUOTE_MAX];
        pms_enc_fail(error, PMS_ERR_ATTR_VAL, col + (guint)a->eq + 1,
                     mod->type == PMS_MOD_BOOL ? "bad value '%s' for modifier '%s' (expected 0 or 1)"
                                               : "bad value '%s' for modifier '%s' (expected a decimal or 0x number)",
                     pms_enc_quote_buf(q, vp, vl), mod->name);
        return FALSE;
    }
    return TRUE;
}

/* A raw unit mask token "0xHEX" (libpfm4 4.13 pfmlib_parse_event_attr:
 * hexadecimal only, read with strtoull; one per string and never with a
 * named unit mask, PFM_ERR_ATTR; a value after '=' is PFM_ERR_ATTR_VAL once
 * the number itself is well-formed).  Its width is the rules' to check. */
static gboolean parse_raw(PmsResolved *r, const PmsTok *a, gsize nlen, GError **error)
{
    const char *p = r->tok->str + a->off;
    guint col = a->off + 1;
    char q[PMS_ENC_QUOTE_MAX];
    if (r->raw) {
        pms_enc_fail(error, PMS_ERR_ATTR, col, "a second raw unit mask '%s' (the first is at column %u; give one)",
                     pms_enc_quote_buf(q, p, nlen), r->raw_col);
        return FALSE;
    }
    if (!pms_uset_empty(r->user_umasks)) {
        guint first = pms_uset_lowest(r->user_umasks);
        pms_enc_fail(error, PMS_ERR_ATTR, col, "raw unit mask '%s' cannot be combined with unit mask %s (column %u)",
                     pms_enc_quote_buf(q, p, nlen), r->event->umasks[first].name, r->umask_col[first]);
        return FALSE;
    }
    guint64 v = 0;
    gboolean over = FALSE;
    for (gsize i = 2; i < nlen; i++) {
        guchar c = (guchar)p[i];
        gint d = (guint)(c - '0') < 10u ? c - '0' : (guint)((c | 0x20) - 'a') < 6u ? (c | 0x20) - 'a' + 10 : -1;
        if (d < 0) {
            nlen = 0; /* not a number */
            break;
        }
        if (v >> 60)
            over = TRUE;
        v = v << 4 | (guint)d;
    }
    if (nlen <= 2) {
        if (!pms_enc_no_message(error, PMS_ERR_ATTR, col))
            pms_enc_fail(error, PMS_ERR_ATTR, col,
                         "raw unit mask '%s' is not a hexadecimal number (write 0x followed by hex digits)",
                         pms_enc_quote_buf(q, p, a->eq < 0 ? a->len : (gsize)a->eq));
        return FALSE;
    }
    if (a->eq >= 0) {
        pms_enc_fail(error, PMS_ERR_ATTR_VAL, col + (guint)a->eq, "raw unit mask '%s' takes no value",
                     pms_enc_quote_buf(q, p, nlen));
        return FALSE;
    }
    r->raw = TRUE;
    r->raw_val = over ? G_MAXUINT64 : v; /* strtoull saturates */
    r->raw_col = col;
    return TRUE;
}

static gboolean resolve_prepared(const PmsModel *m, const PmsPrepared *prep, const PmsTokens *t, PmsResolved *r,
                                 GError **error);

/* Whether the PMU token names model m (upper-cased words compared). */
static gboolean same_name(const PmsPrepared *p, const PmsTokens *t)
{
    gsize len = t->pmu_len;
    if (len != p->name_len || len + 8 > PMS_ENC_FOLD_MAX)
        return FALSE;
    return pms_name_eq(p->uname, t->up, len);
}

/* The PMU slots of pms_resolve: pairs of slots, by a hash of the name's
 * first 16 upper-cased bytes and its length (the built-in names spread
 * over distinct pairs). */
#define RECENT_SLOTS 128

static inline guint64 recent_hash(const PmsTokens *t)
{
    gsize len = t->pmu_len;
    if (!len || len + 8 > PMS_ENC_FOLD_MAX)
        return 0;
    guint64 w0 = pms_word_head(pms_load8(t->up), MIN(len, 8));
    guint64 w1 = len > 8 ? pms_word_head(pms_load8(t->up + 8), MIN(len - 8, 8)) : 0;
    return (w0 ^ (w1 * 0x9e3779b97f4a7c15ull) ^ len) * 0xff51afd7ed558ccdull;
}

/* Batches name a few PMUs, line after line or in turn: pms_resolve
 * remembers the last one seen in each of a few slots, chosen by the name's
 * length and letters (looking a PMU up by name costs a fifth of an
 * encoding).  An entry is trusted only if that model is still in this set
 * at that place, with that prepared data, and has that name, so a freed
 * set (or model) cannot fool it. */
typedef struct {
    const PmsModelSet *set;
    const PmsModel *m;
    const PmsPrepared *prep;
    guint idx;
} RecentPmu;
static _Thread_local RecentPmu recent[RECENT_SLOTS]
#ifdef __GNUC__
    /* one small block in the static TLS area: no __tls_get_addr call per encoding */
    __attribute__((tls_model("initial-exec")))
#endif
    ;

static inline gboolean recent_holds(const RecentPmu *e, const PmsModelSet *set, const PmsTokens *t)
{
    return e->set == set && pms_model_set_nth(set, e->idx) == e->m &&
        pms_model_cache_peek(e->m, PMS_MODEL_CACHE_ENCODER) == e->prep && same_name(e->prep, t);
}

/* The PMU by name, remembered in the pair of slots k, k + 1 (h: the name's
 * hash); outside pms_resolve, whose path for a remembered PMU then keeps
 * its few values in registers. */
static G_GNUC_NO_INLINE gboolean resolve_by_name(const PmsModelSet *set, const PmsTokens *t, PmsResolved *r,
                                                 GError **error, guint64 h)
{
    char buf[PMS_ENC_NAME_MAX];
    guint k = (guint)(h >> 58) * 2u;
    const PmsModel *m = NULL;
    if (pms_enc_name(buf, t->str, t->pmu_len) && (m = pms_model_set_get(set, buf))) {
        /* the pair's slot of another set (or none) first, else the one the hash picks */
        RecentPmu *last = recent[k].set != set ? &recent[k]
            : recent[k + 1].set != set         ? &recent[k + 1]
                                               : &recent[k + (guint)(h >> 57 & 1)];
        /* by name: pms_model_set_nth would read every built-in model before it */
        for (guint i = 0; i < pms_model_set_count(set); i++)
            if (g_ascii_strcasecmp(pms_model_set_nth_name(set, i), m->name) == 0) {
                last->set = set;
                last->m = m;
                last->prep = pms_prepared_get(m);
                last->idx = i;
                break;
            }
    }
    if (!m)
        return fail_pmu(set, t, error);
    return pms_resolve_model(m, t, r, error);
}

gboolean pms_resolve(const PmsModelSet *set, const PmsTokens *t, PmsResolved *r, GError **error)
{
    if (G_UNLIKELY(!t->has_pmu))
        return fail_pmu(set, t, error);
    /* two slots per name (a pair chosen by its hash), so two names of
     * one pair both stay */
    guint64 h = recent_hash(t);
    const RecentPmu *e = &recent[(guint)(h >> 58) * 2u]; /* 64 pairs */
    if (recent_holds(e, set, t) || recent_holds(++e, set, t))
        return resolve_prepared(e->m, e->prep, t, r, error);
    return resolve_by_name(set, t, r, error, h);
}

gboolean pms_resolve_model(const PmsModel *m, const PmsTokens *t, PmsResolved *r, GError **error)
{
    return resolve_prepared(m, pms_prepared_get(m), t, r, error);
}

static gboolean resolve_prepared(const PmsModel *m, const PmsPrepared *prep, const PmsTokens *t, PmsResolved *r,
                                 GError **error)
{
    const char *s = t->str;
    char q[PMS_ENC_QUOTE_MAX];

    r->tok = t;
    r->plm = PMS_PLM_DEFAULT;
    r->user_umasks = PMS_UMASK_SET_EMPTY;
    r->thrice = PMS_UMASK_SET_EMPTY;
    r->mod_set = 0;
    r->raw = FALSE;
    r->model = m;
    r->prep = prep;
    if (r->prep->error) {
        g_set_error_literal(error, PMS_ENCODE_ERROR, r->prep->error->code, r->prep->error->message);
        return FALSE;
    }

    if (t->ev_len == 0) {
        pms_enc_fail(error, PMS_ERR_NOTFOUND, t->ev_off + 1, "missing event name after '%s::'", m->name);
        return FALSE;
    }
    gint ei = pms_tok_find(&r->prep->event_idx, t, t->ev_off, t->ev_len);
    if (ei < 0) {
        if (pms_enc_no_message(error, PMS_ERR_NOTFOUND, t->ev_off + 1))
            return FALSE;
        pms_enc_fail(error, PMS_ERR_NOTFOUND, t->ev_off + 1, "unknown event '%s' for PMU %s",
                     pms_enc_quote_buf(q, s + t->ev_off, t->ev_len), m->name);
        return FALSE;
    }
    const PmsEvent *ev = &m->events[ei];
    r->event = ev;
    const PmsPrepEvent *pe = &r->prep->events[ei];
    r->pe = pe;
    if (pe->unsupported) {
        pms_enc_fail(error, PMS_ERR_NOTSUPP, t->ev_off + 1,
                     "event %s has more unit masks or groups than the encoder handles (%d, %d)", ev->name,
                     PMS_ENC_MAX_UMASKS, PMS_ENC_MAX_GROUPS);
        return FALSE;
    }

    /* A modifier given again must repeat its value (libpfm4 checks that
     * after every attribute is known): the first one that does not is
     * reported once the loop is done, unless an attribute fails first. */
    const PmsTok *again = NULL;
    guint again_mi = 0;
    guint64 again_val = 0;
    for (guint i = 0; i < t->n_attrs; i++) {
        const PmsTok *a = &t->attrs[i];
        guint col = a->off + 1;
        if (i == PMS_ENC_MAX_ATTRS) {
            pms_enc_fail(error, PMS_ERR_TOOMANY, col, "more than %d unit masks and modifiers", PMS_ENC_MAX_ATTRS);
            return FALSE;
        }
        gsize nlen = a->eq < 0 ? a->len : (gsize)a->eq;
        if (nlen == 0) {
            pms_enc_fail(error, PMS_ERR_ATTR, col, a->len ? "attribute without a name" : "empty attribute (stray ':')");
            return FALSE;
        }
        /* A token with a value is a modifier, or an error whose wording
         * alone needs the unit-mask lookup: that lookup waits until then.
         * Modifier names are shorter than most events' unit-mask names. */
        gint ui = a->eq >= 0 || nlen < pe->umask_idx.min_len ? -1 : pms_tok_find(&pe->umask_idx, t, a->off, nlen);
        if (ui >= 0) {
            if (G_UNLIKELY(r->raw)) {
                pms_enc_fail(error, PMS_ERR_ATTR, col,
                             "unit mask '%s' cannot be combined with the raw unit mask at column %u",
                             ev->umasks[ui].name, r->raw_col);
                return FALSE;
            }
            if (!pms_uset_has(r->user_umasks, (guint)ui)) {
                r->umask_col[ui] = col;
                r->umask_count[ui] = 0;
            }
            if (++r->umask_count[ui] == 3) /* at most 64 attributes: no overflow */
                pms_uset_add(&r->thrice, (guint)ui);
            pms_uset_add(&r->user_umasks, (guint)ui);
            /* the plain-result cache reads this unit mask's kept result
             * next (its slot, encode.c): a batch of distinct strings finds
             * it out of the cache, so its load starts here, under the
             * modifiers' parsing */
            if (pe->plain)
                __builtin_prefetch(g_atomic_pointer_get(&pe->plain[ui + 1]));
            continue;
        }
        if (G_UNLIKELY(s[a->off] == '0') && nlen >= 2 && (s[a->off + 1] | 0x20) == 'x' && r->prep->fam &&
            (r->prep->fam->flags & PMS_ENC_RAW_UMASK)) {
            if (!parse_raw(r, a, nlen, error))
                return FALSE;
            continue;
        }
        guint letter;
        gint mi = nlen == 1 && a->off < PMS_ENC_FOLD_MAX && (letter = (guchar)t->up[a->off] - 'A') < 26u
            ? r->prep->mod_letter[letter + 1]
            : pms_tok_find(&r->prep->mod_idx, t, a->off, nlen);
        if (mi >= 0 && (guint)mi < r->prep->n_mods && (pe->allowed_mods & (1u << mi))) {
            guint64 val;
            if (!parse_mod(r, a, mi, &val, error))
                return FALSE;
            if (r->mod_set & (1u << mi)) {
                if (r->mod_val[mi] != val && !again) {
                    again = a;
                    again_mi = (guint)mi;
                    again_val = val;
                }
                continue;
            }
            r->mod_set |= 1u << mi;
            r->mod_val[mi] = val;
            r->mod_col[mi] = col;
            r->mod_vcol[mi] = a->eq < 0 ? col : col + (guint)a->eq + 1;
            continue;
        }
        if (mi >= 0 && (guint)mi < r->prep->n_mods) {
            if (!(ev->modifiers & (1u << mi)))
                pms_enc_fail(error, PMS_ERR_ATTR, col, "modifier '%s' does not apply to event %s%s",
                             r->prep->mods[mi].mod->name, ev->name,
                             pe->allowed_mods ? "" : ", which takes no modifier");
            else if (r->prep->mods[mi].role == PMS_ROLE_LDLAT)
                pms_enc_fail(error, PMS_ERR_ATTR, col,
                             "modifier 'ldlat' applies only to the load-latency event, not to %s", ev->name);
            else
                pms_enc_fail(error, PMS_ERR_ATTR, col,
                             "modifier '%s' does not apply to fixed-counter event %s (only k, u%s)",
                             r->prep->mods[mi].mod->name, ev->name, r->prep->role_mod[PMS_ROLE_T] >= 0 ? ", t" : "");
            return FALSE;
        }
        if (a->eq >= 0 && nlen >= pe->umask_idx.min_len)
            ui = pms_tok_find(&pe->umask_idx, t, a->off, nlen);
        if (ui >= 0) {
            pms_enc_fail(error, PMS_ERR_ATTR, col, "unit mask '%s' takes no value", ev->umasks[ui].name);
            return FALSE;
        }
        if (pms_enc_no_message(error, PMS_ERR_ATTR, col))
            return FALSE; /* nobody reads the message: skip building it */
        if (r->prep->fam && (r->prep->fam->flags & PMS_ENC_NO_PLM) && nlen == 1 &&
            (s[a->off] == 'u' || s[a->off] == 'k' || s[a->off] == 'U' || s[a->off] == 'K')) {
            pms_enc_fail(error, PMS_ERR_ATTR, col,
                         "no privilege modifier '%c' on uncore PMU %s: uncore events count at all privilege levels",
                         s[a->off], m->name);
            return FALSE;
        }
        g_autoptr(GString) msg = g_string_new("unknown unit mask or modifier '");
        pms_enc_quote(msg, s + a->off, nlen);
        g_string_append_printf(msg, "' for event %s", ev->name);
        list_choices(msg, m, ev);
        pms_enc_fail(error, PMS_ERR_ATTR, col, "%s", msg->str);
        return FALSE;
    }
    if (G_UNLIKELY(again)) {
        guint mi = again_mi;
        pms_enc_fail(error, PMS_ERR_ATTR_SET, again->off + 1,
                     "modifier '%s' given twice with different values (%" G_GUINT64_FORMAT
                     " at column %u, %" G_GUINT64_FORMAT " here)",
                     r->prep->mods[mi].mod->name, r->mod_val[mi], r->mod_col[mi], again_val);
        return FALSE;
    }
    return TRUE;
}
