/* pmusim models — read a .pmu key file (docs/model-format.md) into a PmsModel.
 *
 * Strict on purpose: unknown groups and keys, repeated ones, malformed numbers
 * and dangling names are errors naming file:line, group and key, because a
 * user's what-if variant with a typo must not silently mean something else.
 * Cross-checks that a file can violate and still be usable (overlapping
 * fields, duplicate codes, ...) are the lint's job (lint.c). */
#include <string.h>
#include "model.h"
#include "family.h"
#include "model_priv.h"
#include "keyscan.h"

typedef struct {
    PmsKeyScan scan;
    GKeyFile *kf;
    PmsModel *m;
    const char **event_keys; /* event_keys(): made once per file */
    GPtrArray *problems;     /* every "FILE:LINE: ..." found so far (keep()) */
    gint first_code;         /* the PmsModelError of the first */
} Ctx;

/* Problems of one file reported in one run (a what-if edit with three typos
 * takes one lint run, not three): the loader goes on past a group that fails
 * to the next group of the same kind, and stops after a kind with problems
 * that later kinds name (layouts, registers, modifiers; load_groups()).
 * Past this many it only counts them. */
#define MAX_PROBLEMS 100

/* Moves *err (set) into c's problems. */
static void keep(Ctx *c, GError **err)
{
    if (!c->problems->len)
        c->first_code = (*err)->code;
    g_ptr_array_add(c->problems, g_strdup((*err)->message));
    g_clear_error(err);
}

static gboolean fail(Ctx *c, GError **error, PmsModelError code, const char *group, const char *key, const char *fmt,
                     ...) G_GNUC_PRINTF(6, 7);

/* "FILE:LINE: [group] key 'k': message" */
static gboolean fail(Ctx *c, GError **error, PmsModelError code, const char *group, const char *key, const char *fmt,
                     ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    guint line = key ? pms_keyscan_key_line(&c->scan, group, key) : pms_keyscan_group_line(&c->scan, group);
    if (key)
        g_set_error(error, PMS_MODEL_ERROR, code, "%s:%u: [%s] key '%s': %s", c->scan.source, line, group, key, msg);
    else
        g_set_error(error, PMS_MODEL_ERROR, code, "%s:%u: [%s]: %s", c->scan.source, line, group, msg);
    return FALSE;
}

/* The raw value, stripped; NULL when absent. */
static char *get_raw(Ctx *c, const char *group, const char *key)
{
    char *v = g_key_file_get_value(c->kf, group, key, NULL);
    return v ? g_strstrip(v) : NULL;
}

static gboolean get_u64(Ctx *c, const char *group, const char *key, gboolean required, guint64 dflt, guint64 max,
                        guint64 *out, GError **error)
{
    g_autofree char *v = get_raw(c, group, key);
    if (!v) {
        if (required)
            return fail(c, error, PMS_MODEL_ERROR_KEY, group, NULL, "missing key '%s'", key);
        *out = dflt;
        return TRUE;
    }
    if (!pms_parse_u64(v, out) || *out > max)
        return fail(c, error, PMS_MODEL_ERROR_KEY, group, key,
                    "expected a number (decimal or 0x-hex) <= %" G_GUINT64_FORMAT ", got '%s'", max, v);
    return TRUE;
}

static gboolean get_uint(Ctx *c, const char *group, const char *key, gboolean required, guint dflt, guint max,
                         guint *out, GError **error)
{
    guint64 v;
    if (!get_u64(c, group, key, required, dflt, max, &v, error))
        return FALSE;
    *out = (guint)v;
    return TRUE;
}

static gboolean get_bool(Ctx *c, const char *group, const char *key, gboolean dflt, gboolean *out, GError **error)
{
    g_autofree char *v = get_raw(c, group, key);
    if (!v)
        *out = dflt;
    else if (strcmp(v, "true") == 0)
        *out = TRUE;
    else if (strcmp(v, "false") == 0)
        *out = FALSE;
    else
        return fail(c, error, PMS_MODEL_ERROR_KEY, group, key, "expected true or false, got '%s'", v);
    return TRUE;
}

static guint count_char(const char *s, char ch)
{
    guint n = 0;
    for (; s && *s; s++)
        n += *s == ch;
    return n;
}

/* A text value with GKeyFile's escapes (\n, \s ...) applied. */
static gboolean get_text(Ctx *c, const char *group, const char *key, gboolean required, char **out, GError **error)
{
    *out = NULL;
    if (!g_key_file_has_key(c->kf, group, key, NULL)) {
        if (required)
            return fail(c, error, PMS_MODEL_ERROR_KEY, group, NULL, "missing key '%s'", key);
        return TRUE;
    }
    g_autoptr(GError) e = NULL;
    char *v = g_key_file_get_string(c->kf, group, key, &e);
    if (!v)
        return fail(c, error, PMS_MODEL_ERROR_KEY, group, key, "%s", e->message);
    /* A text is one line: the escapes \n, \r and \t would make a control
     * character of it, and a desc of two lines breaks the one-line-per-PMU
     * listing (issue 20).  A raw CR stays text like any other (a lone CR is
     * no line end of the file, and the file's own text is what it is). */
    g_autofree char *raw = get_raw(c, group, key);
    static const char esc[] = { 'n', 'r', 't' }, ctl[] = { '\n', '\r', '\t' };
    for (guint i = 0; i < G_N_ELEMENTS(ctl); i++)
        if (count_char(v, ctl[i]) > count_char(raw, ctl[i])) {
            g_free(v);
            return fail(c, error, PMS_MODEL_ERROR_KEY, group, key,
                        "%s must be one line of text: the escape \\%c makes a control character (0x%02x) of it", key,
                        esc[i], (guint)ctl[i]);
        }
    *out = g_strstrip(v);
    return TRUE;
}

/* Event, umask and register names: what libpfm4 strings can spell. */
static gboolean name_ok(const char *s)
{
    if (!*s)
        return FALSE;
    for (const char *p = s; *p; p++)
        if (!g_ascii_isalnum(*p) && *p != '_' && *p != '-' && *p != '.')
            return FALSE;
    return TRUE;
}

static gboolean check_keys(Ctx *c, const char *group, const char *const *allowed, const char *const *prefixes,
                           GError **error)
{
    g_auto(GStrv) keys = g_key_file_get_keys(c->kf, group, NULL, NULL);
    for (guint i = 0; keys && keys[i]; i++) {
        gboolean ok = FALSE;
        for (guint j = 0; allowed && allowed[j] && !ok; j++)
            ok = strcmp(keys[i], allowed[j]) == 0;
        for (guint j = 0; prefixes && prefixes[j] && !ok; j++)
            ok = g_str_has_prefix(keys[i], prefixes[j]) && keys[i][strlen(prefixes[j])];
        if (!ok) {
            g_autofree char *list = g_strjoinv(", ", (char **)allowed);
            return fail(c, error, PMS_MODEL_ERROR_KEY, group, keys[i], "unknown key; expected one of: %s%s", list,
                        prefixes ? " (or umask.U, desc.U, group.G)" : "");
        }
    }
    return TRUE;
}

/* ---- [pmu] ---- */

/* One number of an instance list, 0..PMS_MAX_INSTANCE. */
#define PMS_MAX_INSTANCE 1023u
#define PMS_MAX_INSTANCES 64u

static gboolean instance_number(const char *s, guint *out)
{
    guint64 v;
    if (!pms_parse_u64(s, &v) || v > PMS_MAX_INSTANCE)
        return FALSE;
    *out = (guint)v;
    return TRUE;
}

