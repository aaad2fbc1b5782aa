/* pmusim — PMU model: the immutable, in-memory form of one models/<pmu>.pmu file.
 *
 * A model holds facts only (registers, fields, modifiers, events, unit masks,
 * constraints).  No encoding rule and no counting rule lives here: the encoder's
 * rule sets and the simulator read these facts by name.
 *
 * Designed for every PMU in the project's scope: x86 core (glm, wsm, nhm ...),
 * x86 uncore boxes with their own global control (nhm_unc, wsm_unc, the Xeon 7500
 * C-Box/U-Box), and Itanium 2's PMC/PMD/IBR/DBR register files.
 */
#pragma once

#include <glib.h>
#include "pms_api.h"
#include "umask_set.h"

G_BEGIN_DECLS

#define PMS_MODEL_ERROR (pms_model_error_quark())
PMS_API GQuark pms_model_error_quark(void);

typedef enum {
    PMS_MODEL_ERROR_PARSE,    /* syntax error in the key file (file:line) */
    PMS_MODEL_ERROR_KEY,      /* missing or malformed key (file, group and key named) */
    PMS_MODEL_ERROR_CONFLICT, /* duplicate name, overlapping fields, ... */
    PMS_MODEL_ERROR_NOTFOUND, /* no such built-in model */
} PmsModelError;

/* The family a model belongs to (family.h): which encoder rules, program
 * step, simulator device and CLI hooks apply.  Each layer looks its own
 * entry up in its family table; nothing tests which family a model is. */
typedef struct PmsFamily PmsFamily;

/* A named bit field of a register layout.  Declared once in the model file and
 * read by name everywhere (no bitfield unions). */
typedef struct {
    char *name;  /* "usr", "cmask", ... (lower case) */
    guint shift; /* 0..63 */
    guint width; /* 1..64, shift + width <= 64 */
} PmsField;

/* A named set of fields that several registers share ("evtsel", "fixed_ctrl"). */
typedef struct {
    char *name;
    PmsField *fields;
    guint n_fields;
    guint source_line; /* line of its group in the model file */
} PmsLayout;

/* What a register is for.  The simulator dispatches on kind + index, found by
 * address, so adding a PMU never means adding a switch on raw numbers. */
typedef enum {
    PMS_REG_EVTSEL,     /* IA32_PERFEVTSELx / uncore PERFEVTSELx / C-Box EVT_SEL */
    PMS_REG_PMC,        /* IA32_PMCx (legacy 32-bit sign-extending writes) */
    PMS_REG_A_PMC,      /* IA32_A_PMCx full-width alias (GLM) */
    PMS_REG_FIXED_CTR,  /* IA32_FIXED_CTRx */
    PMS_REG_FIXED_CTRL, /* IA32_FIXED_CTR_CTRL */
    PMS_REG_GLOBAL_CTRL,
    PMS_REG_GLOBAL_STATUS,       /* read-only */
    PMS_REG_GLOBAL_OVF_CTRL,     /* v3: write 1 to clear; reads 0 */
    PMS_REG_GLOBAL_STATUS_RESET, /* v4 (same address as OVF_CTRL) */
    PMS_REG_GLOBAL_STATUS_SET,   /* v4 */
    PMS_REG_GLOBAL_INUSE,        /* v4, read-only, derived */
    PMS_REG_OFFCORE_RSP,         /* MSR_OFFCORE_RSP_0/1 (index 0/1) */
    PMS_REG_PEBS_ENABLE,
    PMS_REG_PEBS_LD_LAT,
    PMS_REG_LBR_SELECT,
    PMS_REG_DEBUGCTL,
    PMS_REG_PERF_CAPABILITIES,
    PMS_REG_LBR_TOS,       /* MSR_LASTBRANCH_TOS */
    PMS_REG_LBR_FROM,      /* MSR_LASTBRANCH_n_FROM_IP (index n) */
    PMS_REG_LBR_TO,        /* MSR_LASTBRANCH_n_TO_IP (index n) */
    PMS_REG_LBR_INFO,      /* MSR_LBR_INFO_n (index n): mispredict, TSX, cycles (skl, icl) */
    PMS_REG_PEBS_FRONTEND, /* MSR_PEBS_FRONTEND: FRONTEND_RETIRED's sub-event (skl, icl) */
    PMS_REG_PERF_METRICS,  /* IA32_PERF_METRICS: top-down fractions of fixed counter 3 (icl) */
    /* coming: uncore boxes and Itanium */
    PMS_REG_BOX_CTRL,
    PMS_REG_BOX_STATUS,
    PMS_REG_BOX_OVF_CTRL,
    PMS_REG_MATCH, /* address/opcode match registers */
    PMS_REG_IA64_PMC,
    PMS_REG_IA64_PMD,
    PMS_REG_IA64_IBR,
    PMS_REG_IA64_DBR,
    PMS_REG_OTHER,
} PmsRegKind;

