/* pmusim — the family registry.
 *
 * A *family* is one way of programming counters: the x86 architectural core
 * (glm, nhm, wsm), the Nehalem/Westmere uncore, the Xeon 7500 uncore, the
 * Itanium 2.  A *PMU* is a model file of a family (its `arch` key names the
 * family).  Each layer keeps one table of the families it serves, an entry
 * per family, and generic code asks that entry; it never asks which family a
 * model is:
 *
 *   models/families.c          model facts: the family's own checks (loader, lint)
 *   encoder/families.c         encoder rules, raw unit masks, decode
 *   sim/program/families.c     the program step (codes -> register writes)
 *   sim/families.c             the simulator device
 *   harness/family/families.c  the CLI hooks (explain, perf syntax, decode, list, ...)
 *
 * Adding a family is its files plus one line in each of these tables
 * (docs/adding-a-pmu.md).  A layer's table is a PmsFamilyTable of
 * PmsFamilyEntry {family name, ops}; pms_family_table_get() finds a model's
 * entry in constant time after the first call. */
#pragma once

#include <glib.h>
#include "pms_api.h"
#include "model.h"

G_BEGIN_DECLS

/* A family's per-event facts (Itanium's max_inc, cache_group, ear, ...):
 * keys of its [event] groups that no other family has.  The family declares
 * them as data, one PmsEventFact per key, and owns the struct they fill
 * (model_ia64.h PmsIa64EventFacts); the loader parses them, the model image
 * stores them and the lint compares them by this table alone, and accepts
 * the keys in that family's models only.  Each fact is a 32-bit member
 * (guint, gint, gboolean or an enum) at `offset` in the struct. */
typedef enum {
    PMS_FACT_UINT,  /* a number min..max (decimal or 0x-hex) */
    PMS_FACT_WORD,  /* one word of words[]: the value is its index (a NULL entry cannot be written) */
    PMS_FACT_BOOL,  /* true or false */
    PMS_FACT_FLAGS, /* any of words[] (bit i: words[i]), or the `none` word alone */
} PmsEventFactKind;

typedef struct {
    const char *key; /* the model file's key: "max_inc" */
    PmsEventFactKind kind;
    gsize offset;             /* of its member in the family's facts struct */
    guint32 dflt;             /* the value when the key is absent (UINT: may lie outside min..max, e.g. -1 for none) */
    guint32 min;              /* UINT: the range accepted */
    guint32 max;              /* UINT: the range accepted */
    const char *expect;       /* UINT: the accepted values in words, for a value below min ("1..8
                               * occurrences per cycle"); NULL: "MIN..MAX" */
    const char *const *words; /* WORD, FLAGS */
    guint n_words;
    const char *none;  /* FLAGS: the word that stands alone for no flag, or NULL */
    const char *item;  /* FLAGS: what one word is, for messages ("qualifier") */
    gboolean distinct; /* events of one code and unit mask that differ in it are different
                        * encodings (the lint's duplicate check): Itanium's EAR kind and mode */
} PmsEventFact;

typedef struct {
    const PmsEventFact *keys; /* in the order the loader reads and messages list them */
    guint n_keys;
    gsize size; /* of the facts struct: every event of the family's models has one */
} PmsEventFacts;

/* One `[options]` key a family's simulator reads (models/model_options.c):
 * the loader refuses a key no entry names and a value the entry does not
 * allow, at the option's line; `pmusim list PMU --options` prints them. */
typedef enum {
    PMS_OPTION_WORD,   /* one word of `words` (ASCII case-insensitive) */
    PMS_OPTION_UINT,   /* a decimal number 0..max */
    PMS_OPTION_SIGNAL, /* CODE.UMASK in hex (code <= 0xffff, umask <= 0xff) */
} PmsOptionKind;

typedef struct {
    const char *key; /* "cpl_gate"; NULL ends a table */
    PmsOptionKind kind;
    const char *words; /* WORD: the allowed values, "|"-separated: "post|pre" */
    guint64 max;       /* UINT: the largest value */
    const char *dflt;  /* the value the simulator takes when the key is absent, in words */
    const char *desc;  /* one line: what the option chooses */
} PmsModelOption;