/* "N" or "N..M" appended to m->instances; FALSE with a message. */
static gboolean instance_item(PmsModel *m, char *item, GString *why)
{
    char *dots = strstr(g_strstrip(item), "..");
    guint lo, hi;
    if (dots)
        *dots = 0;
    if (!instance_number(g_strstrip(item), &lo) || (dots && !instance_number(g_strstrip(dots + 2), &hi))) {
        g_string_printf(why, "expected N or N..M (0..%u)", PMS_MAX_INSTANCE);
        return FALSE;
    }
    if (!dots)
        hi = lo;
    if (hi < lo) {
        g_string_printf(why, "range %u..%u runs backwards", lo, hi);
        return FALSE;
    }
    for (guint v = lo; v <= hi; v++) {
        for (guint j = 0; j < m->n_instances; j++)
            if (m->instances[j] == v) {
                g_string_printf(why, "instance %u named twice", v);
                return FALSE;
            }
        if (m->n_instances == PMS_MAX_INSTANCES) {
            g_string_printf(why, "more than %u instances", PMS_MAX_INSTANCES);
            return FALSE;
        }
        m->instances[m->n_instances++] = v;
    }
    return TRUE;
}

/* instances = UNIT:LIST, name_pattern, desc_pattern: the file provides one
 * PMU per instance (docs/model-format.md).  Whether the unit and each
 * instance have registers is checked once the registers are read
 * (instances_have_registers). */
static gboolean parse_instances(Ctx *c, const char *g, GError **error)
{
    PmsModel *m = c->m;
    g_autofree char *spec = get_raw(c, g, "instances");
    if (!spec) {
        const char *stray = g_key_file_has_key(c->kf, g, "name_pattern", NULL) ? "name_pattern"
            : g_key_file_has_key(c->kf, g, "desc_pattern", NULL)               ? "desc_pattern"
                                                                               : NULL;
        if (stray)
            return fail(c, error, PMS_MODEL_ERROR_KEY, g, stray, "only with 'instances' (a file of several PMUs)");
        return TRUE;
    }
    if (m->unit || g_key_file_has_key(c->kf, g, "instance", NULL))
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, "instances",
                    "names the unit and its instances: leave out 'unit' and 'instance'");
    char *colon = strchr(spec, ':');
    if (colon)
        *colon = 0;
    if (!colon || !name_ok(g_strstrip(spec)))
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, "instances",
                    "expected UNIT:LIST (cbox:0..7, cbox:0,2,4..5), got '%s%s%s'", spec, colon ? ":" : "",
                    colon ? colon + 1 : "");
    m->unit = g_strdup(spec);
    m->instances = g_new0(guint, PMS_MAX_INSTANCES);
    g_auto(GStrv) items = g_strsplit(colon + 1, ",", -1);
    g_autoptr(GString) why = g_string_new(NULL);
    for (guint i = 0; items[i]; i++)
        if (!instance_item(m, items[i], why))
            return fail(c, error, PMS_MODEL_ERROR_KEY, g, "instances", "'%s': %s", colon + 1, why->str);
    if (m->n_instances == 0)
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, "instances", "no instance listed");
    m->instance = m->instances[0];
    if (!get_text(c, g, "name_pattern", FALSE, &m->name_pattern, error) ||
        !get_text(c, g, "desc_pattern", FALSE, &m->desc_pattern, error))
        return FALSE;
    if (!m->name_pattern)
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, NULL, "missing key 'name_pattern' (required with 'instances')");
    g_autofree char *sample = pms_model_pattern_format(m->name_pattern, m->instances[0]);
    if (!strstr(m->name_pattern, "%u") || !sample || !name_ok(sample))
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, "name_pattern",
                    "expected a name with %%u for the instance number (nhmex_cbox%%u), got '%s'", m->name_pattern);
    g_autofree char *dsample = m->desc_pattern ? pms_model_pattern_format(m->desc_pattern, 0) : NULL;
    if (m->desc_pattern && !dsample)
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, "desc_pattern",
                    "'%s': %%u is the instance number and %%%% a '%%'; no other %% sequence", m->desc_pattern);
    return TRUE;
}

/* The unit of `instances` is a dangling name unless registers belong to it,
 * and a PMU of an instance without registers could encode nothing. */
static gboolean instances_have_registers(Ctx *c, GError **error)
{
    const PmsModel *m = c->m;
    for (guint i = 0; i < m->n_instances; i++) {
        gboolean unit_seen = FALSE, found = FALSE;
        for (guint j = 0; j < m->n_regs && !found; j++)
            if (g_strcmp0(m->regs[j].unit, m->unit) == 0) {
                unit_seen = TRUE;
                found = m->regs[j].instance == m->instances[i];
            }
        if (!unit_seen)
            return fail(c, error, PMS_MODEL_ERROR_KEY, "pmu", "instances",
                        "no register of unit '%s' in this file (a register's 'unit' key names it)", m->unit);
        if (!found)
            return fail(c, error, PMS_MODEL_ERROR_KEY, "pmu", "instances", "no register of %s instance %u in this file",
                        m->unit, m->instances[i]);
    }
    return TRUE;
}

static gboolean parse_header(Ctx *c, GError **error)
{
    static const char *const allowed[] = {
        "name",     "desc",           "arch",        "version",          "smt",           "gp_counters",
        "gp_width", "fixed_counters", "fixed_width", "edge_needs_cmask", "offcore_style", "unit",
        "instance", "counter_base",   "instances",   "name_pattern",     "desc_pattern",  NULL
    };
    const char *g = "pmu";
    PmsModel *m = c->m;
    if (!g_key_file_has_group(c->kf, g)) {
        g_set_error(error, PMS_MODEL_ERROR, PMS_MODEL_ERROR_KEY, "%s:1: missing group [pmu] (the model header)",
                    c->scan.source);
        return FALSE;
    }
    m->source_line = pms_keyscan_group_line(&c->scan, g);
    if (!check_keys(c, g, allowed, NULL, error) || !get_text(c, g, "name", TRUE, &m->name, error) ||
        !get_text(c, g, "desc", FALSE, &m->desc, error))
        return FALSE;
    if (!name_ok(m->name))
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, "name", "expected a word of letters, digits or '_', got '%s'",
                    m->name);
    g_autofree char *arch = get_raw(c, g, "arch");
    if (!arch)
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, NULL, "missing key 'arch'");
    m->family = pms_family_by_name(arch);
    if (!m->family)
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, "arch", "expected %s, got '%s'", pms_family_names(), arch);
    if (!get_uint(c, g, "version", FALSE, 0, 255, &m->version, error) ||
        !get_bool(c, g, "smt", FALSE, &m->smt, error) ||
        !get_uint(c, g, "gp_counters", FALSE, 0, 64, &m->n_gp, error) ||
        !get_uint(c, g, "gp_width", FALSE, 0, 64, &m->gp_width, error) ||
        !get_uint(c, g, "fixed_counters", FALSE, 0, 32, &m->n_fixed, error) ||
        !get_uint(c, g, "fixed_width", FALSE, 0, 64, &m->fixed_width, error) ||
        !get_uint(c, g, "counter_base", FALSE, 0, 63, &m->counter_base, error) ||
        !get_bool(c, g, "edge_needs_cmask", FALSE, &m->edge_needs_cmask, error))
        return FALSE;
    g_autofree char *style = get_raw(c, g, "offcore_style");
    if (style && strcmp(style, "nhm") != 0 && strcmp(style, "glm") != 0 && strcmp(style, "none") != 0)
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, "offcore_style", "expected nhm, glm or none, got '%s'", style);
    if (style && strcmp(style, "none") != 0)
        m->offcore_style = g_steal_pointer(&style);
    if (!get_text(c, g, "unit", FALSE, &m->unit, error) ||
        !get_uint(c, g, "instance", FALSE, 0, 1023, &m->instance, error))
        return FALSE;
    if (m->unit && !name_ok(m->unit))
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, "unit", "expected a word of letters, digits or '_', got '%s'",
                    m->unit);
    return parse_instances(c, g, error);
}

