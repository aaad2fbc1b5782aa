/* pmusim sim --compare FILE — the same experiment on the built-in model and
 * on a what-if variant of it, one after the other, then the lines in which
 * they differ (issue 18's what-if loop).
 *
 * Both runs are this process's own `pmusim sim` (pms_cmd_sim) with the same
 * arguments, the second with `--model FILE` added, their stdout and stderr
 * caught in temporary files; so every option means what it means for one
 * run.  The header names the model file and what it changes against the
 * built-in model of the same name: [pmu] counts and widths, [options]
 * (values the simulator takes, defaults included), registers (address,
 * width, writable, ignored, reset, readonly) and events (added, removed,
 * another code).  Exit: 0 both print the same, 1 they differ (as `diff`), 2
 * a usage error or a file that does not load. */
#include "cli_common.h"
#include "commands.h"
#include "family.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* One run of `pmusim sim ARGV`, its stdout and stderr caught. */
typedef struct {
    int status;
    char *out, *err;
} Caught;

static void caught_clear(Caught *c)
{
    g_free(c->out);
    g_free(c->err);
}

static char *slurp(FILE *f)
{
    GString *s = g_string_new(NULL);
    char buf[65536];
    size_t n;
    rewind(f);
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        g_string_append_len(s, buf, (gssize)n);
    fclose(f);
    return g_string_free(s, FALSE);
}

/* fd 1 and 2 point at temporary files while the command runs. */
static gboolean run_caught(GPtrArray *argv, Caught *c)
{
    FILE *fo = tmpfile(), *fe = tmpfile();
    if (!fo || !fe) {
        if (fo)
            fclose(fo);
        if (fe)
            fclose(fe);
        fprintf(stderr, "pmusim: sim --compare: cannot make a temporary file\n");
        return FALSE;
    }
    fflush(stdout);
    fflush(stderr);
    int so = dup(1), se = dup(2);
    dup2(fileno(fo), 1);
    dup2(fileno(fe), 2);
    /* GOption takes out what it parses: the command gets a copy */
    g_autofree char **copy = g_new0(char *, argv->len + 1);
    memcpy(copy, argv->pdata, sizeof(char *) * argv->len);
    c->status = pms_cmd_sim((int)argv->len, copy);
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so);
    close(se);
    c->out = slurp(fo);
    c->err = slurp(fe);
    return TRUE;
}

/* A counter whose width and writable bits are its [pmu] width's (the
 * loader derives them): a [pmu] line already says what changed. */
static gboolean derived(const PmsModel *m, const PmsRegister *r)
{
    guint w = pms_model_counter_width(m, r->kind, r->index);
    return w && r->width == w && r->writable == (w >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT(1) << w) - 1);
}

static void change(GPtrArray *lines, GHashTable *seen, char *line)
{
    if (g_hash_table_add(seen, line))
        g_ptr_array_add(lines, line);
}

/* What variant v changes against built-in b: a line each. */
static void describe(const PmsModel *b, const PmsModel *v, GPtrArray *lines, GHashTable *seen)
{
    const struct {
        const char *key;
        guint bv, vv;
    } head[] = { { "gp_counters", b->n_gp, v->n_gp },
                 { "gp_width", b->gp_width, v->gp_width },
                 { "fixed_counters", b->n_fixed, v->n_fixed },
                 { "fixed_width", b->fixed_width, v->fixed_width },
                 { "smt", b->smt, v->smt },
                 { "version", b->version, v->version } };
    for (guint i = 0; i < G_N_ELEMENTS(head); i++)
        if (head[i].bv != head[i].vv)
            change(lines, seen, g_strdup_printf("[pmu] %s = %u (built-in %u)", head[i].key, head[i].vv, head[i].bv));
    if (b->family == v->family) {
        const PmsModelOption *o;
        for (guint i = 0; (o = pms_family_option_nth(v->family, i)); i++) {
            const char *bv = pms_model_option(b, o->key, o->dflt), *vv = pms_model_option(v, o->key, o->dflt);
            if (g_strcmp0(bv, vv) != 0)
                change(lines, seen, g_strdup_printf("[options] %s = %s (built-in %s)", o->key, vv, bv));
        }
    } else {
        change(lines, seen, g_strdup_printf("[pmu] arch = %s (built-in %s)", v->family->name, b->family->name));
    }
    for (guint i = 0; i < v->n_regs; i++) {
        const PmsRegister *r = &v->regs[i], *o = pms_model_reg_by_name(b, r->name);
        if (!o) {
            change(lines, seen, g_strdup_printf("[register %s] added", r->name));
            continue;
        }
        const struct {
            const char *key;
            guint64 bv, vv;
        } f[] = { { "address", o->address, r->address },    { "width", o->width, r->width },
                  { "writable", o->writable, r->writable }, { "ignored", o->ignored, r->ignored },
                  { "reset", o->reset, r->reset },          { "readonly", o->readonly, r->readonly } };
        gboolean both_derived = derived(v, r) && derived(b, o);
        for (guint k = 0; k < G_N_ELEMENTS(f); k++) {
            if (f[k].bv == f[k].vv || (both_derived && k >= 1 && k <= 3))
                continue;
            if (k == 1 || k == 5) /* width, readonly: numbers */
                change(lines, seen,
                       g_strdup_printf("[register %s] %s = %" G_GUINT64_FORMAT " (built-in %" G_GUINT64_FORMAT ")",
                                       r->name, f[k].key, f[k].vv, f[k].bv));
            else
                change(lines, seen,
                       g_strdup_printf("[register %s] %s = 0x%" G_GINT64_MODIFIER "x (built-in 0x%" G_GINT64_MODIFIER
                                       "x)",
                                       r->name, f[k].key, f[k].vv, f[k].bv));
        }
    }
    for (guint i = 0; i < b->n_regs; i++)
        if (!pms_model_reg_by_name(v, b->regs[i].name))
            change(lines, seen, g_strdup_printf("[register %s] removed", b->regs[i].name));
    guint added = 0, removed = 0;
    for (guint i = 0; i < v->n_events; i++) {
        const PmsEvent *e = &v->events[i], *o = pms_model_event(b, e->name);
        if (!o)
            added++;
        else if (o->code != e->code)
            change(lines, seen,
                   g_strdup_printf("[event %s] code = 0x%x (built-in 0x%x)", e->name, (guint)e->code, (guint)o->code));
    }
    for (guint i = 0; i < b->n_events; i++)
        removed += !pms_model_event(v, b->events[i].name);
    if (added)
        change(lines, seen, g_strdup_printf("%u events added", added));
    if (removed)
        change(lines, seen, g_strdup_printf("%u events removed", removed));
}

