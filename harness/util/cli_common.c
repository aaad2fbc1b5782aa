/* pmusim — option handling shared by every subcommand. */
#include "suggest.h"
#include "cli_common.h"
#include "cli_family.h"
#include "out_file.h"
#include <errno.h>
#include <locale.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* --rules-only, an option of every command (beside --model). */
static gboolean rules_only;

void pms_cli_set_rules_only(gboolean on)
{
    rules_only = on;
}

void pms_cli_print_lines(const char *message)
{
    g_auto(GStrv) lines = g_strsplit(message, "\n", -1);
    for (char **l = lines; *l; l++)
        fprintf(stderr, "pmusim: %s\n", *l);
}

PmsModelSet *pms_cli_load_models(char **model_files)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModelSet) set = pms_model_set_new_builtin(&err);
    if (set == NULL) {
        fprintf(stderr, "pmusim: built-in models: %s\n", err->message);
        return NULL;
    }
    for (char **f = model_files; f && *f; f++) {
        if (!pms_model_set_add_file(set, *f, &err)) {
            pms_cli_print_lines(err->message); /* a line per problem (models/loader.c keeps them all) */
            return NULL;
        }
    }
    if (rules_only)
        pms_model_set_set_encoder_cache(set, FALSE);
    return g_steal_pointer(&set);
}

static gboolean wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "-?") == 0 || g_str_has_prefix(argv[i], "--help"))
            return TRUE;
    return FALSE;
}

gboolean pms_cli_parse(GOptionContext *ctx, int *argc, char ***argv)
{
    /* Arguments are UTF-8, as the model files and their names are, whatever
     * the locale's charset: GOption converts a string option from the
     * locale's charset, so in a Latin-1 locale the UTF-8 bytes of 'é' became
     * 'Ã©' in every message naming them, and in the C locale any non-ASCII
     * byte was "Invalid byte sequence in conversion input" (issue 20).  So
     * LC_CTYPE is UTF-8 while GOption parses (valid UTF-8 passes as it is),
     * except for --help, which prints in the locale's charset. */
    g_autofree char *ctype = NULL;
    if (!wants_help(*argc, *argv)) {
        const char *cur = setlocale(LC_CTYPE, NULL);
        ctype = cur ? g_strdup(cur) : NULL;
        if (ctype && !setlocale(LC_CTYPE, "C.UTF-8"))
            g_clear_pointer(&ctype, g_free);
    }
    g_autoptr(GError) err = NULL;
    gboolean ok = g_option_context_parse(ctx, argc, argv, &err);
    if (ctype)
        setlocale(LC_CTYPE, ctype);
    if (!ok) {
        fprintf(stderr, "pmusim: %s (try --help)\n", err->message);
        return FALSE;
    }
    return TRUE;
}

GOptionContext *pms_cli_context(const char *params, const char *summary, const GOptionEntry *entries,
                                char ***model_files)
{
    GOptionContext *ctx = g_option_context_new(params);
    g_option_context_set_summary(ctx, summary);
    if (entries)
        g_option_context_add_main_entries(ctx, entries, NULL);
    if (model_files) {
        const GOptionEntry model_entry[] = {
            { "model", 'm', 0, G_OPTION_ARG_FILENAME_ARRAY, model_files,
              "Load a model file (replaces the built-in model of the same name; repeatable)", "FILE" },
            { "rules-only", 0, 0, G_OPTION_ARG_NONE, &rules_only,
              "Encode every string by the encoder's rules alone: no kept results (a check of them; "
              "the same answers, slower)",
              NULL },
            { NULL, 0, 0, 0, NULL, NULL, NULL },
        };
        g_option_context_add_main_entries(ctx, model_entry, NULL);
    }
    return ctx;
}