/* ---- [layout NAME] ---- */

/* "HI:LO" or "BIT" */
static gboolean parse_bits(const char *v, guint *shift, guint *width)
{
    g_auto(GStrv) parts = g_strsplit(v, ":", 3);
    guint64 hi, lo;
    guint n = g_strv_length(parts);
    if (n < 1 || n > 2 || !pms_parse_u64(g_strstrip(parts[0]), &hi))
        return FALSE;
    lo = hi;
    if (n == 2 && !pms_parse_u64(g_strstrip(parts[1]), &lo))
        return FALSE;
    if (hi > 63 || lo > hi)
        return FALSE;
    *shift = (guint)lo;
    *width = (guint)(hi - lo + 1);
    return TRUE;
}

static gboolean parse_layout(Ctx *c, const char *g, const char *name, PmsLayout *l, GError **error)
{
    l->name = g_ascii_strdown(name, -1);
    l->source_line = pms_keyscan_group_line(&c->scan, g);
    g_auto(GStrv) keys = g_key_file_get_keys(c->kf, g, NULL, NULL);
    guint n = keys ? g_strv_length(keys) : 0;
    l->fields = g_new0(PmsField, n);
    for (guint i = 0; i < n; i++) {
        g_autofree char *v = get_raw(c, g, keys[i]);
        PmsField *f = &l->fields[l->n_fields++];
        f->name = g_ascii_strdown(keys[i], -1);
        for (guint j = 0; j + 1 < l->n_fields; j++)
            if (strcmp(l->fields[j].name, f->name) == 0)
                return fail(c, error, PMS_MODEL_ERROR_CONFLICT, g, keys[i],
                            "field declared twice (names are case-insensitive)");
        if (!parse_bits(v, &f->shift, &f->width))
            return fail(c, error, PMS_MODEL_ERROR_KEY, g, keys[i],
                        "expected a bit range HI:LO or a bit number (0..63, HI >= LO), got '%s'", v);
    }
    return TRUE;
}

/* ---- [register NAME] ---- */

/* `alias = NAME`: the register is another name (and address) of an
 * earlier one; it takes that register's facts, so the file states them
 * once (model.h PmsRegister.alias). */
/* Where a register is: its address and address space, which an alias
 * states as its own as much as a register does. */
static gboolean parse_location(Ctx *c, const char *g, PmsRegister *r, GError **error)
{
    guint64 addr;
    if (!get_u64(c, g, "address", TRUE, 0, G_MAXUINT32, &addr, error))
        return FALSE;
    r->address = (guint32)addr;
    g_autofree char *space = get_raw(c, g, "space");
    if (space && !pms_reg_space_from_name(space, &r->space))
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, "space", "expected msr, pmc, pmd, ibr or dbr, got '%s'", space);
    return TRUE;
}

static gboolean parse_alias(Ctx *c, const char *g, PmsRegister *r, GError **error)
{
    static const char *const allowed[] = { "address", "alias", "space", NULL };
    if (!check_keys(c, g, allowed, NULL, error) || !parse_location(c, g, r, error))
        return FALSE;
    g_autofree char *target = get_raw(c, g, "alias");
    const PmsRegister *t = target ? pms_model_reg_by_name(c->m, target) : NULL;
    if (!t)
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, "alias",
                    "no register '%s' declared before this one (an alias names an earlier register)",
                    target ? target : "");
    if (t->alias)
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, "alias", "%s is itself an alias (of %s): name that register",
                    t->name, t->alias->name);
    r->kind = PMS_REG_OTHER;
    r->index = t->index;
    r->width = t->width;
    r->writable = t->writable;
    r->ignored = t->ignored;
    r->reset = t->reset;
    r->readonly = t->readonly;
    r->layout = t->layout;
    r->unit = g_strdup(t->unit);
    r->instance = t->instance;
    r->alias = t;
    return TRUE;
}

static gboolean parse_register(Ctx *c, const char *g, const char *name, PmsRegister *r, GError **error)
{
    static const char *const allowed[] = { "address",  "kind",   "index", "width", "writable", "ignored", "reset",
                                           "readonly", "layout", "space", "unit",  "instance", NULL };
    r->name = g_ascii_strup(name, -1);
    r->source_line = pms_keyscan_group_line(&c->scan, g);
    if (g_key_file_has_key(c->kf, g, "alias", NULL))
        return parse_alias(c, g, r, error);
    if (!check_keys(c, g, allowed, NULL, error) || !parse_location(c, g, r, error))
        return FALSE;
    g_autofree char *kind = get_raw(c, g, "kind");
    if (!kind)
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, NULL, "missing key 'kind'");
    if (!pms_reg_kind_from_name(kind, &r->kind))
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, "kind", "unknown register kind '%s' (see docs/model-format.md)",
                    kind);
    if (!get_uint(c, g, "index", FALSE, 0, 1023, &r->index, error) ||
        !get_uint(c, g, "width", FALSE, 64, 64, &r->width, error) ||
        !get_u64(c, g, "writable", FALSE, G_MAXUINT64, G_MAXUINT64, &r->writable, error) ||
        !get_u64(c, g, "ignored", FALSE, 0, G_MAXUINT64, &r->ignored, error) ||
        !get_u64(c, g, "reset", FALSE, 0, G_MAXUINT64, &r->reset, error) ||
        !get_bool(c, g, "readonly", FALSE, &r->readonly, error))
        return FALSE;
    if (r->width == 0)
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, "width", "expected 1..64");
    /* A counter's width has one source, [pmu] gp_width / fixed_width, which
     * the simulator counts with: a counter register takes it when it gives
     * none, and one that gives another is refused (an edit there would
     * otherwise change nothing); its writable and ignored masks, when not
     * given, follow from the width (family.h counter_upper_ignored).  Which
     * registers are counters: pms_model_counter_width. */
    guint want = pms_model_counter_width(c->m, r->kind, r->index);
    if (want) {
        g_autofree char *given = get_raw(c, g, "width");
        if (!given)
            r->width = want;
        else if (r->width != want)
            return fail(c, error, PMS_MODEL_ERROR_CONFLICT, g, "width",
                        "%u, but [pmu] %s = %u: a counter's width is set there (or leave this key out)", r->width,
                        r->kind == PMS_REG_FIXED_CTR ? "fixed_width" : "gp_width", want);
        guint64 bits = want >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT(1) << want) - 1;
        if (!g_key_file_has_key(c->kf, g, "writable", NULL))
            r->writable = bits;
        if (!g_key_file_has_key(c->kf, g, "ignored", NULL) && c->m->family->counter_upper_ignored)
            r->ignored = ~bits;
    }
    if (r->ignored & r->writable)
        return fail(c, error, PMS_MODEL_ERROR_CONFLICT, g, "ignored",
                    "bits 0x%" G_GINT64_MODIFIER "x are both writable and ignored", r->ignored & r->writable);
    if (!get_text(c, g, "unit", FALSE, &r->unit, error) ||
        !get_uint(c, g, "instance", FALSE, 0, 1023, &r->instance, error))
        return FALSE;
    if (r->unit && !name_ok(r->unit))
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, "unit", "expected a word of letters, digits or '_', got '%s'",
                    r->unit);
    g_autofree char *layout = get_raw(c, g, "layout");
    if (layout) {
        r->layout = pms_model_layout(c->m, layout);
        if (!r->layout)
            return fail(c, error, PMS_MODEL_ERROR_KEY, g, "layout", "no [layout %s] in this file", layout);
    }
    return TRUE;
}