/* The address space a register number belongs to: registers of different
 * spaces may share numbers (Itanium's PMC4 and PMD4). */
typedef enum {
    PMS_SPACE_MSR, /* x86 MSRs (default) */
    PMS_SPACE_PMC, /* Itanium performance monitor configuration registers */
    PMS_SPACE_PMD, /* Itanium performance monitor data registers */
    PMS_SPACE_IBR, /* Itanium instruction breakpoint registers */
    PMS_SPACE_DBR, /* Itanium data breakpoint registers */
} PmsRegSpace;

/* A register is identified by (space, address), and by what it is: its kind
 * and index within the unit instance it belongs to (C-Box 3's EVT_SEL 2 is
 * unit "cbox", instance 3, kind evtsel, index 2). */
typedef struct PmsRegister {
    char *name;      /* "IA32_PERFEVTSEL0" */
    guint32 address; /* MSR (x86) or register number (ia64) within its space */
    PmsRegKind kind;
    guint index; /* counter / instance index within its kind */
    PmsRegSpace space;
    char *unit;              /* the box it belongs to ("cbox", "ubox"), NULL for the PMU's own */
    guint instance;          /* which box of that unit */
    guint width;             /* implemented bits for counters (48); 64 otherwise */
    guint64 writable;        /* bits software may set; setting any other bit is a #GP */
    guint64 ignored;         /* bits a write may set without effect (they read 0); not a #GP */
    guint64 reset;           /* value after RESET */
    gboolean readonly;       /* any write is a #GP */
    const PmsLayout *layout; /* field layout, or NULL */
    guint source_line;
    /* Another name of an earlier register (`alias = NAME`: AMD's legacy
     * PerfEvtSel0-3/PerfCtr0-3 are PERF_CTL0-3/PERF_CTR0-3): kind other, the
     * target's width, writable, ignored, reset, readonly and layout; a
     * device reads and writes the target through it.  NULL otherwise. */
    const struct PmsRegister *alias;
} PmsRegister;

typedef enum { PMS_MOD_BOOL, PMS_MOD_INT } PmsModType;

/* A modifier a user may write after the event (":u", ":c=3", ":ldlat=10"). */
typedef struct {
    char *name; /* "u", "k", "i", "e", "c", "t", "ldlat" (lower case) */
    PmsModType type;
    guint64 min, max; /* inclusive range of accepted values (bool: 0..1) */
    char *reg_kind;   /* register the value lands in: "evtsel" or "pebs_ld_lat" ... */
    char *field;      /* field name in that register's layout */
    char *desc;       /* one line, our own words */
    guint source_line;
} PmsModifier;

/* Umask flags. */
enum {
    PMS_UMASK_DEFAULT = 1u << 0,  /* used when the user names no umask of its group */
    PMS_UMASK_EXCL = 1u << 1,     /* cannot be combined with another umask of its group */
    PMS_UMASK_OVERRIDE = 1u << 2, /* glm ANY_RESPONSE: overrides its sibling groups */
    PMS_UMASK_DUP = 1u << 3,      /* same encoding as an earlier name, on purpose (lint) */
    PMS_UMASK_LDLAT = 1u << 4,    /* selecting it requires the ldlat modifier (wsm/nhm
                                  * MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD) */
};

