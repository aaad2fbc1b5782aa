/* pmusim list — what the models hold: PMUs, events, unit masks, modifiers. */
#include "cli_common.h"

#include <stdio.h>
#include <string.h>

static void print_names(const PmsModel *m)
{
    for (guint e = 0; e < m->n_events; e++) {
        const PmsEvent *ev = &m->events[e];
        if (ev->n_umasks == 0)
            printf("%s::%s\n", m->name, ev->name);
        for (guint u = 0; u < ev->n_umasks; u++)
            printf("%s::%s:%s\n", m->name, ev->name, ev->umasks[u].name);
    }
}

static const char *group_name(const PmsEvent *ev, guint g)
{
    return g < ev->n_groups && ev->groups[g].name && ev->groups[g].name[0] ? ev->groups[g].name : NULL;
}

static void print_model(const PmsModel *m)
{
    printf("%s: %s\n  source %s; %u generic counters (%u bits), %u fixed (%u bits)%s\n",
           m->name, m->desc ? m->desc : "", m->source ? m->source : "?", m->n_gp, m->gp_width,
           m->n_fixed, m->fixed_width, m->smt ? "; SMT" : "");
    if (m->unit)   /* a model of several boxes that stands for one of them */
        printf("  stands for unit %s instance %u of the model's %u registers\n", m->unit, m->instance, m->n_regs);
    printf("  modifiers:\n");
    for (guint i = 0; i < m->n_mods; i++) {
        const PmsModifier *mod = &m->mods[i];
        if (mod->type == PMS_MOD_BOOL)
            printf("    %-6s bool            %s\n", mod->name, mod->desc ? mod->desc : "");
        else
            printf("    %-6s [%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT "]%*s%s\n", mod->name,
                   mod->min, mod->max, 6, "", mod->desc ? mod->desc : "");
    }
    printf("  events:\n");
    for (guint e = 0; e < m->n_events; e++) {
        const PmsEvent *ev = &m->events[e];
        printf("    %-36s code 0x%02x%s%s%s%s%s%s%s\n", ev->name, ev->code,
               ev->extra_reg ? "  extra " : "", ev->extra_reg ? ev->extra_reg : "",
               ev->flags & PMS_EVENT_LDLAT ? "  ldlat" : "",
               ev->flags & PMS_EVENT_FIXED_ONLY ? "  fixed counter only" : "",
               ev->modifiers == 0 ? "  no modifiers" : "",
               ev->flags & PMS_EVENT_GROUP_EXCL ? "  unit masks of one group only" : "",
               ev->flags & PMS_EVENT_DUP ? "  dup (same encoding as an earlier event)" : "");
        for (guint u = 0; u < ev->n_umasks; u++) {
            const PmsUmask *um = &ev->umasks[u];
            const char *g = group_name(ev, um->group);
            printf("      :%-32s 0x%" G_GINT64_MODIFIER "x%s%s%s%s%s\n", um->name, um->value,
                   um->flags & PMS_UMASK_DEFAULT ? " default" : "",
                   um->flags & PMS_UMASK_EXCL ? " exclusive" : "",
                   um->flags & PMS_UMASK_OVERRIDE ? " override" : "",
                   g ? " group " : "", g ? g : "");
        }
    }
}

int pms_cmd_list(int argc, char **argv)
{
    gboolean names = FALSE;
    g_auto(GStrv) model_files = NULL;
    const GOptionEntry entries[] = {
        { "names", 'n', 0, G_OPTION_ARG_NONE, &names,
          "One fully qualified pmu::EVENT:UMASK per line (events without unit masks once)", NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    g_autoptr(GOptionContext) ctx = pms_cli_context("[PMU...]",
        "Without PMU: the PMUs.  With PMU: its events, unit masks and modifiers.",
        entries, &model_files);
    pms_cli_examples(ctx,
        "  pmusim list\n"
        "  pmusim list nhm_unc\n"
        "  pmusim list --names glm wsm\n");
    if (!pms_cli_parse(ctx, &argc, &argv))
        return PMS_EXIT_USAGE;
    g_autoptr(PmsModelSet) models = pms_cli_load_models(model_files);
    if (models == NULL)
        return 1;
    g_autoptr(GPtrArray) pmus = pms_cli_models_named(models, argc, argv);
    if (pmus == NULL)
        return PMS_EXIT_USAGE; /* an unknown PMU name is a bad argument, as in diff and bench */
    int width = 10;   /* the PMU column of the list, as wide as its longest name */
    for (guint i = 0; i < pmus->len; i++)
        width = MAX(width, (int)strlen(((const PmsModel *)g_ptr_array_index(pmus, i))->name));
    for (guint i = 0; i < pmus->len; i++) {
        const PmsModel *m = g_ptr_array_index(pmus, i);
        if (names)
            print_names(m);
        else if (argc < 2)
            printf("%-*s %4u events  %s\n", width, m->name, m->n_events, m->desc ? m->desc : "");
        else
            print_model(m);
    }
    return 0;
}