/* ---- [modifier NAME] ---- */

/* Names a batch-protocol line or an event string carries (events, unit masks,
 * modifiers): no '.', which the stimulus's EVENT.UMASK splits on, besides the
 * ':', '=', ',', TAB and blanks name_ok already refuses. */
static gboolean string_name_ok(const char *s)
{
    return name_ok(s) && !strchr(s, '.');
}

/* An equiv value is an event string itself: NAME[:NAME|:MOD=NUMBER]... */
static gboolean equiv_ok(const char *s)
{
    g_auto(GStrv) t = g_strsplit(s, ":", -1);
    if (!t[0])
        return FALSE;
    for (guint i = 0; t[i]; i++) {
        char *eq = strchr(t[i], '=');
        guint64 v;
        if (eq)
            *eq = 0;
        if (!string_name_ok(t[i]) || (eq && !pms_parse_u64(eq + 1, &v)))
            return FALSE;
    }
    return TRUE;
}

#define EQUIV_EXPECTED "expected an event string: NAME[:UMASK|:MOD=N]..., names of letters, digits, '_', '-'"

static gboolean parse_modifier(Ctx *c, const char *g, const char *name, PmsModifier *mod, GError **error)
{
    if (!string_name_ok(name))
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, NULL,
                    "bad modifier name '%s': expected letters, digits, '_', '-'", name);
    static const char *const allowed[] = { "type", "range", "register", "field", "desc", NULL };
    mod->name = g_ascii_strdown(name, -1);
    mod->source_line = pms_keyscan_group_line(&c->scan, g);
    if (!check_keys(c, g, allowed, NULL, error))
        return FALSE;
    g_autofree char *type = get_raw(c, g, "type");
    if (!type)
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, NULL, "missing key 'type'");
    if (strcmp(type, "bool") == 0)
        mod->type = PMS_MOD_BOOL;
    else if (strcmp(type, "int") == 0)
        mod->type = PMS_MOD_INT;
    else
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, "type", "expected bool or int, got '%s'", type);
    g_autofree char *range = get_raw(c, g, "range");
    mod->min = 0;
    mod->max = 1;
    if (!range && mod->type == PMS_MOD_INT)
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, NULL, "missing key 'range' (required for int modifiers)");
    if (range) {
        g_auto(GStrv) p = g_strsplit(range, ":", 3);
        if (g_strv_length(p) != 2 || !pms_parse_u64(g_strstrip(p[0]), &mod->min) ||
            !pms_parse_u64(g_strstrip(p[1]), &mod->max) || mod->min > mod->max ||
            (mod->type == PMS_MOD_BOOL && mod->max > 1))
            return fail(c, error, PMS_MODEL_ERROR_KEY, g, "range",
                        "expected MIN:MAX with MIN <= MAX (bool: within 0:1), got '%s'", range);
    }
    g_autofree char *reg = get_raw(c, g, "register");
    PmsRegKind kind;
    if (!reg)
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, NULL, "missing key 'register'");
    if (!pms_reg_kind_from_name(reg, &kind))
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, "register", "unknown register kind '%s'", reg);
    mod->reg_kind = g_ascii_strdown(reg, -1);
    mod->field = get_raw(c, g, "field");
    if (!mod->field)
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, NULL, "missing key 'field'");
    return get_text(c, g, "desc", FALSE, &mod->desc, error);
}

/* ---- [event NAME] ---- */

static gint find_group(const PmsEvent *e, const char *name)
{
    for (guint i = 0; i < e->n_groups; i++)
        if (g_ascii_strcasecmp(e->groups[i].name, name) == 0)
            return (gint)i;
    return -1;
}

static gboolean parse_group_words(Ctx *c, const char *g, const char *key, PmsUmaskGroup *grp, GError **error)
{
    g_autofree char *v = get_raw(c, g, key);
    g_auto(GStrv) words = g_strsplit_set(v, " \t", -1);
    for (guint i = 0; words[i]; i++) {
        if (!*words[i] || strcmp(words[i], "optional") == 0)
            continue;
        if (strcmp(words[i], "required") == 0)
            grp->required = TRUE;
        else if (strcmp(words[i], "exclusive") == 0)
            grp->exclusive = TRUE;
        else
            return fail(c, error, PMS_MODEL_ERROR_KEY, g, key,
                        "unknown group word '%s'; expected required, optional or exclusive", words[i]);
    }
    return TRUE;
}

/* The unnamed group: declared by a "group" key or created by its first member. */
static guint unnamed_group(PmsEvent *e, guint capacity)
{
    gint i = find_group(e, "");
    if (i >= 0)
        return (guint)i;
    g_assert(e->n_groups < capacity);
    PmsUmaskGroup *grp = &e->groups[e->n_groups];
    grp->name = g_strdup("");
    grp->required = TRUE;
    return e->n_groups++;
}

/* "code=0x3c", "counters=0x3", "fixed=0x2": per-umask overrides. */
static gboolean parse_override(const char *word, PmsUmask *u, gboolean *matched)
{
    guint64 v;
    *matched = TRUE;
    if (g_str_has_prefix(word, "code="))
        return pms_parse_u64(word + 5, &v) && v <= 0xff && ((u->code = (gint)v), TRUE);
    if (g_str_has_prefix(word, "counters="))
        return pms_parse_u64(word + 9, &u->counters);
    if (g_str_has_prefix(word, "fixed="))
        return pms_parse_u64(word + 6, &v) && v <= G_MAXUINT32 && ((u->fixed = (guint32)v), TRUE);
    *matched = FALSE;
    return TRUE;
}

static gboolean parse_forced(const char *word, PmsUmask *u, gboolean *matched)
{
    static const struct {
        const char *prefix;
        gsize off;
        guint64 max;
    } forced[] = {
        { "c=", G_STRUCT_OFFSET(PmsUmask, cmask), 255 },
        { "i=", G_STRUCT_OFFSET(PmsUmask, inv), 1 },
        { "e=", G_STRUCT_OFFSET(PmsUmask, edge), 1 },
        { "t=", G_STRUCT_OFFSET(PmsUmask, any), 1 },
    };
    *matched = FALSE;
    for (guint i = 0; i < G_N_ELEMENTS(forced); i++)
        if (g_str_has_prefix(word, forced[i].prefix)) {
            guint64 v;
            *matched = TRUE;
            if (!pms_parse_u64(word + 2, &v) || v > forced[i].max)
                return FALSE;
            G_STRUCT_MEMBER(gint, u, forced[i].off) = (gint)v;
            return TRUE;
        }
    return TRUE;
}

