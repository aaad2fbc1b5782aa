/* sets-cli: the set vectors (vectors/<pmu>/sets.txt, docs/vectors-format.md
 * "Set vectors") run through `pmusim encode --set` as a subprocess: every
 * event's counter and every register of the set, or the conflict message.
 *
 * Run by meson as: test_sets_cli PMUSIM FILE...  The expectations are the
 * files' (derived by hand, each line's src says how), never a run's. */
#include "cu_tap.h"

#include <gio/gio.h>
#include <stdio.h>
#include <string.h>

static const char *pmusim_path;
static char **files;

typedef PmsCuRun Run;

static Run run_set(char **events)
{
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    g_ptr_array_add(argv, (gpointer)pmusim_path);
    g_ptr_array_add(argv, (gpointer) "encode");
    g_ptr_array_add(argv, (gpointer) "--set");
    for (char **e = events; *e; e++)
        g_ptr_array_add(argv, *e);
    g_ptr_array_add(argv, NULL);
    return pms_cu_run((const char *const *)argv->pdata, NULL, 0);
}

/* From the output: the counter of each event ("  COUNTER  pmu::EVENT...")
 * and each register line ("  NAME  0xADDR = 0xVALUE"), as "NAME=0xVALUE". */
static void parse_out(const char *out, GString *counters, GString *regs)
{
    g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
    for (char **l = lines; *l; l++) {
        if (!g_str_has_prefix(*l, "  ") || (*l)[2] == ' ')
            continue;
        g_auto(GStrv) tok = g_strsplit_set(g_strstrip(*l), " ", -1);
        guint n = 0;
        const char *t[5] = { NULL };
        for (char **k = tok; *k && n < 5; k++)
            if (**k)
                t[n++] = *k;
        if (n == 2 && strstr(t[1], "::"))
            g_string_append_printf(counters, "%s%s", counters->len ? " " : "", t[0]);
        else if (n == 4 && strcmp(t[2], "=") == 0 && g_str_has_prefix(t[1], "0x"))
            g_string_append_printf(regs, "%s%s=%s", regs->len ? " " : "", t[0], t[3]);
    }
}

/* One vector line; FALSE (with a diagnostic) when it fails. */
static gboolean run_line(const char *file, guint lineno, const char *line)
{
    g_auto(GStrv) f = g_strsplit(line, " | ", -1);
    guint nf = g_strv_length(f);
    gboolean is_err = nf == 3 && g_str_has_prefix(f[1], "error ");
    if (!(is_err || nf == 4) || !g_str_has_prefix(f[nf - 1], "src ") || strlen(f[nf - 1]) < 8) {
        fprintf(stderr,
                "# %s:%u: malformed set vector: expected EVENTS | COUNTERS | REGISTERS | src TEXT "
                "or EVENTS | error MESSAGE | src TEXT\n",
                file, lineno);
        return FALSE;
    }
    g_auto(GStrv) events = g_strsplit(f[0], "; ", -1);
    for (char **e = events; *e; e++)
        g_strstrip(*e);
    Run r = run_set(events);
    gboolean ok;
    if (is_err) {
        g_autofree char *want = g_strdup_printf("pmusim: encode --set: %s\n", f[1] + strlen("error "));
        ok = r.status == 1 && r.err && strcmp(r.err, want) == 0 && r.out && !*r.out;
        if (!ok)
            fprintf(stderr, "# %s:%u: expected exit 1 and '%s', got %d and stderr '%s'\n", file, lineno,
                    g_strchomp(want), r.status, r.err ? r.err : "");
    } else {
        g_autoptr(GString) ctr = g_string_new(NULL), regs = g_string_new(NULL);
        if (r.out)
            parse_out(r.out, ctr, regs);
        ok = r.status == 0 && strcmp(ctr->str, f[1]) == 0 && strcmp(regs->str, f[2]) == 0;
        if (!ok)
            fprintf(stderr,
                    "# %s:%u: expected counters '%s' registers '%s'\n#   got exit %d, counters '%s' "
                    "registers '%s'; stderr: %s\n",
                    file, lineno, f[1], f[2], r.status, ctr->str, regs->str, r.err ? r.err : "");
    }
    g_free(r.out);
    g_free(r.err);
    return ok;
}

static void test_files(void)
{
    guint n_ok = 0, n_fail = 0;
    for (char **p = files; *p; p++) {
        g_autofree char *text = NULL;
        g_autoptr(GError) err = NULL;
        CU_ASSERT_TRUE_FATAL(g_file_get_contents(*p, &text, NULL, &err));
        g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
        guint here = 0;
        for (guint i = 0; lines[i]; i++) {
            const char *l = g_strstrip(lines[i]);
            if (!*l || *l == '#')
                continue;
            here++;
            if (run_line(*p, i + 1, l))
                n_ok++;
            else
                n_fail++;
        }
        if (here == 0)
            fprintf(stderr, "# %s: no set vector\n", *p);
        CU_ASSERT(here > 0);
    }
    printf("# %u set vectors passed, %u failed\n", n_ok, n_fail);
    CU_ASSERT_EQUAL(n_fail, 0);
}

/* The file format itself: a line without src, and a wrong expectation, fail. */
static void test_bad_lines(void)
{
    CU_ASSERT_FALSE(run_line("x", 1, "wsm::INST_RETIRED:ANY_P | IA32_FIXED_CTR0 | IA32_FIXED_CTR_CTRL=0xb"));
    CU_ASSERT_FALSE(run_line("x", 2,
                             "wsm::INST_RETIRED:ANY_P | IA32_PMC0 | IA32_PERFEVTSEL0=0x5301c0 "
                             "IA32_PERF_GLOBAL_CTRL=0x1 | src wrong on purpose: it takes FIXED_CTR0"));
    CU_ASSERT_FALSE(run_line("x", 3, "wsm::INST_RETIRED:ANY_P | error nothing | src it schedules"));
    CU_ASSERT_TRUE(run_line("x", 4,
                            "wsm::INST_RETIRED:ANY_P | IA32_FIXED_CTR0 | IA32_FIXED_CTR_CTRL=0xb "
                            "IA32_PERF_GLOBAL_CTRL=0x100000000 | src as wsm/sets.txt"));
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s PMUSIM SETS.TXT...\n", argv[0]);
        return 2;
    }
    pmusim_path = argv[1];
    files = argv + 2;
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("sets-cli", NULL, NULL);
    CU_add_test(s, "set vectors through pmusim encode --set", test_files);
    CU_add_test(s, "a malformed or wrong set vector fails", test_bad_lines);
    return pms_cu_tap_run();
}
