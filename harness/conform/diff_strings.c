/* pmusim — event strings for comparing encoders.
 *
 * Built from the model alone, so any two backends are fed exactly the same
 * strings.  The modifier sample aims at the places encoders disagree: range
 * edges (min-1, min, max, max+1, hex spelling), boolean spellings (:x, :x=0,
 * :x=1, :x=2), and the combination rules (edge without cmask, any-thread,
 * repeated and conflicting modifiers, ldlat off its event). */
#include "diff_strings.h"
#include "encoder.h"

#include <string.h>

void pms_strings_names(const PmsModel *m, GPtrArray *out)
{
    for (guint e = 0; e < m->n_events; e++) {
        const PmsEvent *ev = &m->events[e];
        g_ptr_array_add(out, g_strdup_printf("%s::%s", m->name, ev->name));
        for (guint u = 0; u < ev->n_umasks; u++)
            g_ptr_array_add(out, g_strdup_printf("%s::%s:%s", m->name, ev->name, ev->umasks[u].name));
    }
}

/* The first event with `flag` (0: a plain event, preferring INST_RETIRED). */
static const PmsEvent *pick_event(const PmsModel *m, guint flag)
{
    const PmsEvent *ir = flag == 0 ? pms_model_event(m, "INST_RETIRED") : NULL;
    if (ir)
        return ir;
    for (guint e = 0; e < m->n_events; e++) {
        const PmsEvent *ev = &m->events[e];
        if (flag ? (ev->flags & flag) != 0 : (ev->flags & (PMS_EVENT_OFFCORE | PMS_EVENT_LDLAT)) == 0)
            return ev;
    }
    return NULL;
}

/* "pmu::EVENT" plus a valid-looking unit-mask choice: for offcore events a
 * unit mask of the first group and one of another (request + response), for
 * load-latency events the unit mask that needs ldlat, else the first. */
static char *base_string(const PmsModel *m, const PmsEvent *ev)
{
    if (ev == NULL)
        return NULL;
    if (ev->n_umasks == 0)
        return g_strdup_printf("%s::%s", m->name, ev->name);
    for (guint u = 1; (ev->flags & PMS_EVENT_OFFCORE) && u < ev->n_umasks; u++)
        if (ev->umasks[u].group != ev->umasks[0].group)
            return g_strdup_printf("%s::%s:%s:%s", m->name, ev->name, ev->umasks[0].name, ev->umasks[u].name);
    for (guint u = 0; (ev->flags & PMS_EVENT_LDLAT) && u < ev->n_umasks; u++)
        if (ev->umasks[u].flags & PMS_UMASK_LDLAT)
            return g_strdup_printf("%s::%s:%s", m->name, ev->name, ev->umasks[u].name);
    return g_strdup_printf("%s::%s:%s", m->name, ev->name, ev->umasks[0].name);
}

static void add(GPtrArray *out, const char *base, const char *suffix)
{
    g_ptr_array_add(out, g_strconcat(base, suffix, NULL));
}

static void add_modifier_edges(GPtrArray *out, const char *base, const PmsModifier *mod)
{
    const char *n = mod->name;
    if (mod->type == PMS_MOD_BOOL) {
        const char *forms[] = { "", "=0", "=1", "=2", "=0x1", "=yes" };
        for (gsize i = 0; i < G_N_ELEMENTS(forms); i++) {
            g_autofree char *t = g_strdup_printf(":%s%s", n, forms[i]);
            add(out, base, t);
        }
        return;
    }
    guint64 vals[] = { mod->min, mod->max, mod->min + 1, (mod->min + mod->max) / 2, mod->max + 1 };
    for (gsize i = 0; i < G_N_ELEMENTS(vals); i++) {
        g_autofree char *t = g_strdup_printf(":%s=%" G_GUINT64_FORMAT, n, vals[i]);
        add(out, base, t);
    }
    if (mod->min > 0) {
        g_autofree char *t = g_strdup_printf(":%s=%" G_GUINT64_FORMAT, n, mod->min - 1);
        add(out, base, t);
    }
    g_autofree char *hex = g_strdup_printf(":%s=0x%" G_GINT64_MODIFIER "x", n, mod->max);
    add(out, base, hex);
    g_autofree char *bare = g_strdup_printf(":%s", n); /* integer modifier without a value */
    add(out, base, bare);
    g_autofree char *neg = g_strdup_printf(":%s=-1", n);
    add(out, base, neg);
}