static gboolean parse_umask(Ctx *c, const char *g, const char *key, PmsEvent *e, guint group_cap, GError **error)
{
    const char *uname = key + strlen("umask.");
    if (!string_name_ok(uname))
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, key,
                    "bad unit mask name '%s': expected letters, digits, '_', '-'", uname);
    if (pms_event_umask(e, uname))
        return fail(c, error, PMS_MODEL_ERROR_CONFLICT, g, key,
                    "unit mask %s declared twice (names are case-insensitive)", uname);
    PmsUmask *u = &e->umasks[e->n_umasks];
    u->name = g_ascii_strup(uname, -1);
    u->cmask = u->inv = u->edge = u->any = u->code = -1;
    u->counters = e->counters;
    u->fixed = e->fixed;
    u->source_line = pms_keyscan_key_line(&c->scan, g, key);
    e->n_umasks++;

    g_autofree char *v = get_raw(c, g, key);
    g_auto(GStrv) words = g_strsplit_set(v, " \t", -1);
    if (!words[0] || !pms_parse_u64(words[0], &u->value))
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, key,
                    "expected 'VALUE [group=G] [default] [excl] [override] [c=N i=N e=N t=N] [equiv=ALIAS]', got '%s'",
                    v);
    const char *gname = "";
    for (guint i = 1; words[i]; i++) {
        const char *w = words[i];
        gboolean forced;
        if (!*w)
            continue;
        if (strcmp(w, "default") == 0)
            u->flags |= PMS_UMASK_DEFAULT;
        else if (strcmp(w, "excl") == 0)
            u->flags |= PMS_UMASK_EXCL;
        else if (strcmp(w, "override") == 0)
            u->flags |= PMS_UMASK_OVERRIDE;
        else if (strcmp(w, "dup") == 0)
            u->flags |= PMS_UMASK_DUP;
        else if (strcmp(w, "ldlat") == 0)
            u->flags |= PMS_UMASK_LDLAT;
        else if (g_str_has_prefix(w, "group="))
            gname = w + strlen("group=");
        else if (g_str_has_prefix(w, "equiv=") && w[6] && !u->equiv) {
            if (!equiv_ok(w + strlen("equiv=")))
                return fail(c, error, PMS_MODEL_ERROR_KEY, g, key, "equiv '%s': " EQUIV_EXPECTED, w + 6);
            u->equiv = g_strdup(w + strlen("equiv="));
        } else if (!parse_override(w, u, &forced))
            return fail(c, error, PMS_MODEL_ERROR_KEY, g, key,
                        "bad override '%s': expected code=0..0xff, counters=MASK or fixed=MASK", w);
        else if (forced)
            continue;
        else if (!parse_forced(w, u, &forced))
            return fail(c, error, PMS_MODEL_ERROR_KEY, g, key,
                        "bad forced modifier '%s': expected c=0..255, i/e/t=0..1", w);
        else if (!forced)
            return fail(c, error, PMS_MODEL_ERROR_KEY, g, key,
                        "unknown word '%s'; expected group=G, default, excl, override, dup, ldlat, c=N, i=N, e=N, t=N, "
                        "equiv=ALIAS, code=N, counters=M or fixed=M",
                        w);
    }
    if (*gname) {
        gint gi = find_group(e, gname);
        if (gi < 0)
            return fail(c, error, PMS_MODEL_ERROR_KEY, g, key,
                        "group '%s' is not declared (add 'group.%s = required|optional [exclusive]')", gname, gname);
        u->group = (guint)gi;
    } else {
        u->group = unnamed_group(e, group_cap);
    }
    return TRUE;
}

/* A word from `names` (index = enum value); absent: *out = 0. */
static gboolean get_word(Ctx *c, const char *g, const char *key, const char *const *names, guint n, guint *out,
                         GError **error)
{
    g_autofree char *v = get_raw(c, g, key);
    *out = 0;
    if (!v)
        return TRUE;
    for (guint i = 0; i < n; i++)
        if (names[i] && strcmp(v, names[i]) == 0) {
            *out = i;
            return TRUE;
        }
    g_autoptr(GString) list = g_string_new(NULL);
    for (guint i = 0; i < n; i++)
        if (names[i])
            g_string_append_printf(list, "%s%s", list->len ? ", " : "", names[i]);
    return fail(c, error, PMS_MODEL_ERROR_KEY, g, key, "expected one of %s, got '%s'", list->str, v);
}

/* "opcm, iarr, darr" */
static char *word_list(const PmsEventFact *f)
{
    GString *list = g_string_new(NULL);
    for (guint i = 0; i < f->n_words; i++)
        if (f->words[i])
            g_string_append_printf(list, "%s%s", list->len ? ", " : "", f->words[i]);
    return g_string_free(list, FALSE);
}

/* FLAGS: any of f->words (bit i: words[i]), or f->none alone. */
static gboolean get_flags(Ctx *c, const char *g, const PmsEventFact *f, const char *v, guint32 *out, GError **error)
{
    g_auto(GStrv) words = g_strsplit_set(v, " \t,", -1);
    g_autofree char *list = word_list(f);
    const char *item = f->item ? f->item : "word";
    guint n = 0;
    gboolean none = FALSE;
    *out = 0;
    for (guint i = 0; words[i]; i++) {
        const char *w = words[i];
        if (!*w)
            continue;
        n++;
        gboolean known = f->none && strcmp(w, f->none) == 0;
        none = none || known;
        for (guint j = 0; j < f->n_words && j < 32 && !known; j++)
            if (f->words[j] && strcmp(w, f->words[j]) == 0) {
                *out |= 1u << j;
                known = TRUE;
            }
        if (!known)
            return fail(c, error, PMS_MODEL_ERROR_KEY, g, f->key, "unknown %s '%s'; expected %s%s%s", item, w,
                        f->none ? f->none : "", f->none ? " or any of " : "any of ", list);
    }
    if (n == 0 || (none && n > 1)) {
        if (f->none)
            return fail(c, error, PMS_MODEL_ERROR_KEY, g, f->key, "expected '%s' alone or a list of %s, got '%s'",
                        f->none, list, v);
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, f->key, "expected a list of %s, got '%s'", list, v);
    }
    return TRUE;
}

/* One fact of the family's table (family.h PmsEventFact); absent: its default. */
static gboolean parse_fact(Ctx *c, const char *g, const PmsEventFact *f, guint32 *out, GError **error)
{
    g_autofree char *v = get_raw(c, g, f->key);
    *out = f->dflt;
    if (!v)
        return TRUE;
    guint64 n;
    guint w;
    gboolean b;
    switch (f->kind) {
    case PMS_FACT_UINT:
        if (!get_u64(c, g, f->key, FALSE, 0, f->max, &n, error))
            return FALSE;
        if (n < f->min) {
            /* the default lies outside the range: it cannot be written */
            const char *hint = f->dflt < f->min || f->dflt > f->max ? " (leave the key out when unknown)" : "";
            if (f->expect)
                return fail(c, error, PMS_MODEL_ERROR_KEY, g, f->key, "expected %s, got %" G_GUINT64_FORMAT "%s",
                            f->expect, n, hint);
            return fail(c, error, PMS_MODEL_ERROR_KEY, g, f->key, "expected %u..%u, got %" G_GUINT64_FORMAT "%s",
                        f->min, f->max, n, hint);
        }
        *out = (guint32)n;
        return TRUE;
    case PMS_FACT_WORD:
        if (!get_word(c, g, f->key, f->words, f->n_words, &w, error))
            return FALSE;
        *out = w;
        return TRUE;
    case PMS_FACT_BOOL:
        if (!get_bool(c, g, f->key, FALSE, &b, error))
            return FALSE;
        *out = (guint32)b;
        return TRUE;
    case PMS_FACT_FLAGS:
        return get_flags(c, g, f, v, out, error);
    }
    return TRUE;
}

/* The family's own per-event facts (family.h PmsEventFacts), read by its
 * table into the event's facts struct; their consistency is the family's check_event, once the event is
 * read (facts_consistent). */
static gboolean parse_facts(Ctx *c, const char *g, PmsEvent *e, GError **error)
{
    const PmsEventFacts *ef = c->m->family->event_facts;
    for (guint k = 0; ef && e->facts && k < ef->n_keys; k++) {
        guint32 v;
        if (!parse_fact(c, g, &ef->keys[k], &v, error))
            return FALSE;
        pms_fact_set((gpointer)e->facts, &ef->keys[k], v);
    }
    return TRUE;
}

