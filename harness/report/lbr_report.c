/* pmusim — the LBR ring as text (lbr_report.h).  Reads the ring through
 * RDMSR (pms_sim_read) like software would, and decodes the entries by the
 * model's layout fields, not by bit positions of its own. */
#include "lbr_report.h"
#include "lbr.h"
#include "cli_common.h"
#include "encoder.h"

#include <stdio.h>

/* The address field, sign-extended from its top bit (the linear address). */
static guint64 address(const PmsRegister *r, guint64 v)
{
    const PmsField *a = pms_register_field(r, "address");
    if (!a)
        return v;
    guint64 x = pms_field_get(a, v);
    if (a->width < 64 && ((x >> (a->width - 1)) & 1))
        x |= ~(guint64)0 << a->width;
    return x;
}

gboolean pms_lbr_ring_text(PmsSim *sim, GString *out)
{
    const PmsModel *m = pms_sim_model(sim);
    guint n = pms_sim_lbr_entries(sim);
    const PmsRegister *tr = pms_model_reg_by_kind(m, PMS_REG_LBR_TOS, 0);
    guint64 tosv = 0;
    if (!n || !tr || !pms_sim_read(sim, tr->address, &tosv, NULL))
        return FALSE;
    const PmsField *tf = pms_register_field(tr, "tos");
    guint tos = (guint)(tf ? pms_field_get(tf, tosv) : tosv) % n;
    g_autoptr(GString) lines = g_string_new(NULL);
    for (guint age = 0; age < n; age++) {
        guint i = (tos + n - age) % n;
        const PmsRegister *fr = pms_model_reg_by_kind(m, PMS_REG_LBR_FROM, i);
        const PmsRegister *to = pms_model_reg_by_kind(m, PMS_REG_LBR_TO, i);
        guint64 f = 0, t = 0;
        if (!fr || !to || !pms_sim_read(sim, fr->address, &f, NULL) || !pms_sim_read(sim, to->address, &t, NULL))
            continue;
        if (!f && !t)
            continue;
        const PmsField *mp = pms_register_field(fr, "mispred");
        const PmsField *cy = pms_register_field(to, "cycle_count"); /* glm: clocks since the previous entry */
        g_string_append_printf(lines,
                               "lbr[%u] age=%u from=0x%" G_GINT64_MODIFIER "x to=0x%" G_GINT64_MODIFIER "x mispred=%d",
                               i, age, address(fr, f), address(to, t), mp && pms_field_get(mp, f) ? 1 : 0);
        if (cy)
            g_string_append_printf(lines, " cycles=%" G_GUINT64_FORMAT, pms_field_get(cy, t));
        g_string_append_printf(lines, " %s=0x%016" G_GINT64_MODIFIER "x %s=0x%016" G_GINT64_MODIFIER "x\n", fr->name, f,
                               to->name, t);
    }
    if (!tos && !lines->len)
        return FALSE;
    g_string_append_printf(out, "lbr tos=%u entries=%u (%s, newest first)\n", tos, n, tr->name);
    g_string_append(out, lines->str);
    return TRUE;
}

void pms_lbr_trace_words(GString *out, const PmsSimTrace *t)
{
    if (!t->lbr_offered)
        return;
    if (!t->lbr_on)
        g_string_append_printf(out, "the LBR is not recording (IA32_DEBUGCTL.LBR clear or frozen): %u branch%s lost",
                               t->lbr_offered, t->lbr_offered == 1 ? "" : "es");
    else
        g_string_append_printf(out,
                               "the LBR recorded %u of the %u branch%s (MSR_LBR_SELECT filtered %u), "
                               "MSR_LASTBRANCH_TOS now %u",
                               t->lbr_new, t->lbr_offered, t->lbr_offered == 1 ? "" : "es",
                               t->lbr_offered - t->lbr_new - t->lbr_popped, t->lbr_tos);
    if (t->lbr_on && t->lbr_popped)
        g_string_append_printf(out,
                               "; call-stack mode: %u near return%s popped an entry each (cleared, TOS back by one)",
                               t->lbr_popped, t->lbr_popped == 1 ? "" : "s");
}

