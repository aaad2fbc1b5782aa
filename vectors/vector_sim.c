/* pmusim — parser of simulation vector files (vectors/<pmu>/NAME.sim; format in
 * docs/vectors-format.md, "Simulation vectors").
 *
 * A file is a sequence of blocks
 *     vector NAME
 *     event N "EVENT STRING"        (one or more)
 *     [pebs N]                      (PEBS for the event on counter N)
 *     src HOW THE EXPECTATION WAS DERIVED   (one or more lines, joined)
 *     [stimulus FILE]
 *     stimulus records: run / write / read / expect-pmi / expect-ext / @CYCLE ...
 *     end
 * The stimulus records are kept as text aligned with the file's lines and
 * parsed against the PMU's model when the vector runs (the model is not known
 * here), so stimulus errors name this file's own line numbers. */
#include "vector_internal.h"

#include <string.h>

static void sim_vector_free(gpointer p)
{
    PmsSimVector *sv = p;
    if (!sv)
        return;
    g_free(sv->name);
    for (guint i = 0; i < sv->n_events; i++)
        g_free(sv->events[i].event);
    g_free(sv->stim);
    g_free(sv->stim_ref);
    g_free(sv->stim_ref_path);
    g_free(sv->stim_ref_text);
    g_free(sv);
}

const PmsSimVector *pms_vector_sim(const PmsVector *v)
{
    return v && v->kind == PMS_VECTOR_SIM ? v->payload : NULL;
}

/* The stimulus format's record keywords (docs/stimulus-format.md). */
static gboolean is_stim_record(const char *word)
{
    return word[0] == '@' || strcmp(word, "run") == 0 || strcmp(word, "write") == 0 || strcmp(word, "read") == 0 ||
        strcmp(word, "expect-pmi") == 0 || strcmp(word, "expect-ext") == 0 || strcmp(word, "pmu") == 0 ||
        strcmp(word, "ds") == 0 || strcmp(word, "regs") == 0 || strcmp(word, "expect-pebs") == 0 ||
        strcmp(word, "expect-record") == 0;
}

/* The next blank-separated word of a line: [*p, end of word), *p moved past it. */
static gsize next_word(const char **p, const char *eol, const char **word)
{
    const char *s = *p;
    while (s < eol && (*s == ' ' || *s == '\t' || *s == '\r'))
        s++;
    *word = s;
    while (s < eol && *s != ' ' && *s != '\t' && *s != '\r')
        s++;
    *p = s;
    return (gsize)(s - *word);
}

gboolean pms_vector_sim_text_has_expectation(const char *text)
{
    /* line by line, in place: this runs on every vector's stimulus */
    for (const char *line = text ? text : ""; *line;) {
        const char *nl = strchr(line, '\n'), *eol = nl ? nl : line + strlen(line);
        const char *hash = memchr(line, '#', (gsize)(eol - line));
        const char *end = hash ? hash : eol, *p = line, *w;
        gsize n = next_word(&p, end, &w);
        if (n && w[0] == '@')
            n = next_word(&p, end, &w);
        if ((n == 10 && (strncmp(w, "expect-pmi", 10) == 0 || strncmp(w, "expect-ext", 10) == 0)) ||
            (n == 11 && strncmp(w, "expect-pebs", 11) == 0) || (n == 13 && strncmp(w, "expect-record", 13) == 0))
            return TRUE;
        if (n == 4 && strncmp(w, "read", 4) == 0) {
            const char *a, *b;
            if (next_word(&p, end, &a) && next_word(&p, end, &b))
                return TRUE;
        }
        line = nl ? nl + 1 : eol;
    }
    return FALSE;
}

typedef struct {
    PmsVector *v; /* the open block, or NULL */
    PmsSimVector *sv;
    GString *stim; /* line-aligned stimulus text of the open block */
    GString *src;
    guint stim_lines; /* lines appended to stim so far */
} Block;

static void block_pad(Block *b, guint line)
{
    /* Line `line` of the file is line `line` of the text: blank up to it. */
    while (b->stim_lines + 1 < line) {
        g_string_append_c(b->stim, '\n');
        b->stim_lines++;
    }
}

