/* pmusim models — helpers shared by the files of models/ (not installed). */
#pragma once
#include <glib.h>
#include "model.h"
#include "family.h"
#include "model_cache.h"

/* Every model models/ allocates (the loader, the image reader, a view): the
 * public PmsModel first, with the caches of the layers above
 * (model_cache.h), then what only models/ reads.  pms_model_priv() goes
 * from the one to the other. */
typedef struct {
    PmsModelCached head;
    /* Set when the model was rebuilt from a compiled image (the built-in
     * models, model_image.h): its strings point into these bytes and the
     * model and its arrays are one allocation, so pms_model_free frees the
     * indexes and that block only.  NULL for models loaded from text. */
    GBytes *image;
    /* A view's model, whose facts it shares and holds a reference to (NULL
     * for a model of its own), and the references a model's views hold on
     * it (pms_model_free frees it with the last). */
    PmsModel *base;
    gint view_refs;
    /* Lookups by name or address (never scan tables per encoding) and the
     * [options] table; a view uses its model's (pms_model_ix). */
    struct PmsModelIndex {
        GHashTable *event_index;    /* upper-case name -> index + 1 */
        GHashTable *reg_index;      /* MSR-space address -> index + 1 */
        GHashTable *reg_name_index; /* upper-case name -> index + 1 */
        GHashTable *mod_index;      /* lower-case name -> index + 1 */
        GHashTable *layout_index;   /* lower-case name -> index + 1 */
        GHashTable *options;        /* key -> value string */
    } ix;
    /* The events' facts (PmsEvent.facts, family.h PmsEventFacts): one block
     * of n_events structs of the family's size, NULL when the family has
     * none.  A view shares its model's. */
    gpointer facts;
} PmsModelPriv;

static inline PmsModelPriv *pms_model_priv(const PmsModel *m)
{
    return (PmsModelPriv *)(gpointer)m;
}

/* The model's indexes: a view's are its model's. */
static inline struct PmsModelIndex *pms_model_ix(const PmsModel *m)
{
    PmsModelPriv *p = pms_model_priv(m);
    return p->base ? &pms_model_priv(p->base)->ix : &p->ix;
}

/* Case-insensitive (ASCII) string hashing for the name indexes, so lookups
 * never allocate an upper-cased copy. */
guint pms_ci_hash(gconstpointer key);
gboolean pms_ci_equal(gconstpointer a, gconstpointer b);
GHashTable *pms_ci_index_new(void);

/* A fact of an event's facts struct (family.h PmsEventFact: 32-bit members). */
static inline guint32 pms_fact_get(gconstpointer facts, const PmsEventFact *f)
{
    return G_STRUCT_MEMBER(guint32, facts, f->offset);
}
static inline void pms_fact_set(gpointer facts, const PmsEventFact *f, guint32 v)
{
    G_STRUCT_MEMBER(guint32, facts, f->offset) = v;
}
/* One facts struct for each of the first n events of m (PmsModelPriv.facts),
 * at its defaults, when m's family has facts. */
void pms_model_facts_alloc(PmsModel *m, guint n);

/* Append one formatted message to msgs (the family checks' lists). */
void pms_msg_add(GPtrArray *msgs, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* The LBR ring's consistency (model_lbr.c): a message (newly allocated)
 * about *where (a FROM_IP register past a gap, or, *on_field, the TOS
 * register whose field `tos` cannot index every entry), or NULL. */
char *pms_model_lbr_problem(const PmsModel *m, const PmsRegister **where, gboolean *on_field);

/* "0x1f" or "31" -> value; FALSE on anything else (sign, junk, overflow). */
gboolean pms_parse_u64(const char *text, guint64 *out);

/* A family's own checks (family.h, models/families.c), shared by the loader
 * and the lint.  Itanium consistency (model_ia64.c):
 * The loader (complete = FALSE) refuses facts that contradict each other or
 * the model, so an accepted model never makes the encoder or the simulator
 * guess; the lint (complete = TRUE) also reports facts that are missing (an
 * event without max_inc or type, a counter without its registers), which a
 * placeholder model may lack (encoder/tests/encu.pmu).  Each appends
 * messages without FILE:LINE. */
void pms_ia64_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs);
void pms_ia64_event_check(const PmsModel *m, const PmsEvent *e, gboolean complete, GPtrArray *msgs);

/* The ia64 family's per-event facts (model_ia64.c, model_ia64.h). */
extern const PmsEventFacts pms_ia64_event_facts;

/* The x86 families' checks (model_x86.c): counters numbered from 0, one
 * event-select register per general counter, event counter masks inside
 * the model's counters. */
void pms_x86_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs);
void pms_x86_event_check(const PmsModel *m, const PmsEvent *e, gboolean complete, GPtrArray *msgs);
/* The families' model checks (models/families.c): the x86 checks above and,
 * complete, the register fields the family's device and program step read
 * by name (field_need.c). */
void pms_x86_core_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs);
void pms_x86_uncore_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs);
void pms_nhmex_model_check(const PmsModel *m, gboolean complete, GPtrArray *msgs);
/* field_need.c: one message per field the simulator would refuse the model
 * for (complete checks only: the loader keeps accepting such a model, and
 * pms_sim_new refuses it naming register and field). */
void pms_x86_core_fields_check(const PmsModel *m, GPtrArray *msgs);
void pms_x86_uncore_fields_check(const PmsModel *m, GPtrArray *msgs);
void pms_nhmex_fields_check(const PmsModel *m, GPtrArray *msgs);
void pms_ia64_fields_check(const PmsModel *m, GPtrArray *msgs);

/* A name or description pattern of a model of several PMUs ([pmu]
 * name_pattern, desc_pattern) for one instance: every "%u" is the instance
 * number, "%%" a '%'.  NULL when the pattern has any other '%'. */
char *pms_model_pattern_format(const char *pattern, guint instance);
/* Frees the caches of m that were made (model_cache.h). */
void pms_model_caches_free(PmsModel *m);
/* pms_model_free of a view (model_view.c). */
void pms_model_view_free(PmsModel *v);

/* [perf] (model_perf.c, model.h PmsPerf): the section's keys are added one
 * at a time in file order (the text is kept: the image stores it), then
 * resolved against the model's event-select layout and registers.  Each
 * problem is a message without FILE:LINE; *key names the key it is about. */
PmsPerf *pms_perf_new(void);
gboolean pms_perf_add(PmsPerf *p, const char *key, const char *value, char **problem);
gboolean pms_perf_resolve(PmsPerf *p, const PmsModel *m, const char **key, char **problem);
guint pms_perf_n_keys(const PmsPerf *p);
const char *pms_perf_key(const PmsPerf *p, guint i, const char **value);
void pms_perf_free(PmsPerf *p);
