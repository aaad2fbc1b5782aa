/* pmusim encoder — types shared by the stages (not installed).
 *
 *   tokenize.c  string -> PmsTokens (syntax only, byte offsets kept)
 *   prepared.c  per-model lookups resolved once (fields, modifier roles,
 *               name indexes of nameidx.c, per-event unit-mask bit sets)
 *   resolve.c   tokens -> PmsResolved (model, event, umask set, modifier values)
 *   families.c  the family registry's encoder layer: each family's rule set
 *               (rules_x86_core.c, rules_x86_uncore.c, rules_nhmex_cbox.c,
 *               rules_ia64.c) and flags
 *   fstr.c      canonical string
 *   encode.c    pms_encode(): the pipeline, one allocation per result
 *   plain_cache.c  the plain-result cache: rule results kept per event and
 *               unit mask, modifiers applied by the rule set's PmsModsFn
 *   decode.c    register values -> canonical string
 *   errors.c    error quark, class names, messages with a column
 */
#pragma once

#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include "encoder.h"
#include "nameidx.h"
#include "family.h"

/* libpfm4 4.13 refuses more than 64 unit masks and modifiers in one string
 * (PFM_ERR_TOOMANY; with 65 unit masks it overruns its array instead). */
#define PMS_ENC_MAX_ATTRS 64
/* Unit masks per event the encoder can track (a PmsUmaskSet each). */
#define PMS_ENC_MAX_UMASKS PMS_UMASK_SET_MAX
/* Modifiers per model the encoder can track. */
#define PMS_ENC_MAX_MODS 16
/* Generic counters whose event-select register is cached. */
#define PMS_ENC_MAX_COUNTERS 16
/* Longest name worth a hash lookup; longer tokens cannot name anything. */
#define PMS_ENC_NAME_MAX 128
/* Bytes of the input the tokenizer keeps an upper-cased copy of (PmsTokens.up);
 * names further out are looked up through a slower folding copy. */
#define PMS_ENC_FOLD_MAX 256

/* Lowest / highest set bit of a non-zero 64-bit set (g_bit_nth_lsf walks
 * bit by bit; these run per encoding). */
static inline guint pms_lsb(guint64 v)
{
    return (guint)__builtin_ctzll(v);
}

static inline guint pms_msb(guint64 v)
{
    return 63u - (guint)__builtin_clzll(v);
}

/* Zero PMS_ENC_MAX_MODS values: two 64-byte clears, which compilers do in
 * vector stores (one 128-byte memset becomes a slow `rep stos` on x86). */
static inline void pms_zero_mod_vals(guint64 *v)
{
    G_STATIC_ASSERT(PMS_ENC_MAX_MODS == 16);
    memset(v, 0, 8 * sizeof *v);
    memset(v + 8, 0, 8 * sizeof *v);
}

/* pms_field_set/get without the call: these run per encoding. */
static inline guint64 pms_fset(const PmsField *f, guint64 reg, guint64 v)
{
    guint64 m = f->width >= 64 ? G_MAXUINT64 : ((G_GUINT64_CONSTANT(1) << f->width) - 1);
    return (reg & ~(m << f->shift)) | ((v & m) << f->shift);
}

/* ---- tokenize.c ---- */

typedef struct {
    guint off; /* byte offset of the token in the input */
    guint len; /* bytes, '=' and value included */
    gint eq;   /* offset of the first '=' inside the token, -1 when none */
} PmsTok;

typedef struct {
    const char *str;
    gsize len;
    /* str upper-cased (first PMS_ENC_FOLD_MAX bytes), zero after its end:
     * name lookups hash and compare it a word at a time */
    char up[PMS_ENC_FOLD_MAX + 16];
    gboolean has_pmu;
    guint pmu_len;        /* PMU name is str[0 .. pmu_len) */
    guint ev_off, ev_len; /* event name */
    PmsTok attrs[PMS_ENC_MAX_ATTRS + 1];
    guint n_attrs;     /* at most PMS_ENC_MAX_ATTRS + 1 are kept */
    gboolean too_many; /* more attributes than PMS_ENC_MAX_ATTRS */
} PmsTokens;

gboolean pms_tokenize(const char *str, PmsTokens *t, GError **error);
/* The same, not exported (no PLT call on the encoder's hot path). */
G_GNUC_INTERNAL gboolean pms_tokenize_internal(const char *str, PmsTokens *t, GError **error);

/* Look a token up in a name index: from the folded copy when it lies there. */
static inline gint pms_tok_find(const PmsNameIdx *ix, const PmsTokens *t, guint off, gsize len)
{
    if (off + len <= PMS_ENC_FOLD_MAX)
        return pms_nameidx_find(ix, t->up + off, len);
    return pms_nameidx_find_raw(ix, t->str + off, len);
}