typedef struct {
    char *name;    /* upper case */
    guint64 value; /* umask bits, or the extra-register bits for offcore events */
    guint flags;   /* PMS_UMASK_* */
    guint group;   /* index into PmsEvent.groups */
    /* Modifier values this umask forces (libpfm4's hard-wired c/i/e/t in umask
     * tables): -1 when not forced. */
    gint cmask, inv, edge, any;
    char *desc;
    guint source_line; /* line of its umask.NAME key */
    /* libpfm4 alias: "ANY:c=1:i=1" means this umask is that umask with those
     * modifiers, and libpfm4's fstr prints the expansion.  NULL otherwise. */
    char *equiv;
    gint code;        /* event select code this umask uses instead of the
                          * event's (Intel's code where libpfm4 groups several
                          * codes under one name), -1 for the event's */
    guint64 counters; /* generic counters it may use (the event's unless overridden) */
    guint32 fixed;    /* fixed counters it may use (the event's unless overridden) */
} PmsUmask;

typedef struct {
    char *name;         /* "request", "response", "supplier", "snoop", "" */
    gboolean required;  /* at least one umask of this group must end up set */
    gboolean exclusive; /* at most one umask of this group */
} PmsUmaskGroup;

/* How the simulator matches evtsel umask bits against stimulus signals. */
typedef enum {
    PMS_MATCH_BITS,  /* each umask bit selects a sub-event; selected ones are summed */
    PMS_MATCH_EXACT, /* the umask value as a whole names one signal */
} PmsUmaskMatch;

/* Event flags. */
enum {
    PMS_EVENT_OFFCORE = 1u << 0, /* umask values go to an OFFCORE_RSP register */
    PMS_EVENT_LDLAT = 1u << 1,   /* needs/accepts the ldlat modifier */
    PMS_EVENT_PEBS = 1u << 2,
    PMS_EVENT_FIXED_ONLY = 1u << 3,
    PMS_EVENT_DUP = 1u << 4,        /* same encoding as an earlier event, on purpose (lint) */
    PMS_EVENT_GROUP_EXCL = 1u << 5, /* unit masks of one group only (libpfm4's GRP_EXCL,
                                     * nhm_unc UNC_QMC_WRITES FULL_* vs PARTIAL_*) */
    PMS_EVENT_METRICS = 1u << 6,    /* unit masks read IA32_PERF_METRICS fields (icl TOPDOWN_M) */
};

typedef struct {
    char *name;         /* upper case */
    guint32 code;       /* event select code */
    guint32 base_umask; /* umask bits always set in evtsel (offcore: 0x01 / 0x02) */
    guint64 counters;   /* bit i: may use generic counter i */
    guint32 fixed;      /* bit i: may use fixed counter i */
    guint flags;        /* PMS_EVENT_* */
    char *extra_reg;    /* name of the extra register it programs, or NULL */
    PmsUmaskMatch match;
    PmsUmask *umasks;
    guint n_umasks;
    PmsUmaskGroup *groups;
    guint n_groups;
    char *desc;
    guint source_line; /* line of its group in the model file */
    char *equiv;       /* libpfm4 alias: the event name fstr prints, or NULL */
    guint32 modifiers; /* bit j: the event takes model modifier j (`modifiers` key;
                            * every modifier of the model when the key is absent) */
    /* The family's own per-event facts (family.h PmsEventFacts: the keys
     * its descriptor table declares), read by the family's code only
     * (model_ia64.h pms_ia64_facts); NULL for a family without any. */
    gconstpointer facts;
} PmsEvent;

/* perf's syntax for the model's events ([perf] in docs/model-format.md):
 * its PMU name, the format terms and which event-select field or extra
 * register each one sets, how they print, the raw config.  The harness
 * renders `encode --format=perf` from it alone. */
