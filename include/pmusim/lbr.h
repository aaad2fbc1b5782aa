/* pmusim — Last Branch Record (LBR) configuration of the x86 core PMUs
 * (nhm, nhm_ex, wsm, wsm_dp, glm).
 *
 * The configuration is libpfm's pfmlib_nhm_lbr_t (libpfm_nehalem(3)):
 * lbr_used, lbr_plm (PLM0 and/or PLM3; PLM1 or PLM2 refused; 0 means the
 * default privilege mask) and seven filter flags, each of which, when set,
 * keeps the LBR from capturing one class of branch.  It becomes
 * MSR_LBR_SELECT (suppress bits, one per class and two per privilege side)
 * and IA32_DEBUGCTL (LBR, FREEZE_LBRS_ON_PMI).  Every bit is placed through
 * the model's lbr_select / debugctl layouts by field name.
 *
 * The simulator's side (branches in, the ring out) is below
 * (pms_sim_set_lbr_branches) and in docs/semantics.md §5.4-5.5. */
#pragma once

#include <glib.h>
#include "pms_api.h"
#include "model.h"
#include "encoder.h"
#include "program.h"
#include "sim.h"

G_BEGIN_DECLS

/* The filter flags: a set flag drops that class of branch.  Their names
 * (pms_lbr_filter_name) are the lbr_select layout's field names. */
enum {
    PMS_LBR_JCC = 1 << 0,           /* conditional branches */
    PMS_LBR_NEAR_REL_CALL = 1 << 1, /* near relative calls */
    PMS_LBR_NEAR_IND_CALL = 1 << 2, /* near indirect calls */
    PMS_LBR_NEAR_RET = 1 << 3,      /* near returns */
    PMS_LBR_NEAR_IND_JMP = 1 << 4,  /* near indirect jumps */
    PMS_LBR_NEAR_REL_JMP = 1 << 5,  /* near relative jumps */
    PMS_LBR_FAR_BRANCH = 1 << 6,    /* far branches (and interrupts, exceptions) */
    PMS_LBR_N_FILTERS = 7,
    PMS_LBR_FILTER_ALL = (1 << 7) - 1,
};

typedef struct {
    gboolean used;          /* lbr_used: FALSE -> no LBR writes at all */
    guint plm;              /* lbr_plm: PMS_PLM0 | PMS_PLM3 or one of them; 0: the default mask */
    guint filter;           /* PMS_LBR_* flags */
    gboolean freeze_on_pmi; /* also set DEBUGCTL.FREEZE_LBRS_ON_PMI (not in libpfm's struct) */
    gboolean callstack;     /* also set LBR_SELECT.EN_CALLSTACK (glm; not in libpfm's struct) */
} PmsLbrConfig;

typedef struct {
    guint64 lbr_select;     /* MSR_LBR_SELECT */
    guint64 debugctl;       /* the IA32_DEBUGCTL bits this configuration owns (debugctl_mask) */
    guint64 debugctl_mask;  /* lbr | freeze_lbrs_on_pmi */
    PmsRegWrite writes[2];  /* MSR_LBR_SELECT, then IA32_DEBUGCTL (a partial write: the mask above) */
    guint n_writes;         /* 0 when !used */
} PmsLbrEncoding;

/* Encode cfg for model m; dfl_plm (PMS_PLM_DEFAULT in the CLI) stands in for
 * plm 0.  Errors (PMS_ENCODE_ERROR): PMS_ERR_NOTSUPP when the model has no
 * MSR_LBR_SELECT / IA32_DEBUGCTL, PMS_ERR_ATTR_VAL for a privilege mask
 * with PLM1 or PLM2 (the LBR only knows ring 0 and the rest), PMS_ERR_INVAL
 * for a filter flag outside PMS_LBR_FILTER_ALL; callstack on a model whose
 * lbr_select layout has no en_callstack field is PMS_ERR_NOTSUPP.  The
 * filter is not completed for call-stack mode: ask for the SDM's
 * configuration (filter jcc,near_ind_jmp,near_rel_jmp,far_branch) yourself. */
