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

/* ---- Itanium: the per-event facts of libpfm's Montecito table ---- */

/* "PMC4-15", "PMC10", "PMC4-9,PMC12": a counter mask over register numbers. */
static char *ia64_counters(guint64 mask)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < 64; i++) {
        if (!(mask >> i & 1))
            continue;
        guint j = i;
        while (j + 1 < 64 && (mask >> (j + 1) & 1))
            j++;
        g_string_append_printf(s, "%sPMC%u", s->len ? "," : "", i);
        if (j > i)
            g_string_append_printf(s, "-%u", j);
        i = j;
    }
    if (!s->len)
        g_string_append(s, "none");
    return g_string_free(s, FALSE);
}

static char *ia64_quals(const PmsEvent *ev)
{
    if (!ev->qualifiers)
        return g_strdup("-");
    return g_strdup_printf("%s%s%s", ev->qualifiers & PMS_IA64_QUAL_OPCM ? "o" : "-",
                           ev->qualifiers & PMS_IA64_QUAL_IARR ? "i" : "-",
                           ev->qualifiers & PMS_IA64_QUAL_DARR ? "d" : "-");
}

static char *ia64_group(const PmsEvent *ev)
{
    if (ev->cache_group == PMS_IA64_GROUP_NONE)
        return g_strdup("-");
    return g_strdup_printf("%s/%d", ev->cache_group == PMS_IA64_GROUP_L1D ? "L1D" : "L2D", ev->cache_set);
}

static char *ia64_ear(const PmsEvent *ev)
{
    if (ev->ear == PMS_IA64_EAR_NONE)
        return g_strdup("-");
    return g_strdup_printf("%s %s", ev->ear == PMS_IA64_EAR_I ? "I" : "D", pms_ia64_ear_mode_name(ev->ear_mode));
}

static void print_model_ia64(const PmsModel *m)
{
    printf("%s: %s\n  source %s; %u counters PMC%u-%u/PMD%u-%u (%u bits)%s\n", m->name, m->desc ? m->desc : "",
           m->source ? m->source : "?", m->n_gp, m->counter_base, m->counter_base + m->n_gp - 1, m->counter_base,
           m->counter_base + m->n_gp - 1, m->gp_width, m->smt ? "; 2 threads" : "");
    printf("  modifiers:\n");
    for (guint i = 0; i < m->n_mods; i++) {
        const PmsModifier *mod = &m->mods[i];
        if (mod->type == PMS_MOD_BOOL)
            printf("    %-7s bool     %s\n", mod->name, mod->desc ? mod->desc : "");
        else
            printf("    %-7s [%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT "]    %s\n", mod->name, mod->min, mod->max,
                   mod->desc ? mod->desc : "");
    }
    printf("  events (max: occurrences per cycle, thres < max; qual: o opcode match, i code range, d data range;\n"
           "          group: cache group/set; EAR: kind and mode, umask to the EAR register):\n");
    int namew = 5; /* the event column, as wide as the longest name */
    for (guint e = 0; e < m->n_events; e++)
        namew = MAX(namew, (int)strlen(m->events[e].name));
    printf("    %-*s %4s %5s %3s %-12s %-7s %-13s %-4s %-7s %3s %4s %s\n", namew, "event", "code", "umask", "max",
           "counters", "group", "type", "qual", "EAR", "ETB", "MESI", "alias of");
    for (guint e = 0; e < m->n_events; e++) {
        const PmsEvent *ev = &m->events[e];
        g_autofree char *ctr = ia64_counters(ev->counters);
        g_autofree char *q = ia64_quals(ev);
        g_autofree char *grp = ia64_group(ev);
        g_autofree char *ear = ia64_ear(ev);
        g_autofree char *um = g_strdup_printf("0x%x", ev->base_umask);
        g_autofree char *row = g_strdup_printf("    %-*s 0x%02x %5s %3u %-12s %-7s %-13s %-4s %-7s %3s %4s %s", namew,
               ev->name, ev->code, um, ev->max_inc, ctr, grp, pms_ia64_event_type_name(ev->ev_type), q, ear, ev->etb ? "yes" : "-",
               ev->mesi ? "yes" : "-", ev->equiv ? ev->equiv : "");
        printf("%s\n", g_strchomp(row)); /* no trailing blanks when there is no alias */
    }
}

