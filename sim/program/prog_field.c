/* pmusim — register fields of the model, resolved once by name for the
 * program steps and the simulator's devices (reg_field.h). */
#include "reg_field.h"
#include "prog_internal.h"

#include <stdio.h>
#include <string.h>

SimField sim_resolve(const PmsRegister *r, const char *const *names, guint idx, guint stride)
{
    SimField f = { FALSE, 0, 0 };
    /* no register, or one without a layout: the field is absent (a position
     * the model does not give is no position) */
    if (r == NULL || r->layout == NULL)
        return f;
    char n[64];
    for (guint i = 0; names[i]; i++) {
        const char *pct = strstr(names[i], "%u");
        if (pct)
            g_snprintf(n, sizeof n, "%.*s%u%s", (int)(pct - names[i]), names[i], idx, pct + 2);
        else
            g_strlcpy(n, names[i], sizeof n);
        const PmsField *pf = pms_layout_field(r->layout, n);
        if (pf) {
            f.present = TRUE;
            f.shift = pf->shift;
            f.width = pf->width;
            return f;
        }
    }
    /* The plain name: with a stride, a per-counter layout describing counter
     * 0; without, a vector field whose bit idx belongs to counter idx
     * ("pmc = 3:0" in GLOBAL_CTRL). */
    for (guint i = 0; names[i]; i++) {
        const char *pct = strstr(names[i], "%u");
        if (!pct)
            continue;
        g_snprintf(n, sizeof n, "%.*s", (int)(pct - names[i]), names[i]);
        const PmsField *pf = pms_layout_field(r->layout, n);
        if (!pf)
            continue;
        if (stride && pf->shift + stride * idx + pf->width <= 64) {
            f.present = TRUE;
            f.shift = pf->shift + stride * idx;
            f.width = pf->width;
            return f;
        }
        if (!stride && idx < pf->width) {
            f.present = TRUE;
            f.shift = pf->shift + idx;
            f.width = 1;
            return f;
        }
    }
    return f;
}

char *sim_field_missing(const PmsRegister *r, SimField f, const char *what)
{
    if (f.present || r == NULL)
        return NULL; /* without the register, the behaviour it controls is absent too */
    if (r->layout == NULL)
        return g_strdup_printf("register %s has no layout: field '%s' is read by name from it", r->name, what);
    return g_strdup_printf("register %s: layout '%s' has no field '%s'", r->name,
                           r->layout->name ? r->layout->name : "?", what);
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
    g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_MODEL, "model %s: %s (the program step reads it by that name)",
                m->name, missing);
    return FALSE;
}