static gboolean parse_event(PmsVecLexer *lx, Block *b, GError **error)
{
    PmsSimVector *sv = b->sv;
    pms_vlex_skip_blanks(lx);
    gsize num_pos = lx->pos;
    g_autofree char *num = pms_vlex_word(lx);
    guint64 counter = 0;
    if (!num[0] || !g_ascii_string_to_unsigned(num, 10, 0, 63, &counter, NULL)) {
        lx->pos = num_pos;
        return pms_vlex_fail(lx, error, "event: counter '%s': expected a counter index 0..63 before the event string",
                             num);
    }
    for (guint i = 0; i < sv->n_events; i++)
        if (sv->events[i].counter == counter) {
            lx->pos = num_pos;
            return pms_vlex_fail(lx, error, "event: counter %u is already programmed at line %u", (guint)counter,
                                 sv->events[i].line);
        }
    if (sv->n_events >= PMS_SIM_VECTOR_MAX_EVENTS)
        return pms_vlex_fail(lx, error, "event: more than %d events in one vector", PMS_SIM_VECTOR_MAX_EVENTS);
    g_autoptr(GString) ev = g_string_new(NULL);
    if (!pms_vlex_string(lx, "the event string", ev, error))
        return FALSE;
    pms_vlex_skip_blanks(lx);
    if (lx->pos < lx->len && lx->s[lx->pos] != '#' && lx->s[lx->pos] != '\r')
        return pms_vlex_fail(lx, error, "event: unexpected text after the event string");
    PmsSimVectorEvent *e = &sv->events[sv->n_events++];
    e->counter = (guint)counter;
    e->line = lx->line;
    e->event = g_string_free(g_steal_pointer(&ev), FALSE);
    if (sv->n_events == 1) {
        b->v->event = g_strdup(e->event);
        b->v->event_len = strlen(e->event);
    }
    return TRUE;
}

/* The rest of the line after the keyword, blanks trimmed. */
static char *rest_of_line(PmsVecLexer *lx)
{
    pms_vlex_skip_blanks(lx);
    gsize end = lx->len;
    while (end > lx->pos && g_ascii_isspace(lx->s[end - 1]))
        end--;
    return g_strndup(lx->s + lx->pos, end - lx->pos);
}

static gboolean close_block(PmsVecLexer *lx, Block *b, GError **error)
{
    PmsVector *v = b->v;
    PmsSimVector *sv = b->sv;
    if (sv->n_events == 0)
        return pms_vlex_fail(lx, error, "vector '%s' (line %u) has no event: expected 'event N \"STRING\"'", sv->name,
                             v->line);
    if (b->src->len == 0)
        return pms_vlex_fail(lx, error, "vector '%s' (line %u) has no 'src': say how the expectation was derived",
                             sv->name, v->line);
    sv->stim = g_string_free(g_steal_pointer(&b->stim), FALSE);
    /* With a stimulus file the expectation may live there (checked by the
     * loader once the file is read). */
    if (!sv->stim_ref && !pms_vector_sim_text_has_expectation(sv->stim))
        return pms_vlex_fail(lx, error,
                             "vector '%s' (line %u) checks nothing: expected 'read REGISTER VALUE' or 'expect-pmi'",
                             sv->name, v->line);
    v->source = g_string_free(g_steal_pointer(&b->src), FALSE);
    b->v = NULL;
    b->sv = NULL;
    return TRUE;
}

static gboolean open_block(PmsVecLexer *lx, Block *b, GPtrArray *out, GHashTable *names, const char *file,
                           const char *pmu, GError **error)
{
    pms_vlex_skip_blanks(lx);
    gsize name_pos = lx->pos;
    g_autofree char *name = pms_vlex_word(lx);
    if (!name[0] || name[0] == '#')
        return pms_vlex_fail(lx, error, "vector: expected a name");
    pms_vlex_skip_blanks(lx);
    if (lx->pos < lx->len && lx->s[lx->pos] != '#' && lx->s[lx->pos] != '\r')
        return pms_vlex_fail(lx, error, "vector: expected one word as its name");
    if (g_hash_table_contains(names, name)) {
        lx->pos = name_pos;
        return pms_vlex_fail(lx, error, "vector '%s' is already defined at line %u", name,
                             GPOINTER_TO_UINT(g_hash_table_lookup(names, name)));
    }
    g_hash_table_insert(names, g_strdup(name), GUINT_TO_POINTER(lx->line));
    PmsVector *v = g_new0(PmsVector, 1);
    v->kind = PMS_VECTOR_SIM;
    v->pmu = g_strdup(pmu);
    v->file = g_strdup(file);
    v->line = lx->line;
    v->ret = g_strdup("PFM_SUCCESS");
    PmsSimVector *sv = g_new0(PmsSimVector, 1);
    sv->name = g_steal_pointer(&name);
    v->payload = sv;
    v->payload_free = sim_vector_free;
    g_ptr_array_add(out, v);
    b->v = v;
    b->sv = sv;
    b->stim = g_string_new(NULL);
    b->src = g_string_new(NULL);
    b->stim_lines = 0;
    return TRUE;
}