PMS_API gboolean pms_lbr_encode(const PmsModel *m, const PmsLbrConfig *cfg, guint dfl_plm, PmsLbrEncoding *out,
                                GError **error);

/* A branch's class; PMS_LBR_* flag of class t is 1 << t. */
typedef enum {
    PMS_LBR_BR_JCC,
    PMS_LBR_BR_NEAR_REL_CALL,
    PMS_LBR_BR_NEAR_IND_CALL,
    PMS_LBR_BR_NEAR_RET,
    PMS_LBR_BR_NEAR_IND_JMP,
    PMS_LBR_BR_NEAR_REL_JMP,
    PMS_LBR_BR_FAR,
} PmsLbrBranchType;

/* How LBR_SELECT's jump bits treat calls and returns (model option
 * lbr_jmp_rule, semantics.md A13). */
typedef enum {
    PMS_LBR_JMP_RULE_NHM, /* NEAR_REL_JMP also drops near relative calls, NEAR_IND_JMP indirect calls and returns */
    PMS_LBR_JMP_RULE_SNB, /* each bit drops its own class only */
} PmsLbrJmpRule;

/* The model's rule; FALSE (PMS_ENCODE_ERROR, PMS_ERR_NOTSUPP) naming the
 * option when its value is neither "nhm" nor "snb" (absent: "snb"). */
PMS_API gboolean pms_lbr_jmp_rule(const PmsModel *m, PmsLbrJmpRule *rule, GError **error);

/* Does LBR_SELECT let a branch of class t taken at privilege level cpl
 * (0..3) into the LBR?  (Whether the LBR records at all is DEBUGCTL's and
 * the freeze's business, not this.) */
PMS_API gboolean pms_lbr_select_passes(guint64 lbr_select, const PmsModel *m, PmsLbrJmpRule rule,
                                       PmsLbrBranchType t, guint cpl);

/* When LBR_SELECT.EN_CALLSTACK takes effect (model option lbr_callstack,
 * semantics.md §8b; SDM 17.9 p.17-30 documents only one configuration). */
typedef enum {
    PMS_LBR_CALLSTACK_LIFO,       /* "lifo" (default): whenever EN_CALLSTACK is set */
    PMS_LBR_CALLSTACK_CONFIGURED, /* "configured": only with the SDM's configuration, else ignored */
} PmsLbrCallstackRule;

/* The model's rule; FALSE (PMS_ENCODE_ERROR, PMS_ERR_NOTSUPP) naming the
 * option when its value is neither "lifo" nor "configured". */
PMS_API gboolean pms_lbr_callstack_rule(const PmsModel *m, PmsLbrCallstackRule *rule, GError **error);

/* Does the SDM's call-stack configuration hold (SDM 17.9 p.17-30):
 * EN_CALLSTACK, JCC, NEAR_IND_JMP, NEAR_REL_JMP and FAR_BRANCH set,
 * NEAR_REL_CALL, NEAR_IND_CALL and NEAR_RET clear, not both CPL bits set?
 * FALSE on a model without the en_callstack field. */
PMS_API gboolean pms_lbr_callstack_configured(guint64 lbr_select, const PmsModel *m);

/* Is call-stack mode on: the model has en_callstack, it is set and, under
 * PMS_LBR_CALLSTACK_CONFIGURED, pms_lbr_callstack_configured holds. */
PMS_API gboolean pms_lbr_callstack_on(guint64 lbr_select, const PmsModel *m, PmsLbrCallstackRule rule);

/* What the LBR does with one taken branch (DEBUGCTL and the freeze aside). */
typedef enum {
    PMS_LBR_DROP,   /* filtered: nothing changes */
    PMS_LBR_RECORD, /* TOS steps forward, the entry there takes the branch */
    PMS_LBR_POP,    /* call-stack mode, a near return: the entry at TOS is cleared, TOS steps back */
} PmsLbrAction;

