/* pmusim — the stimulus's PEBS records (docs/stimulus-format.md, "PEBS"):
 *   ds base=A [index=A] max=A [threshold=A] [resetN=V...]   the DS area's PEBS fields
 *   regs NAME=V...                  RFLAGS / RAX..R15 the following records carry
 *   expect-pebs N [index=A]         N records written so far (and the DS index)
 *   expect-record I NAME=V...       fields of record I (0-based)
 * The x86 core device registers them (sim_stim_pebs_records); stimulus.c
 * hands these lines here and keeps the parsed record in order with the
 * others. */
#include "stim_pebs.h"
#include "pebs.h"

#include <string.h>

typedef enum { SP_DS, SP_REGS, SP_EXPECT, SP_RECORD } SpKind;

typedef struct {
    SpKind kind;
    PmsPebsDs ds;
    guint64 regs[17];
    guint64 regs_set; /* bit i: regs[i] given */
    guint64 n;        /* expect-pebs N / expect-record I */
    gboolean has_index;
    guint64 index;
    guint n_checks;
    char *check_name[PMS_PEBS_MAX_FIELDS + 3];
    gint check_field[PMS_PEBS_MAX_FIELDS + 3]; /* -1 counter, -2 cycle, -3 address, else field index */
    guint64 check_value[PMS_PEBS_MAX_FIELDS + 3];
} StimPebs;

static const char *const reg_names[17] = {
    "rflags", "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp",
    "r8",     "r9",  "r10", "r11", "r12", "r13", "r14", "r15",
};

static void pebs_free(gpointer p)
{
    StimPebs *sp = p;
    if (!sp)
        return;
    for (guint i = 0; i < sp->n_checks; i++)
        g_free(sp->check_name[i]);
    g_free(sp);
}

/* decimal, 0x hex, or -N (two's complement, as a counter reset value) */
static gboolean value(const char *s, guint64 *out)
{
    gboolean neg = s[0] == '-';
    const char *d = neg ? s + 1 : s;
    gboolean hex = d[0] == '0' && (d[1] == 'x' || d[1] == 'X');
    if (!g_ascii_string_to_unsigned(hex ? d + 2 : d, hex ? 16 : 10, 0, G_MAXUINT64, out, NULL))
        return FALSE;
    if (neg)
        *out = (guint64)0 - *out;
    return TRUE;
}

/* "KEY=VALUE" split in place; FALSE when there is no '=' or the value is bad. */
static gboolean key_value(char *tok, char **key, guint64 *v, char **msg, const char *cmd)
{
    char *eq = strchr(tok, '=');
    if (!eq) {
        *msg = g_strdup_printf("%s: expected NAME=VALUE, got '%s'", cmd, tok);
        return FALSE;
    }
    *eq = 0;
    *key = tok;
    if (!value(eq + 1, v)) {
        *msg = g_strdup_printf("%s: %s: value '%s': expected a number (decimal, 0x hex or -N)", cmd, tok, eq + 1);
        return FALSE;
    }
    return TRUE;
}

static StimPebs *parse_ds(const PmsModel *m, char **tok, guint n, char **msg)
{
    g_autofree StimPebs *sp = g_new0(StimPebs, 1);
    sp->kind = SP_DS;
    gboolean has_base = FALSE, has_index = FALSE, has_max = FALSE;
    guint64 given = 0;
    /* one reset value per general counter the DS area has room for */
    guint n_reset = MIN(m->n_gp, (guint)PMS_PEBS_MAX_COUNTERS);
    for (guint i = 1; i < n; i++) {
        char *key;
        guint64 v;
        guint64 c;
        if (!key_value(tok[i], &key, &v, msg, "ds"))
            return NULL;
        /* bit of each field given: one value each (0-3 base, index, max,
         * threshold; 4 + N resetN) */
        guint bit = strcmp(key, "base") == 0 ? 0
            : strcmp(key, "index") == 0      ? 1
            : strcmp(key, "max") == 0        ? 2
            : strcmp(key, "threshold") == 0  ? 3
            : n_reset && g_str_has_prefix(key, "reset") &&
                g_ascii_string_to_unsigned(key + 5, 10, 0, n_reset - 1, &c, NULL)
            ? 4 + (guint)c
            : G_MAXUINT;
        if (bit != G_MAXUINT && (given & ((guint64)1 << bit))) {
            *msg = g_strdup_printf("ds: %s given twice", key);
            return NULL;
        }
        if (bit != G_MAXUINT)
            given |= (guint64)1 << bit;
        if (bit == 0)
            sp->ds.base = v, has_base = TRUE;
        else if (bit == 1)
            sp->ds.index = v, has_index = TRUE;
        else if (bit == 2)
            sp->ds.max = v, has_max = TRUE;
        else if (bit == 3)
            sp->ds.threshold = v;
        else if (bit != G_MAXUINT)
            sp->ds.reset[c] = v;
        else {
            g_autofree char *resets = n_reset ? g_strdup_printf(" or reset0..reset%u", n_reset - 1) : g_strdup("");
            *msg = g_strdup_printf("ds: unknown field '%s': expected base, index, max, threshold%s", key, resets);
            return NULL;
        }
    }
    if (!has_base || !has_max) {
        *msg = g_strdup("ds: expected base=ADDRESS and max=ADDRESS (index defaults to base, threshold to 0: "
                        "no interrupt)");
        return NULL;
    }
    if (!has_index)
        sp->ds.index = sp->ds.base;
    return g_steal_pointer(&sp);
}