/* Prints the header: FALSE (usage) when FILE does not load. */
static gboolean header(const char *file, char **model_files)
{
    g_autoptr(PmsModelSet) builtin = pms_cli_load_models(model_files);
    if (!builtin)
        return FALSE;
    g_autoptr(PmsModelSet) variant = pms_model_set_new_empty();
    g_autoptr(GError) err = NULL;
    if (!pms_model_set_add_file(variant, file, &err)) {
        pms_cli_print_lines(err->message);
        return FALSE;
    }
    g_autoptr(GPtrArray) lines = g_ptr_array_new();
    g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_autoptr(GString) names = g_string_new(NULL);
    for (guint i = 0; i < pms_model_set_count(variant); i++) {
        const PmsModel *v = pms_model_set_nth(variant, i);
        const PmsModel *b = pms_model_set_get(builtin, v->name);
        g_string_append_printf(names, "%s%s", i ? ", " : "", v->name);
        if (b)
            describe(b, v, lines, seen);
        else
            change(lines, seen, g_strdup_printf("%s: no built-in model of that name (new)", v->name));
    }
    printf("sim --compare: A = the built-in model, B = %s (%s)\n", file, names->str);
    if (!lines->len)
        printf("  B changes nothing the comparison looks at (counts, widths, options, registers, event codes)\n");
    for (guint i = 0; i < lines->len; i++)
        printf("  B changes %s\n", (const char *)lines->pdata[i]);
    return TRUE;
}

static void section(const char *title, const Caught *c)
{
    printf("\n== %s (exit %d) ==\n%s", title, c->status, c->out);
    if (*c->out && c->out[strlen(c->out) - 1] != '\n')
        putchar('\n');
    if (*c->err)
        printf("-- stderr --\n%s%s", c->err, c->err[strlen(c->err) - 1] != '\n' ? "\n" : "");
}

int pms_sim_compare(const char *file, char **model_files, int argc, char **argv)
{
    if (!header(file, model_files))
        return PMS_EXIT_USAGE;
    /* argv without --compare FILE / --compare=FILE */
    g_autoptr(GPtrArray) a = g_ptr_array_new();
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--compare") == 0) {
            i++;
            continue;
        }
        if (g_str_has_prefix(argv[i], "--compare="))
            continue;
        g_ptr_array_add(a, argv[i]);
    }
    g_autoptr(GPtrArray) b = g_ptr_array_new();
    for (guint i = 0; i < a->len; i++)
        g_ptr_array_add(b, a->pdata[i]);
    g_ptr_array_add(b, (gpointer) "--model");
    g_ptr_array_add(b, (gpointer)file);
    Caught ca = { 0 }, cb = { 0 };
    if (!run_caught(a, &ca) || !run_caught(b, &cb)) {
        caught_clear(&ca);
        caught_clear(&cb);
        return 1;
    }
    section("A: built-in", &ca);
    g_autofree char *tb = g_strdup_printf("B: %s", file);
    section(tb, &cb);
    int status = ca.status == PMS_EXIT_USAGE || cb.status == PMS_EXIT_USAGE ? PMS_EXIT_USAGE : 0;
    g_auto(GStrv) la = g_strsplit(ca.out, "\n", -1), lb = g_strsplit(cb.out, "\n", -1);
    guint na = g_strv_length(la), nb = g_strv_length(lb), n = MAX(na, nb), differ = 0;
    for (guint i = 0; i < n; i++)
        differ += i >= na || i >= nb || strcmp(la[i], lb[i]) != 0;
    if (!differ && ca.status == cb.status && g_strcmp0(ca.err, cb.err) == 0) {
        printf("\n== A and B print the same ==\n");
    } else {
        printf("\n== A and B differ: %u line%s of output%s ==\n", differ, differ == 1 ? "" : "s",
               ca.status != cb.status ? ", and the exit status" : "");
        for (guint i = 0; i < n; i++)
            if (i >= na || i >= nb || strcmp(la[i], lb[i]) != 0)
                printf("line %u\n  A: %s\n  B: %s\n", i + 1, i < na ? la[i] : "(none)", i < nb ? lb[i] : "(none)");
        if (!status)
            status = 1;
    }
    caught_clear(&ca);
    caught_clear(&cb);
    return status;
}