/* The model layer's entry of a family (models/families.c). */
struct PmsFamily {
    const char *name; /* the model file's `arch` value: "x86_core" */
    const char *desc; /* one line, for `pmusim list --families` and messages */
    /* Consistency of the family's own facts, each optional.  The loader
     * (complete FALSE) refuses a model with every check_model message and the first check_event message of each event, so an accepted
     * model never makes a later layer guess; the lint (complete TRUE) lists
     * every message and also the facts that are missing.  Messages carry no
     * FILE:LINE (the caller adds the model's or the event's line). */
    void (*check_model)(const PmsModel *m, gboolean complete, GPtrArray *msgs);
    void (*check_event)(const PmsModel *m, const PmsEvent *e, gboolean complete, GPtrArray *msgs);
    /* The family's per-event facts (PmsEvent.facts), or NULL for none. */
    const PmsEventFacts *event_facts;
    /* The family's own `[options]` keys (NULL-key-terminated), or NULL; the
     * options every family takes (pmi_skid) are added by pms_family_option_nth. */
    const PmsModelOption *options;
    /* A write to a counter's bits above its width: ignored (TRUE: Itanium's
     * PMDs) or reserved (FALSE: a #GP on x86).  The loader derives a counter
     * register's writable and ignored masks from its width with it, so that
     * [pmu] gp_width / fixed_width is the one place a width is set. */
    gboolean counter_upper_ignored;
};

/* The registry: families in registration order. */
PMS_API guint pms_family_count(void);
PMS_API const PmsFamily *pms_family_nth(guint i);
/* NULL when no family has that name. */
PMS_API const PmsFamily *pms_family_by_name(const char *name);
/* "x86_core, x86_uncore, ...": every name, for messages. */
PMS_API const char *pms_family_names(void);
/* Whether m is of the named family: for a family's own code (the Itanium
 * queries check that they were given an Itanium model), never for generic
 * code, which asks its layer's table instead. */
PMS_API gboolean pms_model_is_family(const PmsModel *m, const char *family);

/* The options a model of family f may set: every family's, then f's own;
 * NULL past the last. */
PMS_API const PmsModelOption *pms_family_option_nth(const PmsFamily *f, guint i);
/* f's option named key, or NULL. */
PMS_API const PmsModelOption *pms_family_option(const PmsFamily *f, const char *key);
/* Whether value is one o allows. */
PMS_API gboolean pms_model_option_valid(const PmsModelOption *o, const char *value);
/* The allowed values in words, for messages and listings: "post or pre",
 * "0..1048576", "CODE.UMASK in hex".  Newly allocated. */
PMS_API char *pms_model_option_allowed(const PmsModelOption *o);

/* ---- a layer's table -------------------------------------------------------- */

enum { PMS_FAMILY_MAX = 32 };

typedef struct {
    const char *family; /* a registered family's name */
    gconstpointer ops;  /* the layer's ops for it */
} PmsFamilyEntry;

typedef struct {
    const char *layer; /* "encoder", for messages */
    const PmsFamilyEntry *entries;
    guint n_entries;
    /* filled once, on first use (thread-safe): each entry's family (NULL for
     * a name no family has) and ops, in the entries' order */
    const PmsFamily *fam[PMS_FAMILY_MAX];
    gconstpointer ops[PMS_FAMILY_MAX];
    gsize ready;
} PmsFamilyTable;

#define PMS_FAMILY_TABLE(layer_name, entry_array)                                                                      \
    {                                                                                                                  \
        (layer_name), (entry_array), G_N_ELEMENTS(entry_array), { NULL }, { NULL }, 0                                  \
    }

/* Fill t's families from its entries' names (pms_family_table_get's first
 * call does). */
PMS_API void pms_family_table_fill(PmsFamilyTable *t);

/* The layer's ops for family f; NULL when the layer has no entry for it
 * (the first entry of a family counts).  Inline: the program step asks on
 * every call, and a handful of pointer compares is cheaper than a call into
 * the library. */
static inline gconstpointer pms_family_table_get(PmsFamilyTable *t, const PmsFamily *f)
{
    if (g_once_init_enter(&t->ready)) {
        pms_family_table_fill(t);
        g_once_init_leave(&t->ready, 1);
    }
    for (guint i = 0; f && i < t->n_entries && i < PMS_FAMILY_MAX; i++)
        if (t->fam[i] == f)
            return t->ops[i];
    return NULL;
}
/* The registry's consistency for one layer: TRUE when every entry names a
 * registered family, once, and every registered family has an entry;
 * otherwise one line per problem appended to problems (each layer's test
 * suite runs it on its table). */
PMS_API gboolean pms_family_table_check(const PmsFamilyTable *t, GPtrArray *problems);

G_END_DECLS