static StimPebs *parse_regs(char **tok, guint n, char **msg)
{
    g_autofree StimPebs *sp = g_new0(StimPebs, 1);
    sp->kind = SP_REGS;
    if (n < 2) {
        *msg = g_strdup("regs: expected NAME=VALUE... (rflags, rax..r15)");
        return NULL;
    }
    for (guint i = 1; i < n; i++) {
        char *key;
        guint64 v;
        if (!key_value(tok[i], &key, &v, msg, "regs"))
            return NULL;
        guint r = 0;
        while (r < G_N_ELEMENTS(reg_names) && g_ascii_strcasecmp(key, reg_names[r]) != 0)
            r++;
        if (r == G_N_ELEMENTS(reg_names)) {
            *msg = g_strdup_printf("regs: unknown register '%s': expected rflags, rax, rbx, rcx, rdx, rsi, rdi, "
                                   "rbp, rsp or r8..r15",
                                   key);
            return NULL;
        }
        if (sp->regs_set & ((guint64)1 << r)) {
            *msg = g_strdup_printf("regs: %s given twice", key);
            return NULL;
        }
        sp->regs[r] = v;
        sp->regs_set |= (guint64)1 << r;
    }
    return g_steal_pointer(&sp);
}

static StimPebs *parse_expect(const PmsModel *m, char **tok, guint n, gboolean record, char **msg)
{
    StimPebs *sp = g_new0(StimPebs, 1);
    sp->kind = record ? SP_RECORD : SP_EXPECT;
    const char *cmd = record ? "expect-record" : "expect-pebs";
    if (n >= 2 && tok[1][0] == '-') {
        *msg =
            g_strdup_printf("%s: %s cannot be negative, got '%s'", cmd, record ? "a record index" : "a count", tok[1]);
        pebs_free(sp);
        return NULL;
    }
    if (n < 2 || !value(tok[1], &sp->n)) {
        *msg = g_strdup_printf(
            record ? "%s: expected INDEX NAME=VALUE... (INDEX from 0)" : "%s: expected COUNT [index=ADDRESS]", cmd);
        pebs_free(sp);
        return NULL;
    }
    guint fmt = pms_model_pebs_format(m);
    for (guint i = 2; i < n; i++) {
        char *key;
        guint64 v;
        if (!key_value(tok[i], &key, &v, msg, cmd)) {
            pebs_free(sp);
            return NULL;
        }
        if (!record) {
            if (strcmp(key, "index") != 0) {
                *msg = g_strdup_printf("expect-pebs: unknown field '%s': expected index=ADDRESS", key);
                pebs_free(sp);
                return NULL;
            }
            if (sp->has_index) {
                *msg = g_strdup("expect-pebs: index given twice");
                pebs_free(sp);
                return NULL;
            }
            sp->has_index = TRUE;
            sp->index = v;
            continue;
        }
        gint f = strcmp(key, "counter") == 0 ? -1
            : strcmp(key, "cycle") == 0      ? -2
            : strcmp(key, "address") == 0    ? -3
                                             : 0;
        if (f == 0) {
            f = -4;
            for (guint k = 0; pms_pebs_field_name(fmt, k); k++)
                if (g_ascii_strcasecmp(key, pms_pebs_field_name(fmt, k)) == 0)
                    f = (gint)k;
        }
        if (f == -4 || sp->n_checks == G_N_ELEMENTS(sp->check_field)) {
            if (f == -4) {
                /* the field list of the model's format, from its table (sim/pebs.c) */
                GString *names = g_string_new(NULL);
                for (guint k = 0; pms_pebs_field_name(fmt, k); k++)
                    g_string_append_printf(names, "%s%s", k ? ", " : "", pms_pebs_field_name(fmt, k));
                *msg = g_strdup_printf("expect-record: unknown field '%s': expected counter, cycle, address or a field "
                                       "of PEBS record format %u (%s)",
                                       key, fmt, names->len ? names->str : "not modelled");
                g_string_free(names, TRUE);
            } else {
                *msg = g_strdup("expect-record: too many fields");
            }
            pebs_free(sp);
            return NULL;
        }
        for (guint j = 0; j < sp->n_checks; j++)
            if (sp->check_field[j] == f) {
                *msg = g_strdup_printf("expect-record: %s given twice", key);
                pebs_free(sp);
                return NULL;
            }
        sp->check_name[sp->n_checks] = g_strdup(key);
        sp->check_field[sp->n_checks] = f;
        sp->check_value[sp->n_checks++] = v;
    }
    if (record && sp->n_checks == 0) {
        *msg = g_strdup("expect-record: expected INDEX NAME=VALUE... (at least one field)");
        pebs_free(sp);
        return NULL;
    }
    return sp;
}

