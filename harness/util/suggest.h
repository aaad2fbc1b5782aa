/* pmusim CLI — did you mean: the closest known name to a misspelt one
 * (edit distance), for commands, PMUs, events, unit masks and modifiers. */
#pragma once

#include <glib.h>
#include "model.h"

G_BEGIN_DECLS

/* pms_suggest (model.h): the closest candidate to a word.  The closest of
 * the set's PMU names, of model m's event names; NULL when none is close. */
const char *pms_suggest_pmu(const PmsModelSet *set, const char *name);
const char *pms_suggest_event(const PmsModel *m, const char *name);

/* For an event string the encoder refused with an unknown PMU, event, unit
 * mask or modifier (PFM_ERR_NOTFOUND, PFM_ERR_ATTR): " (did you mean
 * 'wsm::INST_RETIRED'?)" naming the closest known spelling of the part it
 * refused; "" when the error is of another kind or nothing is close.
 * Newly allocated. */
char *pms_suggest_for_string(const PmsModelSet *set, const char *str, const GError *err);

G_END_DECLS