typedef enum {
    PMS_PERF_TERM,  /* term.NAME = FIELD PRINT [always]: an event-select field */
    PMS_PERF_EXTRA, /* extra.REGISTER = NAME PRINT: the extra register's value (config1) */
    PMS_PERF_PRIV,  /* priv.SUFFIX = FIELD: the :u / :k modifier its field stands for */
    PMS_PERF_LOST,  /* lost.FIELD = TEXT: why a set field has no perf form */
} PmsPerfKind;
typedef enum {
    PMS_PERF_HEX,  /* 0x1f */
    PMS_PERF_HEX2, /* 0x0f: at least two digits */
    PMS_PERF_DEC,  /* 15 */
    PMS_PERF_FLAG, /* the name alone */
} PmsPerfPrint;
typedef struct {
    PmsPerfKind kind;
    const char *name;   /* perf's term or modifier; LOST: NULL */
    const char *target; /* the event-select field; EXTRA: the register's name */
    PmsPerfPrint print;
    gboolean always;  /* TERM: printed when 0 too (else only when non-zero); EXTRA always is */
    const char *text; /* LOST: the sentence */
} PmsPerfTerm;
typedef struct PmsPerf {
    const char *pmu;     /* "cpu", "uncore_cbox_%u" (%u: the instance); NULL: no perf form */
    const char *none;    /* no perf form: why (a sentence without its period) */
    const char *tool;    /* no perf form: what programs the registers instead ("perfmon"), or NULL */
    const char *no_priv; /* the sentence when no priv field is set (perf counts at all levels then) */
    gboolean raw_r;      /* the raw form is rNNNN (the cpu PMU's), else PMU/config=0xNNNN/ */
    guint64 raw_mask;    /* the event-select bits perf takes from a raw config */
    guint64 owned;       /* the bits perf sets or clears itself (INT, EN) */
    const PmsPerfTerm *terms;
    guint n_terms;     /* in file order */
    guint source_line; /* of the [perf] group */
} PmsPerf;

/* A model's facts, read-only once loaded.  Only the library makes a model
 * (pms_model_load_file/_data, pms_model_view_new, a model set): it allocates
 * more than this struct for its own use, so a caller never declares, copies
 * or frees one by other means than pms_model_free. */
typedef struct PmsModel {
    char *name; /* "glm" */
    char *desc;
    char *source;            /* file path or "builtin:glm" */
    const PmsFamily *family; /* never NULL in a loaded model (the file's `arch`) */
    guint version;           /* architectural perfmon version (x86) */
    gboolean smt;            /* hardware threads per core > 1 */
    guint n_gp, gp_width, n_fixed, fixed_width;
    /* Number of the first generic counter: bit i of an event's `counters` is
     * counter i, and counters counter_base .. counter_base + n_gp - 1 exist
     * (0 on x86; 4 on Itanium, whose counters are PMC4/PMD4 .. PMC15/PMD15). */
    guint counter_base;
    /* Rule switches the encoder reads (facts about what the documents demand): */
    gboolean edge_needs_cmask; /* e requires c >= 1 */
    char *offcore_style;       /* "nhm", "glm" or NULL */
    /* The unit instance this PMU name stands for when the model's registers
     * cover several boxes (nhmex_cbox3: unit "cbox", instance 3); NULL, 0
     * otherwise.  pms_model_reg_by_kind finds this instance's registers. */
    char *unit;
    guint instance;
    /* A file that provides one PMU per instance of a unit ([pmu] instances,
     * name_pattern, desc_pattern; docs/model-format.md): the instances in
     * declaration order (unit is theirs, instance the first), each a view
     * (pms_model_view_new) named by the pattern.  0, NULL for one PMU. */
    guint *instances;
    guint n_instances;
    char *name_pattern, *desc_pattern;
    PmsLayout *layouts;
    guint n_layouts;
    PmsRegister *regs;
    guint n_regs;
    PmsModifier *mods;
    guint n_mods; /* in fstr order */
    PmsEvent *events;
    guint n_events;
    struct PmsPerf *perf; /* "[perf]": pms_model_perf */
    guint source_line;    /* line of the [pmu] group */
    /* The name indexes and the [options] table are the library's own:
     * pms_model_event(), pms_model_reg_by_name(), pms_model_option() ... */
} PmsModel;

/* Read a whole text file of at most `max` bytes (a model, a stimulus):
 * FALSE with an error naming the file and the limit when it is larger, so a
 * device such as /dev/zero is not read without end.  A path "-" reads
 * standard input. */
#define PMS_TEXT_FILE_MAX (64u * 1024 * 1024)
PMS_API gboolean pms_read_text_file(const char *path, gsize max, char **data, gsize *len, GError **error);
/* "" or, when text starts with a UTF-8 byte-order mark, a message naming it. */
PMS_API const char *pms_text_bom_message(const char *text, gsize len);

