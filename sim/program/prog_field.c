/* pmusim — register fields of the model, resolved once by name for the
 * program steps and the simulator's devices (reg_field.h), found by the
 * models' pms_field_find (field_need.h). */
#include "reg_field.h"
#include "prog_internal.h"

SimField sim_resolve(const PmsRegister *r, const char *const *names, guint idx, guint stride)
{
    SimField f = { FALSE, 0, 0 };
    f.present = pms_field_find(r, names, idx, stride, &f.shift, &f.width);
    return f;
}

char *sim_field_missing(const PmsRegister *r, SimField f, const char *what)
{
    return f.present ? NULL : pms_field_missing(r, what);
}

void prog_need(char **missing, const PmsRegister *r, SimField f, const char *what)
{
    if (!*missing)
        *missing = sim_field_missing(r, f, what);
}

gboolean prog_model_ok(const PmsModel *m, const char *missing, GError **error)
{
    if (!missing)
        return TRUE;
    g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_MODEL,
                "model %s: %s (the program step reads it by that name)", m->name, missing);
    return FALSE;
}
