/* pmusim models — the ia64 family's checks (models/families.c): the
 * consistency of Itanium (arch ia64) facts.
 *
 * The per-event facts of libpfm's Montecito table (max increment, counters,
 * cache group and set, type, qualifiers, EAR kind and mode, ETB, MESI) only
 * make sense together; a model whose facts contradict each other would make
 * the encoder or the simulator guess.  The loader rejects such a model with
 * the first message; the lint lists them all, and the facts that are missing
 * too (docs/model-format.md). */
#include <string.h>
#include "model.h"
#include "family.h"
#include "model_ia64.h"
#include "model_priv.h"

/* thres is a 3-bit field: max_inc above 8 would name thresholds it cannot hold. */
#define IA64_MAX_INC_MAX 8u

/* The words of each fact as model files write them (index = enum value). */
static const char *const cache_groups[] = { "none", "l1d", "l2d" };
static const char *const event_types[] = { "none", "active", "floating", "causal", "self_floating" };
static const char *const ears[] = { "none", "iear", "dear" };
static const char *const ear_modes[] = { "none", "cache", "tlb", "alat" };
static const char *const code_ranges[] = { "ibrp0", "prefetch", "dual", "not_ibrp1" };
static const char *const qualifiers[] = { "opcm", "iarr", "darr" }; /* bit i: PMS_IA64_QUAL_* */
/* `type` has no "none": an event that does not know its type leaves the key out */
static const char *const type_words[] = { NULL, "active", "floating", "causal", "self_floating" };

/* The facts are read and written as 32-bit members (family.h PmsEventFact). */
G_STATIC_ASSERT(sizeof(PmsIa64CacheGroup) == 4 && sizeof(PmsIa64EventType) == 4 && sizeof(PmsIa64Ear) == 4 &&
                sizeof(PmsIa64EarMode) == 4 && sizeof(PmsIa64CodeRange) == 4 && sizeof(gboolean) == 4);
G_STATIC_ASSERT(1u << G_N_ELEMENTS(qualifiers) == (PMS_IA64_QUAL_DARR << 1));

#define AT(member) G_STRUCT_OFFSET(PmsIa64EventFacts, member)
#define WORDS(list) (list), .n_words = G_N_ELEMENTS(list)

/* The [event] keys of an ia64 model (docs/model-format.md "Itanium events"),
 * in the order the loader reads them; their consistency is checked once
 * the event is read (pms_ia64_event_check). */
static const PmsEventFact keys[] = {
    { .key = "max_inc",
      .kind = PMS_FACT_UINT,
      .offset = AT(max_inc),
      .dflt = 0,
      .min = 1,
      .max = 255,
      .expect = "1..8 occurrences per cycle" },
    { .key = "cache_group", .kind = PMS_FACT_WORD, .offset = AT(cache_group), .words = WORDS(cache_groups) },
    { .key = "cache_set", .kind = PMS_FACT_UINT, .offset = AT(cache_set), .dflt = G_MAXUINT32, .min = 0, .max = 15 },
    { .key = "type", .kind = PMS_FACT_WORD, .offset = AT(ev_type), .words = WORDS(type_words) },
    { .key = "qualifiers",
      .kind = PMS_FACT_FLAGS,
      .offset = AT(qualifiers),
      .words = WORDS(qualifiers),
      .none = "none",
      .item = "qualifier" },
    { .key = "ear", .kind = PMS_FACT_WORD, .offset = AT(ear), .words = WORDS(ears), .distinct = TRUE },
    { .key = "ear_mode", .kind = PMS_FACT_WORD, .offset = AT(ear_mode), .words = WORDS(ear_modes), .distinct = TRUE },
    { .key = "etb", .kind = PMS_FACT_BOOL, .offset = AT(etb) },
    { .key = "mesi", .kind = PMS_FACT_BOOL, .offset = AT(mesi) },
    { .key = "code_range", .kind = PMS_FACT_WORD, .offset = AT(code_range), .words = WORDS(code_ranges) },
};

