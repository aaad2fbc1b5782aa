/* pmusim — Last Branch Record (LBR) configuration of the x86 core PMUs
 * (nhm, nhm_ex, wsm, wsm_dp, glm): the encoder's part (encoder/lbr_config.c).
 *
 * The configuration is libpfm's pfmlib_nhm_lbr_t (libpfm_nehalem(3)):
 * lbr_used, lbr_plm (PLM0 and/or PLM3; PLM1 or PLM2 refused; 0 means the
 * default privilege mask) and seven filter flags, each of which, when set,
 * keeps the LBR from capturing one class of branch.  It becomes
 * MSR_LBR_SELECT (suppress bits, one per class and two per privilege side)
 * and IA32_DEBUGCTL (LBR, FREEZE_LBRS_ON_PMI).  Every bit is placed through
 * the model's lbr_select / debugctl layouts by field name: the names of the
 * branch classes below are those fields' names, the vocabulary the
 * configuration, the stimulus's branches and the LBR model share.
 *
 * What a configured LBR_SELECT does with a branch (the capture rule), and
 * the simulator's side, are the LBR model's: lbr.h (sim/lbr_select.c,
 * sim/lbr.c; docs/semantics.md §5.4-5.5). */
#pragma once

#include <glib.h>
#include "pms_api.h"
#include "model.h"
#include "encoder.h"
#include "program.h"

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

/* "jcc", "near_rel_call", ... for one PMS_LBR_* flag; NULL otherwise. */
PMS_API const char *pms_lbr_filter_name(guint flag);

typedef struct {
    gboolean used;          /* lbr_used: FALSE -> no LBR writes at all */
    guint plm;              /* lbr_plm: PMS_PLM0 | PMS_PLM3 or one of them; 0: the default mask */
    guint filter;           /* PMS_LBR_* flags */
    gboolean freeze_on_pmi; /* also set DEBUGCTL.FREEZE_LBRS_ON_PMI (not in libpfm's struct) */
    gboolean callstack;     /* also set LBR_SELECT.EN_CALLSTACK (glm; not in libpfm's struct) */
} PmsLbrConfig;

typedef struct {
    guint64 lbr_select;    /* MSR_LBR_SELECT */
    guint64 debugctl;      /* the IA32_DEBUGCTL bits this configuration owns (debugctl_mask) */
    guint64 debugctl_mask; /* lbr | freeze_lbrs_on_pmi */
    PmsRegWrite writes[2]; /* MSR_LBR_SELECT, then IA32_DEBUGCTL (a partial write: the mask above) */
    guint n_writes;        /* 0 when !used */
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

/* Parse a comma-separated list of filter names ("jcc,near_ret"; "none" is
 * 0) into PMS_LBR_* flags; the error names the word and lists the names. */
PMS_API gboolean pms_lbr_parse_filter(const char *text, guint *filter, GError **error);

/* Parse a privilege list: "0", "3", "0,3" (also "k", "u", "k,u") ->
 * PMS_PLM0 / PMS_PLM3; "1" and "2" parse (to PMS_PLM1 / PMS_PLM2) so that
 * pms_lbr_encode can refuse them with its own message. */
PMS_API gboolean pms_lbr_parse_plm(const char *text, guint *plm, GError **error);

G_END_DECLS
