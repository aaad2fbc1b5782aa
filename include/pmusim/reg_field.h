/* pmusim — a register field of the model, resolved once by name: shared by
 * the program steps (sim/program/) and the simulator's devices (sim/), which
 * both read the same registers.  Implemented in sim/program/prog_field.c, the
 * lower of the two modules.  Not installed (like embedded.h): internal to the
 * library, G_GNUC_INTERNAL. */
#pragma once

#include <glib.h>
#include "model.h"
#include "field_need.h"

/* A register field resolved once from the model's layout by name. */
typedef struct {
    gboolean present;
    guint shift, width;
} SimField;

static inline guint64 sim_fmask(SimField f)
{
    return f.width >= 64 ? ~(guint64)0 : (((guint64)1 << f.width) - 1);
}
static inline guint64 sim_fget(SimField f, guint64 v)
{
    return f.present ? (v >> f.shift) & sim_fmask(f) : 0;
}
static inline guint64 sim_fset(SimField f, guint64 v, guint64 x)
{
    if (!f.present)
        return v;
    guint64 m = sim_fmask(f) << f.shift;
    return (v & ~m) | ((x << f.shift) & m);
}
static inline guint64 sim_fbit(SimField f)
{
    return f.present ? sim_fmask(f) << f.shift : 0;
}

/* Look a field up under its candidate names (pms_field_find, field_need.h:
 * "%u" is replaced by idx; a per-counter layout with a stride; bit idx of a
 * vector field).  A field's position comes only from the model: without the
 * register, its layout or such a field, the answer is absent (present FALSE),
 * never an architectural guess.  Code that cannot work without the field
 * says so at init (the devices' sim_require, the program steps' prog_need);
 * the lint reports the same fields (field_need.h). */
G_GNUC_INTERNAL SimField sim_resolve(const PmsRegister *r, const char *const *names, guint idx, guint stride);

/* What is missing when r exists and f was not found in it ("register
 * IA32_PERF_GLOBAL_CTRL: layout 'global_ctrl' has no field 'pmc3'"), else
 * NULL; the device's sim_require and the program steps' checks say it. */
G_GNUC_INTERNAL char *sim_field_missing(const PmsRegister *r, SimField f, const char *what);
