/* pmusim — MSR_PEBS_FRONTEND and FRONTEND_RETIRED for the x86 core device
 * (SDM-2016 18.13.1.4-5, Tables 18-58/18-59; docs/semantics.md §8d).  Not
 * installed. */
#pragma once

#include "sim_internal.h"

enum { SIM_FE_MAX_ITEMS = 16 };

/* One `fe=` token: `n` instructions retiring in each cycle of the run, each
 * with these front-end events (bits: SIM_FE_*) and, when bubble_len > 0,
 * delivered after bubble_len cycles in which the front end left at least
 * bubble_width of the 4 issue slots empty. */
typedef struct {
    guint32 events;
    guint32 bubble_len, bubble_width;
    guint32 n;
} SimFeInsn;

typedef struct {
    guint64 *msr;                   /* MSR_PEBS_FRONTEND (NULL: the model has none) */
    SimField evtsel, length, width; /* its fields (Table 18-59) */
    guint32 sig;                    /* FRONTEND_RETIRED's signal key */
} SimFe;

/* MSR_PEBS_FRONTEND (kind pebs_frontend) and its fields, FRONTEND_RETIRED's
 * code (the event whose extra register it is; else 0xC6/0x01). */
gboolean sim_fe_init(SimFe *f, PmsSim *sim, GError **error);
/* Does a counter with event code E and unit mask U count FRONTEND_RETIRED? */
gboolean sim_fe_selects(const SimFe *f, const gboolean *exact_code, guint64 E, guint64 U);
/* The run's instructions per cycle that the sub-event MSR_PEBS_FRONTEND
 * selects counts. */
guint64 sim_fe_count(const SimFe *f, const SimFeInsn *v, guint n);
/* The x86 core's `fe=` key (a list of SimFeInsn). */
gboolean sim_fe_key(const PmsModel *m, const char *value, gpointer field, GError **error);