gboolean pms_cli_dispatch(const PmsCommand *cmds, gsize n_cmds, const char *prog, int argc, char **argv, int *status)
{
    for (gsize i = 0; i < n_cmds; i++) {
        if (strcmp(argv[1], cmds[i].name) == 0) {
            g_autofree char *prgname = g_strdup_printf("%s %s", prog, cmds[i].name);
            g_set_prgname(prgname);
            *status = cmds[i].run(argc - 1, argv + 1);
            return TRUE;
        }
    }
    return FALSE;
}

const PmsModel *pms_cli_model(const PmsModelSet *set, const char *name)
{
    const PmsModel *m = pms_model_set_get(set, name);
    if (m == NULL) {
        GString *known = g_string_new(NULL);
        for (guint i = 0; i < pms_model_set_count(set); i++)
            g_string_append_printf(known, "%s%s", i ? ", " : "", pms_model_set_nth_name(set, i));
        const char *best = pms_suggest_pmu(set, name);
        if (best)
            fprintf(stderr, "pmusim: unknown PMU '%s' (did you mean %s? known: %s)\n", name, best, known->str);
        else
            fprintf(stderr, "pmusim: unknown PMU '%s' (known: %s)\n", name, known->str);
        g_string_free(known, TRUE);
    }
    return m;
}

GPtrArray *pms_cli_models_named(const PmsModelSet *set, int argc, char **argv)
{
    g_autoptr(GPtrArray) models = g_ptr_array_new();
    for (int i = 1; i < argc; i++) {
        const PmsModel *m = pms_cli_model(set, argv[i]);
        if (m == NULL)
            return NULL;
        g_ptr_array_add(models, (gpointer)m);
    }
    for (guint i = 0; argc < 2 && i < pms_model_set_count(set); i++)
        g_ptr_array_add(models, (gpointer)pms_model_set_nth(set, i));
    return g_steal_pointer(&models);
}

const PmsModel *pms_cli_ia64_model(const PmsModelSet *set, const char *pmu, const char *cmd)
{
    const PmsModel *m = pms_cli_model(set, pmu ? pmu : "montecito");
    if (m && !(pms_cli_family(m)->flags & PMS_CLI_RANGES_DISPATCH)) {
        fprintf(stderr, "%s%s is not an Itanium (ia64) PMU\n", cmd, m->name);
        return NULL;
    }
    return m;
}

char *pms_cli_printable(const char *s)
{
    GString *o = g_string_new(NULL);
    const char *end = s + strlen(s);
    while (s < end) {
        gunichar c = g_utf8_get_char_validated(s, end - s);
        if (c == (gunichar)-1 || c == (gunichar)-2 || c < 0x20 || c == 0x7f || c == '\\') {
            g_string_append_printf(o, "\\x%02x", (guchar)*s);
            s++;
            continue;
        }
        const char *next = g_utf8_next_char(s);
        g_string_append_len(o, s, next - s);
        s = next;
    }
    return g_string_free(o, FALSE);
}

gboolean pms_cli_output_path_ok(const char *option, const char *path)
{
    if (path && !*path) {
        fprintf(stderr, "pmusim: %s: an empty file name: expected the FILE to write\n", option);
        return FALSE;
    }
    return TRUE;
}

gboolean pms_cli_write_file(const char *path, const char *data, gsize len, GError **error)
{
    if (!*path) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "an empty file name");
        return FALSE;
    }
    PmsOutFile *o = pms_out_file_begin(path, error);
    if (!o)
        return FALSE;
    /* a short write leaves the stream's error set: commit reports it */
    fwrite(data, 1, len, pms_out_file_stream(o));
    return pms_out_file_commit(o, error);
}

gboolean pms_cli_parse_u64(const char *what, const char *text, guint64 *out)
{
    g_autoptr(GError) err = NULL;
    gboolean hex = g_str_has_prefix(text, "0x") || g_str_has_prefix(text, "0X");
    if (!g_ascii_string_to_unsigned(hex ? text + 2 : text, hex ? 16 : 10, 0, G_MAXUINT64, out, &err)) {
        fprintf(stderr, "pmusim: %s '%s': expected a decimal or 0x-hex number\n", what, text);
        return FALSE;
    }
    return TRUE;
}