void pms_strings_modifiers(const PmsModel *m, GPtrArray *out)
{
    const PmsEvent *ev_plain = pick_event(m, 0);
    const PmsEvent *ev_offcore = pick_event(m, PMS_EVENT_OFFCORE);
    const PmsEvent *ev_ldlat = pick_event(m, PMS_EVENT_LDLAT);
    g_autofree char *plain = base_string(m, ev_plain);
    g_autofree char *offcore = base_string(m, ev_offcore);
    g_autofree char *ldlat = base_string(m, ev_ldlat);
    /* The load-latency base carries a valid threshold, so that the other
     * modifiers are what is tested there (a missing ldlat is tested apart). */
    g_autofree char *ldlat_set = ldlat ? g_strconcat(ldlat, ":ldlat=16", NULL) : NULL;
    const char *bases[] = { plain, offcore, ldlat_set };
    for (gsize b = 0; b < G_N_ELEMENTS(bases); b++) {
        if (bases[b] == NULL)
            continue;
        for (guint i = 0; i < m->n_mods; i++) {
            if (g_strcmp0(m->mods[i].name, "ldlat") != 0)
                add_modifier_edges(out, bases[b], &m->mods[i]);
            else if (bases[b] == ldlat_set)
                add_modifier_edges(out, ldlat, &m->mods[i]);
            else /* ldlat off its event: only the rejection is of interest */
                add(out, bases[b], ":ldlat=3");
        }
    }
    if (plain) {
        const char *combos[] = {
            ":u:k",
            ":u=0:k=0",
            ":c=1:e",
            ":e",
            ":e=1:c=0",
            ":c=1:i",
            ":c=1:i:e",
            ":i",
            ":t",
            ":c=1:t",
            ":t:e:c=2:i",
            ":u:u",
            ":u=0:u=1",
            ":c=1:c=2",
            ":c=1:c=1",
            ":k:u:c=255:i:e",
            ":c=3:k",
            ":C=1",
            ":U",
            ":",
            "::",
            ":u:",
            ":=1",
            ":u=",
            ":ldlat=3",
            ":p",
            ":p=1",
            ":foo",
            ":u=1:k=1:e=0:i=0:c=0",
        };
        for (gsize i = 0; i < G_N_ELEMENTS(combos); i++)
            add(out, plain, combos[i]);
        g_ptr_array_add(out, g_ascii_strdown(plain, -1));
        /* no PMU prefix: each backend resolves it its own way */
        g_ptr_array_add(out, g_strdup(plain + strlen(m->name) + 2));
    }
    if (ev_ldlat) {
        const char *combos[] = { ":ldlat=3:ldlat=4", ":ldlat=16:u", ":ldlat=16:c=1", ":ldlat=16:t" };
        for (gsize i = 0; i < G_N_ELEMENTS(combos); i++)
            add(out, ldlat, combos[i]);
        g_ptr_array_add(out, g_strdup_printf("%s::%s:ldlat=16", m->name, ev_ldlat->name));
    }
    if (ev_offcore && ev_offcore->n_umasks > 0) {
        g_ptr_array_add(out, g_strdup_printf("%s::%s", m->name, ev_offcore->name));
        g_ptr_array_add(
            out,
            g_strdup_printf("%s::%s:%s", m->name, ev_offcore->name, ev_offcore->umasks[0].name)); /* one group only */
        add(out, offcore, ":c=1:e");
        add(out, offcore, ":t");
    }
    /* glm's OUTSTANDING offcore rules */
    const PmsEvent *oc = pms_model_event(m, "OFFCORE_RESPONSE_0");
    if (oc && pms_event_umask(oc, "OUTSTANDING")) {
        const char *sfx[] = { ":OUTSTANDING",
                              ":OUTSTANDING:ANY_RESPONSE",
                              ":DMND_DATA_RD:OUTSTANDING",
                              ":DMND_DATA_RD:OUTSTANDING:L2_MISS_SNOOP_HIT",
                              ":ANY_REQUEST:ANY_RESPONSE",
                              ":DMND_DATA_RD:ANY_RESPONSE:L2_HIT" };
        for (gsize i = 0; i < G_N_ELEMENTS(sfx); i++)
            g_ptr_array_add(out, g_strdup_printf("%s::OFFCORE_RESPONSE_0%s", m->name, sfx[i]));
    }
}