/* ---- prepared.c ---- */

typedef struct PmsEncFamily PmsEncFamily; /* families.c */

/* What a modifier does, found from its name once per model. */
typedef enum {
    PMS_ROLE_OTHER,
    PMS_ROLE_K,
    PMS_ROLE_U,
    PMS_ROLE_E,
    PMS_ROLE_I,
    PMS_ROLE_C,
    PMS_ROLE_T,
    PMS_ROLE_LDLAT,
} PmsModRole;

/* The documented combination rules on the final modifier values, in one
 * place for every encoding path: e counts edges of the threshold output, so
 * it needs c >= 1 where the model says so (libpfm_intel_wsm/glm(3)); t sums
 * both hardware threads, so it needs SMT.  Returns the role of the modifier
 * that breaks a rule (PMS_ROLE_E first), or PMS_ROLE_OTHER when none does. */
static inline PmsModRole pms_x86_combination_fault(const PmsModel *m, gboolean e_on, gboolean c_on, gboolean t_on)
{
    if (m->edge_needs_cmask && e_on && !c_on)
        return PMS_ROLE_E;
    if (!m->smt && t_on)
        return PMS_ROLE_T;
    return PMS_ROLE_OTHER;
}

typedef struct {
    const PmsModifier *mod;
    PmsModRole role;
    const PmsField *field; /* in its register's layout; NULL if the model lacks it */
    gboolean in_evtsel;    /* lands in the event-select register */
} PmsPrepMod;

/* Unit-mask groups per event the encoder can track. */
#define PMS_ENC_MAX_GROUPS 8

/* How the glm offcore rules see a group (by its name in the model). */
typedef enum {
    PMS_GRP_PLAIN,
    PMS_GRP_REQUEST,
    PMS_GRP_RESPONSE,
    PMS_GRP_SUPPLIER,
    PMS_GRP_SNOOP,
    PMS_GRP_AVG,
} PmsGroupKind;

/* Per-event facts as bit sets over the event's unit masks.  The fields every
 * encoding reads come first, so that they share a few cache lines: a batch
 * touches many events, and their facts do not all stay in the L1 cache. */
typedef struct {
    gboolean unsupported; /* more groups or umasks than tracked */
    guint n_groups;
    guint32 required_groups; /* bit g: group g is required and has unit masks */
    guint32 allowed_mods;    /* bit j: the event takes modifier j (fstr prints it) */
    PmsUmaskSet default_mask, override_mask, ldlat_mask;
    PmsUmaskSet grouped_default; /* defaults of groups 0 .. n_groups-1 */
    PmsUmaskSet forced_mask;     /* umasks that hard-wire a modifier */
    PmsUmaskSet *equiv;          /* per umask: the umasks its libpfm4 alias names, empty if none */
    PmsNameIdx umask_idx;        /* unit-mask names */
    /* fstr pieces, each followed by PMS_FSTR_SLACK readable bytes:
     * "glm::INST_RETIRED" and ":ANY_P" per unit mask */
    char *fstr_head;
    guint head_len;
    guint mods_tlen; /* length of fstr_mods */
    /* ":k=1:u=1:e=0:i=0:c=0", the allowed modifiers with their values when
     * none is named or forced (k and u 1, others 0); it lies in the block of
     * fstr_head, right after it.  The digit of modifier j is at mod_digit[j]
     * (fstr.c patches them for other one-digit values) */
    char *fstr_mods;
    char *fstr_umasks;        /* every ":UMASK" piece */
    guint32 *umask_piece;     /* offset of unit mask i's piece in fstr_umasks */
    guint16 *umask_len;       /* its length, ':' included */
    const PmsRegister *extra; /* ev->extra_reg resolved */
    /* unit-mask values are the extra register's value, not the umask
     * field's: offcore events and FRONTEND_RETIRED (MSR_PEBS_FRONTEND) */
    gboolean umask_extra;
    /* bit j: modifier j (allowed here) is a field of the extra register
     * (fe_thres: MSR_PEBS_FRONTEND's idq_bubble_length) */
    guint32 extra_mods;
    /* The plain-result cache's slots (plain_cache.c): the whole result of
     * the plain strings "EVENT" and "EVENT:UMASK" (no modifier, no unit
     * mask named three times), built by the rules the second time such a
     * string of the event is encoded: slot 0 for the event alone, slot
     * i + 1 for unit mask i, each NULL until asked for, PMS_PLAIN_SEEN once
     * asked for, then a PmsPlainImage or PMS_PLAIN_REFUSED where the rules
     * refuse that string (a required unit mask missing, ...).  For the
     * load-latency event (plain_lat) slots n_umasks + 1 .. 2 n_umasks + 1
     * hold the same with the threshold given at its minimum
     * ("EVENT:LAT_UMASK:ldlat=MIN"), where the plain string fails for want
     * of it.  plain NULL: no cache for the model's rule set. */
    gpointer *plain;
    guint n_plain; /* slots */
    gboolean plain_lat;
    /* read by the general path only */
    PmsUmaskSet group_mask[PMS_ENC_MAX_GROUPS];
    guint8 group_kind[PMS_ENC_MAX_GROUPS];
    PmsUmaskSet excl_mask;
    PmsUmaskSet equiv_mods; /* umasks whose alias also sets modifiers ("ANY:c=1:i=1") */
    guint32 mod_digit[PMS_ENC_MAX_MODS];
} PmsPrepEvent;