/* pms_lbr_select_passes, and in call-stack mode a near return at a ring
 * that LBR_SELECT lets through pops whatever NEAR_RET says (returns are
 * stack operations there, never records: semantics.md §8b). */
PMS_API PmsLbrAction pms_lbr_action(guint64 lbr_select, const PmsModel *m, PmsLbrJmpRule rule,
                                    PmsLbrCallstackRule cs_rule, PmsLbrBranchType t, guint cpl);

/* "jcc", "near_rel_call", ... for one PMS_LBR_* flag; NULL otherwise. */
PMS_API const char *pms_lbr_filter_name(guint flag);

/* Parse a comma-separated list of filter names ("jcc,near_ret"; "none" is
 * 0) into PMS_LBR_* flags; the error names the word and lists the names. */
PMS_API gboolean pms_lbr_parse_filter(const char *text, guint *filter, GError **error);

/* Parse a privilege list: "0", "3", "0,3" (also "k", "u", "k,u") ->
 * PMS_PLM0 / PMS_PLM3; "1" and "2" parse (to PMS_PLM1 / PMS_PLM2) so that
 * pms_lbr_encode can refuse them with its own message. */
PMS_API gboolean pms_lbr_parse_plm(const char *text, guint *plm, GError **error);

/* In words, what MSR_LBR_SELECT and IA32_DEBUGCTL make the LBR capture on
 * model m (rings, branch classes, the NHM jump rule of semantics.md A13,
 * the freeze); one sentence per line.  g_free the result. */
PMS_API char *pms_lbr_describe(const PmsModel *m, guint64 lbr_select, guint64 debugctl);

/* ---- The simulator's side (sim/lbr.c; docs/semantics.md §5.4-5.5) ------- */

/* A branch's cpl that stands for the CPL of thread 0 in the run that
 * offers it (a stimulus's branch= token without cplN). */
enum { PMS_SIM_LBR_CPL_RUN = 4 };

/* One taken branch of thread 0 for the LBR. */
typedef struct {
    guint64 from, to;       /* linear addresses of the branch and its target */
    PmsLbrBranchType type;
    guint cpl;              /* the privilege level it was taken at (0..3), or
                             * PMS_SIM_LBR_CPL_RUN: the run's CPL of thread 0 */
    gboolean mispredicted;  /* FROM_IP bit 63 (the mispred field) when recorded */
} PmsSimLbrBranch;

/* The branches of thread 0, in order, in the first cycle of each following
 * run (before that cycle counts, so before a PMI it raises freezes the LBR),
 * until changed; n = 0 (after pms_sim_new and pms_sim_reset): none; at most
 * PMS_SIM_MAX_BRANCHES.  The x86 core device records each one that
 * IA32_DEBUGCTL.LBR (and, on v4, !LBR_Frz) and MSR_LBR_SELECT let through:
 * MSR_LASTBRANCH_TOS steps forward (mod the number of entries) and the entry
 * it points at takes FROM/TO.  In call-stack mode (pms_lbr_action) a near
 * return instead clears the entry at TOS and steps TOS back.  The stimulus's `branch=` run tokens set them
 * for one run (pms_sim_set_input's "branch" key appends one). */
PMS_API void pms_sim_set_lbr_branches(PmsSim *sim, const PmsSimLbrBranch *br, guint n);

/* The number of LBR entries of the instance's model (0: it has none). */
PMS_API guint pms_sim_lbr_entries(const PmsSim *sim);

/* Parse one `branch=` value of the stimulus: FROM:TO:TYPE[:mp][:cplN]
 * (TYPE a filter name, pms_lbr_filter_name; cplN overrides `cpl`, the
 * run's CPL of thread 0).  The error says what was expected. */
PMS_API gboolean pms_lbr_parse_branch(const char *text, guint cpl, PmsSimLbrBranch *br, GError **error);

G_END_DECLS
