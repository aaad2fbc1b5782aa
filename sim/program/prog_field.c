/* pmusim — register fields of the model, resolved once by name for the
 * program steps and the simulator's devices (reg_field.h). */
#include "reg_field.h"

#include <stdio.h>
#include <string.h>

SimField sim_resolve(const PmsRegister *r, const char *const *names, guint idx, guint stride, gint fallback_shift,
                     guint fallback_width)
{
    SimField f = { FALSE, 0, 0 };
    if (r == NULL)
        return f;
    if (r->layout == NULL) {
        if (fallback_shift >= 0) {
            f.present = TRUE;
            f.shift = (guint)fallback_shift;
            f.width = fallback_width;
        }
        return f;
    }
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