/* lbr [plm=LEVELS] [filter=NAMES] [freeze] */
static gboolean parse_lbr(PmsVecLexer *lx, Block *b, GError **error)
{
    PmsSimVector *sv = b->sv;
    if (sv->has_lbr)
        return pms_vlex_fail(lx, error, "lbr: a vector has one LBR configuration (already at line %u)", sv->lbr_line);
    PmsLbrConfig cfg = { TRUE, 0, 0, FALSE, FALSE };
    for (;;) {
        pms_vlex_skip_blanks(lx);
        if (lx->pos >= lx->len || lx->s[lx->pos] == '#' || lx->s[lx->pos] == '\r')
            break;
        gsize pos = lx->pos;
        g_autofree char *w = pms_vlex_word(lx);
        GError *e = NULL;
        gboolean ok = TRUE;
        if (g_str_has_prefix(w, "plm="))
            ok = pms_lbr_parse_plm(w + 4, &cfg.plm, &e);
        else if (g_str_has_prefix(w, "filter="))
            ok = pms_lbr_parse_filter(w + 7, &cfg.filter, &e);
        else if (strcmp(w, "freeze") == 0)
            cfg.freeze_on_pmi = TRUE;
        else if (strcmp(w, "callstack") == 0)
            cfg.callstack = TRUE;
        else {
            lx->pos = pos;
            return pms_vlex_fail(lx, error,
                                 "lbr: unknown word '%s': expected plm=LEVELS, filter=NAMES, freeze or callstack", w);
        }
        if (!ok) {
            lx->pos = pos;
            gboolean r = pms_vlex_fail(lx, error, "lbr: %s", e->message);
            g_error_free(e);
            return r;
        }
    }
    sv->has_lbr = TRUE;
    sv->lbr = cfg;
    sv->lbr_line = lx->line;
    return TRUE;
}

static gboolean parse_block_line(PmsVecLexer *lx, Block *b, const char *word, gsize word_pos, GError **error)
{
    PmsSimVector *sv = b->sv;
    if (strcmp(word, "event") == 0)
        return parse_event(lx, b, error);
    if (strcmp(word, "lbr") == 0)
        return parse_lbr(lx, b, error);
    if (strcmp(word, "pebs") == 0) {
        /* pebs N: the event on counter N also gets PEBS (pms_pebs_configure) */
        pms_vlex_skip_blanks(lx);
        gsize num_pos = lx->pos;
        g_autofree char *num = pms_vlex_word(lx);
        guint64 counter = 0;
        guint i = 0;
        if (num[0] && g_ascii_string_to_unsigned(num, 10, 0, 63, &counter, NULL))
            while (i < sv->n_events && sv->events[i].counter != counter)
                i++;
        if (!num[0] || i == sv->n_events || (num[0] && !g_ascii_string_to_unsigned(num, 10, 0, 63, &counter, NULL))) {
            lx->pos = num_pos;
            return pms_vlex_fail(lx, error, "pebs: counter '%s': expected the counter of an `event N` line above", num);
        }
        sv->events[i].pebs = TRUE;
        return TRUE;
    }
    if (strcmp(word, "src") == 0) {
        g_autofree char *text = rest_of_line(lx);
        if (!text[0])
            return pms_vlex_fail(lx, error, "src: empty: say how the expected values were derived");
        if (b->src->len)
            g_string_append_c(b->src, ' ');
        g_string_append(b->src, text);
        return TRUE;
    }
    if (strcmp(word, "stimulus") == 0) {
        if (sv->stim_ref) {
            lx->pos = word_pos;
            return pms_vlex_fail(lx, error, "stimulus: a vector references one stimulus file (already at line %u)",
                                 sv->stim_ref_line);
        }
        g_autofree char *ref = rest_of_line(lx);
        char *hash = strchr(ref, '#');
        if (hash) {
            *hash = '\0';
            g_strchomp(ref);
        }
        if (!ref[0] || strchr(ref, '/') || strchr(ref, ' ') || strcmp(ref, "..") == 0 || ref[0] == '.')
            return pms_vlex_fail(lx, error,
                                 "stimulus: expected the name of a stimulus file in the same folder (no '/')");
        sv->stim_ref = g_steal_pointer(&ref);
        sv->stim_ref_line = lx->line;
        return TRUE;
    }
    if (is_stim_record(word)) {
        block_pad(b, lx->line);
        g_string_append_len(b->stim, lx->s, (gssize)lx->len);
        g_string_append_c(b->stim, '\n');
        b->stim_lines++;
        return TRUE;
    }
    lx->pos = word_pos;
    return pms_vlex_fail(lx, error,
                         "unknown record '%s': expected event, pebs, lbr, src, stimulus, end or a stimulus record "
                         "(run, write, read, expect-pmi, expect-ext, ds, regs, expect-pebs, expect-record, @CYCLE)",
                         word);
}