const PmsEventFacts pms_ia64_event_facts = { keys, G_N_ELEMENTS(keys), sizeof(PmsIa64EventFacts) };

static const char *name_in(const char *const *names, guint n, guint v)
{
    return v < n ? names[v] : NULL;
}

const char *pms_ia64_cache_group_name(PmsIa64CacheGroup g)
{
    return name_in(cache_groups, G_N_ELEMENTS(cache_groups), g);
}

const char *pms_ia64_event_type_name(PmsIa64EventType t)
{
    return name_in(event_types, G_N_ELEMENTS(event_types), t);
}

const char *pms_ia64_ear_name(PmsIa64Ear ear)
{
    return name_in(ears, G_N_ELEMENTS(ears), ear);
}

const char *pms_ia64_ear_mode_name(PmsIa64EarMode mode)
{
    return name_in(ear_modes, G_N_ELEMENTS(ear_modes), mode);
}

/* The counting PMC of the first counter: its layout holds the umask field. */
static const PmsField *counter_field(const PmsModel *m, const char *name)
{
    const PmsRegister *r = pms_model_reg_by_kind(m, PMS_REG_IA64_PMC, m->counter_base);
    return r ? pms_layout_field(r->layout, name) : NULL;
}

void pms_ia64_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs)
{
    if (m->counter_base + m->n_gp > 64) {
        pms_msg_add(msgs, "counters %u..%u do not fit a 64-bit counter mask", m->counter_base,
                    m->counter_base + m->n_gp - 1);
        return;
    }
    static const char *const needed[] = { "es", "umask", "thres" };
    for (guint i = m->counter_base; complete && i < m->counter_base + m->n_gp; i++) {
        const PmsRegister *c = pms_model_reg_by_kind(m, PMS_REG_IA64_PMC, i);
        const PmsRegister *d = pms_model_reg_by_kind(m, PMS_REG_IA64_PMD, i);
        if (!c) {
            pms_msg_add(msgs, "counter %u has no configuration register (kind ia64_pmc, index %u)", i, i);
        } else {
            for (guint f = 0; f < G_N_ELEMENTS(needed); f++)
                if (!pms_layout_field(c->layout, needed[f]))
                    pms_msg_add(msgs, "counter %u: register %s has no field %s", i, c->name, needed[f]);
        }
        if (!d)
            pms_msg_add(msgs, "counter %u has no data register (kind ia64_pmd, index %u)", i, i);
        else if (d->width != m->gp_width)
            pms_msg_add(msgs, "counter %u: register %s is %u bits wide, gp_width is %u", i, d->name, d->width,
                        m->gp_width);
    }
    if (complete)
        pms_ia64_fields_check(m, msgs);
}