/* A rule set's modifier rules for the plain-result cache (plain_cache.c).
 * On entry `out` holds the rule set's result for the same string without
 * its modifiers (codes, n_codes, selected); the function applies r's
 * modifiers to it as the rule set's own path would: their ranges and
 * combination rules, the final values (out->mod_val), the codes they
 * change and what fstr prints of them (mod_print, mod_big, mod_changed).
 * PMS_MODS_WORDED: the rule set refuses the string and has reported it to
 * error as its own path reports it (the same reporting steps);
 * PMS_MODS_REFUSED: it refuses the string (its own path words the error);
 * PMS_MODS_OTHER: the modifiers do not simply apply to that result (a unit
 * mask forces a value, a modifier lies outside the codes the function
 * patches, ...): the rule set's own path decides. */
typedef enum { PMS_MODS_OK, PMS_MODS_REFUSED, PMS_MODS_WORDED, PMS_MODS_OTHER } PmsModsVerdict;
struct PmsResolved;
struct PmsRuleOut;
typedef PmsModsVerdict (*PmsModsFn)(const struct PmsResolved *r, struct PmsRuleOut *out, GError **error);
typedef struct {
    /* event-select fields the rules write, by name in the model's layout;
     * width 0 (writes nothing) when the layout lacks one */
    PmsField event, umask, intr, any, en;
    /* the event code's bits above the event field's (AMD's 35:32, a 12-bit
     * code): field event_hi; width 0 when the layout has none */
    PmsField event_hi;
    /* event-select bits decode does not compare: the family's decode_ignores
     * fields and the register's ignored bits */
    guint64 decode_ignore;
    PmsPrepMod mods[PMS_ENC_MAX_MODS];
    guint n_mods;
    gint role_mod[PMS_ROLE_LDLAT + 1];                    /* role -> index in mods, -1 when absent */
    guint32 plm_mods;                                     /* bits of k and u (the privilege pair) */
    const PmsRegister *pebs_ld_lat;                       /* register of the ldlat value, or NULL */
    const PmsRegister *evtsel_regs[PMS_ENC_MAX_COUNTERS]; /* by counter index */
    gboolean glm_offcore;                                 /* offcore_style "glm" */
    PmsNameIdx event_idx, mod_idx;                        /* event and modifier names */
    /* mod_idx's answer for each one-letter name, by (upper-case letter & 31):
     * most modifiers are one letter, and this spares them the hash */
    gint8 mod_letter[32];
    char *fstr_mod[PMS_ENC_MAX_MODS]; /* ":k=" ... as fstr prints them, zero-padded words */
    guint fstr_mod_len[PMS_ENC_MAX_MODS];
    guint32 evtsel_mods;                       /* bit j: modifier j has a field in the evtsel (not ldlat) */
    guint64 evtsel_mod_mask[PMS_ENC_MAX_MODS]; /* that field's mask, unshifted */
    /* The evtsel bits every encoding computes, done once: the modifier
     * fields with no modifier given (k=1 u=1, others 0) and EN|INT. */
    guint64 mods_clear, mods_default; /* fields of evtsel_mods; their default values */
    guint64 en_int_clear, en_int;     /* EN and INT fields; both set */
    /* bits every event-select register implements (skl/icl: IN_TXCP, bit
     * 33, only IA32_PERFEVTSEL2's): a value with others may need another
     * counter than the plain result's */
    guint64 evtsel_all_writable;
    guint64 event_fmask, umask_fmask; /* event and umask field masks, unshifted */
    char *uname;                      /* model name upper-cased, zero-padded words */
    guint name_len;
    PmsPrepEvent *events;  /* parallel to model->events */
    gpointer *plain_slots; /* the events' plain slots, one block */
    PmsModsFn plain_mods;  /* the rule set's, for the cache; NULL: no slots */
    guint n_events;
    const PmsEncFamily *fam; /* the model's family entry (families.c); NULL: none */
    GError *error;           /* the model cannot be used (reported per encoding) */
} PmsPrepared;