gboolean pms_vector_sim_parse(GPtrArray *out, const char *data, gsize len, const char *file, const char *pmu,
                              GError **error)
{
    g_autoptr(GHashTable) names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    Block b = { 0 };
    gboolean ok = TRUE;
    guint open_line = 0;
    PmsVecLines it = { .file = file, .data = data, .len = len };
    PmsVecLexer lx;
    while (ok && pms_vlex_next_line(&it, &lx, "", error)) {
        gsize word_pos = lx.pos;
        g_autofree char *word = pms_vlex_word(&lx);
        if (strcmp(word, "vector") == 0) {
            if (b.v) {
                lx.pos = word_pos;
                ok = pms_vlex_fail(&lx, error, "expected 'end' of vector '%s' (line %u) before the next 'vector'",
                                   b.sv->name, open_line);
                break;
            }
            open_line = lx.line;
            ok = open_block(&lx, &b, out, names, file, pmu, error);
        } else if (!b.v) {
            lx.pos = word_pos;
            ok = pms_vlex_fail(&lx, error, "'%s' outside a vector: expected 'vector NAME'", word);
        } else if (strcmp(word, "end") == 0) {
            pms_vlex_skip_blanks(&lx);
            if (lx.pos < lx.len && lx.s[lx.pos] != '#' && lx.s[lx.pos] != '\r')
                ok = pms_vlex_fail(&lx, error, "end: unexpected text after 'end'");
            else
                ok = close_block(&lx, &b, error);
        } else {
            ok = parse_block_line(&lx, &b, word, word_pos, error);
        }
    }
    ok = ok && !it.failed;
    if (ok && b.v) {
        g_set_error(error, PMS_VECTOR_ERROR, PMS_VECTOR_ERROR_PARSE,
                    "%s:%u: vector '%s' has no 'end' before the end of the file", file, open_line, b.sv->name);
        ok = FALSE;
    }
    if (b.stim)
        g_string_free(b.stim, TRUE);
    if (b.src)
        g_string_free(b.src, TRUE);
    return ok;
}

gboolean pms_vector_sim_resolve(PmsVectorSet *set, PmsVecFetchFunc fetch, gpointer user_data, GError **error)
{
    for (guint i = 0; i < pms_vector_set_count(set); i++) {
        const PmsVector *v = pms_vector_set_nth(set, i);
        PmsSimVector *sv = v->kind == PMS_VECTOR_SIM ? v->payload : NULL;
        if (!sv || !sv->stim_ref)
            continue;
        GError *local = NULL;
        char *path = NULL;
        char *text = fetch(sv->stim_ref, &path, user_data, &local);
        if (!text) {
            g_set_error(error, PMS_VECTOR_ERROR, PMS_VECTOR_ERROR_PARSE, "%s:%u: stimulus '%s': %s", v->file,
                        sv->stim_ref_line, sv->stim_ref, local ? local->message : "not found");
            g_clear_error(&local);
            g_free(path);
            return FALSE;
        }
        sv->stim_ref_text = text;
        sv->stim_ref_path = path;
        if (!pms_vector_sim_text_has_expectation(sv->stim) && !pms_vector_sim_text_has_expectation(text)) {
            g_set_error(error, PMS_VECTOR_ERROR, PMS_VECTOR_ERROR_PARSE,
                        "%s:%u: vector '%s' checks nothing: expected 'read REGISTER VALUE' or 'expect-pmi' "
                        "in it or in %s",
                        v->file, v->line, sv->name, sv->stim_ref);
            return FALSE;
        }
    }
    return TRUE;
}