int pms_lbr_cli_encoding(const PmsModelSet *models, const char *pmu, guint dfl_plm, const char *plm_text,
                         const char *filter_text, gboolean freeze, gboolean callstack, const PmsModel **model,
                         PmsLbrEncoding *out)
{
    if (!pmu) {
        fprintf(stderr, "pmusim: --lbr: expected --pmu PMU (the LBR is configured per PMU)\n");
        return PMS_EXIT_USAGE;
    }
    const PmsModel *m = pms_cli_model(models, pmu);
    if (!m)
        return PMS_EXIT_USAGE;
    g_autoptr(GError) err = NULL;
    PmsLbrConfig cfg = { TRUE, 0, 0, freeze, callstack };
    const char *bad = plm_text && !pms_lbr_parse_plm(plm_text, &cfg.plm, &err) ? "--lbr-plm"
        : filter_text && !pms_lbr_parse_filter(filter_text, &cfg.filter, &err) ? "--lbr-filter"
                                                                               : NULL;
    if (bad) {
        fprintf(stderr, "pmusim: %s: %s\n", bad, err->message);
        return PMS_EXIT_USAGE;
    }
    if (!pms_lbr_encode(m, &cfg, dfl_plm, out, &err)) {
        fprintf(stderr, "pmusim: --lbr on %s: %s: %s\n", m->name, pms_encode_error_name(err->code), err->message);
        return 1;
    }
    *model = m;
    return 0;
}

int pms_lbr_encode_cli(const PmsModelSet *models, const char *pmu, guint dfl_plm, const char *plm_text,
                       const char *filter_text, gboolean freeze, gboolean callstack)
{
    const PmsModel *m = NULL;
    PmsLbrEncoding enc;
    int st = pms_lbr_cli_encoding(models, pmu, dfl_plm, plm_text, filter_text, freeze, callstack, &m, &enc);
    if (st)
        return st;
    printf("%s::LBR\n", m->name);
    for (guint i = 0; i < enc.n_writes; i++) {
        const PmsRegWrite *w = &enc.writes[i];
        printf("  %-24s 0x%03x = 0x%" G_GINT64_MODIFIER "x", w->name, w->address, w->value);
        if (w->mask != G_MAXUINT64)
            printf(" (bits 0x%" G_GINT64_MODIFIER "x of it; the rest left as they are)", w->mask);
        printf("\n");
    }
    return 0;
}

int pms_lbr_explain_cli(const PmsModelSet *models, const char *pmu, const char *plm_text, const char *filter_text,
                        gboolean freeze, gboolean callstack, GString *o)
{
    const PmsModel *m = NULL;
    PmsLbrEncoding enc;
    int st = pms_lbr_cli_encoding(models, pmu, PMS_PLM_DEFAULT, plm_text, filter_text, freeze, callstack, &m, &enc);
    if (st)
        return st;
    g_string_append_printf(o, "%s::LBR\n\nRegisters the encoder sets:\n", m->name);
    for (guint i = 0; i < enc.n_writes; i++) {
        const PmsRegWrite *w = &enc.writes[i];
        g_string_append_printf(o, "  %s (0x%x) = 0x%" G_GINT64_MODIFIER "x", w->name, w->address, w->value);
        if (w->mask != G_MAXUINT64)
            g_string_append_printf(o, " in the bits 0x%" G_GINT64_MODIFIER "x", w->mask);
        g_string_append(o, "\n   ");
        /* the fields the value sets, by the register's layout */
        const PmsLayout *l = w->reg->layout;
        guint set = 0;
        for (guint f = 0; l && f < l->n_fields; f++)
            if ((pms_field_get(&l->fields[f], w->mask) != 0) &&
                (w->mask != G_MAXUINT64 || pms_field_get(&l->fields[f], w->value))) {
                g_string_append_printf(o, " %s=%" G_GINT64_MODIFIER "u", l->fields[f].name,
                                       pms_field_get(&l->fields[f], w->value));
                set++;
            }
        g_string_append(o, set ? "\n" : " (every field 0)\n");
    }
    g_autofree char *words = pms_lbr_describe(m, enc.lbr_select, enc.debugctl);
    g_string_append_printf(o, "\nWhat the LBR captures:\n%s", words);
    return 0;
}
