/* pmusim list — what the models hold: PMUs, events, unit masks, modifiers. */
#include "suggest.h"
#include "cli_common.h"
#include "cli_family.h"
#include "commands.h"
#include "encoder.h"
#include "json_out.h"

#include <stdio.h>
#include <string.h>

/* --grep: a case-insensitive substring of the event's name or description,
 * or of one of its unit masks' names or descriptions (NULL: every event). */
static gboolean has_ci(const char *text, const char *pat)
{
    if (!text)
        return FALSE;
    g_autofree char *t = g_ascii_strdown(text, -1);
    return strstr(t, pat) != NULL;
}

static gboolean event_matches(const PmsEvent *ev, const char *pat)
{
    if (!pat || has_ci(ev->name, pat) || has_ci(ev->desc, pat))
        return TRUE;
    for (guint u = 0; u < ev->n_umasks; u++)
        if (has_ci(ev->umasks[u].name, pat) || has_ci(ev->umasks[u].desc, pat))
            return TRUE;
    return FALSE;
}

/* event_matches as a family's listing asks it (PmsCliEventKeep). */
static gboolean keep_event(const PmsEvent *ev, gconstpointer pat)
{
    return event_matches(ev, pat);
}

/* Events of m that --grep keeps. */
static guint n_matching(const PmsModel *m, const char *pat)
{
    guint n = 0;
    for (guint e = 0; e < m->n_events; e++)
        n += event_matches(&m->events[e], pat);
    return n;
}

/* The modifiers a unit mask needs to encode on its own: the load-latency
 * unit mask has no default threshold, so it gets the smallest one. */
static char *required_mods(const PmsModel *m, const PmsUmask *um)
{
    if (!(um->flags & PMS_UMASK_LDLAT))
        return g_strdup("");
    for (guint j = 0; j < m->n_mods; j++)
        if (g_str_equal(m->mods[j].name, "ldlat"))
            return g_strdup_printf(":ldlat=%" G_GUINT64_FORMAT, m->mods[j].min);
    return g_strdup("");
}

/* One string per event or unit mask, each one that encodes as printed. */
static void print_names(const PmsModel *m, const char *pat)
{
    for (guint e = 0; e < m->n_events; e++) {
        const PmsEvent *ev = &m->events[e];
        if (!event_matches(ev, pat))
            continue;
        if (ev->n_umasks == 0)
            printf("%s::%s\n", m->name, ev->name);
        for (guint u = 0; u < ev->n_umasks; u++) {
            g_autofree char *mods = required_mods(m, &ev->umasks[u]);
            printf("%s::%s:%s%s\n", m->name, ev->name, ev->umasks[u].name, mods);
        }
    }
}

static const char *group_name(const PmsEvent *ev, guint g)
{
    return g < ev->n_groups && ev->groups[g].name && ev->groups[g].name[0] ? ev->groups[g].name : NULL;
}

/* "c=16 i=1": the modifier values a unit mask hard-wires. */
static char *forced_mods(const PmsUmask *um)
{
    GString *f = g_string_new(NULL);
    const struct {
        const char *name;
        gint v;
    } mods[] = { { "c", um->cmask }, { "i", um->inv }, { "e", um->edge }, { "t", um->any } };
    for (gsize i = 0; i < G_N_ELEMENTS(mods); i++)
        if (mods[i].v >= 0)
            g_string_append_printf(f, "%s%s=%d", f->len ? ":" : "", mods[i].name, mods[i].v);
    return g_string_free(f, FALSE);
}

/* "0-3", "0,2", "-": a counter mask as counter numbers. */
static char *counter_list(guint64 mask)
{
    return pms_cli_counter_ranges(mask, "", "-");
}