static gpointer ds_parse(const PmsModel *m, char **tok, guint n, char **msg)
{
    return parse_ds(m, tok, n, msg);
}

static gpointer regs_parse(const PmsModel *m, char **tok, guint n, char **msg)
{
    (void)m;
    return parse_regs(tok, n, msg);
}

static gpointer expect_parse(const PmsModel *m, char **tok, guint n, char **msg)
{
    return parse_expect(m, tok, n, FALSE, msg);
}

static gpointer record_parse(const PmsModel *m, char **tok, guint n, char **msg)
{
    return parse_expect(m, tok, n, TRUE, msg);
}

static gboolean pebs_exec(gconstpointer rec, PmsSim *sim, GError **error)
{
    const StimPebs *sp = rec;
    switch (sp->kind) {
    case SP_DS:
        return pms_sim_set_pebs_ds(sim, &sp->ds, error);
    case SP_REGS: {
        guint64 regs[17];
        /* the registers not named keep their values: read them back first */
        pms_sim_get_pebs_regs(sim, regs);
        for (guint i = 0; i < 17; i++)
            if (sp->regs_set & ((guint64)1 << i))
                regs[i] = sp->regs[i];
        pms_sim_set_pebs_regs(sim, regs);
        return TRUE;
    }
    case SP_EXPECT: {
        guint n;
        guint64 total;
        PmsPebsDs ds;
        (void)pms_sim_pebs_records(sim, &n, &total);
        pms_sim_get_pebs_ds(sim, &ds);
        if (total != sp->n || (sp->has_index && ds.index != sp->index)) {
            g_autofree char *idx =
                sp->has_index ? g_strdup_printf(", index 0x%" G_GINT64_MODIFIER "x", sp->index) : g_strdup("");
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MISMATCH,
                        "cycle %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT
                        " PEBS records, DS index 0x%" G_GINT64_MODIFIER "x; expected %" G_GUINT64_FORMAT "%s",
                        pms_sim_cycle(sim), total, ds.index, sp->n, idx);
            return FALSE;
        }
        return TRUE;
    }
    case SP_RECORD: {
        guint n;
        const PmsPebsRecord *r = pms_sim_pebs_records(sim, &n, NULL);
        if (sp->n >= n) {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MISMATCH,
                        "cycle %" G_GUINT64_FORMAT ": PEBS record %" G_GUINT64_FORMAT " expected, %u written",
                        pms_sim_cycle(sim), sp->n, n);
            return FALSE;
        }
        r += sp->n;
        for (guint i = 0; i < sp->n_checks; i++) {
            gint f = sp->check_field[i];
            guint64 got = f == -1        ? r->counter
                : f == -2                ? r->cycle
                : f == -3                ? r->address
                : (guint)f < r->n_fields ? r->field[f]
                                         : 0;
            if (got != sp->check_value[i]) {
                g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MISMATCH,
                            "PEBS record %" G_GUINT64_FORMAT ": %s = 0x%" G_GINT64_MODIFIER "x (%" G_GUINT64_FORMAT
                            "), expected 0x%" G_GINT64_MODIFIER "x (%" G_GUINT64_FORMAT ")",
                            sp->n, sp->check_name[i], got, got, sp->check_value[i], sp->check_value[i]);
                return FALSE;
            }
        }
        return TRUE;
    }
    }
    return TRUE;
}

static const SimStimRecordType ds_type = { "ds", PMS_STIM_PEBS, ds_parse, pebs_exec, pebs_free };
static const SimStimRecordType regs_type = { "regs", PMS_STIM_PEBS, regs_parse, pebs_exec, pebs_free };
static const SimStimRecordType expect_type = { "expect-pebs", PMS_STIM_PEBS, expect_parse, pebs_exec, pebs_free };
static const SimStimRecordType record_type = { "expect-record", PMS_STIM_PEBS, record_parse, pebs_exec, pebs_free };

const SimStimRecordType *const sim_stim_pebs_records[] = { &ds_type, &regs_type, &expect_type, &record_type, NULL };