G_GNUC_INTERNAL const PmsPrepared *pms_prepared_get(const PmsModel *m);
/* Whether an event accepts modifier j of its model: those its `modifiers`
 * key lists, and on fixed-counter events only k, u, t. */
G_GNUC_INTERNAL gboolean pms_mod_allowed(const PmsEvent *ev, const PmsPrepMod *pm, guint j);

/* ---- resolve.c ---- */

typedef struct PmsResolved {
    const PmsModel *model;
    const PmsPrepared *prep;
    const PmsEvent *event;
    const PmsPrepEvent *pe; /* the event's prepared facts */
    const PmsTokens *tok;
    PmsUmaskSet user_umasks;                /* bit i: the user named event->umasks[i] */
    guint umask_col[PMS_ENC_MAX_UMASKS];    /* column of its first mention */
    guint8 umask_count[PMS_ENC_MAX_UMASKS]; /* how many times it was named */
    PmsUmaskSet thrice;                     /* umasks named three times or more */
    guint32 mod_set;                        /* bit j: prep->mods[j] given */
    guint64 mod_val[PMS_ENC_MAX_MODS];
    guint mod_col[PMS_ENC_MAX_MODS];
    guint mod_vcol[PMS_ENC_MAX_MODS]; /* column of its value */
    guint plm;                        /* default privilege (PMS_PLM_*): PMS_PLM_DEFAULT
                                         * unless pms_encode_plm was asked otherwise */
    /* A raw unit mask ("EVENT:0xff", libpfm4's PFM_ATTR_RAW_UMASK on the x86
     * core and uncore PMUs): a number in place of the unit-mask names.  It
     * excludes named unit masks; the rules check its width (raw_val is
     * G_MAXUINT64 for a number too big for 64 bits, as strtoull reads it).
     * Only the rule path takes it: the prepared shortcuts leave it alone. */
    gboolean raw;
    guint64 raw_val;
    guint raw_col;
} PmsResolved;

/* The bits a raw unit mask may have on an event: the event-select umask
 * field, or for an offcore event the writable bits of its extra register
 * (rules_x86_core.c).  *where names the register for messages. */
G_GNUC_INTERNAL guint64 pms_raw_umask_limit(const PmsResolved *r, const char **where);
/* The raw unit mask's width check, in libpfm4's order: attributes are
 * checked in string order, so a modifier out of range before the raw unit
 * mask is reported first (by the caller, which returns FALSE afterwards
 * only for this check's error).  TRUE when the raw unit mask fits or a
 * modifier named before it is out of range. */
G_GNUC_INTERNAL gboolean pms_raw_umask_check(const PmsResolved *r, GError **error);

G_GNUC_INTERNAL gboolean pms_resolve(const PmsModelSet *set, const PmsTokens *t, PmsResolved *r, GError **error);
/* The same after the PMU is known (decode uses it with its one model). */
G_GNUC_INTERNAL gboolean pms_resolve_model(const PmsModel *m, const PmsTokens *t, PmsResolved *r, GError **error);

/* ---- rules ---- */

/* "A, B, C" of the unit masks in mask (bit i = ev->umasks[i]), the first
 * eight and ", ..." after them: the list an error message names. */
void pms_append_umask_names(GString *s, const PmsEvent *ev, PmsUmaskSet mask);
/* Rules every rule set shares (errors.c).  An event with more unit masks or
 * groups than the encoder tracks is PFM_ERR_NOTSUPP; an uncore event (no
 * privilege filter, libpfm_nehalem(3)) takes only the default privilege mask
 * PLM0|PLM3, anything else is PFM_ERR_INVAL. */
gboolean pms_rules_supported(const PmsResolved *r, GError **error);
gboolean pms_rules_uncore_plm(const PmsResolved *r, GError **error);
/* The column of the first-named (last: the last-named) unit mask of a
 * non-empty set: where an error about the set points. */
guint pms_umask_col(const PmsResolved *r, PmsUmaskSet set, gboolean last);
/* The name of the unit mask of the set named at that column ("?" if none). */
const char *pms_umask_at_col(const PmsResolved *r, PmsUmaskSet set, guint col);

