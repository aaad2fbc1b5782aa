/* pmusim diff — feed the same event strings to two backends, list where they
 * disagree (RET, codes, fstr) and count per PMU.  Exit 0 when they agree on
 * everything, 1 when there are differences, 2 on usage errors. */
#include "cli_common.h"
#include "commands.h"
#include "diff_strings.h"
#include "field_diff.h"
#include "protocol.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    guint strings, same, ret, codes, fstr, crash;
} DiffCount;

static void print_result(const char *name, const PmsBackendResult *r)
{
    GString *codes = g_string_new(NULL);
    pms_proto_format_codes(codes, r->codes, r->n_codes);
    printf("  %-10s %-18s %-28s %s\n", name, r->ret, codes->str, r->fstr ? r->fstr : "");
    g_string_free(codes, TRUE);
}

/* Compare one string; print it when the backends disagree. */
static void diff_one(const PmsModelSet *models, PmsBackend *a, PmsBackend *b, const char *s, gboolean quiet,
                     DiffCount *n)
{
    PmsBackendResult ra, rb;
    pms_backend_encode(a, s, &ra);
    pms_backend_encode(b, s, &rb);
    n->strings++;
    /* Counted once, by the first of crash > ret > codes > fstr; the tag
     * lists every field that differs. */
    gboolean crash = strcmp(ra.ret, "BACKEND_CRASH") == 0 || strcmp(rb.ret, "BACKEND_CRASH") == 0;
    gboolean ret = strcmp(ra.ret, rb.ret) != 0;
    gboolean codes = !pms_result_same_codes(&ra, &rb) && !ret;
    gboolean fstr = ra.fstr[0] && rb.fstr[0] && strcmp(ra.fstr, rb.fstr) != 0;
    if (crash)
        n->crash++;
    else if (ret)
        n->ret++;
    else if (codes)
        n->codes++;
    else if (fstr)
        n->fstr++;
    else
        n->same++;
    if ((crash || ret || codes || fstr) && !quiet) {
        const char *tags[5];
        guint nt = 0;
        if (crash)
            tags[nt++] = "crash";
        if (ret)
            tags[nt++] = "ret";
        if (codes)
            tags[nt++] = "codes";
        if (fstr)
            tags[nt++] = "fstr";
        tags[nt] = NULL;
        g_autofree char *tag = g_strjoinv(",", (char **)tags);
        printf("%s [%s]\n", s, tag);
        print_result(pms_backend_name(a), &ra);
        print_result(pms_backend_name(b), &rb);
        /* the fields that differ, A's value "expected" (issue 18): the PMU
         * is the string's own "pmu::" prefix */
        const char *sep = codes ? strstr(s, "::") : NULL;
        g_autofree char *pmu = sep ? g_strndup(s, (gsize)(sep - s)) : NULL;
        g_autofree char *fields = pmu
            ? pms_conform_codes_diff(models, pmu, s, ra.codes, MIN(ra.n_codes, G_N_ELEMENTS(ra.codes)), rb.codes,
                                     MIN(rb.n_codes, G_N_ELEMENTS(rb.codes)), NULL)
            : NULL;
        if (fields)
            printf("  %-10s %s\n", "fields", fields);
    }
    pms_backend_result_clear(&ra);
    pms_backend_result_clear(&rb);
}

static gboolean read_strings(const char *path, GPtrArray *out)
{
    g_autofree char *text = NULL;
    g_autoptr(GError) err = NULL;
    gsize len = 0;
    if (!pms_read_text_file(path, PMS_TEXT_FILE_MAX, &text, &len, &err)) {
        fprintf(stderr, "pmusim: --strings: %s\n", err->message);
        return FALSE;
    }
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++)
        if (**l && **l != '#')
            g_ptr_array_add(out, g_strdup(*l));
    return TRUE;
}

