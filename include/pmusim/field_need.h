/* pmusim — a register field found by name in the model, and the fields each
 * family's simulator device and program step cannot do without.  A field's
 * position lives in one place, the model's layout: the program steps and
 * devices (sim_resolve, reg_field.h) find fields with pms_field_find, and the
 * lint reports, with the same words, every field they would refuse a model
 * for (the family checks, models/field_need.c).  Implemented in models/, the
 * lowest module.  Not installed (like embedded.h): internal to the library,
 * G_GNUC_INTERNAL. */
#pragma once

#include <glib.h>
#include "model.h"

/* Find a field of r's layout under its candidate names ("%u" is replaced by
 * idx).  A per-counter layout (field "en" instead of "en0") is accepted with
 * a stride; without a stride, bit idx of a vector field ("pmc = 3:0").  FALSE
 * without the register, its layout or such a field: no position is ever
 * assumed. */
G_GNUC_INTERNAL gboolean pms_field_find(const PmsRegister *r, const char *const *names, guint idx, guint stride,
                                        guint *shift, guint *width);

/* What is missing when r exists and does not give the field what ("register
 * IA32_PERF_GLOBAL_CTRL: layout 'global_ctrl' has no field 'pmc3'"); NULL
 * when r is NULL (without the register, the behaviour it controls is absent
 * too). */
G_GNUC_INTERNAL char *pms_field_missing(const PmsRegister *r, const char *what);