/* Load one model from a file, or from text with a name for messages. */
PMS_API PmsModel *pms_model_load_file(const char *path, GError **error);
PMS_API PmsModel *pms_model_load_data(const char *data, gsize len, const char *source, GError **error);
/* Frees a model; a model its views share lives on until the last of them
 * is freed too (any order). */
PMS_API void pms_model_free(PmsModel *m);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PmsModel, pms_model_free)

/* A model of several PMUs (m->n_instances > 0, the Xeon 7500 uncore's eight
 * C-Boxes) is one set of facts; each PMU is a view of it: a PmsModel of its
 * own name, description and instance sharing every other member with m
 * (arrays, indexes, options: read-only) and a reference to m.  The view has
 * its own encoder and program-step caches (they hold the instance's
 * registers).  NULL when i >= m->n_instances.  Free with pms_model_free. */
PMS_API PmsModel *pms_model_view_new(PmsModel *m, guint i);
/* The name of view i (m->name_pattern for its instance), newly allocated;
 * NULL when i >= m->n_instances. */
PMS_API char *pms_model_view_name(const PmsModel *m, guint i);
/* The view of that name (case-insensitive), or NULL. */
PMS_API PmsModel *pms_model_view_by_name(PmsModel *m, const char *name);

/* Lookups: names are case-insensitive; NULL when absent. */
PMS_API const PmsEvent *pms_model_event(const PmsModel *m, const char *name);
PMS_API const PmsUmask *pms_event_umask(const PmsEvent *ev, const char *name);
/* The event's first unit mask flagged PMS_UMASK_DEFAULT; NULL when none is. */
PMS_API const PmsUmask *pms_event_default_umask(const PmsEvent *ev);
PMS_API const PmsModifier *pms_model_modifier(const PmsModel *m, const char *name);
PMS_API const PmsRegister *pms_model_reg_by_addr(const PmsModel *m, guint32 address);
PMS_API const PmsRegister *pms_model_reg_by_name(const PmsModel *m, const char *name);
/* The register of this kind and index in the model's own unit instance. */
PMS_API const PmsRegister *pms_model_reg_by_kind(const PmsModel *m, PmsRegKind kind, guint index);
/* ... in a given unit instance (unit NULL: the PMU's own registers). */
PMS_API const PmsRegister *pms_model_reg_in_unit(const PmsModel *m, const char *unit, guint instance, PmsRegKind kind,
                                                 guint index);
/* By number in an address space (pms_model_reg_by_addr is the MSR space's). */
PMS_API const PmsRegister *pms_model_reg_at(const PmsModel *m, PmsRegSpace space, guint32 address);
PMS_API const PmsLayout *pms_model_layout(const PmsModel *m, const char *name);
PMS_API const PmsField *pms_layout_field(const PmsLayout *l, const char *name);
/* Field `name` of register r's layout; NULL when r is NULL, has no layout
 * or no such field. */
PMS_API const PmsField *pms_register_field(const PmsRegister *r, const char *name);
PMS_API const char *pms_model_option(const PmsModel *m, const char *key, const char *fallback);
/* The candidate closest to word (ASCII case-insensitive Levenshtein
 * distance, ties to the first), or NULL when none is close enough to be a
 * likely typo (1 edit for words up to 3 characters, 2 up to 6, else 3).
 * candidates: n strings (NULL ones skipped).  For did-you-mean messages. */
PMS_API const char *pms_suggest(const char *word, const char *const *candidates, guint n);
/* The [options] keys, sorted; NULL-terminated, free with g_strfreev. */
PMS_API char **pms_model_option_keys(const PmsModel *m);
/* Set (or add) a what-if option of a model before its first use by the
 * encoder or a simulator (their caches read the options once): a variant
 * built in code rather than in a model file. */
PMS_API void pms_model_set_option(PmsModel *m, const char *key, const char *value);
/* The model's perf syntax ([perf]); never NULL: a model without the
 * section has no perf form (pmu NULL). */
PMS_API const PmsPerf *pms_model_perf(const PmsModel *m);

/* Register kinds as written in model files ("evtsel", "offcore_rsp"); NULL /
 * FALSE for an unknown kind. */