/* What a rule set produces; encode.c turns it into a PmsEncoding. */
typedef struct PmsRuleOut {
    PmsUmaskSet selected;              /* umasks in effect (user + defaults) */
    PmsUmaskSet printed;               /* umasks fstr lists (aliases expanded) */
    guint64 mod_val[PMS_ENC_MAX_MODS]; /* final value of every modifier */
    guint32 mod_print;                 /* bit j: fstr prints modifier j */
    guint32 mod_big;                   /* bit j: printed, and its value has two digits or more */
    guint32 mod_changed;               /* bit j: modifier j's value may differ from its digit in the
                              * prepared template (k=1 u=1, others 0); fstr.c sets those */
    guint64 codes[4];
    guint n_codes;
} PmsRuleOut;

/* Shared steps of the rule sets whose modifiers all land in the event
 * select and that print every modifier (errors.c: the Xeon 7500 C-Box, the
 * test-only toy family).  Each given modifier within its range and with a
 * field in the event select, into out->mod_val; then the output of one
 * event-select value `code` with the unit masks `sel`. */
gboolean pms_rules_evtsel_mods(const PmsResolved *r, PmsRuleOut *out, GError **error);
void pms_rules_out_single(const PmsResolved *r, PmsRuleOut *out, PmsUmaskSet sel, guint64 code);

typedef gboolean (*PmsRuleFn)(const PmsResolved *r, PmsRuleOut *out, GError **error);

/* ---- families.c: the family registry's encoder layer ---- */

enum {
    /* takes a raw unit mask "EVENT:0xff" (libpfm4 4.13: the Intel x86 core
     * PMUs and nhm_unc/wsm_unc, PFMLIB_PMU_FL_RAW_UMASK) */
    PMS_ENC_RAW_UMASK = 1u << 0,
    /* a number too big for 64 bits reads as strtoull's saturated value
     * (libpfm4 4.13's uncore code; its range check then refuses it) */
    PMS_ENC_SATURATE = 1u << 2,
    /* no privilege filter: u and k are refused with that reason */
    PMS_ENC_NO_PLM = 1u << 3,
};

struct PmsEncFamily {
    PmsRuleFn rules;
    /* the modifiers applied to a kept plain result (plain_cache.c); NULL:
     * the family's results are not kept, every string takes the rules */
    PmsModsFn mods;
    guint flags; /* PMS_ENC_* */
    /* register values -> canonical string; NULL: the generic event-select
     * decode of decode.c */
    char *(*decode)(const PmsModel *m, guint64 value, gboolean has_extra, guint64 extra, GError **error);
    /* event-select fields no string sets (the tool owns EN and INT, no
     * modifier names PC): the generic decode ignores them, and the harness
     * says when a value's differ from the string's; NULL-terminated */
    const char *const *decode_ignores;
};

/* The model's family entry; NULL when the encoder has none for it. */
G_GNUC_INTERNAL const PmsEncFamily *pms_enc_family(const PmsModel *m);
/* The table's consistency (family.h), for the test `families`. */
gboolean pms_enc_family_table_check(GPtrArray *problems);

/* Rule pieces every x86 rule set and the plain-result cache use, so that
 * none restates them. */
/* A modifier value within the model's range for it (min..max). */
static inline gboolean pms_mod_in_range(const PmsModifier *mod, guint64 v)
{
    return v >= mod->min && v <= mod->max;
}

/* evtsel with the event-select fields of the modifiers in `which` (bits of
 * prep->evtsel_mods) set to their values. */
static inline guint64 pms_evtsel_put_mods(const PmsPrepared *p, guint64 evtsel, guint32 which, const guint64 *mod_val)
{
    for (guint32 ms = which; ms; ms &= ms - 1) {
        guint j = pms_lsb(ms);
        guint64 fm = p->evtsel_mod_mask[j];
        guint sh = p->mods[j].field->shift;
        evtsel = (evtsel & ~(fm << sh)) | ((mod_val[j] & fm) << sh);
    }
    return evtsel;
}

/* What fstr prints of the modifiers (libpfm4 4.13): every one the event
 * takes, with its final value; given: those named or forced; changed:
 * those whose value may differ from the prepared template's (k=1 u=1,
 * others 0). */
static inline void pms_rule_out_print(const PmsPrepEvent *pe, PmsRuleOut *out, guint32 given, guint32 changed)
{
    out->mod_print = pe->allowed_mods;
    out->mod_changed = changed;
    out->mod_big = 0;
    for (guint32 ms = given & pe->allowed_mods; ms; ms &= ms - 1)
        if (out->mod_val[pms_lsb(ms)] >= 10)
            out->mod_big |= 1u << pms_lsb(ms);
}

