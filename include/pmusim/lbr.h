/* pmusim — the Last Branch Record (LBR) of the x86 core PMUs (nhm, nhm_ex,
 * wsm, wsm_dp, glm) as the simulator models it: what an MSR_LBR_SELECT bit
 * means (the capture rule, call-stack mode, the configuration in words:
 * sim/lbr_select.c) and the ring the x86 core device fills (sim/lbr.c).
 *
 * The configuration (--lbr options -> MSR_LBR_SELECT and IA32_DEBUGCTL) and
 * the branch classes with their LBR_SELECT field names are the encoder's:
 * lbr_config.h, included here.  docs/semantics.md §5.4-5.5, §8b. */
#pragma once

#include <glib.h>
#include "pms_api.h"
#include "model.h"
#include "lbr_config.h"
#include "sim.h"

G_BEGIN_DECLS

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
PMS_API gboolean pms_lbr_select_passes(guint64 lbr_select, const PmsModel *m, PmsLbrJmpRule rule, PmsLbrBranchType t,
                                       guint cpl);

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
    guint64 from, to; /* linear addresses of the branch and its target */
    PmsLbrBranchType type;
    guint cpl;             /* the privilege level it was taken at (0..3), or
                             * PMS_SIM_LBR_CPL_RUN: the run's CPL of thread 0 */
    gboolean mispredicted; /* FROM_IP bit 63 (the mispred field) when recorded;
                            * LBR_INFO's mispred bit on a model with LBR_INFO */
    gboolean tsx_abort;    /* the transaction abort itself (LBR_INFO bit 61; also in-TSX) */
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

/* Parse one `branch=` value of the stimulus: FROM:TO:TYPE[:mp][:abort][:cplN]
 * (TYPE a filter name, pms_lbr_filter_name; abort: the record of a
 * transaction abort; cplN overrides `cpl`, the
 * run's CPL of thread 0).  The error says what was expected. */
PMS_API gboolean pms_lbr_parse_branch(const char *text, guint cpl, PmsSimLbrBranch *br, GError **error);

G_END_DECLS