PMS_API const char *pms_reg_kind_name(PmsRegKind kind);
PMS_API gboolean pms_reg_kind_from_name(const char *name, PmsRegKind *kind);
/* "msr", "pmc", "pmd", "ibr", "dbr" */
PMS_API const char *pms_reg_space_name(PmsRegSpace space);
PMS_API gboolean pms_reg_space_from_name(const char *name, PmsRegSpace *space);
/* The generic counters as a mask over counter numbers (bits counter_base ..). */
PMS_API guint64 pms_model_counters_mask(const PmsModel *m);
/* The width [pmu] gives a counter register of this kind and index: gp_width
 * for pmc, a_pmc and Itanium's counting PMDs (counter_base ..), fixed_width
 * for fixed_ctr; 0 for any other register, or when the header gives none.
 * The loader derives such a register's width and writable bits from it. */
PMS_API guint pms_model_counter_width(const PmsModel *m, PmsRegKind kind, guint index);
/* The general counters PEBS can sample (bit i: IA32_PMCi): those
 * IA32_PEBS_ENABLE's pebs_en field has a bit for; 0 without PEBS. */
PMS_API guint64 pms_model_pebs_counters(const PmsModel *m);
/* The PEBS record format the model's IA32_PERF_CAPABILITIES gives at
 * reset (field pebs_rec_fmt); 0 without that register or field. */
PMS_API guint pms_model_pebs_format(const PmsModel *m);

/* Field access by name. */
PMS_API guint64 pms_field_get(const PmsField *f, guint64 reg);
PMS_API guint64 pms_field_set(const PmsField *f, guint64 reg, guint64 value);

/* The set of models a command works with: the built-in ones (embedded in the library) with
 * any --model FILE replacing the built-in of the same name (or added).
 * Once made (models added), a set may be shared by threads: reading its
 * models, encoding, and simulating with them (each thread its own PmsSim)
 * are thread-safe (a built-in model is read on first use, and the encoder's
 * and the program step's caches are made, once: the only parts of a model
 * written after it is loaded).  Adding models to a set in use is not. */
typedef struct PmsModelSet PmsModelSet;
PMS_API PmsModelSet *pms_model_set_new_builtin(GError **error);
/* An empty set, and adding a model already loaded (the set takes ownership;
 * a model of the same name is replaced as by pms_model_set_add_file): for a
 * caller that holds the model's text, not a file (the fuzz targets). */
PMS_API PmsModelSet *pms_model_set_new_empty(void);
PMS_API void pms_model_set_add_model(PmsModelSet *set, PmsModel *m);
PMS_API gboolean pms_model_set_add_file(PmsModelSet *set, const char *path, GError **error);
PMS_API const PmsModel *pms_model_set_get(const PmsModelSet *set, const char *name);
/* In a stable order (built-in order, then added). */
PMS_API guint pms_model_set_count(const PmsModelSet *set);
PMS_API const PmsModel *pms_model_set_nth(const PmsModelSet *set, guint i);
/* The name of the i-th model, without reading a built-in model's image. */
PMS_API const char *pms_model_set_nth_name(const PmsModelSet *set, guint i);
/* The encoder's plain-result cache for this set's models (on in a new set):
 * the results of "PMU::EVENT" and "PMU::EVENT:UMASK" kept per event and unit
 * mask from their second encoding on, and modifiers applied to them
 * (encoder/plain_cache.c).  Off, every string of the set is encoded by its
 * rule set alone; the answers are the same either way, so turning it off is
 * a check of the cache (pmusim --rules-only, the test suite's rulesonly
 * setup) and costs only speed.  Set it before the set is shared by threads;
 * results kept while it was on are not used while it is off. */
PMS_API void pms_model_set_set_encoder_cache(PmsModelSet *set, gboolean on);
PMS_API gboolean pms_model_set_get_encoder_cache(const PmsModelSet *set);
PMS_API void pms_model_set_free(PmsModelSet *set);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PmsModelSet, pms_model_set_free)

/* Lint: append one line per problem to `problems` (file:line: message); TRUE if clean. */
PMS_API gboolean pms_model_lint(const PmsModel *m, GPtrArray *problems);

G_END_DECLS

/* The family registry (PmsFamily, the layers' tables) comes with every model. */
#include "family.h"