/* The keys an [event] group may have: the generic ones, then the family's
 * facts (another family's are unknown keys). */
static const char *const *event_keys(Ctx *c)
{
    static const char *const generic[] = { "code",  "base_umask", "counters", "fixed", "flags",     "extra",
                                           "match", "desc",       "group",    "equiv", "modifiers", NULL };
    const PmsEventFacts *ef = c->m->family->event_facts;
    if (!ef)
        return generic;
    if (!c->event_keys) {
        GPtrArray *a = g_ptr_array_new();
        for (guint i = 0; generic[i]; i++)
            g_ptr_array_add(a, (gpointer)generic[i]);
        for (guint k = 0; k < ef->n_keys; k++)
            g_ptr_array_add(a, (gpointer)ef->keys[k].key);
        g_ptr_array_add(a, NULL);
        c->event_keys = (const char **)g_ptr_array_free(a, FALSE);
    }
    return c->event_keys;
}

static gboolean parse_event(Ctx *c, const char *g, const char *name, PmsEvent *e, GError **error)
{
    static const char *const prefixes[] = { "umask.", "desc.", "group.", NULL };
    if (!string_name_ok(name))
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, NULL, "bad event name '%s': expected letters, digits, '_', '-'",
                    name);
    e->name = g_ascii_strup(name, -1);
    e->source_line = pms_keyscan_group_line(&c->scan, g);
    if (!check_keys(c, g, event_keys(c), prefixes, error))
        return FALSE;
    guint64 all_gp = pms_model_counters_mask(c->m);
    guint code, base, fixed;
    if (!get_uint(c, g, "code", TRUE, 0, G_MAXUINT32, &code, error) ||
        !get_uint(c, g, "base_umask", FALSE, 0, G_MAXUINT32, &base, error) ||
        !get_u64(c, g, "counters", FALSE, all_gp, G_MAXUINT64, &e->counters, error) ||
        !get_uint(c, g, "fixed", FALSE, 0, G_MAXUINT32, &fixed, error) ||
        !get_text(c, g, "desc", FALSE, &e->desc, error))
        return FALSE;
    e->code = code;
    e->base_umask = base;
    e->fixed = fixed;
    if (!parse_facts(c, g, e, error))
        return FALSE;

    g_autofree char *flags = get_raw(c, g, "flags");
    if (flags) {
        g_auto(GStrv) words = g_strsplit_set(flags, " \t,", -1);
        for (guint i = 0; words[i]; i++) {
            if (!*words[i])
                continue;
            if (strcmp(words[i], "offcore") == 0)
                e->flags |= PMS_EVENT_OFFCORE;
            else if (strcmp(words[i], "ldlat") == 0)
                e->flags |= PMS_EVENT_LDLAT;
            else if (strcmp(words[i], "pebs") == 0)
                e->flags |= PMS_EVENT_PEBS;
            else if (strcmp(words[i], "fixed_only") == 0)
                e->flags |= PMS_EVENT_FIXED_ONLY;
            else if (strcmp(words[i], "dup") == 0)
                e->flags |= PMS_EVENT_DUP;
            else if (strcmp(words[i], "group_excl") == 0)
                e->flags |= PMS_EVENT_GROUP_EXCL;
            else if (strcmp(words[i], "metrics") == 0)
                e->flags |= PMS_EVENT_METRICS;
            else
                return fail(c, error, PMS_MODEL_ERROR_KEY, g, "flags",
                            "unknown flag '%s'; expected offcore, ldlat, pebs, fixed_only, group_excl, metrics or dup",
                            words[i]);
        }
    }
    /* modifiers = none | NAME...: the modifiers the event takes (default: all) */
    e->modifiers = G_MAXUINT32;
    g_autofree char *mods = get_raw(c, g, "modifiers");
    if (mods) {
        g_auto(GStrv) words = g_strsplit_set(mods, " \t,", -1);
        guint n = 0;
        gboolean none = FALSE;
        e->modifiers = 0;
        for (guint i = 0; words[i]; i++) {
            if (!*words[i])
                continue;
            n++;
            if (strcmp(words[i], "none") == 0) {
                none = TRUE;
                continue;
            }
            gpointer ix = g_hash_table_lookup(pms_model_ix(c->m)->mod_index, words[i]);
            if (!ix)
                return fail(c, error, PMS_MODEL_ERROR_KEY, g, "modifiers",
                            "no modifier '%s' in this model; expected none or names of [modifier] groups", words[i]);
            guint j = GPOINTER_TO_UINT(ix) - 1;
            if (j >= 32)
                return fail(c, error, PMS_MODEL_ERROR_KEY, g, "modifiers",
                            "modifier '%s' is number %u; only the first 32 modifiers can be listed", words[i], j + 1);
            e->modifiers |= 1u << j;
        }
        if (n == 0 || (none && n > 1))
            return fail(c, error, PMS_MODEL_ERROR_KEY, g, "modifiers",
                        "expected 'none' alone or a list of modifier names, got '%s'", mods);
    }
    g_autofree char *match = get_raw(c, g, "match");
    if (!match || strcmp(match, "bits") == 0)
        e->match = PMS_MATCH_BITS;
    else if (strcmp(match, "exact") == 0)
        e->match = PMS_MATCH_EXACT;
    else
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, "match", "expected bits or exact, got '%s'", match);
    e->equiv = get_raw(c, g, "equiv");
    if (e->equiv && *e->equiv && !equiv_ok(e->equiv))
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, "equiv", "'%s': " EQUIV_EXPECTED, e->equiv);
    e->extra_reg = get_raw(c, g, "extra");
    if (e->extra_reg) {
        char *up = g_ascii_strup(e->extra_reg, -1);
        g_free(e->extra_reg);
        e->extra_reg = up;
    }

    /* Groups first (any key order), then unit masks in file order. */
    g_auto(GStrv) keys = g_key_file_get_keys(c->kf, g, NULL, NULL);
    guint n = g_strv_length(keys);
    guint cap = n + 1;
    e->groups = g_new0(PmsUmaskGroup, cap);
    e->umasks = g_new0(PmsUmask, n);
    for (guint i = 0; i < n; i++) {
        const char *gn;
        if (strcmp(keys[i], "group") == 0)
            gn = "";
        else if (g_str_has_prefix(keys[i], "group."))
            gn = keys[i] + strlen("group.");
        else
            continue;
        if (*gn && !name_ok(gn))
            return fail(c, error, PMS_MODEL_ERROR_KEY, g, keys[i], "bad group name '%s'", gn);
        if (find_group(e, gn) >= 0)
            return fail(c, error, PMS_MODEL_ERROR_CONFLICT, g, keys[i],
                        "group '%s' declared twice (names are case-insensitive)", gn);
        PmsUmaskGroup *grp = &e->groups[e->n_groups++];
        grp->name = g_strdup(gn);
        if (!parse_group_words(c, g, keys[i], grp, error))
            return FALSE;
    }
    for (guint i = 0; i < n; i++)
        if (g_str_has_prefix(keys[i], "umask.") && !parse_umask(c, g, keys[i], e, cap, error))
            return FALSE;
    for (guint i = 0; i < n; i++) {
        if (!g_str_has_prefix(keys[i], "desc."))
            continue;
        PmsUmask *u = (PmsUmask *)pms_event_umask(e, keys[i] + strlen("desc."));
        if (!u)
            return fail(c, error, PMS_MODEL_ERROR_KEY, g, keys[i], "no unit mask %s in this event",
                        keys[i] + strlen("desc."));
        if (!get_text(c, g, keys[i], FALSE, &u->desc, error))
            return FALSE;
    }
    return TRUE;
}

