/* pmusim — the program step's dispatch: every call goes to the program step
 * of the model's architecture (program_<arch>.c), found through its device. */
#include "sim_internal.h"

G_DEFINE_QUARK(pms-program-error-quark, pms_program_error)

static const SimProgramOps *program_for(const PmsModel *m, GError **error)
{
    const SimDeviceOps *d = sim_device_for(m->arch);
    if (d && d->program)
        return d->program;
    g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_NOTSUPP,
                "%s: no program step for architecture %s yet", m->name, pms_arch_name(m->arch));
    return NULL;
}

gboolean pms_program_place(const PmsModel *m, const PmsEvent *ev, guint64 umask_mask, PmsPlacement *pl,
                           GError **error)
{
    const SimProgramOps *p = program_for(m, error);
    if (!p)
        return FALSE;
    if (p->place(m, ev, umask_mask, pl))
        return TRUE;
    g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_COUNTER, "%s: event %s may use no counter of the model",
                m->name, ev->name);
    return FALSE;
}

gboolean pms_program_place_on(const PmsModel *m, const PmsEvent *ev, guint counter, gboolean fixed,
                              PmsPlacement *pl, GError **error)
{
    const SimProgramOps *p = program_for(m, error);
    if (!p || !p->place_on(m, ev, counter, fixed, error))
        return FALSE;
    *pl = (PmsPlacement){ m, ev, counter, fixed };
    return TRUE;
}

gboolean pms_program_writes(const PmsPlacement *pl, const guint64 *codes, guint n_codes, PmsRegWrite *writes,
                            guint *n_writes, GError **error)
{
    const SimProgramOps *p = program_for(pl->model, error);
    *n_writes = 0;
    if (!p)
        return FALSE;
    if (n_codes == 0) {
        g_set_error(error, PMS_PROGRAM_ERROR, PMS_PROGRAM_ERROR_CODES, "%s: no codes to program for %s",
                    pl->model->name, pl->event->name);
        return FALSE;
    }
    return p->writes(pl, codes, n_codes, writes, n_writes, error);
}

const PmsRegister *pms_program_counter_reg(const PmsPlacement *pl)
{
    const SimProgramOps *p = program_for(pl->model, NULL);
    return p ? p->counter_reg(pl) : NULL;
}

guint64 pms_program_status_bit(const PmsPlacement *pl)
{
    const SimProgramOps *p = program_for(pl->model, NULL);
    return p ? p->status_bit(pl) : 0;
}