int pms_cmd_diff(int argc, char **argv)
{
    g_auto(GStrv) backends = NULL;
    g_auto(GStrv) model_files = NULL;
    g_autofree char *strings_file = NULL;
    gboolean quiet = FALSE;
    gint timeout_ms = PMS_CLI_TIMEOUT_UNSET;
    const GOptionEntry entries[] = {
        { "backend", 'B', 0, G_OPTION_ARG_STRING_ARRAY, &backends,
          "A backend to compare (give exactly two): builtin, libpfm4, cmd:PROGRAM", "B" },
        { "strings", 0, 0, G_OPTION_ARG_FILENAME, &strings_file,
          "Also compare the event strings in FILE (one per line, # comments)", "FILE" },
        { "summary", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print only the per-PMU summary", NULL },
        { "timeout", 0, 0, G_OPTION_ARG_INT, &timeout_ms, "Milliseconds a backend process may spend on one line",
          "MS" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    g_autoptr(GOptionContext) ctx =
        pms_cli_context("[PMU...]",
                        "Encode every event, every unit mask and a sample of modifiers of each PMU\n"
                        "(default: all models) with two backends and list every difference.",
                        entries, &model_files);
    pms_cli_help(ctx,
                 "0 no difference; 1 a difference; 2 usage error, unknown PMU, or a model or strings "
                 "file that cannot be read.",
                 "  pmusim diff --backend builtin --backend libpfm4 nhm_unc wsm_unc\n");
    if (!pms_cli_parse(ctx, &argc, &argv))
        return PMS_EXIT_USAGE;
    if (backends == NULL || g_strv_length(backends) != 2) {
        fprintf(stderr, "pmusim: diff: expected exactly two --backend options\n");
        return PMS_EXIT_USAGE;
    }
    if (!pms_cli_timeout_check(&timeout_ms))
        return PMS_EXIT_USAGE;
    g_autoptr(PmsModelSet) models = pms_cli_load_models(model_files);
    if (models == NULL)
        return PMS_EXIT_USAGE;
    g_autoptr(GPtrArray) pmus = pms_cli_models_named(models, argc, argv);
    if (pmus == NULL)
        return PMS_EXIT_USAGE;
    g_autoptr(GPtrArray) extra = g_ptr_array_new_with_free_func(g_free);
    if (strings_file && !read_strings(strings_file, extra))
        return PMS_EXIT_USAGE;

    g_autoptr(GError) err = NULL;
    PmsBackend *a = pms_backend_open_full(backends[0], models, (guint)timeout_ms, &err);
    PmsBackend *b = a ? pms_backend_open_full(backends[1], models, (guint)timeout_ms, &err) : NULL;
    if (b == NULL) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        pms_backend_close(a);
        return g_error_matches(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE) ? PMS_EXIT_USAGE : 1;
    }
    DiffCount *counts = g_new0(DiffCount, pmus->len + 1);
    for (guint p = 0; p < pmus->len; p++) {
        const PmsModel *m = pmus->pdata[p];
        g_autoptr(GPtrArray) strs = g_ptr_array_new_with_free_func(g_free);
        pms_strings_names(m, strs);
        pms_strings_modifiers(m, strs);
        pms_strings_repeats(m, strs);
        pms_strings_raw(m, strs);
        g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
        for (guint i = 0; i < strs->len; i++)
            if (g_hash_table_add(seen, strs->pdata[i])) /* each string once */
                diff_one(models, a, b, strs->pdata[i], quiet, &counts[p]);
    }
    for (guint i = 0; i < extra->len; i++)
        diff_one(models, a, b, extra->pdata[i], quiet, &counts[pmus->len]);

    /* the PMU column as wide as the longest name (amd64_fam17h_zen2 is 17) */
    int w = 10;
    for (guint p = 0; p < pmus->len; p++)
        w = MAX(w, (int)strlen(((const PmsModel *)pmus->pdata[p])->name));
    printf("\n%-*s %8s %8s %8s %8s %8s %8s\n", w, "pmu", "strings", "same", "ret", "codes", "fstr", "crash");
    guint differ = 0;
    for (guint p = 0; p <= pmus->len; p++) {
        const DiffCount *c = &counts[p];
        if (p == pmus->len && c->strings == 0)
            break;
        const char *name = p < pmus->len ? ((const PmsModel *)pmus->pdata[p])->name : "--strings";
        printf("%-*s %8u %8u %8u %8u %8u %8u\n", w, name, c->strings, c->same, c->ret, c->codes, c->fstr, c->crash);
        differ += c->strings - c->same;
    }
    printf("%s vs %s: %u difference%s\n", pms_backend_name(a), pms_backend_name(b), differ, differ == 1 ? "" : "s");
    g_free(counts);
    pms_backend_close(a);
    pms_backend_close(b);
    return differ ? 1 : 0;
}