/* The event's facts after its name: code, counters, flags, extra register. */
static char *event_facts(const PmsEvent *ev)
{
    g_autofree char *gp = counter_list(ev->counters);
    g_autofree char *fx = counter_list(ev->fixed);
    GString *f = g_string_new(NULL);
    g_string_append_printf(f, "code 0x%02x  counters %s", ev->code, ev->flags & PMS_EVENT_FIXED_ONLY ? "-" : gp);
    if (ev->fixed)
        g_string_append_printf(f, "  fixed %s", fx);
    if (ev->base_umask)
        g_string_append_printf(f, "  umask 0x%02x", ev->base_umask);
    if (ev->flags & PMS_EVENT_PEBS)
        g_string_append(f, "  PEBS");
    if (ev->extra_reg)
        g_string_append_printf(f, "  extra %s", ev->extra_reg);
    if (ev->flags & PMS_EVENT_LDLAT)
        g_string_append(f, "  ldlat");
    if (ev->flags & PMS_EVENT_FIXED_ONLY)
        g_string_append(f, "  fixed counter only");
    if (ev->modifiers == 0)
        g_string_append(f, "  no modifiers");
    if (ev->flags & PMS_EVENT_GROUP_EXCL)
        g_string_append(f, "  unit masks of one group only");
    if (ev->equiv)
        g_string_append_printf(f, "  alias of %s", ev->equiv);
    if (ev->flags & PMS_EVENT_DUP)
        g_string_append(f, "  dup (same encoding as an earlier event)");
    return g_string_free(f, FALSE);
}

/* One unit mask's facts: value, default, group, the modifiers it hard-wires
 * and what it is an alias of (libpfm4's fstr prints the expansion). */
static char *umask_facts(const PmsEvent *ev, const PmsUmask *um)
{
    const char *g = group_name(ev, um->group);
    g_autofree char *forced = forced_mods(um);
    GString *f = g_string_new(NULL);
    g_string_append_printf(f, "0x%-6" G_GINT64_MODIFIER "x", um->value);
    if (um->flags & PMS_UMASK_DEFAULT)
        g_string_append(f, " default");
    if (um->flags & PMS_UMASK_EXCL)
        g_string_append(f, " exclusive");
    if (um->flags & PMS_UMASK_OVERRIDE)
        g_string_append(f, " override");
    if (g)
        g_string_append_printf(f, " group %s", g);
    if (um->flags & PMS_UMASK_LDLAT)
        g_string_append(f, " needs ldlat");
    if (um->equiv)
        g_string_append_printf(f, " = %s", um->equiv);
    else if (*forced)
        g_string_append_printf(f, " with %s", forced);
    if (um->code >= 0 && (guint32)um->code != ev->code)
        g_string_append_printf(f, " code 0x%02x", um->code);
    if (um->desc)
        g_string_append_printf(f, "  %s", um->desc);
    return g_string_free(f, FALSE);
}

static void print_model(const PmsModel *m, const char *pat)
{
    printf("%s: %s\n  source %s; %u generic counters (%u bits), %u fixed (%u bits)%s\n", m->name,
           m->desc ? m->desc : "", m->source ? m->source : "?", m->n_gp, m->gp_width, m->n_fixed, m->fixed_width,
           m->smt ? "; SMT" : "");
    if (m->unit) /* a model of several boxes that stands for one of them */
        printf("  stands for unit %s instance %u of the model's %u registers\n", m->unit, m->instance, m->n_regs);
    printf("  modifiers:\n");
    for (guint i = 0; i < m->n_mods; i++) {
        const PmsModifier *mod = &m->mods[i];
        g_autofree char *range = mod->type == PMS_MOD_BOOL
            ? g_strdup("bool")
            : g_strdup_printf("%" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT, mod->min, mod->max);
        printf("    %-6s %-15s %s\n", mod->name, range, mod->desc ? mod->desc : "");
    }
    int namew = 5, umw = 5; /* columns as wide as the longest names */
    for (guint e = 0; e < m->n_events; e++) {
        namew = MAX(namew, (int)strlen(m->events[e].name));
        for (guint u = 0; u < m->events[e].n_umasks; u++)
            umw = MAX(umw, (int)strlen(m->events[e].umasks[u].name) + 1);
    }
    printf("  events:\n");
    for (guint e = 0; e < m->n_events; e++) {
        const PmsEvent *ev = &m->events[e];
        if (!event_matches(ev, pat))
            continue;
        g_autofree char *facts = event_facts(ev);
        printf("    %-*s %s\n", namew, ev->name, facts);
        if (ev->desc)
            printf("      %s\n", ev->desc);
        for (guint u = 0; u < ev->n_umasks; u++) {
            g_autofree char *uf = umask_facts(ev, &ev->umasks[u]);
            g_autofree char *col = g_strconcat(":", ev->umasks[u].name, NULL);
            g_autofree char *row = g_strdup_printf("      %-*s %s", umw, col, uf);
            printf("%s\n", g_strchomp(row)); /* no trailing blanks */
        }
    }
}