/* ---- the file ---- */

typedef enum { G_PMU, G_OPTIONS, G_LAYOUT, G_REGISTER, G_MODIFIER, G_EVENT, G_PERF, G_N } GroupKind;

static gboolean classify(const char *group, GroupKind *kind, const char **name)
{
    static const char *const prefixes[] = {
        [G_LAYOUT] = "layout ", [G_REGISTER] = "register ", [G_MODIFIER] = "modifier ", [G_EVENT] = "event "
    };
    if (strcmp(group, "pmu") == 0) {
        *kind = G_PMU;
        return TRUE;
    }
    if (strcmp(group, "options") == 0) {
        *kind = G_OPTIONS;
        return TRUE;
    }
    if (strcmp(group, "perf") == 0) {
        *kind = G_PERF;
        return TRUE;
    }
    for (guint k = G_LAYOUT; k <= G_EVENT; k++)
        if (g_str_has_prefix(group, prefixes[k])) {
            *name = group + strlen(prefixes[k]);
            while (**name == ' ')
                (*name)++;
            if (!**name)
                return FALSE;
            *kind = (GroupKind)k;
            return TRUE;
        }
    return FALSE;
}

/* Index `name` as entry n (1-based; 0 means absent) of its kind; a second
 * one of the same name is an error. */
static gboolean index_add(Ctx *c, GHashTable *index, char *name, guint n, const char *g, const char *what,
                          const char *note, GError **error)
{
    if (g_hash_table_contains(index, name))
        return fail(c, error, PMS_MODEL_ERROR_CONFLICT, g, NULL, "%s %s declared twice%s", what, name, note);
    g_hash_table_insert(index, name, GUINT_TO_POINTER(n));
    return TRUE;
}

/* [perf]: perf's syntax (model_perf.c), its keys in file order, checked
 * against the event-select layout and the registers read before it. */
static gboolean parse_perf(Ctx *c, const char *g, GError **error)
{
    c->m->perf = pms_perf_new();
    c->m->perf->source_line = pms_keyscan_group_line(&c->scan, g);
    g_auto(GStrv) keys = g_key_file_get_keys(c->kf, g, NULL, NULL);
    for (guint k = 0; keys && keys[k]; k++) {
        g_autofree char *value = get_raw(c, g, keys[k]);
        g_autofree char *problem = NULL;
        if (!pms_perf_add(c->m->perf, keys[k], value, &problem))
            return fail(c, error, PMS_MODEL_ERROR_KEY, g, keys[k], "%s", problem);
    }
    const char *key = NULL;
    g_autofree char *problem = NULL;
    if (!pms_perf_resolve(c->m->perf, c->m, &key, &problem))
        return fail(c, error, PMS_MODEL_ERROR_KEY, g, key, "%s", problem);
    return TRUE;
}

/* Facts of the model's family that contradict each other (its check_event,
 * family.h) are rejected here, not only linted: an accepted model must never
 * make the encoder or the simulator fail later.  Missing ones are the lint's. */
static gboolean facts_consistent(Ctx *c, const char *g, const PmsEvent *e, GError **error)
{
    g_autoptr(GPtrArray) msgs = g_ptr_array_new_with_free_func(g_free);
    if (c->m->family->check_event)
        c->m->family->check_event(c->m, e, FALSE, msgs);
    if (msgs->len)
        return fail(c, error, PMS_MODEL_ERROR_CONFLICT, g, NULL, "%s", (const char *)msgs->pdata[0]);
    return TRUE;
}

/* The LBR ring (model_lbr.c): entries without a gap and a TOS field that
 * indexes every one, refused here so that the simulator never shows a
 * short or wrong history; the field's key line, or the register's. */
static gboolean lbr_consistent(Ctx *c, GError **error)
{
    const PmsRegister *r = NULL;
    gboolean on_field = FALSE;
    g_autofree char *msg = pms_model_lbr_problem(c->m, &r, &on_field);
    if (!msg)
        return TRUE;
    if (on_field) {
        g_autofree char *g = g_strdup_printf("layout %s", r->layout->name);
        return fail(c, error, PMS_MODEL_ERROR_CONFLICT, g, "tos", "%s", msg);
    }
    g_set_error(error, PMS_MODEL_ERROR, PMS_MODEL_ERROR_CONFLICT, "%s:%u: %s", c->scan.source, r->source_line, msg);
    return FALSE;
}

/* [options]: each key one the family's simulator reads (family.h
 * PmsModelOption), each value one it takes, so that a typo is refused at its
 * own line rather than silently ignored or refused later at [pmu]'s; each
 * bad key is kept (keep()), so every one is reported. */
static void parse_options(Ctx *c, const char *g)
{
    const PmsFamily *f = c->m->family;
    g_auto(GStrv) keys = g_key_file_get_keys(c->kf, g, NULL, NULL);
    for (guint k = 0; keys && keys[k]; k++) {
        g_autofree char *value = get_raw(c, g, keys[k]);
        const PmsModelOption *o = pms_family_option(f, keys[k]);
        if (!o) {
            g_autoptr(GPtrArray) known = g_ptr_array_new();
            for (guint i = 0; (o = pms_family_option_nth(f, i)); i++)
                g_ptr_array_add(known, (gpointer)o->key);
            const char *close = pms_suggest(keys[k], (const char *const *)known->pdata, known->len);
            g_autofree char *hint = close ? g_strdup_printf(" (did you mean '%s'?)", close) : g_strdup("");
            GError *e = NULL;
            fail(c, &e, PMS_MODEL_ERROR_KEY, g, keys[k],
                 "unknown option%s; `pmusim list PMU --options` lists the %s family's", hint, f->name);
            keep(c, &e);
            continue;
        }
        if (!pms_model_option_valid(o, value)) {
            g_autofree char *allowed = pms_model_option_allowed(o);
            GError *e = NULL;
            fail(c, &e, PMS_MODEL_ERROR_KEY, g, keys[k], "expected %s, got '%s'", allowed, value);
            keep(c, &e);
            continue;
        }
        g_hash_table_insert(pms_model_ix(c->m)->options, g_strdup(keys[k]), g_steal_pointer(&value));
    }
}