gboolean pms_cli_parse_ld_lat(const char *cmd, const char *text, gboolean pebs, guint64 *out)
{
    if (!pebs) {
        fprintf(stderr, "pmusim: %s: --ld-lat is the threshold of a PEBS load-latency sample: give --pebs too\n", cmd);
        return FALSE;
    }
    if (!g_ascii_string_to_unsigned(text, 10, 0, G_MAXUINT32, out, NULL)) {
        fprintf(stderr, "pmusim: %s: --ld-lat '%s': expected a number of core cycles (decimal)\n", cmd, text);
        return FALSE;
    }
    return TRUE;
}

char *pms_cli_with_ld_lat(char *event, guint64 ld_lat)
{
    char *with = g_strdup_printf("%s:ldlat=%" G_GUINT64_FORMAT, event, ld_lat);
    g_free(event);
    return with;
}

gboolean pms_cli_levels(const char *text, guint *plm)
{
    guint mask = 0;
    const char *p = text;
    if (!text || !*text)
        return FALSE;
    for (;;) {
        /* one level: a single digit 0..3, then ',' or the end */
        if (p[0] < '0' || p[0] > '3' || (p[1] != ',' && p[1] != '\0'))
            return FALSE;
        mask |= 1u << (p[0] - '0'); /* level n is PLMn = 1 << n */
        if (p[1] == '\0')
            break;
        p += 2;
    }
    *plm = mask;
    return TRUE;
}

gboolean pms_cli_parse_plm(const char *text, guint *plm)
{
    guint mask = 0;
    if (!pms_cli_levels(text, &mask)) {
        fprintf(stderr,
                "pmusim: --plm: expected privilege levels 0 to 3 separated by commas "
                "(e.g. --plm=3 or --plm=0,3), got '%s'\n",
                text ? text : "");
        return FALSE;
    }
    *plm = mask;
    return TRUE;
}

void pms_cli_help(GOptionContext *ctx, const char *exits, const char *lines)
{
    /* GLib prints the description as it is: wrap the sentence at 79 columns */
    g_autoptr(GString) text = g_string_new("Exit status:");
    g_auto(GStrv) words = g_strsplit(exits, " ", -1);
    gsize col = text->len;
    for (char **w = words; *w; w++) {
        if (!**w)
            continue;
        if (col + 1 + strlen(*w) > 79) {
            g_string_append(text, "\n ");
            col = 1;
        }
        g_string_append_printf(text, " %s", *w);
        col += 1 + strlen(*w);
    }
    g_string_append_printf(text, "\n\nExamples:\n%s", lines);
    g_option_context_set_description(ctx, text->str);
}

gboolean pms_cli_timeout_check(gint *ms)
{
    if (*ms == PMS_CLI_TIMEOUT_UNSET) {
        *ms = 0;
        return TRUE;
    }
    if (*ms < 1) {
        /* 0 would read as "the default" deep in the backend: say so here */
        fprintf(stderr, "pmusim: --timeout %d: expected a positive number of milliseconds (the default is 10000)\n",
                *ms);
        return FALSE;
    }
    return TRUE;
}

gboolean pms_cli_colour(FILE *f)
{
    if (g_getenv("NO_COLOR"))
        return FALSE;
    const char *force = g_getenv("CLICOLOR_FORCE");
    if (force && *force && strcmp(force, "0") != 0)
        return TRUE;
    const char *term = g_getenv("TERM");
    return isatty(fileno(f)) && !(term && strcmp(term, "dumb") == 0);
}

char *pms_cli_paint(gboolean on, const char *sgr, const char *s)
{
    return on ? g_strdup_printf("\033[%sm%s\033[0m", sgr, s) : g_strdup(s);
}