/* One event in full, every fact by name (any architecture): the facts of
 * the full listing (the same words: counters as ranges, fixed counters by
 * index, flags), the family's register facts, then each unit mask as the
 * full listing shows it (value, default, group, alias, description). */
static void print_event(const PmsModel *m, const PmsEvent *ev)
{
    printf("%s::%s\n", m->name, ev->name);
    if (ev->desc)
        printf("  %s\n", ev->desc);
    g_autofree char *ef = event_facts(ev);
    printf("  facts       %s\n", ef);
    printf("  code        0x%02x\n", ev->code);
    g_autoptr(GString) facts = g_string_new(NULL);
    pms_cli_family(m)->list_event(facts, m, ev);
    fputs(facts->str, stdout);
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
    int umw = 5;
    for (guint u = 0; u < ev->n_umasks; u++)
        umw = MAX(umw, (int)strlen(ev->umasks[u].name) + 1);
    for (guint u = 0; u < ev->n_umasks; u++) {
        g_autofree char *uf = umask_facts(ev, &ev->umasks[u]);
        g_autofree char *col = g_strconcat(":", ev->umasks[u].name, NULL);
        g_autofree char *row = g_strdup_printf("  %-*s %s", umw, col, uf);
        printf("%s\n", g_strchomp(row));
    }
}

/* --names for one event: the event alone when that encodes (a default unit
 * mask), else each of its unit masks (MEM_INST_RETIRED has no default). */
static void print_event_names(const PmsModelSet *set, const PmsModel *m, const PmsEvent *ev)
{
    g_autofree char *alone = g_strdup_printf("%s::%s", m->name, ev->name);
    g_autoptr(PmsEncoding) enc = pms_encode(set, alone, NULL);
    if (enc || ev->n_umasks == 0) {
        printf("%s\n", alone);
        return;
    }
    for (guint u = 0; u < ev->n_umasks; u++) {
        g_autofree char *mods = required_mods(m, &ev->umasks[u]);
        printf("%s:%s%s\n", alone, ev->umasks[u].name, mods);
    }
}

/* ---- --format=json: the same facts for programs ---- */