/* FALSE when a problem stops the file short (a kind others name). */
static gboolean load_groups(Ctx *c, gsize n_groups, char **groups, const GroupKind *kinds, const char **names)
{
    PmsModel *m = c->m;
    /* Layouts before registers (registers name them); the rest in file order. */
    static const GroupKind order[] = { G_OPTIONS, G_LAYOUT, G_REGISTER, G_MODIFIER, G_EVENT, G_PERF };
    for (guint o = 0; o < G_N_ELEMENTS(order); o++) {
        /* Registers name layouts, events and [perf] name registers and
         * modifiers: past a problem in those, what follows would only echo
         * it.  Options and events name nothing a later kind needs. */
        guint before = c->problems->len;
        for (gsize i = 0; i < n_groups; i++) {
            if (kinds[i] != order[o])
                continue;
            const char *g = groups[i];
            GError *e = NULL; /* the group's problem, kept (keep()) rather than returned */
            gboolean ok = TRUE;
            switch (kinds[i]) {
            case G_OPTIONS:
                parse_options(c, g); /* keeps each bad key itself */
                break;
            case G_LAYOUT: {
                PmsLayout *l = &m->layouts[m->n_layouts++];
                ok = parse_layout(c, g, names[i], l, &e) &&
                    index_add(c, pms_model_ix(m)->layout_index, l->name, m->n_layouts, g, "layout", "", &e);
                break;
            }
            case G_REGISTER: {
                PmsRegister *r = &m->regs[m->n_regs++];
                ok = (name_ok(names[i])
                          ? parse_register(c, g, names[i], r, &e)
                          : fail(c, &e, PMS_MODEL_ERROR_KEY, g, NULL, "bad register name '%s'", names[i])) &&
                    index_add(c, pms_model_ix(m)->reg_name_index, r->name, m->n_regs, g, "register", "", &e);
                /* A repeated address keeps the first register; the lint reports it. */
                if (ok && r->space == PMS_SPACE_MSR &&
                    !g_hash_table_contains(pms_model_ix(m)->reg_index, GUINT_TO_POINTER(r->address)))
                    g_hash_table_insert(pms_model_ix(m)->reg_index, GUINT_TO_POINTER(r->address),
                                        GUINT_TO_POINTER(m->n_regs));
                break;
            }
            case G_MODIFIER: {
                PmsModifier *mod = &m->mods[m->n_mods++];
                ok = parse_modifier(c, g, names[i], mod, &e) &&
                    index_add(c, pms_model_ix(m)->mod_index, mod->name, m->n_mods, g, "modifier", "", &e);
                break;
            }
            case G_EVENT: {
                PmsEvent *ev = &m->events[m->n_events++];
                ok = parse_event(c, g, names[i], ev, &e) &&
                    index_add(c, pms_model_ix(m)->event_index, ev->name, m->n_events, g, "event",
                              " (names are case-insensitive)", &e) &&
                    facts_consistent(c, g, ev, &e);
                break;
            }
            case G_PERF:
                ok = parse_perf(c, g, &e);
                break;
            default:
                break;
            }
            if (!ok)
                keep(c, &e);
        }
        if (c->problems->len > before && (order[o] == G_LAYOUT || order[o] == G_REGISTER || order[o] == G_MODIFIER))
            return FALSE;
    }
    return TRUE;
}

static gboolean load(Ctx *c, GError **error)
{
    PmsModel *m = c->m;
    gsize n_groups = 0;
    g_auto(GStrv) groups = g_key_file_get_groups(c->kf, &n_groups);
    const char **names = g_new0(const char *, n_groups + 1);
    GroupKind *kinds = g_new0(GroupKind, n_groups + 1);
    guint count[G_N] = { 0 };
    for (gsize i = 0; i < n_groups; i++) {
        if (!classify(groups[i], &kinds[i], &names[i])) {
            kinds[i] = G_N; /* none: skipped below */
            GError *e = NULL;
            fail(c, &e, PMS_MODEL_ERROR_KEY, groups[i], NULL,
                 "unknown group; expected [pmu], [options], [layout NAME], [register NAME], "
                 "[modifier NAME], [event NAME] or [perf]");
            keep(c, &e);
        } else {
            count[kinds[i]]++;
        }
    }
    GError *e = NULL;
    if (!c->problems->len && !parse_header(c, &e))
        keep(c, &e);

    m->layouts = g_new0(PmsLayout, count[G_LAYOUT]);
    m->regs = g_new0(PmsRegister, count[G_REGISTER]);
    m->mods = g_new0(PmsModifier, count[G_MODIFIER]);
    m->events = g_new0(PmsEvent, count[G_EVENT]);
    if (!c->problems->len)
        pms_model_facts_alloc(m, count[G_EVENT]);
    pms_model_ix(m)->options = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);

    /* The whole-model checks need every register and event read. */
    gboolean whole = !c->problems->len && load_groups(c, n_groups, groups, kinds, names);
    if (whole && !instances_have_registers(c, &e))
        keep(c, &e);
    if (whole && !lbr_consistent(c, &e))
        keep(c, &e);
    if (whole && m->family->check_model) {
        g_autoptr(GPtrArray) msgs = g_ptr_array_new_with_free_func(g_free);
        m->family->check_model(m, FALSE, msgs);
        for (guint i = 0; i < msgs->len; i++) {
            fail(c, &e, PMS_MODEL_ERROR_CONFLICT, "pmu", NULL, "%s", (const char *)msgs->pdata[i]);
            keep(c, &e);
        }
    }
    g_free(names);
    g_free(kinds);
    if (!c->problems->len)
        return TRUE;
    /* One error, a line per problem, the first's code. */
    GString *all = g_string_new(NULL);
    for (guint i = 0; i < c->problems->len && i < MAX_PROBLEMS; i++)
        g_string_append_printf(all, "%s%s", i ? "\n" : "", (const char *)c->problems->pdata[i]);
    if (c->problems->len > MAX_PROBLEMS)
        g_string_append_printf(all, "\n%s: %u more problems not shown", c->scan.source,
                               c->problems->len - MAX_PROBLEMS);
    g_set_error_literal(error, PMS_MODEL_ERROR, c->first_code, all->str);
    g_string_free(all, TRUE);
    return FALSE;
}

PmsModel *pms_model_load_data(const char *data, gsize len, const char *source, GError **error)
{
    g_return_val_if_fail(data != NULL || len == 0, NULL);
    if (!source)
        source = "<model>";
    Ctx c = { 0 };
    if (*pms_text_bom_message(data, len)) {
        g_set_error(error, PMS_MODEL_ERROR, PMS_MODEL_ERROR_PARSE, "%s:1: %s", source, pms_text_bom_message(data, len));
        return NULL;
    }
    if (!pms_keyscan_run(&c.scan, data ? data : "", len, source, error)) {
        pms_keyscan_clear(&c.scan);
        return NULL;
    }
    c.kf = g_key_file_new();
    g_autoptr(GError) kerr = NULL;
    if (!g_key_file_load_from_data(c.kf, data ? data : "", len, G_KEY_FILE_NONE, &kerr)) {
        /* The scan catches what GKeyFile rejects; this is a last resort. */
        g_set_error(error, PMS_MODEL_ERROR, PMS_MODEL_ERROR_PARSE, "%s:1: %s", source, kerr->message);
        g_key_file_free(c.kf);
        pms_keyscan_clear(&c.scan);
        return NULL;
    }
    PmsModelPriv *pm = g_new0(PmsModelPriv, 1); /* the model and what only models/ reads */
    c.m = &pm->head.model;
    c.m->source = g_strdup(source);
    pms_model_ix(c.m)->event_index = pms_ci_index_new();
    pms_model_ix(c.m)->reg_name_index = pms_ci_index_new();
    pms_model_ix(c.m)->mod_index = pms_ci_index_new();
    pms_model_ix(c.m)->layout_index = pms_ci_index_new();
    pms_model_ix(c.m)->reg_index = g_hash_table_new(g_direct_hash, g_direct_equal);
    c.problems = g_ptr_array_new_with_free_func(g_free);
    gboolean ok = load(&c, error);
    g_ptr_array_unref(c.problems);
    g_free(c.event_keys);
    g_key_file_free(c.kf);
    pms_keyscan_clear(&c.scan);
    if (!ok) {
        pms_model_free(c.m);
        return NULL;
    }
    return c.m;
}

PmsModel *pms_model_load_file(const char *path, GError **error)
{
    g_autofree char *data = NULL;
    gsize len = 0;
    g_autoptr(GError) e = NULL;
    if (!pms_read_text_file(path, PMS_TEXT_FILE_MAX, &data, &len, &e)) {
        g_set_error(error, PMS_MODEL_ERROR, PMS_MODEL_ERROR_NOTFOUND, "cannot read model: %s", e->message);
        return NULL;
    }
    return pms_model_load_data(data, len, path, error);
}
