/* pmusim — the family registry's harness layer (include/pmusim/family.h).
 *
 * What the commands need to know of a family, as hooks: the counting
 * pipeline in words (explain), the register a decoded value
 * goes to, the family's listing, the own signal of a one-line experiment and
 * why a surviving mutant cannot be caught.  A command asks
 * pms_cli_family(m)->hook(...) and never which family m is. */
#pragma once

#include <glib.h>
#include "encoder.h"
#include "family.h"
#include "model.h"

G_BEGIN_DECLS

/* Whether `list --grep` keeps an event (the command's filter). */
typedef gboolean (*PmsCliEventKeep)(const PmsEvent *ev, gconstpointer data);

enum {
    /* `bench sim` measures the family's models when no --pmu is given: its
     * stimuli are core signals (0x3c.0x00, the run-length signals) */
    PMS_CLI_SIM_BENCH = 1u << 0,
    /* the Itanium range restriction and dispatch commands (`ranges`,
     * `dispatch`) take the family's models */
    PMS_CLI_RANGES_DISPATCH = 1u << 1,
    /* `bench encode` times the family's models as its uncore sample */
    PMS_CLI_ENC_BENCH_UNCORE = 1u << 2,
};

/* Options `pmusim encode` takes on behalf of another command of the
 * family: encode with any of them given runs that command with its events
 * (Montecito's ranges, matchers and EARs: `pmusim dispatch`). */
typedef struct {
    const char *command; /* "dispatch" */
    const char *what;    /* "Montecito's measurement parameters", for messages */
    gpointer (*opts_new)(void);
    void (*opts_free)(gpointer opts);
    /* the options, their values stored in opts; ended by a zeroed entry;
     * g_free the array */
    GOptionEntry *(*entries)(gpointer opts);
    /* append the options given to args, as the command's; FALSE when none was */
    gboolean (*forward)(gconstpointer opts, GPtrArray *args);
} PmsCliForward;

/* `sim --freeze`: one field to set so that a PMI freezes counting (read,
 * the field set, written back before the run). */
typedef struct {
    PmsRegKind kind;
    const char *unit; /* NULL: the PMU's own register; else the unit ("ubox") */
    const char *field;
    guint64 value;
    gboolean cause; /* the field that makes a PMI freeze (not a routing field): traces name it */
} PmsCliFreezeField;

typedef struct {
    /* The counting pipeline in words, appended to o after the register
     * writes `explain` prints: one line per stage, then "In short: ...". */
    void (*explain)(GString *o, const PmsEncoding *enc);
    /* `decode`: the register a VALUE is written to; whether the event-select
     * value names an event that needs an extra register value (hints). */
    const PmsRegister *(*decode_reg)(const PmsModel *m);
    gboolean decode_extra_hints;
    /* `list PMU`: the whole-model listing; NULL for the generic one. */
    void (*list_model)(GString *o, const PmsModel *m, PmsCliEventKeep keep, gconstpointer data);
    /* `list PMU EVENT`: the lines between "code" and "alias of": the unit
     * mask and the counters, and the family's facts of the event. */
    void (*list_event)(GString *o, const PmsModel *m, const PmsEvent *ev);
    /* The signal key (PMS_SIGNAL_KEY) codes[0] selects: the stimulus of the
     * event's own one-line experiment (`sim --occurrences`, explain's
     * worked example). */
    guint32 (*own_signal)(const PmsModel *m, const guint64 *codes, guint n_codes);
    /* Why flipping bit `bit` of codes[code] cannot change any count by the
     * documented semantics (a static sentence), or NULL when a vector could
     * catch it.  counter: where the vector programs the event. */
    const char *(*unobservable)(const PmsModel *m, const PmsEvent *ev, guint counter, const guint64 *codes,
                                guint n_codes, guint code, guint bit);
    /* `sim --freeze`: the fields that make a PMI freeze counting, ended by
     * a NULL field; NULL: the family has none to set (`--freeze` refused). */
    const PmsCliFreezeField *freeze;
    /* The modifier that sets the counter's threshold, as the PMU's event
     * strings spell it, for traces and sentences; NULL: "c". */
    const char *threshold;
    guint flags;                         /* PMS_CLI_* */
    const PmsCliForward *encode_forward; /* NULL: none */
} PmsCliFamily;

/* The harness's entry of m's family (every registered family has one). */
const PmsCliFamily *pms_cli_family(const PmsModel *m);
/* The entry of the i-th registered family (pms_family_nth), NULL past the
 * last: for a command that offers every family's options. */
const PmsCliFamily *pms_cli_family_nth(guint i);
/* pms_family_table_check on the harness's table (its test runs it). */
gboolean pms_cli_family_table_check(GPtrArray *problems);

/* ---- perf's forms (perf_render.c), from the model's [perf] alone --------- */

/* `encode --format=perf`: the symbolic event (or why there is no perf
 * syntax), the raw one (or the registers as the model's tool takes them),
 * and why no perf string counts the same (NULL: both do). */
char *pms_cli_perf_symbolic(const PmsEncoding *enc);
char *pms_cli_perf_raw(const PmsEncoding *enc);
char *pms_cli_perf_inexpressible(const PmsEncoding *enc);

/* ---- shared by the hooks and the commands ---------------------------------- */

/* Field `name` of register r in value v; 0 when the layout lacks it. */
guint64 pms_cli_field(const PmsRegister *r, guint64 v, const char *name);
/* A counter mask as ranges of counter numbers, each with prefix ("0-3,6",
 * "PMC4-9,PMC12"); `empty` for none. */
char *pms_cli_counter_ranges(guint64 mask, const char *prefix, const char *empty);
/* "REG (0xADDR) = 0xVALUE" and every field the write sets, one a line. */
void pms_cli_explain_write(GString *o, const PmsRegWrite *w);

G_END_DECLS