static void json_event(GString *o, const PmsModel *m, const PmsEvent *ev)
{
    g_string_append(o, "    {\"name\": ");
    pms_json_str(o, ev->name);
    g_string_append_printf(o, ", \"code\": %u, \"base_umask\": %u, \"counters\": ", ev->code, ev->base_umask);
    pms_json_hex(o, ev->counters);
    /* a mask of fixed counters, like "counters": a hex string (README, JSON) */
    g_string_append(o, ", \"fixed\": ");
    pms_json_hex(o, ev->fixed);
    g_string_append_printf(o, ", \"pebs\": %s, \"fixed_only\": %s", ev->flags & PMS_EVENT_PEBS ? "true" : "false",
                           ev->flags & PMS_EVENT_FIXED_ONLY ? "true" : "false");
    const struct {
        const char *key;
        const char *v;
    } strs[] = { { "extra", ev->extra_reg }, { "alias_of", ev->equiv }, { "desc", ev->desc } };
    for (gsize i = 0; i < G_N_ELEMENTS(strs); i++) {
        g_string_append_printf(o, ", \"%s\": ", strs[i].key);
        if (strs[i].v)
            pms_json_str(o, strs[i].v);
        else
            g_string_append(o, "null");
    }
    g_string_append(o, ", \"modifiers\": [");
    for (guint j = 0, n = 0; j < m->n_mods && j < 32; j++)
        if (ev->modifiers & (1u << j)) {
            g_string_append(o, n++ ? ", " : "");
            pms_json_str(o, m->mods[j].name);
        }
    g_string_append(o, "], \"umasks\": [");
    for (guint u = 0; u < ev->n_umasks; u++) {
        const PmsUmask *um = &ev->umasks[u];
        const char *g = group_name(ev, um->group);
        g_string_append(o, u ? ",\n      {\"name\": " : "\n      {\"name\": ");
        pms_json_str(o, um->name);
        g_string_append(o, ", \"value\": ");
        pms_json_hex(o, um->value);
        g_string_append_printf(o, ", \"default\": %s, \"exclusive\": %s, \"needs_ldlat\": %s, \"group\": ",
                               um->flags & PMS_UMASK_DEFAULT ? "true" : "false",
                               um->flags & PMS_UMASK_EXCL ? "true" : "false",
                               um->flags & PMS_UMASK_LDLAT ? "true" : "false");
        if (g)
            pms_json_str(o, g);
        else
            g_string_append(o, "null");
        g_string_append(o, ", \"forced\": {");
        const struct {
            const char *name;
            gint v;
        } mods[] = { { "c", um->cmask }, { "i", um->inv }, { "e", um->edge }, { "t", um->any } };
        for (gsize i = 0, n = 0; i < G_N_ELEMENTS(mods); i++)
            if (mods[i].v >= 0)
                g_string_append_printf(o, "%s\"%s\": %d", n++ ? ", " : "", mods[i].name, mods[i].v);
        g_string_append(o, "}, \"alias_of\": ");
        if (um->equiv)
            pms_json_str(o, um->equiv);
        else
            g_string_append(o, "null");
        g_string_append(o, ", \"desc\": ");
        if (um->desc)
            pms_json_str(o, um->desc);
        else
            g_string_append(o, "null");
        g_string_append_c(o, '}');
    }
    g_string_append(o, ev->n_umasks ? "\n    ]}" : "]}");
}

/* One PMU: its header facts, modifiers with their ranges, and its events
 * (only `only` when given, else those --grep keeps). */
static void json_model(GString *o, const PmsModel *m, const PmsEvent *only, const char *pat)
{
    g_string_append(o, "  {\"name\": ");
    pms_json_str(o, m->name);
    g_string_append(o, ", \"desc\": ");
    if (m->desc)
        pms_json_str(o, m->desc);
    else
        g_string_append(o, "null");
    g_string_append_printf(o,
                           ", \"gp_counters\": %u, \"gp_width\": %u, \"fixed_counters\": %u, "
                           "\"fixed_width\": %u, \"smt\": %s,\n   \"modifiers\": [",
                           m->n_gp, m->gp_width, m->n_fixed, m->fixed_width, m->smt ? "true" : "false");
    for (guint i = 0; i < m->n_mods; i++) {
        const PmsModifier *mod = &m->mods[i];
        g_string_append(o, i ? ", {\"name\": " : "{\"name\": ");
        pms_json_str(o, mod->name);
        g_string_append_printf(o, ", \"type\": \"%s\", \"min\": %" G_GUINT64_FORMAT ", \"max\": %" G_GUINT64_FORMAT "}",
                               mod->type == PMS_MOD_BOOL ? "bool" : "int", mod->min, mod->max);
    }
    g_string_append(o, "],\n   \"events\": [\n");
    guint n = 0;
    for (guint e = 0; e < m->n_events; e++) {
        const PmsEvent *ev = &m->events[e];
        if (only ? ev != only : !event_matches(ev, pat))
            continue;
        g_string_append(o, n++ ? ",\n" : "");
        json_event(o, m, ev);
    }
    g_string_append(o, "\n  ]}");
}