/* The x86 rule sets' PmsModsFn (their family entries' mods). */
G_GNUC_INTERNAL PmsModsVerdict pms_x86_core_mods(const PmsResolved *r, PmsRuleOut *out, GError **error);
G_GNUC_INTERNAL PmsModsVerdict pms_x86_uncore_mods(const PmsResolved *r, PmsRuleOut *out, GError **error);
G_GNUC_INTERNAL gboolean pms_rules_x86_core(const PmsResolved *r, PmsRuleOut *out, GError **error);
G_GNUC_INTERNAL gboolean pms_rules_x86_uncore(const PmsResolved *r, PmsRuleOut *out, GError **error);
/* libpfm4's NCOMBO check of rules_x86_core.c, for the other x86 rule sets:
 * twice[i] (or NULL) marks unit masks libpfm4 keeps two copies of. */
G_GNUC_INTERNAL gboolean pms_x86_check_exclusive(const PmsResolved *r, const PmsPrepEvent *pe, const guint8 *twice,
                                                 GError **error);
/* AMD's core PMU (rules_amd64.c): the x86 core rules, the event code's
 * high bits and libpfm4's AMD privilege rule on top. */
G_GNUC_INTERNAL gboolean pms_rules_amd64(const PmsResolved *r, PmsRuleOut *out, GError **error);
G_GNUC_INTERNAL gboolean pms_rules_nhmex_cbox(const PmsResolved *r, PmsRuleOut *out, GError **error);
/* Itanium (rules_ia64.c): the counting PMC, and the EAR configuration register
 * of EAR events; decode of those values back to the canonical string. */
G_GNUC_INTERNAL gboolean pms_rules_ia64(const PmsResolved *r, PmsRuleOut *out, GError **error);
G_GNUC_INTERNAL char *pms_ia64_decode(const PmsModel *m, guint64 value, gboolean has_extra, guint64 extra,
                                      GError **error);

/* ---- encode.c ---- */

/* Results are allocated with their capacity in a header before them
 * (PMS_ENC_HEAD bytes, which keep malloc's alignment), and the block a
 * thread frees last is kept for the thread's next result (pms_encoding_free):
 * a batch encodes, prints and frees one result a line, and reusing the block
 * spares it malloc and free.  Thread-local, freed with its thread
 * (encode.c); a result may still be freed by any thread, at any time. */
#define PMS_ENC_HEAD 16
typedef struct {
    gsize *blk;     /* the kept block (its capacity at blk[0]), or NULL */
    gboolean armed; /* the thread's exit frees blk */
} PmsEncSpare;
G_GNUC_INTERNAL extern _Thread_local PmsEncSpare pms_enc_spare
#ifdef __GNUC__
    /* in the static TLS block: no __tls_get_addr call per result */
    __attribute__((tls_model("initial-exec")))
#endif
    ;
/* A new block of at least size bytes (malloc; out of memory ends in
 * g_malloc's abort). */
G_GNUC_INTERNAL PmsEncoding *pms_enc_alloc_new(gsize size);

/* Room for a result of size bytes: the thread's kept block when it is big
 * enough.  Freed by pms_encoding_free only. */
static inline PmsEncoding *pms_enc_alloc(gsize size)
{
    gsize *blk = pms_enc_spare.blk;
    if (G_LIKELY(blk && blk[0] >= size)) {
        pms_enc_spare.blk = NULL;
        return (PmsEncoding *)(gpointer)((char *)blk + PMS_ENC_HEAD);
    }
    return pms_enc_alloc_new(size);
}

/* The result of a rule set's output, as pms_encode makes it: the program
 * step's writes, the fstr, one allocation (pms_encoding_free). */
G_GNUC_INTERNAL PmsEncoding *pms_enc_result(const PmsResolved *r, const PmsRuleOut *out);

/* ---- plain_cache.c ---- */

/* A kept result (a slot of PmsPrepEvent.plain): `size` bytes of a
 * PmsEncoding follow, its writes right after the struct, its fstr at
 * fstr_off, the fstr's modifier tail at fstr_off + tail_off; the two
 * pointers are set when it is copied out.  first: the program step's
 * placement of its event and unit masks, codes aside (first_ok: it has
 * one), which placing the same with a modifier's codes starts from
 * (pms_program_place_codes_from). */