void pms_strings_repeats(const PmsModel *m, GPtrArray *out)
{
    /* libpfm4 4.13 refuses a unit mask given 3 times and dies at 65. */
    static const guint repeats[] = { 2, 3, 64, 65 };
    const PmsEvent *ev = pick_event(m, 0);
    for (gsize k = 0; ev && ev->n_umasks > 0 && k < G_N_ELEMENTS(repeats); k++) {
        GString *t = g_string_new(NULL);
        g_string_printf(t, "%s::%s", m->name, ev->name);
        for (guint r = 0; r < repeats[k]; r++)
            g_string_append_printf(t, ":%s", ev->umasks[0].name);
        g_ptr_array_add(out, g_string_free(t, FALSE));
    }
}

void pms_strings_raw(const PmsModel *m, GPtrArray *out)
{
    /* libpfm4 4.13 takes raw unit masks on the Intel x86 core PMUs and on
     * nhm_unc/wsm_unc only (the encoder follows it); elsewhere the strings
     * would only repeat the unknown-attribute answer */
    if (!pms_encoder_takes_raw_umask(m))
        return;
    /* every event with the value of its first unit mask (0x1 without one) */
    for (guint e = 0; e < m->n_events; e++) {
        const PmsEvent *ev = &m->events[e];
        guint64 v = ev->n_umasks ? ev->umasks[0].value : 1;
        g_ptr_array_add(out, g_strdup_printf("%s::%s:0x%" G_GINT64_MODIFIER "x", m->name, ev->name, v));
    }
    /* the edges on a plain event: width, spelling, combinations, order */
    const PmsEvent *ev = pick_event(m, 0);
    if (ev) {
        g_autofree char *b = g_strdup_printf("%s::%s", m->name, ev->name);
        const char *sfx[] = {
            ":0x0",       ":0xff",   ":0x100",       ":0X1F",        ":0x00ff", ":0x",        ":0xfg",
            ":0xff=",     ":0xff=1", ":0x1:0x1",     ":0x1:k",       ":u:0x1",  ":0x1:c=1:i", ":0x1:e",
            ":0x1:c=1:e", ":0x1:t",  ":0x100:c=300", ":c=300:0x100", ":255",    ":-0x1",      ":0x10000000000000000"
        };
        for (gsize i = 0; i < G_N_ELEMENTS(sfx); i++)
            add(out, b, sfx[i]);
        if (ev->n_umasks) {
            g_ptr_array_add(out, g_strdup_printf("%s:%s:0x1", b, ev->umasks[0].name));
            g_ptr_array_add(out, g_strdup_printf("%s:0x1:%s", b, ev->umasks[0].name));
        }
    }
    /* offcore: the value is the extra register; widths 16 and 38 bits */
    const PmsEvent *oc = pick_event(m, PMS_EVENT_OFFCORE);
    if (oc) {
        const char *sfx[] = { ":0x1",          ":0x40",         ":0xffff",   ":0x10000", ":0xffffffff",
                              ":0x3fffffffff", ":0x4000000000", ":0xffff:k", ":0x1:c=1" };
        for (gsize i = 0; i < G_N_ELEMENTS(sfx); i++)
            g_ptr_array_add(out, g_strdup_printf("%s::%s%s", m->name, oc->name, sfx[i]));
    }
}