/* --options: each [options] key m's family reads (family.h PmsModelOption),
 * its value in m (the default when m does not set it), the default, the
 * values it takes and what it chooses; columns as wide as their widest. */
static void print_options(const PmsModel *m)
{
    const PmsModelOption *o;
    int wk = 6, wv = 5, wd = 7, wa = 7;
    for (guint i = 0; (o = pms_family_option_nth(m->family, i)); i++) {
        g_autofree char *allowed = pms_model_option_allowed(o);
        wk = MAX(wk, (int)strlen(o->key));
        wv = MAX(wv, (int)strlen(pms_model_option(m, o->key, o->dflt)));
        wd = MAX(wd, (int)strlen(o->dflt));
        wa = MAX(wa, (int)strlen(allowed));
    }
    printf("%s: [options] of the %s family\n", m->name, m->family->name);
    printf("%-*s  %-*s  %-*s  %-*s  %s\n", wk, "OPTION", wv, "VALUE", wd, "DEFAULT", wa, "ALLOWED", "CHOOSES");
    for (guint i = 0; (o = pms_family_option_nth(m->family, i)); i++) {
        g_autofree char *allowed = pms_model_option_allowed(o);
        printf("%-*s  %-*s  %-*s  %-*s  %s\n", wk, o->key, wv, pms_model_option(m, o->key, o->dflt), wd, o->dflt, wa,
               allowed, o->desc);
    }
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
            const char *best = pms_suggest_event(it.m, event);
            fprintf(stderr, "pmusim: list: no PMU or event '%s' (PMU %s has no such event%s%s%s)\n", event, it.m->name,
                    best ? "; did you mean " : "", best ? best : "", best ? "?" : "");
            return FALSE;
        }
        g_array_append_val(items, it);
    }
    return TRUE;
}

