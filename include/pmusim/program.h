/* pmusim — programming an event: the one place that puts an event on a
 * counter and turns an encoder's codes[] into register writes.
 *
 * Each architecture has one program step beside its simulator device
 * (program_x86_core.c, ...).  The builtin encoder builds PmsEncoding.writes
 * with it, and the harness feeds any other backend's codes through it, so a
 * wrong bit in any encoder's codes shows up as a wrong register and a wrong
 * count, and a library user gets the same writes the tools use.
 *
 * A write may cover part of a register (mask): "set the enable bit of
 * counter 2 in GLOBAL_CTRL" composes with the writes of other events; the
 * register becomes (old & ~mask) | value.
 */
#pragma once

#include <glib.h>
#include "pms_api.h"
#include "model.h"

G_BEGIN_DECLS

#define PMS_PROGRAM_ERROR (pms_program_error_quark())
PMS_API GQuark pms_program_error_quark(void);

typedef enum {
    PMS_PROGRAM_ERROR_COUNTER,  /* the event may not use that counter, or none */
    PMS_PROGRAM_ERROR_CODES,    /* codes missing, or more than the event has registers for */
    PMS_PROGRAM_ERROR_NOTSUPP,  /* no program step for the model's architecture */
} PmsProgramError;

typedef struct {
    const char *name;        /* register name, owned by the model: "IA32_PERFEVTSEL0" */
    guint32 address;
    guint64 value;           /* the bits written (inside mask) */
    guint64 mask;            /* bits this write owns; G_MAXUINT64 for the whole register */
    const PmsRegister *reg;  /* the model's register */
} PmsRegWrite;

/* Where an event goes. */
typedef struct {
    const PmsModel *model;
    const PmsEvent *event;
    guint counter;           /* index within its kind */
    gboolean fixed;          /* a fixed counter (else a general one) */
} PmsPlacement;

enum { PMS_PROGRAM_MAX_WRITES = 8 };

/* The lowest counter the event (with the unit masks of umask_mask selected,
 * bit i = ev->umasks[i]) may use: a general counter, or for an event no
 * general counter takes, the lowest fixed counter it may use. */
PMS_API gboolean pms_program_place(const PmsModel *m, const PmsEvent *ev, guint64 umask_mask, PmsPlacement *pl,
                           GError **error);
/* The event on a given counter (a vector's choice); FALSE when it may not use it. */
PMS_API gboolean pms_program_place_on(const PmsModel *m, const PmsEvent *ev, guint counter, gboolean fixed,
                              PmsPlacement *pl, GError **error);

/* codes -> writes (at most PMS_PROGRAM_MAX_WRITES): *n_writes set.  The
 * enable bits inside the codes are written as given, so a code without EN
 * counts nothing; the counter's global enable is one of the writes. */
PMS_API gboolean pms_program_writes(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsRegWrite *writes,
                            guint *n_writes, GError **error);

/* The register that holds the placed counter's value, and its overflow bit
 * in the global status register (0 when there is none). */
PMS_API const PmsRegister *pms_program_counter_reg(const PmsPlacement *pl);
PMS_API guint64 pms_program_status_bit(const PmsPlacement *pl);
/* The register that holds that overflow bit (NULL when there is none). */
PMS_API const PmsRegister *pms_program_status_reg(const PmsPlacement *pl);

G_END_DECLS