typedef struct {
    guint32 size;
    guint32 fstr_off;
    guint32 tail_off;
    gboolean first_ok;
    PmsPlacement first; /* pointers: the PmsEncoding after it stays 8-byte aligned */
    /* What the program step reads of the codes (pms_program_place_code_bits,
     * pms_program_writes_src): codes whose bits place_bits of codes[0] are
     * the kept codes' are placed as they are; where patch is set, the writes
     * of other codes on that placement are the kept writes with the codes
     * put in as src says. */
    guint64 place_bits;
    guint8 src[PMS_PROGRAM_MAX_WRITES];
    gboolean patch;
    guint32 pad;
} PmsPlainImage;
/* The slot of a string the rules refuse, and of one asked for once. */
G_GNUC_INTERNAL extern const PmsPlainImage pms_plain_refused, pms_plain_seen;
#define PMS_PLAIN_REFUSED ((gpointer)&pms_plain_refused)
#define PMS_PLAIN_SEEN ((gpointer)&pms_plain_seen)

/* Give the model's events their slots (prepared.c, once per model): only
 * for a family whose entry has a PmsModsFn (families.c). */
G_GNUC_INTERNAL void pms_plain_init(const PmsModel *m, PmsPrepared *p);
/* Free the results pe->plain's slots hold (prepared.c, as it frees the
 * model's cache). */
G_GNUC_INTERNAL void pms_plain_clear(PmsPrepEvent *pe);
/* The kept result in the slot of column c (0: the event alone, i + 1: unit
 * mask i; lat: with the threshold), marking the slot the first time and
 * building the result the second; NULL while not built, PMS_PLAIN_REFUSED
 * where the rules refuse that string. */
G_GNUC_INTERNAL const PmsPlainImage *pms_plain_image(const PmsResolved *r, guint c, gboolean lat);
/* pms_plain_answer for a string with modifiers. */
G_GNUC_INTERNAL gboolean pms_plain_answer_mods(const PmsResolved *r, GError **error, PmsEncoding **enc);

/* Answer r (resolved, r->pe->plain set) from the cache: TRUE with *enc the
 * result, or NULL where the rules refuse the string and no error is asked
 * for (error NULL) or the refusal was reported to error as the rules
 * report it; FALSE when the cache does not answer (the rules do).  Inline:
 * the copy of a kept plain result is most of what batches ask for, and
 * costs little more than a call. */
static inline gboolean pms_plain_answer(const PmsResolved *r, GError **error, PmsEncoding **enc)
{
    PmsUmaskSet u = r->user_umasks;
    if (r->plm != PMS_PLM_DEFAULT || r->raw || !pms_uset_empty(r->thrice) || pms_uset_several(u))
        return FALSE; /* not a key of the cache (plain_cache.c) */
    if (r->mod_set)
        return pms_plain_answer_mods(r, error, enc);
    guint c = pms_uset_empty(u) ? 0 : pms_uset_lowest(u) + 1;
    const PmsPlainImage *h = g_atomic_pointer_get(&r->pe->plain[c]);
    if (G_UNLIKELY(!h || h == &pms_plain_seen))
        h = pms_plain_image(r, c, FALSE);
    if (!h || (h == &pms_plain_refused && error))
        return FALSE; /* the rules answer, or word the refusal */
    if (h == &pms_plain_refused) {
        *enc = NULL;
        return TRUE;
    }
    PmsEncoding *e = pms_enc_alloc(h->size);
    memcpy(e, h + 1, h->size);
    e->writes = (PmsRegWrite *)((char *)e + sizeof(PmsEncoding));
    e->fstr = (char *)e + h->fstr_off;
    *enc = e;
    return TRUE;
}

/* ---- fstr.c ---- */

/* Bytes past its end an fstr piece may be read, and the buffer it is
 * written to written: pieces are copied 32 bytes at a time. */
#define PMS_FSTR_SLACK 32
/* Length of the fstr, then the fstr itself written at dst, which must have
 * room for that length + PMS_FSTR_SLACK; returns the end (no NUL written). */