int pms_cmd_list(int argc, char **argv)
{
    gboolean names = FALSE, options = FALSE;
    g_autofree char *grep = NULL, *format = NULL;
    g_auto(GStrv) model_files = NULL;
    const GOptionEntry entries[] = {
        { "names", 'n', 0, G_OPTION_ARG_NONE, &names,
          "One fully qualified pmu::EVENT:UMASK per line (events without unit masks once), each a string that "
          "encodes as printed",
          NULL },
        { "grep", 'g', 0, G_OPTION_ARG_STRING, &grep,
          "Only events whose name or description, or a unit mask's, contains TEXT (any case)", "TEXT" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "text (default) or json", "FMT" },
        { "options", 0, 0, G_OPTION_ARG_NONE, &options,
          "Each PMU's [options] (what-if switches): its value, the default, the values it takes and what it chooses",
          NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    g_autoptr(GOptionContext) ctx = pms_cli_context(
        "[PMU [EVENT...] | PMU::EVENT ...]",
        "Without PMU: the PMUs.  With PMU: its events, unit masks and modifiers (Itanium: a table of each\n"
        "event's facts).  With an EVENT after its PMU, or PMU::EVENT: that event in full.",
        entries, &model_files);
    pms_cli_help(ctx,
                 "0 listed; 1 --grep matched no event; 2 usage error, an unknown PMU or event, or a model "
                 "file that does not load.",
                 "  pmusim list\n"
                 "  pmusim list nhm_unc\n"
                 "  pmusim list montecito L3_READS_ALL_HIT\n"
                 "  pmusim list --names glm wsm\n"
                 "  pmusim list wsm --grep cache\n"
                 "  pmusim list --format=json wsm INST_RETIRED\n"
                 "  pmusim list nhmex --options\n");
    if (!pms_cli_parse(ctx, &argc, &argv))
        return PMS_EXIT_USAGE;
    gboolean json = format && strcmp(format, "json") == 0;
    if (format && !json && strcmp(format, "text") != 0) {
        fprintf(stderr, "pmusim: list: --format '%s': expected text or json\n", format);
        return PMS_EXIT_USAGE;
    }
    if (json && names) {
        fprintf(stderr, "pmusim: list: --names prints plain lines; it takes no --format\n");
        return PMS_EXIT_USAGE;
    }
    if (options && (names || grep || format || argc < 2)) {
        fprintf(stderr,
                "pmusim: list: --options lists the options of the PMUs named; it takes a PMU and no "
                "--names, --grep or --format\n");
        return PMS_EXIT_USAGE;
    }
    g_autofree char *pat = grep ? g_ascii_strdown(grep, -1) : NULL;
    g_autoptr(PmsModelSet) models = pms_cli_load_models(model_files);
    if (models == NULL)
        return PMS_EXIT_USAGE;
    g_autoptr(GArray) items = g_array_new(FALSE, TRUE, sizeof(ListItem));
    if (!list_items(models, argc, argv, items))
        return PMS_EXIT_USAGE; /* an unknown PMU or event name is a bad argument, as in diff and bench */
    for (guint i = 0; options && i < items->len; i++) {
        const ListItem *it = &g_array_index(items, ListItem, i);
        if (it->ev) {
            fprintf(stderr, "pmusim: list: --options lists a PMU's options, not an event's (%s)\n", it->ev->name);
            return PMS_EXIT_USAGE;
        }
        print_options(it->m);
    }
    if (options)
        return 0;
    for (guint i = 0; argc < 2 && i < pms_model_set_count(models); i++) {
        ListItem it = { pms_model_set_nth(models, i), NULL };
        g_array_append_val(items, it);
    }
    int width = 10; /* the PMU column of the list, as wide as its longest name */
    for (guint i = 0; i < items->len; i++)
        width = MAX(width, (int)strlen(g_array_index(items, ListItem, i).m->name));
    guint matched = 0;
    for (guint i = 0; pat && i < items->len; i++) {
        const ListItem *it = &g_array_index(items, ListItem, i);
        matched += it->ev ? (guint)event_matches(it->ev, pat) : n_matching(it->m, pat);
    }
    if (pat && !matched) {
        /* as grep: nothing matched, nothing on stdout; one line says so */
        fprintf(stderr, "pmusim: list: --grep '%s' matched no event\n", grep);
        return 1;
    }
    /* --grep without PMU searches every PMU's events, not the PMU summary */
    gboolean summary = argc < 2 && !pat;
    g_autoptr(GString) js = g_string_new("[\n");
    for (guint i = 0; i < items->len; i++) {
        const ListItem *it = &g_array_index(items, ListItem, i);
        const PmsModel *m = it->m;
        /* an EVENT right after its PMU replaces the PMU's full listing */
        gboolean pmu_then_events = !it->ev && i + 1 < items->len && g_array_index(items, ListItem, i + 1).ev &&
            g_array_index(items, ListItem, i + 1).m == m;
        if (pmu_then_events || (pat && !(it->ev ? (guint)event_matches(it->ev, pat) : n_matching(m, pat))))
            continue;
        if (json) {
            g_string_append(js, js->len > 2 ? ",\n" : "");
            json_model(js, m, it->ev, pat);
        } else if (it->ev && names) {
            print_event_names(models, m, it->ev);
        } else if (it->ev)
            print_event(m, it->ev);
        else if (names)
            print_names(m, pat);
        else if (summary)
            printf("%-*s %4u events  %s\n", width, m->name, m->n_events, m->desc ? m->desc : "");
        else if (pms_cli_family(m)->list_model) {
            g_autoptr(GString) o = g_string_new(NULL);
            pms_cli_family(m)->list_model(o, m, keep_event, pat);
            fputs(o->str, stdout);
        } else
            print_model(m, pat);
    }
    if (json) {
        g_string_append(js, "\n]\n");
        fputs(js->str, stdout);
    }
    return 0;
}