void pms_ia64_event_check(const PmsModel *m, const PmsEvent *e, gboolean complete, GPtrArray *msgs)
{
    const PmsIa64EventFacts *f = pms_ia64_facts(e);
    if (f->max_inc == 0 && complete)
        pms_msg_add(msgs, "event %s: max_inc is 0 or missing (an Itanium event occurs 1..%u times per cycle)", e->name,
                    IA64_MAX_INC_MAX);
    else if (f->max_inc > IA64_MAX_INC_MAX)
        pms_msg_add(msgs, "event %s: max_inc %u is above %u (the 3-bit thres could not reach it)", e->name, f->max_inc,
                    IA64_MAX_INC_MAX);
    guint64 all = pms_model_counters_mask(m);
    if (e->counters == 0)
        pms_msg_add(msgs, "event %s can use no counter", e->name);
    else if (e->counters & ~all)
        pms_msg_add(msgs, "event %s: counters 0x%" G_GINT64_MODIFIER "x names counters outside %u..%u", e->name,
                    e->counters, m->counter_base, m->counter_base + m->n_gp - 1);
    if (e->fixed)
        pms_msg_add(msgs, "event %s: fixed 0x%x on a model without fixed counters", e->name, e->fixed);
    if (f->ev_type == PMS_IA64_TYPE_NONE && complete)
        pms_msg_add(msgs, "event %s: type missing (active, floating, causal or self_floating)", e->name);
    if (f->cache_set >= 0 && f->cache_group == PMS_IA64_GROUP_NONE)
        pms_msg_add(msgs, "event %s: cache_set %d without a cache_group", e->name, f->cache_set);
    if (f->cache_group != PMS_IA64_GROUP_NONE && f->cache_set < 0)
        pms_msg_add(msgs, "event %s: cache_group %s without a cache_set", e->name,
                    pms_ia64_cache_group_name(f->cache_group));
    if (f->ear_mode != PMS_IA64_EAR_MODE_NONE && f->ear == PMS_IA64_EAR_NONE)
        pms_msg_add(msgs, "event %s: ear_mode %s without an ear kind (iear or dear)", e->name,
                    pms_ia64_ear_mode_name(f->ear_mode));
    if (f->ear != PMS_IA64_EAR_NONE && f->ear_mode == PMS_IA64_EAR_MODE_NONE)
        pms_msg_add(msgs, "event %s: ear %s without an ear_mode (cache, tlb or alat)", e->name,
                    pms_ia64_ear_name(f->ear));
    if (f->ear == PMS_IA64_EAR_I && f->ear_mode == PMS_IA64_EAR_MODE_ALAT)
        pms_msg_add(msgs, "event %s: the instruction EAR has no alat mode", e->name);
    if (f->ear != PMS_IA64_EAR_NONE && f->etb)
        pms_msg_add(msgs, "event %s: both an EAR event and an ETB event", e->name);
    /* a prefetch or dual event's pair is a code-range fact: it needs iarr */
    if ((f->code_range == PMS_IA64_CODE_RANGE_PREFETCH || f->code_range == PMS_IA64_CODE_RANGE_DUAL) &&
        !(f->qualifiers & PMS_IA64_QUAL_IARR))
        pms_msg_add(msgs, "event %s: code_range = %s without the iarr qualifier", e->name,
                    f->code_range == PMS_IA64_CODE_RANGE_DUAL ? "dual" : "prefetch");
    if (e->n_umasks)
        pms_msg_add(msgs, "event %s: Itanium events carry their one unit mask in base_umask, not umask.* keys",
                    e->name);

    /* Where the unit mask goes: the EAR configuration register's umask field
     * (named by extra) for EAR events, the counting PMC's otherwise. */
    const PmsField *uf = NULL;
    const char *where = NULL;
    if (f->ear != PMS_IA64_EAR_NONE) {
        const PmsRegister *x = e->extra_reg ? pms_model_reg_by_name(m, e->extra_reg) : NULL;
        if (!x)
            pms_msg_add(msgs, "event %s: an EAR event needs extra = the EAR configuration register (%s)", e->name,
                        e->extra_reg ? "no such register" : "missing");
        else if (x->kind != PMS_REG_IA64_PMC || !(uf = pms_layout_field(x->layout, "umask")))
            pms_msg_add(msgs, "event %s: extra register %s is not an ia64_pmc with a umask field", e->name, x->name);
        where = e->extra_reg;
    } else {
        if (e->extra_reg)
            pms_msg_add(msgs, "event %s: extra %s on an event that is not an EAR event", e->name, e->extra_reg);
        uf = counter_field(m, "umask");
        where = "the counting PMC";
    }
    if (uf && uf->width < 32 && e->base_umask >> uf->width)
        pms_msg_add(msgs, "event %s: umask 0x%x does not fit the %u-bit umask field of %s", e->name, e->base_umask,
                    uf->width, where);

    /* MESI qualifiers: modifiers on the counting PMC's mesi_* fields. */
    for (guint j = 0; j < m->n_mods && j < 32; j++)
        if (!f->mesi && (e->modifiers & (1u << j)) && g_str_has_prefix(m->mods[j].field, "mesi_"))
            pms_msg_add(msgs, "event %s takes modifier %s (a MESI qualifier) but mesi is not true", e->name,
                        m->mods[j].name);
}