G_GNUC_INTERNAL gsize pms_fstr_len(const PmsResolved *r, const PmsRuleOut *out);
G_GNUC_INTERNAL char *pms_fstr_write(char *dst, const PmsResolved *r, const PmsRuleOut *out);
/* Decimal digits of v. */
static inline guint pms_dec_digits(guint64 v)
{
    guint n = 1;
    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

/* The same for the modifier tail alone (":k=1:u=1:e=0:i=0:c=0", as
 * out->mod_print and mod_val say): the plain-result cache writes it after
 * a kept result's head and unit masks.  The length inline: every encoding
 * sizes its result with it. */
static inline gsize pms_fstr_mods_len(const PmsResolved *r, const PmsRuleOut *out)
{
    const PmsPrepEvent *pe = r->pe;
    gsize n = 0;
    if (out->mod_print == pe->allowed_mods) {
        n += pe->mods_tlen;
        for (guint32 j = out->mod_big; j; j &= j - 1)
            n += pms_dec_digits(out->mod_val[pms_lsb(j)]) - 1;
        return n;
    }
    for (guint32 j = out->mod_print; j; j &= j - 1)
        n += r->prep->fstr_mod_len[pms_lsb(j)] + pms_dec_digits(out->mod_val[pms_lsb(j)]);
    return n;
}
G_GNUC_INTERNAL char *pms_fstr_mods_write(char *dst, const PmsResolved *r, const PmsRuleOut *out);
/* Append the fstr to s (decode). */
G_GNUC_INTERNAL void pms_fstr_build(GString *s, const PmsResolved *r, const PmsRuleOut *out);

/* ---- errors.c ---- */

/* The class-only target of pms_encode_class: while it runs, its error
 * pointer is `target`, and a failure reported there records its class in
 * `code` and its column in `col` (the first one, as a GError keeps the
 * first) and formats no message.  Thread-local: each thread's encodings
 * have their own. */
typedef struct {
    GError **target;
    int code;
    guint col;
    guint formatted; /* messages pms_enc_fail formatted on this thread (tests count them) */
} PmsEncQuiet;
G_GNUC_INTERNAL extern _Thread_local PmsEncQuiet pms_enc_quiet
#ifdef __GNUC__
    /* in the static TLS block: no __tls_get_addr call per failure */
    __attribute__((tls_model("initial-exec")))
#endif
    ;

/* Whether a failure reported to error needs no message: error is NULL
 * (nobody reads it), or pms_encode_class's target (then code and col, the
 * column the message would name, 0 none, are recorded).  Code that builds
 * a message's parts before pms_enc_fail asks this first, with the class
 * and column pms_enc_fail would be given. */
static inline gboolean pms_enc_no_message(GError **error, PmsEncodeError code, guint col)
{
    if (!error)
        return TRUE;
    if (G_LIKELY(error != pms_enc_quiet.target))
        return FALSE;
    if (!pms_enc_quiet.code) {
        pms_enc_quiet.code = (int)code;
        pms_enc_quiet.col = col;
    }
    return TRUE;
}

/* Set a PMS_ENCODE_ERROR with "column N: " in front (col 0: no column);
 * nothing is formatted when pms_enc_no_message says so.
 * Returns FALSE, for `return pms_enc_fail(...)` in a gboolean function.
 * The question is asked inline, before the message's arguments are
 * computed and without a variadic call: batches of errors ask it per line
 * (the arguments error, code and col may be read twice). */
G_GNUC_INTERNAL gboolean pms_enc_fail_fmt(GError **error, PmsEncodeError code, guint col, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);
#define pms_enc_fail(error, code, col, ...)                                                                            \
    (pms_enc_no_message((error), (code), (col)) ? FALSE : pms_enc_fail_fmt((error), (code), (col), __VA_ARGS__))
/* The error for modifier j's value outside mod's range: a value written
 * with a minus sign (which strtoull wraps, as libpfm4 reads it) is called
 * negative instead of quoted as its 64-bit wrap.  The column is that of
 * the value; whether a message is wanted is asked inline, as pms_enc_fail
 * does. */
G_GNUC_INTERNAL void pms_enc_mod_range_fail_fmt(GError **error, PmsEncodeError code, const PmsResolved *r, guint j,
                                                const PmsModifier *mod);
#define pms_enc_mod_range_fail(error, code, r, j, mod)                                                                 \
    do {                                                                                                               \
        if (!pms_enc_no_message((error), (code), (r)->mod_vcol[(j)]))                                                  \
            pms_enc_mod_range_fail_fmt((error), (code), (r), (j), (mod));                                              \
    } while (0)

/* Append a user token for a message: at most 40 bytes, every byte outside
 * printable ASCII as \xNN (the input may hold control bytes or invalid UTF-8). */
G_GNUC_INTERNAL void pms_enc_quote(GString *s, const char *p, gsize len);
/* Same, into a caller's buffer of at least PMS_ENC_QUOTE_MAX bytes. */
#define PMS_ENC_QUOTE_MAX 200
G_GNUC_INTERNAL const char *pms_enc_quote_buf(char *buf, const char *p, gsize len);

/* Copy a token into a NUL-terminated buffer of PMS_ENC_NAME_MAX bytes for a
 * hash lookup; FALSE when it is too long to name anything. */
G_GNUC_INTERNAL gboolean pms_enc_name(char *buf, const char *p, gsize len);