/* One event in full, every fact by name (any architecture). */
static void print_event(const PmsModel *m, const PmsEvent *ev)
{
    printf("%s::%s\n", m->name, ev->name);
    printf("  code        0x%02x\n", ev->code);
    if (ev->extra_reg)
        printf("  umask       0x%x (in %s%s)\n", ev->base_umask, ev->extra_reg,
               m->arch == PMS_ARCH_IA64 ? "; the counter's umask field is 0" : "");
    else
        printf("  umask       0x%x\n", ev->base_umask);
    if (m->arch == PMS_ARCH_IA64) {
        g_autofree char *ctr = ia64_counters(ev->counters);
        printf("  counters    %s (mask 0x%" G_GINT64_MODIFIER "x)\n", ctr, ev->counters);
        printf("  max_inc     %u (thres 0..%u)\n", ev->max_inc, ev->max_inc ? ev->max_inc - 1 : 0);
        printf("  type        %s\n", pms_ia64_event_type_name(ev->ev_type));
        if (ev->cache_group != PMS_IA64_GROUP_NONE)
            printf("  cache group %s, set %d\n", pms_ia64_cache_group_name(ev->cache_group), ev->cache_set);
        else
            printf("  cache group none\n");
        printf("  qualifiers  opcode matching %s, code range %s, data range %s\n",
               ev->qualifiers & PMS_IA64_QUAL_OPCM ? "yes" : "no", ev->qualifiers & PMS_IA64_QUAL_IARR ? "yes" : "no",
               ev->qualifiers & PMS_IA64_QUAL_DARR ? "yes" : "no");
        printf("  MESI        %s\n", ev->mesi ? "yes (I/S/E/M qualifiers)" : "no");
        if (ev->ear != PMS_IA64_EAR_NONE)
            printf("  EAR         %s, %s mode\n", ev->ear == PMS_IA64_EAR_I ? "instruction (I-EAR)" : "data (D-EAR)",
                   pms_ia64_ear_mode_name(ev->ear_mode));
        else
            printf("  EAR         no\n");
        printf("  ETB         %s\n", ev->etb ? "yes (programs PMC39)" : "no");
    } else {
        printf("  counters    0x%" G_GINT64_MODIFIER "x\n  fixed       0x%x\n", ev->counters, ev->fixed);
    }
    if (ev->equiv)
        printf("  alias of    %s\n", ev->equiv);
    if (ev->flags & PMS_EVENT_DUP)
        printf("  encodes like an earlier event (listed on purpose)\n");
    printf("  modifiers  ");
    guint shown = 0;
    for (guint j = 0; j < m->n_mods && j < 32; j++)
        if (ev->modifiers & (1u << j)) {
            printf(" %s", m->mods[j].name);
            shown++;
        }
    printf("%s\n", shown ? "" : " none");
    for (guint u = 0; u < ev->n_umasks; u++) {
        const PmsUmask *um = &ev->umasks[u];
        const char *g = group_name(ev, um->group);
        printf("  :%-32s 0x%" G_GINT64_MODIFIER "x%s%s%s\n", um->name, um->value,
               um->flags & PMS_UMASK_DEFAULT ? " default" : "", g ? " group " : "", g ? g : "");
    }
    if (ev->desc)
        printf("  %s\n", ev->desc);
}

/* PMU, PMU::EVENT, or an EVENT of the PMU named just before it. */
typedef struct {
    const PmsModel *m;
    const PmsEvent *ev; /* NULL: the whole PMU */
} ListItem;

static gboolean list_items(const PmsModelSet *set, int argc, char **argv, GArray *items)
{
    const PmsModel *last = NULL;
    for (int i = 1; i < argc; i++) {
        ListItem it = { 0 };
        const char *sep = strstr(argv[i], "::");
        const char *event = NULL;
        if (sep) {
            g_autofree char *pmu = g_strndup(argv[i], (gsize)(sep - argv[i]));
            if (!(it.m = pms_cli_model(set, pmu)))
                return FALSE;
            event = sep + 2;
        } else if ((it.m = pms_model_set_get(set, argv[i]))) {
            last = it.m;
        } else if (last) {
            it.m = last;
            event = argv[i];
        } else {
            pms_cli_model(set, argv[i]); /* "unknown PMU", with the known ones */
            return FALSE;
        }
        if (event && !(it.ev = pms_model_event(it.m, event))) {
            fprintf(stderr, "pmusim: list: no PMU or event '%s' (PMU %s has no such event)\n", event, it.m->name);
            return FALSE;
        }
        g_array_append_val(items, it);
    }
    return TRUE;
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
    g_autoptr(GOptionContext) ctx = pms_cli_context("[PMU [EVENT...] | PMU::EVENT ...]",
        "Without PMU: the PMUs.  With PMU: its events, unit masks and modifiers (Itanium: a table of each\n"
        "event's facts).  With an EVENT after its PMU, or PMU::EVENT: that event in full.",
        entries, &model_files);
    pms_cli_help(ctx, "0 listed; 2 usage error, an unknown PMU or event, or a model file that does not load.",
        "  pmusim list\n"
        "  pmusim list nhm_unc\n"
        "  pmusim list montecito L3_READS_ALL_HIT\n"
        "  pmusim list --names glm wsm\n");
    if (!pms_cli_parse(ctx, &argc, &argv))
        return PMS_EXIT_USAGE;
    g_autoptr(PmsModelSet) models = pms_cli_load_models(model_files);
    if (models == NULL)
        return PMS_EXIT_USAGE;
    g_autoptr(GArray) items = g_array_new(FALSE, TRUE, sizeof(ListItem));
    if (!list_items(models, argc, argv, items))
        return PMS_EXIT_USAGE; /* an unknown PMU or event name is a bad argument, as in diff and bench */
    for (guint i = 0; argc < 2 && i < pms_model_set_count(models); i++) {
        ListItem it = { pms_model_set_nth(models, i), NULL };
        g_array_append_val(items, it);
    }
    int width = 10;   /* the PMU column of the list, as wide as its longest name */
    for (guint i = 0; i < items->len; i++)
        width = MAX(width, (int)strlen(g_array_index(items, ListItem, i).m->name));
    for (guint i = 0; i < items->len; i++) {
        const ListItem *it = &g_array_index(items, ListItem, i);
        const PmsModel *m = it->m;
        /* an EVENT right after its PMU replaces the PMU's full listing */
        gboolean pmu_then_events = !it->ev && i + 1 < items->len &&
                                   g_array_index(items, ListItem, i + 1).ev &&
                                   g_array_index(items, ListItem, i + 1).m == m;
        if (it->ev && names)
            printf("%s::%s\n", m->name, it->ev->name);
        else if (it->ev)
            print_event(m, it->ev);
        else if (pmu_then_events)
            continue;
        else if (names)
            print_names(m);
        else if (argc < 2)
            printf("%-*s %4u events  %s\n", width, m->name, m->n_events, m->desc ? m->desc : "");
        else if (m->arch == PMS_ARCH_IA64)
            print_model_ia64(m);
        else
            print_model(m);
    }
    return 0;
}
